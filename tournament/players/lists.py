"""Registering players from a CSV list (name, club, member number).

A CSV import is all or nothing: every bad line is reported with its line number and
nothing is imported, unless the organiser chooses to skip the bad lines. Names that are
already registered (or appear twice in the list) are warnings, not errors: two people
may share a name, but an organiser should look twice.

A list's third column, optional, is the player's member number in the register of
people (``people.services``): the imported player is linked to the person with that
number, made from the player's name and club when nobody has it. A number that cannot be
one, that two lines share, or whose person already plays in the tournament is an error
of its line. Only an organiser who may keep the register (``permissions.may_keep_people``)
links players to people: for anyone else the member numbers are not read at all (not
looked up, not checked), the players are imported without people, and the list says so,
naming the lines (``CsvCheck.members_note``).

A list may be separated by commas, semicolons or tabs (what a spreadsheet saves depends
on its language); ``csv.Sniffer`` tells which. A name or club holding a semicolon or a
tab that does not separate the list is a warning of its line: a line typed with the
wrong separator. A name or club is one line: a quote that runs on past the end of its
line would silently make one player of several lines, so the list is refused, naming
the line where the quote opened.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.db import transaction

from scoring.errors import UserError
from tournament.kernel.names import text_problem
from tournament.models import Person, Player, Tournament
from tournament.people import services as people
from tournament.players.services import CLUB_MAX, MAX_LINES, NAME_MAX, next_refs
from tournament.shared.public_changes import mark_changed

DELIMITERS = ",;\t"
DELIMITER_NAMES = {",": "commas", ";": "semicolons", "\t": "tabs"}
DELIMITER_NAME = {",": "comma", ";": "semicolon", "\t": "tab"}
# Some hundred lines: enough for the sniffer to see the pattern. Its regular
# expressions take time that grows with the square of the sample on text full of quotes
# (18 s for 64 KB of ',"'), so the sample stays small.
_SNIFF_CHARS = 4096


def delimiter_of(text: str) -> str:
    """The character that separates name and club: a comma, a semicolon or a tab."""
    sample = text[:_SNIFF_CHARS]
    if len(text) > _SNIFF_CHARS and "\n" in sample:
        sample = sample[: sample.rindex("\n")]  # whole lines only
    try:
        return csv.Sniffer().sniff(sample, delimiters=DELIMITERS).delimiter
    except csv.Error:
        # The sniffer wants every line alike; a list where some players have no club
        # is not. The separator found on the most lines is then the one (a comma on a
        # tie, and for a list of names alone).
        lines = sample.splitlines()
        best = max(DELIMITERS, key=lambda d: sum(d in line for line in lines))
        return best if any(best in line for line in lines) else ","


@dataclass(frozen=True)
class CsvLine:
    line: int
    name: str
    club: str
    warning: str = ""
    member: str = ""
    # The register's person with the member number, when there is one already.
    person_name: str = ""


@dataclass(frozen=True)
class CsvCheck:
    good: tuple[CsvLine, ...]
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    delimiter: str = ","
    # The lines whose member numbers were not used: the importer may not link players to
    # the register of people.
    members_not_used: tuple[int, ...] = ()

    @property
    def separated_by(self) -> str:
        return DELIMITER_NAMES[self.delimiter]

    @property
    def members_note(self) -> str:
        """Why the list's member numbers were not used, naming their lines; "" when they
        were (or there were none)."""
        lines = self.members_not_used
        if not lines:
            return ""
        shown = [str(line) for line in lines[:_LINES_NAMED]]
        if len(lines) > _LINES_NAMED:
            shown.append(f"{len(lines) - _LINES_NAMED} more")
        named = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" and {shown[-1]}"
        several = len(lines) > 1
        return (
            f"The member number{'s' if several else ''} on line{'s' if several else ''} "
            f"{named} {'are' if several else 'is'} not used: linking players to the register "
            "of people is for the installation’s organisers, so these players are imported "
            "without being linked to anyone. Ask the administrator to add your account to "
            "the Organisers group to link them."
        )


# The lines a note names before counting the rest.
_LINES_NAMED = 10


def _is_header(cells: list[str]) -> bool:
    return [c.strip().casefold() for c in cells[:3]] in (
        ["name"],
        ["name", "club"],
        ["name", "club", "member"],
    )


def _quote_never_closed(text: str, delimiter: str) -> int | None:
    """The line of a quote still open at the end of the list, if there is one."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    start = 1
    try:
        for _ in reader:
            start = reader.line_num + 1
    except csv.Error as error:
        # The csv module's words for a quoted field cut off by the end of the text.
        if "unexpected end of data" in str(error):
            return start
    return None


def _records(text: str, delimiter: str) -> list[tuple[int, list[str]]]:
    """The CSV records, each with the line it is on; refused whole when a quote joins
    lines into one record."""
    never_closed = _quote_never_closed(text, delimiter) if '"' in text else None
    if never_closed is not None:
        raise UserError(f'line {never_closed}: a quote (") is never closed; close it, or remove it')
    # newline="": the csv module reads \r, \n and \r\n line ends itself.
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    records: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for cells in reader:
            if reader.line_num > start or any("\n" in c or "\r" in c for c in cells):
                raise UserError(
                    f'line {start}: a quote (") opened on this line is closed only on line '
                    f"{reader.line_num}, which would make one player of those lines; a "
                    "name or club is one line"
                )
            records.append((start, cells))
            start = reader.line_num + 1
    except csv.Error:
        # In practice a stray quote: everything after it reads as one huge field.
        raise UserError(
            f'line {start}: a quote (") is never closed, or the line is far too long'
        ) from None
    return records


def check_csv(tournament: Tournament, text: str, *, link_people: bool) -> CsvCheck:
    """Every line checked: ``name`` (required), ``club`` and ``member`` (optional),
    separated by a comma, a semicolon or a tab; a first line of those words is a header.
    ``link_people``: whether the importer may link players to the register of people
    (``permissions.may_keep_people``); without it the member numbers are not read."""
    text = text.removeprefix("\ufeff")
    delimiter = delimiter_of(text)
    rows = _records(text, delimiter)
    if len(rows) > MAX_LINES:
        raise UserError(f"the list has {len(rows)} lines; import at most {MAX_LINES} at a time")
    existing = {
        name.casefold()
        for name in Player.objects.filter(tournament=tournament).values_list("name", flat=True)
    }
    good: list[CsvLine] = []
    errors: list[str] = []
    warnings: list[str] = []
    seen: dict[str, int] = {}
    given = [cells[2] for _, cells in rows if len(cells) > 2] if link_people else []
    members = _Members(tournament, given)
    not_used: list[int] = []
    for number, cells in rows:
        if not any(cell.strip() for cell in cells):
            continue
        if number == 1 and _is_header(cells):
            continue
        if any("\x00" in cell for cell in cells):
            # PostgreSQL can neither store nor look up a NUL; it means a binary file.
            errors.append(f"line {number}: contains a NUL character; is this a text file?")
            continue
        if len(cells) > 3:
            errors.append(
                f"line {number}: {len(cells)} columns; give a name and, optionally, a club "
                "and a member number"
            )
            continue
        name = " ".join(cells[0].split())
        club = " ".join(cells[1].split()) if len(cells) > 1 else ""
        if not name:
            errors.append(f"line {number}: the name is empty")
            continue
        problem = text_problem(name, "name") or text_problem(club, "club")
        if problem:
            errors.append(f"line {number}: {problem}")
            continue
        if len(name) > NAME_MAX:
            errors.append(f"line {number}: the name is longer than {NAME_MAX} characters")
            continue
        if len(club) > CLUB_MAX:
            errors.append(f"line {number}: the club is longer than {CLUB_MAX} characters")
            continue
        typed_member = cells[2] if len(cells) > 2 else ""
        if not link_people:
            if typed_member.strip():
                not_used.append(number)
            typed_member = ""
        try:
            member = people.clean_member(typed_member, "member number")
        except UserError as problem:
            errors.append(f"line {number}: {problem}")
            continue
        member_problem = members.check(number, member)
        if member_problem:
            errors.append(f"line {number}: {member_problem}")
            continue
        key = name.casefold()
        found: list[str] = []
        if key in existing:
            found.append(f"{name} is already registered")
        elif key in seen:
            found.append(f"{name} is also on line {seen[key]}")
        found += _other_separators(cells[:2], (name, club), delimiter)
        warnings += [f"line {number}: {each}" for each in found]
        warning = "; ".join(found)
        seen.setdefault(key, number)
        person = members.people.get(member)
        good.append(CsvLine(number, name, club, warning, member, person.name if person else ""))
    if not good and not errors:
        errors.append("the list is empty: give one player a line, as name,club")
    return CsvCheck(tuple(good), tuple(errors), tuple(warnings), delimiter, tuple(not_used))


def _other_separators(cells: list[str], stored: tuple[str, ...], delimiter: str) -> list[str]:
    """A name or club holding another list's separator: most likely a line typed with
    the wrong one ("Ithel Rowse;Red Lion" in a list of commas), which would register one
    player named after both. A comma is no mistake ("Smith, Ann" in quotes). A tab is
    looked for in the cell as read: stored, it is a space."""
    said = []
    for cell, value in zip(cells, stored, strict=False):
        other = next((d for d in ";\t" if d != delimiter and d in cell), None)
        if other is not None:
            said.append(
                f"“{value}” holds a {DELIMITER_NAME[other]}: did you mean a "
                f"{DELIMITER_NAME[delimiter]}?"
            )
    return said


class _Members:
    """The member numbers of a list, checked against each other and the register."""

    def __init__(self, tournament: Tournament, given: list[str]) -> None:
        wanted = {m.strip() for m in given if m.strip() and "\x00" not in m}  # NUL: see check_csv
        self.people = {p.member: p for p in Person.objects.filter(member__in=wanted)}
        self.playing = dict(
            Player.objects.filter(tournament=tournament, person__member__in=wanted).values_list(
                "person__member", "name"
            )
        )
        self.lines: dict[str, int] = {}

    def check(self, number: int, member: str) -> str | None:
        if not member:
            return None
        if member in self.lines:
            return (
                f"member number {member} is also on line {self.lines[member]}; a person "
                "plays at most once in a tournament"
            )
        self.lines[member] = number
        if member in self.playing:
            return (
                f"member number {member} is {self.people[member].name}’s, who already "
                f"plays in this tournament as {self.playing[member]}"
            )
        return None


def import_csv(
    tournament: Tournament, text: str, *, link_people: bool, skip_bad: bool = False
) -> list[Player]:
    """Register the players of a CSV list; refused whole while any line is bad unless
    ``skip_bad``. A player given a member number is linked to its person (made when
    nobody has it) only with ``link_people`` (``check_csv``)."""
    check = check_csv(tournament, text, link_people=link_people)
    if check.errors and not skip_bad:
        raise UserError("; ".join(check.errors))
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        refs = next_refs(tournament, len(check.good))
        players = Player.objects.bulk_create(
            Player(tournament=tournament, ref=ref, name=line.name, club=line.club)
            for ref, line in zip(refs, check.good, strict=True)
        )
        for player, line in zip(players, check.good, strict=True):
            if line.member:
                people.link_or_create(player, line.member)
        # bulk_create sends no signals: the public pages' cache is cleared here, in the
        # same transaction, so the new players are never behind a stale page.
        mark_changed(tournament.pk)
        return players
