"""docs/deploy.md's nginx block sends every page that needs a login to the staff pool and
every public page to the public pool, so a crowd on the public pages cannot hold up a
scorer. Checked against every named URL of the site (tests/routes.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.routes import ROUTES, Access, patterns_by_name

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
# The door check-in tablet checks players in for the organiser, and the phones at the
# tables type score sheets: staff work, though neither needs a login.
STAFF_ACCESS = {
    Access.ACCOUNT,
    Access.SCORER,
    Access.ORGANISER,
    Access.PEOPLE,
    Access.DOOR,
    Access.TABLE,
    Access.INVITATION,
    Access.SERIES_OWNER,
}
# Pages anyone may open that belong to the staff all the same: logging in and out.
STAFF_ACCOUNT_PAGES = {
    "login",
    "logout",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
}
KWARGS = {"slug": "spring-open", "pk": 7, "number": 2, "round": 2, "table": 3, "person": 7}
KWARGS |= {"uidb64": "MQ", "token": "a-token", "code": "K7QM3RXD", "secret": "a-secret"}
KWARGS |= {"series": "winter-league", "identifier": "M0123", "club": "red-lion"}
KWARGS |= {"path": "evening/"}
KWARGS |= {"photo": 12, "batch": "5f0c2d1e-8a4b-4c3d-9e2f-1a2b3c4d5e6f", "cell": "d1_s1"}


def _nginx_block() -> str:
    blocks = re.findall(r"```nginx\n(.*?)```", DEPLOY.read_text(), re.DOTALL)
    assert len(blocks) == 1, "docs/deploy.md should have one nginx block"
    return blocks[0]


def _locations() -> tuple[list[tuple[re.Pattern[str], str]], list[tuple[str, str]]]:
    """The block's regex locations in order, and its prefix locations, each with the
    upstream it proxies to."""
    regexes, prefixes = [], []
    for kind, where, upstream in re.findall(
        r"location\s+(~\s+)?(\S+)\s*\{[^}]*?proxy_pass\s+http://(\w+);", _nginx_block()
    ):
        if kind:
            regexes.append((re.compile(where), upstream))
        else:
            prefixes.append((where, upstream))
    return regexes, prefixes


def upstream_for(path: str) -> str:
    """nginx's choice: the first regex location that matches, else the longest prefix."""
    regexes, prefixes = _locations()
    for pattern, upstream in regexes:
        if pattern.search(path):
            return upstream
    matching = [(len(prefix), upstream) for prefix, upstream in prefixes if path.startswith(prefix)]
    assert matching, f"no location of docs/deploy.md's nginx block serves {path}"
    return max(matching)[1]


def _upstreams() -> set[str]:
    return set(re.findall(r"upstream\s+(\w+)\s*\{", _nginx_block()))


def test_the_block_has_a_public_and_a_staff_upstream() -> None:
    assert _upstreams() == {"lld_public", "lld_staff"}
    regexes, prefixes = _locations()
    assert regexes
    assert prefixes


@pytest.mark.parametrize("name", sorted(ROUTES))
def test_each_page_goes_to_its_pool(name: str) -> None:
    pattern = patterns_by_name()[name]
    path = reverse(name, kwargs={key: KWARGS[key] for key in pattern.kwargs})
    staff = ROUTES[name].access in STAFF_ACCESS or name in STAFF_ACCOUNT_PAGES
    assert upstream_for(path) == ("lld_staff" if staff else "lld_public"), path


@pytest.mark.parametrize(
    ("path", "upstream"),
    [
        ("/admin/", "lld_staff"),
        ("/admin/auth/user/", "lld_staff"),
        ("/static/css/site.0123abcd.css", "lld_public"),
        ("/healthz", "lld_public"),
        ("/", "lld_public"),
        # A tournament whose slug merely starts like a staff path stays public.
        ("/t/score-attack/", "lld_public"),
    ],
)
def test_other_paths(path: str, upstream: str) -> None:
    assert upstream_for(path) == upstream
