"""Loading a tournament file into the database: ``import_tournament`` (all or nothing,
replacing a tournament of the same slug when asked), the files of a whole backup
(``create_checked``), and deleting a tournament in bulk.

A file is checked first (``checking``); one with any problem changes nothing. The ids a
file keeps (``key``) are given back when free here (``kept_ids``), so that
addresses built from them answer the same after a restore. A replace keeps what the file
does not hold: the tournament's series entries and its players' people
(``tournament_file.links``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from scoring.errors import UserError
from scoring.rules import DealFacts, deals_in_round, leaves_of
from scoring.rulesets import RuleSet
from scoring.systems import ScoringSystem, SeatSums, table_sums
from scoring.tiebreaks import DEFAULT_TIEBREAKS
from tournament.models import (
    Adjustment,
    Bye,
    Deal,
    DealResult,
    KeepApart,
    Person,
    Player,
    Round,
    Seat,
    Sheet,
    SheetPhoto,
    SheetStatus,
    SheetVersion,
    Table,
    TablePhone,
    Tournament,
)
from tournament.people import services as people
from tournament.shared import public_changes
from tournament.shared.locks import lock_rounds
from tournament.tournament_file import kept_ids, links
from tournament.tournament_file import leaves_adjustments as version_3
from tournament.tournament_file import rule_sets as version_4
from tournament.tournament_file.checking import check_bounded, slug_for
from tournament.tournament_file.file_format import PUBLIC_SETTINGS, SETTINGS
from tournament.tournament_file.schema import FORMAT_1


class TournamentExistsError(UserError):
    def __init__(self, slug: str) -> None:
        self.slug = slug
        super().__init__(f"a tournament with the slug “{slug}” already exists")


@dataclass(frozen=True)
class ImportSummary:
    tournament: Tournament
    players: int
    rounds: int
    deals: int
    replaced: bool
    # User names the file gives (owner, scorers, sheets' authors) with no account here.
    missing_users: tuple[str, ...] = ()
    # What the person restoring should know (what a version-1 file could not say).
    notes: tuple[str, ...] = ()


VERSION_1_NOTE = (
    f"a “{FORMAT_1}” file does not say which rounds were released, whether the tournament "
    "was published, nor who organises and scores it: every round is restored started but "
    "not released, the tournament is not published and has no organiser (a superuser "
    "can release the rounds, publish it and give it an organiser)"
)


VERSION_1_PUBLISHED_NOTE = (
    f"a “{FORMAT_1}” file does not say who organises and scores the tournament: it has no "
    "organiser (a superuser can give it one); its played rounds were released as it was "
    "published"
)


def import_tournament(
    data: object, *, replace: bool = False, publish: bool = False
) -> ImportSummary:
    """Store a whole tournament file, all or nothing; ``publish`` publishes it as well
    (see ``_publish``).

    Raises ``TournamentFileError`` listing the first problems, or ``TournamentExistsError``
    when the slug is taken and ``replace`` is false; the database is then unchanged. A
    replace keeps what the file does not hold: the tournament's series entries and its
    players' people (``tournament_file.links``).
    """
    problems = check_bounded(data)
    if problems:
        raise problems.error()
    assert isinstance(data, dict)
    slug = slug_for(data)
    # One mark of the public pages at the end, not a cache receiver's query for each of
    # the thousands of rows deleted and written.
    with public_changes.quietly(), transaction.atomic():
        # The rounds before the tournament row, in the order of ``shared.locks``: a sheet
        # save holds its round and then marks the tournament's public pages changed.
        found = Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()
        if found is not None and replace:
            lock_rounds(found)
        existing = Tournament.objects.select_for_update().filter(slug=slug).first()
        if existing is not None and not replace:
            raise TournamentExistsError(slug)
        kept = None
        if existing is not None:
            # Its series entries and its players' people are no part of the file.
            kept = links.links_of(existing)
            _delete(existing)
        summary = _create(data, slug)
        if kept is not None:
            links.give_back(kept, summary["tournament"])
        if publish:
            _publish(summary["tournament"], data["format"])
    notes: tuple[str, ...] = ()
    if data["format"] == FORMAT_1:
        notes = (VERSION_1_PUBLISHED_NOTE if publish else VERSION_1_NOTE,)
    return ImportSummary(replaced=existing is not None, notes=notes, **summary)


def create_checked(data: dict[str, Any]) -> ImportSummary:
    """Store a tournament file that ``check_bounded`` found right and whose slug is free,
    in the caller's transaction: one of the files of a whole backup (``backup.restore``)."""
    return ImportSummary(replaced=False, **_create(data, slug_for(data)))


def _publish(tournament: Tournament, version: str) -> None:
    """Publish an imported tournament (``import_tournament --publish``: archives put
    together by hand, to count in a series). A version-2 file says which rounds were
    released, and that stands; a version-1 file does not, and its rounds were played, so
    they are released. Sheets count publicly only when confirmed, as ever."""
    tournament.published = True
    tournament.save(update_fields=["published"])
    if version == FORMAT_1:
        Round.objects.filter(tournament=tournament, started=True).update(released=True)
    public_changes.mark_changed(tournament.pk)


def delete_tournament(tournament: Tournament) -> None:
    """Delete a tournament and everything in it, in bulk: the public pages' cache is
    told once (``public_changes.quietly``), not once for every player, round and seat."""
    with public_changes.quietly(), transaction.atomic():
        _delete(tournament)


def _delete(tournament: Tournament) -> None:
    # The rows of the tables first, leaves before what they point to, one statement a
    # model and none of the tens of thousands of rows loaded: Django's collector would
    # fetch every deal and seat to cascade from them. Nothing else points at these rows,
    # and the caller is quiet (``public_changes.quietly``), so no receiver is owed them.
    of_tables = Q(table__round__tournament=tournament)
    for rows in (
        Adjustment.objects.filter(tournament=tournament),
        DealResult.objects.filter(deal__table__round__tournament=tournament),
        Deal.objects.filter(of_tables),
        SheetVersion.objects.filter(sheet__table__round__tournament=tournament),
        Sheet.objects.filter(of_tables),
        TablePhone.objects.filter(of_tables),
        # Photos of the paper sheets (never in a tournament file): gone with the tournament.
        SheetPhoto.objects.filter(round__tournament=tournament),
        Seat.objects.filter(round__tournament=tournament),
        Bye.objects.filter(round__tournament=tournament),
        Table.objects.filter(round__tournament=tournament),
    ):
        rows._raw_delete(rows.db)
    # Seats protect players from deletion, so remove the rounds before the tournament.
    Round.objects.filter(tournament=tournament).delete()
    tournament.delete()


def _user_names(data: dict[str, Any]) -> set[str]:
    names = {data.get("owner"), *data.get("scorers", [])}
    for round_ in data["rounds"]:
        for table in round_["tables"]:
            sheet = table.get("sheet", {})
            names |= {sheet.get("entered_by"), sheet.get("confirmed_by")}
            names |= {version.get("by") for version in sheet.get("history", [])}
    names |= version_3.user_names(data)
    names.discard(None)
    return names


def _create(data: dict[str, Any], slug: str) -> dict[str, Any]:
    date = data.get("date")
    names = _user_names(data)
    users = {user.username: user for user in get_user_model().objects.filter(username__in=names)}
    key = _kept(Tournament, [data.get("key")])
    tournament = Tournament.objects.create(
        pk=data.get("key") if key else None,
        name=data["name"],
        slug=slug,
        date=datetime.date.fromisoformat(date) if date else None,
        scoring=data.get("scoring", ScoringSystem.WINNER_ADVANTAGE.value),
        rotations_per_round=data.get("rotations_per_round", 1),
        tiebreaks=list(data.get("tiebreaks", DEFAULT_TIEBREAKS)),
        owner=users.get(data.get("owner")),  # type: ignore[arg-type]
        **version_4.stored(data),
        **version_4.table_sizes(data, version_4.file_rules(data)),
        **{key: data[key] for key in (*SETTINGS, *PUBLIC_SETTINGS) if key in data},
    )
    tournament.scorers.set([users[name] for name in data.get("scorers", []) if name in users])
    keys = _kept(Player, [p.get("key") for p in data["players"]])
    players = Player.objects.bulk_create(
        Player(
            pk=p.get("key") if p.get("key") in keys else None,
            tournament=tournament,
            ref=p["id"],
            name=p["name"],
            club=p.get("club", ""),
            active=p.get("active", True),
            checked_in=p.get("checked_in", False),
            fixed_table=p.get("fixed_table"),
        )
        for p in data["players"]
    )
    player_by_ref = {player.ref: player for player in players}
    _link_members(players, [p.get("member", "") for p in data["players"]])
    KeepApart.objects.bulk_create(
        KeepApart(tournament=tournament, first=player_by_ref[a], second=player_by_ref[b])
        for a, b in data.get("keep_apart", [])
    )
    # Never more public than the file says: a version-1 file does not say, so its rounds
    # are started (they were played) but not released.
    rounds = Round.objects.bulk_create(
        Round(
            tournament=tournament,
            number=r["number"],
            started=r.get("started", True),
            released=r.get("released", False),
        )
        for r in data["rounds"]
    )
    # Flatten the file's tree into (round, table data) and (table, deal data) lists so
    # that each level is one bulk insert.
    round_tables = [
        (round_, t) for round_, r in zip(rounds, data["rounds"], strict=True) for t in r["tables"]
    ]
    tables = Table.objects.bulk_create(
        Table(round=round_, number=t["number"], left=t.get("left", []))
        for round_, t in round_tables
    )
    Seat.objects.bulk_create(
        Seat(
            table=table,
            round=round_,
            position=position,
            player=player_by_ref[ref],
            **Seat.sum_values(sums),
        )
        for table, (round_, t) in zip(tables, round_tables, strict=True)
        for position, (ref, sums) in enumerate(
            zip(t["seats"], _seat_sums(t, tournament.rules), strict=True), start=1
        )
    )
    Bye.objects.bulk_create(
        Bye(round=round_, player=player_by_ref[ref])
        for round_, r in zip(rounds, data["rounds"], strict=True)
        for ref in r.get("byes", [])
    )
    table_deals = [
        (table, number, d)
        for table, (_, t) in zip(tables, round_tables, strict=True)
        for number, d in enumerate(t["deals"], start=1)
    ]
    deals = Deal.objects.bulk_create(
        Deal(
            table=table,
            number=number,
            last_in=d["last_in"],
            left_over=d["left_over"],
            laid_down=d.get("laid_down", []),
        )
        for table, number, d in table_deals
    )
    DealResult.objects.bulk_create(
        DealResult(deal=deal, seat=seat, won=won)
        for deal, (_, _, d) in zip(deals, table_deals, strict=True)
        for seat, won in enumerate(d["won"], start=1)
        # A seat that had left the table has no count in the deal.
        if won is not None
    )
    sheets = Sheet.objects.bulk_create(
        _sheet(table, t, tournament.rotations_per_round, users)
        for table, (_, t) in zip(tables, round_tables, strict=True)
    )
    _create_history(sheets, [t for _, t in round_tables], users)
    version_3.create_adjustments(tournament, data, player_by_ref, rounds, users)
    return {
        "tournament": tournament,
        "players": len(players),
        "rounds": len(rounds),
        "deals": len(deals),
        "missing_users": tuple(sorted(names - set(users))),
    }


def _seat_sums(table: dict[str, Any], rule_set: RuleSet) -> tuple[SeatSums, ...]:
    """Each seat's sums over a file's table, for the deals it took part in, under the
    tournament's rule set (the sizes its deals were dealt at are the rule set's: the
    check saw to it)."""
    deals = [
        DealFacts(tuple(d["won"]), d["last_in"], d["left_over"], tuple(d.get("laid_down", ())))
        for d in table["deals"]
    ]
    return table_sums(deals, len(table["seats"]), leaves_of(table.get("left", [])), rule_set)


def _link_members(players: list[Player], members: list[str]) -> None:
    """Link each player given a member number to the person who has it, made from the
    player when nobody has it yet."""
    given = {player: member.strip() for player, member in zip(players, members, strict=True)}
    given = {player: member for player, member in given.items() if member}
    if not given:
        return
    found = {p.member: p for p in Person.objects.filter(member__in=set(given.values()))}
    for player, member in given.items():
        if member not in found:
            found[member] = people.add_person(player.name, player.club, member)
        player.person = found[member]
    Player.objects.bulk_update(list(given), ["person"])


def _sheet(table: Table, data: dict[str, Any], rotations: int, users: dict[str, Any]) -> Sheet:
    deals = data["deals"]
    leaves = leaves_of(data.get("left", []))
    stopped_early = 0 < len(deals) < deals_in_round(len(data["seats"]), rotations, leaves)
    saved = data.get("sheet")
    if saved is None:
        # Without a sheet (a version-1 file, or nobody saved one), the deals are the
        # official facts: the sheet is confirmed.
        status = SheetStatus.CONFIRMED if deals else SheetStatus.NOT_STARTED
        return Sheet(table=table, status=status, stopped_early=stopped_early)
    history = saved.get("history", [])
    return Sheet(
        table=table,
        status=saved["status"],
        version=max((version["number"] for version in history), default=0),
        pending=saved.get("pending", []),
        pending_left=saved.get("pending_left", []),
        stopped_early=saved.get("stopped_early", stopped_early),
        entered_by=users.get(saved.get("entered_by")),
        confirmed_by=users.get(saved.get("confirmed_by")),
        entered_by_phone=saved.get("entered_by_phone"),
        confirmed_by_phone=saved.get("confirmed_by_phone"),
    )


def _create_history(
    sheets: list[Sheet], tables: list[dict[str, Any]], users: dict[str, Any]
) -> None:
    versions = SheetVersion.objects.bulk_create(
        SheetVersion(
            sheet=sheet,
            number=version["number"],
            action=version["action"],
            status=version["status"],
            deals=version["deals"],
            changes=version.get("changes", []),
            left=version.get("left", []),
            by=users.get(version.get("by")),
            phone=version.get("phone"),
        )
        for sheet, table in zip(sheets, tables, strict=True)
        for version in table.get("sheet", {}).get("history", [])
    )
    saved_at = [
        version.get("at")
        for table in tables
        for version in table.get("sheet", {}).get("history", [])
    ]
    # ``at`` is set to now on insert; the file's times are put back after, and a sheet was
    # last saved when its last version was (what the desk's "4 minutes ago" reads).
    dated = []
    last_saved: dict[int, datetime.datetime] = {}
    for version, at in zip(versions, saved_at, strict=True):
        if at is not None:
            version.at = datetime.datetime.fromisoformat(at)
            dated.append(version)
            last_saved[version.sheet_id] = max(
                version.at, last_saved.get(version.sheet_id, version.at)
            )
    SheetVersion.objects.bulk_update(dated, ["at"], batch_size=500)
    saved_sheets = [sheet for sheet in sheets if sheet.pk in last_saved]
    for sheet in saved_sheets:
        sheet.updated = last_saved[sheet.pk]
    Sheet.objects.bulk_update(saved_sheets, ["updated"], batch_size=500)


def _kept(model: type[Tournament] | type[Player], keys: list[int | None]) -> set[int]:
    """Of the ids a file keeps for ``model``'s rows, those free here, with the database
    told never to hand them out (``kept_ids``)."""
    free = kept_ids.free_ids(model, keys)
    if free:
        kept_ids.make_room(model, max(free))
    return free
