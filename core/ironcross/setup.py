"""What a game starts from: units, where they may set up or enter, allotments, victory.

A :class:`GameSetup` is rule-system data built from a scenario (see
:mod:`core.ironcross.scenario_setup`) or by hand in tests. Zones and entry hexes are already
resolved to hex ids; the engine never reads files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from core.ironcross.state import GameState, Phase, Unit
from core.rule_system import ScenarioError
from maps.hexmap import HexMap

__all__ = ["Deployment", "Entry", "Allotment", "Detachment", "DetachmentLimit", "CapCount", "SetupCap", "GameSetup",
           "SetupError"]


class SetupError(ScenarioError):
    """The scenario cannot be turned into a game (an OOB entry the roster lacks or that nothing
    uses, an empty zone), or a :class:`GameSetup` names a hex off the map or outside the playing
    area (raised by ``Game(setup, ...)``). The rule-system boundary's
    :class:`core.rule_system.ScenarioError` (a ValueError)."""


@dataclass
class Deployment:
    """``units`` of ``side`` set up anywhere in ``zone`` (hex ids) before play (24.1)."""

    side: str
    units: list[str]
    zone: frozenset[str]
    group: str = ""


@dataclass
class Entry:
    """``units`` of ``side`` enter the map through ``hexes`` (an edge or listed hexes) in their
    side's ``phase`` (Movement Phase unless the scenario says otherwise, 24.1) of Game Turn ``turn``
    or any later turn: ``turn`` is the first turn they may enter (a failed movement PC delays
    them to a later phase, 8.22/8.3 A)."""

    side: str
    units: list[str]
    hexes: frozenset[str]
    turn: int
    phase: Phase = Phase.MOVEMENT
    group: str = ""


@dataclass
class Allotment:
    """IPs (18.1) and mines (19.1) a side places in ``zone`` at set-up: ``ips`` lists IP points of
    each IP marker; ``ap_mines``/``at_mines`` are factors to deploy; ``group`` says whose they are
    (a group's name, or the side's set-up for side-level entries)."""

    side: str
    zone: frozenset[str]
    ips: list[int] = field(default_factory=list)
    ap_mines: int = 0
    at_mines: int = 0
    group: str = ""


@dataclass(frozen=True)
class DetachmentLimit:
    """At most ``count`` picks of ``kind`` in a detachment: ``"squad"`` (a pick is all the men of
    one squad in the group), ``"commander"``, ``"crew_weapon"`` or ``"afv"`` (a pick is one unit);
    ``types`` narrows it to those weapons / commander ranks / AFV types / squad letters (e.g.
    ``("MMG",)``), None = any."""

    kind: str
    count: int
    types: tuple[str, ...] | None = None


@dataclass
class Detachment:
    """A scenario's special option (24.1 scenario instructions; Scenario 5 EXCEPTION, Scenario 6
    SPECIAL): ``side`` may pick up to ``limits`` of ``units`` (the units of its group ``group``),
    which then enter by ``entry`` (``entry.units`` is empty here; the game fills it with the
    picks) instead of the group's set-up or entry. ``record_before``: ``"enemy_setup"`` -- chosen
    before the enemy's set-up (and the side's own), ``"game"`` -- before the side's own set-up.
    The choice is the side's secret until the units enter (``Game.view``)."""

    side: str
    name: str
    group: str
    units: list[str]
    limits: list[DetachmentLimit]
    entry: Entry
    record_before: str = "game"


@dataclass(frozen=True)
class CapCount:
    """One limit of a :class:`SetupCap`: at most ``count`` of ``units`` (unit ids) in the cap's
    hexes; ``what`` names them ("LMG", "R", "unit", "other unit")."""

    what: str
    count: int
    units: frozenset[str]


@dataclass
class SetupCap:
    """A scenario's set-up cap inside a sub-zone (24.1 unit deployment restrictions): at set-up,
    ``side`` may have no more than each of ``limits`` in ``hexes``; ``text`` says it as the
    scenario does (named in the refusal)."""

    side: str
    hexes: frozenset[str]
    limits: list[CapCount]
    text: str = ""


@dataclass
class GameSetup:
    """Everything a game starts from.

    ``units`` are the counters in play (off the map until placed or entered); ``setup_order``
    the sides in the order they set up; ``first_side`` moves first (has the first Player Turn of
    each Game Turn); ``victory(state, game)`` returns the outcome at the end ("german",
    "russian" or "draw"); ``no_move_before`` maps unit ids to the first Player Turn number of
    their side in which they may move (e.g. Scenario 5's BT7ms, "not until Russian Player
    Turn 2").
    """

    hexmap: HexMap
    chart: object
    units: dict[str, Unit]
    game_length: int
    first_side: str
    setup_order: tuple[str, ...]
    deployments: list[Deployment] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    allotments: list[Allotment] = field(default_factory=list)
    grenades: dict[str, int] = field(default_factory=lambda: {"german": 0, "russian": 0})
    victory: Callable[[GameState, object], str] | None = None
    no_move_before: dict[str, int] = field(default_factory=dict)
    title: str = ""
    #: the hexes in play (the scenario's map sections, 24.1 "MAP"); None = the whole map
    playing_area: frozenset[str] | None = None
    #: 24.2 (a scenario rule, basic and advanced rules): hidden hexes each side may choose at set-up
    hidden_hexes: dict[str, int] = field(default_factory=lambda: {"german": 0, "russian": 0})
    #: 24.3 (a scenario rule, basic and advanced rules): side -> hexes its Infiltration Hex may be
    #: chosen in (the Russian infiltration of the scenario); empty when the scenario does not allow it
    infiltration: dict[str, frozenset[str]] = field(default_factory=dict)
    #: what each OOB entry of the scenario became: its JSON path (``"$.german.oob[0]"``) -> a line
    #: ("IP3 x 1 placed by german at set-up ...", "units ... of Squad C"); every entry is here or
    #: the scenario was refused (:class:`SetupError`)
    oob_use: dict[str, str] = field(default_factory=dict)
    #: the scenario's detachments (special options, 24.1), offered to their side at set-up
    detachments: list[Detachment] = field(default_factory=list)
    #: set-up caps inside sub-zones (24.1 unit deployment restrictions): a placement over a cap is illegal
    caps: list[SetupCap] = field(default_factory=list)
    #: hex -> side that controls it at the start (a scenario's initial control; 24.9 "last to occupy"
    #: then changes it)
    initial_control: dict[str, str] = field(default_factory=dict)
