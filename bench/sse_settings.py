"""Settings for bench/live_updates.py's server-sent-events run: the production settings
with bench/sse_urls.py's scratch event stream added. Not part of the app."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.sse_urls"
