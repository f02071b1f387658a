"""Every preset at every table size it seats: a whole round typed at the desk (table 1) and
on a phone (table 2), confirmed, released, and the standings equal to the points worked
out here by hand from the sources' numbers (not from ``scoring``)."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.factories import RoundFactory, TournamentFactory, make_players, play_round
from tests.pages import form
from tests.phone import submit, type_sheet, version
from tournament.models import Sheet, SheetStatus
from tournament.standings.services import tournament_standings

# The sources' numbers, size: (cards each, middle, dealer's stake, others', last-in prize,
# break-even): Willughby's four and five, Parlett's three and six (seed 000), the larger
# pot for four (000), du Coeur's six, seven and eight (001).
STANDARD = {
    3: (13, 13, 4, 3, 5, 14),
    4: (10, 12, 3, 2, 3, 10),
    5: (8, 12, 3, 2, 5, 8),
    6: (7, 10, 3, 2, 5, 6),
}
FOUR_THIRTEEN = {**STANDARD, 4: (10, 12, 4, 3, 7, 10)}
DU_COEUR = {
    **STANDARD,
    6: (6, 16, 3, 2, 5, 6),
    7: (6, 10, 3, 2, 10, 6),
    8: (5, 12, 3, 2, 11, 5),
}
DU_COEUR_LOW = {**DU_COEUR, 8: (5, 12, 2, 1, 3, 5)}

PRESETS = [
    ("winner-advantage", "standard", STANDARD),
    ("classic-stakes", "standard", STANDARD),
    ("classic-stakes", "willughby-four-thirteen", FOUR_THIRTEEN),
    ("classic-stakes", "du-coeur", DU_COEUR),
    ("classic-stakes", "du-coeur-low-stakes", DU_COEUR_LOW),
    ("caidis", "standard", {size: STANDARD[size] for size in (3, 4, 5)}),
]
CASES = [
    pytest.param(scoring, key, size, numbers[size], id=f"{scoring}-{key}-{size}")
    for scoring, key, numbers in PRESETS
    for size in sorted(numbers)
]


def rows_for(size):
    """A round of ``size`` deals that add up to 52, each seat last in once, pairs spread
    unevenly, and the seats lying down in an order that turns with the deal."""
    rows = []
    for deal in range(1, size + 1):
        left_over = 4 + 2 * (deal % 3)
        pairs = (52 - left_over) // 2
        weights = [(seat * 7 + deal * 3) % size + 1 for seat in range(1, size + 1)]
        share = [pairs * weight // sum(weights) for weight in weights]
        share[weights.index(max(weights))] += pairs - sum(share)
        last_in = (deal * 3) % size + 1
        others = [seat for seat in range(1, size + 1) if seat != last_in]
        turn = deal % len(others)
        rows.append(
            {
                "won": [2 * pair for pair in share],
                "last_in": last_in,
                "left_over": left_over,
                "laid_down": others[turn:] + others[:turn],
            }
        )
    return rows


def by_hand(scoring, numbers, row, dealer):
    """One deal's points, as docs/rules.md tells them."""
    size = len(row["won"])
    won, last_in, left_over = row["won"], row["last_in"], row["left_over"]
    if scoring == "winner-advantage":
        return [(w + (left_over if s == last_in else 0)) // 2 for s, w in enumerate(won, 1)]
    final = [w + (left_over if s == dealer else 0) for s, w in enumerate(won, 1)]
    if scoring == "caidis":
        nets = [0] * size
        for k, seat in enumerate(row["laid_down"], start=1):
            nets[seat - 1] = 2 * k - size - 1
        nets[last_in - 1] = size - 1
        most = [s for s, f in enumerate(final, 1) if f == max(final)]
        if len(most) == 1:
            nets[dealer - 1] -= 1
            nets[most[0] - 1] += 1
        return nets
    _, _, dealer_stake, other_stake, prize, even = numbers
    nets = []
    for seat, cards in enumerate(final, start=1):
        units = cards - even
        if even % 2:  # no one ends on an odd break-even: round away from it
            units += 1 if cards > even else -1
        stake = dealer_stake if seat == dealer else other_stake
        nets.append(-stake + (prize if seat == last_in else 0) + units // 2)
    return nets


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.mark.parametrize(("scoring", "key", "size", "numbers"), CASES)
def test_a_round_typed_at_the_desk_and_on_a_phone_scores_as_worked_out_by_hand(
    client, scorer_client, scorer, scoring, key, size, numbers
):
    tournament = TournamentFactory(
        slug="rules-night",
        scoring=scoring,
        rule_set=key,
        table_sizes=[size],
        two_person_check=False,
        scorers=[scorer],
    )
    players = make_players(tournament, 2 * size)
    round_ = RoundFactory(tournament=tournament, number=1, started=True)
    desk_table, phone_table = play_round(round_, [players[:size], players[size:]])
    rows = rows_for(size)

    sheet = reverse("scorer:sheet", args=["rules-night", 1, 1])
    response = scorer_client.post(sheet, form(rows))
    assert response.status_code == 302, response.content.decode()[:3000]
    type_sheet(client, phone_table, rows)
    assert submit(client, phone_table).status_code == 302
    confirm = reverse("scorer:confirm", args=["rules-night", 1, 2])
    review = {"mode": "review", "expected_version": version(phone_table)}
    assert scorer_client.post(confirm, review).status_code == 302
    statuses = Sheet.objects.filter(table__round=round_).values_list("status", flat=True)
    assert set(statuses) == {SheetStatus.CONFIRMED}
    round_.released = True
    round_.save(update_fields=["released"])

    expected = {}
    for table in (desk_table, phone_table):
        seated = list(table.seats.order_by("position").values_list("player_id", flat=True))
        for number, row in enumerate(rows, start=1):
            dealer = (number - 1) % size + 1
            for player, points in zip(seated, by_hand(scoring, numbers, row, dealer), strict=True):
                expected[player] = expected.get(player, 0) + points
    standings = tournament_standings(tournament).standings
    assert {row.key: row.tally.points for row in standings.rows} == expected
