from django.urls import path

from tournament.printing.views import printouts as printing
from tournament.printing.views import rules_cards

app_name = "print"

urlpatterns = [
    path("<slug:slug>/r<int:round>/seating/", printing.seating, name="seating"),
    path("<slug:slug>/r<int:round>/sheets/", printing.sheets, name="sheets"),
    path("<slug:slug>/r<int:round>/rules/", rules_cards.rules_cards, name="rules_cards"),
]
