"""The account pages, under ``accounts/`` (global URL names, as Django's own)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from tournament.accounts.views import login as accounts
from tournament.accounts.views import scorers

# django.contrib.auth.urls, with our login page and password reset only where email
# can be sent (tournament/accounts/views/login.py).
urlpatterns = [
    path("login/", accounts.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password_reset/", accounts.password_reset, name="password_reset"),
    path("password_reset/done/", accounts.password_reset_done, name="password_reset_done"),
    path(
        "reset/<uidb64>/<token>/",
        accounts.password_reset_confirm,
        name="password_reset_confirm",
    ),
    path("reset/done/", accounts.password_reset_complete, name="password_reset_complete"),
    # An organiser's invitation: the new scorer chooses a password (views/scorers.py).
    path("invite/<str:secret>/", scorers.accept, name="invitation"),
]

# The organiser's pages, under ``manage/`` in the "organiser" namespace (tournament/urls.py).
organiser_urlpatterns = [
    path("<slug:slug>/scorers/", scorers.scorers, name="scorers"),
    path("<slug:slug>/scorers/unlock/", scorers.scorer_unlock, name="scorer_unlock"),
    path("<slug:slug>/scorers/invite/", scorers.scorer_invite, name="scorer_invite"),
    path(
        "<slug:slug>/scorers/invitations/withdraw/",
        scorers.invitation_withdraw,
        name="invitation_withdraw",
    ),
    path(
        "<slug:slug>/scorers/invitations/new-link/",
        scorers.invitation_renew,
        name="invitation_renew",
    ),
    path("<slug:slug>/scorers/remove/", scorers.scorer_remove, name="scorer_remove"),
]
