"""What each game shows: one presenter per game of the engine (``base`` has the defaults
and ``presenter_for``), asked by the pages and the API instead of a game's name.
Presenters import only the engine, Django's forms (a game's entry form) and DRF's
serializers (the API's hand body of a game).

Every module of this package is imported here, so a game's presenter registers itself
(``Presenter.__init_subclass__``) by being a module of the package: adding a game names
it nowhere else.
"""

import importlib
import pkgutil

from scorekeeper.presenters.base import Presenter, presenter_for

for _found in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_found.name}")

__all__ = ["Presenter", "presenter_for"]
