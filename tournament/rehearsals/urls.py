"""A rehearsal's addresses: the organiser's buttons, and the private link."""

from django.urls import path

from tournament.rehearsals import views

# Under ``manage/`` in the "organiser" namespace (tournament/urls.py).
organiser_urlpatterns = [
    path("rehearse/", views.rehearse, name="rehearse"),
    path("<slug:slug>/rehearsal/remove/", views.remove, name="rehearsal_remove"),
    path("<slug:slug>/rounds/<int:number>/play/", views.play, name="rehearsal_play"),
]

# Beside the public pages: the private link opens them for whoever has it.
urlpatterns = [
    path("t/<slug:slug>/rehearsal/<str:token>/", views.private_link, name="rehearsal_link"),
]
