"""Players' lists from a spreadsheet, and the one rule for names and clubs: quotes that
run on, invisible and direction-changing characters, semicolons and tabs, and the
preview before anything is imported."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.pages import inputs
from tournament.kernel.names import text_problem
from tournament.models import Person, Player
from tournament.people import services as people
from tournament.players import lists as player_lists


@pytest.fixture
def tournament(seated_round):
    return seated_round.tournament


def url(name, tournament, *args):
    return reverse(f"organiser:{name}", args=[tournament.slug, *args])


def preview(client, tournament, **data):
    return client.post(url("players_import", tournament), data)


def confirm(client, tournament, response):
    """Press the preview's import button: post back what it holds."""
    fields = inputs(response)
    data = {key: fields[key]["value"] for key in ("text", "skip_bad", "confirm")}
    return client.post(url("players_import", tournament), data, follow=True)


def names(tournament):
    return set(Player.objects.filter(tournament=tournament).values_list("name", "club"))


# Quotes that run on -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'Ann One,Crown\nZed,"Club Yan\nBob,X"\nCarl Dee,Lion\n',
            'line 2: a quote (") opened on this line is closed only on line 3',
        ),
        ('Ann One,Crown\n"Zed,Club Yan\nX\n', 'line 2: a quote (") is never closed'),
        ('Ann One,Crown\n"Zed,Club Yan', 'line 2: a quote (") is never closed'),
        ('name;club\nAnn One;Crown\nZed;"Club Yan\nX', 'line 3: a quote (") is never closed'),
    ],
    ids=["closed-later", "never-closed", "never-closed-last-line", "semicolons"],
)
def test_a_quote_that_runs_on_is_refused_at_its_line(organiser_client, tournament, text, message):
    before = names(tournament)
    for confirmed in ("", "True"):
        response = preview(organiser_client, tournament, text=text, confirm=confirmed)
        assert response.status_code == 200
        assert message.replace('"', "&quot;") in response.content.decode()
        assert "Nothing was imported" in response.content.decode()
    assert names(tournament) == before


# Names and clubs that show nothing, or show something else ----------------------------------


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("\u200b,Crown", "the name has no visible characters"),
        ("\u200b\u200b \ufeff,Crown", "the name has no visible characters"),
        ("\u2800,Crown", "the name has no visible characters"),
        ("\u202eenO nnA,Crown", "the name has invisible direction-changing characters"),
        ("Ann One\u2066,Crown", "the name has invisible direction-changing characters"),
        ("Ann\u200fOne,Crown", "the name has invisible direction-changing characters"),
        ("Ann\u200bOne,Crown", "the name has an invisible character (U+200B ZERO WIDTH SPACE)"),
        ("Ann One,\u200b", "the club has no visible characters"),
        ("Ann One,Crown\u202e", "the club has invisible direction-changing characters"),
    ],
)
def test_invisible_and_direction_changing_characters_are_refused_by_line(
    organiser_client, tournament, line, problem
):
    before = names(tournament)
    text = f"name,club\nBea Two,Lion\nCarl Dee,Lion\n{line}\n"
    check = player_lists.check_csv(tournament, text, link_people=True)
    assert check.errors == (f"line 4: {problem}",)
    response = preview(organiser_client, tournament, text=text)
    assert f"line 4: {problem}" in response.content.decode()
    # Skipping the bad line imports the others, and never the bad one.
    confirm(organiser_client, tournament, response)
    assert names(tournament) - before == {("Bea Two", "Lion"), ("Carl Dee", "Lion")}


@pytest.mark.parametrize(
    "name",
    ["Zoë Ó Ceallaigh", "李小龍", "Ann-Marie O'Neill", "Family 👨\u200d👩\u200d👧", "Jo (Jr.)"],
)
def test_real_names_pass_the_rule(name):
    assert text_problem(name, "name") is None


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("\u200b", "The name has no visible characters."),
        ("Ann\u202eOne", "The name has invisible direction-changing characters."),
        ("Ann\u200bOne", "The name has an invisible character (U+200B ZERO WIDTH SPACE)."),
    ],
)
def test_the_add_player_form_and_player_edits_use_the_same_rule(
    organiser_client, tournament, name, message
):
    before = names(tournament)
    response = organiser_client.post(url("players", tournament), {"name": name, "club": ""})
    assert message in response.content.decode()
    player = Player.objects.filter(tournament=tournament).first()
    response = organiser_client.post(
        url("player_edit", tournament, player.pk), {"name": "Ann One", "club": name}
    )
    assert message.replace("The name", "The club") in response.content.decode()
    assert names(tournament) == before


# Semicolons and tabs ---------------------------------------------------------------------


ANN_AND_BOB = [("Ann Smith", "Red Lion"), ("Bob Jones", "Crown")]


@pytest.mark.parametrize(
    ("text", "separated_by", "players"),
    [
        ("name;club\nAnn Smith;Red Lion\nBob Jones;Crown\n", "semicolons", ANN_AND_BOB),
        ("name\tclub\nAnn Smith\tRed Lion\nBob Jones\tCrown\n", "tabs", ANN_AND_BOB),
        (
            '"Smith, Ann";Red Lion\n"Jones, Bob";Crown\n',
            "semicolons",
            [("Smith, Ann", "Red Lion"), ("Jones, Bob", "Crown")],
        ),
        # Some players without a club: the lines are not alike, the separator is still found.
        (
            "Ann Smith;Red Lion\nBob Jones\nCarl Dee;Crown\n",
            "semicolons",
            [("Ann Smith", "Red Lion"), ("Bob Jones", ""), ("Carl Dee", "Crown")],
        ),
        ("Ann Smith,Red Lion\nBob Jones,Crown\n", "commas", ANN_AND_BOB),
        ("Ann Smith\nBob Jones\n", "commas", [("Ann Smith", ""), ("Bob Jones", "")]),
    ],
)
def test_a_list_separated_by_semicolons_or_tabs_is_read(tournament, text, separated_by, players):
    check = player_lists.check_csv(tournament, text, link_people=True)
    assert check.errors == ()
    assert check.separated_by == separated_by
    assert [(line.name, line.club) for line in check.good] == players


@pytest.mark.parametrize(
    ("text", "warning"),
    [
        (
            "Ann Smith,Red Lion\nBob Jones,Crown\nIthel Rowse;Red Lion\n",
            "line 3: “Ithel Rowse;Red Lion” holds a semicolon: did you mean a comma?",
        ),
        (
            "Ann Smith,Red Lion\nBob Jones,Crown\nIthel Rowse\tRed Lion\n",
            "line 3: “Ithel Rowse Red Lion” holds a tab: did you mean a comma?",
        ),
        (
            "Ann Smith;Red Lion\nBob Jones;Crown\nIthel Rowse\tRed Lion;\n",
            "line 3: “Ithel Rowse Red Lion” holds a tab: did you mean a semicolon?",
        ),
        (
            "name,club\nAnn Smith,Red Lion;Crown\nBob Jones,Crown\n",
            "line 2: “Red Lion;Crown” holds a semicolon: did you mean a comma?",
        ),
        (
            'Ann Smith,Red Lion\nBob Jones,Crown\n"Ithel Rowse;Red Lion"\n',
            "line 3: “Ithel Rowse;Red Lion” holds a semicolon: did you mean a comma?",
        ),
    ],
    ids=["semicolon", "tab", "tab-among-semicolons", "in-the-club", "quoted"],
)
def test_a_name_holding_another_separator_is_warned_about_by_line(tournament, text, warning):
    """One player named after two columns is rarely meant: a warning, not an error."""
    check = player_lists.check_csv(tournament, text, link_people=True)
    assert check.errors == ()
    assert check.warnings == (warning,)
    assert len(check.good) == 3 - text.startswith("name")
    assert [line.warning for line in check.good if line.warning] == [warning.split(": ", 1)[1]]


def test_a_comma_in_a_name_of_a_semicolon_list_is_no_mistake(tournament):
    check = player_lists.check_csv(
        tournament, '"Smith, Ann";Red Lion\n"Jones, Bob";Crown\n', link_people=True
    )
    assert check.warnings == ()


def test_the_preview_warns_of_a_semicolon_in_a_name_naming_the_line(organiser_client, tournament):
    text = "Ann Smith,Red Lion\nBob Jones,Crown\nIthel Rowse;Red Lion\n"
    page = preview(organiser_client, tournament, text=text).content.decode()
    assert 'id="import-warnings"' in page
    assert "line 3: “Ithel Rowse;Red Lion” holds a semicolon: did you mean a comma?" in page
    assert "Import these 3 players" in page
    assert ("Ithel Rowse;Red Lion", "") not in names(tournament)


def test_a_spreadsheet_file_saved_with_semicolons_imports_each_player(organiser_client, tournament):
    upload = SimpleUploadedFile(
        "players.csv", "\ufeffname;club\r\nZoë Brant;Café Müller\r\nEd Fox;\r\n".encode()
    )
    response = preview(organiser_client, tournament, file=upload)
    assert "read as separated by semicolons" in response.content.decode()
    before = names(tournament)
    confirm(organiser_client, tournament, response)
    assert names(tournament) - before == {("Zoë Brant", "Café Müller"), ("Ed Fox", "")}


# The preview -----------------------------------------------------------------------------


def test_a_list_is_previewed_and_imported_only_from_the_preview(organiser_client, tournament):
    existing = Player.objects.filter(tournament=tournament).first().name
    text = f"name,club\nNew One,Crown\n{existing},Lion\n"
    before = names(tournament)
    response = preview(organiser_client, tournament, text=text)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="import-preview"' in page
    assert "Not imported yet." in page
    assert "<td>New One</td>" in page.replace('<td class="num">2</td>', "")
    assert f"{existing} is already registered" in page
    assert "Import these 2 players" in page
    assert names(tournament) == before
    response = confirm(organiser_client, tournament, response)
    assert "Imported 2 players." in response.content.decode()
    assert ("New One", "Crown") in names(tournament)


def test_a_list_full_of_quotes_is_read_quickly_enough_to_answer(tournament):
    # csv.Sniffer's time grows with the square of what it reads: it reads a sample.
    # (Counted in characters handed to it, not timed: tests do not assert wall-clock.)
    from unittest import mock

    seen = []
    real = player_lists.csv.Sniffer.sniff

    def sniff(self, sample, delimiters=None):
        seen.append(len(sample))
        return real(self, sample, delimiters)

    with mock.patch.object(player_lists.csv.Sniffer, "sniff", sniff):
        check = player_lists.check_csv(
            tournament, ',"' * 400_000 + "\nAnn,Crown\n", link_people=True
        )
    assert check.errors
    assert seen
    assert max(seen) <= 4096


# Member numbers: the register of people ---------------------------------------------------


def test_a_member_number_column_links_or_makes_the_person(organiser_client, tournament):
    from tournament.models import Person

    ann = Person.objects.create(name="Ann Lee", club="Rooks", member="M1")
    text = "name,club,member\nAnnie Lee,Rooks,M1\nBob Day,Pawns, M2 \nCy Roe,,\n"
    response = preview(organiser_client, tournament, text=text)
    assert "member M1: linked to Ann Lee" in response.content.decode()
    assert "member M2: a new person" in response.content.decode()
    confirm(organiser_client, tournament, response)
    linked = dict(
        Player.objects.filter(
            tournament=tournament, name__in=["Annie Lee", "Bob Day", "Cy Roe"]
        ).values_list("name", "person__member")
    )
    assert linked == {"Annie Lee": "M1", "Bob Day": "M2", "Cy Roe": None}
    bob = Person.objects.get(member="M2")
    assert (bob.name, bob.club) == ("Bob Day", "Pawns")
    assert ann.players.get().name == "Annie Lee"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("Ann Lee,Rooks,person-3\n", "line 1: member number: “person-3” starts with “person-”"),
        ("Ann Lee,Rooks,M 1\n", "line 1: member number: “M 1” has a space in it"),
        ("Ann Lee,,M1\nBob Day,,M1\n", "line 2: member number M1 is also on line 1"),
        ("Ann Lee,,M9\n", "line 1: member number M9 is Zed Played’s, who already plays"),
        ("Ann Lee,Rooks,M1,x\n", "line 1: 4 columns"),
        ("Ann Lee,Rooks,RL/01\n", "line 1: member number: “RL/01”: a member number is made"),
        ("Ann Lee,Rooks,M1\nBob Day,Rooks,M\x002\n", "line 2: contains a NUL character"),
    ],
)
def test_a_bad_member_number_is_an_error_of_its_line(organiser_client, tournament, text, error):
    from tournament.models import Person

    zed = Person.objects.create(name="Zed Played", member="M9")
    first = Player.objects.filter(tournament=tournament).first()
    first.person = zed
    first.save()
    before = names(tournament)
    check = player_lists.check_csv(tournament, text, link_people=True)
    assert any(e.startswith(error) for e in check.errors), check.errors
    with pytest.raises(player_lists.UserError):
        player_lists.import_csv(tournament, text, link_people=True)
    assert names(tournament) == before


def test_without_linking_the_member_numbers_are_not_read(tournament, django_assert_max_num_queries):
    """For an organiser who may not keep the register (``permissions.may_keep_people``):
    the numbers are neither looked up nor checked, and the lines that gave one are
    named; the players import, linked to nobody."""
    ann = people.add_person("Ann Lee", "Crown", "M1")
    text = "Ann Lee,Crown,M1\nBob Day,,not a number!\nCyd Fox,,M1\nDee Ray,Rooks\n"
    with django_assert_max_num_queries(2) as done:
        check = player_lists.check_csv(tournament, text, link_people=False)
    assert not any("person" in query["sql"] for query in done.captured_queries)
    assert check.errors == ()
    assert check.members_not_used == (1, 2, 3)
    assert [(line.member, line.person_name) for line in check.good] == [("", "")] * 4
    assert check.members_note.startswith("The member numbers on lines 1, 2 and 3 are not used")
    added = player_lists.import_csv(tournament, text, link_people=False)
    assert [player.person for player in added] == [None] * 4
    assert list(Person.objects.all()) == [ann]


@pytest.mark.parametrize(
    ("lines", "named"),
    [
        ((4,), "The member number on line 4 is not used"),
        ((2, 7), "The member numbers on lines 2 and 7 are not used"),
        (tuple(range(1, 14)), "lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 3 more are not used"),
    ],
)
def test_the_note_of_member_numbers_not_used_names_their_lines(lines, named):
    check = player_lists.CsvCheck((), (), (), members_not_used=lines)
    assert named in check.members_note
    assert check.members_note.endswith(
        "Ask the administrator to add your account to the Organisers group to link them."
    )
