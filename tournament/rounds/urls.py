"""The organiser's pages of a tournament's rounds: seating, swapping, starting,
releasing, table codes and the round's clock."""

from django.urls import path

from tournament.rounds.views import clock, rounds

# Under ``manage/`` in the "organiser" namespace (tournament/urls.py).
organiser_urlpatterns = [
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
]
