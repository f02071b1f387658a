"""A phone that knows its player: "This is me" in Find my seat, then every page of the
tournament opens with the player's card, their row marked; when the organiser starts the
next round the card shows the new table at once and, notifications allowed, the phone
shows one notification, once however many tabs are open. At 360 × 740 and 390 × 844.

Screenshots go to artifacts/screenshots/this-is-me/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.factories import seated_round
from tournament.models import Bye, Player, Round, Seat
from tournament.rounds import clock, seating
from tournament.rounds import services as rounds
from tournament.rounds.services import start_round
from tournament.shared import public_changes

pytestmark = pytest.mark.browser

SCREENS = {
    "360": {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True},
    "390": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}

# Every notification a page shows, by the page's own constructor or its service worker's.
RECORD_NOTIFICATIONS = """(() => {
  window.__notes = [];
  if (window.Notification) {
    const Real = window.Notification;
    const Recorded = function (title, options) {
      window.__notes.push(options && options.body);
      return new Real(title, options);
    };
    Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
    Recorded.requestPermission = Real.requestPermission.bind(Real);
    window.Notification = Recorded;
  }
  if (window.ServiceWorkerRegistration) {
    const show = ServiceWorkerRegistration.prototype.showNotification;
    ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
      window.__notes.push(options && options.body);
      return show.call(this, title, options);
    };
  }
})();"""


def notes(page: Page) -> list[str]:
    return page.evaluate("window.__notes")


# Every control shown in the regions named, smaller than 24 × 24 px: its text and size.
SMALL_TARGETS = """(selector) => [...document.querySelectorAll(selector)]
  .flatMap((region) => [...region.querySelectorAll("a, button, summary, input")])
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([el, box]) => box.width > 0 && (box.width < 24 || box.height < 24))
  .map(([el, box]) => `${el.textContent.trim()} ${box.width}x${box.height}`)"""


@pytest.mark.parametrize("screen", list(SCREENS))
def test_this_is_me_opens_every_page_with_my_card_and_a_seating_nudges_once(
    new_page, make_played, screen, screenshot_dir
):
    shots = screenshot_dir(f"this-is-me/{screen}")
    tournament = make_played(players=12, rounds=1, slug="me-open")
    players = list(tournament.players.order_by("pk"))
    # Round 2 is seated but not started: its seating is not public yet.
    round_two = seated_round(tournament, players[::-1], number=2, started=False)
    me = players[6]
    phone = new_page(**SCREENS[screen], permissions=["notifications"])
    phone.context.add_init_script(RECORD_NOTIFICATIONS)
    height = SCREENS[screen]["viewport"]["height"]

    phone.goto(f"/t/{tournament.slug}/seat/")
    phone.get_by_label("Find my seat").fill(me.name)
    choose = phone.get_by_role("button", name=re.compile(f"This is me: {me.name}"))
    expect(choose).to_be_visible()
    box = choose.bounding_box()
    assert box
    assert box["height"] >= 44
    assert box["width"] >= 44
    choose.click()
    card = phone.get_by_role("region", name=re.compile(f"Me: {me.name}"))
    expect(card).to_contain_text("provisional")
    expect(choose).to_have_attribute("aria-pressed", "true")
    assert phone.evaluate(SMALL_TARGETS, "#my-card, #find-seat-results") == []

    # Another page, after a reload: the card first, my row marked, the table on screen.
    phone.goto(f"/t/{tournament.slug}/")
    phone.reload()
    expect(card).to_be_visible()
    expect(phone.locator("tr.me")).to_contain_text(me.name)
    first_row = phone.locator("table.standings tbody tr").first
    assert first_row.bounding_box()["y"] < height, "the standings start below the first screen"
    phone.screenshot(path=shots / "standings-with-my-card.png")

    # The organiser starts round 2: the card shows my table within a poll, and the phone
    # shows one notification.
    start_round(round_two)
    public_changes.mark_changed(tournament.pk)
    mine = Seat.objects.select_related("table").get(round=round_two, player=me)
    where = f"Table {mine.table.number}, seat {mine.position}"
    table_card = phone.get_by_role("region", name=re.compile(f"My table: {where}"))
    expect(table_card).to_be_visible()
    expect(phone.get_by_role("alert")).to_contain_text(
        f"Your table is ready: table {mine.table.number}"
    )
    # Shown through the service worker where one controls the page: wait for it.
    phone.wait_for_function("window.__notes.length > 0")
    assert len(notes(phone)) == 1
    assert f"table {mine.table.number}, seat {mine.position}" in notes(phone)[0]
    assert phone.evaluate(SMALL_TARGETS, "#my-card") == []
    # The tallest card (my table, the opponents, the clock) and Find my seat, while the
    # round is played (once the page has followed the start: its one box is Find my
    # seat): the standings still start on the first screen.
    expect(phone.locator("form.search")).to_have_count(0)
    expect(phone.get_by_label("Find my seat")).to_be_visible()
    first_row = phone.locator("table.standings tbody tr").first
    phone.screenshot(path=shots / "my-table.png")
    assert first_row.bounding_box()["y"] < height, "the standings start below the first screen"

    # A second tab shows the same card, and says nothing new: one notification in all.
    second = phone.context.new_page()
    second.goto(f"/t/{tournament.slug}/rounds/2/")
    second_card = second.get_by_role("region", name=re.compile(f"My table: {where}"))
    expect(second_card).to_be_visible()
    expect(second.get_by_role("alert")).to_have_count(0)
    assert notes(second) == []
    assert len(notes(phone)) == 1

    # The round page follows the room by swapping its whole content: my card stays. A
    # change that moves nothing of mine (another player's name) says nothing new.
    other = players[0]
    other.name = "Renamed Player"
    other.save()
    public_changes.mark_changed(tournament.pk)
    expect(second.get_by_text("Renamed Player").first).to_be_visible()
    expect(second_card).to_be_visible()
    expect(second.get_by_role("alert")).to_have_count(0)

    # "Not me" (a tap away while the round is played) undoes it: no card, no row marked,
    # on this page and the next.
    second.locator("#my-card details.my-card-more > summary").click()
    second.get_by_role("button", name="Not me").click()
    expect(second.locator(".my-card")).to_have_count(0)
    second.goto(f"/t/{tournament.slug}/")
    expect(second.locator(".my-card")).to_have_count(0)
    expect(second.locator(".me")).to_have_count(0)


def test_not_me_while_the_card_is_on_its_way_shows_no_card(new_page, make_played):
    """The card's answer that arrives after "Not me" was tapped is for a choice no longer
    made: it brings no card back (the phone asked for it a moment before the tap)."""
    tournament = make_played(players=10, rounds=1, slug="me-late")
    me = tournament.players.order_by("pk")[3]
    # The card's requests go by the network here, not through a service worker's cache.
    phone = new_page(**SCREENS["360"], service_workers="block")
    phone.goto(f"/t/{tournament.slug}/players/{me.pk}/")
    phone.get_by_role("button", name=re.compile("This is me")).first.click()
    expect(phone.locator("#my-card .my-card")).to_be_visible()
    # The marker is on the player's own rows, never on the header (its "Log in" link
    # comes back to this page).
    expect(phone.locator("header .me, nav[aria-label='Site'] .me")).to_have_count(0)
    expect(phone.locator("[data-this-is-me].me")).to_have_count(0)

    held = []
    phone.route(re.compile(r"/players/\d+/card/"), lambda route: held.append(route))
    # The tab comes back to the front: the card is asked for at once, and held.
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    for _ in range(200):  # each call to the page lets the held request reach the handler
        if held:
            break
        phone.evaluate("0")
    assert held, "the card was not asked for when the tab came back"
    phone.get_by_role("button", name="Not me").first.click()
    expect(phone.locator(".my-card")).to_have_count(0)
    for route in held:
        headers = {k: v for k, v in route.request.headers.items() if k != "if-none-match"}
        route.continue_(headers=headers)  # a full answer, as after a change
    phone.unroute(re.compile(r"/players/\d+/card/"))
    # The answer has come and gone: still no card, nothing kept for the next page.
    phone.wait_for_function(
        "() => performance.getEntriesByType('resource')"
        ".filter((e) => e.name.includes('/card/')).length >= 2"
    )
    expect(phone.locator(".my-card")).to_have_count(0)
    phone.reload()
    expect(phone.locator(".my-card")).to_have_count(0)


def test_in_every_state_of_the_card_the_standings_start_on_the_first_screen(
    new_page, make_played, screenshot_dir
):
    """At 360 × 740 the card yields to the standings: playing with the clock running (its
    opponents, rank and chances under a tap), sitting out, left, no result yet, withheld,
    final — in each, the first standings row's top is on the first screen."""
    shots = screenshot_dir("this-is-me/states")
    tournament = make_played(players=14, rounds=1, planned_rounds=3, slug="card-states")
    round_two = seating.seat_next_round(tournament)
    start_round(round_two)
    clock.start_clock(round_two)
    late = Player.objects.create(tournament=tournament, ref="late", name="Late Larkin")
    Bye.objects.create(round=round_two, player=late)
    gone = Player.objects.create(tournament=tournament, ref="gone", name="Gone Away")
    gone.active = False
    gone.save()
    me = Seat.objects.select_related("player").filter(round=round_two).order_by("pk")[0].player
    public_changes.mark_changed(tournament.pk)
    phone = new_page(**SCREENS["360"])
    phone.goto(f"/t/{tournament.slug}/")

    def card_of(player: Player, state: str) -> None:
        phone.evaluate(
            "([key, me]) => localStorage.setItem(key, JSON.stringify(me))",
            [f"lld:me:{tournament.slug}", {"pk": player.pk, "name": player.name}],
        )
        phone.goto(f"/t/{tournament.slug}/")
        expect(phone.locator(f"#my-card .my-card[data-state^='{state}']")).to_be_visible()
        first_row = phone.locator("table.standings tbody tr").first
        top = first_row.bounding_box()["y"]
        phone.screenshot(path=shots / f"{state}.png")
        assert top < 740, f"{state}: the standings start at {top} px"
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360, state

    card_of(me, "seated-2")
    # The clock runs on one line; who I play, my rank and the buttons are a tap away.
    expect(phone.locator("#my-card .round-clock")).to_be_visible()
    more = phone.locator("#my-card details.my-card-more")
    expect(more.get_by_role("button", name="Not me")).to_be_hidden()
    more.locator("summary").click()
    expect(more.get_by_role("button", name="Not me")).to_be_visible()
    assert more.locator("summary").bounding_box()["height"] >= 32
    card_of(late, "bye-2")
    card_of(gone, "out")
    round_two.refresh_from_db()
    rounds.release_round(round_two, despite_missing=True)
    card_of(me, "released-2")
    expect(phone.locator("#my-card")).to_contain_text("No result yet")
    rounds.withhold_round(Round.objects.get(pk=round_two.pk))
    card_of(me, "seated-2")
    rounds.reveal_final_results(tournament, despite_missing=True)
    tournament.finished = True
    tournament.save()
    public_changes.mark_changed(tournament.pk)
    card_of(me, "final-2")
