"""The read API's addresses, under ``/api/v1/`` in the namespace ``api``. The names
``api:tournament``, ``api:standings`` and ``api:round`` (kwargs ``slug``, and ``number``
for a round) are kept for others to ``reverse()``: the webhooks' payloads link to them."""

from django.urls import path

from tournament.api import views

app_name = "api"

urlpatterns = [
    path("openapi.json", views.openapi, name="openapi"),
    path("docs", views.docs, name="docs"),
    path("tournaments", views.TournamentList.as_view(), name="tournaments"),
    path("tournaments/<slug:slug>", views.TournamentDetail.as_view(), name="tournament"),
    path("tournaments/<slug:slug>/standings", views.Standings.as_view(), name="standings"),
    path("tournaments/<slug:slug>/rounds/<int:number>", views.RoundDetail.as_view(), name="round"),
    path("tournaments/<slug:slug>/players", views.PlayerList.as_view(), name="players"),
    path("tournaments/<slug:slug>/players/<int:pk>", views.PlayerDetail.as_view(), name="player"),
    path("series", views.SeriesList.as_view(), name="series_list"),
    path("series/<slug:series>", views.SeriesDetail.as_view(), name="series"),
    path(
        "series/<slug:series>/standings", views.SeriesStandings.as_view(), name="series_standings"
    ),
    path("series/<slug:series>/ratings", views.SeriesRatings.as_view(), name="series_ratings"),
    path("people/<str:identifier>", views.Career.as_view(), name="career"),
]
