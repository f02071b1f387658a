"""The site's addresses: each package's own, included here (the account pages and the
health check are in config/urls.py)."""

from django.urls import include, path

urlpatterns = [
    path("", include("tournament.public.urls")),
    path("manage/people/", include("tournament.people.urls")),
    path("", include("tournament.series.urls")),
    path("manage/", include("tournament.urls_organiser")),
    path("score/", include("tournament.sheets.urls")),
    path("print/", include("tournament.printing.urls")),
    path("door/", include("tournament.door.urls")),
    path("e/", include("tournament.table.urls")),
]
