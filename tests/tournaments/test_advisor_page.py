"""The format advisor's command (manage.py advise_format) and page (organiser:advisor)."""

import html
import io
import json
import re

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from tournament.models import Player

KEYS = {
    "rounds",
    "rotations",
    "minutes",
    "strongest_wins",
    "strongest_top3",
    "ties_at_top",
    "split",
}


def _advise(*args):
    out = io.StringIO()
    call_command("advise_format", *args, stdout=out)
    return out.getvalue()


def test_the_command_prints_the_formats_and_the_recommended_one_as_json():
    data = json.loads(_advise("--players", "20", "--minutes", "100", "--format", "json"))
    assert data["split"] == [5, 5, 5, 5]
    assert data["formats"]
    for candidate in data["formats"]:
        assert set(candidate) == KEYS
        assert candidate["minutes"] <= 100
        assert 0 <= candidate["strongest_wins"] <= candidate["strongest_top3"] <= 1
        assert candidate["ties_at_top"] >= 1
    assert data["recommended"] in data["formats"]


def test_the_command_takes_the_scoring_rule_set_minutes_per_deal_and_seed():
    args = ["--players", "16", "--minutes", "90", "--scoring", "caidis"]
    args += ["--rule-set", "du-coeur", "--minutes-per-deal", "2", "--format", "json"]
    first = json.loads(_advise(*args, "--seed", "7"))
    # Caidis seats 3 to 5: 16 players as 4 + 4 + 4 + 4 (no table of 3, none of 6).
    assert first["split"] == [4, 4, 4, 4]
    assert {(f["rounds"], f["rotations"]) for f in first["formats"]} >= {(1, 1), (4, 1)}
    assert json.loads(_advise(*args, "--seed", "7")) == first


def test_the_commands_text_marks_the_recommended_format():
    text = _advise("--players", "12", "--minutes", "60")
    assert "12 players at tables of" in text
    assert text.count("← recommended") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "1", "--minutes", "60"], "Players"),
        (["--players", "20", "--minutes", "0"], "Minutes available"),
        (["--players", "20", "--minutes", "60", "--rule-set", "nope"], "not a rule set"),
        (["--players", "20", "--minutes", "60", "--minutes-per-deal", "0"], "Minutes per deal"),
    ],
)
def test_the_command_refuses_bad_input_naming_it(args, message):
    with pytest.raises(CommandError, match=message):
        _advise(*args)


@pytest.fixture
def tournament(seated_round):
    return seated_round.tournament


ADVISOR = reverse("organiser:advisor")


def test_an_organiser_sees_the_formats_and_the_recommendation(organiser_client, db):
    response = organiser_client.get(ADVISOR, {"players": "20", "minutes": "100"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Recommended:" in page
    assert 'class="recommended"' in page
    assert "simulated tournaments" in page
    assert page.count("<tr") >= 5


def test_the_first_visit_answers_for_a_pub_evening(organiser_client, db):
    page = organiser_client.get(ADVISOR).content.decode()
    assert "20 players at tables of 5 + 5 + 5 + 5" in page


def test_a_tournaments_advice_uses_its_players_and_rules(organiser_client, tournament):
    registered = Player.objects.filter(tournament=tournament, active=True).count()
    response = organiser_client.get(ADVISOR, {"tournament": tournament.slug})
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert f'name="players" value="{registered}"' in page
    assert tournament.rules.name in page
    assert 'name="rule_set"' not in page


def test_another_tournaments_advice_is_not_found(outsider_client, tournament):
    response = outsider_client.get(ADVISOR, {"tournament": tournament.slug})
    assert response.status_code == 404


def test_anonymous_visitors_are_sent_to_log_in(client, db):
    response = client.get(ADVISOR)
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"players": "lots"}, "Players: Enter a whole number."),
        ({"minutes": "0"}, "Minutes available for play: Ensure this value is greater than"),
        ({"players": "2"}, "Players: At least 3 players are needed"),
        ({"minutes_per_deal": "-1"}, "Minutes per deal: Ensure this value"),
        ({"rule_set": "nope"}, "Rule set: Select a valid choice."),
    ],
)
def test_bad_input_is_named_and_never_an_error_page(organiser_client, db, query, message):
    response = organiser_client.get(ADVISOR, query)
    assert response.status_code == 200
    assert message in response.content.decode()


def test_too_little_time_says_no_format_fits(organiser_client, db):
    page = organiser_client.get(ADVISOR, {"minutes": "5"}).content.decode()
    assert "No format fits 5 minutes" in page


def test_htmx_asks_for_the_advice_alone(organiser_client, db):
    response = organiser_client.get(ADVISOR, {"players": "12"}, headers={"HX-Request": "true"})
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="advice"')
    assert "<html" not in page


def test_the_new_tournament_and_settings_pages_link_to_the_advisor(organiser_client, tournament):
    assert ADVISOR in organiser_client.get(reverse("organiser:create")).content.decode()
    settings = organiser_client.get(reverse("organiser:edit", args=[tournament.slug]))
    assert f"{ADVISOR}?tournament={tournament.slug}" in settings.content.decode()


def test_an_address_no_tournament_can_have_is_not_found_not_an_error(organiser_client):
    response = organiser_client.get(reverse("organiser:advisor"), {"tournament": "a\x00b"})
    assert response.status_code == 404


def use_link(page: str, label: str = "Use this format") -> str:
    return html.unescape(re.search(rf'href="([^"]*)">{re.escape(label)}', page).group(1))


def test_use_this_format_fills_the_new_tournament_with_the_answer(organiser_client, db):
    """du Coeur seats up to eight: 15 players at 8 + 7 win the strongest more deals a
    round, and the new tournament opens with that format, its tables of 7 and 8 ticked."""
    page = organiser_client.get(
        ADVISOR, {"players": "15", "minutes": "150", "rule_set": "du-coeur"}
    ).content.decode()
    assert "15 players at tables of 5 + 5 + 5 or 8 + 7" in page
    assert "<td>8+7</td>" in page
    assert "within 3 percentage points of it" in page
    recommended = re.search(
        r"Recommended: (\d+) rounds? of (\d+) rotations? at tables of ([\d +]+)<", page
    )
    rounds, rotations, split = recommended.groups()
    use = use_link(page)
    assert use.startswith(reverse("organiser:create") + "?")
    form = organiser_client.get(use).content.decode()
    assert "The format advisor's answer is filled in below" in form
    assert re.search(rf'name="planned_rounds" value="{rounds}"', form)
    assert re.search(rf'name="rotations_per_round" value="{rotations}"', form)
    assert re.search(r'<option value="du-coeur" selected>', form)
    # At 150 minutes the tables of 8 and 7 give the strongest the best chance (seed 0).
    assert split == "8 + 7"
    ticked = re.findall(r'name="table_sizes" value="(\d)"[^>]*checked', form)
    assert ticked == ["7", "8"]


def test_every_format_listed_can_be_used(organiser_client, db):
    page = organiser_client.get(
        ADVISOR, {"players": "15", "minutes": "60", "rule_set": "du-coeur"}
    ).content.decode()
    links = [html.unescape(link) for link in re.findall(r'href="([^"]*)" aria-label="Use ', page)]
    assert len(links) == page.count("<tr") - 1
    large = [link for link in links if "table_sizes=7&table_sizes=8" in link]
    assert large
    assert all("rule_set=du-coeur" in link for link in links)


def test_the_standard_rules_never_advise_tables_of_seven(organiser_client, db):
    page = organiser_client.get(ADVISOR, {"players": "15", "minutes": "150"}).content.decode()
    assert "15 players at tables of 5 + 5 + 5, every round" in page
    assert "8+7" not in page


def test_a_tournaments_settings_take_the_format_from_the_advisor(organiser_client, tournament):
    page = organiser_client.get(ADVISOR, {"tournament": tournament.slug}).content.decode()
    use = use_link(page, f"Use it in {tournament.name}")
    assert use.startswith(reverse("organiser:edit", args=[tournament.slug]) + "?")
    rounds = re.search(r"planned_rounds=(\d+)", use).group(1)
    form = organiser_client.get(use).content.decode()
    assert "The format advisor's answer is filled in below" in form
    assert re.search(rf'name="planned_rounds" value="{rounds}"', form)


def test_a_bad_format_link_fills_nothing_wrong_and_never_fails(organiser_client, db):
    query = "?planned_rounds=lots&table_sizes=x&table_sizes=9&scoring=nope"
    response = organiser_client.get(reverse("organiser:create") + query)
    assert response.status_code == 200
    form = response.content.decode()
    assert 'name="planned_rounds" value="lots"' in form
    assert not re.search(r'name="table_sizes" value="\d"[^>]*checked', form)
