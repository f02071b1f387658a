"""Public standings, projector and exports: what anonymous visitors see."""

import csv
import io
import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import clear_deals
from tests.pages import header_labels
from tournament.models import Round, Tournament
from tournament.rounds import seating
from tournament.rounds import services as rounds
from tournament.shared.public_changes import mark_changed
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.reading import sheet_of
from tournament.sheets.saving import save_sheet
from tournament.tournament_file import checking

PUBLIC_PAGES = ["standings", "projector", "standings_csv", "tournament_json"]


def get(client, name, tournament, **params):
    return client.get(reverse(name, args=[tournament.slug]), params)


def queries(function):
    with CaptureQueriesContext(connection) as captured:
        function()
    return len(captured)


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_a_private_tournament_is_invisible_on_every_public_page(
    client, organiser_client, seated_round, name
):
    tournament = seated_round.tournament
    assert get(client, name, tournament).status_code == 404
    assert get(organiser_client, name, tournament).status_code == 200


@pytest.fixture
def published(seated_round, scorer):
    """Round 1 of ``seated_round`` published; table 1's sheet saved but not confirmed."""
    tournament = seated_round.tournament
    tournament.published = True
    tournament.save()
    table = seated_round.tables.get(number=1)
    rows = [{"won": [20, 10, 10, 2], "last_in": 1, "left_over": 10}] * 4
    save_sheet(table, scorer, rows, expected_version=0, final=True)
    return tournament


def points_shown(client, tournament):
    rows = list(
        csv.DictReader(
            io.StringIO(get(client, "standings_csv", tournament).content.decode("utf-8-sig"))
        )
    )
    return {row["name"]: int(row["points"]) for row in rows}


def standings_points_and_deals(html, name):
    found = re.search(
        rf">{re.escape(name)}</a>(?:(?!</tr>).)*?</td><td>[^<]*</td><td>(-?\d+|–)</td><td>(\d+)</td>",
        html,
    )
    assert found, name
    # "–": the player has no result yet in any round counted.
    return shown_number(found.group(1)), int(found.group(2))


def shown_number(text):
    return None if text == "–" else int(text.replace("−", "-"))


def projector_points(html, name):
    found = re.search(
        rf"<td class=\"name\"><span class=\"who\">{re.escape(name)}</span>"
        r'(?: <span class="[^"]*">[^<]*</span>)*</td>\s*'
        r'<td class="num">([-−]?\d+|–)</td>',
        html,
    )
    assert found, name
    return shown_number(found.group(1))


def test_an_unconfirmed_sheet_is_invisible_on_the_standings_projector_and_file(
    client, published, second_scorer
):
    tournament = published
    round_one = Round.objects.get(tournament=tournament, number=1)
    rounds.release_round(round_one, despite_missing=True)
    table = round_one.tables.get(number=1)
    seat_one = table.seats.get(position=1).player.name

    def shown():
        standings = get(client, "standings", tournament).content.decode()
        projector = get(client, "projector", tournament).content.decode()
        data = json.loads(get(client, "tournament_json", tournament).content)
        (first_table,) = [t for t in data["rounds"][0]["tables"] if t["number"] == 1]
        return (
            standings_points_and_deals(standings, seat_one),
            projector_points(projector, seat_one),
            len(first_table["deals"]),
        )

    # Released before any sheet was confirmed: no points, "no result yet", not 0 points.
    assert shown() == ((None, 0), None, 0)
    confirm_sheet(table, second_scorer, expected_version=1)
    assert shown() == ((60, 4), 60, 4)


def test_an_unreleased_round_and_an_unconfirmed_sheet_are_invisible(
    client, published, second_scorer
):
    from tournament.sheets.confirming import confirm_sheet

    tournament = published
    round_one = Round.objects.get(tournament=tournament, number=1)
    # Released, but the sheet awaits confirmation: nothing shows.
    rounds.release_round(round_one, despite_missing=True)
    assert set(points_shown(client, tournament).values()) == {0}
    confirm_sheet(round_one.tables.get(number=1), second_scorer, expected_version=1)
    assert max(points_shown(client, tournament).values()) == 60
    # Withheld again: gone from every page.
    rounds.withhold_round(round_one)
    assert set(points_shown(client, tournament).values()) == {0}
    page = get(client, "standings", tournament).content.decode()
    seat_one = round_one.tables.get(number=1).seats.get(position=1).player.name
    # Nobody is listed as "=1" with 0 points: the page says why there is no table.
    assert seat_one not in page
    assert ">R1<" not in page
    assert "No results yet: round 1 is being played." in page
    # Round 1 is still being played as far as the room knows: the projector seats it.
    projector = get(client, "projector", tournament).content.decode()
    assert "Round 1 — find your table" in projector
    assert 'class="board standings-board"' not in projector
    data = json.loads(get(client, "tournament_json", tournament).content)
    assert data["rounds"] == []


def test_the_tournament_file_export_holds_released_confirmed_rounds(client, make_played):
    tournament = make_played(players=10, rounds=2)
    Round.objects.filter(tournament=tournament, number=2).update(released=False)
    mark_changed(tournament.pk)
    response = get(client, "tournament_json", tournament)
    assert response["Content-Disposition"] == 'attachment; filename="test-open.json"'
    data = json.loads(response.content)
    assert [r["number"] for r in data["rounds"]] == [1]
    assert checking.check(data) == []


def test_standings_page_marks_the_podium_explains_tiebreaks_and_links_players(client, make_played):
    tournament = make_played(players=12, rounds=2, planned_rounds=2)
    html = get(client, "standings", tournament).content.decode()
    assert "Final standings" in html
    assert "Winner" in html
    assert "Runner-up" in html
    assert "Ranked by points, then deals last in, then table wins, then countback" in html
    assert "/players/" in html
    assert "standings.csv" in html


def test_search_filters_by_name_and_keeps_ranks(client, make_played):
    tournament = make_played(players=12, rounds=2)
    response = get(client, "standings", tournament, q="player 0003")
    rows = response.context["table"].rows
    assert [row.record["name"] for row in rows] == ["Player 0003"]
    full = get(client, "standings", tournament).context["result"].standings.rows
    assert rows[0].record["rank_number"] == next(r.rank for r in full if r.name == "Player 0003")
    partial = client.get(
        reverse("standings", args=[tournament.slug]), {"q": "nobody"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert partial.lstrip().startswith('<div class="table-scroll" id="standings-table">')
    assert "No player matches that name." in partial


def test_standings_can_be_sorted(client, make_played):
    tournament = make_played(players=12, rounds=2)
    rows = get(client, "standings", tournament, sort="deals").context["table"].rows
    deals = [row.record["deals"] for row in rows]
    assert deals == sorted(deals)
    rows = get(client, "standings", tournament, sort="-rank").context["table"].rows
    assert (
        rows[0].record["rank_number"] == 12
        or rows[0].record["rank_number"] >= rows[-1].record["rank_number"]
    )


def test_projector_pages_through_the_standings_and_follows_the_room(client, make_played):
    # 70 players: more than the 60 one screen holds, so two pages of 35.
    tournament = make_played(players=70, rounds=2)
    html = get(client, "projector", tournament).content.decode()
    assert "Standings after round 2" in html
    # Every page comes at once, the first shown; without JavaScript a reload turns them.
    assert html.count('class="board-page') == 2
    assert html.count('class="board-page current"') == 1
    assert "page 1 of 2" in html
    assert 'url=?page=2"' in html
    assert 'data-region="#board"' in html
    second = client.get(
        reverse("projector", args=[tournament.slug]), {"page": "2"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert second.lstrip().startswith('<div id="board"')
    assert "page 2 of 2" in second
    assert "?page=1" in second  # wraps around
    not_a_page = get(client, "projector", tournament, page="x")
    assert not_a_page.status_code == 302
    assert not_a_page["Location"] == reverse("projector", args=[tournament.slug])


def test_csv_export(client, make_played):
    tournament = make_played(players=12, rounds=2)
    response = get(client, "standings_csv", tournament)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(rows) == 12
    assert {"rank", "name", "points", "round_1", "round_2"} <= set(rows[0])


def test_names_with_html_are_escaped(client, make_played):
    tournament = make_played(players=6, rounds=1)
    player = tournament.players.first()
    player.name = "<script>alert(1)</script>"
    player.save()
    for name in ("standings", "projector"):
        html = get(client, name, tournament).content.decode()
        assert "<script>alert(1)</script>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_public_page_queries_do_not_grow(client, make_played, settings, name):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    # Both with a round left to play, so that both read their stored chances.
    small = make_played(players=6, rounds=1, slug="small", planned_rounds=3)
    large = make_played(players=40, rounds=4, rotations=2, slug="large", planned_rounds=6)
    assert queries(lambda: get(client, name, small)) == queries(lambda: get(client, name, large))


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_anonymous_pages_come_from_the_cache_until_results_change(client, make_played, name):
    tournament = make_played(players=12, rounds=2, slug=f"cached-{name.replace('_', '-')}")
    first = get(client, name, tournament)
    assert queries(lambda: get(client, name, tournament)) == 0
    assert get(client, name, tournament).content == first.content
    clear_deals(tournament)
    mark_changed(tournament.pk)
    assert queries(lambda: get(client, name, tournament)) > 1
    assert get(client, name, tournament).content != first.content


def test_a_confirmed_sheet_clears_the_cache_by_itself(client, published, second_scorer):
    from tournament.sheets.confirming import confirm_sheet

    tournament = published
    rounds.release_round(Round.objects.get(tournament=tournament, number=1), despite_missing=True)
    assert set(points_shown(client, tournament).values()) == {0}
    table = Round.objects.get(tournament=tournament, number=1).tables.get(number=1)
    confirm_sheet(table, second_scorer, expected_version=1)
    assert max(points_shown(client, tournament).values()) == 60


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_public_pages_are_read_only(client, make_played, name):
    tournament = make_played()
    assert client.post(reverse(name, args=[tournament.slug])).status_code == 405


def test_drafts_and_unconfirmed_sheets_leave_the_cache_alone(client, published, scorer):
    tournament = published
    rounds.release_round(Round.objects.get(tournament=tournament, number=1), despite_missing=True)
    first = get(client, "standings", tournament)
    table = Round.objects.get(tournament=tournament, number=1).tables.get(number=2)
    rows = [{"won": [20, 10, 10, 2], "last_in": 1, "left_over": 10}] * 2
    save_sheet(table, scorer, rows, expected_version=0, final=False)
    save_sheet(table, scorer, rows * 2, expected_version=1, final=True)
    assert queries(lambda: get(client, "standings", tournament)) == 0
    assert get(client, "standings", tournament).content == first.content


def test_long_standings_come_a_hundred_to_a_page(client, make_played):
    tournament = make_played(players=130, rounds=1, slug="big-open")
    first = get(client, "standings", tournament).content.decode()
    second = get(client, "standings", tournament, page=2).content.decode()
    assert first.count('<td class="rank">') == 100
    assert second.count('<td class="rank">') == 30
    assert "?page=2" in first
    # Page 2 goes on from row 101 of the whole field, with its ranks.
    rows = list(
        csv.DictReader(
            io.StringIO(get(client, "standings_csv", tournament).content.decode("utf-8-sig"))
        )
    )
    row_101 = rows[100]
    assert row_101["name"] not in first
    assert row_101["name"] in second
    shown = re.search(
        rf'<td class="rank">([=\d]+)</td><td class="name"><a [^>]*>{row_101["name"]}<', second
    )
    assert shown
    # The pages write a shared rank "=7", the file "7=".
    assert shown.group(1).strip("=") == row_101["rank"].strip("=")
    # The search box finds a player on any page.
    found = get(client, "standings", tournament, q=rows[-1]["name"]).content.decode()
    assert found.count('<td class="rank">') == 1


@pytest.mark.parametrize("name", ["standings", "final"])
def test_nobody_is_marked_a_winner_before_a_round_is_released(client, make_played, name):
    tournament = make_played(players=12, rounds=1, planned_rounds=1)
    Round.objects.filter(tournament=tournament).update(released=False)
    mark_changed(tournament.pk)
    html = get(client, name, tournament).content.decode()
    assert 'class="podium"' not in html
    assert ">Winner<" not in html
    # Once the round counts, its top three are marked.
    rounds.release_round(Round.objects.get(tournament=tournament, number=1))
    html = get(client, name, tournament).content.decode()
    assert len(re.findall(r'<tr class="podium"', html)) >= 3


def test_a_csv_import_shows_on_a_cached_standings_page(client, make_played):
    from tournament.players.lists import import_csv

    tournament = make_played(players=12, rounds=1)
    assert "Zelda Newcomer" not in get(client, "standings", tournament).content.decode()
    assert queries(lambda: get(client, "standings", tournament)) == 0
    import_csv(tournament, "name,club\nZelda Newcomer,Late Club\n", link_people=True)
    assert "Zelda Newcomer" in get(client, "standings", tournament).content.decode()


def public_version(tournament):
    return Tournament.objects.values_list("public_changed", flat=True).get(pk=tournament.pk)


def test_seating_a_round_leaves_the_public_cache_alone_and_starting_it_refreshes_it(
    client, make_played, after_commit
):
    tournament = make_played(players=12, rounds=1)
    after_commit()
    tournament.refresh_from_db()
    before = public_version(tournament)
    first = get(client, "projector", tournament).content
    next_round = seating.seat_next_round(tournament)
    tournament.refresh_from_db()
    assert public_version(tournament) == before
    assert queries(lambda: get(client, "projector", tournament)) == 0
    assert get(client, "projector", tournament).content == first
    # A started round's seating is public: the room looks its table up at once.
    rounds.start_round(next_round)
    tournament.refresh_from_db()
    assert public_version(tournament) > before


def test_only_confirmations_in_released_rounds_change_the_public_pages(
    client, published, scorer, second_scorer
):
    tournament = published
    round_one = Round.objects.get(tournament=tournament, number=1)
    table = round_one.tables.get(number=1)
    before = public_version(tournament)
    first = get(client, "projector", tournament).content
    # Round 1 is not released: its confirmation is not the public's business yet.
    confirm_sheet(table, second_scorer, expected_version=1)
    assert public_version(tournament) == before
    assert queries(lambda: get(client, "projector", tournament)) == 0
    assert get(client, "projector", tournament).content == first

    rounds.release_round(round_one, despite_missing=True)
    released = public_version(tournament)
    assert released > before
    shown = points_shown(client, tournament)
    assert max(shown.values()) == 60

    # A correction of a released round's sheet shows once it is confirmed.
    corrected = [{"won": [2, 10, 10, 20], "last_in": 4, "left_over": 10}] * 4
    version = sheet_of(table).version
    save_sheet(table, scorer, corrected, expected_version=version, final=True)
    assert public_version(tournament) == released
    confirm_sheet(table, second_scorer, expected_version=version + 1)
    assert public_version(tournament) > released
    assert points_shown(client, tournament) != shown


@pytest.mark.parametrize("name", ["standings", "projector"])
def test_restoring_a_pushed_url_from_history_gets_the_whole_page(client, make_played, name):
    tournament = make_played(players=12, rounds=1)
    url = reverse(name, args=[tournament.slug])
    fragment = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment
    restored = client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    assert "<html" in restored.content.decode()
    assert "HX-History-Restore-Request" in restored["Vary"]
    # The whole page, once cached, is not served to the fragment's requests either.
    assert "<html" not in client.get(url, HTTP_HX_REQUEST="true").content.decode()


@pytest.mark.parametrize(
    ("name", "params", "same_as"),
    [
        ("standings", {"junk": "1"}, {}),
        ("standings", {"page": "1", "per_page": "5"}, {}),
        ("projector", {"page": "1", "junk": "1"}, {}),
        ("standings_csv", {"junk": "1"}, {}),
        ("final", {"junk": "1"}, {}),
    ],
)
def test_query_strings_a_page_does_not_read_share_its_cache_entry(
    client, make_played, name, params, same_as
):
    tournament = make_played(players=12, rounds=1)
    first = get(client, name, tournament, **same_as).content
    assert queries(lambda: get(client, name, tournament, **params)) == 0
    assert get(client, name, tournament, **params).content == first


def test_a_search_reads_only_its_normalised_text(client, make_played):
    """A search is answered afresh (never stored: public.cache.SEARCHES), from the text
    as normalised, whatever else the query string holds."""
    tournament = make_played(players=12, rounds=1)
    first = get(client, "standings", tournament, q="Player 0003").content
    again = get(client, "standings", tournament, q="  Player 0003 ", utm_source="x").content
    assert again == first
    assert "Player 0003" in first.decode()


def test_the_standings_keep_their_sort_and_pages_with_any_query_string(client, make_played):
    tournament = make_played(players=130, rounds=1, slug="big-open")
    second = get(client, "standings", tournament, page="2", junk="1").content.decode()
    assert second.count('<td class="rank">') == 30
    assert "junk" not in second
    by_name = get(client, "standings", tournament, sort="-name", junk="2")
    names = [row.record["name"] for row in by_name.context["table"].page.object_list]
    assert names[0] == "Player 0129"
    assert names == sorted(names, reverse=True)


@pytest.mark.parametrize(
    ("tiebreaks", "expected"),
    [
        (
            ["table_wins", "countback", "last_in"],
            ["Table wins", "R1", "R2", "R3", "Deals last in"],
        ),
        (["best_round", "last_in"], ["Best round", "Deals last in", "R1", "R2", "R3"]),
    ],
)
def test_standings_show_the_tiebreaks_in_the_tournaments_order(
    client, make_played, tiebreaks, expected
):
    # The last round released: the standings are final, with no chances column.
    tournament = make_played(players=12, rounds=3, planned_rounds=3)
    tournament.tiebreaks = tiebreaks
    tournament.save()
    response = get(client, "standings", tournament)
    assert header_labels(response.content.decode()) == [
        "Rank",
        "Player",
        "Club",
        "Points",
        "Deals",
        *expected,
    ]
    # Each row's values sit under their headers.
    standings = response.context["result"].standings
    first = standings.rows[0]
    rounds = dict(zip(standings.round_numbers, first.rounds, strict=True))
    by_label = {"R1": rounds[1], "R2": rounds[2], "R3": rounds[3]}
    by_label |= {
        "Table wins": first.table_wins,
        "Deals last in": first.last_in,
        "Best round": first.best_round,
    }
    record = response.context["table"].rows[0].record
    assert [value for _, value in record["cells"][2:]] == [by_label[label] for label in expected]


@pytest.mark.parametrize("column", ["round_1", "round_2", "best_round"])
def test_standings_sort_by_round_totals_and_best_round(client, make_played, column):
    tournament = make_played(players=24, rounds=2)
    tournament.tiebreaks = ["countback", "best_round"]
    tournament.save()
    response = get(client, "standings", tournament, sort=f"-{column}")
    assert f"?sort={column}" in response.content.decode()
    values = [row.record[column] for row in response.context["table"].rows]
    assert values == sorted(values, reverse=True)
    assert values != [
        row.record[column] for row in get(client, "standings", tournament).context["table"].rows
    ]


def test_countback_marks_the_round_that_decided(client, make_played):
    tournament = make_played(players=40, rounds=3, seed=3, planned_rounds=3)
    tournament.tiebreaks = ["countback"]
    tournament.save()
    response = get(client, "standings", tournament)
    standings = response.context["result"].standings
    rows = standings.rows
    decided = [
        (row, above)
        for row, above in zip(rows[1:], rows, strict=False)
        if row.decided_by == "countback"
    ]
    assert decided
    records = {row.record["name"]: row.record for row in response.context["table"].rows}
    for row, above in decided:
        # Latest round first: the first round whose totals differ is the one marked.
        latest_first = list(zip(reversed(row.rounds), reversed(above.rounds), strict=True))
        index = next(
            i for i, (mine, theirs) in enumerate(latest_first) if (mine or 0) != (theirs or 0)
        )
        # The columns read R1, R2, R3: the latest round is the last column.
        marks = [css for css, _ in records[row.name]["cells"][2:]]
        assert marks == [
            "decided" if i == len(marks) - 1 - index else "" for i in range(len(marks))
        ]


def test_projector_labels_the_winner_and_runners_up_in_words(client, make_played):
    tournament = make_played(players=12, rounds=2, planned_rounds=2)
    html = get(client, "projector", tournament).content.decode()
    podium = re.findall(r'<tr class="podium">(.*?)</tr>', html, re.S)
    assert len(podium) >= 3
    labels = [
        re.search(r'<span class="honour[^"]*">([^<]+)</span>', row).group(1) for row in podium
    ]
    # Places: Winner, Runner-up, Third (a place shared gives each the same word).
    places = {1: "Winner", 2: "Runner-up", 3: "Third"}
    ranks = re.findall(r'<tr class="podium">\s*<td class="rank">=?(\d+)</td>', html)
    assert labels == [places[int(rank)] for rank in ranks]
    assert "Third" in labels


def test_final_page_shows_each_players_deals(client, make_played):
    tournament = make_played(players=12, rounds=2)
    response = get(client, "final", tournament)
    html = response.content.decode()
    assert '<th scope="col" class="num">Deals</th>' in html
    for line in response.context["rows"]:
        row = line["row"]
        assert re.search(
            rf'<td class="name">{re.escape(row.name)}<span class="row-extra">.*?</span></td>\s*'
            rf'<td>[^<]*</td>\s*<td class="num">{row.points}</td>\s*'
            rf'<td class="num">{row.deals}</td>',
            html,
        ), row.name
