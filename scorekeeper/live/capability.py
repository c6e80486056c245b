"""The ticket to one game's event stream: signed with ``SECRET_KEY``, expiring.

It names the game, what kind of viewer the page was rendered for and, for a guest who
joined by a link, the link (invite); the events server checks the signature and the
age, so it needs no session and no database per connection (a guest's stream alone
checks once that its link is still live, and ends when the link is revoked). It
grants "tell me when game N changes", and to the owner's and the guests' streams (which
end with their access) the live answer a hand's event brings (``live.pushed``): the
answer kept for their kind, the same Django would give them. Any other viewer reads
what changed through ``games/<pk>/live/``, which checks access as every page does."""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

SALT = "scorekeeper.live.events"
#: A game night is long; a page kept open past this falls back to polling until it is
#: reloaded or a hand is saved from it (the live answer, shared by every phone, brings
#: no ticket: the phone keeps its page's).
MAX_AGE = 24 * 60 * 60
#: "owner": the game's owner (a manager whose access nothing but deleting the game ends:
#: the live answer is pushed to it, ``live.pushed``); "manage": another manager.
KINDS = ("owner", "manage", "score", "watch")


@dataclass(frozen=True)
class Capability:
    game: int
    kind: str
    #: The link a guest joined by (None: a signed-in viewer).
    invite: int | None = None


def issue(game_id: int, kind: str, invite: int | None = None) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown viewer kind {kind!r}")
    value: list[int | str] = [int(game_id), kind]
    if invite is not None:
        value.append(int(invite))
    return signing.dumps(value, salt=SALT, compress=False)


def check(token: str, *, max_age: int = MAX_AGE) -> Capability | None:
    """The capability a token grants, or None when forged, altered, expired or malformed."""
    if not token or len(token) > 200:
        return None
    try:
        value = signing.loads(token, salt=SALT, max_age=max_age)
    except (signing.BadSignature, ValueError):
        return None
    if (
        not isinstance(value, list)
        or len(value) not in (2, 3)
        or type(value[0]) is not int
        or value[0] < 1
        or value[1] not in KINDS
    ):
        return None
    invite = value[2] if len(value) == 3 else None
    if len(value) == 3 and (type(invite) is not int or invite < 1):
        return None
    return Capability(game=value[0], kind=value[1], invite=invite)
