"""What every face of the sheet (``sheets.phone``, ``sheets.desk``) shares on its pages:
what a sheet form posted, read (``forms``: the rows typed, the players who left, the
version), what a page shows for the rows (``view_model``) and the keys under which the
browser keeps a form (``keep``). Only the sheet's faces, and the template tags that put
the keys on a form, import them."""
