"""What each game shows: one presenter per game of the engine (``base`` has the defaults
and ``presenter_for``), asked by the pages instead of a game's name. Presenters import
only the engine."""

from scorekeeper.presenters import damn_you, dirt, dirty_deals, dirty_uno, screw
from scorekeeper.presenters.base import Presenter, presenter_for

__all__ = ["Presenter", "damn_you", "dirt", "dirty_deals", "dirty_uno", "presenter_for", "screw"]
