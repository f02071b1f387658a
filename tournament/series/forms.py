"""The forms of an organiser's series pages: the series' settings and the tournaments in
it. The placing scheme's points are typed as a list, "25, 18, 15, 12"."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import capfirst

from scoring import series as series_scoring
from scoring.errors import UserError
from tournament.kernel import limits
from tournament.kernel.forms import NameCheck
from tournament.models import Series, default_placing


def placing_text(points: list[int]) -> str:
    return ", ".join(str(p) for p in points)


def parse_placing(text: str) -> list[int]:
    """ "25, 18, 15" as [25, 18, 15], read as the ``create_series`` command reads it; a
    ``ValidationError`` names the place that is wrong."""
    try:
        return list(series_scoring.parse_placing(text))
    except UserError as error:
        raise forms.ValidationError(capfirst(str(error))) from None


class SeriesForm(NameCheck, forms.ModelForm):
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
