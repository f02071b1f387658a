"""A backup written by an older version may hold what this one refuses in a new file:
house-rule table sizes written "05" or "٥" (an Arabic-Indic five), names with a direction
override or a zero-width space. ``restore`` reads them back as this version keeps them
and says what it changed; what cannot be read back (a key "²", two keys of one size, a
name of invisible characters alone) is refused, naming the file, the tournament and the
place, and nothing is restored. ``backup`` says beforehand what a restore will read so."""

import io

import pytest
from django.core.management import CommandError, call_command

from tests.backups import backup_folder, edit_json, empty_the_database, restore, sign_again
from tournament.models import Person, Player, Series, Tournament

FILE = "red-lion-house.json"
INSTALLATION = "installation.json"


def change_file(folder, name, change):
    edit_json(folder, name, change)
    sign_again(folder, name)


def with_key(size, key):
    """The house rules with table size ``size`` written ``key``, in its place."""

    def change(data):
        tables = data["rule_set"]["tables"]
        data["rule_set"]["tables"] = {
            (key if each == size else each): numbers for each, numbers in tables.items()
        }

    return change


def with_keys(*keys):
    """The house rules with more keys, each holding the numbers of the table of 5."""

    def change(data):
        tables = data["rule_set"]["tables"]
        numbers = list(tables.values())[-1]
        for key in keys:
            tables[key] = numbers

    return change


@pytest.mark.parametrize("key", ["05", "٥", "٠٥"])
def test_an_older_backup_is_restored_as_this_version_keeps_it_with_notes(
    house_rules_installation, tmp_path, key
):
    before = house_rules_installation.rules
    folder = backup_folder(tmp_path)

    def older_tournament(data):
        with_key("5", key)(data)
        data["name"] = "Red Lion \u202eHouse Night"
        data["players"][1]["name"] = "Player\u200b p2"

    def older_installation(data):
        data["series"][0]["name"] = "Red Lion\u2066 League"
        data["people"][0]["club"] = "Red\u200bLion"

    change_file(folder, FILE, older_tournament)
    change_file(folder, INSTALLATION, older_installation)
    empty_the_database()

    output = restore(folder)

    tournament = Tournament.objects.get(slug="red-lion-house")
    assert tournament.name == "Red Lion House Night"
    assert list(tournament.house_rules["tables"]) == ["4", "5"]
    assert tournament.rules == before
    assert Player.objects.get(tournament=tournament, ref="p2").name == "Player p2"
    assert Series.objects.get().name == "Red Lion League"
    assert Person.objects.get().club == "RedLion"
    notes = output.splitlines()
    for note in [
        f"Note: {FILE}: name: “Red Lion U+202EHouse Night” is read back as “Red Lion House "
        "Night”, without its invisible or direction-changing characters, which names may no "
        "longer hold.",
        f"Note: {FILE}: players[1].name: “PlayerU+200B p2” is read back as “Player p2”, "
        "without its invisible or direction-changing characters, which names may no longer "
        "hold.",
        f'Note: {FILE}: “Red Lion House Night”, rule_set.tables["{key}"]: read as the '
        "table size “5”, as the version that wrote it read it.",
        f"Note: {INSTALLATION}: people[0].club: “RedU+200BLion” is read back as “RedLion”, "
        "without its invisible or direction-changing characters, which names may no longer "
        "hold.",
        f"Note: {INSTALLATION}: series[0].name: “Red LionU+2066 League” is read back as “Red "
        "Lion League”, without its invisible or direction-changing characters, which names "
        "may no longer hold.",
    ]:
        assert note in notes


def test_a_backup_of_this_version_restores_without_notes(house_rules_installation, tmp_path):
    folder = backup_folder(tmp_path)
    empty_the_database()
    assert "Note:" not in restore(folder)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        pytest.param(
            with_keys("²"),
            f'{FILE}: “Red Lion House Night”, rule_set.tables["²"]: “²” cannot be read as a '
            "table size (no version of the app read it as one), so its numbers belong to no "
            "table; correct the key in the file",
            id="superscript-two",
        ),
        pytest.param(
            with_keys("05"),
            f'{FILE}: “Red Lion House Night”, rule_set.tables["05"]: the keys “5” and “05” '
            "are all tables of 5, and which numbers were played cannot be told; keep one in the "
            "file",
            id="five-and-05",
        ),
        pytest.param(
            with_key("5", "٥"),
            None,
            id="one-arabic-indic-five-alone-restores",
        ),
        pytest.param(
            lambda data: with_key("5", "٥")(data) or with_keys("05")(data),
            f'{FILE}: “Red Lion House Night”, rule_set.tables["05"]: the keys “٥” and “05” '
            "are all tables of 5",
            id="arabic-indic-five-and-05",
        ),
        pytest.param(
            lambda data: data.update(name="\u200b\u202e"),
            f"{FILE}: name: “U+200BU+202E” has nothing visible once its invisible characters "
            "are taken out; give it a name in the file",
            id="a-name-of-nothing-visible",
        ),
    ],
)
def test_what_cannot_be_read_back_is_refused_naming_the_tournament_and_key(
    house_rules_installation, tmp_path, change, problem
):
    folder = backup_folder(tmp_path)
    change_file(folder, FILE, change)
    empty_the_database()
    if problem is None:
        restore(folder)
        assert Tournament.objects.get().rules.sizes == (4, 5)
        return
    with pytest.raises(CommandError) as refused:
        restore(folder)
    message = str(refused.value)
    assert message.startswith("nothing was restored:")
    assert f"\n  - {problem}" in message
    assert "Traceback" not in message
    assert not Tournament.objects.exists()


def test_a_key_given_twice_in_a_backup_file_is_refused_where_it_is(
    house_rules_installation, tmp_path
):
    folder = backup_folder(tmp_path)
    path = folder / FILE
    text = path.read_text()
    assert text.count('"5": {') == 1
    numbers = text[text.index('"5": {') : text.index("}", text.index('"5": {')) + 1]
    path.write_text(text.replace(numbers, f"{numbers}, {numbers}"))
    sign_again(folder, FILE)
    empty_the_database()
    with pytest.raises(CommandError) as refused:
        restore(folder)
    assert (
        f'{FILE}: rule_set.tables["5"]: the key is given twice in one object; give it once'
        in str(refused.value)
    )
    assert not Tournament.objects.exists()


def test_a_backup_says_what_a_restore_will_read_back(house_rules_installation, tmp_path):
    """Names an older version let into the database back up as they are; the backup says
    how a restore will read them, and restores so."""
    Tournament.objects.filter(pk=house_rules_installation.pk).update(
        name="Red Lion \u202eHouse Night"
    )
    Series.objects.update(name="Red\u200b Lion League")
    out = io.StringIO()
    call_command("backup", "--dir", str(tmp_path), stdout=out)
    said = out.getvalue()
    assert (
        f"Note: {FILE}: name: “Red Lion U+202EHouse Night” is read back as “Red Lion House "
        "Night”, without its invisible or direction-changing characters, which names may no "
        "longer hold (a restore reads it so)." in said
    )
    assert f"Note: {INSTALLATION}: series[0].name: “RedU+200B Lion League”" in said
    (folder,) = tmp_path.iterdir()
    empty_the_database()
    restore(folder)
    assert Tournament.objects.get().name == "Red Lion House Night"
    assert Series.objects.get().name == "Red Lion League"
