"""What the forms of every package share: a player told apart by club, the range of a
number field, one check of every name and club (``checked_text``, ``NameCheck``: a
tournament's, a series', a player's and a person's, by ``kernel.names.text_problem``),
and a form's errors in one sentence."""

from typing import Any

from django import forms
from django.utils.text import capfirst

from tournament.kernel import limits
from tournament.kernel.names import text_problem


def player_label(name: str, club: str) -> str:
    """A player as told apart from another of the same name: by the club."""
    return f"{name} ({club})" if club else name


def shared_names(names: list[str]) -> set[str]:
    """The names (casefolded) that more than one of ``names`` has."""
    seen: set[str] = set()
    shared: set[str] = set()
    for name in names:
        key = name.casefold()
        (shared if key in seen else seen).add(key)
    return shared


def limit_to(field: forms.Field, allowed: limits.Range) -> None:
    """Give a number field the range of ``allowed``: checked on the server, and shown to
    the browser as the input's min and max."""
    assert isinstance(field, forms.IntegerField)
    field.min_value, field.max_value = allowed.low, allowed.high
    field.validators += allowed.validators()
    field.error_messages |= {"min_value": allowed.message, "max_value": allowed.message}
    field.widget.attrs.update(min=allowed.low, max=allowed.high)


class PlayerChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return player_label(obj.name, obj.club)


class NameCheck:
    """A form's ``name`` (required): spaces tidied and checked by the one rule for names
    (a tournament's, a series', a player's, a person's)."""

    cleaned_data: dict[str, Any]

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("The name is empty.")
        return checked_text(name, "name")


class NameAndClubChecks(NameCheck):
    """A person's or a player's name (required) and club, spaces tidied and checked as
    every name is."""

    def clean_club(self) -> str:
        return checked_text(" ".join(self.cleaned_data["club"].split()), "club")


def form_errors(form: forms.Form) -> str:
    """All of ``form``'s errors as one message."""
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


def checked_text(value: str, what: str) -> str:
    """``value`` if it passes the one rule for names and clubs
    (``kernel.names.text_problem``); a ``ValidationError`` in its words otherwise."""
    problem = text_problem(value, what)
    if problem:
        raise forms.ValidationError(capfirst(problem) + ".")
    return value
