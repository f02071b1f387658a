"""The guide: `python3 run.py docs DIR` builds docs/ into a website, strictly (a link to a
page or a place that is not there, or out of docs/, fails the build), and the README stays
a short page: what the product is, its two commands, and where the guide is."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

import run

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def nav_pages(nav) -> list[str]:
    """The Markdown files mkdocs.yml's navigation lists, in its order."""
    found: list[str] = []
    for entry in nav:
        for value in entry.values() if isinstance(entry, dict) else [entry]:
            found += nav_pages(value) if isinstance(value, list) else [value]
    return found


def test_the_build_leaves_the_whole_guide(built_guide):
    assert (built_guide / "index.html").is_file()
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    pages = nav_pages(config["nav"])
    assert pages[:2] == ["index.md", "evening.md"]
    for page in pages:
        folder = "" if page == "index.md" else page.removesuffix(".md") + "/"
        assert (built_guide / folder / "index.html").is_file(), page
    # Search works offline: its index is built with the pages.
    assert (built_guide / "search" / "search_index.json").is_file()
    # Every Markdown file of docs/ is a page of the guide.
    assert {path.name for path in (ROOT / "docs").glob("*.md")} == set(pages)


def test_the_built_guide_fetches_nothing_from_the_internet(built_guide):
    html = (built_guide / "evening" / "index.html").read_text(encoding="utf-8")
    fetched = re.findall(r"""<(?:script|link|img)[^>]+(?:src|href)="(https?://[^"]+)""", html)
    assert fetched == []
    assert "fonts.googleapis.com" not in html
    for image in re.findall(r'<img[^>]+src="([^"]+)"', html):
        assert (built_guide / "evening" / image).resolve().is_file(), image


@pytest.mark.parametrize(
    ("page", "old", "new", "said"),
    [
        ("rule-sets.md", "(rules.md)", "(no-such-page.md)", "no-such-page.md"),
        ("index.md", "(scorers.md)", "(scorers.md#no-such-place)", "no-such-place"),
        ("index.md", "(scorers.md)", "(../tournament/kernel/guide.py)", "guide.py"),
    ],
)
def test_a_broken_link_fails_the_build(tmp_path, page, old, new, said):
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    text = (tmp_path / "docs" / page).read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "docs" / page).write_text(text.replace(old, new, 1), encoding="utf-8")
    completed = subprocess.run(
        run.guide_command(tmp_path / "site"),
        cwd=tmp_path,
        env=run.guide_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode != 0
    assert said in completed.stderr + completed.stdout


def test_docs_takes_one_folder():
    with pytest.raises(SystemExit) as refused:
        run.docs([])
    assert "run.py docs takes one DIR" in str(refused.value)


def test_the_guide_is_built_again_when_docs_change(tmp_path):
    sources = tmp_path / "docs"
    sources.mkdir()
    (sources / "index.md").write_text("# Start\n")
    site = tmp_path / "site"
    assert run.guide_is_stale(site, [sources])
    site.mkdir()
    (site / "index.html").write_text("<html></html>")
    assert not run.guide_is_stale(site, [sources])
    page = sources / "evening.md"
    page.write_text("# The evening\n")
    later = (site / "index.html").stat().st_mtime + 10
    os.utime(page, (later, later))
    assert run.guide_is_stale(site, [sources])


def test_the_readme_is_short():
    assert len(README.splitlines()) <= 200


def test_the_readme_gives_the_two_commands_and_where_the_guide_is():
    commands = re.findall(r"```sh\n(.*?)```", README, re.S)
    assert commands == ["python3 run.py demo\n", "python3 run.py test\n"]
    # CI runs the README's test command.
    assert "\npython3 run.py test\n" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "/guide/" in README
    assert "python3 run.py docs DIR" in README
