"""The forms of a tournament's settings and its tiebreaks (its players, scorers and rounds
have theirs in their own packages)."""

import json
from typing import Any

from django import forms

from scoring.rules import MAX_TABLE_SIZE, MIN_TABLE_SIZE
from scoring.rulesets import (
    HOUSE,
    HOUSE_FIELDS,
    HOUSE_LABELS,
    RULE_SETS,
    SIZE_KEYS,
    STANDARD,
    LeftOverTo,
    RuleSet,
    house_rules,
    sizes_text,
    table_problems,
)
from scoring.simulation import advisor
from scoring.systems import ScoringSystem, allowed_sizes
from scoring.tiebreaks import DEFAULT_TIEBREAKS, TIEBREAKS, tiebreak
from tournament.kernel import limits
from tournament.kernel.forms import NameCheck, limit_to
from tournament.models import Tournament, default_table_sizes
from tournament.sheets.rotations import deals_beyond_rotations, rotations_refusal


class TournamentForm(NameCheck, forms.ModelForm):
    table_sizes = forms.TypedMultipleChoiceField(
        choices=[(size, f"tables of {size}") for size in range(MIN_TABLE_SIZE, MAX_TABLE_SIZE + 1)],
        coerce=int,
        # A declared field does not take the model field's default as ModelForm's own
        # fields do: without this, a new tournament's form has no size ticked.
        initial=default_table_sizes,
        widget=forms.CheckboxSelectMultiple,
        help_text="Under mixed tables: the sizes allowed beside five (3 only when nothing "
        "else works), among those the rule set seats.",
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "date",
            "venue",
            "scoring",
            "rule_set",
            "rotations_per_round",
            "planned_rounds",
            "table_policy",
            "table_sizes",
            "bye_score",
            "keep_clubs_apart_rounds",
            "two_person_check",
            "hold_back_rounds",
            "seating_public",
            "round_minutes",
            "table_entry",
            "table_confirm",
        ]
        # <input type="date"> reads and posts ISO dates only, whatever the site's language.
        widgets = {"date": forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})}
        labels = {
            "slug": "Address (slug)",
            "rule_set": "Rule set: the cards dealt and the stakes at each table size",
            "rotations_per_round": "Rotations per round",
            "keep_clubs_apart_rounds": "Keep players of one club apart for the first … rounds",
            "two_person_check": "Two-person check of score sheets",
            "hold_back_rounds": "Hold back the results of the last … rounds until the final reveal",
            "seating_public": "Show a round's seating on the public pages once it starts",
            "round_minutes": "Round clock (minutes)",
            "table_entry": "Tables type their own sheets on a phone",
            "table_confirm": "A second phone at the table may confirm a sheet",
        }
        help_texts = {
            "rule_set": "Each is named after its source; the Rules page shows its numbers "
            "and lets you change them (house rules). Compendium Caidis scoring seats tables "
            "of 3 to 5 and records the order in which players lie down.",
            "slug": "Used in links: /t/<slug>/. Lower-case letters, digits and single "
            "hyphens; made from the name when left empty.",
            "rotations_per_round": "Each table plays rotations × table size deals a round.",
            "round_minutes": "The clock the projector and the round pages show, started by you "
            "when play starts.",
            "table_entry": "Each printed score sheet carries its table's code and a QR code: "
            "a phone at the table opens the sheet with it, without an account, and types it "
            "in. A scorer at the desk then confirms it. Off: the QR code opens the sheet for "
            "a scorer, and only scorers type sheets in.",
            "table_confirm": "With tables typing their own sheets: another phone at the same "
            "table may confirm a sheet by re-typing it blind from the paper, instead of a "
            "scorer at the desk. Off: a scorer confirms every sheet typed at a table.",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["hold_back_rounds"].required = False
        # A form posted without it (not from this page) keeps the rule set as it is.
        self.fields["rule_set"].required = False
        self.fields["round_minutes"].required = False
        self.fields["keep_clubs_apart_rounds"].required = False
        for name, allowed in self.RANGES.items():
            limit_to(self.fields[name], allowed)
        if not self.instance.pk:
            self._add_tiebreak_fields()

    RANGES = {
        "rotations_per_round": limits.ROTATIONS,
        "planned_rounds": limits.PLANNED_ROUNDS,
        "keep_clubs_apart_rounds": limits.KEEP_CLUBS_APART_ROUNDS,
        "hold_back_rounds": limits.HOLD_BACK_ROUNDS,
        "round_minutes": limits.ROUND_MINUTES,
    }

    TIEBREAK_FIELD = "tiebreak_{}"

    def seated_sizes(self) -> str:
        """The table sizes each scoring seats under each rule set (the tournament's house
        rules too), as JSON for static/js/settings.js, which unticks and disables the
        sizes the scoring and rule set chosen do not seat as they are chosen:
        ``{"caidis": {"standard": [3, 4, 5], …}, …}``."""
        rule_sets: dict[str, RuleSet] = dict(RULE_SETS)
        if self.instance.house_rules:
            rule_sets[HOUSE] = house_rules(self.instance.house_rules)
        names = {key: rules.name for key, rules in rule_sets.items()}
        seated = {
            system.value: {
                key: list(allowed_sizes(system, rules)) for key, rules in rule_sets.items()
            }
            for system in ScoringSystem
        }
        words = {
            system: {key: sizes_text(sizes) for key, sizes in by_rules.items()}
            for system, by_rules in seated.items()
        }
        labels = {system.value: system.label for system in ScoringSystem}
        return json.dumps({"seated": seated, "words": words, "rules": names, "scoring": labels})

    def _add_tiebreak_fields(self) -> None:
        """A new tournament's tiebreak order, one choice a place (Settings then has the
        up and down buttons)."""
        choices = [("", "— none —"), *tiebreak_choices()]
        for place in range(1, len(TIEBREAKS) + 1):
            self.fields[self.TIEBREAK_FIELD.format(place)] = forms.ChoiceField(
                choices=choices,
                required=False,
                label=f"Tiebreak {place}" + (" (after points)" if place == 1 else ""),
                initial=DEFAULT_TIEBREAKS[place - 1] if place <= len(DEFAULT_TIEBREAKS) else "",
                help_text="Players equal on points are separated by these, in order."
                if place == 1
                else "",
            )

    def _clean_tiebreaks(self) -> None:
        names = [self.TIEBREAK_FIELD.format(p) for p in range(1, len(TIEBREAKS) + 1)]
        # A form posted without the order (not from this page) keeps the default one.
        if not any(name in self.data for name in names):
            return
        order: list[str] = []
        for place, name in enumerate(names, start=1):
            key = self.cleaned_data.get(name)
            if not key:
                continue
            if key in order:
                self.add_error(
                    name,
                    f"Tiebreak {place}: “{tiebreak(key).label}” is already tiebreak "
                    f"{order.index(key) + 1}; choose each tiebreak once.",
                )
                continue
            order.append(key)
        self.instance.tiebreaks = order

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not self.instance.pk:
            self._clean_tiebreaks()
        self._clean_rules(data)
        return data

    def _clean_rules(self, data: dict[str, Any]) -> None:
        """House rules start from the rule set the tournament had; the table sizes ticked
        must be sizes the rule set and the scoring allow."""
        if "scoring" not in data or "rule_set" not in data:
            return
        if data["rule_set"] == HOUSE and not self.instance.house_rules:
            self.instance.house_rules = RULE_SETS.get(
                self.initial.get("rule_set", ""), STANDARD
            ).as_data()
        self.instance.rule_set = data["rule_set"]
        self.instance.scoring = data["scoring"]
        allowed = self.instance.sizes_allowed
        if not allowed:
            self.add_error(
                "rule_set",
                f"{self.instance.rules.name} seats no table under "
                f"{self.instance.scoring_system.label}: choose another rule set or scoring.",
            )
            return
        sizes = data.get("table_sizes")
        if sizes is None:
            return
        refused = [size for size in sizes if size not in allowed]
        if refused:
            named = ", ".join(str(size) for size in refused)
            self.add_error(
                "table_sizes",
                f"Tables of {named} are not played under {self.instance.rules.name} with "
                f"{self.instance.scoring_system.label}: it seats {sizes_text(allowed)}.",
            )
        elif 5 in allowed and 5 not in sizes:
            data["table_sizes"] = sorted([*sizes, 5])

    def clean_slug(self) -> str:
        # A name refused is said beside it; the address is still made from what was typed.
        name = self.cleaned_data.get("name") or self.data.get("name", "")
        slug = self.cleaned_data.get("slug") or limits.slug_from_name(name)
        if not slug:
            raise forms.ValidationError("Give an address: letters, digits and hyphens.")
        if slug in limits.reserved_slugs() and not self.cleaned_data.get("slug"):
            raise forms.ValidationError(
                f"The address made from the name, “{slug}”, is the name of one of the app's "
                "own pages; give another address."
            )
        for validate in limits.slug_validators():
            validate(slug)
        taken = Tournament.objects.filter(slug=slug).exclude(pk=self.instance.pk)
        if taken.exists():
            raise forms.ValidationError(f"The address “{slug}” is taken; choose another.")
        return slug

    def clean_rotations_per_round(self) -> int:
        value = self.cleaned_data["rotations_per_round"]
        if self.instance.pk and value < self.instance.rotations_per_round:
            too_many = deals_beyond_rotations(self.instance, value)
            if too_many:
                raise forms.ValidationError(
                    rotations_refusal(self.instance.rotations_per_round, too_many)
                )
        return value

    def clean_rule_set(self) -> str:
        return str(self.cleaned_data.get("rule_set") or self.instance.rule_set)

    def clean_hold_back_rounds(self) -> int:
        return self.cleaned_data.get("hold_back_rounds") or 0

    def clean_round_minutes(self) -> int:
        return self.cleaned_data.get("round_minutes") or self.instance.round_minutes

    def clean_keep_clubs_apart_rounds(self) -> int:
        return self.cleaned_data.get("keep_clubs_apart_rounds") or 0

    def clean_table_sizes(self) -> list[int]:
        # Five, the game's own size, is added in clean() where the rule set allows it.
        return sorted(set(self.cleaned_data["table_sizes"]))


def tiebreak_choices() -> list[tuple[str, str]]:
    """Every tiebreak an organiser may choose, as (key, label); read when a form is
    made, so that a tiebreak registered later is offered too."""
    return [(key, tb.label) for key, tb in TIEBREAKS.items()]


class TiebreakForm(forms.Form):
    """The tiebreak that one step of editing the order moves, removes or adds."""

    key = forms.ChoiceField(choices=tiebreak_choices)


class HouseRulesForm(forms.Form):
    """The numbers of each table size the house rules seat, started from ``base``: a
    size ticked is played with its six numbers; every problem is named by its size.

    Its boxes are named by size, ``plays_5`` and ``cards_each_5``, for the sizes "3" to
    "8" alone: a box posted for another ("plays_05", "cards_each_٥") is refused naming it,
    not ignored, and so is a box posted twice (which of the two was meant cannot be told).
    """

    left_over_to = forms.ChoiceField(
        label="Under stakes scoring, the cards left over go to",
        choices=[
            (LeftOverTo.DEALER.value, "the dealer (as the sources have it)"),
            (LeftOverTo.LAST_IN.value, "the last in"),
        ],
    )

    def __init__(self, base: RuleSet, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["left_over_to"].initial = base.left_over_to.value
        played = {table.players: table for table in base.tables}
        self.sizes = range(MIN_TABLE_SIZE, MAX_TABLE_SIZE + 1)
        for size in self.sizes:
            row = played.get(size)
            self.fields[f"plays_{size}"] = forms.BooleanField(
                required=False, initial=row is not None, label=f"Tables of {size}"
            )
            for name in HOUSE_FIELDS:
                where = f"Tables of {size}: {HOUSE_LABELS[name]}"
                self.fields[f"{name}_{size}"] = forms.IntegerField(
                    required=False,
                    min_value=0,
                    max_value=99,
                    label=HOUSE_LABELS[name],
                    initial=getattr(row, name) if row else None,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                    error_messages={
                        "invalid": f"{where} is a whole number.",
                        "min_value": f"{where} is 0 or more.",
                        "max_value": f"{where} is at most 99.",
                    },
                )

    def size_rows(self) -> list[tuple[int, forms.BoundField, list[forms.BoundField]]]:
        """Each table size: its tick box and its six number fields."""
        return [
            (size, self[f"plays_{size}"], [self[f"{name}_{size}"] for name in HOUSE_FIELDS])
            for size in self.sizes
        ]

    def _posted_problems(self) -> None:
        """Boxes posted for a size that is none, or twice."""
        boxes = ("plays", *HOUSE_FIELDS)
        for key in self.data:
            box, _, size = str(key).rpartition("_")
            if box in boxes and size not in SIZE_KEYS:
                self.add_error(
                    None,
                    f"“{key[:40]}”: “{size[:20]}” is not a table size; the house rules' "
                    f"sizes are {SIZE_KEYS[0]} to {SIZE_KEYS[-1]}, in plain digits.",
                )
        getlist = getattr(self.data, "getlist", None)
        for name, field in self.fields.items():
            if getlist is not None and len(getlist(name)) > 1:
                box, _, size = name.rpartition("_")
                sized = box != "plays" and size in SIZE_KEYS
                label = f"Tables of {size}: {field.label}" if sized else field.label
                self.add_error(name, f"{label} is given more than once; give it once.")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        tables = {}
        for size in self.sizes:
            names = [f"{name}_{size}" for name in HOUSE_FIELDS]
            if not data.get(f"plays_{size}"):
                # A size not played: whatever its boxes hold does not count.
                for name in names:
                    self.errors.pop(name, None)
                continue
            if any(name in self.errors for name in names):
                continue  # each bad number says so beside its box
            numbers = {name: data.get(f"{name}_{size}") for name in HOUSE_FIELDS}
            problems = table_problems(size, numbers)
            for problem in problems:
                self.add_error(f"plays_{size}", f"Tables of {size}: {problem.split(': ', 1)[1]}.")
            tables[str(size)] = numbers
        # After the sizes not played dropped their boxes' errors: these stay.
        self._posted_problems()
        if not tables and not self.errors:
            raise forms.ValidationError("Tick at least one table size the house rules seat.")
        if not self.errors:
            self.rule_set = house_rules({"left_over_to": data["left_over_to"], "tables": tables})
        return data


class AdvisorForm(forms.Form):
    """The format advisor's question (``scoring.simulation.advisor``). A tournament's own
    scoring and rules are used when it is named; otherwise the organiser chooses them."""

    players = forms.IntegerField(label="Players", min_value=2, max_value=advisor.MAX_PLAYERS)
    minutes = forms.IntegerField(
        label="Minutes available for play", min_value=1, max_value=advisor.MAX_MINUTES
    )
    minutes_per_deal = forms.FloatField(
        label="Minutes per deal",
        min_value=0.5,
        max_value=30,
        widget=forms.NumberInput(attrs={"step": "0.5"}),
    )
    scoring = forms.ChoiceField(
        label="Scoring", choices=[(system.value, system.label) for system in ScoringSystem]
    )
    rule_set = forms.ChoiceField(
        label="Rule set", choices=[(key, rules.name) for key, rules in RULE_SETS.items()]
    )
