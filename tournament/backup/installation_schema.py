"""The JSON Schemas of a backup's installation file and of its manifest.

``docs/installation-file.schema.json`` and ``docs/backup-manifest.schema.json`` are these
schemas as printed by ``manage.py backup --schema installation`` and ``--schema
manifest``; a test keeps them equal. ``docs/backup-file.md`` describes both.
"""

from __future__ import annotations

from typing import Any

from scoring.series import PLACING_MAX, POINTS_MAX
from tournament.kernel import limits
from tournament.kernel.codes import ALPHABET, CODE_LENGTH
from tournament.models import SeriesScheme, WebhookFormat
from tournament.models.webhooks import SECRET_MAX, SITE_MAX, URL_MAX
from tournament.tournament_file.schema import TIME_PATTERN, USERNAME_MAX, kept_id
from tournament.webhooks.messages import EVENT_KEYS

INSTALLATION_FORMAT = "lld-installation/1"
MANIFEST_FORMAT = "lld-backup/1"
# The manifest's name in a backup folder, and the installation file's.
MANIFEST_NAME = "manifest.json"
INSTALLATION_NAME = "installation.json"
# A file's name in a backup folder: a plain name inside it, never a path.
FILE_NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]*\.json$"
FILE_NAME_MAX = 255
# Django's own limits on these columns of its accounts.
_PASSWORD_MAX = 128
_EMAIL_MAX = 254
_NAME_PART_MAX = 150
_GROUP_NAME_MAX = 150
# Positive small integer columns.
_SMALL_MAX = 32767

_TIME = {"type": "string", "pattern": TIME_PATTERN}
_TIME_OR_NULL = {"type": ["string", "null"], "pattern": TIME_PATTERN}
_USER_OR_NULL = {"type": ["string", "null"], "maxLength": USERNAME_MAX}
_PERMISSION = {
    "type": "string",
    "maxLength": 200,
    "pattern": r"^[^.\s]+\.[^\s]+$",
    "description": "A permission as Django names it: app label, a dot, codename "
    "(tournament.add_tournament).",
}


def _text(maximum: int, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "maxLength": maximum, **extra}


def _list(items: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": items, **extra}


def _object(required: list[str], properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "required": required,
        "additionalProperties": False,
        "properties": properties,
        **extra,
    }


def _slug(description: str) -> dict[str, Any]:
    return _text(limits.SLUG_MAX, minLength=1, description=description)


def _account() -> dict[str, Any]:
    return _object(
        ["id", "username", "password"],
        {
            "id": kept_id("The account's number here."),
            "username": _text(USERNAME_MAX, minLength=1),
            "password": _text(
                _PASSWORD_MAX,
                description="The password's hash exactly as Django stores it (never the "
                "password): the account logs in with the same password after a restore.",
            ),
            "email": _text(_EMAIL_MAX),
            "first_name": _text(_NAME_PART_MAX),
            "last_name": _text(_NAME_PART_MAX),
            "is_active": {"type": "boolean", "default": True},
            "is_staff": {"type": "boolean", "default": False},
            "is_superuser": {"type": "boolean", "default": False},
            "date_joined": _TIME,
            "last_login": _TIME_OR_NULL,
            "groups": _list(_text(_GROUP_NAME_MAX), uniqueItems=True),
            "permissions": _list(_PERMISSION, uniqueItems=True),
        },
        description="An account: an organiser, a scorer, an administrator.",
    )


def _group() -> dict[str, Any]:
    return _object(
        ["id", "name"],
        {
            "id": kept_id("The group's number here."),
            "name": _text(_GROUP_NAME_MAX, minLength=1),
            "permissions": _list(_PERMISSION, uniqueItems=True),
        },
    )


def _person() -> dict[str, Any]:
    return _object(
        ["id", "name"],
        {
            "id": kept_id(
                "The person's number: a person without a member number has the page /p/person-ID/."
            ),
            "name": _text(limits.NAME_MAX, minLength=1, pattern=r"\S"),
            "club": _text(limits.CLUB_MAX),
            "member": _text(
                limits.MEMBER_MAX,
                minLength=1,
                description="The guild's member number (the page /p/MEMBER/); absent "
                "when the person has none.",
            ),
            "created": _TIME,
            "changed": _TIME,
            "players": _list(
                _object(
                    ["tournament", "player"],
                    {
                        "tournament": _slug("The tournament's slug."),
                        "player": _text(
                            limits.PLAYER_ID_MAX,
                            minLength=1,
                            description="The player's id in that tournament's file.",
                        ),
                    },
                ),
                description="The players who are this person, one a tournament at most.",
            ),
        },
    )


def _series() -> dict[str, Any]:
    entry = _object(
        ["tournament", "accepted"],
        {
            "id": kept_id("The entry's number here (the organiser's forms name it)."),
            "tournament": _slug("The tournament's slug."),
            "accepted": {
                "type": "boolean",
                "description": "false: a request still awaiting the answer of the "
                "tournament's organiser; it does not count.",
            },
            "created": _TIME,
        },
    )
    return _object(
        ["id", "slug", "name"],
        {
            "id": kept_id("The series' number here."),
            "slug": _text(limits.SLUG_MAX, pattern=limits.SLUG_PATTERN),
            "name": _text(limits.NAME_MAX, minLength=1, pattern=r"\S"),
            "scheme": {
                "enum": list(SeriesScheme.values),
                "default": SeriesScheme.FIELD_SHARE.value,
            },
            "placing": _list(
                {"type": "integer", "minimum": 0, "maximum": POINTS_MAX},
                minItems=1,
                maxItems=PLACING_MAX,
                description="Points by place under the placing scheme, 1st place first, "
                "never rising.",
            ),
            "count_best": {
                "type": ["integer", "null"],
                "minimum": 1,
                "maximum": _SMALL_MAX,
                "description": "Each person's best this many results count; null: all.",
            },
            "min_events": {"type": "integer", "minimum": 1, "maximum": _SMALL_MAX, "default": 1},
            "owner": {
                **_USER_OR_NULL,
                "description": "The organiser's user name, an account of this file.",
            },
            "created": _TIME,
            "changed": _TIME,
            "entries": _list(entry, description="Its tournaments and requests, oldest first."),
        },
    )


def _tournament() -> dict[str, Any]:
    table = _object(
        ["number", "code"],
        {
            "number": {"type": "integer", "minimum": 1},
            "code": {
                "type": "string",
                "pattern": f"^[{ALPHABET}]{{{CODE_LENGTH}}}$",
                "description": "The table code printed on the table's score sheet.",
            },
        },
    )
    round_ = _object(
        ["number"],
        {
            "number": {"type": "integer", "minimum": 1},
            "seed": {"type": "integer"},
            "clock_ends": _TIME_OR_NULL,
            "clock_left": {"type": ["integer", "null"], "minimum": 0, "maximum": 2**31 - 1},
            "tables": _list(table),
        },
    )
    invitation = _object(
        ["username", "secret_hash", "created", "expires"],
        {
            "id": kept_id("The invitation's number here (the organiser's forms name it)."),
            "username": _text(USERNAME_MAX, minLength=1, description="The account it makes."),
            "secret_hash": {
                "type": "string",
                "pattern": "^[0-9a-f]{64}$",
                "description": "The SHA-256 of the link's secret (the link itself is "
                "nowhere: a backup opens no invitation).",
            },
            "created_by": _USER_OR_NULL,
            "created": _TIME,
            "expires": _TIME,
            "used_at": _TIME_OR_NULL,
            "account": {**_USER_OR_NULL, "description": "The account the link made."},
            "withdrawn_at": _TIME_OR_NULL,
        },
    )
    webhook = _object(
        ["url", "format", "events", "secret", "site", "enabled", "created"],
        {
            "id": kept_id("The webhook's number here (its page and commands name it)."),
            "url": _text(URL_MAX, minLength=1, description="The address it is sent to."),
            "format": {"enum": list(WebhookFormat.values)},
            "events": _list({"enum": list(EVENT_KEYS)}, uniqueItems=True),
            "secret": {
                "type": "string",
                "pattern": r"^whsec_[A-Za-z0-9+/]{32,}={0,2}$",
                "maxLength": SECRET_MAX,
                "description": "The signing secret itself (signing needs it): a backup "
                "is as secret as the webhooks it keeps.",
            },
            "site": _text(SITE_MAX, minLength=1, description="The start of its links."),
            "enabled": {"type": "boolean"},
            "switched_off": _text(300, description="Why it was switched off by itself."),
            "announced_standings": _text(
                64, description="The fingerprint of the public standings last told to it."
            ),
            "created": _TIME,
        },
    )
    return _object(
        ["slug"],
        {
            "slug": _slug("The tournament's slug, as its tournament file gives it."),
            "created": _TIME,
            "public_changed": {
                **_TIME,
                "description": "When its public pages last changed: their cache's "
                "generation and the ETag the screens that follow the evening poll with.",
            },
            "seating_plan": {
                "description": "The seating engine's plan for the rounds to come, as it "
                "stored it (null: none)."
            },
            "rounds": _list(round_),
            "invitations": _list(invitation, description="Scorers' invitation links."),
            "webhooks": _list(webhook, description="Its webhooks, with their secrets."),
            "rehearsal": _object(
                ["of", "token"],
                {
                    "of": {
                        "type": ["string", "null"],
                        "maxLength": limits.SLUG_MAX,
                        "description": "The slug of the tournament it rehearses (null: "
                        "that tournament was removed since).",
                    },
                    "token": _text(
                        64,
                        minLength=1,
                        description="The token of its private link, which stays the same.",
                    ),
                    "work": _text(40, description="What a task was doing to it (empty: nothing)."),
                },
                description="Present when the tournament is a rehearsal (docs/rehearsal.md): "
                "never published, its public pages opened by its private link.",
            ),
        },
        description="What a tournament file leaves out, for a restore of the whole "
        "installation: table codes, round clocks, the seating plan, invitations and "
        "webhooks.",
    )


def build_installation_schema() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": INSTALLATION_FORMAT,
        "title": "Laugh and Lie Down installation file",
        "description": "Everything of an installation besides its tournaments, which are in "
        "tournament files beside it: the accounts, the register of people with their "
        "links to players, and the series. Cross-references (a player of a tournament, an "
        "account's user name) are checked by the restore; see docs/backup-file.md.",
        **_object(
            ["format", "accounts", "people", "series"],
            {
                "format": {"const": INSTALLATION_FORMAT},
                "accounts": _list(_account()),
                "groups": _list(_group()),
                "people": _list(_person()),
                "series": _list(_series()),
                "tournaments": _list(_tournament()),
            },
        ),
    }


def build_manifest_schema() -> dict[str, Any]:
    file = _object(
        ["name", "kind", "bytes", "sha256"],
        {
            "name": {
                "type": "string",
                "maxLength": FILE_NAME_MAX,
                "pattern": FILE_NAME_PATTERN,
                "description": "The file's name in the backup folder.",
            },
            "kind": {"enum": ["installation", "tournament", "photos"]},
            "bytes": {"type": "integer", "minimum": 0},
            "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        },
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": MANIFEST_FORMAT,
        "title": "Laugh and Lie Down backup manifest",
        "description": "What a backup folder holds: every file with its size and SHA-256, "
        "so that a restore refuses a folder that is incomplete or was changed.",
        **_object(
            ["format", "taken", "files"],
            {
                "format": {"const": MANIFEST_FORMAT},
                "taken": {**_TIME, "description": "The moment the installation was read."},
                "counts": {
                    "type": "object",
                    "additionalProperties": {"type": "integer", "minimum": 0},
                    "description": "How many of each thing the backup holds, for people.",
                },
                "files": _list(file),
            },
        ),
    }
