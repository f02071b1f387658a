"""The organiser's Standings page, under ``manage/`` in the "organiser" namespace
(tournament/urls.py)."""

from django.urls import path

from tournament.standings import views

organiser_urlpatterns = [
    path("<slug:slug>/standings/", views.standings, name="standings"),
]
