"""The QR code of a printed sheet names it, and phones still open the same entry page."""

import pytest

from scoring.sheet_reading.identity import SheetIdentity, identity_from_qr, qr_text


def test_qr_text_adds_a_fragment_naming_the_sheet():
    text = qr_text("https://host.example/t/ABCD/", SheetIdentity("red-lion-2026", 3, 5))
    assert text == "https://host.example/t/ABCD/#sheet=red-lion-2026/3/5"


def test_a_fragment_already_on_the_entry_url_is_replaced():
    text = qr_text("https://host.example/t/ABCD/#top", SheetIdentity("pub", 1, 12))
    assert text == "https://host.example/t/ABCD/#sheet=pub/1/12"


@pytest.mark.parametrize(
    "identity",
    [SheetIdentity("a", 1, 1), SheetIdentity("red-lion-2026", 50, 20), SheetIdentity("x9", 7, 300)],
)
def test_identity_comes_back_from_the_qr_text(identity):
    assert identity_from_qr(qr_text("http://127.0.0.1:8000/t/Q7/", identity)) == identity


@pytest.mark.parametrize(
    "text",
    [
        "",
        "https://host.example/t/ABCD/",  # the QR of an older sheet: no fragment
        "https://host.example/t/ABCD/#sheet=pub/3",
        "https://host.example/t/ABCD/#sheet=pub/0/5",
        "https://host.example/t/ABCD/#sheet=Pub/3/5",
        "https://host.example/t/ABCD/#sheet=pub/3/5/extra",
        "WIFI:S:pub;T:WPA;P:secret;;",
    ],
)
def test_other_codes_are_not_our_sheets(text):
    assert identity_from_qr(text) is None


def test_a_slug_that_cannot_be_named_is_refused():
    with pytest.raises(ValueError, match="cannot name"):
        qr_text("https://host.example/t/ABCD/", SheetIdentity("no spaces", 1, 1))
