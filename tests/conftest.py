import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import override_settings
from hypothesis import settings as hypothesis_settings

from tests import commits
from tests.ratelimits import pin_window
from tournament.demo import synthetic_tournament
from tournament.derived import refresh
from tournament.series import services as series
from tournament.shared import derived, public_changes
from tournament.tournament_file import checking, loading, writing


@pytest.fixture
def make_played(db, after_commit):
    """Build a played tournament of the given shape with the factories
    (``tests.factories.played_tournament``) and return it, as its commit left it: its
    views worked out (and its chances, where they apply)."""
    from tests.factories import played_tournament

    def make(*args, **kwargs):
        tournament = played_tournament(*args, **kwargs)
        after_commit()
        tournament.refresh_from_db()
        return tournament

    return make


@pytest.fixture
def make_tournament(db):
    """Import a synthetic tournament of the given shape and return it: for tests of what
    comes in through a tournament file (``make_played`` builds the same rows directly)."""

    def make(players=12, rounds=2, rotations=1, seed=1, slug="test-open", published=True, **kwargs):
        data = synthetic_tournament(
            name="Test Open",
            slug=slug,
            players=[(f"Player {i:04d}", f"Club {i % 3}") for i in range(players)],
            rounds=rounds,
            rotations=rotations,
            seed=seed,
            **kwargs,
        )
        tournament = loading.import_tournament(data).tournament
        if published:
            tournament.published = True
            tournament.save(update_fields=["published"])
        return tournament

    return make


@pytest.fixture(scope="session", autouse=True)
def _tasks_at_once():
    """Tasks run at once, in the process that asks (the immediate backend): a test sees
    the chances its change asked for. The tests of the worker itself run it for real.
    The chances a test's changes ask for play a few hundred finishes: enough to show
    every state of the pages; tests of the figures themselves ask for more."""
    with override_settings(
        PODIUM_FINISHES=400,
        # The read API's rate per address: every test asks from 127.0.0.1 and the count
        # lives in the cache across tests; tests/api sets its own to test the 429.
        API_RATE="1000000/m",
        TASKS={
            "default": {
                "BACKEND": "django_tasks.backends.immediate.ImmediateBackend",
                "QUEUES": ["default"],
            }
        },
    ):
        yield


@pytest.fixture(scope="session", autouse=True)
def _no_guide_built(tmp_path_factory):
    """The site's /guide/ is not built in the tests, whatever a developer's last
    ``run.py demo`` left in var/guide/; a test wanting one builds it (``built_guide``)."""
    with override_settings(GUIDE_ROOT=tmp_path_factory.mktemp("guide") / "not-built"):
        yield


@pytest.fixture(scope="session")
def built_guide(tmp_path_factory):
    """The guide built from docs/ by ``run.py docs``, once per test process (a few seconds)."""
    site = tmp_path_factory.mktemp("guide") / "site"
    completed = subprocess.run(
        [sys.executable, "run.py", "docs", str(site)],
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return site


@pytest.fixture(autouse=True)
def after_commit(request, monkeypatch):
    """In a test inside one transaction (``db``), what runs after a commit in production
    (the views worked out, tasks queued) runs when the test's own code would have
    committed: when its outermost block of its own ends, and before each request of the
    test client (factories' saves outside any block wait for one of these). A change is
    then seen by the next page as it would be. Tests with real commits
    (``transactional_db``, the browser's live server) need nothing. A test that wants the
    work owed so far done now calls the fixture's value."""
    names = request.fixturenames
    marker = request.node.get_closest_marker("django_db")
    in_one_transaction = "db" in names or (
        marker is not None and not marker.kwargs.get("transaction", False)
    )
    if not in_one_transaction or "transactional_db" in names or "live_server" in names:
        yield lambda: None
        return
    request.getfixturevalue("db")
    from django.core.signals import request_started
    from django.db import connections
    from django.db.transaction import Atomic
    from django.test.utils import CaptureQueriesContext

    connection = connections["default"]
    base = len(connection.atomic_blocks)
    wrapper_class = type(connection)
    real_on_commit = wrapper_class.on_commit
    real_exit = Atomic.__exit__
    waiting: list[tuple[object, bool]] = []

    def flush(**_):
        if len(connection.atomic_blocks) > base:
            return
        while waiting or connection.run_on_commit:
            pending = [(func, robust) for _, func, robust in connection.run_on_commit]
            connection.run_on_commit = []
            pending = waiting[:] + pending
            waiting.clear()
            for func, robust in pending:
                try:
                    func()
                except Exception:
                    if not robust:
                        raise
                    logging.getLogger("django.db.backends.base").exception("on_commit failed")

    def on_commit(self, func, robust=False):
        if self is connection and len(self.atomic_blocks) <= base:
            waiting.append((func, robust))
        else:
            real_on_commit(self, func, robust)

    def exit_(self, exc_type, exc_value, traceback):
        result = real_exit(self, exc_type, exc_value, traceback)
        flush()
        return result

    real_capture = CaptureQueriesContext.__enter__

    def capture(self):
        # What a test counts is a page's or a call's queries, not the work owed to the
        # changes its setup made.
        flush()
        return real_capture(self)

    monkeypatch.setattr(wrapper_class, "on_commit", on_commit)
    monkeypatch.setattr(Atomic, "__exit__", exit_)
    monkeypatch.setattr(CaptureQueriesContext, "__enter__", capture)
    request_started.connect(flush, dispatch_uid="tests-after-commit")
    commits.register(flush)
    yield flush
    commits.unregister(flush)
    request_started.disconnect(dispatch_uid="tests-after-commit")


@pytest.fixture(autouse=True)
def _fresh_public_generations(request, monkeypatch):
    # Each test's database is rolled back under the workers' remembered generations, the
    # views they keep and the versions they worked out.
    if request.node.get_closest_marker("world") is not None:
        # In a world, what another test kept in the cache or the series' memory was worked
        # out from its own changes, rolled back since: the same rows, other contents.
        cache.clear()
        series.forget()
    public_changes.forget_generations()
    derived.forget_kept()
    refresh.forget_done()
    # A generation is remembered for the whole test, however slow the machine: the query
    # counts of a page after another must not depend on whether a second went by. (The
    # tests of the second itself move the clock, relative to this.)
    monkeypatch.setattr(public_changes, "GENERATION_SECONDS", 600.0)
    yield
    public_changes.forget_generations()
    derived.forget_kept()
    refresh.forget_done()


@pytest.fixture
def empty_series_cache():
    """The cache and the series workers' own memory (``series.services``) empty before and
    after the test: what a test of the series' figures reads, it computed."""
    cache.clear()
    series.forget()
    yield
    cache.clear()
    series.forget()


@pytest.fixture
def postgresql():
    """The test runs on PostgreSQL only, and is skipped on SQLite: races between two
    writers (two phones tapping at once) need its row locks."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("races between two writers need PostgreSQL's row locks: set DATABASE_URL")


@pytest.fixture
def empty_cache():
    """The cache empty before and after the test: public pages are cached by tournament
    and time of change, and a test's rows rolled back to the same state must not see
    another test's pages; the counts of the rate limits (wrong table codes, the door's
    searches) live there too, and must start from nothing."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def cache_keys():
    """The cache emptied, and a function that counts the keys it holds: what a test of
    what is kept (and what is not) reads. The tests run with the cache in local memory."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    backend = caches["default"]
    assert isinstance(backend, LocMemCache), "the key count reads the local-memory cache"
    cache.clear()

    def count() -> int:
        return len(backend._cache)

    yield count
    cache.clear()


@pytest.fixture
def request_clock(monkeypatch):
    """The clock the log of slow requests reads (``tournament.kernel.slow_requests``),
    set by hand: each reading is ``step`` seconds after the one before, so a request
    (read at its start and its end) takes ``step`` seconds; ``now`` is the last reading."""
    from tournament.kernel import slow_requests

    class Clock:
        def __init__(self) -> None:
            self.now = 1000.0
            self.step = 0.0

        def __call__(self) -> float:
            self.now += self.step
            return self.now

    clock = Clock()
    monkeypatch.setattr(slow_requests, "monotonic", clock)
    return clock


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """On SQLite, each test process's database is a file in memory (/dev/shm where there
    is one), not SQLite's shared in-memory database: the browser tests' live server
    writes from a thread of its own, and connections sharing one in-memory database lock
    whole tables against each other ("database table is locked") without waiting, where
    connections to a file wait for each other up to the settings' timeout, as the site's
    do in production."""
    import tempfile

    from django.conf import settings

    default = settings.DATABASES["default"]
    if default["ENGINE"] == "django.db.backends.postgresql":
        # The tests' commits need not wait for the disk: a test database outlives no crash.
        options = default.setdefault("OPTIONS", {})
        options["options"] = f"{options.get('options', '')} -c synchronous_commit=off".strip()
    if default["ENGINE"] != "django.db.backends.sqlite3":
        yield
        return
    where = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    folder = Path(tempfile.mkdtemp(prefix="lld-tests-", dir=where))
    default.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")
    yield
    shutil.rmtree(folder, ignore_errors=True)


# Real hashing costs ~0.3 s a user; tests only need logins to work.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS


@pytest.fixture
def one_window(monkeypatch):
    """Every count of a rate limit in the test falls in the same window, however slow the
    machine and whenever the minute turns (``tests.ratelimits.pin_window``)."""
    pin_window(monkeypatch)


@pytest.fixture(scope="module", autouse=True)
def _world(request):
    """The standing users and two tournaments, for a module of tests marked ``world``:
    built once per module (on each worker that runs some of its tests) and committed.
    Each test runs in a transaction rolled back at its end, so what a test writes (an
    invitation, the door opened) is gone for the next; everything is deleted once the
    module's tests are done. olive organises the private "club-night" (``seated_round``),
    simon and sarah score it, oscar has no part in it; "test-open" is a published
    tournament of two rounds played and released (``make_played``'s), run by none of
    them. A module adds rows of its own with ``world(more=build)``: ``build`` runs once,
    after the rest is built."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tests.factories import TournamentFactory, make_players, played_tournament, seated_round

    marker = request.node.get_closest_marker("world")
    if marker is None:
        yield
        return
    # Before any test's own transaction: a module's fixtures are set up before its tests'.
    request.getfixturevalue("django_db_setup")
    django_db_blocker = request.getfixturevalue("django_db_blocker")

    def delete_everything() -> None:
        with django_db_blocker.unblock():
            call_command("flush", interactive=False, verbosity=0)

    # The tests' fast hasher (``_fast_password_hashing``), which their logins check with.
    try:
        with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
            users = get_user_model().objects
            olive, simon, sarah, _ = (
                users.create_user(name, password="pw")
                for name in ("olive", "simon", "sarah", "oscar")
            )
            private = TournamentFactory(
                name="Test Open", slug="club-night", owner=olive, scorers=[simon, sarah]
            )
            seated_round(private, make_players(private, 12))
            played_tournament(published=True, rounds=2, slug="test-open")
            more = marker.kwargs.get("more")
            if more is not None:
                more()
    except BaseException:
        # Half a world left committed would break every later world of this worker.
        delete_everything()
        raise
    yield
    delete_everything()


@pytest.fixture
def world(request):
    """The world's tournaments by slug, in a test marked ``world``; None in any other."""
    if request.node.get_closest_marker("world") is None:
        return None
    request.getfixturevalue("db")
    from tournament.models import Tournament

    return {tournament.slug: tournament for tournament in Tournament.objects.all()}


def _standing_user(world, django_user_model, username):
    if world is not None:
        return django_user_model.objects.get(username=username)
    return django_user_model.objects.create_user(username, password="pw")


@pytest.fixture
def organiser(world, django_user_model):
    return _standing_user(world, django_user_model, "olive")


@pytest.fixture
def scorer(world, django_user_model):
    return _standing_user(world, django_user_model, "simon")


@pytest.fixture
def second_scorer(world, django_user_model):
    return _standing_user(world, django_user_model, "sarah")


@pytest.fixture
def outsider(world, django_user_model):
    return _standing_user(world, django_user_model, "oscar")


def _client_for(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def _backs_up(request):
    """After a test that drives the site through a web client or a browser: every
    tournament in the database still exports to a file that would import again (what
    ``backup`` checks), whatever the test's requests did. A test that builds a broken
    tournament on purpose says so with ``@pytest.mark.unrestorable("why")``."""
    # The live server of the browser tests sees only committed rows.
    live = "live_server" in request.fixturenames
    request.getfixturevalue("transactional_db" if live else "db")
    yield
    if request.node.get_closest_marker("unrestorable"):
        return
    from tournament.models import Tournament

    for tournament in Tournament.objects.order_by("pk"):
        problems = checking.check_bounded(writing.export_tournament(tournament), limit=5)
        assert not problems.shown, (
            f"“{tournament.slug}” would not restore from its backup: {list(problems.shown)}"
        )


@pytest.fixture
def client(client, _backs_up):
    return client


@pytest.fixture
def organiser_client(organiser, _backs_up):
    return _client_for(organiser)


@pytest.fixture
def scorer_client(scorer, _backs_up):
    return _client_for(scorer)


@pytest.fixture
def second_scorer_client(second_scorer, _backs_up):
    return _client_for(second_scorer)


@pytest.fixture
def outsider_client(outsider):
    return _client_for(outsider)


@pytest.fixture
def seated_round(db, world, organiser, scorer, second_scorer):
    """A private tournament of 12 players owned by ``organiser`` with two scorers, whose
    round 1 is seated at three tables of four and started, no sheets entered yet."""
    from tests.factories import TournamentFactory, make_players, seated_round

    if world is not None:
        return world["club-night"].rounds.get(number=1)
    # One block: the views are worked out once, for the seated round.
    with transaction.atomic():
        tournament = TournamentFactory(
            name="Test Open", slug="club-night", owner=organiser, scorers=[scorer, second_scorer]
        )
        return seated_round(tournament, make_players(tournament, 12))


@pytest.fixture
def organising_granted(settings):
    """``ORGANISERS=granted`` (docs/deploy.md, "Who may organise"): the standing organiser
    (olive) still owns ``seated_round``'s tournament, as an account owns one made before
    the setting, but is not granted "may organise", so keeps no register of people."""
    settings.ORGANISERS = "granted"


@pytest.fixture
def hidden_person(db, django_user_model):
    """A person of the register whose only tournament is another organiser's, unpublished:
    their name, club and member number are for the register's keepers alone."""
    from tests.factories import PlayerFactory, TournamentFactory
    from tournament.people import services as people

    other = django_user_model.objects.create_user("gloria", password="pw")
    private = TournamentFactory(name="Gloria's Private Night", owner=other, published=False)
    person = people.add_person("Annabel Hidden", "Secret Club", "SECRET7")
    people.link(PlayerFactory(tournament=private, name="Annabel Hidden"), person)
    return person


@pytest.fixture
def house_rules_installation(db, organiser):
    """An installation to back up: a tournament under house rules seating tables of 4 and
    5 (``red-lion-house``, one round played), a player of it linked to a person of the
    register, and a series counting it."""
    from tournament.models import Series, SeriesTournament

    stakes = {"dealer_stake": 4, "other_stake": 2}
    numbers = {
        "4": {"cards_each": 10, "table_cards": 12, **stakes, "last_in_prize": 4, "break_even": 10},
        "5": {"cards_each": 8, "table_cards": 12, **stakes, "last_in_prize": 6, "break_even": 8},
    }
    refs = [f"p{i}" for i in range(1, 5)]
    tournament = loading.import_tournament(
        {
            "format": "lld-tournament/4",
            "name": "Red Lion House Night",
            "slug": "red-lion-house",
            "owner": organiser.username,
            "published": True,
            "scoring": "classic-stakes",
            "rule_set": {"left_over_to": "dealer", "tables": numbers},
            "table_sizes": [4, 5],
            "players": [
                {"id": "p1", "name": "Ann Smith", "club": "Red Lion", "member": "RL01"},
                *({"id": ref, "name": f"Player {ref}"} for ref in refs[1:]),
            ],
            "rounds": [
                {
                    "number": 1,
                    "released": True,
                    "tables": [
                        {
                            "number": 1,
                            "seats": refs,
                            "deals": [{"won": [10, 8, 6, 4], "last_in": 2, "left_over": 24}],
                        }
                    ],
                }
            ],
        }
    ).tournament
    league = Series.objects.create(name="Red Lion League", slug="red-lion-league", owner=organiser)
    SeriesTournament.objects.create(series=league, tournament=tournament, accepted=True)
    return tournament


@pytest.fixture
def confirm_at_table(seated_round):
    """``seated_round``'s tournament, where a second phone at a table may confirm a sheet
    by re-typing it blind."""
    tournament = seated_round.tournament
    tournament.table_confirm = True
    tournament.save()
    return tournament


# CI runs the property tests on a fixed set of examples, so a submission's result does not
# depend on luck; local runs keep exploring new examples.
hypothesis_settings.register_profile("ci", derandomize=True, deadline=None)
hypothesis_settings.register_profile("explore", max_examples=1000, deadline=None)
if os.environ.get("CI") == "true":
    hypothesis_settings.load_profile("ci")
