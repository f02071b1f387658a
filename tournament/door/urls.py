"""Door check-in (``door.views``): the staff page that opens and closes the door, and the
door's own pages, reached by its signed address without a login."""

from django.urls import path

from tournament.door import views as door

app_name = "door"

urlpatterns = [
    path("<slug:slug>/", door.setup, name="setup"),
    path("<slug:slug>/open/", door.open_door, name="open"),
    path("<slug:slug>/close/", door.close_door, name="close"),
    path("<slug:slug>/hand-over/", door.hand_over, name="hand_over"),
    path("<slug:slug>/<str:token>/", door.tablet, name="tablet"),
    path("<slug:slug>/<str:token>/check-in/", door.check_in, name="check_in"),
    path("<slug:slug>/<str:token>/undo/", door.undo, name="undo"),
]
