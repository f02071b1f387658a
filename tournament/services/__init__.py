"""The one place that loads rows, calls ``scoring`` and writes inside transactions."""
