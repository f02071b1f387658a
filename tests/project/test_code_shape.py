"""The shape of the code: modules and functions a reader can hold (docs/architecture.md,
"How big is too big"), the app's top holding only its entry points, and the seating
engine's modules named by its documentation."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCORING = ROOT / "scoring"
MODULES = sorted(
    path
    for package in ("scoring", "tournament", "config")
    for path in (ROOT / package).rglob("*.py")
    if "migrations" not in path.parts
)
# Past these, a module or a function has usually grown a second idea.
MODULE_LINES = 500
FUNCTION_LINES = 120
# Past the line and whole on purpose, each with why: split by idea, it would read worse.
LONG = {
    "tournament/tournament_file/schema.py:build_schema": (
        "the file's JSON Schema as one literal, read top to bottom as the document it is"
    ),
    "tournament/tournament_file/checking.py:rule_problems": (
        "the rules the schema cannot say, a few lines each, in the order of the file's fields"
    ),
}


def long_parts(modules: list[Path] = MODULES, root: Path = ROOT) -> dict[str, int]:
    """Every module past ``MODULE_LINES`` and function past ``FUNCTION_LINES``, with its
    length: ``path`` or ``path:function``."""
    found = {}
    for path in modules:
        source = path.read_text()
        name = str(path.relative_to(root))
        if (lines := len(source.splitlines())) > MODULE_LINES:
            found[name] = lines
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > FUNCTION_LINES:
                    found[f"{name}:{node.name}"] = length
    return found


def test_what_is_past_the_line_is_named_with_why():
    """A module holds one idea: one past the line has usually grown a second, and is split
    by idea, never by size; one that stays whole is named in ``LONG`` with why."""
    assert len(MODULES) > 100
    found = long_parts()
    unnamed = {part: lines for part, lines in found.items() if part not in LONG}
    assert unnamed == {}, "split these by idea, or name them in LONG with why they stay whole"
    assert set(LONG) <= set(found), "LONG names parts no longer past the line: take them out"


def test_the_check_finds_long_functions_and_modules(tmp_path):
    short = tmp_path / "short.py"
    short.write_text("def short():\n" + "    x = 1\n" * (FUNCTION_LINES - 1))
    long = tmp_path / "long.py"
    long.write_text(("def long():\n" + "    x = 1\n" * FUNCTION_LINES) * 4 + "x = 1\n" * 20)
    assert long_parts([short, long], tmp_path) == {
        "long.py": 4 * (FUNCTION_LINES + 1) + 20,
        "long.py:long": FUNCTION_LINES + 1,
    }


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
