"""Which addresses a webhook may be sent to: public ones only, unless the installation
allows private ones; an IPv6 address judged by the IPv4 address it carries; a host
refused when any address it resolves to is."""

from __future__ import annotations

import ipaddress
import socket

import pytest

from tournament.webhooks.addresses import AddressRefused, checked_target, refusal


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("10.1.2.3", "a private address"),
        ("172.16.0.1", "a private address"),
        ("192.168.1.20", "a private address"),
        ("fd00::1", "a private address"),
        ("127.0.0.1", "a loopback address"),
        ("::1", "a loopback address"),
        ("169.254.169.254", "a link-local address"),
        ("fe80::1", "a link-local address"),
        ("100.64.0.1", "a carrier-grade NAT address"),
        ("100.127.255.254", "a carrier-grade NAT address"),
        ("0.0.0.0", "an unspecified address"),
        ("::", "an unspecified address"),
        ("224.0.0.1", "a multicast address"),
        ("::ffff:127.0.0.1", "a loopback address, mapped into IPv6"),
        ("::ffff:10.0.0.1", "a private address, mapped into IPv6"),
        ("::ffff:100.64.0.1", "a carrier-grade NAT address, mapped into IPv6"),
        ("2002:a00:1::1", "a private address, mapped into IPv6"),
        ("8.8.8.8", None),
        ("1.1.1.1", None),
        ("100.128.0.1", None),
        ("::ffff:8.8.8.8", None),
        ("2606:4700:4700::1111", None),
    ],
)
def test_the_addresses_refused(address, why):
    assert refusal(ipaddress.ip_address(address)) == why


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("", "the URL is empty"),
        ("hooks.example.org/lld", "must start with https://"),
        ("ftp://hooks.example.org/", "must start with https://"),
        ("https://user:pw@hooks.example.org/", "user name or password"),
        ("https:///nothing", "has no host"),
        ("https://hooks.example.org:99999/", "not an address"),
        ("https://hooks example.org/", "spaces or control characters"),
        ("https://" + "a" * 500 + ".org/", "longer than 500 characters"),
    ],
)
def test_a_url_that_is_not_one_is_named(url, words):
    with pytest.raises(AddressRefused, match=words):
        checked_target(url)


def test_a_host_is_refused_when_any_of_its_addresses_is(monkeypatch, settings):
    def getaddrinfo(host, port, *args, **kwargs):
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", port)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.5", port)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    with pytest.raises(AddressRefused, match=r"hooks\.example\.org \(10\.0\.0\.5\) is a private"):
        checked_target("https://hooks.example.org/lld")
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    target = checked_target("https://hooks.example.org/lld?x=1")
    assert (target.ip, target.host, target.port, target.path) == (
        "93.184.215.14",
        "hooks.example.org",
        443,
        "/lld?x=1",
    )
    assert target.host_header == "hooks.example.org"


def test_a_host_that_cannot_be_found_is_named(monkeypatch):
    def getaddrinfo(*args, **kwargs):
        raise socket.gaierror("not found")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    with pytest.raises(AddressRefused, match=r"the host nowhere\.invalid could not be found"):
        checked_target("https://nowhere.invalid/")
