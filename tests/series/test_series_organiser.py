"""The organiser's series pages: creating a series, its settings with their errors, its
tournaments (one's own at once, another organiser's on their consent), and who may."""

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory
from tournament.models import Series, SeriesScheme, SeriesTournament
from tournament.series.forms import parse_placing


@pytest.fixture
def series(organiser):
    return Series.objects.create(name="Winter league", slug="winter", owner=organiser)


@pytest.fixture
def other_organiser(django_user_model):
    return django_user_model.objects.create_user("otto", password="pw")


@pytest.fixture
def other_client(other_organiser, client):
    client.force_login(other_organiser)
    return client


def detail(series):
    return reverse("organiser:series_detail", args=[series.slug])


def test_creating_a_series_with_every_setting(organiser_client, organiser):
    response = organiser_client.post(
        reverse("organiser:series_create"),
        {
            "name": "Pub league 2026",
            "slug": "pub-2026",
            "scheme": "placing",
            "placing": "30, 20, 10…",
            "count_best": "4",
            "min_events": "2",
        },
    )
    series = Series.objects.get(slug="pub-2026")
    assert response.status_code == 302
    assert response.url == detail(series)
    assert (series.name, series.scheme, series.placing) == (
        "Pub league 2026",
        "placing",
        [30, 20, 10],
    )
    assert (series.count_best, series.min_events, series.owner) == (4, 2, organiser)


def test_a_new_series_offers_the_default_placing_and_counts_every_result(organiser_client):
    page = organiser_client.get(reverse("organiser:series_create")).content.decode()
    assert 'value="25, 18, 15, 12, 10, 8, 6, 4, 2, 1"' in page
    organiser_client.post(
        reverse("organiser:series_create"),
        {"name": "All time", "slug": "all-time", "scheme": "field-share", "min_events": "1"},
    )
    series = Series.objects.get(slug="all-time")
    assert series.count_best is None
    assert series.scheme == SeriesScheme.FIELD_SHARE


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("placing", "25, 18, x, 12", "Place 3: “x” is not a whole number"),
        ("placing", "25, -3", "Place 2: “-3” is not a whole number"),
        ("placing", "10, 20", "Place 2: 20 points is more than place 1's 10"),
        ("placing", "25, ²", "Place 2: “²” is not a whole number"),
        ("count_best", "0", "At least 1."),
        ("min_events", "0", "At least 1."),
        ("slug", "Has Spaces", "Lower-case letters, digits and single hyphens"),
        ("slug", "new", "is the name of one of the app"),
        ("name", "", "This field is required."),
        ("name", "League \u202e2026", "The name has invisible direction-changing characters."),
        ("name", "League\u200b", "The name has an invisible character (U+200B ZERO WIDTH"),
    ],
)
def test_bad_settings_are_named_by_field(organiser_client, field, value, message):
    data = {"name": "League", "slug": "league", "scheme": "placing", "min_events": "1"}
    data[field] = value
    response = organiser_client.post(reverse("organiser:series_create"), data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == [field]
    assert message in " ".join(errors[field])
    assert not Series.objects.exists()


def test_a_taken_slug_is_refused(organiser_client, series):
    data = {"name": "Another", "slug": series.slug, "scheme": "placing", "min_events": "1"}
    response = organiser_client.post(reverse("organiser:series_create"), data)
    assert "slug" in response.context["form"].errors
    assert Series.objects.count() == 1


@pytest.mark.parametrize(
    ("text", "points"),
    [("25, 18, 15", [25, 18, 15]), ("5;3;1", [5, 3, 1]), ("3, 2, 1,", [3, 2, 1]), ("7", [7])],
)
def test_the_placing_list_is_read_as_typed(text, points):
    assert parse_placing(text) == points


def test_editing_the_settings(organiser_client, series):
    page = organiser_client.get(detail(series)).content.decode()
    assert "Winter league" in page
    assert 'value="25, 18, 15, 12, 10, 8, 6, 4, 2, 1"' in page
    response = organiser_client.post(
        detail(series),
        {
            "name": "Winter league",
            "slug": "winter",
            "scheme": "tournament-points",
            "placing": "25, 18",
            "count_best": "",
            "min_events": "3",
        },
    )
    assert response.status_code == 302
    series.refresh_from_db()
    assert (series.scheme, series.placing, series.min_events) == ("tournament-points", [25, 18], 3)


def test_editing_refuses_a_name_no_other_name_may_have(organiser_client, series):
    data = {"name": "Winter\u200b league", "slug": "winter", "scheme": "placing"}
    response = organiser_client.post(detail(series), data | {"min_events": "1"})
    assert response.status_code == 200
    assert response.context["form"].errors == {
        "name": ["The name has an invisible character (U+200B ZERO WIDTH SPACE)."]
    }
    series.refresh_from_db()
    assert series.name == "Winter league"


def test_the_organisers_own_tournament_counts_at_once(organiser_client, organiser, series):
    tournament = TournamentFactory(owner=organiser, slug="march-night")
    changed = series.changed
    response = organiser_client.post(
        reverse("organiser:series_tournament_add", args=[series.slug]),
        {"tournament": " march-night "},
    )
    assert response.status_code == 302
    entry = SeriesTournament.objects.get(series=series)
    assert entry.tournament == tournament
    assert entry.accepted
    series.refresh_from_db()
    assert series.changed > changed


def test_another_organisers_tournament_waits_for_their_consent(
    organiser_client, other_client, other_organiser, series
):
    theirs = TournamentFactory(owner=other_organiser, slug="their-open", published=True)
    organiser_client.post(
        reverse("organiser:series_tournament_add", args=[series.slug]), {"tournament": "their-open"}
    )
    entry = SeriesTournament.objects.get(series=series, tournament=theirs)
    assert not entry.accepted
    assert "awaiting its organiser" in organiser_client.get(detail(series)).content.decode()
    # They see it on their home page and on their series page.
    assert "1 request to count" in other_client.get(reverse("organiser:home")).content.decode()
    page = other_client.get(reverse("organiser:series_list")).content.decode()
    assert "Winter league" in page
    other_client.post(
        reverse("organiser:series_request_accept", args=[series.slug]), {"entry": entry.pk}
    )
    entry.refresh_from_db()
    assert entry.accepted


def test_declining_a_request_takes_it_out(organiser_client, other_client, other_organiser, series):
    theirs = TournamentFactory(owner=other_organiser, slug="their-open", published=True)
    entry = SeriesTournament.objects.create(series=series, tournament=theirs, accepted=False)
    other_client.post(
        reverse("organiser:series_request_decline", args=[series.slug]), {"entry": entry.pk}
    )
    assert not SeriesTournament.objects.exists()


def test_only_the_tournaments_organiser_answers_a_request(
    organiser_client, outsider_client, other_organiser, series
):
    theirs = TournamentFactory(owner=other_organiser, slug="their-open", published=True)
    entry = SeriesTournament.objects.create(series=series, tournament=theirs, accepted=False)
    for client in (organiser_client, outsider_client):
        client.post(
            reverse("organiser:series_request_accept", args=[series.slug]), {"entry": entry.pk}
        )
    entry.refresh_from_db()
    assert not entry.accepted


def test_another_organisers_private_tournament_is_not_revealed(
    organiser_client, other_organiser, series
):
    TournamentFactory(owner=other_organiser, slug="their-secret", published=False)
    response = organiser_client.post(
        reverse("organiser:series_tournament_add", args=[series.slug]),
        {"tournament": "their-secret"},
    )
    assert response.status_code == 200
    assert "No tournament has the address “their-secret”" in response.content.decode()
    assert not SeriesTournament.objects.exists()


@pytest.mark.parametrize(
    ("slug", "message"),
    [("no-such", "No tournament has the address “no-such”"), ("march-night", "already is in")],
)
def test_adding_a_tournament_twice_or_one_that_is_not_there(
    organiser_client, organiser, series, slug, message
):
    tournament = TournamentFactory(owner=organiser, slug="march-night")
    SeriesTournament.objects.create(series=series, tournament=tournament, accepted=True)
    response = organiser_client.post(
        reverse("organiser:series_tournament_add", args=[series.slug]), {"tournament": slug}
    )
    assert message in response.content.decode()
    assert SeriesTournament.objects.count() == 1


def test_removing_a_tournament(organiser_client, organiser, series):
    tournament = TournamentFactory(owner=organiser)
    entry = SeriesTournament.objects.create(series=series, tournament=tournament, accepted=True)
    response = organiser_client.post(
        reverse("organiser:series_tournament_remove", args=[series.slug]), {"entry": entry.pk}
    )
    assert response.status_code == 302
    assert not SeriesTournament.objects.exists()


def test_a_stranger_may_not_see_or_change_the_series(outsider_client, organiser, series):
    tournament = TournamentFactory(owner=organiser)
    entry = SeriesTournament.objects.create(series=series, tournament=tournament, accepted=True)
    assert outsider_client.get(detail(series)).status_code == 404
    posts = [
        (
            detail(series),
            {"name": "Mine now", "slug": "winter", "scheme": "placing", "min_events": "1"},
        ),
        (
            reverse("organiser:series_tournament_add", args=[series.slug]),
            {"tournament": tournament.slug},
        ),
        (reverse("organiser:series_tournament_remove", args=[series.slug]), {"entry": entry.pk}),
    ]
    for url, data in posts:
        assert outsider_client.post(url, data).status_code == 404
    series.refresh_from_db()
    assert series.name == "Winter league"
    assert SeriesTournament.objects.count() == 1
    assert (
        "Winter league"
        not in outsider_client.get(reverse("organiser:series_list")).content.decode()
    )


def test_a_superuser_may_change_any_series(client, django_user_model, series):
    admin = django_user_model.objects.create_superuser("ada", password="pw")
    client.force_login(admin)
    assert client.get(detail(series)).status_code == 200


def test_anonymous_visitors_are_sent_to_log_in(client, series):
    for url in (
        reverse("organiser:series_list"),
        reverse("organiser:series_create"),
        detail(series),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))


def test_a_superuser_still_asks_an_organiser_for_their_tournament(
    client, django_user_model, other_organiser, series
):
    admin = django_user_model.objects.create_superuser("ada", password="pw")
    client.force_login(admin)
    theirs = TournamentFactory(owner=other_organiser, slug="their-open", published=True)
    client.post(
        reverse("organiser:series_tournament_add", args=[series.slug]), {"tournament": "their-open"}
    )
    entry = SeriesTournament.objects.get(series=series, tournament=theirs)
    assert not entry.accepted
    # Nor may the superuser answer for that organiser.
    client.post(reverse("organiser:series_request_accept", args=[series.slug]), {"entry": entry.pk})
    entry.refresh_from_db()
    assert not entry.accepted


def test_a_superuser_answers_for_a_tournament_nobody_organises(
    client, organiser_client, django_user_model, series
):
    orphan = TournamentFactory(owner=None, slug="old-archive", published=True)
    organiser_client.post(
        reverse("organiser:series_tournament_add", args=[series.slug]),
        {"tournament": "old-archive"},
    )
    entry = SeriesTournament.objects.get(series=series, tournament=orphan)
    assert not entry.accepted
    admin = django_user_model.objects.create_superuser("ada", password="pw")
    client.force_login(admin)
    assert "Winter league" in client.get(reverse("organiser:series_list")).content.decode()
    client.post(reverse("organiser:series_request_accept", args=[series.slug]), {"entry": entry.pk})
    entry.refresh_from_db()
    assert entry.accepted
