"""The organiser's forms of the Webhooks page: adding an endpoint, and choosing one for
a button (rotate, switch, remove, ping)."""

from __future__ import annotations

from django import forms

from tournament.models import WebhookFormat
from tournament.models.webhooks import URL_MAX
from tournament.webhooks.messages import EVENTS


class WebhookForm(forms.Form):
    url = forms.CharField(
        label="Address (URL)",
        max_length=URL_MAX,
        help_text="Where the messages are sent: a Discord or Slack channel's webhook "
        "address, or your own receiver's (https://…).",
        widget=forms.URLInput(attrs={"autocomplete": "off", "inputmode": "url"}),
    )
    format = forms.ChoiceField(
        label="Format",
        choices=WebhookFormat.choices,
        initial=WebhookFormat.STANDARD,
        widget=forms.RadioSelect,
    )
    events = forms.MultipleChoiceField(
        label="Events",
        choices=[(event.key, f"{event.label} ({event.key})") for event in EVENTS],
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Choose at least one event to send."},
    )


class EndpointForm(forms.Form):
    endpoint = forms.IntegerField(min_value=1, max_value=2**63 - 1)


class SwitchForm(EndpointForm):
    on = forms.TypedChoiceField(
        choices=[("1", "on"), ("0", "off")], coerce=lambda value: value == "1"
    )
