"""Writes about accounts: creating one under the instance's sign-up policy
(``settings.SIGNUP``: open, by invitation, or closed), sign-up invitations, and
deleting an account without tearing holes in anybody else's history.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scorekeeper.errors import AccountRefused
from scorekeeper.models import Game, League, Membership, Player, SignupInvitation
from scorekeeper.services.games import game_delete
from scorekeeper.services.player_admin import player_update
from scorekeeper.services.players import player_create

SIGNUP_CLOSED = gettext_noop(
    "Sign-up is closed on this instance: ask the person who runs it for an account."
)
INVITATION_NEEDED = gettext_noop("Sign-up is by invitation: enter the code you were given.")
INVITATION_UNKNOWN = gettext_noop(
    "There is no such invitation. Check the code or ask for a new one."
)
INVITATION_EXPIRED = gettext_noop("This invitation has expired. Ask for a new one.")
INVITATION_USED = gettext_noop("This invitation has been used up. Ask for a new one.")


def may_make_invitations(user: User) -> bool:
    """Whether ``user`` may hand out sign-up invitations from their account page."""
    return (
        settings.SIGNUP == "invite"
        and settings.SIGNUP_INVITES_BY == "users"
        and user.is_authenticated
        and user.is_active
    )


def signup_check(code: str = "") -> SignupInvitation | None:
    """Refuse (:class:`AccountRefused`) a sign-up the policy does not allow; the
    invitation it would use, when sign-up is by invitation. Uses nothing up."""
    if settings.SIGNUP == "closed":
        raise AccountRefused(_(SIGNUP_CLOSED), closed=True)
    if settings.SIGNUP != "invite":
        return None
    code = code.strip()
    if not code:
        raise AccountRefused(_(INVITATION_NEEDED), "invite")
    invitation = SignupInvitation.objects.filter(code=code).first()
    if invitation is None:
        raise AccountRefused(_(INVITATION_UNKNOWN), "invite")
    if invitation.expires_at <= timezone.now():
        raise AccountRefused(_(INVITATION_EXPIRED), "invite")
    if invitation.uses >= invitation.max_uses:
        raise AccountRefused(_(INVITATION_USED), "invite")
    return invitation


def account_create(
    *, username: str, password: str, email: str, display_name: str = "", invite: str = ""
) -> User:
    """A new account and the player that stands for it at the table, if the sign-up
    policy allows it; an invitation it needs is used once, in the same transaction
    (two people racing for its last use: one gets the account, the other a refusal)."""
    with transaction.atomic():
        invitation = signup_check(invite)
        if invitation is not None:
            claimed = SignupInvitation.objects.filter(
                pk=invitation.pk, uses__lt=F("max_uses"), expires_at__gt=timezone.now()
            ).update(uses=F("uses") + 1)
            if not claimed:
                raise AccountRefused(_(INVITATION_USED), "invite")
        # (The forms check it too, before; this is for two sign-ups racing for one name.)
        taken = AccountRefused(_("A user with that username already exists."), "username")
        if User.objects.filter(username__iexact=username).exists():
            raise taken
        try:
            with transaction.atomic():
                user = User.objects.create_user(username, email, password)
        except IntegrityError:
            raise taken from None
        player_create(name=display_name or username, created_by=user, user=user)
    return user


def invitation_create(
    *, user: User, note: str = "", days: int = 14, uses: int = 1
) -> SignupInvitation:
    """A sign-up invitation made by ``user`` on their account page."""
    if not may_make_invitations(user):
        raise AccountRefused(_("Only the administrator makes invitations on this instance."))
    return SignupInvitation.objects.create(
        created_by=user,
        note=note.strip()[:120],
        expires_at=timezone.now() + timedelta(days=days),
        max_uses=uses,
    )


def _successor(league: League, leaving: User) -> User | None:
    """Who takes a league over from its departing owner: the member with an active
    account who joined first, else the instance's first administrator."""
    membership = (
        Membership.objects.filter(league=league, player__user__is_active=True)
        .exclude(player__user=leaving)
        .select_related("player__user")
        .order_by("joined_at", "pk")
        .first()
    )
    if membership is not None:
        return membership.player.user
    return (
        User.objects.filter(is_superuser=True, is_active=True)
        .exclude(pk=leaving.pk)
        .order_by("pk")
        .first()
    )


def account_delete(*, user: User) -> None:
    """Delete ``user``'s account. Their games outside any league go with it; everything
    a league holds stays whole: each league they own passes to :func:`_successor`, their
    league games to the league's owner, and their player keeps its name and seats (no
    longer tied to an account), so standings and history do not change."""
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        for league in League.objects.filter(owner=user).order_by("pk"):
            successor = _successor(league, user)
            if successor is None:
                raise AccountRefused(
                    _(
                        "Nobody else with an account could take over your league "
                        "“%(league)s”: add a member with an account first."
                    )
                    % {"league": league.name}
                )
            league.owner = successor
            league.save(update_fields=["owner"])
        for league_id, owner_id in (
            Game.objects.filter(owner=user, league__isnull=False)
            .values_list("league_id", "league__owner_id")
            .distinct()
        ):
            Game.objects.filter(owner=user, league_id=league_id).update(
                owner_id=owner_id, version=F("version") + 1
            )
        for game in Game.objects.filter(owner=user, league__isnull=True):
            game_delete(game=game, user=user)
        user.delete()


def account_update(*, user: User, name: str, email: str) -> None:
    """Change ``user``'s name at the table (their player's, made if they have none)
    and e-mail address (checked by the caller's form)."""
    with transaction.atomic():
        if email != user.email:
            user.email = email
            user.save(update_fields=["email"])
        player = Player.objects.filter(user=user).first()
        if player is None:
            player_create(name=name or user.get_username(), created_by=user, user=user)
        elif name:
            player_update(user=user, player=player, name=name)
