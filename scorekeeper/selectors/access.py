"""Who may do what with one game: the one access decision every page, API view and
service asks.

:func:`game_access` decides once, for one request, what the viewer is to the game —
its owner, a member of its league, a player who sat at it, a guest who joined by a score
or a watch link, or nobody — and :class:`GameAccess` answers every question asked of
that (may they see it, enter hands, manage it). A write asks it once more under the
game's lock (``services.locked_game``), so a link revoked or a membership ended a moment
ago already refuses.

A finished game is changed only by someone who may reopen it (its owner, its league's
owner and admins): correcting or undoing a hand of a finished game can reopen it, and a
guest's link is for playing the game, not for rewriting its result.

A league's members hold a role (``Membership.role``): :func:`league_access` answers what
they may do with the league itself, and their role decides what :func:`game_access` gives
them on its games. The table of rights (the README's "League roles" says it the same way):

============================  =====  =====  ========  ======  =============
a league game …               owner  admin  recorder  viewer  game's owner
============================  =====  =====  ========  ======  =============
see it, its league            yes    yes    yes       yes     yes
record a hand (in play)       yes    yes    yes       no      yes
correct, undo (in play)       yes    yes    yes       no      yes
correct, undo (finished)      yes    yes    no        no      yes
close, reopen, delete, share  yes    yes    no        no      yes
links (make, list, revoke)    yes    yes    no        no      yes
start a game in the league    yes    yes    yes       no      —
add members, set roles        yes    yes    no        no      —
start a season                yes    yes    no        no      —
leave the league              no     yes    yes       yes     —
delete the league             yes    no     no        no      —
============================  =====  =====  ========  ======  =============

"owner" is the league's owner (a site administrator counts as one); the game's owner is
the account that started the game, who keeps it whatever their role (House reading: a
member made a viewer stops starting games and touching others', not their own).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from scorekeeper.models import (
    Game,
    GameStatus,
    Guest,
    Invite,
    InviteRole,
    Seat,
)
from scorekeeper.selectors.games import game_with_related
from scorekeeper.selectors.league_roles import LeagueAccess as LeagueAccess
from scorekeeper.selectors.league_roles import LeagueRole as LeagueRole
from scorekeeper.selectors.league_roles import league_access as league_access
from scorekeeper.selectors.league_roles import league_role as league_role
from scorekeeper.validation import MAX_ID


class Role(StrEnum):
    """What the viewer is to the game, strongest first."""

    OWNER = "owner"
    #: The owner or an admin of the game's league, or a site administrator.
    MEMBER = "member"
    #: A member of the game's league who records games (:attr:`MemberRole.RECORDER`).
    RECORDER = "recorder"
    #: A member of the game's league who only looks (:attr:`MemberRole.VIEWER`).
    VIEWER = "viewer"
    #: A guest who joined by a score link and gave a name.
    SCORER = "scorer"
    #: An account whose player sat at the game (it sees the game, may not change it).
    PLAYER = "player"
    #: A guest who joined by a watch link (or a score link, before giving a name).
    WATCHER = "watcher"
    NONE = "none"


MANAGERS = frozenset({Role.OWNER, Role.MEMBER})


@dataclass(frozen=True)
class GuestLink:
    """The link a browser joined a game by: the invite, and the guest it named (if any);
    or, with no game's own link (``invite_id`` None), the links it joined nights by
    (``nights``: night id, invite, guest), one of which may be the game's night's. The web
    layer reads the ids from the session; :func:`game_access` checks them."""

    invite_id: int | None
    guest_id: int | None = None
    nights: tuple[tuple[int, int, int | None], ...] = ()

    @classmethod
    def of_guest(cls, guest: Guest) -> GuestLink:
        """The link ``guest`` joined by (their invite's game's, or its night's)."""
        night = guest.invite.night_id
        if night is None:
            return cls(guest.invite_id, guest.pk)
        return cls(None, nights=((night, guest.invite_id, guest.pk),))

    def for_game(self, game: Game) -> tuple[int, int | None, int | None] | None:
        """The invite and guest that may open ``game``, and the night whose invite it is
        (None: the game's own); None when none of these links is for it."""
        if self.invite_id is not None:
            return self.invite_id, self.guest_id, None
        for night, invite, guest in self.nights:
            if night == game.night_id:
                return invite, guest, night
        return None


@dataclass(frozen=True)
class GameAccess:
    """A viewer's access to one game, decided once (:func:`game_access`)."""

    game: Game
    role: Role
    #: The signed-in account (None for a browser without one).
    user: User | None = None
    #: The live link a guest joined by, and the guest it names.
    invite: Invite | None = None
    guest: Guest | None = None

    @property
    def may_view(self) -> bool:
        return self.role is not Role.NONE

    @property
    def may_manage(self) -> bool:
        """Close, reopen and delete the game, share it, publish its result."""
        return self.role in MANAGERS

    @property
    def may_record(self) -> bool:
        """Record the next hand (of a game still in play: the service says when it is
        over)."""
        return self.role in MANAGERS or self.role in (Role.RECORDER, Role.SCORER)

    @property
    def may_change(self) -> bool:
        """Record, correct and undo hands now: a finished game only for those who may
        reopen it."""
        if self.role in MANAGERS:
            return True
        return self.role in (Role.RECORDER, Role.SCORER) and self.game.status != GameStatus.FINISHED

    @property
    def is_guest(self) -> bool:
        """Joined by a link (and not an account that may see the game anyway)."""
        return self.invite is not None

    @property
    def writer(self) -> User | None:
        """The account a write is recorded under (None when a guest writes)."""
        return None if self.role is Role.SCORER else self.user

    @property
    def live_kind(self) -> str:
        """The viewer kind an events-stream ticket names (``live.capability``)."""
        if self.role is Role.OWNER:
            return "owner"
        if self.may_manage:
            return "manage"
        return "score" if self.role in (Role.SCORER, Role.RECORDER) else "watch"

    @property
    def answer_flags(self) -> tuple[bool, bool, bool, bool]:
        """What the viewer may do, as far as the live answer shows it: change hands,
        manage the game, record the next hand, and whether they joined by a link."""
        return (self.may_change, self.may_manage, self.may_record, self.is_guest)

    @property
    def guest_label(self) -> str:
        return str(self.guest) if self.guest is not None else "a guest"


#: The game role each league role gives on the league's games.
_GAME_ROLE = {
    LeagueRole.OWNER: Role.MEMBER,
    LeagueRole.ADMIN: Role.MEMBER,
    LeagueRole.RECORDER: Role.RECORDER,
    LeagueRole.VIEWER: Role.VIEWER,
}


def _sat_at(user: User, game: Game) -> bool:
    # Asked only of an account that neither owns the game nor belongs to its league.
    return Seat.objects.filter(game_id=game.pk, player__user_id=user.pk).exists()


def _guest_role(game: Game, link: GuestLink) -> tuple[Role, Invite | None, Guest | None]:
    held = link.for_game(game)
    if held is None:
        return Role.NONE, None, None
    invite_id, guest_id, night = held
    invites = Invite.objects.filter(pk=invite_id, revoked_at__isnull=True)
    invites = invites.filter(game=game) if night is None else invites.filter(night_id=night)
    invite = invites.only("id", "game_id", "night_id", "role", "revoked_at").first()
    if invite is None:
        return Role.NONE, None, None
    guest = None
    if invite.role == InviteRole.SCORE and guest_id is not None:
        guest = Guest.objects.filter(pk=guest_id, invite_id=invite.pk).first()
        if guest is not None and guest.removed_at is not None:
            # Removed by the owner: this phone is shut out, not demoted to watching.
            return Role.NONE, None, None
    return (Role.SCORER if guest is not None else Role.WATCHER), invite, guest


def game_access(
    game: Game, user: User | AnonymousUser | None, link: GuestLink | None = None
) -> GameAccess:
    """What ``user`` (and, in a browser that joined by a link, ``link``) may do with
    ``game``. Asks the database only what the owner's own request does not need: the
    league membership, then the link."""
    account = user if user is not None and user.is_authenticated else None
    assert account is None or isinstance(account, User)
    if account is not None:
        if game.owner_id == account.pk:
            return GameAccess(game, Role.OWNER, account)
        if account.is_superuser:
            return GameAccess(game, Role.MEMBER, account)
        if game.league_id is not None:
            in_league = _GAME_ROLE.get(league_role(account, game.league_id))
            if in_league is Role.VIEWER and link is not None:
                # A viewer who also joined by a score link scores by it.
                role, invite, guest = _guest_role(game, link)
                if role is Role.SCORER:
                    return GameAccess(game, role, account, invite, guest)
            if in_league is not None:
                return GameAccess(game, in_league, account)
    if link is not None:
        role, invite, guest = _guest_role(game, link)
        if role is Role.SCORER or (role is Role.WATCHER and account is None):
            return GameAccess(game, role, account, invite, guest)
        if account is not None and _sat_at(account, game):
            return GameAccess(game, Role.PLAYER, account)
        if role is Role.WATCHER:
            return GameAccess(game, role, account, invite, guest)
        return GameAccess(game, Role.NONE, account)
    if account is not None and _sat_at(account, game):
        return GameAccess(game, Role.PLAYER, account)
    return GameAccess(game, Role.NONE, account)


def find_game_access(
    pk: int,
    user: User | AnonymousUser | None,
    link: GuestLink | None = None,
    *,
    rows: bool = True,
    games: QuerySet[Game] | None = None,
) -> GameAccess | None:
    """Game ``pk`` (with what its sheet needs when ``rows``: league, owner, seats with
    their players, hands; or read from ``games``, a query of what the caller needs)
    and the viewer's access to it; None when there is no such game or the viewer may
    not see it."""
    if not 1 <= pk <= MAX_ID:
        return None
    if games is None:
        games = game_with_related() if rows else Game.objects.all()
    try:
        game = games.get(pk=pk)
    except Game.DoesNotExist:
        return None
    access = game_access(game, user, link)
    return access if access.may_view else None


#: What the live poll's access decision, version check and shared answer's key read of
#: the game row, and what the live answer's parts read of it (their rows come from the
#: cache of the game's version: its JSON columns load only when those are read again).
POLL_FIELDS = (
    *("id", "owner", "league", "night", "status", "version", "updated_at"),
    *("ruleset", "variant", "first_dealer", "closed", "hand_count", "created_at"),
    "corrected_hands",
)


def find_poll_access(
    pk: int, user: User | AnonymousUser | None, link: GuestLink | None = None
) -> GameAccess | None:
    """:func:`find_game_access` for the live poll, which every phone of every table
    sends every few seconds: only the game row's :data:`POLL_FIELDS`."""
    return find_game_access(pk, user, link, games=Game.objects.only(*POLL_FIELDS))


#: The streams a live answer is pushed to, by the ticket's kind and whether it names a
#: link: the viewers whose stream ends when their access does (the owner: until the
#: game is deleted; a guest: their link revoked, or they removed). An account let in by
#: its league or its seat may lose that while its stream is open: it asks Django.
PUSHED_ROLES = {
    ("owner", False): Role.OWNER,
    ("score", True): Role.SCORER,
    ("watch", True): Role.WATCHER,
}


def pushed_flags(kind: str, guest: bool) -> tuple[bool, bool, bool, bool] | None:
    """The :attr:`GameAccess.answer_flags` of a stream of ``kind`` on a game in play
    (None: no answer is pushed to it). A kind's phones differ on none of them while the
    game is in play; at a finished version a scorer may change nothing, and no answer is
    kept under these flags: none is pushed."""
    role = PUSHED_ROLES.get((kind, guest))
    if role is None:
        return None
    in_play = Game(status=GameStatus.IN_PROGRESS)
    link = Invite(role=InviteRole.WATCH) if guest else None
    return GameAccess(in_play, role, invite=link).answer_flags
