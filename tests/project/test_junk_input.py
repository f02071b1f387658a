"""Junk in every field of every form, and in every query parameter, of every view:
never a 500. A refusal is a 4xx, or a page or message that says what is wrong.

The fields are found, not listed: every form on the pages the organiser and the
scorers open (with the values a browser would post), and every name a view's module
reads from ``request.POST``/``request.GET`` itself. A new view is covered as soon as a
page posts to it or its module reads its input; a view that takes a POST but has
neither fails ``test_every_write_has_fields_to_junk``.

Terms: the *baseline* of a view is what a browser posts from its form. Each junk value
goes into every field at once; then each field is left out once, and put alone into the
baseline with the nastiest values (and, for a chosen field, the ids of nothing and of
another tournament's rows). A post that is a 500 is tried again one field at a time, to
name the field.
"""

from __future__ import annotations

import importlib
import inspect
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.urls import resolve
from django.utils import timezone

from tests.factories import played_tournament
from tests.pages import ROWS
from tests.routes import NEEDS_TOURNAMENT, ROUTES, Access, url_for
from tournament.models import KeepApart, Player, Table, Tournament, WebhookEndpoint
from tournament.sheets.saving import save_sheet

# Markup and odd digits are tests/project/test_hostile_inputs.py's business.
JUNK = ["", "abc", "-1", "99999999999999999999999", "\x00", "x" * 5000]
# Where a number (an id, a count) belongs: ids that name nothing, or another
# tournament's rows.
MISSING_ID = "987654321"


class _Forms(HTMLParser):
    """The page's forms: action, method and the fields a browser would post."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self.choices: set[str] = set()  # fields whose value is chosen, not typed: ids
        self._form: dict | None = None
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._form = {
                "action": attrs.get("action") or "",
                "method": (attrs.get("method") or "get").lower(),
                "hx_post": attrs.get("hx-post"),
                # A button's own formaction or hx-post posts the form elsewhere.
                "button_targets": [],
                "fields": {},
            }
            self.forms.append(self._form)
            return
        if tag == "button" and self._form is not None:
            self._form["button_targets"] += filter(
                None, (attrs.get("formaction"), attrs.get("hx-post"))
            )
        if self._form is None or "name" not in attrs:
            if tag == "option" and self._form is not None and self._select:
                self._form["fields"].setdefault(self._select, attrs.get("value", ""))
            return
        name = attrs["name"]
        if tag == "select":
            self._select = name
            self.choices.add(name)
        elif tag in ("input", "textarea", "button"):
            if attrs.get("type") == "file":
                return
            self._form["fields"].setdefault(name, attrs.get("value", ""))
            if tag == "button":
                self.choices.add(name)

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def forms_on(client, url):
    response = client.get(url)
    if response.status_code != 200:
        return []  # a public page of this private tournament
    if "html" not in response.get("Content-Type", ""):
        return []  # a photo of a paper sheet, a cell's crop: no form
    parser = _Forms()
    parser.feed(response.content.decode())
    CHOSEN.update(parser.choices)
    found = []
    for form in parser.forms:
        targets = (form["action"] or url, form["hx_post"], *form["button_targets"])
        for target in filter(None, targets):
            path = urlsplit(urljoin(url, target)).path
            found.append((resolve(path).view_name, form["method"], form["fields"]))
    return found


# The fields found as a <select> or a named button (a choice of id or action).
CHOSEN: set[str] = set()

_READS = re.compile(r"""\b(GET|POST|source)(?:\.get(?:list)?\(|\[)\s*["'](\w+)["']""")
_CACHED_READS = re.compile(r"reads=\{([^}]*)\}")
_FORM_READS = re.compile(r"\b(\w+Form)\(\s*request\.(POST|GET)\b")


def read_by_module(name):
    """The names the module of ``name``'s view reads from the request itself:
    (POST names, GET names)."""
    callback = resolve(url_for_any(name)).func
    source = inspect.getsource(importlib.import_module(callback.__module__))
    posted, queried = set(), set()
    for where, key in _READS.findall(source):
        if where in ("POST", "source"):
            posted.add(key)
        if where in ("GET", "source"):
            queried.add(key)
    for reads in _CACHED_READS.findall(source):
        queried.update(re.findall(r"""["'](\w+)["']\s*:""", reads))
    # And the fields of every form the view fills from the request, itself or in a
    # helper of the app that it calls (of its module, or of its package's shared ones).
    functions = [inspect.unwrap(callback)]
    seen: set[str] = set()
    for function in functions:  # grows as helpers calling helpers are found
        text = inspect.getsource(function)
        for called in set(re.findall(r"\b(\w+)\(", text)) - seen:
            seen.add(called)
            helper = function.__globals__.get(called)
            if inspect.isfunction(helper) and helper.__module__.startswith("tournament."):
                functions.append(inspect.unwrap(helper))
        for form_name, where in _FORM_READS.findall(text):
            fields = function.__globals__[form_name].base_fields
            (posted if where == "POST" else queried).update(fields)
    return posted, queried


def url_for_any(name):
    from tournament.models import Tournament

    needs = ROUTES[name].access in NEEDS_TOURNAMENT
    return url_for(name, Tournament.objects.get(slug="club-night") if needs else None)


def _the_junk_world():
    """What the junk tests add to the world (tests/conftest.py ``world``), once a module:
    club-night's table 1 entered by simon and a pair kept apart, and another tournament
    with rows of its own (whose ids are junk to club-night's views). Each test's posts are
    rolled back (``answer``), and each test's transaction too."""
    tournament = Tournament.objects.get(slug="club-night")
    save_sheet(
        Table.objects.get(round__tournament=tournament, round__number=1, number=1),
        tournament.scorers.get(username="simon"),
        ROWS,
        expected_version=0,
        final=True,
    )
    first, second, third, fourth = Player.objects.filter(tournament=tournament).order_by("pk")[:4]
    KeepApart.objects.create(tournament=tournament, first=first, second=second)
    # A player checked in, one dropped out and a round held back: the players page offers
    # "Undo check-in" and "Return", the overview "Reveal the final results".
    Player.objects.filter(pk=third.pk).update(checked_in=True)
    Player.objects.filter(pk=fourth.pk).update(active=False)
    Tournament.objects.filter(pk=tournament.pk).update(hold_back_rounds=1)
    # sarah typed her password wrong too often: the scorers page offers to unlock her.
    AccessAttempt.objects.create(
        username="sarah",
        ip_address="127.0.0.1",
        user_agent="junk",
        failures_since_start=settings.AXES_FAILURE_LIMIT,
        attempt_time=timezone.now(),
    )
    # A webhook, so that the Webhooks page offers its buttons.
    WebhookEndpoint.objects.create(
        tournament=tournament,
        url="https://hooks.example.org/lld",
        events=["round.released"],
        secret="whsec_" + "A" * 43 + "=",
        site="https://scores.example.org",
    )
    other = played_tournament(players=6, rounds=1, slug="other-open")
    others = list(Player.objects.filter(tournament=other).order_by("pk")[:2])
    KeepApart.objects.create(tournament=other, first=others[0], second=others[1])
    other.scorers.add(get_user_model().objects.get(username="oscar"))
    WebhookEndpoint.objects.create(
        tournament=other,
        url="https://hooks.example.org/other",
        events=["round.released"],
        secret="whsec_" + "B" * 43 + "=",
        site="https://scores.example.org",
    )


# The users and tournaments, and what the junk tests add to them, built once per module.
pytestmark = pytest.mark.world(more=_the_junk_world)


@pytest.fixture
def state(
    world,
    outsider,
    client,
    organiser_client,
    scorer_client,
    second_scorer_client,
):
    """club-night with table 1 entered by simon and a pair kept apart, and another
    tournament with rows of its own (whose ids are junk to club-night's views)."""
    tournament = world["club-night"]
    other = world["other-open"]
    foreign = {
        "player": Player.objects.filter(tournament=other).order_by("pk")[0].pk,
        "pair": KeepApart.objects.get(tournament=other).pk,
        "user": outsider.pk,
        "endpoint": WebhookEndpoint.objects.get(tournament=other).pk,
    }
    return {
        "tournament": tournament,
        "foreign": foreign,
        "foreign_ids": {str(pk) for pk in foreign.values()},
        "clients": {
            Access.ORGANISER: [organiser_client],
            Access.PEOPLE: [organiser_client],
            # sarah may confirm table 1's sheet; the organiser may too, and enters sheets.
            Access.SCORER: [organiser_client, second_scorer_client],
            Access.ACCOUNT: [organiser_client],
            Access.PUBLIC: [organiser_client],
            Access.ANYONE: [organiser_client],
            # The door's pages, by their address alone.
            Access.DOOR: [client],
            # A rehearsal's private link, by the link alone.
            Access.REHEARSAL: [client],
            # The table's pages, by its code alone (round 1's last table, untouched here).
            Access.TABLE: [client],
            # The invitation's page, by its link alone.
            Access.INVITATION: [client],
            Access.SERIES: [client],
            Access.SERIES_OWNER: [organiser_client],
        },
    }


# Which of the harvested pages (by their place in ``harvested_pages``) carry a form that
# posts to each address name: found once per test process by opening every page, then
# each test opens only the pages of the form it junks (afresh: its values are this test's).
PAGES_OF_FORM: dict[str, list[int]] = {}


def harvested_pages(tournament):
    pages = [url_for_any(name) for name in readable_pages()]
    pages += [url_for("scorer:sheet", tournament).replace("/t1/", "/t2/")]
    # Table 1's sheet awaits the organiser's blind confirmation: no photo is offered there.
    pages += [url_for("scorer:read_photo", tournament).replace("/t1/", "/t2/")]
    pages += [url_for("scorer:confirm", tournament) + f"?mode={m}" for m in ("retype", "review")]
    return pages


class FormFields:
    """The fields of every form posting to an address name, as the pages the organiser
    opens offer them (``get``)."""

    def __init__(self, client, pages):
        self.client, self.pages = client, pages

    def get(self, name, default=None):
        if not PAGES_OF_FORM:
            for index, page in enumerate(self.pages):
                for target, method, _ in forms_on(self.client, page):
                    if method == "post" and index not in PAGES_OF_FORM.setdefault(target, []):
                        PAGES_OF_FORM[target].append(index)
        fields: dict[str, str] = {}
        for index in PAGES_OF_FORM.get(name, []):
            for target, method, found in forms_on(self.client, self.pages[index]):
                if target == name and method == "post":
                    for field, value in found.items():
                        fields.setdefault(field, value)
        return fields or default


@pytest.fixture
def site(state, organiser_client):
    """``state`` and the fields of every form on the pages the organiser opens."""
    fields = FormFields(organiser_client, harvested_pages(state["tournament"]))
    return {**state, "fields": fields}


def readable_pages():
    return sorted(
        name
        for name, route in ROUTES.items()
        if route.methods and "GET" in route.methods and route.access is not Access.ANYONE
    )


def writes():
    return sorted(name for name, route in ROUTES.items() if route.methods and route.writes)


def reads():
    return sorted(name for name, route in ROUTES.items() if route.methods and route.reads)


def post_fields(site, name):
    """The baseline posted to ``name`` and the fields to junk in it."""
    posted, _ = read_by_module(name)
    baseline = dict(site["fields"].get(name, {}))
    for field in posted:
        baseline.setdefault(field, "1")
    # The sheet's cells are alike: the first deal's stand for the rest, which the
    # property tests of tests/project/test_hostile_inputs.py cover.
    junked = [
        f for f in baseline if not re.match(r"^d([2-9]|\d\d)_", f) and f != "csrfmiddlewaretoken"
    ]
    return baseline, sorted(junked)


def answer(client, method, url, data):
    with transaction.atomic():
        cache.clear()
        try:
            response = getattr(client, method)(url, data)
        except Exception as crash:  # the test client re-raises a view's exception
            raise AssertionError(
                f"{method.upper()} {url} {data!r:.300} crashed: {crash!r}"
            ) from crash
        transaction.set_rollback(True)
    return response


def assert_answered(response, method, url, field, value):
    # A refusal is a 4xx, or the form again with its errors (200 or 422), or a redirect
    # to a page with a message: anything but a crash.
    assert response.status_code < 500, f"{method.upper()} {url} {field}={value!r:.40}"


def crashes(client, method, url, data) -> bool:
    """Whether the view answers ``data`` with a 500 (or an exception)."""
    try:
        return answer(client, method, url, data).status_code >= 500
    except AssertionError:
        return True


def assert_all_junked_answered(client, method, url, base, junked):
    """``junked`` (field: value) put into ``base`` at once is answered; when it is not,
    each field alone is tried, to say which one crashes the view."""
    if not crashes(client, method, url, {**base, **junked}):
        return
    for field, value in junked.items():
        assert_answered(
            answer(client, method, url, {**base, field: value}), method, url, field, value
        )
    raise AssertionError(
        f"{method.upper()} {url} crashes with {junked!r:.300} at once, with no field alone"
    )


# The values most likely to crash a view on their own: not a number, a number past any
# column, and a byte no database column takes.
NASTIEST = ["abc", "99999999999999999999999", "\x00"]


def junk_for(field, site):
    if field in CHOSEN:
        return [*JUNK, MISSING_ID, *sorted(site["foreign_ids"])]
    return JUNK


def alone_for(field, site):
    """The values put into ``field`` alone: the nastiest, and for a chosen field the ids
    that name nothing or another tournament's rows."""
    if field in CHOSEN:
        return [*NASTIEST, MISSING_ID, *sorted(site["foreign_ids"])]
    return NASTIEST


# Buttons that post nothing but the CSRF token, shown only when their opposite is not
# (a private tournament offers "Publish", an unreleased round "Release"): nothing in
# them to junk, and the junk test still posts nothing at all to them.
OPPOSITES_NOT_SHOWN = {"organiser:unpublish", "organiser:round_withhold", "organiser:unfinish"}
# A button only a rehearsal's started round shows ("Play this round"), and no other
# tournament's: it too posts nothing but the CSRF token (tests/rehearsals).
ONLY_ON_A_REHEARSAL = {"organiser:rehearsal_play"}
# What the publishing buttons' module reads besides: the page a button was pressed on
# (``back``, the Publish page or the Overview, where the answer returns).
SAYS_WHERE_FROM = {"back"}


def test_every_write_has_fields_to_junk(site):
    for name in writes():
        baseline, _ = post_fields(site, name)
        if name in OPPOSITES_NOT_SHOWN | ONLY_ON_A_REHEARSAL:
            assert set(baseline) <= SAYS_WHERE_FROM, (
                f"{name} reads fields now: show its form in the state"
            )
            continue
        assert baseline, (
            f"{name} takes a POST, but no page has a form for it and its module reads "
            "nothing from request.POST: add its form to a page, or say here what it reads"
        )


@pytest.mark.parametrize("name", writes())
def test_junk_in_any_posted_field_is_never_a_500(site, name):
    baseline, junked = post_fields(site, name)
    url = url_for_any(name)
    values = list(dict.fromkeys(value for field in junked for value in junk_for(field, site)))
    for client in site["clients"][ROUTES[name].access]:
        for value in values:
            at_once = {field: value for field in junked if value in junk_for(field, site)}
            assert_all_junked_answered(client, "post", url, baseline, at_once)
        for field in junked:
            missing = {k: v for k, v in baseline.items() if k != field}
            assert_answered(answer(client, "post", url, missing), "post", url, field, None)
            for value in alone_for(field, site):
                data = {**baseline, field: value}
                assert_answered(answer(client, "post", url, data), "post", url, field, value)
        assert_answered(answer(client, "post", url, {}), "post", url, "(nothing)", None)


QUERY_JUNK = [*JUNK, MISSING_ID, "2", "retype", "review", "entered"]


@pytest.mark.parametrize("name", reads())
def test_junk_in_any_query_parameter_is_never_a_500(state, name):
    _, queried = read_by_module(name)
    url = url_for_any(name)
    for client in state["clients"][ROUTES[name].access]:
        for value in QUERY_JUNK:
            at_once = dict.fromkeys(sorted(queried), value)
            assert_all_junked_answered(client, "get", url, {}, at_once)
        for parameter in sorted(queried):
            for value in [*NASTIEST, MISSING_ID]:
                response = answer(client, "get", url, {parameter: value})
                assert_answered(response, "get", url, parameter, value)


def test_the_two_removes_that_were_500s_say_what_is_wrong(state, organiser_client):
    site = state
    tournament = site["tournament"]
    scorers = set(tournament.scorers.all())
    cases = [
        ("organiser:scorer_remove", "user", "That account is not a scorer of this tournament"),
        ("organiser:keep_apart_remove", "pair", "That pair is not kept apart in this tournament"),
    ]
    for name, field, message in cases:
        for value in ("abc", "", MISSING_ID, str(site["foreign"][field])):
            url = url_for(name, tournament)
            response = organiser_client.post(url, {field: value}, follow=True)
            assert response.status_code == 200
            page = response.content.decode()
            assert message in page or "Choose the" in page, (name, value)
    # Nothing was removed, here or in the other tournament.
    assert set(tournament.scorers.all()) == scorers
    assert KeepApart.objects.count() == 2


@pytest.mark.parametrize("name", ["organiser:scorers", "organiser:keep_apart"])
def test_the_old_remove_posts_are_answered_not_500(state, organiser_client, name):
    response = organiser_client.post(url_for(name, state["tournament"]), {"remove": "abc"})
    assert response.status_code in (200, 302)
