from django.urls import path

from tournament.sheets import views as scorer

app_name = "scorer"

urlpatterns = [
    path("<slug:slug>/", scorer.home, name="home"),
    path("<slug:slug>/r<int:round>/desk/", scorer.desk, name="desk"),
    path("<slug:slug>/r<int:round>/t<int:table>/", scorer.sheet, name="sheet"),
    path("<slug:slug>/r<int:round>/t<int:table>/check/", scorer.check, name="check"),
    path("<slug:slug>/r<int:round>/t<int:table>/left/", scorer.sheet_leaves, name="sheet_leaves"),
    path("<slug:slug>/r<int:round>/t<int:table>/confirm/", scorer.confirm, name="confirm"),
    path(
        "<slug:slug>/r<int:round>/t<int:table>/confirm/left/",
        scorer.confirm_leaves,
        name="confirm_leaves",
    ),
    path("<slug:slug>/r<int:round>/t<int:table>/history/", scorer.history, name="history"),
]
