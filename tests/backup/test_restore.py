"""Restoring a backup gives back what the club needs: the same public view (released
rounds, standings, pages), the organiser and scorers, the hold-back and publishing, and
the sheets awaiting confirmation with their history. A version-1 file, which says none of
this, never restores anything more public than it was."""

import copy
import io
import json
import re

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from tournament.models import Round, Sheet, SheetStatus, SheetVersion, Tournament
from tournament.rounds import seating
from tournament.rounds import services as rounds
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.saving import save_sheet
from tournament.tournament_file import checking, file_format, writing
from tournament.tournament_file.loading import import_tournament
from tournament.tournament_file.problems import TournamentFileError


def full_sheet(table):
    """A complete sheet for ``table`` at one rotation: a deal per seat."""
    size = table.seats.count()
    return [{"won": [8] * size, "last_in": 1, "left_over": 52 - 8 * size}] * size


@pytest.fixture
def evening(make_tournament, organiser, scorer, second_scorer):
    """A published tournament of three planned rounds, the last held back for the final
    reveal: round 1 released, round 2 played but withheld, round 3 started with one sheet
    awaiting confirmation and another being typed."""
    tournament = make_tournament(players=12, rounds=2, slug="club-night")
    tournament.owner = organiser
    tournament.planned_rounds = 3
    tournament.hold_back_rounds = 1
    tournament.save()
    tournament.scorers.add(scorer, second_scorer)
    Round.objects.filter(tournament=tournament, number=2).update(released=False)
    third = seating.seat_next_round(tournament)
    rounds.start_round(third)
    first, second = third.tables.select_related("round__tournament").order_by("number")[:2]
    save_sheet(first, scorer, full_sheet(first), expected_version=0, final=True)
    save_sheet(second, scorer, full_sheet(second)[:1], expected_version=0, final=False)
    return tournament


def public_view(client, tournament):
    """What an anonymous visitor sees, with the database's own row ids taken out."""
    pages = {
        name: client.get(reverse(name, args=[tournament.slug]))
        for name in ("standings", "standings_csv", "tournament_json", "final")
    }
    pages |= {
        f"round {n}": client.get(reverse("public_round", args=[tournament.slug, n]))
        for n in (1, 2, 3)
    }
    return {
        name: (
            response.status_code,
            re.sub(
                # The live updates' ETag names the page's version: a restore is a new one.
                r'/players/\d+/|nonce="[^"]*"|csrfmiddlewaretoken" value="[^"]*"'
                r'|data-etag="[^"]*"',
                "",
                response.content.decode(),
            ),
        )
        for name, response in pages.items()
    }


def restore_from_backup(tmp_path):
    call_command("backup", "--dir", str(tmp_path), stdout=io.StringIO())
    (folder,) = tmp_path.iterdir()
    Round.objects.all().delete()
    Tournament.objects.all().delete()
    out = io.StringIO()
    for path in sorted(folder.iterdir()):
        if path.name not in ("installation.json", "manifest.json"):
            call_command("import_tournament", str(path), stdout=out)
    return out.getvalue()


def test_a_restored_backup_shows_the_public_exactly_what_it_showed_before(
    evening, client, tmp_path
):
    before = public_view(client, evening)
    assert before["round 1"][0] == 200
    # Held back: sent to the nearest round shown.
    assert before["round 2"][0] == 302
    # Round 3 is being played: its seating is public, its results are not.
    assert before["round 3"][0] == 200
    assert "results not released yet" in before["round 3"][1]
    exported = writing.export_tournament(evening)

    output = restore_from_backup(tmp_path)

    restored = Tournament.objects.get(slug="club-night")
    assert public_view(client, restored) == before
    assert writing.export_tournament(restored) == exported
    assert list(Round.objects.order_by("number").values_list("started", "released")) == [
        (True, True),
        (True, False),
        (True, False),
    ]
    assert (restored.published, restored.hold_back_rounds, restored.planned_rounds) == (
        True,
        1,
        3,
    )
    assert "Published; 1 of 3 rounds released." in output
    # The held-back round stays held back: releasing it alone is still refused.
    with pytest.raises(Exception, match="held back for the final reveal"):
        rounds.release_round(Round.objects.get(number=3))


def test_a_restored_backup_keeps_the_organiser_scorers_and_sheets_awaiting_confirmation(
    evening, tmp_path, organiser, scorer, second_scorer, organiser_client
):
    history = list(
        SheetVersion.objects.order_by("sheet__table__number", "number").values_list(
            "number", "action", "status", "deals", "by__username", "at"
        )
    )

    restore_from_backup(tmp_path)

    restored = Tournament.objects.get(slug="club-night")
    assert restored.owner == organiser
    assert set(restored.scorers.all()) == {scorer, second_scorer}
    assert (
        organiser_client.get(reverse("organiser:dashboard", args=["club-night"])).status_code == 200
    )
    entered, typing = Sheet.objects.filter(table__round__number=3).order_by("table__number")[:2]
    assert (entered.status, entered.entered_by, entered.version) == (
        SheetStatus.ENTERED,
        scorer,
        1,
    )
    assert (typing.status, len(typing.pending)) == (SheetStatus.DRAFT, 1)
    assert (
        list(
            SheetVersion.objects.order_by("sheet__table__number", "number").values_list(
                "number", "action", "status", "deals", "by__username", "at"
            )
        )
        == history
    )
    # The second scorer confirms the restored sheet as they would have before.
    table = entered.table
    confirm_sheet(table, second_scorer, expected_version=1)
    assert table.deals.count() == table.seats.count()


def test_restoring_with_a_missing_account_names_it_and_still_imports(db, scorer, tmp_path):
    data = {
        "format": "lld-tournament/2",
        "name": "Club Night",
        "owner": "ghost",
        "scorers": ["simon", "nobody"],
        "players": [],
        "rounds": [],
    }
    path = tmp_path / "club-night.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    call_command("import_tournament", str(path), stdout=out)
    tournament = Tournament.objects.get()
    assert tournament.owner is None
    assert list(tournament.scorers.all()) == [scorer]
    assert "No account is called “ghost” here" in out.getvalue()
    assert "No account is called “nobody” here" in out.getvalue()
    assert "simon”" not in out.getvalue()


def version_1_file():
    players = [{"id": f"p{i}", "name": f"Player {i}"} for i in range(1, 6)]
    deal = {"won": [6, 4, 10, 0, 8], "last_in": 5, "left_over": 24}
    return {
        "format": "lld-tournament/1",
        "name": "Old Open",
        "players": players,
        "rounds": [
            {
                "number": n,
                "tables": [{"number": 1, "seats": [p["id"] for p in players], "deals": [deal]}],
            }
            for n in (1, 2)
        ],
    }


def test_a_version_1_file_restores_nothing_more_public_than_it_was(db, tmp_path):
    path = tmp_path / "old-open.json"
    path.write_text(json.dumps(version_1_file()))
    out = io.StringIO()
    call_command("import_tournament", str(path), stdout=out)
    tournament = Tournament.objects.get()
    assert not tournament.published
    assert list(tournament.rounds.values_list("started", "released")) == [(True, False)] * 2
    assert "Not published; 0 of 2 rounds released." in out.getvalue()
    assert "every round is restored started but not released" in out.getvalue()
    # Exported again it is a file of the current version that says so, and imports as it is.
    exported = writing.export_tournament(tournament)
    assert exported["format"] == "lld-tournament/4"
    assert exported["rule_set"] == "standard"
    assert [r["released"] for r in exported["rounds"]] == [False, False]
    import_tournament(exported, replace=True)
    assert writing.export_tournament(Tournament.objects.get()) == exported


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            lambda d: d.update(published=True),
            "published: only a file of format “lld-tournament/2” holds this; the file says "
            "“lld-tournament/1”",
        ),
        (
            lambda d: d["rounds"][1].update(released=True),
            "rounds[1].released: only a file of format “lld-tournament/2” holds this; the "
            "file says “lld-tournament/1”",
        ),
        (
            lambda d: d["players"][0].update(checked_in=True),
            "players[0].checked_in: only a file of format “lld-tournament/2” holds this; "
            "the file says “lld-tournament/1”",
        ),
    ],
)
def test_a_version_1_file_cannot_say_what_only_version_2_holds(db, change, problem):
    data = version_1_file()
    change(data)
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert caught.value.problems == [problem]


def version_2_file():
    data = version_1_file()
    data["format"] = "lld-tournament/2"
    return data


def sheet(status, pending, **extra):
    def change(data):
        data["rounds"][1]["tables"][0]["sheet"] = {"status": status, "pending": pending, **extra}

    return change


ROW = {"won": [6, 4, 10, 0, 8], "last_in": 5, "left_over": 24}


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            lambda d: d["rounds"][1].update(started=False, released=True),
            "rounds[1]: round 2 is released but not started",
        ),
        (
            sheet("entered", [{**ROW, "left_over": 22}]),
            "round 2, table 1: deal 1 awaiting confirmation: cards won plus left over is 50, "
            "not 52",
        ),
        (
            sheet("draft", [{"won": [6, 4], "last_in": None, "left_over": None}]),
            "round 2, table 1: row 1 of its sheet has 2 counts of cards won for a table of 5",
        ),
        (
            sheet("entered", [ROW] * 6),
            "round 2, table 1: 6 deals awaiting confirmation, but a table of 5 plays at most 5 "
            "in a round (1 rotation)",
        ),
        (
            sheet("confirmed", [ROW]),
            "round 2, table 1: the sheet is “confirmed”, but it holds rows awaiting confirmation",
        ),
        (
            sheet(
                "confirmed",
                [],
                history=[
                    {
                        "number": 1,
                        "action": "confirmed",
                        "status": "confirmed",
                        "deals": [],
                        "at": "yesterday-ish",
                    }
                ],
            ),
            "rounds[1].tables[0].sheet.history[0].at: “yesterday-ish” is not a time written like "
            "2026-11-22T03:15:07+00:00",
        ),
    ],
)
def test_a_version_2_file_with_an_impossible_state_is_refused(db, change, problem):
    data = version_2_file()
    change(data)
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert caught.value.problems == [problem]
    assert not Tournament.objects.exists()


def test_the_public_file_holds_no_sheets_nor_accounts(evening):
    public = writing.export_tournament(evening, released_only=True)
    assert "owner" not in public
    assert "scorers" not in public
    assert [r["number"] for r in public["rounds"]] == [1]
    assert not any("sheet" in t for r in public["rounds"] for t in r["tables"])
    assert checking.check(public) == []


def test_backup_exits_zero_with_sheets_being_typed_and_awaiting_confirmation(
    evening, tmp_path, monkeypatch, scorer
):
    # A draft may hold more rows than the round has deals, and text typed by mistake.
    typing = Sheet.objects.get(status=SheetStatus.DRAFT).table
    rows = full_sheet(typing) * 2
    rows[0] = {**rows[0], "last_in": "x"}
    save_sheet(typing, scorer, rows, expected_version=1, final=False)
    out = io.StringIO()
    call_command("backup", "--dir", str(tmp_path), stdout=out)
    assert "Backed up 1 tournament" in out.getvalue()
    exported = writing.export_tournament(evening)
    import_tournament(exported, replace=True)
    assert Sheet.objects.get(status=SheetStatus.DRAFT).pending[0]["last_in"] == "x"
    assert writing.export_tournament(Tournament.objects.get()) == exported
    # And it would refuse a backup that would not restore.
    real = writing.export_tournament
    monkeypatch.setattr(
        writing, "export_tournament", lambda t: copy.deepcopy(real(t)) | {"owner": 7}
    )
    with pytest.raises(CommandError, match="restore would refuse"):
        call_command("backup", "--dir", str(tmp_path / "again"), stdout=io.StringIO())


def test_who_checked_in_is_restored(seated_round):
    """Once anyone has checked in, the next round seats only those who have: a restore
    that forgot them would seat everyone."""
    from tournament.models import Player
    from tournament.players.services import set_status

    tournament = seated_round.tournament
    here = Player.objects.filter(tournament=tournament).order_by("pk").first()
    set_status(here, checked_in=True)
    data = json.loads(file_format.dumps(writing.export_tournament(tournament)))
    assert [p.get("checked_in", False) for p in data["players"]].count(True) == 1
    import_tournament(data, replace=True)
    restored = Tournament.objects.get(slug=tournament.slug)
    assert list(
        Player.objects.filter(tournament=restored, checked_in=True).values_list("ref", flat=True)
    ) == [here.ref]


@pytest.fixture
def in_two_series(make_tournament, organiser, outsider):
    """A tournament counted in its organiser's series and asked for by another
    organiser's series, with three players linked to people: one by member number, two
    to people without one."""
    from tournament.models import Series, SeriesTournament
    from tournament.people import services as people

    tournament = make_tournament(players=9, rounds=1, slug="club-night")
    tournament.owner = organiser
    tournament.save(update_fields=["owner"])
    players = {p.ref: p for p in tournament.players.all()}
    people.link(players["p1"], people.add_person("Player 0000", "Club 0", "M1"))
    people.link(players["p2"], people.add_person("Player 0001", "Club 1"))
    people.link(players["p3"], people.add_person("Known As Someone Else"))
    own = Series.objects.create(name="Own Season", slug="own-season", owner=organiser)
    other = Series.objects.create(name="Other League", slug="other-league", owner=outsider)
    SeriesTournament.objects.create(series=own, tournament=tournament, accepted=True)
    SeriesTournament.objects.create(series=other, tournament=tournament, accepted=False)
    return tournament


def entries_and_links():
    from tournament.models import Player, SeriesTournament

    return (
        list(
            SeriesTournament.objects.order_by("pk").values_list(
                "pk", "series__slug", "tournament__slug", "accepted", "created"
            )
        ),
        list(
            Player.objects.order_by("pk").values_list("pk", "ref", "person__name", "person__member")
        ),
    )


def test_a_replacing_import_keeps_the_series_entries_and_the_links_to_people(
    in_two_series, tmp_path
):
    before = entries_and_links()
    assert len(before[0]) == 2
    assert sum(1 for *_, person, _ in before[1] if person) == 3
    path = tmp_path / "club-night.json"
    path.write_text(file_format.dumps(writing.export_tournament(in_two_series)))

    call_command("import_tournament", str(path), "--replace", stdout=io.StringIO())

    # The same entries (the request still a request), the same players with the same ids,
    # each linked to the same person.
    assert entries_and_links() == before


def test_a_replacing_import_of_a_file_without_ids_links_the_players_by_name(in_two_series):
    from tournament.models import Player

    data = writing.export_tournament(in_two_series)
    del data["key"]
    for player in data["players"]:
        del player["key"]
    before = {
        ref: person
        for ref, person in Player.objects.values_list("ref", "person__name")
        if person is not None
    }

    import_tournament(data, replace=True)

    after = {
        ref: person
        for ref, person in Player.objects.values_list("ref", "person__name")
        if person is not None
    }
    assert after == before
    assert len(entries_and_links()[0]) == 2
