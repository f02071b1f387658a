"""Public pages of the series and the people in them (``views.series_public``): open to
any visitor, showing only what the series' tournaments show publicly."""

from django.urls import path

from tournament.series import views as series_public

urlpatterns = [
    path("s/<slug:series>/", series_public.series_page, name="series"),
    path("s/<slug:series>/ratings/", series_public.series_ratings, name="series_ratings"),
    path(
        "s/<slug:series>/standings.csv",
        series_public.series_standings_csv,
        name="series_standings_csv",
    ),
    path(
        "s/<slug:series>/ratings.csv", series_public.series_ratings_csv, name="series_ratings_csv"
    ),
    path("p/<str:identifier>/", series_public.career, name="career"),
    path("c/<slug:club>/", series_public.club, name="club"),
]
