"""A finished game's result, to share: as text, as an image, and as a public page.

:func:`build_result` turns the engine's final standings into the lines everybody reads
(place, name or team, score in the game's own unit), and the text a phone copies or
shares. The image is drawn by :mod:`scorekeeper.services.result_image`.

Publishing gives the game a random, unguessable token (``secrets.token_urlsafe``):
``/r/<token>/`` then shows the result to anybody with the link, without signing in;
unpublishing forgets the token, so the link answers 404 at once. Only a finished game
can be published. If the game is reopened later (an undo, or "Reopen the game"), the
token is kept but the page shows no standings until the game is finished again: the
link already sent to the group chat keeps working, and shows the corrected result.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language, gettext_noop, ngettext
from django.utils.translation import gettext as _

from games import RULESETS, GameState
from scorekeeper.errors import ConflictError
from scorekeeper.models import Game
from scorekeeper.presenters import presenter_for
from scorekeeper.selectors.games import player_names

#: Bumped when the image's drawing changes, so cached images are fetched again.
RENDER_VERSION = 1
#: ``secrets.token_urlsafe(24)``: 32 URL-safe characters, 192 random bits.
TOKEN_BYTES = 24
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{16,64}")
TROPHY = "\U0001f3c6"
SIGNATURE = gettext_noop("scored with scorekeeper")
NOT_FINISHED = gettext_noop("The game is not finished yet: only a final result can be shared.")


@dataclass(frozen=True)
class ResultLine:
    """One line of the final ranking: a player, or a team in partner play."""

    place: int
    label: str
    score: str
    won: bool


@dataclass(frozen=True)
class Result:
    game_id: int
    title: str
    day: date
    hands: int
    lines: tuple[ResultLine, ...]
    version: int

    @property
    def day_text(self) -> str:
        return date_format(self.day, "DATE_FORMAT")

    @property
    def hands_text(self) -> str:
        return ngettext("%(count)s hand", "%(count)s hands", self.hands) % {"count": self.hands}

    @property
    def heading(self) -> str:
        return f"{self.title} · {self.day_text} · {self.hands_text}"

    @property
    def image_alt(self) -> str:
        """What the image shows, for a screen reader."""
        shown = "; ".join(
            _("won by %(player)s %(score)s") % {"player": line.label, "score": line.score}
            if line.won
            else f"{line.place}. {line.label} {line.score}"
            for line in self.lines
        )
        return f"{self.heading}: {shown}"

    @property
    def text(self) -> str:
        """The result as a message: heading, one line per place, signature."""
        rows = [self.heading]
        for line in self.lines:
            lead = TROPHY if line.won else f"{line.place}."
            rows.append(f"{lead} {isolate(line.label)} {line.score}")
        rows.append(_(SIGNATURE))
        return "\n".join(rows)

    @property
    def etag(self) -> str:
        """Changes with the game (its version) and with anything the image shows (a
        renamed player keeps the version), so a cached image is never stale."""
        digest = hashlib.sha256(
            f"{RENDER_VERSION}\0{get_language()}\0{self.game_id}\0{self.version}\0{self.text}".encode()
        ).hexdigest()
        return f'"r{self.game_id}-{self.version}-{digest[:16]}"'


def isolate(name: str) -> str:
    """A name holding right-to-left letters, wrapped in Unicode isolates (FSI…PDI) so
    the number and score around it stay where they belong in any chat app."""
    if any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in name):
        return f"\u2068{name}\u2069"
    return name


def game_title(game: Game) -> str:
    rules = RULESETS[game.ruleset]
    variant = None
    if game.variant and rules.variants:
        try:
            variant = rules.variant(game.variant)
        except Exception:  # an unknown stored variant: the ruleset's name is enough
            variant = None
    title = game.get_ruleset_display()
    return f"{title} ({_(variant.name)})" if variant is not None else title


def result_day(game: Game) -> date:
    moment: datetime = game.finished_at or game.updated_at or game.created_at
    return timezone.localtime(moment).date()


def build_result(game: Game, state: GameState) -> Result:
    """The final result of a finished game (seats prefetched); raises
    :class:`ConflictError` for a game still in progress."""
    if not state.finished:
        raise ConflictError(_(NOT_FINISHED))
    names = player_names(game)
    shows = presenter_for(game.ruleset)
    winners = set(state.winners)
    lines = []
    for row in state.standings:
        label = " & ".join(names.get(p, "?") for p in row.players)
        lines.append(
            ResultLine(
                place=row.rank,
                label=label,
                score=shows.final_score(row),
                won=bool(set(row.players) & winners),
            )
        )
    # The winners first (a dirty-uno winner may hold fewer points), then by place.
    lines.sort(key=lambda line: (not line.won, line.place))
    return Result(
        game_id=game.pk,
        title=game_title(game),
        day=result_day(game),
        hands=len(state.hands),
        lines=tuple(lines),
        version=game.version,
    )


# -- the public page -----------------------------------------------------------------------


def valid_token(token: str) -> bool:
    return bool(TOKEN_RE.fullmatch(token))


def published_game(token: str) -> Game | None:
    """The game published under ``token`` (None for any other string, without asking
    the database about one that cannot be a token)."""
    if not valid_token(token):
        return None
    return Game.objects.filter(public_token=token).first()


def result_publish(*, game: Game, state: GameState) -> str:
    """Publish a finished game's result; the token (the same one if it already was)."""
    if not state.finished:
        raise ConflictError(_(NOT_FINISHED))
    with transaction.atomic():
        row = Game.objects.select_for_update(no_key=True).only("pk", "public_token").get(pk=game.pk)
        if not row.public_token:
            row.public_token = secrets.token_urlsafe(TOKEN_BYTES)
            row.save(update_fields=["public_token"])
    game.public_token = row.public_token
    return row.public_token


def result_unpublish(*, game: Game) -> None:
    """Forget the token: the public page and its image answer 404 from now on."""
    Game.objects.filter(pk=game.pk).update(public_token=None)
    game.public_token = None
