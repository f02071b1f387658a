"""The public pages' cache: a hit is the stored final response, answered without a
single database query; conditional requests and compression; what is never shared; bulk
writes that mark a tournament changed once. (Each public page's hit and compression:
tests/public/test_public_cache_pages.py.)"""

from __future__ import annotations

import datetime
import gzip
import json
import re

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.http import http_date

from tournament.derived.build import work_out_views
from tournament.models import Deal, Player, Round, Tournament
from tournament.public import cache as public_cache
from tournament.rounds import clock, seating
from tournament.rounds import services as rounds
from tournament.shared import public_changes
from tournament.tournament_file import loading, writing


def gzipped(client, url, **headers):
    return client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br", **headers)


def test_logged_in_pages_are_neither_cached_nor_compressed(organiser_client, make_played):
    tournament = make_played(players=12, rounds=2)
    url = reverse("standings", args=[tournament.slug])
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            response = gzipped(organiser_client, url)
        assert response.status_code == 200
        assert not response.has_header("Content-Encoding")  # BREACH: it has a CSRF token
        assert not response.has_header("ETag")
        assert len(queries) > 1


@pytest.mark.parametrize("cookie", ["sessionid", "messages"])
def test_a_visitor_with_a_session_or_a_message_gets_a_page_of_their_own(
    client, make_played, cookie
):
    tournament = make_played(players=12, rounds=2)
    url = reverse("standings", args=[tournament.slug])
    client.get(url)
    client.cookies[cookie] = "something"
    with CaptureQueriesContext(connection) as queries:
        response = gzipped(client, url)
    assert response.status_code == 200
    assert len(queries) > 0
    assert not response.has_header("Content-Encoding")


def test_if_modified_since_is_answered_from_the_generation(client, make_played):
    tournament = make_played(players=12, rounds=2)
    url = reverse("standings", args=[tournament.slug])
    first = client.get(url)
    last_modified = first["Last-Modified"]
    assert last_modified == http_date(
        Tournament.objects.get(pk=tournament.pk).public_changed.timestamp()
    )
    with CaptureQueriesContext(connection) as queries:
        same = client.get(url, HTTP_IF_MODIFIED_SINCE=last_modified)
    assert same.status_code == 304
    assert len(queries) == 0
    assert same["Last-Modified"] == last_modified
    older = http_date(
        (
            Tournament.objects.get(pk=tournament.pk).public_changed - datetime.timedelta(hours=1)
        ).timestamp()
    )
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=older).status_code == 200
    # If-None-Match decides when both are sent.
    assert (
        client.get(
            url, HTTP_IF_MODIFIED_SINCE=last_modified, HTTP_IF_NONE_MATCH='W/"other"'
        ).status_code
        == 200
    )
    assert client.get(url, HTTP_IF_MODIFIED_SINCE="not a date").status_code == 200


def test_unpublishing_makes_the_cached_pages_unreachable_at_once(client, make_played):
    tournament = make_played(players=12, rounds=2)
    url = reverse("standings", args=[tournament.slug])
    etag = client.get(url)["ETag"]
    tournament.published = False
    tournament.save()
    assert client.get(url).status_code == 404
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404
    assert gzipped(client, url).status_code == 404


def test_a_new_slug_leaves_the_old_one_answering_404(client, make_played):
    tournament = make_played(players=12, rounds=2, slug="old-name")
    old = reverse("standings", args=["old-name"])
    assert client.get(old).status_code == 200
    tournament.slug = "new-name"
    tournament.save()
    assert client.get(old).status_code == 404
    assert client.get(reverse("standings", args=["new-name"])).status_code == 200


def test_other_workers_see_a_change_within_a_second(client, make_played, monkeypatch):
    """Another worker's change reaches this one when its generation is a second old."""
    tournament = make_played(players=12, rounds=2)
    url = reverse("standings", args=[tournament.slug])
    first = client.get(url)
    # Another process renames a player, works out the views and marks the change: this
    # worker is not told.
    Player.objects.filter(tournament=tournament).update(name="Someone Else")
    Tournament.objects.filter(pk=tournament.pk).update(standings_version=F("standings_version") + 1)
    work_out_views(tournament.pk, move_generation=False)
    Tournament.objects.filter(pk=tournament.pk).update(
        public_changed=timezone.now() + datetime.timedelta(seconds=1)
    )
    assert client.get(url).content == first.content
    clock_now = public_changes.time.monotonic() + public_changes.GENERATION_SECONDS
    monkeypatch.setattr(public_changes.time, "monotonic", lambda: clock_now)
    assert "Someone Else" in client.get(url).content.decode()


def test_a_clock_page_is_gzipped_at_serving_with_the_time_of_serving(client, make_played):
    tournament = make_played(players=12, rounds=1)
    round_two = seating.seat_next_round(tournament)
    rounds.start_round(round_two)
    clock.start_clock(round_two)
    url = reverse("projector", args=[tournament.slug])
    for _ in range(2):
        response = gzipped(client, url)
        assert response["Content-Encoding"] == "gzip"
        html = gzip.decompress(response.content).decode()
        assert public_cache.NOW_MARKER not in html
        now = re.search(r'data-now="([^"]+)"', html).group(1)
        served = datetime.datetime.fromisoformat(now)
        assert abs((timezone.now() - served).total_seconds()) < 5


def test_query_strings_and_junk_headers_are_harmless(client, make_played):
    tournament = make_played(players=12, rounds=2)
    url = reverse("standings", args=[tournament.slug])
    for headers in (
        {"HTTP_ACCEPT_ENCODING": "gzip;q=0"},  # refused: served plain, never a 500
        {"HTTP_ACCEPT_ENCODING": "\x00\xff"},
        {"HTTP_IF_NONE_MATCH": "garbage"},
        {"HTTP_IF_MODIFIED_SINCE": "Tue, 99 Foo 9999"},
    ):
        response = client.get(url, {"page": "x" * 500, "q": "\x00"}, follow=True, **headers)
        assert response.status_code == 200, headers
        # "x" is no page: sent to the page without it.
        assert response.redirect_chain == [(f"{url}?q=%00", 302)], headers
    assert client.get(reverse("standings", args=["no-such-slug"])).status_code == 404


def test_the_tournament_file_download_is_compact_unless_asked(client, make_played):
    tournament = make_played(players=12, rounds=2)
    url = reverse("tournament_json", args=[tournament.slug])
    compact = client.get(url).content.decode()
    indented = client.get(url, {"indent": "2"}).content.decode()
    assert "\n" not in compact.strip()
    assert '\n  "' in indented
    assert json.loads(compact) == json.loads(indented)
    assert len(compact) < len(indented)


# Bulk writes ---------------------------------------------------------------------


def _marks(queries) -> list[str]:
    return [
        q["sql"] for q in queries if q["sql"].startswith("UPDATE") and "public_changed" in q["sql"]
    ]


def test_a_replace_marks_the_tournament_changed_once_and_shows_at_once(client, make_played):
    tournament = make_played(players=12, rounds=2)
    url = reverse("standings", args=[tournament.slug])
    before = client.get(url).content.decode()
    data = writing.export_tournament(tournament)
    data["players"][0]["name"] = "Replaced Name"
    with CaptureQueriesContext(connection) as queries:
        loading.import_tournament(data, replace=True)
    assert len(_marks(queries)) == 1
    assert "Replaced Name" not in before
    assert "Replaced Name" in client.get(url).content.decode()


def test_a_fresh_import_marks_once(make_played):
    data = writing.export_tournament(make_played(players=12, rounds=2))
    data["slug"] = "another-open"
    with CaptureQueriesContext(connection) as queries:
        loading.import_tournament(data)
    assert len(_marks(queries)) == 1


def test_a_replace_deletes_in_bulk(make_played):
    """Deals and their per-seat results have no cache receiver, so Django deletes them
    with a statement per batch, whatever their number, and nothing is marked per row."""
    counts = []
    for players, rounds_ in ((10, 1), (30, 3)):
        tournament = make_played(players=players, rounds=rounds_, slug=f"bulk-{players}")
        data = writing.export_tournament(tournament)
        with CaptureQueriesContext(connection) as queries:
            loading.import_tournament(data, replace=True)
        deletes = [q["sql"] for q in queries if q["sql"].startswith("DELETE")]
        counts.append(len(deletes))
        assert len(_marks(queries)) == 1
    assert Deal.objects.exists()
    assert counts[0] == counts[1]


def test_a_failed_quiet_block_marks_nothing(make_played):
    tournament = make_played(players=12, rounds=2)
    before = Tournament.objects.get(pk=tournament.pk).public_changed

    def fails_half_way() -> None:
        with public_changes.quietly(tournament.pk):
            Round.objects.filter(tournament=tournament).update(released=True)
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        fails_half_way()
    assert Tournament.objects.get(pk=tournament.pk).public_changed == before


def test_deleting_a_tournament_is_quiet_and_its_pages_are_gone(client, make_played):
    tournament = make_played(players=12, rounds=2)
    url = reverse("standings", args=[tournament.slug])
    assert client.get(url).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        loading.delete_tournament(tournament)
    assert len(_marks(queries)) <= 1
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert client.get(url).status_code == 404


@pytest.mark.parametrize(("name", "query"), [("standings", "q=Player"), ("find_seat", "q=Pla")])
def test_a_search_is_answered_afresh_not_stored(client, make_played, name, query):
    """Every distinct search stored for an hour would let anyone fill the cache: only the
    page without a search is kept, while a search still gets its ETag for a 304."""
    from django.core.cache import cache

    tournament = make_played(players=12, rounds=2)
    url = f"{reverse(name, args=[tournament.slug])}?{query}"
    stored = []
    real_set = cache.set

    def recording_set(key, value, *args, **kwargs):
        stored.append(key)
        return real_set(key, value, *args, **kwargs)

    cache.set = recording_set
    try:
        first = client.get(url)
        again = client.get(url)
        not_modified = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    finally:
        del cache.set
    assert first.status_code == again.status_code == 200
    assert again.content == first.content
    assert not [key for key in stored if key.startswith("lld:public:") and "?q=" in key]
    assert not_modified.status_code == 304
