"""What the browser tests check on every page they show: axe-core's serious and critical
violations (``axe.min.js`` beside this file, vendored from the npm package ``axe-core``
with its licence header), and template text shown (``{#``, ``{%`` or ``{{`` in what the
page says). Used by the ``new_page`` fixture (tests/browser/conftest.py) and by the sweep
of every page (tests/browser/test_accessibility.py)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

AXE = Path(__file__).with_name("axe.min.js")
# What axe reports and how much of it: the rules of WCAG 2.0-2.2 A and AA and axe's best
# practices; only serious and critical violations fail a test.
AXE_RUN = """async () => {
  // A page that never lets axe finish fails the test rather than hanging it.
  const late = new Promise((_, fail) => setTimeout(() => fail(new Error("axe-core took over 30 s")), 30000));
  const result = await Promise.race([axe.run(document, {resultTypes: ["violations"]}), late]);
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id} (${v.help}): ` + v.nodes.slice(0, 4)
      .map((n) => n.target.join(" ") + " — " + (n.failureSummary || "").replace(/\\s+/g, " "))
      .join("; "));
}"""

# Template text shown on a page: the mark and up to 40 characters either side.
LEAK = r"/.{0,40}(\{#|\{%|\{\{).{0,40}/"
LEAK_FIND = f"""() => {{
  const found = {LEAK}.exec(document.body ? document.body.innerText : "");
  return found ? found[0] : null;
}}"""
# Added to every page before its own scripts: scans the page once it has loaded and after
# each change (htmx's swaps, the page answering a save swapped in), at most every
# 100 ms, and reports what it finds to the test.
LEAK_WATCH = f"""(() => {{
  let timer = null;
  const scan = () => {{
    timer = null;
    const found = ({LEAK_FIND})();
    if (found) window.__templateText(location.href, found);
  }};
  const later = () => {{ if (timer === null) timer = setTimeout(scan, 100); }};
  new MutationObserver(later).observe(document, {{childList: true, subtree: true, characterData: true}});
  window.addEventListener("load", scan);
}})();"""


def template_text(page: Page) -> list[str]:
    """Template text the page shows as it stands, as ``address: …text…``."""
    found = page.evaluate(LEAK_FIND)
    return [f"{page.url}: template text shown: …{found}…"] if found else []


def axe_violations(page: Page) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on the page as it
    stands."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated by the browser's devtools protocol, which the page's
        # Content-Security-Policy does not govern: the page itself still runs no inline
        # script.
        page.evaluate(AXE.read_text(encoding="utf-8"))
    return page.evaluate(AXE_RUN)
