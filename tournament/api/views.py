"""The read API's resources: each a GET answered with its serializer (``api.serializers``)
from what ``api.reading`` gathers, described in the OpenAPI schema by the same
serializer; its schema at ``openapi.json``; and the reference page (``docs``).

Each resource view names its cache scope (``api_scope``) and the query parameters it
reads (``api_reads``) for ``api.cache``, which answers it from the cache, with ETag,
304, gzip, CORS and its rate limit.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any, ClassVar

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.api import reading, reading_series
from tournament.api import serializers as shapes
from tournament.api.cache import etag_matches
from tournament.api.pagination import Keyed, page_of
from tournament.api.problems import PROBLEM

JSON = "application/json"


def _documented(ok: Any, *, listed: bool = False, worked_out: bool = False) -> dict[Any, Any]:
    """The answers an operation may give: the resource, 304 for an ETag still current,
    404, 429 past the rate; 400 for a list's bad cursor; 503 while a tournament's
    results are being worked out."""
    problem = shapes.ProblemSerializer
    answers: dict[Any, Any] = {
        (200, JSON): ok,
        (304, JSON): OpenApiResponse(
            description="Not Modified: the ETag sent in If-None-Match is still current."
        ),
        (404, PROBLEM): OpenApiResponse(problem, description="Nothing public at this address."),
        (429, PROBLEM): OpenApiResponse(
            problem, description="Too many requests from this address: see Retry-After."
        ),
    }
    if listed:
        answers[(400, PROBLEM)] = OpenApiResponse(
            problem, description="A cursor this list did not give."
        )
    if worked_out:
        answers[(503, PROBLEM)] = OpenApiResponse(
            problem,
            description="The results are being worked out after a change: see Retry-After.",
        )
    return answers


CURSOR = OpenApiParameter(
    "cursor",
    str,
    OpenApiParameter.QUERY,
    required=False,
    description="Where the page starts: as given in a page's next and previous links.",
)
SLUG = OpenApiParameter(
    "slug",
    str,
    OpenApiParameter.PATH,
    description="The tournament's address, as in /t/SLUG/.",
    pattern=r"^[-a-zA-Z0-9_]+$",
)
SERIES_SLUG = OpenApiParameter(
    "series",
    str,
    OpenApiParameter.PATH,
    description="The series' address, as in /s/SLUG/.",
    pattern=r"^[-a-zA-Z0-9_]+$",
)
NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The round's number.")
PLAYER = OpenApiParameter(
    "pk", int, OpenApiParameter.PATH, description="The player's id, as in /t/SLUG/players/ID/."
)
IDENTIFIER = OpenApiParameter(
    "identifier",
    str,
    OpenApiParameter.PATH,
    description="The person's member number, or person-ID for one without.",
)


class ApiResource(APIView):
    """A GET-only resource of the API, answered from the cache by ``api.cache``."""

    api_scope: ClassVar[str] = "tournament"
    api_reads: ClassVar[tuple[str, ...]] = ()
    http_method_names: ClassVar[list[str]] = ["get", "head", "options"]

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        view = super().as_view(**initkwargs)
        # Django REST framework exempts its views from CSRF, for its own session login,
        # which this API has none of: a POST is refused (403) as on every page of the site.
        view.csrf_exempt = False
        return view

    def options(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # Answered by ``api.cache`` before the view (a browser's preflight); never here.
        return Response(status=204)


def _listed(request: Request, listed: Keyed, shape: Any) -> Response:
    page = page_of(request, listed, request.GET.get("cursor", ""))
    body = shape(
        {"count": page.count, "next": page.next, "previous": page.previous, "results": page.items}
    )
    response = Response(body.data)
    link = page.link_header()
    if link:
        response["Link"] = link
    return response


class TournamentListView(ApiResource):
    api_scope = "installation"
    api_reads = ("cursor",)

    @extend_schema(
        operation_id="tournaments",
        summary="The published tournaments, newest first",
        parameters=[CURSOR],
        responses=_documented(shapes.TournamentListSerializer, listed=True),
    )
    def get(self, request: Request) -> Response:
        return _listed(request, reading.tournaments(request), shapes.TournamentListSerializer)


class TournamentDetailView(ApiResource):
    @extend_schema(
        operation_id="tournament",
        summary="A tournament, its rounds shown publicly and its links",
        parameters=[SLUG],
        responses=_documented(shapes.TournamentSerializer),
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(shapes.TournamentSerializer(reading.tournament(request, slug)).data)


class StandingsView(ApiResource):
    @extend_schema(
        operation_id="standings",
        summary="A tournament's public standings, whole: every column of its standings file",
        parameters=[SLUG],
        responses=_documented(shapes.StandingsSerializer, worked_out=True),
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(shapes.StandingsSerializer(reading.standings(request, slug)).data)


class RoundDetailView(ApiResource):
    @extend_schema(
        operation_id="round",
        summary="A released round's tables and results, or the seating of the round in play",
        parameters=[SLUG, NUMBER],
        responses=_documented(shapes.RoundSerializer, worked_out=True),
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        return Response(shapes.RoundSerializer(reading.round_(request, slug, number)).data)


class PlayerListView(ApiResource):
    api_reads = ("cursor",)

    @extend_schema(
        operation_id="players",
        summary="A tournament's players, by name, with their rank and points",
        parameters=[SLUG, CURSOR],
        responses=_documented(shapes.PlayerListSerializer, listed=True, worked_out=True),
    )
    def get(self, request: Request, slug: str) -> Response:
        return _listed(request, reading.players(request, slug), shapes.PlayerListSerializer)


class PlayerDetailView(ApiResource):
    @extend_schema(
        operation_id="player",
        summary="A player and their part in each released round",
        parameters=[SLUG, PLAYER],
        responses=_documented(shapes.PlayerSerializer, worked_out=True),
    )
    def get(self, request: Request, slug: str, pk: int) -> Response:
        return Response(shapes.PlayerSerializer(reading.player(request, slug, pk)).data)


class SeriesListView(ApiResource):
    api_scope = "installation"
    api_reads = ("cursor",)

    @extend_schema(
        operation_id="series_list",
        summary="The series with a tournament counted, by name",
        parameters=[CURSOR],
        responses=_documented(shapes.SeriesListSerializer, listed=True),
    )
    def get(self, request: Request) -> Response:
        return _listed(
            request, reading_series.public_series_list(request), shapes.SeriesListSerializer
        )


class SeriesDetailView(ApiResource):
    api_scope = "installation"

    @extend_schema(
        operation_id="series",
        summary="A series and the tournaments it counts",
        parameters=[SERIES_SLUG],
        responses=_documented(shapes.SeriesSerializer),
    )
    def get(self, request: Request, series: str) -> Response:
        return Response(shapes.SeriesSerializer(reading_series.series(request, series)).data)


class SeriesStandingsView(ApiResource):
    api_scope = "installation"
    api_reads = ("cursor",)

    @extend_schema(
        operation_id="series_standings",
        summary="A series' standings, in rank order: the rows of its standings file",
        parameters=[SERIES_SLUG, CURSOR],
        responses=_documented(shapes.SeriesStandingsSerializer, listed=True),
    )
    def get(self, request: Request, series: str) -> Response:
        return _listed(
            request,
            reading_series.series_standings(request, series),
            shapes.SeriesStandingsSerializer,
        )


class SeriesRatingsView(ApiResource):
    api_scope = "installation"
    api_reads = ("cursor",)

    @extend_schema(
        operation_id="series_ratings",
        summary="A series' ratings, best first: the rows of its ratings file",
        parameters=[SERIES_SLUG, CURSOR],
        responses=_documented(shapes.SeriesRatingsSerializer, listed=True),
    )
    def get(self, request: Request, series: str) -> Response:
        return _listed(
            request, reading_series.series_ratings(request, series), shapes.SeriesRatingsSerializer
        )


class CareerView(ApiResource):
    api_scope = "installation"

    @extend_schema(
        operation_id="career",
        summary="A person's career: their tournaments and series",
        parameters=[IDENTIFIER],
        responses=_documented(shapes.CareerSerializer),
    )
    def get(self, request: Request, identifier: str) -> Response:
        return Response(shapes.CareerSerializer(reading_series.career(request, identifier)).data)


# The schema and the reference ----------------------------------------------------------

_HEADERS = {
    "ETag": {
        "description": "The answer's version: send it back in If-None-Match for a 304.",
        "schema": {"type": "string"},
        "required": True,
    },
    "Cache-Control": {
        "description": "public, no-cache: keep it, and ask each time (a 304 while unchanged).",
        "schema": {"type": "string"},
        "required": True,
    },
    "Link": {
        "description": 'The next and previous pages: <URL>; rel="next", <URL>; rel="prev".',
        "schema": {"type": "string"},
    },
    "Retry-After": {
        "description": "Seconds to wait before asking again.",
        "schema": {"type": "integer", "minimum": 0},
        "required": True,
    },
}


def document_headers(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular's last step (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``): the
    headers every answer carries, which the serializers cannot say: the ETag and
    Cache-Control of a 200 and a 304, a list's Link, a 429's and a 503's Retry-After."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            answers = operation.get("responses", {})
            listed = any(each.get("name") == "cursor" for each in operation.get("parameters", []))
            for status, answer in answers.items():
                names = {
                    "200": ["ETag", "Cache-Control", *(["Link"] if listed else [])],
                    "304": ["ETag", "Cache-Control"],
                    "429": ["Retry-After"],
                    "503": ["Retry-After"],
                }.get(status, [])
                if names:
                    answer["headers"] = {name: _HEADERS[name] for name in names}
    return result


@cache
def schema_bytes() -> bytes:
    """The OpenAPI schema as JSON, made once per process: it changes with the code only."""
    generator = SchemaGenerator()
    document = generator.get_schema(request=None, public=True)
    return json.dumps(document, ensure_ascii=False).encode()


@require_safe
def openapi(request: HttpRequest) -> HttpResponse:
    """The OpenAPI 3 schema of the API, with an ETag of its content."""
    content = schema_bytes()
    etag = f'"{hashlib.sha256(content).hexdigest()[:32]}"'
    response: HttpResponse
    if etag_matches(request.headers.get("If-None-Match", ""), etag):
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(content, content_type=JSON)
    response["ETag"] = etag
    response["Cache-Control"] = "public, no-cache"
    return response


@require_safe
def docs(request: HttpRequest) -> HttpResponse:
    """The browsable reference: Swagger UI from our own static files (the sidecar's), set
    going by a script of ours, so it works offline and under the CSP."""
    return render(request, "api/docs.html", {"schema_url": reverse("api:openapi")})
