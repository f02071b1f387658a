import io
from collections import Counter

from django.contrib.auth.models import User
from django.core.management import call_command

from tournament.demo import demo_tournament, table_sizes
from tournament.models import Tournament
from tournament.services import tournament_file
from tournament.services.standings import tournament_standings


def test_the_demo_file_is_valid():
    assert tournament_file.check(demo_tournament()) == []


def test_table_sizes_stay_close_to_five():
    assert table_sizes(23) == [5, 5, 5, 4, 4]
    assert table_sizes(22) == [5, 5, 4, 4, 4]
    assert table_sizes(25) == [5] * 5
    assert table_sizes(12) == [4, 4, 4]


def test_load_demo_gives_a_realistic_evening_with_ties(db):
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    call_command("load_demo", stdout=out)  # loading twice replaces the first
    assert Tournament.objects.count() == 1
    assert "http://127.0.0.1:8000/t/red-lion-winter-open/" in out.getvalue()
    result = tournament_standings(Tournament.objects.get())
    rows = result.standings.rows
    assert len(rows) == 23
    data = demo_tournament()
    sizes = Counter(len(t["seats"]) for r in data["rounds"] for t in r["tables"])
    assert set(sizes) == {4, 5}
    assert len(data["rounds"]) == 4
    # Ties on points decided by tiebreaks, including the winner.
    decided = [row.decided_by for row in rows if row.decided_by not in (None, "points")]
    assert len(decided) >= 3
    assert len(set(decided)) >= 2  # more than one tiebreak key is seen at work
    assert rows[1].decided_by == "last_in"  # the winner is equal on points with the runner-up
    assert any(row.rounds.count(None) == 1 for row in rows)  # someone missed a round
    assert len(result.incomplete_tables) == 1


def test_the_demo_accounts_log_in_with_the_demo_password(db):
    call_command("load_demo", stdout=io.StringIO())
    tournament = Tournament.objects.get()
    assert tournament.owner.username == "organiser"
    assert sorted(tournament.scorers.values_list("username", flat=True)) == ["checker", "scorer"]
    accounts = list(User.objects.filter(username__in=["organiser", "scorer", "checker"]))
    assert len(accounts) == 3
    for user in accounts:
        assert user.check_password("lld-demo"), user.username
        assert not user.check_password("lld-dem0"), user.username


def test_load_demo_can_migrate_first(db):
    out = io.StringIO()
    call_command("load_demo", "--migrate", "--no-users", stdout=out)
    assert "No migrations to apply" in out.getvalue()
    assert out.getvalue().index("No migrations to apply") < out.getvalue().index("Loaded the demo")
    assert Tournament.objects.get().slug == "red-lion-winter-open"
