"""The scorer's pages: the round desk and the scorer's home, a table's sheet, its
confirmation and its history (URL namespace ``scorer``)."""

from django.urls import path

from tournament.sheets import confirm_views, desk_views, history_views, sheet_views

app_name = "scorer"

urlpatterns = [
    path("<slug:slug>/", desk_views.home, name="home"),
    path("<slug:slug>/r<int:round>/desk/", desk_views.desk, name="desk"),
    path("<slug:slug>/r<int:round>/t<int:table>/", sheet_views.sheet, name="sheet"),
    path("<slug:slug>/r<int:round>/t<int:table>/check/", sheet_views.check, name="check"),
    path(
        "<slug:slug>/r<int:round>/t<int:table>/left/",
        sheet_views.sheet_leaves,
        name="sheet_leaves",
    ),
    path("<slug:slug>/r<int:round>/t<int:table>/confirm/", confirm_views.confirm, name="confirm"),
    path(
        "<slug:slug>/r<int:round>/t<int:table>/confirm/left/",
        confirm_views.confirm_leaves,
        name="confirm_leaves",
    ),
    path("<slug:slug>/r<int:round>/t<int:table>/history/", history_views.history, name="history"),
]
