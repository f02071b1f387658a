"""The static files' storage in production: whitenoise's hashed, compressed files, with
the browser's JavaScript modules importing each other by their hashed names.

The pages' scripts are ES modules (``static/js/keep.js`` imports ``keep/storage.js``,
``keep/queue.js`` and ``keep/banner.js``; ``me.js`` imports ``live.js``). A module names
the others by relative address (``import … from "./keep/queue.js";``); once collectstatic
has renamed every file after its hash (served for a year), those addresses must name the
hashed files too, or a phone would run a new page with an old module. Django rewrites
them when the storage says so (``support_js_module_import_aggregation``), as it rewrites
``url(…)`` in style sheets.

Only our own scripts (``static/js/``) are read so: other apps' scripts (django-htmx's
extensions import a bare ``../htmx`` that no file is named) are served as they come.
"""

from __future__ import annotations

from collections.abc import Callable
from re import Match
from typing import Any

from whitenoise.storage import CompressedManifestStaticFilesStorage  # type: ignore[import-untyped]

# Where our modules are: every static name under it is rewritten.
OUR_SCRIPTS = "js/"


class ModuleManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True

    def url_converter(
        self, name: str, hashed_files: dict[str, Any], template: str | None = None
    ) -> Callable[[Match[str]], str]:
        converter: Callable[[Match[str]], str] = super().url_converter(name, hashed_files, template)
        if name.endswith(".js") and not name.startswith(OUR_SCRIPTS):
            return lambda found: found["matched"]
        return converter
