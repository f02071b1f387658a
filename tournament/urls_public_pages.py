"""Public pages of one tournament, included under ``t/<slug:slug>/`` (global URL names)."""

from django.urls import path

from tournament.views import public_pages

urlpatterns = [
    path("players/<int:pk>/", public_pages.player, name="player"),
    path("rounds/<int:number>/", public_pages.public_round, name="public_round"),
    path("final/", public_pages.final, name="final"),
    path("seat/", public_pages.find_seat, name="find_seat"),
]
