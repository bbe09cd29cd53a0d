"""Actions of Red Flags and Iron Crosses: frozen dataclasses a player chooses among.

Each has a ``kind`` tag; :func:`action_to_json` / :func:`action_from_json` round-trip them (replay
files). A whole move is one action (the fragment has no fire during movement): ``Move`` names the
destination and the engine walks the legal path to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from core.action_codec import ActionCodec
from core.rule_system import IllegalActionError

__all__ = ["IllegalAction", "Place", "Move", "Fire", "Embus", "Debus", "Limber", "Unlimber", "RemoveWire", "Extend",
           "Contract", "AirStep", "Bomb", "Strafe", "EndActivation", "Action", "ACTION_TYPES", "CODEC",
           "action_to_json", "action_from_json"]


class IllegalAction(IllegalActionError):
    """An action the rules do not allow now; ``rule`` is the rule id that forbids it."""

    def __init__(self, rule: str, message: str):
        self.rule = rule
        super().__init__(f"illegal ({rule}): {message}")


@dataclass(frozen=True)
class Place:
    """Set-up (r.setup): place ``unit`` in ``hex`` of its side's set-up zone."""

    unit: str
    hex: str
    kind: str = "place"


@dataclass(frozen=True)
class Move:
    """Move ``unit`` to ``to`` (Movement); ``with_commander``: the side's commander, in the unit's
    hex, goes along and adds a hex (Units: Commander)."""

    unit: str
    to: str
    with_commander: bool = False
    kind: str = "move"


@dataclass(frozen=True)
class Fire:
    """``unit`` fires at hex ``hex`` engaging the enemy ``target`` there (Firing and bombing);
    ``charges``: its engineers place their demolition charges (one each, weapon table)."""

    unit: str
    hex: str
    target: str
    charges: bool = False
    kind: str = "fire"


@dataclass(frozen=True)
class Embus:
    """Troops ``unit`` board the transport ``vehicle`` in their hex (Movement: embus)."""

    unit: str
    vehicle: str
    kind: str = "embus"


@dataclass(frozen=True)
class Debus:
    """Troops ``unit`` leave their transport into its hex (Movement: debus)."""

    unit: str
    kind: str = "debus"


@dataclass(frozen=True)
class Limber:
    """Hook the gun ``unit`` to its towing vehicle in its hex (Movement: a turn to limber)."""

    unit: str
    kind: str = "limber"


@dataclass(frozen=True)
class Unlimber:
    """Unhook the gun ``unit`` from its towing vehicle (Movement: a turn to unlimber)."""

    unit: str
    kind: str = "unlimber"


@dataclass(frozen=True)
class RemoveWire:
    """``unit`` removes the barbed wire in its hex (Movement: barbed wire, black card)."""

    unit: str
    kind: str = "remove_wire"


@dataclass(frozen=True)
class Extend:
    """``unit`` spreads into the adjacent hex ``hex`` and occupies two hexes (General Rules)."""

    unit: str
    hex: str
    kind: str = "extend"


@dataclass(frozen=True)
class Contract:
    """``unit`` in two hexes closes up into ``hex``, one of them (r.multi_hex)."""

    unit: str
    hex: str
    kind: str = "contract"


@dataclass(frozen=True)
class AirStep:
    """Aircraft ``unit`` flies one hex ahead after turning ``turn`` hexsides (-1 left 60 degrees,
    0 straight, +1 right 60 degrees) (Movement: aircraft)."""

    unit: str
    turn: int = 0
    kind: str = "air_step"


@dataclass(frozen=True)
class Bomb:
    """Aircraft ``unit`` drops its bomb load (Firing and bombing: bombing)."""

    unit: str
    kind: str = "bomb"


@dataclass(frozen=True)
class Strafe:
    """Fighter ``unit`` makes a strafing run (Firing and bombing: strafing)."""

    unit: str
    kind: str = "strafe"


@dataclass(frozen=True)
class EndActivation:
    """The activated division or group of assets has done everything it will (Activation)."""

    kind: str = "end_activation"


Action = Union[Place, Move, Fire, Embus, Debus, Limber, Unlimber, RemoveWire, Extend, Contract, AirStep, Bomb, Strafe,
               EndActivation]

ACTION_TYPES: dict[str, type] = {c.kind: c for c in (  # type: ignore[attr-defined]
    Place, Move, Fire, Embus, Debus, Limber, Unlimber, RemoveWire, Extend, Contract, AirStep, Bomb, Strafe, EndActivation)}


#: the JSON codec of the actions (core/action_codec.py; the tag "kind" is each action's last field)
CODEC = ActionCodec(ACTION_TYPES, tag="kind", error=lambda message: IllegalAction("actions", message))


def action_to_json(a: Action) -> dict:
    """The action as a JSON dict (``{"unit": "R1", "to": "3621", ..., "kind": "move"}``)."""
    return CODEC.to_json(a)


def action_from_json(d: dict) -> Action:
    """The action a JSON dict describes; raises :class:`IllegalAction` ("actions") naming the kind
    and the problem: not a JSON object, an unknown kind (the known ones listed), unknown fields,
    missing fields, values of the wrong shape."""
    return CODEC.from_json(d)
