"""docs/architecture.md is the newcomer's map: it names every package, says truly what
each may import, and the functions it names on a deal's path exist."""

import importlib
import re
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text()
TOURNAMENT = ROOT / "tournament"
# Not concepts: the app's entry points, described together in one section.
ENTRY_POINTS = {"management", "templatetags", "migrations"}


def packages() -> list[str]:
    return sorted(
        path.name
        for path in TOURNAMENT.iterdir()
        if (path / "__init__.py").exists() and path.name != "__pycache__"
    )


def sections() -> dict[str, str]:
    """Each package's paragraph, by the name in its heading (### `name`)."""
    found = re.split(r"^### ", DOC, flags=re.M)[1:]
    named = {re.match(r"`(\w+)`", part).group(1): part for part in found}
    return {name: part for name, part in named.items() if name not in ENTRY_POINTS}


def may_import(section: str) -> set[str]:
    line = re.search(r"^May import: (.*?)(?:\n\n|\Z)", section, flags=re.M | re.S)
    assert line, "each package's paragraph ends with a 'May import:' line"
    return set(re.findall(r"`(\w+)`", line.group(1)))


def test_the_map_names_every_package():
    named = set(sections())
    for package in packages():
        if package in ENTRY_POINTS:
            assert f"`{package}`" in DOC, package
        else:
            assert package in named, f"docs/architecture.md has no paragraph on {package}"
    assert named <= set(packages()), "a paragraph names a package that is not there"


def test_the_layers_list_every_concept_and_the_contracts_hold_the_same_list():
    pyproject = (ROOT / "pyproject.toml").read_text()
    concepts = set(sections()) - {"kernel", "models", "shared"}
    layers = re.search(r"^4\. \*\*The concepts\*\*:(.*?)\n5\.", DOC, flags=re.M | re.S)
    assert layers
    assert set(re.findall(r"`(\w+)`", layers.group(1))) == concepts
    contract = re.search(r'"(tournament\.accounts : [^"]*)"', pyproject)
    assert contract
    assert {name.strip().removeprefix("tournament.") for name in contract.group(1).split(":")} == (
        concepts
    )


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("tournament", "scoring", cache_dir=None)


def test_each_package_imports_exactly_what_the_map_says(graph):
    for package, section in sections().items():
        allowed = may_import(section)
        imported = set()
        for module in graph.find_descendants(f"tournament.{package}") | {f"tournament.{package}"}:
            for other in graph.find_modules_directly_imported_by(module):
                parts = other.split(".")
                if parts[0] == "tournament" and len(parts) > 1 and parts[1] != package:
                    imported.add(parts[1])
        assert imported <= allowed, (
            f"tournament/{package} imports {sorted(imported - allowed)}, which the map "
            f"(docs/architecture.md) does not allow it"
        )
        assert allowed <= imported, (
            f"the map (docs/architecture.md) lets tournament/{package} import "
            f"{sorted(allowed - imported)}, which it does not: say what it uses"
        )


def test_every_function_named_on_the_deal_path_exists():
    path = DOC.split("## One deal, from a phone to the projector", 1)[1]
    names = set(re.findall(r"`((?:tournament|scoring)\.[\w.]+)`", path))
    assert len(names) > 10
    for name in sorted(names):
        module_name, attributes = name, []
        while True:
            try:
                found = importlib.import_module(module_name)
                break
            except ModuleNotFoundError:
                module_name, _, last = module_name.rpartition(".")
                attributes.insert(0, last)
        for attribute in attributes:
            found = getattr(found, attribute)
        assert found is not None, name


def views_modules() -> set[str]:
    """Every module of pages in the app, at any depth: a ``views.py``, or a ``views/``
    package (``tournament.sheets.phone.views``)."""
    found = set()
    for path in TOURNAMENT.rglob("views*"):
        if "migrations" in path.parts or "__pycache__" in path.parts:
            continue
        if path.name == "views.py" or (path.is_dir() and (path / "__init__.py").exists()):
            found.add(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return found


def views_contracts() -> dict[str, list[str]]:
    """The patterns of the contracts about pages, by contract name: the modules they
    keep apart or protect."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {
        contract["name"]: patterns
        for contract in contracts["contracts"]
        if (patterns := contract.get("modules") or contract.get("protected_modules"))
        and any(pattern.endswith(".views") for pattern in patterns)
    }


def test_the_contracts_on_pages_cover_every_views_module(graph):
    """A concept's pages, or a face's (``sheets.phone.views``), however deep: each is kept
    from the others' and reached through URLs only."""
    modules = views_modules()
    assert {"tournament.sheets.phone.views", "tournament.sheets.desk.views"} <= modules
    contracts = views_contracts()
    assert len(contracts) == 2, sorted(contracts)
    for name, patterns in contracts.items():
        covered = set().union(*(graph.find_matching_modules(p) for p in patterns))
        assert modules - covered == set(), f"“{name}” does not cover these pages"
