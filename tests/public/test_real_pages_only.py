"""Only real pages are kept in the cache: a page number past the last or no number at
all, a sort by a column the standings lack, a round the public cannot see, are each
answered by a redirect (302) to the nearest real page, and nothing is stored for them
(``public.cache``, "Only real pages are kept")."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournament.public.cache import page_number


@pytest.fixture
def big_open(make_played):
    """130 players: two pages of standings (100 a page), and two rounds released."""
    return make_played(players=130, rounds=2, slug="big-open")


def _urls(tournament):
    slug = tournament.slug
    return (
        reverse("standings", args=[slug]),
        reverse("projector", args=[slug]),
        lambda number: reverse("public_round", args=[slug, number]),
    )


def test_junk_variants_keep_nothing_and_each_goes_to_the_real_page(client, big_open, cache_keys):
    standings, projector, round_page = _urls(big_open)
    last_board = client.get(projector).context["page_count"]
    assert last_board > 1
    real = [
        standings,
        f"{standings}?page=2",
        f"{standings}?sort=-points",
        f"{standings}?sort=name&page=2",
        projector,
        f"{projector}?page={last_board}",
        round_page(1),
        round_page(2),
    ]
    for url in real:
        assert client.get(url).status_code == 200, url
    kept = cache_keys()

    junk = {
        **{f"{standings}?page={n}": f"{standings}?page=2" for n in range(3, 103)},
        f"{standings}?page={'9' * 5000}": f"{standings}?page=2",
        f"{standings}?page=x": standings,
        f"{standings}?page=0": standings,
        f"{standings}?page=-1": standings,
        f"{standings}?page=2.5": standings,
        f"{standings}?sort=nonsense": standings,
        # Only two rounds are released; best round is not among the tiebreaks.
        f"{standings}?sort=round_7": standings,
        f"{standings}?sort=-best_round": standings,
        f"{standings}?sort=-round_9&page=2": f"{standings}?page=2",
        f"{standings}?sort=name&page=7": f"{standings}?sort=name&page=2",
        **{
            f"{projector}?page={n}": f"{projector}?page={last_board}"
            for n in range(last_board + 1, 53)
        },
        f"{projector}?page=x": projector,
        **{round_page(n): round_page(2) for n in range(3, 53)},
        round_page(0): round_page(1),
    }
    for url, real_page in junk.items():
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == real_page, url
        # The real page is one already kept.
        assert client.get(real_page).status_code == 200, real_page
        assert cache_keys() == kept, url
    # The fragment a page's own links ask for, the same.
    fragment = client.get(f"{standings}?page=9", HTTP_HX_REQUEST="true")
    assert fragment["Location"] == f"{standings}?page=2"
    assert cache_keys() == kept


def test_a_page_reading_no_parameter_shares_its_one_entry(client, big_open, cache_keys):
    player = big_open.players.first()
    url = reverse("player", args=[big_open.slug, player.pk])
    assert client.get(url).status_code == 200
    kept = cache_keys()
    for query in ("page=9", "sort=nonsense", "round=99", "x=1"):
        assert client.get(f"{url}?{query}").status_code == 200, query
    # A player of no such number is not found, and not kept either.
    assert client.get(reverse("player", args=[big_open.slug, 999999])).status_code == 404
    assert cache_keys() == kept


def test_logged_in_visitors_are_sent_to_the_real_page_too(organiser_client, big_open):
    standings, projector, round_page = _urls(big_open)
    for url, real_page in (
        (f"{standings}?page=5", f"{standings}?page=2"),
        (f"{standings}?sort=junk", standings),
        (f"{projector}?page=x", projector),
        (round_page(9), round_page(2)),
    ):
        response = organiser_client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == real_page, url


def test_a_tournament_with_no_round_to_show_sends_a_round_to_its_standings(client, make_played):
    tournament = make_played(players=12, rounds=0)
    response = client.get(reverse("public_round", args=[tournament.slug, 1]))
    assert response.status_code == 302
    assert response["Location"] == reverse("standings", args=[tournament.slug])


@pytest.mark.parametrize(
    ("value", "read"),
    [
        ("", ""),
        ("1", ""),
        ("01", ""),
        (" 2 ", "2"),
        ("0002", "2"),
        ("1000", "1000"),
        ("1001", "1000"),
        ("9" * 5000, "1000"),
        ("0", None),
        ("-2", None),
        ("x", None),
        ("2.0", None),
        ("²", None),
    ],
)
def test_page_numbers_as_the_pages_read_them(value, read):
    assert page_number(value) == read


@pytest.mark.parametrize("planned_rounds", [2, 3], ids=["final", "with podium chances"])
def test_every_sort_and_page_the_standings_link_to_is_a_real_page(
    client, make_played, planned_rounds
):
    tournament = make_played(players=130, rounds=2, planned_rounds=planned_rounds)
    tournament.tiebreaks = ["countback", "best_round", "last_in"]
    tournament.save()
    tournament.refresh_from_db()
    url = reverse("standings", args=[tournament.slug])
    page = client.get(url).content.decode()
    assert ("Win · top 3" in page) == (planned_rounds == 3)
    links = set(re.findall(r'href="(\?(?:sort|page)=[^"]*)"', page))
    assert {"?sort=best_round", "?sort=round_1", "?page=2"} <= {
        link.replace("&amp;", "&") for link in links
    }
    for link in links:
        response = client.get(url + link.replace("&amp;", "&"))
        assert response.status_code == 200, link
