"""The static files' storage in production: whitenoise's hashed, compressed files, with
the browser's JavaScript modules importing each other by their hashed names.

The pages' scripts are ES modules (``static/js/keep.js`` imports ``keep/storage.js``,
``keep/queue.js`` and ``keep/banner.js``; ``me.js`` imports ``live.js``). A module names
the others by relative address (``import … from "./keep/queue.js";``); once collectstatic
has renamed every file after its hash (served for a year), those addresses must name the
hashed files too, or a phone would run a new page with an old module. Django rewrites
them when the storage says so (``support_js_module_import_aggregation``), as it rewrites
``url(…)`` in style sheets.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
