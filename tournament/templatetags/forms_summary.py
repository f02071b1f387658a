"""The error summary's lines (templates/_error_summary.html): each problem says where it
is once. A message that already names its field ("Tables of 4: Pot is at most 99.") is
shown as it is; one that does not ("Enter a whole number.") is given its field's label."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def with_label(error: object, label: object) -> str:
    text, name = str(error), str(label)
    said, field = text.casefold(), name.casefold()
    # Named already: at its start ("Tables of 7 is given more than once"), or after its
    # place ("Tables of 4: cards each is at most 99.").
    if field and (said.startswith(field) or f": {field}" in said):
        return text
    return f"{name}: {text}" if name else text
