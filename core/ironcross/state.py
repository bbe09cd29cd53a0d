"""Game state of Iron Cross as plain data: units, markers, turn, phase (rules 3.0, 6.0).

Everything that changes during a game lives here and nothing else: the engine
(:mod:`core.ironcross.game`) reads the map, the terrain chart and the scenario but only ever
changes a :class:`GameState`. ``GameState.snapshot()`` gives a JSON-ready dict used to compare
games (replays) and to build players' views.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields
from enum import Enum

__all__ = ["SIDES", "other_side", "stacking_problem", "Morale", "Phase", "PHASE_ORDER", "UnitKind", "Unit", "GameState",
           "unit_changes", "positions_changed"]

SIDES: tuple[str, str] = ("german", "russian")


def other_side(side: str) -> str:
    """The opponent of ``side`` ("german" <-> "russian")."""
    return "russian" if side == "german" else "german"


def stacking_problem(units) -> str | None:
    """Why ``units`` may not share one hex, or None (8.61-8.63): per side at most six men (a CW
    counts its crew) plus one AFV and one CW counter; one AFV in the hex whatever its side."""
    men: dict[str, int] = {}
    cws: dict[str, int] = {}
    afvs = 0
    for u in units:  # one pass; the checks below in the order of the rules' text
        side = u.side
        men[side] = men.get(side, 0) + u.men
        if u.is_cw:
            cws[side] = cws.get(side, 0) + 1
        if u.is_afv:
            afvs += 1
    for side in SIDES:
        n = men.get(side, 0)
        if n > 6:
            return f"8.62: {n} men in the hex (at most six men plus one AFV)"
        if cws.get(side, 0) > 1:
            return "8.63: at most one CW counter in a hex"
    if afvs > 1:
        return "8.61: at most one AFV in a hex"
    return None


class Morale(str, Enum):
    """Morale status (3.2)."""

    NORMAL = "NORMAL"
    PINNED = "PINNED"
    SUPPRESSED = "SUPPRESSED"


class Phase(str, Enum):
    """The phases of a Player Turn (6.0 A-H), plus set-up and the end of the game."""

    SETUP = "setup"
    MORALE = "morale"                          # A
    SUPPORT_FIRE = "support_fire"              # B
    MOVEMENT = "movement"                      # C
    REACTION_MOVEMENT = "reaction_movement"    # D
    DEFENSIVE_FIRE = "defensive_fire"          # E
    MOVING_FIRE = "moving_fire"                # F
    ASSAULT = "assault"                        # G
    FREE_STATE_CHANGE = "free_state_change"    # H
    GAME_OVER = "game_over"


#: 6.0: the phases of each Player Turn in order.
PHASE_ORDER: tuple[Phase, ...] = (
    Phase.MORALE, Phase.SUPPORT_FIRE, Phase.MOVEMENT, Phase.REACTION_MOVEMENT,
    Phase.DEFENSIVE_FIRE, Phase.MOVING_FIRE, Phase.ASSAULT, Phase.FREE_STATE_CHANGE,
)


class UnitKind(str, Enum):
    """Combat unit types (2.2): infantry (incl. commanders), crew weapons, AFVs."""

    INFANTRY = "infantry"
    COMMANDER = "commander"
    CW = "cw"
    AFV = "afv"


@dataclass
class Unit:
    """One combat unit and its state.

    Values from the counter (2.21-2.23): ``weapon`` (R, MP, LMG, FT, PL/APL/PS for commanders;
    MMG, ATR, Mor, 45AT, 76AT, 37AT, 50AT for CWs; the AFV type), ``ap`` AP factor, ``ap_range``
    initial range in hexes (for mortars the minimum range, 14.21), ``at`` AT factor,
    ``assault`` assault rating, ``pr`` Performance Rating, ``ma`` movement allowance (CWs and
    AFVs), ``crew_max`` crew size (CWs), ``frontal``/``flank`` armour modifiers and ``overrun``
    factor (AFVs). ``squad`` is the squad letter (None for commanders, CWs, AFVs).

    State: ``hex`` (None while off the map), ``facing`` (hexside 1-6 for ATGs, MGs, AFVs, 8.7),
    ``down`` (3.1), ``morale`` (3.2), ``crew`` (CWs), per-Player-Turn flags ``moved``, ``fired``,
    ``opp_fired``, ``assault_hex`` (17.0), and ``eliminated``.
    """

    id: str
    side: str
    kind: UnitKind
    weapon: str
    name: str = ""
    squad: str | None = None
    ap: int = 0
    ap_range: int = 1
    at: int = 0
    assault: int = 0
    pr: int = 7
    ma: int = 0
    crew_max: int = 0
    frontal: int = 0
    flank: int = 0
    overrun: int = 0
    # state
    hex: str | None = None
    facing: int | None = None
    down: bool = False
    morale: Morale = Morale.NORMAL
    crew: int = 0
    replacements: list[str] = field(default_factory=list)
    moved: bool = False
    fired: bool = False
    opp_fired: bool = False
    support_fired: bool = False
    reaction_moved: bool = False
    moving_fired: bool = False
    changed_facing_only: bool = False
    grenade_hex: str | None = None
    assault_hex: str | None = None
    moved_with_afv: str | None = None
    last_atg_fire_turn: int = 0
    eliminated: bool = False
    entered: bool = True
    immobilized: bool = False
    commander_killed: bool = False
    overrun_done: bool = False
    mg_out_until: int = 0
    mg_broken: bool = False
    ammo: int | None = None
    # advanced rules (21.0-23.0; see core/ironcross/mg_modes.py, ammo.py, observation.py)
    mg_mode: str = "DF"  # 21.0: "DF", "FL" or "SP" (all MGs DF under the basic rules)
    fl_target: str | None = None  # 21.21: the Fire Lane's recorded target hex
    mg_mode_known: bool = False  # 21.0: the opponent has seen the mode (the MG fired in it)
    mg_fire_phase: str | None = None  # 21.24/21.34: "player_turn:phase" of its FL/SP fire combat (PC passed)
    sp_change_turn: int = 0  # 21.42: Player Turn of its last attempt to change to SP
    sp_halved_turn: int = 0  # 21.42: Player Turn in which it changed to SP (AP factors halved)
    observe_moved: bool = False  # 23.2 optional penalty a: "considered to have moved" this Player Turn
    #: 24.2: set up in a hidden hex and not yet revealed (on the map for its owner only)
    hidden: bool = False

    # ---------------------------------------------------------------- classification
    # is_infantry, is_commander, is_cw, is_afv (2.2), is_mg (MMGs and LMGs, 11.14, 11.15, 21.0),
    # is_atg, is_atr, is_mortar, is_ft, is_stug and has_facing (only ATGs, MGs and AFVs face a
    # hexside, 8.7) are plain attributes, derived from ``kind`` and ``weapon`` once (and again
    # whenever either is set): the rules ask them millions of times a game.

    def __post_init__(self) -> None:
        self._classify()

    def _classify(self) -> None:
        kind, weapon = self.kind, self.weapon
        d = self.__dict__
        d["is_infantry"] = kind in (UnitKind.INFANTRY, UnitKind.COMMANDER)
        d["is_commander"] = kind is UnitKind.COMMANDER
        d["is_cw"] = kind is UnitKind.CW
        d["is_afv"] = afv = kind is UnitKind.AFV
        d["is_mg"] = mg = weapon in ("LMG", "MMG")
        d["is_atg"] = atg = weapon in ("45AT", "76AT", "37AT", "50AT")
        d["is_atr"] = weapon == "ATR"
        d["is_mortar"] = weapon.lower() == "mor"
        d["is_ft"] = weapon == "FT"
        d["is_stug"] = afv and weapon.lower().startswith("stug")
        d["has_facing"] = atg or mg or afv

    def __setattr__(self, name: str, value) -> None:
        object.__setattr__(self, name, value)
        _CHANGES[0] += 1
        self.__dict__["_stamp"] = _CHANGES[0]  # this unit's last change (PlayerView reuses its copies)
        if name in _WHERE:
            _POSITIONS[0] += 1  # GameState.units_at rebuilds its index
        elif name in _WHAT and "has_facing" in self.__dict__:
            self._classify()

    def __copy__(self) -> "Unit":
        """A shallow copy (what copy.copy makes of any object), without going through __setattr__."""
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        return c

    def fields_dict(self) -> dict:
        """The dataclass fields by name (the counter values and the state, no derived values):
        ``Unit(**u.fields_dict())`` is a copy."""
        return {f: getattr(self, f) for f in _UNIT_FIELDS}

    @property
    def men(self) -> int:
        """Men for stacking (8.63): one per infantry unit, the current crew for a CW; AFVs 0."""
        if self.is_cw:
            return self.crew
        return 0 if self.is_afv else 1

    @property
    def on_map(self) -> bool:
        return self.hex is not None and not self.eliminated

    @property
    def normal(self) -> bool:
        return self.morale is Morale.NORMAL

    @property
    def full_crew(self) -> bool:
        return not self.is_cw or self.crew >= self.crew_max

    def is_leader_for(self, other: "Unit") -> bool:
        """5.1/5.2: commanders lead any friendly infantry or CW; an acting leader (infantry, not
        FT, PR 9+, NORMAL) leads his own squad plus one CW unit."""
        if other.side != self.side or not self.normal or self.eliminated:
            return False
        if self.is_commander:
            return other.is_infantry or other.is_cw
        if self.kind is UnitKind.INFANTRY and not self.is_ft and self.pr >= 9:
            return (other.kind is UnitKind.INFANTRY and other.squad == self.squad) or other.is_cw
        return False

    def reset_player_turn(self) -> None:
        """Clear the flags that last one Player Turn (moved, fired, assault marker, ...)."""
        self.moved = False
        self.fired = False
        self.opp_fired = False
        self.support_fired = False
        self.reaction_moved = False
        self.moving_fired = False
        self.changed_facing_only = False
        self.grenade_hex = None
        self.assault_hex = None
        self.moved_with_afv = None
        self.overrun_done = False
        self.observe_moved = False

    def to_json(self) -> dict:
        d = asdict(self)
        d["kind"] = self.kind.value
        d["morale"] = self.morale.value
        return d


_UNIT_FIELDS = tuple(f.name for f in fields(Unit))
_WHERE = frozenset(("hex", "eliminated"))  # what GameState.units_at depends on
_WHAT = frozenset(("kind", "weapon"))  # what the classification depends on
#: Bumped whenever any unit's ``hex`` or ``eliminated`` is set, so that each GameState's hex ->
#: units index knows it must be rebuilt (never stale, rebuilt only after a move or a loss).
_POSITIONS = [0]
#: Bumped whenever any attribute of any unit is set (see :func:`unit_changes`).
_CHANGES = [0]


def positions_changed() -> int:
    """A number that changes whenever any unit's ``hex`` or ``eliminated`` is set (what
    :meth:`GameState.units_at` and the blunder report's snapshot of positions depend on)."""
    return _POSITIONS[0]


def unit_changes() -> int:
    """A number that changes whenever any attribute of any :class:`Unit` is set (the engine's
    memo of the legal actions, ``Game._decision_fingerprint``, compares it)."""
    return _CHANGES[0]


@dataclass
class GameState:
    """The whole state of a game (plain data).

    ``turn`` is the Game Turn (1-based); ``player_turn`` counts Player Turns from 1;
    ``phasing`` the Phasing Player (6.0); ``phase`` the current phase; ``first_side`` the side
    that has the first Player Turn of each Game Turn. Markers: ``wrecks`` (hex -> count, 12.4),
    ``ips`` (hex -> IP points, 18.0), ``grenades`` left per side (15.9), ``mines`` (hex -> {"side",
    "ap", "at", "revealed_ap", "revealed_at"}, 19.0). ``control`` is the last side to occupy each
    hex (Scenario 6). ``first_shot`` records whether combat dice have been rolled (8.22).
    """

    turn: int = 1
    player_turn: int = 1
    game_length: int = 1
    first_side: str = "german"
    phasing: str = "german"
    phase: Phase = Phase.SETUP
    units: dict[str, Unit] = field(default_factory=dict)
    wrecks: dict[str, int] = field(default_factory=dict)
    ips: dict[str, int] = field(default_factory=dict)
    grenades: dict[str, int] = field(default_factory=lambda: {"german": 0, "russian": 0})
    mines: dict[str, dict] = field(default_factory=dict)
    control: dict[str, str] = field(default_factory=dict)
    first_shot: bool = False
    movement_pcs_from_player_turn: int | None = None
    outcome: str | None = None
    #: per-game records that are not unit state, JSON-ready: "fire" -> {"other_fire": [[player
    #: turn, phase], ...]} (14.0 mortars first), "mortars" -> {"last": {id: [player turn, hex]},
    #: "no_indirect": {id: player turn}} (14.3 a, 14.22 b)
    records: dict = field(default_factory=dict)
    #: 24.21: hidden hexes chosen at set-up, hex -> owning side (recorded secretly; which of them
    #: still hold hidden units is read from ``Unit.hidden``)
    hidden_hexes: dict[str, str] = field(default_factory=dict)

    @property
    def non_phasing(self) -> str:
        return other_side(self.phasing)

    def units_of(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def units_at(self, hex_id: str) -> list[Unit]:
        """Units on the map in ``hex_id`` (not eliminated), in the order of ``units``. A hex ->
        units index answers it, rebuilt only when some unit's hex or elimination changed (or units
        were added or removed) since it was built."""
        return list(self._hex_index().get(hex_id, ()))

    def _hex_index(self) -> dict[str, list[Unit]]:
        idx = self.__dict__.get("_at")
        units = self.units
        if idx is None or idx[0] != _POSITIONS[0] or idx[1] is not units or idx[2] != len(units):
            at: dict[str, list[Unit]] = {}
            for u in units.values():
                if u.hex is not None and not u.eliminated:
                    at.setdefault(u.hex, []).append(u)
            idx = (_POSITIONS[0], units, len(units), at)
            self.__dict__["_at"] = idx
        return idx[3]

    def occupied_by(self, hex_id: str, side: str) -> bool:
        return any(u.side == side for u in self._hex_index().get(hex_id, ()))

    def copy(self) -> "GameState":
        return copy.deepcopy(self)

    def snapshot(self) -> dict:
        """A JSON-ready dict of the whole state (for replay comparison and views)."""
        return {
            "turn": self.turn,
            "player_turn": self.player_turn,
            "phasing": self.phasing,
            "phase": self.phase.value,
            "units": {k: v.to_json() for k, v in sorted(self.units.items())},
            "wrecks": dict(sorted(self.wrecks.items())),
            "ips": dict(sorted(self.ips.items())),
            "grenades": dict(self.grenades),
            "mines": {k: dict(v) for k, v in sorted(self.mines.items())},
            "control": dict(sorted(self.control.items())),
            "first_shot": self.first_shot,
            "outcome": self.outcome,
            "records": self.records,
            "hidden_hexes": dict(sorted(self.hidden_hexes.items())),
        }
