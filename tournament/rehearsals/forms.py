"""The forms of a rehearsal's buttons."""

from __future__ import annotations

from django import forms

from tournament.kernel import limits


class RehearseForm(forms.Form):
    NEW = "new"
    SETTINGS = "settings"

    tournament = forms.CharField(max_length=limits.SLUG_MAX, validators=limits.slug_validators())
    # Where the button was: a refusal is shown there.
    came_from = forms.ChoiceField(choices=[(NEW, NEW), (SETTINGS, SETTINGS)], required=False)


class RemoveForm(forms.Form):
    confirm = forms.BooleanField(required=False)
