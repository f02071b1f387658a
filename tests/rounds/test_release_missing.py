"""Releasing a round with tables that have no confirmed sheet: the release asks first,
naming them, and the public pages show those tables' players as "no result yet",
unranked, until the sheet is confirmed (docs/standings.md, "No result yet")."""

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from tournament.models import Round, Tournament
from tournament.public.results import public_results
from tournament.rounds import services as rounds
from tournament.shared.public_changes import public_version
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.saving import save_sheet

ROWS = [{"won": [20, 10, 10, 2], "last_in": 1, "left_over": 10}] * 4


def confirm(round_, number, scorer, second_scorer, rows=ROWS):
    table = round_.tables.get(number=number)
    save_sheet(table, scorer, rows, expected_version=0, final=True)
    confirm_sheet(table, second_scorer, expected_version=1)


def names_at(round_, number):
    table = round_.tables.get(number=number)
    return [seat.player.name for seat in table.seats.order_by("position")]


@pytest.fixture
def table_three_missing(seated_round, scorer, second_scorer):
    """``seated_round`` published, tables 1 and 2 confirmed, table 3's sheet awaiting
    confirmation (so not confirmed)."""
    tournament = seated_round.tournament
    tournament.published = True
    tournament.save()
    confirm(seated_round, 1, scorer, second_scorer)
    confirm(seated_round, 2, scorer, second_scorer)
    save_sheet(seated_round.tables.get(number=3), scorer, ROWS, expected_version=0, final=True)
    return seated_round


def version(round_):
    return public_version(Tournament.objects.get(pk=round_.tournament_id))


def url(name, round_):
    return reverse(f"organiser:{name}", args=[round_.tournament.slug, round_.number])


# The service ---------------------------------------------------------------------------


def test_a_release_with_tables_unconfirmed_is_refused_naming_them(
    seated_round, scorer, second_scorer
):
    confirm(seated_round, 1, scorer, second_scorer)
    with pytest.raises(rounds.TablesWithoutResult) as refused:
        rounds.release_round(seated_round)
    assert refused.value.tables == [2, 3]
    assert str(refused.value) == (
        "Round 1: tables 2 and 3 have no confirmed sheet. Release round 1 anyway?"
    )
    assert not Round.objects.get(pk=seated_round.pk).released
    rounds.release_round(seated_round, despite_missing=True)
    assert Round.objects.get(pk=seated_round.pk).released


def test_a_round_with_every_sheet_confirmed_is_released_without_a_question(
    seated_round, scorer, second_scorer
):
    for number in (1, 2, 3):
        confirm(seated_round, number, scorer, second_scorer)
    assert rounds.tables_without_result(seated_round) == []
    rounds.release_round(seated_round)
    assert Round.objects.get(pk=seated_round.pk).released


def test_a_sheet_being_corrected_keeps_its_result_and_is_not_asked_about(
    seated_round, scorer, second_scorer
):
    for number in (1, 2, 3):
        confirm(seated_round, number, scorer, second_scorer)
    table = seated_round.tables.get(number=2)
    # A correction typed as a draft: the confirmed deals stay public meanwhile.
    save_sheet(table, scorer, ROWS[:3], expected_version=2, final=False)
    assert rounds.tables_without_result(seated_round) == []
    rounds.release_round(seated_round)
    assert Round.objects.get(pk=seated_round.pk).released


def test_a_missing_tables_players_are_unranked_with_no_result_yet(table_three_missing):
    round_ = table_three_missing
    rounds.release_round(round_, despite_missing=True)
    results = public_results(round_.tournament)
    rows = results.standings.rows
    waiting = names_at(round_, 3)
    # Eight ranked players first (60, 20, 20, 4 at both tables), then table 3's by name.
    assert [row.rank for row in rows] == [1, 1, 3, 3, 3, 3, 7, 7, None, None, None, None]
    assert [row.name for row in rows[8:]] == sorted(waiting, key=str.casefold)
    assert all(row.waiting == (1,) and row.rounds == (None,) for row in rows[8:])
    assert all(row.waiting == () for row in rows[:8])
    assert results.missing_words == ["Table 3 of round 1 has no result yet"]


def test_the_standings_command_and_the_csv_say_no_result_yet(table_three_missing, client):
    round_ = table_three_missing
    rounds.release_round(round_, despite_missing=True)
    waiting = set(names_at(round_, 3))
    slug = round_.tournament.slug

    out = io.StringIO()
    call_command("standings", slug, "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    by_name = {row["name"]: row for row in data["rows"]}
    for name in waiting:
        assert by_name[name]["rank"] is None
        assert by_name[name]["rounds"] == [None]
        assert by_name[name]["no_result_yet"] == [1]
    assert {row["no_result_yet"] == [] for row in data["rows"] if row["name"] not in waiting} == {
        True
    }
    assert data["tables_without_result"] == [{"round": 1, "table": 3}]

    response = client.get(reverse("standings_csv", args=[slug]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [row["name"] for row in rows[8:]] == sorted(waiting, key=str.casefold)
    assert {(row["rank"], row["round_1"]) for row in rows[8:]} == {("", "no result yet")}
    assert "" not in {row["rank"] for row in rows[:8]}

    out = io.StringIO()
    call_command("standings", slug, "--format", "text", stdout=out)
    assert "Table 3 of round 1 has no result yet." in out.getvalue()
    assert "listed last, unranked" in out.getvalue()


def test_the_public_pages_say_no_result_yet(table_three_missing, client):
    round_ = table_three_missing
    rounds.release_round(round_, despite_missing=True)
    slug = round_.tournament.slug
    standings = client.get(reverse("standings", args=[slug])).content.decode()
    assert "Table 3 of round 1 has no result yet." in standings
    # The words of the card and the player's page: the round and the table.
    assert standings.count('class="badge warn no-result">No result yet for round 1 (table 3)<') == 4
    projector = client.get(reverse("projector", args=[slug])).content.decode()
    assert projector.count('<span class="no-result">no result yet</span>') == 4
    assert "Table 3 of round 1 has no result yet." in projector
    page = client.get(reverse("public_round", args=[slug, 1])).content.decode()
    assert page.count('<span class="badge warn">no result yet</span>') == 1
    waiting = round_.tables.get(number=3).seats.get(position=1).player
    player = client.get(reverse("player", args=[slug, waiting.pk])).content.decode()
    assert "no rank yet" in player
    assert "No result yet for round 1 (table 3)" in player
    assert "round total <strong>0</strong>" not in player
    final = client.get(reverse("final", args=[slug])).content.decode()
    assert "Table 3 of round 1 has no result yet." in final


def test_confirming_the_missing_sheet_later_updates_the_public_pages(
    table_three_missing, client, second_scorer
):
    round_ = table_three_missing
    rounds.release_round(round_, despite_missing=True)
    slug = round_.tournament.slug
    standings = reverse("standings", args=[slug])
    assert "no result yet" in client.get(standings).content.decode()
    before = version(round_)
    confirm_sheet(round_.tables.get(number=3), second_scorer, expected_version=1)
    # The public_changes receivers move the version: every cached public page is stale.
    assert version(round_) > before
    page = client.get(standings).content.decode()
    assert "no result yet" not in page
    rows = public_results(round_.tournament).standings.rows
    assert [row.rank for row in rows] == [1, 1, 1, 4, 4, 4, 4, 4, 4, 10, 10, 10]


def test_a_round_released_with_no_result_anywhere_ranks_nobody_lower(seated_round):
    # Every table is missing: the round counts for nobody yet, so nobody is put apart.
    rounds.release_round(seated_round, despite_missing=True)
    rows = public_results(seated_round.tournament).standings.rows
    assert {(row.rank, row.shared, row.waiting) for row in rows} == {(1, True, (1,))}
    assert public_results(seated_round.tournament).missing_words == [
        "3 tables of round 1 have no result yet (tables 1, 2 and 3)"
    ]


# The organiser's pages --------------------------------------------------------------


def test_the_release_asks_first_naming_the_missing_tables(organiser_client, table_three_missing):
    round_ = table_three_missing
    response = organiser_client.post(url("round_release", round_), {})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Round 1: table 3 has no confirmed sheet. Release round 1 anyway?" in html
    assert 'id="confirm-release"' in html
    assert "Release round 1 anyway</button>" in html
    assert not Round.objects.get(pk=round_.pk).released

    response = organiser_client.post(url("round_release", round_), {"confirm": "on"})
    assert response.status_code == 302
    assert Round.objects.get(pk=round_.pk).released
    page = organiser_client.get(response.url).content.decode()
    assert "Round 1&#x27;s confirmed results are now public." in page


def test_a_release_with_every_sheet_confirmed_asks_nothing(
    organiser_client, seated_round, scorer, second_scorer
):
    for number in (1, 2, 3):
        confirm(seated_round, number, scorer, second_scorer)
    response = organiser_client.post(url("round_release", seated_round), {})
    assert response.status_code == 302
    assert Round.objects.get(pk=seated_round.pk).released


def test_only_the_organiser_may_release(client, scorer_client, outsider_client, seated_round):
    target = url("round_release", seated_round)
    assert scorer_client.post(target, {"confirm": "on"}).status_code == 403
    assert outsider_client.post(target, {"confirm": "on"}).status_code == 404
    response = client.post(target, {"confirm": "on"})
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert not Round.objects.get(pk=seated_round.pk).released


def test_the_question_comes_as_the_round_page_fragment_to_htmx(
    organiser_client, table_three_missing
):
    response = organiser_client.post(
        url("round_release", table_three_missing), {}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert "Round 1: table 3 has no confirmed sheet. Release round 1 anyway?" in html
    assert not Round.objects.get(pk=table_three_missing.pk).released


def test_the_release_question_says_the_phones_still_send_and_the_desk_confirms(
    organiser_client, table_three_missing
):
    html = organiser_client.post(url("round_release", table_three_missing), {}).content.decode()
    assert "Round 1: table 3 has no confirmed sheet. Release round 1 anyway?" in html
    assert (
        "Once released, the code of table 3 still opens its sheet: the players can still type "
        "and send it from their phones, and a scorer at the desk confirms it (once a round is "
        "released, no phone confirms a sheet)."
    ) in html


def test_the_release_question_names_every_table_without_a_result(
    organiser_client, seated_round, scorer, second_scorer
):
    confirm(seated_round, 2, scorer, second_scorer)
    html = organiser_client.post(url("round_release", seated_round), {}).content.decode()
    assert "Round 1: tables 1 and 3 have no confirmed sheet." in html
    assert (
        "Once released, the codes of tables 1 and 3 still open their sheets: the players can "
        "still type and send them from their phones, and a scorer at the desk confirms them"
    ) in html


def test_without_table_entry_the_question_says_the_desk_enters_them(
    organiser_client, table_three_missing
):
    Tournament.objects.filter(pk=table_three_missing.tournament_id).update(table_entry=False)
    html = organiser_client.post(url("round_release", table_three_missing), {}).content.decode()
    question = html.split('id="confirm-release"', 1)[1].split("</form>", 1)[0]
    assert (
        "Once released, the sheet of table 3 can still be entered and confirmed at the desk."
    ) in question
    assert "phone" not in question


# The final reveal ----------------------------------------------------------------------


def held_back(round_):
    tournament = round_.tournament
    tournament.planned_rounds = 1
    tournament.hold_back_rounds = 1
    tournament.save()
    return tournament


def test_revealing_the_final_results_asks_first_naming_the_tables(table_three_missing):
    tournament = held_back(table_three_missing)
    with pytest.raises(rounds.RoundsWithoutResult) as refused:
        rounds.reveal_final_results(tournament)
    assert str(refused.value) == (
        "Round 1: table 3 has no confirmed sheet. Reveal the final results anyway?"
    )
    assert not Round.objects.get(pk=table_three_missing.pk).released
    assert rounds.reveal_final_results(tournament, despite_missing=True) == 1
    assert Round.objects.get(pk=table_three_missing.pk).released


def test_the_overview_asks_before_revealing_and_reveals_when_told(
    organiser_client, table_three_missing
):
    tournament = held_back(table_three_missing)
    reveal = reverse("organiser:reveal", args=[tournament.slug])
    asked = organiser_client.post(reveal)
    html = asked.content.decode()
    assert asked.status_code == 200
    assert "Round 1: table 3 has no confirmed sheet. Reveal the final results anyway?" in html
    assert (
        "Once released, the code of that table still opens its sheet: the players can still "
        "type and send it from their phones, and a scorer at the desk confirms it"
    ) in html
    assert "Reveal the final results anyway" in html
    assert 'id="confirm-reveal"' in html
    assert "data-error-summary" in html
    assert not Round.objects.get(pk=table_three_missing.pk).released
    done = organiser_client.post(reveal, {"confirm": "on"}, follow=True)
    assert "Revealed the final results (1 round)." in done.content.decode()
    assert Round.objects.get(pk=table_three_missing.pk).released
    standings = organiser_client.get(reverse("standings", args=[tournament.slug]))
    assert "no result yet" in standings.content.decode()


def test_a_reveal_with_every_sheet_confirmed_asks_nothing(
    organiser_client, seated_round, scorer, second_scorer
):
    for number in (1, 2, 3):
        confirm(seated_round, number, scorer, second_scorer)
    tournament = held_back(seated_round)
    done = organiser_client.post(reverse("organiser:reveal", args=[tournament.slug]), follow=True)
    assert "Revealed the final results (1 round)." in done.content.decode()
    assert Round.objects.get(pk=seated_round.pk).released
