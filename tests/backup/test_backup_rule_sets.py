"""A backup keeps each tournament's rule set and every deal's lying-down order: ``backup``
then ``restore`` into an empty database gives back the presets and the house-rule
numbers, the orders of the deals, of the sheets awaiting confirmation and of their
history, and the seat sums made under them, identical."""

import io

from django.core.management import call_command
from django.db import connection

from tournament.models import Deal, Seat, Sheet, SheetVersion, Tournament
from tournament.tournament_file import loading

ROWS = [
    {"won": [12, 4, 6, 2], "last_in": 1, "left_over": 28, "laid_down": [3, 4, 2]},
    {"won": [8, 8, 8, 8], "last_in": 3, "left_over": 20, "laid_down": [1, 2, 4]},
]
HOUSE = {
    "left_over_to": "last-in",
    "tables": {
        "4": {
            "cards_each": 10,
            "table_cards": 12,
            "dealer_stake": 5,
            "other_stake": 1,
            "last_in_prize": 4,
            "break_even": 12,
        }
    },
}


def tournament_file(slug, scoring, rule_set):
    refs = [f"p{i}" for i in range(1, 5)]
    return {
        "format": "lld-tournament/4",
        "name": slug.replace("-", " ").title(),
        "slug": slug,
        "scoring": scoring,
        "rule_set": rule_set,
        "table_sizes": [4],
        "published": True,
        "players": [{"id": ref, "name": f"{slug} {ref}"} for ref in refs],
        "rounds": [
            {
                "number": 1,
                "started": True,
                "released": True,
                "tables": [
                    {
                        "number": 1,
                        "seats": refs,
                        "deals": [
                            {"won": [10, 8, 6, 4], "last_in": 2, "left_over": 24},
                            {"won": [26, 2, 10, 6], "last_in": 4, "left_over": 8},
                        ],
                    }
                ],
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
                            "pending": ROWS,
                            "history": [
                                {
                                    "number": 1,
                                    "action": "entered",
                                    "status": "entered",
                                    "deals": ROWS,
                                    "at": "2026-11-27T21:00:00+00:00",
                                }
                            ],
                        },
                    }
                ],
            },
        ],
    }


def rules_and_orders():
    """Every tournament's rule set, and every order and seat sum made under it."""
    return (
        list(Tournament.objects.order_by("slug").values_list("slug", "rule_set", "house_rules")),
        list(
            Deal.objects.order_by("table__round__tournament__slug", "number").values_list(
                "table__round__tournament__slug", "number", "laid_down"
            )
        ),
        list(
            Seat.objects.order_by(
                "round__tournament__slug", "round__number", "position"
            ).values_list("round__tournament__slug", "position", *Seat.SUM_FIELDS)
        ),
        # In an order of their own (a tournament's tables and versions by number): the
        # database's order of rows is not part of what comes back.
        list(
            Sheet.objects.order_by(
                "table__round__tournament__slug", "table__round__number", "table__number"
            ).values_list("pending")
        ),
        list(
            SheetVersion.objects.order_by(
                "sheet__table__round__tournament__slug",
                "sheet__table__round__number",
                "sheet__table__number",
                "number",
            ).values_list("deals")
        ),
    )


def backup_folder(path):
    call_command("backup", "--dir", str(path), stdout=io.StringIO())
    (folder,) = path.iterdir()
    return folder


def test_rule_sets_and_lying_down_orders_come_back_identical(db, tmp_path):
    caidis = tournament_file("caidis-night", "caidis", "du-coeur")
    caidis["rounds"][0]["tables"][0]["deals"][0]["laid_down"] = [4, 3, 1]
    caidis["rounds"][0]["tables"][0]["deals"][1]["laid_down"] = [2, 1, 3]
    loading.import_tournament(caidis)
    house = tournament_file("house-night", "classic-stakes", HOUSE)
    # Under classic stakes one deal gives its order and the other not.
    house["rounds"][0]["tables"][0]["deals"][1]["laid_down"] = [2, 1, 3]
    loading.import_tournament(house)
    before = rules_and_orders()
    assert [row[1] for row in before[0]] == ["du-coeur", "house"]
    assert [row[2] for row in before[1]] == [[4, 3, 1], [2, 1, 3], [], [2, 1, 3]]
    first = backup_folder(tmp_path / "first")
    files = {path.name: path.read_bytes() for path in first.iterdir()}

    if connection.vendor == "postgresql" and connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    assert not Tournament.objects.exists()
    call_command("restore", str(first), stdout=io.StringIO())

    assert rules_and_orders() == before
    again = backup_folder(tmp_path / "again")
    assert {path.name for path in again.iterdir()} == set(files)
    for path in again.iterdir():
        if path.name != "manifest.json":
            assert path.read_bytes() == files[path.name], path.name
