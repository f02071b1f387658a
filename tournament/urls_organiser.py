from django.urls import path

from tournament.views import organiser

app_name = "organiser"

urlpatterns = [
    path("", organiser.home, name="home"),
    path("new/", organiser.create, name="create"),
    path("<slug:slug>/", organiser.dashboard, name="dashboard"),
    path("<slug:slug>/edit/", organiser.edit, name="edit"),
    path("<slug:slug>/tiebreaks/add/", organiser.tiebreak_add, name="tiebreak_add"),
    path("<slug:slug>/tiebreaks/remove/", organiser.tiebreak_remove, name="tiebreak_remove"),
    path("<slug:slug>/tiebreaks/up/", organiser.tiebreak_up, name="tiebreak_up"),
    path("<slug:slug>/tiebreaks/down/", organiser.tiebreak_down, name="tiebreak_down"),
    path("<slug:slug>/scorers/", organiser.scorers, name="scorers"),
    path("<slug:slug>/scorers/unlock/", organiser.scorer_unlock, name="scorer_unlock"),
    path("<slug:slug>/players/", organiser.players, name="players"),
    path("<slug:slug>/players/import/", organiser.players_import, name="players_import"),
    path("<slug:slug>/players/keep-apart/", organiser.keep_apart, name="keep_apart"),
    path(
        "<slug:slug>/players/keep-apart/remove/",
        organiser.keep_apart_remove,
        name="keep_apart_remove",
    ),
    path("<slug:slug>/players/<int:pk>/", organiser.player_edit, name="player_edit"),
    path(
        "<slug:slug>/players/<int:pk>/check-in/",
        organiser.player_check_in,
        name="player_check_in",
    ),
    path(
        "<slug:slug>/players/<int:pk>/check-out/",
        organiser.player_check_out,
        name="player_check_out",
    ),
    path("<slug:slug>/players/<int:pk>/drop/", organiser.player_drop, name="player_drop"),
    path("<slug:slug>/players/<int:pk>/return/", organiser.player_return, name="player_return"),
    path("<slug:slug>/rounds/", organiser.rounds, name="rounds"),
    path("<slug:slug>/rounds/<int:number>/", organiser.round_detail, name="round"),
    path(
        "<slug:slug>/rounds/<int:number>/regenerate/",
        organiser.round_regenerate,
        name="round_regenerate",
    ),
    path("<slug:slug>/rounds/<int:number>/swap/", organiser.round_swap, name="round_swap"),
    path("<slug:slug>/rounds/<int:number>/start/", organiser.round_start, name="round_start"),
    path("<slug:slug>/rounds/<int:number>/release/", organiser.round_release, name="round_release"),
    path(
        "<slug:slug>/rounds/<int:number>/withhold/",
        organiser.round_withhold,
        name="round_withhold",
    ),
    path("<slug:slug>/standings/", organiser.standings, name="standings"),
    path("<slug:slug>/publish/", organiser.publish, name="publish"),
    path("<slug:slug>/unpublish/", organiser.unpublish, name="unpublish"),
    path("<slug:slug>/reveal/", organiser.reveal, name="reveal"),
    path("<slug:slug>/scorers/remove/", organiser.scorer_remove, name="scorer_remove"),
]
