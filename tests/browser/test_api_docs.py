"""The read API's reference (/api/v1/docs) in real Chromium: Swagger UI from the site's own
static files, set going by our script, lists every operation of the schema under the
Content-Security-Policy (nothing blocked), and reads at a phone's size and a laptop's
(nothing sideways; ``new_page`` runs axe-core on it too)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.layout import layout_problems
from tests.browser.pages import watch_for_violations

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 900}


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_reference_shows_every_operation_offline_under_the_policy(
    new_page, db, screenshot_dir, viewport
):
    page = new_page(viewport=viewport)
    violations = watch_for_violations(page)
    outside: list[str] = []
    page.on(
        "request",
        lambda request: (
            outside.append(request.url)
            if not request.url.startswith(("http://localhost", "http://127.0.0.1", "data:"))
            else None
        ),
    )
    page.goto(reverse("api:docs"))
    operations = page.locator(".opblock-summary-path")
    expect(operations.first).to_be_visible()
    expect(operations).to_have_count(11)
    expect(page.get_by_text("/api/v1/tournaments/{slug}/standings", exact=True)).to_be_visible()
    page.screenshot(
        path=screenshot_dir(f"api_docs_{viewport['width']}") / "docs.png", full_page=True
    )
    assert violations == []
    assert outside == []
    assert layout_problems(page, viewport["width"]) == []
