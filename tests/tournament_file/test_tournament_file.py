import copy
import io
import json

import pytest
from django.core.management import CommandError, call_command

from tournament.models import (
    Bye,
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
from tournament.tournament_file import checking, structure, writing
from tournament.tournament_file.loading import TournamentExistsError, import_tournament
from tournament.tournament_file.problems import PROBLEMS_SHOWN, TournamentFileError

WORKED = {"won": [6, 4, 10, 0, 8], "last_in": 5, "left_over": 24}
MODELS = (Tournament, Player, Round, Table, Seat, Deal, DealResult, Bye, Sheet, SheetVersion)


def valid_file():
    return {
        "format": "lld-tournament/1",
        "name": "Red Lion Winter Open",
        "date": "2026-12-05",
        "players": [
            {"id": f"p{i}", "name": f"Player {i}", "club": "Red Lion"} for i in range(1, 11)
        ],
        "rounds": [
            {
                "number": 1,
                "tables": [
                    {"number": 1, "seats": ["p1", "p2", "p3", "p4", "p5"], "deals": [WORKED] * 2},
                    {"number": 2, "seats": ["p6", "p7", "p8", "p9", "p10"], "deals": [WORKED]},
                ],
            }
        ],
    }


def counts():
    return {model.__name__: model.objects.count() for model in MODELS}


def deal(data, table=0, index=0):
    return data["rounds"][0]["tables"][table]["deals"][index]


def set_deal(field, value, table=0, index=0):
    def change(data):
        data["rounds"][0]["tables"][table]["deals"][index] = {**WORKED, field: value}

    return change


def set_won(seat, value):
    def change(data):
        won = list(WORKED["won"])
        won[seat - 1] = value
        data["rounds"][0]["tables"][0]["deals"][1] = {**WORKED, "won": won}

    return change


def seat(table, position, player_id):
    def change(data):
        data["rounds"][0]["tables"][table]["seats"][position - 1] = player_id

    return change


def top(key, value):
    def change(data):
        data[key] = value

    return change


def byes(*player_ids):
    def change(data):
        data["players"].append({"id": "p11", "name": "Player 11"})
        data["rounds"][0]["byes"] = list(player_ids)

    return change


def delete(key):
    return lambda data: data.pop(key)


def add_round_copy(data):
    data["rounds"].append(copy.deepcopy(data["rounds"][0]))


def duplicate_table_number(data):
    data["rounds"][0]["tables"][1]["number"] = 1


def six_seats_with_a_player_twice(data):
    data["rounds"][0]["tables"][0]["seats"].append("p6")


def too_many_deals(data):
    data["rounds"][0]["tables"][0]["deals"] = [WORKED] * 6


def duplicate_player_id(data):
    data["players"][5]["id"] = "p5"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            set_deal("left_over", 22, index=1),
            ["round 1, table 1, deal 2: cards won plus left over is 50, not 52"],
        ),
        (
            set_won(3, 7),
            ["round 1, table 1, deal 2: seat 3: 7 cards won is odd — cards are won in pairs"],
        ),
        (set_won(2, -2), ["round 1, table 1, deal 2: seat 2: -2 cards won is negative"]),
        (set_won(2, "four"), ["round 1, table 1, deal 2: seat 2: “four” is not a whole number"]),
        (set_won(2, 4.5), ["round 1, table 1, deal 2: seat 2: 4.5 is not a whole number"]),
        (
            set_deal("won", [6, 4, 10, 8]),
            [
                "round 1, table 1, deal 1: 4 counts of cards won for a table of 5; give one count per seat"
            ],
        ),
        (
            set_deal("last_in", 6),
            ["round 1, table 1, deal 1: last in: seat 6 is not a seat at this table (seats 1–5)"],
        ),
        (
            set_deal("last_in", 9),
            ["round 1, table 1, deal 1: last in: seat 9 is not a seat at this table (seats 1–5)"],
        ),
        (
            set_deal("left_over", 25),
            ["round 1, table 1, deal 1: left over: 25 is odd — cards are left over in pairs"],
        ),
        (
            set_deal("left_over", 0),
            [
                "round 1, table 1, deal 1: left over: 0 is less than 2 — the last-in player "
                "always still holds cards"
            ],
        ),
        (
            duplicate_player_id,
            [
                "players[5]: id “p5” is used twice",
                "round 1, table 2, seat 1: unknown player id “p6”",
            ],
        ),
        (
            seat(1, 1, "p1"),
            [
                "round 1, table 2, seat 1: Player 1 (“p1”) is already seated at table 1 in this round"
            ],
        ),
        (seat(0, 3, "p99"), ["round 1, table 1, seat 3: unknown player id “p99”"]),
        (
            too_many_deals,
            ["round 1, table 1: 6 deals, but a table of 5 plays at most 5 in a round (1 rotation)"],
        ),
        (
            six_seats_with_a_player_twice,
            [
                "round 1, table 1, deal 1: 5 counts of cards won for a table of 6; "
                "give one count per seat",
                "round 1, table 1, deal 2: 5 counts of cards won for a table of 6; "
                "give one count per seat",
                "round 1, table 2, seat 1: Player 6 (“p6”) is already seated at table 1 in this round",
            ],
        ),
        (add_round_copy, ["rounds[1]: round 1 appears twice"]),
        (duplicate_table_number, ["round 1, table 1: table 1 appears twice in this round"]),
        (delete("name"), ["the file: “name” is missing"]),
        (top("colour", "red"), ["the file: unknown key “colour”"]),
        (
            top("rotations_per_round", "two"),
            ['rotations_per_round: expected a whole number, found text "two"'],
        ),
        (top("rotations_per_round", 0), ["rotations_per_round: 0 is less than 1"]),
        (
            top("scoring", "poker"),
            ['scoring: "poker" is not one of: "winner-advantage", "classic-stakes", "caidis"'],
        ),
        (
            top("format", "lld-tournament/5"),
            [
                'format: "lld-tournament/5" is not one of: "lld-tournament/1", '
                '"lld-tournament/2", "lld-tournament/3", "lld-tournament/4"'
            ],
        ),
        (
            top("tiebreaks", ["points"]),
            [
                'tiebreaks[0]: "points" is not one of: "last_in", "table_wins", "countback", '
                '"best_round", "opponents"'
            ],
        ),
        (top("tiebreaks", ["countback", "countback"]), ["tiebreaks: a key is listed twice"]),
        (top("date", "5 Dec 2026"), ["date: “5 Dec 2026” is not a date written YYYY-MM-DD"]),
        (top("date", "2026-02-30"), ["date: “2026-02-30” is not a real day"]),
        (
            top("slug", "Red Lion!"),
            [
                "slug: “Red Lion!” is not a valid slug (lower-case letters, digits and single hyphens)"
            ],
        ),
        (top("name", "   "), ["name: a name must not be empty"]),
        (top("name", "!!!"), ["name: no slug can be made from this name; give a “slug”"]),
        (top("players", {"p1": "Ann"}), ["players: expected a list […], found an object {…}"]),
        (byes("p12"), ["round 1, byes[0]: unknown player id “p12”"]),
        (
            byes("p11", "p3"),
            ["round 1, byes[1]: Player 3 (“p3”) sits out this round but is also seated at table 1"],
        ),
        (byes("p11", "p11"), ["rounds[0].byes: a key is listed twice"]),
        (top("keep_apart", [["p1", "p99"]]), ["keep_apart[0]: unknown player id “p99”"]),
        (
            top("keep_apart", [["p1", "p1"]]),
            ["keep_apart[0]: a player cannot be kept apart from themselves"],
        ),
        (
            top("keep_apart", [["p1", "p2"], ["p2", "p1"]]),
            ["keep_apart[1]: this pair is listed twice"],
        ),
        (top("table_policy", "pairs"), ['table_policy: "pairs" is not one of: "mixed", "byes"']),
        (top("table_sizes", [2, 5]), ["table_sizes[0]: 2 is less than 3"]),
    ],
)
def test_a_file_with_a_broken_rule_is_refused_with_located_messages_and_changes_nothing(
    db, change, expected
):
    data = valid_file()
    change(data)
    before = counts()
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert caught.value.problems == expected
    assert counts() == before


def test_nine_seats_is_a_structure_problem(db):
    data = valid_file()
    data["players"] += [{"id": f"p{i}", "name": f"Player {i}"} for i in (11, 12)]
    data["rounds"][0]["tables"][0]["seats"] = [f"p{i}" for i in range(1, 10)]
    data["rounds"][0]["tables"][1]["seats"] = ["p10", "p11", "p12"]
    data["rounds"][0]["tables"][1]["deals"] = []
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert caught.value.problems == [
        "rounds[0].tables[0].seats: 9 seats — a table seats 3 to 8 players"
    ]


def test_every_problem_of_a_file_is_listed_at_once(db):
    data = valid_file()
    set_won(3, 7)(data)
    seat(1, 1, "p99")(data)
    top("colour", "red")(data)
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert len(caught.value.problems) == 3
    assert "3 problems in the tournament file" in str(caught.value)


def test_import_stores_the_facts(db):
    summary = import_tournament(valid_file())
    tournament = summary.tournament
    assert (tournament.slug, tournament.scoring, tournament.rotations_per_round) == (
        "red-lion-winter-open",
        "winner-advantage",
        1,
    )
    assert tournament.tiebreaks == ["last_in", "table_wins", "countback"]
    assert (summary.players, summary.rounds, summary.deals) == (10, 1, 3)
    first = Deal.objects.get(table__number=1, number=1)
    assert list(first.results.values_list("seat", "won")) == [
        (1, 6),
        (2, 4),
        (3, 10),
        (4, 0),
        (5, 8),
    ]
    assert list(Seat.objects.filter(table__number=2).values_list("position", "player__ref")) == [
        (1, "p6"),
        (2, "p7"),
        (3, "p8"),
        (4, "p9"),
        (5, "p10"),
    ]


def test_an_existing_slug_is_refused_unless_replaced(db):
    import_tournament(valid_file())
    before = counts()
    with pytest.raises(TournamentExistsError):
        import_tournament(valid_file())
    assert counts() == before
    changed = valid_file()
    changed["name"] = "Red Lion Winter Open"
    changed["rounds"][0]["tables"][0]["deals"] = [WORKED]
    summary = import_tournament(changed, replace=True)
    assert summary.replaced
    assert Deal.objects.count() == 2
    assert Tournament.objects.count() == 1


def test_a_bad_file_never_harms_the_tournament_it_would_replace(db):
    import_tournament(valid_file())
    tournament = Tournament.objects.get()
    before = writing.export_tournament(tournament)
    broken = valid_file()
    set_won(3, 7)(broken)
    with pytest.raises(TournamentFileError):
        import_tournament(broken, replace=True)
    assert writing.export_tournament(Tournament.objects.get()) == before


def test_export_import_replace_export_is_identical(make_tournament, tmp_path):
    make_tournament(players=23, rounds=3, rotations=2, absent={2: [4]}, stopped_early={3: (1, 6)})
    first = io.StringIO()
    call_command("export_tournament", "test-open", stdout=first)
    path = tmp_path / "t.json"
    path.write_text(first.getvalue(), encoding="utf-8")
    call_command("import_tournament", str(path), "--replace", stdout=io.StringIO())
    second = io.StringIO()
    call_command("export_tournament", "test-open", stdout=second)
    assert second.getvalue() == first.getvalue()
    assert json.loads(first.getvalue())["rounds"][2]["tables"][0]["deals"].__len__() == 6


def test_settings_byes_and_constraints_survive_export_and_import(db):
    data = valid_file()
    data["players"] += [
        {"id": "p11", "name": "Player 11", "active": False},
        {"id": "p12", "name": "Player 12", "fixed_table": 2},
    ]
    data["rounds"][0]["byes"] = ["p11", "p12"]
    data |= {
        "venue": "The Red Lion, Bath",
        "planned_rounds": 6,
        "table_policy": "byes",
        "table_sizes": [5],
        "bye_score": "average",
        "keep_clubs_apart_rounds": 2,
        "keep_apart": [["p1", "p2"]],
    }
    tournament = import_tournament(data).tournament
    assert (tournament.table_policy, tournament.bye_score, tournament.planned_rounds) == (
        "byes",
        "average",
        6,
    )
    assert Bye.objects.filter(round__tournament=tournament).count() == 2
    exported = writing.export_tournament(tournament)
    assert exported["rounds"][0]["byes"] == ["p11", "p12"]
    assert exported["keep_apart"] == [["p1", "p2"]]
    assert exported["players"][10] == {
        "id": "p11",
        "key": tournament.players.get(ref="p11").pk,
        "name": "Player 11",
        "club": "",
        "active": False,
    }
    assert exported["players"][11]["fixed_table"] == 2
    assert {key: exported[key] for key in ("venue", "table_sizes", "keep_clubs_apart_rounds")} == {
        "venue": "The Red Lion, Bath",
        "table_sizes": [5],
        "keep_clubs_apart_rounds": 2,
    }
    import_tournament(exported, replace=True)
    assert writing.export_tournament(Tournament.objects.get()) == exported
    # A bye scores the average of a round, after a restore as before it.
    from tournament.standings.services import tournament_standings

    rows = {row.name: row for row in tournament_standings(Tournament.objects.get()).standings.rows}
    assert rows["Player 11"].points == 26


def test_the_public_file_leaves_out_what_is_private_to_the_organiser(db):
    data = valid_file()
    data["players"][0]["fixed_table"] = 1
    data["keep_apart"] = [["p1", "p2"]]
    tournament = import_tournament(data).tournament
    public = writing.export_tournament(tournament, released_only=True)
    assert "keep_apart" not in public
    assert "fixed_table" not in public["players"][0]
    assert checking.check(public) == []


def test_the_import_command_lists_problems_and_fails(db, tmp_path):
    data = valid_file()
    set_deal("left_over", 22, index=1)(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError) as caught:
        call_command("import_tournament", str(path))
    message = str(caught.value)
    assert "nothing was imported" in message
    assert "round 1, table 1, deal 2: cards won plus left over is 50, not 52" in message
    assert Tournament.objects.count() == 0


def test_the_import_command_refuses_an_existing_slug(db, tmp_path):
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(valid_file()))
    out = io.StringIO()
    call_command("import_tournament", str(path), stdout=out)
    assert "Imported “Red Lion Winter Open” (red-lion-winter-open): 10 players" in out.getvalue()
    with pytest.raises(CommandError, match="Use --replace"):
        call_command("import_tournament", str(path))


def test_the_import_command_reads_standard_input_for_a_dash(db, monkeypatch):
    piped = io.TextIOWrapper(io.BytesIO(json.dumps(valid_file()).encode()), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", piped)
    out = io.StringIO()
    call_command("import_tournament", "-", stdout=out)
    assert "Imported “Red Lion Winter Open” (red-lion-winter-open): 10 players" in out.getvalue()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"format": "lld-tournament/1",\n  "name": }', "line 2, column 11: not valid JSON"),
        (b"\xff\xfe{}", "the file is not UTF-8 text"),
        (b"[1, 2]", "the file: expected an object {…}, found a list […]"),
    ],
)
def test_unreadable_files_are_located(db, tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=message.replace("[", r"\[").replace("]", r"\]")):
        call_command("import_tournament", str(path))


def test_a_missing_file_is_a_clear_error(db, tmp_path):
    with pytest.raises(CommandError, match="cannot read the file"):
        call_command("import_tournament", str(tmp_path / "nope.json"))


def test_export_of_an_unknown_slug_is_a_clear_error(db):
    with pytest.raises(CommandError, match="no tournament with the slug “nope”"):
        call_command("export_tournament", "nope")


def test_a_file_with_thousands_of_problems_shows_the_first_hundred_and_counts_the_rest(
    db, tmp_path, monkeypatch
):
    data = valid_file()
    # Three problems each: no name, an unknown key, an id that is not text.
    data["players"] = [{"id": index, "colour": "red"} for index in range(2000)]
    data["rounds"] = []
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    worded = []
    real = structure._schema_message
    monkeypatch.setattr(
        structure, "_schema_message", lambda error: worded.append(error) or real(error)
    )
    with pytest.raises(CommandError) as caught:
        call_command("import_tournament", str(path))
    lines = str(caught.value).splitlines()
    assert "6000 problems in the tournament file:" in lines[0]
    listed = [line for line in lines if line.startswith("  - ")]
    assert len(listed) == PROBLEMS_SHOWN == 100
    assert listed[:4] == [
        "  - players[0]: “name” is missing",
        "  - players[0]: unknown key “colour”",
        "  - players[0].id: expected text, found a whole number 0",
        "  - players[1]: “name” is missing",
    ]
    assert lines[-1] == "  … and 5900 more problems"
    # Only the problems shown are worded: the others are counted, not kept.
    assert len(worded) == 100
    assert Tournament.objects.count() == 0


def test_a_bounded_check_counts_rule_problems_beyond_the_ones_it_shows(db):
    data = valid_file()
    data["rounds"] = [copy.deepcopy(data["rounds"][0]) for _ in range(150)]
    problems = checking.check_bounded(data, limit=10)
    assert problems.total == 149
    assert problems.shown == tuple(f"rounds[{i}]: round 1 appears twice" for i in range(1, 11))
    assert len(checking.check(data)) == 149


@pytest.mark.parametrize(
    ("field", "text", "problem"),
    [
        ("name", "\u200b\u200b", "players[0].name: the name has no visible characters"),
        ("name", "Ann\u202eevil", "players[0].name: the name has invisible direction-changing"),
        ("club", "Red\u200bLion", "players[0].club: the club has an invisible character (U+200B"),
    ],
)
def test_a_files_names_obey_the_rule_of_names_typed_or_listed(db, field, text, problem):
    data = valid_file()
    data["players"][0][field] = text
    with pytest.raises(TournamentFileError) as refused:
        import_tournament(data)
    assert any(line.startswith(problem) for line in refused.value.problems), refused.value


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Crown \u202eOpen", "name: the name has invisible direction-changing characters"),
        ("Crown\u200bOpen", "name: the name has an invisible character (U+200B ZERO WIDTH SPACE)"),
        ("\u2066Crown Open\u2069", "name: the name has invisible direction-changing characters"),
        ("\u200b", "name: the name has no visible characters"),
    ],
)
def test_the_tournament_s_name_obeys_the_rule_of_every_name(db, text, problem):
    data = valid_file()
    data["name"] = text
    data["slug"] = "crown-open"
    with pytest.raises(TournamentFileError) as refused:
        import_tournament(data)
    assert refused.value.problems == [problem]
    assert not Tournament.objects.exists()


# Member numbers: the register of people ---------------------------------------------------


def with_members(data, **members):
    for player in data["players"]:
        if player["id"] in members:
            player["member"] = members[player["id"]]
    return data


def test_a_member_number_links_the_player_to_that_person_in_a_version_1_file(db):
    from tournament.models import Person

    ann = Person.objects.create(name="Ann Lee", club="Rooks", member="M0001")
    tournament = import_tournament(with_members(valid_file(), p1="M0001", p2="M0002")).tournament
    players = {p.ref: p for p in Player.objects.filter(tournament=tournament)}
    assert players["p1"].person == ann  # the register's name stands
    made = players["p2"].person
    assert (made.name, made.club, made.member) == ("Player 2", "Red Lion", "M0002")
    assert players["p3"].person is None
    assert Person.objects.count() == 2


def test_the_export_writes_the_member_numbers_back(db):
    data = with_members(valid_file(), p1="M0001", p5="Ö-5")
    tournament = import_tournament(data).tournament
    exported = writing.export_tournament(tournament)
    members = {p["id"]: p.get("member") for p in exported["players"]}
    assert members == {f"p{i}": None for i in range(1, 11)} | {"p1": "M0001", "p5": "Ö-5"}
    again = import_tournament(exported, replace=True).tournament
    assert writing.export_tournament(again) == exported


@pytest.mark.parametrize(
    ("member", "problem"),
    [
        ("person-4", "players[1].member (Player 2): “person-4” starts with “person-”"),
        ("M 1", "players[1].member (Player 2): “M 1” has a space in it"),
        ("  ", "players[1].member (Player 2): the member number is blank"),
        ("", "players[1].member: '' should be non-empty"),
        (17, "players[1].member: expected text, found a whole number 17"),
        ("M1", "players[1].member (Player 2): “M1” is also players[0]'s member number"),
    ],
)
def test_a_bad_member_number_is_named_by_its_player(db, member, problem):
    data = with_members(valid_file(), p1="M1", p2=member)
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert any(p.startswith(problem) for p in caught.value.problems), caught.value.problems
    assert Tournament.objects.count() == 0


def test_the_import_command_publishes_on_request(db, tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps(valid_file()))
    out = io.StringIO()
    call_command("import_tournament", str(path), "--publish", stdout=out)
    tournament = Tournament.objects.get()
    assert tournament.published
    # A version-1 file does not say which rounds were released; they were played.
    assert list(tournament.rounds.values_list("released", flat=True)) == [True]
    assert "Published; 1 of 1 rounds released." in out.getvalue()
    assert "no organiser" in out.getvalue()


def test_publishing_a_version_2_file_keeps_its_rounds_as_they_were(db, tmp_path):
    data = valid_file()
    data["format"] = "lld-tournament/2"
    data["rounds"][0]["released"] = False
    path = tmp_path / "new.json"
    path.write_text(json.dumps(data))
    call_command("import_tournament", str(path), "--publish", stdout=io.StringIO())
    tournament = Tournament.objects.get()
    assert tournament.published
    assert list(tournament.rounds.values_list("released", flat=True)) == [False]


def test_without_publish_an_import_is_not_published(db, tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps(valid_file()))
    call_command("import_tournament", str(path), stdout=io.StringIO())
    assert not Tournament.objects.get().published
