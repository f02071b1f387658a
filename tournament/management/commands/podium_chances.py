import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.derived.chances import FINISHES, work_out
from tournament.derived.refresh import at_once
from tournament.models import Player, PodiumChances, Tournament
from tournament.shared.derived import PUBLIC, load_view, percent

# Ten times the stored figures' finishes: a chance to within a tenth of a point.
MAX_FINISHES = 10 * FINISHES


class Command(BaseCommand):
    help = (
        "Print each player's chance of winning and of the top three after the last "
        "released round: the stored figures the pages show, or with --finishes or --seed "
        "figures worked out afresh by Monte Carlo (docs/podium-chances.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["text", "json"], default="text")
        parser.add_argument("--finishes", type=int, default=None)
        parser.add_argument("--seed", type=int, default=None)

    def handle(
        self,
        *args: object,
        slug: str,
        format: str,
        finishes: int | None,
        seed: int | None,
        **options: object,
    ) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament with the slug “{slug}”")
        if finishes is not None and not 1 <= finishes <= MAX_FINISHES:
            raise CommandError(f"--finishes must be 1 to {MAX_FINISHES:,}, not {finishes}")
        if seed is not None and seed < 0:
            raise CommandError(f"--seed must be 0 or more, not {seed}")
        state = load_view(tournament, PUBLIC)
        if state is None or state.made_for < tournament.standings_version:
            at_once(tournament)
            state = load_view(tournament, PUBLIC)
        assert state is not None, slug
        if finishes is None and seed is None:
            if state.chances_key and state.chances is None:
                # Not stored yet (no worker ran): what the worker would do, done now.
                at_once(tournament)
                state = load_view(tournament, PUBLIC)
                assert state is not None, slug
            figures = (
                PodiumChances.objects.filter(tournament=tournament, fingerprint=state.chances_key)
                .values_list("figures", flat=True)
                .first()
                if state.chances_key
                else None
            )
        else:
            figures = work_out(tournament, state, finishes or FINISHES, seed)
        if not figures:
            raise CommandError(
                f"no podium chances for “{slug}”: they are worked out after a released "
                "round while play is left (a planned round, or a table still without a "
                "result) and the tournament is not finished"
            )
        players = {
            pk: (ref, name)
            for pk, ref, name in Player.objects.filter(tournament=tournament).values_list(
                "pk", "ref", "name"
            )
        }
        rows = sorted(
            (
                (players[int(pk)], win, top3, need, reach)
                for pk, (win, top3, need, *reach) in figures["players"].items()
            ),
            key=lambda row: (-row[1], -row[2], row[0][1].casefold()),
        )
        if format == "json":
            listed = [
                {"player": player[0], "name": player[1], "win": win, "top3": top3}
                for player, win, top3, _, _ in rows
            ]
            self.stdout.write(json.dumps(listed, indent=2, ensure_ascii=False))
            return
        left = f"{figures['rounds_left']} round(s) left"
        if figures.get("pending"):
            tables = ", ".join(f"round {r} table {t}" for r, t in figures["pending"])
            left += f" and {tables} still without a result"
        self.stdout.write(
            f"After round {figures['after_round']}, {left}: "
            f"{figures['finishes']:,} simulated finishes"
        )
        width = max(len(player[1]) for player, *_ in rows)
        for (_, name), win, top3, need, reach in rows:
            win_reach, top3_reach = [*reach, True, True][:2]
            needs = f"  needs about {need:+d} on the leader" if need is not None else ""
            self.stdout.write(
                f"{name:<{width}}  win {percent(win, win_reach):>6}  "
                f"top 3 {percent(top3, top3_reach):>6}{needs}"
            )
