"""Where the rule set meets the rest: a player leaving down to a size the rules do not
seat, a change of rules over such a leave, the sizes the seating may use, rules that seat
no table under the scoring, and bad numbers typed in the house rules."""

import html

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring.rules import Leave
from scoring.rulesets import HOUSE, STANDARD
from tests.factories import table_of
from tournament.models import Tournament
from tournament.sheets.checking import SheetInvalidError
from tournament.sheets.saving import save_sheet
from tournament.tournament_file import checking, writing


def _numbers(*sizes):
    return {
        "left_over_to": "dealer",
        "tables": {
            str(size): {
                name: getattr(STANDARD.params(size), name)
                for name in (
                    "cards_each",
                    "table_cards",
                    "dealer_stake",
                    "other_stake",
                    "last_in_prize",
                    "break_even",
                )
            }
            for size in sizes
        },
    }


FOUR = {"won": ["10", "10", "10", "10"], "last_in": "1", "left_over": "12"}
THREE = {"won": ["12", "12", "", "14"], "last_in": "1", "left_over": "14"}


@pytest.fixture
def organiser_table(db, organiser):
    """Table 1 of a tournament under house rules seating 4 and 5 only."""
    table = table_of(
        4,
        scoring="classic-stakes",
        rule_set=HOUSE,
        house_rules=_numbers(4, 5),
        table_sizes=[4, 5],
        owner=organiser,
        two_person_check=False,
    )
    return table


@pytest.mark.parametrize("final", [False, True], ids=["draft", "complete"])
def test_a_leave_down_to_a_size_the_rules_do_not_seat_is_refused_naming_seat_and_deal(
    organiser_table, organiser, final
):
    user = get_user_model().objects.create_user("amy")
    with pytest.raises(SheetInvalidError) as caught:
        save_sheet(
            organiser_table,
            user,
            [dict(FOUR), dict(FOUR), dict(THREE)],
            expected_version=0,
            final=final,
            left=[Leave(after_deal=2, seat=3)],
        ).or_raise()
    assert (
        "seat 3 left after deal 2: the deals after it would be dealt at 3 players, and "
        "House rules seat 4 or 5" in "; ".join(caught.value.problems)
    )


def test_a_change_of_rules_over_a_recorded_leave_is_refused_not_an_error(
    organiser_client, db, organiser
):
    table = table_of(4, owner=organiser, two_person_check=False)
    user = get_user_model().objects.create_user("amy")
    save_sheet(
        table,
        user,
        [dict(FOUR), dict(FOUR), dict(THREE)],
        expected_version=0,
        final=True,
        left=[Leave(after_deal=2, seat=3)],
    )
    tournament = table.round.tournament
    url = reverse("organiser:rules", args=[tournament.slug])
    data = {"left_over_to": "dealer"}
    for size in (4, 5):
        data[f"plays_{size}"] = "on"
        for name, value in _numbers(size)["tables"][str(size)].items():
            data[f"{name}_{size}"] = str(value)
    response = organiser_client.post(url, data)
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert "Nothing was changed" in page
    assert "round 1, table 1: seat 3 left after deal 2: the deals after it would be dealt" in page
    # The page shows the rules in force, not the refused ones.
    assert "under <strong>Willughby and Parlett's table (3 to 6)</strong>" in page
    assert Tournament.objects.get(pk=tournament.pk).rule_set == "standard"


def test_house_rules_take_the_sizes_they_do_not_seat_out_of_the_seating_and_say_so(
    organiser_client, db, organiser
):
    table = table_of(4, owner=organiser, table_sizes=[4, 5, 6])
    tournament = table.round.tournament
    url = reverse("organiser:rules", args=[tournament.slug])
    data = {"left_over_to": "dealer"}
    for size in (4, 5):
        data[f"plays_{size}"] = "on"
        for name, value in _numbers(size)["tables"][str(size)].items():
            data[f"{name}_{size}"] = str(value)
    response = organiser_client.post(url, data, follow=True)
    page = html.unescape(response.content.decode())
    assert "Tables of 6 are no longer among the sizes the seating may use" in page
    tournament.refresh_from_db()
    assert (tournament.rule_set, tournament.table_sizes) == (HOUSE, [4, 5])
    # Its own file imports again (a backup restores it).
    assert checking.check(writing.export_tournament(tournament)) == []


def test_rules_that_seat_no_table_under_the_scoring_are_refused(organiser_client, db, organiser):
    table = table_of(4, owner=organiser, scoring="caidis", table_sizes=[4])
    tournament = table.round.tournament
    table.delete()
    url = reverse("organiser:rules", args=[tournament.slug])
    data = {"left_over_to": "dealer", "plays_7": "on"}
    for name, value in _numbers(6)["tables"]["6"].items():
        data[f"{name}_7"] = str(value)
    data["cards_each_7"] = "6"
    response = organiser_client.post(url, data)
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert "seats no table under Compendium Caidis" in page
    assert Tournament.objects.get(pk=tournament.pk).rule_set == "standard"
    assert (
        organiser_client.get(reverse("organiser:rounds", args=[tournament.slug])).status_code == 200
    )


def test_bad_numbers_are_named_beside_their_box_and_unticked_sizes_do_not_count(
    organiser_client, db, organiser
):
    table = table_of(4, owner=organiser)
    tournament = table.round.tournament
    url = reverse("organiser:rules", args=[tournament.slug])
    data = {"left_over_to": "dealer"}
    for size in (3, 4, 5, 6):
        data[f"plays_{size}"] = "on"
        for name, value in _numbers(size)["tables"][str(size)].items():
            data[f"{name}_{size}"] = str(value)
    response = organiser_client.post(url, {**data, "last_in_prize_5": "150"})
    page = html.unescape(response.content.decode())
    assert "Tables of 5: last-in prize is at most 99." in page
    assert "last-in prize is missing" not in page
    # A stray value in a size not played is no reason to refuse.
    response = organiser_client.post(url, {**data, "cards_each_7": "x"})
    assert response.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).rule_set == HOUSE
