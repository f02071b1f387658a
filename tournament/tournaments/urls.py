"""A tournament's own organiser pages: the organiser's home, a new tournament, its
dashboard, settings, tiebreaks, standings and publishing."""

from django.urls import path

from tournament.tournaments import views

# Under ``manage/`` in the "organiser" namespace (tournament/urls.py).
organiser_urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.create, name="create"),
    path("advisor/", views.advisor, name="advisor"),
    path("<slug:slug>/", views.dashboard, name="dashboard"),
    path("<slug:slug>/edit/", views.edit, name="edit"),
    path("<slug:slug>/rules/", views.rules, name="rules"),
    path("<slug:slug>/tiebreaks/add/", views.tiebreak_add, name="tiebreak_add"),
    path("<slug:slug>/tiebreaks/remove/", views.tiebreak_remove, name="tiebreak_remove"),
    path("<slug:slug>/tiebreaks/up/", views.tiebreak_up, name="tiebreak_up"),
    path("<slug:slug>/tiebreaks/down/", views.tiebreak_down, name="tiebreak_down"),
    path("<slug:slug>/publish/", views.publish, name="publish"),
    path("<slug:slug>/unpublish/", views.unpublish, name="unpublish"),
    path("<slug:slug>/finish/", views.finish, name="finish"),
    path("<slug:slug>/unfinish/", views.unfinish, name="unfinish"),
    path("<slug:slug>/reveal/", views.reveal, name="reveal"),
]
