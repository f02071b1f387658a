"""Changing a tournament's settings once its rounds are under way.

A setting that the rounds' sheets depend on (the rotations per round: how many deals a
table plays) is checked against every sheet with every round locked (``shared.locks``),
and saved before the locks are let go: a sheet saved at the same moment is either counted
by the check, or waits and is then checked against the new setting.

The other settings (scoring, tiebreaks, table policy and sizes, bye score, keeping clubs
apart) invalidate no stored sheet: the table policy and sizes apply to rounds seated
afterwards, the rest is applied when the standings are computed.

The tiebreak order is changed a step at a time (add, remove, move up or down), each step
applied to the order as stored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction

from scoring.errors import UserError
from scoring.rulesets import HOUSE, RuleSet, sizes_text
from scoring.tiebreaks import TIEBREAKS
from tournament.models import Round, Tournament, default_table_sizes
from tournament.rounds.services import tables_without_result
from tournament.shared.locks import lock_rounds
from tournament.sheets.rescoring import refusal, rescore, rule_change_problems
from tournament.sheets.rotations import deals_beyond_rotations, rotations_refusal
from tournament.webhooks import services as webhooks
from tournament.webhooks.messages import TOURNAMENT_FINISHED, TOURNAMENT_UNPUBLISHED


class SettingsRefusedError(UserError):
    """A setting that cannot be saved as it is; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(message)


def save_settings(tournament: Tournament, fields: Sequence[str]) -> Tournament:
    """Save ``fields`` of ``tournament`` as changed in memory (by the settings form). The
    other fields stay as stored: publishing in another tab meanwhile is not undone. A
    change of the scoring or the rule set re-scores what is recorded, or is refused when
    something seated or recorded cannot be scored under it (``sheets.rescoring``)."""
    if "rule_set" in fields and "house_rules" not in fields:
        fields = [*fields, "house_rules"]
    with transaction.atomic():
        lock_rounds(tournament.pk)
        # Then the tournament (the order of ``shared.locks``): seating a round locks it
        # first, so no round is seated between the check below and the save.
        stored, *rules_stored = (
            Tournament.objects.select_for_update()
            .values_list("rotations_per_round", "scoring", "rule_set", "house_rules")
            .get(pk=tournament.pk)
        )
        if tournament.rotations_per_round < stored:
            too_many = deals_beyond_rotations(tournament, tournament.rotations_per_round)
            if too_many:
                raise SettingsRefusedError(
                    "rotations_per_round", rotations_refusal(stored, too_many)
                )
        rules_changed = rules_stored != [
            tournament.scoring,
            tournament.rule_set,
            tournament.house_rules,
        ]
        if rules_changed:
            if not tournament.sizes_allowed:
                raise SettingsRefusedError(
                    "rule_set" if "rule_set" in fields else "scoring",
                    f"Nothing was changed: {tournament.rules.name} seats no table under "
                    f"{tournament.scoring_system.label}, which seats "
                    f"{sizes_text(tournament.scoring_system.sizes or ())} players",
                )
            problems = rule_change_problems(tournament, tournament.scoring_system, tournament.rules)
            if problems:
                raise SettingsRefusedError(
                    "rule_set" if "rule_set" in fields else "scoring",
                    "Nothing was changed: what is already seated or recorded cannot be "
                    f"scored under these rules: {refusal(problems)}.",
                )
        if rules_changed and fit_table_sizes(tournament):
            fields = [*fields, "table_sizes"] if "table_sizes" not in fields else fields
        tournament.save(update_fields=list(fields))
        if rules_changed:
            rescore(tournament)
    return tournament


def fit_table_sizes(tournament: Tournament) -> list[int]:
    """Take out of the sizes the seating may use those the tournament's rules do not seat
    (five stays where they seat it; when none is left, those of the default they seat, or
    all they seat); the sizes taken out."""
    allowed = tournament.sizes_allowed
    kept = [size for size in tournament.table_sizes if size in allowed]
    dropped = [size for size in tournament.table_sizes if size not in allowed]
    if dropped:
        if 5 in allowed and 5 not in kept:
            kept.append(5)
        tournament.table_sizes = (
            sorted(kept)
            or [size for size in default_table_sizes() if size in allowed]
            or list(allowed)
        )
    return dropped


def set_house_rules(tournament: Tournament, rule_set: RuleSet) -> Tournament:
    """Play under the house rules ``rule_set`` (checked by ``scoring.rulesets``), re-scoring
    what is recorded (``save_settings``)."""
    tournament.rule_set = HOUSE
    tournament.house_rules = rule_set.as_data()
    return save_settings(tournament, ["rule_set", "house_rules"])


def set_published(tournament: Tournament, published: bool) -> None:
    """Show the tournament's released rounds to everyone, or to its organiser and scorers
    only. Only this field is written: a settings save meanwhile is not undone. A rehearsal
    is never published: its private link shows it (``rehearsals``)."""
    if published and tournament.is_rehearsal:
        raise UserError(
            "A rehearsal is never published: share its private link (on its Overview) instead."
        )
    with transaction.atomic():
        was_published = (
            Tournament.objects.filter(pk=tournament.pk).values_list("published", flat=True).first()
        )
        tournament.published = published
        tournament.save(update_fields=["published"])
        if was_published and not published:
            webhooks.tell(tournament.pk, TOURNAMENT_UNPUBLISHED)


class TablesStillToScore(UserError):
    pass


def set_finished(tournament: Tournament, finished: bool) -> None:
    """Mark the tournament finished (its public standings are final, with a winner, even
    before the last planned round is released) or undo it. Only this field is written;
    saving it makes the public pages' cache stale (``shared.public_changes``). Refused,
    naming them, while a started round has a table without a result: the standings
    would be final with a table still to play."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if finished:
            missing = [
                f"round {round_.number}, table{'s' if len(tables) > 1 else ''} "
                + ", ".join(str(number) for number in tables)
                for round_ in Round.objects.filter(tournament=locked, started=True).order_by(
                    "number"
                )
                if (tables := tables_without_result(round_))
            ]
            if missing:
                raise TablesStillToScore(
                    "the tournament cannot finish while a table has no result: "
                    + "; ".join(missing)
                    + ". Confirm their sheets first."
                )
        was_final = webhooks.final_results_out(locked)
        tournament.finished = finished
        tournament.save(update_fields=["finished"])
        if finished and not was_final and webhooks.final_results_out(locked):
            webhooks.tell(tournament.pk, TOURNAMENT_FINISHED)


def create_tournament(tournament: Tournament, owner: Any) -> Tournament:
    """Save a new tournament (as filled in by the form) with ``owner`` as its organiser."""
    with transaction.atomic():
        tournament.owner = owner
        tournament.save()
    return tournament


# The tiebreak order: one step at a time, each from the order as stored, so that two
# tabs' steps both count rather than the later one undoing the earlier.


def add_tiebreak(tournament: Tournament, key: str) -> list[str]:
    """Put ``key`` last in the tiebreak order; the new order."""
    return _change_tiebreaks(tournament, key, _added)


def remove_tiebreak(tournament: Tournament, key: str) -> list[str]:
    return _change_tiebreaks(tournament, key, _removed)


def move_tiebreak_up(tournament: Tournament, key: str) -> list[str]:
    return _change_tiebreaks(tournament, key, lambda order, key: _moved(order, key, -1))


def move_tiebreak_down(tournament: Tournament, key: str) -> list[str]:
    return _change_tiebreaks(tournament, key, lambda order, key: _moved(order, key, +1))


def _change_tiebreaks(
    tournament: Tournament, key: str, change: Callable[[list[str], str], list[str]]
) -> list[str]:
    with transaction.atomic():
        stored = Tournament.objects.select_for_update().only("tiebreaks").get(pk=tournament.pk)
        order = change(list(stored.tiebreaks), key)
        tournament.tiebreaks = order
        tournament.save(update_fields=["tiebreaks"])
    return order


def _label(key: str) -> str:
    """The tiebreak as the settings page names it."""
    return TIEBREAKS[key].label


def _added(order: list[str], key: str) -> list[str]:
    if key in order:
        raise UserError(f"“{_label(key)}” is already tiebreak {order.index(key) + 1}")
    return [*order, key]


def _removed(order: list[str], key: str) -> list[str]:
    if key not in order:
        raise UserError(f"“{_label(key)}” is not in the tiebreak order")
    return [other for other in order if other != key]


def _moved(order: list[str], key: str, step: int) -> list[str]:
    if key not in order:
        raise UserError(f"“{_label(key)}” is not in the tiebreak order")
    index = order.index(key)
    if not 0 <= index + step < len(order):
        raise UserError(f"“{_label(key)}” is already {'first' if step < 0 else 'last'}")
    order[index], order[index + step] = order[index + step], order[index]
    return order
