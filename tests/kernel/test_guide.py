"""/guide/ serves the built guide: a folder's index.html, its files with their types and
cache headers, a policy allowing exactly each page's own inline scripts by hash, nothing
outside its folder, a 404 for what is not there, and a page saying how to build it when
it is not built."""

import base64
import hashlib
import os
import re

import pytest

from tests.routes import ROUTES
from tournament.kernel import guide

pytestmark = pytest.mark.django_db

SCRIPT = '__md_scope=new URL(".",location)'
PAGE = f"""<!doctype html><html><head><script>{SCRIPT}</script>
<script id="__config" type="application/json">{{"base": "."}}</script>
<script src="assets/javascripts/bundle.0123abcd.min.js"></script></head>
<body><table><tr><td style="text-align: right;">3</td></tr></table></body></html>"""


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@pytest.fixture
def site(tmp_path, settings):
    root = tmp_path / "guide"
    (root / "evening").mkdir(parents=True)
    (root / "assets" / "javascripts").mkdir(parents=True)
    (root / "index.html").write_text(PAGE)
    (root / "evening" / "index.html").write_text(PAGE.replace("3</td>", "The evening</td>"))
    (root / "assets" / "javascripts" / "bundle.0123abcd.min.js").write_text("var a=1;")
    (root / "search").mkdir()
    (root / "search" / "search_index.json").write_text('{"docs": []}')
    (tmp_path / "secret.txt").write_text("not the guide's")
    settings.GUIDE_ROOT = root
    return root


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {
        name: values
        for name, *values in (part.split() for part in header.split(";") if part.strip())
    }


def test_the_guide_opens_at_its_index(client, site):
    response = client.get("/guide/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html"
    assert b"".join(response.streaming_content).decode() == PAGE


def test_a_folder_is_its_index_and_without_its_slash_is_sent_to_it(client, site):
    response = client.get("/guide/evening/")
    assert b"The evening" in b"".join(response.streaming_content)
    response = client.get("/guide/evening")
    assert response.status_code == 301
    assert response["Location"] == "/guide/evening/"


def test_a_page_allows_exactly_its_own_inline_scripts_and_styles(client, site):
    found = policy(client.get("/guide/"))
    assert found["script-src"] == [
        "'self'",
        *sorted({sha256(SCRIPT), sha256('{"base": "."}')}),
    ]
    assert "'unsafe-inline'" not in found["script-src"]
    assert found["style-src"] == ["'self'", "'unsafe-hashes'", sha256("text-align: right;")]
    # The rest of the site's policy stands.
    assert found["frame-ancestors"] == ["'none'"]
    assert found["object-src"] == ["'none'"]


def test_a_page_built_again_is_read_again(client, site):
    client.get("/guide/")
    changed = PAGE.replace(SCRIPT, "var changed=1")
    (site / "index.html").write_text(changed)
    os.utime(site / "index.html", ns=(1, 10**18))
    assert sha256("var changed=1") in policy(client.get("/guide/"))["script-src"]


@pytest.mark.parametrize(
    ("path", "content_type", "cache_control"),
    [
        ("assets/javascripts/bundle.0123abcd.min.js", "text/javascript", "immutable"),
        ("search/search_index.json", "application/json", "no-cache"),
        ("evening/", "text/html", "no-cache"),
    ],
)
def test_files_carry_their_type_and_how_long_to_keep_them(
    client, site, path, content_type, cache_control
):
    response = client.get(f"/guide/{path}")
    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    assert cache_control in response["Cache-Control"]
    assert "Last-Modified" in response


def test_an_unchanged_page_is_not_sent_again(client, site):
    first = client.get("/guide/evening/")
    again = client.get("/guide/evening/", HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert again.status_code == 304


@pytest.mark.parametrize(
    "path",
    [
        "no-such-page/",
        "no-such-file.js",
        "../secret.txt",
        "evening/../../secret.txt",
        "%2e%2e/secret.txt",
        "..%2fsecret.txt",
        "%2fetc/passwd",
        "//etc/passwd",
        "evening%5c..%5c..%5csecret.txt",
    ],
)
def test_nothing_outside_the_guide_nor_missing_is_served(client, site, path):
    response = client.get(f"/guide/{path}")
    assert response.status_code == 404
    assert b"not the guide's" not in response.content


def test_a_symbolic_link_out_of_the_guide_is_not_followed(client, site, tmp_path):
    (site / "outside.txt").symlink_to(tmp_path / "secret.txt")
    assert client.get("/guide/outside.txt").status_code == 404


def test_only_reading_is_allowed(client, site):
    assert client.post("/guide/").status_code == 405
    assert client.head("/guide/").status_code == 200


def test_a_guide_not_built_says_how_to_build_it(client, settings, tmp_path):
    settings.GUIDE_ROOT = tmp_path / "nowhere"
    for path in ("/guide/", "/guide/evening/"):
        response = client.get(path)
        assert response.status_code == 404
        text = response.content.decode()
        assert f"python3 run.py docs {tmp_path / 'nowhere'}" in text
        assert "no-cache" in response["Cache-Control"]


def test_the_real_guide_pages_policy_covers_every_inline_script(built_guide, settings, client):
    """Each inline script of a page MkDocs built is allowed by its hash."""
    settings.GUIDE_ROOT = built_guide
    for path in ("", "evening/", "rules/"):
        response = client.get(f"/guide/{path}")
        html = b"".join(response.streaming_content).decode()
        scripts = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, re.S)
        assert scripts, "the theme's pages have inline scripts"
        allowed = policy(response)["script-src"]
        for script in scripts:
            assert sha256(script) in allowed


def test_every_help_link_names_a_page_and_place_of_the_guide(built_guide):
    for view_name, target in guide.HELP.items():
        assert view_name in ROUTES, f"{view_name} is no page of the site"
        page, _, anchor = target.partition("#")
        file = built_guide / page / "index.html"
        assert file.is_file(), f"{view_name}: no page {page} in the guide"
        if anchor:
            assert f'id="{anchor}"' in file.read_text(), f"{view_name}: no #{anchor} on {page}"
