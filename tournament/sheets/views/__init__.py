"""The scorer's pages: a table's sheet, its confirmation, its history and the round desk."""
