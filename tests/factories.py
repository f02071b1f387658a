import factory

from tournament.models import Deal, DealResult, Player, Round, Seat, Table, Tournament
from tournament.services.sheets import confirmed_rows, write_seat_sums


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Tournament {n}")
    slug = factory.Sequence(lambda n: f"tournament-{n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    tournament = factory.SubFactory(TournamentFactory)
    ref = factory.Sequence(lambda n: f"p{n}")
    name = factory.Faker("name")
    club = ""


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    round = factory.SubFactory(RoundFactory)
    number = factory.Sequence(lambda n: n + 1)


def seat_table(table, players):
    """Seat ``players`` at ``table`` in order (seat 1 first)."""
    return Seat.objects.bulk_create(
        Seat(table=table, round=table.round, position=position, player=player)
        for position, player in enumerate(players, start=1)
    )


def record_deal(table, number, won, last_in, left_over):
    deal = Deal.objects.create(table=table, number=number, last_in=last_in, left_over=left_over)
    DealResult.objects.bulk_create(
        DealResult(deal=deal, seat=seat, won=count) for seat, count in enumerate(won, start=1)
    )
    # As the sheet services do: the seats' sums follow the deals.
    write_seat_sums(table, confirmed_rows(table))
    return deal


def clear_deals(tournament):
    """Delete every deal of ``tournament``, and the seats' sums with them."""
    for table in Table.objects.filter(round__tournament=tournament):
        Deal.objects.filter(table=table).delete()
        write_seat_sums(table, [])
