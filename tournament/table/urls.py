"""Entry at the table (``views.table``): the pages a phone opens with a table's code,
without an account. ``/e/`` is printed on every score sheet for phones without a camera;
the QR code carries ``/e/<code>/``."""

from django.urls import path

from tournament.table import leave_views as table_leave
from tournament.table import views as table

app_name = "table"

urlpatterns = [
    path("", table.code, name="code"),
    # Before the code pages: "thanks" is no code (codes are eight characters).
    path("thanks/", table.thanks, name="thanks"),
    path("<str:code>/", table.table_page, name="entry"),
    path("<str:code>/deal/<int:number>/", table.deal, name="deal"),
    path("<str:code>/review/", table.review, name="review"),
    path("<str:code>/left/", table_leave.left, name="left"),
    path("<str:code>/confirm/left/", table_leave.confirm_leaves, name="confirm_leaves"),
    path("<str:code>/confirm/", table.confirm, name="confirm"),
]
