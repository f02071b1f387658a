"""Each class name means one thing: no two classes in scoring/ and tournament/ share a
name, so a reader (or an import) never takes one for the other."""

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("scoring", "tournament")
# Django finds these by their name (a model's or form's options, a management command's
# class), so every module that has one must use the same name.
NAMED_BY_DJANGO = {"Meta", "Media", "Command"}


def _classes_by_name() -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in NAMED_BY_DJANGO:
                    found[node.name].append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_the_scan_sees_the_classes_of_both_packages():
    found = _classes_by_name()
    assert "Tournament" in found
    assert "Deal" in found
    assert "SeatingRequest" in found


def test_no_two_classes_share_a_name():
    shared = {
        name: places for name, places in sorted(_classes_by_name().items()) if len(places) > 1
    }
    assert shared == {}, "rename one of each pair so that the name says which it is"
