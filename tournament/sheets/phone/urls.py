"""Entry at the table: the pages a phone opens with a table's code, without an account.
``/e/`` is printed on every score sheet for phones without a camera; the QR code carries
``/e/<code>/``."""

from django.urls import path

from tournament.sheets.phone.views import confirm, deal, entry, left, review

app_name = "table"

urlpatterns = [
    path("", entry.code, name="code"),
    # Before the code pages: "thanks" is no code (codes are eight characters).
    path("thanks/", entry.thanks, name="thanks"),
    path("<str:code>/", entry.table_page, name="entry"),
    path("<str:code>/deal/<int:number>/", deal.deal, name="deal"),
    path("<str:code>/review/", review.review, name="review"),
    path("<str:code>/left/", left.left, name="left"),
    path("<str:code>/confirm/left/", confirm.confirm_leaves, name="confirm_leaves"),
    path("<str:code>/confirm/", confirm.confirm, name="confirm"),
]
