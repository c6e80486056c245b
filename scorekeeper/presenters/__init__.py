"""One presenter per game: what the pages show of it (see ``base``)."""

from scorekeeper.presenters import damn_you, dirt, dirty_deals, dirty_uno, screw
from scorekeeper.presenters.base import Presenter, presenter_for

__all__ = ["Presenter", "damn_you", "dirt", "dirty_deals", "dirty_uno", "presenter_for", "screw"]
