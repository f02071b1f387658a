from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.errors import UserError
from scoring.seating import method_keys
from tournament.models import Player, Tournament
from tournament.rounds import seating, seating_quality
from tournament.rounds import services as rounds


class Command(BaseCommand):
    help = "Seat the next round of a tournament from its active players."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--method", choices=method_keys(), default="balanced")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--start", action="store_true", help="start the round at once")

    def handle(
        self,
        *args: object,
        slug: str,
        method: str,
        seed: int | None,
        start: bool,
        **options: object,
    ) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament with the slug “{slug}”")
        try:
            round_ = seating.seat_next_round(tournament, method=method, seed=seed)
            if start:
                rounds.start_round(round_)
        except UserError as error:
            raise CommandError(str(error)) from None
        names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
        self.stdout.write(f"Round {round_.number} ({'started' if start else 'not started yet'}):")
        for table in round_.tables.prefetch_related("seats").order_by("number"):
            players = ", ".join(names[seat.player_id] for seat in table.seats.all())
            self.stdout.write(f"  table {table.number}: {players}")
        byes = [names[pk] for pk in round_.byes.values_list("player_id", flat=True)]
        if byes:
            self.stdout.write("  sitting out: " + ", ".join(byes))
        figures = seating_quality.round_quality(round_).quality
        self.stdout.write(
            f"Repeat meetings so far: {figures.repeat_meetings} (counting lower bound "
            f"{figures.lower_bound}); most meetings of any pair: {figures.max_meetings}."
        )
