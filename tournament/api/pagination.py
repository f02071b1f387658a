"""Lists of the read API, a page at a time, by cursor.

Terms:

- *key*: where an item stands in its list, a tuple of numbers and words that orders the
  list (a tournament's date, name and id; a player's name and id; a row's place in a
  series' standings).
- *cursor*: an opaque word naming one side of an item's key: the page *after* it (the
  next link) or *before* it (the previous link). A cursor stays meaningful as the list
  changes: the next page starts after the last item seen, whatever was added before it,
  so its links are stable and the same page has the same address (and cache entry).

A page holds ``PAGE_SIZE`` items; the body says how many the whole list holds, and the
links to the next and previous pages are in the body and in the ``Link`` header.
"""

from __future__ import annotations

import base64
import binascii
import json
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest

from tournament.api.problems import BadCursor

PAGE_SIZE = 100
# Longer than any cursor this API writes (a tournament's name is at most 200 characters).
CURSOR_MAX = 1000
_AFTER, _BEFORE = "a", "b"

Keyed = list[tuple[tuple[Any, ...], dict[str, Any]]]


def encode(direction: str, key: tuple[Any, ...]) -> str:
    text = json.dumps([direction, list(key)], separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode(cursor: str, like: tuple[Any, ...] | None) -> tuple[str, tuple[Any, ...]]:
    """The direction and key a cursor names; ``BadCursor`` for anything this API did not
    write, or a key not shaped like ``like`` (a key of the list)."""
    if len(cursor) > CURSOR_MAX:
        raise BadCursor(cursor)
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        direction, key = json.loads(raw.decode())
    except (binascii.Error, ValueError, TypeError, UnicodeDecodeError) as error:
        raise BadCursor(cursor) from error
    if direction not in (_AFTER, _BEFORE) or not isinstance(key, list):
        raise BadCursor(cursor)
    found = tuple(key)
    if like is not None and (
        len(found) != len(like)
        or any(type(mine) is not type(theirs) for mine, theirs in zip(found, like, strict=True))
    ):
        raise BadCursor(cursor)
    if any(type(each) not in (int, str) for each in found):
        raise BadCursor(cursor)
    return direction, found


@dataclass(frozen=True)
class Page:
    items: list[dict[str, Any]]
    count: int
    next: str | None
    previous: str | None

    def link_header(self) -> str:
        links = [(self.next, "next"), (self.previous, "prev")]
        return ", ".join(f'<{url}>; rel="{rel}"' for url, rel in links if url)


def page_of(request: HttpRequest, listed: Keyed, cursor: str) -> Page:
    """The page of ``listed`` (in its keys' order) that ``cursor`` names (the first for
    none), with links to its neighbours at the request's address."""
    size = PAGE_SIZE
    keys = [key for key, _ in listed]
    start, end = 0, size
    if cursor:
        direction, key = decode(cursor, keys[0] if keys else None)
        if direction == _AFTER:
            start = bisect_right(keys, key)
            end = start + size
        else:
            end = bisect_left(keys, key)
            start = max(0, end - size)
    chunk = listed[start:end]
    base = request.build_absolute_uri(request.path)

    def link(direction: str, key: tuple[Any, ...]) -> str:
        return f"{base}?{urlencode({'cursor': encode(direction, key)})}"

    following = link(_AFTER, chunk[-1][0]) if chunk and end < len(listed) else None
    preceding = link(_BEFORE, chunk[0][0]) if chunk and start > 0 else None
    return Page([data for _, data in chunk], len(listed), following, preceding)
