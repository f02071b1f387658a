import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Player, Tournament
from tournament.public.chances import FINISHES, percent, work_out

# Ten times the stored figures' finishes: a chance to within a tenth of a point.
MAX_FINISHES = 10 * FINISHES


class Command(BaseCommand):
    help = (
        "Print each player's chance of winning and of the top three after the last "
        "released round, by Monte Carlo over the rounds left (docs/podium-chances.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["text", "json"], default="text")
        parser.add_argument("--finishes", type=int, default=FINISHES)
        parser.add_argument("--seed", type=int, default=None)

    def handle(
        self,
        *args: object,
        slug: str,
        format: str,
        finishes: int,
        seed: int | None,
        **options: object,
    ) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament with the slug “{slug}”")
        if not 1 <= finishes <= MAX_FINISHES:
            raise CommandError(f"--finishes must be 1 to {MAX_FINISHES:,}, not {finishes}")
        if seed is not None and seed < 0:
            raise CommandError(f"--seed must be 0 or more, not {seed}")
        figures = work_out(tournament, finishes, seed)
        if not figures:
            raise CommandError(
                f"no podium chances for “{slug}”: they are worked out after a released "
                "round while a planned round is left and the tournament is not finished"
            )
        players = {
            pk: (ref, name)
            for pk, ref, name in Player.objects.filter(tournament=tournament).values_list(
                "pk", "ref", "name"
            )
        }
        rows = sorted(
            (
                (players[int(pk)], win, top3, need)
                for pk, (win, top3, need) in figures["players"].items()
            ),
            key=lambda row: (-row[1], -row[2], row[0][1].casefold()),
        )
        if format == "json":
            listed = [
                {"player": player[0], "name": player[1], "win": win, "top3": top3}
                for player, win, top3, _ in rows
            ]
            self.stdout.write(json.dumps(listed, indent=2, ensure_ascii=False))
            return
        self.stdout.write(
            f"After round {figures['after_round']}, {figures['rounds_left']} left: "
            f"{figures['finishes']:,} simulated finishes"
        )
        width = max(len(player[1]) for player, *_ in rows)
        for (_, name), win, top3, need in rows:
            needs = f"  needs about {need:+d} on the leader" if need is not None else ""
            self.stdout.write(
                f"{name:<{width}}  win {percent(win):>6}  top 3 {percent(top3):>6}{needs}"
            )
