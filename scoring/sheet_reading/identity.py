"""Which sheet a photo shows: the tournament, round and table its QR code names.

The printed QR code has always carried the entry URL phones open. It now also carries a
*fragment* naming the sheet (``#sheet=slug/round/table``). Browsers never send a fragment to
the server, so a phone scanning the code lands on the same page as before, while a reader of
the photo learns exactly which table's sheet it holds.
"""

import re
from dataclasses import dataclass
from urllib.parse import urldefrag

_FRAGMENT = re.compile(r"sheet=([a-z0-9]+(?:-[a-z0-9]+)*)/([1-9][0-9]{0,3})/([1-9][0-9]{0,3})")


@dataclass(frozen=True)
class SheetIdentity:
    tournament: str  # the tournament's slug
    round: int
    table: int


def qr_text(entry_url: str, identity: SheetIdentity) -> str:
    """What the printed QR code encodes: the entry URL plus a fragment naming the sheet."""
    if not _FRAGMENT.fullmatch(_fragment(identity)):
        raise ValueError(f"cannot name {identity!r} in a QR code")
    base, _ = urldefrag(entry_url)
    return f"{base}#{_fragment(identity)}"


def identity_from_qr(text: str) -> SheetIdentity | None:
    """The sheet a QR code names, or None when the code is not one of our sheets."""
    _, fragment = urldefrag(text.strip())
    match = _FRAGMENT.fullmatch(fragment)
    if match is None:
        return None
    slug, round_number, table = match.groups()
    return SheetIdentity(tournament=slug, round=int(round_number), table=int(table))


def _fragment(identity: SheetIdentity) -> str:
    return f"sheet={identity.tournament}/{identity.round}/{identity.table}"
