"""The form of a player's "Penalties and awards" section (``services.adjustments``
checks what it gives)."""

from typing import Any

from django import forms

from tournament.kernel import limits
from tournament.models import Round, Tournament
from tournament.standings.adjustments import SUGGESTED_REASONS

REASONS_LIST = "adjustment-reasons"


class AdjustmentForm(forms.Form):
    round = forms.TypedChoiceField(
        label="Round",
        coerce=int,
        error_messages={
            "required": "Choose the round.",
            "invalid_choice": "Choose one of the rounds started.",
        },
    )
    points = forms.IntegerField(
        label="Points (below 0 for a penalty)",
        error_messages={
            "required": "Give the points, such as -2 for a penalty or 3 for an award.",
            "invalid": "Give a whole number of points, such as -2 or 3.",
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}),
    )
    reason = forms.CharField(
        label="Reason",
        max_length=limits.REASON_MAX,
        error_messages={"required": "Say why, for example “misdeal” or “slow play”."},
        widget=forms.TextInput(attrs={"list": REASONS_LIST, "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        numbers = list(
            Round.objects.filter(tournament=tournament, started=True)
            .order_by("number")
            .values_list("number", flat=True)
        )
        field = self.fields["round"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [(number, f"Round {number}") for number in numbers]
        if numbers:
            # The round being played is the likeliest.
            self.initial.setdefault("round", numbers[-1])
        self.reasons = SUGGESTED_REASONS


class RemoveAdjustmentForm(forms.Form):
    adjustment = forms.IntegerField(widget=forms.HiddenInput)
