"""The rule-system boundary: what every rule system gives the runner, replay, validate and the editor.

The toolkit serves several rule systems on one painted map (``docs/rule-systems.md``): Iron Cross
(``core/ironcross/``), Red Flags and Iron Crosses (``core/redflags/``), ... Each is a package under
``core/`` that builds one :class:`RuleSystem` and is registered here by name. A scenario file names
its system in its top-level ``"rule_system"`` key; a file without it is Iron Cross, so every file
written before the boundary still loads.

Nothing outside a system's package knows its rules: the playtest runner, ``ironcross validate``,
``replay --verify``, ``--report`` and the editor's Watch and Hot-seat ask the :class:`RuleSystem`
(and the game it builds, :class:`RuleGame`). Sides are ``"german"`` and ``"russian"`` in every
system of the seeds (the same war); outcomes are a side or ``"draw"``.

Errors: a system raises :class:`ScenarioError` (or a subclass) for a scenario that cannot be
played, :class:`IllegalActionError` (or a subclass) for an action ``apply`` refuses, each naming
the rule; :func:`get` raises :class:`UnknownRuleSystem` naming the known systems.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol

__all__ = ["RuleSystem", "RuleGame", "Piece", "Mark", "ScenarioError", "IllegalActionError", "UnknownRuleSystem",
           "DEFAULT_SYSTEM", "SYSTEM_MODULES", "register", "get", "names", "system_name_of", "for_scenario",
           "module_of", "add_module", "unregister", "installed", "scenario_title", "LoadedScenario",
           "ScenarioRef", "load_scenario", "system_of_data"]

#: The system of a scenario file without ``"rule_system"``.
DEFAULT_SYSTEM = "ironcross"


class ScenarioError(ValueError):
    """A scenario (or a designer's set-up) that cannot be played; the message names the file,
    the place in it and the problem."""


class IllegalActionError(ValueError):
    """An action the game refuses; the message names the rule."""


class UnknownRuleSystem(KeyError):
    """A ``rule_system`` name no package registers."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0]) if self.args else "unknown rule system"


@dataclass(frozen=True)
class Piece:
    """One thing on the map as the editor's Watch and Hot-seat draw it, whatever the system:
    ``uid`` the unit's id, ``side`` "german"/"russian", ``hexes`` the hex ids it occupies (several
    for a unit that spans hexes; empty = off the map), ``label`` a short counter text, ``kind`` a
    word for its type ("infantry", "afv", "gun", "aircraft", ...), ``status`` words for its state
    ("PINNED", "DOWN", "hidden", ...), ``facing`` the hexside it faces, numbered as the shared hex
    grid numbers them (1-6 clockwise from the top of the sheet, :func:`maps.hexgrid.neighbour`), or
    None.

    A system measured in inches (or any continuous unit) also says where on the map the piece
    stands, in **map units**: the lattice coordinates of :mod:`maps.hexgrid` (hex (col, row) has
    its centre at ``X = 3 col``, ``Y = 2 row + (col & 1)``; one Y unit is half a hex across flats,
    one X unit ``1/sqrt(3)`` of a Y unit), so the editor draws it with no system knowledge (a
    system converts its own units, e.g. ``maps.table_map.TableMap.from_table``). All optional,
    None / empty for a hex system (the piece is drawn in its hexes):

    - ``point``: ``(X, Y)`` where the piece stands (the centre of its base);
    - ``bearing``: the way it faces, in degrees **clockwise from the top of the sheet** (0 = up,
      the -Y direction; 90 = right, +X; 180 = down), measured on the true-scale map (where hexes
      are regular, as the editor draws them), not on the lattice's numbers;
    - ``footprint``: a closed ring of ``(X, Y)`` points (first point not repeated), the outline
      of what stands on the table (a vehicle's hull, a section's line of men on their bases);
    - ``arc``: the half-angle of its fire arc in degrees (22.5: +-22.5 degrees about ``turret``
      when it has one, else ``bearing``);
    - ``figures``: the ``(X, Y)`` points of its individual figures (men), drawn as bases;
    - ``turret``: a turret's bearing (same convention as ``bearing``), or None;
    - ``reach``: how far the fire arc is drawn, in hexes across flats (its longest weapon's
      range), or None (a short wedge)."""

    uid: str
    side: str
    hexes: tuple[str, ...]
    label: str
    kind: str = ""
    status: tuple[str, ...] = ()
    facing: int | None = None
    point: tuple[float, float] | None = None
    bearing: float | None = None
    footprint: tuple[tuple[float, float], ...] = ()
    arc: float | None = None
    figures: tuple[tuple[float, float], ...] = ()
    turret: float | None = None
    reach: float | None = None


@dataclass(frozen=True)
class Mark:
    """A drawing of what one decision did, for the editor's Watch and Hot-seat (a system's
    optional ``marks(game, events)``): ``kind`` one of ``"fire"`` (a line from firer to target:
    ``points`` = (from, to); ``hit`` True/False/None), ``"move"`` (the path moved, from first to
    last point), ``"template"`` (a blast template: ``points`` a closed ring), ``"corridor"`` (a
    fire corridor: a closed ring), ``"scatter"`` (a shell's drift: (aimed at, landed)) or any other
    word (drawn as a grey line); ``points`` in map units (see :class:`Piece`), a closed ring's
    first point not repeated; ``side`` who did it ("german"/"russian", or ""); ``label`` a few
    words drawn beside it ("" = none)."""

    kind: str
    points: tuple[tuple[float, float], ...]
    side: str = ""
    label: str = ""
    hit: bool | None = None


class RuleGame(Protocol):
    """The shape of a game of any system (Iron Cross's :class:`core.ironcross.game.Game` has it).

    ``events``: every event in order, JSON values only, each a dict with ``"kind"``, ``"rule"``
    and its data; every die roll is an event ``{"kind": "roll", "dice": [...], "purpose": ...,
    "rule": ...}``. ``actions``: the actions applied, in order (a replay is these)."""

    events: list[dict]
    actions: list

    def current_side(self) -> str | None: ...

    def legal_actions(self) -> list: ...

    def apply(self, action) -> list[dict]: ...

    def is_terminal(self) -> bool: ...

    @property
    def turn(self) -> int: ...

    @property
    def outcome(self) -> str | None: ...


@dataclass(frozen=True)
class RuleSystem:
    """Everything the toolkit needs from one rule system (see the module docstring).

    Data: ``name`` (the ``rule_system`` key), ``title``, ``seed`` (the seed file it comes from),
    ``players`` (AI name -> one-line description; at least "random" and "heuristic"), ``rules``
    (rule levels, first = default) and ``options`` (optional rules by name -> description),
    ``terrain_mapping`` (how the system reads the shared map: a JSON-ready dict whose entries carry
    their provenance, ``"rulebook"`` or ``"reconstructed"`` with a rationale).

    Callables (all pure functions of their arguments):

    - ``load_setup(path, seed, fixed=None)`` -> the system's set-up object for one game of the
      scenario file ``path`` (``fixed``: a designer's set-up, system-defined dict, or None);
      raises :class:`ScenarioError` / ``maps.document_file.DocumentError``.
    - ``new_game(setup, seed, rules, options)`` -> a :class:`RuleGame` at its start.
    - ``make_players(setup, ai, seed)`` -> ``{side: player}`` for ``ai`` = ``{side: AI name}``;
      each player is seeded from ``seed`` (the game's seed) so a replay reproduces its choices.
      A player has ``name`` and ``choose(view, side, actions) -> action``.
    - ``view(game, side)`` -> what ``side`` may know, passed to its player.
    - ``action_to_json(action)`` -> dict; ``action_from_json(dict)`` -> action (raises
      :class:`IllegalActionError` for an unknown form).
    - ``result_fields(game)`` -> keyword fields of :class:`core.playtest.GameResult` beyond index,
      seed, outcome and turns (casualties, eliminated_at, fire_at, reason, ...; missing = empty).
    - ``turn_record(game)`` -> ``(outcome the victory conditions give now, {side: objective hexes
      held})``, called when each Game Turn ends.
    - ``summarise_scenario(path, data)`` -> one line for ``ironcross validate`` (raises
      ``DocumentError`` naming file, place and problem for an unplayable scenario).
    - ``scenario_warnings(path)`` -> list of design warnings (``validate --warnings``), maybe empty.
    - ``pieces(game)`` -> list of :class:`Piece`, for the editor's Watch and Hot-seat.
    - ``describe_event(event)`` -> one English sentence for the editor's log (or "" to skip it).
    - ``los(game, a, b)`` -> bool, the system's LOS rule between two hex ids over the shared map.

    Optional (defaults do without them):

    - ``check_rules(rules, options)`` raises ValueError naming the problem for a rule level or an
      optional rule the system refuses (None: ``rules`` must be one of :attr:`rules` and every
      option a key of :attr:`options`); see :meth:`resolve_rules`.
    - ``action_record(game, new_events)`` -> ``{GameResult field: {key: count}}`` to add up over
      the game, called after each applied action with the events it logged (what can only be seen
      while the game runs, e.g. the hex each firer fired from); None: nothing.
    - ``causes`` (the elimination causes reports list, in order) and ``elimination_cause(rule)``
      -> one of them, for the rule an ``eliminated`` event names (None: no causes reported). The
      cause ``"bookkeeping"`` means removed by no rule of play: the trust report warns about it.
    - ``load_placement(path)`` -> a designer's set-up (the ``fixed`` of ``load_setup``) read from a
      placement file, raising ``DocumentError``; ``check_placement(scenario_path, fixed, seed)``
      -> list of ``maps.document_file.Problem`` (empty: it can be played as placed);
      ``describe_placement(fixed)`` -> one line. None: the system has no designer's set-up files.
    - ``document_kinds``: further document formats the system owns (format name ->
      ``loader(path, data) -> one-line summary``, raising ``DocumentError``), for ``validate``.
    - ``scenario_map(path)`` -> ``(HexMap, [section names])`` the scenario is played on (for
      ``playtest --report``); None: the scenario's ``map.file`` and ``map.sections`` are read.

    Optional, for the editor's Watch and Hot-seat (a system without them is shown from
    :attr:`pieces` and :attr:`describe_event`, its actions labelled from their JSON):

    - ``describe_action(action, game=None)`` -> a short readable label of an action (or of its
      JSON dict, as a replay or an ``action`` event holds it); ``game``: the game it is legal in,
      to name what it acts on.
    - ``log_events(events, where=None)`` -> the log's sentences for the events of one decision, in
      order (``where(uid)`` -> the hex a unit stood in, or None).
    - ``watch_state(game)`` -> the richer state the Watch keeps after each decision: a dict with
      ``turn``, ``outcome``, ``player_turn``, ``phase``, ``phasing``, ``turns`` (game length) and
      ``units`` (uid -> ``(hex, facing, down, morale, side, label)``: counters drawn with UP/DOWN
      and morale marks); None: the Watch keeps :attr:`pieces`.
    - ``action_notes(game, action)`` -> a line shown under a legal action in the Hot-seat list
      (e.g. the odds of a fire), or "".
    - ``click_action(game, selected, hex)`` -> the legal action a click on hex id ``hex`` means
      in the Hot-seat with the piece ``selected`` (a uid or None) selected, or a list ``[first
      action, hex]`` when one action must come before the click's own (e.g. start a move, then
      step), or None (the click then selects a piece there); ``click_targets(game, selected)`` ->
      ``(hexes it may move to, hexes it may act against)``, outlined on the map. None: a click
      selects a piece and the human chooses in the list of legal actions.
    - ``decision_note(game, side)`` -> what ``side``, to act, must decide now beyond the usual,
      in words for the Hot-seat (e.g. a casualty choice an assault waits for), or "".
    - ``marks(game, events)`` -> list of :class:`Mark`: what the events of one decision show on
      the map (lines of fire, templates, corridors, moves), in map units; ``game`` is any game of
      the same set-up (its table converts units; the events carry their own positions). None:
      the Watch joins a piece that moved to where it stood by a blue line.

    Optional, for the editor's tabletop tools (``docs/tabletop.md``; a system measured in inches;
    None for a hex system: the tape then counts hexes only and units are placed by the forms):

    - ``table_scale(path, data=None)`` -> the scenario's inches per hex across flats (a Y map
      unit is half of it, an X map unit ``1/sqrt(3)`` of a Y unit: map units are not square), or
      None; ``data`` is the scenario's JSON when the caller has it, else the file ``path`` is read.
    - ``setup_pieces(path, data=None)`` -> list of :class:`Piece` (with ``point``): the scenario's
      units where they set up. Raises :class:`ScenarioError`.
    - ``place_piece(path, data, uid, point, bearing)`` -> a new JSON dict of the scenario (``data``
      unchanged) with unit ``uid`` set up at ``point`` (map units) facing ``bearing`` (degrees
      clockwise from the top of the sheet). Pure; raises :class:`ScenarioError` "RULE: reason"
      when the rules refuse the position (outside the set-up area, impassable, ...).
    - ``move_reach(source, uid, data=None)`` -> a closed ring of map units (first point not
      repeated): where ``uid`` can move this turn, or ``()`` when it cannot move; ``source`` a
      game of the system or a scenario path (the unit at its set-up, ``data`` as edited).
    - ``status_lines(game)`` -> a few short lines of plain text the Watch (and Hot-seat) show
      beside the map: what the system's state says beyond the turn and the side to act (Red Flags:
      the activation card up, the cards turned and still to come; 20 mm: the side's turn and the
      units that have acted). None: nothing more is shown.

    Optional, for the editor's scenario form of a system's scenario file (``editor/scenario/system/form.py``;
    a system without them opens its scenarios read-only):

    - ``scenario_schema()`` -> the JSON schema (a dict, pydantic's ``model_json_schema()`` shape:
      ``$defs``/``$ref``, ``anyOf``, ``properties``, ``required``, ``items``/``prefixItems``,
      ``enum``/``const``, ``minimum``/``maximum``) of its scenario file; the form is built from it.
    - ``scenario_hints()`` -> a dict saying what the schema cannot: JSON path patterns (``$.a.b``,
      ``[*]`` for any list index) under the keys ``"hex_lists"`` (lists of hex ids, edited by
      clicking hexes on the map), ``"hexes"`` (one hex id, set by a click), ``"hex_blocks"``
      (objects ``{"columns": [c0, c1], "rows": [r0, r1]}`` drawn with the hex lists beside them),
      ``"choices"`` (pattern -> list of ``[value, label]``: a roster's entries, compass hexsides,
      reference-table rows; edited as a combo box), ``"refs"`` (pattern -> another pattern: a
      combo box of the values now found there, e.g. a tow's unit id among the side's unit ids),
      ``"unique"`` (string fields whose values must
      differ: an added or duplicated item gets a fresh one), ``"templates"`` (list pattern -> the
      JSON of a new item) and ``"labels"`` (list pattern -> the key whose value names an item in
      the tree, e.g. ``"id"``); every key optional.
    - ``new_scenario(map_file, sections, title)`` -> the JSON data (a dict) of a minimal scenario
      of the system that its ``summarise_scenario`` accepts, on the map file ``map_file`` (written
      as given: the caller passes it relative to where the file will be saved, or absolute) and
      its map sections ``sections``; raises ValueError naming the problem (a section the map does
      not have, a map without hexes).

    Optional, for ``ironcross export vassal``: ``vassal_plan(path)`` -> what the VASSAL module of a
    scenario file holds (``core/ironcross/vassal_plan.py``); None: not exported (``docs/export.md``).
    """

    name: str
    title: str
    seed: str
    players: Mapping[str, str]
    rules: tuple[str, ...]
    load_setup: Callable[..., Any]
    new_game: Callable[..., RuleGame]
    make_players: Callable[[Any, Mapping[str, str], int], dict[str, Any]]
    view: Callable[[Any, str], Any]
    action_to_json: Callable[[Any], dict]
    action_from_json: Callable[[dict], Any]
    result_fields: Callable[[Any], dict]
    turn_record: Callable[[Any], tuple[str, dict[str, int]]]
    summarise_scenario: Callable[[str, dict], str]
    scenario_warnings: Callable[[str], list]
    pieces: Callable[[Any], list[Piece]]
    describe_event: Callable[[dict], str]
    los: Callable[[Any, str, str], bool]
    terrain_mapping: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, str] = field(default_factory=dict)
    sides: tuple[str, str] = ("german", "russian")
    check_rules: Callable[[str, tuple[str, ...]], None] | None = None
    action_record: Callable[[Any, list[dict]], Mapping[str, Mapping[str, int]]] | None = None
    causes: tuple[str, ...] = ()
    elimination_cause: Callable[[str], str] | None = None
    load_placement: Callable[[str], dict] | None = None
    check_placement: Callable[[str, dict, int], list] | None = None
    describe_placement: Callable[[dict], str] | None = None
    document_kinds: Mapping[str, Callable[[str, Any], str]] = field(default_factory=dict)
    scenario_map: Callable[[str], tuple[Any, list[str]]] | None = None
    describe_action: Callable[..., str] | None = None
    log_events: Callable[..., list[str]] | None = None
    watch_state: Callable[[Any], Mapping[str, Any]] | None = None
    action_notes: Callable[[Any, Any], str] | None = None
    click_action: Callable[[Any, str | None, str], Any] | None = None
    click_targets: Callable[[Any, str], tuple[set[str], set[str]]] | None = None
    decision_note: Callable[[Any, str], str] | None = None
    marks: Callable[[Any, list[dict]], list[Mark]] | None = None
    # -- optional, for the editor's tabletop tools (docs/tabletop.md); None: a hex system
    table_scale: Callable[..., float | None] | None = None
    setup_pieces: Callable[..., list[Piece]] | None = None
    place_piece: Callable[..., dict] | None = None
    move_reach: Callable[..., tuple] | None = None
    status_lines: Callable[[Any], list[str]] | None = None
    scenario_schema: Callable[[], Mapping[str, Any]] | None = None
    scenario_hints: Callable[[], Mapping[str, Any]] | None = None
    new_scenario: Callable[[str, list[str], str], dict] | None = None
    # -- optional, behaviour settings and blunders (docs/ai.md)
    #: a player spec ``NAME:SETTINGS`` -> the same with its settings validated and written out
    #: (``@FILE`` read); raises ValueError naming the unknown setting or the value out of range.
    #: None: the system's players take no settings.
    player_settings: Callable[[str], str] | None = None
    #: the blunder report (docs/ai.md): kind -> definition, and ``blunder_watch(game)`` -> a watcher
    #: with ``before(game, side, action, legal)``, ``after(game, events)`` and ``finish(game)`` ->
    #: ``{side: {kind: [item, ...]}}`` (items JSON-ready, each with its ``turn``). None: no report.
    #: ``settings_space(player)`` -> (search space {setting: (low, high, log scale)}, defaults
    #: {setting: value}) for ``ironcross tune``; KeyError for a player without settings
    settings_space: Callable[[str], tuple[Mapping[str, tuple[float, float, bool]], Mapping[str, float]]] | None = None
    blunder_kinds: Mapping[str, str] = field(default_factory=dict)
    blunder_watch: Callable[[Any], Any] | None = None
    #: ``vassal_plan(path)`` -> what ``ironcross export vassal`` writes for a scenario file of the
    #: system (``core/ironcross/vassal_plan.py``: counters, set-up, entries, secrets, text); None:
    #: the system's scenarios are not exported to VASSAL (``docs/export.md``).
    vassal_plan: Callable[[str], Any] | None = None
    #: -- optional, the what-if search (``ironcross balance``, :mod:`core.whatif`): ``()`` -> the
    #: system's change kinds, an object with ``KINDS`` (kind -> description), ``GRAMMAR`` (text),
    #: ``parse_change(text, data, path)`` -> :class:`core.whatif.Change` (ValueError naming the
    #: text), ``apply_change(data, change, path)`` -> new scenario JSON (ValueError when it cannot
    #: be made), ``default_changes(data, path, kinds=...)`` -> change texts and
    #: ``check_file(path, known)`` -> design-warning keys or a one-line problem. None: no search.
    whatif_changes: Callable[[], Any] | None = None

    def resolve_rules(self, rules: str | None, options: tuple[str, ...] = ()) -> str:
        """The rule level a game is played under: ``rules`` (None = the first of :attr:`rules`),
        checked with ``options`` (:attr:`check_rules`, else: a known level and known options).
        Raises ValueError naming the problem and the known levels or options."""
        level = rules if rules is not None else self.rules[0]
        if self.check_rules is not None:
            self.check_rules(level, tuple(options))
            return level
        if level not in self.rules:
            raise ValueError(f"unknown rules {level!r} for {self.title}: use one of {', '.join(self.rules)}")
        bad = [o for o in options if o not in self.options]
        if bad:
            known = ", ".join(self.options) or "none"
            raise ValueError(f"unknown optional rule(s) {', '.join(bad)} for {self.title}: known are {known}")
        return level

    def cause_of(self, rule: str) -> str | None:
        """The cause (one of :attr:`causes`) of an elimination logged under ``rule``; None when the
        system reports no causes."""
        return self.elimination_cause(rule) if self.elimination_cause is not None else None


#: name -> the module whose ``SYSTEM`` is that system (imported on first use, so a CLI run of one
#: system never imports the others).
SYSTEM_MODULES: dict[str, str] = {
    "ironcross": "core.ironcross.system",
    "redflags": "core.redflags.system",
    "twentymm": "core.twentymm.system",
}

_REGISTRY: dict[str, RuleSystem] = {}


def register(system: RuleSystem, module: str | None = None) -> RuleSystem:
    """Register ``system`` under its name (``module``: where its ``SYSTEM`` lives, for lazy
    loading in worker processes). Returns it. Raises ValueError for a second, different system
    under a name already taken."""
    old = _REGISTRY.get(system.name)
    if old is not None and old is not system:
        raise ValueError(f"rule system {system.name!r} is already registered")
    _REGISTRY[system.name] = system
    if module:
        SYSTEM_MODULES.setdefault(system.name, module)
    return system


def unregister(name: str) -> None:
    """Forget the system ``name`` and its module (a system added at run time, e.g. by a test)."""
    _REGISTRY.pop(name, None)
    SYSTEM_MODULES.pop(name, None)


def module_of(name: str) -> str | None:
    """The module whose ``SYSTEM`` is the system ``name`` (None: registered in-process only).
    The playtest runner sends it to its worker processes and Dask workers, so a system added at
    run time (``SYSTEM_MODULES[name] = module`` or ``register(system, module)``) is found there."""
    return SYSTEM_MODULES.get(name)


def add_module(name: str, module: str) -> None:
    """Make the system ``name`` loadable from ``module`` (its ``SYSTEM``) in this process, unless a
    module is known for it already."""
    SYSTEM_MODULES.setdefault(name, module)


def names() -> list[str]:
    """The names of every known rule system, sorted."""
    return sorted(set(SYSTEM_MODULES) | set(_REGISTRY))


def installed() -> list[RuleSystem]:
    """Every known system whose package is part of this checkout, by name (a system the registry
    names whose own module is missing is left out; any other import error is raised)."""
    out = []
    for name in names():
        try:
            out.append(get(name))
        except ModuleNotFoundError as e:
            module = SYSTEM_MODULES.get(name) or ""
            if not e.name or not (module == e.name or module.startswith(e.name + ".")):
                raise
    return out


def get(name: str | None) -> RuleSystem:
    """The rule system ``name`` (None = :data:`DEFAULT_SYSTEM`); imports its package on first use.
    Raises :class:`UnknownRuleSystem` naming the known systems."""
    name = name or DEFAULT_SYSTEM
    system = _REGISTRY.get(name)
    if system is not None:
        return system
    module = SYSTEM_MODULES.get(name)
    if module is None:
        raise UnknownRuleSystem(f"unknown rule system {name!r}; known: {', '.join(names())}")
    system = importlib.import_module(module).SYSTEM
    return register(system, module)


def system_name_of(data: Mapping[str, Any]) -> str:
    """The ``rule_system`` a scenario's JSON data names (absent = :data:`DEFAULT_SYSTEM`).
    Raises :class:`UnknownRuleSystem` for a name no package registers, TypeError for a non-string."""
    name = data.get("rule_system", DEFAULT_SYSTEM) if isinstance(data, Mapping) else DEFAULT_SYSTEM
    if not isinstance(name, str):
        raise TypeError(f"\"rule_system\" must be a string naming one of {', '.join(names())}, not {name!r}")
    if name not in SYSTEM_MODULES and name not in _REGISTRY:
        raise UnknownRuleSystem(f"unknown rule system {name!r}; known: {', '.join(names())}")
    return name


def system_of_data(path: str | os.PathLike[str], data: Any) -> RuleSystem:
    """The rule system a scenario's JSON ``data`` (read from ``path``) names (absent = Iron Cross).
    Raises ``maps.document_file.DocumentError`` naming the file and ``$.rule_system`` for an
    unknown system or a name that is not a string."""
    from maps.document_file import DocumentError, Problem

    try:
        return get(system_name_of(data))
    except (UnknownRuleSystem, TypeError) as e:
        raise DocumentError(str(path), [Problem("$.rule_system", str(e))]) from None


def for_scenario(path: str | os.PathLike[str]) -> RuleSystem:
    """The rule system of the scenario file ``path`` (its ``"rule_system"``; absent = Iron Cross):
    ``load_scenario(path).system``. Raises ``maps.document_file.DocumentError`` for an unreadable
    file or an unknown system (naming the file)."""
    return load_scenario(path).system


@dataclass(frozen=True)
class ScenarioRef:
    """What a playtest worker needs of a loaded scenario, small enough to send with every task:
    ``path`` (absolute, as a string), ``sha256`` (hex digest of the file's bytes when the caller
    loaded it), ``system`` (the rule system's name) and ``module`` (where that system's ``SYSTEM``
    lives, so a worker process finds a system added at run time; None: registered in-process only).

    The worker reads the file itself through its system's ``load_setup`` (which keeps what it read
    while the file stays the same, and reads a changed file again); ``sha256`` goes into each
    replay's header, so ``replay --verify`` can tell when the scenario changed since the game."""

    path: str
    sha256: str
    system: str
    module: str | None = None


@dataclass(frozen=True)
class LoadedScenario:
    """One scenario file read once, the object the command line, the playtest runner, the report and
    the summary pass around instead of its path (:func:`load_scenario`).

    ``path``: the file as given; ``data``: its JSON (a dict for a well-formed scenario; read-only by
    convention: nobody edits it in place); ``sha256``: hex digest of the bytes read; ``system``:
    the :class:`RuleSystem` it names. Derived: :attr:`title` ("Scenario N: TITLE"), :attr:`short_title`
    ("Scenario N", else the title), :attr:`map_file` and :attr:`sections` (what its ``"map"``
    names), :meth:`load_map` (the map it is played on) and :attr:`ref` (what a worker needs)."""

    path: Path
    data: Any
    sha256: str
    system: RuleSystem

    @property
    def title(self) -> str:
        """The title a front end shows: "Scenario N: TITLE" (:func:`scenario_title`)."""
        return scenario_title(self.data, self.path)

    @property
    def short_title(self) -> str:
        """"Scenario N" for a numbered scenario, else :attr:`title` (the report's picture titles)."""
        number = self.data.get("number") if isinstance(self.data, Mapping) else None
        return f"Scenario {number}" if number else self.title

    @property
    def map_file(self) -> Path | None:
        """The map file its ``"map"`` names (``{"file": ...}``), relative paths taken from the
        scenario's folder; None when it names none."""
        ref = self.data.get("map") if isinstance(self.data, Mapping) else None
        name = ref.get("file") if isinstance(ref, Mapping) else None
        if not isinstance(name, str) or not name:
            return None
        p = Path(name)
        return p if p.is_absolute() else self.path.resolve().parent / p

    @property
    def sections(self) -> list[str]:
        """The map sections its ``"map"`` names (``{"sections": [...]}``), in order; may be empty."""
        ref = self.data.get("map") if isinstance(self.data, Mapping) else None
        return list(ref.get("sections") or []) if isinstance(ref, Mapping) else []

    def load_map(self) -> tuple[Any, list[str]]:
        """``(HexMap, [section names])`` the scenario is played on: its system's ``scenario_map``
        when it has one, else the map file and sections its ``"map"`` names. Raises
        ``maps.document_file.DocumentError`` for a missing or invalid map (or none named)."""
        if self.system.scenario_map is not None:
            return self.system.scenario_map(str(self.path))
        from maps.document_file import DocumentError, Problem
        from maps.mapfile import load_map

        if self.map_file is None:
            raise DocumentError(str(self.path), [Problem("$.map.file", "names no map file")])
        return load_map(self.map_file), self.sections

    @property
    def ref(self) -> ScenarioRef:
        """What a worker needs to play it (:class:`ScenarioRef`)."""
        return ScenarioRef(str(self.path.resolve()), self.sha256, self.system.name, module_of(self.system.name))


def load_scenario(path: str | os.PathLike[str]) -> LoadedScenario:
    """Read the scenario file ``path`` once: its bytes (hashed), its JSON and the rule system it
    names. The one reader of a scenario for the front ends and the runner, with one set of errors:
    ``maps.document_file.DocumentError`` naming the file, the JSON path (``$`` for a missing,
    unreadable or malformed file; ``$.rule_system`` for an unknown system) and the problem. Whether
    the scenario can be played is its system's to say (``RuleSystem.load_setup``)."""
    from maps.document_file import read_json_text
    from maps.json_file import limit_for

    text, data = read_json_text(path, limit=limit_for("ironcross-scenario"))
    return LoadedScenario(Path(path), data, hashlib.sha256(text.encode("utf-8")).hexdigest(),
                          system_of_data(path, data))


def scenario_title(data: Mapping[str, Any], path: str | os.PathLike[str] = "") -> str:
    """The title a front end shows for a scenario's JSON ``data`` of any system: "Scenario N: TITLE"
    from its top-level ``number`` and ``title`` (the title alone without a number; the file's name
    without either)."""
    title = data.get("title") if isinstance(data, Mapping) else None
    number = data.get("number") if isinstance(data, Mapping) else None
    if not isinstance(title, str) or not title:
        return os.path.splitext(os.path.basename(str(path)))[0] or "scenario"
    return f"Scenario {number}: {title}" if number else title
