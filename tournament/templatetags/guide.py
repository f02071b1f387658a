"""``{% help_url view_name %}``: the guide's page about the site's page ``view_name``
(``tournament.kernel.guide.HELP``), or the empty string for a page it has none for."""

from django import template
from django.urls import reverse

from tournament.kernel.guide import HELP

register = template.Library()


@register.simple_tag
def help_url(view_name: str | None) -> str:
    target = HELP.get(view_name or "")
    if target is None:
        return ""
    page, _, anchor = target.partition("#")
    url = reverse("guide_file", kwargs={"path": page})
    return f"{url}#{anchor}" if anchor else url
