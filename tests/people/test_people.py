"""The register of people (tournament/people/services.py): member numbers, matching a
tournament's players to people with accents, case, spacing and duplicates, linking a
person at most once a tournament, and merging two people into one."""

import re

import pytest

from tests.factories import PlayerFactory, TournamentFactory
from tournament.models import Person, Player
from tournament.people import review
from tournament.people import services as people
from tournament.people.services import PeopleError


@pytest.fixture
def tournament(db):
    return TournamentFactory(name="Spring Cup", slug="spring-cup")


def player(tournament, name, club=""):
    return PlayerFactory(tournament=tournament, name=name, club=club)


# Member numbers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("M0123", "M0123"), ("  M0123 ", "M0123"), ("", ""), ("   ", ""), ("Ö-12", "Ö-12")],
)
def test_a_member_number_is_kept_as_typed_less_the_spaces_around_it(typed, stored):
    assert people.clean_member(typed) == stored


@pytest.mark.parametrize(
    ("typed", "problem"),
    [
        ("person-12", "starts with “person-”"),
        ("PERSON-3", "starts with “person-”"),
        ("M 0123", "has a space in it"),
        ("M" * 31, "longer than 30 characters"),
        ("M\u200b12", "invisible character"),
        ("RL/01", "made of letters, digits, dots, hyphens and underscores"),
        ("M#1", "made of letters, digits"),
        ("M?1", "made of letters, digits"),
        ("M%2F1", "made of letters, digits"),
    ],
)
def test_a_member_number_that_cannot_be_one_is_refused_with_the_reason(typed, problem):
    with pytest.raises(PeopleError, match=problem):
        people.clean_member(typed, where="line 3")
    with pytest.raises(PeopleError, match=r"^line 3: "):
        people.clean_member(typed, where="line 3")


def test_two_people_cannot_have_one_member_number(db):
    people.add_person("Ann Lee", "Rooks", "M1")
    with pytest.raises(PeopleError, match="member number M1 is already Ann Lee’s"):
        people.add_person("Bob Day", "", "M1")
    bob = people.add_person("Bob Day", "", "M2")
    with pytest.raises(PeopleError, match="member number M1 is already Ann Lee’s"):
        people.edit_person(bob, "Bob Day", "", " M1 ")
    bob.refresh_from_db()
    assert bob.member == "M2"
    assert Person.objects.count() == 2


@pytest.mark.parametrize(
    ("name", "club", "problem"),
    [
        ("Ann \u202eLee", "", "name: the name has invisible direction-changing characters"),
        ("Ann Lee", "Red\u200bLion", "club: the club has an invisible character (U+200B ZERO"),
        ("\u3164", "", "name: the name has no visible characters"),
    ],
)
def test_a_person_s_name_and_club_obey_the_rule_of_every_name(db, name, club, problem):
    """The services' own check, whatever page or command calls them."""
    with pytest.raises(PeopleError, match=re.escape(problem)):
        people.add_person(name, club)
    ann = people.add_person("Ann Lee", "Red Lion")
    with pytest.raises(PeopleError, match=re.escape(problem)):
        people.edit_person(ann, name, club, "")
    assert list(Person.objects.values_list("name", "club")) == [("Ann Lee", "Red Lion")]


def test_people_without_a_member_number_are_many(db):
    people.add_person("Ann Lee")
    people.add_person("Bob Day")
    assert list(Person.objects.values_list("member", flat=True)) == ["", ""]


def test_a_person_is_named_by_the_member_number_or_a_stable_id(db):
    ann = people.add_person("Ann Lee", member="M7")
    bob = people.add_person("Bob Day")
    assert ann.identifier == "M7"
    assert bob.identifier == f"person-{bob.pk}"


# Finding people ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "club"),
    [
        ("Zoë Ånström", "Le Café"),
        ("zoe anstrom", "le cafe"),
        ("ZOE   ANSTRÖM", "LE  CAFÉ"),
        ("  Zoe Anström ", "Le-Cafe"),
    ],
)
def test_the_same_name_and_club_ignores_case_accents_and_spacing(db, name, club):
    zoe = people.add_person("Zoë Ånström", "Le Café")
    assert people.same_name_and_club(name, club) == [zoe]


def test_the_same_name_in_another_club_is_not_the_same_person(db):
    people.add_person("Ann Lee", "Rooks")
    assert people.same_name_and_club("Ann Lee", "Pawns") == []
    assert people.same_name_and_club("Ann Lee", "") == []


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("Jon Smith", ["John Smith"]),
        ("Smith John", ["John Smith"]),
        ("Jonh Smiht", ["John Smith"]),
        ("Ann Lee", ["Ann Lee", "Anne Lee"]),
        ("Bob Day", []),
    ],
)
def test_near_matches_are_similar_names_likest_first(db, typed, found):
    for name in ("John Smith", "Anne Lee", "Ann Lee", "Joan Smythe-Barrington"):
        people.add_person(name)
    assert [p.name for p in people.near_matches(typed)] == found


def test_search_finds_part_of_a_name_a_club_or_a_member_number(db):
    zoe = people.add_person("Zoë Ånström", "Le Café", "M0123")
    ann = people.add_person("Ann Zoellner", "Rooks")
    assert people.search("zoe") == [zoe, ann]
    assert people.search("ZOEL") == [ann]
    assert people.search("rooks") == [ann]
    assert people.search("m0123") == [zoe]
    assert people.search("   ") == []


# Linking -------------------------------------------------------------------------------------


def test_a_person_plays_at_most_once_in_a_tournament(tournament):
    ann = people.add_person("Ann Lee")
    first, second = player(tournament, "Ann Lee"), player(tournament, "A. Lee")
    people.link(first, ann)
    with pytest.raises(PeopleError, match="Ann Lee already plays in Spring Cup as Ann Lee"):
        people.link(second, ann)
    second.refresh_from_db()
    assert second.person is None
    # Linking the same player again changes nothing and is no error.
    people.link(first, ann)
    assert list(ann.players.all()) == [first]


def test_a_person_plays_in_many_tournaments(tournament):
    ann = people.add_person("Ann Lee")
    people.link(player(tournament, "Ann Lee"), ann)
    people.link(player(TournamentFactory(), "Ann Lee"), ann)
    assert ann.players.count() == 2


def test_the_database_refuses_what_a_check_made_too_early_would_let_through(
    tournament, monkeypatch
):
    """Two requests at one moment: both checks pass, the second save meets the
    constraint and is refused with the same words, not an error page."""
    ann = people.add_person("Ann Lee")
    first, second = player(tournament, "Ann Lee"), player(tournament, "A. Lee")
    people.link(first, ann)
    real_filter = Player.objects.filter
    checks = []

    def too_early(*args, **kwargs):
        # The first look finds nobody, as it would before the other request committed.
        if "person" in kwargs and not checks:
            checks.append(kwargs)
            return real_filter(pk=-1)
        return real_filter(*args, **kwargs)

    monkeypatch.setattr(Player.objects, "filter", too_early)
    with pytest.raises(PeopleError, match="already plays in Spring Cup"):
        people.link(second, ann)
    monkeypatch.undo()
    second.refresh_from_db()
    assert second.person is None


def test_a_person_made_from_a_player_carries_their_name_and_club(tournament):
    zoe = player(tournament, "Zoë Ånström", "Le Café")
    person = people.create_for(zoe, member="M9")
    assert (person.name, person.club, person.member) == ("Zoë Ånström", "Le Café", "M9")
    zoe.refresh_from_db()
    assert zoe.person == person


def test_link_or_create_finds_the_member_number_or_makes_the_person(tournament):
    ann = people.add_person("Ann Lee", "Rooks", "M1")
    found = people.link_or_create(player(tournament, "Annie Lee"), "M1")
    made = people.link_or_create(player(tournament, "Bob Day", "Pawns"), "M2")
    assert found == ann
    assert (made.name, made.club, made.member) == ("Bob Day", "Pawns", "M2")


def test_automatic_links_take_the_one_person_of_the_same_name_and_club(tournament):
    zoe = people.add_person("Zoë Ånström", "Le Café")
    people.add_person("Sam Roe", "Rooks")
    people.add_person("Sam Roe", "Rooks")  # two of them: the organiser says which
    people.add_person("Tom Poe", "Pawns")
    z = player(tournament, "ZOE anstrom", "le cafe")
    s = player(tournament, "Sam Roe", "Rooks")
    t = player(tournament, "Tom Poe", "Rooks")  # another club
    done = review.link_automatically(tournament)
    assert done.linked == [(z, zoe)]
    assert done.left == [s]
    t.refresh_from_db()
    assert t.person is None


def test_automatic_links_never_link_a_person_twice_in_a_tournament(tournament):
    ann = people.add_person("Ann Lee")
    first, second = player(tournament, "Ann Lee"), player(tournament, "ann  lee")
    done = review.link_automatically(tournament)
    assert done.linked == [(first, ann)]
    second.refresh_from_db()
    assert second.person is None


def test_proposals_offer_near_matches_not_already_playing(tournament):
    john = people.add_person("John Smith", "Rooks")
    joan = people.add_person("Joan Smith", "Rooks")
    people.link(player(tournament, "Joan Smith", "Rooks"), joan)
    jon = player(tournament, "Jon Smith")
    (proposal,) = review.proposals(tournament)
    assert proposal.player == jon
    assert proposal.near == [john]


# Merging -----------------------------------------------------------------------------------


def test_merging_moves_the_results_to_the_kept_person(tournament):
    autumn = TournamentFactory(name="Autumn Cup")
    ann = people.add_person("Ann Lee", "Rooks")
    annie = people.add_person("Annie Lee", "Rooks", "M5")
    people.link(player(tournament, "Ann Lee"), ann)
    moved = player(autumn, "Annie Lee")
    people.link(moved, annie)
    kept = people.merge(ann, annie)
    assert kept == ann
    assert kept.member == "M5"  # the kept one had none: the other's is kept
    assert not Person.objects.filter(pk=annie.pk).exists()
    moved.refresh_from_db()
    assert moved.person == ann
    assert ann.players.count() == 2


def test_merging_chooses_the_member_number(db):
    ann = people.add_person("Ann Lee", member="M1")
    annie = people.add_person("Annie Lee", member="M2")
    assert people.merge(ann, annie).member == "M1"
    bob = people.add_person("Bob Day", member="M3")
    bobby = people.add_person("Bobby Day", member="M4")
    assert people.merge(bob, bobby, member="M4").member == "M4"


def test_merging_refuses_a_member_number_of_a_third_person(db):
    people.add_person("Cy Day", member="M9")
    ann = people.add_person("Ann Lee", member="M1")
    annie = people.add_person("Annie Lee")
    with pytest.raises(PeopleError, match="member number M9 is already Cy Day’s"):
        people.merge(ann, annie, member="M9")
    assert Person.objects.count() == 3


def test_two_people_who_played_in_one_tournament_are_not_merged(tournament):
    ann = people.add_person("Ann Lee")
    annie = people.add_person("Annie Lee")
    people.link(player(tournament, "Ann Lee"), ann)
    people.link(player(tournament, "Annie Lee"), annie)
    with pytest.raises(PeopleError, match="both played in Spring Cup"):
        people.merge(ann, annie)
    assert Person.objects.count() == 2


def test_a_person_is_not_merged_with_themselves(db):
    ann = people.add_person("Ann Lee")
    with pytest.raises(PeopleError, match="two different people"):
        people.merge(ann, ann)


def test_merging_with_someone_merged_away_meanwhile_is_a_message(db):
    ann = people.add_person("Ann Lee")
    annie = people.add_person("Annie Lee")
    Person.objects.filter(pk=annie.pk).delete()
    with pytest.raises(PeopleError, match="no longer in the register"):
        people.merge(ann, annie)


def test_linking_to_someone_merged_away_meanwhile_is_a_message(tournament):
    ann = people.add_person("Ann Lee")
    annie = people.add_person("Annie Lee")
    merged_away = Person.objects.get(pk=annie.pk)
    people.merge(ann, annie)
    newcomer = player(tournament, "Annie Lee")
    with pytest.raises(PeopleError, match="Annie Lee is no longer in the register: merged"):
        people.link(newcomer, merged_away)
    newcomer.refresh_from_db()
    assert newcomer.person is None


def test_editing_someone_merged_away_meanwhile_is_a_message(db):
    ann = people.add_person("Ann Lee")
    annie = people.add_person("Annie Lee")
    merged_away = Person.objects.get(pk=annie.pk)
    people.merge(ann, annie)
    with pytest.raises(PeopleError, match="Annie Lee is no longer in the register: merged"):
        people.edit_person(merged_away, "Annie Lea", "", "")
    assert list(Person.objects.values_list("name", flat=True)) == ["Ann Lee"]


def test_a_search_holding_a_nul_finds_nobody(db):
    people.add_person("Ann Lee")
    assert people.search("Ann\x00") == []
