"""The keys under which static/js/keep.js keeps what is typed into a sheet form in the
browser until the server has it: ``sheet:<slug>:<round>:<table>`` and the sheet version
the form was made from (``templatetags/keep.py`` puts them on the form)."""

from __future__ import annotations

from tournament.models import Table


def keep_table_key(table: Table, form: str = "") -> str:
    """The key of ``table``'s form without its version: what every version shares."""
    key = f"sheet:{table.round.tournament.slug}:{table.round.number}:{table.number}"
    return f"{key}:{form}" if form else key


def keep_key(table: Table, version: int, form: str = "") -> str:
    return f"{keep_table_key(table, form)}:v{version}"
