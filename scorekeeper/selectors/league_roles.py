"""What an account is to a league (its owner, an admin, a member who records or one who
only looks) and what that lets them do with the league itself. Part of the one access
decision: ``selectors.access`` gives these names (and the table of rights), and turns a
league role into a role on each of the league's games."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import OuterRef, Q, QuerySet, Subquery

from scorekeeper.models import League, MemberRole, Membership


class LeagueRole(StrEnum):
    """What an account is to a league, strongest first."""

    OWNER = "owner"
    ADMIN = MemberRole.ADMIN.value
    RECORDER = MemberRole.RECORDER.value
    VIEWER = MemberRole.VIEWER.value
    NONE = "none"


def league_role(user: User | AnonymousUser | None, league_id: int) -> LeagueRole:
    """What ``user`` is to league ``league_id`` (one query; none for a site
    administrator, who is an owner everywhere)."""
    if user is None or not user.is_authenticated:
        return LeagueRole.NONE
    if user.is_superuser:
        return LeagueRole.OWNER
    member_role = Membership.objects.filter(
        league_id=OuterRef("pk"), player__user_id=user.pk
    ).values("role")[:1]
    row = (
        League.objects.filter(pk=league_id)
        .annotate(member_role=Subquery(member_role))
        .values_list("owner_id", "member_role")
        .first()
    )
    if row is None:
        return LeagueRole.NONE
    owner_id, role = row
    if owner_id == user.pk:
        return LeagueRole.OWNER
    return LeagueRole(role) if role in MemberRole.values else LeagueRole.NONE


@dataclass(frozen=True)
class LeagueAccess:
    """An account's rights over one league itself (its games ask :func:`game_access`)."""

    league: League
    role: LeagueRole

    @property
    def may_view(self) -> bool:
        return self.role is not LeagueRole.NONE

    @property
    def may_record(self) -> bool:
        """Start games in the league (and seat its members at them)."""
        return self.role in (LeagueRole.OWNER, LeagueRole.ADMIN, LeagueRole.RECORDER)

    @property
    def may_manage(self) -> bool:
        """Add members and set their roles."""
        return self.role in (LeagueRole.OWNER, LeagueRole.ADMIN)

    @property
    def may_start_season(self) -> bool:
        """Start a new season, closing the current one with its final table kept: the
        owner and admins, who manage the league (House reading: a season is the
        league's running, as its members and games are, not its existence)."""
        return self.role in (LeagueRole.OWNER, LeagueRole.ADMIN)

    @property
    def may_delete(self) -> bool:
        return self.role is LeagueRole.OWNER

    @property
    def may_leave(self) -> bool:
        """End one's own membership (the owner hands the league over first)."""
        return self.role in (LeagueRole.ADMIN, LeagueRole.RECORDER, LeagueRole.VIEWER)

    def may_set_role(self, member_user_id: int | None) -> bool:
        """Change the role of a member whose player is tied to account
        ``member_user_id`` (or to none): the league's owner and admins may, except the
        owner's own (the owner is the owner whatever their membership says)."""
        return self.may_manage and member_user_id != self.league.owner_id


def league_access(user: User | AnonymousUser | None, league: League) -> LeagueAccess:
    """``user``'s rights over ``league`` (one query)."""
    if user is not None and user.is_authenticated and league.owner_id == user.pk:
        return LeagueAccess(league, LeagueRole.OWNER)
    return LeagueAccess(league, league_role(user, league.pk))


@dataclass(frozen=True)
class RoleLine:
    """A member with an account, as the league page's roles list shows them."""

    player_id: int
    name: str
    role: str
    #: Their role's name for people ("Records games").
    label: str
    is_owner: bool


def league_role_lines(league: League) -> list[RoleLine]:
    """The league's members who have an account (roles matter only to someone who signs
    in), the owner first, then by name. One query."""
    rows = (
        Membership.objects.filter(league=league, player__user__isnull=False)
        .order_by("player__name", "player_id")
        .values_list("player_id", "player__name", "role", "player__user_id")
    )
    labels = dict(MemberRole.choices)
    lines = [
        RoleLine(pid, name, role, str(labels.get(role, role)), user_id == league.owner_id)
        for pid, name, role, user_id in rows
    ]
    return sorted(lines, key=lambda line: not line.is_owner)


def member_recording_leagues(user: User | AnonymousUser) -> set[int]:
    """The leagues in which ``user`` is a member who may start games (an admin or a
    recorder; the leagues they own are theirs anyway). One query."""
    if not user.is_authenticated:
        return set()
    return set(
        Membership.objects.filter(
            player__user_id=user.pk, role__in=[MemberRole.ADMIN, MemberRole.RECORDER]
        ).values_list("league_id", flat=True)
    )


def leagues_recordable_by(user: User | AnonymousUser) -> QuerySet[League]:
    """The leagues ``user`` may start games in (:attr:`LeagueAccess.may_record`): those
    they own, and those where they are an admin or a member who records."""
    if not user.is_authenticated:
        return League.objects.none()
    if user.is_superuser:
        return League.objects.all()
    recording = Membership.objects.filter(
        player__user_id=user.pk, role__in=[MemberRole.ADMIN, MemberRole.RECORDER]
    ).values("league_id")
    return League.objects.filter(Q(owner_id=user.pk) | Q(pk__in=recording))
