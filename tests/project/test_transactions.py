"""Every write that spans rows is one transaction: a failure half-way leaves the database
exactly as it was.

Each test makes one step of a service fail *after* earlier rows of the same write were
stored (or after part of a bulk insert was stored for real), then compares every row of
every table with a snapshot taken before. Without the service's ``transaction.atomic``
the rows written before the failure would remain and the snapshot would differ.
"""

import pytest

from tournament.models import (
    Bye,
    Deal,
    DealResult,
    KeepApart,
    Player,
    Round,
    Seat,
    Sheet,
    SheetStatus,
    SheetVersion,
    Table,
    Tournament,
)
from tournament.players import lists as player_lists
from tournament.rounds import seating, swaps
from tournament.rounds import services as rounds
from tournament.shared import public_changes
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.saving import save_sheet
from tournament.tournament_file import loading, writing

MODELS = [
    Tournament,
    Tournament.scorers.through,
    Player,
    KeepApart,
    Round,
    Table,
    Seat,
    Bye,
    Sheet,
    SheetVersion,
    Deal,
    DealResult,
]


class InjectedFailure(Exception):
    """The crash a test injects in the middle of a write."""


def snapshot():
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in MODELS}


def assert_unchanged(before):
    after = snapshot()
    counts_before = {name: len(rows) for name, rows in before.items()}
    counts_after = {name: len(rows) for name, rows in after.items()}
    assert counts_after == counts_before
    for name, rows in before.items():
        assert after[name] == rows, f"{name} rows changed"


def fail_halfway_through_bulk_create(monkeypatch, model):
    """``model.objects.bulk_create`` stores the first half of its rows for real, then
    fails, like a crash in the middle of a long insert."""
    real = model.objects.bulk_create

    def broken(objs, *args, **kwargs):
        objs = list(objs)
        assert len(objs) >= 2, "the injected failure needs rows on both sides of it"
        real(objs[: len(objs) // 2], *args, **kwargs)
        raise InjectedFailure(f"{model.__name__}.bulk_create failed half-way")

    monkeypatch.setattr(model.objects, "bulk_create", broken)


def fail_on_create(monkeypatch, model):
    """``model.objects.create`` fails: the last step of a write, after all else is stored."""

    def broken(*args, **kwargs):
        raise InjectedFailure(f"{model.__name__}.objects.create failed")

    monkeypatch.setattr(model.objects, "create", broken)


# Score sheets -------------------------------------------------------------------------


def sheet_rows(first_won=10):
    """A complete, valid sheet for a table of four (four deals)."""
    rest = 52 - 2 - first_won - 20
    return [
        {"won": [first_won, 10, 10, rest], "last_in": 1, "left_over": 2},
        {"won": [12, 8, 10, 10], "last_in": 2, "left_over": 12},
        {"won": [6, 14, 10, 10], "last_in": 3, "left_over": 12},
        {"won": [10, 10, 10, 10], "last_in": 4, "left_over": 12},
    ]


@pytest.fixture
def one_step_round(seated_round):
    """The seated round of a tournament without the two-person check: saving a complete
    sheet confirms it at once."""
    tournament = seated_round.tournament
    tournament.two_person_check = False
    tournament.save(update_fields=["two_person_check"])
    return seated_round


def first_table(round_):
    return Table.objects.select_related("round__tournament").get(round=round_, number=1)


# Failures injected into a sheet's confirmation: half-way through writing its results,
# and at its last write.
CONFIRMATION_FAILURES = [
    pytest.param(
        lambda mp: fail_halfway_through_bulk_create(mp, DealResult), id="half the results"
    ),
    pytest.param(lambda mp: fail_on_create(mp, SheetVersion), id="the version record"),
]


@pytest.mark.parametrize("inject", CONFIRMATION_FAILURES)
def test_a_confirmed_save_that_fails_half_way_stores_nothing(
    one_step_round, scorer, monkeypatch, inject
):
    table = first_table(one_step_round)
    before = snapshot()
    inject(monkeypatch)
    with pytest.raises(InjectedFailure):
        save_sheet(table, scorer, sheet_rows(), expected_version=0, final=True).or_raise()
    assert_unchanged(before)
    assert not Deal.objects.exists()


def test_a_correction_that_fails_half_way_keeps_the_confirmed_facts(
    one_step_round, scorer, monkeypatch
):
    table = first_table(one_step_round)
    save_sheet(table, scorer, sheet_rows(10), expected_version=0, final=True)
    before = snapshot()
    # The correction deletes the old deals and writes new ones before the failure.
    fail_on_create(monkeypatch, SheetVersion)
    with pytest.raises(InjectedFailure):
        save_sheet(table, scorer, sheet_rows(20), expected_version=1, final=True).or_raise()
    assert_unchanged(before)
    sheet = Sheet.objects.get(table=table)
    assert (sheet.status, sheet.version) == (SheetStatus.CONFIRMED, 1)
    assert list(
        DealResult.objects.filter(deal__table=table, deal__number=1).values_list("won", flat=True)
    ) == [10, 10, 10, 20]


@pytest.mark.parametrize("final", [False, True], ids=["draft", "entered"])
def test_a_draft_or_entered_save_that_fails_keeps_the_sheet_as_it_was(
    seated_round, scorer, monkeypatch, final
):
    table = first_table(seated_round)
    save_sheet(table, scorer, sheet_rows()[:1], expected_version=0, final=False)
    before = snapshot()
    fail_on_create(monkeypatch, SheetVersion)
    with pytest.raises(InjectedFailure):
        save_sheet(table, scorer, sheet_rows(), expected_version=1, final=final).or_raise()
    assert_unchanged(before)
    sheet = Sheet.objects.get(table=table)
    assert (sheet.status, sheet.version, len(sheet.pending)) == (SheetStatus.DRAFT, 1, 1)


@pytest.mark.parametrize("inject", CONFIRMATION_FAILURES)
def test_a_confirmation_that_fails_half_way_leaves_the_sheet_awaiting_confirmation(
    seated_round, scorer, second_scorer, monkeypatch, inject
):
    table = first_table(seated_round)
    save_sheet(table, scorer, sheet_rows(), expected_version=0, final=True)
    before = snapshot()
    inject(monkeypatch)
    with pytest.raises(InjectedFailure):
        confirm_sheet(table, second_scorer, expected_version=1).or_raise()
    assert_unchanged(before)
    assert Sheet.objects.get(table=table).status == SheetStatus.ENTERED
    assert not Deal.objects.exists()


# Seating ------------------------------------------------------------------------------


@pytest.fixture
def played_tournament(make_played):
    """Twelve players with one started round: the next round is number 2."""
    return make_played(players=12, rounds=1, slug="seating-night")


@pytest.mark.parametrize("model", [Seat, Sheet], ids=["half the seats", "half the sheets"])
def test_seating_a_round_that_fails_half_way_creates_no_round(
    played_tournament, monkeypatch, model
):
    before = snapshot()
    fail_halfway_through_bulk_create(monkeypatch, model)
    with pytest.raises(InjectedFailure):
        seating.seat_next_round(played_tournament)
    assert_unchanged(before)
    assert list(Round.objects.values_list("number", flat=True)) == [1]
    played_tournament.refresh_from_db()
    assert played_tournament.seating_plan is None


@pytest.mark.parametrize("model", [Table, Seat], ids=["half the tables", "half the seats"])
def test_regenerating_that_fails_half_way_keeps_the_old_seating(
    played_tournament, monkeypatch, model
):
    draft = seating.seat_next_round(played_tournament, seed=2)
    seated_before = list(
        Seat.objects.filter(round=draft).values_list("table__number", "position", "player_id")
    )
    before = snapshot()
    fail_halfway_through_bulk_create(monkeypatch, model)
    with pytest.raises(InjectedFailure):
        seating.regenerate_round(draft, seed=99)
    assert_unchanged(before)
    draft.refresh_from_db()
    assert draft.seed == 2
    assert (
        list(Seat.objects.filter(round=draft).values_list("table__number", "position", "player_id"))
        == seated_before
    )


def test_a_swap_that_fails_half_way_keeps_both_players_seated(played_tournament, monkeypatch):
    draft = seating.seat_next_round(played_tournament)
    first, second = (
        Seat.objects.filter(round=draft, table__number=number, position=1).get().player
        for number in (1, 2)
    )
    before = snapshot()
    fail_halfway_through_bulk_create(monkeypatch, Seat)
    with pytest.raises(InjectedFailure):
        swaps.swap_players(draft, first, second)
    assert_unchanged(before)


def test_revealing_the_final_results_is_one_write(played_tournament, monkeypatch):
    seating.seat_next_round(played_tournament)
    Round.objects.update(started=True, released=False)
    before = snapshot()

    def broken(tournament_id):
        raise InjectedFailure("marking the public pages stale failed")

    monkeypatch.setattr(public_changes, "mark_changed", broken)
    with pytest.raises(InjectedFailure):
        rounds.reveal_final_results(played_tournament, despite_missing=True)
    assert_unchanged(before)
    assert not Round.objects.filter(released=True).exists()


# Tournament files and player lists ----------------------------------------------------


def a_file(slug="file-open", seed=3):
    from tournament.demo import synthetic_tournament

    return synthetic_tournament(
        name="File Open",
        slug=slug,
        players=[(f"Player {i:02d}", f"Club {i % 4}") for i in range(14)],
        rounds=3,
        seed=seed,
    )


@pytest.mark.parametrize(
    "model",
    [Seat, Deal, DealResult, Sheet],
    ids=["half the seats", "half the deals", "half the results", "half the sheets"],
)
def test_an_import_that_fails_half_way_stores_nothing(db, monkeypatch, model):
    before = snapshot()
    fail_halfway_through_bulk_create(monkeypatch, model)
    with pytest.raises(InjectedFailure):
        loading.import_tournament(a_file())
    assert_unchanged(before)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("model", [Seat, DealResult], ids=["half the seats", "half the results"])
def test_a_replacing_import_that_fails_half_way_keeps_the_old_tournament(db, monkeypatch, model):
    loading.import_tournament(a_file(seed=3))
    old = writing.export_tournament(Tournament.objects.get())
    before = snapshot()
    fail_halfway_through_bulk_create(monkeypatch, model)
    with pytest.raises(InjectedFailure):
        loading.import_tournament(a_file(seed=4), replace=True)
    assert_unchanged(before)
    assert writing.export_tournament(Tournament.objects.get()) == old


def test_a_player_list_that_fails_half_way_registers_nobody(played_tournament, monkeypatch):
    before = snapshot()
    fail_halfway_through_bulk_create(monkeypatch, Player)
    with pytest.raises(InjectedFailure):
        player_lists.import_csv(
            played_tournament, "name,club\nAda,A\nBob,B\nCyd,C\nDee,D\n", link_people=True
        )
    assert_unchanged(before)
    assert Player.objects.filter(tournament=played_tournament).count() == 12
