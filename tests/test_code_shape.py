"""The shape of the code: small modules (scoring/ and tournament/), each a step or a
shared part, and the seating engine's modules named by its documentation."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCORING = ROOT / "scoring"
MODULES = sorted(
    path
    for package in ("scoring", "tournament")
    for path in (ROOT / package).rglob("*.py")
    if "migrations" not in path.parts
)


def test_no_module_is_over_400_lines_without_saying_why_in_its_docstring():
    long = []
    for path in MODULES:
        text = path.read_text()
        docstring = ast.get_docstring(ast.parse(text)) or ""
        if len(text.splitlines()) > 400 and "400 lines" not in docstring:
            long.append(f"{path.relative_to(ROOT)}: {len(text.splitlines())} lines")
    assert MODULES
    assert long == [], "split these, or say in the docstring why they are over 400 lines"


def test_the_seating_engine_is_a_package_whose_modules_are_the_documented_steps():
    docs = (SCORING.parent / "docs" / "seating.md").read_text()
    package = SCORING / "seating"
    assert not (SCORING / "seating.py").exists()
    assert not (SCORING / "seating_search.py").exists()
    for module in sorted(package.glob("*.py")):
        if module.name != "__init__.py":
            assert f"`{module.name}`" in docs, f"docs/seating.md does not name {module.name}"


def test_no_template_comment_runs_over_a_line():
    """``{# … #}`` is a comment in Django only on one line: over two, it is printed on
    the page as text. Longer comments use ``{% comment %}``."""
    templates = ROOT / "templates"
    open_comments = [
        f"{path.relative_to(templates)}:{number}"
        for path in sorted(templates.rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if line.count("{#") > line.count("#}")
    ]
    assert open_comments == [], "close each {# on its own line, or use {% comment %}"
