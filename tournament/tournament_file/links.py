"""What the rest of the installation holds of a tournament, kept through a replacing import
(``import_tournament --replace``): a tournament file holds the tournament, not which
series count it nor who its players are in the register of people.

- *series entries*: the tournament's places in series (``SeriesTournament``), accepted
  or still asked of its organiser; given back as they were, with their ids and dates.
- *person links*: which person each player is. After the replace, a player is linked
  again to the person of the old player with its id (the file's ``key``: an export kept
  it) or, in a file without ids, of the one old player with the same name (``names.key``:
  case, accents and spacing ignored). A player the file links by member number keeps
  that link, and a person still plays at most once in the tournament.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from tournament.kernel import names
from tournament.models import Player, SeriesTournament, Tournament
from tournament.tournament_file import kept_ids


@dataclass(frozen=True)
class Links:
    # (id, series id, accepted, created), in id order.
    entries: tuple[tuple[int, int, bool, datetime.datetime], ...]
    person_by_player: dict[int, int]
    # Only names one old linked player had: two players of one name say nothing.
    person_by_name: dict[str, int]


def links_of(tournament: Tournament) -> Links:
    entries = tuple(
        SeriesTournament.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("pk", "series_id", "accepted", "created")
    )
    linked = list(
        Player.objects.filter(tournament=tournament, person__isnull=False).values_list(
            "pk", "name", "person_id"
        )
    )
    by_name: dict[str, int] = {}
    twice: set[str] = set()
    for _, name, person in linked:
        key = names.key(name)
        if key in by_name:
            twice.add(key)
        by_name[key] = person
    return Links(
        entries=entries,
        person_by_player={pk: person for pk, _, person in linked},
        person_by_name={key: person for key, person in by_name.items() if key not in twice},
    )


def give_back(links: Links, tournament: Tournament) -> None:
    """Put ``links``, read before the tournament was replaced, on its replacement."""
    free = kept_ids.free_ids(SeriesTournament, [pk for pk, *_ in links.entries])
    entries = SeriesTournament.objects.bulk_create(
        SeriesTournament(
            pk=pk if pk in free else None,
            series_id=series,
            tournament=tournament,
            accepted=accepted,
        )
        for pk, series, accepted, _ in links.entries
    )
    # ``created`` is set to now on insert: the pending requests are listed by it.
    for entry, (*_, created) in zip(entries, links.entries, strict=True):
        entry.created = created
    SeriesTournament.objects.bulk_update(entries, ["created"])
    players = list(Player.objects.filter(tournament=tournament).only("pk", "name", "person"))
    playing = {player.person_id for player in players if player.person_id is not None}
    relinked = []
    for player in players:
        if player.person_id is not None:
            continue
        person = links.person_by_player.get(player.pk)
        if person is None:
            person = links.person_by_name.get(names.key(player.name))
        if person is not None and person not in playing:
            player.person_id = person
            playing.add(person)
            relinked.append(player)
    Player.objects.bulk_update(relinked, ["person"], batch_size=500)
