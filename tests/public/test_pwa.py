"""Installing the public pages as an app: the web app manifest and its icons, the
service worker's address, and the lines of every page's head that name them
(tournament/public/pwa.py). What the worker keeps and what it never keeps is
tests/browser/test_offline.py's."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse

from tournament.public import pwa

APP_CSS = Path(settings.BASE_DIR) / "static" / "css" / "app.css"


def png_size(path: str) -> tuple[int, int]:
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def static_file(url: str) -> str:
    found = finders.find(url.removeprefix(settings.STATIC_URL))
    assert isinstance(found, str), url
    return found


def test_the_manifest_names_the_app_its_colours_and_icons(client):
    response = client.get(reverse("web_manifest"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Laugh and Lie Down"
    assert manifest["short_name"]
    assert len(manifest["short_name"]) <= 16  # a phone's home screen shows about that much
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    # The palette of app.css: the header's dark red and the page's paper.
    palette = dict(re.findall(r"--(\w+): (#[0-9a-f]{6})", APP_CSS.read_text(encoding="utf-8")))
    assert manifest["theme_color"] == palette["accent"]
    assert manifest["background_color"] == palette["paper"]

    icons = {(icon["sizes"], icon.get("purpose", "any")): icon for icon in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _), icon in icons.items():
        assert icon["type"] == "image/png"
        width, height = png_size(static_file(icon["src"]))
        assert f"{width}x{height}" == sizes, icon["src"]


def test_the_service_worker_is_served_fresh_as_javascript(client):
    response = client.get(reverse("service_worker"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    text = response.content.decode()
    # The site's static address written in; the public pages its rule keeps.
    assert f"var STATIC_PREFIX = {json.dumps(settings.STATIC_URL)};" in text
    assert r"var PUBLIC_PAGE = /^\/(t\/[^/]+\/.*)?$/;" in text
    assert f"var OFFLINE_PAGE = {json.dumps(reverse('offline'))};" in text
    # Served from the site's root, it may control the whole site without
    # Service-Worker-Allowed.
    assert reverse("service_worker") == "/sw.js"
    assert "Service-Worker-Allowed" not in response

    # A phone asks again at each visit: a 304 until the worker changes.
    again = client.get(reverse("service_worker"), headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304
    assert again["Cache-Control"] == "no-cache"
    assert not again.content


def test_the_service_worker_is_no_organisers_page(client):
    """Anyone may fetch it, logged in or not, and only read it."""
    assert client.post(reverse("service_worker")).status_code == 405
    assert client.post(reverse("web_manifest")).status_code == 405


def test_every_page_names_the_manifest_its_icon_and_the_worker(client, db):
    html = client.get(reverse("home")).content.decode()
    assert f'<link rel="manifest" href="{reverse("web_manifest")}">' in html
    assert f'<meta name="theme-color" content="{pwa.THEME_COLOUR}">' in html
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', html)
    assert touch is not None
    assert png_size(static_file(touch.group(1))) == (180, 180)
    register = re.search(r'<script src="[^"]*sw-register\.js"([^>]*)>', html)
    assert register is not None
    assert f'data-worker="{reverse("service_worker")}"' in register.group(1)
    scope = re.search(r'data-scope="([^"]*)"', register.group(1))
    assert scope is not None
    # The installed app opens at the manifest's start page: inside the worker's scope.
    start = json.loads(client.get(reverse("web_manifest")).content)["start_url"]
    assert start.startswith(scope.group(1))
    # The worker's own address allows that scope (a worker controls its folder and below).
    assert scope.group(1).startswith(reverse("service_worker").rsplit("/", 1)[0] + "/")
    assert " defer" in register.group(1)
    assert "offline.css" in html


def test_the_offline_page_is_the_same_for_everyone(client, db):
    """The worker keeps it at install, fetched without cookies: it carries nobody's name."""
    response = client.get(reverse("offline"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "You are offline" in html
    assert "Try again" in html
    assert "public" in response["Cache-Control"]
    assert client.head(reverse("offline")).status_code == 200
