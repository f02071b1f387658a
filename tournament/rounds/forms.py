"""The forms of a round's seating (seat, swap, start, release)."""

from typing import Any, cast

from django import forms
from django.db.models import QuerySet

from scoring.seating import method_choices
from tournament.kernel.forms import PlayerChoiceField
from tournament.models import Player


class SeatRoundForm(forms.Form):
    method = forms.ChoiceField(choices=method_choices)
    seed = forms.IntegerField(required=False, min_value=0, max_value=10**9)
    split = forms.ChoiceField(required=False, label="Tables")

    def __init__(self, *args: Any, splits: list[tuple[int, ...]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["split"]).choices = [("", "best split")] + [
            (",".join(map(str, s)), " + ".join(map(str, s))) for s in splits
        ]

    def clean_split(self) -> tuple[int, ...] | None:
        value = self.cleaned_data.get("split")
        return tuple(int(part) for part in value.split(",")) if value else None


class SwapForm(forms.Form):
    first = PlayerChoiceField(queryset=Player.objects.none(), label="Swap")
    second = PlayerChoiceField(queryset=Player.objects.none(), label="with")
    reseat = forms.BooleanField(
        required=False, label="Re-seat a started round (only tables with no scores yet)"
    )

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["first"]).queryset = players
        cast(forms.ModelChoiceField, self.fields["second"]).queryset = players


class StartRoundForm(forms.Form):
    # The seating the organiser was shown (``rounds.swaps.seating_token``); absent from a
    # request that did not come from the round page.
    seating = forms.CharField(required=False, max_length=128)
    # Set by the second press, after the page asked whether to start although the round
    # before still has tables with no confirmed sheet.
    confirm = forms.BooleanField(required=False)


class ReleaseRoundForm(forms.Form):
    # Set by the second press, after the page asked whether to release although tables of
    # the round have no confirmed sheet.
    confirm = forms.BooleanField(required=False)
