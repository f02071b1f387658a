"""The sheet's face at the desk: the scorer's pages (``scorer:`` URLs, ``/score/…``), the
round desk and the scorer's home, a table's sheet, its confirmation and its history.
What it shares with the phone is ``sheets.pages``; it never imports the phone."""
