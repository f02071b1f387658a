"""One set of rules for the web and the tournament file: whatever the forms accept exports
to a file that imports again, and a slug never takes the place of one of the app's own
addresses. The limits live in ``tournament.kernel.limits``; the forms and the file's JSON Schema
are both built from them."""

import io
import json
import string
import tempfile
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import resolve, reverse
from hypothesis import HealthCheck, event, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tournament.kernel import limits
from tournament.models import Player, Round, Tournament
from tournament.players.forms import PlayerForm
from tournament.tournament_file import checking, file_format, writing
from tournament.tournament_file.loading import import_tournament
from tournament.tournament_file.problems import TournamentFileError
from tournament.tournament_file.schema import build_schema
from tournament.tournaments.forms import TournamentForm

SETTINGS = {
    "name": "Club Night",
    "slug": "club-night",
    "scoring": "winner-advantage",
    "rule_set": "standard",
    "rotations_per_round": 1,
    "planned_rounds": 4,
    "table_policy": "mixed",
    "table_sizes": ["4", "5", "6"],
    "bye_score": "zero",
    "keep_clubs_apart_rounds": 0,
    "hold_back_rounds": 0,
    "two_person_check": "on",
}


def test_the_committed_schema_is_the_one_the_limits_build():
    committed = Path(settings.BASE_DIR, "docs", "tournament-file.schema.json")
    assert committed.read_text(encoding="utf-8") == file_format.dumps(build_schema()), (
        "regenerate it: manage.py export_tournament --schema > docs/tournament-file.schema.json"
    )


def test_the_export_command_prints_the_schema():
    out = io.StringIO()
    call_command("export_tournament", "--schema", stdout=out)
    assert json.loads(out.getvalue()) == build_schema()


def test_every_number_the_forms_limit_has_the_same_range_in_the_file():
    properties = build_schema()["properties"]
    for name, allowed in TournamentForm.RANGES.items():
        field = TournamentForm().fields[name]
        assert (field.min_value, field.max_value) == (allowed.low, allowed.high)
        assert field.widget.attrs["min"] == allowed.low
        assert field.widget.attrs["max"] == allowed.high
        assert (properties[name]["minimum"], properties[name]["maximum"]) == (
            allowed.low,
            allowed.high,
        ), name
    fixed = PlayerForm().fields["fixed_table"]
    in_file = properties["players"]["items"]["properties"]["fixed_table"]
    assert (fixed.min_value, fixed.max_value) == (in_file["minimum"], in_file["maximum"])
    assert properties["slug"]["pattern"] == limits.SLUG_PATTERN


@pytest.mark.parametrize(
    ("change", "field", "error"),
    [
        ({"slug": "Under_Score"}, "slug", "Lower-case letters, digits and single hyphens"),
        ({"slug": "double--hyphen"}, "slug", "Lower-case letters, digits and single hyphens"),
        ({"keep_clubs_apart_rounds": 500}, "keep_clubs_apart_rounds", "Between 0 and 50 rounds."),
        ({"hold_back_rounds": 500}, "hold_back_rounds", "Between 0 and 50 rounds."),
        ({"planned_rounds": 51}, "planned_rounds", "Between 1 and 50 rounds."),
        ({"slug": "new"}, "slug", "“new” is the name of one of the app's own pages"),
        (
            {"slug": "", "name": "New"},
            "slug",
            "The address made from the name, “new”, is the name of one of the app's own pages",
        ),
    ],
)
def test_the_new_tournament_form_refuses_what_a_file_could_not_hold(
    organiser_client, change, field, error
):
    response = organiser_client.post(reverse("organiser:create"), {**SETTINGS, **change})
    assert response.status_code == 200
    assert error in " ".join(response.context["form"].errors[field])
    assert not Tournament.objects.exists()


def test_a_slug_is_made_from_a_name_with_underscores_as_the_file_makes_it(organiser_client):
    response = organiser_client.post(
        reverse("organiser:create"), {**SETTINGS, "slug": "", "name": "Under_Score Open"}
    )
    assert response.status_code == 302
    assert Tournament.objects.get().slug == "under-score-open"
    assert checking.slug_for({"name": "Under_Score Open"}) == "under-score-open"


@pytest.fixture
def club_night(organiser):
    return Tournament.objects.create(name="Club Night", slug="club-night", owner=organiser)


@pytest.mark.parametrize("table", [0, 1001, 32767, -1])
def test_a_fixed_table_outside_the_files_range_is_refused(organiser_client, club_night, table):
    url = reverse("organiser:players", args=[club_night.slug])
    response = organiser_client.post(url, {"name": "Ann", "club": "", "fixed_table": table})
    assert response.status_code == 200
    assert "A table number from 1 to 1000, or empty." in response.content.decode()
    assert not Player.objects.exists()


def test_a_fixed_table_inside_the_range_is_kept(organiser_client, club_night):
    url = reverse("organiser:players", args=[club_night.slug])
    response = organiser_client.post(url, {"name": "Ann", "club": "", "fixed_table": 1000})
    assert response.status_code == 302
    assert Player.objects.get().fixed_table == 1000


# Slugs and the app's own addresses ---------------------------------------------------------


def test_the_reserved_slugs_come_from_the_url_configuration():
    assert "new" in limits.reserved_slugs()
    for word in limits.reserved_slugs():
        # Each one is an address of its own where a tournament's address would be.
        assert resolve(f"/manage/{word}/").url_name != "dashboard"
    assert resolve("/manage/club-night/").url_name == "dashboard"


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"slug": "new"}, "slug: “new” is the name of one of the app's own pages"),
        (
            {"name": "New"},
            "name: the slug made from this name, “new”, is the name of one of the app's own "
            "pages; give a “slug”",
        ),
    ],
)
def test_a_file_whose_slug_is_an_address_of_the_app_is_refused(db, change, problem):
    data = {"format": "lld-tournament/2", "name": "Club Night", "players": [], "rounds": []}
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data | change)
    assert caught.value.problems == [problem]
    assert not Tournament.objects.exists()


# Whatever the web accepts, the file holds ---------------------------------------------------

slug_text = st.text(alphabet=string.ascii_letters + string.digits + "-_", min_size=0, max_size=12)


def numbers(low, high):
    """Mostly numbers a form takes, often numbers just outside, sometimes any at all."""
    within = st.integers(low, high)
    return st.one_of(within, within, st.integers(low - 2, high + 2), st.integers(-5, 40000))


@hypothesis_settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    name=st.one_of(
        st.text(string.ascii_letters + " _-!é", min_size=1, max_size=30),
        st.text(min_size=1, max_size=30).filter(lambda s: "\x00" not in s),
    ),
    slug=st.one_of(
        st.from_regex(r"[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,2}", fullmatch=True),
        st.just(""),
        slug_text,
        st.sampled_from(["new", "Under_Score", "club-night"]),
    ),
    rotations=numbers(1, 10),
    planned=numbers(1, 50),
    keep_clubs_apart=numbers(0, 50),
    hold_back=numbers(0, 50),
    fixed_tables=st.lists(st.one_of(st.none(), numbers(1, 3)), min_size=3, max_size=12),
    seat=st.booleans(),
)
def test_whatever_the_web_accepts_exports_to_a_file_that_imports_and_backs_up(
    organiser_client,
    name,
    slug,
    rotations,
    planned,
    keep_clubs_apart,
    hold_back,
    fixed_tables,
    seat,
):
    Round.objects.all().delete()
    Tournament.objects.all().delete()
    form = {
        **SETTINGS,
        "name": name,
        "slug": slug,
        "rotations_per_round": rotations,
        "planned_rounds": planned,
        "keep_clubs_apart_rounds": keep_clubs_apart,
        "hold_back_rounds": hold_back,
    }
    response = organiser_client.post(reverse("organiser:create"), form)
    assert response.status_code in (200, 302)
    tournament = Tournament.objects.first()
    if tournament is None:
        event("refused")
        return
    event("accepted")
    players_url = reverse("organiser:players", args=[tournament.slug])
    for number, table in enumerate(fixed_tables, start=1):
        post = {"name": f"Player {number}", "club": f"Club {number % 3}"}
        if table is not None:
            post["fixed_table"] = table
        assert organiser_client.post(players_url, post).status_code in (200, 302)
    if seat:
        rounds_url = reverse("organiser:rounds", args=[tournament.slug])
        response = organiser_client.post(rounds_url, {"method": "random", "seed": 1})
        assert response.status_code in (200, 302)

    data = writing.export_tournament(tournament)
    assert checking.check(data) == []
    import_tournament(json.loads(file_format.dumps(data)), replace=True)
    assert writing.export_tournament(Tournament.objects.get()) == data
    with tempfile.TemporaryDirectory() as folder:
        call_command("backup", "--dir", folder, "--verbosity", "0")


def test_seating_names_the_player_whose_fixed_table_does_not_exist(organiser_client, club_night):
    players_url = reverse("organiser:players", args=[club_night.slug])
    for number in range(1, 7):
        post = {"name": f"Player {number}", "club": ""}
        organiser_client.post(players_url, post | ({"fixed_table": 40} if number == 3 else {}))
    ann, bob = Player.objects.filter(name__in=["Player 1", "Player 2"]).order_by("name")
    ann.fixed_table = bob.fixed_table = 1
    ann.save()
    bob.save()
    rounds_url = reverse("organiser:rounds", args=[club_night.slug])
    response = organiser_client.post(rounds_url, {"method": "random", "seed": 1}, follow=True)
    page = response.content.decode()
    assert "Player 3 is fixed to table 40, but there are only 1 tables." in page
    assert not Round.objects.exists()

    Player.objects.filter(name="Player 3").update(fixed_table=None)
    organiser_client.post(
        reverse("organiser:keep_apart", args=[club_night.slug]),
        {"first": ann.pk, "second": bob.pk},
    )
    response = organiser_client.post(rounds_url, {"method": "random", "seed": 1}, follow=True)
    assert (
        "Player 1 and Player 2 must be kept apart but are both fixed to table 1."
        in response.content.decode()
    )
