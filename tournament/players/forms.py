"""The forms of a tournament's players: one player (a new one perhaps linked at once to a
person of the register), a list to import, checking everyone in,
pairs kept apart, and a penalty or award given or taken back (``adjustments`` checks it)."""

from typing import Any, cast

from django import forms

from tournament.kernel import limits
from tournament.kernel.forms import NameAndClubChecks, PlayerChoiceField, limit_to
from tournament.models import KeepApart, Person, Player, Round, Tournament
from tournament.people.forms import member_number
from tournament.players.adjustments import SUGGESTED_REASONS

# Why an organiser who may not keep the register links no player to it.
NOT_LINKING = (
    "linking players to the register of people is for the installation’s organisers, and "
    "your account is not one of them"
)


class PlayerForm(NameAndClubChecks, forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name", "club", "fixed_table"]
        labels = {"fixed_table": "Always at table (accessibility)"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        limit_to(self.fields["fixed_table"], limits.FIXED_TABLE)


class CsvImportForm(forms.Form):
    text = forms.CharField(
        label="Paste the list",
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "placeholder": "name,club\nAnn Smith,Red Lion"}),
    )
    file = forms.FileField(label="or upload a CSV file", required=False)
    skip_bad = forms.BooleanField(required=False, widget=forms.HiddenInput)
    # Set by the preview's button: only then is anything imported.
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    MAX_BYTES = 1_000_000

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        if upload:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(
                    "The file is larger than 1 MB; is it a list of players?"
                )
            try:
                data["text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(
                    "The file is not UTF-8 text: save it as “CSV UTF-8” and upload it again."
                ) from None
        text = data.get("text") or ""
        if not text.strip():
            raise forms.ValidationError("Paste a list of players or choose a file.")
        if len(text.encode()) > self.MAX_BYTES:
            raise forms.ValidationError("The list is larger than 1 MB; is it a list of players?")
        return data

    def add_error(self, field: str | None, error: Any) -> None:
        # The players page shows this form's errors in one place, above it: an error kept
        # beside a field (an empty file, a NUL character) would not be shown at all.
        super().add_error(None, error)


class KeepApartForm(forms.Form):
    first = PlayerChoiceField(queryset=Player.objects.none(), label="Keep")
    second = PlayerChoiceField(queryset=Player.objects.none(), label="apart from")

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = Player.objects.filter(tournament=tournament).order_by("name")
        cast(forms.ModelChoiceField, self.fields["first"]).queryset = players
        cast(forms.ModelChoiceField, self.fields["second"]).queryset = players

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError("Choose two different players.")
        return data


class RemoveKeepApartForm(forms.Form):
    """The kept-apart pair to let sit together again: one of this tournament's."""

    pair = forms.ModelChoiceField(
        queryset=KeepApart.objects.none(),
        error_messages={
            "required": "Choose the pair to let sit together.",
            "invalid_choice": "That pair is not kept apart in this tournament (any more).",
        },
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["pair"]).queryset = KeepApart.objects.filter(
            tournament=tournament
        ).select_related("first", "second")


class CheckInEveryoneForm(forms.Form):
    """The players a "Check in everyone not yet in" confirmation named, as their ids
    in one field: a room of players would be more fields than a request may carry."""

    players = forms.CharField(
        max_length=200_000,
        widget=forms.HiddenInput,
        error_messages={"required": "No players were named: open the confirmation again."},
    )

    def clean_players(self) -> list[int]:
        ids = self.cleaned_data["players"].split(",")
        if not all(each.isascii() and each.isdigit() and len(each) < 12 for each in ids):
            raise forms.ValidationError(
                "The players to check in could not be read: open the confirmation again."
            )
        return [int(each) for each in ids]


class AddPlayerForm(PlayerForm):
    """A new player, perhaps linked at once to a person chosen from the register or
    found by member number: only by an organiser who may keep the register
    (``keeps_people``, ``permissions.may_keep_people``). For anyone else a person or a
    member number posted is refused in words, never looked up."""

    member = forms.CharField(
        label="Member number (optional)",
        max_length=limits.MEMBER_MAX + 10,
        required=False,
    )
    person = forms.IntegerField(required=False, widget=forms.HiddenInput)

    class Meta(PlayerForm.Meta):
        pass

    def __init__(self, *args: Any, keeps_people: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.keeps_people = keeps_people

    def clean_member(self) -> str:
        typed = self.cleaned_data["member"]
        if not self.keeps_people and typed.strip():
            # Said above the form: the page shows no member number box to this account.
            self.add_error(
                None,
                f"Member number “{typed.strip()}”: {NOT_LINKING}; add the player without it.",
            )
            return ""
        return member_number(typed)

    def clean_person(self) -> Person | None:
        pk = self.cleaned_data.get("person")
        if pk is None:
            return None
        if not self.keeps_people:
            self.add_error(
                None, f"A person of the register was chosen: {NOT_LINKING}; add the player alone."
            )
            return None
        person = Person.objects.filter(pk=pk).first()
        if person is None:
            raise forms.ValidationError("That person is no longer in the register.")
        return person

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        person, member = data.get("person"), data.get("member")
        if person is not None and member and person.member and person.member != member:
            self.add_error(
                "member", f"{person.name}’s member number is {person.member}, not {member}."
            )
        return data


# The id of the datalist of suggested reasons, which the field names.
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
