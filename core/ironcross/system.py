"""Iron Cross behind the rule-system boundary: :data:`SYSTEM`, the :class:`core.rule_system.RuleSystem`
named ``"ironcross"`` (the system of every scenario file without ``"rule_system"``).

Everything the playtest runner, ``ironcross validate``, ``replay --verify`` and ``--report`` need
from Iron Cross is here, built from the engine's own modules: the set-up
(:mod:`core.ironcross.scenario_setup`), the game (:class:`core.ironcross.game.Game`), the players
(:mod:`core.ironcross.players`, :mod:`core.ironcross.ai`; a designer's set-up is placed by
:class:`core.ironcross.fixed_setup_player.FixedSetupPlayer`), the players' view
(:class:`core.ironcross.view.PlayerView`), the actions' JSON (:mod:`core.ironcross.actions`), what a
game's record says (:mod:`core.ironcross.game_record`), the design checks
(:mod:`core.ironcross.design_checks`), the designer's set-up files (:mod:`core.ironcross.placement`)
and the map's reading by the Movement and Combat Effects Chart (:data:`TERRAIN_MAPPING`).
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any, Iterator, Mapping

from core.ironcross import editor_view
from core.ironcross.game_record import CAUSES, objective_hexes
from core.ironcross.observation import OPTION_PENALTY, OPTION_SPECIAL_ROLL, RULE_SETS
from core.rule_system import Piece, RuleSystem
from maps.content_cache import ContentCache

__all__ = ["SYSTEM", "TERRAIN_MAPPING", "load_setup", "new_game", "make_players", "view", "result_fields",
           "turn_record", "summarise_scenario", "scenario_warnings", "pieces", "describe_event", "los",
           "fire_origins", "check_placement", "describe_placement", "scenario_map"]

SIDES = ("german", "russian")

#: What each registered player is (``--ai SIDE=NAME``); a player registered at run time in
#: :data:`core.ironcross.players.PLAYERS` without a line here is described as such.
PLAYER_DESCRIPTIONS = {
    "random": "uniformly random over the legal actions (core.ironcross.players.RandomPlayer)",
    "heuristic": "plays to the victory conditions (core.ironcross.ai.heuristic.HeuristicPlayer)",
}


class _Players(Mapping[str, str]):
    """AI name -> description: a live view of :data:`core.ironcross.players.PLAYERS` (a player registered
    there later, e.g. by a test, is known to ``--ai`` too)."""

    def _names(self) -> dict:
        from core.ironcross.players import PLAYERS

        return PLAYERS

    def __getitem__(self, name: str) -> str:
        if name not in self._names():
            raise KeyError(name)
        return PLAYER_DESCRIPTIONS.get(name, "a registered player (core.ironcross.players.PLAYERS)")

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


# ------------------------------------------------------------------------------------- playing
def load_setup(path, seed: int, fixed: dict | None = None):
    """The :class:`core.ironcross.setup.GameSetup` of one game of the scenario file ``path``
    (24.1 random choices drawn from ``seed``), narrowed to the designer's set-up ``fixed``
    (:func:`core.ironcross.scenario_setup.apply_fixed_setup`; its ``left_out`` settles the 24.1
    random choices of every game the same way). Raises ``DocumentError`` for an invalid file,
    :class:`core.ironcross.setup.SetupError` (a ``ScenarioError``) when it cannot be played."""
    from core.ironcross.scenario_setup import apply_fixed_setup, build_setup

    left_out = (fixed or {}).get("left_out") or None
    sc, hexmap, roster = scenario_files(str(path))
    setup = apply_fixed_setup(build_setup(sc, hexmap, seed=seed, roster=roster, left_out=left_out), fixed)
    setup.ai_settings = stored_ai(sc)  # the scenario's per-side AI settings (make_players)
    return setup


def stored_ai(sc) -> dict[str, str]:
    """side -> player spec ``NAME:k=v,...`` of the behaviour settings the scenario stores for that
    side (``ai_settings``; docs/ai.md); sides without settings are left out."""
    from core.behaviour_settings import stored_specs

    return stored_specs(getattr(sc, "ai_settings", None))


def _blunder_kinds() -> dict[str, str]:
    from core.ironcross.blunders import KINDS

    return dict(KINDS)


def _blunder_watch(game):
    from core.ironcross.blunders import blunder_watch

    return blunder_watch(game)


def _whatif_changes():
    from core.ironcross import whatif_changes

    return whatif_changes


def _settings_space(player: str) -> tuple[dict, dict]:
    """(search space, defaults) of the heuristic's behaviour settings (core.ironcross.ai.settings)."""
    if player != "heuristic":
        raise KeyError(player)
    from core.ironcross.ai.settings import SEARCH_SPACE, BehaviorSettings

    return dict(SEARCH_SPACE), BehaviorSettings().model_dump()


def _player_settings(spec: str) -> str:
    from core.ironcross.players import canonical_settings

    return canonical_settings(spec)


#: The scenario files this process has loaded for games: resolved path -> (stamps (inode, size,
#: mtime and ctime in ns) of the scenario, map and counters files, scenario, map, roster). Our saves
#: are atomic (a new file renamed over the old), so a saved file has a new inode even when it is
#: written twice within one clock tick with the same size; any other write changes its ctime. A batch reads, checks and
#: builds them once; every game still builds its own set-up (its seed's 24.1 choices, its own
#: units) with :func:`core.ironcross.scenario_setup.build_setup`, as
#: :func:`core.ironcross.scenario_setup.load_setup` does. A file changed on disk is read again.
_LOADED = ContentCache(32)
#: The maps read for those scenarios: resolved map path -> (stamp, map). Scenarios on one map (a
#: what-if search's candidates, each in its own file) share it, and with it what was computed on
#: it in this process (the LOS answers kept on the map, the players' map fields).
_MAPS = ContentCache(4)


def _stamp(path) -> tuple | None:
    if path is None:
        return None
    st = os.stat(path)
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def scenario_files(scenario_path: str) -> tuple:
    """(scenario, map, roster) of the scenario file ``scenario_path`` as ``load_setup`` loads them
    (validated), remembered while the three files stay the same (see :data:`_LOADED`). Raises
    ``DocumentError`` for an invalid file."""
    from scenarios.scenario_file import load_scenario, load_scenario_map, load_scenario_roster, map_path, roster_path

    key = str(Path(scenario_path).resolve())
    hit = _LOADED.get(key)
    if hit is not None:
        stamps, sc, hexmap, roster = hit
        if stamps == (_stamp(key), _stamp(map_path(sc, scenario_path)), _stamp(roster_path(sc, scenario_path))):
            return sc, hexmap, roster
    first = _stamp(key)  # before reading: a file changed while it is read is read again next time
    sc = load_scenario(Path(scenario_path))
    mp = map_path(sc, scenario_path)
    stamps = (first, _stamp(mp), _stamp(roster_path(sc, scenario_path)))
    held = _MAPS.get(str(mp))
    if held is not None and held[0] == stamps[1]:
        hexmap = held[1]
    else:
        hexmap = load_scenario_map(sc, scenario_path)
        _MAPS.put(str(mp), (stamps[1], hexmap))
    roster = load_scenario_roster(sc, scenario_path)
    _LOADED.put(key, (stamps, sc, hexmap, roster))
    return sc, hexmap, roster


def new_game(setup, seed: int, rules: str = "basic", options: tuple[str, ...] = ()):
    """A :class:`core.ironcross.game.Game` at its start, with one ``pre_game_choice`` event (24.1)
    for each random choice the set-up made (which unit a "less" drew, ...). Raises ValueError for
    unknown rules or options (:func:`core.ironcross.observation.check_rules`), ``SetupError`` for a
    set-up naming a hex off the map."""
    from core.ironcross.game import Game

    game = Game(setup, seed, rules=rules, options=tuple(options))
    for c in getattr(setup, "choices", []):
        game._event("pre_game_choice", rule="24.1", text=c)
    return game


def make_players(setup, ai: Mapping[str, str], seed: int) -> dict:
    """``{side: player}`` for ``ai`` = ``{side: name}`` (:func:`core.ironcross.players.make_player`): the
    German player seeded ``derive_seed(seed, 1)``, the Russian ``derive_seed(seed, 2)``; each
    wrapped in a :class:`FixedSetupPlayer` when the set-up is a designer's (``setup.fixed``).
    Raises KeyError naming the known players for an unknown name."""
    from core.dice import derive_seed
    from core.ironcross.fixed_setup_player import FixedSetupPlayer
    from core.ironcross.players import make_player

    from core.behaviour_settings import with_stored

    # a bare player name takes the settings the scenario stores for that side and player (if any)
    spec = with_stored(ai, getattr(setup, "ai_settings", None) or {})
    players = {side: make_player(spec[side], derive_seed(seed, 1 if side == "german" else 2)) for side in ai}
    if getattr(setup, "fixed", None):
        players = {side: FixedSetupPlayer(p, setup.fixed, side) for side, p in players.items()}
    return players


def view(game, side: str):
    """What ``side`` may know: a :class:`core.ironcross.view.PlayerView` (read-only; the
    opponent's hidden units and secret mines left out)."""
    from core.ironcross.view import PlayerView

    return PlayerView(game, side)


def _action_to_json(action) -> dict:
    from core.ironcross.actions import action_to_json

    return action_to_json(action)


def _action_from_json(d: dict):
    from core.ironcross.actions import action_from_json

    return action_from_json(d)


def _check_rules(rules: str, options: tuple[str, ...]) -> None:
    from core.ironcross.observation import check_rules

    check_rules(rules, options)


def _elimination_cause(rule: str) -> str:
    from core.ironcross.game_record import elimination_cause

    return elimination_cause(rule)


# ------------------------------------------------------------------------------ what a game says
def fire_origins(game, new_events: list[dict]) -> dict[str, dict[str, int]]:
    """``{"fire_from": {hex: firers}}`` of the ``fire`` events (10.0) an action just logged: one
    per firer, in the hex it stands in now (a firer never moves during its own fire action, so
    that is where it fired from)."""
    out: Counter = Counter()
    units = game.units
    for e in new_events:
        if e["kind"] == "fire":
            for uid in e.get("firers") or ():
                u = units.get(uid)
                if u is not None and u.hex:
                    out[u.hex] += 1
    return {"fire_from": out} if out else {}


def result_fields(game) -> dict:
    """The :class:`core.playtest.GameResult` fields of a finished game beyond index, seed, outcome,
    turns and actions: ``casualties`` (side -> unit kind -> eliminated), ``casualties_by_turn``
    (side -> eliminations per Game Turn), ``first_contact`` (the Game Turn of the first combat
    roll: no 7.0 b morale roll, no PC), ``eliminated_at`` and ``fire_at`` (hex -> count; fire,
    grenade, flame and assault targets), ``reason`` (the 24.1 victory condition that decided),
    ``eliminations_by_rule``/``eliminations_by_side``, ``idle`` and ``attacks``
    (:mod:`core.ironcross.game_record`), ``objective_units`` (side -> its units standing in the
    scenario's objective hexes at the end, :func:`core.ironcross.game_record.objective_hexes`: the
    "no finish" evidence, a side that lost to one or two enemy units left there)."""
    from core.ironcross.game_record import attacks_by_unit, unit_activity

    cas: dict[str, dict[str, int]] = {"german": {}, "russian": {}}
    by_turn: dict[str, list[int]] = {"german": [], "russian": []}
    elim: Counter = Counter()
    fire: Counter = Counter()
    by_rule: Counter = Counter()
    by_side: dict[str, Counter] = {"german": Counter(), "russian": Counter()}
    first = None
    for e in game.events:
        k = e["kind"]
        if k == "eliminated":
            by_rule[e.get("rule") or ""] += 1
            u = game.units[e["unit"]]
            by_side[u.side][e.get("rule") or ""] += 1
            cas[u.side][u.kind.value] = cas[u.side].get(u.kind.value, 0) + 1
            t = max(1, int(e.get("turn") or 1))
            row = by_turn[u.side]
            row.extend([0] * (t - len(row)))
            row[t - 1] += 1
            if e.get("hex"):
                elim[e["hex"]] += 1
        elif k in ("fire", "grenade_result", "flame_result", "assault"):
            tgt = e.get("target") or (game.units[e["unit"]].hex if e.get("unit") in game.units else None)
            if tgt:
                fire[tgt] += 1
        elif k == "roll" and first is None and e["rule"] not in ("7.0 b",) and not e["purpose"].startswith("PC"):
            first = e["turn"]
    turns = game.turn
    for row in by_turn.values():
        row.extend([0] * (turns - len(row)))
    details = game.events[-1].get("details") or {}
    return {"casualties": cas, "first_contact": first, "eliminated_at": dict(elim), "fire_at": dict(fire),
            "reason": (details.get("reason") if isinstance(details, dict) else "") or "",
            "casualties_by_turn": by_turn, "eliminations_by_rule": dict(by_rule), "idle": unit_activity(game),
            "eliminations_by_side": {s: dict(c) for s, c in by_side.items()}, "attacks": attacks_by_unit(game),
            "objective_units": _objective_units(game)}


def _on_objectives(game) -> dict[str, list] | None:
    """Side -> its units (AFVs and crew weapons included) standing in the scenario's objective
    hexes (:func:`core.ironcross.game_record.objective_hexes`) now; None when it names none."""
    objectives = objective_hexes(game.setup)
    if not objectives:
        return None
    out: dict[str, list] = {side: [] for side in SIDES}
    for u in game.state.units.values():
        if u.on_map and u.hex in objectives:
            out[u.side].append(u)
    return out


def _objective_units(game) -> dict[str, int]:
    """Side -> how many of its units stand in the objective hexes now; empty when there are none."""
    on = _on_objectives(game)
    return {} if on is None else {side: len(us) for side, us in on.items()}


def turn_record(game) -> tuple[str, dict[str, int]]:
    """When a Game Turn has ended: the outcome the victory conditions would give now (24.1; "draw"
    without conditions) and, per side, how many of the scenario's objective hexes
    (:func:`core.ironcross.game_record.objective_hexes`) its units stand in."""
    setup = game.setup
    victory = setup.victory
    res = victory(game.state, game) if victory is not None else "draw"
    on = _on_objectives(game) or {side: [] for side in SIDES}
    held = {side: len({u.hex for u in us}) for side, us in on.items()}
    return (res[0] if isinstance(res, tuple) else res), held


def los(game, a: str, b: str) -> bool:
    """10.3: is the LOS from hex ``a`` to hex ``b`` clear (UP firer, the game's AFVs and wrecks)?"""
    return bool(game.los(a, b).clear)


# ---------------------------------------------------------------------------------- the editor
_label = editor_view.counter_label


def _kind(u) -> str:
    if u.is_cw:
        return "gun" if u.is_atg else "mortar" if u.is_mortar else "mg" if u.is_mg else "atr" if u.is_atr else "crew weapon"
    return u.kind.value


def pieces(game) -> list[Piece]:
    """Every unit on the map (2.2), as the editor draws it: its hex, a counter label (weapon and
    squad letter), its kind, its status (PINNED/SUPPRESSED 3.2, DOWN 3.1, hidden 24.2,
    immobilized 8.54) and its facing (hexside 1-6, 8.7; None for units without one)."""
    out = []
    for uid, u in game.state.units.items():
        if not u.on_map:
            continue
        status = tuple(x for x in (u.morale.value if u.morale.value != "NORMAL" else "", "DOWN" if u.down else "",
                                   "hidden" if u.hidden else "", "immobilized" if u.immobilized else "") if x)
        out.append(Piece(uid, u.side, (u.hex,), _label(u), _kind(u), status, u.facing if u.has_facing else None))
    return out


def _value(v) -> str:
    if isinstance(v, (list, tuple)):
        return ", ".join(_value(x) for x in v) or "none"
    if isinstance(v, dict):
        return "; ".join(f"{k} {_value(x)}" for k, x in v.items())
    if v is True:
        return "yes"
    if v is False:
        return "no"
    return str(v)


def _names(xs) -> str:
    xs = [str(x) for x in (xs or [])]
    return ", ".join(xs) if xs else "nobody"


def describe_event(e: dict) -> str:
    """One plain English sentence for an event, with its rule ("G-C-1 is eliminated in 4307
    (11.43)."); the editor's log has a richer one (``editor/play/game_record.py``)."""
    k = e.get("kind", "")
    g = e.get
    if k == "game_start":
        text = f"Game starts: {g('title', '')}, seed {g('seed')}, {g('rules')} rules"
    elif k == "game_over":
        det = g("details") or {}
        why = det.get("reason") if isinstance(det, dict) else ""
        text = ("Game over: a draw" if g("outcome") == "draw" else f"Game over: {g('outcome')} wins") + \
            (f" ({why})" if why else "")
    elif k == "action":
        a = g("action") or {}
        rest = ", ".join(f"{x} {_value(v)}" for x, v in a.items() if x != "kind" and v not in (None, False, [], ""))
        text = f"{str(g('side') or '').capitalize()} decides: {a.get('kind', '?')}" + (f" ({rest})" if rest else "")
    elif k == "roll":
        dice = list(g("dice") or [])
        text = f"Roll for {g('purpose', '')}: {' + '.join(str(d) for d in dice)} = {g('total')}"
    elif k == "player_turn":
        text = f"Game Turn {g('game_turn', g('turn'))}: {g('phasing')} player turn"
    elif k == "phase":
        text = f"{str(g('phase', '')).replace('_', ' ').capitalize()} Phase ({g('phasing')} phasing)"
    elif k == "placed":
        text = f"{g('unit')} is set up in {g('hex')}" + (" DOWN" if g("down") else "")
    elif k == "moved":
        text = f"{_names(g('units'))} move{'s' if len(g('units') or []) == 1 else ''} to {g('to')}"
    elif k == "fire":
        text = f"{_names(g('firers'))} fire{'s' if len(g('firers') or []) == 1 else ''} at {g('target')} ({g('mode', 'AP')})"
    elif k == "eliminated":
        text = f"{g('unit')} is eliminated" + (f" in {g('hex')}" if g("hex") else "")
    elif k == "morale":
        text = f"{g('unit')} goes from {g('before')} to {g('after')}"
    elif k == "pc":
        text = f"{g('unit')} {'passes' if g('passed') else 'fails'} its PC for {g('purpose', '')}: {g('total')} against PR {g('pr')}"
    elif k == "control":
        text = f"{g('side')} controls {g('hex')}"
    else:
        skip = {"i", "kind", "rule", "turn", "player_turn", "phase"}
        rest = ", ".join(f"{x.replace('_', ' ')} {_value(v)}" for x, v in e.items()
                         if x not in skip and v not in (None, [], {}, ""))
        text = k.replace("_", " ").capitalize() + (f": {rest}" if rest else "")
    return text + (f" ({g('rule')})." if g("rule") else ".")


# ---------------------------------------------------------------------------- scenario files
def ai_settings_problems(path: str, sc) -> None:
    """The behaviour settings a scenario stores per side (``ai_settings``) checked as a game would
    use them: a known AI player, and settings it takes, each known and in range
    (:func:`core.ironcross.players.canonical_settings`). Raises ``DocumentError`` naming the file
    and ``$.ai_settings.SIDE...`` (a stored player nobody knows would silently never apply)."""
    from core.behaviour_settings import stored_problems
    from core.ironcross.players import PLAYERS, canonical_settings
    from maps.document_file import DocumentError, Problem

    problems = [Problem(where, what) for where, what in stored_problems(sc.ai_settings, PLAYERS, canonical_settings)]
    if problems:
        raise DocumentError(path, problems)


def summarise_scenario(path: str, data) -> str:
    """``ironcross validate``'s line for an Iron Cross scenario: number, title, map sections, turns
    and each side's OOB. Raises ``DocumentError`` naming the file, the JSON path and the problem
    (:func:`scenarios.scenario_file.scenario_from_data`)."""
    from scenarios.scenario_file import scenario_from_data

    sc = scenario_from_data(data, path)
    ai_settings_problems(path, sc)
    g, r = sc.german, sc.russian

    def count(n: int, one: str) -> str:
        return f"{n} {one if n == 1 else one + 's'}"

    return (f"scenario {sc.number or '-'} {sc.title!r}: {', '.join(sc.map.sections)}, {sc.turns} turns, "
            f"German {len(g.units())} OOB unit entries in {len(g.groups)} group(s), "
            f"Russian {len(r.units())} in {len(r.groups)} group(s)"
            + (f"; own roster: {count(len(sc.roster.add), 'addition')}, {count(len(sc.roster.override), 'override')}"
               if sc.roster is not None else ""))


def scenario_warnings(path: str) -> list:
    """The design checks of a valid scenario (:func:`core.ironcross.design_checks.scenario_file_warnings`)."""
    from core.ironcross.design_checks import scenario_file_warnings

    return scenario_file_warnings(path)


def scenario_map(path: str):
    """``(HexMap, [section names])``: the scenario's map (its own chart) and its map sections (24.1 MAP),
    as the games of this process loaded them (:func:`scenario_files`: read again only when a file
    changed). Raises ``DocumentError`` for an invalid file."""
    sc, hexmap, _roster = scenario_files(str(path))
    return hexmap, list(sc.map.sections)


# ----------------------------------------------------------------- a designer's set-up files
def _load_placement(path: str) -> dict:
    from core.ironcross.placement import load_placement

    return load_placement(path)


def check_placement(scenario_path: str, fixed: dict, seed: int = 0) -> list:
    """Every problem of the designer's set-up ``fixed`` on the scenario ``scenario_path`` (the
    editor's Validation dock: :func:`core.ironcross.placement.check_fixed_setup`), each a
    ``Problem`` naming its place in the placement file; empty when it can be played as placed.
    The set-up is built with the placement's ``left_out`` (24.1). Raises ``DocumentError`` /
    ``SetupError`` when the scenario itself cannot be played."""
    from core.ironcross.placement import check_fixed_setup
    from core.ironcross.scenario_setup import load_setup as _load

    _sc, setup = _load(scenario_path, seed=seed, left_out=(fixed or {}).get("left_out") or None)
    return check_fixed_setup(setup, fixed)


def describe_placement(fixed: dict) -> str:
    """One line: units placed, hidden hexes (24.2), mined hexes (19.1), IPs (18.1), units left out (24.1)."""
    return (f"{len(fixed.get('units') or {})} units placed, {len(fixed.get('hidden_hexes') or {})} hidden hexes, "
            f"{len(fixed.get('mines') or {})} mined hexes"
            + (f", {len(fixed['ips'])} IPs" if fixed.get("ips") else "")
            + (f", left out: {', '.join(fixed['left_out'])}" if fixed.get("left_out") else ""))


def _placement_document(path: str, data) -> str:
    """``ironcross validate`` of a placement file (format ``ironcross-placement``): its structure,
    and when the scenario it belongs to lies beside it (``NAME.placement.json`` next to
    ``NAME.json``), every placement problem on that scenario."""
    from pathlib import Path

    from core.ironcross.placement import placement_from_data
    from core.ironcross.setup import SetupError
    from maps.document_file import DocumentError, Problem

    def count(n: int, one: str, many: str | None = None) -> str:
        return f"{n} {one if n == 1 else (many or one + 's')}"

    fixed = placement_from_data(data, path)
    p = Path(path)
    scen = p.with_name(p.name[:-len(".placement.json")] + ".json") if p.name.endswith(".placement.json") else None
    where = ""
    if scen is not None and scen.is_file():
        try:
            problems = check_placement(str(scen), fixed)
        except (SetupError, KeyError) as e:
            raise DocumentError(path, [Problem("$", f"its scenario {scen.name} cannot be set up: {e}")]) from None
        if problems:
            raise DocumentError(path, problems)
        where = f", checked against {scen.name}"
    return (f"set-up: {count(len(fixed['units']), 'unit')} placed, "
            f"{count(len(fixed['hidden_hexes']), 'hidden hex', 'hidden hexes')}, "
            f"{count(len(fixed['mines']), 'mined hex', 'mined hexes')}, "
            + (f"{count(len(fixed['ips']), 'IP')}, " if fixed.get("ips") else "")
            + f"{len(fixed['left_out'])} left out{where}")


# ------------------------------------------------------------------------ the map, read by Iron Cross
def _rb(ref: str, **more: Any) -> dict:
    return {"provenance": "rulebook", "ref": ref, **more}


#: How Iron Cross reads the shared painted map (JSON-ready). Every hex is read through the
#: Movement and Combat Effects Chart (the "Terrain Effects Chart") the map names: its rows, in
#: the governing order below, give move costs, AP dice, firepower modifiers, observation bases and
#: levels (:func:`maps.terrain_chart.hex_row_keys`, :class:`core.ironcross.hex_terrain.HexTerrain`).
#: The chart's values carry their own provenance cell by cell (``maps/data/terrain_chart.json``,
#: ``docs/terrain-chart.md``: the rulebook prints part of it, the rest is reconstructed).
TERRAIN_MAPPING: dict[str, Any] = {
    "system": "ironcross",
    "provenance": "rulebook",
    "ref": "Movement and Combat Effects chart (terrain chart: the map's 'terrain_chart', shipped "
           "maps/data/terrain_chart.json; each value's own provenance there, docs/terrain-chart.md)",
    "governing_order": _rb("maps.terrain_chart.hex_row_keys (chart note a, 8.52, 8.54)",
                           rows=["building_multi", "building_single", "bridge", "road", "woods", "gully", "marsh",
                                 "trees", "clear"], hill_rows_added=["hill_1", "hill_2"]),
    "features": {
        "clear": _rb("Movement and Combat Effects chart: 'Clear (0)'", chart_row="clear"),
        "trees": _rb("8.54 (Woods: hexes with 2 or more Tree symbols); 10.31 b (more than three Tree symbols, "
                     "AFVs or wrecks along the line block LOS); 11.16 (-1 AP factor per tree)",
                     chart_row={"1 tree": "trees", "2 or more trees": "woods"}, counted_per_symbol=True),
        "marsh": _rb("8.55 (AFV immobilisation), 10.31 c (blocks LOS of a DOWN firer), 23.2 e",
                     chart_row="marsh"),
        "levels": _rb("10.32 (the Sighting Chart, levels from the chart's 'Type (Level)'), 10.34 (a hex of two "
                      "elevations is at the lower), 8.53 (+1 MP uphill), 10.31 a (a higher Hill hex blocks)",
                      chart_row={"1": "hill_1", "2": "hill_2"}, level_meaning="ground level of the hex"),
        "buildings": _rb("10.31 a (a Building symbol the line crosses or touches blocks LOS; not in the firer's or "
                         "target's own hex, 10.33); the Infiltration table (single- and multi-hex buildings)",
                         chart_row={"single-hex": "building_single", "multi-hex": "building_multi"},
                         height_above_ground=0.5),
        "roads": _rb("8.52 (1/2 MP from road hex to road hex along the road, NORMAL and UP only)",
                     chart_row="road", applies="along the road only"),
        "gullies": _rb("Movement and Combat Effects chart: 'Gully (0)', note a (a road over a gully is a Bridge "
                       "hex, treated as a Road hex)", chart_row={"gully": "gully", "road on a gully": "bridge"}),
    },
    "los": _rb("10.3 (10.31-10.34) over the shared geometry: maps.los.line_of_sight, with AFVs and wrecks "
               "(core.ironcross.game.Game.los)"),
}

def _vassal_plan(path):
    """What the VASSAL module of the scenario file holds (:mod:`core.ironcross.vassal_plan`)."""
    from core.ironcross.vassal_plan import plan_from_files

    return plan_from_files(path)


SYSTEM = RuleSystem(
    name="ironcross",
    title="Iron Cross",
    seed="seeds/000_e4e38026d31aa6b9.txt",
    players=_Players(),
    rules=RULE_SETS,  # "basic" (3.0-20.0), "advanced" (all of 21.0-23.0 together)
    options={OPTION_PENALTY: "23.2 optional penalty (advanced rules only)",
             OPTION_SPECIAL_ROLL: "the Observation table's optional special roll (advanced rules only)"},
    load_setup=load_setup,
    new_game=new_game,
    make_players=make_players,
    player_settings=_player_settings,
    settings_space=_settings_space,
    blunder_kinds=_blunder_kinds(),
    blunder_watch=_blunder_watch,
    whatif_changes=_whatif_changes,
    view=view,
    action_to_json=_action_to_json,
    action_from_json=_action_from_json,
    result_fields=result_fields,
    turn_record=turn_record,
    summarise_scenario=summarise_scenario,
    scenario_warnings=scenario_warnings,
    pieces=pieces,
    describe_event=describe_event,
    los=los,
    terrain_mapping=TERRAIN_MAPPING,
    check_rules=_check_rules,
    action_record=fire_origins,
    causes=CAUSES,
    elimination_cause=_elimination_cause,
    load_placement=_load_placement,
    check_placement=check_placement,
    describe_placement=describe_placement,
    document_kinds={"ironcross-placement": _placement_document},
    scenario_map=scenario_map,
    # the editor's Watch and Hot-seat: the richer log, labels, state and AP odds (editor_view)
    describe_action=editor_view.describe_action,
    log_events=editor_view.describe_events,
    watch_state=editor_view.watch_state,
    action_notes=editor_view.action_notes,
    click_action=editor_view.action_for_click,
    click_targets=editor_view.click_targets,
    decision_note=editor_view.decision_note,
    vassal_plan=_vassal_plan,
)
