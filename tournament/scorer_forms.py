"""The forms of a tournament's Scorers page: adding an existing account, unlocking and
removing a scorer (inviting a new one: ``invitation_forms``)."""

from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model

from tournament.models import Tournament


class ScorerForm(forms.Form):
    username = forms.CharField(label="User name of the scorer", max_length=150)


class UnlockScorerForm(forms.Form):
    """Which of the tournament's scorers to let log in again."""

    scorer = forms.ModelChoiceField(
        queryset=get_user_model().objects.none(),
        error_messages={
            "required": "Choose the scorer to unlock.",
            "invalid_choice": "That account is not a scorer of this tournament.",
        },
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["scorer"]).queryset = tournament.scorers.all()


class RemoveScorerForm(forms.Form):
    """The scorer to remove: one of this tournament's, by account id."""

    user = forms.ModelChoiceField(
        queryset=get_user_model().objects.none(),
        error_messages={
            "required": "Choose the scorer to remove.",
            "invalid_choice": "That account is not a scorer of this tournament (any more).",
        },
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["user"]).queryset = tournament.scorers.all()
