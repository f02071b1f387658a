"""Every page as each role sees it, saved to compare two versions of the code.

Renders every named URL of ``tests/routes.py`` with Django's test client for four roles
(anonymous, an outsider, a scorer, the organiser), on a fixed dataset (the tests'
``seated_round`` tournament and a played, published one, every random code and token drawn
from a seeded generator, the clock stopped), then walks a score sheet through both of its
faces (a phone at the table and the desk): typed, refused, changed meanwhile, submitted,
confirmed. Each answer is kept as its status, its redirect and its body, with the CSRF
tokens and CSP nonces blanked.

    .venv/bin/python bench/html_identity.py snapshot /tmp/before.json
    .venv/bin/python bench/html_identity.py compare /tmp/before.json /tmp/after.json

``compare`` prints how many answers it compared and how many are identical, names the
first that differ, and exits non-zero when any does.
"""

from __future__ import annotations

import datetime
import json
import os
import random
import re
import secrets
import string
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROLES = ("anonymous", "outsider", "scorer", "organiser")
_BLANKED = [
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*'), r"\1CSRF"),
    (re.compile(r'("X-CSRFToken": ?")[^"]*'), r"\1CSRF"),
    (re.compile(r"(&quot;X-CSRFToken&quot;: ?&quot;)[^&]*"), r"\1CSRF"),
    (re.compile(r'(nonce=")[^"]*'), r"\1NONCE"),
    (re.compile(r"('nonce-)[^']*"), r"\1NONCE"),
    # The desk's "last at" ({% now %}, the wall clock).
    (re.compile(r"(last at )\d\d:\d\d:\d\d"), r"\1TIME"),
]


def normalised(text: str) -> str:
    for pattern, replacement in _BLANKED:
        text = pattern.sub(replacement, text)
    return text


def answer(response) -> dict[str, object]:
    """What a response shows: its status, where it sends, its body; for a followed
    redirect, the chain too."""
    body = response.content.decode("utf-8", errors="replace")
    return {
        "status": response.status_code,
        "location": response.get("Location", ""),
        "chain": [list(step) for step in getattr(response, "redirect_chain", [])],
        "type": response.get("Content-Type", ""),
        "body": normalised(body),
    }


def _seeded(monkeypatch) -> None:
    """Every code, token and nonce drawn from one seeded generator; the clock stopped."""
    from django.utils import timezone

    drawn = random.Random(20260101)
    alphabet = string.ascii_letters + string.digits + "-_"
    monkeypatch.setattr(secrets, "choice", drawn.choice)
    monkeypatch.setattr(
        secrets, "token_urlsafe", lambda n=32: "".join(drawn.choice(alphabet) for _ in range(n))
    )
    monkeypatch.setattr(
        secrets,
        "token_hex",
        lambda n=32: "".join(drawn.choice("0123456789abcdef") for _ in range(2 * n)),
    )
    stopped = datetime.datetime(2026, 3, 14, 19, 30, tzinfo=datetime.UTC)
    monkeypatch.setattr(timezone, "now", lambda: stopped)


# The tests' fixtures (``seated_round``, the clients of the standing users, what runs
# after a commit), imported once Django is set up, as a test module under tests/ has them.
if __name__ != "__main__":
    from tests.conftest import *  # noqa: F403
    from tests.conftest import (  # noqa: F401
        _backs_up,
        _fast_password_hashing,
        _fresh_public_generations,
        _tasks_at_once,
    )


def test_snapshot(
    monkeypatch, seated_round, make_played, client, outsider_client, scorer_client, organiser_client
):
    from django.test import Client

    from tests import phone
    from tests.pages import ROWS, form
    from tests.pages import url as desk_url
    from tests.routes import NEEDS_TOURNAMENT, ROUTES, url_for
    from tournament.kernel.codes import ALPHABET, CODE_LENGTH
    from tournament.models import Table

    _seeded(monkeypatch)
    private = seated_round.tournament
    public = make_played(published=True, rounds=2, slug="test-open")
    # The tables' codes again, now that they are drawn from the seeded generator.
    for table in Table.objects.order_by("pk"):
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        Table.objects.filter(pk=table.pk).update(code=code)
    clients = dict(
        zip(ROLES, (client, outsider_client, scorer_client, organiser_client), strict=True)
    )
    answers: dict[str, object] = {}
    for name in sorted(ROUTES):
        access = ROUTES[name].access
        for slug, tournament in (("private", private), ("public", public)):
            if access not in NEEDS_TOURNAMENT and slug == "public":
                continue
            url = url_for(name, tournament if access in NEEDS_TOURNAMENT else None)
            for role in ROLES:
                answers[f"GET {name} {slug} {role}"] = answer(clients[role].get(url))

    # A sheet through its two faces, every outcome of a save and a confirmation.
    private.table_confirm = True
    private.save()
    first, second = Client(), Client()
    table = Table.objects.get(round__tournament=private, round__number=1, number=2)

    def phone_post(key: str, path: str, data: dict[str, object], who=first) -> None:
        answers[f"POST phone {key}"] = answer(who.post(path, data, follow=True))

    bad = {"won": [10, 4, 10, 0], "last_in": 4, "left_over": 27}
    phone_post(
        "deal invalid",
        phone.url("deal", table, 1),
        {**phone.cells(1, bad), "expected_version": 0},
    )
    for number, row in enumerate(ROWS, start=1):
        phone_post(
            f"deal {number}",
            phone.url("deal", table, number),
            {**phone.cells(number, row), "expected_version": phone.version(table)},
        )
    phone_post(
        "deal stale",
        phone.url("deal", table, 1),
        {**phone.cells(1, ROWS[1]), "expected_version": 0},
    )
    phone_post(
        "left invalid",
        phone.url("left", table),
        {"expected_version": phone.version(table), "leave_seat": "9", "leave_after": "1"},
    )
    phone_post("left stale", phone.url("left", table), {"expected_version": 0})
    every = {k: v for n, r in enumerate(ROWS, 1) for k, v in phone.cells(n, r).items()}
    mistyped = [ROWS[0], {"won": [12, 10, 12, 10], "last_in": 1, "left_over": 8}, *ROWS[2:]]
    retyped = {k: v for n, r in enumerate(mistyped, 1) for k, v in phone.cells(n, r).items()}
    phone_post("review stale", phone.url("review", table), {"expected_version": 0})
    phone_post("review", phone.url("review", table), {"expected_version": phone.version(table)})
    phone_post(
        "confirm own",
        phone.url("confirm", table),
        {"expected_version": phone.version(table), **every},
    )
    second.get(phone.url("entry", table))
    phone_post(
        "deal closed",
        phone.url("deal", table, 1),
        {**phone.cells(1, ROWS[0]), "expected_version": phone.version(table)},
        second,
    )
    phone_post(
        "left closed",
        phone.url("left", table),
        {"expected_version": phone.version(table)},
        second,
    )
    phone_post(
        "review closed",
        phone.url("review", table),
        {"expected_version": phone.version(table)},
        second,
    )
    phone_post(
        "confirm mismatch",
        phone.url("confirm", table),
        {"expected_version": phone.version(table), **retyped},
        second,
    )
    phone_post(
        "confirm stale", phone.url("confirm", table), {"expected_version": 0, **every}, second
    )
    phone_post(
        "confirm",
        phone.url("confirm", table),
        {"expected_version": phone.version(table), **every, "key": "k1"},
        second,
    )
    phone_post(
        "confirm again",
        phone.url("confirm", table),
        {"expected_version": 0, **every, "key": "k1"},
        second,
    )
    phone_post(
        "deal after confirm",
        phone.url("deal", table, 1),
        {**phone.cells(1, ROWS[0]), "expected_version": 0},
    )

    scorer, organiser = scorer_client, organiser_client
    answers["POST desk sheet invalid"] = answer(
        scorer.post(desk_url("sheet"), form([bad, *ROWS[1:]]), follow=True)
    )
    answers["POST desk sheet draft"] = answer(
        scorer.post(desk_url("sheet"), form(action="draft"), follow=True)
    )
    answers["POST desk sheet stale"] = answer(
        scorer.post(desk_url("sheet"), form(version=0), follow=True)
    )
    answers["POST desk sheet"] = answer(
        scorer.post(desk_url("sheet"), form(version=1), follow=True)
    )
    answers["POST desk confirm own"] = answer(
        scorer.post(desk_url("confirm"), {"expected_version": 2, "mode": "review"}, follow=True)
    )
    answers["POST desk confirm mismatch"] = answer(
        organiser.post(
            desk_url("confirm"), {"mode": "retype", **form(mistyped, version=2)}, follow=True
        )
    )
    answers["POST desk confirm stale"] = answer(
        organiser.post(desk_url("confirm"), {"mode": "review", "expected_version": 1}, follow=True)
    )
    answers["POST desk confirm"] = answer(
        organiser.post(desk_url("confirm"), {"mode": "review", "expected_version": 2}, follow=True)
    )
    answers["POST desk confirm again"] = answer(
        organiser.post(desk_url("confirm"), {"mode": "review", "expected_version": 2}, follow=True)
    )
    Path(os.environ["HTML_IDENTITY_OUT"]).write_text(json.dumps(answers, indent=1, sort_keys=True))


def compare(before_path: str, after_path: str) -> int:
    before = json.loads(Path(before_path).read_text())
    after = json.loads(Path(after_path).read_text())
    keys = sorted(set(before) | set(after))
    differ = [key for key in keys if before.get(key) != after.get(key)]
    gets = [key for key in keys if key.startswith("GET ")]
    routes = {key.split()[1] for key in gets}
    print(
        f"{len(keys)} answers compared ({len(routes)} routes × {len(ROLES)} roles, "
        f"{len(gets)} GETs over both tournaments; {len(keys) - len(gets)} sheet posts): "
        f"{len(keys) - len(differ)} identical, {len(differ)} differ"
    )
    for key in differ[:10]:
        print("  differs:", key)
    return 1 if differ else 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["compare"] and len(argv) == 3:
        return compare(argv[1], argv[2])
    if argv[:1] == ["snapshot"] and len(argv) == 2:
        os.environ["HTML_IDENTITY_OUT"] = str(Path(argv[1]).resolve())
        os.chdir(ROOT)
        return pytest.main(
            [str(Path(__file__).resolve()), "-q", "-n", "0", "-p", "no:cacheprovider"]
        )
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
