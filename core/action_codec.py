"""One JSON codec for the frozen-dataclass actions of every rule system (replay files, event logs).

A system builds one :class:`ActionCodec` from its registry ``{tag: action class}``, the name of
the tag field (Iron Cross and Red Flags: ``"kind"``, a field of each action with the tag as its
default; the 20 mm rules: ``"type"``, not a field, the class name) and a factory of its own
error (so its callers' ``except`` clauses keep working). :meth:`ActionCodec.to_json` writes the
action's fields in their order (tuples as lists, tuples of tuples -- the 20 mm rules' paths of
points -- as lists of lists) then the tag when it is not a field; :meth:`ActionCodec.from_json`
reads that back and refuses, with one message naming the kind and every problem, a value that is
not a JSON object, an unknown kind (listing the known ones), unknown fields, missing fields and
values of the wrong shape.

Shapes come from the dataclass annotations (``str``, ``int``, ``float``, ``bool``, ``X | None``,
``tuple[X, ...]``, fixed ``tuple[X, Y]``; anything else is taken as read): a list read for a tuple
field becomes a tuple, nested lists nested tuples; the numbers of a fixed-length tuple of floats
(a point ``(x, y)``) become floats, as the 20 mm geometry had them; a plain ``float`` field keeps the
number as read, so a re-written action writes the same bytes. ``bool`` is not an ``int`` here.
"""

from __future__ import annotations

import typing
from dataclasses import MISSING, fields, is_dataclass
from types import UnionType
from typing import Any, Callable, Mapping

__all__ = ["ActionCodec"]


class _Bad(Exception):
    """A value of the wrong shape (internal: turned into the system's error by the codec)."""


#: one field's reader: (what it must be, in words; value read -> value for the dataclass)
_Shape = tuple[str, Callable[[Any], Any]]


def _scalar(kind: type, what: str, coerce_float: bool = False) -> _Shape:
    if kind is bool:
        def conv(v):
            if v.__class__ is bool:
                return v
            raise _Bad
    elif kind is int:
        def conv(v):
            if isinstance(v, int) and v.__class__ is not bool:
                return v
            raise _Bad
    elif kind is float:
        def conv(v):
            if isinstance(v, (int, float)) and v.__class__ is not bool:
                return float(v) if coerce_float else v
            raise _Bad
    else:
        def conv(v):
            if isinstance(v, kind):
                return v
            raise _Bad
    return what, conv


_WORDS = {str: "a string", int: "a whole number", float: "a number", bool: "true or false", type(None): "null"}


def _shape(tp: Any, in_point: bool = False) -> _Shape | None:
    """The reader of annotation ``tp`` (None: anything goes, taken as read)."""
    if tp in _WORDS:
        return _scalar(tp, _WORDS[tp], coerce_float=in_point)
    if tp is tuple:
        tp = tuple[Any, ...]
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, UnionType):
        alts = [_shape(a) for a in args]
        if any(a is None for a in alts):
            return None
        words = " or ".join(w for w, _ in alts)
        convs = [c for _, c in alts]

        def conv(v):
            for c in convs:
                try:
                    return c(v)
                except _Bad:
                    pass
            raise _Bad
        return words, conv
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            el = _shape(args[0])
            el_words, el_conv = el if el is not None else ("anything", lambda v: v)

            def conv(v):
                if isinstance(v, (list, tuple)):
                    return tuple(el_conv(x) for x in v)
                raise _Bad
            return f"a list, each {el_words}", conv
        point = bool(args) and all(a is float for a in args)
        els = [_shape(a, in_point=point) for a in args]
        els = [e if e is not None else ("anything", lambda v: v) for e in els]
        n = len(els)
        words = (f"a point [{', '.join('xyz'[i] if n <= 3 else f'v{i}' for i in range(n))}] of numbers" if point
                 else f"a list of {n}: " + ", ".join(w for w, _ in els))
        convs = [c for _, c in els]

        def conv(v):
            if isinstance(v, (list, tuple)) and len(v) == n:
                return tuple(c(x) for c, x in zip(convs, v))
            raise _Bad
        return words, conv
    return None


def _holds_tuple(tp: Any) -> bool:
    """Whether values of annotation ``tp`` may be tuples (so the writer turns them into lists)."""
    if tp is tuple or typing.get_origin(tp) is tuple:
        return True
    return typing.get_origin(tp) in (typing.Union, UnionType) and any(_holds_tuple(a) for a in typing.get_args(tp))


def _tuple_elements_hold_tuples(tp: Any) -> bool:
    """Whether ``tp`` is (or may be) a tuple whose elements may be tuples (a path of points)."""
    if typing.get_origin(tp) is tuple:
        return any(a is not Ellipsis and _holds_tuple(a) for a in typing.get_args(tp))
    return typing.get_origin(tp) in (typing.Union, UnionType) and any(
        _tuple_elements_hold_tuples(a) for a in typing.get_args(tp))


def _flat(v: Any) -> Any:
    """A tuple field's value as JSON: a list (anything else, e.g. None, as it is)."""
    return list(v) if isinstance(v, tuple) else v


def _nested(v: Any) -> Any:
    """A tuple of tuples (a path of points) as a list of lists."""
    return [list(p) if isinstance(p, tuple) else p for p in v] if isinstance(v, tuple) else v


def _a(kind: str) -> str:
    """``kind`` with its article: "a step", "an end_setup", "an IndirectFire"."""
    return ("an " if kind[:1].lower() in "aeiou" else "a ") + kind


def _short(v: Any, limit: int = 80) -> str:
    r = repr(v)
    return r if len(r) <= limit else r[:limit - 3] + "..."


class ActionCodec:
    """JSON dicts of one rule system's actions, and back.

    ``types``: ``{tag: action class}`` (frozen dataclasses), read when used, so a system may
    register more classes after building its codec; ``tag``: the tag's key in the JSON (a field of
    the classes, with the tag as its default, or else written after the fields); ``error``:
    message -> the exception :meth:`from_json` raises (the system's own illegal-action error).
    """

    def __init__(self, types: Mapping[str, type], *, tag: str = "kind",
                 error: Callable[[str], Exception] = ValueError):
        self.types = types
        self.tag = tag
        self.error = error
        #: class -> its writer (action -> dict), see :meth:`_writer`
        self._writers: dict[type, Callable[[Any], dict]] = {}
        #: class -> (field names in order, the same as a set, required names, {field: shape})
        self._readers: dict[type, tuple] = {}

    # ------------------------------------------------------------------ writing (hot: every decision)
    def to_json(self, action: Any) -> dict:
        """The JSON-ready dict of ``action``: its fields in order (tuples as lists, tuples of tuples
        as lists of lists) and the tag. Raises TypeError for an object that is not a registered
        action class."""
        w = self._writers.get(action.__class__)
        if w is None:
            w = self._writer(action.__class__)
        return w(action)

    def _writer(self, cls: type) -> Callable[[Any], dict]:
        """The writer of ``cls``, made once per class: a function returning the dict literal of its
        fields (``{"hex": a.hex, "kind": a.kind}``), the fastest form Python has (as
        ``dataclasses`` makes ``__init__``); field names are identifiers, the tag a quoted string."""
        tag = self._tag_of(cls)
        if tag is None:
            raise TypeError(f"{cls.__name__} is not an action of this rule system (known: {self._known()})")
        hints = self._hints(cls)
        names = tuple(f.name for f in fields(cls))
        parts = []
        for n in names:
            if not n.isidentifier():  # pragma: no cover - a dataclass field always is
                raise TypeError(f"{cls.__name__}.{n} is not a field name")
            if n in hints and not _holds_tuple(hints[n]):
                parts.append(f"{n!r}: a.{n}")
            else:  # a tuple field (or one without annotation): lists, nested lists for a path of points
                parts.append(f"{n!r}: {'_nested' if _tuple_elements_hold_tuples(hints.get(n)) else '_flat'}(a.{n})")
        if self.tag not in names:
            parts.append(f"{self.tag!r}: {tag!r}")
        ns = {"_flat": _flat, "_nested": _nested}
        exec(f"def write(a):\n    return {{{', '.join(parts)}}}\n", ns)  # noqa: S102 - built from field names only
        self._writers[cls] = w = ns["write"]
        return w

    # ------------------------------------------------------------------ reading
    def from_json(self, d: Any) -> Any:
        """The action the dict ``d`` (from :meth:`to_json`) describes. Raises the system's error
        (``error``) naming the kind and the problem: not a JSON object; no tag or an unknown one
        (the known ones listed); unknown fields (its fields listed); missing fields; values of the
        wrong shape (what they must be said): ``"a step action: unknown field(s) speed (its
        fields: hex); missing field(s) hex"``."""
        if not isinstance(d, dict):
            raise self.error(f"an action is a JSON object, not {_short(d)}")
        tag = self.tag
        kind = d.get(tag)
        cls = self.types.get(kind) if isinstance(kind, str) else None
        if cls is None:
            if tag not in d:
                raise self.error(f"an action needs its {tag!r} (one of {self._known()}): {_short(d)}")
            raise self.error(f"unknown action {tag} {kind!r}; known: {self._known()}")
        try:
            order, names, required, shapes = self._readers[cls]
        except KeyError:
            order, names, required, shapes = self._reader(cls)
        problems = []
        extra = [k for k in d if k not in names and k != tag]
        if extra:
            problems.append(f"unknown field(s) {', '.join(sorted(map(str, extra)))} "
                            f"(its fields: {', '.join(n for n in order if n != tag) or 'none'})")
        missing = [n for n in required if n not in d]
        if missing:
            problems.append(f"missing field(s) {', '.join(missing)}")
        kw = {}
        for k, v in d.items():
            if k not in names:
                continue
            shape = shapes.get(k)
            if shape is None:
                kw[k] = v
                continue
            try:
                kw[k] = shape[1](v)
            except _Bad:
                problems.append(f"{k} must be {shape[0]}, not {_short(v)}")
        if problems:
            raise self.error(f"{_a(kind)} action: " + "; ".join(problems))
        return cls(**kw)

    def _reader(self, cls: type) -> tuple:
        hints = self._hints(cls)
        fs = [f for f in fields(cls) if f.init]
        order = tuple(f.name for f in fs)
        required = tuple(f.name for f in fs if f.default is MISSING and f.default_factory is MISSING)
        shapes = {n: s for n in order if (s := _shape(hints[n]) if n in hints else None) is not None}
        self._readers[cls] = r = (order, frozenset(order), required, shapes)
        return r

    # ------------------------------------------------------------------ helpers
    def _tag_of(self, cls: type) -> str | None:
        for k, c in self.types.items():
            if c is cls:
                return k
        return None

    def _known(self) -> str:
        return ", ".join(sorted(self.types))

    @staticmethod
    def _hints(cls: type) -> dict:
        """The resolved annotations of dataclass ``cls`` (``from __future__ import annotations``)."""
        if not is_dataclass(cls):
            raise TypeError(f"{cls.__name__} is not a dataclass")
        return typing.get_type_hints(cls)
