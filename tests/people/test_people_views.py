"""The organiser's pages of people: the register (who may keep it, search, add, edit,
merge), linking a tournament's players to people, and people offered while adding a
player."""

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory
from tests.routes import ROUTES, Access, url_for
from tournament.models import Person, Player
from tournament.people import services as people

PEOPLE_ROUTES = sorted(name for name, route in ROUTES.items() if route.access is Access.PEOPLE)


@pytest.fixture
def tournament(seated_round):
    return seated_round.tournament


def players(tournament):
    return list(Player.objects.filter(tournament=tournament).order_by("pk"))


# Who may keep the register -------------------------------------------------------------------


def test_the_register_has_pages():
    assert PEOPLE_ROUTES == ["people:add", "people:edit", "people:list", "people:merge"]


@pytest.mark.parametrize("name", PEOPLE_ROUTES)
def test_anonymous_visitors_are_sent_to_log_in(client, db, name):
    url = url_for(name)
    for method in sorted(ROUTES[name].methods):
        response = getattr(client, method.lower())(url)
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))


@pytest.mark.parametrize("name", PEOPLE_ROUTES)
def test_who_organises_nothing_is_refused_and_changes_nothing(
    outsider_client, scorer_client, tournament, name
):
    """A scorer of a tournament, or a stranger, is not an organiser: a 403, not a write."""
    ann = people.add_person("Ann Lee", "", "M1")
    other = people.add_person("Annie Lee")
    url = url_for(name)
    for client in (outsider_client, scorer_client):
        for method in sorted(ROUTES[name].methods):
            data = {"name": "Intruder", "member": "M9", "other": other.pk}
            response = getattr(client, method.lower())(url, data)
            assert response.status_code == 403, (name, method)
    assert Person.objects.filter(name="Intruder").count() == 0
    assert Person.objects.filter(pk__in=[ann.pk, other.pk]).count() == 2


@pytest.mark.parametrize("name", ["people:list", "people:edit", "people:merge"])
def test_any_organiser_and_a_superuser_may_open_it(
    organiser_client, outsider, client, tournament, name
):
    assert organiser_client.get(url_for(name)).status_code == 200
    outsider.is_superuser = True
    outsider.save()
    client.force_login(outsider)
    assert client.get(url_for(name)).status_code == 200
    # Another tournament's organiser keeps the same register.
    TournamentFactory(owner=outsider)
    outsider.is_superuser = False
    outsider.save()
    assert client.get(url_for(name)).status_code == 200


LINKING_ROUTES = [
    "players_people",
    "players_people_auto",
    "player_person",
    "player_new_person",
    "player_unlink",
]


@pytest.mark.usefixtures("organising_granted")
@pytest.mark.parametrize("name", LINKING_ROUTES)
def test_an_organiser_who_may_not_keep_the_register_links_nobody_and_is_told_why(
    organiser_client, tournament, hidden_person, name
):
    """With ``ORGANISERS=granted``, the owner of a tournament who was never granted "may
    organise" is kept out of linking its players exactly as out of the register: a 403
    saying why, nothing of the register shown, nothing written."""
    first, second = players(tournament)[:2]
    people.link(second, people.add_person("Linked Before"))
    # A player's route names the player: the one linked before for "not this person".
    player = {"players_people": (), "players_people_auto": (), "player_unlink": (second.pk,)}
    url = link_url(name, tournament, *player.get(name, (first.pk,)))
    for method in sorted(ROUTES[f"organiser:{name}"].methods):
        data = {"person": hidden_person.pk, "member": "NEW1", "player": first.pk, "q": "Annabel"}
        response = getattr(organiser_client, method.lower())(url, data)
        assert response.status_code == 403, method
        page = response.content.decode()
        assert "Only organisers may keep the register of people" in page
        assert "Ask the administrator to add your account to the Organisers group." in page
        assert "Annabel Hidden" not in page
    assert hidden_person.players.count() == 1
    assert players(tournament)[0].person is None
    assert players(tournament)[1].person.name == "Linked Before"
    assert Person.objects.count() == 2


def test_the_register_is_in_the_organisers_navigation(organiser_client, tournament):
    home = organiser_client.get(reverse("organiser:home")).content.decode()
    assert home.count(f'href="{reverse("people:list")}"') == 1
    page = organiser_client.get(reverse("organiser:players", args=[tournament.slug]))
    assert reverse("organiser:players_people", args=[tournament.slug]) in page.content.decode()


def test_a_scorer_who_organises_nothing_is_not_shown_the_register(scorer_client, tournament):
    home = scorer_client.get(reverse("organiser:home")).content.decode()
    assert reverse("people:list") not in home


# The register ----------------------------------------------------------------------------------


def test_the_register_lists_and_finds_people(organiser_client, tournament):
    people.add_person("Zoë Ånström", "Le Café", "M0123")
    people.add_person("Bob Day", "Rooks")
    page = organiser_client.get(reverse("people:list")).content.decode()
    assert "2 people in the register" in page
    assert "Zoë Ånström" in page
    assert "Bob Day" in page
    found = organiser_client.get(reverse("people:list"), {"q": "ZOE"}).content.decode()
    assert "Zoë Ånström" in found
    assert "Bob Day" not in found
    # htmx asks for the results alone.
    partial = organiser_client.get(
        reverse("people:list"), {"q": "m0123"}, headers={"HX-Request": "true"}
    ).content.decode()
    assert "Zoë Ånström" in partial
    assert "<html" not in partial
    assert "Add a person" not in partial


def test_the_register_page_costs_the_same_queries_however_many_people(
    organiser_client, tournament, django_assert_max_num_queries
):
    people.add_person("Ann Lee")
    organiser_client.get(reverse("people:list"))
    with django_assert_max_num_queries(8) as few:
        organiser_client.get(reverse("people:list"))
    for number in range(40):
        people.add_person(f"Person {number}", "Club", f"M{number}")
    with django_assert_max_num_queries(len(few.captured_queries)):
        organiser_client.get(reverse("people:list"))


def test_adding_a_person_and_a_member_number_clash(organiser_client, tournament):
    response = organiser_client.post(
        reverse("people:add"), {"name": " Ann  Lee ", "club": "Rooks", "member": "M1"}
    )
    assert response.status_code == 302
    ann = Person.objects.get()
    assert (ann.name, ann.club, ann.member) == ("Ann Lee", "Rooks", "M1")
    response = organiser_client.post(reverse("people:add"), {"name": "Bob Day", "member": "M1"})
    assert response.status_code == 200
    assert "member number M1 is already Ann Lee’s" in response.content.decode()
    response = organiser_client.post(
        reverse("people:add"), {"name": "Bob Day", "member": "person-4"}
    )
    assert "starts with “person-”" in response.content.decode()
    assert Person.objects.count() == 1


def test_editing_a_person_refuses_another_persons_member_number(organiser_client, tournament):
    people.add_person("Ann Lee", "", "M1")
    bob = people.add_person("Bob Day", "", "M2")
    url = reverse("people:edit", args=[bob.pk])
    response = organiser_client.post(url, {"name": "Bob Day", "club": "", "member": "M1"})
    assert "member number M1 is already Ann Lee’s" in response.content.decode()
    bob.refresh_from_db()
    assert bob.member == "M2"
    response = organiser_client.post(url, {"name": "Robert Day", "club": "Pawns", "member": ""})
    assert response.status_code == 302
    bob.refresh_from_db()
    assert (bob.name, bob.club, bob.member) == ("Robert Day", "Pawns", "")


def test_merging_from_the_page(organiser_client, tournament):
    ann = people.add_person("Ann Lee", "Rooks", "M1")
    annie = people.add_person("Anne Lee", "Rooks", "M2")
    moved = players(tournament)[0]
    people.link(moved, annie)
    page = organiser_client.get(reverse("people:merge", args=[ann.pk])).content.decode()
    assert "Merge Anne Lee into Ann Lee" in page  # a near match, proposed
    response = organiser_client.post(
        reverse("people:merge", args=[ann.pk]), {"other": annie.pk, "member": "M2"}
    )
    assert response.status_code == 302
    moved.refresh_from_db()
    assert moved.person == ann
    ann.refresh_from_db()
    assert ann.member == "M2"
    assert not Person.objects.filter(pk=annie.pk).exists()


def test_two_people_of_one_tournament_are_not_merged_from_the_page(organiser_client, tournament):
    ann = people.add_person("Ann Lee")
    annie = people.add_person("Annie Lee")
    first, second = players(tournament)[:2]
    people.link(first, ann)
    people.link(second, annie)
    response = organiser_client.post(reverse("people:merge", args=[ann.pk]), {"other": annie.pk})
    assert response.status_code == 200
    assert "Nothing was merged: Ann Lee and Annie Lee both played in Test Open" in (
        response.content.decode()
    )
    assert Person.objects.count() == 2


def test_merging_with_a_person_gone_is_a_message(organiser_client, tournament):
    ann = people.add_person("Ann Lee")
    response = organiser_client.post(reverse("people:merge", args=[ann.pk]), {"other": 999999})
    assert "no longer in the register" in response.content.decode()


# What the register shows of other organisers' tournaments ---------------------------------------


@pytest.fixture
def ann_everywhere(tournament, outsider, organiser):
    """Ann plays in the organiser's own tournament, in another organiser's published one,
    in one the organiser scores, and in another organiser's unpublished "Secret B"."""
    ann = people.add_person("Ann Lee")
    others = {
        "open": TournamentFactory(name="Open Day", owner=outsider, published=True),
        "scored": TournamentFactory(name="Scored Cup", owner=outsider, scorers=[organiser]),
        "secret": TournamentFactory(name="Secret B", slug="secret-b", owner=outsider),
    }
    people.link(players(tournament)[0], ann)
    for other in others.values():
        people.link(Player.objects.create(tournament=other, ref="p1", name="Cat Other"), ann)
    return ann, others


def test_a_persons_page_shows_only_the_tournaments_the_viewer_may_see(
    organiser_client, ann_everywhere, tournament
):
    ann, _ = ann_everywhere
    page = organiser_client.get(reverse("people:edit", args=[ann.pk])).content.decode()
    for shown in (tournament.name, "Open Day", "Scored Cup"):
        assert shown in page
    assert "Secret B" not in page
    assert "secret-b" not in page
    assert "Also in 1 tournament you cannot see" in page


def test_a_superuser_sees_every_tournament_of_a_person(client, outsider, ann_everywhere):
    ann, _ = ann_everywhere
    admin = type(outsider).objects.create_superuser("root", password="pw")
    client.force_login(admin)
    page = client.get(reverse("people:edit", args=[ann.pk])).content.decode()
    assert "Secret B" in page
    assert "you cannot see" not in page


def test_the_register_counts_only_the_tournaments_the_viewer_may_see(
    organiser_client, ann_everywhere
):
    page = organiser_client.get(reverse("people:list")).content.decode()
    assert "· 3 tournaments" in page


def test_a_merge_refused_over_an_unseen_tournament_does_not_name_it(
    organiser_client, ann_everywhere, client, outsider
):
    ann, others = ann_everywhere
    annie = people.add_person("Annie Lee")
    people.link(Player.objects.create(tournament=others["secret"], ref="p2", name="Dee"), annie)
    response = organiser_client.post(reverse("people:merge", args=[ann.pk]), {"other": annie.pk})
    page = response.content.decode()
    assert "Nothing was merged: Ann Lee and Annie Lee both played in a tournament you " in page
    assert "Secret B" not in page
    # Its organiser is told which.
    client.force_login(outsider)
    response = client.post(reverse("people:merge", args=[ann.pk]), {"other": annie.pk})
    assert "both played in Secret B" in response.content.decode()
    assert Person.objects.filter(pk__in=[ann.pk, annie.pk]).count() == 2


def test_a_merge_refusal_names_a_tournament_the_viewer_may_see(
    organiser_client, ann_everywhere, outsider
):
    ann, others = ann_everywhere
    zoo = TournamentFactory(name="Zoo Cup", owner=outsider, published=True)
    people.link(Player.objects.create(tournament=zoo, ref="p1", name="Ann"), ann)
    annie = people.add_person("Annie Lee")
    # Secret B comes first by name, but is not the organiser's to see.
    for both in (others["secret"], zoo):
        people.link(Player.objects.create(tournament=both, ref="p2", name="Dee"), annie)
    response = organiser_client.post(reverse("people:merge", args=[ann.pk]), {"other": annie.pk})
    page = response.content.decode()
    assert "both played in Zoo Cup" in page
    assert "Secret B" not in page


# Linking a tournament's players -----------------------------------------------------------------


def link_url(name, tournament, *args):
    return reverse(f"organiser:{name}", args=[tournament.slug, *args])


def test_the_review_page_links_automatically_then_proposes_the_rest(organiser_client, tournament):
    first, second, third = players(tournament)[:3]
    same = people.add_person(first.name.upper(), first.club)
    near = people.add_person(second.name + "e", second.club)
    response = organiser_client.post(link_url("players_people_auto", tournament), follow=True)
    page = response.content.decode()
    assert "Linked 1 player to the person with the same name and club" in page
    first.refresh_from_db()
    assert first.person == same
    assert f"This is {near.name}" in page
    assert "Not linked yet (11)" in page
    assert "Linked (1)" in page
    assert third.name in page


def test_accepting_creating_and_unlinking_with_htmx(organiser_client, tournament):
    first, second = players(tournament)[:2]
    ann = people.add_person("Ann Lee")
    htmx = {"HX-Request": "true"}
    response = organiser_client.post(
        link_url("player_person", tournament, first.pk), {"person": ann.pk}, headers=htmx
    )
    row = response.content.decode()
    assert f'id="player-{first.pk}"' in row
    assert "<html" not in row
    assert "not this person" in row
    # A second player of the tournament cannot be the same person: said in the row.
    response = organiser_client.post(
        link_url("player_person", tournament, second.pk), {"person": ann.pk}, headers=htmx
    )
    assert f"Ann Lee already plays in Test Open as {first.name}" in response.content.decode()
    second.refresh_from_db()
    assert second.person is None
    # A new person made from the second player, with a member number.
    response = organiser_client.post(
        link_url("player_new_person", tournament, second.pk), {"member": "M7"}, headers=htmx
    )
    second.refresh_from_db()
    assert (second.person.name, second.person.member) == (second.name, "M7")
    # A clash of member numbers is named, and makes nobody.
    third = players(tournament)[2]
    response = organiser_client.post(
        link_url("player_new_person", tournament, third.pk), {"member": "M7"}, headers=htmx
    )
    assert f"member number M7 is already {second.name}’s" in response.content.decode()
    assert Person.objects.count() == 2
    organiser_client.post(link_url("player_unlink", tournament, first.pk), headers=htmx)
    first.refresh_from_db()
    assert first.person is None


def test_linking_works_without_javascript(organiser_client, tournament):
    first, second = players(tournament)[:2]
    ann = people.add_person("Ann Lee")
    response = organiser_client.post(
        link_url("player_person", tournament, first.pk), {"person": ann.pk}, follow=True
    )
    assert f"{first.name} is Ann Lee." in response.content.decode()
    response = organiser_client.post(
        link_url("player_person", tournament, second.pk), {"person": ann.pk}, follow=True
    )
    assert "already plays in Test Open" in response.content.decode()
    for typed in ("x", "²", "-1"):
        response = organiser_client.post(
            link_url("player_person", tournament, second.pk), {"person": typed}, follow=True
        )
        assert response.status_code == 200, typed
        assert "Choose a person from the register." in response.content.decode()


def test_linking_to_a_person_merged_away_since_the_page_was_shown_says_so(
    organiser_client, tournament
):
    (player,) = players(tournament)[:1]
    ann, anne = people.add_person("Ann Lee"), people.add_person("Anne Lee")
    people.merge(anne, ann)
    response = organiser_client.post(
        link_url("player_person", tournament, player.pk), {"person": ann.pk}, follow=True
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "That person is no longer in the register: merged into another person" in page
    player.refresh_from_db()
    assert player.person is None


@pytest.mark.parametrize("searched", ["²", "x", "-3", "\x00"])
def test_a_search_for_a_player_that_is_no_number_shows_the_whole_page(
    organiser_client, tournament, searched
):
    response = organiser_client.get(link_url("players_people", tournament), {"player": searched})
    assert response.status_code == 200
    assert "Link players to people" in response.content.decode()


def test_searching_for_someone_else_for_one_player(organiser_client, tournament):
    first = players(tournament)[0]
    people.add_person("Quentin Blake", "Pawns")
    url = link_url("players_people", tournament)
    response = organiser_client.get(url, {"player": first.pk, "q": "quent"})
    assert "This is Quentin Blake" in response.content.decode()
    row = organiser_client.get(
        url, {"player": first.pk, "q": "nobody"}, headers={"HX-Request": "true"}
    ).content.decode()
    assert "Nobody in the register matches “nobody”" in row
    assert "<html" not in row


def test_another_tournaments_player_is_not_linked_from_here(organiser_client, tournament):
    elsewhere = TournamentFactory()
    stranger = Player.objects.create(tournament=elsewhere, ref="x1", name="X")
    ann = people.add_person("Ann Lee")
    response = organiser_client.post(
        link_url("player_person", tournament, stranger.pk), {"person": ann.pk}
    )
    assert response.status_code == 404
    stranger.refresh_from_db()
    assert stranger.person is None


# Adding a player ---------------------------------------------------------------------------------


def test_typing_a_name_offers_people_of_the_register(organiser_client, tournament):
    people.add_person("Zoë Ånström", "Le Café", "M0123")
    url = link_url("players", tournament)
    partial = organiser_client.get(
        url, {"name": "zoe an"}, headers={"HX-Request": "true"}
    ).content.decode()
    assert "Zoë Ånström" in partial
    assert "M0123" in partial
    assert "<html" not in partial
    # Without JavaScript, the "Find in the register" button gives the page with them.
    page = organiser_client.get(url, {"name": "zoe an", "club": ""}).content.decode()
    assert 'name="person"' in page
    assert "Zoë Ånström" in page


def test_choosing_a_person_links_the_new_player_and_fills_the_club(organiser_client, tournament):
    zoe = people.add_person("Zoë Ånström", "Le Café", "M0123")
    response = organiser_client.post(
        link_url("players", tournament), {"name": "Zoe Anstrom", "club": "", "person": zoe.pk}
    )
    assert response.status_code == 302
    player = Player.objects.get(tournament=tournament, name="Zoe Anstrom")
    assert (player.person, player.club) == (zoe, "Le Café")


def test_a_member_number_typed_links_or_makes_the_person(organiser_client, tournament):
    url = link_url("players", tournament)
    organiser_client.post(url, {"name": "Bob Day", "club": "Rooks", "member": "M5"})
    bob = Person.objects.get(member="M5")
    assert (bob.name, bob.club) == ("Bob Day", "Rooks")
    # The same number again, in the same tournament: refused, and nobody is added.
    response = organiser_client.post(url, {"name": "Robert Day", "member": "M5"})
    assert "Not added: Bob Day already plays in Test Open as Bob Day" in (response.content.decode())
    assert not Player.objects.filter(name="Robert Day").exists()


def test_a_person_and_another_member_number_disagree(organiser_client, tournament):
    zoe = people.add_person("Zoë Ånström", "", "M0123")
    response = organiser_client.post(
        link_url("players", tournament), {"name": "Zoe", "person": zoe.pk, "member": "M9"}
    )
    assert "Zoë Ånström’s member number is M0123, not M9." in response.content.decode()
    assert not Player.objects.filter(name="Zoe").exists()


def test_the_players_list_shows_a_linked_players_member_number(organiser_client, tournament):
    first = players(tournament)[0]
    people.link(first, people.add_person("Ann Lee", "", "M0042"))
    page = organiser_client.get(link_url("players", tournament)).content.decode()
    assert ">M0042</span>" in page


def test_a_players_page_says_who_they_are_in_the_register(organiser_client, tournament):
    first, second = players(tournament)[:2]
    ann = people.add_person("Ann Lee", "", "M0042")
    people.link(first, ann)
    page = organiser_client.get(link_url("player_edit", tournament, first.pk)).content.decode()
    assert reverse("people:edit", args=[ann.pk]) in page
    page = organiser_client.get(link_url("player_edit", tournament, second.pk)).content.decode()
    assert "Not linked to a person of the register." in page
