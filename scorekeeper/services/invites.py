"""Writes about invites: links that let the other phones at the table into one game, or
into every game of one night.

Only whoever may change the game (its owner, its league's members) makes or revokes its
links; a guest who follows a score link gives a name once and is then named in the
history of every hand they record, correct or undo."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django.utils.translation import gettext as _

from games import RuleError
from scorekeeper.live import notify
from scorekeeper.models import Game, Guest, Invite, InviteRole, Night
from scorekeeper.selectors.access import game_access
from scorekeeper.selectors.nights import may_manage_night
from scorekeeper.validation import clean_name

#: Bytes of randomness in a token: 24 bytes (192 bits), 32 URL-safe characters.
TOKEN_BYTES = 24
GUEST_NAME_MAX = 40


def _check_may_share(user: User, game: Game) -> None:
    if not game_access(game, user).may_manage:
        raise PermissionDenied(
            _("Only the game's owner and its league's owner and admins may share it.")
        )


def _new_link(
    user: User, role: str, *, game: Game | None = None, night: Night | None = None
) -> Invite:
    """A new link to ``game`` or ``night`` (the caller checked who may share it)."""
    if role not in InviteRole.values:
        raise RuleError(
            _("'%(role)s' is not a role (choose score or watch)") % {"role": role}, "role"
        )
    token = secrets.token_urlsafe(TOKEN_BYTES)
    return Invite.objects.create(game=game, night=night, role=role, token=token, created_by=user)


def invite_create(*, game: Game, user: User, role: str) -> Invite:
    """A new link to ``game`` for ``role`` (``score`` or ``watch``)."""
    _check_may_share(user, game)
    return _new_link(user, role, game=game)


def _check_may_share_night(user: User, night: Night) -> None:
    if not may_manage_night(user, night):
        raise PermissionDenied(
            _("Only the night's owner and its league's owner and admins may share it.")
        )


def _check_may_share_link(user: User, invite: Invite) -> None:
    if invite.night is not None:
        _check_may_share_night(user, invite.night)
    else:
        assert invite.game is not None
        _check_may_share(user, invite.game)


def _tell_streams(invite: Invite) -> None:
    """The phones streaming a game by this link (a night's: any game of the night)."""
    if invite.night_id is None:
        assert invite.game_id is not None
        notify.invite_revoked(invite.game_id, invite.pk)
        return
    for game_id in Game.objects.filter(night_id=invite.night_id).values_list("pk", flat=True):
        notify.invite_revoked(game_id, invite.pk)


def night_invite_create(*, night: Night, user: User, role: str) -> Invite:
    """A new link to every game of ``night`` for ``role`` (``score`` or ``watch``)."""
    _check_may_share_night(user, night)
    return _new_link(user, role, night=night)


def invite_revoke(*, invite: Invite, user: User) -> None:
    """Shut a link: it answers 404 from now on, and its guests lose the game (a night's
    link: every game of the night) at their next request. The row stays, so the hands
    its guests recorded still name them."""
    _check_may_share_link(user, invite)
    now = timezone.now()
    if Invite.objects.filter(pk=invite.pk, revoked_at__isnull=True).update(revoked_at=now):
        invite.revoked_at = now
        _tell_streams(invite)


def guest_remove(*, guest: Guest, user: User) -> None:
    """Shut one guest out: their phone may no longer enter hands or see the game, from
    their next request on, while the link and its other guests work as before. The row
    stays, so the hands they recorded still name them. Their live stream is told as a
    revoked link's are (it resyncs, and the sheet it asks for is refused); the others on
    the link reconnect at once."""
    _check_may_share_link(user, guest.invite)
    now = timezone.now()
    if Guest.objects.filter(pk=guest.pk, removed_at__isnull=True).update(removed_at=now):
        guest.removed_at = now
        _tell_streams(guest.invite)


def guest_join(*, invite: Invite, name: str) -> Guest:
    """A guest following a live score link, under the name they gave."""
    if not isinstance(name, str) or not name.strip():
        raise RuleError(_("Give your name, so the table knows who entered a hand"), "name")
    clean = clean_name(name, "name", limit=GUEST_NAME_MAX)
    if invite.role != InviteRole.SCORE or invite.revoked_at is not None:
        raise PermissionDenied(_("This link does not let you enter hands."))
    return Guest.objects.create(invite=invite, name=clean)
