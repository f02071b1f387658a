"""What is worked out from a tournament's facts, once per change: its public and
organiser's views (``build``) and the podium chances (``chances``), after the commit of
the change (``refresh``) or as tasks of the worker (``tasks``). The pages read the
stored views through ``shared.derived``; docs/architecture.md has the map."""
