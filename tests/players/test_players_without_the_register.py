"""An organiser who may not keep the register of people (with ``ORGANISERS=granted``, an
account that owns a tournament but was never granted "may organise") runs its
tournament's players as ever, but never reaches the register through them: the Players
page searches nobody, a new player is linked to nobody, a list's member numbers make and
link no person; the page says why in words. The register's keepers are unchanged
(tests/people/test_people_views.py)."""

from html import unescape

import pytest
from django.urls import reverse

from tournament.models import Person, Player

pytestmark = pytest.mark.usefixtures("organising_granted")

NOT_LINKED = "Players you add here are not linked to people"
ASK = "ask the administrator to add your account to the Organisers group"


@pytest.fixture
def tournament(seated_round):
    return seated_round.tournament


def players_url(tournament):
    return reverse("organiser:players", args=[tournament.slug])


def import_url(tournament):
    return reverse("organiser:players_import", args=[tournament.slug])


def text(response):
    return unescape(response.content.decode())


def shows_nothing_of(html, person, typed=""):
    """Nothing of ``person`` but what was ``typed`` (the page gives back what was typed)."""
    for secret in (person.name, person.club, person.member):
        assert secret == typed or secret not in html


def register_unchanged(person):
    assert list(Person.objects.values_list("pk", flat=True)) == [person.pk]
    assert person.players.count() == 1


@pytest.mark.parametrize("typed", ["Annabel", "Secret Club", "SECRET7"])
def test_the_players_page_searches_nobody(organiser_client, tournament, hidden_person, typed):
    page = organiser_client.get(players_url(tournament), {"name": typed})
    assert page.status_code == 200
    html = text(page)
    shows_nothing_of(html.replace(f'value="{typed}"', ""), hidden_person)
    assert NOT_LINKED in html
    assert "is kept by the installation’s organisers, and your account is not one of them" in html
    assert "Find in the register" not in html
    assert 'name="member"' not in html
    assert f'hx-get="{players_url(tournament)}"' not in html
    assert "Link this tournament’s players to people" not in html
    # What htmx asks for as the name is typed.
    swapped = organiser_client.get(players_url(tournament), {"name": typed}, HTTP_HX_REQUEST="true")
    shows_nothing_of(text(swapped), hidden_person)


def test_a_player_is_added_without_a_person(organiser_client, tournament, hidden_person):
    response = organiser_client.post(players_url(tournament), {"name": "Ann Newcomer", "club": ""})
    assert response.status_code == 302
    assert Player.objects.get(tournament=tournament, name="Ann Newcomer").person is None
    register_unchanged(hidden_person)


@pytest.mark.parametrize(
    ("posted", "said"),
    [
        pytest.param(
            {"person": "hidden"},
            "A person of the register was chosen: linking players to the register of people "
            "is for the installation’s organisers, and your account is not one of them; add "
            "the player alone.",
            id="person-chosen",
        ),
        pytest.param(
            {"member": "SECRET7"},
            "Member number “SECRET7”: linking players to the register of people is for the "
            "installation’s organisers, and your account is not one of them; add the player "
            "without it.",
            id="member-of-someone",
        ),
        pytest.param(
            {"member": "NEW1"},
            "Member number “NEW1”: linking players to the register of people is for the "
            "installation’s organisers, and your account is not one of them; add the player "
            "without it.",
            id="member-of-nobody",
        ),
    ],
)
def test_a_person_or_member_number_posted_is_refused_in_words(
    organiser_client, tournament, hidden_person, posted, said
):
    data = {"name": "Ann Newcomer", "club": ""} | {
        key: str(hidden_person.pk) if value == "hidden" else value for key, value in posted.items()
    }
    response = organiser_client.post(players_url(tournament), data)
    assert response.status_code == 200
    html = text(response)
    assert said in html
    shows_nothing_of(html, hidden_person, typed=posted.get("member", ""))
    assert not Player.objects.filter(name="Ann Newcomer").exists()
    register_unchanged(hidden_person)


LIST = "name,club,member\nAnn Newcomer,Crown,SECRET7\nBob Newcomer,Crown,NEW1\nCyd Newcomer,Crown\n"


def test_an_imported_list_adds_players_not_people_and_says_why(
    organiser_client, tournament, hidden_person
):
    preview = organiser_client.post(import_url(tournament), {"text": LIST})
    html = text(preview)
    shows_nothing_of(html, hidden_person, typed="SECRET7")
    note = (
        "The member numbers on lines 2 and 3 are not used: linking players to the register "
        "of people is for the installation’s organisers, so these players are imported "
        "without being linked to anyone."
    )
    assert note in html
    assert "Member numbers are not used: your account does not link players" in html
    assert html.count("member number not used") == 2
    assert "a new person" not in html

    done = organiser_client.post(
        import_url(tournament), {"text": LIST, "confirm": "on"}, follow=True
    )
    page = text(done)
    assert "Imported 3 players." in page
    assert note in page
    added = Player.objects.filter(tournament=tournament, name__endswith="Newcomer")
    assert added.count() == 3
    assert not added.exclude(person=None).exists()
    register_unchanged(hidden_person)


def test_a_list_without_member_numbers_says_nothing_of_them(organiser_client, tournament):
    preview = organiser_client.post(import_url(tournament), {"text": "Ann Newcomer,Crown\n"})
    assert "The member number" not in text(preview)
    assert "member number not used" not in text(preview)


def test_the_player_page_offers_no_link_to_people(organiser_client, tournament, hidden_person):
    player = Player.objects.filter(tournament=tournament).order_by("pk").first()
    html = text(
        organiser_client.get(reverse("organiser:player_edit", args=[tournament.slug, player.pk]))
    )
    assert "Linking players to people is for the installation’s organisers" in html
    assert ASK in html
    assert f'href="{reverse("organiser:players_people", args=[tournament.slug])}#' not in html
    assert "/manage/people/" not in html


def test_with_the_permission_the_same_account_finds_and_links(
    organiser, organiser_client, tournament, hidden_person
):
    """The gate is the register's own: granted "may organise", the organiser finds the
    person and links to them."""
    from tournament.accounts import services as accounts

    accounts.grant_organising(organiser)
    html = text(organiser_client.get(players_url(tournament), {"name": "Annabel"}))
    assert "Annabel Hidden" in html
    assert NOT_LINKED not in html
    organiser_client.post(
        players_url(tournament), {"name": "Ann Newcomer", "club": "", "person": hidden_person.pk}
    )
    assert Player.objects.get(name="Ann Newcomer").person == hidden_person
