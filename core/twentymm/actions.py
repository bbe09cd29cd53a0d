"""Actions of the 20 mm rules: parametrised, in table inches and degrees (0 = +x on the table,
90 = +y, i.e. towards the higher rows). ``action_to_json``/``action_from_json`` round-trip them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from core.action_codec import ActionCodec
from core.rule_system import IllegalActionError

XY = tuple[float, float]


@dataclass(frozen=True)
class Move:
    """Move unit ``uid`` along ``path`` (points after its position; empty = turn in place),
    ending facing ``facing`` (degrees; None = the direction of the last leg, or unchanged); a
    vehicle may set its ``turret`` bearing. Sequence of Play / Movement."""

    uid: str
    path: tuple[XY, ...] = ()
    facing: float | None = None
    turret: float | None = None


@dataclass(frozen=True)
class Fire:
    """Direct fire by ``uid`` with ``weapon`` at unit ``target`` (or at a ``point``, e.g. tank
    traps with HE). ``weapon``: "small_arms", "at" (the section's AT rifles / Panzerfausts, a
    gun's or vehicle's AP), "he" (direct-fire HE), "mg" (a vehicle's machine-gun). ``tracks``:
    aiming for the tracks; ``gun``: index of the vehicle's gun (Lee/Grant, Pz IV)."""

    uid: str
    weapon: str
    target: str | None = None
    point: XY | None = None
    tracks: bool = False
    gun: int = 0


@dataclass(frozen=True)
class IndirectFire:
    """Indirect fire by mortar or off-table battery ``uid`` at ``point``, directed by ``director``
    (None: the firer sees the target itself); ``spread``: battery fire in a line (Battery Fire)."""

    uid: str
    point: XY
    director: str | None = None
    spread: bool = False


@dataclass(frozen=True)
class Assault:
    """Close assault by section/squad ``uid`` on enemy ``target`` (infantry, a gun crew or a vehicle)."""

    uid: str
    target: str


@dataclass(frozen=True)
class Special:
    """A special action of ``uid``: "set_up" / "dismantle" (mortars, HMGs), "limber" /
    "unlimber" (a gun and its tow ``other``), "embark" (into/onto vehicle ``other``),
    "disembark" (to ``point``), "split" (a section into two 4-man squads)."""

    uid: str
    what: str
    other: str | None = None
    point: XY | None = None


@dataclass(frozen=True)
class EndTurn:
    """End the current player's turn."""


Action = Union[Move, Fire, IndirectFire, Assault, Special, EndTurn]
_TYPES = {c.__name__: c for c in (Move, Fire, IndirectFire, Assault, Special, EndTurn)}

#: the JSON codec of the actions (core/action_codec.py): the tag "type" (the class name) is written
#: after the fields; a path's points and a point are lists [x, y], read back as tuples of floats
CODEC = ActionCodec(_TYPES, tag="type", error=lambda message: IllegalActionError(f"20mm: {message}"))


def action_to_json(a) -> dict:
    """A JSON-ready dict ``{...fields, "type": name}`` (points and paths of points as lists)."""
    return CODEC.to_json(a)


def action_from_json(d: dict):
    """The action of a dict from :func:`action_to_json`; :class:`IllegalActionError` ("20mm: ...")
    naming the type and the problem for an unknown type, unknown or missing fields or a value of
    the wrong shape (a point is [x, y], two numbers)."""
    return CODEC.from_json(d)
