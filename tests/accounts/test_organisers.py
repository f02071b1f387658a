"""Who may organise (``permissions.may_organise``, ``settings.ORGANISERS``, docs/deploy.md
"Who may organise"): create tournaments and series, and keep the register of people.

Five accounts under both settings: an outsider with an account and nothing else, a
scorer of someone's tournament, the organiser who owns that tournament (never granted
"may organise"), an account granted it (the Organisers group) that owns nothing yet, and
a superuser.
"""

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.contrib.auth.models import Group
from django.urls import reverse

from tests.factories import TournamentFactory
from tournament.accounts import services as accounts
from tournament.models import Person, Series, Tournament
from tournament.people import services as people

TOURNAMENT = {
    "name": "Crown Open",
    "slug": "",
    "scoring": "winner-advantage",
    "rotations_per_round": 1,
    "planned_rounds": 4,
    "table_policy": "mixed",
    "table_sizes": ["4", "5", "6"],
    "bye_score": "zero",
    "keep_clubs_apart_rounds": 0,
    "two_person_check": "on",
}
SERIES = {"name": "All time", "slug": "all-time", "scheme": "field-share", "min_events": "1"}

# (may create tournaments and series, may keep the register), by setting and account.
MAY = {
    "anyone": {
        "outsider": (True, False),
        "scorer": (True, False),
        "organiser": (True, True),
        "granted": (True, True),
        "superuser": (True, True),
    },
    "granted": {
        "outsider": (False, False),
        "scorer": (False, False),
        "organiser": (False, False),
        "granted": (True, True),
        "superuser": (True, True),
    },
}
CASES = [
    pytest.param(setting, role, *may, id=f"{setting}-{role}")
    for setting, roles in MAY.items()
    for role, may in roles.items()
]


@pytest.fixture
def users(organiser, scorer, outsider, django_user_model):
    TournamentFactory(name="Club Night", owner=organiser, scorers=[scorer])
    granted = django_user_model.objects.create_user("grace", password="pw")
    accounts.grant_organising(granted)
    superuser = django_user_model.objects.create_superuser("root", password="pw")
    return {
        "outsider": outsider,
        "scorer": scorer,
        "organiser": organiser,
        "granted": granted,
        "superuser": superuser,
    }


def _allowed(response, allowed, done=200):
    return response.status_code == (done if allowed else 403)


@pytest.mark.parametrize(("setting", "role", "creates", "keeps"), CASES)
def test_who_may_keep_the_register_and_rename_a_person(
    settings, client, users, setting, role, creates, keeps
):
    settings.ORGANISERS = setting
    client.force_login(users[role])
    ann = people.add_person("Ann Lee")
    assert _allowed(client.get(reverse("people:list")), keeps)
    assert _allowed(client.get(reverse("people:edit", args=[ann.pk])), keeps)
    response = client.post(
        reverse("people:edit", args=[ann.pk]), {"name": "Renamed", "club": "", "member": ""}
    )
    assert _allowed(response, keeps, done=302)
    assert Person.objects.get(pk=ann.pk).name == ("Renamed" if keeps else "Ann Lee")


@pytest.mark.parametrize(("setting", "role", "creates", "keeps"), CASES)
def test_who_may_create_a_tournament_and_a_series(
    settings, client, users, setting, role, creates, keeps
):
    settings.ORGANISERS = setting
    client.force_login(users[role])
    assert _allowed(client.get(reverse("organiser:create")), creates)
    assert _allowed(client.post(reverse("organiser:create"), TOURNAMENT), creates, done=302)
    assert Tournament.objects.filter(slug="crown-open", owner=users[role]).exists() == creates
    assert _allowed(client.get(reverse("organiser:series_create")), creates)
    response = client.post(reverse("organiser:series_create"), SERIES)
    assert _allowed(response, creates, done=302)
    assert Series.objects.filter(slug="all-time", owner=users[role]).exists() == creates


@pytest.mark.parametrize(("setting", "role", "creates", "keeps"), CASES)
def test_the_home_pages_offer_only_what_the_account_may_do(
    settings, client, users, setting, role, creates, keeps
):
    settings.ORGANISERS = setting
    client.force_login(users[role])
    home = client.get(reverse("organiser:home")).content.decode()
    assert (f'href="{reverse("organiser:create")}"' in home) == creates
    assert (f'href="{reverse("people:list")}"' in home) == keeps
    series = client.get(reverse("organiser:series_list")).content.decode()
    assert (f'href="{reverse("organiser:series_create")}"' in series) == creates


def test_a_scorer_cannot_make_themselves_an_organiser_where_it_is_granted(
    settings, scorer_client, scorer
):
    """The review's attack: refused the register, create a throwaway tournament, then
    rename anyone."""
    settings.ORGANISERS = "granted"
    ann = people.add_person("Ann Lee")
    response = scorer_client.post(reverse("organiser:create"), TOURNAMENT)
    assert response.status_code == 403
    page = response.content.decode()
    assert "Only organisers may create tournaments and series here" in page
    assert "ask the administrator to add your account to the Organisers group" in page
    assert not Tournament.objects.filter(owner=scorer).exists()
    response = scorer_client.post(
        reverse("people:edit", args=[ann.pk]), {"name": "Renamed", "club": "", "member": ""}
    )
    assert response.status_code == 403
    assert "Only organisers may keep the register of people:" in response.content.decode()
    assert Person.objects.get(pk=ann.pk).name == "Ann Lee"


def test_where_anyone_may_organise_a_new_tournament_opens_the_register(settings, outsider_client):
    """The laptop's trade: every account is its owner's to make, and may organise."""
    settings.ORGANISERS = "anyone"
    assert outsider_client.get(reverse("people:list")).status_code == 403
    assert outsider_client.post(reverse("organiser:create"), TOURNAMENT).status_code == 302
    assert outsider_client.get(reverse("people:list")).status_code == 200


def test_the_migration_makes_the_organisers_group_of_those_who_organised(
    organiser, outsider, scorer, django_user_model
):
    TournamentFactory(owner=organiser, scorers=[scorer])
    Series.objects.create(name="League", slug="league", owner=outsider)
    migration = importlib.import_module("tournament.migrations.0012_may_organise")
    migration.add_organisers(apps, None)
    group = Group.objects.get(name="Organisers")
    assert [p.codename for p in group.permissions.all()] == ["organise"]
    assert set(group.user_set.values_list("username", flat=True)) == {"olive", "oscar"}
    fresh = django_user_model.objects.get(pk=organiser.pk)
    assert fresh.has_perm("tournament.organise")
    assert not django_user_model.objects.get(pk=scorer.pk).has_perm("tournament.organise")


def test_an_organiser_may_not_unlock_an_account_granted_organising(organiser, django_user_model):
    tournament = TournamentFactory(owner=organiser)
    granted = django_user_model.objects.create_user("grace", password="pw")
    tournament.scorers.add(granted)
    assert accounts.organiser_may_unlock(tournament, granted)
    accounts.grant_organising(granted)
    granted = django_user_model.objects.get(pk=granted.pk)
    assert not accounts.organiser_may_unlock(tournament, granted)


# The setting's default -----------------------------------------------------------------------


PRODUCTION = {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "x" * 60}
ENVIRONMENTS = {
    "development": {},
    "laptop-at-the-pub": {**PRODUCTION, "DJANGO_PLAIN_HTTP": "1"},
    "server-over-https": PRODUCTION,
    "server-choosing": {**PRODUCTION, "ORGANISERS": "Anyone"},
    "development-choosing": {"ORGANISERS": "granted"},
    "misspelt": {"ORGANISERS": "granted-only"},
}
# Reads the settings afresh under each environment, in one process started without any of
# the settings' own variables of the tests' process: what each printed (the setting, or
# the error that stopped the settings), by environment.
READ_EACH = """
import json, os, runpy, sys
base = dict(os.environ)
found = {}
for name, environment in json.loads(sys.argv[1]).items():
    os.environ.clear()
    os.environ.update({**base, **environment})
    try:
        found[name] = {"organisers": runpy.run_module("config.settings")["ORGANISERS"]}
    except BaseException as stopped:
        found[name] = {"error": f"{type(stopped).__name__}: {stopped}"}
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def organisers_settings():
    """``settings.ORGANISERS`` under each of ``ENVIRONMENTS``, read in one fresh process
    (none of the settings' own variables from this one)."""
    ours = ("DJANGO_", "ORGANISERS")
    env = {key: value for key, value in os.environ.items() if not key.startswith(ours)}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    result = subprocess.run(
        [sys.executable, "-c", READ_EACH, json.dumps(ENVIRONMENTS)],
        cwd=Path(django_settings.BASE_DIR),
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ("development", "anyone"),
        ("laptop-at-the-pub", "anyone"),
        ("server-over-https", "granted"),
        ("server-choosing", "anyone"),
        ("development-choosing", "granted"),
    ],
)
def test_who_may_organise_by_default(organisers_settings, environment, expected):
    assert organisers_settings[environment] == {"organisers": expected}


def test_a_misspelt_setting_stops_the_server_naming_it(organisers_settings):
    error = organisers_settings["misspelt"]["error"]
    assert "ORGANISERS='granted-only' is not one of anyone, granted." in error
