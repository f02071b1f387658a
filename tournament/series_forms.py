"""The forms of an organiser's series pages: the series' settings and the tournaments in
it. The placing scheme's points are typed as a list, "25, 18, 15, 12"."""

from __future__ import annotations

import itertools
from typing import Any

from django import forms

from tournament import limits
from tournament.models import Series, default_placing

# More places than any field has players would only be typing.
PLACING_MAX = 1000
POINTS_MAX = 100_000


def placing_text(points: list[int]) -> str:
    return ", ".join(str(p) for p in points)


def parse_placing(text: str) -> list[int]:
    """ "25, 18, 15" as [25, 18, 15]; a ``ValidationError`` names the item that is wrong."""
    items = [item.strip() for item in text.replace(";", ",").split(",")]
    if items and items[-1] in {"", "…", "..."}:
        items.pop()  # "25, 18, 15…" or a trailing comma: the rest score 0 anyway
    if not items or items == [""]:
        raise forms.ValidationError("Type the points of 1st, 2nd, 3rd… place, as in “25, 18, 15”.")
    if len(items) > PLACING_MAX:
        raise forms.ValidationError(f"At most {PLACING_MAX} places; the later ones score 0.")
    points = []
    for place, item in enumerate(items, start=1):
        item = item.rstrip("….").strip()
        if not item.isdigit() or int(item) > POINTS_MAX:
            shown = item or "nothing"
            raise forms.ValidationError(
                f"Place {place}: “{shown}” is not a whole number of points from 0 to {POINTS_MAX}."
            )
        points.append(int(item))
    if any(later > earlier for earlier, later in itertools.pairwise(points)):
        raise forms.ValidationError(
            "A later place may not score more than an earlier one: list the points from 1st "
            "place down."
        )
    return points


class SeriesForm(forms.ModelForm):
    # A plain text field: the model's slug validators word what is wrong better than
    # Django's own slug check, which would come first.
    slug = forms.CharField(
        label="Address",
        required=False,
        max_length=limits.SLUG_MAX,
        help_text="The series page is /s/ADDRESS/: lower-case letters, digits and hyphens. "
        "Empty: made from the name.",
    )
    placing = forms.CharField(
        label="Points by place",
        required=False,
        max_length=4000,
        help_text="Under the placing scheme: 1st, 2nd, 3rd… place; later places score 0. "
        "Players sharing places split their points.",
    )

    class Meta:
        model = Series
        fields = ["name", "slug", "scheme", "placing", "count_best", "min_events"]
        labels = {
            "count_best": "Count the best",
            "min_events": "Ranked from",
        }
        help_texts = {
            "count_best": "Tournaments counted for each person (their best results). "
            "Empty: all of them.",
            "min_events": "Tournaments a person must play to be ranked; the others are listed "
            "after, unranked.",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["placing"].initial = placing_text(
            self.instance.placing if self.instance.pk else default_placing()
        )
        if self.instance.pk:
            self.initial["placing"] = placing_text(self.instance.placing)
        for name, low in (("count_best", 1), ("min_events", 1)):
            field = self.fields[name]
            assert isinstance(field, forms.IntegerField)
            field.min_value, field.max_value = low, 1000
            field.validators.append(_at_least(low))
            field.widget.attrs.update(min=low, max=1000)

    def clean_slug(self) -> str:
        typed = self.cleaned_data.get("slug", "").strip()
        slug = typed or limits.slug_from_name(self.data.get("name", ""))
        if not slug:
            raise forms.ValidationError("Give an address: letters, digits and hyphens.")
        for validate in limits.slug_validators():
            validate(slug)
        if Series.objects.filter(slug=slug).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(f"The address “{slug}” is taken; choose another.")
        return slug

    def clean_placing(self) -> list[int]:
        text = self.cleaned_data.get("placing", "")
        if not text.strip():
            return default_placing()
        return parse_placing(text)


def _at_least(low: int) -> Any:
    def check(value: int | None) -> None:
        if value is not None and value < low:
            raise forms.ValidationError(f"At least {low}.")

    return check


class AddTournamentForm(forms.Form):
    tournament = forms.CharField(
        label="Tournament address",
        max_length=limits.SLUG_MAX + 50,
        help_text="The part after /t/ in the tournament's address, as in “red-lion-2026”. "
        "Another organiser's tournament joins once they accept.",
    )


class EntryForm(forms.Form):
    """Which entry (or request) a button acts on."""

    entry = forms.IntegerField(min_value=1)
