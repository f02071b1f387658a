"""What a person sees of a page's layout, measured in the browser: targets a finger can
hit (WCAG 2.5.8: 24 × 24 px, the main controls 44 px) on the whole page, and nothing that
scrolls sideways. Used by the phone-design tests and the sweep of every page
(tests/browser/test_accessibility.py)."""

from __future__ import annotations

from playwright.sync_api import Page

# Every visible link, button, field, list and disclosure in the page's content and its tab
# bar, smaller than 24 × 24 px; and the main controls lower than 44 px. Each by its text.
TAP_TARGETS = """() => {
  const name = (el) => (el.innerText || el.value || el.getAttribute("aria-label") || el.tagName)
    .trim().replace(/\\s+/g, " ").slice(0, 40);
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  // WCAG 2.5.8's exception: a link inside a sentence, sized by the line it sits in.
  const inSentence = (el) => el.tagName === "A" && el.parentElement.closest("p, li, dd") !== null
    && el.parentElement.closest("p, li, dd").innerText.trim().length > el.innerText.trim().length + 3
    && getComputedStyle(el).display === "inline";
  const small = [];
  for (const el of document.querySelectorAll("a, button, input:not([type=hidden]), select, summary, textarea")) {
    if (!shown(el) || inSentence(el) || el.closest(".visually-hidden, [aria-hidden=true]")) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 24 || box.height < 24) {
      small.push(`${name(el)} (${box.width.toFixed(0)}×${box.height.toFixed(0)})`);
    }
  }
  const low = [];
  const main = [
    "nav.tabs a", ".find-seat input", ".find-seat button", "form.search input",
    "form.search button", "[data-this-is-me]", ".my-card .chip", ".my-card-more > summary",
    "form.sheet-form button[type=submit]",
  ].join(", ");
  for (const el of document.querySelectorAll(main)) {
    if (!shown(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.height < 44) low.push(`${name(el)} (${box.height.toFixed(0)}px high)`);
  }
  const searches = [...document.querySelectorAll("main input[type=search]")].filter(shown).length;
  return {small, low, searches};
}"""


def layout_problems(page: Page, width: int) -> list[str]:
    """The page's problems as a person sees them at ``width``: sideways scrolling, controls
    under 24 × 24 px, main controls under 44 px high."""
    where = f"{page.url} at {width} px"
    problems = []
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    if scroll_width > width:
        problems.append(f"{where}: the page is {scroll_width}px wide")
    found = page.evaluate(TAP_TARGETS)
    problems += [f"{where}: under 24 × 24 px: {each}" for each in found["small"]]
    problems += [f"{where}: under 44 px high: {each}" for each in found["low"]]
    return problems
