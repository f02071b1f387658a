"""Organisers invite their scorers (``accounts.invitations``, ``accounts.views.scorers``): a
one-time link that makes a scorer's account for one tournament, the scorer choosing the
password; no email and no administrator."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.errors import UserError
from tests.factories import TournamentFactory
from tests.pages import can_log_in, lock_out
from tournament.accounts import invitations
from tournament.accounts import services as accounts
from tournament.accounts.invitations import Closed, InvitationClosed
from tournament.models import Invitation, Person, Sheet, SheetStatus, Table, Tournament
from tournament.shared.permissions import INVITED_SCORERS, may_keep_people, may_organise
from tournament.sheets.saving import save_sheet

GOOD_PASSWORD = "lanterns-at-dusk-42"
# A deal at a table of four, adding up to 52.
SHEET_ROW = {"won": [20, 10, 10, 2], "last_in": 4, "left_over": 10}


@pytest.fixture
def tournament(seated_round):
    return seated_round.tournament


@pytest.fixture
def link(tournament, organiser):
    return invitations.invite_scorer(tournament, "dora", organiser)


def accept_url(secret: str) -> str:
    return reverse("invitation", args=[secret])


def scorers_url(tournament) -> str:
    return reverse("organiser:scorers", args=[tournament.slug])


def invite_url(tournament) -> str:
    return reverse("organiser:scorer_invite", args=[tournament.slug])


def choose(client: Client, secret: str, first: str = GOOD_PASSWORD, second: str | None = None):
    return client.post(
        accept_url(secret), {"password1": first, "password2": first if second is None else second}
    )


# The service -----------------------------------------------------------------------------


def test_an_invitation_makes_a_scorer_of_that_tournament_only(tournament, organiser, link):
    TournamentFactory(owner=organiser)
    invitation = link.invitation
    assert invitation.expires - invitation.created == timedelta(hours=24)
    user = invitations.accept(link.secret, GOOD_PASSWORD)
    assert user.get_username() == "dora"
    assert user.check_password(GOOD_PASSWORD)
    assert list(user.groups.values_list("name", flat=True)) == [INVITED_SCORERS]
    assert not user.is_staff
    assert not user.is_superuser
    assert list(Tournament.objects.filter(scorers=user)) == [tournament]
    assert not Tournament.objects.filter(owner=user).exists()
    invitation.refresh_from_db()
    assert invitation.used_at is not None
    assert invitation.account == user


def test_only_the_links_hash_is_kept(link):
    row = Invitation.objects.filter(pk=link.invitation.pk).values().get()
    assert link.secret not in str(row)
    assert row["secret_hash"] == invitations.secret_hash(link.secret)
    assert len(link.secret) >= 40


def test_a_link_works_once(link):
    invitations.accept(link.secret, GOOD_PASSWORD)
    with pytest.raises(InvitationClosed) as closed:
        invitations.accept(link.secret, "another-long-password-9")
    assert closed.value.reason is Closed.USED
    assert get_user_model().objects.filter(username="dora").count() == 1
    assert get_user_model().objects.get(username="dora").check_password(GOOD_PASSWORD)


def test_a_link_expires_after_24_hours(link):
    later = link.invitation.expires
    assert invitations.open_link(link.secret, later - timedelta(seconds=1)) == link.invitation
    with pytest.raises(InvitationClosed) as closed:
        invitations.accept(link.secret, GOOD_PASSWORD, now=later)
    assert closed.value.reason is Closed.EXPIRED
    assert not get_user_model().objects.filter(username="dora").exists()


def test_a_withdrawn_link_no_longer_works(tournament, link):
    invitations.withdraw_invitation(tournament, link.invitation.pk)
    with pytest.raises(InvitationClosed) as closed:
        invitations.accept(link.secret, GOOD_PASSWORD)
    assert closed.value.reason is Closed.WITHDRAWN
    with pytest.raises(UserError, match="withdrawn already"):
        invitations.withdraw_invitation(tournament, link.invitation.pk)


def test_an_unknown_link_is_said_to_be_unknown(db):
    with pytest.raises(InvitationClosed) as closed:
        invitations.open_link("not-a-secret")
    assert closed.value.reason is Closed.UNKNOWN


def test_a_new_link_replaces_the_old_one_and_runs_another_24_hours(tournament, link):
    later = link.invitation.expires + timedelta(hours=1)  # expired: renewing revives it
    renewed = invitations.renew_invitation(tournament, link.invitation.pk, now=later)
    assert renewed.secret != link.secret
    assert renewed.invitation.expires == later + timedelta(hours=24)
    with pytest.raises(InvitationClosed):
        invitations.open_link(link.secret, later)
    assert invitations.open_link(renewed.secret, later).pk == link.invitation.pk


def test_a_used_invitation_is_neither_withdrawn_nor_renewed(tournament, link):
    invitations.accept(link.secret, GOOD_PASSWORD)
    for change in (invitations.withdraw_invitation, invitations.renew_invitation):
        with pytest.raises(UserError, match="dora is a scorer now"):
            change(tournament, link.invitation.pk)


def test_another_tournaments_invitation_is_not_this_ones(organiser, link):
    other = TournamentFactory(owner=organiser)
    with pytest.raises(UserError, match="not one of this tournament's"):
        invitations.withdraw_invitation(other, link.invitation.pk)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "Type the user name"),
        ("  ", "Type the user name"),
        ("Dora Lee", "no spaces: for example “dora.lee”"),
        ("dora!", "letters, digits and @ . + - _ only"),
        ("d" * 151, "at most 150 characters"),
        ("SIMON", "An account is called “simon” already"),
    ],
)
def test_a_user_name_that_cannot_be_had_is_refused_in_words(tournament, organiser, typed, message):
    with pytest.raises(UserError, match=re.escape(message)):
        invitations.invite_scorer(tournament, typed, organiser)
    assert not Invitation.objects.exists()


def test_a_pending_invitation_holds_its_user_name(tournament, organiser, link):
    with pytest.raises(UserError, match="“Dora” is invited already"):
        invitations.invite_scorer(tournament, "Dora", organiser)
    elsewhere = TournamentFactory(owner=organiser)
    with pytest.raises(UserError, match="Another pending invitation holds the user name"):
        invitations.invite_scorer(elsewhere, "dora", organiser)


def test_an_expired_invitation_is_replaced_by_a_new_one_of_the_same_name(
    tournament, organiser, link
):
    later = link.invitation.expires + timedelta(minutes=1)
    again = invitations.invite_scorer(tournament, "dora", organiser, now=later)
    assert list(invitations.open_invitations(tournament)) == [again.invitation]


def test_a_user_name_taken_after_the_invitation_is_refused_in_words(
    tournament, link, django_user_model
):
    django_user_model.objects.create_user("Dora", password="pw")
    with pytest.raises(UserError, match="“dora” was taken after this invitation was made"):
        invitations.accept(link.secret, GOOD_PASSWORD)
    assert invitations.open_link(link.secret) == link.invitation


@pytest.mark.parametrize(
    ("password", "problem"),
    [
        ("short1", "too short"),
        ("password123", "too common"),
        ("83920174652", "entirely numeric"),
        ("tabletop1", "too similar to the username"),
    ],
)
def test_djangos_password_validators_refuse_weak_passwords(
    tournament, organiser, password, problem
):
    link = invitations.invite_scorer(tournament, "tabletop", organiser)
    with pytest.raises(ValidationError, match=problem):
        invitations.accept(link.secret, password)
    assert invitations.open_link(link.secret) == link.invitation
    assert not get_user_model().objects.filter(username="tabletop").exists()


@pytest.mark.parametrize("setting", ["anyone", "granted"])
def test_an_invited_scorer_never_organises_nor_keeps_the_register(settings, link, setting):
    settings.ORGANISERS = setting
    user = invitations.accept(link.secret, GOOD_PASSWORD)
    assert not may_organise(user)
    assert not may_keep_people(user)
    client = Client()
    client.force_login(user)
    assert client.get(reverse("organiser:create")).status_code == 403
    assert client.get(reverse("organiser:series_create")).status_code == 403
    Person.objects.create(name="Ann Lee")
    assert client.get(reverse("people:list")).status_code == 403
    home = client.get(reverse("organiser:home")).content.decode()
    assert reverse("organiser:create") not in home


def test_the_administrator_may_still_grant_an_invited_scorer_organising(settings, link):
    settings.ORGANISERS = "granted"
    user = invitations.accept(link.secret, GOOD_PASSWORD)
    accounts.grant_organising(user)
    user = get_user_model().objects.get(pk=user.pk)  # a fresh permission cache
    assert may_organise(user)


def test_an_invited_scorers_wrong_passwords_lock_it_out_and_its_organiser_unlocks_it(
    tournament, link
):
    user = invitations.accept(link.secret, GOOD_PASSWORD)
    assert can_log_in("dora", GOOD_PASSWORD)
    lock_out("dora")
    assert not can_log_in("dora", GOOD_PASSWORD)
    assert accounts.organiser_may_unlock(tournament, user)
    accounts.unlock_scorer(tournament, user)
    assert can_log_in("dora", GOOD_PASSWORD)


# The organiser's pages ---------------------------------------------------------------------


def test_the_organiser_invites_and_gets_the_link_and_its_qr_code_once(organiser_client, tournament):
    response = organiser_client.post(invite_url(tournament), {"invite-username": " dora "})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    page = response.content.decode()
    found = re.search(r'<a href="(http://testserver/accounts/invite/([^/"]+)/)">', page)
    assert found
    assert page.count("<svg") == 1
    assert 'class="qr-code"' in page
    assert "This address names this computer only" not in page  # testserver is no loopback
    invitation = invitations.open_link(found.group(2))
    assert (invitation.username, invitation.tournament) == ("dora", tournament)
    # The Scorers page lists it, with its expiry, but never the link again.
    listed = organiser_client.get(scorers_url(tournament)).content.decode()
    assert "Invitations not yet used" in listed
    assert "dora" in listed
    assert "link works until" in listed
    assert found.group(2) not in listed


def test_the_link_uses_the_public_base_url(organiser_client, tournament, settings):
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    page = organiser_client.post(invite_url(tournament), {"invite-username": "dora"})
    assert 'href="http://192.168.1.20:8000/accounts/invite/' in page.content.decode()


def test_a_refused_invitation_keeps_the_name_and_says_why(organiser_client, tournament):
    response = organiser_client.post(invite_url(tournament), {"invite-username": "Dora Lee"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "data-error-summary" in page
    assert 'href="#id_invite-username"' in page
    assert "for example “dora.lee”" in page
    assert 'value="Dora Lee"' in page
    assert not Invitation.objects.exists()


def test_the_organiser_withdraws_an_invitation(organiser_client, tournament, link):
    url = reverse("organiser:invitation_withdraw", args=[tournament.slug])
    response = organiser_client.post(url, {"invitation": link.invitation.pk}, follow=True)
    page = response.content.decode()
    assert "The invitation of dora is withdrawn: its link no longer works." in page
    assert "Invitations not yet used" not in page
    assert Client().get(accept_url(link.secret)).status_code == 410


def test_the_organiser_gives_a_new_link(organiser_client, tournament, link):
    url = reverse("organiser:invitation_renew", args=[tournament.slug])
    page = organiser_client.post(url, {"invitation": link.invitation.pk}).content.decode()
    secret = re.search(r'href="http://testserver/accounts/invite/([^/"]+)/"', page).group(1)
    assert secret != link.secret
    assert Client().get(accept_url(link.secret)).status_code == 404
    assert Client().get(accept_url(secret)).status_code == 200


@pytest.mark.parametrize("posted", [{}, {"invitation": "abc"}, {"invitation": "999999"}])
@pytest.mark.parametrize("name", ["organiser:invitation_withdraw", "organiser:invitation_renew"])
def test_a_wrong_invitation_is_a_message_not_a_500(organiser_client, tournament, name, posted):
    response = organiser_client.post(reverse(name, args=[tournament.slug]), posted, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Choose the invitation" in page or "(any more)" in page


def test_scorers_outsiders_and_visitors_may_not_invite(
    client, scorer_client, outsider_client, tournament, link
):
    url = invite_url(tournament)
    posted = {"invite-username": "intruder"}
    assert scorer_client.post(url, posted).status_code == 403
    assert outsider_client.post(url, posted).status_code == 404
    response = client.post(url, posted)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    for name in ("organiser:invitation_withdraw", "organiser:invitation_renew"):
        withdraw = reverse(name, args=[tournament.slug])
        assert scorer_client.post(withdraw, {"invitation": link.invitation.pk}).status_code == 403
        assert outsider_client.post(withdraw, {"invitation": link.invitation.pk}).status_code == 404
    assert list(Invitation.objects.values_list("username", flat=True)) == ["dora"]
    assert invitations.open_link(link.secret) == link.invitation


# The invited scorer's page --------------------------------------------------------------


def test_the_invited_scorer_chooses_a_password_and_is_logged_in(client, tournament, link):
    page = client.get(accept_url(link.secret))
    assert page.status_code == 200
    assert "no-store" in page["Cache-Control"]
    text = page.content.decode()
    assert "Score Test Open" in text
    assert 'Your user name: <span class="invitation-name">dora</span>' in text
    response = choose(client, link.secret)
    assert response.status_code == 302
    assert response.url == reverse("scorer:home", args=[tournament.slug])
    home = client.get(response.url).content.decode()
    assert "Welcome, dora: you score Test Open." in home
    assert client.get(reverse("scorer:desk", args=[tournament.slug, 1])).status_code == 200
    # Another organiser's tournament stays unknown to it.
    other = TournamentFactory()
    assert client.get(reverse("scorer:home", args=[other.slug])).status_code == 404


def test_two_different_passwords_are_refused(client, link):
    response = choose(client, link.secret, second="something-else-77")
    assert response.status_code == 200
    assert "The two passwords differ" in response.content.decode()
    assert invitations.open_link(link.secret) == link.invitation


def test_a_weak_password_is_refused_naming_the_problem(client, link):
    response = choose(client, link.secret, "12345678901")
    page = response.content.decode()
    assert response.status_code == 200
    assert "data-error-summary" in page
    assert "This password is entirely numeric." in page


def test_a_user_name_taken_meanwhile_is_a_message(client, link, django_user_model):
    django_user_model.objects.create_user("dora", password="pw")
    response = choose(client, link.secret)
    assert response.status_code == 200
    assert "“dora” was taken after this invitation was made" in response.content.decode()


@pytest.mark.parametrize(
    ("close", "status", "words"),
    [
        ("use", 410, "This invitation has been used"),
        ("withdraw", 410, "This invitation was withdrawn by the organiser."),
        ("expire", 410, "This invitation has expired."),
        ("unknown", 404, "This invitation link is not known here"),
    ],
)
def test_a_link_that_no_longer_works_says_why(client, tournament, link, close, status, words):
    secret = link.secret
    if close == "use":
        invitations.accept(secret, GOOD_PASSWORD)
    elif close == "withdraw":
        invitations.withdraw_invitation(tournament, link.invitation.pk)
    elif close == "expire":
        Invitation.objects.filter(pk=link.invitation.pk).update(
            created=timezone.now() - timedelta(hours=25),
            expires=timezone.now() - timedelta(hours=1),
        )
    else:
        secret = "x" * 43
    for response in (client.get(accept_url(secret)), choose(client, secret)):
        assert response.status_code == status
        page = response.content.decode()
        assert "This link no longer works" in page
        assert words in page
    assert get_user_model().objects.filter(username="dora").exists() == (close == "use")


def test_a_used_link_opened_again_points_to_the_login(client, link):
    choose(client, link.secret)
    page = Client().get(accept_url(link.secret)).content.decode()
    assert "log in</a> with the user name dora" in page


def test_a_password_too_long_to_be_typed_is_refused_before_hashing(client, link):
    response = choose(client, link.secret, "x" * 1001)
    assert response.status_code == 200
    assert "at most 1000 characters" in response.content.decode()
    assert invitations.open_link(link.secret) == link.invitation


@pytest.mark.django_db(transaction=True)
def test_two_phones_using_one_link_at_once_make_one_account(monkeypatch, organiser):
    """Against PostgreSQL's row locks: the second waits for the first, then finds the
    link used (without the lock it would meet a taken user name instead)."""
    from django.db import connection

    from tests.concurrency import run_together, slow_down

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL's row locks: run with DATABASE_URL=postgres://…")
    link = invitations.invite_scorer(TournamentFactory(owner=organiser), "dora", organiser)
    slow_down(monkeypatch, invitations, "check_password")
    outcomes = run_together(
        lambda: invitations.accept(link.secret, GOOD_PASSWORD),
        lambda: invitations.accept(link.secret, "another-long-password-9"),
    )
    made = [outcome.value for outcome in outcomes if outcome.error is None]
    refused = [outcome.error for outcome in outcomes if outcome.error is not None]
    assert len(made) == 1
    assert len(refused) == 1
    assert isinstance(refused[0], InvitationClosed)
    assert refused[0].reason is Closed.USED
    assert get_user_model().objects.filter(username="dora").count() == 1


# The whole way, as the organiser and the invited scorer's phone go it ----------------------


def links(page: str) -> dict[str, str]:
    """The page's links, by their text (the first of each)."""
    found: dict[str, str] = {}
    for href, text in re.findall(r'<a [^>]*href="([^"]+)"[^>]*>([^<]+)</a>', page):
        found.setdefault(text.strip(), href)
    return found


def test_an_invited_scorer_chooses_a_password_and_confirms_a_sheet(
    organiser_client, client, tournament, scorer
):
    """The organiser invites dora (and eve.black, a name with a space refused first); dora
    opens her link, chooses a password (a short one refused), is welcomed and confirms
    the sheet simon entered; her link then works no more."""
    table = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    # One rotation at a table of four, awaiting a second person.
    save_sheet(table, scorer, [SHEET_ROW] * 4, expected_version=0, final=True)

    made = organiser_client.post(invite_url(tournament), {"invite-username": "dora"})
    page = made.content.decode()
    assert "<h2>Invitation of dora</h2>" in page
    assert '<p class="invitation-address"><a href="http://testserver/accounts/invite/' in page
    assert "<svg" in page
    link = re.search(r'<p class="invitation-address"><a href="([^"]+)"', page).group(1)
    assert "Back to Scorers" in links(page)

    refused = organiser_client.post(invite_url(tournament), {"invite-username": "Eve Black"})
    page = refused.content.decode()
    assert "data-error-summary" in page
    assert "for example “eve.black”" in page
    assert 'value="Eve Black"' in page
    organiser_client.post(invite_url(tournament), {"invite-username": "eve.black"})
    listed = organiser_client.get(scorers_url(tournament)).content.decode()
    pending = listed[listed.index('<ul class="invitation-list">') :]
    pending = pending[: pending.index("</ul>")]
    assert pending.count("<li>") == 2
    assert "<span>dora</span>" in pending
    assert "<span>eve.black</span>" in pending
    assert "link works until" in pending

    opened = client.get(link).content.decode()
    assert "Score Test Open" in opened
    assert '<span class="invitation-name">dora</span>' in opened
    short = choose(client, link.rsplit("/", 2)[-2], "short").content.decode()
    assert "data-error-summary" in short
    assert "too short" in short
    welcomed = client.post(
        link, {"password1": GOOD_PASSWORD, "password2": GOOD_PASSWORD}, follow=True
    ).content.decode()
    assert "Welcome, dora: you score Test Open." in welcomed
    assert 'aria-label="Log out dora"' in welcomed or "Log out dora" in welcomed
    row = re.search(r'<li class="status-entered" data-table="1">(.*?)</li>', welcomed, re.S)
    assert row, "table 1 awaits confirmation on dora's list"
    confirm = links(row.group(1))["Confirm"]
    review = links(client.get(confirm).content.decode())["Review it against the paper"]
    reviewed = client.get(confirm.split("?")[0] + review).content.decode()
    assert "Confirm: matches the paper" in reviewed
    version = re.search(r'name="expected_version" value="(\d+)"', reviewed).group(1)
    done = client.post(
        confirm.split("?")[0], {"mode": "review", "expected_version": version}, follow=True
    )
    assert "Round 1 · Table 1 confirmed: it now counts." in done.content.decode()
    sheet = Sheet.objects.get(table=table)
    assert sheet.status == SheetStatus.CONFIRMED
    assert sheet.confirmed_by.get_username() == "dora"

    again = client.get(link)
    assert again.status_code == 410
    assert "This link no longer works" in again.content.decode()
    assert "This invitation has been used" in Client().get(link).content.decode()
