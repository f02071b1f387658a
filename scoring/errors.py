"""Errors a person can fix.

A ``UserError`` carries a message in words a scorer or organiser understands, naming
where the problem is (round, table, deal, seat, line of a file). Anything else that is
raised means a bug and should crash loudly.
"""


class UserError(Exception):
    """A problem in what someone typed or uploaded, worded for that person."""
