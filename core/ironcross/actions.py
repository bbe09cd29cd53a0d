"""Actions of Iron Cross: typed, serialisable values a player chooses (see ``Game.legal_actions``).

Each action is a frozen dataclass with a ``kind`` tag; :func:`action_to_json` and
:func:`action_from_json` round-trip them for replay files. Movement is hex by hex
(:class:`StartMove`, then :class:`Step` or :class:`Enter` per hex) so that opportunity fire
(13.0), mines (19.2) and overruns (9.0) can interrupt it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from core.action_codec import ActionCodec
from core.rule_system import IllegalActionError

__all__ = [
    "Place", "EndSetup", "EndPhase", "Pass", "StartMove", "Step", "Enter", "Face", "ToggleState",
    "StopMove", "Fire", "Grenade", "Flame", "MortarFire", "DesignateAssault", "SetState", "Action",
    "action_to_json", "action_from_json", "IllegalAction",
]


class IllegalAction(IllegalActionError):
    """An action the rules do not allow now; ``rule`` names the rule that forbids it (the rule
    system boundary's :class:`core.rule_system.IllegalActionError`, a ValueError)."""

    def __init__(self, rule: str, message: str):
        self.rule = rule
        super().__init__(f"illegal ({rule}): {message}")


@dataclass(frozen=True, slots=True)
class Place:
    """Set-up: place ``unit`` in ``hex`` (3.12: UP or DOWN as desired; facing for ATG/MG/AFV).
    Slotted: a process keeps every placement a scenario offers (``core.ironcross.deployment``)."""

    unit: str
    hex: str
    down: bool = False
    facing: int | None = None
    hidden: bool = False  # 24.21: set up in a hidden hex (where the scenario grants hidden hexes)
    kind: str = "place"


@dataclass(frozen=True)
class EndSetup:
    """Set-up: this side has placed what it wants to place now."""

    kind: str = "end_setup"


@dataclass(frozen=True)
class EndPhase:
    """The deciding side is done with the current phase (or step of it)."""

    kind: str = "end_phase"


@dataclass(frozen=True)
class Pass:
    """Decline an opportunity (e.g. opportunity fire at the hex just entered, 13.0)."""

    kind: str = "pass"


@dataclass(frozen=True)
class StartMove:
    """Begin moving ``units`` (one unit, a stack with its ``leader`` (8.3 B) or an AFV with
    infantry (8.4)); ``directed_by`` names a leader who stays behind and lends his PR for a
    modified PC (8.3 C). The PCs (8.22) are rolled when this is applied."""

    units: tuple[str, ...]
    leader: str | None = None
    directed_by: str | None = None
    kind: str = "start_move"


@dataclass(frozen=True)
class Step:
    """Move the moving group into the adjacent hex ``hex`` (8.0)."""

    hex: str
    kind: str = "step"


@dataclass(frozen=True)
class Enter:
    """Bring the moving group (off map, entering this turn) onto the map at ``hex`` (24.1)."""

    hex: str
    kind: str = "enter"


@dataclass(frozen=True)
class Face:
    """Change the facing of the moving AFV/MG/ATG to hexside ``hexside`` (8.7)."""

    hexside: int
    kind: str = "face"


@dataclass(frozen=True)
class ToggleState:
    """Change the moving group's UP/DOWN state during movement (3.13: 2 MP infantry/CW, 5 AFV)."""

    kind: str = "toggle_state"


@dataclass(frozen=True)
class StopMove:
    """End the current group's movement."""

    kind: str = "stop_move"


@dataclass(frozen=True)
class Fire:
    """Fire combat (10.0) by ``firers`` at ``target`` hex: ``mode`` "AP" or "AT" (AT needs
    ``target_unit``, an AFV); ``intensive`` lists MGs using Intensive Fire (11.15)."""

    firers: tuple[str, ...]
    target: str
    mode: str = "AP"
    target_unit: str | None = None
    intensive: tuple[str, ...] = ()
    kind: str = "fire"


@dataclass(frozen=True)
class Grenade:
    """A grenade attack (15.0) by ``thrower`` at ``target`` hex."""

    thrower: str
    target: str
    kind: str = "grenade"


@dataclass(frozen=True)
class Flame:
    """A flamethrower attack (16.0) by ``unit`` at ``target`` hex (range 1-2)."""

    unit: str
    target: str
    kind: str = "flame"


@dataclass(frozen=True)
class MortarFire:
    """Mortar fire (14.0): ``rounds`` (1-5) at ``target``; ``spotter`` a commander for indirect
    fire (14.22)."""

    unit: str
    target: str
    rounds: int = 1
    spotter: str | None = None
    kind: str = "mortar"


@dataclass(frozen=True)
class DesignateAssault:
    """Place an Assault marker on ``units`` (one hex's infantry) pointing at adjacent ``target`` (17.0)."""

    units: tuple[str, ...]
    target: str
    kind: str = "designate_assault"


@dataclass(frozen=True)
class SetState:
    """Free UP/DOWN change (6.0 H, 3.13): put ``units`` ``down`` (True) or UP (False)."""

    units: tuple[str, ...]
    down: bool
    kind: str = "set_state"


Action = Union[Place, EndSetup, EndPhase, Pass, StartMove, Step, Enter, Face, ToggleState, StopMove, Fire,
               Grenade, Flame, MortarFire, DesignateAssault, SetState]

_KINDS: dict[str, type] = {}
for _c in (Place, EndSetup, EndPhase, Pass, StartMove, Step, Enter, Face, ToggleState, StopMove, Fire, Grenade,
           Flame, MortarFire, DesignateAssault, SetState):
    _KINDS[_c.__dataclass_fields__["kind"].default] = _c


# action_to_json / action_from_json: the core's one codec (core/action_codec.py) over _KINDS, at the end
# of the module (the sections below register more kinds).


# ---------------------------------------------------------------- movement additions (8.4, 8.65, 9.0, 20.0)
@dataclass(frozen=True)
class Overrun:
    """The moving AFV overruns the adjacent enemy-occupied ``hex`` (9.0); ``with_infantry``: the
    infantry moving with it (8.4) accompany it into the hex (combined overrun, 9.3)."""

    hex: str
    with_infantry: bool = False
    kind: str = "overrun"


@dataclass(frozen=True)
class Halt:
    """Infantry moving with an AFV cease their movement in the present hex (8.43)."""

    units: tuple[str, ...]
    kind: str = "halt"


@dataclass(frozen=True)
class PushWreck:
    """At the end of the Movement Phase ``afv`` (which spent the phase adjacent to the Wreck in
    ``wreck``) tries to push it into ``to`` and enter ``wreck`` (8.65)."""

    afv: str
    wreck: str
    to: str
    kind: str = "push_wreck"


@dataclass(frozen=True)
class CrewReplacement:
    """At the end of a friendly Movement Phase the infantry unit ``unit`` joins the crew of the
    stacked CW unit ``cw`` (20.1)."""

    unit: str
    cw: str
    kind: str = "crew_replacement"


for _c in (Overrun, Halt, PushWreck, CrewReplacement):
    _KINDS[_c.__dataclass_fields__["kind"].default] = _c
__all__ += ["Overrun", "Halt", "PushWreck", "CrewReplacement"]


# ---------------------------------------------------------------- hidden hexes (24.2) and infiltration (24.3)
@dataclass(frozen=True)
class RevealHidden:
    """The owner voluntarily reveals the hidden units in his hidden hex ``hex`` (24.22, 24.32)."""

    hex: str
    kind: str = "reveal_hidden"


@dataclass(frozen=True)
class Infiltrate:
    """24.31: the Russian player designates ``squad`` (its off-map men) plus, optionally, the
    commander ``commander`` to attempt an infiltration (decline with EndSetup)."""

    squad: str
    commander: str | None = None
    kind: str = "infiltrate"


@dataclass(frozen=True)
class InfiltrationHex:
    """24.32: the Russian player announces ``hex`` as his Infiltration Hex."""

    hex: str
    kind: str = "infiltration_hex"


for _c in (RevealHidden, Infiltrate, InfiltrationHex):
    _KINDS[_c.__dataclass_fields__["kind"].default] = _c
__all__ += ["RevealHidden", "Infiltrate", "InfiltrationHex"]


# ---------------------------------------------------------------- advanced rules: MG modes (21.0)
@dataclass(frozen=True)
class SetMgMode:
    """End of the Morale Phase (21.41): put the NORMAL MG ``unit`` in ``mode`` "DF", "FL" or "SP";
    FL names the Fire Lane's ``target`` hex (21.21)."""

    unit: str
    mode: str
    target: str | None = None
    kind: str = "mg_mode"


@dataclass(frozen=True)
class ChangeToSpray:
    """21.42: the MG ``unit``, eligible to fire and not yet fired this Player Turn, tries (a PC) to
    change to SP mode; its AP factors are halved for the rest of the Player Turn if it succeeds."""

    unit: str
    kind: str = "spray_change"


@dataclass(frozen=True)
class LaneFire:
    """21.2: the FL-mode MG ``unit`` fires along its Fire Lane: a separate attack on every unit in the
    lane (in a fire phase) or in the hex just entered (opportunity fire, 21.22)."""

    unit: str
    kind: str = "lane_fire"


@dataclass(frozen=True)
class SprayFire:
    """21.3: the SP-mode MG ``unit`` attacks each of the chosen ``targets`` (enemy units in its spray
    fire area; in opportunity fire, in the hex just entered) separately at half AP firepower."""

    unit: str
    targets: tuple[str, ...]
    kind: str = "spray_fire"


for _c in (SetMgMode, ChangeToSpray, LaneFire, SprayFire):
    _KINDS[_c.__dataclass_fields__["kind"].default] = _c
__all__ += ["SetMgMode", "ChangeToSpray", "LaneFire", "SprayFire"]


# ---------------------------------------------------------------- overrun defence (9.2 A)
@dataclass(frozen=True)
class OverrunAtFire:
    """9.2 A: the defending player's NORMAL ATR/ATG ``unit`` in the hex about to be overrun makes its
    special AT fire at the overrunning AFV (frontal armour). Offered one unit at a time while the
    overrun waits; :class:`Pass` declines the shots not yet taken and the overrun goes on."""

    unit: str
    kind: str = "overrun_at_fire"


_KINDS[OverrunAtFire.__dataclass_fields__["kind"].default] = OverrunAtFire
__all__ += ["OverrunAtFire"]
# ---------------------------------------------------------------- assault casualties (17.23)
@dataclass(frozen=True)
class TakeCasualty:
    """17.23: the owning player removes his unit ``unit`` for one assault fire hit on his side.
    Offered one unit at a time (one action per hit) to the owner of the units hit, for each unit of
    his still in the fight and not yet chosen (``Game.casualty_choice(side)`` lists them)."""

    unit: str
    kind: str = "take_casualty"


_KINDS[TakeCasualty.__dataclass_fields__["kind"].default] = TakeCasualty
__all__ += ["TakeCasualty"]


# ---------------------------------------------------------------- scenario detachments (24.1 special options)
@dataclass(frozen=True)
class Detach:
    """Set-up, before the time the scenario names: the owner puts ``units`` -- all the men of one
    squad of the detachment's group, or one commander, CW or AFV of it -- into the scenario
    detachment ``detachment`` (its name, e.g. Scenario 5's "EXCEPTION"), within its limits; the
    units then enter by the detachment's entry instead of their group's set-up or entry.
    :class:`EndSetup` closes the choice (none chosen: the option is not used)."""

    detachment: str
    units: tuple[str, ...]
    kind: str = "detach"


_KINDS[Detach.__dataclass_fields__["kind"].default] = Detach
__all__ += ["Detach"]


# ---------------------------------------------------------------- JSON (replay files, the event log)
#: the JSON codec of every kind above (the tag "kind" is each action's last field)
CODEC = ActionCodec(_KINDS, tag="kind", error=lambda message: IllegalAction("actions", message))

#: ``action_to_json(a) -> dict``: the action's fields in order, tuples as lists, ``kind`` last
#: (called for every decision a game logs).
action_to_json = CODEC.to_json

#: ``action_from_json(d) -> Action``: the action :func:`action_to_json` wrote. Raises
#: :class:`IllegalAction` ("actions", a ValueError) naming the kind and the problem: not a JSON
#: object, an unknown kind (the known ones listed), unknown fields, missing fields, wrong shapes.
action_from_json = CODEC.from_json
__all__ += ["CODEC"]
