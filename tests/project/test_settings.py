"""Settings from the environment: production hardening with DJANGO_DEBUG=0, and loud
failures on missing or mistyped values.

Settings are read once, at start-up: each environment's are read in a fresh process,
all of them in one child process that runs the settings module afresh under each
(``settings_under``); ``check --deploy``, serving and Sentry each start Django of their
own.
"""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.core.management.utils import get_random_secret_key
from whitenoise.storage import CompressedManifestStaticFilesStorage

from tests.environment import ROOT, environment, manage, run, settings_under
from tournament.kernel.static_files import ModuleManifestStaticFilesStorage


def production(**values: str) -> dict[str, str]:
    defaults = {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": get_random_secret_key(),
        "DJANGO_ALLOWED_HOSTS": "example.org",
    }
    return environment(**(defaults | values))


BAD_VALUES = [
    ("DJANGO_DEBUG", "flase", "DJANGO_DEBUG='flase' is not a yes/no value"),
    (
        "DJANGO_SECURE_HSTS_PRELOAD",
        "maybe",
        "DJANGO_SECURE_HSTS_PRELOAD='maybe' is not a yes/no",
    ),
    ("DATABASE_CONN_MAX_AGE", "1m", "DATABASE_CONN_MAX_AGE='1m' is not a whole number"),
    (
        "DJANGO_SECURE_HSTS_SECONDS",
        "1y",
        "DJANGO_SECURE_HSTS_SECONDS='1y' is not a whole number",
    ),
    ("LOGIN_FAILURE_LIMIT", "five", "LOGIN_FAILURE_LIMIT='five' is not a whole number"),
    ("CACHE_URL", "memcached://cache:11211", "CACHE_URL: Invalid cache schema memcached"),
    ("DJANGO_LOG_LEVEL", "loud", "DJANGO_LOG_LEVEL='loud' is not a log level"),
    ("DATABASE_URL", "mongodb://u:secret@db/lld", "DATABASE_URL is not a database URL"),
]
DOLLAR_KEY = "$" + get_random_secret_key()
REDIS_URLS = ("redis://cache.internal:6379/0", "rediss://:pw@cache.internal:6380/1")


def environments() -> dict[str, dict[str, str]]:
    """The environments whose settings the tests read, by name."""
    without_key = production()
    del without_key["DJANGO_SECRET_KEY"]
    return {
        "production": production(),
        "production adjusted": production(
            DJANGO_SECURE_SSL_REDIRECT="0",
            DJANGO_PROXY_SSL_HEADER="none",
            DJANGO_SECURE_HSTS_SECONDS="3600",
            DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS="no",
            DJANGO_SECURE_HSTS_PRELOAD="false",
            DJANGO_CSRF_TRUSTED_ORIGINS="https://scores.example.org, https://example.org",
            DJANGO_ALLOWED_HOSTS="example.org, 10.0.0.5",
            LOGIN_FAILURE_LIMIT="10",
            LOGIN_COOLOFF_MINUTES="30",
            AXES_IPWARE_META_PRECEDENCE_ORDER="HTTP_X_FORWARDED_FOR,REMOTE_ADDR",
            AXES_IPWARE_PROXY_COUNT="0",
            CACHE_URL="redis://cache.internal:6379/1",
            DATABASE_URL="postgres://lld@db.internal:5432/lld",
            DATABASE_CONN_MAX_AGE="60",
        ),
        "development": environment(),
        "production without a key": without_key,
        "production with the development key": production(
            DJANGO_SECRET_KEY=settings.DEV_SECRET_KEY
        ),
        **{f"bad {name}": production(**{name: value}) for name, value, _ in BAD_VALUES},
        "a key starting with $": production(DJANGO_SECRET_KEY=DOLLAR_KEY),
        **{f"redis {url}": production(CACHE_URL=url) for url in REDIS_URLS},
        "log level in lower case": production(DJANGO_LOG_LEVEL="warning"),
        "sqlite": environment(DATABASE_URL="sqlite:////srv/lld/db.sqlite3"),
        "a base url without a scheme": environment(PUBLIC_BASE_URL="scores.example.org"),
        "a base url": environment(PUBLIC_BASE_URL="https://scores.example.org/"),
    }


@pytest.fixture(scope="module")
def under() -> dict[str, dict[str, object]]:
    """The settings under each of ``environments()``, read in one child process."""
    return settings_under(environments())


def stopped(under: dict[str, dict[str, object]], name: str) -> str:
    """What the settings stopped the start-up with under environment ``name``."""
    assert "error" in under[name], f"the settings started under {name}"
    return str(under[name]["error"])


def test_check_deploy_passes_with_the_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=production())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_fails_on_the_development_settings():
    """It is the production settings that pass, not a check that passes everything."""
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=environment())
    assert result.returncode != 0
    assert "security.W018" in result.stderr  # DEBUG on


def test_production_refuses_to_start_without_a_secret_key(under):
    assert "ImproperlyConfigured: DJANGO_SECRET_KEY is not set, and DJANGO_DEBUG is off" in stopped(
        under, "production without a key"
    )


def test_production_refuses_the_development_secret_key(under):
    assert "DJANGO_SECRET_KEY is not set" in stopped(under, "production with the development key")


def test_production_hardening(under):
    values = under["production"]
    assert values["DEBUG"] is False
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert values["SESSION_COOKIE_SECURE"] is True
    assert values["CSRF_COOKIE_SECURE"] is True
    assert values["SECURE_HSTS_SECONDS"] == 31_536_000
    assert values["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert values["SECURE_HSTS_PRELOAD"] is True
    assert values["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert values["X_FRAME_OPTIONS"] == "DENY"
    assert values["SECURE_REFERRER_POLICY"] == "same-origin"
    middleware = values["MIDDLEWARE"]
    assert middleware[:3] == [
        # First, so that it sees the response last: COOP only where browsers honour it.
        "tournament.kernel.origin.OpenerPolicyWhereHonouredMiddleware",
        "django.middleware.security.SecurityMiddleware",
        "whitenoise.middleware.WhiteNoiseMiddleware",
    ]
    assert middleware[-1] == "axes.middleware.AxesMiddleware"
    # whitenoise's hashed, compressed files, the modules' imports rewritten to hashed names.
    assert values["STORAGES"]["staticfiles"]["BACKEND"] == (
        "tournament.kernel.static_files.ModuleManifestStaticFilesStorage"
    )
    assert issubclass(ModuleManifestStaticFilesStorage, CompressedManifestStaticFilesStorage)
    assert values["ALLOWED_HOSTS"] == ["example.org"]


def test_production_settings_can_be_adjusted(under):
    values = under["production adjusted"]
    assert values["SECURE_SSL_REDIRECT"] is False
    assert values["SECURE_PROXY_SSL_HEADER"] is None
    assert values["SECURE_HSTS_SECONDS"] == 3600
    assert values["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False
    assert values["SECURE_HSTS_PRELOAD"] is False
    # A deliberate choice, not an oversight for check --deploy to keep warning about.
    assert values["SILENCED_SYSTEM_CHECKS"] == ["security.W005", "security.W021"]
    assert values["CSRF_TRUSTED_ORIGINS"] == ["https://scores.example.org", "https://example.org"]
    assert values["ALLOWED_HOSTS"] == ["example.org", "10.0.0.5"]
    assert values["AXES_FAILURE_LIMIT"] == 10
    assert values["AXES_COOLOFF_TIME"] == "0:30:00"
    assert values["AXES_IPWARE_META_PRECEDENCE_ORDER"] == ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]
    assert values["AXES_IPWARE_PROXY_COUNT"] == 0
    assert values["CACHES"]["default"] == {
        "BACKEND": "tournament.kernel.cache.FallbackRedisCache",
        "LOCATION": "redis://cache.internal:6379/1",
    }
    database = values["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["HOST"], database["NAME"], database["CONN_MAX_AGE"]) == (
        "db.internal",
        "lld",
        60,
    )


def test_development_needs_no_environment_at_all(under):
    values = under["development"]
    assert values["DEBUG"] is True
    assert values["SECRET_KEY"] == settings.DEV_SECRET_KEY
    assert values["SECURE_SSL_REDIRECT"] is False
    assert values["SESSION_COOKIE_SECURE"] is False
    assert values["SECURE_HSTS_SECONDS"] == 0
    assert "whitenoise.middleware.WhiteNoiseMiddleware" not in values["MIDDLEWARE"]
    assert "csp.middleware.CSPMiddleware" in values["MIDDLEWARE"]
    assert values["CONTENT_SECURITY_POLICY"] == settings.CONTENT_SECURITY_POLICY
    assert values["STORAGES"]["staticfiles"]["BACKEND"] == (
        "django.contrib.staticfiles.storage.StaticFilesStorage"
    )
    assert values["CACHES"]["default"]["BACKEND"] == (
        "django.core.cache.backends.locmem.LocMemCache"
    )


@pytest.mark.parametrize(("name", "value", "message"), BAD_VALUES)
def test_a_bad_value_stops_the_server_naming_the_variable(under, name, value, message):
    error = stopped(under, f"bad {name}")
    assert f"ImproperlyConfigured: {message}" in error
    assert "secret" not in error  # a database URL's password is not printed


def test_a_secret_key_is_taken_as_it_is(under):
    """django-environ alone would read a value starting with $ as the name of another
    variable."""
    assert under["a key starting with $"]["SECRET_KEY"] == DOLLAR_KEY


SERVE = """
import django
from django.test import Client
django.setup()
http = Client(HTTP_HOST="example.org")
https = Client(HTTP_HOST="example.org", HTTP_X_FORWARDED_PROTO="https")
health = http.get("/healthz")
redirect = http.get("/accounts/login/")
page = https.get("/accounts/login/")
html = page.content.decode()
start = html.index("/static/css/app.")
css = https.get(html[start:html.index('"', start)])
print(health.status_code, redirect.status_code, redirect.get("Location"), page.status_code)
print(page["Strict-Transport-Security"])
print(page["Content-Security-Policy"])
print(page.cookies["csrftoken"]["secure"])
print(css.status_code, css["Cache-Control"])
"""


def test_production_serves_pages_and_static_files(tmp_path):
    """The production settings end to end: collectstatic, then whitenoise serves the
    hashed files; plain HTTP is redirected except the load balancer's health check."""
    env = production(
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    collected = manage("collectstatic", "--noinput", env=env)
    assert collected.returncode == 0, collected.stderr
    served = run(["-c", SERVE], env)
    assert served.returncode == 0, served.stderr
    lines = served.stdout.splitlines()
    assert lines[0] == "200 301 https://example.org/accounts/login/ 200"
    assert lines[1] == "max-age=31536000; includeSubDomains; preload"
    assert "script-src 'self'" in lines[2]
    assert lines[3] == "True"
    assert lines[4] == "200 max-age=315360000, public, immutable"


def test_a_redis_cache_url_uses_the_cache_that_survives_redis(under):
    """Redis down or full costs speed, never a page (tournament/kernel/cache.py)."""
    for url in REDIS_URLS:
        values = under[f"redis {url}"]
        assert (
            values["CACHES"]["default"]["BACKEND"] == "tournament.kernel.cache.FallbackRedisCache"
        )
        assert values["CACHES"]["default"]["LOCATION"] == url


def test_the_log_level_is_read_in_any_case(under):
    values = under["log level in lower case"]
    assert values["LOGGING"]["root"]["level"] == "WARNING"
    values = under["production"]
    assert values["LOGGING"]["root"] == {"handlers": ["stderr"], "level": "INFO"}
    assert values["LOGGING"]["handlers"]["stderr"]["stream"] == "ext://sys.stderr"


SENTRY = """
import json, sys, types, django
django.setup()
import sentry_sdk
from django.test import Client
from django.test.utils import override_settings
from django.urls import path
client = sentry_sdk.get_client()
options = client.options
print(json.dumps([client.is_active(), options["send_default_pii"],
    options["include_local_variables"], getattr(options["before_send"], "__name__", None)]))
if client.is_active():
    events = []
    class Recorder(sentry_sdk.transport.Transport):
        def capture_envelope(self, envelope):
            events.append(envelope.get_event())
    client.transport.kill()
    client.transport = Recorder(options)
    def broken(request):
        raise RuntimeError("broken on purpose")
    urls = types.ModuleType("broken_urls")
    urls.urlpatterns = [path("broken/", broken)]
    sys.modules["broken_urls"] = urls
    with override_settings(ROOT_URLCONF="broken_urls"):
        web = Client(HTTP_HOST="127.0.0.1", raise_request_exception=False)
        web.cookies["theme"] = "cookie-value"
        data = {"password": "hunter2", "name": "Secret Sam"}
        print(web.post("/broken/?q=query-text", data).status_code)
    sentry_sdk.flush()
    print(json.dumps([event for event in events if event]))
"""


def test_errors_go_to_sentry_only_when_a_dsn_is_set(tmp_path):
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    env = environment(DATABASE_URL=database, DJANGO_SETTINGS_MODULE="config.settings")
    unset = run(["-c", SENTRY], env)
    assert unset.returncode == 0, unset.stderr
    active, *_ = json.loads(unset.stdout)
    assert active is False

    # Nothing listens there: the recording transport below takes the reports instead.
    reported = run(["-c", SENTRY], env | {"SENTRY_DSN": "http://public@127.0.0.1:9/1"})
    assert reported.returncode == 0, reported.stderr
    started, status, events = reported.stdout.splitlines()
    assert json.loads(started) == [True, False, False, "scrubbed"]
    assert status == "500"
    (event,) = json.loads(events)
    assert event["exception"]["values"][-1]["type"] == "RuntimeError"
    assert set(event.get("request", {})) <= {"method"}
    assert "user" not in event
    for private in ("hunter2", "Secret Sam", "cookie-value", "query-text"):
        assert private not in events


def test_every_variable_the_settings_read_is_documented():
    source = (ROOT / "config" / "settings.py").read_text()
    read = set(re.findall(r'env\.\w+\(\s*"([A-Z_]+)"', source))
    assert len(read) >= 15  # the pattern still finds them
    table = (ROOT / "docs" / "deploy.md").read_text()
    documented = set(re.findall(r"^\| `([A-Z_]+)` \|", table, re.MULTILINE))
    assert read == documented


def test_sqlite_writers_wait_for_each_other_instead_of_failing(under):
    # Without IMMEDIATE, a transaction that reads and then writes fails at once with
    # "database is locked" when another scorer's save holds the write lock.
    options = under["sqlite"]["DATABASES"]["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 5


def test_a_public_base_url_must_be_an_address(under):
    error = stopped(under, "a base url without a scheme")
    assert "PUBLIC_BASE_URL='scores.example.org' is not an address" in error
    values = under["a base url"]
    assert values["PUBLIC_BASE_URL"] == "https://scores.example.org"
