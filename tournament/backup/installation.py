"""A backup's installation file: everything of an installation besides its tournaments.

The format is ``lld-installation/1``, described by ``docs/installation-file.schema.json``
(built by ``tournament.backup.installation_schema``) and ``docs/backup-file.md``. It sits in a
backup folder beside one tournament file per tournament and holds:

- the *accounts* (user names, password hashes, flags, groups and permissions) and the
  *groups*: the tournament files name organisers, scorers, sheets' authors and who gave
  or removed penalties and awards by user name, and these are those users;
- the *register of people*, with and without member numbers, each with its id (a
  person without a member number has the page ``/p/person-ID/``) and the players who are
  that person, named by tournament slug and the player's id in that tournament's file;
- every *series*: its settings, its organiser, and its entries (tournaments counted,
  and requests still awaiting their organiser's answer, ``accepted: false``);
- of every tournament, what its file leaves out but a restore of the whole installation
  gives back: its public pages' generation (their ETag), its table codes, its rounds'
  clocks and seeds, the seating engine's plan, and its webhooks with their secrets.

Every row keeps its id, so that the addresses and forms built from ids answer the same
after a restore. Its problems are worded as a tournament file's are: by JSON path
(``people[3].players[0]``), then what is wrong, naming the tournament or account; the
rules beyond its schema are ``installation_rules``.
"""

from __future__ import annotations

import datetime
import sys
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from tournament.backup.installation_rules import FileFacts, rule_problems
from tournament.backup.installation_schema import INSTALLATION_FORMAT, build_installation_schema
from tournament.models import (
    Invitation,
    Person,
    Player,
    Round,
    Series,
    SeriesTournament,
    Table,
    Tournament,
    WebhookEndpoint,
)
from tournament.tournament_file.problems import PROBLEMS_SHOWN, Problems
from tournament.tournament_file.structure import problems_against, unstorable_text

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
    ``writing.consistent_read`` with the tournaments, so that both are of one
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
    webhooks = _webhooks()
    return [
        {
            "slug": slug,
            "created": _time(created),
            "public_changed": _time(public_changed),
            "seating_plan": plan,
            "rounds": rounds.get(pk, []),
            "invitations": invitations.get(pk, []),
            "webhooks": webhooks.get(pk, []),
            **({"rehearsal": {"of": of, "token": token, "work": work}} if token else {}),
        }
        for pk, slug, created, public_changed, plan, of, token, work in Tournament.objects.order_by(
            "slug"
        ).values_list(
            "pk",
            "slug",
            "created",
            "public_changed",
            "seating_plan",
            "rehearsal_of__slug",
            "rehearsal_token",
            "rehearsal_work",
        )
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


def _webhooks() -> dict[int, list[dict[str, Any]]]:
    webhooks: dict[int, list[dict[str, Any]]] = {}
    for endpoint in WebhookEndpoint.objects.order_by("pk"):
        webhooks.setdefault(endpoint.tournament_id, []).append(
            {
                "id": endpoint.pk,
                "url": endpoint.url,
                "format": endpoint.format,
                "events": endpoint.events,
                "secret": endpoint.secret,
                "site": endpoint.site,
                "enabled": endpoint.enabled,
                "switched_off": endpoint.switched_off,
                "announced_standings": endpoint.announced_standings,
                "created": _time(endpoint.created),
            }
        )
    return webhooks


def _username(user: Any) -> str | None:
    return None if user is None else str(user.get_username())


# Checks ---------------------------------------------------------------------------------


def check_bounded(
    data: object,
    tournaments: Mapping[str, FileFacts],
    limit: int = PROBLEMS_SHOWN,
) -> Problems:
    """The first ``limit`` problems of a parsed installation file, structure first, and how
    many there are; ``tournaments`` are the backup's tournament files by slug."""
    unstorable = list(unstorable_text(data))
    if unstorable:
        return Problems(tuple(unstorable[:limit]), len(unstorable))
    structure = problems_against(schema(), data, limit)
    if structure:
        return structure
    assert isinstance(data, dict)
    shown: list[str] = []
    total = 0
    for problem in rule_problems(data, tournaments):
        total += 1
        if len(shown) < limit:
            shown.append(problem)
    return Problems(tuple(shown), total)


def check(data: object, tournaments: Mapping[str, FileFacts]) -> list[str]:
    return list(check_bounded(data, tournaments, sys.maxsize).shown)
