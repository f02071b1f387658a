"""The standings widget other sites frame, and the broadcast overlay for a stream: who
may see them, the one page any site may frame (cached and not), every state of the
evening as the standings show it, the overlay's clamped parameters, and the Publish
page's snippets."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.rules import Leave
from tests.factories import TournamentFactory, make_players, seated_round
from tournament.models import Player, Round, Table, Tournament
from tournament.players import adjustments
from tournament.public import embed as widgets
from tournament.public.results import BeingWorkedOut, public_results
from tournament.rounds import seating
from tournament.rounds import services as rounds
from tournament.sheets.saving import save_sheet

FIVE = {"won": ["10", "10", "10", "10", "10"], "last_in": "1", "left_over": "2"}
FOUR = {"won": ["12", "6", "", "8", "14"], "last_in": "1", "left_over": "12"}


def embed_url(tournament: Tournament) -> str:
    return reverse("embed", args=[tournament.slug])


def overlay_url(tournament: Tournament) -> str:
    return reverse("overlay", args=[tournament.slug])


def frame_ancestors(response) -> str:
    policy = response["Content-Security-Policy"]
    return next(
        part.strip() for part in policy.split(";") if part.strip().startswith("frame-ancestors")
    )


def rows_of(html: str) -> list[str]:
    """The player names in the widget's or the overlay's table, in order."""
    return [name.strip() for name in re.findall(r'<td class="name">([^<]+)', html)]


def points_of(html: str) -> dict[str, str]:
    """Each player's points in the widget, by name."""
    found = re.findall(r'<td class="name">([^<]+).*?<td class="num points">([^<]+)', html, re.S)
    return {name.strip(): points.strip() for name, points in found}


@pytest.fixture
def evening(make_played):
    """Twelve players, two rounds released of four planned."""
    return make_played(players=12, rounds=2, planned_rounds=4, slug="spring-open")


# Who may see them ------------------------------------------------------------------------


@pytest.mark.parametrize("url", [embed_url, overlay_url])
def test_a_private_tournament_has_none_not_even_for_its_organiser(
    url, client, organiser_client, make_played, organiser
):
    private = make_played(players=8, rounds=1, published=False, owner=organiser)
    assert client.get(url(private)).status_code == 404
    # What another site or a stream shows is what the public sees.
    assert organiser_client.get(url(private)).status_code == 404
    Tournament.objects.filter(pk=private.pk).update(published=True)
    assert client.get(url(private)).status_code == 200


@pytest.mark.parametrize("url", [embed_url, overlay_url])
def test_a_rehearsal_never_has_one_even_by_its_private_link(url, client, make_played):
    rehearsal = make_played(players=8, rounds=1, published=False, slug="spring-rehearsal")
    Tournament.objects.filter(pk=rehearsal.pk).update(rehearsal_token="the-token")
    # Its private link opens its pages, not these.
    client.get(reverse("rehearsal_link", args=[rehearsal.slug, "the-token"]))
    assert client.get(reverse("standings", args=[rehearsal.slug])).status_code == 200
    assert client.get(url(rehearsal)).status_code == 404


def test_the_widget_needs_no_cookie_and_sets_none(client, evening):
    response = client.get(embed_url(evening))
    assert response.status_code == 200
    assert not response.cookies
    assert "csrfmiddlewaretoken" not in response.content.decode()
    assert "sessionid" not in client.cookies


# Framing ---------------------------------------------------------------------------------


def test_only_the_widget_may_be_framed_by_any_site_cached_or_not(
    client, evening, django_assert_num_queries
):
    url = embed_url(evening)
    first = client.get(url)
    with django_assert_num_queries(0):
        cached = client.get(url)
    for response in (first, cached):
        assert frame_ancestors(response) == "frame-ancestors *"
        assert not response.has_header("X-Frame-Options")
    # Every other page of the tournament stays unframeable, from the cache too.
    for other in (
        reverse("standings", args=[evening.slug]),
        reverse("projector", args=[evening.slug]),
        overlay_url(evening),
    ):
        first = client.get(other)
        with django_assert_num_queries(0):
            cached = client.get(other)
        for response in (first, cached):
            assert response.status_code == 200, other
            assert frame_ancestors(response) == "frame-ancestors 'none'", other
            assert response["X-Frame-Options"] == "DENY", other


def test_the_widget_seen_by_its_logged_in_organiser_is_frameable_but_private(
    organiser_client, make_played, organiser
):
    mine = make_played(players=8, rounds=1, owner=organiser, slug="olives-open")
    response = organiser_client.get(embed_url(mine))
    assert frame_ancestors(response) == "frame-ancestors *"
    assert "no-store" in response["Cache-Control"]
    # A 404 is the site's usual page, unframeable.
    missing = organiser_client.get(reverse("embed", args=["no-such-tournament"]))
    assert missing.status_code == 404
    assert missing["X-Frame-Options"] == "DENY"


def test_the_widget_answers_not_modified_until_a_release(client, make_played):
    tournament = make_played(players=12, rounds=1, planned_rounds=3, slug="poll-open")
    url = embed_url(tournament)
    first = client.get(url)
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    round_two = seating.seat_next_round(tournament)
    rounds.start_round(round_two)
    # The round's results released: the widget changes, and says so.
    rounds.release_round(round_two, despite_missing=True)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert "After round 2 of 3" in changed.content.decode()


# Every state of the evening ----------------------------------------------------------------


def test_the_widget_shows_the_standings_in_their_order(client, evening):
    html = client.get(embed_url(evening)).content.decode()
    assert "After round 2 of 4 — provisional" in html
    # The stored public view's order, as the standings page shows it.
    stored = public_results(evening).tournament_standings(evening).standings.rows
    assert rows_of(html) == [row.name for row in stored]
    assert "Leader" in html
    assert 'data-region="#embed"' in html


def test_before_any_release_the_widget_says_what_is_being_played(client, db):
    tournament = TournamentFactory(slug="new-open", published=True, planned_rounds=3)
    players = make_players(tournament, 8)
    seated_round(tournament, players, number=1)
    html = client.get(embed_url(tournament)).content.decode()
    assert "No results yet: round 1 is being played." in html
    assert "<table" not in html


def test_the_widget_shows_a_missing_result_a_penalty_and_a_player_who_left(
    client, db, organiser, after_commit
):
    tournament = TournamentFactory(
        slug="left-open", owner=organiser, rotations_per_round=2, published=True
    )
    tournament.two_person_check = False
    tournament.save()
    round_ = seated_round(tournament, make_players(tournament, 10))
    one = Table.objects.get(round=round_, number=1)
    # Table 1's third seat left after deal 7; the table played on without them.
    save_sheet(
        one,
        organiser,
        [FIVE] * 7 + [FOUR, FOUR],
        expected_version=0,
        final=True,
        left=[Leave(after_deal=7, seat=3)],
    )
    # Table 2 has no result yet when the round is released.
    rounds.release_round(round_, despite_missing=True)
    penalised = Player.objects.get(tournament=tournament, name="Player 0001")
    adjustments.add_adjustment(
        tournament, adjustments.NewAdjustment(penalised.pk, 1, -3, "slow play"), organiser
    )
    after_commit()
    html = client.get(embed_url(tournament)).content.decode()
    assert "Table 2 of round 1 has no result yet." in html
    assert "No result yet for round 1 (table 2)" in html
    assert '<span class="adjusted penalty">penalty</span>' in html
    assert "Player 0001: −3 in round 1 (slow play)." in html
    waiting = [
        name
        for name, rank in zip(
            rows_of(html), re.findall(r'<td class="num rank">([^<]+)</td>', html), strict=True
        )
        if rank == "–"
    ]
    assert len(waiting) == 5  # table 2's players, without a rank until it is in

    # A correction of the released table shows as soon as it is saved.
    seat_one = one.seats.get(position=1).player.name
    before = points_of(html)[seat_one]
    corrected = {"won": ["14", "6", "", "8", "12"], "last_in": "1", "left_over": "12"}
    save_sheet(
        one,
        organiser,
        [FIVE] * 7 + [FOUR, corrected],
        expected_version=1,
        final=True,
        left=[Leave(after_deal=7, seat=3)],
    )
    after_commit()
    after = points_of(client.get(embed_url(tournament)).content.decode())[seat_one]
    assert after != before, "the corrected points"


def test_a_table_stopped_early_says_so(client, make_played):
    tournament = make_played(players=12, rounds=1, stopped_early={1: (2, 3)}, slug="short-open")
    html = client.get(embed_url(tournament)).content.decode()
    assert re.search(r"Round 1, table 2 stopped early \(3 of \d+ deals\)", html)


def test_while_the_view_is_worked_out_the_widget_and_overlay_say_so(client, evening, monkeypatch):
    def not_yet(tournament):
        raise BeingWorkedOut(tournament)

    monkeypatch.setattr(widgets, "public_results", not_yet)
    html = client.get(embed_url(evening)).content.decode()
    assert "The results are being worked out." in html
    assert 'data-region="#embed"' in html
    overlay = client.get(overlay_url(evening)).content.decode()
    assert "The results are being worked out." in overlay


# The overlay's parameters --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("asked", "rows"),
    [("", 10), ("5", 5), ("1", 1), ("0", 1), ("30", 12), ("500", 12), ("0099", 12)],
)
def test_the_overlay_shows_the_top_rows_asked_for_clamped(client, make_played, asked, rows):
    tournament = make_played(players=12, rounds=1, slug="top-open")
    response = client.get(overlay_url(tournament), {"top": asked} if asked else {})
    assert response.status_code == 200
    assert len(rows_of(response.content.decode())) == rows


def test_a_clamped_top_is_one_page_and_one_cache_entry(client, make_played, cache_keys):
    tournament = make_played(players=40, rounds=1, slug="many-open")
    url = overlay_url(tournament)
    etag = client.get(url, {"top": "30"})["ETag"]
    kept = cache_keys()
    # The same page: not modified, whichever spelling the screen asks with.
    assert client.get(url, {"top": "500"}, HTTP_IF_NONE_MATCH=etag).status_code == 304
    for asked in ("31", "500", "99999999999999999999999", " 30 "):
        again = client.get(url, {"top": asked})
        assert again.status_code == 200
        assert len(rows_of(again.content.decode())) == widgets.TOP.high
    assert cache_keys() == kept
    assert client.get(url, {"top": "29"}, HTTP_IF_NONE_MATCH=etag).status_code == 200
    # The default is the page without the parameter.
    client.get(url)
    assert client.get(url, {"top": "10"}).content == client.get(url).content


@pytest.mark.parametrize(
    ("query", "where"),
    [
        ({"top": "many"}, ""),
        ({"top": "-3"}, ""),
        ({"show": "everything"}, ""),
        ({"show": "standings", "round": "2"}, ""),
        ({"top": "5", "table": "3"}, "?top=5"),
        ({"show": "table", "table": "1", "top": "5"}, "?show=table&table=1"),
        ({"show": "table", "table": "x"}, "?show=table"),
    ],
)
def test_a_parameter_that_names_nothing_is_dropped_by_a_redirect(client, evening, query, where):
    response = client.get(overlay_url(evening), query)
    assert response.status_code == 302
    assert response.url == overlay_url(evening) + where


def test_a_table_left_unnamed_is_asked_for(client, evening):
    response = client.get(overlay_url(evening), {"show": "table"})
    assert response.status_code == 400
    assert "Which table? Add the table’s number to the address" in response.content.decode()


def test_the_overlay_shows_a_released_tables_seats_and_points(client, evening):
    response = client.get(overlay_url(evening), {"show": "table", "round": "2", "table": "1"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Round 2 · Table 1" in html
    table = Round.objects.get(tournament=evening, number=2).tables.get(number=1)
    names = [seat.player.name for seat in table.seats.order_by("position")]
    assert rows_of(html) == names
    assert html.count("won the table") >= 1
    assert '<th scope="col" class="num">Points</th>' in html


def test_the_overlay_follows_the_round_being_played(client, evening):
    round_three = seating.seat_next_round(evening)
    query = {"show": "table", "table": "2"}
    waiting = client.get(overlay_url(evening), query).content.decode()
    # Seated, not started: round 2 is still the latest started, and its table shows.
    assert "Round 2 · Table 2" in waiting
    rounds.start_round(round_three)
    html = client.get(overlay_url(evening), query).content.decode()
    assert "Round 3 · Table 2" in html
    table = round_three.tables.get(number=2)
    first = table.seats.get(position=1).player.name
    assert f'{first} <span class="tag">deals first</span>' in html
    assert "Points" not in html


def test_a_round_to_come_shows_when_its_seating_is_public(client, evening):
    html = client.get(
        overlay_url(evening), {"show": "table", "round": "3", "table": "1"}
    ).content.decode()
    assert "Round 3’s seating is not public yet. It shows here as soon as it is." in html
    assert 'data-region="#overlay"' in html


def test_before_any_round_starts_a_tables_overlay_waits_for_it(client, db):
    tournament = TournamentFactory(slug="new-open", published=True, planned_rounds=3)
    make_players(tournament, 8)
    response = client.get(overlay_url(tournament), {"show": "table", "table": "2"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Table 2</h1>" in html
    assert "No round has started yet. It shows here as soon as it is." in html


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"round": "9", "table": "1"}, "There is no round 9: Spring Open plans 4 rounds."),
        ({"round": "2", "table": "7"}, "There is no table 7 in round 2: it has 3 tables."),
        ({"round": "3", "table": "13"}, "There is no table 13: 12 players play here."),
        ({"round": "99999999999", "table": "1"}, "There is no round 1000"),
    ],
)
def test_a_round_or_table_the_tournament_has_not_is_named(client, make_played, query, words):
    tournament = make_played(
        players=12, rounds=2, planned_rounds=4, slug="spring-open", name="Spring Open"
    )
    response = client.get(overlay_url(tournament), {"show": "table", **query})
    assert response.status_code == 404
    assert words in response.content.decode()


def test_the_overlay_is_transparent_with_its_parameters_in_its_address(client, evening):
    html = client.get(overlay_url(evening), {"top": "3"}).content.decode()
    assert 'href="/static/css/overlay.css"' in html
    assert "<header" not in html  # no site header over the stream
    assert 'data-region="#overlay"' in html


# The Publish page ------------------------------------------------------------------------------


def test_the_publish_page_gives_the_snippets_to_copy(organiser_client, make_played, organiser):
    mine = make_played(players=8, rounds=1, owner=organiser, slug="olives-open")
    response = organiser_client.get(reverse("organiser:publish", args=[mine.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    embed = f"http://testserver{embed_url(mine)}"
    assert f"&lt;iframe src=&quot;{embed}&quot; title=&quot;Test Open standings&quot;" in html, (
        "the iframe snippet with the widget's absolute address"
    )
    assert re.search(r'<textarea id="widget-snippet"[^>]*readonly', html)
    assert f'<iframe class="preview" src="{embed_url(mine)}"' in html
    assert f"http://testserver{overlay_url(mine)}?show=standings&amp;top=5" in html
    assert f"http://testserver{overlay_url(mine)}?show=table&amp;table=1" in html
    assert "A site on HTTPS needs this installation on HTTPS." in html
    assert "mixed content" in html
    assert "N from 1 to 30, 10 if left out. A larger N shows 30" in html
    # The copy buttons show with JavaScript only; the boxes work without.
    assert re.search(r'<button type="button"[^>]*data-copy="widget-snippet"[^>]* hidden>', html)
    secure = organiser_client.get(reverse("organiser:publish", args=[mine.slug]), secure=True)
    assert "These addresses are on HTTPS" in secure.content.decode()
    assert "https://testserver/t/olives-open/embed/" in secure.content.decode()


def test_the_snippets_name_the_public_address_when_it_is_set(
    organiser_client, make_played, organiser, settings
):
    settings.PUBLIC_BASE_URL = "https://scores.example.org"
    mine = make_played(players=8, rounds=1, owner=organiser, slug="olives-open")
    html = organiser_client.get(reverse("organiser:publish", args=[mine.slug])).content.decode()
    assert "&lt;iframe src=&quot;https://scores.example.org/t/olives-open/embed/&quot;" in html
    assert "https://scores.example.org/t/olives-open/overlay/?show=standings&amp;top=5" in html
    assert "These addresses are on HTTPS" in html


def test_publishing_from_the_publish_page_comes_back_to_it(
    organiser_client, make_played, organiser
):
    mine = make_played(players=8, rounds=1, owner=organiser, published=False, slug="olives-open")
    page = reverse("organiser:publish", args=[mine.slug])
    before = organiser_client.get(page).content.decode()
    assert "Until the tournament is published" in before
    assert 'class="preview"' not in before
    response = organiser_client.post(page, {"back": "publish"})
    assert response.url == page
    mine.refresh_from_db()
    assert mine.published
    response = organiser_client.post(reverse("organiser:unpublish", args=[mine.slug]))
    assert response.url == reverse("organiser:dashboard", args=[mine.slug])


def test_a_rehearsals_publish_page_offers_no_snippet(organiser_client, make_played, organiser):
    mine = make_played(players=8, rounds=1, owner=organiser, published=False, slug="olives-open")
    Tournament.objects.filter(pk=mine.pk).update(rehearsal_token="a-token")
    html = organiser_client.get(reverse("organiser:publish", args=[mine.slug])).content.decode()
    assert "A rehearsal is never published" in html
    assert "iframe" not in html
