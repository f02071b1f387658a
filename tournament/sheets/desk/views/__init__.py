"""The scorer's pages at the desk: the round desk and the scorer's home, a table's sheet,
its confirmation and its history."""
