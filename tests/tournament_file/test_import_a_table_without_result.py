"""A tournament file whose released round has a table without deals, imported with
``--publish``: its players wait for a result ("no result yet" in the public standings'
JSON, no rank, their points from the rounds with a result), and their podium chances
play that table as still to come: never 0 % for a place they can reach."""

from __future__ import annotations

import json
from io import StringIO

from django.core.management import call_command

from tournament.demo import synthetic_tournament
from tournament.models import Player, Tournament
from tournament.shared.derived import load_view, percent


def test_a_released_table_without_deals_is_a_table_still_to_play(db, tmp_path, after_commit):
    data = synthetic_tournament(
        name="File Open",
        slug="file-open",
        players=[(f"Player {i:02d}", f"Club {i % 3}") for i in range(15)],
        rounds=3,
        seed=4,
    )
    data["planned_rounds"] = 4
    last = data["rounds"][-1]
    missing = last["tables"][0]
    missing["deals"] = []
    path = tmp_path / "file-open.json"
    path.write_text(json.dumps(data))
    call_command("import_tournament", str(path), "--publish", stdout=StringIO())
    after_commit()
    tournament = Tournament.objects.get(slug="file-open")
    assert tournament.published
    waiting_refs = set(missing["seats"])

    out = StringIO()
    call_command("standings", "file-open", "--public", "--format", "json", stdout=out)
    rows = {row["player_id"]: row for row in json.loads(out.getvalue())["rows"]}
    for ref, row in rows.items():
        if ref in waiting_refs:
            assert row["rank"] is None
            assert row["no_result_yet"] == [3]
            assert row["points"] == sum(total for total in row["rounds"] if total is not None)
        else:
            assert row["no_result_yet"] == []
            assert row["rank"] is not None

    out = StringIO()
    call_command("podium_chances", "file-open", "--format", "json", stdout=out)
    chances = {row["player"]: row for row in json.loads(out.getvalue())}
    state = load_view(tournament, "public")
    assert state.chances is not None
    assert state.chances.pending == ((3, missing["number"]),)
    by_ref = dict(Player.objects.filter(tournament=tournament).values_list("ref", "pk"))
    for ref in waiting_refs:
        mine = state.chances.players[by_ref[ref]]
        assert chances[ref]["top3"] == mine.top3
        # Their table and a round still to play: the top three is theirs to reach, and
        # the pages never say "0 %" for it.
        assert mine.top3_reachable
        assert percent(mine.top3, mine.top3_reachable) != "0\u00a0%"
    assert abs(sum(row["win"] for row in chances.values()) - 1.0) < 0.001
