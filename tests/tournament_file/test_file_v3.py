"""Version 3 of the tournament file: a seat that left a table after a deal (``left``, null
counts in the later deals) and the penalties and awards (``adjustments``), checked,
imported, exported and counted in the standings."""

import copy
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from tournament.models import (
    Adjustment,
    Deal,
    DealResult,
    Player,
    Round,
    Seat,
    Sheet,
    SheetVersion,
    Table,
    Tournament,
)
from tournament.tournament_file import writing
from tournament.tournament_file.loading import import_tournament
from tournament.tournament_file.problems import TournamentFileError

MODELS = (Tournament, Player, Round, Table, Seat, Deal, DealResult, Sheet, SheetVersion, Adjustment)

# Five players, one rotation; seat 3 (p3) leaves after deal 2, so the deal passes from
# seat 2 to seat 4 and the round holds 4 deals (dealt by seats 1, 2, 4 and 5).
DEALS = [
    {"won": [10, 8, 6, 4, 2], "last_in": 1, "left_over": 22},
    {"won": [4, 12, 6, 8, 2], "last_in": 2, "left_over": 20},
    {"won": [10, 6, None, 8, 4], "last_in": 4, "left_over": 24},
    {"won": [6, 10, None, 4, 12], "last_in": 5, "left_over": 20},
]
# Winner-advantage: (cards won + the left over when last in) / 2, deal by deal.
#   p1: 16 + 2 + 5 + 3 = 26    p2: 4 + 16 + 3 + 5 = 28    p3: 3 + 3 = 6 (2 deals)
#   p4: 2 + 4 + 16 + 2 = 24    p5: 1 + 1 + 2 + 16 = 20
POINTS_WITHOUT_ADJUSTMENT = {"p1": 26, "p2": 28, "p3": 6, "p4": 24, "p5": 20}
MISDEAL = {"player": "p3", "round": 1, "points": -2, "reason": "misdeal"}
MISDEAL_LEAVE = {"seat": 3, "after_deal": 2}


def leave_file():
    return {
        "format": "lld-tournament/3",
        "name": "Leave Night",
        "slug": "leave-night",
        "published": True,
        "players": [{"id": f"p{i}", "name": f"Player {i}"} for i in range(1, 6)],
        "rounds": [
            {
                "number": 1,
                "started": True,
                "released": True,
                "tables": [
                    {
                        "number": 1,
                        "seats": ["p1", "p2", "p3", "p4", "p5"],
                        "deals": copy.deepcopy(DEALS),
                        "left": [{"seat": 3, "after_deal": 2}],
                    }
                ],
            }
        ],
        "adjustments": [dict(MISDEAL)],
    }


def counts():
    return {model.__name__: model.objects.count() for model in MODELS}


def standings_json(slug):
    out = io.StringIO()
    call_command("standings", slug, "--format", "json", stdout=out)
    return {row["player_id"]: row for row in json.loads(out.getvalue())["rows"]}


def test_a_leave_is_stored_as_the_tables_leave_with_no_count_for_the_seat_that_left(db):
    import_tournament(leave_file())
    table = Table.objects.get()
    assert table.left == [{"seat": 3, "after_deal": 2}]
    assert DealResult.objects.count() == 4 * 5 - 2
    assert not DealResult.objects.filter(seat=3, deal__number__gt=2).exists()
    sums = {s.player.ref: s for s in Seat.objects.select_related("player")}
    assert [sums[ref].sum_deals for ref in ("p1", "p2", "p3", "p4", "p5")] == [4, 4, 2, 4, 4]
    # Seats 1, 2, 4 and 5 deal once each; seat 3's turn is skipped.
    assert [sums[ref].sum_dealt for ref in ("p1", "p2", "p3", "p4", "p5")] == [1, 1, 0, 1, 1]
    assert Sheet.objects.get().stopped_early is False


def test_the_standings_count_only_the_deals_a_seat_that_left_played(db):
    data = leave_file()
    del data["adjustments"]
    import_tournament(data)
    rows = standings_json("leave-night")
    assert {ref: row["points"] for ref, row in rows.items()} == POINTS_WITHOUT_ADJUSTMENT
    assert {ref: row["deals"] for ref, row in rows.items()} == {
        "p1": 4,
        "p2": 4,
        "p3": 2,
        "p4": 4,
        "p5": 4,
    }
    out = io.StringIO()
    call_command("standings", "leave-night", "--format", "json", stdout=out)
    assert json.loads(out.getvalue())["incomplete_tables"] == []


def test_the_standings_json_counts_a_leave_and_an_adjustment(db):
    import_tournament(leave_file())
    rows = standings_json("leave-night")
    expected = dict(POINTS_WITHOUT_ADJUSTMENT, p3=6 - 2)
    assert {ref: row["points"] for ref, row in rows.items()} == expected
    assert rows["p3"]["rounds"] == [4]


def test_a_removed_adjustment_counts_nowhere(db):
    data = leave_file()
    data["adjustments"] = []
    data["adjustments_removed"] = [
        {
            **MISDEAL,
            "by": None,
            "at": "2026-11-27T20:00:00+00:00",
            "removed_at": "2026-11-27T20:05:00+00:00",
        }
    ]
    import_tournament(data)
    assert Adjustment.objects.get().removed_at is not None
    assert standings_json("leave-night")["p3"]["points"] == 6


def full_file():
    """The leave file with everything a backup holds of leaves and adjustments: who gave
    and who removed them, and a second round whose sheet awaits confirmation with a leave
    and a history that records it."""
    data = leave_file()
    data["owner"] = "olive"
    data["adjustments"] = [
        {**MISDEAL, "by": "olive", "at": "2026-11-27T20:10:00.123456+00:00"},
        {
            "player": "p5",
            "round": 2,
            "points": 3,
            "reason": "fair play award",
            "by": None,
            "at": "2026-11-27T21:00:00+00:00",
        },
    ]
    data["adjustments_removed"] = [
        {
            "player": "p1",
            "round": 1,
            "points": -5,
            "reason": "slow play",
            "by": "olive",
            "at": "2026-11-27T20:00:00+00:00",
            "removed_by": "olive",
            "removed_at": "2026-11-27T20:30:00+00:00",
        }
    ]
    pending = [dict(deal, won=list(deal["won"])) for deal in DEALS]
    # In round 2 seat 3 stays and seat 1 leaves after deal 2, so seats 2..5 deal on.
    pending[2]["won"] = [None, 10, 6, 8, 4]
    pending[2]["left_over"] = 24
    pending[2]["last_in"] = 4
    pending[3]["won"] = [None, 6, 10, 4, 12]
    pending[3]["left_over"] = 20
    pending[3]["last_in"] = 5
    history = [
        {
            "number": 1,
            "action": "entered",
            "status": "entered",
            "deals": pending,
            "changes": [],
            "left": [{"seat": 1, "after_deal": 2}],
            "by": "olive",
            "at": "2026-11-27T21:30:00+00:00",
        }
    ]
    data["rounds"].append(
        {
            "number": 2,
            "started": True,
            "released": False,
            "tables": [
                {
                    "number": 1,
                    "seats": ["p1", "p2", "p3", "p4", "p5"],
                    "deals": [],
                    "sheet": {
                        "status": "entered",
                        "stopped_early": False,
                        "pending": pending,
                        "pending_left": [{"seat": 1, "after_deal": 2}],
                        "entered_by": "olive",
                        "confirmed_by": None,
                        "history": history,
                    },
                }
            ],
        }
    )
    return data


def test_export_import_export_keeps_leaves_and_adjustments_with_their_history(db):
    olive = get_user_model().objects.create_user("olive")
    import_tournament(full_file())
    tournament = Tournament.objects.get()
    first = writing.export_tournament(tournament)
    assert first["format"] == "lld-tournament/4"
    table = first["rounds"][0]["tables"][0]
    assert table["left"] == [{"seat": 3, "after_deal": 2}]
    assert [deal["won"] for deal in table["deals"]] == [deal["won"] for deal in DEALS]
    sheet = first["rounds"][1]["tables"][0]["sheet"]
    assert sheet["pending_left"] == [{"seat": 1, "after_deal": 2}]
    assert sheet["history"][0]["left"] == [{"seat": 1, "after_deal": 2}]
    assert first["adjustments"] == full_file()["adjustments"]
    assert first["adjustments_removed"] == full_file()["adjustments_removed"]
    removed = Adjustment.objects.get(removed_at__isnull=False)
    assert (removed.created_by, removed.removed_by) == (olive, olive)
    assert Sheet.objects.get(table__round__number=2).pending_left == [{"seat": 1, "after_deal": 2}]

    import_tournament(first, replace=True)
    assert writing.export_tournament(Tournament.objects.get()) == first


def test_an_adjustments_author_without_an_account_here_is_named_and_left_out(db):
    summary = import_tournament(full_file())
    assert summary.missing_users == ("olive",)
    assert set(Adjustment.objects.values_list("created_by", flat=True)) == {None}


def test_the_public_file_holds_the_adjustments_in_force_of_released_rounds_only(db):
    get_user_model().objects.create_user("olive")
    import_tournament(full_file())
    public = writing.export_tournament(Tournament.objects.get(), released_only=True)
    assert public["adjustments"] == [MISDEAL]
    assert "adjustments_removed" not in public
    assert public["rounds"][0]["tables"][0]["left"] == [{"seat": 3, "after_deal": 2}]


def test_the_public_pages_and_csv_of_a_table_with_a_leave_answer(db):
    import_tournament(leave_file())
    client = Client()
    for address in (
        "/t/leave-night/",
        "/t/leave-night/standings.csv",
        "/t/leave-night/tournament.json",
        "/t/leave-night/rounds/1/",
        "/t/leave-night/projector/",
        *(f"/t/leave-night/players/{pk}/" for pk in Player.objects.values_list("pk", flat=True)),
    ):
        assert client.get(address).status_code == 200, address
    data = json.loads(client.get("/t/leave-night/tournament.json").content)
    assert data["rounds"][0]["tables"][0]["deals"][2]["won"] == [10, 6, None, 8, 4]
    out = io.StringIO()
    call_command("standings", "leave-night", "--format", "csv", stdout=out)
    assert "Player 3" in out.getvalue()


def table(data):
    return data["rounds"][0]["tables"][0]


def set_left(*leaves):
    return lambda data: table(data).update(left=list(leaves))


def set_won(deal, seat, value):
    def change(data):
        table(data)["deals"][deal]["won"][seat] = value

    return change


def adjust(**values):
    return lambda data: data["adjustments"][0].update(values)


NOT_STARTED = (
    "round 2 has not started yet: a penalty or award is given in a round being played or "
    "already played"
)


def adjust_unstarted(key):
    """An adjustment (in force, or removed) in round 2, which the file has not started."""

    def change(data):
        data["rounds"].append({"number": 2, "started": False, "released": False, "tables": []})
        item = dict(MISDEAL, round=2)
        if key == "adjustments_removed":
            item |= {"removed_at": "2026-11-27T20:05:00+00:00"}
        data.setdefault(key, []).append(item)

    return change


def confirmed_sheet(*history_left, pending_left=()):
    """Table 1 of round 1 with its sheet confirmed: ``pending_left`` its own leaves, and
    one version in its history, saved complete with the table's deals, for each of
    ``history_left``'s lists of leaves."""

    def change(data):
        table(data)["sheet"] = {
            "status": "confirmed",
            "stopped_early": False,
            "pending": [],
            **({"pending_left": list(pending_left)} if pending_left else {}),
            "history": [
                {
                    "number": number,
                    "action": "confirmed",
                    "status": "confirmed",
                    "deals": copy.deepcopy(DEALS),
                    "left": list(left),
                }
                for number, left in enumerate(history_left, start=1)
            ],
        }

    return change


def wrong_format(version, key):
    def change(data):
        data["format"] = version
        if key == "adjustments":
            return
        del data["adjustments"]

    return change


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            set_left({"seat": 9, "after_deal": 2}),
            [
                "rounds[0].tables[0].left[0].seat: seat 9 left after deal 2: there is no seat 9 "
                "at a table of 5"
            ],
        ),
        (
            set_left({"seat": 3, "after_deal": 2}, {"seat": 3, "after_deal": 2}),
            ["rounds[0].tables[0].left[1].seat: seat 3 left after deal 2: seat 3 has already left"],
        ),
        (
            set_left({"seat": 3, "after_deal": 0}),
            [
                "rounds[0].tables[0].left[0].after_deal: seat 3 left after deal 0: a player who "
                "leaves before deal 1 did not play — re-seat the table instead"
            ],
        ),
        (
            set_left({"seat": 3, "after_deal": 5}),
            [
                "rounds[0].tables[0].left[0].after_deal: seat 3 left after deal 5: the round "
                "has 5 deals, so after deal 5 there is nothing left to leave"
            ],
        ),
        (
            set_won(2, 2, 6),
            ["rounds[0].tables[0].deals[2].won[2]: seat 3 left after deal 2 — null expected"],
        ),
        (set_won(2, 1, None), ["round 1, table 1, deal 3: seat 2: cards won is missing"]),
        (
            lambda data: table(data)["deals"][2].update(last_in=3),
            [
                "round 1, table 1, deal 3: last in: seat 3 had left the table — name a seat "
                "still playing"
            ],
        ),
        (
            lambda data: table(data)["deals"].append(dict(DEALS[3])),
            [
                "round 1, table 1: 5 deals, but a table of 5 plays at most 4 in a round "
                "(1 rotation, seat 3 having left after deal 2)"
            ],
        ),
        (
            lambda data: table(data).update(
                deals=table(data)["deals"][:2], left=[{"seat": 3, "after_deal": 3}]
            ),
            [
                "rounds[0].tables[0].left[0].after_deal: seat 3 left after deal 3, but the "
                "table has 2 deals, so no deal came after it"
            ],
        ),
        (adjust(player="p9"), ['adjustments[0].player: no player "p9"']),
        (adjust(round=2), ["adjustments[0].round: the file has no round 2"]),
        (
            adjust(points=0),
            [
                "adjustments[0].points: 0 points changes nothing: a penalty is negative, "
                "an award positive"
            ],
        ),
        (adjust(points=1001), ["adjustments[0].points: 1001 is more than 1000"]),
        (adjust(points=-2.5), ["adjustments[0].points: expected a whole number, found -2.5"]),
        (adjust(reason="  "), ["adjustments[0].reason: give a reason"]),
        (adjust(reason="x" * 121), ["adjustments[0].reason: longer than 120 characters"]),
        (
            lambda data: data["adjustments"][0].pop("reason"),
            ["adjustments[0]: “reason” is missing"],
        ),
        (
            lambda data: data.update(adjustments_removed=[dict(MISDEAL)]),
            ["adjustments_removed[0]: “removed_at” is missing"],
        ),
        (
            adjust_unstarted("adjustments"),
            [f"adjustments[1].round: {NOT_STARTED}"],
        ),
        (
            adjust_unstarted("adjustments_removed"),
            [f"adjustments_removed[0].round: {NOT_STARTED}"],
        ),
        (
            confirmed_sheet(
                [{"seat": 3, "after_deal": 2}],
                [{"seat": 99, "after_deal": -5}, {"seat": 2, "after_deal": 0}],
            ),
            [
                "rounds[0].tables[0].sheet.history[1].left[0].seat: seat 99 left after deal "
                "-5: there is no seat 99 at a table of 5",
                "rounds[0].tables[0].sheet.history[1].left[1].after_deal: seat 2 left after "
                "deal 0: a player who leaves before deal 1 did not play — re-seat the table "
                "instead",
            ],
        ),
        (
            # Version 1 was saved complete with 4 deals: no deal came after deal 4.
            confirmed_sheet([{"seat": 1, "after_deal": 4}]),
            [
                "rounds[0].tables[0].sheet.history[0].left[0].after_deal: seat 1 left after "
                "deal 4, but the table has 4 deals, so no deal came after it"
            ],
        ),
        (
            confirmed_sheet([{"seat": 3, "after_deal": 2}], pending_left=[MISDEAL_LEAVE]),
            [
                "rounds[0].tables[0].sheet.pending_left: only a sheet being typed or awaiting "
                "confirmation has leaves of its own"
            ],
        ),
        (
            wrong_format("lld-tournament/2", "left"),
            [
                "rounds[0].tables[0].left: only a file of format “lld-tournament/3” holds "
                "this; the file says “lld-tournament/2”"
            ],
        ),
        (
            wrong_format("lld-tournament/2", "adjustments"),
            [
                "adjustments: only a file of format “lld-tournament/3” holds this; the file "
                "says “lld-tournament/2”",
                "rounds[0].tables[0].left: only a file of format “lld-tournament/3” holds "
                "this; the file says “lld-tournament/2”",
            ],
        ),
    ],
)
def test_each_wrong_value_is_refused_by_its_place_and_nothing_is_written(db, change, expected):
    data = leave_file()
    change(data)
    before = counts()
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert caught.value.problems == expected
    assert counts() == before


def test_a_count_for_a_seat_that_left_in_a_sheet_awaiting_confirmation_is_refused(db):
    data = full_file()
    data["rounds"][1]["tables"][0]["sheet"]["pending"][3]["won"][0] = 2
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert caught.value.problems == [
        "rounds[1].tables[0].sheet.pending[3].won[0]: seat 1 left after deal 2 — null expected"
    ]


def test_a_leave_after_the_last_deal_of_a_table_that_stopped_early_is_refused(db):
    data = leave_file()
    table(data)["deals"] = table(data)["deals"][:2]
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert caught.value.problems == [
        "rounds[0].tables[0].left[0].after_deal: seat 3 left after deal 2, but the table has "
        "2 deals, so no deal came after it"
    ]


def test_a_leave_in_a_sheet_awaiting_confirmation_comes_before_its_last_row(db):
    data = full_file()
    sheet = data["rounds"][1]["tables"][0]["sheet"]
    sheet["pending"] = sheet["pending"][:2]
    sheet["stopped_early"] = True
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert caught.value.problems == [
        "rounds[1].tables[0].sheet.pending_left[0].after_deal: seat 1 left after deal 2, but "
        "the table has 2 deals, so no deal came after it"
    ]
    # A draft is still being typed: its leave may come after the rows typed so far.
    sheet["status"] = "draft"
    import_tournament(data)
    assert Sheet.objects.get(table__round__number=2).pending_left == [{"seat": 1, "after_deal": 2}]


def test_a_leave_at_a_table_of_four_would_leave_too_few_players(db):
    data = leave_file()
    table(data)["seats"] = ["p1", "p2", "p3", "p4"]
    table(data)["deals"] = []
    table(data)["left"] = [{"seat": 1, "after_deal": 1}, {"seat": 2, "after_deal": 1}]
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert caught.value.problems[0].startswith(
        "rounds[0].tables[0].left[1].after_deal: seat 1 left after deal 1 and seat 2 left after "
        "deal 1: 2 players would be left"
    )


@pytest.mark.parametrize("version", ["lld-tournament/1", "lld-tournament/2"])
def test_files_of_versions_1_and_2_still_import_and_export_as_the_current_version(db, version):
    data = leave_file()
    data["format"] = version
    del data["adjustments"], table(data)["left"]
    if version == "lld-tournament/1":
        del data["published"], data["rounds"][0]["started"], data["rounds"][0]["released"]
    table(data)["deals"] = [DEALS[0], DEALS[1]]
    import_tournament(data)
    exported = writing.export_tournament(Tournament.objects.get())
    assert exported["format"] == "lld-tournament/4"
    assert exported["rule_set"] == "standard"
    assert exported["adjustments"] == []
    assert "left" not in exported["rounds"][0]["tables"][0]
    assert exported["rounds"][0]["tables"][0]["deals"] == [DEALS[0], DEALS[1]]


def test_a_leave_in_a_draft_version_may_come_after_the_rows_typed_so_far(db):
    data = full_file()
    version = data["rounds"][1]["tables"][0]["sheet"]["history"][0]
    version["status"] = "draft"
    version["deals"] = version["deals"][:2]
    import_tournament(data)
    assert SheetVersion.objects.get().left == [{"seat": 1, "after_deal": 2}]
    # Saved complete with those two rows, no deal came after the leave.
    version["status"] = "entered"
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data, replace=True)
    assert caught.value.problems == [
        "rounds[1].tables[0].sheet.history[0].left[0].after_deal: seat 1 left after deal 2, "
        "but the table has 2 deals, so no deal came after it"
    ]
