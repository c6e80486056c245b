"""Writes about a league's members beyond adding them (``services.players``): setting a
member's role, and leaving a league. Who may is ``selectors.access.league_access``; the
pages and the API ask for the password before a member leaves (it cannot be undone by
the one who left)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import RuleError
from scorekeeper.models import League, MemberRole, Membership
from scorekeeper.selectors.access import LeagueRole, league_access
from scorekeeper.selectors.games import can_change_league
from scorekeeper.validation import parse_id

OWNER_ROLE_FIXED = gettext_noop("The league's owner keeps every right: their role is not changed.")
WRONG_PASSWORD = gettext_noop("That is not your password: nothing was done.")


def league_to_record_in(user: User, league_id: int) -> League:
    """The league ``league_id`` when ``user`` may record games in it (a game or a night
    started in it); :class:`RuleError` on ``league`` otherwise, the same whether it does
    not exist or is not theirs."""
    league = League.objects.filter(pk=league_id).first()
    if league is None or not can_change_league(user, league):
        raise RuleError(
            _("league %(league)s does not exist or you are not in it") % {"league": league_id},
            "league",
        )
    return league


def member_set_role(*, league: League, player: int | str, role: object, user: User) -> Membership:
    """Give the member ``player`` of ``league`` the ``role`` (``MemberRole``), as ``user``:
    :class:`PermissionDenied` unless they are the league's owner or an admin, or when the
    member is the owner; :class:`RuleError` for an unknown role or a player who is not a
    member."""
    access = league_access(user, league)
    if not access.may_manage:
        raise PermissionDenied(_("Only the league's owner and admins may set members' roles."))
    if not isinstance(role, str) or role not in MemberRole.values:
        choices = ", ".join(MemberRole.values)
        raise RuleError(_("role must be one of %(choices)s") % {"choices": choices}, "role")
    player_id = parse_id(player, "player")
    with transaction.atomic():
        membership = (
            Membership.objects.select_for_update()
            .select_related("player")
            .filter(league=league, player_id=player_id)
            .first()
        )
        if membership is None:
            raise RuleError(
                _("player %(player)s is not a member of this league") % {"player": player_id},
                "player",
            )
        if not access.may_set_role(membership.player.user_id):
            raise PermissionDenied(_(OWNER_ROLE_FIXED))
        if membership.role != role:
            membership.role = role
            membership.save(update_fields=["role"])
    return membership


def league_leave(*, league: League, user: User, password: str) -> None:
    """End ``user``'s membership of ``league`` (their player's): its games, standings and
    history keep them; they no longer see the league. ``password`` is the account's,
    asked again: a wrong one raises :class:`RuleError` on ``password`` and nothing is
    done. The owner cannot leave (they hand the league over, or delete it)."""
    if not user.check_password(password):
        raise RuleError(_(WRONG_PASSWORD), field="password")
    access = league_access(user, league)
    if access.role is LeagueRole.OWNER:
        raise PermissionDenied(_("The league's owner cannot leave it."))
    if not access.may_leave:
        raise PermissionDenied(_("You are not a member of this league."))
    Membership.objects.filter(league=league, player__user_id=user.pk).delete()
