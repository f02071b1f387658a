"""Entry at the table: the pages a phone opens with a table's code, without an account.
``/e/`` is printed on every score sheet for phones without a camera; the QR code carries
``/e/<code>/``."""

from django.urls import path

from tournament.table import confirm_views, deal_views, entry_views, leave_views, review_views

app_name = "table"

urlpatterns = [
    path("", entry_views.code, name="code"),
    # Before the code pages: "thanks" is no code (codes are eight characters).
    path("thanks/", entry_views.thanks, name="thanks"),
    path("<str:code>/", entry_views.table_page, name="entry"),
    path("<str:code>/deal/<int:number>/", deal_views.deal, name="deal"),
    path("<str:code>/review/", review_views.review, name="review"),
    path("<str:code>/left/", leave_views.left, name="left"),
    path("<str:code>/confirm/left/", confirm_views.confirm_leaves, name="confirm_leaves"),
    path("<str:code>/confirm/", confirm_views.confirm, name="confirm"),
]
