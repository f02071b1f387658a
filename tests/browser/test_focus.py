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
