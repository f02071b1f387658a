"""A series of tournaments under different rules: its page says so where the scheme adds
their points totals up as they are."""

import pytest
from django.urls import reverse

from tournament.models import Person, Series, SeriesScheme, SeriesTournament


@pytest.mark.parametrize(
    ("scheme", "warned"),
    [(SeriesScheme.TOURNAMENT_POINTS, True), (SeriesScheme.FIELD_SHARE, False)],
)
def test_a_series_mixing_rules_says_so_under_tournament_points(
    client, make_played, organiser, scheme, warned
):
    points = make_played(players=8, rounds=1, seed=2, slug="points-night", owner=organiser)
    stakes = make_played(
        players=8,
        rounds=1,
        seed=3,
        slug="stakes-night",
        owner=organiser,
        scoring="classic-stakes",
        rule_set="du-coeur",
    )
    people = [Person.objects.create(name=f"Person {i}") for i in range(8)]
    for tournament in (points, stakes):
        for player, person in zip(tournament.players.order_by("pk"), people, strict=True):
            player.person = person
            player.save(update_fields=["person"])
    series = Series.objects.create(name="Mixed League", slug="mixed-league", scheme=scheme)
    for tournament in (points, stakes):
        SeriesTournament.objects.create(series=series, tournament=tournament, accepted=True)
    page = client.get(reverse("series", args=[series.slug])).content.decode()
    warning = "Its tournaments are scored under different rules"
    assert (warning in page) is warned
    if warned:
        assert "Classic stakes (net units) under Justin du Coeur" in page
        assert "Winner-advantage (1 point per pair) under Willughby and Parlett" in page
