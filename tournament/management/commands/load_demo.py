from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from tournament.accounts.services import grant_organising
from tournament.demo import DEMO_SERIES_NAME, DEMO_SERIES_SLUG, demo_du_coeur, demo_season
from tournament.derived.refresh import at_once
from tournament.models import Series, Tournament
from tournament.series.administration import SeriesSettings, create_series
from tournament.tournament_file import loading

DEMO_PASSWORD = "lld-demo"
DEMO_USERS = ("organiser", "scorer", "checker")
DEMO_SITE = "http://127.0.0.1:8000"


class Command(BaseCommand):
    help = (
        "Load (or reload) the demo tournament, the Red Lion Winter Open, the two evenings "
        "before it and their series, the Red Lion Season 2026, with demo accounts "
        f"{', '.join(DEMO_USERS)} (password {DEMO_PASSWORD!r}) for trying the organiser and "
        "scorer pages. For a local demo only."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--site",
            default=DEMO_SITE,
            help=f"the address the demo is served at, for the links it prints ({DEMO_SITE})",
        )
        parser.add_argument("--no-users", action="store_true", help="do not create demo accounts")
        parser.add_argument(
            "--migrate",
            action="store_true",
            help="first bring the database up to date (migrate), in the same process",
        )

    def handle(
        self, *args: object, no_users: bool, migrate: bool, site: str, **options: object
    ) -> None:
        site = site.rstrip("/")
        if migrate:
            call_command("migrate", interactive=False, stdout=self.stdout, stderr=self.stderr)
        tournaments: list[Tournament] = []
        for data in demo_season():
            summary = loading.import_tournament(data, replace=True)
            tournament = summary.tournament
            tournament.published = True
            tournament.planned_rounds = summary.rounds
            tournaments.append(tournament)
        # The demo evening, the last of its season, is under way: one more round is
        # planned than has been played.
        tournament = tournaments[-1]
        tournament.planned_rounds = summary.rounds + 1
        for each in tournaments:
            each.save(update_fields=["published", "planned_rounds"])
        # An evening under another rule set, outside the season: tables of eight and seven.
        other = loading.import_tournament(demo_du_coeur(), replace=True).tournament
        other.published = True
        other.planned_rounds = 3
        other.save(update_fields=["published", "planned_rounds"])
        Series.objects.filter(slug=DEMO_SERIES_SLUG).delete()
        series = create_series(
            DEMO_SERIES_SLUG,
            SeriesSettings(name=DEMO_SERIES_NAME, min_events=2),
            [each.slug for each in tournaments],
        )
        # Worked out here, before the server starts: the demo opens with its standings and
        # podium chances (the task worker beside the server takes the changes after).
        for each in (*tournaments, other):
            at_once(each)
        self.stdout.write(
            f"Loaded the demo “{tournament.name}”: {summary.players} players, "
            f"{summary.rounds} rounds, {summary.deals} deals. "
            f"Standings: {site}{tournament.get_absolute_url()}"
        )
        self.stdout.write(
            f"Its season, “{series.name}” ({len(tournaments)} evenings): {site}/s/{series.slug}/"
        )
        self.stdout.write(
            f"Another evening, “{other.name}”, under {other.rules.name} at classic stakes: "
            f"{site}{other.get_absolute_url()}"
        )
        if no_users:
            return
        users = get_user_model().objects
        accounts = []
        # Hashed once for the three: a hash takes a noticeable part of a second, on purpose.
        password = ""
        for username in DEMO_USERS:
            user = users.filter(username=username).first()
            if user is None:
                password = password or make_password(DEMO_PASSWORD)
                user = users.create(username=username, password=password)
            accounts.append(user)
        # The demo's organiser may organise however ORGANISERS is set; its scorers may not.
        grant_organising(accounts[0])
        for each in (*tournaments, other):
            each.owner = accounts[0]
            each.save(update_fields=["owner"])
        tournament.scorers.add(*accounts[1:])
        series.owner = accounts[0]
        series.save(update_fields=["owner"])
        self.stdout.write(
            f"Log in at {site}/accounts/login/ as “organiser” (organises the "
            "demo) or “scorer” / “checker” (its scorers); the password of each is "
            f"“{DEMO_PASSWORD}”."
        )
