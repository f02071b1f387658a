"""Reading photos of filled score sheets: how much comes out right, and what is wrong silently.

Draws score sheets from the app's own layout (``tournament.printing.layout``: the markers,
the QR code and the boxes where the printed page puts them), fills them with a round's
deals written by the hands of bench/handwriting.py (none of them the digit model's
training data) and, as a control, in the Hershey font the model was trained on, then
photographs each in software (tests/photos.py: turned, in perspective, blurred, under
uneven light, JPEG) and reads it with ``scoring.sheet_reading.reader``.

The sheets vary: 4 to 8 seats, with and without the lying-down order, a player who left
(their boxes blank), a table that stopped early (its last deals blank), and a few deals
where the scorer's own figures do not add up (``--slips``): those must come out doubtful,
never "corrected" behind the scorer's back.

Printed for each source of handwriting: cells right before decoding (each box read on
its own) and after, sheets read exactly, *silent errors* (cells wrong and not marked
doubtful), doubtful cells, refusals, and seconds a sheet (finding, straightening and
reading it, in this process); then, over every source, the silent errors and doubtful
cells at other doubtful thresholds (how ``decode.DOUBTFUL_BELOW`` was chosen), and the
blur_mm of photos blurred more and more (how ``page.BLUR_MM_AT_MOST`` was chosen).
Targets: 95 % of cells right after decoding, at most 1 % silently wrong, under 2 s a sheet.

    .venv/bin/python bench/photo.py                # about three minutes on two cores
    .venv/bin/python bench/photo.py --sheets 2     # quicker
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from handwriting import HANDS, Hand  # noqa: E402

from scoring.rules import validate_deal  # noqa: E402
from scoring.sheet_reading import decode, page, reader  # noqa: E402
from scoring.sheet_reading.boxes import read_boxes  # noqa: E402
from scoring.sheet_reading.decode import DealReading, SheetRules  # noqa: E402
from scoring.sheet_reading.identity import SheetIdentity, qr_text  # noqa: E402
from tests import photos  # noqa: E402
from tournament.printing.layout import fits_one_page, sheet_layout  # noqa: E402

TARGETS = {"right": 0.95, "silent": 0.01, "seconds": 2.0}
ENTRY_URL = "https://scores.example.org/t/RL7Q/"
# (seats, rotations, order needed, a seat leaves after this deal, deals left blank at the end)
TABLES = (
    (8, 3, False, None, 0),
    (5, 3, False, 9, 0),
    (4, 3, True, None, 0),
    (6, 3, False, None, 4),
    (7, 3, False, None, 0),
    (4, 4, True, 10, 2),
)
# The demo's rounds whose sheets are printed: tables of 4 to 6 at the Red Lion (the
# lying-down order not scored), of 3 to 8 at the Guildhall.
PRINTED = (("red-lion-winter-open", 1), ("guildhall-long-tables", 1))
THRESHOLDS = (0.5, 0.7, 0.8, 0.9, 0.95, 0.99)
MAX_BYTES, MAX_PIXELS = 20_000_000, 40_000_000


@dataclass
class Tally:
    sheets: int = 0
    exact: int = 0
    refused: int = 0
    cells: int = 0
    raw_right: int = 0
    right: int = 0
    silent: int = 0
    doubtful: int = 0
    seconds: list[float] = field(default_factory=list)
    # (posterior, right) of every cell read, for choosing the threshold.
    scored: list[tuple[float, bool]] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)


def random_deal(
    rng: np.random.Generator, seats: int, absent: frozenset[int], order: bool
) -> DealReading:
    """A deal as a table plays it: even counts, a few zeros, 2 or more left over."""
    playing = [s for s in range(1, seats + 1) if s not in absent]
    left_over = 2 * int(rng.integers(1, 9))
    halves = rng.multinomial((52 - left_over) // 2, rng.dirichlet(np.ones(len(playing)) * 0.8))
    won: list[int | None] = [None] * seats
    for seat, half in zip(playing, halves, strict=True):
        won[seat - 1] = 2 * int(half)
    last_in = int(rng.choice(playing))
    laid_down = None
    if order:
        others = [s for s in playing if s != last_in]
        laid_down = tuple(int(s) for s in rng.permutation(others))
    return DealReading(tuple(won), last_in, left_over, laid_down)


def slipped(rng: np.random.Generator, deal: DealReading) -> DealReading:
    """The deal as a scorer wrote it down wrong: one count off by two."""
    seats = [i for i, v in enumerate(deal.won) if v is not None and v >= 2]
    won = list(deal.won)
    i = int(rng.choice(seats))
    won[i] = (won[i] or 0) + int(rng.choice([-2, 2]))
    return DealReading(tuple(won), deal.last_in, deal.left_over, deal.laid_down)


def table_round(
    rng: np.random.Generator, spec: tuple, slips: float
) -> tuple[SheetRules, list[DealReading]]:
    seats, rotations, order, leave_after, blank_end = spec
    deals = seats * rotations
    if seats < 4 or (leave_after or 0) >= deals - 1:
        leave_after = None  # a table of 3 cannot lose a player, nor a round its last deal
    blank_end = min(blank_end, deals - 2)
    leaver = int(rng.integers(1, seats + 1)) if leave_after else None
    absent = tuple(
        frozenset({leaver}) if leaver and number > leave_after else frozenset()
        for number in range(1, deals + 1)
    )
    written = []
    for number in range(1, deals + 1):
        if number > deals - blank_end:
            written.append(DealReading((None,) * seats, None, None, None))
            continue
        deal = random_deal(rng, seats, absent[number - 1], order)
        written.append(slipped(rng, deal) if rng.random() < slips else deal)
    return SheetRules(seats, deals, order, absent), written


def cells_of(
    deal: DealReading, rules: SheetRules, number: int
) -> dict[tuple[str, int | None], int | None]:
    absent = rules.absent[number - 1]
    out: dict[tuple[str, int | None], int | None] = {}
    for seat in range(1, rules.seats + 1):
        if seat not in absent:
            out[("won", seat)] = deal.won[seat - 1]
    out[("left_over", None)] = deal.left_over
    out[("last_in", None)] = deal.last_in
    if rules.order_needed:
        order = deal.laid_down or ()
        for seat in range(1, rules.seats + 1):
            if seat not in absent:
                out[("laid_down", seat)] = order.index(seat) + 1 if seat in order else None
    return out


def camera(rng: np.random.Generator) -> dict:
    turn = float(rng.uniform(-20, 20)) + (
        float(rng.choice([90, 180, 270])) if rng.random() < 0.3 else 0
    )
    return {
        "rotate": turn,
        "perspective": float(rng.uniform(0, 0.5)),
        "blur": float(rng.uniform(0, 1.3)),
        "seed": int(rng.integers(1 << 30)),
    }


def decoded(boxes: dict, rules: SheetRules, identity: SheetIdentity) -> reader.Reading:
    """What ``reader.read`` makes of the boxes, under the decoder's constants as they are."""
    deals, raw, doubtful, probability = [], [], [], {}
    for number in range(1, rules.deals + 1):
        one = decode.decode_deal(number, boxes[number], rules)
        deals.append(one.deal)
        raw.append(one.raw)
        doubtful.extend(one.doubtful)
        probability.update(one.probability)
    return reader.Reading(identity, tuple(deals), tuple(doubtful), probability, tuple(raw))


def read_one(tally: Tally, data: bytes, layout, rules: SheetRules, written: list[DealReading]):
    """Read one photo as ``reader.read`` does, timed, and score it; its boxes' probabilities
    are returned for the sweep of the decoder's constants."""
    started = time.perf_counter()
    located = reader.locate(data, max_bytes=MAX_BYTES, max_pixels=MAX_PIXELS)
    boxes = reading = None
    if not isinstance(located, reader.PhotoRefusal):
        boxes = read_boxes(located.page, located.px_per_mm, layout, rules)
        reading = decoded(boxes, rules, located.identity)
    tally.seconds.append(time.perf_counter() - started)
    tally.sheets += 1
    if reading is None:
        tally.refused += 1
        tally.reasons.append(located.reason)  # type: ignore[union-attr]
        return None
    score(tally, reading, rules, written)
    return boxes


def score(
    tally: Tally, reading: reader.Reading, rules: SheetRules, written: list[DealReading]
) -> None:
    doubtful = {(c.deal, c.field, c.seat) for c in reading.doubtful}
    exact = True
    for number, (truth, got, raw) in enumerate(
        zip(written, reading.deals, reading.raw, strict=True), 1
    ):
        want = cells_of(truth, rules, number)
        decoded, before = cells_of(got, rules, number), cells_of(raw, rules, number)
        for key, value in want.items():
            right = decoded[key] == value
            tally.cells += 1
            tally.raw_right += before[key] == value
            tally.right += right
            is_doubtful = (number, *key) in doubtful
            tally.doubtful += is_doubtful
            tally.silent += not right and not is_doubtful
            exact &= right and not is_doubtful
            cell = decode.SheetCell(number, key[0], key[1])
            tally.scored.append((reading.probability.get(cell, 0.0), right))
        if got.played and not any((number, *k) in doubtful for k in want):
            assert not validate_deal(
                got.won,
                got.last_in,
                got.left_over,
                rules.seats,
                rules.absent[number - 1],
                got.laid_down,
                order_needed=rules.order_needed,
            ), f"deal {number} decoded to a reading the rules refuse: {got}"
    tally.exact += exact


SWEEP = {
    "CONSISTENT_AT_LEAST": (0.001, 0.003, 0.01, 0.03, 0.1),
    "FLOOR": (0.005, 0.02, 0.05),
}


def sweep(kept: list) -> None:
    """Every sheet read again under other constants of the decoder (its boxes as read)."""
    print("\ndecoder constants: cells right, silent errors, doubtful cells (all sources)")
    saved = {name: getattr(decode, name) for name in SWEEP}
    try:
        for floor in SWEEP["FLOOR"]:
            for consistent in SWEEP["CONSISTENT_AT_LEAST"]:
                decode.FLOOR, decode.CONSISTENT_AT_LEAST = floor, consistent
                tally = Tally()
                for boxes, rules, written, identity in kept:
                    score(tally, decoded(boxes, rules, identity), rules, written)
                mark = (
                    " <- now"
                    if (floor, consistent) == (saved["FLOOR"], saved["CONSISTENT_AT_LEAST"])
                    else ""
                )
                right = percent(tally.right, tally.cells)
                silent = percent(tally.silent, tally.cells)
                doubtful = percent(tally.doubtful, tally.cells)
                print(
                    f"  floor {floor:<5} consistent {consistent:<6} right {right}"
                    f"  silent {silent}  doubtful {doubtful}{mark}"
                )
    finally:
        for name, value in saved.items():
            setattr(decode, name, value)


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f} %" if whole else "    –"


def report(name: str, tally: Tally) -> str:
    seconds = statistics.mean(tally.seconds) if tally.seconds else 0.0
    return (
        f"{name:<10} {tally.sheets:>6} {tally.cells:>6} {percent(tally.raw_right, tally.cells)} "
        f"{percent(tally.right, tally.cells)} {tally.exact:>3}/{tally.sheets:<3} "
        f"{percent(tally.silent, tally.cells)} {percent(tally.doubtful, tally.cells)} "
        f"{tally.refused:>8} {seconds:8.2f}"
    )


@dataclass(frozen=True)
class Blank:
    """One table's empty sheet as it will be filled: its paper as pixels at
    ``photos.PX_PER_MM``, where the sheet block sits on it, its layout and identity."""

    paper: np.ndarray
    origin: tuple[float, float]
    layout: object
    identity: SheetIdentity


def printed_blanks(folder: str) -> list[Blank]:
    """The demo's score sheets as the app prints them: the demo loaded into a database of
    its own, ``manage.py print_sheets`` (Chromium, as the browser prints), each page drawn
    as pixels by pdfium, each table's layout from printing."""
    import subprocess

    import pypdfium2

    env = dict(os.environ, DATABASE_URL=f"sqlite:///{folder}/photo.sqlite3", DJANGO_DEBUG="1")
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "load_demo", "--migrate"], env=env, check=True, capture_output=True)
    os.environ.update(DATABASE_URL=env["DATABASE_URL"], DJANGO_SETTINGS_MODULE="config.settings")
    import django

    django.setup()
    from tournament.models import Round
    from tournament.printing.layout import page_offset
    from tournament.printing.pages import readable_layout, round_sheets

    blanks = []
    for slug, number in PRINTED:
        pdf = Path(folder) / f"{slug}-{number}.pdf"
        subprocess.run(
            [*manage, "print_sheets", slug, str(number), str(pdf)],
            env=env,
            check=True,
            capture_output=True,
        )
        document = pypdfium2.PdfDocument(pdf)
        round_ = Round.objects.get(tournament__slug=slug, number=number)
        for sheet in round_sheets(round_):
            if not fits_one_page(sheet.seats, sheet.deals):
                continue
            pixels = document[sheet.first_page - 1].render(
                scale=photos.PX_PER_MM * 25.4 / 72, grayscale=True
            )
            paper = np.ascontiguousarray(
                pixels.to_numpy().reshape(pixels.height, -1)[:, : pixels.width]
            )
            blanks.append(
                Blank(
                    paper,
                    page_offset("a4"),
                    readable_layout(round_, sheet),
                    SheetIdentity(slug, number, sheet.table),
                )
            )
    return blanks


def drawn_blank(rng: np.random.Generator, spec: tuple, index: int) -> Blank:
    """A sheet drawn from the layout alone (tests/photos.py), for a run without Chromium."""
    seats, rotations, order, _, _ = spec
    layout = sheet_layout(seats, seats * rotations, order_needed=order)
    identity = SheetIdentity("red-lion-open", 3, index + 1)
    return Blank(
        photos.draw_sheet(layout, qr_text(ENTRY_URL, identity)), (12.0, 12.0), layout, identity
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=4, help="sheets a source of handwriting")
    parser.add_argument("--slips", type=float, default=0.02, help="deals written wrong")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument(
        "--drawn",
        action="store_true",
        help="draw the sheets from the layout instead of printing the demo's with Chromium",
    )
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        blanks = [] if args.drawn else printed_blanks(folder)
    if blanks:
        shapes = sorted({(b.layout.seats, b.layout.deals, b.layout.laid_down) for b in blanks})
        print(
            f"{len(blanks)} printed sheets of the demo (seats, deals, order): {shapes}; "
            f"printed in {time.perf_counter() - started:.0f} s\n"
        )

    sources: list[tuple[str, object]] = [("font", None)] + [(h.name, h) for h in HANDS]
    tallies = {name: Tally() for name, _ in sources}
    kept: list = []
    print(
        f"{'source':<10} {'sheets':>6} {'cells':>6} {'before':>7} {'after':>7} {'exact':>7} "
        f"{'silent':>7} {'doubtful':>8} {'refused':>8} {'s/sheet':>8}"
    )
    for name, style in sources:
        for index in range(args.sheets):
            spec = TABLES[index % len(TABLES)]
            if blanks:
                blank = blanks[int(rng.integers(len(blanks)))]
                shape = (
                    blank.layout.seats,
                    blank.layout.deals // blank.layout.seats,
                    blank.layout.laid_down,
                )
                spec = (*shape, *spec[3:])
            else:
                blank = drawn_blank(rng, spec, index)
            rules, written = table_round(rng, spec, args.slips)
            layout, identity = blank.layout, blank.identity
            paper = blank.paper.copy()
            if style is None:
                photos.fill(paper, layout, written, origin=blank.origin)
            else:
                hand = Hand(style, photos.PX_PER_MM, int(rng.integers(1 << 30)))
                photos.fill(
                    paper,
                    layout,
                    written,
                    origin=blank.origin,
                    hand=hand,
                    ticker=hand.tick,
                    left_aligned=style.left_aligned,
                    padded=style.padded,
                )
            data = photos.photograph(paper, **camera(rng), quality=int(rng.integers(60, 92)))
            boxes = read_one(tallies[name], data, layout, rules, written)
            if boxes is not None:
                kept.append((boxes, rules, written, identity))
        print(report(name, tallies[name]), *tallies[name].reasons, flush=True)

    total = Tally()
    for tally in tallies.values():
        for key in (
            "sheets",
            "exact",
            "refused",
            "cells",
            "raw_right",
            "right",
            "silent",
            "doubtful",
        ):
            setattr(total, key, getattr(total, key) + getattr(tally, key))
        total.seconds += tally.seconds
        total.scored += tally.scored
    hands = Tally()
    for name, tally in tallies.items():
        if name != "font":
            for key in (
                "sheets",
                "exact",
                "refused",
                "cells",
                "raw_right",
                "right",
                "silent",
                "doubtful",
            ):
                setattr(hands, key, getattr(hands, key) + getattr(tally, key))
            hands.seconds += tally.seconds
    print(report("all hands", hands))
    print(report("all", total))
    right = total.right / max(total.cells, 1)
    silent = total.silent / max(total.cells, 1)
    print(
        f"\ntargets: right after decoding {right:.1%} (target {TARGETS['right']:.0%}, "
        f"ratio {right / TARGETS['right']:.3f}); silent errors {silent:.2%} (at most "
        f"{TARGETS['silent']:.0%}); seconds a sheet {statistics.mean(total.seconds):.2f} "
        f"(p95 {np.percentile(total.seconds, 95):.2f}, target under {TARGETS['seconds']:.0f})"
    )

    sweep(kept)
    print(f"\ndoubtful threshold (now {decode.DOUBTFUL_BELOW}): silent errors and doubtful cells")
    for threshold in THRESHOLDS:
        silent_at = sum(1 for p, ok in total.scored if not ok and p >= threshold)
        doubtful_at = sum(1 for p, _ in total.scored if p < threshold)
        print(
            f"  under {threshold:<5} silent {percent(silent_at, len(total.scored))}  "
            f"doubtful {percent(doubtful_at, len(total.scored))}"
        )

    print(f"\nblur_mm by blur (refused over {page.BLUR_MM_AT_MOST}): blur px, blur_mm, cells right")
    rules, written = table_round(np.random.default_rng(args.seed + 1), TABLES[0], 0.0)
    layout = sheet_layout(rules.seats, rules.deals, order_needed=False)
    identity = SheetIdentity("red-lion-open", 3, 1)
    paper = photos.draw_sheet(layout, qr_text(ENTRY_URL, identity))
    hand = Hand(HANDS[0], photos.PX_PER_MM, args.seed)
    photos.fill(paper, layout, written, hand=hand, ticker=hand.tick)
    for blur in (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0):
        data = photos.photograph(paper, rotate=5, perspective=0.2, blur=blur, seed=int(blur))
        image = page.open_photo(data, max_bytes=MAX_BYTES, max_pixels=MAX_PIXELS)
        assert not isinstance(image, reader.PhotoRefusal)
        found = page._detected(image)
        if len(found) < 4:
            print(f"  {blur:3.1f}  markers not found")
            continue
        flat, _ = page.rectified(image, found, page.STANDARD_MARKERS)
        blur_mm = page._marker_quality(flat, page.STANDARD_MARKERS)[0]
        tally = Tally()
        located = reader.locate(data, max_bytes=MAX_BYTES, max_pixels=MAX_PIXELS)
        if isinstance(located, reader.PhotoRefusal):
            print(f"  {blur:3.1f}  {blur_mm:.4f}  refused: {located.reason}")
            continue
        read_one(tally, data, layout, rules, written)
        print(f"  {blur:3.1f}  {blur_mm:.4f}  {percent(tally.right, tally.cells)}")


if __name__ == "__main__":
    main()
