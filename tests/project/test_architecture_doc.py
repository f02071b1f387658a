"""docs/architecture.md is the newcomer's map: it names every package, says truly what
each may import, and the functions it names on a deal's path exist."""

import importlib
import re
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
