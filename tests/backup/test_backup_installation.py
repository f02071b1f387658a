"""A backup is the whole installation: ``backup`` then ``restore`` into an empty database
gives back every public page byte for byte (players' and people's addresses included),
the accounts, the people and the series; a backup taken while the evening goes on holds
one moment; and ``restore`` refuses a folder that is incomplete, changed or of an
unknown format, or a database that is not empty, changing nothing."""

import datetime
import io
import re
import threading

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.rules import Leave, deals_in_round
from tests.backups import backup_folder, edit_json, empty_the_database, restore, sign_again
from tests.commits import settle
from tournament.demo import DEMO_SLUG, DU_COEUR_SLUG
from tournament.kernel import names
from tournament.models import (
    Adjustment,
    Invitation,
    Person,
    Player,
    Round,
    Series,
    SeriesTournament,
    Sheet,
    SheetStatus,
    SheetVersion,
    Table,
    Tournament,
)
from tournament.people import services as people
from tournament.rehearsals import services as rehearsals
from tournament.rounds import seating
from tournament.rounds import services as rounds
from tournament.rounds.services import start_round
from tournament.series import careers
from tournament.series import services as series
from tournament.shared import public_changes
from tournament.shared.permissions import REHEARSAL_COOKIE
from tournament.tournament_file import loading, writing


@pytest.fixture
def installation(db):
    """The demo (three evenings, their people and their series, three accounts) with what
    the demo lacks: a guest linked to a person without a member number, another
    organiser's series with a tournament counted and one still asked for, an unpublished
    tournament (where a player left a table, a sheet awaiting confirmation records another
    leave, and an award was given and another taken back), penalties in the demo (one in
    force, one removed), a paused round clock, a group with a permission, and a rehearsal
    of the demo whose round 1 was played and awaits confirmation."""
    from django.contrib.auth.models import Group, Permission

    call_command("load_demo", stdout=io.StringIO())
    accounts = {user.username: user for user in get_user_model().objects.all()}
    guest = people.add_person("Yolande Fitch")
    for player in Player.objects.filter(name="Yolande Fitch"):
        people.link(player, guest)
    other = Series.objects.create(
        name="Crown League", slug="crown-league", owner=accounts["scorer"], scheme="placing"
    )
    october, november = Tournament.objects.exclude(slug__in=[DEMO_SLUG, DU_COEUR_SLUG]).order_by(
        "date"
    )
    SeriesTournament.objects.create(series=other, tournament=october, accepted=True)
    SeriesTournament.objects.create(series=other, tournament=november, accepted=False)
    # An account named only as who took back a penalty.
    get_user_model().objects.create_user("referee")
    loading.import_tournament(spring_secret())
    demo = Tournament.objects.get(slug=DEMO_SLUG)
    first, second = demo.players.order_by("pk")[:2]
    round_2 = demo.rounds.get(number=2)
    Adjustment.objects.create(
        tournament=demo,
        player=first,
        round=round_2,
        points=-2,
        reason="misdeal",
        created_by=accounts["organiser"],
    )
    Adjustment.objects.create(
        tournament=demo,
        player=second,
        round=round_2,
        points=-3,
        reason="slow play",
        created_by=accounts["organiser"],
        removed_by=accounts["organiser"],
        removed_at=timezone.now(),
    )
    Round.objects.filter(tournament__slug=DEMO_SLUG, number=4).update(clock_left=754)
    group = Group.objects.create(name="Club officers")
    group.permissions.add(Permission.objects.get(codename="change_person"))
    accounts["checker"].groups.add(group)
    Invitation.objects.create(
        tournament=Tournament.objects.get(slug=DEMO_SLUG),
        username="new-scorer",
        secret_hash="5e" * 32,
        created_by=accounts["organiser"],
        expires=timezone.now() + datetime.timedelta(days=2),
    )
    rehearsal = rehearsals.rehearse(demo, accounts["organiser"])
    start_round(rehearsal.rounds.get(number=1))
    rehearsals.play(rehearsal, 1)
    return accounts


def deals_with_a_leave(size, rotations, leave):
    """Valid deals of a whole round at a table of ``size`` where ``leave`` happened."""
    deals = []
    for number in range(1, deals_in_round(size, rotations, [leave]) + 1):
        gone = leave.seat if number > leave.after_deal else None
        won = [None if seat == gone else 2 * ((seat + number) % 5) for seat in range(1, size + 1)]
        playing = [seat for seat in range(1, size + 1) if seat != gone]
        deals.append(
            {
                "won": won,
                "last_in": playing[number % len(playing)],
                "left_over": 52 - sum(cards or 0 for cards in won),
            }
        )
    return deals


def spring_secret():
    """An unpublished tournament of the current file format with all it can hold of
    leaves and adjustments."""
    seats = [f"p{i}" for i in range(1, 6)]
    rows = deals_with_a_leave(5, 1, Leave(3, 2))
    return {
        "format": "lld-tournament/3",
        "name": "Spring Secret",
        "slug": "spring-secret",
        "owner": "organiser",
        "players": [{"id": ref, "name": f"Spring Player {ref}"} for ref in seats],
        "rounds": [
            {
                "number": 1,
                "started": True,
                "released": True,
                "tables": [
                    {
                        "number": 1,
                        "seats": seats,
                        "left": [{"seat": 4, "after_deal": 1}],
                        "deals": deals_with_a_leave(5, 1, Leave(1, 4)),
                    }
                ],
            },
            {
                "number": 2,
                "started": True,
                "tables": [
                    {
                        "number": 1,
                        "seats": seats,
                        "deals": [],
                        "sheet": {
                            "status": "entered",
                            "pending": rows,
                            "pending_left": [{"seat": 2, "after_deal": 3}],
                            "entered_by": "scorer",
                            "history": [
                                {
                                    "number": 1,
                                    "action": "entered",
                                    "status": "entered",
                                    "deals": rows,
                                    "left": [{"seat": 2, "after_deal": 3}],
                                    "by": "scorer",
                                    "at": "2026-11-20T21:30:00+00:00",
                                }
                            ],
                        },
                    }
                ],
            },
        ],
        "adjustments": [
            {
                "player": "p4",
                "round": 1,
                "points": 5,
                "reason": "fair play award",
                "by": "organiser",
                "at": "2026-11-20T21:00:00+00:00",
            }
        ],
        "adjustments_removed": [
            {
                "player": "p1",
                "round": 1,
                "points": -1,
                "reason": "late",
                "by": "organiser",
                "at": "2026-11-20T20:00:00+00:00",
                "removed_by": "referee",
                "removed_at": "2026-11-20T20:10:00+00:00",
            }
        ],
    }


def public_addresses():
    """Every public address the data makes: of every tournament (its rounds, every
    player), series, person and club, and the home page."""
    addresses = {"/"}
    for tournament in Tournament.objects.all():
        slug = tournament.slug
        for name in ("standings", "projector", "standings_csv", "tournament_json", "final"):
            addresses.add(reverse(name, args=[slug]))
        addresses.add(reverse("tournament_json", args=[slug]) + "?indent=2")
        addresses.add(reverse("find_seat", args=[slug]))
        numbers = list(tournament.rounds.values_list("number", flat=True))
        for number in [*numbers, len(numbers) + 1]:
            addresses.add(reverse("public_round", args=[slug, number]))
        for pk in tournament.players.values_list("pk", flat=True):
            addresses.add(reverse("player", args=[slug, pk]))
    for each in Series.objects.all():
        for name in ("series", "series_ratings", "series_standings_csv", "series_ratings_csv"):
            addresses.add(reverse(name, args=[each.slug]))
    clubs = set(Person.objects.values_list("club", flat=True))
    clubs |= set(Player.objects.values_list("club", flat=True))
    for person in Person.objects.all():
        addresses.add(reverse("career", args=[person.identifier]))
    for club in clubs:
        if slug := careers.club_slug(names.key(club)):
            addresses.add(reverse("club", args=[slug]))
    return sorted(addresses)


_HEADERS = ("Content-Type", "Content-Disposition", "ETag", "Last-Modified")


def fetch_all(addresses):
    """Each address as an anonymous visitor sees it (the pages htmx swaps a region of, also
    as that fragment), rendered from this database: nothing is served from a cache or a
    worker's memory filled before. The visitor followed the rehearsal's private link."""
    cache.clear()
    series.forget()
    public_changes.forget_generations()
    client = Client()
    for token in Tournament.objects.exclude(rehearsal_token="").values_list(
        "rehearsal_token", flat=True
    ):
        client.cookies[REHEARSAL_COOKIE] = token
    pages = {}
    for address in addresses:
        fragments = (False, True) if address.endswith(("/", "/projector/")) else (False,)
        for fragment in fragments:
            headers = {"HX-Request": "true"} if fragment else {}
            response = client.get(address, headers=headers)
            pages[(address, fragment)] = (
                response.status_code,
                {name: response.get(name) for name in _HEADERS},
                response.content,
            )
    return pages


def test_every_public_page_is_the_same_after_backup_and_restore_into_an_empty_database(
    installation, tmp_path
):
    addresses = public_addresses()
    # What the check covers: careers of people with and without a member number, both
    # series, every kind of page.
    assert reverse("career", args=["RL01"]) in addresses
    assert any(address.startswith("/p/person-") for address in addresses)
    assert "/s/crown-league/ratings/" in addresses
    # What the setup's commits would have worked out (the views, the podium chances), so
    # that the pages show it before the restore as after it.
    settle()
    before = fetch_all(addresses)
    guest = Person.objects.get(name="Yolande Fitch").identifier
    assert before[(reverse("career", args=[guest]), False)][0] == 200
    assert before[("/s/red-lion-season/", False)][0] == 200
    assert before[("/t/spring-secret/", False)][0] == 404
    rehearsal = f"/t/{DEMO_SLUG}-rehearsal-1/"
    assert before[(rehearsal, False)][0] == 200
    assert b"rehearsal-banner" in before[(rehearsal + "projector/", False)][2]
    folder = backup_folder(tmp_path)

    empty_the_database()
    output = restore(folder)

    assert "Restored the backup in" in output
    assert "6 tournaments" in output
    after = fetch_all(addresses)
    assert public_addresses() == addresses
    changed = [key for key in before if before[key] != after[key]]
    assert changed == []


def table_codes():
    return Table.objects.order_by("round__tournament__slug", "round__number", "number").values_list(
        "round__tournament__slug", "round__number", "number", "code"
    )


def leaves_and_adjustments():
    """Every leave (of tables, of sheets awaiting confirmation, of sheets' versions) and
    every adjustment, in force or removed, with who gave and removed it and when."""
    tables = Table.objects.values_list("round__tournament__slug", "round__number", "number", "left")
    sheets = Sheet.objects.values_list(
        "table__round__tournament__slug", "table__round__number", "pending_left"
    )
    versions = SheetVersion.objects.values_list(
        "sheet__table__round__tournament__slug", "number", "left"
    )
    adjustments = Adjustment.objects.order_by(
        "tournament__slug", "round__number", "created"
    ).values_list(
        "tournament__slug",
        "player__ref",
        "round__number",
        "points",
        "reason",
        "created_by__username",
        "created",
        "removed_by__username",
        "removed_at",
    )
    return (
        sorted(row for row in tables if row[-1]),
        sorted(row for row in sheets if row[-1]),
        sorted(row for row in versions if row[-1]),
        list(adjustments),
    )


def invitation_rows():
    return Invitation.objects.order_by("pk").values_list(
        "pk", "tournament__slug", "username", "secret_hash", "created_by__username", "expires"
    )


def rehearsal_rows():
    return list(
        Tournament.objects.exclude(rehearsal_token="")
        .order_by("slug")
        .values_list("slug", "rehearsal_of__slug", "rehearsal_token", "rehearsal_work", "published")
    )


def test_a_restore_gives_back_the_accounts_people_series_and_what_files_leave_out(
    installation, tmp_path
):
    rehearsed = rehearsal_rows()
    assert [row[:2] for row in rehearsed] == [(f"{DEMO_SLUG}-rehearsal-1", DEMO_SLUG)]
    link = reverse("rehearsal_link", args=[rehearsed[0][0], rehearsed[0][2]])
    folder = backup_folder(tmp_path)
    codes = list(table_codes())
    invitations = list(invitation_rows())
    leaves = leaves_and_adjustments()
    assert all(leaves)
    assert len(leaves[-1]) == 4
    first = {path.name: path.read_bytes() for path in folder.iterdir()}

    empty_the_database()
    restore(folder)

    # A backup of the restored installation is the same backup, file for file.
    again = backup_folder(tmp_path / "again")
    second = {path.name: path.read_bytes() for path in again.iterdir()}
    assert set(second) == set(first)
    for name in first:
        if name != "manifest.json":
            assert second[name] == first[name], name
    assert list(table_codes()) == codes
    assert list(invitation_rows()) == invitations
    assert leaves_and_adjustments() == leaves
    assert Round.objects.get(tournament__slug=DEMO_SLUG, number=4).clock_left == 754
    # The rehearsal, still one, its private link the same.
    assert rehearsal_rows() == rehearsed
    visitor = Client()
    assert visitor.get(reverse("standings", args=[rehearsed[0][0]])).status_code == 404
    assert visitor.get(link).status_code == 302
    assert visitor.get(reverse("standings", args=[rehearsed[0][0]])).status_code == 200
    request = SeriesTournament.objects.get(series__slug="crown-league", accepted=False)
    assert request.tournament.slug == "red-lion-november-night"
    # The accounts log in with their own passwords, and keep their groups.
    assert get_user_model().objects.get(username="organiser").check_password("lld-demo")
    checker = get_user_model().objects.get(username="checker")
    assert checker.has_perm("tournament.change_person")


def test_the_backups_groups_replace_a_new_databases_own_of_the_same_name(installation, tmp_path):
    from django.contrib.auth.models import Group, Permission

    folder = backup_folder(tmp_path)
    kept = Group.objects.get(name="Club officers").pk
    empty_the_database()
    # What migrations make in a new database: the app's own groups, one of them under the
    # id the backup's group has.
    Group.objects.create(name="Club officers", pk=kept + 7)
    newer = Group.objects.create(name="Made by a newer version", pk=kept)
    newer.permissions.add(Permission.objects.get(codename="view_person"))
    restore(folder)
    officers = Group.objects.get(name="Club officers")
    assert officers.pk == kept
    assert list(officers.permissions.values_list("codename", flat=True)) == ["change_person"]
    newer = Group.objects.get(name="Made by a newer version")
    assert list(newer.permissions.values_list("codename", flat=True)) == ["view_person"]


def test_a_backup_folder_is_readable_by_its_owner_only(installation, tmp_path):
    # The installation file holds the accounts' password hashes.
    folder = backup_folder(tmp_path)
    assert folder.stat().st_mode & 0o077 == 0


def test_a_restore_moves_the_databases_ids_past_the_restored_ones(installation, tmp_path):
    folder = backup_folder(tmp_path)
    highest = max(Player.objects.values_list("pk", flat=True))
    empty_the_database()
    restore(folder)
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    added = Player.objects.create(tournament=tournament, ref="late", name="Late Arrival")
    assert added.pk > highest
    assert people.add_person("New Member").pk > max(
        Person.objects.exclude(name="New Member").values_list("pk", flat=True)
    )


def test_restore_refuses_a_database_that_is_not_empty_and_replace_replaces_everything(
    installation, tmp_path
):
    folder = backup_folder(tmp_path)
    Person.objects.filter(member="RL01").update(name="Renamed Since")
    Series.objects.filter(slug="crown-league").delete()
    Tournament.objects.create(name="Made Since", slug="made-since")

    with pytest.raises(CommandError) as caught:
        restore(folder)
    assert "the database is not empty (it holds 7 tournaments" in str(caught.value)
    assert "add --replace" in str(caught.value)
    assert Tournament.objects.filter(slug="made-since").exists()

    output = restore(folder, "--replace")

    assert "Replaced everything with the backup" in output
    assert not Tournament.objects.filter(slug="made-since").exists()
    assert Person.objects.get(member="RL01").name == "Ann Smith"
    assert Series.objects.filter(slug="crown-league").exists()


# A folder changed after the backup ------------------------------------------------------


def unknown_manifest_version(folder):
    edit_json(folder, "manifest.json", lambda data: data.update(format="lld-backup/9"))


def broken_json(folder):
    text = (folder / "installation.json").read_text()
    (folder / "installation.json").write_text(text.replace('"people": [', '"people": [,', 1))
    sign_again(folder, "installation.json")


def changed_byte(folder):
    path = folder / f"{DEMO_SLUG}.json"
    path.write_text(path.read_text().replace('"Ann Smith"', '"Ann Smyth"', 1))


def missing_file(folder):
    (folder / "red-lion-october-night.json").unlink()


def unknown_player(folder):
    def change(data):
        data["people"][0]["players"][0]["player"] = "p99"

    edit_json(folder, "installation.json", change)
    sign_again(folder, "installation.json")


def unknown_installation_version(folder):
    edit_json(folder, "installation.json", lambda data: data.update(format="lld-installation/9"))
    sign_again(folder, "installation.json")


def no_manifest(folder):
    (folder / "manifest.json").unlink()


def published_rehearsal(folder):
    name = f"{DEMO_SLUG}-rehearsal-1.json"
    edit_json(folder, name, lambda data: data.update(published=True))
    sign_again(folder, name)


def rehearsal_of_nothing(folder):
    def change(data):
        (entry,) = [each for each in data["tournaments"] if "rehearsal" in each]
        entry["rehearsal"]["of"] = "no-such-night"

    edit_json(folder, "installation.json", change)
    sign_again(folder, "installation.json")


@pytest.mark.parametrize(
    ("tamper", "problem"),
    [
        (
            unknown_manifest_version,
            re.escape(
                "manifest.json: format: “lld-backup/9” is not a format this version of the "
                "app reads (“lld-backup/1”)"
            ),
        ),
        (broken_json, r"installation.json: line \d+, column \d+: not valid JSON"),
        (
            changed_byte,
            f"{DEMO_SLUG}.json: its SHA-256 is not the one manifest.json gives: the file was "
            "changed or damaged after the backup",
        ),
        (
            missing_file,
            "red-lion-october-night.json: listed in manifest.json, but not in the folder",
        ),
        (
            unknown_player,
            r"installation.json: people\[0\].players\[0\]: “red-lion-.*” \(.*\.json\) has no "
            "player “p99”",
        ),
        (
            unknown_installation_version,
            'installation.json: format: "lld-installation/9" is not one of: "lld-installation/1"',
        ),
        (no_manifest, "manifest.json: missing: this is no backup folder .*import_tournament"),
        (
            published_rehearsal,
            rf"installation.json: tournaments\[\d+\].rehearsal: {DEMO_SLUG}-rehearsal-1.json is "
            "published, and a rehearsal never is",
        ),
        (
            rehearsal_of_nothing,
            r"installation.json: tournaments\[\d+\].rehearsal.of: no tournament “no-such-night” "
            "is in this backup",
        ),
    ],
    ids=[
        "unknown manifest version",
        "bad JSON",
        "changed file",
        "missing file",
        "unknown player",
        "unknown installation version",
        "no manifest",
        "published rehearsal",
        "rehearsal of nothing",
    ],
)
def test_restore_refuses_a_folder_changed_since_the_backup_and_changes_nothing(
    installation, tmp_path, tamper, problem
):
    folder = backup_folder(tmp_path)
    tamper(folder)
    empty_the_database()
    with pytest.raises(CommandError, match=problem) as caught:
        restore(folder)
    assert str(caught.value).startswith("nothing was restored: ")
    assert "Traceback" not in str(caught.value)
    assert not Tournament.objects.exists()
    assert not Person.objects.exists()
    assert not get_user_model().objects.exists()


def test_replace_with_a_changed_folder_keeps_everything_as_it_was(installation, tmp_path):
    folder = backup_folder(tmp_path)
    changed_byte(folder)
    Tournament.objects.create(name="Made Since", slug="made-since")
    with pytest.raises(CommandError, match="SHA-256"):
        restore(folder, "--replace")
    assert Tournament.objects.filter(slug="made-since").exists()
    assert Person.objects.filter(member="RL01").exists()


def test_a_restore_that_fails_half_way_changes_nothing(installation, tmp_path, monkeypatch):
    from tournament.backup import restore as restore_service

    folder = backup_folder(tmp_path)
    Tournament.objects.create(name="Made Since", slug="made-since")
    counts = restore_service.what_is_here()

    def fails(*args):
        raise restore_service.NotEmptyError("the disk went away")

    monkeypatch.setattr(restore_service, "_series", fails)
    with pytest.raises(CommandError, match="the disk went away"):
        restore(folder, "--replace")
    assert restore_service.what_is_here() == counts
    assert Tournament.objects.filter(slug="made-since").exists()


def test_a_folder_that_is_not_there_is_a_clear_error(db, tmp_path):
    with pytest.raises(CommandError, match=r"nothing was restored: .*nowhere: no such folder"):
        restore(tmp_path / "nowhere")


def test_import_tournament_names_a_backups_own_files(installation, tmp_path):
    folder = backup_folder(tmp_path)
    for name, what in (("installation.json", "installation file"), ("manifest.json", "manifest")):
        with pytest.raises(CommandError, match=f"this is a backup's {what}.*manage.py restore"):
            call_command("import_tournament", str(folder / name))


def test_the_committed_schemas_are_the_ones_the_app_builds(db, settings):
    from pathlib import Path

    for kind, file in (
        ("installation", "installation-file.schema.json"),
        ("manifest", "backup-manifest.schema.json"),
    ):
        out = io.StringIO()
        call_command("backup", "--schema", kind, stdout=out)
        committed = Path(settings.BASE_DIR, "docs", file).read_text(encoding="utf-8")
        assert committed == out.getvalue(), (
            f"regenerate it: manage.py backup --schema {kind} > docs/{file}"
        )


# A backup taken during the evening ------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_backup_under_load_holds_one_moment(tmp_path, monkeypatch):
    """Sheets confirmed and players linked to people while the backup runs: the backup
    holds the installation as it was when it began, each sheet wholly confirmed or not,
    and restores."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite transactions always read one moment; this checks PostgreSQL's")
    from tests.concurrency import complete_rows, load_table
    from tournament.sheets.saving import save_sheet

    call_command("load_demo", stdout=io.StringIO())
    scorer = get_user_model().objects.get(username="scorer")
    evening = Tournament.objects.get(slug=DEMO_SLUG)
    evening.two_person_check = False
    evening.save(update_fields=["two_person_check"])
    round_ = seating.seat_next_round(evening)
    rounds.start_round(round_)
    tables = list(round_.tables.order_by("number").values_list("pk", flat=True))
    guests = list(Player.objects.filter(person=None).values_list("pk", flat=True))
    began, wrote, done = threading.Event(), threading.Event(), threading.Event()
    written = []

    def evening_goes_on():
        try:
            began.wait(timeout=60)
            work = [("sheet", pk) for pk in tables] + [("link", pk) for pk in guests]
            for kind, pk in work:
                if done.is_set():
                    break
                if kind == "sheet":
                    table = load_table(pk)
                    rows = complete_rows(table.seats.count()) * 2
                    save_sheet(table, scorer, rows, expected_version=0, final=True)
                else:
                    player = Player.objects.get(pk=pk)
                    people.link(player, people.add_person(player.name))
                written.append((kind, pk))
                wrote.set()
        finally:
            wrote.set()
            connection.close()

    writer = threading.Thread(target=evening_goes_on)
    writer.start()
    real = writing.export_tournament

    def export_while_the_evening_goes_on(tournament, **kwargs):
        # The backup's transaction has begun: from now on the writer commits beside it.
        if not began.is_set():
            began.set()
            assert wrote.wait(timeout=60)
        return real(tournament, **kwargs)

    monkeypatch.setattr(writing, "export_tournament", export_while_the_evening_goes_on)
    try:
        folder = backup_folder(tmp_path)
    finally:
        done.set()
        writer.join(timeout=120)
    assert written, "nothing was written while the backup ran"
    assert Sheet.objects.filter(table__round=round_, status=SheetStatus.CONFIRMED).exists()

    empty_the_database()
    restore(folder)

    # As the backup began: not one of the sheets confirmed since, nor of the links.
    restored = Round.objects.get(tournament__slug=DEMO_SLUG, number=round_.number)
    for table in Table.objects.filter(round=restored):
        sheet = Sheet.objects.get(table=table)
        assert sheet.status == SheetStatus.NOT_STARTED
        assert not table.deals.exists()
        assert all(seat.sums.deals == 0 for seat in table.seats.all())
    assert Player.objects.filter(pk__in=guests, person__isnull=False).count() == 0


def set_in(path, value):
    def change(data):
        *parents, last = path
        target = data
        for step in parents:
            target = target[step]
        target[last] = value

    return change


def person(index, **values):
    return lambda data: data["people"][index].update(values)


def without_account(name):
    def change(data):
        data["accounts"] = [a for a in data["accounts"] if a["username"] != name]

    return change


def entry_twice(data):
    entries = data["series"][0]["entries"]
    entries[0]["id"] = 999999
    entries.append(entries[0])


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            lambda data: data["accounts"][1].update(username=data["accounts"][0]["username"]),
            "accounts[1].username: the user name “organiser” is also accounts[0]'s",
        ),
        (
            set_in(("accounts", 0, "groups"), ["Nobody's"]),
            "accounts[0].groups[0]: no group is called “Nobody's” in “groups”",
        ),
        (
            set_in(("accounts", 0, "permissions"), ["tournament.fly"]),
            "accounts[0].permissions[0]: this installation has no permission “tournament.fly” "
            "(is it of a newer version of the app?)",
        ),
        (
            person(1, member="RL01"),
            "people[1].member: the member number “RL01” is also people[0]'s",
        ),
        (
            person(0, member="person-3"),
            "people[0].member: “person-3” starts with “person-”, which names people without a "
            "member number; choose another",
        ),
        (
            # The guest linked since the demo: the last person.
            lambda data: data["people"][20]["players"].append(data["people"][0]["players"][1]),
            "people[20].players[3]: red-lion-winter-open's player “p1” is also people[0]'s",
        ),
        (
            set_in(("series", 0, "placing"), [10, 12]),
            "series[0].placing[1]: 12 points is more than place 1's 10; list the points from "
            "1st place down",
        ),
        (
            set_in(("series", 0, "owner"), "ghost"),
            "series[0].owner: no account is called “ghost”",
        ),
        (
            set_in(("series", 0, "created"), "2026-02-30T10:00:00+00:00"),
            "series[0].created: “2026-02-30T10:00:00+00:00” is not a time",
        ),
        (
            entry_twice,
            "series[0].entries[3].id: the id 999999 is also series[0].entries[0]'s",
        ),
        (
            # Who took back a penalty in Spring Secret, and nothing else.
            without_account("referee"),
            "spring-secret.json: names the user “referee” (organiser, scorer, a sheet's author "
            "or who gave or removed a penalty or award), who has no account in the "
            "installation file",
        ),
        (
            set_in(("tournaments", 3, "rounds", 3, "clock_ends"), "2026-12-05T21:00:00+00:00"),
            "tournaments[3].rounds[3]: a clock is running (clock_ends) or paused (clock_left), "
            "not both",
        ),
        (
            set_in(("tournaments", 3, "rounds", 0, "tables", 1, "code"), "0000AAAA"),
            None,  # a code of its own: no problem
        ),
        (
            lambda data: data["tournaments"][3]["invitations"][0].update(
                used_at="2026-12-01T10:00:00+00:00", withdrawn_at="2026-12-01T11:00:00+00:00"
            ),
            "tournaments[3].invitations[0]: an invitation is used (used_at) or withdrawn "
            "(withdrawn_at), not both",
        ),
    ],
)
def test_the_installation_files_rules_name_the_place_of_each_problem(
    installation, tmp_path, change, problem
):
    from tournament.backup import folder as folders
    from tournament.backup import installation as installation_file

    folder = backup_folder(tmp_path)
    backup = folders.read_backup(folder)
    facts = {}
    for listed in backup.tournaments:
        each = folders.FileFacts.of(listed.name, backup.load(listed))
        facts[each.slug] = each
    data = backup.load(backup.installation)
    assert installation_file.check(data, facts) == []
    change(data)
    found = installation_file.check(data, facts)
    # The first problem is the one made; those that follow from it may come after.
    assert found[:1] == ([problem] if problem else [])
