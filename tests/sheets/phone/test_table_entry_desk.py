"""What the organiser and the scorers see of sheets typed at the tables: the round desk's
statuses and how long ago each sheet changed, phones named in a sheet's history and
status lines, the organiser's table codes and new codes, and the two settings (on the
Settings page and in the tournament file)."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.pages import ROWS, SETTINGS, url
from tournament.kernel.codes import shown_code
from tournament.models import Sheet, Table
from tournament.sheets import at_table as table_entry
from tournament.sheets.authors import AtTable
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.saving import save_sheet
from tournament.tournament_file import loading, writing

SLUG = "club-night"


def table(number):
    return Table.objects.get(round__number=1, number=number)


def desk_row(page, number):
    return re.search(rf'<tr class="[^"]*" data-table="{number}">(.*?)</tr>', page, re.S)[1]


def phone(name):
    return AtTable(f"token-{name}")


# The round desk -------------------------------------------------------------------------


@pytest.fixture
def every_status(seated_round, scorer):
    """Round 1 at six tables, each sheet in one of the desk's statuses (table 1 not
    started, 2 a phone's draft, 3 a scorer's draft, 4 submitted by the table, 5 entered by
    a scorer, 6 confirmed)."""
    from tests.factories import PlayerFactory, TableFactory

    tournament = seated_round.tournament
    for number in (4, 5, 6):
        players = [PlayerFactory(tournament=tournament, ref=f"t{number}s{i}") for i in range(4)]
        TableFactory(round=seated_round, number=number, players=players)
    tournament.two_person_check = True
    tournament.save()
    save_sheet(table(2), phone("a"), ROWS[:2], expected_version=0, final=False)
    save_sheet(table(3), scorer, ROWS[:1], expected_version=0, final=False)
    save_sheet(table(4), phone("b"), ROWS, expected_version=0, final=True)
    save_sheet(table(5), scorer, ROWS, expected_version=0, final=True)
    save_sheet(table(6), phone("c"), ROWS, expected_version=0, final=True)
    confirm_sheet(table(6), scorer, expected_version=1)
    return seated_round


def test_the_desk_says_in_words_where_each_sheet_is_and_who_has_it(organiser_client, every_status):
    response = organiser_client.get(url("desk"))
    page = response.content.decode()
    statuses = {
        n: re.search(r'<td class="status"><a href="([^"]+)">([^<]+)</a>', desk_row(page, n))
        for n in range(1, 7)
    }
    assert {n: m[2] for n, m in statuses.items()} == {
        1: "Not started",
        2: "Being entered at the table",
        3: "Being entered by a scorer",
        4: "Submitted by the table",
        5: "Entered by a scorer",
        6: "Confirmed",
    }
    # The status is a link to the table's sheet, as the table's number is.
    assert all(m[1] == url("sheet", table=n) for n, m in statuses.items())
    data = {row["number"]: row for row in response.context["desk_table"].data}
    assert [data[n]["entered_by"] for n in range(1, 7)] == [
        "",
        "table 2, phone 1",
        "simon",
        "table 4, phone 1",
        "simon",
        "table 6, phone 1",
    ]
    assert '<td class="entered-by">table 4, phone 1</td>' in desk_row(page, 4)


def test_the_desk_counts_tables_by_the_same_statuses(organiser_client, every_status):
    page = organiser_client.get(url("desk")).content.decode()
    progress = re.search(r'<p class="progress">(.*?)</p>', page, re.S)[1]
    counts = dict(re.findall(r"<span>([^<:]+): <strong>(\d+)</strong></span>", progress))
    assert counts == {
        "Not started": "1",
        "Being entered at the table": "1",
        "Being entered by a scorer": "1",
        "Submitted by the table": "1",
        "Entered by a scorer": "1",
        "Confirmed": "1",
    }


def test_the_desk_says_how_long_ago_each_sheet_changed(organiser_client, every_status):
    long_ago = timezone.now() - datetime.timedelta(minutes=4, seconds=10)
    Sheet.objects.filter(table=table(4)).update(updated=long_ago)
    page = organiser_client.get(url("desk")).content.decode()
    exact = timezone.localtime(long_ago)
    assert re.search(
        rf'<time datetime="{exact:%Y-%m-%dT%H:%M:%S}[^"]*" '
        rf'title="{exact:%-d %b %Y, %H:%M:%S}">4\xa0minutes ago</time>',
        desk_row(page, 4),
    )
    assert ">just now</time>" in desk_row(page, 2)
    assert "<time" not in desk_row(page, 1)


def test_the_scorers_home_names_the_phone_and_the_status(scorer_client, every_status):
    page = scorer_client.get(url("home")).content.decode()
    item = re.search(r'<li class="status-entered" data-table="4">(.*?)</li>', page, re.S)[1]
    assert '<span class="status">Submitted by the table</span>' in item
    assert "entered by table 4, phone 1" in item
    assert ">just now</time>" in item


def test_the_desk_costs_the_same_queries_with_phones(
    organiser_client, every_status, django_assert_num_queries
):
    organiser_client.get(url("desk"), HTTP_HX_REQUEST="true")
    with django_assert_num_queries(6):
        organiser_client.get(url("desk"), HTTP_HX_REQUEST="true")


# A sheet's pages name the phone ---------------------------------------------------------


def test_the_history_names_the_phone_that_saved_each_version(scorer_client, seated_round):
    seated_round.tournament.table_confirm = True
    seated_round.tournament.save()
    save_sheet(table(1), phone("a"), ROWS[:1], expected_version=0, final=False)
    save_sheet(table(1), phone("a"), ROWS, expected_version=1, final=True)
    confirm_sheet(table(1), phone("b"), expected_version=2, retyped=ROWS)
    page = scorer_client.get(url("history")).content.decode()
    versions = dict(
        re.findall(r'<li data-version="(\d)">\s*<p><strong>[^<]*</strong> by ([^,]+, [^,]+),', page)
    )
    assert versions == {"1": "table 1, phone 1", "2": "table 1, phone 1", "3": "table 1, phone 2"}


def test_the_sheet_and_confirm_pages_say_which_phone_entered_it(scorer_client, seated_round):
    save_sheet(table(1), phone("a"), ROWS[:1], expected_version=0, final=False)
    page = scorer_client.get(url("sheet")).content.decode()
    assert "<strong>Entering:</strong> draft saved by table 1, phone 1 at" in page
    save_sheet(table(1), phone("a"), ROWS, expected_version=1, final=True)
    page = scorer_client.get(url("sheet")).content.decode()
    assert "<strong>Awaiting confirmation:</strong> entered by table 1, phone 1 at" in page
    page = scorer_client.get(url("confirm")).content.decode()
    assert "Entered by table 1, phone 1 at" in page


# Table codes on the organiser's round page ----------------------------------------------


def round_url(name="round", *args):
    return reverse(f"organiser:{name}", args=[SLUG, 1, *args])


def test_the_round_page_shows_each_tables_code(organiser_client, seated_round):
    page = organiser_client.get(round_url()).content.decode()
    for t in Table.objects.filter(round=seated_round):
        assert (
            f'<strong class="table-code" data-table="{t.number}">{shown_code(t.code)}</strong>'
            in page
        )
        assert f'action="{round_url("table_new_code", t.number)}"' in page
    assert f'action="{round_url("round_new_codes")}"' in page


def test_without_table_entry_the_round_page_shows_no_codes(organiser_client, seated_round):
    seated_round.tournament.table_entry = False
    seated_round.tournament.save()
    page = organiser_client.get(round_url()).content.decode()
    assert not any(t.code in page for t in Table.objects.filter(round=seated_round))
    assert "New codes for every table" not in page


def test_codes_are_never_on_public_pages(client, seated_round):
    tournament = seated_round.tournament
    tournament.published = True
    tournament.save()
    codes = [t.code for t in Table.objects.filter(round=seated_round)]
    for name in ("standings", "public_round", "projector", "find_seat"):
        args = [SLUG, 1] if name == "public_round" else [SLUG]
        response = client.get(reverse(name, args=args))
        assert response.status_code == 200, name
        page = response.content.decode()
        assert not any(code in page or shown_code(code) in page for code in codes), name


def test_a_new_code_for_one_table_retires_the_old_one(organiser_client, seated_round):
    old = table(2).code
    kept = table(1).code
    response = organiser_client.post(round_url("table_new_code", 2), follow=True)
    new = table(2).code
    assert new != old
    assert table(1).code == kept
    with pytest.raises(table_entry.TableCodeRefusedError):
        table_entry.table_for_code(old)
    assert table_entry.table_for_code(new).pk == table(2).pk
    page = response.content.decode()
    print_url = reverse("print:sheets", args=[SLUG, 1]) + "?table=2"
    assert f'table 2 has a new code: <strong class="table-code">{shown_code(new)}</strong>.' in page
    assert f'<a href="{print_url}">print table 2’s score sheet again</a>' in page


def test_new_codes_for_every_table_of_the_round(organiser_client, seated_round):
    old = {t.number: t.code for t in Table.objects.filter(round=seated_round)}
    response = organiser_client.post(round_url("round_new_codes"), follow=True)
    new = {t.number: t.code for t in Table.objects.filter(round=seated_round)}
    assert all(new[n] != old[n] for n in old)
    for code in old.values():
        with pytest.raises(table_entry.TableCodeRefusedError):
            table_entry.table_for_code(code)
    page = response.content.decode()
    print_url = reverse("print:sheets", args=[SLUG, 1])
    assert "Every table of round 1 has a new code (3 tables)." in page
    assert f'<a href="{print_url}">print the score sheets again</a>' in page


def test_a_new_code_for_a_table_that_is_not_there_is_404(organiser_client, seated_round):
    assert organiser_client.post(round_url("table_new_code", 9)).status_code == 404


@pytest.mark.parametrize(("name", "args"), [("table_new_code", (1,)), ("round_new_codes", ())])
def test_only_the_organiser_gives_new_codes(
    scorer_client, outsider_client, seated_round, name, args
):
    before = {t.pk: t.code for t in Table.objects.filter(round=seated_round)}
    assert scorer_client.post(round_url(name, *args)).status_code == 403
    assert outsider_client.post(round_url(name, *args)).status_code == 404
    assert {t.pk: t.code for t in Table.objects.filter(round=seated_round)} == before


# The settings ---------------------------------------------------------------------------


def test_the_settings_page_turns_table_entry_and_confirmation_on_and_off(
    organiser_client, seated_round
):
    address = reverse("organiser:edit", args=[SLUG])
    page = organiser_client.get(address).content.decode()
    assert "Tables type their own sheets on a phone" in page
    assert "A second phone at the table may confirm a sheet" in page
    assert "re-typing it blind from the paper" in page
    tournament = seated_round.tournament
    # Unticked boxes are not posted: table entry goes off, table confirmation on.
    response = organiser_client.post(address, {**SETTINGS, "slug": SLUG, "table_confirm": "on"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.table_entry, tournament.table_confirm) == (False, True)
    organiser_client.post(address, {**SETTINGS, "slug": SLUG, "table_entry": "on"})
    tournament.refresh_from_db()
    assert (tournament.table_entry, tournament.table_confirm) == (True, False)


@pytest.mark.parametrize(("entry", "confirm"), [(True, False), (False, True), (True, True)])
def test_the_two_settings_survive_a_tournament_file(seated_round, entry, confirm):
    tournament = seated_round.tournament
    tournament.table_entry, tournament.table_confirm = entry, confirm
    tournament.save()
    data = writing.export_tournament(tournament)
    assert (data["table_entry"], data["table_confirm"]) == (entry, confirm)
    restored = loading.import_tournament({**data, "slug": "restored"}).tournament
    assert (restored.table_entry, restored.table_confirm) == (entry, confirm)
    # Codes are not in the file: the restored tables have codes of their own.
    assert "code" not in str(data["rounds"][0]["tables"][0].keys())
    old = {t.code for t in Table.objects.filter(round__tournament=tournament)}
    assert not old & {t.code for t in Table.objects.filter(round__tournament=restored)}


def test_a_file_without_the_settings_gets_the_defaults(seated_round):
    data = writing.export_tournament(seated_round.tournament)
    del data["table_entry"], data["table_confirm"]
    restored = loading.import_tournament({**data, "slug": "restored"}).tournament
    assert (restored.table_entry, restored.table_confirm) == (True, False)
