from django.urls import path

from tournament.accounts.views import scorers
from tournament.people import player_views as player_people
from tournament.players import player_views as player_page
from tournament.players import views as players
from tournament.rounds import clock_views as clock
from tournament.rounds import views as rounds
from tournament.series import owner_views as series_organiser
from tournament.views import organiser

app_name = "organiser"

urlpatterns = [
    path("", organiser.home, name="home"),
    path("new/", organiser.create, name="create"),
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
    path("<slug:slug>/", organiser.dashboard, name="dashboard"),
    path("<slug:slug>/edit/", organiser.edit, name="edit"),
    path("<slug:slug>/tiebreaks/add/", organiser.tiebreak_add, name="tiebreak_add"),
    path("<slug:slug>/tiebreaks/remove/", organiser.tiebreak_remove, name="tiebreak_remove"),
    path("<slug:slug>/tiebreaks/up/", organiser.tiebreak_up, name="tiebreak_up"),
    path("<slug:slug>/tiebreaks/down/", organiser.tiebreak_down, name="tiebreak_down"),
    path("<slug:slug>/scorers/", scorers.scorers, name="scorers"),
    path("<slug:slug>/scorers/unlock/", scorers.scorer_unlock, name="scorer_unlock"),
    path("<slug:slug>/scorers/invite/", scorers.scorer_invite, name="scorer_invite"),
    path(
        "<slug:slug>/scorers/invitations/withdraw/",
        scorers.invitation_withdraw,
        name="invitation_withdraw",
    ),
    path(
        "<slug:slug>/scorers/invitations/new-link/",
        scorers.invitation_renew,
        name="invitation_renew",
    ),
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
    path("<slug:slug>/players/people/", player_people.players_people, name="players_people"),
    path(
        "<slug:slug>/players/people/auto/",
        player_people.players_people_auto,
        name="players_people_auto",
    ),
    path(
        "<slug:slug>/players/<int:pk>/person/",
        player_people.player_person,
        name="player_person",
    ),
    path(
        "<slug:slug>/players/<int:pk>/new-person/",
        player_people.player_new_person,
        name="player_new_person",
    ),
    path(
        "<slug:slug>/players/<int:pk>/unlink/",
        player_people.player_unlink,
        name="player_unlink",
    ),
    path("<slug:slug>/players/<int:pk>/", player_page.player_edit, name="player_edit"),
    path(
        "<slug:slug>/players/<int:pk>/adjustments/",
        player_page.adjustment_add,
        name="adjustment_add",
    ),
    path(
        "<slug:slug>/players/<int:pk>/adjustments/remove/",
        player_page.adjustment_remove,
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
    path("<slug:slug>/rounds/", rounds.rounds, name="rounds"),
    path("<slug:slug>/rounds/<int:number>/", rounds.round_detail, name="round"),
    path(
        "<slug:slug>/rounds/<int:number>/regenerate/",
        rounds.round_regenerate,
        name="round_regenerate",
    ),
    path("<slug:slug>/rounds/<int:number>/swap/", rounds.round_swap, name="round_swap"),
    path("<slug:slug>/rounds/<int:number>/start/", rounds.round_start, name="round_start"),
    path("<slug:slug>/rounds/<int:number>/release/", rounds.round_release, name="round_release"),
    path(
        "<slug:slug>/rounds/<int:number>/withhold/",
        rounds.round_withhold,
        name="round_withhold",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/new-codes/",
        rounds.round_new_codes,
        name="round_new_codes",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table>/new-code/",
        rounds.table_new_code,
        name="table_new_code",
    ),
    path("<slug:slug>/rounds/<int:number>/clock/start/", clock.clock_start, name="clock_start"),
    path("<slug:slug>/rounds/<int:number>/clock/pause/", clock.clock_pause, name="clock_pause"),
    path("<slug:slug>/rounds/<int:number>/clock/resume/", clock.clock_resume, name="clock_resume"),
    path("<slug:slug>/rounds/<int:number>/clock/add/", clock.clock_add, name="clock_add"),
    path("<slug:slug>/rounds/<int:number>/clock/reset/", clock.clock_reset, name="clock_reset"),
    path("<slug:slug>/standings/", organiser.standings, name="standings"),
    path("<slug:slug>/publish/", organiser.publish, name="publish"),
    path("<slug:slug>/unpublish/", organiser.unpublish, name="unpublish"),
    path("<slug:slug>/finish/", organiser.finish, name="finish"),
    path("<slug:slug>/unfinish/", organiser.unfinish, name="unfinish"),
    path("<slug:slug>/reveal/", organiser.reveal, name="reveal"),
    path("<slug:slug>/scorers/remove/", scorers.scorer_remove, name="scorer_remove"),
]
