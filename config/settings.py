"""Settings for every environment, read from environment variables.

Unset, everything falls back to a local development setup: a SQLite file in the
project folder and DEBUG on. ``DJANGO_DEBUG=0`` is production: HTTPS only (behind a
reverse proxy that terminates TLS), secure cookies, HSTS, hashed static files, and a
secret key that must come from the environment. docs/deploy.md lists every variable.
"""

from datetime import timedelta
from pathlib import Path

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config.env import env
from config.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env.bool("DJANGO_DEBUG", default=True)

DEV_SECRET_KEY = "dev-only-insecure-key-change-me-in-production"
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default=DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is not set, and DJANGO_DEBUG is off: production needs a secret "
        "key of its own. Set DJANGO_SECRET_KEY to a long random value, for example the "
        "output of: python -c 'from django.core.management.utils import "
        "get_random_secret_key as k; print(k())'"
    )

ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
# Only needed when forms are posted from another origin than the one the page came from
# (a proxy that rewrites the Host header, say): https://scores.example.org
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

# The address of this site as the scorers' phones reach it, for the QR codes on printed
# score sheets: https://scores.example.org, or http://192.168.1.20:8000 for a laptop on
# the pub's wifi. Unset, the address the sheets were printed from is used.
PUBLIC_BASE_URL = env.str("PUBLIC_BASE_URL", default="").rstrip("/")
if PUBLIC_BASE_URL and not PUBLIC_BASE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(
        f"PUBLIC_BASE_URL={PUBLIC_BASE_URL!r} is not an address starting http:// or https://."
    )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "csp",
    "django_htmx",
    "template_partials",
    "django_tables2",
    # The task queue: Django's task framework (backported) with its queue in the database.
    "django_tasks",
    "django_tasks_db",
    # The public read API (/api/v1/, tournament/api/, docs/api.md): its views, its OpenAPI
    # schema made from the serializers that answer, and the reference's own assets.
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "tournament",
]

MIDDLEWARE = [
    # Cross-Origin-Opener-Policy only on HTTPS or localhost, where browsers honour it.
    "tournament.kernel.origin.OpenerPolicyWhereHonouredMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Production serves the collected static files itself (whitenoise); runserver and the
    # tests serve them from static/ and need no collectstatic.
    *([] if DEBUG else ["whitenoise.middleware.WhiteNoiseMiddleware"]),
    # A request running long is logged, with its URL pattern (not its address), and the
    # one a worker serves is known to the worker's timeout hook (config/gunicorn.py).
    "tournament.kernel.slow_requests.SlowRequestLogMiddleware",
    # Anonymous visitors' public pages straight from the cache, no other middleware but the
    # timing above and no database: after the HTTPS redirect, before sessions
    # (tournament/public/cache.py).
    "tournament.public.cache.PublicPageCacheMiddleware",
    # The read API's answers the same way, and its CORS, rate limit and errors
    # (tournament/api/cache.py).
    "tournament.api.cache.ApiMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tournament.kernel.middleware.PrivateWhenLoggedInMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.database_url(
        "DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env.int("DATABASE_CONN_MAX_AGE", default=0),
        # A kept connection that the database closed meanwhile is replaced, not used.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Two scorers saving at once: a write transaction takes SQLite's write lock when it
    # begins, so the second waits its turn (up to the timeout) instead of failing with
    # "database is locked" when its read turns into a write half-way.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("transaction_mode", "IMMEDIATE")
    DATABASES["default"]["OPTIONS"].setdefault("timeout", 20)

# Public pages are cached (tournament/public/cache.py). Local memory by default; several
# app servers share a cache server: CACHE_URL=redis://host:6379/0. Redis down or full
# costs speed, never a page: each process then uses its own memory (tournament/kernel/cache.py).
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    CACHES["default"]["BACKEND"] = "tournament.kernel.cache.FallbackRedisCache"

# Heavy work (the podium chances, the format advisor's larger questions) runs as tasks
# in a worker process (``manage.py run_worker``, started by run.py serve and demo), never
# in a request; the queue is a table of the database, so no other server is needed.
# "immediate" runs each task at once in the process that asks (the tests do).
TASKS_BACKEND = env.choice("TASKS_BACKEND", ("database", "immediate"), default="database")
TASKS = {
    "default": {
        "BACKEND": {
            "database": "django_tasks_db.DatabaseBackend",
            "immediate": "django_tasks.backends.immediate.ImmediateBackend",
        }[TASKS_BACKEND],
        "QUEUES": ["default"],
    }
}

# Webhooks (docs/webhooks.md) are never sent to a private, loopback, link-local, shared
# (carrier-grade NAT), reserved or unspecified address, nor to an IPv6 address that maps
# one, unless this is on: a guild's own receiver on the pub's network, or the tests'.
WEBHOOKS_ALLOW_PRIVATE = env.bool("WEBHOOKS_ALLOW_PRIVATE", default=False)

# Finishes simulated for the stored podium chances (docs/podium-chances.md): 10,000
# puts a chance within about a point of a percentage; fewer take the worker less time.
PODIUM_FINISHES = env.int("PODIUM_FINISHES", default=10_000)

# Photos of paper score sheets read at the desk (docs/photos.md): the most a photo may
# weigh as sent, and the most pixels it may hold once decoded (a phone's 12-megapixel
# photo is well inside both; a 48-megapixel one is read at its lower resolution).
PHOTO_MAX_BYTES = env.int("PHOTO_MAX_BYTES", default=15 * 1024 * 1024)
PHOTO_MAX_PIXELS = env.int("PHOTO_MAX_PIXELS", default=50_000_000)
# The most photos one "Read photos" of a round's desk takes at once.
PHOTO_MAX_FILES = env.int("PHOTO_MAX_FILES", default=40)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = env.str("DJANGO_TIME_ZONE", default="Europe/London")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic puts the files that whitenoise serves in production.
STATIC_ROOT = Path(env.str("DJANGO_STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
# The guide (docs/, built by MkDocs): `run.py demo` and `run.py serve` build it here when
# it is missing or older than docs/, and the app serves it at /guide/ (kernel.guide).
GUIDE_ROOT = Path(env.str("DJANGO_GUIDE_ROOT", default=str(BASE_DIR / "var" / "guide")))

# Sessions stay in the database (Django's default), so any app server can serve any
# request.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "organiser:home"
LOGOUT_REDIRECT_URL = "home"

# Email, for password reset links only: smtp+tls://user:password@smtp.example.org:587
# (django-environ's EMAIL_URL). Unset, the password reset pages say to ask the
# organiser or an administrator instead of promising an email that never comes.
EMAIL_URL = env.str("EMAIL_URL", default="")
PASSWORD_RESET_BY_EMAIL = bool(EMAIL_URL)
if PASSWORD_RESET_BY_EMAIL:
    try:
        # EMAIL_BACKEND, EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_USE_TLS, ...
        globals().update(env.email_url_config(EMAIL_URL))
    except (ImproperlyConfigured, ValueError) as error:
        raise ImproperlyConfigured(
            f"EMAIL_URL is not an email address to send through ({error}): use "
            "smtp+tls://user:password@smtp.example.org:587"
        ) from None
DEFAULT_FROM_EMAIL = env.str("DJANGO_DEFAULT_FROM_EMAIL", default="webmaster@localhost")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

# Hashed, compressed static files in production (collectstatic, then whitenoise serves
# them with far-future cache headers).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "tournament.kernel.static_files.ModuleManifestStaticFilesStorage"
    },
}

# Nothing inline: every script and style comes from our own static files, in every
# environment, so that the tests and the browser tests see the production policy.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
    }
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Login rate limiting (django-axes): after LOGIN_FAILURE_LIMIT wrong passwords for one
# user name from one address, that pair is locked out for LOGIN_COOLOFF_MINUTES, right
# password or not. Attempts are kept in the database, so every app server sees them.
# A site on the internet sees a whole pub's wifi as one address, so a player there can
# lock the organiser out: the lock is kept to one user name (everyone else logs in as
# usual), tries during it do not extend it, the organiser unlocks scorers on the Scorers
# page and a superuser anyone in the admin (docs/scorers.md, "Logging in").
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Not its "AXES: BEGIN" line at every start: a command's stderr (manage.py read_sheet's
# refusal, first) is the command's own words.
AXES_VERBOSE = False
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Our own page, which says how long is left of the wait.
AXES_LOCKOUT_CALLABLE = "tournament.accounts.views.login.locked_out"
# Behind a reverse proxy every request comes from the proxy's address: read the client's
# from the header the proxy sets (docs/deploy.md), e.g. HTTP_X_FORWARDED_FOR,REMOTE_ADDR.
AXES_IPWARE_META_PRECEDENCE_ORDER = env.list(
    "AXES_IPWARE_META_PRECEDENCE_ORDER", default=["REMOTE_ADDR"]
)
AXES_IPWARE_PROXY_COUNT = env.int("AXES_IPWARE_PROXY_COUNT", default=None)

# Wrong table codes are rate limited per address (django-ratelimit, sheets.at_table),
# counted in the cache: with Redis (CACHE_URL) every app server shares the count; with the
# default in-process cache each gunicorn worker of `run.py serve` counts on its own, as
# every worker does while Redis is down or full (docs/deploy.md says why). The address
# is read as the login lockout reads it, behind a proxy too.
RATELIMIT_IP_META_KEY = "axes.helpers.get_client_ip_address"

# The read API (docs/api.md): anonymous, read-only, answered as JSON, its errors as
# application/problem+json (tournament/api/problems.py).
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "tournament.api.problems.exception_handler",
    # A player is {pk} in the schema's path, as in the URL pattern.
    "SCHEMA_COERCE_PATH_PK": False,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Laugh and Lie Down scores: public read API",
    "DESCRIPTION": (
        "What the public pages show, as JSON: published tournaments, their standings, "
        "released rounds and public seating, players, series and careers. Anonymous and "
        "read-only. docs/api.md has the whole guide."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": False,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournament.api.views.document_headers",
    ],
    "TAGS": [
        {"name": "tournaments", "description": "Published tournaments and what they show."},
        {"name": "series", "description": "Series, their standings and ratings."},
        {"name": "people", "description": "A person's career across tournaments."},
    ],
    "ENUM_NAME_OVERRIDES": {
        "RoundStateEnum": ["released", "seating"],
        "ChancesStateEnum": ["shown", "being worked out", "none"],
    },
}
# Requests one network address may make of the read API: "COUNT/PERIOD" (s, m, h, d),
# django-ratelimit's rate, counted in the cache; the 429 says when to come back
# (Retry-After). 600 a minute: a pub's wifi is one address, and 200 phones of a
# scoreboard app polling every 20 s fit; a script is held to 10 requests a second
# (docs/api.md, "The rate").
API_RATE = env.rate("API_RATE", default="600/m")

# Errors and warnings to stderr, which gunicorn passes on (the terminal of run.py serve,
# the journal of a systemd service): every unhandled error's traceback, with the
# request's method, path and user id (config/logs.py). No ADMINS: nothing is mailed;
# SENTRY_DSN sends reports to Sentry instead.
# Every line escaped, one line a record: a request's path cannot write a line of its
# own (config.logs.EscapingFormatter, the formatter of every handler). gunicorn's own
# lines and its access log (stdout) go through the same handlers: config/gunicorn.py.
LOG_LEVEL = env.log_level("DJANGO_LOG_LEVEL", default="INFO")
LOGGING = logging_config(LOG_LEVEL)
# A request taking longer is logged at WARNING with its URL pattern, user and time
# (tournament/kernel/slow_requests.py); gunicorn kills a worker at its --timeout (30 s).
SLOW_REQUEST_SECONDS = 10

# Error reports to Sentry (docs/deploy.md), without personal data; nothing when unset.
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    from config.logs import start_error_reports

    start_error_reports(SENTRY_DSN)

# A laptop serving the pub's wifi (``run.py serve``) has no TLS: production otherwise
# (debug off, a secret key of its own), but no HTTPS redirect, HSTS or secure-only
# cookies, which would lock every phone out over plain HTTP.
PLAIN_HTTP = env.bool("DJANGO_PLAIN_HTTP", default=False)

# Who may create tournaments and series and keep the register of people
# (permissions.may_organise, docs/deploy.md "Who may organise"): "anyone" with an account,
# or only those "granted" it (the Organisers group; superusers always). A laptop's owner
# makes every account on it (run.py demo and serve: anyone); a server on the internet
# gives its scorers accounts too, who must not make themselves organisers (granted).
ORGANISERS = env.choice(
    "ORGANISERS", ("anyone", "granted"), default="anyone" if DEBUG or PLAIN_HTTP else "granted"
)

if not DEBUG and not PLAIN_HTTP:
    # TLS ends at the reverse proxy, which tells us the original scheme in a header that
    # it sets itself, never passing on the client's. "none": trust no header.
    _proxy_header = env.str("DJANGO_PROXY_SSL_HEADER", default="X-Forwarded-Proto")
    if _proxy_header.lower() != "none":
        SECURE_PROXY_SSL_HEADER = ("HTTP_" + _proxy_header.upper().replace("-", "_"), "https")
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    # The load balancer asks app servers directly, over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)
    # Turning either off is a decision about the domain, not an oversight for
    # `check --deploy` to keep warning about.
    SILENCED_SYSTEM_CHECKS = [
        check
        for check, on in [
            ("security.W005", SECURE_HSTS_INCLUDE_SUBDOMAINS),
            ("security.W021", SECURE_HSTS_PRELOAD),
        ]
        if not on
    ]
