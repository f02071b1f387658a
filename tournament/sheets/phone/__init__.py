"""The sheet's face on a phone at the table: the pages a phone opens with a table's code
(``table:`` URLs, ``/e/…``), typing one deal a page, reviewing the sheet, a player who
left and blind confirmation by a second phone. What it shares with the desk is
``sheets.pages``; it never imports the desk."""
