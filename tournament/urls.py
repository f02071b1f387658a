from django.urls import include, path

from tournament.views import public

urlpatterns = [
    path("", public.home, name="home"),
    path("t/<slug:slug>/", public.standings, name="standings"),
    path("t/<slug:slug>/projector/", public.projector, name="projector"),
    path("t/<slug:slug>/standings.csv", public.standings_csv, name="standings_csv"),
    path("t/<slug:slug>/tournament.json", public.tournament_json, name="tournament_json"),
    path("t/<slug:slug>/", include("tournament.urls_public_pages")),
    path("manage/people/", include("tournament.people.urls")),
    path("", include("tournament.series.urls")),
    path("manage/", include("tournament.urls_organiser")),
    path("score/", include("tournament.sheets.urls")),
    path("print/", include("tournament.printing.urls")),
    path("door/", include("tournament.door.urls")),
    path("e/", include("tournament.table.urls")),
]
