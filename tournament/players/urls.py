"""The organiser's pages of a tournament's players: the list, importing, checking in,
keeping apart, a player's page with penalties and awards."""

from django.urls import path

from tournament.players.views import player, players

# Under ``manage/`` in the "organiser" namespace (tournament/urls.py).
organiser_urlpatterns = [
    path("<slug:slug>/players/", players.players, name="players"),
    path("<slug:slug>/players/import/", players.players_import, name="players_import"),
    path(
        "<slug:slug>/players/check-in-everyone/",
        players.players_check_in_everyone,
        name="players_check_in_everyone",
    ),
    path("<slug:slug>/players/keep-apart/", players.keep_apart, name="keep_apart"),
    path(
        "<slug:slug>/players/keep-apart/remove/",
        players.keep_apart_remove,
        name="keep_apart_remove",
    ),
    path("<slug:slug>/players/<int:pk>/", player.player_edit, name="player_edit"),
    path(
        "<slug:slug>/players/<int:pk>/adjustments/",
        player.adjustment_add,
        name="adjustment_add",
    ),
    path(
        "<slug:slug>/players/<int:pk>/adjustments/remove/",
        player.adjustment_remove,
        name="adjustment_remove",
    ),
    path(
        "<slug:slug>/players/<int:pk>/check-in/",
        players.player_check_in,
        name="player_check_in",
    ),
    path(
        "<slug:slug>/players/<int:pk>/check-out/",
        players.player_check_out,
        name="player_check_out",
    ),
    path("<slug:slug>/players/<int:pk>/drop/", players.player_drop, name="player_drop"),
    path("<slug:slug>/players/<int:pk>/return/", players.player_return, name="player_return"),
]
