"""The site's addresses: each package's own, included here (the account pages and the
health check are in config/urls.py)."""

from django.urls import include, path

from tournament.accounts import urls as accounts
from tournament.people import urls as people
from tournament.players import urls as players
from tournament.rehearsals import urls as rehearsals
from tournament.rounds import urls as rounds
from tournament.series import urls as series
from tournament.standings import urls as standings
from tournament.tournaments import urls as tournaments
from tournament.webhooks import urls as webhooks

# The organiser's pages, one namespace ("organiser:…") made of each package's own. A
# series' pages come before the tournaments': "series" is no tournament's slug.
organiser_urlpatterns = [
    *series.organiser_urlpatterns,
    # "rehearse" is no tournament's slug either.
    *rehearsals.organiser_urlpatterns,
    *tournaments.organiser_urlpatterns,
    *accounts.organiser_urlpatterns,
    *players.organiser_urlpatterns,
    *people.organiser_urlpatterns,
    *rounds.organiser_urlpatterns,
    *standings.organiser_urlpatterns,
    *webhooks.organiser_urlpatterns,
]

urlpatterns = [
    path("", include("tournament.public.urls")),
    path("", include(rehearsals.urlpatterns)),
    path("manage/people/", include("tournament.people.urls")),
    path("", include("tournament.series.urls")),
    path("manage/", include((organiser_urlpatterns, "organiser"))),
    path("score/", include("tournament.sheets.desk.urls")),
    path("print/", include("tournament.printing.urls")),
    path("door/", include("tournament.door.urls")),
    path("e/", include("tournament.sheets.phone.urls")),
]
