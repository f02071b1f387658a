"""The organiser changing what a score sheet depends on while a scorer saves it (the
seating of its table, the rotations per round, whether its round is public), and the
organiser's changes that meet each other (starting a round as it is seated again,
dropping a player as the next round is seated).

Whichever of the two gets there first wins; the other is refused with a message that says
why, and nothing half-done is left behind: seat sums agree with the deals, a table never
holds more deals than the tournament's rotations allow, the public pages never keep a
stale copy, and ``manage.py backup`` still writes files that import.

The threaded tests need PostgreSQL's row locks (see ``tests/sheets/test_concurrency.py``); the
others run on both databases.
"""

import io
import json
import threading

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from scoring.errors import UserError
from tests.concurrency import (
    after,
    complete_rows,
    linger_after,
    load_table,
    run_together,
    saver,
    sheet_form,
    slow_down,
)
from tests.pages import inputs
from tournament.models import Deal, Player, Seat, Sheet, SheetStatus, SheetVersion, Table
from tournament.rounds import seating, swaps
from tournament.rounds import services as rounds
from tournament.sheets import confirming, saving
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.reading import confirmed_rows
from tournament.sheets.rotations import deals_beyond_rotations
from tournament.sheets.rows import seat_sums
from tournament.sheets.saving import SheetChangedError, save_sheet
from tournament.tournament_file import file_format, loading, writing
from tournament.tournaments.forms import TournamentForm


def backup_exits_cleanly(folder):
    """``manage.py backup`` succeeds: every file it writes would import again."""
    call_command("backup", "--dir", str(folder), stdout=io.StringIO())
    return True


def sums_agree_with_deals(table):
    """Every seat's stored sums are those of the table's confirmed deals."""
    rows = confirmed_rows(table)
    expected = seat_sums(rows, table.size) if rows else None
    for seat in Seat.objects.filter(table=table).order_by("position"):
        want = expected[seat.position - 1] if expected else None
        if want is None:
            if seat.sums.deals != 0:
                return False
        elif seat.sums != want:
            return False
    return True


@pytest.fixture
def one_step(seated_round):
    tournament = seated_round.tournament
    tournament.two_person_check = False
    tournament.save(update_fields=["two_person_check"])
    return seated_round


def players_at(round_, number):
    return list(
        Player.objects.filter(seats__table__round=round_, seats__table__number=number).order_by(
            "seats__position"
        )
    )


# Re-seating a table while its sheet is saved -----------------------------------------


@pytest.mark.parametrize("swap_delay", [0, 0.1, -0.1], ids=["at once", "swap first", "save first"])
@pytest.mark.django_db(transaction=True)
def test_re_seating_a_table_while_its_sheet_is_saved_refuses_one_of_them(
    postgresql, one_step, scorer, monkeypatch, tmp_path, swap_delay
):
    round_ = one_step
    table = Table.objects.get(round=round_, number=1)
    before = players_at(round_, 1)
    moving, other = before[1], players_at(round_, 2)[0]
    rows = complete_rows(4)
    slow_down(monkeypatch, saving, "current_rows")
    linger_after(monkeypatch, swaps, "_has_scores")

    def swap():
        return swaps.swap_players(round_, moving, other, reseat=True)

    save = saver(table.pk, scorer, rows, expected_version=0, final=True)
    if swap_delay > 0:
        save = after(swap_delay, save)
    elif swap_delay < 0:
        swap = after(-swap_delay, swap)
    swapped, saved = run_together(swap, save)

    assert (swapped.error is None) != (saved.error is None), (swapped, saved)
    sheet = Sheet.objects.get(table=table)
    if swapped.error is None:
        # The scorer's page showed the old seating: it must not be accepted.
        assert isinstance(saved.error, SheetChangedError), saved.error
        assert "re-seated" in str(saved.error)
        assert (sheet.status, sheet.version) == (SheetStatus.NOT_STARTED, 1)
        assert not Deal.objects.filter(table=table).exists()
        assert players_at(round_, 1)[1] == other
    else:
        assert isinstance(swapped.error, UserError), swapped.error
        assert "table 1 already has scores" in str(swapped.error)
        assert sheet.status == SheetStatus.CONFIRMED
        assert players_at(round_, 1) == before
        assert confirmed_rows(table) == rows
    for number in (1, 2):
        assert sums_agree_with_deals(Table.objects.get(round=round_, number=number))
    assert backup_exits_cleanly(tmp_path)


@pytest.mark.django_db(transaction=True)
def test_the_round_page_swap_and_the_sheet_page_at_once_never_both_succeed(
    postgresql, one_step, organiser, scorer, monkeypatch, tmp_path
):
    round_ = one_step
    slug = round_.tournament.slug
    moving, other = players_at(round_, 1)[1], players_at(round_, 2)[0]
    organiser_client, scorer_client = Client(), Client()
    organiser_client.force_login(organiser)
    scorer_client.force_login(scorer)
    swap_url = reverse("organiser:round_swap", args=[slug, 1])
    sheet_url = reverse("scorer:sheet", args=[slug, 1, 1])
    rows = complete_rows(4)
    slow_down(monkeypatch, saving, "current_rows")
    linger_after(monkeypatch, swaps, "_has_scores")

    swap, save = run_together(
        lambda: organiser_client.post(
            swap_url, {"first": moving.pk, "second": other.pk, "reseat": "on"}
        ),
        lambda: scorer_client.post(sheet_url, sheet_form(rows)),
    )

    assert (swap.error, save.error) == (None, None)
    assert swap.value.status_code == 302
    told = organiser_client.get(reverse("organiser:round", args=[slug, 1])).content.decode()
    table = Table.objects.get(round=round_, number=1)
    if players_at(round_, 1)[1] == other:
        assert "Swapped" in told
        assert save.value.status_code == 409
        page = save.value.content.decode()
        assert "re-seated" in page
        assert not Deal.objects.filter(table=table).exists()
    else:
        assert "table 1 already has scores" in told
        assert save.value.status_code == 302
        assert confirmed_rows(table) == rows
    for number in (1, 2):
        assert sums_agree_with_deals(Table.objects.get(round=round_, number=number))
    assert backup_exits_cleanly(tmp_path)


@pytest.mark.django_db
def test_a_sheet_page_showing_the_old_seating_gets_both_versions_after_a_re_seat(
    one_step, organiser, scorer, scorer_client
):
    round_ = one_step
    slug = round_.tournament.slug
    moving, other = players_at(round_, 1)[1], players_at(round_, 2)[0]
    sheet_url = reverse("scorer:sheet", args=[slug, 1, 1])
    page = scorer_client.get(sheet_url).content.decode()
    assert moving.name in page

    swaps.swap_players(round_, moving, other, reseat=True, by=organiser)
    response = scorer_client.post(sheet_url, sheet_form(complete_rows(4), version=0))

    assert response.status_code == 409
    page = response.content.decode()
    assert "The organiser (olive) re-seated this table" in page
    assert "This table was re-seated while you were typing" in page
    # The page now shows the new seating, and saving again from it works.
    assert other.name in page
    assert moving.name not in page
    table = Table.objects.get(round=round_, number=1)
    assert not Deal.objects.filter(table=table).exists()
    response = scorer_client.post(sheet_url, sheet_form(complete_rows(4), version=1))
    assert response.status_code == 302
    assert Sheet.objects.get(table=table).status == SheetStatus.CONFIRMED
    history = scorer_client.get(reverse("scorer:history", args=[slug, 1, 1])).content.decode()
    assert "Re-seated" in history
    assert f"seat 2: {moving.name} → {other.name}" in history
    assert list(SheetVersion.objects.filter(sheet__table=table).values_list("action", "by")) == [
        ("reseated", organiser.pk),
        ("confirmed", scorer.pk),
    ]


@pytest.mark.django_db
def test_swapping_in_a_draft_round_leaves_the_sheets_alone(make_played):
    tournament = make_played(players=12, rounds=0, slug="draft-swap")
    round_ = seating.seat_next_round(tournament, method="random")
    first, second = players_at(round_, 1)[0], players_at(round_, 2)[0]
    swaps.swap_players(round_, first, second)
    assert (
        list(Sheet.objects.filter(table__round=round_).values_list("version", flat=True))
        == [0] * round_.tables.count()
    )


# Lowering the rotations while a sheet is saved ----------------------------------------


def settings_form(tournament, **changes):
    return {
        "name": tournament.name,
        "slug": tournament.slug,
        "date": tournament.date.isoformat() if tournament.date else "",
        "venue": tournament.venue,
        "scoring": tournament.scoring,
        "rotations_per_round": tournament.rotations_per_round,
        "planned_rounds": tournament.planned_rounds,
        "table_policy": tournament.table_policy,
        "table_sizes": [str(size) for size in tournament.table_sizes],
        "bye_score": tournament.bye_score,
        "keep_clubs_apart_rounds": tournament.keep_clubs_apart_rounds,
        "hold_back_rounds": tournament.hold_back_rounds,
        **({"two_person_check": "on"} if tournament.two_person_check else {}),
        **changes,
    }


@pytest.fixture
def tables_of_five(make_played, organiser, scorer):
    """Ten players at two tables of five, two rotations a round (ten deals), round 1
    started, sheets confirmed at once."""
    tournament = make_played(players=10, rounds=0, rotations=2, published=False, slug="fives")
    tournament.owner = organiser
    tournament.two_person_check = False
    tournament.save()
    tournament.scorers.add(scorer)
    round_ = seating.seat_next_round(tournament, method="random")
    rounds.start_round(round_)
    assert [table.size for table in round_.tables.order_by("number")] == [5, 5]
    return round_


@pytest.mark.parametrize("settings_delay", [0, 0.1], ids=["at once", "save first"])
@pytest.mark.django_db(transaction=True)
def test_lowering_the_rotations_while_a_full_sheet_is_saved_refuses_one_of_them(
    postgresql, tables_of_five, organiser, scorer, monkeypatch, tmp_path, settings_delay
):
    round_ = tables_of_five
    tournament = round_.tournament
    organiser_client, scorer_client = Client(), Client()
    organiser_client.force_login(organiser)
    scorer_client.force_login(scorer)
    rows = complete_rows(5) + complete_rows(5, variant=1)
    slow_down(monkeypatch, saving, "current_rows")

    def lower():
        return organiser_client.post(
            reverse("organiser:edit", args=[tournament.slug]),
            settings_form(tournament, rotations_per_round=1),
        )

    def save():
        return scorer_client.post(
            reverse("scorer:sheet", args=[tournament.slug, 1, 1]), sheet_form(rows)
        )

    lowered, saved = run_together(after(settings_delay, lower), save)

    assert (lowered.error, saved.error) == (None, None)
    tournament.refresh_from_db()
    table = Table.objects.get(round=round_, number=1)
    recorded = Deal.objects.filter(table=table).count()
    if tournament.rotations_per_round == 1:
        assert lowered.value.status_code == 302
        assert saved.value.status_code == 422
        assert "10 deals, but a table of 5 plays at most 5" in saved.value.content.decode()
        assert recorded == 0
    else:
        assert saved.value.status_code == 302
        assert recorded == 10
        assert lowered.value.status_code == 200
        assert (
            "round 1, table 1 already has 10 deals recorded; a table of 5 at 1 rotation plays 5"
            in lowered.value.content.decode()
        )
    assert deals_beyond_rotations(tournament, tournament.rotations_per_round) == []
    assert backup_exits_cleanly(tmp_path)


@pytest.mark.django_db
def test_a_settings_save_keeps_what_was_changed_meanwhile_elsewhere(
    tables_of_five, organiser, organiser_client, monkeypatch
):
    """The settings page saves its own fields only: publishing the tournament in another
    tab while the settings are being saved is not undone by them."""
    tournament = tables_of_five.tournament
    form = settings_form(tournament, venue="The Red Lion")
    real_clean = TournamentForm.clean

    def publish_meanwhile(self):
        # The other tab's click lands after this request loaded the tournament.
        type(tournament).objects.filter(pk=tournament.pk).update(published=True)
        return real_clean(self)

    monkeypatch.setattr(TournamentForm, "clean", publish_meanwhile)

    response = organiser_client.post(reverse("organiser:edit", args=[tournament.slug]), form)

    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.venue, tournament.published) == ("The Red Lion", True)


# Releasing a round while one of its sheets is confirmed -------------------------------


@pytest.mark.parametrize("action", ["release", "reveal"])
@pytest.mark.django_db(transaction=True)
def test_releasing_a_round_while_a_sheet_is_confirmed_leaves_no_stale_public_page(
    postgresql, one_step, scorer, monkeypatch, action
):
    round_ = one_step
    tournament = round_.tournament
    tournament.published = True
    tournament.save(update_fields=["published"])
    table = Table.objects.get(round=round_, number=1)
    standings_url = reverse("standings", args=[tournament.slug])
    cache.clear()
    # The sheet row is saved (and its signal has looked at the round): the commit comes
    # later, while the release and a visitor's request go by.
    linger_after(monkeypatch, saving, "record_version", 0.4)
    visitor = Client()
    seen = threading.Event()

    def release():
        rounds.release_round(load_table(table.pk).round, despite_missing=True)

    def visit():
        response = visitor.get(standings_url)
        seen.set()
        return response

    outcomes = run_together(
        saver(table.pk, scorer, complete_rows(4), expected_version=0, final=True),
        after(
            0.1,
            release
            if action == "release"
            else lambda: rounds.reveal_final_results(tournament, despite_missing=True),
        ),
        after(0.2, visit),
    )

    assert [o.error for o in outcomes] == [None, None, None]
    assert seen.is_set()
    served = visitor.get(standings_url).content.decode()
    cache.clear()
    fresh = Client().get(standings_url).content.decode()
    assert served == fresh


@pytest.mark.parametrize("action", ["release", "reveal"])
@pytest.mark.django_db(transaction=True)
def test_releasing_a_round_while_a_second_scorer_confirms_leaves_no_stale_public_page(
    postgresql, one_step, scorer, second_scorer, monkeypatch, action
):
    """As above, with the two-person check: the confirmation holds its round as a save
    does, so the release waits for it or comes first."""
    round_ = one_step
    tournament = round_.tournament
    tournament.published = True
    tournament.two_person_check = True
    tournament.save(update_fields=["published", "two_person_check"])
    table = Table.objects.get(round=round_, number=1)
    save_sheet(load_table(table.pk), scorer, complete_rows(4), expected_version=0, final=True)
    standings_url = reverse("standings", args=[tournament.slug])
    cache.clear()
    linger_after(monkeypatch, confirming, "record_version", 0.4)
    visitor = Client()

    def confirm():
        return confirm_sheet(load_table(table.pk), second_scorer, expected_version=1).or_raise()

    def release():
        rounds.release_round(load_table(table.pk).round, despite_missing=True)

    outcomes = run_together(
        confirm,
        after(
            0.1,
            release
            if action == "release"
            else lambda: rounds.reveal_final_results(tournament, despite_missing=True),
        ),
        after(0.2, lambda: visitor.get(standings_url)),
    )

    assert [o.error for o in outcomes] == [None, None, None]
    served = visitor.get(standings_url).content.decode()
    cache.clear()
    fresh = Client().get(standings_url).content.decode()
    assert served == fresh


@pytest.mark.django_db(transaction=True)
def test_replacing_a_tournament_from_its_file_while_a_sheet_is_saved_waits_its_turn(
    postgresql, one_step, scorer, monkeypatch
):
    """``import_tournament --replace`` takes the rounds before the tournament row, as a
    sheet save does: one waits for the other instead of a deadlock."""
    round_ = one_step
    tournament = round_.tournament
    tournament.two_person_check = False
    tournament.save(update_fields=["two_person_check"])
    round_.released = True
    round_.save(update_fields=["released"])
    table = Table.objects.get(round=round_, number=1)
    data = json.loads(file_format.dumps(writing.export_tournament(tournament)))
    linger_after(monkeypatch, saving, "write_deals", 0.5)

    outcomes = run_together(
        saver(table.pk, scorer, complete_rows(4), expected_version=0, final=True),
        after(0.1, lambda: loading.import_tournament(data, replace=True)),
    )

    assert [o.error for o in outcomes] == [None, None], outcomes


# Starting a round while it is seated again --------------------------------------------


def draft_round(make_played, organiser):
    tournament = make_played(players=12, rounds=0, published=False, slug="draft-night")
    tournament.owner = organiser
    tournament.save(update_fields=["owner"])
    return seating.seat_next_round(tournament, method="random", seed=1)


def seating_of(round_):
    return list(
        Seat.objects.filter(round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "player_id")
    )


def start_form(page):
    """What the round page's start button posts."""
    return {"seating": inputs(page).get("seating", {}).get("value", "")}


@pytest.mark.django_db
def test_a_round_seated_again_since_the_page_was_loaded_is_not_started(
    make_played, organiser, organiser_client
):
    round_ = draft_round(make_played, organiser)
    slug = round_.tournament.slug
    page = organiser_client.get(reverse("organiser:round", args=[slug, 1]))
    shown = seating_of(round_)
    seating.regenerate_round(round_, method="random", seed=99)
    assert seating_of(round_) != shown

    response = organiser_client.post(
        reverse("organiser:round_start", args=[slug, 1]), start_form(page), follow=True
    )

    round_.refresh_from_db()
    assert not round_.started
    assert "Round 1 was seated again, or had players swapped, since your page was loaded" in (
        response.content.decode()
    )
    # The page now shows the new seating; starting from it works.
    response = organiser_client.post(
        reverse("organiser:round_start", args=[slug, 1]), start_form(response)
    )
    round_.refresh_from_db()
    assert round_.started


@pytest.mark.parametrize("start_delay", [0, 0.1], ids=["at once", "regenerate first"])
@pytest.mark.django_db(transaction=True)
def test_starting_a_round_while_it_is_seated_again_starts_the_seating_shown_or_none(
    postgresql, make_played, organiser, monkeypatch, start_delay
):
    round_ = draft_round(make_played, organiser)
    slug = round_.tournament.slug
    client = Client()
    client.force_login(organiser)
    page = client.get(reverse("organiser:round", args=[slug, 1]))
    shown = seating_of(round_)
    slow_down(monkeypatch, seating, "_seat")

    regenerated, started = run_together(
        lambda: seating.regenerate_round(round_, method="random", seed=99),
        after(
            start_delay,
            lambda: client.post(reverse("organiser:round_start", args=[slug, 1]), start_form(page)),
        ),
    )

    assert started.error is None
    round_.refresh_from_db()
    if round_.started:
        assert isinstance(regenerated.error, UserError), regenerated
        assert "round 1 has started: its seating is frozen" in str(regenerated.error)
        assert seating_of(round_) == shown
    else:
        assert regenerated.error is None
        told = client.get(reverse("organiser:round", args=[slug, 1])).content.decode()
        assert "Round 1 was seated again" in told


# Dropping a player while the next round is seated -------------------------------------


@pytest.mark.django_db
def test_dropping_a_player_seated_in_a_round_not_started_says_to_regenerate_it(
    make_played, organiser, organiser_client
):
    round_ = draft_round(make_played, organiser)
    slug = round_.tournament.slug
    seated = players_at(round_, 1)[0]
    drop_url = reverse("organiser:player_drop", args=[slug, seated.pk])
    return_url = reverse("organiser:player_return", args=[slug, seated.pk])

    page = organiser_client.post(drop_url, follow=True).content.decode()

    assert f"{seated.name} has dropped out" in page
    assert f"{seated.name} is seated in round 1, which has not started: regenerate it" in page
    page = organiser_client.post(return_url, follow=True).content.decode()
    assert f"{seated.name} is back" in page
    assert "regenerate" not in page


@pytest.mark.django_db(transaction=True)
def test_dropping_a_player_while_the_next_round_is_seated_is_told_where_they_sit(
    postgresql, make_played, organiser, monkeypatch
):
    tournament = make_played(players=12, rounds=1, published=False, slug="late-drop")
    tournament.owner = organiser
    tournament.save(update_fields=["owner"])
    leaving = Player.objects.filter(tournament=tournament).order_by("name").first()
    client = Client()
    client.force_login(organiser)
    # The next round has read who plays and is still being written when the drop comes.
    linger_after(monkeypatch, seating, "_seat", 0.4)

    seated, dropped = run_together(
        lambda: seating.seat_next_round(tournament, method="random", seed=3),
        after(
            0.1,
            lambda: client.post(
                reverse("organiser:player_drop", args=[tournament.slug, leaving.pk]),
                follow=True,
            ),
        ),
    )

    assert (seated.error, dropped.error) == (None, None)
    round_two = seated.value
    page = dropped.value.content.decode()
    if Seat.objects.filter(round=round_two, player=leaving).exists():
        assert f"{leaving.name} is seated in round 2, which has not started" in page
    else:
        assert "is seated in round 2" not in page
