"""The scorer's pages: the round desk and the scorer's home, a table's sheet, its
confirmation and its history (URL namespace ``scorer``)."""

from django.urls import path

from tournament.sheets.desk.views import confirm, desk, history, sheet

app_name = "scorer"

urlpatterns = [
    path("<slug:slug>/", desk.home, name="home"),
    path("<slug:slug>/r<int:round>/desk/", desk.desk, name="desk"),
    path("<slug:slug>/r<int:round>/t<int:table>/", sheet.sheet, name="sheet"),
    path("<slug:slug>/r<int:round>/t<int:table>/check/", sheet.check, name="check"),
    path(
        "<slug:slug>/r<int:round>/t<int:table>/left/",
        sheet.sheet_leaves,
        name="sheet_leaves",
    ),
    path("<slug:slug>/r<int:round>/t<int:table>/confirm/", confirm.confirm, name="confirm"),
    path(
        "<slug:slug>/r<int:round>/t<int:table>/confirm/left/",
        confirm.confirm_leaves,
        name="confirm_leaves",
    ),
    path("<slug:slug>/r<int:round>/t<int:table>/history/", history.history, name="history"),
]
