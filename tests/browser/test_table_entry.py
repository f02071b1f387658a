"""Entry at the table on a phone (390×844): the QR code's address, a whole sheet typed
deal by deal with the checksum catching a mistyped count, submitted, confirmed at the
desk and counted in the public standings; and blind confirmation by a second phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.pages import DEALS, fill_deal, fits, log_in, public_points
from tests.factories import TournamentFactory, make_players, seated_round
from tests.pages import ROWS
from tests.phone import MISTYPED
from tournament.kernel.cells import WON, cell_name
from tournament.models import SheetVersion, Table
from tournament.printing.views.printouts import entry_path

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def table_of_five(db, organiser, scorer):
    tournament = TournamentFactory(
        name="Five Open",
        slug="five-open",
        owner=organiser,
        scorers=[scorer],
        rotations_per_round=2,
        published=True,
    )
    return Table.objects.get(round=seated_round(tournament, make_players(tournament, 5)))


def test_a_phone_types_a_sheet_a_scorer_confirms_it_and_it_counts(new_page, table_of_five, scorer):
    table = table_of_five
    phone = new_page(**PHONE)
    phone.goto(entry_path(table.code))  # what the printed QR code opens
    expect(phone.get_by_role("heading", name="Round 1 · Table 1")).to_be_visible()
    expect(phone.locator(".table-card")).to_contain_text("Nobody has typed this sheet yet")
    fits(phone)
    phone.get_by_role("link", name="Start typing the sheet").click()

    for number, (won, left_over, last_in) in enumerate(DEALS, start=1):
        expect(phone.get_by_role("heading", name=f"Deal {number} of 10")).to_be_visible()
        dealer = table.seats.get(position=(number - 1) % 5 + 1).player.name
        expect(phone.locator(".dealer")).to_contain_text(dealer)
        if number == 3:
            # Seat 1's 6 read as 5: the checksum says so as it is typed.
            fill_deal(phone, number, [5, *won[1:]], left_over, last_in)
            expect(phone.locator("[data-checksum]")).to_have_text(
                "51 of 52: 1 card missing. Check each count against the paper."
            )
            fits(phone)
            # Saved anyway (no script needed): the server refuses it, naming the deal.
            phone.get_by_role("button", name="Save deal 3 · next").click()
            expect(phone.locator(".error-summary")).to_contain_text(
                "Deal 3: seat 1: 5 cards won is odd"
            )
            phone.locator("#d3_s1").fill(str(won[0]))
            expect(phone.locator("[data-checksum]")).to_have_text("52 of 52: the deal adds up.")
        else:
            fill_deal(phone, number, won, left_over, last_in)
        phone.get_by_role("button", name=f"Save deal {number}").click()

    expect(phone.get_by_role("heading", name="Review the sheet")).to_be_visible()
    expect(phone.locator("table.review tbody tr")).to_have_count(10)
    fits(phone)
    phone.get_by_role("button", name="Submit the sheet").click()
    expect(phone.locator(".table-card.done")).to_contain_text(
        "Submitted by table 1 (phone 1): a scorer at the desk confirms it against the paper"
    )

    desk = new_page()
    log_in(desk, scorer.username, "/score/five-open/r1/t1/confirm/?mode=review")
    expect(desk.locator(".sheet-status, main")).to_contain_text("table 1, phone 1")
    desk.get_by_role("button", name="Confirm: matches the paper").click()
    expect(desk.locator("ul.messages")).to_contain_text("Round 1 · Table 1 confirmed")

    # Confirmed: the code has done its work.
    phone.goto(entry_path(table.code))
    expect(phone.get_by_role("heading", name="This code opens no sheet now")).to_be_visible()

    organiser = new_page()
    log_in(organiser, "olive", "/manage/five-open/rounds/1/")
    organiser.get_by_role("button", name="Release results to the public").click()
    expect(organiser.locator("ul.messages")).to_contain_text("results are now public")

    public = new_page(**PHONE)
    public.goto("/t/five-open/")
    for seat in table.seats.all():
        pairs = sum(
            won[seat.position - 1] + (left_over if last_in == seat.position else 0)
            for won, left_over, last_in in DEALS
        )
        expect(public_points(public, seat.player.name)).to_have_text(str(pairs // 2))


def test_a_second_phone_confirms_blind_after_a_mismatch_is_settled(new_page, seated_round):
    tournament = seated_round.tournament
    tournament.table_confirm = True
    tournament.save()
    table = Table.objects.get(round=seated_round, number=1)

    first = new_page(**PHONE)
    first.goto(entry_path(table.code))
    first.get_by_role("link", name="Start typing the sheet").click()
    for number, row in enumerate(ROWS, start=1):
        fill_deal(first, number, row["won"], row["left_over"], row["last_in"])
        first.get_by_role("button", name=f"Save deal {number}").click()
    first.get_by_role("button", name="Submit the sheet").click()
    expect(first.locator(".table-card.done")).to_contain_text("Submitted by table 1 (phone 1)")

    second = new_page(**PHONE)
    second.goto(entry_path(table.code))
    expect(second.locator(".table-card")).to_contain_text("Submitted by table 1, phone 1")
    second.get_by_role("link", name="Confirm it: re-type it blind").click()
    # Blind: the form is empty.
    expect(second.locator("#d1_left_over")).to_have_value("")
    for number, row in enumerate(MISTYPED, start=1):
        fill_deal(second, number, row["won"], row["left_over"], row["last_in"])
    second.get_by_role("button", name="Confirm the sheet").click()
    seat3 = table.seats.get(position=3).player.name
    expect(second.locator(".error-summary")).to_contain_text("2 cells differ")
    expect(second.locator("table.differences")).to_contain_text(f"Deal 2, seat 3 ({seat3})")
    fits(second)

    # The phone that submitted sees the same differences.
    first.goto(entry_path(table.code))
    differences = first.locator(".table-card.differences")
    expect(differences).to_contain_text("Table 1, phone 2's blind re-type differs")
    expect(differences.locator("table.differences")).to_contain_text(f"Deal 2, seat 3 ({seat3})")
    fits(first)

    # Settled from the paper: the second phone had it wrong, and re-types it.
    second.goto(entry_path(table.code))
    second.get_by_role("link", name="Re-type it again").click()
    for number, row in enumerate(ROWS, start=1):
        fill_deal(second, number, row["won"], row["left_over"], row["last_in"])
    second.get_by_role("button", name="Confirm the sheet").click()
    expect(second.locator(".table-card.done")).to_contain_text(
        "Confirmed by table 1, phone 2: the sheet now counts"
    )


def test_a_phone_keeps_its_deal_through_a_reload_and_a_lost_network(new_page, table_of_five):
    table = table_of_five
    phone = new_page(**PHONE)
    phone.goto(entry_path(table.code))
    phone.get_by_role("link", name="Start typing the sheet").click()
    won, left_over, last_in = DEALS[0]
    fill_deal(phone, 1, won, left_over, last_in)
    phone.on("dialog", lambda dialog: dialog.accept())
    phone.reload()
    # Back after the reload, marked as not saved yet, the checksum worked out again.
    for seat, count in enumerate(won, start=1):
        expect(phone.locator(f"#{cell_name(1, WON, seat)}")).to_have_value(str(count))
    expect(phone.locator(f"input[name='d1_last_in'][value='{last_in}']")).to_be_checked()
    expect(phone.locator(".keep-banner")).to_contain_text("not saved yet")
    expect(phone.locator("[data-checksum]")).to_have_text("52 of 52: the deal adds up.")
    fits(phone)

    phone.context.set_offline(True)
    phone.get_by_role("button", name="Save deal 1 · next").click()
    expect(phone.get_by_role("status").filter(has_text="Waiting for the network")).to_be_visible()
    fits(phone)
    assert not SheetVersion.objects.filter(sheet__table=table).exists()
    phone.context.set_offline(False)
    expect(phone.get_by_role("heading", name="Deal 2 of 10")).to_be_visible()
    assert list(SheetVersion.objects.filter(sheet__table=table).values_list("action", "phone")) == [
        ("draft", 1)
    ]
    # Saved: deal 1 opens as the server has it, with nothing kept on the phone.
    phone.get_by_role("link", name="← Deal 1").click()
    expect(phone.locator("#d1_s1")).to_have_value(str(won[0]))
    expect(phone.locator(".keep-banner")).to_have_count(0)
