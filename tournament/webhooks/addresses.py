"""Which addresses a webhook may be sent to, and the one it is sent to.

Terms:

- *refused address*: an IP address inside the installation's own network or no one's:
  private (10/8, 172.16/12, 192.168/16, fc00::/7), loopback, link-local, carrier-grade
  NAT's shared space (100.64.0.0/10), unspecified, multicast or reserved; an IPv6 address
  that maps or embeds an IPv4 one (``::ffff:10.0.0.1``) is judged by that IPv4 address.
  Refused unless the installation allows them (``WEBHOOKS_ALLOW_PRIVATE``).
- *target*: the endpoint's URL taken apart, with the one address its host resolved to
  that was checked: the request connects to that address and no other, so a name that
  resolves elsewhere a moment later (DNS rebinding) cannot redirect it.

The URL is checked when the endpoint is added and again before every try.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from scoring.errors import UserError
from tournament.models.webhooks import URL_MAX

SHARED_SPACE = ipaddress.ip_network("100.64.0.0/10")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressRefused(UserError):
    """The URL cannot be sent to: not an http(s) address, a host that cannot be found, or
    a refused address."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    # What follows the host: the path and the query, as given.
    path: str
    # The checked address the request connects to.
    ip: str

    @property
    def host_header(self) -> str:
        name = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return name if self.port == default else f"{name}:{self.port}"


def refusal(address: IPAddress) -> str | None:
    """Why ``address`` is refused, in words, or None when it may be sent to."""
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped or address.sixtofour
        if mapped is not None:
            why = refusal(mapped)
            return f"{why}, mapped into IPv6" if why else None
        if address.teredo is not None:
            return "a Teredo tunnel address"
    checks = (
        (address.is_unspecified, "an unspecified address"),
        (address.is_loopback, "a loopback address"),
        (address.is_link_local, "a link-local address"),
        (
            isinstance(address, ipaddress.IPv4Address) and address in SHARED_SPACE,
            "a carrier-grade NAT address",
        ),
        (address.is_multicast, "a multicast address"),
        (address.is_private, "a private address"),
        (address.is_reserved, "a reserved address"),
        (not address.is_global, "an address outside the public internet"),
    )
    return next((words for refused, words in checks if refused), None)


def split(url: str) -> tuple[str, str, int, str]:
    """The URL's scheme, host, port and path with its query; ``AddressRefused`` naming
    what is wrong with it."""
    url = url.strip()
    if not url:
        raise AddressRefused("the URL is empty: give the address that receives the webhooks")
    if len(url) > URL_MAX:
        raise AddressRefused(f"the URL is longer than {URL_MAX} characters")
    if any(ord(char) < 33 or ord(char) == 127 for char in url):
        raise AddressRefused("the URL contains spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise AddressRefused("the URL is not an address (check its host and port)") from None
    if parts.scheme not in ("http", "https"):
        raise AddressRefused("the URL must start with https:// (or http://)")
    if parts.username is not None or parts.password is not None:
        raise AddressRefused("the URL must not carry a user name or password before its host")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise AddressRefused("the URL has no host after https://")
    path = parts.path or "/"
    if parts.query:
        path += f"?{parts.query}"
    return parts.scheme, host, port or (443 if parts.scheme == "https" else 80), path


def addresses_of(host: str, port: int) -> list[IPAddress]:
    """The addresses ``host`` resolves to, in the order the resolver gave them."""
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        raise AddressRefused(f"the host {host} could not be found") from None
    addresses: list[IPAddress] = []
    for *_, sockaddr in found:
        # An IPv6 address may carry its scope ("fe80::1%eth0").
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise AddressRefused(f"the host {host} could not be found")
    return addresses


def checked_target(url: str) -> Target:
    """The URL's target, resolved and checked: ``AddressRefused`` when any address its
    host resolves to is refused (one good address among bad ones is no guarantee which
    the next lookup gives)."""
    scheme, host, port, path = split(url)
    addresses = addresses_of(host, port)
    if not settings.WEBHOOKS_ALLOW_PRIVATE:
        for address in addresses:
            why = refusal(address)
            if why is not None:
                shown = host if host == str(address) else f"{host} ({address})"
                raise AddressRefused(
                    f"{shown} is {why}: webhooks are sent to public addresses only "
                    "(the installation may allow others: WEBHOOKS_ALLOW_PRIVATE)"
                )
    return Target(scheme, host, port, path, str(addresses[0]))
