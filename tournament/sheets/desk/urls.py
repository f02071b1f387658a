"""The scorer's pages: the round desk and the scorer's home, a table's sheet, its
confirmation and its history, and reading photos of paper sheets (URL namespace
``scorer``)."""

from django.urls import path

from tournament.sheets.desk.views import confirm, desk, history, photos, sheet

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
    path("<slug:slug>/r<int:round>/t<int:table>/photo/", photos.read_photo, name="read_photo"),
    path("<slug:slug>/r<int:round>/photos/", photos.read_photos, name="read_photos"),
    path("<slug:slug>/r<int:round>/photos/<uuid:batch>/", photos.photos, name="photos"),
    path("<slug:slug>/photos/<int:photo>/", photos.photo_sheet, name="photo_sheet"),
    path("<slug:slug>/photos/<int:photo>.jpg", photos.photo_image, name="photo_image"),
    path("<slug:slug>/photos/<int:photo>/<str:cell>.png", photos.photo_crop, name="photo_crop"),
]
