"""A series' pages: the public ones (series, ratings, careers, clubs) and its owner's."""
