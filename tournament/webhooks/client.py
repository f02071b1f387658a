"""The HTTP client of the webhooks: urllib3, connecting to the address that was checked.

One POST, no more: a connection pool to the checked IP address itself (for HTTPS the
certificate is checked against the URL's host name, sent as SNI), the host in the
``Host`` header, no redirect followed (a 3xx is an answer like any other, and a
failure), no retry of its own (the delivery's schedule retries), ``CONNECT_SECONDS`` to
connect, ``READ_SECONDS`` for the whole answer, and at most ``ANSWER_BYTES`` of it read.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import certifi
import urllib3
from urllib3.exceptions import HTTPError

from tournament.webhooks.addresses import Target

CONNECT_SECONDS = 5.0
READ_SECONDS = 10.0
# Enough for any receiver's word on what went wrong; the rest is not read.
ANSWER_BYTES = 16 * 1024
USER_AGENT = "LaughAndLieDown-Webhooks/1"


@dataclass(frozen=True)
class Answer:
    """What a try came to: the status (None when there was no answer) and the start of
    the answer's body, or what went wrong."""

    status: int | None
    text: str

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def _pool(target: Target) -> urllib3.HTTPConnectionPool:
    timeout = urllib3.Timeout(connect=CONNECT_SECONDS, read=READ_SECONDS)
    if target.scheme == "https":
        return urllib3.HTTPSConnectionPool(
            target.ip,
            target.port,
            timeout=timeout,
            retries=False,
            maxsize=1,
            cert_reqs="CERT_REQUIRED",
            ca_certs=certifi.where(),
            server_hostname=target.host,
            assert_hostname=target.host,
        )
    return urllib3.HTTPConnectionPool(
        target.ip, target.port, timeout=timeout, retries=False, maxsize=1
    )


def post(target: Target, body: bytes, headers: dict[str, str]) -> Answer:
    """POST ``body`` to ``target``: the answer, never an exception for a network's
    failure."""
    sent = {
        "Host": target.host_header,
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        **headers,
    }
    pool = _pool(target)
    deadline = time.monotonic() + CONNECT_SECONDS + READ_SECONDS
    try:
        response = pool.urlopen(
            "POST",
            target.path,
            body=body,
            headers=sent,
            redirect=False,
            retries=False,
            preload_content=False,
            assert_same_host=False,
        )
        try:
            read = bytearray()
            while len(read) < ANSWER_BYTES and time.monotonic() < deadline:
                chunk = response.read(min(8192, ANSWER_BYTES - len(read)))
                if not chunk:
                    break
                read += chunk
        finally:
            response.release_conn()
            response.close()
        return Answer(response.status, bytes(read).decode("utf-8", "replace"))
    except urllib3.exceptions.NewConnectionError as error:
        # Before TimeoutError: urllib3 makes it a kind of timeout, which it is not.
        return Answer(None, f"could not connect: {_reason(error)}")
    except urllib3.exceptions.TimeoutError:
        return Answer(None, "no answer in time")
    except urllib3.exceptions.SSLError as error:
        return Answer(None, f"TLS failed: {_reason(error)}")
    except (HTTPError, OSError) as error:
        return Answer(None, f"could not connect: {_reason(error)}")
    finally:
        pool.close()


def _reason(error: Exception) -> str:
    reason = getattr(error, "reason", None) or error
    return str(reason)[:150]
