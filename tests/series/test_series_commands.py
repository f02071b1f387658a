"""The series commands: ``create_series`` (and ``--add``/``--remove``) with every bad input
refused by name, ``series_standings`` and ``ratings`` in their exact JSON shapes, readable
text and CSV, and nothing unreleased or unconfirmed in any of them."""

import csv
import io
import json
from fractions import Fraction

import pytest
from django.core.management import CommandError, call_command

from tests.factories import seated_round
from tournament.models import Person, Player, Round, Series, SeriesTournament
from tournament.series import services as series
from tournament.series.export import figure

pytestmark = pytest.mark.usefixtures("empty_series_cache")


def run(*args):
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def month(make_played):
    """Three published tournaments of 7 players, six of them linked to the same people
    (M01 … M05 and one without a member number), the seventh unlinked."""
    people = [
        Person.objects.create(name=f"Member {i}", club="Red Lion", member=f"M0{i}")
        for i in range(1, 6)
    ]
    people.append(Person.objects.create(name="Zoë Nomember", club="Red Lion"))
    made = []
    for index in range(3):
        tournament = make_played(
            players=7,
            rounds=2,
            seed=index + 5,
            slug=f"month-{index + 1}",
            date=f"2026-0{index + 1}-01",
        )
        rotated = people[index:] + people[:index]
        for player, person in zip(
            Player.objects.filter(tournament=tournament).order_by("pk"), rotated, strict=False
        ):
            player.person = person
            player.save()
        made.append(tournament)
    return made


def test_create_series_accepts_every_tournament(month):
    out = run("create_series", "season", "--name", "Season 2026", "month-1", "month-2")
    assert "Created “Season 2026” (season): field-share, 2 tournaments" in out
    made = Series.objects.get(slug="season")
    assert list(made.entries.values_list("tournament__slug", "accepted")) == [
        ("month-1", True),
        ("month-2", True),
    ]
    assert (made.count_best, made.min_events, made.placing[:3]) == (None, 1, [25, 18, 15])


def test_create_series_with_every_setting(month):
    run(
        "create_series", "league", "--name", "League", "--scheme", "placing",
        "--placing", "10, 6,3", "--count-best", "2", "--min-events", "2", "month-3",
    )  # fmt: skip
    made = Series.objects.get(slug="league")
    assert (made.scheme, made.placing, made.count_best, made.min_events) == (
        "placing",
        [10, 6, 3],
        2,
        2,
    )


def test_add_and_remove(month):
    run("create_series", "season", "--name", "Season", "month-1")
    out = run("create_series", "season", "--add", "month-2", "month-3")
    assert "Added to “Season” (season): field-share, 3 tournaments" in out
    run("create_series", "season", "--remove", "month-1")
    made = Series.objects.get(slug="season")
    assert sorted(made.entries.values_list("tournament__slug", flat=True)) == [
        "month-2",
        "month-3",
    ]
    run("create_series", "season", "--add", "--count-best", "1", "month-1")
    made.refresh_from_db()
    assert made.count_best == 1


def test_add_accepts_an_entry_awaiting_consent(month):
    run("create_series", "season", "--name", "Season")
    made = Series.objects.get(slug="season")
    SeriesTournament.objects.create(series=made, tournament=month[0], accepted=False)
    run("create_series", "season", "--add", "month-1")
    assert list(made.entries.values_list("accepted", flat=True)) == [True]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["season", "--name", "S", "month-9"], "no tournament with the slug “month-9”"),
        (["Bad Slug", "--name", "S"], "the slug “Bad Slug”: Lower-case letters"),
        (["season", "month-1"], "--name: a new series needs a name"),
        (["season", "--name", "  "], "--name: the series needs a name"),
        (
            ["season", "--name", "Season \u202e2026"],
            "--name: the name has invisible direction-changing characters",
        ),
        (
            ["season", "--name", "Season\u200b2026"],
            r"--name: the name has an invisible character \(U\+200B ZERO WIDTH SPACE\)",
        ),
        (["season", "--name", "S", "--placing", "25,x"], "--placing: place 2: “x” is not"),
        (["season", "--name", "S", "--placing", "25,-3"], "--placing: place 2: “-3”"),
        (["season", "--name", "S", "--placing", "25,²"], "--placing: place 2: “²” is not"),
        (["season", "--name", "S", "--placing", "5,10"], "--placing: place 2: 10 points is more"),
        (["season", "--name", "S", "--count-best", "0"], "--count-best must be a whole number"),
        (["season", "--name", "S", "--min-events", "-1"], "--min-events must be a whole number"),
        (["season", "--name", "S", "month-1", "month-1"], "named more than once: “month-1”"),
        (["other", "--add", "month-1"], "no series with the slug “other”"),
        (["taken", "--name", "Again"], "a series with the slug “taken” exists already"),
        (["taken", "--add", "month-1"], "already in “taken”: “month-1”"),
        (["taken", "--remove", "month-2"], "not in “taken”: “month-2”"),
        (["taken", "--add"], "--add: name the tournaments to add"),
    ],
)
def test_create_series_refuses_bad_input_by_name(month, args, message):
    Series.objects.create(name="Taken", slug="taken")
    SeriesTournament.objects.create(
        series=Series.objects.get(slug="taken"), tournament=month[0], accepted=True
    )
    before = list(SeriesTournament.objects.values_list("pk", "accepted"))
    with pytest.raises(CommandError, match=message):
        run("create_series", *args)
    assert not Series.objects.filter(slug="season").exists()
    assert list(SeriesTournament.objects.values_list("pk", "accepted")) == before


def test_an_unknown_scheme_is_refused(month):
    with pytest.raises(CommandError, match="invalid choice: 'league'"):
        run("create_series", "season", "--name", "S", "--scheme", "league")


def test_the_commands_name_an_unknown_series(db):
    for command in ("series_standings", "ratings"):
        with pytest.raises(CommandError, match="no series with the slug “nope”"):
            run(command, "nope")


def test_series_standings_json_shape(month):
    run(
        "create_series", "season", "--name", "Season", "--min-events", "3", *[t.slug for t in month]
    )
    data = json.loads(run("series_standings", "season", "--format", "json"))
    assert list(data) == ["series", "scheme", "rows"]
    assert (data["series"], data["scheme"]) == ("season", "field-share")
    standings = series.series_standings(Series.objects.get(slug="season"))
    assert len(data["rows"]) == 6
    for row, expected in zip(data["rows"], standings.rows, strict=True):
        assert list(row) == [
            "rank",
            "shared",
            "member",
            "name",
            "points",
            "events",
            "counted",
            "best",
        ]
        assert row["member"] == expected.person.identifier
        assert row["points"] == round(float(expected.points), 4)
        assert abs(Fraction(row["points"]) - expected.points) < Fraction(1, 10**4)
        assert row["best"] == round(float(expected.best), 4)
        assert row["counted"] == ["month-1", "month-2", "month-3"]
        assert row["events"] == 3
    assert {row["member"] for row in data["rows"]} >= {"M01", "M05"}
    nomember = Person.objects.get(name="Zoë Nomember")
    assert f"person-{nomember.pk}" in {row["member"] for row in data["rows"]}
    ranks = [row["rank"] for row in data["rows"]]
    assert ranks[0] == 1


def test_unranked_last_with_rank_null_and_best_n_dropped(month):
    run("create_series", "season", "--name", "S", "--count-best", "1", "--min-events", "2",
        "month-1", "month-2")  # fmt: skip
    # Member 1 plays both months, but a person seen only in month-3 is not in the series:
    # make one person play one month only.
    Player.objects.filter(tournament=month[1], person__member="M01").update(person=None)
    data = json.loads(run("series_standings", "season", "--format", "json"))
    assert data["rows"][-1]["member"] == "M01"
    assert data["rows"][-1]["rank"] is None
    assert all(row["rank"] is not None for row in data["rows"][:-1])
    assert all(len(row["counted"]) == 1 for row in data["rows"])


def test_ratings_json_shape(month):
    run("create_series", "season", "--name", "Season", *[t.slug for t in month])
    data = json.loads(run("ratings", "season", "--format", "json"))
    assert list(data) == ["series", "rows"]
    assert data["series"] == "season"
    ratings = series.series_ratings(Series.objects.get(slug="season"))
    assert [row["rank"] for row in data["rows"]] == list(range(1, 7))
    for row, expected in zip(data["rows"], ratings.rows, strict=True):
        assert list(row) == [
            "rank", "member", "name", "mu", "sigma", "rating", "matches", "provisional"
        ]  # fmt: skip
        assert row["member"] == expected.person.identifier
        assert (row["mu"], row["sigma"], row["rating"]) == tuple(
            round(value, 4) for value in (expected.mu, expected.sigma, expected.rating)
        )
        assert (row["matches"], row["provisional"]) == (6, False)
    values = [row["rating"] for row in data["rows"]]
    assert values == sorted(values, reverse=True)


def test_text_and_csv_are_readable(month):
    run("create_series", "season", "--name", "Season", *[t.slug for t in month])
    text = run("series_standings", "season")
    assert text.startswith("Season — Field share")
    assert "3 tournaments; all results count; ranked from 1 tournament." in text
    assert "Zoë Nomember" in text
    rows = list(csv.DictReader(io.StringIO(run("series_standings", "season", "--format", "csv"))))
    assert len(rows) == 6
    assert set(rows[0]) >= {"rank", "member", "name", "points", "month-1", "month-3"}
    assert float(rows[0]["points"]) == pytest.approx(
        sum(float(rows[0][slug]) for slug in ("month-1", "month-2", "month-3")), abs=1e-3
    )
    text = run("ratings", "season")
    assert "ratings (mu − 3 × sigma; provisional under 5 matches)" in text
    rows = list(csv.DictReader(io.StringIO(run("ratings", "season", "--format", "csv"))))
    assert [row["rank"] for row in rows] == ["1", "2", "3", "4", "5", "6"]
    assert {row["provisional"] for row in rows} == {"no"}


def test_a_name_that_looks_like_a_formula_is_neutralised(month):
    Person.objects.filter(member="M01").update(name="=HYPERLINK(1)")
    run("create_series", "season", "--name", "Season", "month-1")
    assert "'=HYPERLINK(1)" in run("series_standings", "season", "--format", "csv")
    assert "'=HYPERLINK(1)" in run("ratings", "season", "--format", "csv")


def test_nothing_unreleased_or_unconfirmed_in_any_command(month):
    run("create_series", "season", "--name", "Season", *[t.slug for t in month])
    outputs = {
        (command, fmt): run(command, "season", "--format", fmt)
        for command in ("series_standings", "ratings")
        for fmt in ("text", "csv", "json")
    }
    # A third round seated and released but with no sheet confirmed, and a fourth
    # round fully played but not released: neither shows anywhere.
    field = list(Player.objects.filter(tournament=month[2]).order_by("pk"))
    seated_round(month[2], field, number=3, released=True)
    seated_round(month[2], field, number=4, released=False, deals=lambda n, size: [])
    last = Round.objects.get(tournament=month[2], number=4)
    from tests.factories import a_deal, record_deal

    for table in last.tables.all():
        row = a_deal(table.size)
        record_deal(table, 1, row["won"], row["last_in"], row["left_over"])
    for key, before in outputs.items():
        assert run(key[0], "season", "--format", key[1]) == before, key
    last.released = True
    last.save()
    assert run("ratings", "season", "--format", "json") != outputs[("ratings", "json")]


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Fraction(25, 32), 0.7813),  # 0.78125: a half rounds up, not to the even 0.7812
        (Fraction(-25, 32), -0.7813),
        (Fraction(200, 3), 66.6667),
        (Fraction(1, 3), 0.3333),
        (13.123456, 13.1235),
        (0.00005, 0.0001),
        (-2.71828, -2.7183),
        (Fraction(0), 0.0),
    ],
)
def test_figures_in_files_round_to_four_places_halves_away_from_zero(value, shown):
    assert figure(value) == shown
