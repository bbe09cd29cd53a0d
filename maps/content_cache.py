"""Content keys of maps and charts, and a small bounded cache keyed by them.

What the editor derives from a map (the painter's geometry, the design checks' movement costs)
depends on the map's content, not on which document or object holds it: a test suite or a
designer who opens the same scenario again gets a new :class:`maps.hexmap.HexMap` with the same
content. :func:`content_key` names that content exactly -- a BLAKE2b digest of the model's JSON
(every field, so any edit, however small, gives another key) -- and :class:`ContentCache` keeps the
last few results per key (least recently used first out), so memory stays bounded.

Example::

    from maps.content_cache import ContentCache, content_key

    _GEOMETRY = ContentCache(8)
    g = _GEOMETRY.get((content_key(hexmap.doc), c0, c1))
    if g is None:
        g = build(...)
        _GEOMETRY.put((content_key(hexmap.doc), c0, c1), g)
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any, Hashable, Sequence

from pydantic import BaseModel

__all__ = ["ContentCache", "content_key"]


def content_key(model: BaseModel | Sequence[BaseModel] | None) -> str | None:
    """The exact content key of a pydantic model (a :class:`maps.model.MapFile`, a
    :class:`maps.terrain_chart.TerrainChart`) or of a list of them (a map's building symbols): the
    hex BLAKE2b-128 digest of its JSON dump, which holds every field, so two have the same key only
    when their contents are equal (about a millisecond for the shipped mapsheet). None for None or
    anything else (its content cannot be named: callers do not cache it)."""
    if isinstance(model, BaseModel):
        text = model.model_dump_json()
    elif isinstance(model, (list, tuple)) and all(isinstance(m, BaseModel) for m in model):
        text = "[" + ",".join(m.model_dump_json() for m in model) + "]"
    else:
        return None
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class ContentCache:
    """A bounded mapping from content keys to derived values, least recently used evicted first.

    ``maxsize``: the number of entries kept (at least 1). Values are returned as stored: a caller
    whose value is mutable hands out copies (as :mod:`editor.drawing.map_geometry` does)."""

    def __init__(self, maxsize: int):
        if maxsize < 1:
            raise ValueError(f"a content cache holds at least one entry, not {maxsize}")
        self.maxsize = maxsize
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        #: lookups answered from the cache and not (for tests and benchmarks)
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> Any | None:
        """The value stored under ``key`` (now the most recently used), or None."""
        try:
            value = self._items[key]
        except KeyError:
            self.misses += 1
            return None
        self._items.move_to_end(key)
        self.hits += 1
        return value

    def put(self, key: Hashable, value: Any) -> None:
        """Store ``value`` under ``key``, dropping the least recently used entry when full."""
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.maxsize:
            self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget every entry."""
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._items
