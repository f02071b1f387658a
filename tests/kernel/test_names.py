"""People's names and clubs compare ignoring accents, case and spacing (tournament/kernel/names.py)."""

import pytest
from django.db import IntegrityError, transaction

from tests.factories import PlayerFactory
from tournament.kernel.names import key, text_problem, without_hidden
from tournament.models import Person


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Zoë Brontë", "zoe bronte"),
        ("Anne-Marie  O'Neil", "anne marie o neil"),
        ("  MacLeod ", "macleod"),
        ("J. R. Hartley", "j r hartley"),
        ("Ångström", "ANGSTROM"),
        ("Straße", "strasse"),
        ("The  Red\tLion", "the red lion"),
    ],
)
def test_names_that_differ_only_in_accents_case_or_spacing_share_a_key(one, other):
    assert key(one) == key(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ann Marie", "Annmarie"),
        ("Jon Smith", "John Smith"),
        ("Lee", "Leigh"),
    ],
)
def test_names_spelled_differently_keep_different_keys(one, other):
    assert key(one) != key(other)


def test_an_empty_club_has_an_empty_key():
    assert key("") == ""
    assert key(" - ") == ""


@pytest.mark.django_db
def test_a_person_keeps_the_keys_of_their_name_and_club_on_every_save():
    person = Person.objects.create(name="Zoë  Brontë", club="The Red-Lion")
    assert (person.name_key, person.club_key) == ("zoe bronte", "the red lion")

    person.name = "Zoë Brontë-Smith"
    person.save(update_fields=["name"])
    person.refresh_from_db()
    assert person.name_key == "zoe bronte smith"


@pytest.mark.django_db
def test_a_person_without_a_member_number_is_known_by_a_stable_id():
    member = Person.objects.create(name="Ada", member="M0123")
    other = Person.objects.create(name="Bea")
    assert member.identifier == "M0123"
    assert other.identifier == f"person-{other.pk}"


@pytest.mark.django_db
def test_two_players_of_one_tournament_cannot_be_the_same_person():
    person = Person.objects.create(name="Ada")
    first = PlayerFactory(person=person)
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerFactory(tournament=first.tournament, person=person)
    assert PlayerFactory(person=person).person == person


@pytest.mark.django_db
def test_two_people_cannot_share_a_member_number_but_many_may_have_none():
    Person.objects.create(name="Ada", member="M1")
    Person.objects.create(name="Bea")
    Person.objects.create(name="Cy")
    with pytest.raises(IntegrityError), transaction.atomic():
        Person.objects.create(name="Dee", member="M1")


@pytest.mark.parametrize(
    ("older", "kept"),
    [
        ("Crown \u202eOpen", "Crown Open"),
        ("Ann\u200bLee", "AnnLee"),
        ("\u2066Red Lion\u2069", "Red Lion"),
        ("Ann\tLee", "Ann Lee"),
        ("Zoë Brontë", "Zoë Brontë"),
        # Joiners shape a name's letters: they stay, as the rule lets them.
        ("क्\u200dष", "क्\u200dष"),
        ("\u200b\u202e", ""),
    ],
)
def test_a_name_without_what_the_rule_refuses(older, kept):
    """How a restore reads back a name an older version let through."""
    assert without_hidden(older) == kept
    assert text_problem(kept) is None or kept == ""
