"""Restoring a whole backup folder (``manage.py restore``): into an empty database, or in
place of everything a database holds. All or nothing: one transaction, after the whole
folder was checked (``backup.folder.read_backup``).

Every row keeps the id the backup gives it (people, players, tournaments, series and
their entries, accounts, groups, invitations and webhooks), so every address built from an id
answers as it did; each table's id sequence is then moved past them (``kept_ids``).
What the database sets by itself on insert (when a row was created or changed, a
tournament's public generation, table codes) is put back as the backup says, so that
every public page is the same page, with the same ETag, as before.

A backup written by an older version may hold what this one no longer takes in a new file
(house-rule table sizes written "05", names with invisible characters): ``backup.folder``
reads it back as this version keeps it (``backup.older``), and the summary's notes say
what changed.

*Empty* means no tournament, person, series or account: a database just migrated. With
``replace``, every tournament, person, series, account and session is deleted first
(everyone is logged out; the backup's accounts log in with their own passwords). In
both cases the backup's groups replace the groups of the same names (a database just
migrated holds the app's own Organisers group); any other group stays.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.sessions.models import Session
from django.db import models, transaction
from django.db.models import Q

from scoring.errors import UserError
from tournament.backup import photos as photos_file
from tournament.backup.folder import Backup
from tournament.derived.refresh import restored
from tournament.kernel import names
from tournament.models import (
    AdvisorAnswer,
    Invitation,
    Person,
    Player,
    Round,
    Series,
    SeriesTournament,
    SheetPhoto,
    Table,
    TaskClaim,
    Tournament,
    WebhookEndpoint,
)
from tournament.people import services as people
from tournament.shared import public_changes
from tournament.tournament_file import kept_ids, loading

M = TypeVar("M", bound=models.Model)
_BATCH = 500


class NotEmptyError(UserError):
    pass


@dataclass(frozen=True)
class RestoreSummary:
    tournaments: int
    players: int
    deals: int
    people: int
    series: int
    accounts: int
    replaced: bool
    # What was read back otherwise than the files say (``backup.older``), by file.
    notes: tuple[str, ...] = ()
    # Put back with their signing secrets.
    webhooks: int = 0
    # Photos of paper sheets read at the desk (``backup.photos``).
    photos: int = 0


def what_is_here() -> dict[str, int]:
    """How many tournaments, people, series and accounts the database holds."""
    return {
        "tournaments": Tournament.objects.count(),
        "people": Person.objects.count(),
        "series": Series.objects.count(),
        "accounts": get_user_model().objects.count(),
    }


def restore(backup: Backup, *, replace: bool = False) -> RestoreSummary:
    """Read ``backup`` into the database, all or nothing; ``NotEmptyError`` when the
    database holds anything and ``replace`` is false."""
    installation = backup.load(backup.installation)
    players = deals = 0
    with transaction.atomic():
        with public_changes.quietly():
            here = what_is_here()
            if replace:
                _delete_everything()
            elif any(here.values()):
                raise NotEmptyError(_not_empty(here))
            _empty_queue()
            accounts = _accounts(installation)
            _people(installation["people"])
            for listed in backup.tournaments:
                summary = loading.create_checked(backup.load(listed))
                players += summary.players
                deals += summary.deals
            _links(installation["people"])
            _series(installation["series"], accounts)
            _invitations(installation.get("tournaments", []), accounts)
            _webhooks(installation.get("tournaments", []))
            photos = sum(
                photos_file.restore_photos(backup.load(listed), accounts)
                for listed in backup.photos
            )
        # After ``quietly`` marked every tournament changed now: the backup's generations.
        _tournament_facts(installation.get("tournaments", []))
        # The views and the podium chances are derived, not backed up: worked out again
        # here for the generations put back, so that the public pages come back as they
        # were (and the work after the commit finds nothing left to do).
        for tournament in Tournament.objects.all():
            restored(tournament)
        # Whatever was cached of the lists, series and careers is of another database.
        public_changes.mark_installation_changed()
        kept_ids.make_room_for_rows(
            get_user_model(),
            Group,
            Person,
            Tournament,
            Player,
            Series,
            SeriesTournament,
            Invitation,
            WebhookEndpoint,
            SheetPhoto,
        )
    return RestoreSummary(
        tournaments=len(backup.tournaments),
        players=players,
        deals=deals,
        people=len(installation["people"]),
        series=len(installation["series"]),
        accounts=len(accounts),
        replaced=replace,
        notes=tuple(backup.notes),
        webhooks=sum(len(item.get("webhooks", [])) for item in installation.get("tournaments", [])),
        photos=photos,
    )


def _not_empty(here: Mapping[str, int]) -> str:
    held = ", ".join(f"{count} {what}" for what, count in here.items() if count)
    return (
        f"the database is not empty (it holds {held}): restore into a database that was just "
        "migrated, or add --replace to replace everything in this one with the backup"
    )


def _empty_queue() -> None:
    """The restored site starts with an empty task queue and no answer kept: what they
    were for is worked out again here, or asked for anew."""
    from django_tasks_db.models import DBTaskResult

    DBTaskResult.objects.all().delete()
    TaskClaim.objects.all().delete()
    AdvisorAnswer.objects.all().delete()


def _delete_everything() -> None:
    for tournament in Tournament.objects.order_by("pk"):
        loading.delete_tournament(tournament)
    Series.objects.all().delete()
    Person.objects.all().delete()
    Session.objects.all().delete()
    get_user_model().objects.all().delete()


def _time(value: str | None) -> datetime.datetime | None:
    return None if value is None else datetime.datetime.fromisoformat(value)


def _put_back(rows: list[M], data: Iterable[Mapping[str, Any]], *keys: str) -> None:
    """Set the times the database set on insert (``auto_now``) to the file's."""
    changed = []
    for row, item in zip(rows, data, strict=True):
        present = [key for key in keys if item.get(key) is not None]
        for key in present:
            setattr(row, key, _time(item[key]))
        if present:
            changed.append(row)
    if changed:
        type(rows[0])._default_manager.bulk_update(changed, list(keys), batch_size=_BATCH)


def _permission_ids() -> dict[str, int]:
    return {
        f"{app_label}.{codename}": pk
        for pk, app_label, codename in Permission.objects.values_list(
            "pk", "content_type__app_label", "codename"
        )
    }


def _accounts(installation: Mapping[str, Any]) -> dict[str, int]:
    """The groups and accounts; the accounts' ids by user name."""
    user_model = get_user_model()
    permissions = _permission_ids()
    groups = installation.get("groups", [])
    # A database just migrated holds the app's own groups (the Organisers): the backup's
    # replace those of its names; a group the backup does not know (of a newer version of
    # the app) stays, under a new id when the backup's groups need its own.
    names = [group["name"] for group in groups]
    ids = [group["id"] for group in groups]
    moved = [
        (group.name, list(group.permissions.all()))
        for group in Group.objects.filter(pk__in=ids).exclude(name__in=names)
    ]
    Group.objects.filter(Q(name__in=names) | Q(pk__in=ids)).delete()
    Group.objects.bulk_create(Group(pk=group["id"], name=group["name"]) for group in groups)
    Group.permissions.through.objects.bulk_create(
        Group.permissions.through(group_id=group["id"], permission_id=permissions[name])
        for group in groups
        for name in group.get("permissions", [])
    )
    kept_ids.make_room_for_rows(Group)
    for name, granted in moved:
        Group.objects.create(name=name).permissions.set(granted)
    accounts = installation["accounts"]
    user_model.objects.bulk_create(
        (
            user_model(
                pk=account["id"],
                username=account["username"],
                password=account["password"],
                email=account.get("email", ""),
                first_name=account.get("first_name", ""),
                last_name=account.get("last_name", ""),
                is_active=account.get("is_active", True),
                is_staff=account.get("is_staff", False),
                is_superuser=account.get("is_superuser", False),
                last_login=_time(account.get("last_login")),
                **(
                    {"date_joined": _time(account["date_joined"])}
                    if account.get("date_joined")
                    else {}
                ),
            )
            for account in accounts
        ),
        batch_size=_BATCH,
    )
    group_ids = {group["name"]: group["id"] for group in groups}
    user_model.groups.through.objects.bulk_create(
        user_model.groups.through(user_id=account["id"], group_id=group_ids[name])
        for account in accounts
        for name in account.get("groups", [])
    )
    user_model.user_permissions.through.objects.bulk_create(
        user_model.user_permissions.through(user_id=account["id"], permission_id=permissions[name])
        for account in accounts
        for name in account.get("permissions", [])
    )
    return {account["username"]: account["id"] for account in accounts}


def _people(register: list[dict[str, Any]]) -> None:
    rows = Person.objects.bulk_create(
        (
            Person(
                pk=person["id"],
                name=person["name"],
                club=person.get("club", ""),
                member=people.clean_member(person.get("member", "")),
                # ``Person.save`` keeps these; a bulk insert does not call it.
                name_key=names.key(person["name"]),
                club_key=names.key(person.get("club", "")),
            )
            for person in register
        ),
        batch_size=_BATCH,
    )
    _put_back(rows, register, "created", "changed")


def _links(register: list[dict[str, Any]]) -> None:
    """Players linked to people without a member number (the tournament files link the
    others already), and all the others again: the installation file is the register."""
    players = {
        (slug, ref): pk
        for slug, ref, pk in Player.objects.values_list("tournament__slug", "ref", "pk")
    }
    linked = [
        Player(pk=players[(link["tournament"], link["player"])], person_id=person["id"])
        for person in register
        for link in person.get("players", [])
    ]
    Player.objects.bulk_update(linked, ["person"], batch_size=_BATCH)


def _series(all_series: list[dict[str, Any]], accounts: Mapping[str, int]) -> None:
    rows = Series.objects.bulk_create(
        Series(
            pk=series["id"],
            name=series["name"],
            slug=series["slug"],
            owner_id=accounts.get(series.get("owner") or ""),
            **{
                key: series[key]
                for key in ("scheme", "placing", "count_best", "min_events")
                if key in series
            },
        )
        for series in all_series
    )
    _put_back(rows, all_series, "created", "changed")
    tournaments = dict(Tournament.objects.values_list("slug", "pk"))
    entries = [(series, entry) for series in all_series for entry in series.get("entries", [])]
    created = SeriesTournament.objects.bulk_create(
        (
            SeriesTournament(
                pk=entry.get("id"),
                series_id=series["id"],
                tournament_id=tournaments[entry["tournament"]],
                accepted=entry["accepted"],
            )
            for series, entry in entries
        ),
        batch_size=_BATCH,
    )
    _put_back(created, [entry for _, entry in entries], "created")


def _tournament_facts(facts: list[dict[str, Any]]) -> None:
    found = {tournament.slug: tournament for tournament in Tournament.objects.only("pk", "slug")}
    tournaments = []
    for entry in facts:
        tournament = found[entry["slug"]]
        tournament.seating_plan = entry.get("seating_plan")
        tournaments.append(tournament)
    for entry in facts:
        rehearsal = entry.get("rehearsal")
        if rehearsal is not None:
            tournament = found[entry["slug"]]
            original = found.get(rehearsal["of"]) if rehearsal["of"] is not None else None
            tournament.rehearsal_of = original
            tournament.rehearsal_token = rehearsal["token"]
            tournament.rehearsal_work = rehearsal.get("work", "")
    if tournaments:
        Tournament.objects.bulk_update(
            tournaments,
            ["seating_plan", "rehearsal_of", "rehearsal_token", "rehearsal_work"],
            batch_size=_BATCH,
        )
    _put_back(tournaments, facts, "created", "public_changed")
    rounds = {
        (round_.tournament_id, round_.number): round_
        for round_ in Round.objects.only("pk", "tournament_id", "number")
    }
    tables = {
        (table.round_id, table.number): table
        for table in Table.objects.only("pk", "round_id", "number")
    }
    changed_rounds, changed_tables = [], []
    for entry in facts:
        tournament = found[entry["slug"]]
        for item in entry.get("rounds", []):
            round_ = rounds[(tournament.pk, item["number"])]
            round_.seed = item.get("seed", 0)
            round_.clock_ends = _time(item.get("clock_ends"))
            round_.clock_left = item.get("clock_left")
            changed_rounds.append(round_)
            for table_item in item.get("tables", []):
                table = tables[(round_.pk, table_item["number"])]
                table.code = table_item["code"]
                changed_tables.append(table)
    Round.objects.bulk_update(
        changed_rounds, ["seed", "clock_ends", "clock_left"], batch_size=_BATCH
    )
    Table.objects.bulk_update(changed_tables, ["code"], batch_size=_BATCH)


def _invitations(facts: list[dict[str, Any]], accounts: Mapping[str, int]) -> None:
    tournaments = dict(Tournament.objects.values_list("slug", "pk"))
    Invitation.objects.bulk_create(
        (
            Invitation(
                pk=invitation.get("id"),
                tournament_id=tournaments[entry["slug"]],
                username=invitation["username"],
                secret_hash=invitation["secret_hash"],
                created_by_id=accounts.get(invitation.get("created_by") or ""),
                created=datetime.datetime.fromisoformat(invitation["created"]),
                expires=datetime.datetime.fromisoformat(invitation["expires"]),
                used_at=_time(invitation.get("used_at")),
                account_id=accounts.get(invitation.get("account") or ""),
                withdrawn_at=_time(invitation.get("withdrawn_at")),
            )
            for entry in facts
            for invitation in entry.get("invitations", [])
        ),
        batch_size=_BATCH,
    )


def _webhooks(facts: list[dict[str, Any]]) -> None:
    """The webhooks with their secrets, as they were: a receiver keeps verifying them."""
    tournaments = dict(Tournament.objects.values_list("slug", "pk"))
    WebhookEndpoint.objects.bulk_create(
        (
            WebhookEndpoint(
                pk=webhook.get("id"),
                tournament_id=tournaments[entry["slug"]],
                url=webhook["url"],
                format=webhook["format"],
                events=webhook["events"],
                secret=webhook["secret"],
                site=webhook["site"],
                enabled=webhook["enabled"],
                switched_off=webhook.get("switched_off", ""),
                announced_standings=webhook.get("announced_standings", ""),
                created=datetime.datetime.fromisoformat(webhook["created"]),
            )
            for entry in facts
            for webhook in entry.get("webhooks", [])
        ),
        batch_size=_BATCH,
    )
