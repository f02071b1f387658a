"""The format advisor bounded by the size of a question (tournaments.advisor): a small
question answered in the request, a larger one by the task worker with a page that
follows it and an answer kept, one at a time an account, the largest refused in words."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.http import QueryDict
from django.urls import reverse

from scoring.rulesets import DU_COEUR, STANDARD
from scoring.simulation import advisor as scoring_advisor
from tournament.models import AdvisorAnswer
from tournament.tournaments import advisor
from tournament.tournaments.advisor import answer_question

ADVISOR = reverse("organiser:advisor")
# 200 players for three hours: about 38,000 players × deals, over the request's bound
# here (lowered below), well under the worker's.
LARGE = {"players": "200", "minutes": "180"}
OTHER = {"players": "150", "minutes": "180"}
DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend", "QUEUES": ["default"]}}


def kept_format(kept: AdvisorAnswer) -> dict:
    kept.refresh_from_db()
    return kept.answer["recommended"]


@pytest.fixture
def small_request_bound(monkeypatch):
    monkeypatch.setattr(advisor, "REQUEST_WORK", 10_000)


def test_a_small_question_is_answered_in_the_request(organiser_client, db):
    page = organiser_client.get(ADVISOR, {"players": "20", "minutes": "120"}).content.decode()
    assert "Recommended:" in page
    assert not AdvisorAnswer.objects.exists()


@pytest.mark.usefixtures("small_request_bound")
def test_a_larger_question_is_answered_by_the_worker_and_the_page_follows_it(
    settings, organiser_client
):
    settings.TASKS = DUMMY  # no worker runs yet
    page = organiser_client.get(ADVISOR, LARGE).content.decode()
    assert "Being worked out: 200 players, 180 minutes" in page
    assert 'hx-trigger="every 2s"' in page
    assert "Recommended:" not in page
    (kept,) = AdvisorAnswer.objects.all()
    # The worker answers it; the page (polled, or reloaded) shows the answer.
    assert answer_question.call(kept.pk) == "answered"
    page = organiser_client.get(ADVISOR, LARGE, headers={"HX-Request": "true"}).content.decode()
    assert "Recommended:" in page
    assert "Being worked out" not in page
    # The kept answer carries its format into the new tournament, as one worked out at once.
    recommended = kept_format(kept)
    use = re.search(r'href="([^"]*)">Use this format<', page).group(1)
    assert use.startswith(reverse("organiser:create") + "?")
    query = QueryDict(unescape(use).split("?", 1)[1])
    assert query["planned_rounds"] == str(recommended["rounds"])
    assert query["rotations_per_round"] == str(recommended["rotations"])


@pytest.mark.usefixtures("small_request_bound")
def test_the_same_question_is_answered_from_the_kept_answer(organiser_client, scorer_client):
    organiser_client.get(ADVISOR, LARGE)
    (kept,) = AdvisorAnswer.objects.all()
    assert kept.answer is not None  # the tests run tasks at once
    page = scorer_client.get(ADVISOR, LARGE).content.decode()
    assert "Recommended:" in page
    assert AdvisorAnswer.objects.count() == 1


@pytest.mark.usefixtures("small_request_bound")
def test_one_large_question_an_account_at_a_time(settings, organiser_client):
    settings.TASKS = DUMMY
    organiser_client.get(ADVISOR, LARGE)
    page = organiser_client.get(ADVISOR, OTHER).content.decode()
    assert "Your earlier question (200 players, 180 minutes) is still being worked out" in page
    assert AdvisorAnswer.objects.count() == 1


def test_a_question_too_large_for_the_worker_is_refused_in_words(organiser_client, db, monkeypatch):
    monkeypatch.setattr(advisor, "REQUEST_WORK", 1_000)
    monkeypatch.setattr(advisor, "TASK_WORK", 10_000)
    page = organiser_client.get(ADVISOR, LARGE).content.decode()
    assert "players × " in page
    assert "deals is more than the advisor works out (10,000)" in page
    assert not AdvisorAnswer.objects.exists()


def test_the_bounds_are_measured_in_players_times_deals():
    # The largest question the form allows stays within what the worker answers.
    players, deals = scoring_advisor.question_work(
        scoring_advisor.MAX_PLAYERS,
        scoring_advisor.MAX_MINUTES,
        scoring_advisor.ScoringSystem.WINNER_ADVANTAGE,
        STANDARD,
        0.5,
    )
    assert players * deals <= scoring_advisor.TASK_WORK
    assert scoring_advisor.REQUEST_WORK < scoring_advisor.TASK_WORK


def test_du_coeurs_large_tables_are_counted_in_the_bounds():
    """Three splits (5s, 7s, 8s) and tables of eight: the same field asks about three
    times the standard rules' work. A day of 1,000 at 3 minutes a deal stays within the
    worker's bound; at half a minute a deal it is refused in words."""
    system = scoring_advisor.ScoringSystem.WINNER_ADVANTAGE
    standard = scoring_advisor.question_work(1000, 480, system, STANDARD, 3.0)
    coeur = scoring_advisor.question_work(1000, 480, system, DU_COEUR, 3.0)
    assert coeur[1] > 2.5 * standard[1]
    assert coeur[0] * coeur[1] <= scoring_advisor.TASK_WORK
    players, deals = scoring_advisor.question_work(1000, 480, system, DU_COEUR, 0.5)
    assert players * deals > scoring_advisor.TASK_WORK


def test_too_large_a_du_coeur_question_is_refused_on_the_page(organiser_client, db):
    query = {"players": "1000", "minutes": "480", "minutes_per_deal": "0.5"}
    page = organiser_client.get(ADVISOR, {**query, "rule_set": "du-coeur"}).content.decode()
    assert "deals is more than the advisor works out (1,500,000)" in page
    assert not AdvisorAnswer.objects.exists()
