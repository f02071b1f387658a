"""The pages' JavaScript as it is shipped: htmx pinned in our static files; modules that
import each other by their hashed names once collected (kernel/static_files.py); no
hand-made htmx protocol and no page written over with document.write; the sheet's
buttons naming where they post; the service worker keeping every module a page loads
(public/pwa.py)."""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.templatetags.static import static
from django.test import override_settings

from tests.pages import url
from tournament.public import pwa

STATIC = Path(settings.BASE_DIR) / "static"
TEMPLATES = Path(settings.BASE_DIR) / "templates"
HTMX = STATIC / "vendor" / "htmx-2.0.10.min.js"
# htmx-2.min.js of django-htmx 1.29.0: htmx 2.0.10 as its authors published it.
HTMX_SHA256 = "71ea67185bfa8c98c39d31717c6fce5d852370fcdfd129db4543774d3145c0de"
OUR_SCRIPTS = sorted((STATIC / "js").rglob("*.js"))
MODULE_TAG = re.compile(r"""<script type="module" src="\{% static '([^']+)' %\}">""")


def test_htmx_is_the_pinned_2_0_10_served_from_our_static_files(client):
    assert hashlib.sha256(HTMX.read_bytes()).hexdigest() == HTMX_SHA256
    assert 'version:"2.0.10"' in HTMX.read_text(encoding="utf-8")
    page = client.get("/").content.decode()
    assert f'<script src="{static("vendor/htmx-2.0.10.min.js")}" defer></script>' in page
    # No other copy: django-htmx's tag would serve whichever htmx it ships next.
    for template in TEMPLATES.rglob("*.html"):
        assert "htmx_script" not in template.read_text(encoding="utf-8"), template


def test_htmx_shows_the_pages_answering_409_and_422_and_keeps_the_page_on_304(client):
    page = client.get("/").content.decode()
    config = json.loads(re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", page)[1])
    handling = config["responseHandling"]

    def first(code: str) -> dict[str, object]:
        return next(rule for rule in handling if re.fullmatch(rule["code"], code))

    assert first("304")["swap"] is False
    assert first("409") == {"code": "409", "swap": True, "error": False}
    assert first("422") == {"code": "422", "swap": True, "error": False}
    assert first("200")["swap"] is True
    assert first("500")["swap"] is False


def test_no_script_writes_a_page_over_the_document_or_speaks_htmxs_protocol_by_hand():
    assert OUR_SCRIPTS
    for script in OUR_SCRIPTS:
        source = script.read_text(encoding="utf-8")
        assert "document.write" not in source, script
        assert "document.open(" not in source, script
        # htmx sends HX-Request itself; a script that sets it re-implements htmx.
        assert not re.search(r"""["']HX-Request["']\s*[:\]]""", source), script


def test_the_sheets_save_buttons_name_where_they_post(scorer_client, seated_round):
    page = scorer_client.get(url("sheet")).content.decode()
    buttons = re.findall(r"<button [^>]*name=\"action\"[^>]*>", page)
    assert len(buttons) == 2
    for button in buttons:
        assert f'formaction="{url("sheet")}"' in button


def test_the_pages_load_their_scripts_as_modules_that_the_worker_keeps():
    entries = {
        found
        for template in TEMPLATES.rglob("*.html")
        for found in MODULE_TAG.findall(template.read_text(encoding="utf-8"))
    }
    assert entries == set(pwa.ENTRY_MODULES)
    graph = pwa.module_graph()
    # keep.js's parts, reached through its imports.
    assert {"js/keep/storage.js", "js/keep/queue.js", "js/keep/banner.js"} <= set(graph)
    # Every module file is reached from a page: none is shipped and never kept.
    modules = {
        str(script.relative_to(STATIC))
        for script in OUR_SCRIPTS
        if re.search(r"^(import|export) ", script.read_text(encoding="utf-8"), re.MULTILINE)
    }
    assert modules <= set(graph)
    text, _ = pwa.worker_text()
    kept = json.loads(re.search(r"^var MODULES = (.*);$", text, re.MULTILINE)[1])
    assert kept == [static(name) for name in graph]
    assert 'var VERSION = "3";' in text


def test_collected_modules_import_each_other_by_their_hashed_names(tmp_path):
    storage = {"BACKEND": "tournament.kernel.static_files.ModuleManifestStaticFilesStorage"}
    with override_settings(
        STATIC_ROOT=tmp_path, STORAGES={**settings.STORAGES, "staticfiles": storage}
    ):
        # Every app's files, as production collects them: other apps' scripts are left as
        # they come (django-htmx's extensions import a file no one ships).
        call_command("collectstatic", interactive=False, verbosity=0)
    hashed = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    for name in pwa.module_graph():
        collected = (tmp_path / hashed[name]).read_text(encoding="utf-8")
        folder = posixpath.dirname(hashed[name])
        imports = [
            posixpath.normpath(posixpath.join(folder, found["url"]))
            for found in pwa.IMPORT.finditer(collected)
        ]
        assert imports == [hashed[imported] for imported in pwa.imported(name)], name
        assert all(hashed[imported] != imported for imported in pwa.imported(name))
