"""The guide: the pages of docs/ built by MkDocs into ``settings.GUIDE_ROOT`` and served
at /guide/, and which of its pages tells about each of the site's pages.

A *guide file* is a file under the built guide's folder; a folder's file is its
``index.html``. The guide's pages carry a few inline scripts of the theme's (and tables
carry inline ``style`` attributes for their columns' alignment): the site's policy allows
no inline script, so each page is sent with a policy of its own that allows exactly its
own inline scripts and styles, by their SHA-256 (``inline_policy``).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

# The guide's page (and place in it) for each page of the site that has one, by the
# page's URL name: the **Help** link in the header of the organiser's and scorers' pages.
HELP: dict[str, str] = {
    "organiser:home": "evening/",
    "organiser:create": "evening/#every-step-in-detail",
    "organiser:advisor": "format-advisor/",
    "organiser:dashboard": "evening/#every-step-in-detail",
    "organiser:edit": "rule-sets/",
    "organiser:rules": "rule-sets/",
    "organiser:scorers": "scorers/#how-to-invite-a-scorer",
    "organiser:players": "evening/#every-step-in-detail",
    "organiser:players_check_in_everyone": "evening/#every-step-in-detail",
    "organiser:player_edit": "evening/#recording-a-penalty-or-award",
    "organiser:players_people": "people/#people-across-tournaments",
    "organiser:rounds": "evening/#every-step-in-detail",
    "organiser:round": "evening/#every-step-in-detail",
    "organiser:standings": "standings/",
    "organiser:publish": "embeds/",
    "organiser:webhooks": "webhooks/",
    "organiser:series_list": "people/#series-pages",
    "organiser:series_create": "people/#series-pages",
    "organiser:series_detail": "people/#series-pages",
    "people:list": "people/#people-across-tournaments",
    "people:edit": "people/#people-across-tournaments",
    "people:merge": "people/#people-across-tournaments",
    "print:seating": "printing/",
    "print:sheets": "printing/",
    "print:rules_cards": "printing/",
    "scorer:home": "scorers/",
    "scorer:desk": "scorers/#score-entry-at-the-desk",
    "scorer:sheet": "scorers/#score-entry-at-the-desk",
    "scorer:confirm": "scorers/#score-entry-at-the-desk",
    "scorer:history": "scorers/#score-entry-at-the-desk",
    "scorer:read_photo": "photos/",
    "scorer:read_photos": "photos/",
    "scorer:photos": "photos/#following-the-reading",
    "scorer:photo_sheet": "photos/#checking-what-was-read",
    "door:setup": "evening/#every-step-in-detail",
}

# Files whose names carry a hash of their contents (the theme's assets) may be kept long.
KEPT_LONG = re.compile(r"^assets/.*\.[0-9a-f]{8,}\.min\.(js|css)$")

_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)
_STYLE_ELEMENT = re.compile(r"<style[^>]*>(.*?)</style>", re.S | re.I)
_STYLE_ATTRIBUTE = re.compile(r"""\sstyle=(?:"([^"]*)"|'([^']*)')""", re.I)


def root() -> Path:
    return Path(settings.GUIDE_ROOT)


def is_built() -> bool:
    return (root() / "index.html").is_file()


@dataclass(frozen=True)
class Found:
    """What a guide address names: a file to send, or a folder to go to with a slash."""

    file: Path | None = None
    slash_redirect: bool = False


def find(path: str) -> Found | None:
    """The guide file ``path`` names (a folder's ``index.html``), or None: for a file
    that is not there, and for any path that would leave the guide's folder (``..``, an
    absolute path, a symbolic link pointing out)."""
    base = root().resolve()
    if "\x00" in path or "\\" in path:
        return None
    try:
        target = (base / path).resolve()
    except (OSError, ValueError):
        return None
    if not target.is_relative_to(base):
        return None
    if target.is_dir():
        if path and not path.endswith("/"):
            return Found(slash_redirect=True)
        target = target / "index.html"
    if not target.is_file():
        return None
    return Found(file=target)


def _sha256(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


@dataclass(frozen=True)
class InlinePolicy:
    """The sources a guide page's own inline scripts and styles need, by hash."""

    scripts: tuple[str, ...]
    styles: tuple[str, ...]
    style_attributes: tuple[str, ...]


def inline_policy(file: Path) -> InlinePolicy:
    stat = file.stat()
    return _inline_policy(file, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=256)
def _inline_policy(file: Path, mtime_ns: int, size: int) -> InlinePolicy:
    # Keyed by the file's time and size too: a guide built again is read again.
    html = file.read_text(encoding="utf-8")

    def hashes(found: list[str]) -> tuple[str, ...]:
        return tuple(sorted({_sha256(text) for text in found}))

    return InlinePolicy(
        scripts=hashes(_INLINE_SCRIPT.findall(html)),
        styles=hashes(_STYLE_ELEMENT.findall(html)),
        style_attributes=hashes(
            [double or single for double, single in _STYLE_ATTRIBUTE.findall(html)]
        ),
    )
