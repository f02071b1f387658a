"""Penalties and awards (``players.adjustments``) from the organiser's player page to the
standings, the public pages, the files and the series: who may give one, what is
refused and in which words, what the history keeps, and that the public pages refresh."""

import csv
import io
import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse

from tournament.kernel import limits
from tournament.models import Adjustment, Person, Player, Round, Series, SeriesTournament
from tournament.players import adjustments
from tournament.players.adjustments import AdjustmentError, NewAdjustment
from tournament.public.results import public_results
from tournament.series import services as series
from tournament.standings.services import tournament_standings


@pytest.fixture
def played(make_played, organiser, scorer):
    """A published tournament of eight players and two released rounds, owned by
    ``organiser``, with ``scorer`` as its scorer."""
    return make_played(players=8, rounds=2, owner=organiser, scorers=[scorer], slug="spring")


def first_player(tournament):
    return Player.objects.filter(tournament=tournament).order_by("pk").first()


def row_of(tournament, player, **options):
    result = tournament_standings(tournament, **options)
    return next(row for row in result.standings.rows if row.key == player.pk)


def give(tournament, player, user, points=-2, round_number=2, reason="misdeal"):
    return adjustments.add_adjustment(
        tournament, NewAdjustment(player.pk, round_number, points, reason), user
    ).adjustment


# The service -------------------------------------------------------------------------


def test_a_penalty_is_recorded_with_who_and_when_and_counted(played, organiser):
    player = first_player(played)
    before = row_of(played, player)
    added = give(played, player, organiser)
    assert (added.created_by, added.points, added.reason, added.round.number) == (
        organiser,
        -2,
        "misdeal",
        2,
    )
    assert added.created is not None
    assert added.removed_at is None
    after = row_of(played, player)
    assert after.points == before.points - 2
    assert after.rounds == (before.rounds[0], before.rounds[1] - 2)
    assert [(a.round_number, a.points, a.reason) for a in after.tally.adjustments] == [
        (2, -2, "misdeal")
    ]


def test_the_reason_is_kept_with_its_spaces_tidied(played, organiser):
    added = give(played, first_player(played), organiser, reason="  slow   play ")
    assert added.reason == "slow play"


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"round_number": 9}, "round", "the tournament has no round 9"),
        ({"points": 0}, "points", "0 points changes nothing"),
        ({"points": limits.ADJUSTMENT_MAX + 1}, "points", f"at most {limits.ADJUSTMENT_MAX}"),
        ({"points": -limits.ADJUSTMENT_MAX - 1}, "points", f"at most {limits.ADJUSTMENT_MAX}"),
        ({"points": "2"}, "points", "whole number"),
        ({"reason": "   "}, "reason", "say why"),
        ({"reason": "x" * (limits.REASON_MAX + 1)}, "reason", f"at most {limits.REASON_MAX}"),
        ({"reason": "slow\u200bplay"}, "reason", "invisible character (U+200B"),
    ],
)
def test_what_cannot_be_recorded_is_refused_naming_the_field(
    played, organiser, changes, field, words
):
    player = first_player(played)
    given = {"round_number": 2, "points": -2, "reason": "misdeal", **changes}
    with pytest.raises(AdjustmentError) as refused:
        adjustments.add_adjustment(played, NewAdjustment(player.pk, **given), organiser)
    assert refused.value.field == field
    assert words in refused.value.message
    assert not Adjustment.objects.exists()


def test_a_player_of_another_tournament_is_refused(played, make_played, organiser):
    other = make_played(players=4, rounds=1, owner=organiser, slug="other")
    with pytest.raises(AdjustmentError) as refused:
        give(played, first_player(other), organiser)
    assert (refused.value.field, refused.value.message) == (
        "player",
        "not a player of this tournament",
    )


def test_a_round_not_started_is_refused(played, organiser):
    Round.objects.create(tournament=played, number=3)
    with pytest.raises(AdjustmentError) as refused:
        give(played, first_player(played), organiser, round_number=3)
    assert refused.value.field == "round"
    assert "round 3 has not started yet" in refused.value.message


def test_only_the_organiser_gives_or_removes_one(played, organiser, scorer, outsider):
    player = first_player(played)
    for user in (scorer, outsider):
        with pytest.raises(AdjustmentError, match="only the tournament's organiser"):
            give(played, player, user)
    added = give(played, player, organiser)
    with pytest.raises(AdjustmentError, match="only the tournament's organiser"):
        adjustments.remove_adjustment(played, added.pk, scorer)
    assert adjustments.may_adjust(organiser, played)
    assert not adjustments.may_adjust(scorer, played)


def test_removing_keeps_the_row_with_who_and_when_and_stops_counting(played, organiser):
    player = first_player(played)
    before = row_of(played, player).points
    added = give(played, player, organiser)
    removed = adjustments.remove_adjustment(played, added.pk, organiser).adjustment
    assert removed.removed_by == organiser
    assert removed.removed_at is not None
    assert row_of(played, player).points == before
    assert row_of(played, player).tally.adjustments == ()
    history = adjustments.player_adjustments(player)
    assert [(a.pk, a.created_by, a.removed_by) for a in history] == [
        (added.pk, organiser, organiser)
    ]


def a_minute_ago(adjustment, field):
    setattr(adjustment, field, getattr(adjustment, field) - timedelta(minutes=1))
    adjustment.save(update_fields=[field])


def test_removing_twice_is_refused_saying_who_removed_it(played, organiser):
    added = give(played, first_player(played), organiser)
    adjustments.remove_adjustment(played, added.pk, organiser)
    # At once, by the same person: a double click, done already.
    assert adjustments.remove_adjustment(played, added.pk, organiser).repeated
    added.refresh_from_db()
    a_minute_ago(added, "removed_at")
    with pytest.raises(AdjustmentError) as refused:
        adjustments.remove_adjustment(played, added.pk, organiser)
    assert "was removed already, by olive" in refused.value.message
    assert "penalty of −2 (misdeal)" in refused.value.message


def test_the_same_penalty_sent_twice_at_once_is_recorded_once(played, organiser):
    player = first_player(played)
    first = give(played, player, organiser)
    again = adjustments.add_adjustment(
        played, NewAdjustment(player.pk, 2, -2, "misdeal"), organiser
    )
    assert again.repeated
    assert again.adjustment == first
    assert Adjustment.objects.count() == 1
    # Another figure, or the same a minute later, is another penalty.
    give(played, player, organiser, points=-3)
    a_minute_ago(first, "created")
    give(played, player, organiser)
    assert Adjustment.objects.count() == 3


def test_an_unreleased_round_counts_for_the_organiser_only(played, organiser):
    Round.objects.filter(tournament=played, number=2).update(released=False)
    player = first_player(played)
    give(played, player, organiser)
    organisers = row_of(played, player)
    public = row_of(played, player, released_only=True)
    assert [a.points for a in organisers.tally.adjustments] == [-2]
    assert public.tally.adjustments == ()


# The organiser's player page ---------------------------------------------------------


def page_url(tournament, player):
    return reverse("organiser:player_edit", args=[tournament.slug, player.pk])


def add_url(tournament, player):
    return reverse("organiser:adjustment_add", args=[tournament.slug, player.pk])


def remove_url(tournament, player):
    return reverse("organiser:adjustment_remove", args=[tournament.slug, player.pk])


def test_the_organiser_records_a_penalty_from_the_player_page(played, organiser_client):
    player = first_player(played)
    page = organiser_client.get(page_url(played, player)).content.decode()
    assert "Penalties and awards" in page
    assert '<datalist id="adjustment-reasons">' in page
    assert '<option value="dispute settled">' in page
    # The round offered first is the latest started.
    assert '<option value="2" selected>Round 2</option>' in page
    response = organiser_client.post(
        add_url(played, player), {"round": "2", "points": "-2", "reason": "misdeal"}
    )
    assert response.status_code == 302
    assert response.url == page_url(played, player) + "#adjustments"
    (added,) = Adjustment.objects.all()
    assert (added.player, added.round.number, added.points) == (player, 2, -2)
    page = organiser_client.get(response.url).content.decode()
    assert "Recorded a penalty of −2 (misdeal)" in page
    assert 'class="penalty">−2</strong> in round 2: misdeal</span>' in page
    assert "given by olive" in page
    players = organiser_client.get(reverse("organiser:players", args=[played.slug]))
    assert ">−2</span>" in players.content.decode()
    organiser_client.post(
        add_url(played, player), {"round": "2", "points": "3", "reason": "dispute settled"}
    )
    page = organiser_client.get(response.url).content.decode()
    assert "Recorded an award of +3 (dispute settled)" in page


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"round": "2", "points": "0", "reason": "misdeal"}, "Points (below 0 for a penalty): 0"),
        ({"round": "2", "points": "two", "reason": "misdeal"}, "Give a whole number of points"),
        ({"round": "2", "points": "-2", "reason": ""}, "Reason: Say why"),
        ({"round": "7", "points": "-2", "reason": "misdeal"}, "Round: Choose one of the rounds"),
    ],
)
def test_a_refused_penalty_shows_in_the_error_summary(played, organiser_client, data, words):
    player = first_player(played)
    response = organiser_client.post(add_url(played, player), data)
    assert response.status_code == 422
    page = response.content.decode()
    summary = page[
        page.index("data-error-summary") : page.index("</div>", page.index("data-error-summary"))
    ]
    assert words in summary
    assert not Adjustment.objects.exists()


def test_the_organiser_removes_one_and_the_history_keeps_it(played, organiser, organiser_client):
    player = first_player(played)
    added = give(played, player, organiser)
    response = organiser_client.post(remove_url(played, player), {"adjustment": added.pk})
    assert response.status_code == 302
    added.refresh_from_db()
    assert added.removed_by == organiser
    page = organiser_client.get(page_url(played, player)).content.decode()
    assert "None given." in page
    assert "removed by olive" in page
    twice = organiser_client.post(remove_url(played, player), {"adjustment": added.pk}, follow=True)
    assert "was removed a moment ago" in twice.content.decode()
    added.refresh_from_db()
    a_minute_ago(added, "removed_at")
    again = organiser_client.post(remove_url(played, player), {"adjustment": added.pk})
    assert again.status_code == 409
    assert "was removed already, by olive" in again.content.decode()


def test_the_players_list_marks_a_player_with_penalties_or_awards(
    played, organiser, organiser_client
):
    first, second = Player.objects.filter(tournament=played).order_by("pk")[:2]
    give(played, first, organiser)
    give(played, first, organiser, points=-1, round_number=1, reason="slow play")
    removed = give(played, second, organiser, points=4, reason="dispute settled")
    adjustments.remove_adjustment(played, removed.pk, organiser)
    page = organiser_client.get(reverse("organiser:players", args=[played.slug]))
    text = page.content.decode()
    assert '<span class="badge penalty" title="Penalties and awards in all' in text
    assert ">−3</span>" in text
    assert "+4</span>" not in text
    # Checked in where they are on the page, the row keeps its mark.
    url = reverse("organiser:player_check_in", args=[played.slug, first.pk])
    row = organiser_client.post(url, headers={"HX-Request": "true"}).content.decode()
    assert ">−3</span>" in row


def test_another_players_adjustment_is_not_removed_from_this_page(
    played, organiser, organiser_client
):
    first, second = Player.objects.filter(tournament=played).order_by("pk")[:2]
    added = give(played, second, organiser)
    response = organiser_client.post(remove_url(played, first), {"adjustment": added.pk})
    assert response.status_code == 422
    added.refresh_from_db()
    assert added.removed_at is None


def test_scorers_outsiders_and_strangers_are_kept_out(
    played, organiser, client, scorer_client, outsider_client
):
    player = first_player(played)
    added = give(played, player, organiser)
    data = {"round": "2", "points": "-2", "reason": "misdeal"}
    for url, posted in (
        (page_url(played, player), None),
        (add_url(played, player), data),
        (remove_url(played, player), {"adjustment": added.pk}),
    ):
        for visitor, status in ((scorer_client, 403), (outsider_client, 404)):
            response = visitor.post(url, posted) if posted else visitor.get(url)
            assert response.status_code == status
        response = client.post(url, posted) if posted else client.get(url)
        assert response.status_code == 302
        assert reverse("login") in response.url
    assert Adjustment.objects.count() == 1
    assert Adjustment.objects.get().removed_at is None


def test_the_player_page_costs_the_same_queries_with_more_adjustments(
    played, organiser, organiser_client, django_assert_num_queries
):
    player = first_player(played)
    give(played, player, organiser)
    # The session, the user, the tournament, the player, the rounds started (the form),
    # the player's penalties and awards with their rounds and accounts, and whether the
    # organiser keeps the register of people (they organise a tournament, as tests let
    # anyone).
    with django_assert_num_queries(7):
        organiser_client.get(page_url(played, player))
    for points in (1, 2, 3, -4):
        give(played, player, organiser, points=points, round_number=1)
    with django_assert_num_queries(7):
        organiser_client.get(page_url(played, player))


# The public pages --------------------------------------------------------------------


def test_the_public_standings_show_the_mark_and_the_reason_and_refresh(played, organiser, client):
    player = first_player(played)
    url = reverse("standings", args=[played.slug])
    assert "adjusted-mark" not in client.get(url).content.decode()
    total = row_of(played, player, released_only=True).points
    added = give(played, player, organiser)
    # The cached page is stale at once.
    page = client.get(url).content.decode()
    assert f'{total - 2}<span class="adjusted-mark" title="includes round 2: −2 (misdeal)"' in page
    assert "−2 penalty</summary><ul><li>Round 2: −2 (misdeal)</li></ul>" in page
    adjustments.remove_adjustment(played, added.pk, organiser)
    assert "adjusted-mark" not in client.get(url).content.decode()


def test_the_projector_marks_the_total(played, organiser, client):
    player = first_player(played)
    give(played, player, organiser, points=3, reason="dispute settled")
    page = client.get(reverse("projector", args=[played.slug])).content.decode()
    assert 'title="includes round 2: +3 (dispute settled)">*</span>' in page


def test_the_printable_results_mark_the_total_and_list_the_reasons(played, organiser, client):
    player = first_player(played)
    give(played, player, organiser)
    page = client.get(reverse("final", args=[played.slug])).content.decode()
    total = row_of(played, player, released_only=True).points
    assert f'{total}<span class="adjusted-mark">*</span>' in page
    assert f"<li>* {player.name}: round 2, −2 (misdeal)</li>" in page


def test_the_rounds_public_page_lists_its_own(played, organiser, client):
    player = first_player(played)
    give(played, player, organiser)
    second = client.get(reverse("public_round", args=[played.slug, 2])).content.decode()
    assert f"{player.name}</a>: −2 (misdeal)</li>" in second
    first = client.get(reverse("public_round", args=[played.slug, 1])).content.decode()
    assert "misdeal" not in first


def test_the_players_public_page_lists_them_by_round(played, organiser, client):
    player = first_player(played)
    give(played, player, organiser)
    page = client.get(reverse("player", args=[played.slug, player.pk])).content.decode()
    assert '<a href="#round-2">round 2</a>: −2 (misdeal)' in page
    total = row_of(played, player, released_only=True).rounds[1]
    assert (
        f"Penalty −2</span> misdeal · round total in the standings <strong>{total}</strong>" in page
    )


def test_the_organisers_standings_mark_one_of_a_round_not_yet_released(
    played, organiser, organiser_client
):
    Round.objects.filter(tournament=played, number=2).update(released=False)
    give(played, first_player(played), organiser)
    page = organiser_client.get(reverse("organiser:standings", args=[played.slug]))
    assert 'title="includes round 2: −2 (misdeal)"' in page.content.decode()


def test_a_penalty_in_an_unreleased_round_stays_off_the_public_pages(played, organiser, client):
    Round.objects.filter(tournament=played, number=2).update(released=False)
    player = first_player(played)
    give(played, player, organiser)
    for url in (
        reverse("standings", args=[played.slug]),
        reverse("player", args=[played.slug, player.pk]),
    ):
        assert "misdeal" not in client.get(url).content.decode()
    results = public_results(played)
    assert results.rows[player.pk].tally.adjustments == ()


# Files -------------------------------------------------------------------------------


def test_the_standings_json_and_csv_include_them(played, organiser, client):
    player = first_player(played)
    give(played, player, organiser)
    give(played, player, organiser, points=1, round_number=1, reason="dispute settled")
    out = io.StringIO()
    call_command("standings", played.slug, "--format", "json", stdout=out)
    row = next(r for r in json.loads(out.getvalue())["rows"] if r["player_id"] == player.ref)
    assert row["adjustments"] == [
        {"round": 1, "points": 1, "reason": "dispute settled"},
        {"round": 2, "points": -2, "reason": "misdeal"},
    ]
    assert row["points"] == row_of(played, player).points
    text = client.get(reverse("standings_csv", args=[played.slug])).content.decode("utf-8-sig")
    records = list(csv.DictReader(io.StringIO(text)))
    mine = next(r for r in records if r["name"] == player.name)
    assert mine["adjustments"] == "-1"
    assert mine["adjustment_reasons"] == "round 1: +1 (dispute settled); round 2: -2 (misdeal)"
    assert int(mine["points"]) == row_of(played, player).points
    assert {r["adjustments"] for r in records if r["name"] != player.name} == {"0"}


# The series --------------------------------------------------------------------------


@pytest.mark.usefixtures("empty_series_cache")
def test_a_series_places_the_tournament_with_the_penalty_and_rates_the_cards(played, organiser):
    made = Series.objects.create(name="Season", slug="season")
    SeriesTournament.objects.create(series=made, tournament=played, accepted=True)
    for index, player in enumerate(Player.objects.filter(tournament=played).order_by("pk")):
        player.person = Person.objects.create(name=f"Person {index}")
        player.save()
    leader = public_results(played).standings.rows[0]
    winner = Player.objects.get(pk=leader.key)

    def placing():
        rows = series.series_standings(made).rows
        row = next(r for r in rows if r.person == winner.person)
        return row.results[0].rank, row.results[0].tournament_points

    def ratings():
        return {row.person.pk: (row.mu, row.sigma) for row in series.series_ratings(made).rows}

    assert placing() == (1, leader.points)
    rated = ratings()
    give(played, winner, organiser, points=-limits.ADJUSTMENT_MAX, reason="dispute settled")
    assert placing() == (8, leader.points - limits.ADJUSTMENT_MAX)
    # Who beat whom at each table is the cards': the ratings stay.
    assert ratings() == rated
