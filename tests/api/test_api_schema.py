"""The read API against its own OpenAPI schema, and its standings against the standings
file, over the demo (its season of three evenings and its series, and the evening of
tables of eight), built once for the module and committed.

- schemathesis fuzzes every operation of /api/v1/openapi.json, with the demo's slugs,
  series and people in the paths: never a 500, and every answer of a status the schema
  documents, of its content type, valid against its schema;
- every operation is asked once more with what names something real (a released round,
  a player, a person), so that each 200 is checked against the schema too;
- each demo tournament's standings from the API are the file that
  ``manage.py standings SLUG --public --format json`` writes, row for row, plus the
  API's own fields (the player's id and address, and the chances).
"""

from __future__ import annotations

import io
import json

import pytest
import schemathesis
from django.core import signals
from django.core.cache import cache
from django.core.management import call_command
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tournament.api.views import schema_bytes
from tournament.demo import DEMO_SERIES_SLUG, DEMO_SLUG
from tournament.models import Person, Player, Round, Tournament

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
# The WSGI transport hands over the bytes as sent: ask for them uncompressed.
PLAIN = {"Accept-Encoding": "identity"}
# The API's own fields of a standings row, beside the file's.
API_ROW_FIELDS = {"id", "url", "chances"}


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo, loaded and committed once for the module, its views worked out; the
    database flushed after."""
    with django_db_blocker.unblock():
        call_command("load_demo", "--no-users", stdout=io.StringIO())
        slugs = list(Tournament.objects.order_by("pk").values_list("slug", flat=True))
    yield slugs
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)
    cache.clear()


@pytest.fixture
def api(demo, db):
    cache.clear()
    yield demo
    cache.clear()


def _real_values() -> dict[str, str]:
    player = Player.objects.filter(tournament__slug=DEMO_SLUG).order_by("pk").first()
    person = Person.objects.filter(players__tournament__slug=DEMO_SLUG).order_by("pk").first()
    assert player is not None
    assert person is not None
    return {
        "slug": DEMO_SLUG,
        "series": DEMO_SERIES_SLUG,
        "number": "1",
        "pk": str(player.pk),
        "identifier": person.identifier,
    }


def _site_on_the_test_connection():
    """The site as a WSGI application that keeps the test's database connection: as
    Django's test client does, a request here does not close old connections when it
    starts and finishes (on PostgreSQL that would close the connection holding the
    test's transaction)."""
    site = get_wsgi_application()

    def app(environ, start_response):
        signals.request_started.disconnect(close_old_connections)
        signals.request_finished.disconnect(close_old_connections)
        try:
            answer = site(environ, start_response)
            try:
                body = b"".join(answer)
            finally:
                answer.close()
        finally:
            signals.request_started.connect(close_old_connections)
            signals.request_finished.connect(close_old_connections)
        return [body]

    return app


schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", _site_on_the_test_connection())

# Half the slugs drawn name the demo's tournament (or series): the other half exercise the
# 404s. Drawn numbers and ids mostly name nothing: the explicit test below asks the real ones.
_REAL: dict[str, str] = {}


@schema.hook
def map_path_parameters(context, path_parameters):
    if not _REAL or path_parameters is None:
        return path_parameters
    for name in ("slug", "series", "identifier"):
        value = path_parameters.get(name)
        if isinstance(value, str) and len(value) % 2 == 0:
            path_parameters[name] = _REAL[name]
    return path_parameters


@schema.parametrize()
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_every_operation_answers_as_its_schema_says(case, api):
    _REAL.update(_real_values())
    case.call_and_validate(checks=CHECKS, headers=PLAIN)


def test_the_schema_lists_every_operation_with_the_webhooks_names(api):
    document = json.loads(schema_bytes())
    paths = document["paths"]
    assert document["openapi"].startswith("3.")
    assert "/api/v1/tournaments/{slug}/standings" in paths
    assert "/api/v1/tournaments/{slug}/rounds/{number}" in paths
    assert len(paths) == 11
    for operations in paths.values():
        assert set(operations) == {"get"}
        answers = operations["get"]["responses"]
        assert {"200", "304", "404", "429"} <= set(answers)
        assert "application/problem+json" in answers["404"]["content"]
        assert {"ETag", "Cache-Control"} <= set(answers["200"]["headers"])
        assert answers["429"]["headers"]["Retry-After"]["required"]


@pytest.mark.parametrize(
    ("path", "parameters"),
    [
        ("/api/v1/tournaments", {}),
        ("/api/v1/tournaments/{slug}", {"slug"}),
        ("/api/v1/tournaments/{slug}/standings", {"slug"}),
        ("/api/v1/tournaments/{slug}/rounds/{number}", {"slug", "number"}),
        ("/api/v1/tournaments/{slug}/players", {"slug"}),
        ("/api/v1/tournaments/{slug}/players/{pk}", {"slug", "pk"}),
        ("/api/v1/series", {}),
        ("/api/v1/series/{series}", {"series"}),
        ("/api/v1/series/{series}/standings", {"series"}),
        ("/api/v1/series/{series}/ratings", {"series"}),
        ("/api/v1/people/{identifier}", {"identifier"}),
    ],
)
def test_what_names_something_real_is_answered_as_the_schema_says(api, path, parameters):
    real = _real_values()
    case = schema[path]["GET"].Case(path_parameters={name: real[name] for name in parameters})
    response = case.call_and_validate(checks=CHECKS, headers=PLAIN)
    assert response.status_code == 200, response.text[:300]


def test_a_seated_round_is_answered_as_the_schema_says(api):
    """The demo evening's next round, seated and started: its seating, no results."""
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    assert last is not None
    assert last.released
    call_command("seat_round", DEMO_SLUG, "--start", "--seed", "1", stdout=io.StringIO())
    seated = Round.objects.get(tournament=tournament, number=last.number + 1)
    case = schema["/api/v1/tournaments/{slug}/rounds/{number}"]["GET"].Case(
        path_parameters={"slug": DEMO_SLUG, "number": str(seated.number)}
    )
    response = case.call_and_validate(checks=CHECKS, headers=PLAIN)
    body = response.json()
    assert body["state"] == "seating"
    assert body["tables"]
    assert all(table["result"] is None for table in body["tables"])


def _file(slug: str) -> dict:
    out = io.StringIO()
    call_command("standings", slug, "--public", "--format", "json", stdout=out)
    return json.loads(out.getvalue())


def test_the_standings_are_the_standings_file_of_each_demo_tournament(api, client):
    assert len(api) == 4
    for slug in api:
        file = _file(slug)
        answer = client.get(f"/api/v1/tournaments/{slug}/standings").json()
        file_columns = set(file["rows"][0])
        as_file = {key: answer[key] for key in file if key != "rows"}
        as_file["rows"] = [{key: row[key] for key in file_columns} for row in answer["rows"]]
        assert as_file == file
        assert set(answer["rows"][0]) - set(file["rows"][0]) == API_ROW_FIELDS
        # The API's id of a row is the player whose reference is the file's player_id.
        refs = dict(Player.objects.filter(tournament__slug=slug).values_list("pk", "ref"))
        assert [refs[row["id"]] for row in answer["rows"]] == [
            row["player_id"] for row in file["rows"]
        ]
        assert answer["rows"][0]["url"].endswith(
            f"/api/v1/tournaments/{slug}/players/{answer['rows'][0]['id']}"
        )
