"""What a person sees of a page's layout, measured in the browser: targets a finger can
hit (WCAG 2.5.8: 24 × 24 px, but a link inside a sentence or a target spaced from the
others by its 24 px circle; the main controls 44 px) on the whole page, and nothing that
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
  const targets = [...document.querySelectorAll(
    "a, button, input:not([type=hidden]), select, summary, textarea"
  )].filter((el) => shown(el) && !el.closest(".visually-hidden, [aria-hidden=true]"));
  const boxes = new Map(targets.map((el) => [el, el.getBoundingClientRect()]));
  const undersized = (box) => box.width < 24 || box.height < 24;
  // WCAG 2.5.8's spacing exception: an undersized target whose 24 px circle, centred on
  // it, meets no other target and no other undersized target's circle.
  const distance = (x, y, box) => Math.hypot(
    Math.max(box.left - x, 0, x - box.right), Math.max(box.top - y, 0, y - box.bottom));
  const spaced = (el, box) => {
    const x = (box.left + box.right) / 2, y = (box.top + box.bottom) / 2;
    return targets.every((other) => {
      if (other === el || other.contains(el) || el.contains(other)) return true;
      const near = boxes.get(other);
      if (distance(x, y, near) < 12) return false;
      if (!undersized(near)) return true;
      const ox = (near.left + near.right) / 2, oy = (near.top + near.bottom) / 2;
      return Math.hypot(x - ox, y - oy) >= 24;
    });
  };
  const small = [];
  for (const el of targets) {
    const box = boxes.get(el);
    if (!undersized(box) || inSentence(el) || spaced(el, box)) continue;
    small.push(`${name(el)} (${box.width.toFixed(0)}×${box.height.toFixed(0)})`);
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
