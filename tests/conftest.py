import os

import pytest
from django.core.cache import cache
from hypothesis import settings as hypothesis_settings

from tournament.demo import synthetic_tournament
from tournament.series import services as series
from tournament.shared import public_changes
from tournament.tournament_file import checking, loading, writing


@pytest.fixture
def make_played(db):
    """Build a played tournament of the given shape with the factories
    (``tests.factories.played_tournament``) and return it."""
    from tests.factories import played_tournament

    return played_tournament


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


@pytest.fixture(autouse=True)
def _fresh_public_generations(monkeypatch):
    # Each test's database is rolled back under the workers' remembered generations.
    public_changes.forget_generations()
    # A generation is remembered for the whole test, however slow the machine: the query
    # counts of a page after another must not depend on whether a second went by. (The
    # tests of the second itself move the clock, relative to this.)
    monkeypatch.setattr(public_changes, "GENERATION_SECONDS", 600.0)
    yield
    public_changes.forget_generations()


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


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # Real hashing costs ~0.3 s a user; tests only need logins to work.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("olive", password="pw")


@pytest.fixture
def scorer(django_user_model):
    return django_user_model.objects.create_user("simon", password="pw")


@pytest.fixture
def second_scorer(django_user_model):
    return django_user_model.objects.create_user("sarah", password="pw")


@pytest.fixture
def outsider(django_user_model):
    return django_user_model.objects.create_user("oscar", password="pw")


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
def seated_round(db, organiser, scorer, second_scorer):
    """A private tournament of 12 players owned by ``organiser`` with two scorers, whose
    round 1 is seated at three tables of four and started, no sheets entered yet."""
    from tests.factories import TournamentFactory, make_players, seated_round

    tournament = TournamentFactory(
        name="Test Open", slug="club-night", owner=organiser, scorers=[scorer, second_scorer]
    )
    return seated_round(tournament, make_players(tournament, 12))


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
