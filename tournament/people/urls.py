from django.urls import path

from tournament.people.views import players
from tournament.people.views import register as people

app_name = "people"

urlpatterns = [
    path("", people.people_list, name="list"),
    path("add/", people.person_add, name="add"),
    path("<int:person>/", people.person_edit, name="edit"),
    path("<int:person>/merge/", people.person_merge, name="merge"),
]

# The organiser's pages, under ``manage/`` in the "organiser" namespace (tournament/urls.py).
organiser_urlpatterns = [
    path("<slug:slug>/players/people/", players.players_people, name="players_people"),
    path(
        "<slug:slug>/players/people/auto/",
        players.players_people_auto,
        name="players_people_auto",
    ),
    path(
        "<slug:slug>/players/<int:pk>/person/",
        players.player_person,
        name="player_person",
    ),
    path(
        "<slug:slug>/players/<int:pk>/new-person/",
        players.player_new_person,
        name="player_new_person",
    ),
    path(
        "<slug:slug>/players/<int:pk>/unlink/",
        players.player_unlink,
        name="player_unlink",
    ),
]
