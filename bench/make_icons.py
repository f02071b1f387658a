"""Draw the installed app's icons (static/icons/*.png) from static/favicon.svg.

Run once from the repository root when the favicon changes:
``.venv/bin/python bench/make_icons.py``. Headless Chromium (the system's, driven by
Playwright, as in the browser tests) draws the SVG at each size; the PNGs are committed,
so nothing here runs when the site does.

- ``icon-192.png`` and ``icon-512.png``: the favicon as it is (rounded corners, the
  corners transparent).
- ``maskable-512.png``: for launchers that cut icons to their own shape (a circle, a
  squircle): the dark red fills the whole square and the cards sit within the middle 60%,
  inside the safe zone every shape keeps.
- ``apple-touch-icon.png`` (180×180): iOS' home screen, which rounds the corners itself
  and shows transparency as black: a full square like the maskable one.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
FAVICON = ROOT / "static" / "favicon.svg"
ICONS = ROOT / "static" / "icons"
ACCENT = "#7a1f1f"


def full_bleed(svg: str, scale: float) -> str:
    """The favicon's cards, ``scale`` of the size, centred on a square of dark red."""
    inner = re.sub(r"^<svg[^>]*>|</svg>$", "", svg.strip())
    inner = re.sub(r'<rect width="32" height="32" rx="6" fill="[^"]*"/>', "", inner, count=1)
    offset = 16 * (1 - scale)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
        f'<rect width="32" height="32" fill="{ACCENT}"/>'
        f'<g transform="translate({offset} {offset}) scale({scale})">{inner}</g></svg>'
    )


def draw(page, svg: str, size: int, path: Path) -> None:
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(
        "<!doctype html><style>html,body{margin:0;background:transparent}"
        f"svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}"
    )
    page.screenshot(path=str(path), omit_background=True)
    print(path.relative_to(ROOT), f"{size}×{size}")


def main() -> None:
    svg = FAVICON.read_text(encoding="utf-8")
    ICONS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page()
        draw(page, svg, 192, ICONS / "icon-192.png")
        draw(page, svg, 512, ICONS / "icon-512.png")
        draw(page, full_bleed(svg, 0.6), 512, ICONS / "maskable-512.png")
        draw(page, full_bleed(svg, 0.8), 180, ICONS / "apple-touch-icon.png")
        browser.close()


if __name__ == "__main__":
    main()
