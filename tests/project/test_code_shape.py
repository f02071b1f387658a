"""The shape of the code: small modules (scoring/, tournament/ and config/), the app's top
holding only its entry points, and the seating engine's modules named by its
documentation."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCORING = ROOT / "scoring"
MODULES = sorted(
    path
    for package in ("scoring", "tournament", "config")
    for path in (ROOT / package).rglob("*.py")
    if "migrations" not in path.parts
)
LIMIT = 500


def test_no_module_is_over_500_lines():
    """Every module counts, whatever its docstring says: one over the limit holds more
    than one concept and is split by concept (docs/architecture.md)."""
    long = [
        f"{path.relative_to(ROOT)}: {lines} lines"
        for path in MODULES
        if (lines := len(path.read_text().splitlines())) > LIMIT
    ]
    assert len(MODULES) > 100
    assert long == [], "split these by concept"


def test_tournament_has_a_dozen_files_at_its_top_and_no_layer_named_files():
    """The app's top holds its entry points; everything else is in a concept's package
    (no urls_*.py, *_forms.py, services/ or views/ at the top)."""
    top = sorted(path.name for path in (ROOT / "tournament").iterdir() if path.is_file())
    assert len([name for name in top if name.endswith(".py")]) <= 12, top
    assert not [name for name in top if name.startswith("urls_") or name.endswith("_forms.py")]
    assert not (ROOT / "tournament" / "services").exists()
    assert not (ROOT / "tournament" / "views").exists()


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
