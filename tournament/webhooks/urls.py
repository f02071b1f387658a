"""The organiser's Webhooks page, under a tournament's Settings, and its buttons."""

from django.urls import path

from tournament.webhooks import views

# Under ``manage/`` in the "organiser" namespace (tournament/urls.py).
organiser_urlpatterns = [
    path("<slug:slug>/webhooks/", views.webhooks, name="webhooks"),
    path("<slug:slug>/webhooks/rotate/", views.rotate, name="webhook_rotate"),
    path("<slug:slug>/webhooks/switch/", views.switch, name="webhook_switch"),
    path("<slug:slug>/webhooks/remove/", views.remove, name="webhook_remove"),
    path("<slug:slug>/webhooks/ping/", views.ping, name="webhook_ping"),
]
