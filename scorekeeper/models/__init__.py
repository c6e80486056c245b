"""What the table reported, and little else.

A hand row keeps the input (cards, points, passes, claims) exactly as normalised by the
engine; totals, ranks, winners and ratings always come from the engine. The few derived
columns here (``Game.status``, ``Seat.place``…) exist only so league queries stay fast;
``manage.py rebuild_derived`` recomputes them from the stored hands.

One module per part of the domain; everything is imported from here.
"""

from scorekeeper.models.accounts import (
    SIGNUP_INVITATION_DAYS,
    SignupInvitation,
    _invitation_code,
    _invitation_expiry,
)
from scorekeeper.models.games import (
    Game,
    GameStatus,
    Hand,
    HandAction,
    HandRevision,
    IdempotencyRecord,
    Night,
    Seat,
    TableState,
    validate_ruleset,
)
from scorekeeper.models.leagues import League, MemberRole, Membership, Season
from scorekeeper.models.operations import (
    LeagueImport,
    LeagueImportStatus,
    RateCounter,
    WorkerHeartbeat,
)
from scorekeeper.models.players import PLAYER_COLOURS, Player, PlayerMerge
from scorekeeper.models.preferences import AccountLanguage
from scorekeeper.models.sharing import Guest, Invite, InviteRole
from scorekeeper.models.statistics import (
    ALL_GAMES,
    LeagueGameCount,
    PlayerStanding,
    RatingBacklog,
    RatingPoint,
)

__all__ = [
    "ALL_GAMES",
    "PLAYER_COLOURS",
    "SIGNUP_INVITATION_DAYS",
    "AccountLanguage",
    "Game",
    "GameStatus",
    "Guest",
    "Hand",
    "HandAction",
    "HandRevision",
    "IdempotencyRecord",
    "Invite",
    "InviteRole",
    "League",
    "LeagueGameCount",
    "LeagueImport",
    "LeagueImportStatus",
    "MemberRole",
    "Membership",
    "Night",
    "Player",
    "PlayerMerge",
    "PlayerStanding",
    "RateCounter",
    "RatingBacklog",
    "RatingPoint",
    "Season",
    "Seat",
    "SignupInvitation",
    "TableState",
    "WorkerHeartbeat",
    "_invitation_code",
    "_invitation_expiry",
    "validate_ruleset",
]
