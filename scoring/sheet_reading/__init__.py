"""Reading a photo of a printed score sheet.

A *sheet* here is the printed block of one table's score sheet: its corner markers, its QR
code naming the tournament, round and table, and one box per digit (or tick) a camera reads.
Everything in this package works in the sheet's own millimetres, measured from the top left
of the block, so it never needs to know on which paper the block was printed.

Pure Python: no Django. OpenCV is imported only inside the modules that read photos, never
when this package is imported.
"""
