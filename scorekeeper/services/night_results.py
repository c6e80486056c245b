"""A game night's result, told in a few lines for its page and its share card: the champion (the
night's standings' first), the games played, the closest finish (the smallest gap
between a game's winner and its runner-up) and the biggest hand (the most one player
scored in one hand, in any game of the night). The card is its standings, drawn as the
games' result images are (``services/result_image.py``)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from scorekeeper.models import Game, GameStatus, Night
from scorekeeper.presenters import presenter_for
from scorekeeper.selectors.games import game_state, game_with_related
from scorekeeper.selectors.nights import NightRow, night_standings
from scorekeeper.services.results import RENDER_VERSION, SIGNATURE, ResultLine


@dataclass(frozen=True)
class NightCard:
    """The night's share image: its name, day, games played and standings."""

    night_id: int
    title: str
    day_text: str
    hands_text: str
    lines: tuple[ResultLine, ...]

    @property
    def image_alt(self) -> str:
        """What the image shows, for a screen reader."""
        shown = "; ".join(f"{line.place}. {line.label} {line.score}" for line in self.lines)
        return f"{self.title}: {shown}"

    @property
    def etag(self) -> str:
        """Changes with anything the image shows."""
        shown = "\0".join(
            [self.title, self.day_text, self.hands_text]
            + [f"{line.place} {line.label} {line.score} {line.won}" for line in self.lines]
        )
        digest = hashlib.sha256(f"{RENDER_VERSION}\0{get_language()}\0{shown}".encode()).hexdigest()
        return f'"n{self.night_id}-{digest[:16]}"'


@dataclass(frozen=True)
class NightSummary:
    champions: list[str]
    played: int
    closest: str
    biggest: str
    standings: list[NightRow]
    text: str
    card: NightCard


def _title(game: Game) -> str:
    return f"{game.get_ruleset_display()} #{game.pk}"


def _closest(games: list[Game]) -> str:
    """The finished game whose winner was nearest its runner-up (the earlier on a tie)."""
    best: tuple[int, str] | None = None
    for game in games:
        seats = sorted(
            (s for s in game.seats.all() if s.place is not None), key=lambda s: s.place or 0
        )
        first = [s for s in seats if s.place == 1]
        if not first or len(seats) < 2:
            continue
        if len(first) > 1:
            names = f" {pgettext('joining names', 'and')} ".join(s.player.name for s in first)
            candidate = (
                0,
                _("%(names)s shared first place in %(game)s")
                % {"names": names, "game": _title(game)},
            )
        else:
            runner = next(s for s in seats if s.place != 1)
            gap = abs(first[0].score - runner.score)
            unit = presenter_for(game.ruleset).line_unit(gap)
            candidate = (
                gap,
                _("%(first)s ahead of %(second)s by %(gap)s in %(game)s")
                % {
                    "first": first[0].player.name,
                    "second": runner.player.name,
                    "gap": f"{gap} {unit}" if unit else gap,
                    "game": _title(game),
                },
            )
        if best is None or candidate[0] < best[0]:
            best = candidate
    return best[1] if best is not None else ""


def _biggest(games: list[Game]) -> str:
    """The most one player scored in one hand of the night (none under 2: a hand won)."""
    best: tuple[int, str] | None = None
    for game in games:
        state = game_state(game)
        names = {s.player_id: s.player.name for s in game.seats.all()}
        unit = presenter_for(game.ruleset)
        for hand in state.hands:
            for player, points in hand.points.items():
                if points >= 2 and (best is None or points > best[0]):
                    word = unit.line_unit(points)
                    said = f"{points} {word}" if word else str(points)
                    best = (
                        points,
                        _("%(points)s for %(player)s (%(game)s, hand %(hand)s)")
                        % {
                            "points": said,
                            "player": names.get(player, "?"),
                            "game": _title(game),
                            "hand": hand.number,
                        },
                    )
    return best[1] if best is not None else ""


def _wins(count: int) -> str:
    return ngettext("%(count)s win", "%(count)s wins", count) % {"count": count}


def night_summary(night: Night) -> NightSummary:
    games = list(game_with_related(Game.objects.filter(night=night)).order_by("created_at", "id"))
    finished = [g for g in games if g.status == GameStatus.FINISHED]
    standings = night_standings(night)
    champions = [row.name for row in standings if row.rank == 1]
    closest = _closest(finished)
    biggest = _biggest(games)
    day = date_format(timezone.localtime(night.created_at), "DATE_FORMAT")
    played = ngettext("%(count)s game", "%(count)s games", len(finished)) % {"count": len(finished)}
    lines = [f"{night.name} · {day} · {played}"]
    if champions:
        wins = standings[0].wins
        said_wins = ngettext("%(count)s win", "%(count)s wins", wins) % {"count": wins}
        lines.append(
            ngettext(
                "Champion: %(names)s (%(wins)s)", "Champions: %(names)s (%(wins)s)", len(champions)
            )
            % {"names": " & ".join(champions), "wins": said_wins}
        )
    lines += [f"{row.rank}. {row.name} {_wins(row.wins)}" for row in standings]
    if closest:
        lines.append(_("Closest finish: %(finish)s") % {"finish": closest})
    if biggest:
        lines.append(_("Biggest hand: %(hand)s") % {"hand": biggest})
    lines.append(_(SIGNATURE))
    card = NightCard(
        night.pk,
        night.name,
        day,
        played,
        tuple(
            ResultLine(
                place=row.rank,
                label=row.name,
                score=_wins(row.wins),
                won=row.rank == 1 and row.wins > 0,
            )
            for row in standings
        ),
    )
    text = "\n".join(lines)
    return NightSummary(champions, len(finished), closest, biggest, standings, text, card)
