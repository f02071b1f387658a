"""The projector runs the room, in real Chromium: the seating and a counting clock while a
round is played, the standings within seconds of the release, with no reload; the clock
agrees with the server's whatever the screen's own clock says, and says when time is up.
Sixty players fit one 1920×1080 screen, seated or in the standings, in columns with
nothing to scroll; a player not scored yet shows "–", not 0. Every name is whole (its
text's box inside its cell's, on one line up to 30 characters) in type at least as large
as the room needs, 23 or 60 players, at 1920×1080 and 1366×768, on both boards.

Screenshots go to artifacts/screenshots/projector-room/, projector-clock/,
projector-sixty-seating/, projector-sixty-standings/ and projector-type-PLAYERS-BOARD/.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.factories import played_tournament
from tournament.models import Deal, Player, Round, Sheet, SheetStatus
from tournament.public.results import public_results
from tournament.rounds import clock
from tournament.rounds import services as rounds
from tournament.shared.public_changes import mark_changed
from tournament.sheets.facts import write_seat_sums

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1366, "height": 768}
COUNTING = re.compile(r"^(4[0-5]|3\d):\d\d left$")


@pytest.fixture
def round_two(_backs_up):
    """Round 1 of 3 released; round 2 started, its sheets all confirmed, its clock running."""
    tournament = played_tournament(players=14, rounds=2, planned_rounds=3)
    Round.objects.filter(tournament=tournament, number=2).update(released=False)
    mark_changed(tournament.pk)
    round_ = Round.objects.get(tournament=tournament, number=2)
    clock.start_clock(round_)
    return round_


def test_the_projector_seats_the_room_then_switches_to_standings_on_release(
    new_page, round_two, screenshot_dir
):
    shots = screenshot_dir("projector-room")
    slug = round_two.tournament.slug
    screen = new_page(viewport=PROJECTOR)
    screen.goto(f"/t/{slug}/projector/")
    head = screen.locator(".board-head")
    expect(head).to_contain_text("Round 2 — find your table")
    time = screen.locator(".board-head [data-clock-time]")
    expect(time).to_have_text(COUNTING)
    first = time.inner_text()
    expect(time).not_to_have_text(first, timeout=3_000)  # it counts
    assert screen.evaluate("document.documentElement.scrollHeight") <= PROJECTOR["height"]
    screen.screenshot(path=shots / "01-seating-and-clock.png")
    screen.evaluate("window.stillTheSamePage = true")

    rounds.release_round(round_two)

    # live.js polls every 4 seconds: the standings are up within 5.
    expect(head).to_contain_text("Standings after round 2 of 3 — provisional", timeout=5_000)
    expect(screen.locator(".board-page.current table.standings-board")).to_be_visible()
    expect(screen.locator(".round-clock")).to_have_count(0)
    assert screen.evaluate("window.stillTheSamePage === true"), "the projector reloaded"
    screen.screenshot(path=shots / "02-standings-after-release.png")


def test_the_clock_counts_by_the_servers_time_and_says_when_time_is_up(
    new_page, round_two, screenshot_dir
):
    shots = screenshot_dir("projector-clock")
    slug = round_two.tournament.slug
    # A screen whose own clock is 20 minutes fast still shows the server's minutes.
    screen = new_page(viewport={"width": 1366, "height": 768})
    screen.clock.install(time=timezone.now() + datetime.timedelta(minutes=20))
    screen.clock.resume()
    screen.goto(f"/t/{slug}/projector/")
    time = screen.locator(".board-head [data-clock-time]")
    expect(time).to_have_text(re.compile(r"^4[45]:\d\d left$"))

    # The organiser leaves four seconds on the clock: the screens follow, then call time.
    Round.objects.filter(pk=round_two.pk).update(
        clock_ends=timezone.now() + datetime.timedelta(seconds=6)
    )
    mark_changed(round_two.tournament_id)
    expect(time).to_have_text(re.compile(r"^0:0\d left$"), timeout=5_000)
    expect(time).to_have_text("Time — finish the rotation you are in", timeout=8_000)
    expect(screen.locator(".board-head .round-clock")).to_have_class(re.compile(r"\bover\b"))
    screen.screenshot(path=shots / "01-time-is-up.png")


def test_without_javascript_the_projector_shows_when_time_is_up(new_page, round_two):
    slug = round_two.tournament.slug
    page = new_page(java_script_enabled=False, viewport={"width": 360, "height": 740})
    page.goto(f"/t/{slug}/projector/")
    local = timezone.localtime(Round.objects.get(pk=round_two.pk).clock_ends)
    expect(page.locator(".board-head [data-clock-time]")).to_have_text(f"ends at {local:%H:%M}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.fixture
def sixty_seated(_backs_up):
    """60 players; round 1 released, round 2 started, its sheets confirmed, not released."""
    tournament = played_tournament(players=60, rounds=2, planned_rounds=3)
    Round.objects.filter(tournament=tournament, number=2).update(released=False)
    mark_changed(tournament.pk)
    round_two = Round.objects.get(tournament=tournament, number=2)
    clock.start_clock(round_two)
    return round_two


def assert_on_one_screen(screen, viewport):
    """Nothing to scroll, and every row of the page shown inside the screen."""
    sizes = screen.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight,"
        " innerWidth, innerHeight]"
    )
    assert sizes[0] <= sizes[2] == viewport["width"], sizes
    assert sizes[1] <= sizes[3] == viewport["height"], sizes
    outside = screen.evaluate(
        """() => [...document.querySelectorAll('.board-page.current tr')].filter(row => {
             const box = row.getBoundingClientRect();
             return box.height === 0 || box.top < 0 || box.left < 0
               || box.bottom > innerHeight || box.right > innerWidth;
           }).length"""
    )
    assert outside == 0


def test_sixty_players_are_seated_on_one_screen_in_columns(new_page, sixty_seated, screenshot_dir):
    shots = screenshot_dir("projector-sixty-seating")
    slug = sixty_seated.tournament.slug
    screen = new_page(viewport=PROJECTOR)
    screen.goto(f"/t/{slug}/projector/")
    expect(screen.locator(".board-head")).to_contain_text("Round 2 — find your table")
    expect(screen.locator(".board-head [data-clock-time]")).to_have_text(COUNTING)
    # One page, three columns side by side, alphabetical reading down each.
    expect(screen.locator(".board-page")).to_have_count(1)
    expect(screen.locator("[data-page-label]")).to_have_count(0)
    tables = screen.locator(".board-page.current table.seating")
    expect(tables).to_have_count(3)
    names = screen.locator(".board-page.current td.name").all_inner_texts()
    assert len(names) == 60
    assert names == sorted(names, key=str.casefold)
    lefts = [table.bounding_box()["x"] for table in tables.all()]
    assert lefts == sorted(lefts)
    assert len(set(lefts)) == 3
    assert_on_one_screen(screen, PROJECTOR)
    screen.screenshot(path=shots / "01-seating-1920.png")

    # A laptop's 16:9 screen holds the same board, in smaller type.
    laptop = new_page(viewport=LAPTOP)
    laptop.goto(f"/t/{slug}/projector/")
    expect(laptop.locator(".board-page.current td.name")).to_have_count(60)
    assert_on_one_screen(laptop, LAPTOP)
    laptop.screenshot(path=shots / "02-seating-1366.png")

    # A phone: one column under another, nothing wider than the screen.
    phone = new_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    phone.goto(f"/t/{slug}/projector/")
    expect(phone.locator(".board-page.current td.name")).to_have_count(60)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.screenshot(path=shots / "03-seating-360.png")


def test_sixty_players_standings_fit_one_screen(new_page, sixty_seated, screenshot_dir):
    shots = screenshot_dir("projector-sixty-standings")
    # Table 1's sheet is not in: the round is released without it.
    table = sixty_seated.tables.get(number=1)
    Deal.objects.filter(table=table).delete()
    write_seat_sums(table, [])
    Sheet.objects.filter(table=table).update(status=SheetStatus.ENTERED)
    late = list(table.seats.values_list("player__name", flat=True))
    rounds.release_round(sixty_seated, despite_missing=True)
    slug = sixty_seated.tournament.slug
    screen = new_page(viewport=PROJECTOR)
    screen.goto(f"/t/{slug}/projector/")
    expect(screen.locator(".board-head")).to_contain_text("Standings after round 2 of 3")
    expect(screen.locator(".board-page")).to_have_count(1)
    expect(screen.locator(".board-page.current td.name")).to_have_count(60)
    assert_on_one_screen(screen, PROJECTOR)
    # Its players are not scored yet: a mark, not 0, and the foot says what it means.
    for name in late:
        row = screen.locator(".board-page.current tr").filter(has_text=name)
        expect(row.locator("td").nth(2)).to_have_text("–")
    expect(screen.locator(".board-foot")).to_contain_text("– not scored yet")
    screen.screenshot(path=shots / "03-standings-1920.png")
    phone = new_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    phone.goto(f"/t/{slug}/projector/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.screenshot(path=shots / "04-standings-360.png")


# The least size of a name's type, by players and screen, read from the back of a room.
LEAST_TYPE = {
    (23, 1920): 28,
    (23, 1366): 20,
    (60, 1920): 20,
    (60, 1366): 14,
}
SCREENS = {1920: PROJECTOR, 1366: LAPTOP}
# A name of 30 characters (one line) and one longer (two lines at most); the leader's is
# the longer, so that its "Leader" mark sits beside a name that wraps.
THIRTY = "Bartholomew St John Penhallows"
LONGER = "Katherine Marlowe-Featherstonehaugh"

NAMES_ON_SCREEN = """() => [...document.querySelectorAll('.board-page.current .who')].map(who => {
  const cell = who.closest('td');
  const box = cell.getBoundingClientRect();
  const style = getComputedStyle(cell);
  const rects = [...who.getClientRects()];
  return {
    text: who.textContent,
    size: parseFloat(getComputedStyle(who).fontSize),
    lines: new Set(rects.map(r => Math.round(r.top))).size,
    inside: rects.every(r => r.left >= box.left + parseFloat(style.paddingLeft) - 0.5
      && r.right <= box.right - parseFloat(style.paddingRight) + 0.5
      && r.top >= box.top && r.bottom <= box.bottom + 0.5),
    ellipsis: getComputedStyle(cell).textOverflow === 'ellipsis',
  };
})"""


def room_of(players: int, *, seating: bool):
    """``players`` in round 2 of 3: being played (the seating board) or released (the
    standings board), two of them with long names, the leader one of them."""
    tournament = played_tournament(players=players, rounds=2, planned_rounds=3)
    leader = public_results(tournament).tournament_standings(tournament).standings.rows[0]
    Player.objects.filter(tournament=tournament, name=leader.name).update(name=LONGER)
    other = Player.objects.filter(tournament=tournament).exclude(name=LONGER).first()
    Player.objects.filter(pk=other.pk).update(name=THIRTY)
    if seating:
        Round.objects.filter(tournament=tournament, number=2).update(released=False)
        clock.start_clock(Round.objects.get(tournament=tournament, number=2))
    mark_changed(tournament.pk)
    return tournament


@pytest.mark.usefixtures("_backs_up")
@pytest.mark.parametrize("players", [23, 60])
@pytest.mark.parametrize("seating", [True, False], ids=["seating", "standings"])
def test_every_name_is_whole_in_type_as_large_as_the_screen_allows(
    new_page, screenshot_dir, players, seating
):
    board = "seating" if seating else "standings"
    shots = screenshot_dir(f"projector-type-{players}-{board}")
    tournament = room_of(players, seating=seating)
    for width, viewport in SCREENS.items():
        screen = new_page(viewport=viewport)
        screen.goto(f"/t/{tournament.slug}/projector/")
        expect(screen.locator("#board")).to_have_class(re.compile(r"\bfitted\b"))
        screen.screenshot(path=shots / f"{width}.png")
        assert_on_one_screen(screen, viewport)
        names = screen.evaluate(NAMES_ON_SCREEN)
        assert len(names) == players
        for name in names:
            assert name["inside"], (width, name)
            assert not name["ellipsis"], name
            assert name["lines"] <= (1 if len(name["text"]) <= 30 else 2), (width, name)
            assert name["size"] >= LEAST_TYPE[players, width], (width, name)
        assert {THIRTY, LONGER} <= {name["text"] for name in names}
        # The board fills the screen: its last row ends in the screen's last fifth.
        bottom = screen.evaluate(
            "Math.max(...[...document.querySelectorAll('.board-page.current tr')]"
            ".map(row => row.getBoundingClientRect().bottom))"
        )
        assert bottom > viewport["height"] * 0.8, (width, bottom)
        if seating:
            sizes = screen.evaluate(
                """() => {
                  const size = el => parseFloat(getComputedStyle(el).fontSize);
                  const row = document.querySelector('.board-page.current tbody tr');
                  return {
                    table: size(row.querySelector('.table-no')),
                    others: [...document.querySelectorAll('.board-page.current th, .board-page.current td:not(.table-no)')].map(size),
                  };
                }"""
            )
            assert sizes["table"] > max(sizes["others"]), sizes
        else:
            leader = screen.locator(".board-page.current td.name").filter(has_text=LONGER)
            expect(leader.locator(".honour")).to_have_text("Leader")
