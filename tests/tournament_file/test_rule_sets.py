"""Version 4 of the tournament file: the rule set (a preset's key or house-rule numbers),
Caidis scoring and each deal's lying-down order (``laid_down``), checked with located
messages (nothing saved from a bad file), stored, and written back as they came."""

import copy
import io
import json

import pytest
from django.core.management import CommandError, call_command

from tournament.models import Deal, DealResult, Player, Round, Seat, Sheet, SheetVersion, Tournament
from tournament.tournament_file import writing
from tournament.tournament_file.loading import import_tournament
from tournament.tournament_file.problems import TournamentFileError

MODELS = (Tournament, Player, Round, Seat, Deal, DealResult, Sheet, SheetVersion)

# Four seats, two deals with the order they lay down (the last in never among them).
DEALS = [
    {"won": [10, 8, 6, 4], "last_in": 2, "left_over": 24, "laid_down": [4, 3, 1]},
    {"won": [26, 2, 10, 6], "last_in": 4, "left_over": 8, "laid_down": [2, 1, 3]},
]
ROWS = [
    {"won": [12, 4, 6, 2], "last_in": 1, "left_over": 28, "laid_down": [3, 4, 2]},
    {"won": [8, 8, 8, 8], "last_in": 3, "left_over": 20, "laid_down": [1, 2, 4]},
]


def caidis_file():
    """A Caidis tournament: round 1 confirmed, round 2 awaiting confirmation with its
    history, every row with its lying-down order."""
    refs = [f"p{i}" for i in range(1, 5)]
    return {
        "format": "lld-tournament/4",
        "name": "Caidis Night",
        "slug": "caidis-night",
        "scoring": "caidis",
        "rule_set": "du-coeur",
        "table_sizes": [4, 5],
        "players": [{"id": ref, "name": f"Player {ref}"} for ref in refs],
        "rounds": [
            {
                "number": 1,
                "started": True,
                "released": True,
                "tables": [{"number": 1, "seats": refs, "deals": copy.deepcopy(DEALS)}],
            },
            {
                "number": 2,
                "started": True,
                "tables": [
                    {
                        "number": 1,
                        "seats": refs,
                        "deals": [],
                        "sheet": {
                            "status": "entered",
                            "pending": copy.deepcopy(ROWS),
                            "history": [
                                {
                                    "number": 1,
                                    "action": "entered",
                                    "status": "entered",
                                    "deals": copy.deepcopy(ROWS),
                                    "at": "2026-11-27T21:00:00+00:00",
                                }
                            ],
                        },
                    }
                ],
            },
        ],
    }


def counts():
    return {model.__name__: model.objects.count() for model in MODELS}


def table(data, round_index=0):
    return data["rounds"][round_index]["tables"][0]


def test_a_caidis_file_stores_the_rule_set_and_each_deals_order(db):
    tournament = import_tournament(caidis_file()).tournament
    assert (tournament.scoring, tournament.rule_set, tournament.house_rules) == (
        "caidis",
        "du-coeur",
        None,
    )
    assert list(Deal.objects.order_by("number").values_list("laid_down", flat=True)) == [
        [4, 3, 1],
        [2, 1, 3],
    ]
    sheet = Sheet.objects.get(table__round__number=2)
    assert [row["laid_down"] for row in sheet.pending] == [[3, 4, 2], [1, 2, 4]]
    assert [row["laid_down"] for row in SheetVersion.objects.get().deals] == [
        [3, 4, 2],
        [1, 2, 4],
    ]
    # Caidis payments, summed deal by deal (test_rule_set_standings works them out).
    payments = Seat.objects.filter(round__number=1).order_by("position")
    assert list(payments.values_list("sum_payments", flat=True)) == [1, -1, 0, 0]


def test_export_import_export_gives_the_same_file(db, tmp_path):
    import_tournament(caidis_file())
    first = io.StringIO()
    call_command("export_tournament", "caidis-night", stdout=first)
    exported = json.loads(first.getvalue())
    assert exported["format"] == "lld-tournament/4"
    assert exported["rule_set"] == "du-coeur"
    assert table(exported)["deals"] == DEALS
    assert table(exported, 1)["sheet"]["pending"] == ROWS
    assert table(exported, 1)["sheet"]["history"][0]["deals"] == ROWS
    path = tmp_path / "caidis-night.json"
    path.write_text(first.getvalue(), encoding="utf-8")
    call_command("import_tournament", str(path), "--replace", stdout=io.StringIO())
    second = io.StringIO()
    call_command("export_tournament", "caidis-night", stdout=second)
    assert second.getvalue() == first.getvalue()


def test_a_lying_down_order_is_kept_under_another_scoring_so_the_file_can_be_rescored(db):
    data = caidis_file()
    data["scoring"] = "classic-stakes"
    # Under classic stakes a deal may go without its order.
    del table(data)["deals"][1]["laid_down"]
    tournament = import_tournament(data).tournament
    exported = writing.export_tournament(tournament)
    assert table(exported)["deals"][0] == DEALS[0]
    assert "laid_down" not in table(exported)["deals"][1]
    import_tournament(exported, replace=True)
    assert writing.export_tournament(Tournament.objects.get()) == exported


def test_house_rules_come_back_as_the_numbers_they_were(db):
    house = {
        "left_over_to": "dealer",
        "tables": {
            "4": {
                "cards_each": 10,
                "table_cards": 12,
                "dealer_stake": 4,
                "other_stake": 2,
                "last_in_prize": 4,
                "break_even": 10,
            }
        },
    }
    data = caidis_file()
    data |= {"scoring": "classic-stakes", "rule_set": house, "table_sizes": [4]}
    tournament = import_tournament(data).tournament
    assert (tournament.rule_set, tournament.house_rules) == ("house", house)
    exported = writing.export_tournament(tournament)
    assert exported["rule_set"] == house
    import_tournament(exported, replace=True)
    assert writing.export_tournament(Tournament.objects.get()) == exported


def test_a_file_without_table_sizes_takes_the_default_sizes_its_rules_seat(db):
    data = caidis_file()
    del data["table_sizes"]
    # Caidis seats 3 to 5: of the default 4, 5 and 6, tables of 4 and 5.
    assert import_tournament(data).tournament.table_sizes == [4, 5]
    data = caidis_file()
    del data["table_sizes"], data["rule_set"]
    data["scoring"] = "classic-stakes"
    assert import_tournament(data, replace=True).tournament.table_sizes == [4, 5, 6]


@pytest.mark.parametrize("version", ["lld-tournament/1", "lld-tournament/2", "lld-tournament/3"])
def test_an_older_file_plays_under_the_standard_rule_set(db, version):
    data = caidis_file()
    data["format"] = version
    data["scoring"] = "classic-stakes"
    del data["rule_set"], data["table_sizes"], data["rounds"][1]
    for deal in table(data)["deals"]:
        del deal["laid_down"]
    if version == "lld-tournament/1":
        del data["rounds"][0]["started"], data["rounds"][0]["released"]
    tournament = import_tournament(data).tournament
    assert (tournament.scoring, tournament.rule_set) == ("classic-stakes", "standard")
    exported = writing.export_tournament(tournament)
    assert (exported["format"], exported["rule_set"]) == ("lld-tournament/4", "standard")


# Refused files ------------------------------------------------------------------------------


def change(path, value):
    """Set the value at ``path`` (keys and indexes from the top of the file)."""

    def changed(data):
        *parents, last = path
        place = data
        for key in parents:
            place = place[key]
        place[last] = value

    return changed


def remove(path):
    def changed(data):
        *parents, last = path
        place = data
        for key in parents:
            place = place[key]
        del place[last]

    return changed


def seven_at_a_standard_table(data):
    data["scoring"] = "winner-advantage"
    data["rule_set"] = "standard"
    data["table_sizes"] = [4, 5]
    data["players"] += [{"id": f"p{i}", "name": f"Player {i}"} for i in range(5, 8)]
    first = table(data)
    first["seats"] = [f"p{i}" for i in range(1, 8)]
    first["deals"] = [{"won": [8, 6, 4, 10, 2, 6, 4], "last_in": 3, "left_over": 12}]
    del data["rounds"][1]


def six_at_a_caidis_table(data):
    data["players"] += [{"id": f"p{i}", "name": f"Player {i}"} for i in range(5, 7)]
    first = table(data)
    first["seats"] = [f"p{i}" for i in range(1, 7)]
    first["deals"] = [
        {"won": [8, 6, 4, 10, 2, 6], "last_in": 3, "left_over": 16, "laid_down": [1, 2, 4, 5, 6]}
    ]
    del data["rounds"][1]


NOT_52 = {
    "tables": {
        "4": {
            "cards_each": 10,
            "table_cards": 10,
            "dealer_stake": 3,
            "other_stake": 2,
            "last_in_prize": 3,
            "break_even": 10,
        },
        "5": {
            "cards_each": 8,
            "table_cards": 12,
            "dealer_stake": 3,
            "other_stake": 2,
            "last_in_prize": 5,
            "break_even": 8,
        },
    }
}
DEAL_1 = ("rounds", 0, "tables", 0, "deals", 0)
PENDING_1 = ("rounds", 1, "tables", 0, "sheet", "pending", 0)


@pytest.mark.parametrize(
    ("changed", "expected"),
    [
        (
            change(("rule_set",), "poker"),
            [
                "rule_set: “poker” is not a rule set; the rule sets are “standard”, "
                "“willughby-four-thirteen”, “du-coeur”, “du-coeur-low-stakes”, or house rules "
                "as an object of numbers per table size"
            ],
        ),
        (
            change(("rule_set",), NOT_52),
            ["rule_set, table of 4: 4 × 10 cards each and 10 in the middle deal 50 cards, not 52"],
        ),
        (
            change(("rule_set",), {"tables": {"9": NOT_52["tables"]["5"]}}),
            [
                'rule_set.tables["9"]: “9” is not a table size of the house rules: their keys '
                "are “3”, “4”, “5”, “6”, “7” and “8”, in plain digits, each once"
            ],
        ),
        (
            change(("rule_set",), {"tables": {"four": NOT_52["tables"]["5"]}}),
            [
                'rule_set.tables["four"]: “four” is not a table size of the house rules: '
                "their keys are “3”, “4”, “5”, “6”, “7” and “8”, in plain digits, each once"
            ],
        ),
        (
            change(("rule_set",), {"tables": {"4": {"cards_each": 10, "break_even": 10}}}),
            [
                f"rule_set.tables.4: “{key}” is missing"
                for key in ("table_cards", "dealer_stake", "other_stake", "last_in_prize")
            ],
        ),
        (
            change(("rule_set",), 7),
            ["rule_set: expected text or an object {…}, found a whole number 7"],
        ),
        (
            seven_at_a_standard_table,
            [
                "round 1, table 1: a table of 7 cannot play: the rule set “standard” seats 3 to 6 players"
            ],
        ),
        (
            six_at_a_caidis_table,
            [
                "round 1, table 1: a table of 6 cannot play under “caidis” scoring, which "
                "seats 3 to 5 players here"
            ],
        ),
        (
            change(("table_sizes",), [4, 6, 7]),
            [
                "table_sizes[1]: a table of 6 cannot play under “caidis” scoring, which seats "
                "3 to 5 players here",
                "table_sizes[2]: a table of 7 cannot play under “caidis” scoring, which seats "
                "3 to 5 players here",
            ],
        ),
        (
            remove((*DEAL_1, "laid_down")),
            [
                "round 1, table 1, deal 1: lying-down order: missing — give the seats in the "
                "order they lay down, first out first (the last in never lies down)"
            ],
        ),
        (
            change((*DEAL_1, "laid_down"), [4, 3, 2]),
            [
                "round 1, table 1, deal 1: lying-down order: seat 2 was last in, so it never "
                "lay down"
            ],
        ),
        (
            change((*DEAL_1, "laid_down"), [4, 3, 4]),
            ["round 1, table 1, deal 1: lying-down order: seat 4 lies down only once"],
        ),
        (
            change((*DEAL_1, "laid_down"), [4, 3]),
            [
                "round 1, table 1, deal 1: lying-down order: seat 1 never lay down — every seat "
                "but the last in lies down"
            ],
        ),
        (
            change((*DEAL_1, "laid_down"), "4, 3, 1"),
            [
                "round 1, table 1, deal 1: lying-down order: expected a list of seats, found "
                'text "4, 3, 1"'
            ],
        ),
        (
            change((*PENDING_1, "laid_down"), [3, 4]),
            [
                "round 2, table 1: deal 1 awaiting confirmation: lying-down order: seat 2 never "
                "lay down — every seat but the last in lies down"
            ],
        ),
        (
            remove((*PENDING_1, "laid_down")),
            [
                "round 2, table 1: deal 1 awaiting confirmation: lying-down order: missing — "
                "give the seats in the order they lay down, first out first (the last in never "
                "lies down)"
            ],
        ),
    ],
)
def test_a_file_breaking_a_rule_of_version_4_is_refused_by_place_and_nothing_is_saved(
    db, changed, expected
):
    data = caidis_file()
    changed(data)
    before = counts()
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert caught.value.problems == expected
    assert counts() == before


def test_a_lying_down_order_given_under_another_scoring_is_checked(db):
    data = caidis_file()
    data["scoring"] = "winner-advantage"
    table(data)["deals"][1]["laid_down"] = [2, 2, 1]
    table(data)["deals"][0]["laid_down"] = []
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert caught.value.problems == [
        "round 1, table 1, deal 1: lying-down order: missing — give the seats in the order "
        "they lay down, first out first (the last in never lies down)",
        "round 1, table 1, deal 2: lying-down order: seat 2 lies down only once",
    ]
    assert not Tournament.objects.exists()


def test_a_deal_after_a_leave_must_be_dealt_at_a_size_the_house_rules_have(db):
    data = caidis_file()
    five = copy.deepcopy(NOT_52["tables"]["5"])
    data |= {"scoring": "classic-stakes", "rule_set": {"tables": {"5": five}}, "table_sizes": [5]}
    del data["rounds"][1]
    data["players"].append({"id": "p5", "name": "Player p5"})
    first = table(data)
    first["seats"].append("p5")
    first["left"] = [{"seat": 5, "after_deal": 1}]
    first["deals"] = [
        {"won": [10, 8, 6, 4, 2], "last_in": 2, "left_over": 22},
        {"won": [10, 8, 6, 4, None], "last_in": 2, "left_over": 24},
    ]
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert caught.value.problems == [
        "round 1, table 1, deal 2: dealt at 4 players after a leave, but the house rules seat "
        "5 players"
    ]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("changed", "place"),
    [
        (change(("scoring",), "classic-stakes"), "rule_set"),
        (remove(("rule_set",)), "scoring"),
    ],
)
def test_an_older_file_holds_nothing_of_version_4(db, changed, place):
    data = caidis_file()
    data["format"] = "lld-tournament/3"
    changed(data)
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    problems = caught.value.problems
    only = "only a file of format “lld-tournament/4” holds this; the file says “lld-tournament/3”"
    assert problems[0] == f"{place}: {only}"
    assert f"rounds[0].tables[0].deals[0].laid_down: {only}" in problems
    assert f"rounds[1].tables[0].sheet.pending[1].laid_down: {only}" in problems
    assert f"rounds[1].tables[0].sheet.history[0].deals[0].laid_down: {only}" in problems
    assert not Tournament.objects.exists()


# House-rule table sizes: the keys "3" to "8", in plain digits, each once -------------------

FOUR = {**NOT_52["tables"]["4"], "table_cards": 12}
FIVE = NOT_52["tables"]["5"]


def not_a_size(key):
    return (
        f'rule_set.tables["{key}"]: “{key}” is not a table size of the house rules: their keys '
        "are “3”, “4”, “5”, “6”, “7” and “8”, in plain digits, each once"
    )


@pytest.mark.parametrize(
    ("tables", "expected"),
    [
        pytest.param({"4": FOUR, "05": FIVE}, [not_a_size("05")], id="leading-zero"),
        pytest.param({"4": FOUR, "٥": FIVE}, [not_a_size("٥")], id="arabic-indic-five"),
        pytest.param({"4": FOUR, "²": FIVE}, [not_a_size("²")], id="superscript-two"),
        pytest.param({"4": FOUR, " 5": FIVE}, [not_a_size(" 5")], id="space"),
        pytest.param({"4": FOUR, "5": FIVE, "05": FIVE}, [not_a_size("05")], id="five-twice"),
    ],
)
def test_a_house_rule_size_is_a_key_from_3_to_8_in_plain_digits(db, tables, expected):
    data = caidis_file()
    data["rule_set"] = {"tables": tables}
    before = counts()
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert caught.value.problems == expected
    assert counts() == before


def test_house_rules_of_plain_sizes_import(db):
    data = caidis_file()
    data["rule_set"] = {"tables": {"5": FIVE, "4": FOUR}}
    tournament = import_tournament(data).tournament
    assert tournament.rules.sizes == (4, 5)
    assert list(tournament.house_rules["tables"]) == ["4", "5"]


def test_a_key_given_twice_in_the_file_is_refused_where_it_is(db, tmp_path):
    """JSON readers keep one of two equal keys, silently; the import refuses both."""
    data = caidis_file()
    data["rule_set"] = {"tables": {"4": FOUR, "5": FIVE}}
    text = json.dumps(data).replace('"tables": {"4"', f'"tables": {{"4": {json.dumps(FIVE)}, "4"')
    path = tmp_path / "twice.json"
    path.write_text(text)
    with pytest.raises(CommandError) as caught:
        call_command("import_tournament", str(path), stdout=io.StringIO())
    assert (
        'nothing was imported. 1 problem in the tournament file:\n  - rule_set.tables["4"]: '
        "the key is given twice in one object; give it once"
    ) in str(caught.value)
    assert not Tournament.objects.exists()
