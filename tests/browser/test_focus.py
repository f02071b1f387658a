"""Keyboard use in real Chromium: the skip link comes first and shows when focused, every
control shows the focus ring (also on the maroon header and buttons), and a failed form
moves the focus to its error summary."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

RING = "rgb(255, 191, 71)"  # the ring's yellow, inside a near-black one (app.css)


def focus_style(page: Page) -> dict[str, str]:
    return page.evaluate(
        """() => {
            const style = getComputedStyle(document.activeElement);
            return {tag: document.activeElement.tagName, text: document.activeElement.innerText,
                    outline: style.outlineColor, outlineStyle: style.outlineStyle,
                    shadow: style.boxShadow};
        }"""
    )


def test_the_keyboard_sees_where_it_is(new_page, organiser):
    page = new_page()
    page.goto(reverse("home"))
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to the content")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Tab")
    style = focus_style(page)
    assert style["text"] == "Laugh and Lie Down"  # the brand, on the maroon header
    assert (style["outline"], style["outlineStyle"]) == (RING, "solid")
    assert "rgb(29, 27, 22)" in style["shadow"]

    page.goto(reverse("login"))
    page.get_by_label("User name").fill("olive")
    page.get_by_label("Password").fill("wrong")
    page.get_by_role("button", name="Log in").click()
    summary = page.locator("[data-error-summary]")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("There is a problem")

    page.get_by_label("Password").fill("pw")
    page.get_by_label("Password").press("Tab")
    style = focus_style(page)
    assert style["tag"] == "BUTTON"  # "Log in", maroon
    assert (style["outline"], style["outlineStyle"]) == (RING, "solid")


def test_a_refused_house_rule_brings_the_organiser_to_the_problem(
    new_page, organiser, screenshot_dir
):
    """House rules with a bad number, at a phone's width and a laptop's: the error summary
    is on screen and focused, each of its lines names the box once, and the box's message
    under it leaves the other boxes of its row their size."""
    from tests.browser.pages import log_in
    from tests.factories import TournamentFactory

    shots = screenshot_dir("forms")
    tournament = TournamentFactory(name="House Night", slug="house-night", owner=organiser)
    for width, height in [(360, 740), (1366, 768)]:
        page = new_page(viewport={"width": width, "height": height})
        log_in(page, organiser.username, reverse("organiser:rules", args=[tournament.slug]))
        row = page.locator("fieldset.house-size").filter(has_text="Tables of 4")
        row.get_by_label("Tables of 4").check()
        boxes = row.locator(".house-numbers input")
        before = [boxes.nth(i).bounding_box()["height"] for i in range(boxes.count())]
        boxes.first.fill("250")
        page.get_by_role("button", name="Play under these house rules").click()
        summary = page.locator("[data-error-summary]")
        expect(summary).to_be_focused()
        expect(summary).to_be_in_viewport()
        lines = summary.locator("li").all_inner_texts()
        assert lines, "the summary lists the problem"
        for line in lines:
            assert line.count("Tables of 4") <= 1, line
        assert any("at most 99" in line for line in lines), lines
        row = page.locator("fieldset.house-size").filter(has_text="Tables of 4")
        boxes = row.locator(".house-numbers input")
        after = [boxes.nth(i).bounding_box()["height"] for i in range(boxes.count())]
        assert after == before, "an error resized the boxes of its row"
        page.screenshot(path=shots / f"house-rules-refused-{width}.png")
