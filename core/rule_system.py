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

import importlib
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol

__all__ = ["RuleSystem", "RuleGame", "Piece", "ScenarioError", "IllegalActionError", "UnknownRuleSystem",
           "DEFAULT_SYSTEM", "SYSTEM_MODULES", "register", "get", "names", "system_name_of", "for_scenario"]

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
    ("PINNED", "DOWN", "hidden", ...), ``facing`` 0-5 or None."""

    uid: str
    side: str
    hexes: tuple[str, ...]
    label: str
    kind: str = ""
    status: tuple[str, ...] = ()
    facing: int | None = None


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


def names() -> list[str]:
    """The names of every known rule system, sorted."""
    return sorted(set(SYSTEM_MODULES) | set(_REGISTRY))


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


def for_scenario(path: str | os.PathLike[str]) -> RuleSystem:
    """The rule system of the scenario file ``path`` (its ``"rule_system"``; absent = Iron Cross).
    Reads only the top-level key. Raises ``maps.document_file.DocumentError`` for an unreadable file
    or an unknown system (naming the file)."""
    from maps.document_file import DocumentError, Problem, read_json

    data = read_json(path)
    try:
        return get(system_name_of(data))
    except (UnknownRuleSystem, TypeError) as e:
        raise DocumentError(str(path), [Problem("$.rule_system", str(e))]) from None
