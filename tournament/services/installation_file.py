"""A backup's installation file: everything of an installation besides its tournaments.

The format is ``lld-installation/1``, described by ``docs/installation-file.schema.json``
(built by ``tournament.installation_schema``) and ``docs/backup-file.md``. It sits in a
backup folder beside one tournament file per tournament and holds:

- the *accounts* (user names, password hashes, flags, groups and permissions) and the
  *groups*: the tournament files name organisers, scorers and sheets' authors by user
  name, and these are those users;
- the *register of people*, with and without member numbers, each with its id (a
  person without a member number has the page ``/p/person-ID/``) and the players who are
  that person, named by tournament slug and the player's id in that tournament's file;
- every *series*: its settings, its organiser, and its entries (tournaments counted,
  and requests still awaiting their organiser's answer, ``accepted: false``);
- of every tournament, what its file leaves out but a restore of the whole installation
  gives back: its public pages' generation (their ETag), its table codes, its rounds'
  clocks and seeds, and the seating engine's plan.

Every row keeps its id, so that the addresses and forms built from ids answer the same
after a restore. Its problems are worded as a tournament file's are: by JSON path
(``people[3].players[0]``), then what is wrong, naming the tournament or account.
"""

from __future__ import annotations

import datetime
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission

from scoring.errors import UserError
from tournament.installation_schema import INSTALLATION_FORMAT, build_installation_schema
from tournament.models import (
    Invitation,
    Person,
    Player,
    Round,
    Series,
    SeriesTournament,
    Table,
    Tournament,
)
from tournament.services import people, tournament_file
from tournament.services.players import text_problem
from tournament.services.tournament_file import Problems, short

FORMAT = INSTALLATION_FORMAT
# A federation's register of 100,000 people is about 30 MB.
MAX_BYTES = 500 * 1024 * 1024


@cache
def schema() -> dict[str, Any]:
    return build_installation_schema()


def _time(moment: datetime.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


# Export ---------------------------------------------------------------------------------


def export_installation() -> dict[str, Any]:
    """The installation file of this database as it stands; read it inside
    ``tournament_file.consistent_read`` with the tournaments, so that both are of one
    moment."""
    return {
        "format": FORMAT,
        "accounts": _accounts(),
        "groups": _groups(),
        "people": _people(),
        "series": _series(),
        "tournaments": _tournaments(),
    }


def _permission_names(rows: Iterable[tuple[int, str, str]]) -> dict[int, list[str]]:
    named: dict[int, list[str]] = {}
    for owner, app_label, codename in rows:
        named.setdefault(owner, []).append(f"{app_label}.{codename}")
    return named


def _accounts() -> list[dict[str, Any]]:
    user_model = get_user_model()
    groups: dict[int, list[str]] = {}
    for user, group in user_model.groups.through.objects.order_by("group__name").values_list(
        "user_id", "group__name"
    ):
        groups.setdefault(user, []).append(group)
    permissions = _permission_names(
        user_model.user_permissions.through.objects.order_by("pk").values_list(
            "user_id", "permission__content_type__app_label", "permission__codename"
        )
    )
    return [
        {
            "id": user.pk,
            "username": user.username,
            "password": user.password,
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "is_active": user.is_active,
            "is_staff": user.is_staff,
            "is_superuser": user.is_superuser,
            "date_joined": _time(user.date_joined),
            "last_login": _time(user.last_login),
            "groups": groups.get(user.pk, []),
            "permissions": permissions.get(user.pk, []),
        }
        for user in user_model.objects.order_by("pk")
    ]


def _groups() -> list[dict[str, Any]]:
    permissions = _permission_names(
        Group.permissions.through.objects.order_by("pk").values_list(
            "group_id", "permission__content_type__app_label", "permission__codename"
        )
    )
    return [
        {"id": pk, "name": name, "permissions": permissions.get(pk, [])}
        for pk, name in Group.objects.order_by("pk").values_list("pk", "name")
    ]


def _people() -> list[dict[str, Any]]:
    players: dict[int, list[dict[str, str]]] = {}
    for person, slug, ref in (
        Player.objects.filter(person__isnull=False)
        .order_by("person_id", "tournament__slug", "pk")
        .values_list("person_id", "tournament__slug", "ref")
    ):
        players.setdefault(person, []).append({"tournament": slug, "player": ref})
    return [
        {
            "id": pk,
            "name": name,
            "club": club,
            **({"member": member} if member else {}),
            "created": _time(created),
            "changed": _time(changed),
            "players": players.get(pk, []),
        }
        for pk, name, club, member, created, changed in Person.objects.order_by("pk").values_list(
            "pk", "name", "club", "member", "created", "changed"
        )
    ]


def _series() -> list[dict[str, Any]]:
    entries: dict[int, list[dict[str, Any]]] = {}
    for series, pk, slug, accepted, created in SeriesTournament.objects.order_by("pk").values_list(
        "series_id", "pk", "tournament__slug", "accepted", "created"
    ):
        entries.setdefault(series, []).append(
            {"id": pk, "tournament": slug, "accepted": accepted, "created": _time(created)}
        )
    return [
        {
            "id": series.pk,
            "slug": series.slug,
            "name": series.name,
            "scheme": series.scheme,
            "placing": list(series.placing),
            "count_best": series.count_best,
            "min_events": series.min_events,
            "owner": _username(series.owner),
            "created": _time(series.created),
            "changed": _time(series.changed),
            "entries": entries.get(series.pk, []),
        }
        for series in Series.objects.select_related("owner").order_by("pk")
    ]


def _tournaments() -> list[dict[str, Any]]:
    codes: dict[int, list[dict[str, Any]]] = {}
    for round_id, number, code in Table.objects.order_by("round_id", "number").values_list(
        "round_id", "number", "code"
    ):
        codes.setdefault(round_id, []).append({"number": number, "code": code})
    rounds: dict[int, list[dict[str, Any]]] = {}
    for pk, tournament, number, seed, clock_ends, clock_left in Round.objects.order_by(
        "tournament_id", "number"
    ).values_list("pk", "tournament_id", "number", "seed", "clock_ends", "clock_left"):
        rounds.setdefault(tournament, []).append(
            {
                "number": number,
                "seed": seed,
                "clock_ends": _time(clock_ends),
                "clock_left": clock_left,
                "tables": codes.get(pk, []),
            }
        )
    invitations = _invitations()
    return [
        {
            "slug": slug,
            "created": _time(created),
            "public_changed": _time(public_changed),
            "seating_plan": plan,
            "rounds": rounds.get(pk, []),
            "invitations": invitations.get(pk, []),
        }
        for pk, slug, created, public_changed, plan in Tournament.objects.order_by(
            "slug"
        ).values_list("pk", "slug", "created", "public_changed", "seating_plan")
    ]


def _invitations() -> dict[int, list[dict[str, Any]]]:
    invitations: dict[int, list[dict[str, Any]]] = {}
    for invitation in Invitation.objects.select_related("created_by", "account").order_by("pk"):
        invitations.setdefault(invitation.tournament_id, []).append(
            {
                "id": invitation.pk,
                "username": invitation.username,
                "secret_hash": invitation.secret_hash,
                "created_by": _username(invitation.created_by),
                "created": _time(invitation.created),
                "expires": _time(invitation.expires),
                "used_at": _time(invitation.used_at),
                "account": _username(invitation.account),
                "withdrawn_at": _time(invitation.withdrawn_at),
            }
        )
    return invitations


def _username(user: Any) -> str | None:
    return None if user is None else str(user.get_username())


# Checks ---------------------------------------------------------------------------------


@dataclass
class FileFacts:
    """What the installation file may refer to in one tournament file of the backup."""

    file: str
    slug: str
    key: int | None = None
    # Player id -> member number ("" without one).
    players: dict[str, str] = field(default_factory=dict)
    player_keys: set[int] = field(default_factory=set)
    tables: dict[int, set[int]] = field(default_factory=dict)
    # User names the file gives: owner, scorers, sheets' authors.
    users: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, file: str, data: Mapping[str, Any]) -> FileFacts:
        """The facts of a tournament file that ``tournament_file.check_bounded`` found right,
        or that ``export_tournament`` wrote."""
        facts = cls(file=file, slug=tournament_file.slug_for(data), key=data.get("key"))
        for player in data["players"]:
            facts.players[player["id"]] = player.get("member", "").strip()
            if "key" in player:
                facts.player_keys.add(player["key"])
        users = {data.get("owner"), *data.get("scorers", [])}
        for round_ in data["rounds"]:
            numbers = facts.tables.setdefault(round_["number"], set())
            for table in round_["tables"]:
                numbers.add(table["number"])
                sheet = table.get("sheet", {})
                users |= {sheet.get("entered_by"), sheet.get("confirmed_by")}
                users |= {version.get("by") for version in sheet.get("history", [])}
        # Only names: a file that is not right (a backup reports it) may hold anything.
        facts.users = {name for name in users if isinstance(name, str)}
        return facts


def check_bounded(
    data: object,
    tournaments: Mapping[str, FileFacts],
    limit: int = tournament_file.PROBLEMS_SHOWN,
) -> Problems:
    """The first ``limit`` problems of a parsed installation file, structure first, and how
    many there are; ``tournaments`` are the backup's tournament files by slug."""
    unstorable = list(tournament_file.unstorable_text(data))
    if unstorable:
        return Problems(tuple(unstorable[:limit]), len(unstorable))
    structure = tournament_file.problems_against(schema(), data, limit)
    if structure:
        return structure
    assert isinstance(data, dict)
    found = list(rule_problems(data, tournaments))
    return Problems(tuple(found[:limit]), len(found))


def check(data: object, tournaments: Mapping[str, FileFacts]) -> list[str]:
    return list(check_bounded(data, tournaments, sys.maxsize).shown)


class _Unique:
    """Values that must be unique in a list of the file: the first place of each."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.seen: dict[object, str] = {}

    def problem(self, where: str, value: object) -> str | None:
        if value in self.seen:
            shown = f"“{short(value)}”" if isinstance(value, str) else str(value)
            return f"{where}: {self.what} {shown} is also {self.seen[value]}'s"
        self.seen[value] = where.rsplit(".", 1)[0]
        return None


def rule_problems(data: dict[str, Any], tournaments: Mapping[str, FileFacts]) -> Iterator[str]:
    """What the schema cannot check: ids and names used twice, and every reference to an
    account, a group, a permission, a tournament or a player of this backup."""
    known_permissions = _known_permissions()
    groups = _Unique("the group")
    group_ids = _Unique("the id")
    for index, group in enumerate(data.get("groups", [])):
        where = f"groups[{index}]"
        yield from _present(
            group_ids.problem(f"{where}.id", group["id"]),
            groups.problem(f"{where}.name", group["name"]),
        )
        yield from _permission_problems(where, group.get("permissions", []), known_permissions)
    usernames = _Unique("the user name")
    account_ids = _Unique("the id")
    for index, account in enumerate(data["accounts"]):
        where = f"accounts[{index}]"
        yield from _present(
            account_ids.problem(f"{where}.id", account["id"]),
            usernames.problem(f"{where}.username", account["username"]),
        )
        for number, group in enumerate(account.get("groups", [])):
            if group not in groups.seen:
                yield f"{where}.groups[{number}]: no group is called “{short(group)}” in “groups”"
        yield from _permission_problems(where, account.get("permissions", []), known_permissions)
    yield from _time_problems(data)
    yield from _people_problems(data["people"], tournaments)
    accounts = {str(name) for name in usernames.seen}
    yield from _series_problems(data["series"], tournaments, accounts)
    yield from _tournament_problems(data.get("tournaments", []), tournaments, accounts)
    for facts in tournaments.values():
        for user in sorted(facts.users - accounts):
            yield (
                f"{facts.file}: names the user “{short(user)}” (organiser, scorer or a sheet's "
                "author), who has no account in the installation file"
            )


_TIMES = frozenset(
    {
        "date_joined",
        "last_login",
        "created",
        "changed",
        "public_changed",
        "clock_ends",
        "expires",
        "used_at",
        "withdrawn_at",
    }
)


def _time_problems(data: object, path: tuple[object, ...] = ()) -> Iterator[str]:
    """Times the schema's pattern lets through that are no time ("2026-13-45T…")."""
    if isinstance(data, list):
        for index, item in enumerate(data):
            yield from _time_problems(item, (*path, index))
    elif isinstance(data, dict):
        for key, value in data.items():
            if key in _TIMES and isinstance(value, str):
                try:
                    datetime.datetime.fromisoformat(value)
                except ValueError:
                    where = tournament_file.json_path((*path, key))
                    yield f"{where}: “{short(value)}” is not a time"
            elif key != "seating_plan":
                yield from _time_problems(value, (*path, key))


def _present(*problems: str | None) -> Iterator[str]:
    yield from (problem for problem in problems if problem)


def _known_permissions() -> set[str]:
    return {
        f"{app_label}.{codename}"
        for app_label, codename in Permission.objects.values_list(
            "content_type__app_label", "codename"
        )
    }


def _permission_problems(where: str, named: list[str], known: set[str]) -> Iterator[str]:
    for index, permission in enumerate(named):
        if permission not in known:
            yield (
                f"{where}.permissions[{index}]: this installation has no permission "
                f"“{short(permission)}” (is it of a newer version of the app?)"
            )


def _people_problems(
    register: list[dict[str, Any]], tournaments: Mapping[str, FileFacts]
) -> Iterator[str]:
    ids = _Unique("the id")
    members = _Unique("the member number")
    by_member: dict[str, int] = {}
    links: dict[tuple[str, str], int] = {}
    for index, person in enumerate(register):
        where = f"people[{index}]"
        yield from _present(ids.problem(f"{where}.id", person["id"]))
        for what in ("name", "club"):
            if wrong := text_problem(person.get(what, ""), what):
                yield f"{where}.{what}: {wrong}"
        member = person.get("member", "")
        if member:
            try:
                cleaned = people.clean_member(member, f"{where}.member")
            except UserError as problem:
                yield str(problem)
            else:
                yield from _present(members.problem(f"{where}.member", cleaned))
                by_member.setdefault(cleaned, index)
        playing: set[str] = set()
        for number, link in enumerate(person.get("players", [])):
            at = f"{where}.players[{number}]"
            slug, ref = link["tournament"], link["player"]
            facts = tournaments.get(slug)
            if facts is None:
                yield f"{at}: no tournament “{short(slug)}” is in this backup"
            elif ref not in facts.players:
                yield f"{at}: “{short(slug)}” ({facts.file}) has no player “{short(ref)}”"
            elif slug in playing:
                yield f"{at}: the person is already a player of “{short(slug)}”"
            elif (slug, ref) in links:
                yield (
                    f"{at}: {short(slug)}'s player “{short(ref)}” is also "
                    f"people[{links[(slug, ref)]}]'s"
                )
            else:
                links[(slug, ref)] = index
            playing.add(slug)
    # A player the tournament file links by member number is that person's.
    for slug, facts in tournaments.items():
        for ref, member in facts.players.items():
            if not member:
                continue
            owner = by_member.get(member)
            if owner is None:
                yield (
                    f"{facts.file}: player “{short(ref)}” has the member number "
                    f"“{short(member)}”, which no person has in the installation file"
                )
            elif links.get((slug, ref), owner) != owner:
                yield (
                    f"people[{links[(slug, ref)]}]: {short(slug)}'s player “{short(ref)}” has "
                    f"the member number “{short(member)}”, which is people[{owner}]'s"
                )


def _series_problems(
    all_series: list[dict[str, Any]], tournaments: Mapping[str, FileFacts], usernames: set[str]
) -> Iterator[str]:
    ids = _Unique("the id")
    slugs = _Unique("the slug")
    entry_ids = _Unique("the id")
    for index, series in enumerate(all_series):
        where = f"series[{index}]"
        yield from _present(
            ids.problem(f"{where}.id", series["id"]),
            slugs.problem(f"{where}.slug", series["slug"]),
        )
        placing = series.get("placing", [])
        for place in range(1, len(placing)):
            if placing[place] > placing[place - 1]:
                yield (
                    f"{where}.placing[{place}]: {placing[place]} points is more than place "
                    f"{place}'s {placing[place - 1]}; list the points from 1st place down"
                )
                break
        owner = series.get("owner")
        if owner is not None and owner not in usernames:
            yield f"{where}.owner: no account is called “{short(owner)}”"
        counted: set[str] = set()
        for number, entry in enumerate(series.get("entries", [])):
            at = f"{where}.entries[{number}]"
            if "id" in entry:
                yield from _present(entry_ids.problem(f"{at}.id", entry["id"]))
            slug = entry["tournament"]
            if slug not in tournaments:
                yield f"{at}: no tournament “{short(slug)}” is in this backup"
            elif slug in counted:
                yield f"{at}: “{short(slug)}” is in this series twice"
            counted.add(slug)


def _tournament_problems(
    entries: list[dict[str, Any]], tournaments: Mapping[str, FileFacts], accounts: set[str]
) -> Iterator[str]:
    slugs = _Unique("the tournament")
    codes = _Unique("the table code")
    secrets = _Unique("the secret's hash")
    for index, entry in enumerate(entries):
        where = f"tournaments[{index}]"
        slug = entry["slug"]
        facts = tournaments.get(slug)
        if facts is None:
            yield f"{where}: no tournament “{short(slug)}” is in this backup"
            continue
        yield from _present(slugs.problem(f"{where}.slug", slug))
        for number, round_ in enumerate(entry.get("rounds", [])):
            at = f"{where}.rounds[{number}]"
            if round_.get("clock_ends") is not None and round_.get("clock_left") is not None:
                yield f"{at}: a clock is running (clock_ends) or paused (clock_left), not both"
            tables = facts.tables.get(round_["number"])
            if tables is None:
                yield f"{at}: {facts.file} has no round {round_['number']}"
                continue
            for table_index, table in enumerate(round_.get("tables", [])):
                place = f"{at}.tables[{table_index}]"
                if table["number"] not in tables:
                    yield (
                        f"{place}: {facts.file} has no table {table['number']} in round "
                        f"{round_['number']}"
                    )
                yield from _present(codes.problem(f"{place}.code", table["code"]))
        for number, invitation in enumerate(entry.get("invitations", [])):
            at = f"{where}.invitations[{number}]"
            yield from _present(secrets.problem(f"{at}.secret_hash", invitation["secret_hash"]))
            yield from _invitation_problems(at, invitation, accounts)


def _invitation_problems(at: str, invitation: dict[str, Any], accounts: set[str]) -> Iterator[str]:
    for key in ("created_by", "account"):
        name = invitation.get(key)
        if name is not None and name not in accounts:
            yield f"{at}.{key}: no account is called “{short(name)}”"
    if invitation.get("used_at") is not None and invitation.get("withdrawn_at") is not None:
        yield f"{at}: an invitation is used (used_at) or withdrawn (withdrawn_at), not both"
    try:
        late = datetime.datetime.fromisoformat(invitation["expires"]) <= (
            datetime.datetime.fromisoformat(invitation["created"])
        )
    except (TypeError, ValueError):
        return  # a time that is no time is named by the check of times
    if late:
        yield f"{at}.expires: not after “created”"
