"""Seating rounds of stored tournaments (tournament.rounds.seating) and the commands."""

import io
import json
from collections import Counter

import pytest
from django.core.management import CommandError, call_command

from scoring.errors import UserError
from scoring.seating import SeatingRequest, plan
from tournament.models import Bye, KeepApart, Player, Round, Seat, Sheet, SheetStatus, Tournament
from tournament.rounds import seating, seating_quality, seating_request, swaps
from tournament.rounds.services import start_round


@pytest.fixture
def empty_tournament(db):
    def make(players, planned_rounds=6, **settings):
        tournament = Tournament.objects.create(
            name="Seating Open", slug="seating-open", planned_rounds=planned_rounds, **settings
        )
        Player.objects.bulk_create(
            Player(tournament=tournament, ref=f"p{i}", name=f"Player {i:02d}", club=f"Club {i % 5}")
            for i in range(1, players + 1)
        )
        return tournament

    return make


def seat_all(tournament, rounds, **kwargs):
    for _ in range(rounds):
        round_ = seating.seat_next_round(tournament, **kwargs)
        start_round(round_)
        tournament.refresh_from_db()
    return Round.objects.filter(tournament=tournament)


def tables_by_round(tournament):
    rounds = {}
    for number, table, player in Seat.objects.filter(round__tournament=tournament).values_list(
        "round__number", "table__number", "player_id"
    ):
        rounds.setdefault(number, {}).setdefault(table, []).append(player)
    return rounds


def test_round_by_round_reaches_zero_repeats_for_25_players_over_6_rounds(empty_tournament):
    tournament = empty_tournament(25, planned_rounds=6, table_sizes=[5])
    rounds = seat_all(tournament, 6)
    figures = seating_quality.round_quality(rounds.last()).quality
    assert (figures.repeat_meetings, figures.max_meetings) == (0, 1)
    for tables in tables_by_round(tournament).values():
        assert sorted(len(t) for t in tables.values()) == [5] * 5


def test_round_by_round_matches_planning_every_round_at_once(empty_tournament):
    tournament = empty_tournament(23, planned_rounds=5)
    rounds = seat_all(tournament, 5)
    stepwise = seating_quality.round_quality(rounds.last()).quality
    at_once = plan(SeatingRequest(players=tuple(range(23)), rounds=5, seed=1)).quality
    assert (stepwise.max_meetings, stepwise.repeat_meetings) <= (
        at_once.max_meetings,
        at_once.repeat_meetings,
    )


def test_a_new_seed_after_two_rounds_of_35_keeps_seven_rounds_free_of_repeats(empty_tournament):
    # The new seed plans rounds 3 to 7 again; the two rounds played fit the design.
    tournament = empty_tournament(35, planned_rounds=7, table_sizes=[5])
    seat_all(tournament, 2)
    start_round(seating.seat_next_round(tournament, seed=77))
    tournament.refresh_from_db()
    rounds = seat_all(tournament, 4)
    figures = seating_quality.round_quality(rounds.last()).quality
    assert (figures.repeat_meetings, figures.max_meetings) == (0, 1)
    assert rounds.count() == 7


def test_a_late_arrival_and_a_drop_re_plan_the_remaining_rounds(empty_tournament):
    tournament = empty_tournament(20, planned_rounds=4)
    seat_all(tournament, 2)
    first_plan = tournament.seating_plan["fingerprint"]
    dropped = Player.objects.get(tournament=tournament, ref="p3")
    dropped.active = False
    dropped.save()
    late = Player.objects.create(tournament=tournament, ref="late", name="Late Comer")
    round_ = seating.seat_next_round(tournament)
    seated = set(Seat.objects.filter(round=round_).values_list("player_id", flat=True))
    assert late.pk in seated
    assert dropped.pk not in seated
    assert len(seated) == 20
    tournament.refresh_from_db()
    assert tournament.seating_plan["fingerprint"] != first_plan
    # Round 1 history is kept for the player who dropped.
    assert Seat.objects.filter(player=dropped).count() == 2


def test_a_draft_round_blocks_the_next_one_so_double_generation_makes_one_round(
    empty_tournament,
):
    tournament = empty_tournament(10)
    seating.seat_next_round(tournament)
    with pytest.raises(UserError, match="round 1 is seated but not started"):
        seating.seat_next_round(tournament)
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_regenerate_with_another_seed_and_start_freezes(empty_tournament):
    tournament = empty_tournament(17, planned_rounds=3)
    round_ = seating.seat_next_round(tournament, seed=1)
    before = tables_by_round(tournament)[1]
    seating.regenerate_round(round_, seed=99)
    after = tables_by_round(tournament)[1]
    assert before != after
    assert sorted(p for t in after.values() for p in t) == sorted(
        p for t in before.values() for p in t
    )
    assert Sheet.objects.filter(table__round=round_, status=SheetStatus.NOT_STARTED).count() == len(
        after
    )
    start_round(round_)
    with pytest.raises(UserError, match="round 1 has started: its seating is frozen"):
        seating.regenerate_round(round_, seed=5)


def test_swapping_two_players_and_quality_follows(empty_tournament):
    tournament = empty_tournament(10, planned_rounds=2)
    seat_all(tournament, 1)
    round_ = seating.seat_next_round(tournament)
    tables = tables_by_round(tournament)[2]
    first, second = tables[1][0], tables[2][0]
    swaps.swap_players(round_, Player.objects.get(pk=first), Player.objects.get(pk=second))
    swapped = tables_by_round(tournament)[2]
    assert swapped[1][0] == second
    assert swapped[2][0] == first
    assert seating_quality.round_quality(round_).quality.repeat_meetings >= 0


def test_a_started_round_is_frozen_unless_a_scoreless_table_is_re_seated(empty_tournament):
    tournament = empty_tournament(10, planned_rounds=2)
    (round_,) = seat_all(tournament, 1)
    tables = tables_by_round(tournament)[1]
    a, b = (Player.objects.get(pk=tables[n][0]) for n in (1, 2))
    with pytest.raises(UserError, match="its seating is frozen unless you explicitly re-seat"):
        swaps.swap_players(round_, a, b)
    swaps.swap_players(round_, a, b, reseat=True)
    sheet = Sheet.objects.get(table__round=round_, table__number=1)
    sheet.status = SheetStatus.DRAFT
    sheet.save()
    with pytest.raises(UserError, match="table 1 already has scores"):
        swaps.swap_players(round_, a, b, reseat=True)


def test_byes_rotate_and_can_be_swapped(empty_tournament):
    tournament = empty_tournament(12, planned_rounds=6, table_policy="byes", table_sizes=[5])
    rounds = seat_all(tournament, 6)
    byes = Counter(
        Bye.objects.filter(round__tournament=tournament).values_list("player_id", flat=True)
    )
    assert sum(byes.values()) == 12
    assert set(byes.values()) == {1}
    last = rounds.last()
    sitting = Bye.objects.filter(round=last).first().player
    seated = Seat.objects.filter(round=last).first().player
    swaps.swap_players(last, sitting, seated, reseat=True)
    assert Bye.objects.filter(round=last, player=seated).exists()
    assert Seat.objects.filter(round=last, player=sitting).exists()


def test_clubs_are_kept_apart_in_early_rounds_and_keep_apart_pairs_always(empty_tournament):
    tournament = empty_tournament(25, planned_rounds=4, keep_clubs_apart_rounds=2)
    ann, bob = Player.objects.filter(tournament=tournament)[:2]
    KeepApart.objects.create(tournament=tournament, first=ann, second=bob)
    seat_all(tournament, 4)
    clubs = dict(Player.objects.filter(tournament=tournament).values_list("pk", "club"))
    for number, tables in tables_by_round(tournament).items():
        for players in tables.values():
            assert not {ann.pk, bob.pk} <= set(players)
            if number <= 2:
                assert len({clubs[p] for p in players}) == len(players)


def test_a_fixed_table_is_honoured(empty_tournament):
    tournament = empty_tournament(15, planned_rounds=3)
    player = Player.objects.filter(tournament=tournament).last()
    player.fixed_table = 2
    player.save()
    seat_all(tournament, 3)
    assert set(Seat.objects.filter(player=player).values_list("table__number", flat=True)) == {2}


def test_seating_by_standings_puts_the_leaders_together(make_played):
    tournament = make_played(players=15, rounds=2, rotations=1)
    round_ = seating.seat_next_round(tournament, method="standings")
    from tournament.standings.services import tournament_standings

    top = {row.key for row in tournament_standings(tournament).standings.rows[:5]}
    table_one = set(
        Seat.objects.filter(round=round_, table__number=1).values_list("player_id", flat=True)
    )
    assert len(top & table_one) >= 4


def test_random_seating_seats_everyone(empty_tournament):
    tournament = empty_tournament(13)
    round_ = seating.seat_next_round(tournament, method="random", seed=3)
    assert Seat.objects.filter(round=round_).count() == 13


def test_plan_seating_command_prints_the_data_contract():
    out = io.StringIO()
    call_command("plan_seating", "--players", "25", "--rounds", "6", "--sizes", "5", stdout=out)
    data = json.loads(out.getvalue())
    assert data["players"] == 25
    assert len(data["rounds"]) == 6
    for tables in data["rounds"]:
        assert sorted(p for table in tables for p in table) == list(range(1, 26))
    assert data["quality"] == {"repeat_meetings": 0, "max_meetings": 1, "lower_bound": 0}


def test_plan_seating_with_byes_lists_who_sits_out():
    out = io.StringIO()
    call_command("plan_seating", "--players", "12", "--rounds", "3", "--byes", stdout=out)
    data = json.loads(out.getvalue())
    for seated in data["rounds"]:
        assert [len(t) for t in seated["tables"]] == [5, 5]
        assert len(seated["byes"]) == 2
    text = io.StringIO()
    call_command(
        "plan_seating", "--players", "12", "--rounds", "2", "--format", "text", stdout=text
    )
    assert "Repeat meetings:" in text.getvalue()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "2", "--rounds", "1"], "At least 3 players are needed"),
        (["--players", "10", "--rounds", "1", "--sizes", "4,x"], "give table sizes like 4,5,6"),
    ],
)
def test_plan_seating_refuses_bad_input_clearly(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("plan_seating", *args, stdout=io.StringIO())


def test_seat_round_command(empty_tournament):
    tournament = empty_tournament(23, planned_rounds=3)
    out = io.StringIO()
    call_command("seat_round", tournament.slug, "--start", stdout=out)
    assert "Round 1 (started)" in out.getvalue()
    assert "Repeat meetings so far: 0" in out.getvalue()
    call_command("seat_round", tournament.slug, "--method", "random", "--seed", "4", stdout=out)
    with pytest.raises(CommandError, match="round 2 is seated but not started"):
        call_command("seat_round", tournament.slug, stdout=out)
    with pytest.raises(CommandError, match="no tournament with the slug"):
        call_command("seat_round", "nope", stdout=out)


def test_the_organiser_chooses_the_split(empty_tournament):
    tournament = empty_tournament(23, planned_rounds=3)
    splits = seating.splits_for(tournament)
    assert splits[0] == (5, 5, 5, 4, 4)
    assert (6, 6, 6, 5) in splits
    round_ = seating.seat_next_round(tournament, split=(6, 6, 6, 5))
    sizes = sorted(t.seats.count() for t in round_.tables.all())
    assert sizes == [5, 6, 6, 6]


def test_once_check_in_has_begun_only_checked_in_players_are_seated(empty_tournament):
    tournament = empty_tournament(12, planned_rounds=2)
    assert seating_request.not_checked_in(tournament) == 0
    present = list(Player.objects.filter(tournament=tournament).order_by("pk")[:10])
    Player.objects.filter(pk__in=[p.pk for p in present]).update(checked_in=True)
    assert seating_request.not_checked_in(tournament) == 2
    assert seating.splits_for(tournament)[0] == (5, 5)
    round_ = seating.seat_next_round(tournament)
    seated = set(Seat.objects.filter(round=round_).values_list("player_id", flat=True))
    assert seated == {p.pk for p in present}
    assert seating_quality.round_quality(round_).not_checked_in == 2


def test_before_check_in_every_active_player_is_seated(empty_tournament):
    tournament = empty_tournament(12, planned_rounds=2)
    Player.objects.filter(tournament=tournament, ref="p1").update(active=False, checked_in=True)
    round_ = seating.seat_next_round(tournament)
    assert Seat.objects.filter(round=round_).count() == 11
    assert seating_quality.round_quality(round_).not_checked_in == 0


def seated_tables(round_):
    return sorted(
        sorted(table) for table in tables_by_round(round_.tournament)[round_.number].values()
    )


def test_a_given_seed_plans_the_next_round_afresh(empty_tournament):
    tournament = empty_tournament(17, planned_rounds=3)
    seat_all(tournament, 1)
    stored = sorted(sorted(t) for t in tournament.seating_plan["rounds"][0]["tables"])
    request = seating_request.seating_request(tournament, rounds=2, seed=77, before=2)
    fresh = sorted(sorted(t) for t in plan(request).rounds[0].tables)
    assert fresh != stored
    round_ = seating.seat_next_round(tournament, seed=77)
    assert round_.seed == 77
    assert seated_tables(round_) == fresh


def test_keeping_clubs_apart_from_now_on_plans_the_remaining_rounds_again(empty_tournament):
    tournament = empty_tournament(25, planned_rounds=4, table_sizes=[5])
    seat_all(tournament, 1)
    stored = tournament.seating_plan["rounds"][0]["tables"]
    clubs = dict(Player.objects.filter(tournament=tournament).values_list("pk", "club"))
    assert any(len({clubs[p] for p in table}) < len(table) for table in stored)
    tournament.keep_clubs_apart_rounds = 3
    tournament.save()
    round_ = seating.seat_next_round(tournament)
    for table in tables_by_round(tournament)[round_.number].values():
        assert len({clubs[p] for p in table}) == len(table)
    # The new plan is then followed while clubs are kept apart: no seed, no change.
    start_round(round_)
    tournament.refresh_from_db()
    planned = sorted(sorted(t) for t in tournament.seating_plan["rounds"][0]["tables"])
    assert seated_tables(seating.seat_next_round(tournament)) == planned
