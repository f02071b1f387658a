"""The shape of the views: one view per action, and views write nothing themselves.

A page's buttons that do different things post to different addresses, not to one view
that reads which button was pressed from an ``action`` field.

Every write is a service's, inside its transaction.
The one exception is a ModelForm's own ``save()`` (``form.save()``), which Django wraps
for the single row it concerns. The check reads the views' source: a call of a method
that writes rows, on anything but a form, names its file and line.

Methods that also belong to Python's own containers (``update``, ``add``, ``remove``,
``set``, ``clear``) count only when called on an attribute or a call's result
(``tournament.scorers.add(…)``, ``Round.objects.filter(…).update(…)``), not on a plain
local name, which in a view is a dict, set or list being built (``context.update(…)``).
"""

import ast
import re
from pathlib import Path

import pytest

TOURNAMENT = Path(__file__).resolve().parents[2] / "tournament"
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

# A sheet's "Save draft" and "Save sheet" post the same form to the same save: the
# button says only whether the sheet is final (a flag, not a choice of action).
ONE_ACTION_WITH_A_FLAG = {"sheets/sheet.html"}
_ACTION_FIELD = re.compile(r"""\bname\s*=\s*["']?action\b""")


def test_no_page_chooses_its_action_by_a_posted_field():
    multiplexed = [
        f"templates/{path.relative_to(TEMPLATES)}, line {number}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        if str(path.relative_to(TEMPLATES)) not in ONE_ACTION_WITH_A_FLAG
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if _ACTION_FIELD.search(line)
    ]
    assert multiplexed == [], "give each of these buttons a view and an address:\n" + (
        "\n".join(multiplexed)
    )


ALWAYS_WRITES = {
    "save",
    "create",
    "delete",
    "bulk_create",
    "bulk_update",
    "get_or_create",
    "update_or_create",
}
WRITES_ON_A_RELATION = {"update", "add", "remove", "set", "clear"}


def _is_a_form(receiver: ast.expr) -> bool:
    name = receiver.id if isinstance(receiver, ast.Name) else None
    return bool(name and name.casefold().endswith("form"))


def writes_in(source: str) -> list[tuple[int, str]]:
    """(line, call) for every call in ``source`` that writes rows."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method, receiver = node.func.attr, node.func.value
        if method == "save" and _is_a_form(receiver):
            continue
        if method in ALWAYS_WRITES or (
            method in WRITES_ON_A_RELATION and not isinstance(receiver, ast.Name)
        ):
            found.append((node.lineno, f"{ast.unparse(node.func)}(…)"))
    return found


def test_no_view_writes_a_row_itself():
    # Every module of pages, at any depth: a views.py, or the modules of a views/ package
    # (a concept's, or a face's: tournament/sheets/phone/views/).
    modules = sorted([*TOURNAMENT.rglob("views.py"), *TOURNAMENT.rglob("views/*.py")])
    assert [path for path in modules if "phone" in path.parts]
    assert modules
    writes = [
        f"{path.relative_to(TOURNAMENT.parent)}, line {line}: {call}"
        for path in modules
        for line, call in writes_in(path.read_text())
    ]
    assert writes == [], "views write through their concept's services, not themselves:\n" + (
        "\n".join(writes)
    )


@pytest.mark.parametrize(
    "source",
    [
        "tournament.save()",
        "tournament.save(update_fields=['tiebreaks'])",
        "Player.objects.create(name='x')",
        "round_.tables.all().delete()",
        "Round.objects.filter(pk=1).update(released=True)",
        "tournament.scorers.add(user)",
        "tournament.scorers.remove(user)",
        "KeepApart.objects.get_or_create(first=a, second=b)",
        "Seat.objects.bulk_create(seats)",
        "player.delete()",
    ],
)
def test_the_check_finds_each_kind_of_write(source):
    assert writes_in(source) == [(1, f"{source[: source.rindex('(')]}(…)")]


@pytest.mark.parametrize(
    "source",
    [
        "form.save()",
        "form.save(commit=False)",
        "player_form.save()",
        "context.update(extra=1)",
        "marked.add('d1_s1')",
        "order.remove('countback')",
        "tournaments.set_published(tournament, True)",
        "round_.refresh_from_db()",
    ],
)
def test_the_check_lets_forms_and_local_containers_be(source):
    assert writes_in(source) == []
