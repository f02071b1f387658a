"""The Content-Security-Policy in real Chromium: htmx works under it and nothing on the
pages, nor anything htmx swaps in, is blocked by it.

A blocked inline style or script is no JavaScript error: Chromium only reports it to
the console, so that is where these tests look.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.pages import log_in, watch_for_violations

pytestmark = pytest.mark.browser


def test_the_watch_sees_a_violation(new_page, db):
    page = new_page()
    violations = watch_for_violations(page)
    page.goto("/")
    with page.expect_console_message(lambda message: "Content Security Policy" in message.text):
        page.evaluate("document.head.insertAdjacentHTML('beforeend', '<style>p {}</style>')")
    assert any("style-src" in violation for violation in violations)


def test_public_pages_and_htmx_search_run_under_the_policy(new_page, make_played):
    tournament = make_played(published=True, rounds=2, slug="test-open")
    page = new_page()
    violations = watch_for_violations(page)
    for path in (
        "/",
        f"/t/{tournament.slug}/",
        f"/t/{tournament.slug}/projector/",
        f"/t/{tournament.slug}/rounds/1/",
        f"/t/{tournament.slug}/final/",
    ):
        page.goto(path)
    page.goto(f"/t/{tournament.slug}/")
    page.get_by_role("searchbox", name="Find a player").fill("Player 0003")
    expect(page.locator("table.standings tbody tr")).to_have_count(1)
    # After the last release the standings' one box is "Find a player"; the other
    # pages keep "Find my seat".
    page.goto(f"/t/{tournament.slug}/rounds/1/")
    page.get_by_role("searchbox", name="Find my seat").fill("Player 0003")
    expect(page.locator(".seat-found li")).to_have_count(1)
    # htmx was told to leave its indicator styles to app.css.
    assert page.locator("head style").count() == 0
    assert violations == []


def test_the_scorers_live_check_runs_under_the_policy(new_page, seated_round, scorer):
    page = new_page()
    violations = watch_for_violations(page)
    slug = seated_round.tournament.slug
    log_in(page, scorer.username, f"/score/{slug}/r1/t1/")
    # Typing must wait for the deferred sheet.js, whose live check is under test.
    page.wait_for_load_state("domcontentloaded")
    page.locator("#d1_s1").fill("7")
    page.locator("#d1_s1").press("Tab")
    expect(page.locator("#sheet-check")).to_contain_text("7 cards won is odd")
    page.goto(f"/score/{slug}/r1/desk/")
    expect(page.locator("#desk")).to_be_visible()
    assert violations == []


def test_the_organisers_pages_run_under_the_policy(new_page, seated_round, organiser):
    page = new_page()
    violations = watch_for_violations(page)
    slug = seated_round.tournament.slug
    log_in(page, organiser.username, "/manage/")
    for path in (
        f"/manage/{slug}/",
        f"/manage/{slug}/edit/",
        f"/manage/{slug}/players/",
        f"/manage/{slug}/rounds/",
        f"/manage/{slug}/rounds/1/",
        f"/manage/{slug}/scorers/",
        f"/manage/{slug}/standings/",
        f"/door/{slug}/",
        f"/print/{slug}/r1/seating/",
        f"/print/{slug}/r1/sheets/",
        f"/print/{slug}/r1/rules/",
    ):
        page.goto(path)
    assert violations == []
