"""Two requests changing the register of people at the same moment.

Two organisers linking two players of one tournament to the same person: one is linked,
the other is refused with the words of the check, never an error page, and the person
still plays once in the tournament. The save is slowed down so that both are in flight
together: the tournament's lock makes the second wait for the first and its check refuse
(the database's constraint ``player_person_once_a_tournament`` backs the check).

A player linked to a person, or unlinked, as that person is merged: the two wait for each
other (``shared.locks``, the register's lock order); whichever comes first is done, the
other is done after it or refused with a message saying what changed, never a deadlock
or a foreign-key error. Which one comes first varies, so each race is run ``RACES`` times.

The real tests need PostgreSQL (see ``tests/sheets/test_concurrency.py``).
"""

import time

import pytest
from django.test import Client
from django.urls import reverse

from tests.concurrency import run_together
from tests.factories import TournamentFactory, make_players
from tournament.models import Person, Player
from tournament.people import services as people


@pytest.mark.django_db(transaction=True)
def test_two_links_of_one_person_at_once_link_one_player(postgresql, organiser, monkeypatch):
    tournament = TournamentFactory(name="Spring Cup", owner=organiser)
    first, second = make_players(tournament, 2)
    ann = people.add_person("Ann Lee", "", "M1")
    real_save = Player.save

    def slow_save(self, *args, **kwargs):
        # Both requests have looked and found nobody linked to Ann before either saves.
        time.sleep(0.3)
        return real_save(self, *args, **kwargs)

    monkeypatch.setattr(Player, "save", slow_save)

    def link(player):
        def post():
            client = Client()
            client.force_login(organiser)
            url = reverse("organiser:player_person", args=[tournament.slug, player.pk])
            return client.post(url, {"person": ann.pk}, headers={"HX-Request": "true"})

        return post

    outcomes = run_together(link(first), link(second))
    assert [outcome.error for outcome in outcomes] == [None, None]
    responses = [outcome.value for outcome in outcomes]
    assert [response.status_code for response in responses] == [200, 200]
    refused = [r for r in responses if "already plays in Spring Cup" in r.content.decode()]
    assert len(refused) == 1
    assert Player.objects.filter(tournament=tournament, person=ann).count() == 1


# Each race is run this many times: which side gets there first varies from run to run,
# and every run must end in one of the two outcomes below.
RACES = 10


def _logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def _link_and_merge(organiser, *, linked_is_kept):
    """A player of Spring Cup linked to Ann as Ann and Anne (who plays in Spring Cup) are
    merged, the same moment: the link or the merge, never both, and never an error."""
    tournament = TournamentFactory(name="Spring Cup", owner=organiser)
    earlier = TournamentFactory(name="Winter Cup", owner=organiser)
    player, anne_here = make_players(tournament, 2)
    (ann_before,) = make_players(earlier, 1)
    ann = people.add_person("Ann Lee", "", "")
    anne = people.add_person("Anne Lee", "", "")
    people.link(ann_before, ann)
    people.link(anne_here, anne)
    kept, gone = (ann, anne) if linked_is_kept else (anne, ann)
    linking, merging = _logged_in(organiser), _logged_in(organiser)
    link_url = reverse("organiser:player_person", args=[tournament.slug, player.pk])
    merge_url = reverse("people:merge", args=[kept.pk])

    outcomes = run_together(
        lambda: linking.post(link_url, {"person": ann.pk}, headers={"HX-Request": "true"}),
        lambda: merging.post(merge_url, {"other": gone.pk}),
    )

    assert [outcome.error for outcome in outcomes] == [None, None]
    link_response, merge_response = (outcome.value for outcome in outcomes)
    assert link_response.status_code == 200
    link_page = link_response.content.decode()
    linked = "is no longer in the register" not in link_page and "already plays" not in link_page
    # The row shows the player linked (a button to undo it) exactly when nothing was refused.
    assert linked == ("not this person" in link_page), link_page
    merged = merge_response.status_code == 302
    if not merged:
        assert merge_response.status_code == 200
        refusal = f"Nothing was merged: {kept.name} and {gone.name} both played in Spring Cup"
        assert refusal in merge_response.content.decode()
    assert linked != merged, "one of the two is done, the other refused"
    player.refresh_from_db()
    if linked:
        assert player.person_id == ann.pk
        assert Person.objects.filter(pk__in=[ann.pk, anne.pk]).count() == 2
    else:
        assert player.person_id is None
        assert not Person.objects.filter(pk=gone.pk).exists()
        reason = "already plays in Spring Cup" if linked_is_kept else "merged into another person"
        assert reason in link_page


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("linked_is_kept", [False, True], ids=["merged-away", "kept"])
def test_linking_a_player_as_their_person_is_merged_links_or_merges_never_an_error(
    postgresql, organiser, linked_is_kept
):
    for _ in range(RACES):
        _link_and_merge(organiser, linked_is_kept=linked_is_kept)


def _unlink_and_merge(organiser):
    """A player of one tournament unlinked from Ann as Ann is merged into Anne: both are
    done, whichever comes first."""
    tournament = TournamentFactory(owner=organiser)
    earlier = TournamentFactory(owner=organiser)
    (player,) = make_players(tournament, 1)
    (before,) = make_players(earlier, 1)
    ann = people.add_person("Ann Lee", "", "")
    anne = people.add_person("Anne Lee", "", "")
    people.link(player, ann)
    people.link(before, anne)
    unlinking, merging = _logged_in(organiser), _logged_in(organiser)
    unlink_url = reverse("organiser:player_unlink", args=[tournament.slug, player.pk])

    outcomes = run_together(
        lambda: unlinking.post(unlink_url),
        lambda: merging.post(reverse("people:merge", args=[anne.pk]), {"other": ann.pk}),
    )

    assert [outcome.error for outcome in outcomes] == [None, None]
    assert [outcome.value.status_code for outcome in outcomes] == [302, 302]
    player.refresh_from_db()
    assert player.person_id is None
    assert not Person.objects.filter(pk=ann.pk).exists()
    assert Player.objects.get(pk=before.pk).person_id == anne.pk


@pytest.mark.django_db(transaction=True)
def test_unlinking_a_player_as_their_person_is_merged_does_both(postgresql, organiser):
    for _ in range(RACES):
        _unlink_and_merge(organiser)


def _link_elsewhere_and_merge(organiser):
    """A player of a third tournament linked to Ann as Ann is merged into Anne: the merge
    then moves the new link too, or the link is refused; never an error."""
    tournament, first, second = (TournamentFactory(owner=organiser) for _ in range(3))
    (player,) = make_players(tournament, 1)
    ann = people.add_person("Ann Lee", "", "")
    anne = people.add_person("Anne Lee", "", "")
    people.link(make_players(first, 1)[0], ann)
    people.link(make_players(second, 1)[0], anne)
    linking, merging = _logged_in(organiser), _logged_in(organiser)
    link_url = reverse("organiser:player_person", args=[tournament.slug, player.pk])

    outcomes = run_together(
        lambda: linking.post(link_url, {"person": ann.pk}, headers={"HX-Request": "true"}),
        lambda: merging.post(reverse("people:merge", args=[anne.pk]), {"other": ann.pk}),
    )

    assert [outcome.error for outcome in outcomes] == [None, None]
    link_response, merge_response = (outcome.value for outcome in outcomes)
    assert (link_response.status_code, merge_response.status_code) == (200, 302)
    assert not Person.objects.filter(pk=ann.pk).exists()
    player.refresh_from_db()
    if "merged into another person meanwhile" in link_response.content.decode():
        assert player.person_id is None
    else:
        assert player.person_id == anne.pk


@pytest.mark.django_db(transaction=True)
def test_linking_elsewhere_as_the_person_is_merged_is_moved_by_the_merge_or_refused(
    postgresql, organiser
):
    for _ in range(RACES):
        _link_elsewhere_and_merge(organiser)
