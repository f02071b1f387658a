from django.urls import path

from tournament.views import printing

app_name = "print"

urlpatterns = [
    path("<slug:slug>/r<int:round>/seating/", printing.seating, name="seating"),
    path("<slug:slug>/r<int:round>/sheets/", printing.sheets, name="sheets"),
]
