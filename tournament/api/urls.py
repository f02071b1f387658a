"""The read API's addresses, under ``/api/v1/`` in the namespace ``api``. The names
``api:tournament``, ``api:standings`` and ``api:round`` (kwargs ``slug``, and ``number``
for a round) are kept for others to ``reverse()``: the webhooks' payloads link to them."""

from django.urls import path

from tournament.api import views

app_name = "api"

urlpatterns = [
    path("openapi.json", views.openapi, name="openapi"),
    path("docs", views.docs, name="docs"),
    path("tournaments", views.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<slug:slug>", views.TournamentDetailView.as_view(), name="tournament"),
    path("tournaments/<slug:slug>/standings", views.StandingsView.as_view(), name="standings"),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>", views.RoundDetailView.as_view(), name="round"
    ),
    path("tournaments/<slug:slug>/players", views.PlayerListView.as_view(), name="players"),
    path(
        "tournaments/<slug:slug>/players/<int:pk>", views.PlayerDetailView.as_view(), name="player"
    ),
    path("series", views.SeriesListView.as_view(), name="series_list"),
    path("series/<slug:series>", views.SeriesDetailView.as_view(), name="series"),
    path(
        "series/<slug:series>/standings",
        views.SeriesStandingsView.as_view(),
        name="series_standings",
    ),
    path("series/<slug:series>/ratings", views.SeriesRatingsView.as_view(), name="series_ratings"),
    path("people/<str:identifier>", views.CareerView.as_view(), name="career"),
]
