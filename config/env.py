"""Reading settings from environment variables, through django-environ.

django-environ does the parsing (numbers, comma-separated lists, cache URLs). Its lookup
is replaced here, because a typo in a production setting must stop the server rather
than quietly change its behaviour:

- a yes/no value that is neither is an error (django-environ reads ``flase`` as False);
- a value that cannot be parsed is reported with the name of its variable;
- a value is taken as it is: django-environ would read a secret key that happens to
  start with ``$`` as the name of another variable (and print it in the error);
- a variable set to the empty string counts as unset, so a blank ``NAME=`` line in an
  env file means "use the default".
"""

from __future__ import annotations

import re
from typing import Any

import dj_database_url
import environ
from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_EXPECTED = {
    bool: "a yes/no value (use 1/0, true/false)",
    int: "a whole number",
    float: "a number",
}


class Env(environ.Env):
    def get_value(
        self,
        var: str,
        cast: Any = None,
        default: Any = environ.Env.NOTSET,
        parse_default: bool = False,
    ) -> Any:
        raw = self.ENVIRON.get(var, "")
        if raw == "":
            if default is self.NOTSET:
                raise ImproperlyConfigured(f"Set the {var} environment variable.")
            if parse_default and isinstance(default, str):
                return self.parse_value(default, cast)
            return default
        if cast is None and default is not self.NOTSET and default is not None:
            cast = type(default)
        try:
            return self.parse_value(raw, cast)
        except ValueError:
            expected = _EXPECTED.get(cast, "a valid value")
            raise ImproperlyConfigured(f"{var}={raw!r} is not {expected}.") from None

    @classmethod
    def parse_value(cls, value: Any, cast: Any) -> Any:
        if cast is bool and isinstance(value, str):
            word = value.strip().lower()
            if word in _TRUE:
                return True
            if word in _FALSE:
                return False
            raise ValueError(value)
        return super().parse_value(value, cast)

    def list(self, var: str, cast: Any = None, default: Any = environ.Env.NOTSET) -> Any:
        """Comma-separated strings, spaces around the commas allowed."""
        values = super().list(var, cast, default)
        return [value.strip() for value in values if value.strip()]

    def cache_url(
        self, var: str = "CACHE_URL", default: Any = environ.Env.NOTSET, backend: Any = None
    ) -> dict[str, Any]:
        try:
            return super().cache_url(var, default=default, backend=backend)
        except ImproperlyConfigured as error:
            raise ImproperlyConfigured(f"{var}: {error} (use redis://host:6379/0).") from None

    def log_level(self, var: str, default: str) -> str:
        """The name of a logging level, in any case: DEBUG, INFO, WARNING, ERROR, CRITICAL."""
        raw = self.str(var, default=default)
        level = raw.strip().upper()
        if level not in _LOG_LEVELS:
            raise ImproperlyConfigured(
                f"{var}={raw!r} is not a log level (use one of {', '.join(_LOG_LEVELS)})."
            )
        return level

    def choice(self, var: str, choices: tuple[str, ...], default: str) -> str:
        """One of ``choices``, in any case."""
        raw = self.str(var, default=default)
        value = raw.strip().lower()
        if value not in choices:
            raise ImproperlyConfigured(f"{var}={raw!r} is not one of {', '.join(choices)}.")
        return value

    def rate(self, var: str, default: str) -> str:
        """A rate as django-ratelimit reads it: a whole number of requests, a slash and a
        period (s, m, h or d): ``300/m``."""
        raw = self.str(var, default=default)
        value = raw.strip().lower()
        if not re.fullmatch(r"[1-9][0-9]*/[smhd]", value):
            raise ImproperlyConfigured(
                f"{var}={raw!r} is not a rate: a number of requests, a slash and s, m, h or "
                "d (300/m is 300 a minute)."
            )
        return value

    def database_url(self, var: str, default: str, **options: Any) -> dict[str, Any]:
        """A ``DATABASES`` entry from a URL, parsed by dj-database-url (which knows psycopg 3
        and connection health checks)."""
        url = self.str(var, default=default)
        try:
            return dict(dj_database_url.parse(url, **options))
        except ValueError as error:
            # Not the URL itself: it may hold the database password.
            raise ImproperlyConfigured(f"{var} is not a database URL: {error}") from None


env = Env()
