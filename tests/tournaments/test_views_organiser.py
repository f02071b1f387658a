"""Organiser pages: settings, scorers, players and CSV import, rounds and seating."""

import csv
import datetime
import html
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.pages import SETTINGS, inputs
from tournament.models import KeepApart, Player, Round, Seat, Sheet, SheetStatus, Tournament
from tournament.rounds import seating
from tournament.rounds import services as rounds


@pytest.fixture
def tournament(seated_round):
    return seated_round.tournament


def url(name, tournament, *args):
    return reverse(f"organiser:{name}", args=[tournament.slug, *args])


GET_PAGES = [
    ("dashboard", ()),
    ("edit", ()),
    ("scorers", ()),
    ("players", ()),
    ("rounds", ()),
    ("round", (1,)),
    ("standings", ()),
]


@pytest.mark.parametrize(("name", "args"), GET_PAGES)
def test_every_organiser_page_renders_for_the_organiser(organiser_client, tournament, name, args):
    response = organiser_client.get(url(name, tournament, *args))
    assert response.status_code == 200
    assert tournament.name in response.content.decode()


@pytest.mark.parametrize(("name", "args"), GET_PAGES)
def test_scorers_get_403_outsiders_404_anonymous_log_in(
    client, scorer_client, outsider_client, tournament, name, args
):
    target = url(name, tournament, *args)
    assert scorer_client.get(target).status_code == 403
    assert outsider_client.get(target).status_code == 404
    response = client.get(target)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


POST_PAGES = [
    ("tiebreak_remove", (), {"key": "countback"}),
    ("tiebreak_add", (), {"key": "opponents"}),
    ("tiebreak_down", (), {"key": "last_in"}),
    ("scorers", (), {"username": "oscar"}),
    ("players", (), {"name": "Intruder", "club": ""}),
    ("players_import", (), {"text": "A,B"}),
    ("keep_apart", (), {"remove": "1"}),
    ("player_drop", ("PLAYER",), {}),
    ("player_check_in", ("PLAYER",), {}),
    ("player_edit", ("PLAYER",), {"name": "Renamed", "club": ""}),
    ("rounds", (), {"method": "balanced"}),
    ("round_start", (1,), {}),
    ("round_swap", (1,), {"first": "PLAYER", "second": "PLAYER"}),
    ("publish", (), {}),
    ("reveal", (), {}),
]


@pytest.mark.parametrize(("name", "args", "data"), POST_PAGES)
def test_writes_are_refused_to_everyone_but_the_organiser(
    client, scorer_client, outsider_client, tournament, name, args, data
):
    player = Player.objects.filter(tournament=tournament).first()
    args = [player.pk if a == "PLAYER" else a for a in args]
    data = {key: player.pk if value == "PLAYER" else value for key, value in data.items()}
    target = url(name, tournament, *args)
    before = (Player.objects.count(), list(Tournament.objects.values_list("tiebreaks", flat=True)))
    assert scorer_client.post(target, data).status_code == 403
    assert outsider_client.post(target, data).status_code == 404
    assert client.post(target, data).status_code == 302
    after = (Player.objects.count(), list(Tournament.objects.values_list("tiebreaks", flat=True)))
    assert after == before
    assert Player.objects.filter(tournament=tournament, active=False).count() == 0
    assert not tournament.scorers.filter(username="oscar").exists()


def test_create_a_tournament_makes_the_creator_its_organiser(outsider_client, outsider):
    response = outsider_client.post(
        reverse("organiser:create"),
        {
            "name": "Crown Open",
            "slug": "",
            "scoring": "winner-advantage",
            "rotations_per_round": 2,
            "planned_rounds": 5,
            "table_policy": "mixed",
            "table_sizes": ["4", "6"],
            "bye_score": "zero",
            "keep_clubs_apart_rounds": 1,
            "two_person_check": "on",
            "venue": "The Crown",
        },
    )
    tournament = Tournament.objects.get(slug="crown-open")
    assert response.status_code == 302
    assert tournament.owner == outsider
    assert tournament.table_sizes == [4, 5, 6]
    assert tournament.rotations_per_round == 2


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"name": ""}, "This field is required."),
        ({"name": "Crown \u202eOpen"}, "The name has invisible direction-changing characters."),
        ({"name": "Crown\u2067 Open"}, "The name has invisible direction-changing characters."),
        ({"name": "Crown\u200bOpen"}, "The name has an invisible character (U+200B ZERO WIDTH"),
        ({"slug": "club-night"}, "The address “club-night” is taken"),
        ({"rotations_per_round": 0}, "Between 1 and 10 rotations a round."),
        ({"planned_rounds": 0}, "Between 1 and 50 rounds."),
        ({"scoring": "poker"}, "Select a valid choice."),
        ({"table_sizes": ["9"]}, "Select a valid choice."),
    ],
)
def test_tournament_settings_refuse_bad_input(organiser_client, tournament, change, error):
    data = {**SETTINGS, "name": "Other", "slug": "other", **change}
    response = organiser_client.post(reverse("organiser:create"), data)
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not Tournament.objects.filter(slug="other").exists()


def test_edit_settings(organiser_client, tournament):
    response = organiser_client.post(
        url("edit", tournament),
        # Unticked boxes are not posted: the two-person check goes off.
        {key: value for key, value in SETTINGS.items() if key != "two_person_check"}
        | {
            "slug": tournament.slug,
            "scoring": "classic-stakes",
            "planned_rounds": 3,
            "table_policy": "byes",
            "table_sizes": ["5"],
            "bye_score": "average",
        },
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.scoring, tournament.table_policy, tournament.two_person_check) == (
        "classic-stakes",
        "byes",
        False,
    )


def test_settings_refuse_a_name_no_other_name_may_have(organiser_client, tournament):
    """The one rule of every name: players', people's and clubs' too."""
    data = SETTINGS | {"slug": tournament.slug, "name": "Club \u202eNight"}
    response = organiser_client.post(url("edit", tournament), data)
    assert response.status_code == 200
    assert response.context["form"].errors == {
        "name": ["The name has invisible direction-changing characters."]
    }
    tournament.refresh_from_db()
    assert tournament.name == "Test Open"


def test_the_date_is_shown_as_the_date_input_reads_it_and_survives_a_save(
    organiser_client, tournament
):
    tournament.date = datetime.date(2025, 5, 1)
    tournament.save()
    response = organiser_client.get(url("edit", tournament))
    assert inputs(response)["date"]["value"] == "2025-05-01"
    # The browser posts back what the input showed.
    organiser_client.post(url("edit", tournament), {**SETTINGS, "date": "2025-05-01"})
    tournament.refresh_from_db()
    assert tournament.date == datetime.date(2025, 5, 1)


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"name": "  "}, "This field is required."),
        ({"slug": "taken"}, "The address “taken” is taken"),
        ({"rotations_per_round": "x"}, "Enter a whole number."),
        ({"rotations_per_round": 11}, "Between 1 and 10 rotations a round."),
        ({"planned_rounds": 51}, "Between 1 and 50 rounds."),
        ({"date": "31/31/2025"}, "Enter a valid date."),
        ({"table_policy": "chaos"}, "Select a valid choice."),
    ],
)
def test_editing_settings_refuses_bad_input_and_changes_nothing(
    organiser_client, tournament, change, error
):
    Tournament.objects.create(name="Taken", slug="taken")
    response = organiser_client.post(url("edit", tournament), {**SETTINGS, **change})
    assert response.status_code == 200
    assert error in response.content.decode()
    tournament.refresh_from_db()
    assert (tournament.name, tournament.slug, tournament.rotations_per_round) == (
        "Test Open",
        "club-night",
        1,
    )


def _rows(count):
    return [{"won": [20, 10, 10, 2], "last_in": 1, "left_over": 10}] * count


@pytest.mark.parametrize(
    ("confirmed", "held"),
    [(True, "8 deals recorded"), (False, "8 deals awaiting confirmation")],
)
def test_fewer_rotations_are_refused_while_a_table_has_more_deals(
    organiser_client, tournament, scorer, second_scorer, confirmed, held
):
    from tournament.sheets.confirming import confirm_sheet
    from tournament.sheets.saving import save_sheet

    tournament.rotations_per_round = 2
    tournament.save()
    table = tournament.rounds.get(number=1).tables.get(number=3)
    save_sheet(table, scorer, _rows(8), expected_version=0, final=True)
    if confirmed:
        confirm_sheet(table, second_scorer, expected_version=1)
    response = organiser_client.post(url("edit", tournament), SETTINGS)
    assert response.status_code == 200
    assert (
        f"round 1, table 3 already has {held}; a table of 4 at 1 rotation plays 4"
        in response.content.decode()
    )
    tournament.refresh_from_db()
    assert tournament.rotations_per_round == 2


def test_fewer_rotations_are_refused_for_a_long_draft_and_allowed_when_all_fit(
    organiser_client, tournament, scorer
):
    from tournament.sheets.saving import save_sheet

    tournament.rotations_per_round = 3
    tournament.save()
    table = tournament.rounds.get(number=1).tables.get(number=2)
    save_sheet(table, scorer, _rows(5), expected_version=0, final=False)
    response = organiser_client.post(url("edit", tournament), SETTINGS)
    assert "round 1, table 2 already has 5 deals in a draft" in response.content.decode()
    response = organiser_client.post(
        url("edit", tournament), {**SETTINGS, "rotations_per_round": 2}
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rotations_per_round == 2


def test_tiebreak_order_up_down_remove_add(organiser_client, tournament):
    organiser_client.post(url("tiebreak_down", tournament), {"key": "last_in"})
    tournament.refresh_from_db()
    assert tournament.tiebreaks == ["table_wins", "last_in", "countback"]
    organiser_client.post(url("tiebreak_up", tournament), {"key": "countback"})
    organiser_client.post(url("tiebreak_remove", tournament), {"key": "table_wins"})
    response = organiser_client.post(
        url("tiebreak_add", tournament), {"key": "opponents"}, HTTP_HX_REQUEST="true"
    )
    tournament.refresh_from_db()
    assert tournament.tiebreaks == ["countback", "last_in", "opponents"]
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="tiebreaks">')
    assert "opponents&#x27; points" in html or "opponents' points" in html


def test_adding_and_removing_scorers(organiser_client, tournament, outsider):
    response = organiser_client.post(url("scorers", tournament), {"username": "nobody"})
    assert "No account is called “nobody”" in response.content.decode()
    organiser_client.post(url("scorers", tournament), {"username": "oscar"})
    assert tournament.scorers.filter(pk=outsider.pk).exists()
    organiser_client.post(url("scorer_remove", tournament), {"user": outsider.pk})
    assert not tournament.scorers.filter(pk=outsider.pk).exists()


def test_add_a_player_warns_about_a_duplicate_name(organiser_client, tournament):
    existing = Player.objects.filter(tournament=tournament).first()
    response = organiser_client.post(
        url("players", tournament),
        {"name": f"  {existing.name.upper()} ", "club": "X"},
        follow=True,
    )
    html = response.content.decode()
    assert "another player is already registered as" in html
    assert "same name as another player" in html
    added = Player.objects.filter(tournament=tournament).order_by("-pk").first()
    assert added.name == existing.name.upper()
    assert added.ref == "p13"


def test_a_player_without_a_name_is_refused(organiser_client, tournament):
    before = Player.objects.count()
    response = organiser_client.post(url("players", tournament), {"name": "   ", "club": ""})
    assert response.status_code == 200
    assert (
        "This field is required." in response.content.decode()
        or "The name is empty." in response.content.decode()
    )
    assert Player.objects.count() == before


def test_check_in_drop_out_and_return(organiser_client, tournament):
    player = Player.objects.filter(tournament=tournament).first()
    organiser_client.post(url("player_check_in", tournament, player.pk))
    organiser_client.post(url("player_drop", tournament, player.pk))
    player.refresh_from_db()
    assert (player.checked_in, player.active) == (True, False)
    response = organiser_client.post(url("player_return", tournament, player.pk), follow=True)
    player.refresh_from_db()
    assert player.active
    assert "is back" in response.content.decode()
    response = organiser_client.post(url("player_check_out", tournament, player.pk), follow=True)
    player.refresh_from_db()
    assert (player.checked_in, player.active) == (False, True)
    assert "is no longer checked in" in response.content.decode()


def test_edit_a_player_and_fix_a_table(organiser_client, tournament):
    player = Player.objects.filter(tournament=tournament).first()
    organiser_client.post(
        url("player_edit", tournament, player.pk),
        {"name": "Ann  Smith", "club": "Crown", "fixed_table": 2},
    )
    player.refresh_from_db()
    assert (player.name, player.club, player.fixed_table) == ("Ann Smith", "Crown", 2)


def test_csv_import_refuses_everything_while_a_line_is_bad_then_can_skip(
    organiser_client, tournament
):
    text = "name,club\nAnn Other,Red Lion\n,No Name\nBob Jones,Crown,M1,extra\nCarl Dee\n"
    before = Player.objects.count()
    response = organiser_client.post(url("players_import", tournament), {"text": text})
    html = response.content.decode()
    assert "Nothing was imported" in html
    assert "line 3: the name is empty" in html
    assert "line 4: 4 columns; give a name and, optionally, a club and a member number" in html
    assert Player.objects.count() == before
    assert "Skip the bad lines and import the 2 good ones" in html
    response = organiser_client.post(
        url("players_import", tournament),
        {"text": text, "skip_bad": "True", "confirm": "True"},
        follow=True,
    )
    assert Player.objects.count() == before + 2
    assert set(Player.objects.filter(tournament=tournament).values_list("name", flat=True)) >= {
        "Ann Other",
        "Carl Dee",
    }
    assert "Skipped 2 bad line(s)" in response.content.decode()


def test_csv_upload_with_duplicates_warns_and_imports(organiser_client, tournament):
    existing = Player.objects.filter(tournament=tournament).first().name
    upload = SimpleUploadedFile(
        "players.csv",
        f"\ufeff{existing},X\nNew One,Y\nNew One,Z\n".encode(),
        content_type="text/csv",
    )
    response = organiser_client.post(url("players_import", tournament), {"file": upload})
    html = response.content.decode()
    # The preview names each warning beside its line, and imports nothing yet.
    assert f"{existing} is already registered" in html
    assert "New One is also on line 2" in html
    assert not Player.objects.filter(tournament=tournament, name="New One").exists()
    confirm = inputs(response)
    data = {key: confirm[key]["value"] for key in ("text", "skip_bad", "confirm")}
    response = organiser_client.post(url("players_import", tournament), data, follow=True)
    html = response.content.decode()
    assert f"line 1: {existing} is already registered" in html
    assert "line 3: New One is also on line 2" in html
    assert Player.objects.filter(tournament=tournament, name="New One").count() == 2


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"text": ""}, "Paste a list of players or choose a file."),
        (
            {"file": SimpleUploadedFile("p.csv", b"\xff\xfeA\x00", content_type="text/csv")},
            "is not UTF-8 text",
        ),
        ({"text": "\n\n"}, "Paste a list of players or choose a file."),
        ({"text": "name,club\n"}, "the list is empty"),
    ],
)
def test_csv_import_bad_files(organiser_client, tournament, data, message):
    before = Player.objects.count()
    response = organiser_client.post(url("players_import", tournament), data)
    assert message in response.content.decode()
    assert Player.objects.count() == before


def test_keep_apart_pairs(organiser_client, tournament):
    a, b = Player.objects.filter(tournament=tournament)[:2]
    organiser_client.post(url("keep_apart", tournament), {"first": a.pk, "second": b.pk})
    pair = KeepApart.objects.get()
    response = organiser_client.post(
        url("keep_apart", tournament), {"first": a.pk, "second": a.pk}, follow=True
    )
    assert "Choose two different players." in response.content.decode()
    organiser_client.post(url("keep_apart_remove", tournament), {"pair": pair.pk})
    assert not KeepApart.objects.exists()


def test_seat_regenerate_swap_and_start_a_round(organiser_client, tournament):
    response = organiser_client.post(url("rounds", tournament), {"method": "balanced", "seed": 3})
    assert response.status_code == 302
    round_ = Round.objects.get(tournament=tournament, number=2)
    assert not round_.started
    page = organiser_client.get(url("round", tournament, 2)).content.decode()
    assert "repeat meetings" in page
    assert "Print the score sheets" in page

    response = organiser_client.post(
        url("round_regenerate", tournament, 2), {"method": "random", "seed": 7}
    )
    round_.refresh_from_db()
    assert round_.seed == 7

    a = Seat.objects.get(round=round_, table__number=1, position=1).player
    b = Seat.objects.get(round=round_, table__number=2, position=1).player
    response = organiser_client.post(
        url("round_swap", tournament, 2),
        {"first": a.pk, "second": b.pk},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="seating">')
    assert "Swapped" in html
    assert "repeat meetings" in html
    assert Seat.objects.get(round=round_, table__number=1, position=1).player == b

    # Round 1's sheets are not in: the first press asks, the confirmed one starts.
    organiser_client.post(url("round_start", tournament, 2), {})
    round_.refresh_from_db()
    assert not round_.started
    organiser_client.post(url("round_start", tournament, 2), {"confirm": "on"})
    round_.refresh_from_db()
    assert round_.started
    response = organiser_client.post(
        url("round_swap", tournament, 2),
        {"first": a.pk, "second": b.pk},
        follow=True,
    )
    assert "its seating is frozen unless you explicitly re-seat" in response.content.decode()


def test_seating_a_round_while_one_is_a_draft_is_refused_clearly(organiser_client, tournament):
    seating.seat_next_round(tournament)
    response = organiser_client.post(url("rounds", tournament), {"method": "balanced"}, follow=True)
    assert "round 2 is seated but not started" in response.content.decode()
    assert Round.objects.filter(tournament=tournament).count() == 2


def test_organiser_standings_count_confirmed_sheets_and_name_those_awaiting_confirmation(
    organiser_client, tournament, scorer
):
    from tournament.sheets.saving import save_sheet

    table = tournament.rounds.get(number=1).tables.get(number=1)
    rows = [{"won": [20, 10, 10, 2], "last_in": 1, "left_over": 10}] * 4
    save_sheet(table, scorer, rows, expected_version=0, final=True)
    assert Sheet.objects.get(table=table).status == SheetStatus.ENTERED
    response = organiser_client.get(url("standings", tournament))
    html = response.content.decode()
    assert "every started round’s confirmed sheets are counted here" in html.replace("'", "’")
    assert "Not counted yet, awaiting confirmation: round 1, table 1." in html
    # The organiser's view: the sheet awaiting confirmation counts nowhere yet.
    assert max(row.points for row in response.context["result"].standings.rows) == 0


def _confirm_table_one(tournament, scorer, second_scorer):
    from tournament.sheets.confirming import confirm_sheet
    from tournament.sheets.saving import save_sheet

    table = tournament.rounds.get(number=1).tables.get(number=1)
    rows = [{"won": [20, 10, 10, 2], "last_in": 1, "left_over": 10}] * 4
    save_sheet(table, scorer, rows, expected_version=0, final=True)
    confirm_sheet(table, second_scorer, expected_version=1)


def _public_points(client, tournament):
    """Every player's points as the public CSV export gives them (served like the pages,
    through the public cache)."""
    response = client.get(reverse("standings_csv", args=[tournament.slug]))
    assert response.status_code == 200
    return {int(row["points"]) for row in csv.DictReader(io.StringIO(response.content.decode()))}


def test_results_are_public_only_when_published_and_released(
    client, organiser_client, tournament, scorer, second_scorer
):
    _confirm_table_one(tournament, scorer, second_scorer)
    public = reverse("standings", args=[tournament.slug])
    assert client.get(public).status_code == 404
    organiser_client.post(url("publish", tournament))
    assert client.get(public).status_code == 200
    assert _public_points(client, tournament) == {0}
    # Starting the next round releases nothing.
    round_two = seating.seat_next_round(tournament)
    rounds.start_round(round_two)
    assert _public_points(client, tournament) == {0}
    # Tables 2 and 3 have no confirmed sheet: the release is asked, then confirmed.
    organiser_client.post(url("round_release", tournament, 1), {"confirm": "on"})
    assert max(_public_points(client, tournament)) == 60
    organiser_client.post(url("round_withhold", tournament, 1), {})
    assert _public_points(client, tournament) == {0}
    organiser_client.post(url("unpublish", tournament))
    assert client.get(public).status_code == 404


def test_held_back_rounds_wait_for_the_final_reveal(organiser_client, tournament):
    tournament.planned_rounds = 2
    tournament.hold_back_rounds = 1
    tournament.save()
    round_two = seating.seat_next_round(tournament)
    rounds.start_round(round_two)
    response = organiser_client.post(url("round_release", tournament, 2), {}, follow=True)
    assert "held back for the final reveal" in response.content.decode()
    assert not Round.objects.get(pk=round_two.pk).released
    organiser_client.post(url("round_release", tournament, 1), {"confirm": "on"})
    assert Round.objects.get(tournament=tournament, number=1).released
    # Round 2 has no confirmed sheet: the reveal asks first, naming its tables.
    asked = organiser_client.post(url("reveal", tournament)).content.decode()
    assert "Round 2: tables 1 and 2 have no confirmed sheet." in asked
    assert not Round.objects.get(pk=round_two.pk).released
    organiser_client.post(url("reveal", tournament), {"confirm": "on"})
    assert Round.objects.filter(tournament=tournament, released=True).count() == 2


def test_an_unstarted_round_cannot_be_released(organiser_client, tournament):
    seating.seat_next_round(tournament)
    response = organiser_client.post(url("round_release", tournament, 2), {}, follow=True)
    assert "has not started: there is nothing to release" in response.content.decode()


# Bad input and refusals ---------------------------------------------------------------


def test_adding_a_scorer_with_an_empty_or_unknown_name_is_refused(organiser_client, tournament):
    before = set(tournament.scorers.values_list("username", flat=True))
    response = organiser_client.post(url("scorers", tournament), {"username": ""})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    response = organiser_client.post(url("scorers", tournament), {"username": "  nobody "})
    assert "No account is called “nobody”" in response.content.decode()
    assert set(tournament.scorers.values_list("username", flat=True)) == before


def test_editing_a_player_with_an_empty_name_is_refused(organiser_client, tournament):
    player = Player.objects.filter(tournament=tournament).first()
    name = player.name
    response = organiser_client.post(
        url("player_edit", tournament, player.pk), {"name": "   ", "club": "X"}
    )
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    player.refresh_from_db()
    assert (player.name, player.club) == (name, "Club 0")


def test_renaming_a_player_to_another_players_name_is_warned_about(organiser_client, tournament):
    first, second = Player.objects.filter(tournament=tournament)[:2]
    response = organiser_client.post(
        url("player_edit", tournament, second.pk),
        {"name": first.name.lower(), "club": ""},
        follow=True,
    )
    assert "another player is already registered as" in response.content.decode()
    second.refresh_from_db()
    assert second.name == first.name.lower()


@pytest.mark.parametrize(
    ("step", "data"),
    [
        ("tiebreak_up", {"key": "shoe_size"}),
        ("tiebreak_up", {}),
        ("tiebreak_add", {"key": ""}),
        ("tiebreak_remove", {}),
    ],
)
def test_a_tiebreak_change_not_understood_changes_nothing(organiser_client, tournament, step, data):
    before = list(tournament.tiebreaks)
    response = organiser_client.post(url(step, tournament), data, follow=True)
    assert "That tiebreak change was not understood." in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.tiebreaks == before


@pytest.mark.parametrize(
    ("step", "key", "message"),
    [
        ("tiebreak_add", "countback", "“countback (latest round first)” is already tiebreak 3"),
        ("tiebreak_up", "last_in", "“deals last in” is already first"),
        ("tiebreak_down", "countback", "“countback (latest round first)” is already last"),
        ("tiebreak_remove", "opponents", "“opponents' points” is not in the tiebreak order"),
        ("tiebreak_up", "opponents", "“opponents' points” is not in the tiebreak order"),
    ],
)
def test_a_tiebreak_step_a_stale_page_asks_for_is_refused_by_name(
    organiser_client, tournament, step, key, message
):
    before = list(tournament.tiebreaks)
    response = organiser_client.post(url(step, tournament), {"key": key}, follow=True)
    shown = html.unescape(response.content.decode())
    assert f"That tiebreak change was not made: {message}." in shown
    tournament.refresh_from_db()
    assert tournament.tiebreaks == before


@pytest.fixture
def seated_second_round(tournament):
    return seating.seat_next_round(tournament, seed=3)


def _seat_one(round_, table_number):
    return Seat.objects.get(round=round_, table__number=table_number, position=1).player


def _seating(round_):
    return sorted(Seat.objects.filter(round=round_).values_list("table__number", "player_id"))


@pytest.mark.parametrize(
    ("action", "data", "message"),
    [
        ("swap", {"first": "A", "second": "A"}, "Round 2: choose two different players"),
        ("swap", {"first": "A", "second": "99999"}, "choose the two players to swap"),
        ("swap", {"first": "A"}, "choose the two players to swap"),
        ("swap", {}, "choose the two players to swap"),
        (
            "regenerate",
            {"method": "balanced", "seed": "soon"},
            "choose a seating method and a seed (a whole number)",
        ),
        (
            "regenerate",
            {"method": "balanced", "seed": "-1"},
            "choose a seating method and a seed (a whole number)",
        ),
        ("regenerate", {"method": "alphabetical"}, "choose a seating method"),
        ("regenerate", {}, "choose a seating method"),
        ("start", {"seating": "x" * 200}, "the seating on your page could not be read"),
        ("start", {"seating": "stale"}, "was seated again, or had players swapped"),
    ],
)
def test_a_round_action_with_bad_input_is_refused_clearly(
    organiser_client, tournament, seated_second_round, action, data, message
):
    player = _seat_one(seated_second_round, 1)
    data = {key: player.pk if value == "A" else value for key, value in data.items()}
    before = (_seating(seated_second_round), seated_second_round.seed)
    response = organiser_client.post(url(f"round_{action}", tournament, 2), data, follow=True)
    assert message in response.content.decode()
    seated_second_round.refresh_from_db()
    assert (_seating(seated_second_round), seated_second_round.seed) == before
    assert not seated_second_round.started


def test_a_started_round_message_names_the_round_once(
    organiser_client, tournament, seated_second_round
):
    rounds.start_round(seated_second_round)
    a, b = _seat_one(seated_second_round, 1), _seat_one(seated_second_round, 2)
    response = organiser_client.post(
        url("round_swap", tournament, 2),
        {"first": a.pk, "second": b.pk},
        follow=True,
    )
    html = response.content.decode()
    assert "Round 2 has started: its seating is frozen unless you explicitly re-seat" in html
    assert "Round 2: round 2" not in html


def test_re_seating_a_started_table_without_scores_and_the_refusal_once_scored(
    organiser_client, tournament, scorer, seated_second_round
):
    from tournament.sheets.saving import save_sheet

    rounds.start_round(seated_second_round)
    a, b = _seat_one(seated_second_round, 1), _seat_one(seated_second_round, 2)
    swap = {"first": a.pk, "second": b.pk, "reseat": "on"}
    response = organiser_client.post(url("round_swap", tournament, 2), swap, follow=True)
    assert f"Swapped {a.name} and {b.name}." in response.content.decode()
    assert _seat_one(seated_second_round, 1) == b

    table = seated_second_round.tables.get(number=2)
    # The re-seat gave the sheet a new version: a page loaded after it saves.
    save_sheet(table, scorer, _rows(1), expected_version=1, final=False)
    before = _seating(seated_second_round)
    back = {**swap, "first": b.pk, "second": a.pk}
    response = organiser_client.post(url("round_swap", tournament, 2), back, follow=True)
    assert "Round 2: table 2 already has scores: it cannot be re-seated." in (
        response.content.decode()
    )
    assert _seating(seated_second_round) == before


CREATE = {**SETTINGS, "name": "Crown Open", "slug": ""}


def test_the_tiebreak_order_is_chosen_when_creating(outsider_client):
    page = outsider_client.get(reverse("organiser:create")).content.decode()
    assert '<option value="last_in" selected>deals last in</option>' in page
    response = outsider_client.post(
        reverse("organiser:create"),
        {**CREATE, "tiebreak_1": "countback", "tiebreak_2": "", "tiebreak_3": "opponents"},
    )
    assert response.status_code == 302
    assert Tournament.objects.get(slug="crown-open").tiebreaks == ["countback", "opponents"]


def test_a_tiebreak_chosen_twice_when_creating_is_refused(outsider_client):
    response = outsider_client.post(
        reverse("organiser:create"),
        {**CREATE, "tiebreak_1": "countback", "tiebreak_2": "countback"},
    )
    assert response.status_code == 200
    assert (
        "Tiebreak 2: “countback (latest round first)” is already tiebreak 1; choose each "
        "tiebreak once." in response.content.decode()
    )
    assert not Tournament.objects.filter(slug="crown-open").exists()


def test_players_of_one_name_are_told_apart_by_club_when_seating(
    organiser_client, tournament, seated_second_round
):
    one = _seat_one(seated_second_round, 1)
    other = _seat_one(seated_second_round, 2)
    Player.objects.filter(pk__in=[one.pk, other.pk]).update(name="Ann Smith")
    Player.objects.filter(pk=one.pk).update(club="Red Lion")
    Player.objects.filter(pk=other.pk).update(club="Crown")
    page = organiser_client.get(url("round", tournament, 2)).content.decode()
    assert f'<option value="{one.pk}">Ann Smith (Red Lion)</option>' in page
    assert f'<option value="{other.pk}">Ann Smith (Crown)</option>' in page
    seating_part = page.split('id="seating"')[1].split('<div class="columns">')[0]
    assert "Ann Smith (Red Lion)" in seating_part
    assert "Ann Smith (Crown)" in seating_part
    page = organiser_client.get(url("players", tournament)).content.decode()
    assert f'<option value="{one.pk}">Ann Smith (Red Lion)</option>' in page


def test_lowering_rotations_under_many_full_tables_names_three_and_counts_the_rest(
    organiser_client, organiser, make_played
):
    tournament = make_played(players=20, rounds=2, rotations=2)
    tournament.owner = organiser
    tournament.save()
    url = reverse("organiser:edit", args=[tournament.slug])
    form = organiser_client.get(url).context["form"]
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and name != "table_sizes"
    }
    data.update(table_sizes=list(tournament.table_sizes), rotations_per_round=1)
    response = organiser_client.post(url, data)
    assert response.status_code == 200
    [error] = response.context["form"].errors["rotations_per_round"]
    assert error.count("already has 10 deals recorded") == 3
    assert "and 5 more tables like these" in error
    tournament.refresh_from_db()
    assert tournament.rotations_per_round == 2
