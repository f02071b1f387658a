from django.urls import path

from tournament.people import views as people

app_name = "people"

urlpatterns = [
    path("", people.people_list, name="list"),
    path("add/", people.person_add, name="add"),
    path("<int:person>/", people.person_edit, name="edit"),
    path("<int:person>/merge/", people.person_merge, name="merge"),
]
