"""The shapes of the read API's answers: each serializer renders the data ``api.reading``
gathers, and the OpenAPI schema (drf-spectacular) is made from these same serializers, so
the schema and the answers cannot drift apart.

Every field is always present; one that may have no value says so (``allow_null``).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from scoring.tiebreaks import one_figure_tiebreaks


class ReadOnlySerializer(serializers.Serializer):
    """Read-only: renders, never parses."""

    def create(self, validated_data: Any) -> Any:
        raise NotImplementedError

    def update(self, instance: Any, validated_data: Any) -> Any:
        raise NotImplementedError


class ProblemSerializer(ReadOnlySerializer):
    """An error, as RFC 9457 has it (``application/problem+json``)."""

    type = serializers.CharField(help_text='Always "about:blank": the status says it all.')
    title = serializers.CharField(help_text="The HTTP status's phrase: Not Found.")
    status = serializers.IntegerField()
    detail = serializers.CharField(help_text="What was wrong, in words.")
    instance = serializers.CharField(required=False, help_text="The path asked for.")


class ProgressSerializer(ReadOnlySerializer):
    after_round = serializers.IntegerField(help_text="The highest released round; 0 before any.")
    planned_rounds = serializers.IntegerField()
    final = serializers.BooleanField(
        help_text="The last planned round is released, or the organiser marked it finished."
    )
    label = serializers.CharField(help_text="after round 2 of 4 — provisional, final standings…")


class LinkSerializer(ReadOnlySerializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    url = serializers.URLField()


class TournamentSummarySerializer(ReadOnlySerializer):
    slug = serializers.CharField(
        help_text="The tournament's address: /t/SLUG/ and /api/v1/tournaments/SLUG."
    )
    name = serializers.CharField()
    date = serializers.DateField(allow_null=True)
    venue = serializers.CharField(allow_blank=True)
    scoring = serializers.CharField(help_text="The scoring system's key.")
    scoring_label = serializers.CharField()
    rule_set = serializers.CharField(help_text="The rule set's key (a preset, or house).")
    planned_rounds = serializers.IntegerField()
    progress = ProgressSerializer()
    url = serializers.URLField(help_text="This tournament in the API.")
    page = serializers.URLField(help_text="Its public standings page.")


class RoundLinkSerializer(ReadOnlySerializer):
    number = serializers.IntegerField()
    state = serializers.ChoiceField(
        choices=["released", "seating"],
        help_text="released: its results count; seating: being played, its seating shown.",
    )
    url = serializers.URLField()


class TournamentSerializer(TournamentSummarySerializer):
    rotations_per_round = serializers.IntegerField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    finished = serializers.BooleanField()
    seating_public = serializers.BooleanField()
    rounds = RoundLinkSerializer(many=True, help_text="The rounds shown publicly, in order.")
    standings = serializers.URLField()
    players = serializers.URLField()
    series = LinkSerializer(many=True, help_text="The series that count it.")


class ListPageSerializer(ReadOnlySerializer):
    count = serializers.IntegerField(help_text="How many items the whole list holds.")
    next = serializers.URLField(allow_null=True, help_text="The next page; null on the last.")
    previous = serializers.URLField(
        allow_null=True, help_text="The page before; null on the first."
    )


class TournamentListSerializer(ListPageSerializer):
    results = TournamentSummarySerializer(many=True)


# StandingsSerializer -----------------------------------------------------------------------------


class AdjustmentSerializer(ReadOnlySerializer):
    round = serializers.IntegerField()
    points = serializers.IntegerField()
    reason = serializers.CharField()


class TableWaitSerializer(ReadOnlySerializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()


class IncompleteTableSerializer(TableWaitSerializer):
    deals = serializers.IntegerField()
    expected = serializers.IntegerField()


class ChancesSerializer(ReadOnlySerializer):
    win = serializers.FloatField(help_text="The share of simulated finishes won, 0 to 1.")
    win_reachable = serializers.BooleanField(help_text="False only when proved out of reach.")
    top3 = serializers.FloatField()
    top3_reachable = serializers.BooleanField()
    need = serializers.IntegerField(
        allow_null=True, help_text="About how many points more than the leader they need."
    )


def _figure_fields() -> dict[str, serializers.Field]:
    return {
        tiebreak.key: serializers.IntegerField(
            allow_null=True, help_text=f"The {tiebreak.key} tiebreak's figure."
        )
        for tiebreak in one_figure_tiebreaks()
    }


class _StandingRowBaseSerializer(ReadOnlySerializer):
    rank = serializers.IntegerField(
        allow_null=True, help_text="Null while the player waits for a result others have."
    )
    shared = serializers.BooleanField()
    player_id = serializers.CharField(
        help_text="The organiser's reference of the player: the file's player_id."
    )
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    points = serializers.IntegerField()
    deals = serializers.IntegerField()
    rounds = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        help_text="Each counted round's total, in round_numbers' order; null without a result.",
    )
    decided_by = serializers.CharField(allow_null=True)
    no_result_yet = serializers.ListField(child=serializers.IntegerField())
    adjustments = AdjustmentSerializer(many=True)
    id = serializers.IntegerField(help_text="The player's id in the API and the pages.")
    url = serializers.URLField()
    chances = ChancesSerializer(
        allow_null=True, help_text="Null unless the podium chances are shown."
    )


# The tiebreaks' figures, one field each, as the standings file has them.
StandingRowSerializer: Any = serializers.SerializerMetaclass(
    "StandingRowSerializer",
    (_StandingRowBaseSerializer,),
    {"__module__": __name__, **_figure_fields()},
)


class ChancesStateSerializer(ReadOnlySerializer):
    state = serializers.ChoiceField(choices=["shown", "being worked out", "none"])
    after_round = serializers.IntegerField(required=False)
    rounds_left = serializers.IntegerField(required=False)
    finishes = serializers.IntegerField(required=False)
    ratings_of = serializers.CharField(required=False, allow_blank=True)
    method = serializers.CharField(required=False)


class StandingsSerializer(ReadOnlySerializer):
    tournament = serializers.CharField(help_text="The tournament's slug.")
    scoring = serializers.CharField()
    rule_set = serializers.CharField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    round_numbers = serializers.ListField(child=serializers.IntegerField())
    rows = StandingRowSerializer(many=True)
    incomplete_tables = IncompleteTableSerializer(many=True)
    tables_without_result = TableWaitSerializer(many=True)
    progress = ProgressSerializer()
    chances = ChancesStateSerializer()


# Rounds --------------------------------------------------------------------------------


class PlayerRefSerializer(ReadOnlySerializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.URLField()


class SeatSerializer(ReadOnlySerializer):
    position = serializers.IntegerField(help_text="Seat 1 deals the round's first deal.")
    player = PlayerRefSerializer()
    club = serializers.CharField(allow_blank=True)


class SeatResultSerializer(ReadOnlySerializer):
    position = serializers.IntegerField()
    points = serializers.IntegerField()
    cards_won = serializers.IntegerField()
    last_in = serializers.IntegerField()
    winner = serializers.BooleanField()
    left_after_deal = serializers.IntegerField(allow_null=True)


class TableResultSerializer(ReadOnlySerializer):
    deals_played = serializers.IntegerField()
    expected_deals = serializers.IntegerField()
    stopped_early = serializers.BooleanField()
    seats = SeatResultSerializer(many=True)


class TableSerializer(ReadOnlySerializer):
    number = serializers.IntegerField()
    seats = SeatSerializer(many=True)
    result = TableResultSerializer(
        allow_null=True, help_text="Null while being played, or while it has no result yet."
    )


class ByeSerializer(PlayerRefSerializer):
    points = serializers.IntegerField(allow_null=True, help_text="Null while being played.")


class RoundAdjustmentSerializer(ReadOnlySerializer):
    player = PlayerRefSerializer()
    points = serializers.IntegerField()
    reason = serializers.CharField()


class RoundSerializer(ReadOnlySerializer):
    number = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["released", "seating"])
    tables = TableSerializer(many=True)
    byes = ByeSerializer(many=True)
    adjustments = RoundAdjustmentSerializer(many=True)


# Players -------------------------------------------------------------------------------


class PersonLinkSerializer(ReadOnlySerializer):
    identifier = serializers.CharField()
    url = serializers.URLField()


class PlayerSummarySerializer(ReadOnlySerializer):
    id = serializers.IntegerField(help_text="The number in the player's page's address.")
    ref = serializers.CharField(help_text="The organiser's reference: the files' player_id.")
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    person = PersonLinkSerializer(
        allow_null=True, help_text="Their career, when linked to a person."
    )
    rank = serializers.IntegerField(allow_null=True)
    shared = serializers.BooleanField()
    points = serializers.IntegerField()
    no_result_yet = TableWaitSerializer(many=True)
    url = serializers.URLField()
    page = serializers.URLField()


class PlayerListSerializer(ListPageSerializer):
    results = PlayerSummarySerializer(many=True)


class DealSerializer(ReadOnlySerializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField(help_text="The dealer's seat.")
    won = serializers.IntegerField(allow_null=True, help_text="Cards won; null once they had left.")
    left = serializers.BooleanField()
    last_in = serializers.BooleanField()
    out = serializers.CharField(allow_null=True, help_text="Where they lay down: 1st, 2nd…")
    points = serializers.IntegerField(allow_null=True)


class RoundResultSerializer(ReadOnlySerializer):
    points = serializers.IntegerField()
    cards_won = serializers.IntegerField()
    last_in = serializers.IntegerField()
    winner = serializers.BooleanField()
    left_after_deal = serializers.IntegerField(allow_null=True)


class RoundAdjustedSerializer(ReadOnlySerializer):
    points = serializers.IntegerField()
    reason = serializers.CharField()


class PlayerRoundSerializer(ReadOnlySerializer):
    round = serializers.IntegerField()
    rank_after = serializers.IntegerField(allow_null=True)
    shared_after = serializers.BooleanField()
    points_after = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True, help_text="Null for a bye or a round missed.")
    seat = serializers.IntegerField(allow_null=True)
    opponents = PlayerRefSerializer(many=True)
    result = RoundResultSerializer(allow_null=True)
    bye_points = serializers.IntegerField(allow_null=True)
    adjustments = RoundAdjustedSerializer(many=True)
    total = serializers.IntegerField(
        allow_null=True, help_text="The round's total in the standings."
    )
    deals = DealSerializer(many=True)


class PlayerSerializer(PlayerSummarySerializer):
    chances = ChancesSerializer(allow_null=True)
    rounds = PlayerRoundSerializer(many=True, help_text="Each released round, in order.")


# SeriesSerializer and careers --------------------------------------------------------------------


class SeriesSummarySerializer(ReadOnlySerializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    scheme = serializers.CharField()
    scheme_label = serializers.CharField()
    count_best = serializers.IntegerField(allow_null=True)
    min_events = serializers.IntegerField()
    url = serializers.URLField()
    page = serializers.URLField()


class SeriesListSerializer(ListPageSerializer):
    results = SeriesSummarySerializer(many=True)


class SeriesTournamentSerializer(LinkSerializer):
    date = serializers.DateField(allow_null=True)


class SeriesSerializer(SeriesSummarySerializer):
    placing = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    tournaments = SeriesTournamentSerializer(
        many=True, help_text="The tournaments it counts, in order."
    )
    standings = serializers.URLField()
    ratings = serializers.URLField()


class SeriesResultSerializer(ReadOnlySerializer):
    tournament = serializers.CharField()
    rank = serializers.IntegerField()
    shared = serializers.BooleanField()
    field = serializers.IntegerField()
    points = serializers.FloatField()
    counted = serializers.BooleanField()


class SeriesStandingRowSerializer(ReadOnlySerializer):
    rank = serializers.IntegerField(allow_null=True)
    shared = serializers.BooleanField()
    member = serializers.CharField(help_text="The person's identifier.")
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    points = serializers.FloatField()
    events = serializers.IntegerField()
    counted = serializers.ListField(child=serializers.CharField())
    best = serializers.FloatField()
    career = serializers.URLField()
    results = SeriesResultSerializer(many=True)


class SeriesStandingsSerializer(ListPageSerializer):
    results = SeriesStandingRowSerializer(many=True)


class RatingRowSerializer(ReadOnlySerializer):
    rank = serializers.IntegerField()
    member = serializers.CharField()
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    rating = serializers.FloatField(help_text="mu − 3 × sigma.")
    matches = serializers.IntegerField()
    provisional = serializers.BooleanField()
    career = serializers.URLField()


class SeriesRatingsSerializer(ListPageSerializer):
    results = RatingRowSerializer(many=True)


class CareerTournamentSerializer(LinkSerializer):
    date = serializers.DateField(allow_null=True)
    rank = serializers.IntegerField()
    shared = serializers.BooleanField()
    field = serializers.IntegerField()
    points = serializers.IntegerField()


class CareerRatingSerializer(ReadOnlySerializer):
    rank = serializers.IntegerField()
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField()
    provisional = serializers.BooleanField()


class RatingPointSerializer(ReadOnlySerializer):
    tournament = serializers.CharField()
    round = serializers.IntegerField()
    rating = serializers.FloatField()


class CareerSeriesSerializer(ReadOnlySerializer):
    series = serializers.CharField()
    name = serializers.CharField()
    url = serializers.URLField()
    rank = serializers.IntegerField(allow_null=True)
    shared = serializers.BooleanField()
    points = serializers.FloatField()
    events = serializers.IntegerField()
    rating = CareerRatingSerializer(allow_null=True)
    rating_history = RatingPointSerializer(many=True)


class CareerSerializer(ReadOnlySerializer):
    identifier = serializers.CharField()
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    tournaments = CareerTournamentSerializer(many=True)
    series = CareerSeriesSerializer(many=True)
    page = serializers.URLField()
