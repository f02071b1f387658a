"""axe-core on every page of the site, once a run: each route of tests/routes.py that
answers with HTML, as each of four people (the tournament's organiser and scorer, someone
with no part in it, someone not logged in), at a phone's size and a laptop's
(tests/browser/sweep.py). Then the states only an action reaches: a refused form with its
error summary, a failed login, the door after a check-in. A serious or critical violation,
or template text shown, fails the test, naming the page.

The tests of what pages do check, with axe-core too, the pages in the state they leave
them, and any page they showed that the sweep does not (tests/browser/conftest.py).
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.checks import AXE, axe_violations, template_text
from tests.browser.layout import layout_problems
from tests.browser.sweep import ANONYMOUS, ORGANISER, ROLES, USERNAMES, VIEWPORTS, pages_for
from tests.factories import played_tournament, seated_round
from tests.routes import ROUTES, Access, url_for
from tournament.models import Player, Table

pytestmark = pytest.mark.browser


@pytest.fixture
def sweep_tournament(transactional_db, django_user_model):
    """A published tournament of olive's, scored by simon: round 1 played and released,
    round 2 seated and started with no sheet entered; and oscar, who has no part in it."""
    olive = django_user_model.objects.create_user("olive", password="pw")
    simon = django_user_model.objects.create_user("simon", password="pw")
    django_user_model.objects.create_user("oscar", password="pw")
    tournament = played_tournament(
        players=12, rounds=1, slug="sweep-open", owner=olive, scorers=[simon]
    )
    seated_round(tournament, list(Player.objects.filter(tournament=tournament)), number=2)
    tournament.refresh_from_db()
    return tournament


def context_of(chromium: Browser, live_server, role: str, viewport: str) -> BrowserContext:
    context = chromium.new_context(base_url=live_server.url, viewport=VIEWPORTS[viewport])
    # axe-core in every page the sweep opens before the page's own scripts, from the file
    # once (``axe_violations`` would otherwise send its 500 KB to each page again).
    context.add_init_script(path=AXE)
    if role != ANONYMOUS:
        client = Client()
        client.force_login(django_user_model_get(USERNAMES[role]))
        cookie = client.cookies["sessionid"]
        context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    return context


def django_user_model_get(username: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=username)


def problems_on(page: Page) -> list[str]:
    return [f"{page.url}: {found}" for found in axe_violations(page)] + template_text(page)


def sweep_url(name: str, tournament) -> str:
    """``name``'s URL (tests/routes.py), a table's pages by the code of round 2's last
    table: round 1's codes no longer open anything once its results are released."""
    needs_tournament = ROUTES[name].access not in {Access.ANYONE, Access.ACCOUNT}
    url = url_for(name, tournament if needs_tournament else None)
    if ROUTES[name].access is Access.TABLE:
        tables = Table.objects.filter(round__tournament=tournament).order_by("-number")
        first = tables.filter(round__number=1).values_list("code", flat=True)[0]
        url = url.replace(first, tables.filter(round__number=2).values_list("code", flat=True)[0])
    return url


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.usefixtures("_backs_up")
def test_every_page_passes_axe(chromium, live_server, sweep_tournament, role):
    """Every page ``role`` may open, at each of the sweep's sizes."""
    problems: list[str] = []
    not_pages: list[str] = []
    layout: list[str] = []
    for viewport in sorted(VIEWPORTS):
        context = context_of(chromium, live_server, role, viewport)
        page = context.new_page()
        for name in pages_for(role):
            url = sweep_url(name, sweep_tournament)
            response = page.goto(url)
            shown = (
                response is not None and response.ok and response.request.redirected_from is None
            )
            if not shown or "html" not in response.headers.get("content-type", ""):
                status = response.status if response else "nothing"
                not_pages.append(f"{name} ({url}) at {viewport}: {status}")
                continue
            problems += problems_on(page)
            layout += layout_problems(page, VIEWPORTS[viewport]["width"])
        context.close()
    assert not not_pages, f"Not shown as {role}, so not checked: {not_pages}"
    assert not layout, (
        "Layout (sideways scroll, targets under 24 px or main ones under 44 px):\n"
        + "\n".join(layout)
    )
    assert not problems, "Accessibility violations (axe-core), template text:\n" + "\n".join(
        problems
    )


@pytest.mark.usefixtures("_backs_up")
def test_refused_forms_pass_axe(chromium, live_server, sweep_tournament):
    """A form sent back with its error summary: a failed login, and the organiser's
    player added without a name (the browser's own check of the field turned off)."""
    problems = []
    for viewport in sorted(VIEWPORTS):
        context = context_of(chromium, live_server, ANONYMOUS, viewport)
        page = context.new_page()
        page.goto(reverse("login"))
        page.get_by_label("User name").fill("olive")
        page.get_by_label("Password").fill("wrong")
        page.get_by_role("button", name="Log in").click()
        expect(page.locator(".error-summary")).to_be_visible()
        problems += problems_on(page)
        context.close()
        context = context_of(chromium, live_server, ORGANISER, viewport)
        page = context.new_page()
        page.goto(reverse("organiser:players", args=[sweep_tournament.slug]))
        page.evaluate("document.querySelectorAll('[required]').forEach((e) => e.required = false)")
        page.get_by_role("button", name="Add player", exact=True).click()
        expect(page.locator(".error-summary")).to_be_visible()
        problems += problems_on(page)
        context.close()
    assert not problems, "Accessibility violations (axe-core), template text:\n" + "\n".join(
        problems
    )
