"""Views, split by audience: public, organiser, scorer, printing."""
