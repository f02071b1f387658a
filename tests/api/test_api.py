"""The read API as a client meets it: answered from the cache with no query, 304 for an
ETag still current, a new ETag once what it shows changes, gzip, CORS and its preflight,
the rate per address and its 429, errors as problem+json, pages by cursor, and never
anything the public pages do not show (a round not released, a tournament not published,
a rehearsal)."""

from __future__ import annotations

import gzip
import json

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from tests.backups import restore, take_backup
from tests.routes import ROUTES, a_rehearsal, url_for
from tournament.api import pagination
from tournament.models import Person, Player, Round, Series, SeriesTournament, Tournament
from tournament.rounds.services import held_back
from tournament.shared import public_changes

API = sorted(name for name in ROUTES if name.startswith("api:"))
# Those answered from the cache: every resource but the schema and its reference page.
RESOURCES = [name for name in API if name not in {"api:openapi", "api:docs"}]
PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def _evening(django_db_setup, django_db_blocker):
    """Built once for the module and committed (each test's changes are rolled back): a
    published tournament of 12 players, rounds 1 and 2 released, round 3 played and
    confirmed but held back for the final reveal (not released); in a series, four of its players linked to people. The
    database is flushed after."""
    from tests.factories import played_tournament

    with django_db_blocker.unblock():
        # Round 3, the last planned, is held back for the final reveal.
        tournament = played_tournament(
            players=12,
            rounds=3,
            slug="spring-open",
            date="2026-03-01",
            planned_rounds=3,
            hold_back_rounds=1,
        )
        Round.objects.filter(tournament=tournament, number=3).update(released=False)
        public_changes.mark_changed(tournament.pk)
        series = Series.objects.create(name="Spring Series", slug="spring-series")
        SeriesTournament.objects.create(series=series, tournament=tournament, accepted=True)
        for player in Player.objects.filter(tournament=tournament).order_by("pk")[:4]:
            player.person = Person.objects.create(name=player.name, club=player.club)
            player.save(update_fields=["person"])
    yield
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def open_evening(_evening, db, empty_cache):
    return Tournament.objects.get(slug="spring-open")


def _url(name: str, tournament: Tournament) -> str:
    """``name``'s address for the evening: its tournament, round 1, its first player; its
    series; the first of its people."""
    return url_for(name, tournament)


def get(client, url, **headers):
    return client.get(url, **{f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()})


# The cache ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", RESOURCES)
def test_a_second_get_is_the_cached_answer_with_no_query(
    client, open_evening, django_assert_num_queries, name
):
    url = _url(name, open_evening)
    first = client.get(url)
    assert first.status_code == 200, (name, first.content[:300])
    with django_assert_num_queries(0):
        again = client.get(url)
    assert again.status_code == 200
    assert again.content == first.content
    assert again["ETag"] == first["ETag"]
    assert again["ETag"].startswith('W/"')
    assert again["Cache-Control"] == "public, no-cache"
    assert again["Content-Type"] == "application/json"


@pytest.mark.parametrize("name", RESOURCES)
def test_an_etag_still_current_is_answered_304_with_no_query(
    client, open_evening, django_assert_num_queries, name
):
    url = _url(name, open_evening)
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(0):
        answer = get(client, url, **{"If-None-Match": etag})
    assert answer.status_code == 304
    assert answer.content == b""
    assert answer["ETag"] == etag
    assert answer["Access-Control-Allow-Origin"] == "*"
    # Another ETag, or none: the whole answer.
    assert get(client, url, **{"If-None-Match": 'W/"other"'}).status_code == 200


def test_a_released_round_moves_the_tournaments_etags_and_the_lists(client, open_evening):
    standings = reverse("api:standings", args=[open_evening.slug])
    listed = reverse("api:tournaments")
    before = client.get(standings)
    list_before = client.get(listed)
    assert before.json()["round_numbers"] == [1, 2]
    round_3 = Round.objects.get(tournament=open_evening, number=3)
    round_3.released = True
    round_3.save(update_fields=["released"])
    after = client.get(standings)
    assert after["ETag"] != before["ETag"]
    assert after.json()["round_numbers"] == [1, 2, 3]
    # The list shows how far each tournament has got: it moved too.
    list_after = client.get(listed)
    assert list_after["ETag"] != list_before["ETag"]
    assert list_after.json()["results"][0]["progress"]["after_round"] == 3
    assert get(client, standings, **{"If-None-Match": before["ETag"]}).status_code == 200


def test_a_tournament_published_joins_the_list_at_once(client, open_evening, make_played):
    listed = reverse("api:tournaments")
    assert [each["slug"] for each in client.get(listed).json()["results"]] == ["spring-open"]
    later = make_played(players=8, rounds=1, slug="summer-open", date="2026-06-01", published=False)
    assert client.get(listed).json()["count"] == 1
    later.published = True
    later.save(update_fields=["published"])
    assert [each["slug"] for each in client.get(listed).json()["results"]] == [
        "summer-open",
        "spring-open",
    ]


def test_a_series_renamed_moves_the_installation_generation_after_the_commit(db, open_evening):
    before = public_changes.installation_generation()
    series = Series.objects.get(slug="spring-series")
    with transaction.atomic():
        series.name = "Spring League"
        series.save(update_fields=["name"])
        series.save(update_fields=["name"])
        # Once per transaction, and not before the commit.
        waiting = [hook for _, hook, _ in connection.run_on_commit]
        assert waiting.count(public_changes._move_installation) == 1
        assert public_changes.installation_generation() == before
    moved = public_changes.installation_generation()
    assert moved > before
    # A change rolled back moves nothing.
    with pytest.raises(RuntimeError):
        _saved_then_failed(series)
    assert public_changes.installation_generation() == moved


def _saved_then_failed(series: Series) -> None:
    with transaction.atomic():
        series.save(update_fields=["name"])
        raise RuntimeError("the change fails after the save")


@pytest.mark.parametrize("name", ["api:standings", "api:tournaments", "api:series_standings"])
def test_answers_are_gzipped_for_clients_that_accept_it(client, open_evening, name):
    url = _url(name, open_evening)
    plain = client.get(url)
    packed = get(client, url, **{"Accept-Encoding": "gzip, deflate, br"})
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert int(packed["Content-Length"]) == len(packed.content)
    assert "Accept-Encoding" in packed["Vary"]
    assert packed["ETag"] == plain["ETag"]


# CORS --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", API)
def test_other_sites_scripts_may_read_every_answer(client, open_evening, name):
    answer = get(client, _url(name, open_evening), Origin="https://scores.example.org")
    assert answer.status_code == 200
    assert answer["Access-Control-Allow-Origin"] == "*"
    assert answer["Access-Control-Expose-Headers"] == "ETag, Link, Retry-After"


def test_a_browsers_preflight_is_answered(client, open_evening, django_assert_num_queries):
    url = reverse("api:standings", args=[open_evening.slug])
    with django_assert_num_queries(0):
        answer = client.options(
            url,
            HTTP_ORIGIN="https://scores.example.org",
            HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
            HTTP_ACCESS_CONTROL_REQUEST_HEADERS="if-none-match",
        )
    assert answer.status_code == 204
    assert answer["Access-Control-Allow-Origin"] == "*"
    assert answer["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"
    assert answer["Access-Control-Allow-Headers"] == "if-none-match"
    assert int(answer["Access-Control-Max-Age"]) > 0


# The rate ------------------------------------------------------------------------------


def test_an_address_past_its_rate_is_told_when_to_come_back(
    client, open_evening, settings, one_window
):
    settings.API_RATE = "3/m"
    url = reverse("api:tournament", args=[open_evening.slug])
    etag = client.get(url)["ETag"]
    assert client.get(url).status_code == 200
    assert get(client, url, **{"If-None-Match": etag}).status_code == 304
    refused = client.get(url)
    assert refused.status_code == 429
    assert refused["Content-Type"] == PROBLEM
    assert int(refused["Retry-After"]) > 0
    assert refused["Access-Control-Allow-Origin"] == "*"
    body = refused.json()
    assert body["status"] == 429
    assert "3 requests" in body["detail"]
    # Another address has its own count.
    assert client.get(url, REMOTE_ADDR="192.0.2.7").status_code == 200


# What is not public ----------------------------------------------------------------------


def _problem(answer, status):
    assert answer.status_code == status
    assert answer["Content-Type"] == PROBLEM
    body = json.loads(answer.content)
    assert body["status"] == status
    assert body["title"]
    assert body["detail"]
    assert answer["Cache-Control"] == "no-store"
    return body


@pytest.mark.parametrize(
    "name", [name for name in RESOURCES if ROUTES[name].access.value == "public"]
)
def test_unpublished_rehearsed_and_unknown_tournaments_are_404(client, open_evening, name):
    url = url_for(name, open_evening)
    open_evening.published = False
    open_evening.save(update_fields=["published"])
    _problem(client.get(url), 404)
    rehearsal = a_rehearsal(open_evening)
    _problem(client.get(url.replace(open_evening.slug, rehearsal.slug)), 404)
    _problem(client.get(url.replace(open_evening.slug, "no-such-evening")), 404)


def test_the_organiser_reads_what_anyone_reads(organiser_client, organiser, open_evening):
    """The API is anonymous: its organiser logged in sees no more of an unpublished
    tournament than anyone does."""
    open_evening.owner = organiser
    open_evening.published = False
    open_evening.save(update_fields=["owner", "published"])
    _problem(organiser_client.get(reverse("api:tournament", args=[open_evening.slug])), 404)
    assert organiser_client.get(reverse("standings", args=[open_evening.slug])).status_code == 200


def test_a_round_held_back_shows_its_seating_only_and_counts_nowhere(client, open_evening):
    slug = open_evening.slug
    assert held_back(Round.objects.get(tournament=open_evening, number=3))
    standings = client.get(reverse("api:standings", args=[slug])).json()
    assert standings["round_numbers"] == [1, 2]
    assert all(len(row["rounds"]) == 2 for row in standings["rows"])
    detail = client.get(reverse("api:tournament", args=[slug])).json()
    assert [(each["number"], each["state"]) for each in detail["rounds"]] == [
        (1, "released"),
        (2, "released"),
        (3, "seating"),
    ]
    seating = client.get(reverse("api:round", args=[slug, 3])).json()
    assert seating["state"] == "seating"
    assert all(table["result"] is None for table in seating["tables"])
    assert seating["adjustments"] == []
    some = Player.objects.filter(tournament=open_evening).order_by("pk").first()
    player = client.get(reverse("api:player", args=[slug, some.pk])).json()
    assert [each["round"] for each in player["rounds"]] == [1, 2]
    # Kept private, its seating is no round at all; nor is a round never played.
    open_evening.seating_public = False
    open_evening.save(update_fields=["seating_public"])
    _problem(client.get(reverse("api:round", args=[slug, 3])), 404)
    _problem(client.get(reverse("api:round", args=[slug, 9])), 404)
    detail = client.get(reverse("api:tournament", args=[slug])).json()
    assert [each["number"] for each in detail["rounds"]] == [1, 2]


def test_a_player_of_another_tournament_is_404(client, open_evening, make_played):
    other = make_played(players=8, rounds=1, slug="other-open")
    stranger = Player.objects.filter(tournament=other).first()
    _problem(client.get(reverse("api:player", args=[open_evening.slug, stranger.pk])), 404)
    _problem(client.get(reverse("api:player", args=[open_evening.slug, 10**30])), 404)


@pytest.mark.parametrize(
    "path",
    ["/api/v1/nothing", "/api/v1/series/no-such-series", "/api/v1/people/nobody-here"],
)
def test_addresses_that_name_nothing_are_problems(client, db, path):
    _problem(client.get(path), 404)


def test_writes_are_refused_as_problems(client, open_evening):
    url = reverse("api:standings", args=[open_evening.slug])
    for answer in (
        client.post(url),
        client.delete(url),
        Client(enforce_csrf_checks=True).post(url),
    ):
        assert answer.status_code in {403, 405}
        assert answer["Content-Type"] == PROBLEM
    assert Client(enforce_csrf_checks=True).post(url).status_code == 403


# Pages by cursor -------------------------------------------------------------------------


def test_the_players_come_a_page_at_a_time_by_stable_links(client, open_evening, monkeypatch):
    monkeypatch.setattr(pagination, "PAGE_SIZE", 5)
    url = reverse("api:players", args=[open_evening.slug])
    seen, pages, answer = [], [], client.get(url)
    while True:
        body = answer.json()
        assert body["count"] == 12
        pages.append(body)
        seen += [player["name"] for player in body["results"]]
        if body["next"] is None:
            break
        assert f'<{body["next"]}>; rel="next"' in answer["Link"]
        answer = client.get(body["next"])
    assert [len(page["results"]) for page in pages] == [5, 5, 2]
    assert seen == sorted(seen, key=str.casefold)
    assert len(set(seen)) == 12
    assert pages[0]["previous"] is None
    # Back from the last page: the one before it, the same address as the way there.
    back = client.get(pages[2]["previous"]).json()
    assert back["results"] == pages[1]["results"]
    assert client.get(pages[0]["next"]).content == client.get(pages[0]["next"]).content


@pytest.mark.parametrize("cursor", ["nonsense", "", "\x00", "x" * 5000, "WyJhIiwgWzFdXQ"])
def test_a_cursor_the_list_never_gave_is_a_problem(client, open_evening, cursor):
    answer = client.get(reverse("api:players", args=[open_evening.slug]), {"cursor": cursor})
    if cursor:
        _problem(answer, 400)
    else:
        assert answer.status_code == 200


# The schema and the reference ----------------------------------------------------------


def test_the_schema_and_its_reference_are_served_by_the_site(client, db):
    schema = client.get(reverse("api:openapi"))
    assert schema.status_code == 200
    assert "/api/v1/tournaments/{slug}/standings" in schema.json()["paths"]
    assert (
        get(client, reverse("api:openapi"), **{"If-None-Match": schema["ETag"]}).status_code == 304
    )
    page = client.get(reverse("api:docs")).content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert "/static/js/api-docs.js" in page
    assert "<script>" not in page
    assert "cdn" not in page.lower()


def test_a_restore_makes_the_lists_stale(client, open_evening, tmp_path):
    """A backup restored over the installation is another database for the API's lists,
    series and careers, however like the one before: its cached answers are not served."""
    listed = reverse("api:tournaments")
    before = client.get(listed)
    generation = public_changes.installation_generation()
    restore(take_backup(tmp_path), "--replace")
    assert public_changes.installation_generation() > generation
    after = client.get(listed)
    assert after["ETag"] != before["ETag"]
    assert after.json() == before.json()
