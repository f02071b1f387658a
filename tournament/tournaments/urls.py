"""A tournament's own organiser pages: the organiser's home, a new tournament, its
dashboard, settings, tiebreaks, standings and publishing."""

from django.urls import path

from tournament.tournaments import views as organiser

# Under ``manage/`` in the "organiser" namespace (tournament/urls.py).
organiser_urlpatterns = [
    path("", organiser.home, name="home"),
    path("new/", organiser.create, name="create"),
    path("<slug:slug>/", organiser.dashboard, name="dashboard"),
    path("<slug:slug>/edit/", organiser.edit, name="edit"),
    path("<slug:slug>/tiebreaks/add/", organiser.tiebreak_add, name="tiebreak_add"),
    path("<slug:slug>/tiebreaks/remove/", organiser.tiebreak_remove, name="tiebreak_remove"),
    path("<slug:slug>/tiebreaks/up/", organiser.tiebreak_up, name="tiebreak_up"),
    path("<slug:slug>/tiebreaks/down/", organiser.tiebreak_down, name="tiebreak_down"),
    path("<slug:slug>/publish/", organiser.publish, name="publish"),
    path("<slug:slug>/unpublish/", organiser.unpublish, name="unpublish"),
    path("<slug:slug>/finish/", organiser.finish, name="finish"),
    path("<slug:slug>/unfinish/", organiser.unfinish, name="unfinish"),
    path("<slug:slug>/reveal/", organiser.reveal, name="reveal"),
]
