"""Reads about invites: the live links of a game, and what a guest may do with theirs.

Every check reads the invite afresh, so a revoked link shuts its guests out at their
very next request."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from scorekeeper.models import Game, Guest, HandRevision, Invite, Night


def live_invites(game: Game | int) -> QuerySet[Invite]:
    """A game's links that still work, newest first."""
    game_id = game if isinstance(game, int) else game.pk
    return Invite.objects.filter(game_id=game_id, revoked_at__isnull=True).order_by(
        "-created_at", "-id"
    )


def live_invite_by_token(token: str) -> Invite | None:
    """The live invite a join link names; None for an unknown or revoked one."""
    if not token or len(token) > 64:
        return None
    live = Invite.objects.filter(token=token, revoked_at__isnull=True)
    return live.select_related("game", "night").first()


def live_invite_for_game(invite_id: int, game_id: int) -> Invite | None:
    return live_invites(game_id).filter(pk=invite_id).first()


def guest_of_invite(guest_id: int, invite: Invite) -> Guest | None:
    return Guest.objects.filter(pk=guest_id, invite=invite).first()


def present_guests(game: Game | int) -> QuerySet[Guest]:
    """The guests of a game's live links (and its night's) whom the owner has not
    removed, oldest first."""
    game_id = game if isinstance(game, int) else game.pk
    return Guest.objects.filter(
        Q(invite__game_id=game_id) | Q(invite__night__games__id=game_id),
        invite__revoked_at__isnull=True,
        removed_at__isnull=True,
    ).order_by("created_at", "id")


def night_guests(night: Night | int) -> QuerySet[Guest]:
    """The guests of a night's live links whom its owner has not removed, oldest first."""
    night_id = night if isinstance(night, int) else night.pk
    return Guest.objects.filter(
        invite__night_id=night_id, invite__revoked_at__isnull=True, removed_at__isnull=True
    ).order_by("created_at", "id")


def was_removed(guest_id: int | None, invite_id: int) -> bool:
    """Whether the guest a browser joined as was removed from the game by its owner."""
    if guest_id is None:
        return False
    return Guest.objects.filter(pk=guest_id, invite_id=invite_id, removed_at__isnull=False).exists()


def revision_author(rev: HandRevision) -> str:
    """Who made one version of a hand: "Maya (guest)", an account's username, or
    "someone" once that account is gone."""
    if rev.guest is not None:
        return str(rev.guest)
    return rev.user.get_username() if rev.user is not None else "someone"


def live_night_invites(night: Night | int) -> QuerySet[Invite]:
    """A night's links that still work, newest first."""
    night_id = night if isinstance(night, int) else night.pk
    return Invite.objects.filter(night_id=night_id, revoked_at__isnull=True).order_by(
        "-created_at", "-id"
    )
