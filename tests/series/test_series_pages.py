"""The public series pages: a series' standings and ratings, their CSV downloads, a
person's career and a club's page show only what the tournaments show publicly.

Two series hold the same evening twice: "clean" is a published tournament of released
rounds and confirmed sheets; "noisy" is the same evening (the same seed gives the same
deals) with everything that must not count added: a round played and confirmed but not
released, a released round whose sheets await confirmation, an unpublished tournament and
another organiser's tournament still awaiting their consent, each with a person of its
own. Every page and both CSVs of "noisy" must read as those of "clean".
"""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.rules import deals_per_round
from tests.factories import a_deal, played_tournament, seated_round
from tournament.models import Person, Series, SeriesTournament, Table
from tournament.shared import public_changes
from tournament.shared.public_changes import mark_changed
from tournament.sheets.saving import save_sheet

FIELD = 10


def link(tournament, people):
    for player, person in zip(tournament.players.order_by("pk"), people, strict=False):
        player.person = person
        player.save(update_fields=["person"])


def _the_league():
    """Two series of the same evening, once a module (tests/conftest.py ``world``): olive's
    "clean" and "noisy" (see the module's text), and the people linked to their players."""
    users = get_user_model().objects
    olive = users.get(username="olive")
    names = [f"Person {i:02d}" for i in range(FIELD)]
    names[0] = 'Zoë <b>Bold</b> & "Co"'
    people = [
        Person.objects.create(
            name=name,
            club="Red Lion" if i % 2 else "Crown & Anchor",
            member=f"M{i:04d}" if i % 3 else "",
        )
        for i, name in enumerate(names)
    ]
    clean = played_tournament(players=FIELD, rounds=2, seed=4, slug="clean-open", owner=olive)
    noisy = played_tournament(players=FIELD, rounds=2, seed=4, slug="noisy-open", owner=olive)
    link(clean, people)
    link(noisy, people)
    players = list(noisy.players.order_by("pk"))
    # Round 3, played and confirmed, not released.
    seated_round(noisy, players, number=3, released=False, deals=lambda n, size: [a_deal(size)] * 5)
    # Round 4, released, its sheets typed in full but not confirmed by a second person.
    fourth = seated_round(noisy, players, number=4, released=True)
    for table in Table.objects.filter(round=fourth):
        rows = [a_deal(table.size)] * deals_per_round(table.size, noisy.rotations_per_round)
        save_sheet(table, olive, rows, expected_version=0, final=True)
    # Not published: its person appears nowhere.
    hidden = played_tournament(players=4, rounds=1, slug="hidden-night", published=False)
    link(hidden, [_hidden_person("Harriet Hidden"), *people[:3]])
    # Another organiser's, not accepted yet.
    other = users.create_user("otto", password="pw")
    pending = played_tournament(players=4, rounds=1, slug="pending-night", owner=other)
    link(pending, [_hidden_person("Peter Pending"), *people[3:6]])

    clean_series = Series.objects.create(name="Clean league", slug="clean", owner=olive)
    noisy_series = Series.objects.create(name="Noisy league", slug="noisy", owner=olive)
    SeriesTournament.objects.create(series=clean_series, tournament=clean, accepted=True)
    for tournament, accepted in ((noisy, True), (hidden, True), (pending, False)):
        SeriesTournament.objects.create(
            series=noisy_series, tournament=tournament, accepted=accepted
        )


def _hidden_person(name):
    return Person.objects.create(name=name, club=f"{name}'s club", member=name[:6].upper())


# The standing users and tournaments, and the two series, built once per module: each
# test's changes are rolled back at its end.
pytestmark = pytest.mark.world(more=_the_league)


@pytest.fixture
def people(world):
    """The people of both series' evenings, in the order of their players."""
    return list(Person.objects.order_by("pk")[:FIELD])


@pytest.fixture
def league(world):
    return Series.objects.get(slug="clean"), Series.objects.get(slug="noisy")


def page(client, name, *args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200, (name, args)
    return response.content.decode()


def same_as_clean(text: str) -> str:
    return text.replace("noisy-open", "clean-open").replace("Noisy league", "Clean league")


@pytest.mark.parametrize(
    "name", ["series", "series_ratings", "series_standings_csv", "series_ratings_csv"]
)
def test_only_public_results_count_on_the_series_pages_and_downloads(client, league, name):
    clean = page(client, name, "clean")
    noisy = page(client, name, "noisy")
    for hidden in ("Harriet Hidden", "Peter Pending", "hidden-night", "pending-night"):
        assert hidden not in noisy
    if name == "series":
        # The tournament named links to its own standings; nothing else differs.
        noisy = noisy.replace('href="/s/noisy/', 'href="/s/clean/')
        noisy = noisy.replace("/s/noisy/", "/s/clean/")
    assert same_as_clean(noisy).replace("noisy", "clean") == clean.replace("noisy", "clean")


def test_the_series_page_shows_every_person_with_their_results(client, league, people):
    html = page(client, "series", "clean")
    assert "Person 05" in html
    # Escaped, never markup.
    assert "Zoë &lt;b&gt;Bold&lt;/b&gt; &amp; &quot;Co&quot;" in html
    assert "<b>Bold</b>" not in html
    assert reverse("career", args=[people[1].identifier]) in html
    assert reverse("career", args=[people[0].identifier]) == f"/p/person-{people[0].pk}/"
    assert html.count('class="rank"') == FIELD


def test_the_csv_downloads_are_files(client, league):
    response = client.get(reverse("series_standings_csv", args=["clean"]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="clean-standings.csv"' in response["Content-Disposition"]
    assert 'Zoë <b>Bold</b> & ""Co""' in response.content.decode("utf-8-sig")
    ratings = client.get(reverse("series_ratings_csv", args=["clean"]))
    assert 'filename="clean-ratings.csv"' in ratings["Content-Disposition"]


def test_dropped_results_say_so_in_words(client, league):
    Series.objects.filter(slug="clean").update(count_best=1)
    SeriesTournament.objects.create(
        series=Series.objects.get(slug="clean"),
        tournament=Series.objects.get(slug="noisy").tournaments.get(slug="noisy-open"),
        accepted=True,
    )
    html = page(client, "series", "clean")
    assert html.count("<em>not counted</em>") == FIELD
    assert html.count('<li class="dropped"><s>') == FIELD


def test_people_short_of_the_minimum_are_listed_unranked(client, league, make_played, people):
    series = Series.objects.get(slug="clean")
    series.min_events = 2
    series.save()
    other = make_played(players=4, rounds=1, slug="april-night", seed=2)
    link(other, people[:4])
    SeriesTournament.objects.create(series=series, tournament=other, accepted=True)
    html = page(client, "series", "clean")
    assert "Not ranked: fewer than 2 tournaments" in html
    ranked, unranked = html.split("Not ranked: fewer than 2 tournaments")
    assert "Person 02" in ranked
    assert "Person 07" in unranked


def test_the_ratings_mark_provisional_ratings(client, league):
    html = page(client, "series_ratings", "clean")
    # Two rounds: two rated tables each, fewer than five.
    assert html.count('<span class="badge">provisional</span>') == FIELD


def test_a_career_shows_public_tournaments_series_and_rating(client, league, people):
    html = page(client, "career", people[7].identifier)
    assert "clean-open" in html
    assert "noisy-open" in html
    assert "hidden-night" not in html
    assert "pending-night" not in html
    assert "Clean league" in html
    assert "Noisy league" in html
    assert "<svg" in html
    assert "<desc" in html
    assert "Rating after each tournament (table)" in html


def test_a_person_known_only_to_hidden_tournaments_has_no_page(client, league):
    harriet = Person.objects.get(name="Harriet Hidden")
    assert client.get(reverse("career", args=[harriet.identifier])).status_code == 404
    peter = Person.objects.get(name="Peter Pending")
    html = page(client, "career", peter.identifier)
    # Their own tournament is published; the series has not got it yet.
    assert "pending-night" in html
    assert "Noisy league" not in html


def test_a_career_never_names_a_series_of_only_unpublished_tournaments(client, league, people):
    secret = Series.objects.create(name="Secret season", slug="secret")
    hidden = Series.objects.get(slug="noisy").tournaments.get(slug="hidden-night")
    SeriesTournament.objects.create(series=secret, tournament=hidden, accepted=True)
    assert hidden.players.filter(person=people[1]).exists()
    html = page(client, "career", people[1].identifier)
    assert "Clean league" in html
    assert "Secret season" not in html
    assert reverse("series", args=["secret"]) not in html


def test_a_club_without_latin_letters_shows_on_the_career_without_a_link(client, league, people):
    people[1].club = "東京クラブ"
    people[1].save()
    html = page(client, "career", people[1].identifier)
    assert "東京クラブ" in html
    assert '<a href="/c/' not in html


def test_the_club_page_lists_its_people_and_their_series_ranks(client, league, people):
    html = page(client, "club", "crown-anchor")
    assert "Crown &amp; Anchor" in html
    assert "Person 02" in html
    assert "Person 01" not in html
    assert "Clean league" in html
    assert "Harriet" not in html
    assert client.get(reverse("club", args=["harriet-hidden-s-club"])).status_code == 404


@pytest.mark.parametrize(
    ("name", "arg"),
    [
        ("series", "no-such"),
        ("series_ratings", "no-such"),
        ("series_standings_csv", "no-such"),
        ("series_ratings_csv", "no-such"),
        ("career", "M9999"),
        ("career", "person-999999"),
        ("career", "person-x"),
        ("career", "person-²"),
        ("career", "\x00"),
        ("career", "a\x00b"),
        ("career", "person-\x00"),
        ("club", "no-such-club"),
    ],
)
def test_unknown_addresses_are_404(client, league, name, arg):
    assert client.get(reverse(name, args=[arg])).status_code == 404


def test_a_person_with_a_member_number_is_found_by_it_only(client, league, people):
    member = people[1]
    assert member.member
    assert client.get(reverse("career", args=[f"person-{member.pk}"])).status_code == 404


def test_the_tournament_standings_link_linked_players_to_their_careers(client, league, people):
    clean = Series.objects.get(slug="clean").tournaments.get()
    clean.players.filter(person=people[2]).update(person=None)
    # An update() sends no signal: marked as the services' bulk writes mark it.
    public_changes.mark_changed(clean.pk)
    html = page(client, "standings", "clean-open")
    assert reverse("career", args=[people[1].identifier]) in html
    assert reverse("career", args=[people[2].identifier]) not in html
    assert html.count('class="career-link"') == FIELD - 1


def test_an_empty_series_says_why(client, organiser):
    Series.objects.create(name="Next season", slug="next", owner=organiser)
    assert "No results yet" in page(client, "series", "next")
    assert "No ratings yet" in page(client, "series_ratings", "next")


def _season(make_played, organiser, tournaments, players):
    club = f"Club {tournaments}"
    people = [Person.objects.create(name=f"P{i:03d}", club=club) for i in range(players)]
    series = Series.objects.create(name=f"Season {tournaments}", slug=f"season-{tournaments}")
    for number in range(tournaments):
        tournament = make_played(
            players=players,
            rounds=2,
            seed=number,
            slug=f"season-{tournaments}-night-{number}",
            owner=organiser,
        )
        link(tournament, people)
        SeriesTournament.objects.create(series=series, tournament=tournament, accepted=True)
    return series, people


@pytest.mark.parametrize("name", ["series", "series_ratings", "career", "club"])
def test_the_pages_queries_stay_flat_as_the_series_grows(client, make_played, organiser, name):
    counts = []
    for tournaments, players in ((1, 5), (3, 10)):
        series, people = _season(make_played, organiser, tournaments, players)
        arg = {"career": people[0].identifier, "club": f"club-{tournaments}"}.get(name, series.slug)
        url = reverse(name, args=[arg])
        assert client.get(url).status_code == 200  # computes and caches the series
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[1] <= counts[0], counts


@pytest.mark.parametrize(
    ("name", "command"),
    [("series_standings_csv", "series_standings"), ("series_ratings_csv", "ratings")],
)
def test_the_downloads_are_the_commands_csv(client, league, name, command):
    out = io.StringIO()
    call_command(command, "noisy", "--format", "csv", stdout=out)
    download = client.get(reverse(name, args=["noisy"])).content.decode("utf-8-sig")
    assert download == out.getvalue()
    assert download.count("\n") == 1 + FIELD


def test_names_are_escaped_on_every_page(client, league, people):
    Series.objects.filter(slug="clean").update(name="<i>Clean</i> league")
    tournament = Series.objects.get(slug="clean").tournaments.get()
    tournament.name = "<script>alert(1)</script> Open"
    tournament.save(update_fields=["name"])
    pages = [
        page(client, "series", "clean"),
        page(client, "series_ratings", "clean"),
        page(client, "career", people[0].identifier),
        page(client, "club", "crown-anchor"),
    ]
    for html in pages:
        assert "<script>alert" not in html
        assert "<i>Clean</i>" not in html
        assert "&lt;i&gt;Clean&lt;/i&gt; league" in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; Open" in pages[0]
    assert "Zoë &lt;b&gt;Bold&lt;/b&gt;" in pages[2]


def test_a_linked_players_page_links_to_their_career(client, league, people):
    tournament = Series.objects.get(slug="clean").tournaments.get()
    linked = tournament.players.get(person=people[1])
    html = page(client, "player", tournament.slug, linked.pk)
    assert f'href="{reverse("career", args=[people[1].identifier])}"' in html
    linked.person = None
    linked.save(update_fields=["person"])
    mark_changed(tournament.pk)
    assert "’s career" not in page(client, "player", tournament.slug, linked.pk)


def test_the_home_page_lists_a_series_once_one_of_its_tournaments_counts(
    client, league, organiser, make_played
):
    hidden_only = Series.objects.create(name="Hidden league", slug="hidden-only", owner=organiser)
    hidden = make_played(players=4, rounds=1, slug="hidden-only-night", published=False)
    SeriesTournament.objects.create(series=hidden_only, tournament=hidden, accepted=True)
    html = page(client, "home")
    assert html.count(reverse("series", args=["clean"])) == 1
    assert html.count(reverse("series", args=["noisy"])) == 1
    # Only unpublished tournaments, or only requests still awaiting consent: not listed.
    assert reverse("series", args=["hidden-only"]) not in html
    waiting = Series.objects.create(name="Waiting league", slug="waiting", owner=organiser)
    SeriesTournament.objects.create(
        series=waiting, tournament=make_played(players=4, rounds=1, slug="w-night"), accepted=False
    )
    assert reverse("series", args=["waiting"]) not in page(client, "home")
    # Published, accepted, but nothing released yet: nothing counts, so not listed.
    early = Series.objects.create(name="Early league", slug="early", owner=organiser)
    SeriesTournament.objects.create(
        series=early, tournament=make_played(players=4, rounds=0, slug="e-night"), accepted=True
    )
    assert reverse("series", args=["early"]) not in page(client, "home")
