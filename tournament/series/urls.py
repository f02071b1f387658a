"""Public pages of the series and the people in them (``series.views.public``): open to
any visitor, showing only what the series' tournaments show publicly."""

from django.urls import path

from tournament.series.views import owners, public

urlpatterns = [
    path("s/<slug:series>/", public.series_page, name="series"),
    path("s/<slug:series>/ratings/", public.series_ratings, name="series_ratings"),
    path(
        "s/<slug:series>/standings.csv",
        public.series_standings_csv,
        name="series_standings_csv",
    ),
    path("s/<slug:series>/ratings.csv", public.series_ratings_csv, name="series_ratings_csv"),
    path("p/<str:identifier>/", public.career, name="career"),
    path("c/<slug:club>/", public.club, name="club"),
]

# The organiser's pages, under ``manage/`` in the "organiser" namespace (tournament/urls.py).
organiser_urlpatterns = [
    # Before the tournaments' addresses: "series" is no tournament.
    path("series/", owners.series_list, name="series_list"),
    path("series/new/", owners.series_create, name="series_create"),
    path("series/<slug:series>/", owners.series_detail, name="series_detail"),
    path(
        "series/<slug:series>/add/",
        owners.series_tournament_add,
        name="series_tournament_add",
    ),
    path(
        "series/<slug:series>/remove/",
        owners.series_tournament_remove,
        name="series_tournament_remove",
    ),
    # Answered by the organiser of the tournament asked for, not the series' own.
    path(
        "series/<slug:series>/accept/",
        owners.series_request_accept,
        name="series_request_accept",
    ),
    path(
        "series/<slug:series>/decline/",
        owners.series_request_decline,
        name="series_request_decline",
    ),
]
