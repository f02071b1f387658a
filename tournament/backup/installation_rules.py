"""The rules of a backup's installation file that its JSON Schema cannot check
(``backup.installation``): ids, names, member numbers and slugs used twice, and every
reference to an account, a group, a permission, a tournament of the backup or one of its
players, each problem named by its JSON path (``people[3].players[0]``) and what it
refers to.

- *file facts*: what the installation file may refer to in each tournament file of the
  backup (``FileFacts``): its slug, players and their member numbers, rounds and tables,
  and the user names it gives.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import Permission

from scoring.errors import UserError
from tournament.kernel.names import text_problem
from tournament.people import services as people
from tournament.tournament_file import checking, leaves_adjustments
from tournament.tournament_file.problems import json_path, short


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
    # User names the file gives: owner, scorers, sheets' authors, who gave or removed a
    # penalty or award.
    users: set[str] = field(default_factory=set)
    published: bool = False

    @classmethod
    def of(cls, file: str, data: Mapping[str, Any]) -> FileFacts:
        """The facts of a tournament file that ``checking.check_bounded`` found right,
        or that ``export_tournament`` wrote."""
        facts = cls(
            file=file,
            slug=checking.slug_for(data),
            key=data.get("key"),
            published=bool(data.get("published")),
        )
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
        users |= leaves_adjustments.user_names(data)
        # Only names: a file that is not right (a backup reports it) may hold anything.
        facts.users = {name for name in users if isinstance(name, str)}
        return facts


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
                f"{facts.file}: names the user “{short(user)}” (organiser, scorer, a sheet's "
                "author or who gave or removed a penalty or award), who has no account in the "
                "installation file"
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
                    where = json_path((*path, key))
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
    webhook_ids = _Unique("the webhook's id")
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
        rehearsal = entry.get("rehearsal")
        if rehearsal is not None:
            if rehearsal["of"] is not None and rehearsal["of"] not in tournaments:
                named = short(rehearsal["of"])
                yield f"{where}.rehearsal.of: no tournament “{named}” is in this backup"
            if facts.published:
                yield f"{where}.rehearsal: {facts.file} is published, and a rehearsal never is"
        for number, invitation in enumerate(entry.get("invitations", [])):
            at = f"{where}.invitations[{number}]"
            yield from _present(secrets.problem(f"{at}.secret_hash", invitation["secret_hash"]))
            yield from _invitation_problems(at, invitation, accounts)
        for number, webhook in enumerate(entry.get("webhooks", [])):
            at = f"{where}.webhooks[{number}]"
            if "id" in webhook:
                yield from _present(webhook_ids.problem(f"{at}.id", webhook["id"]))
            if rehearsal is not None:
                yield f"{at}: a rehearsal never sends webhooks, and has none"
            if webhook.get("switched_off") and webhook["enabled"]:
                yield f"{at}: a webhook switched off (switched_off) is not enabled"


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
