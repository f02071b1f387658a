"""Public pages of the series and the people in them (``views.series_public``): open to
any visitor, showing only what the series' tournaments show publicly."""

from django.urls import path

from tournament.series.views import owners as series_organiser
from tournament.series.views import public as series_public

urlpatterns = [
    path("s/<slug:series>/", series_public.series_page, name="series"),
    path("s/<slug:series>/ratings/", series_public.series_ratings, name="series_ratings"),
    path(
        "s/<slug:series>/standings.csv",
        series_public.series_standings_csv,
        name="series_standings_csv",
    ),
    path(
        "s/<slug:series>/ratings.csv", series_public.series_ratings_csv, name="series_ratings_csv"
    ),
    path("p/<str:identifier>/", series_public.career, name="career"),
    path("c/<slug:club>/", series_public.club, name="club"),
]

# The organiser's pages, under ``manage/`` in the "organiser" namespace (tournament/urls.py).
organiser_urlpatterns = [
    # Before the tournaments' addresses: "series" is no tournament.
    path("series/", series_organiser.series_list, name="series_list"),
    path("series/new/", series_organiser.series_create, name="series_create"),
    path("series/<slug:series>/", series_organiser.series_detail, name="series_detail"),
    path(
        "series/<slug:series>/add/",
        series_organiser.series_tournament_add,
        name="series_tournament_add",
    ),
    path(
        "series/<slug:series>/remove/",
        series_organiser.series_tournament_remove,
        name="series_tournament_remove",
    ),
    # Answered by the organiser of the tournament asked for, not the series' own.
    path(
        "series/<slug:series>/accept/",
        series_organiser.series_request_accept,
        name="series_request_accept",
    ),
    path(
        "series/<slug:series>/decline/",
        series_organiser.series_request_decline,
        name="series_request_decline",
    ),
]
