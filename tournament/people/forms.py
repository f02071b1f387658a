"""Forms of the register of people and of linking a tournament's players to it; their
checks are ``people.services``'s (member numbers) and the players' rule for names."""

from __future__ import annotations

from typing import Any

from django import forms

from scoring.errors import UserError
from tournament.kernel import limits
from tournament.kernel.forms import NameAndClubChecks
from tournament.models import Person
from tournament.people import services as people


def member_number(value: str) -> str:
    try:
        return people.clean_member(value, "Member number")
    except UserError as problem:
        raise forms.ValidationError(f"{problem}.") from None


class PersonForm(NameAndClubChecks, forms.Form):
    name = forms.CharField(max_length=limits.NAME_MAX)
    club = forms.CharField(max_length=limits.CLUB_MAX, required=False)
    member = forms.CharField(
        label="Member number",
        max_length=limits.MEMBER_MAX + 10,
        required=False,
        help_text="Optional; unique on this installation.",
    )

    def clean_member(self) -> str:
        return member_number(self.cleaned_data["member"])


class MergeForm(forms.Form):
    """``other`` becomes the person merged into; ``member`` the number kept when both
    have one."""

    other = forms.IntegerField(widget=forms.HiddenInput)
    member = forms.CharField(required=False)

    def __init__(self, *args: Any, person: Person, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.person = person

    def clean_other(self) -> Person:
        other = Person.objects.filter(pk=self.cleaned_data["other"]).first()
        if other is None:
            raise forms.ValidationError("That person is no longer in the register.")
        if other.pk == self.person.pk:
            raise forms.ValidationError("Choose another person to merge with.")
        return other
