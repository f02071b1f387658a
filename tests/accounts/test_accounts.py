"""Logging in at the pub: unlocking a locked-out account (the organiser for their
scorers, a superuser for anyone), and password reset only where email can be sent."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.environment import environment, settings_under
from tests.pages import can_log_in, lock_out
from tests.routes import url_for

# The organiser unlocks their scorers ------------------------------------------------------


@pytest.fixture
def tournament(seated_round):
    return seated_round.tournament


def unlock_url(tournament) -> str:
    return reverse("organiser:scorer_unlock", args=[tournament.slug])


def test_the_scorers_page_shows_who_is_locked_out(organiser_client, tournament):
    lock_out("simon")
    html = organiser_client.get(url_for("organiser:scorers", tournament)).content.decode()
    locked = html[html.index("Locked out") :]
    assert "simon" in locked
    assert "Unlock simon" in locked
    assert "sarah" not in locked


def test_nobody_locked_out_no_section(organiser_client, tournament):
    html = organiser_client.get(url_for("organiser:scorers", tournament)).content.decode()
    assert "Locked out" not in html


def test_the_organiser_unlocks_a_scorer(organiser_client, tournament, scorer, second_scorer):
    lock_out("simon")
    lock_out("sarah")
    assert not can_log_in("simon")
    response = organiser_client.post(unlock_url(tournament), {"scorer": scorer.pk}, follow=True)
    assert "simon may log in again now." in response.content.decode()
    assert can_log_in("simon")
    assert not can_log_in("sarah")  # only the one asked for


@pytest.mark.parametrize(
    ("junk", "message"),
    [
        ("outsider", "That account is not a scorer of this tournament."),
        ("abc", "That account is not a scorer of this tournament."),
        ("", "Choose the scorer to unlock."),
    ],
)
def test_the_organiser_cannot_unlock_someone_who_is_not_their_scorer(
    organiser_client, tournament, outsider, junk, message
):
    lock_out("oscar")
    posted = outsider.pk if junk == "outsider" else junk
    response = organiser_client.post(unlock_url(tournament), {"scorer": posted}, follow=True)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not can_log_in("oscar")


@pytest.mark.parametrize("role", ["superuser", "staff", "organiser", "other_scorer"])
def test_an_account_that_is_more_than_this_organisers_scorer_only_an_administrator_unlocks(
    organiser_client, tournament, django_user_model, make_played, role
):
    """Anyone can be added as a scorer by user name: an organiser must not be able to add
    an administrator (or another organiser) and lift its lockout again and again."""
    admin = django_user_model.objects.create_user(
        "root", password="pw", is_superuser=role == "superuser", is_staff=role == "staff"
    )
    if role == "organiser":
        own = make_played(players=6, rounds=0, slug="roots-own")
        own.owner = admin
        own.save(update_fields=["owner"])
    if role == "other_scorer":
        make_played(players=6, rounds=0, slug="elsewhere").scorers.add(admin)
    tournament.scorers.add(admin)
    lock_out("root")
    html = organiser_client.get(url_for("organiser:scorers", tournament)).content.decode()
    assert "Unlock root" not in html
    assert "an administrator can unlock this account" in html
    response = organiser_client.post(unlock_url(tournament), {"scorer": admin.pk}, follow=True)
    assert "only an administrator can unlock it" in response.content.decode()
    assert not can_log_in("root")


def test_scorers_and_outsiders_cannot_unlock(scorer_client, outsider_client, tournament, scorer):
    lock_out("simon")
    assert scorer_client.post(unlock_url(tournament), {"scorer": scorer.pk}).status_code == 403
    assert outsider_client.post(unlock_url(tournament), {"scorer": scorer.pk}).status_code == 404
    assert Client().post(unlock_url(tournament), {"scorer": scorer.pk}).status_code == 302
    assert not can_log_in("simon")


# A superuser unlocks anyone in the admin -----------------------------------------------------


def test_a_superuser_unlocks_any_account_in_the_admin(organiser, django_user_model):
    admin = django_user_model.objects.create_superuser("ada", password="pw")
    lock_out("olive")
    assert not can_log_in("olive")
    client = Client()
    client.force_login(admin)
    changelist = client.get(reverse("admin:axes_accessattempt_changelist"))
    assert changelist.status_code == 200
    assert "olive" in changelist.content.decode()
    attempts = list(AccessAttempt.objects.filter(username="olive").values_list("pk", flat=True))
    response = client.post(
        reverse("admin:axes_accessattempt_changelist"),
        {"action": "delete_selected", "_selected_action": attempts, "post": "yes"},
    )
    assert response.status_code == 302
    assert can_log_in("olive")


# Password reset ------------------------------------------------------------------------------


@pytest.fixture
def no_email(settings):
    """As the settings are when EMAIL_URL is unset, whatever the shell running the tests has."""
    settings.PASSWORD_RESET_BY_EMAIL = False


RESET_PAGES = [
    ("password_reset", {}),
    ("password_reset_done", {}),
    ("password_reset_confirm", {"uidb64": "MQ", "token": "not-a-token"}),
    ("password_reset_complete", {}),
]


@pytest.mark.parametrize(("name", "kwargs"), RESET_PAGES)
def test_without_email_the_reset_pages_say_whom_to_ask(client, no_email, db, name, kwargs):
    response = client.get(reverse(name, kwargs=kwargs))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ask the tournament's organiser or the site's administrator" in html
    assert "emailed" not in html


def test_without_email_asking_for_a_reset_sends_nothing_and_promises_nothing(
    client, no_email, organiser
):
    organiser.email = "olive@example.org"
    organiser.save()
    response = client.post(reverse("password_reset"), {"email": "olive@example.org"})
    assert response.status_code == 200
    assert "Ask the tournament's organiser" in response.content.decode()
    assert mail.outbox == []


def test_without_email_the_login_page_says_whom_to_ask(client, no_email, db):
    html = client.get(reverse("login")).content.decode()
    assert "Ask the tournament's organiser or the site's administrator" in html
    assert reverse("password_reset") not in html


@pytest.fixture
def email_configured(settings):
    settings.PASSWORD_RESET_BY_EMAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def test_with_email_the_login_page_offers_a_reset_link(client, db, email_configured):
    html = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}"' in html


def test_with_email_a_reset_link_is_sent(client, organiser, email_configured):
    organiser.email = "olive@example.org"
    organiser.save()
    response = client.post(reverse("password_reset"), {"email": "olive@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["olive@example.org"]
    assert "/accounts/reset/" in mail.outbox[0].body


@pytest.fixture(scope="module")
def email_settings():
    """The settings of sending email under three environments (none, a good URL, a URL
    misspelt), read in one fresh process (tests/environment.py)."""
    return settings_under(
        {
            "none": environment(),
            "smtp": environment(
                EMAIL_URL="smtp+tls://scores%40example.org:secret@smtp.example.org:587"
            ),
            "misspelt": environment(EMAIL_URL="smpt://scores:secret@smtp.example.org"),
        }
    )


def test_email_is_configured_by_one_url(email_settings):
    names = (
        "PASSWORD_RESET_BY_EMAIL",
        "EMAIL_BACKEND",
        "EMAIL_HOST",
        "EMAIL_PORT",
        "EMAIL_HOST_USER",
        "EMAIL_USE_TLS",
    )
    values = {name: email_settings["smtp"][name] for name in names}
    assert values == {
        "PASSWORD_RESET_BY_EMAIL": True,
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "smtp.example.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "scores@example.org",
        "EMAIL_USE_TLS": True,
    }
    assert email_settings["none"]["PASSWORD_RESET_BY_EMAIL"] is False


def test_a_bad_email_url_stops_the_server_without_showing_the_password(email_settings):
    error = str(email_settings["misspelt"]["error"])
    assert "EMAIL_URL is not an email address to send through" in error
    assert "secret" not in error


def test_with_email_the_whole_reset_works_on_our_own_pages(client, organiser, email_configured):
    organiser.email = "olive@example.org"
    organiser.save()
    response = client.post(reverse("password_reset"), {"email": "olive@example.org"}, follow=True)
    assert "Check your email" in response.content.decode()
    link = next(line for line in mail.outbox[0].body.splitlines() if "/accounts/reset/" in line)
    form = client.get(link.strip(), follow=True)
    assert "New password" in form.content.decode()
    new = "a long new passphrase 7"
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": new, "new_password2": new},
        follow=True,
    )
    assert "Your new password is set." in done.content.decode()
    assert can_log_in("olive", new)


def test_a_scorer_counts_as_locked_out_at_any_address_and_only_at_the_limit(tournament):
    from tournament.accounts.services import locked_out_scorers

    for address, tries in [("192.0.2.1", 4), ("192.0.2.2", 4)]:
        client = Client(REMOTE_ADDR=address)
        for _ in range(tries):
            client.post(reverse("login"), {"username": "sarah", "password": "wrong"})
    assert locked_out_scorers(tournament) == []  # four at each address is not five
    lock_out("simon")
    assert [scorer.username for scorer, *_ in locked_out_scorers(tournament)] == ["simon"]
