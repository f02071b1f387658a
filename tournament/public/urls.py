"""The public pages: the site's home page, and each published tournament's pages under
``t/<slug>/`` (global URL names: they are the addresses players share)."""

from django.urls import path

from tournament.public import pwa
from tournament.public.views import embed, pages, standings

urlpatterns = [
    path("", standings.home, name="home"),
    # Installing the public pages as an app, and their offline copy (public/pwa.py).
    path("manifest.webmanifest", pwa.web_manifest, name="web_manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("t/<slug:slug>/", standings.standings, name="standings"),
    path("t/<slug:slug>/projector/", standings.projector, name="projector"),
    # A guild's own site frames the widget; streaming software shows the overlay
    # (public/embed.py).
    path("t/<slug:slug>/embed/", embed.embed, name="embed"),
    path("t/<slug:slug>/overlay/", embed.overlay, name="overlay"),
    path("t/<slug:slug>/standings.csv", standings.standings_csv, name="standings_csv"),
    path("t/<slug:slug>/tournament.json", standings.tournament_json, name="tournament_json"),
    path("t/<slug:slug>/players/<int:pk>/", pages.player, name="player"),
    path("t/<slug:slug>/players/<int:pk>/card/", pages.player_card, name="player_card"),
    path("t/<slug:slug>/rounds/<int:number>/", pages.public_round, name="public_round"),
    path("t/<slug:slug>/final/", pages.final, name="final"),
    path("t/<slug:slug>/seat/", pages.find_seat, name="find_seat"),
]
