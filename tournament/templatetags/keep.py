"""``{% keep_attrs table version %}``: the attributes that let static/js/keep.js keep what
is typed into a sheet form in the browser until the server has it.

The keys name the table and the sheet version the form was made from
(``sheet:<slug>:<round>:<table>:v<version>``), so that cells typed on this device come
back on this table's page and no other, and cells typed against an older version are
recognised as such once someone has saved the sheet meanwhile. A page with several forms
of one table names each (``form``): its keys then differ in that part too.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tournament.models import Table
from tournament.sheets.pages.keep import keep_key, keep_table_key

register = template.Library()


@register.simple_tag
def keep_attrs(table: Table, version: int, form: str = "") -> SafeString:
    """``data-keep`` and ``data-keep-table`` for a ``<form>`` of ``table`` made from
    sheet ``version``."""
    return format_html(
        'data-keep="{}" data-keep-table="{}"',
        keep_key(table, version, form),
        keep_table_key(table, form),
    )
