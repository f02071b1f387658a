"""Logging in is rate limited (django-axes): five wrong passwords for one user name from
one address lock that pair out for fifteen minutes, even with the right password; tries
during the lockout do not extend it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.conf import settings
from django.test import Client
from django.urls import reverse

WRONG = {"username": "olive", "password": "not-it"}
RIGHT = {"username": "olive", "password": "pw"}


def log_in(client: Client, credentials: dict[str, str], **headers: str):
    return client.post(reverse("login"), credentials, **headers)


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def fail(client: Client, times: int, **headers: str) -> None:
    for _ in range(times):
        log_in(client, WRONG, **headers)


def wait(minutes: int) -> None:
    """As if the last attempts were ``minutes`` longer ago."""
    for attempt in AccessAttempt.objects.all():
        attempt.attempt_time -= timedelta(minutes=minutes)
        attempt.save(update_fields=["attempt_time"])


def test_the_limits_are_five_tries_and_fifteen_minutes():
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60


def test_a_wrong_password_is_an_ordinary_form_error(client, organiser):
    response = log_in(client, WRONG)
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_five_wrong_passwords_lock_out_even_the_right_one(client, organiser):
    fail(client, 5)
    response = log_in(client, RIGHT)
    assert response.status_code == 429
    assert not logged_in(client)


def test_four_wrong_passwords_do_not(client, organiser):
    fail(client, 4)
    response = log_in(client, RIGHT)
    assert response.status_code == 302
    assert logged_in(client)


def test_logging_in_starts_the_count_afresh(organiser):
    client = Client()
    fail(client, 4)
    assert logged_in(client) is False
    log_in(client, RIGHT)
    client.logout()
    fail(client, 4)
    log_in(client, RIGHT)
    assert logged_in(client)


def test_the_lockout_page_is_friendly(client, organiser):
    fail(client, 5)
    response = log_in(client, RIGHT)
    html = response.content.decode()
    assert response["Content-Type"].startswith("text/html")
    assert "<h1>Too many tries</h1>" in html
    assert "The password for <strong>olive</strong> was wrong 5 times in a row" in html
    assert "try again in <strong>15 minutes</strong>" in html
    assert "Trying again meanwhile does not make the wait longer" in html
    assert f'href="{reverse("login")}"' in html
    assert "Traceback" not in html
    assert "Account locked" not in html  # django-axes' own terse message


def test_after_the_wait_the_right_password_works_again(client, organiser):
    fail(client, 5)
    wait(16)
    log_in(client, RIGHT)
    assert logged_in(client)


def test_trying_during_the_lockout_does_not_extend_it(client, organiser):
    """Right or wrong, a try while locked out is not counted: the lock ends fifteen
    minutes after the fifth wrong password."""
    fail(client, 5)
    wait(10)
    assert log_in(client, RIGHT).status_code == 429
    assert log_in(client, WRONG).status_code == 429
    wait(6)
    log_in(client, RIGHT)
    assert logged_in(client)


@pytest.mark.parametrize(
    ("waited", "left"), [(0, "15 minutes"), (3, "12 minutes"), (14, "1 minute")]
)
def test_the_lockout_page_says_how_long_is_left(client, organiser, waited, left):
    fail(client, 5)
    wait(waited)
    html = log_in(client, RIGHT).content.decode()
    assert f"try again in <strong>{left}</strong>" in html


def test_other_users_at_the_same_address_may_still_log_in(client, organiser, scorer):
    fail(client, 5)
    log_in(client, {"username": "simon", "password": "pw"})
    assert logged_in(client)


def test_the_same_user_elsewhere_may_still_log_in(organiser):
    """Locking the pair, not the user: a stranger cannot lock the organiser out of the
    tournament by guessing wrong on purpose."""
    fail(Client(REMOTE_ADDR="203.0.113.9"), 5)
    elsewhere = Client(REMOTE_ADDR="198.51.100.7")
    log_in(elsewhere, RIGHT)
    assert logged_in(elsewhere)


@pytest.mark.parametrize(
    ("header_order", "separate"),
    [
        (["REMOTE_ADDR"], False),  # the default: every client is the proxy
        (["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"], True),  # docs/deploy.md, behind nginx
    ],
)
def test_behind_a_proxy_clients_are_told_apart_by_the_header_it_sets(
    settings, organiser, header_order, separate
):
    settings.AXES_IPWARE_META_PRECEDENCE_ORDER = header_order
    proxy = "10.0.0.2"
    attacker = Client(REMOTE_ADDR=proxy)
    fail(attacker, 5, HTTP_X_FORWARDED_FOR="203.0.113.9")
    olive = Client(REMOTE_ADDR=proxy)
    log_in(olive, RIGHT, HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert logged_in(olive) is separate


# User names are matched ignoring case and surrounding spaces; the lockout follows the
# account, not the spelling.


@pytest.mark.parametrize("typed", ["OLIVE", "  Olive ", "olive\t"])
def test_the_user_name_ignores_case_and_surrounding_spaces(client, organiser, typed):
    log_in(client, {"username": typed, "password": "pw"})
    assert logged_in(client)
    assert client.session["_auth_user_id"] == str(organiser.pk)


def test_a_lockout_still_triggers_when_the_case_varies(client, organiser):
    for typed in ["olive", "Olive", "OLIVE", " oLive", "olivE "]:
        log_in(client, {"username": typed, "password": "not-it"})
    response = log_in(client, {"username": "Olive", "password": "pw"})
    assert response.status_code == 429
    assert not logged_in(client)
    # Counted under the account's own name, as the Scorers page's Unlock finds it.
    assert set(AccessAttempt.objects.values_list("username", flat=True)) == {"olive"}
    assert "The password for <strong>olive</strong> was wrong" in response.content.decode()


def test_two_accounts_differing_only_in_case_each_log_in_by_their_exact_name(
    django_user_model,
):
    upper = django_user_model.objects.create_user("Sam", password="upper-pw")
    lower = django_user_model.objects.create_user("sam", password="lower-pw")
    for typed, password, user in [("Sam", "upper-pw", upper), (" sam ", "lower-pw", lower)]:
        client = Client()
        log_in(client, {"username": typed, "password": password})
        assert client.session["_auth_user_id"] == str(user.pk)
    # Neither spelled exactly: no account is picked, and the form says nothing more.
    client = Client()
    response = log_in(client, {"username": "SAM", "password": "upper-pw"})
    assert not logged_in(client)
    assert "Please enter a correct username and password" in response.content.decode()


# A user name longer than any account's (the user model's 150 characters) is a form
# error beside its box before any password is checked: django-axes, which keeps user
# names in a column of 255 characters, records nothing (on PostgreSQL it would fail).


@pytest.mark.parametrize(
    ("url", "length"),
    [
        pytest.param("login", 151, id="login-151"),
        pytest.param("login", 256, id="login-256"),
        pytest.param("login", 100_000, id="login-100000"),
        pytest.param("admin:login", 256, id="admin-256"),
    ],
)
def test_a_user_name_longer_than_any_account_s_is_refused_before_logging_in(
    client, organiser, url, length
):
    response = client.post(reverse(url), {"username": "o" * length, "password": "pw"})
    assert response.status_code == 200
    html = response.content.decode()
    assert (
        f"User name: at most 150 characters, and this one has {length}; no account has such "
        "a name." in html
    )
    assert "Please enter a correct username and password" not in html
    assert not logged_in(client)
    assert not AccessAttempt.objects.exists()
    assert not AccessFailureLog.objects.exists()


def test_a_user_name_of_150_characters_is_checked_as_any_other(client, django_user_model):
    longest = "l" * 150
    django_user_model.objects.create_user(longest, password="pw")
    log_in(client, {"username": longest, "password": "not-it"})
    assert AccessAttempt.objects.get().username == longest
    log_in(client, {"username": f" {longest} ", "password": "pw"})
    assert logged_in(client)
