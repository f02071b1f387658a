"""Rehearsing an evening as its organiser: the copy, a round played by the simulator,
confirmed at the desk, released and projected by the private link; kept out of lists,
series and careers; at most three; removed after asking."""

import io
import re

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from tests.factories import TournamentFactory, make_players
from tournament.models import (
    KeepApart,
    Person,
    Player,
    Round,
    Series,
    SeriesTournament,
    Sheet,
    SheetStatus,
    Tournament,
)
from tournament.rehearsals.services import COPYING, MAX_REHEARSALS
from tournament.rounds.swaps import seating_token
from tournament.tournament_file.loading import delete_tournament


@pytest.fixture
def evening(organiser, scorer):
    """The organiser's published club night of 13 players (two kept apart, one linked to
    a person of the register), in a series, with a scorer and their own settings."""
    tournament = TournamentFactory(
        name="Club Night",
        slug="club-night",
        owner=organiser,
        scorers=[scorer],
        published=True,
        rotations_per_round=1,
        round_minutes=50,
        keep_clubs_apart_rounds=1,
        tiebreaks=["countback"],
    )
    players = make_players(tournament, 13)
    KeepApart.objects.create(tournament=tournament, first=players[0], second=players[1])
    person = Person.objects.create(name="Player 0000")
    Player.objects.filter(pk=players[0].pk).update(person=person)
    series = Series.objects.create(slug="club-season", name="Club Season", owner=organiser)
    SeriesTournament.objects.create(series=series, tournament=tournament, accepted=True)
    return tournament


def rehearse(client, tournament, came_from="settings"):
    return client.post(
        reverse("organiser:rehearse"), {"tournament": tournament.slug, "came_from": came_from}
    )


def test_a_rehearsal_from_settings_to_the_projector(organiser_client, client, evening):
    response = rehearse(organiser_client, evening)

    rehearsal = Tournament.objects.get(rehearsal_of=evening)
    assert response.status_code == 302
    assert response["Location"] == reverse("organiser:dashboard", args=[rehearsal.slug])
    # The organiser's players, rules, seating and clock; none of its scorers; private.
    assert rehearsal.slug == "club-night-rehearsal-1"
    assert rehearsal.owner == evening.owner
    assert list(rehearsal.scorers.all()) == []
    assert not rehearsal.published
    assert (rehearsal.round_minutes, rehearsal.keep_clubs_apart_rounds) == (50, 1)
    assert rehearsal.tiebreaks == ["countback"]
    assert sorted(rehearsal.players.values_list("name", flat=True)) == sorted(
        evening.players.values_list("name", flat=True)
    )
    assert not rehearsal.players.filter(person__isnull=False).exists()
    (pair,) = KeepApart.objects.filter(tournament=rehearsal)
    assert (pair.first.name, pair.second.name) == ("Player 0000", "Player 0001")
    # Seated at round 1 by the task after the commit, which then said it was done.
    round_ = Round.objects.get(tournament=rehearsal)
    assert (round_.number, round_.started) == (1, False)
    assert rehearsal.rehearsal_work == ""
    dashboard = organiser_client.get(response["Location"]).content.decode()
    assert "Rehearsal" in dashboard
    assert "Start round 1, then “Play this round” fills its sheets as the tables would." in (
        dashboard
    )
    assert rehearsal.rehearsal_token in dashboard
    assert "Publish</button>" not in dashboard

    # As on the night: start the round, then the tables play it.
    start = reverse("organiser:round_start", args=[rehearsal.slug, 1])
    assert organiser_client.post(start, {"seating": seating_token(round_)}).status_code == 302
    round_page = organiser_client.get(reverse("organiser:round", args=[rehearsal.slug, 1]))
    assert "Play this round" in round_page.content.decode()
    # Every page of it says it is a rehearsal: the organiser's, printed, a phone's.
    code = round_.tables.get(number=1).code
    for answer in (
        round_page,
        organiser_client.get(reverse("scorer:desk", args=[rehearsal.slug, 1])),
        organiser_client.get(reverse("print:sheets", args=[rehearsal.slug, 1])),
        client.get(reverse("table:entry", args=[code])),
    ):
        assert answer.status_code == 200
        assert 'class="rehearsal-banner"' in answer.content.decode()
    played = organiser_client.post(reverse("organiser:rehearsal_play", args=[rehearsal.slug, 1]))
    assert played.status_code == 302
    sheets = Sheet.objects.filter(table__round=round_)
    assert {sheet.status for sheet in sheets} == {SheetStatus.ENTERED}
    for sheet in sheets.select_related("table"):
        assert len(sheet.pending) == sheet.table.seats.count()
        assert sheet.entered_by_phone == 1
    round_page = organiser_client.get(reverse("organiser:round", args=[rehearsal.slug, 1]))
    assert "Play this round" not in round_page.content.decode()
    assert "every table’s sheet is typed" in round_page.content.decode()

    # The organiser confirms each at the desk and releases the round.
    for sheet in sheets.select_related("table"):
        confirm = reverse("scorer:confirm", args=[rehearsal.slug, 1, sheet.table.number])
        answer = organiser_client.post(
            confirm, {"mode": "review", "expected_version": sheet.version}
        )
        assert answer.status_code == 302, answer.content.decode()[:2000]
    assert {sheet.status for sheet in sheets.all()} == {SheetStatus.CONFIRMED}
    release = reverse("organiser:round_release", args=[rehearsal.slug, 1])
    assert organiser_client.post(release).status_code == 302
    assert Round.objects.get(pk=round_.pk).released

    # Anonymous without the link: as a tournament that does not exist.
    projector = reverse("projector", args=[rehearsal.slug])
    for page in (reverse("standings", args=[rehearsal.slug]), projector):
        assert client.get(page).status_code == 404
    wrong = reverse("rehearsal_link", args=[rehearsal.slug, "not-the-token"])
    assert client.get(wrong).status_code == 404

    # With the private link: the projector, marked, kept by no cache nor search engine.
    link = client.get(reverse("rehearsal_link", args=[rehearsal.slug, rehearsal.rehearsal_token]))
    assert link.status_code == 302
    assert link["Location"] == reverse("standings", args=[rehearsal.slug])
    assert link.cookies["lld_rehearsal"]["path"] == f"/t/{rehearsal.slug}/"
    shown = client.get(projector)
    assert shown.status_code == 200
    page = shown.content.decode()
    assert 'class="rehearsal-banner"' in page
    assert "Player 00" in page
    assert "no-store" in shown["Cache-Control"]
    assert "noindex" in shown["X-Robots-Tag"]
    player = rehearsal.players.first()
    for address in (
        reverse("standings", args=[rehearsal.slug]),
        reverse("public_round", args=[rehearsal.slug, 1]),
        reverse("player", args=[rehearsal.slug, player.pk]),
    ):
        answer = client.get(address)
        assert answer.status_code == 200
        assert 'class="rehearsal-banner"' in answer.content.decode()
        assert "no-store" in answer["Cache-Control"]
    # The link of one rehearsal opens no other tournament's private pages.
    evening.published = False
    evening.save(update_fields=["published"])
    client.cookies["lld_rehearsal"] = rehearsal.rehearsal_token
    assert client.get(reverse("standings", args=[evening.slug])).status_code == 404
    evening.published = True
    evening.save(update_fields=["published"])

    # Never listed, never in a series or a career, never published.
    assert rehearsal.name not in client.get(reverse("home")).content.decode()
    series_page = client.get(reverse("series", args=["club-season"])).content.decode()
    assert rehearsal.slug not in series_page
    assert not SeriesTournament.objects.filter(tournament=rehearsal).exists()
    publish = organiser_client.post(reverse("organiser:publish", args=[rehearsal.slug]))
    assert publish.status_code == 302
    assert not Tournament.objects.get(pk=rehearsal.pk).published
    refused = organiser_client.post(
        reverse("organiser:series_tournament_add", args=["club-season"]),
        {"tournament": rehearsal.slug},
    )
    assert "a rehearsal is in no series" in refused.content.decode()
    assert not SeriesTournament.objects.filter(tournament=rehearsal).exists()


def test_a_rehearsal_is_made_from_the_new_tournament_page(organiser_client, evening):
    page = organiser_client.get(reverse("organiser:create")).content.decode()
    assert "Rehearse the evening" in page
    assert f'<option value="{evening.slug}">' in page

    response = rehearse(organiser_client, evening, came_from="new")

    assert response.status_code == 302
    assert Tournament.objects.filter(rehearsal_of=evening).count() == 1


def test_playing_asks_for_a_started_round_and_is_for_rehearsals_only(organiser_client, evening):
    rehearse(organiser_client, evening)
    rehearsal = Tournament.objects.get(rehearsal_of=evening)

    response = organiser_client.post(
        reverse("organiser:rehearsal_play", args=[rehearsal.slug, 1]), follow=True
    )

    assert "Round 1 has not started: start it (as on the night), then play it." in (
        response.content.decode()
    )
    assert not Sheet.objects.filter(table__round__tournament=rehearsal).exclude(
        status=SheetStatus.NOT_STARTED
    )
    Round.objects.create(tournament=evening, number=1, started=True)
    real = organiser_client.post(
        reverse("organiser:rehearsal_play", args=[evening.slug, 1]), follow=True
    )
    assert "Only a rehearsal’s rounds are played by the simulator." in html_text(real)


def html_text(response):
    return response.content.decode().replace("&#x27;", "’").replace("'", "’")


def test_an_organiser_keeps_at_most_three_rehearsals(organiser_client, evening):
    for _ in range(MAX_REHEARSALS):
        assert rehearse(organiser_client, evening).status_code == 302

    response = rehearse(organiser_client, evening)

    assert response["Location"] == reverse("organiser:edit", args=[evening.slug])
    shown = organiser_client.get(response["Location"]).content.decode()
    assert (
        "You have 3 rehearsals, the most one organiser keeps: remove one (its Overview has "
        "“Remove this rehearsal”) before making another." in shown
    )
    assert Tournament.objects.filter(rehearsal_of=evening).count() == MAX_REHEARSALS


def test_a_tournament_without_players_is_not_rehearsed(organiser_client, organiser):
    empty = TournamentFactory(name="Next Month", slug="next-month", owner=organiser)

    response = rehearse(organiser_client, empty, came_from="new")

    assert response["Location"] == reverse("organiser:create")
    shown = organiser_client.get(response["Location"]).content.decode()
    assert "“Next Month” has 0 players who play: register at least 3 before rehearsing it." in (
        shown
    )
    assert not Tournament.objects.filter(rehearsal_of=empty).exists()


def test_a_rehearsal_is_removed_after_asking(organiser_client, evening):
    rehearse(organiser_client, evening)
    rehearsal = Tournament.objects.get(rehearsal_of=evening)
    remove = reverse("organiser:rehearsal_remove", args=[rehearsal.slug])

    asked = organiser_client.post(remove)

    assert asked.status_code == 200
    assert "Remove the rehearsal “Club Night (rehearsal)”?" in asked.content.decode()
    assert Tournament.objects.filter(pk=rehearsal.pk).exists()

    removed = organiser_client.post(remove, {"confirm": "on"})

    assert removed["Location"] == reverse("organiser:edit", args=[evening.slug])
    assert not Tournament.objects.filter(pk=rehearsal.pk).exists()
    assert not Player.objects.filter(tournament_id=rehearsal.pk).exists()
    assert Tournament.objects.filter(pk=evening.pk).exists()
    assert evening.players.count() == 13


def test_only_its_organiser_rehearses_or_removes(
    scorer_client, outsider_client, client, evening, organiser_client
):
    assert rehearse(outsider_client, evening).status_code == 404
    assert rehearse(scorer_client, evening).status_code == 403
    anonymous = rehearse(client, evening)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("login"))
    rehearse(organiser_client, evening)
    rehearsal = Tournament.objects.get(rehearsal_of=evening)
    remove = reverse("organiser:rehearsal_remove", args=[rehearsal.slug])
    assert outsider_client.post(remove, {"confirm": "on"}).status_code == 404
    play = reverse("organiser:rehearsal_play", args=[rehearsal.slug, 1])
    assert outsider_client.post(play).status_code == 404
    assert Tournament.objects.filter(pk=rehearsal.pk).exists()


@pytest.mark.parametrize("slug", ["", "no such/slug", "x" * 300])
def test_a_form_naming_no_tournament_says_so(organiser_client, evening, slug):
    response = organiser_client.post(
        reverse("organiser:rehearse"), {"tournament": slug}, follow=True
    )

    assert response.status_code == 200
    assert "Choose one of your tournaments to rehearse." in response.content.decode()


def test_the_private_link_on_the_overview_opens_the_pages(organiser_client, client, evening):
    rehearse(organiser_client, evening)
    rehearsal = Tournament.objects.get(rehearsal_of=evening)
    page = organiser_client.get(reverse("organiser:dashboard", args=[rehearsal.slug]))

    (link,) = re.findall(
        r'id="private-link" type="text" readonly value="([^"]+)"', page.content.decode()
    )

    path = link.removeprefix("http://testserver")
    assert client.get(path).status_code == 302
    assert client.get(reverse("standings", args=[rehearsal.slug])).status_code == 200


def test_a_rehearsal_outlives_the_tournament_it_copied(organiser_client, evening):
    rehearse(organiser_client, evening)
    rehearsal = Tournament.objects.get(rehearsal_of=evening)

    delete_tournament(evening)

    rehearsal.refresh_from_db()
    assert rehearsal.is_rehearsal
    assert rehearsal.rehearsal_of is None
    for name in ("dashboard", "edit"):
        page = organiser_client.get(reverse(f"organiser:{name}", args=[rehearsal.slug]))
        assert page.status_code == 200
        assert "Remove this rehearsal" in page.content.decode()


DATABASE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


def run_waiting_task(name):
    """Run the one waiting task ``name`` as the worker would; what it returned."""
    (waiting,) = DBTaskResult.objects.filter(
        status=TaskResultStatus.READY, task_path__endswith=f".{name}"
    )
    waiting.delete()
    return waiting.task.call(*waiting.args_kwargs["args"])


def test_a_large_field_is_copied_and_played_by_the_task_worker(
    settings, organiser_client, organiser
):
    settings.TASKS = DATABASE
    big = TournamentFactory(name="County Open", slug="county-open", owner=organiser)
    make_players(big, 60)

    made = rehearse(organiser_client, big)

    assert "Its players and round 1 are being worked out." in (
        organiser_client.get(made["Location"]).content.decode()
    )
    rehearsal = Tournament.objects.get(rehearsal_of=big)
    assert rehearsal.rehearsal_work == COPYING
    assert not rehearsal.players.exists()
    page = organiser_client.get(reverse("organiser:dashboard", args=[rehearsal.slug]))
    text = page.content.decode()
    assert "Being worked out: copying the players and seating round 1." in text
    assert '<meta http-equiv="refresh" content="3">' in text

    assert run_waiting_task("fill_rehearsal") == "copied"

    rehearsal.refresh_from_db()
    assert rehearsal.rehearsal_work == ""
    assert rehearsal.players.count() == 60
    round_ = Round.objects.get(tournament=rehearsal, number=1)
    assert round_.tables.count() == 12
    start = reverse("organiser:round_start", args=[rehearsal.slug, 1])
    organiser_client.post(start, {"seating": seating_token(round_)})
    play = reverse("organiser:rehearsal_play", args=[rehearsal.slug, 1])

    page = organiser_client.post(play, follow=True)

    assert "Round 1 is being played by the tables." in page.content.decode()
    assert "Being worked out: playing round 1." in page.content.decode()
    again = organiser_client.post(play, follow=True)
    assert "Wait a moment: the rehearsal is playing round 1." in again.content.decode()
    assert run_waiting_task("play_rehearsal_round") == "12 tables played"
    statuses = Sheet.objects.filter(table__round=round_).values_list("status", flat=True)
    assert set(statuses) == {SheetStatus.ENTERED}
    rehearsal.refresh_from_db()
    assert rehearsal.rehearsal_work == ""


def test_the_series_command_refuses_a_rehearsal(organiser_client, evening):
    rehearse(organiser_client, evening)

    with pytest.raises(CommandError) as refused:
        call_command(
            "create_series",
            "rehearsed",
            "--name",
            "Rehearsed",
            evening.slug,
            "club-night-rehearsal-1",
            stdout=io.StringIO(),
        )

    assert "a rehearsal is in no series: “club-night-rehearsal-1”" in str(refused.value)
    assert not Series.objects.filter(slug="rehearsed").exists()
