"""The forms of a tournament's Scorers page: adding an existing account, unlocking and
removing a scorer; and of invitations (``accounts.invitations``): the organiser's, naming
the scorer to invite or the invitation to withdraw or renew, and the invited scorer's,
choosing a password (checked by Django's password validators); and logging in, on the
login page and the admin pages'."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import AuthenticationForm

from tournament.accounts import invitations
from tournament.accounts.services import AmbiguousUsername, canonical_username
from tournament.models import Tournament


class InviteForm(forms.Form):
    # The Scorers page also has ScorerForm's "username": the prefix keeps the ids apart.
    prefix = "invite"

    username = forms.CharField(
        label="User name for the new scorer",
        max_length=invitations.USERNAME_MAX + 50,
        help_text="Letters, digits and @ . + - _ only; they log in with it.",
        error_messages={"required": "Type the user name the scorer will log in with."},
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )


class InvitationChoiceForm(forms.Form):
    """The invitation a Withdraw or New link button names, by id."""

    invitation = forms.IntegerField(
        min_value=1,
        max_value=2**63 - 1,
        error_messages={
            "required": "Choose the invitation.",
            "invalid": "Choose the invitation from the list.",
            "min_value": "Choose the invitation from the list.",
            "max_value": "Choose the invitation from the list.",
        },
    )


# Long enough for any passphrase; hashing a megabyte of junk would hold a worker up.
PASSWORD_MAX = 1000


class ChoosePasswordForm(forms.Form):
    password1 = forms.CharField(
        label="Password",
        strip=False,
        max_length=PASSWORD_MAX,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
        error_messages={"required": "Choose a password."},
    )
    password2 = forms.CharField(
        label="The same password again",
        strip=False,
        max_length=PASSWORD_MAX,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        error_messages={"required": "Type the password a second time."},
    )

    def __init__(self, *args: Any, username: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.username = username

    def clean_password2(self) -> str:
        first = self.cleaned_data.get("password1")
        second = self.cleaned_data.get("password2", "")
        if first is not None and first != second:
            raise forms.ValidationError("The two passwords differ: type the same one twice.")
        return second

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        password = cleaned.get("password1")
        if password and "password2" in cleaned:
            try:
                invitations.check_password(self.username, password)
            except forms.ValidationError as problems:
                self.add_error("password1", problems)
        return cleaned


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


class UserNameLength(AuthenticationForm):
    """A login form whose user name is refused, beside its box, when it is longer than any
    account's can be (the user model's ``max_length``), before any password is checked:
    django-axes records nothing for it (it keeps user names in a column of 255 characters,
    which PostgreSQL would refuse to overflow). Django's form only tells the browser."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        longest = self.username_field.max_length or 254
        self.fields["username"].validators.append(_at_most(longest))


def _at_most(longest: int) -> Callable[[str], None]:
    def check(value: str) -> None:
        if len(value) > longest:
            raise forms.ValidationError(
                f"User name: at most {longest} characters, and this one has {len(value)}; "
                "no account has such a name.",
                code="max_length",
            )

    return check


class LoginForm(UserNameLength):
    """Django's login form, matching the user name ignoring case and surrounding spaces
    (``accounts.services.canonical_username``). The account's own user name is what is checked
    and what django-axes counts failures under, so "Olive" and "olive" share one lockout."""

    def clean_username(self) -> str:
        try:
            return canonical_username(self.cleaned_data["username"])
        except AmbiguousUsername:
            # No account is picked: the password is checked against none, as for a name
            # nobody has (the form's error does not say which accounts exist).
            return str(self.cleaned_data["username"]).strip()


class AdminLoginForm(UserNameLength, AdminAuthenticationForm):
    """The admin pages' login, with the same limit on the user name."""
