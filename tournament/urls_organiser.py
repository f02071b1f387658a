from django.urls import path

from tournament.views import organiser

app_name = "organiser"

urlpatterns = [
    path("", organiser.home, name="home"),
    path("new/", organiser.create, name="create"),
    path("<slug:slug>/", organiser.dashboard, name="dashboard"),
    path("<slug:slug>/edit/", organiser.edit, name="edit"),
    path("<slug:slug>/tiebreaks/", organiser.tiebreaks, name="tiebreaks"),
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
    path("<slug:slug>/players/<int:pk>/status/", organiser.player_status, name="player_status"),
    path("<slug:slug>/rounds/", organiser.rounds, name="rounds"),
    path("<slug:slug>/rounds/<int:number>/", organiser.round_detail, name="round"),
    path("<slug:slug>/rounds/<int:number>/action/", organiser.round_action, name="round_action"),
    path("<slug:slug>/standings/", organiser.standings, name="standings"),
    path("<slug:slug>/publishing/", organiser.publishing, name="publishing"),
    path("<slug:slug>/scorers/remove/", organiser.scorer_remove, name="scorer_remove"),
]
