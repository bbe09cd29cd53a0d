"""Headless playtests: run whole games of a scenario with AI players and summarise them.

Each game ``i`` of a batch seeded ``S`` uses the seed ``derive_seed(S, i)`` for its dice, its
pre-game choices and its players, so results are the same whatever the number of workers or the
backend. Games run in batches (one task per batch of games, not per game) on a local process pool,
or on a Dask distributed cluster when a scheduler address is given (``pip install distributed``;
the workers must be able to import this package: start them from the same environment, e.g.
``dask worker tcp://HOST:8786`` in the project's venv). Workers never write files: replays travel
back with the results and the caller writes them, so ``--replays`` works the same on a cluster.

An exception inside one game does not stop the batch: the game is reported (outcome ``"error"``)
with its seed and the error, and its replay (the decisions up to the failure) is always saved, to
the replay folder or else to the error folder, so ``ironcross replay FILE --verify`` reproduces it.

Fire origins: the engine's ``fire`` event names its firers; the runner records each firer's hex
when the event is seen (right after the action that produced it; a firer never moves during its
own fire action, so that is where it fired from).
"""

from __future__ import annotations

import gc
import json
import math
import os
import statistics
import threading
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from core.dice import derive_seed
from core.ironcross.game_record import CAUSES, attacks_by_unit, elimination_cause, objective_hexes, unit_activity

__all__ = ["GameResult", "PlaytestError", "play_game", "run_batch", "summarise", "wilson_interval", "parse_ai",
           "ai_spec_text", "DEFAULT_ERROR_DIR", "DEFAULT_AI", "DEFAULT_RULES", "RULES", "FixedSetupPlayer"]

#: Where the replays of games that raised go when no replay folder is given (relative to the cwd).
DEFAULT_ERROR_DIR = "playtest-errors"

#: The players and rules every playtest front end starts from (``ironcross playtest`` and the
#: editor's Playtest panel): the heuristic AI on both sides, the basic rules. Hidden hexes (24.2)
#: and infiltration (24.3) are scenario rules, in force under either rules when the scenario grants them.
DEFAULT_AI: dict[str, str] = {"german": "heuristic", "russian": "heuristic"}
DEFAULT_RULES = "basic"
#: "basic" (3.0-20.0) or "advanced" (all of 21.0-23.0 together)
RULES = ("basic", "advanced")


class PlaytestError(RuntimeError):
    """The batch cannot run (no Dask, unreachable scheduler, workers without this package)."""


@dataclass
class GameResult:
    """One game's result: ``outcome`` "german"/"russian"/"draw" or "error"; ``turns`` played;
    ``casualties`` per side and unit kind; ``casualties_by_turn`` per side a list of eliminations
    per Game Turn (item 0 = Game Turn 1); ``first_contact`` the Game Turn of the first combat
    roll (None without combat); hex -> count of ``eliminated_at`` (units eliminated in the hex),
    ``fire_at`` (fire, grenade, flame and assault targets) and ``fire_from`` (one per firer of
    each fire attack); ``eliminations_by_rule``: rule number -> units eliminated under it (see
    :func:`core.ironcross.game_record.elimination_cause`); ``idle``: side -> ``never_entered`` /
    ``never_acted`` unit ids (:func:`core.ironcross.game_record.unit_activity`); ``seconds``: wall
    time of the game; ``actions``: decisions taken; for an error, ``error`` starts with where it was
    raised ("in the german player 'heuristic' at decision 30: ..." or "in the engine ...").

    For the balance sheet (``benchmarks/balance.py``): ``eliminations_by_side``: side -> rule ->
    units of that side eliminated under it; ``attacks``: side -> unit id -> attacks it took part in,
    every unit that stood on the map (:func:`core.ironcross.game_record.attacks_by_unit`);
    ``standing_by_turn``: the outcome the victory conditions give when each Game Turn has ended
    (item 0 = Game Turn 1; the last item is the game's outcome); ``objective_by_turn``: side -> the
    number of the scenario's objective hexes (:func:`core.ironcross.game_record.objective_hexes`)
    its units stand in when each Game Turn has ended."""

    index: int
    seed: int
    outcome: str
    turns: int
    casualties: dict[str, dict[str, int]] = field(default_factory=dict)
    first_contact: int | None = None
    eliminated_at: dict[str, int] = field(default_factory=dict)
    fire_at: dict[str, int] = field(default_factory=dict)
    actions: int = 0
    reason: str = ""
    error: str | None = None
    replay: str | None = None
    casualties_by_turn: dict[str, list[int]] = field(default_factory=dict)
    fire_from: dict[str, int] = field(default_factory=dict)
    eliminations_by_rule: dict[str, int] = field(default_factory=dict)
    idle: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    seconds: float = 0.0
    eliminations_by_side: dict[str, dict[str, int]] = field(default_factory=dict)
    attacks: dict[str, dict[str, int]] = field(default_factory=dict)
    standing_by_turn: list[str] = field(default_factory=list)
    objective_by_turn: dict[str, list[int]] = field(default_factory=dict)


def parse_ai(text: str | None) -> dict[str, str]:
    """``"german=random,russian=heuristic"`` -> {"german": "random", "russian": "heuristic"};
    missing sides (and an empty spec) take :data:`DEFAULT_AI`. Raises ValueError on a malformed spec."""
    out = dict(DEFAULT_AI)
    if not text:
        return out
    for part in text.split(","):
        if "=" not in part:
            raise ValueError(f"--ai expects SIDE=NAME pairs, got {part!r}")
        side, name = (x.strip().lower() for x in part.split("=", 1))
        if side not in out:
            raise ValueError(f"unknown side {side!r} in --ai (german or russian)")
        out[side] = name
    return out


def ai_spec_text(ai: dict[str, str]) -> str:
    """The ``--ai`` text of a players dict: {"german": "heuristic", ...} -> "german=heuristic,..."."""
    return ",".join(f"{side}={name}" for side, name in ai.items())


#: The scenario files this process has loaded for games: resolved path -> (stamps (mtime, size)
#: of the scenario, map and counters files, scenario, map, roster). A batch reads, checks and
#: builds them once; every game still builds its own set-up (its seed's 24.1 choices, its own
#: units) with :func:`core.ironcross.scenario_setup.build_setup`, as ``load_setup`` does. A file
#: changed on disk is read again.
_LOADED: dict[str, tuple] = {}


def _stamp(path) -> tuple | None:
    if path is None:
        return None
    st = os.stat(path)
    return (st.st_mtime_ns, st.st_size)


def _scenario_files(scenario_path: str) -> tuple:
    """(scenario, map, roster) of ``scenario_path`` as ``load_setup`` loads them (validated),
    remembered while the files stay the same (see :data:`_LOADED`)."""
    from scenarios.scenario_file import load_scenario, load_scenario_map, load_scenario_roster, map_path, roster_path

    key = str(Path(scenario_path).resolve())
    hit = _LOADED.get(key)
    if hit is not None:
        stamps, sc, hexmap, roster = hit
        if stamps == (_stamp(key), _stamp(map_path(sc, scenario_path)), _stamp(roster_path(sc, scenario_path))):
            return sc, hexmap, roster
    first = _stamp(key)  # before reading: a file changed while it is read is read again next time
    sc = load_scenario(Path(scenario_path))
    stamps = (first, _stamp(map_path(sc, scenario_path)), _stamp(roster_path(sc, scenario_path)))
    hexmap = load_scenario_map(sc, scenario_path)
    roster = load_scenario_roster(sc, scenario_path)
    if len(_LOADED) >= 8:
        _LOADED.clear()
    _LOADED[key] = (stamps, sc, hexmap, roster)
    return sc, hexmap, roster


def _setup_for(scenario_path: str, seed: int, fixed: dict | None = None):
    """The game's set-up: the scenario's, narrowed to the designer's set-up ``fixed`` (its
    ``left_out`` settles the 24.1 random choices of every game the same way). As
    :func:`core.ironcross.scenario_setup.load_setup`, from the files loaded once per process."""
    from core.ironcross.scenario_setup import apply_fixed_setup, build_setup

    left_out = (fixed or {}).get("left_out") or None
    sc, hexmap, roster = _scenario_files(scenario_path)
    return apply_fixed_setup(build_setup(sc, hexmap, seed=seed, roster=roster, left_out=left_out), fixed)


class FixedSetupPlayer:
    """Wraps a player so that a designer's fixed set-up (``GameSetup.fixed``, see
    :func:`core.ironcross.scenario_setup.apply_fixed_setup`) is what gets placed: each fixed unit
    goes to its hex with its facing, UP/DOWN and hidden as the designer set it, the designer's
    mines go where he put them; the other set-up choices (units he did not place, IPs, mines left
    over) are the wrapped player's, kept out of the designer's hexes when it has a choice; the
    designer's IPs go in their hexes (18.1); a
    detachment (24.1 special option) never takes a unit the designer placed. After the set-up
    every decision is the wrapped player's."""

    def __init__(self, inner, fixed: dict, side: str):
        self.inner = inner
        self.name = getattr(inner, "name", "player")
        self.units = {k: v for k, v in (fixed.get("units") or {}).items()}
        self.hidden = {h for h, s in (fixed.get("hidden_hexes") or {}).items() if s == side}
        self.mines_left = {h: {"ap": int(m.get("ap", 0)), "at": int(m.get("at", 0))}
                           for h, m in (fixed.get("mines") or {}).items() if m.get("side") == side}
        self.ips = {h: int(i["points"]) for h, i in (fixed.get("ips") or {}).items() if i.get("side") == side}
        self.fixed_hexes = {v["hex"] for v in self.units.values()} | self.hidden | set(self.mines_left) | set(self.ips)

    def choose(self, view, side: str, actions):
        if any(getattr(a, "kind", "") == "detach" for a in actions):
            # 24.1 special option: a unit the designer placed stays with its group
            keep = [a for a in actions if getattr(a, "kind", "") != "detach" or not set(a.units) & set(self.units)]
            return self.inner.choose(view, side, keep)
        places = [a for a in actions if getattr(a, "kind", "") == "place"]
        if not places:
            return self.inner.choose(view, side, actions)
        what = places[0].unit
        if what.startswith(("AP-mines:", "AT-mines:")):
            key = "ap" if what.startswith("AP") else "at"
            best, best_n = None, 0
            for a in places:
                n = int(a.unit.split(":")[1])
                if n <= self.mines_left.get(a.hex, {}).get(key, 0) and n > best_n:
                    best, best_n = a, n
            if best is not None:
                self.mines_left[best.hex][key] -= best_n
                return best
            return self._free(view, side, actions)
        if what.startswith("IP"):
            # 18.1 the designer's IP (apply_fixed_setup narrowed its marker to its hex)
            mine = [a for a in places if self.ips.get(a.hex) == int(what[2:])]
            if mine:
                del self.ips[mine[0].hex]
                return mine[0]
            return self._free(view, side, actions)
        p = self.units.get(what)
        if p is None:
            return self._free(view, side, actions)
        here = [a for a in places if a.hex == p["hex"]]
        hidden = p["hex"] in self.hidden
        for ok in (lambda a: a.down == bool(p.get("down")) and a.facing == p.get("facing") and a.hidden == hidden,
                   lambda a: a.down == bool(p.get("down")) and a.facing == p.get("facing"),
                   lambda a: a.facing == p.get("facing"),
                   lambda a: True):
            match = [a for a in here if ok(a)]
            if match:
                return match[0]
        return self.inner.choose(view, side, actions)

    def _free(self, view, side: str, actions):
        keep = [a for a in actions if getattr(a, "kind", "") != "place"
                or (a.hex not in self.fixed_hexes and not getattr(a, "hidden", False))]
        if any(getattr(a, "kind", "") == "place" for a in keep):
            return self.inner.choose(view, side, keep)
        return self.inner.choose(view, side, actions)


def _turn_end(game, objectives: frozenset[str], standing: list[str], held: dict[str, list[int]]) -> None:
    """Record, when a Game Turn has ended, the outcome the victory conditions would give now (24.1)
    and how many objective hexes each side's units stand in."""
    victory = game.setup.victory
    res = victory(game.state, game) if victory is not None else "draw"
    standing.append(res[0] if isinstance(res, tuple) else res)
    for side in ("german", "russian"):
        there = {u.hex for u in game.state.units.values() if u.side == side and u.on_map and u.hex in objectives}
        held.setdefault(side, []).append(len(there))


#: The cyclic garbage collector's thresholds while a game is played (Python's are 700, 10, 10): a
#: game makes millions of short-lived objects and keeps large caches (LOS, the AI's memos), which
#: the default thresholds walk again and again (about a tenth of a game's time). The game's own
#: objects are freed when it ends (see :func:`_play`); every :data:`_COLLECT_EVERY` games a full
#: collection takes whatever else is left.
_GAME_GC_THRESHOLD = (50_000, 50, 100)
_COLLECT_EVERY = 64
_games_played = [0]
#: games being played in this process (Dask workers may run several on threads) and the
#: thresholds to restore when the last one ends
_gc_state: dict = {"playing": 0, "saved": None}
_gc_lock = threading.Lock()


def _gc_enter() -> None:
    with _gc_lock:
        if _gc_state["playing"] == 0:
            _gc_state["saved"] = gc.get_threshold()
            gc.set_threshold(*_GAME_GC_THRESHOLD)
        _gc_state["playing"] += 1


def _gc_leave() -> None:
    with _gc_lock:
        _gc_state["playing"] -= 1
        if _gc_state["playing"] == 0 and _gc_state["saved"] is not None:
            gc.set_threshold(*_gc_state["saved"])


def _play(scenario_path: str, index: int, seed: int, ai: dict[str, str], rules: str, options: tuple[str, ...],
          want_replay: bool, max_actions: int, fixed: dict | None = None) -> tuple[GameResult, dict | None]:
    """Play one game; returns its result and, when ``want_replay`` or the game raised, its replay
    as ``{"header": ..., "events": [...]}`` (JSON-ready). ``fixed``: a designer's set-up the
    game starts from (:func:`core.ironcross.scenario_setup.apply_fixed_setup`)."""
    from core.ironcross.actions import action_to_json
    from core.ironcross.game import Game
    from core.ironcross.view import PlayerView
    from core.players import make_player

    game = None
    fire_from: Counter = Counter()
    t0 = time.perf_counter()
    where = "in the set-up"
    failed_action = None
    _gc_enter()
    try:
        setup = _setup_for(scenario_path, seed, fixed)
        game = Game(setup, seed, rules=rules, options=options)
        for c in getattr(setup, "choices", []):
            game._event("pre_game_choice", rule="24.1", text=c)
        players = {side: make_player(ai[side], derive_seed(seed, 1 if side == "german" else 2)) for side in ai}
        if getattr(setup, "fixed", None):
            players = {side: FixedSetupPlayer(p, setup.fixed, side) for side, p in players.items()}
        n = 0
        seen = 0
        events = game.events
        units = game.units
        objectives = objective_hexes(setup)
        standing: list[str] = []
        held: dict[str, list[int]] = {}
        turn = game.state.turn
        while not game.is_terminal():
            side = game.current_side()
            where = f"in the engine (legal actions) at decision {n}"
            acts = game.legal_actions()
            where = f"in the {side} player {ai[side]!r} at decision {n}"
            a = players[side].choose(PlayerView(game, side), side, acts)
            where = f"in the engine at decision {n} ({a!r})"
            failed_action = a
            game.apply(a)
            failed_action = None
            for k in range(seen, len(events)):  # firers stand still during their own fire action
                e = events[k]
                if e["kind"] == "fire":
                    for uid in e.get("firers") or ():
                        u = units.get(uid)
                        if u is not None and u.hex:
                            fire_from[u.hex] += 1
            seen = len(events)
            if game.state.turn != turn:  # Game Turn `turn` has ended (this decision's effects included)
                _turn_end(game, objectives, standing, held)
                turn = game.state.turn
            n += 1
            if n > max_actions:
                raise RuntimeError(f"no end after {max_actions} actions")
        _turn_end(game, objectives, standing, held)  # the last Game Turn
        res = _result_of(game, index, seed)
        res.fire_from = dict(fire_from)
        res.standing_by_turn, res.objective_by_turn = standing, held
    except Exception as e:  # one broken game must not stop the batch: it is reported, never swallowed
        res = GameResult(index, seed, "error", game.state.turn if game else 0,
                         actions=len(game.actions) if game else 0,
                         error=f"{where}: {type(e).__name__}: {e}\n{traceback.format_exc(limit=6)}")
    finally:
        _gc_leave()
    res.seconds = round(time.perf_counter() - t0, 4)
    payload = None
    if game is not None and (want_replay or res.outcome == "error"):
        # the scenario as an absolute path, so the replay verifies from any working directory
        header = {"scenario": str(Path(scenario_path).resolve()), "seed": seed, "rules": rules, "options": list(options),
                  "ai": ai, "index": index, "outcome": res.outcome, "error": res.error,
                  **({"failed_action": action_to_json(failed_action)} if failed_action is not None else {}),
                  **({"fixed_setup": fixed} if fixed else {}),
                  "actions": [action_to_json(a) for a in game.actions]}
        payload = {"header": header, "events": json.loads(json.dumps(game.events, default=str))}
    dice = getattr(game, "dice", None)
    if getattr(dice, "on_roll", None) is not None:
        dice.on_roll = None  # the game's reference cycle (its dice log into it): the game is freed on return
    _games_played[0] += 1
    if _games_played[0] % _COLLECT_EVERY == 0:
        gc.collect()
    return res, payload


def _replay_path(folder: str | os.PathLike[str], index: int, seed: int, error: bool) -> Path:
    return Path(folder) / f"game_{index:05d}_seed_{seed}{'_error' if error else ''}.jsonl"


def _write_payload(folder: str | os.PathLike[str], res: GameResult, payload: dict) -> str:
    from core.replay import write_replay

    Path(folder).mkdir(parents=True, exist_ok=True)
    path = _replay_path(folder, res.index, res.seed, res.outcome == "error")
    write_replay(path, payload["header"], payload["events"])
    return str(path)


def play_game(scenario_path: str, index: int, seed: int, ai: dict[str, str], rules: str = "basic",
              options: tuple[str, ...] = (), replay_dir: str | None = None, max_actions: int = 200_000,
              error_dir: str | None = None, fixed_setup: dict | None = None) -> GameResult:
    """Play one game to its end; never raises for an error inside the game (reported instead).
    Its replay goes to ``replay_dir``; a game that raised always keeps its replay (in
    ``replay_dir``, else ``error_dir``, else :data:`DEFAULT_ERROR_DIR`)."""
    res, payload = _play(scenario_path, index, seed, ai, rules, tuple(options), replay_dir is not None, max_actions,
                         fixed_setup)
    if payload is not None:
        res.replay = _write_payload(replay_dir or error_dir or DEFAULT_ERROR_DIR, res, payload)
    return res


def _result_of(game, index: int, seed: int) -> GameResult:
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
    turns = game.state.turn
    for row in by_turn.values():
        row.extend([0] * (turns - len(row)))
    details = game.events[-1].get("details") or {}
    return GameResult(index, seed, game.state.outcome or "draw", turns, cas, first, dict(elim), dict(fire),
                      len(game.actions), reason=(details.get("reason") if isinstance(details, dict) else "") or "",
                      casualties_by_turn=by_turn, eliminations_by_rule=dict(by_rule), idle=unit_activity(game),
                      eliminations_by_side={s: dict(c) for s, c in by_side.items()}, attacks=attacks_by_unit(game))


def _run_chunk(args) -> list[tuple[dict, dict | None]]:
    """One task: a batch of games ``items`` [(index, seed), ...]; (result dict, replay or None) each."""
    scenario_path, items, ai, rules, options, want_replays, *rest = args
    fixed = rest[0] if rest else None
    out = []
    for i, s in items:
        res, payload = _play(scenario_path, i, s, ai, rules, tuple(options), bool(want_replays), 200_000, fixed)
        out.append((asdict(res), payload))
    return out


def _chunks(items: list, parallel: int) -> list[list]:
    """Batches of games: about four per worker (load balance), at most 25 games each."""
    size = max(1, min(25, math.ceil(len(items) / (parallel * 4))))
    return [items[k:k + size] for k in range(0, len(items), size)]


def _can_import_project() -> bool:  # runs on each Dask worker
    import importlib

    importlib.import_module("core.playtest")
    importlib.import_module("core.ironcross.game")
    return True


def _dask_parts(scheduler: str, make_tasks: Callable[[int], list], connect_timeout: float):
    """Yield the result parts of the tasks as they complete on the Dask cluster at ``scheduler``."""
    try:
        from distributed import Client, as_completed as dask_completed
    except ImportError:
        raise PlaytestError("--scheduler needs Dask distributed: pip install distributed") from None
    try:
        client = Client(scheduler, timeout=f"{connect_timeout}s")
    except Exception as e:  # OSError / TimeoutError / ValueError for a malformed address
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise PlaytestError(f"cannot connect to the Dask scheduler at {scheduler!r} "
                            f"within {connect_timeout:g} s: {msg}") from None
    try:
        nthreads = sum(client.nthreads().values())
        if nthreads == 0:
            raise PlaytestError(f"the Dask scheduler at {scheduler!r} has no workers")
        try:
            client.run(_can_import_project)
        except Exception as e:
            raise PlaytestError(f"the Dask workers at {scheduler!r} cannot import ironcross ({type(e).__name__}: {e}); "
                                "start them from the project's environment (pip install -e . there)") from None
        futs = client.map(_run_chunk, make_tasks(nthreads), pure=False)
        try:
            for f in dask_completed(futs):
                yield f.result()
        except PlaytestError:
            raise
        except Exception as e:  # a task (not a game) failed: a worker died, or cannot unpickle
            raise PlaytestError(f"a batch failed on the Dask cluster at {scheduler!r}: {type(e).__name__}: {e}") from None
    finally:
        client.close()


def run_batch(scenario_path: str, games: int, seed: int, ai: dict[str, str], *, rules: str = "basic",
              options: tuple[str, ...] = (), workers: int | None = None, scheduler: str | None = None,
              replay_dir: str | None = None, error_dir: str | None = None, connect_timeout: float = 5.0,
              on_progress: Callable[[int], None] | None = None, fixed_setup: dict | None = None) -> list[GameResult]:
    """Run ``games`` games; returns their results ordered by game index (independent of the
    number of workers and of the backend). ``scheduler``: address of a Dask scheduler
    (``tcp://host:8786``) instead of the local pool of ``workers`` processes (default: CPU
    count). Replays are written by the caller: every game's to ``replay_dir`` when given; a game
    that raised always to ``replay_dir`` or ``error_dir`` (default :data:`DEFAULT_ERROR_DIR`).
    ``fixed_setup``: a designer's set-up every game starts from (the editor's "use this set-up").
    Raises :class:`PlaytestError` when the batch cannot run at all."""
    items = [(i, derive_seed(seed, i)) for i in range(games)]
    want = replay_dir is not None

    def make_tasks(parallel: int) -> list:
        return [(str(scenario_path), c, ai, rules, list(options), want) + ((fixed_setup,) if fixed_setup else ())
                for c in _chunks(items, parallel)]

    if replay_dir:
        Path(replay_dir).mkdir(parents=True, exist_ok=True)
    out: list[GameResult] = []

    def take(part: list) -> None:
        for d, payload in part:
            r = GameResult(**d)
            if payload is not None:
                r.replay = _write_payload(replay_dir or error_dir or DEFAULT_ERROR_DIR, r, payload)
            out.append(r)
        if on_progress:
            on_progress(len(part))

    if scheduler:
        for part in _dask_parts(scheduler, make_tasks, connect_timeout):
            take(part)
    else:
        workers = max(1, workers or os.cpu_count() or 1)
        if workers == 1:
            for t in make_tasks(1):
                take(_run_chunk(t))
        else:
            with ProcessPoolExecutor(max_workers=workers) as ex:
                for f in as_completed([ex.submit(_run_chunk, t) for t in make_tasks(workers)]):
                    take(f.result())
    out.sort(key=lambda r: r.index)
    return out


def wilson_interval(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval for ``k`` successes in ``n`` trials."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise(results: Iterable[GameResult]) -> dict:
    """Outcome counts and rates with 95 % intervals, game length, casualties (per side and unit
    kind; per side and Game Turn: mean per game with a 95 % interval of the mean), first contact,
    hot spots (most fired-at plus eliminations) and fire origins; eliminations per game by cause
    (attack, mine, scenario, crew, bookkeeping) and the total of ``bookkeeping_eliminations`` (units
    removed by a rule that is no attack, mine, scenario roll or crew rule; 0 in a sound engine) with
    their rules. Errored games count in the outcomes (as "error") but not in game length, casualties
    by turn or causes."""
    rs = list(results)
    n = len(rs)
    counts = Counter(r.outcome for r in rs)
    outcomes = {k: counts.get(k, 0) for k in ("german", "russian", "draw")}
    if counts.get("error"):
        outcomes["error"] = counts["error"]
    n_played = n - counts.get("error", 0)
    # errored games are listed, never counted in the shares (their outcome is unknown)
    rates = {k: {"rate": outcomes[k] / n_played if n_played else 0.0, "ci95": wilson_interval(outcomes[k], n_played)}
             for k in ("german", "russian", "draw")}
    turns = [r.turns for r in rs if r.outcome != "error"]
    cas: dict[str, dict[str, float]] = {}
    for side in ("german", "russian"):
        kinds = Counter()
        for r in rs:
            kinds.update(r.casualties.get(side, {}))
        cas[side] = {k: v / n for k, v in sorted(kinds.items())} if n else {}
    contact = [r.first_contact for r in rs if r.first_contact is not None]
    causes: Counter = Counter()
    bookkeeping: Counter = Counter()
    for r in rs:
        if r.outcome == "error":
            continue
        for rule, k in r.eliminations_by_rule.items():
            c = elimination_cause(rule)
            causes[c] += k
            if c == "bookkeeping":
                bookkeeping[rule] += k
    hot = Counter()
    origins = Counter()
    for r in rs:
        hot.update(r.eliminated_at)
        hot.update(r.fire_at)
        origins.update(r.fire_from)
    played = [r for r in rs if r.outcome != "error"]
    longest = max((len(v) for r in played for v in r.casualties_by_turn.values()), default=0)
    by_turn: dict[str, list[dict[str, float]]] = {}
    for side in ("german", "russian"):
        rows = []
        for t in range(longest):
            xs = [(r.casualties_by_turn.get(side) or [])[t] if t < len(r.casualties_by_turn.get(side) or []) else 0
                  for r in played]
            mean = statistics.mean(xs) if xs else 0.0
            half = 1.959964 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
            rows.append({"turn": t + 1, "mean": mean, "ci95": (max(0.0, mean - half), mean + half)})
        by_turn[side] = rows
    return {
        "games": n,
        "outcomes": outcomes,
        "rates": rates,
        "turns": {"mean": statistics.mean(turns) if turns else 0,
                  "stdev": statistics.pstdev(turns) if len(turns) > 1 else 0.0},
        "casualties_per_game": cas,
        "first_contact": {"mean_turn": statistics.mean(contact) if contact else None,
                          "games_with_contact": len(contact)},
        "casualties_by_turn": by_turn,
        "eliminations_by_cause": {c: causes.get(c, 0) / len(played) if played else 0.0 for c in CAUSES},
        "bookkeeping_eliminations": {"total": sum(bookkeeping.values()), "by_rule": dict(sorted(bookkeeping.items()))},
        "hot_hexes": hot.most_common(10),
        "fire_origins": origins.most_common(10),
        "errors": [{"seed": r.seed, "index": r.index, "error": r.error, "replay": r.replay}
                   for r in rs if r.outcome == "error"],
        "trust": trust_report(rs),
    }


def trust_report(results: Iterable[GameResult]) -> dict:
    """How far to trust a batch: the things that make its answer mislead, each expected to be 0.

    Returns ``{"games", "played", "errors", "player_errors", "never_entered", "never_acted",
    "bookkeeping_eliminations", "seconds_per_game", "decisions_per_game", "warnings"}``:
    ``errors`` the games that raised (excluded from the shares and averages); ``player_errors``
    those raised inside a player (an AI bug, never swallowed); ``never_entered`` / ``never_acted``
    per side the mean number of units per played game that never entered the map / never acted,
    and ``most_often``: [(unit id, games idle)] for the five most often idle; ``bookkeeping_eliminations``
    the units removed by no attack, mine, scenario roll or crew rule (rule -> count); wall time and
    decisions per game (mean, median, max); ``warnings``: one line for each of these that is not 0."""
    rs = list(results)
    played = [r for r in rs if r.outcome != "error"]
    errors = [r for r in rs if r.outcome == "error"]
    player_errors = [r for r in errors if (r.error or "").startswith("in the ") and " player " in (r.error or "").split(":")[0]]
    idle: dict[str, dict] = {}
    for what in ("never_entered", "never_acted"):
        idle[what] = {}
        for side in ("german", "russian"):
            c: Counter = Counter()
            for r in played:
                c.update((r.idle.get(side) or {}).get(what, []))
            idle[what][side] = {"mean": sum(c.values()) / len(played) if played else 0.0,
                                "most_often": c.most_common(5)}
    bk: Counter = Counter()
    for r in played:
        for rule, k in r.eliminations_by_rule.items():
            if elimination_cause(rule) == "bookkeeping":
                bk[rule] += k

    def stats(xs: list[float]) -> dict:
        return {"mean": statistics.mean(xs) if xs else 0.0, "median": statistics.median(xs) if xs else 0.0,
                "max": max(xs) if xs else 0.0}

    warnings = []
    if errors:
        warnings.append(f"{len(errors)} of {len(rs)} games raised an error ({len(player_errors)} inside a player); "
                        "they are left out of the shares and averages")
    for what, label in (("never_entered", "never entered the map"), ("never_acted", "never acted")):
        for side in ("german", "russian"):
            d = idle[what][side]
            if d["mean"]:
                ids = ", ".join(f"{uid} ({k}/{len(played)})" for uid, k in d["most_often"])
                warnings.append(f"{side}: {d['mean']:.1f} units a game {label}; most often {ids}")
    if bk:
        warnings.append(f"{sum(bk.values())} units eliminated by the engine's own bookkeeping, not by play ("
                        + ", ".join(f"rule {r}: {k}" for r, k in sorted(bk.items())) + ")")
    return {"games": len(rs), "played": len(played), "errors": len(errors), "player_errors": len(player_errors),
            "never_entered": idle["never_entered"], "never_acted": idle["never_acted"],
            "bookkeeping_eliminations": dict(sorted(bk.items())),
            "seconds_per_game": stats([r.seconds for r in rs]),
            "decisions_per_game": stats([float(r.actions) for r in rs]),
            "warnings": warnings}
