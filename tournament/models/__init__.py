"""What a tournament records: the facts from the score sheets; and, kept apart, what is
worked out from them once per change (``derived``, ``chances``), never a fact.

The models live in one module per concept (tournaments, people, players, rounds,
sheets, photos, series, invitations, adjustments, derived, chances, webhooks); this package's
``__init__`` imports every one of them, as Django's convention for a models package
asks, so that Django finds them all under the app label "tournament" (one history of
migrations, the same table names) and ``from tournament.models import Tournament``
keeps working everywhere. The migrations name the field defaults here
(``tournament.models.default_tiebreaks``).
"""

from tournament.models.adjustments import Adjustment
from tournament.models.chances import PodiumChances
from tournament.models.derived import (
    AdvisorAnswer,
    DerivedView,
    InstallationGeneration,
    TaskClaim,
)
from tournament.models.invitations import Invitation
from tournament.models.people import PERSON_ID_PREFIX, Person
from tournament.models.photos import UNFINISHED, PhotoState, SheetPhoto
from tournament.models.players import KeepApart, OpenDoor, Player
from tournament.models.rounds import Bye, Round, Seat, Table
from tournament.models.series import Series, SeriesScheme, SeriesTournament, default_placing
from tournament.models.sheets import Deal, DealResult, Sheet, SheetStatus, SheetVersion, TablePhone
from tournament.models.tournaments import (
    SCORING_CHOICES,
    ByeScore,
    TablePolicy,
    Tournament,
    default_table_sizes,
    default_tiebreaks,
)
from tournament.models.webhooks import (
    DeliveryState,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookFormat,
)

__all__ = [
    "PERSON_ID_PREFIX",
    "SCORING_CHOICES",
    "UNFINISHED",
    "Adjustment",
    "AdvisorAnswer",
    "Bye",
    "ByeScore",
    "Deal",
    "DealResult",
    "DeliveryState",
    "DerivedView",
    "InstallationGeneration",
    "Invitation",
    "KeepApart",
    "OpenDoor",
    "Person",
    "PhotoState",
    "Player",
    "PodiumChances",
    "Round",
    "Seat",
    "Series",
    "SeriesScheme",
    "SeriesTournament",
    "Sheet",
    "SheetPhoto",
    "SheetStatus",
    "SheetVersion",
    "Table",
    "TablePhone",
    "TablePolicy",
    "TaskClaim",
    "Tournament",
    "WebhookDelivery",
    "WebhookEndpoint",
    "WebhookFormat",
    "default_placing",
    "default_table_sizes",
    "default_tiebreaks",
]
