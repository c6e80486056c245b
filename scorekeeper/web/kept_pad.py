"""A card pad's configuration (the buttons of the cards entry, with each card's points),
made once for what it depends on and shared by every page that shows it.

It is the same for every hand of every game with the same ruleset, dirt rank and
options, and making it (and writing its ``repr``, the key of the kept entry panel in
``web.kept_panel``) cost more than a grid row. A :class:`KeptPad` is a read-only dict
whose ``repr`` is the key it was made from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

_MAX_KEPT = 256


class KeptPad(dict[str, Any]):
    """A pad's configuration (read only); its ``repr`` names what it was made from."""

    def __init__(self, key: tuple[Any, ...], data: dict[str, Any]) -> None:
        super().__init__(data)
        self.key = key

    def __repr__(self) -> str:
        return f"KeptPad{self.key!r}"

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a kept pad is shared: copy it to change it")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _read_only
    __ior__ = _read_only


_kept: dict[tuple[Any, ...], KeptPad] = {}


def kept_pad(key: tuple[Any, ...], make: Callable[..., dict[str, Any]]) -> KeptPad:
    """``make(*key)``, made once per key and kept."""
    try:
        return _kept[key]
    except KeyError:
        pad = KeptPad(key, make(*key))
        if len(_kept) >= _MAX_KEPT:
            _kept.clear()
        _kept[key] = pad
        return pad
