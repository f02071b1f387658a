"""``manage.py print_sheets``: a round's score sheets as a PDF, exactly as the browser
prints them: Chromium prints the organiser's own sheets page, with its print stylesheet,
on A4 or US Letter.

Playwright and Debian's Chromium (/usr/bin/chromium) are what the browser tests use; they
are imported and started only here, and their absence is said in words.
"""

from __future__ import annotations

import importlib.util
import mimetypes
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test import Client
from django.urls import reverse

from tournament.models import Round, Tournament
from tournament.printing.layout import PAPERS

if TYPE_CHECKING:
    from playwright.sync_api import Route

CHROMIUM = Path("/usr/bin/chromium")
PAPER_FORMATS = {"a4": "A4", "letter": "Letter"}


class Command(BaseCommand):
    help = (
        "Write a round's score sheets to a PDF, one table a page, as Chromium prints the "
        "sheets page (needs Playwright and /usr/bin/chromium)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's slug")
        parser.add_argument("round", type=int)
        parser.add_argument("file", type=Path, help="the PDF to write")
        parser.add_argument("--paper", choices=sorted(PAPERS), default="a4")

    def handle(
        self, *args: object, slug: str, round: int, file: Path, paper: str, **options: object
    ) -> None:
        round_ = Round.objects.filter(tournament__slug=slug, number=round).first()
        if round_ is None:
            if not Tournament.objects.filter(slug=slug).exists():
                raise CommandError(f"No tournament {slug!r}.")
            raise CommandError(f"{slug} has no round {round}.")
        _check_browser()
        path = reverse("print:sheets", args=[slug, round])
        address, html = _sheets_page(round_.tournament, path)
        # Playwright's sync API will not start in a thread whose event loop already runs
        # (another Playwright's, such as a test's browser): it gets a thread of its own.
        with ThreadPoolExecutor(max_workers=1) as printer:
            pdf = printer.submit(_print, address, html, PAPER_FORMATS[paper]).result()
        file.write_bytes(pdf)
        self.stdout.write(f"Wrote the score sheets of round {round} to {file} ({paper}).")


def _check_browser() -> None:
    if importlib.util.find_spec("playwright") is None:
        raise CommandError(
            "Printing to a PDF needs Playwright: pip install playwright "
            "(the browser itself is Debian's: apt-get install chromium)."
        )
    if not CHROMIUM.exists():
        raise CommandError(
            f"Printing to a PDF needs Chromium at {CHROMIUM}: apt-get install chromium."
        )


def _host() -> str:
    """A name this site answers to (the pages' addresses are built from it unless
    PUBLIC_BASE_URL says where the phones reach them)."""
    first = settings.ALLOWED_HOSTS[0] if settings.ALLOWED_HOSTS else "localhost"
    return "localhost" if first == "*" else first.lstrip(".")


def _sheets_page(tournament: Tournament, path: str) -> tuple[str, str]:
    """The sheets page as its organiser sees it: its address and its HTML."""
    if tournament.owner is None:
        raise CommandError(f"{tournament.slug} has no organiser to print its sheets as.")
    client = Client()
    client.force_login(tournament.owner)
    try:
        host = _host()
        secure = bool(settings.SECURE_SSL_REDIRECT)
        response = client.get(path, HTTP_HOST=host, secure=secure)
        if response.status_code != 200:
            raise CommandError(f"The sheets page answered {response.status_code}.")
        scheme = "https" if secure else "http"
        return f"{scheme}://{host}{path}", response.content.decode()
    finally:
        client.logout()


def _static_file(url_path: str) -> Path | None:
    """The file a static address names: from the apps' and the project's static folders,
    or, once collected (hashed names in production), from STATIC_ROOT."""
    prefix = "/" + settings.STATIC_URL.lstrip("/")
    if not url_path.startswith(prefix):
        return None
    name = url_path.removeprefix(prefix)
    found = finders.find(name)
    if found:
        return Path(found if isinstance(found, str) else found[0])
    if staticfiles_storage.exists(name):
        return Path(staticfiles_storage.path(name))
    return None


def _print(address: str, html: str, paper: str) -> bytes:
    from playwright.sync_api import sync_playwright

    def answer(route: Route) -> None:
        url = route.request.url
        if url == address:
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)
            return
        file = _static_file(urlsplit(url).path) if url.startswith(origin) else None
        if file is None:
            # Nothing but the page and its static files: the sheets need no network.
            route.abort()
            return
        content_type = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        route.fulfill(status=200, content_type=content_type, body=file.read_bytes())

    parts = urlsplit(address)
    origin = f"{parts.scheme}://{parts.netloc}/"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page()
            page.route("**/*", answer)
            page.goto(address, wait_until="load")
            page.emulate_media(media="print")
            return page.pdf(format=paper)
        finally:
            browser.close()
