"""Headless playtests: run whole games of a scenario with AI players and summarise them.

Any rule system plays here: the runner asks the scenario's :class:`core.rule_system.RuleSystem`
(``"rule_system"`` in the scenario file, absent = Iron Cross) for the set-up, the game, the
players and their view, the actions' JSON, the result fields and what each Game Turn's end
records; it knows no system's rules (``docs/rule-systems.md``).

The scenario travels loaded (:class:`core.rule_system.LoadedScenario`, read once by
:func:`core.rule_system.load_scenario`); the entry points also take a path and load it. A task
sent to a worker carries only its :class:`core.rule_system.ScenarioRef` (absolute path, content
hash, system name and module): the worker reads the file through its system's ``load_setup``,
which keeps what it read per process and reads a file that changed on disk again.

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

What can only be seen while a game runs (Iron Cross: the hex each firer fired from, seen right
after its fire action) comes from the system's ``action_record``, called after every action with
the events it logged.
"""

from __future__ import annotations

import gc
import json
import logging
import math
import os
import statistics
import threading
import time
import traceback
import weakref
from collections import Counter
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from core.dice import derive_seed
from core.rule_system import DEFAULT_SYSTEM, LoadedScenario, ScenarioRef, add_module, get, load_scenario

__all__ = ["GameResult", "PlaytestError", "BatchInterrupted", "BatchLost", "ReplayWriteError", "check_scheduler", "play_game", "run_batch", "summarise",
           "wilson_interval", "games_text", "shared_pool", "parse_ai", "ai_spec_text", "DEFAULT_ERROR_DIR", "DEFAULT_AI", "DEFAULT_RULES", "RULES",
           "Scenario"]

#: Where the replays of games that raised go when no replay folder is given (relative to the cwd).
DEFAULT_ERROR_DIR = "playtest-errors"

#: The players every playtest front end starts from (``ironcross playtest`` and the editor's
#: Playtest panel): the heuristic AI on both sides (every rule system has one). The rules default
#: to the first rule level of the scenario's system (:meth:`core.rule_system.RuleSystem.resolve_rules`).
DEFAULT_AI: dict[str, str] = {"german": "heuristic", "russian": "heuristic"}


#: A scenario as the runner's entry points take it: loaded once, what a worker needs of it, or
#: the path of its file (loaded on entry).
Scenario = LoadedScenario | ScenarioRef | str | os.PathLike


def __getattr__(name: str):
    """``DEFAULT_RULES`` / ``RULES``: the rule levels of the default system, from the registry
    (Iron Cross: "basic", ("basic", "advanced")), resolved on first use so that importing the
    runner imports no rule system."""
    if name in ("DEFAULT_RULES", "RULES"):
        levels = get(DEFAULT_SYSTEM).rules
        return levels[0] if name == "DEFAULT_RULES" else tuple(levels)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _ref(scenario: Scenario) -> ScenarioRef:
    """What a worker needs of ``scenario`` (a path is loaded here: DocumentError for a bad file)."""
    if isinstance(scenario, ScenarioRef):
        return scenario
    loaded = scenario if isinstance(scenario, LoadedScenario) else load_scenario(scenario)
    return loaded.ref


def _system_of_ref(ref: ScenarioRef):
    """The rule system a :class:`ScenarioRef` names, made known from its module in this process."""
    if ref.module:
        add_module(ref.system, ref.module)
    return get(ref.system)


class PlaytestError(RuntimeError):
    """The batch cannot run (no Dask, unreachable scheduler, workers without this package)."""


class ReplayWriteError(PlaytestError):
    """A replay could not be written (full disk, no permission): the message names the file and
    the game; the batch stops."""


class BatchLost(PlaytestError):
    """The Dask cluster failed part-way through :func:`run_batch` (the scheduler went away, a worker
    died with a task): :attr:`results` holds the games that finished before it (ordered by game
    index, their replays written), so the caller can summarise them as a partial batch instead of
    losing them; the message says what failed."""

    def __init__(self, message: str, results: list["GameResult"], total: int):
        super().__init__(message)
        self.results, self.total = results, total


class BatchInterrupted(Exception):
    """Ctrl-C (``KeyboardInterrupt``) during :func:`run_batch`: the workers are stopped and
    :attr:`results` holds the games that finished (ordered by game index), whose replays are
    written; the caller summarises them as a partial batch."""

    def __init__(self, results: list["GameResult"], total: int):
        super().__init__(f"interrupted after {len(results)} of {total} games")
        self.results, self.total = results, total


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
    its units stand in when each Game Turn has ended.

    Which of these a game fills is its rule system's (``RuleSystem.result_fields``,
    ``turn_record``, ``action_record``; the field docs above are Iron Cross's reading, the others
    missing = empty); ``rule_system`` names the system (what :func:`summarise` sorts eliminations
    into causes by)."""

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
    rule_system: str = DEFAULT_SYSTEM
    #: the blunder report: side -> kind -> items (each a dict with its Game Turn ``turn``, the hex,
    #: the units; ``RuleSystem.blunder_watch``, docs/ai.md), read off the events and states
    blunders: dict[str, dict[str, list[dict]]] = field(default_factory=dict)
    #: side -> its units standing in the scenario's objective hexes at the end (Iron Cross)
    objective_units: dict[str, int] = field(default_factory=dict)

    def won_with_few_left(self, side: str) -> bool:
        """Did ``side`` win with only one or two of its units left on the objective hexes at the end
        (``objective_units``)? The loser's missed finish: one more attack might have turned it."""
        return self.outcome == side and 1 <= self.objective_units.get(side, 0) <= 2


def parse_ai(text: str | None) -> dict[str, str]:
    """``"german=random,russian=heuristic"`` -> {"german": "random", "russian": "heuristic"};
    missing sides (and an empty spec) take :data:`DEFAULT_AI`. A player may carry behaviour
    settings after a colon, ``k=v`` pairs (the commas after it belong to it until the next
    ``SIDE=``) or ``@FILE``: ``"german=heuristic:aggression=0.7,fire_threshold=0.1,russian=random"``
    -> {"german": "heuristic:aggression=0.7,fire_threshold=0.1", "russian": "random"} (checked by
    :func:`core.ironcross.players.canonical_settings`, not here). Raises ValueError on a malformed spec."""
    out = dict(DEFAULT_AI)
    if not text:
        return out
    last = None
    named: set[str] = set()
    for part in text.split(","):
        key = part.split("=", 1)[0].strip().lower() if "=" in part else None
        if key in out:
            if key in named:  # "german=heuristic,german=random": which one was meant?
                raise ValueError(f"the side {key} is named twice")
            named.add(key)
            side, name = key, part.split("=", 1)[1].strip()
            out[side] = name if ":" in name else name.lower()
            last = side
            continue
        if last is not None and ":" in out[last]:  # one more setting of the last side's player
            out[last] += "," + part.strip()
            continue
        if "=" not in part:
            raise ValueError(f"--ai expects SIDE=NAME pairs, got {part!r}")
        raise ValueError(f"unknown side {key!r} in --ai (german or russian)")
    return out


def ai_spec_text(ai: dict[str, str]) -> str:
    """The ``--ai`` text of a players dict: {"german": "heuristic", ...} -> "german=heuristic,..."."""
    return ",".join(f"{side}={name}" for side, name in ai.items())


def _setup_for(scenario: Scenario, seed: int, fixed: dict | None = None):
    """The game's set-up from its scenario's rule system (``RuleSystem.load_setup``): the
    scenario's, narrowed to the designer's set-up ``fixed`` when given."""
    ref = _ref(scenario)
    return _system_of_ref(ref).load_setup(ref.path, seed, fixed)


def _turn_end(system, game, standing: list[str], held: dict[str, list[int]]) -> None:
    """Record, when a Game Turn has ended, the outcome the victory conditions would give now and
    how many objective hexes each side's units stand in (``RuleSystem.turn_record``)."""
    outcome, there = system.turn_record(game)
    standing.append(outcome)
    for side, n in there.items():
        held.setdefault(side, []).append(n)


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


def _where_text(where: str | tuple, ai: dict[str, str]) -> str:
    """The part of a game an error came from, as the game's error names it: ``where`` is a text,
    or (stage, decision number, side, action) while the game is played."""
    if isinstance(where, str):
        return where
    stage, n, side, a = where
    if stage == "legal":
        return f"in the engine (legal actions) at decision {n}"
    if stage == "player":
        return f"in the {side} player {ai.get(side)!r} at decision {n}"
    if stage == "blunders":
        return f"in the blunder report at decision {n}"
    return f"in the engine at decision {n} ({a!r})"


def _play(scenario: Scenario, index: int, seed: int, ai: dict[str, str], rules: str | None, options: tuple[str, ...],
          want_replay: bool, max_actions: int, fixed: dict | None = None) -> tuple[GameResult, dict | None]:
    """Play one game of the scenario's rule system; returns its result and, when ``want_replay`` or
    the game raised, its replay as ``{"header": ..., "events": [...]}`` (JSON-ready; the header
    names the ``rule_system`` and the scenario's absolute path and ``scenario_sha256``). ``fixed``:
    a designer's set-up the game starts from (its system's ``load_setup``). A scenario given by
    path that cannot be read is reported as the game's error, like any other."""
    system = None
    ref = None
    game = None
    counts: dict[str, Counter] = {}
    t0 = time.perf_counter()
    where = "in the set-up"
    failed_action = None
    _gc_enter()
    try:
        ref = _ref(scenario)
        system = _system_of_ref(ref)
        if rules is None:  # the scenario's system's first rule level
            rules = system.rules[0]
        setup = system.load_setup(ref.path, seed, fixed)
        game = system.new_game(setup, seed, rules, options)
        players = system.make_players(setup, ai, seed)
        view = system.view
        record = system.action_record
        watch = system.blunder_watch(game) if system.blunder_watch is not None else None  # the blunder report
        n = 0
        seen = 0
        events = game.events
        standing: list[str] = []
        held: dict[str, list[int]] = {}
        turn = game.turn
        while not game.is_terminal():
            side = game.current_side()
            # where an error would come from, as text only if one does (a decision's repr costs)
            where = ("legal", n, side, None)
            acts = game.legal_actions()
            where = ("player", n, side, None)
            a = players[side].choose(view(game, side), side, acts)
            if watch is not None:
                where = ("blunders", n, side, None)
                watch.before(game, side, a, acts)
            where = ("engine", n, side, a)
            failed_action = a
            game.apply(a)
            failed_action = None
            if watch is not None:
                where = ("blunders", n, side, None)
                watch.after(game, events[seen:])
            if record is not None:  # what only the running game shows (Iron Cross: where each firer stood)
                for name, c in record(game, events[seen:]).items():
                    counts.setdefault(name, Counter()).update(c)
            seen = len(events)
            if game.turn != turn:  # Game Turn `turn` has ended (this decision's effects included)
                _turn_end(system, game, standing, held)
                turn = game.turn
            n += 1
            if n > max_actions:
                raise RuntimeError(f"no end after {max_actions} actions")
        _turn_end(system, game, standing, held)  # the last Game Turn
        res = _result_of(system, game, index, seed)
        for name, c in counts.items():
            setattr(res, name, dict(c))
        res.standing_by_turn, res.objective_by_turn = standing, held
        if watch is not None:
            res.blunders = watch.finish(game)
    except Exception as e:  # one broken game must not stop the batch: it is reported, never swallowed
        res = GameResult(index, seed, "error", game.turn if game else 0,
                         actions=len(game.actions) if game else 0,
                         error=f"{_where_text(where, ai)}: {type(e).__name__}: {e}\n{traceback.format_exc(limit=6)}")
    finally:
        _gc_leave()
    if system is not None:
        res.rule_system = system.name
    res.seconds = round(time.perf_counter() - t0, 4)
    payload = None
    if game is not None and (want_replay or res.outcome == "error"):
        # the scenario as an absolute path, so the replay verifies from any working directory
        to_json = system.action_to_json
        header = {"scenario": ref.path, "scenario_sha256": ref.sha256, "rule_system": system.name, "seed": seed,
                  "rules": rules, "options": list(options),
                  "ai": ai, "index": index, "outcome": res.outcome, "error": res.error,
                  **({"failed_action": to_json(failed_action)} if failed_action is not None else {}),
                  **({"fixed_setup": fixed} if fixed else {}),
                  "actions": [to_json(a) for a in game.actions]}
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

    path = _replay_path(folder, res.index, res.seed, res.outcome == "error")
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        write_replay(path, payload["header"], payload["events"])
    except OSError as e:
        raise ReplayWriteError(f"{path}: cannot write the replay of game {res.index} (seed {res.seed}): "
                               f"{e.strerror or e}") from None
    return str(path)


def play_game(scenario: Scenario, index: int, seed: int, ai: dict[str, str], rules: str | None = None,
              options: tuple[str, ...] = (), replay_dir: str | None = None, max_actions: int = 200_000,
              error_dir: str | None = None, fixed_setup: dict | None = None) -> GameResult:
    """Play one game of ``scenario`` (loaded, or its path) to its end; never raises for an error
    inside the game, an unreadable scenario file included (reported instead). Its replay goes to
    ``replay_dir``; a game that raised always keeps its replay (in ``replay_dir``, else
    ``error_dir``, else :data:`DEFAULT_ERROR_DIR`)."""
    res, payload = _play(scenario, index, seed, ai, rules, tuple(options), replay_dir is not None, max_actions,
                         fixed_setup)
    if payload is not None:
        res.replay = _write_payload(replay_dir or error_dir or DEFAULT_ERROR_DIR, res, payload)
    return res


def _result_of(system, game, index: int, seed: int) -> GameResult:
    """The result of a finished game: outcome ("draw" when the game names none), Game Turns and
    decisions, and the system's own fields (``RuleSystem.result_fields``)."""
    return GameResult(index, seed, game.outcome or "draw", game.turn, actions=len(game.actions),
                      **system.result_fields(game))


def _run_chunk(args) -> list[tuple[dict, dict | None]]:
    """One task: a batch of games ``items`` [(index, seed), ...]; (result dict, replay or None) each.
    ``args``: (:class:`ScenarioRef`, items, ai, rules, options, want_replays, fixed set-up or None);
    the reference's module makes a rule system added at run time known in this worker process."""
    ref, items, ai, rules, options, want_replays, fixed = args
    out = []
    for i, s in items:
        res, payload = _play(ref, i, s, ai, rules, tuple(options), bool(want_replays), 200_000, fixed)
        out.append((asdict(res), payload))
    return out


def _chunks(items: list, parallel: int) -> list[list]:
    """Batches of games: about four per worker (load balance), at most 25 games each."""
    size = max(1, min(25, math.ceil(len(items) / (parallel * 4))))
    return [items[k:k + size] for k in range(0, len(items), size)]


def _can_import_project(module: str | None = None) -> bool:  # runs on each Dask worker
    """The worker can import the runner and the batch's rule system (its ``module``)."""
    import importlib

    importlib.import_module("core.playtest")
    if module:
        importlib.import_module(module)
    return True


#: tasks of a batch on a Dask cluster at a time: this many a worker thread, at least DASK_WINDOW_MIN
DASK_WINDOW_PER_THREAD = 4
DASK_WINDOW_MIN = 8


def _no_scheduler_there(scheduler: str, connect_timeout: float) -> str | None:
    """Why nothing at ``scheduler`` completes Dask's handshake within ``connect_timeout`` seconds, or
    None when something does. Asked before a Client is made: distributed's Client waits for ever on
    a port that accepts the connection but never answers the handshake (the dashboard's web port,
    another service), whatever its timeout, and reads another protocol's bytes as a frame length
    (a MemoryError). A wrong address (refused, unreachable, malformed) gives distributed's reason."""
    import asyncio
    import re

    from distributed.comm import connect

    port = re.search(r":(\d+)/?$", scheduler.strip())
    if port is not None and not 0 < int(port.group(1)) < 65536:
        return f"port {port.group(1)} is out of range (1 to 65535)"

    async def handshake() -> None:
        comm = await asyncio.wait_for(connect(scheduler, timeout=connect_timeout), connect_timeout + 1.0)
        await comm.close()

    try:
        asyncio.run(handshake())
    except (TimeoutError, asyncio.TimeoutError) as e:
        if str(e):  # distributed's own words (nothing listening there, say)
            return str(e).splitlines()[0]
        return "no Dask scheduler answered there (a dashboard's web port, or another service?)"
    except MemoryError:
        return "something answered that is no Dask scheduler (its bytes are no Dask message)"
    except Exception as e:  # OSError (refused, unreachable), ValueError (a malformed address), ...
        return str(e).splitlines()[0] if str(e) else type(e).__name__
    return None


def check_scheduler(scheduler: str, connect_timeout: float = 5.0) -> None:
    """Raise :class:`PlaytestError` naming the address and the reason when nothing at ``scheduler``
    completes Dask's handshake within ``connect_timeout`` seconds (or Dask distributed is not
    installed): a command that makes files before its first batch (a tuning study) asks first."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise PlaytestError("--scheduler needs Dask distributed: pip install distributed") from None
    silent = _no_scheduler_there(scheduler, connect_timeout)
    if silent is not None:
        raise PlaytestError(f"cannot connect to the Dask scheduler at {scheduler!r} within {connect_timeout:g} s: {silent}")


def _dask_parts(scheduler: str, make_tasks: Callable[[int], list], connect_timeout: float,
                module: str | None = None):
    """Yield the result parts of the tasks as they complete on the Dask cluster at ``scheduler``."""
    try:
        from distributed import Client, as_completed as dask_completed
    except ImportError:
        raise PlaytestError("--scheduler needs Dask distributed: pip install distributed") from None
    check_scheduler(scheduler, connect_timeout)
    client = None
    for attempt in range(3):
        failed = None
        try:
            client = Client(scheduler, timeout=f"{connect_timeout}s")
        except AssertionError:
            # distributed's handshake can trip its own assertion on a loaded machine (seen in a
            # full test run): a transient, so try again twice before giving up
            failed = "handshake"
        except Exception as e:  # OSError / TimeoutError / ValueError for a malformed address
            failed = str(e).splitlines()[0] if str(e) else type(e).__name__
        if client is not None:
            break
        # A Client whose constructor raised is left unclosed in a reference cycle. Its __del__ closes
        # it; run by the garbage collector while a later Client starts, that close waits forever on
        # distributed's class-wide LoopRunner lock, which the starting Client holds (a whole test
        # run hung so). So it is collected here, outside the except block (whose traceback keeps
        # it alive) and while no Client is starting.
        gc.collect()
        if failed != "handshake":
            raise PlaytestError(f"cannot connect to the Dask scheduler at {scheduler!r} "
                                f"within {connect_timeout:g} s: {failed}")
        if attempt == 2:
            raise PlaytestError(f"cannot connect to the Dask scheduler at {scheduler!r}: the handshake "
                                "failed three times (AssertionError in distributed)")
    try:
        nthreads = sum(client.nthreads().values())
        if nthreads == 0:
            raise PlaytestError(f"the Dask scheduler at {scheduler!r} has no workers")
        try:
            client.run(_can_import_project, module)
        except Exception as e:
            raise PlaytestError(f"the Dask workers at {scheduler!r} cannot import ironcross ({type(e).__name__}: {e}); "
                                "start them from the project's environment (pip install -e . there)") from None
        # a window of tasks on the cluster at a time, each finished one replaced by the next: a huge
        # batch does not put every task into the scheduler at once, and a stopped batch (Ctrl-C, an
        # error) cancels only that window, so the workers stop too
        queue = list(reversed(make_tasks(nthreads)))
        window = max(DASK_WINDOW_MIN, DASK_WINDOW_PER_THREAD * nthreads)
        pending = set()

        def submit():
            f = client.submit(_run_chunk, queue.pop(), pure=False)
            pending.add(f)
            return f

        running = dask_completed([submit() for _ in range(min(window, len(queue)))])
        # distributed logs the lost connection with a traceback of its own before the batch's
        # futures fail; the failure is reported once, as the PlaytestError below says it
        quiet = logging.getLogger("distributed.client")
        level = quiet.level
        quiet.setLevel(logging.CRITICAL)
        try:
            for f in running:
                pending.discard(f)
                part = f.result()
                if queue:
                    running.add(submit())
                yield part
        except PlaytestError:
            raise
        except Exception as e:  # a task (not a game) failed: a worker died, or cannot unpickle
            raise PlaytestError(f"a batch failed on the Dask cluster at {scheduler!r}: {type(e).__name__}: {e}") from None
        finally:
            quiet.setLevel(level)
            if pending:  # stopped early: the tasks still on the cluster are not wanted any more
                try:
                    client.cancel(list(pending))
                except Exception as e:  # the cluster is gone already: nothing left to cancel there
                    logging.getLogger(__name__).debug("cancelling the batch's tasks: %s", e)
    finally:
        client.close()


def run_batch(scenario: Scenario, games: int, seed: int, ai: dict[str, str], *, rules: str | None = None,
              options: tuple[str, ...] = (), workers: int | None = None, scheduler: str | None = None,
              replay_dir: str | None = None, error_dir: str | None = None, connect_timeout: float = 5.0,
              on_progress: Callable[[int], None] | None = None, fixed_setup: dict | None = None,
              seeds: list[int] | None = None) -> list[GameResult]:
    """Run ``games`` games of ``scenario`` (a :class:`LoadedScenario`, or its path, loaded here);
    returns their results ordered by game index (independent of the number of workers and of the
    backend). ``scheduler``: address of a Dask scheduler
    (``tcp://host:8786``) instead of the local pool of ``workers`` processes (default: CPU
    count). Replays are written by the caller: every game's to ``replay_dir`` when given; a game
    that raised always to ``replay_dir`` or ``error_dir`` (default :data:`DEFAULT_ERROR_DIR`).
    ``fixed_setup``: a designer's set-up every game starts from (the editor's "use this set-up").
    ``seeds``: the games' own seeds (game ``i`` plays ``seeds[i]``; ``games`` and ``seed`` are then
    ignored): a what-if search (:mod:`core.whatif`) plays the next games of a seed sequence.
    Raises :class:`PlaytestError` when the batch cannot run at all, ``DocumentError`` (naming the
    file and the place) for a scenario path that cannot be loaded."""
    items = list(enumerate(seeds)) if seeds is not None else [(i, derive_seed(seed, i)) for i in range(games)]
    games = len(items)
    want = replay_dir is not None
    ref = _ref(scenario)

    def make_tasks(parallel: int) -> list:
        return [(ref, c, ai, rules, list(options), want, fixed_setup) for c in _chunks(items, parallel)]

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

    try:
        if scheduler:
            try:
                for part in _dask_parts(scheduler, make_tasks, connect_timeout, ref.module):
                    take(part)
            except PlaytestError as e:
                if not out or isinstance(e, ReplayWriteError):
                    raise
                out.sort(key=lambda r: r.index)  # the games that finished before the cluster failed
                raise BatchLost(str(e), out, games) from None
        else:
            workers = max(1, workers or os.cpu_count() or 1)
            if workers == 1:
                # one game a task in this process: a game finished before Ctrl-C (or SIGTERM) is
                # kept and counted as it ends, not only when its whole chunk does
                for i in items:
                    take(_run_chunk((ref, [i], ai, rules, list(options), want, fixed_setup)))
            else:
                _run_pool(workers, make_tasks(workers), take)
    except KeyboardInterrupt:
        out.sort(key=lambda r: r.index)
        raise BatchInterrupted(out, games) from None
    out.sort(key=lambda r: r.index)
    return out


def _leave_stop_signals_to_parent() -> None:
    """Ctrl-C (and a SIGTERM sent to the whole process group, as job schedulers do) reaches the
    workers too: they leave it to the parent, which keeps the finished games and stops them."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


class WorkerTraceback(Exception):
    """The traceback, as text, of an exception a pool worker raised outside any game (attached as
    the re-raised exception's ``__cause__``)."""


def _pool_worker(conn) -> None:
    """A local pool worker's loop: receive a task (:func:`_run_chunk`'s argument), send back
    ``(True, result)`` or ``(False, (exception, traceback text))``; stop at ``None`` or when the
    parent's end of the pipe is closed."""
    _leave_stop_signals_to_parent()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            reply = (True, _run_chunk(task))
        except BaseException as e:  # sent to the parent, which raises it there
            reply = (False, (e, traceback.format_exc()))
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as e:  # an exception that cannot be pickled travels as text
            conn.send((False, (RuntimeError(f"{type(e).__name__}: {e}"), traceback.format_exc())))


def _start_method() -> str | None:
    """How :class:`_LocalPool` starts its workers: the platform's default (None; fork on Linux up to
    Python 3.13: the workers start with what this process has read; forkserver from 3.14; spawn on
    macOS and Windows), but afresh ("spawn") when called from a thread
    other than the main one (the editor's background runs): fork copies only the calling thread,
    so a lock another thread held at that moment (Qt's, the logging module's) would stay locked in
    the worker for ever. A task carries what a fresh worker needs (:class:`ScenarioRef`)."""
    import threading

    return None if threading.current_thread() is threading.main_thread() else "spawn"


#: the local pools whose workers are running, and whether the exit hook that kills them is registered
_LIVE_POOLS: "weakref.WeakSet[_LocalPool]" = weakref.WeakSet()
_EXIT_KILL: list[bool] = []


def _kill_live_pools() -> None:
    """At exit: kill the local pools still open (see :class:`_LocalPool`)."""
    for pool in list(_LIVE_POOLS):
        pool.kill()


class _LocalPool:
    """``workers`` processes, each with its own pipe; the parent hands a task to an idle worker
    and reads the results itself (no background thread). A pool that was interrupted or failed is
    :meth:`kill`-ed: its workers are stopped at once, and nothing is left that a later read or the
    interpreter's exit could wait on (``concurrent.futures`` can hang at exit when a worker is
    stopped while it writes a result)."""

    def __init__(self, workers: int):
        import atexit
        import multiprocessing

        self.method = _start_method()
        ctx = multiprocessing.get_context(self.method)
        self.workers = []
        try:
            for _ in range(workers):
                parent, child = ctx.Pipe()
                p = ctx.Process(target=_pool_worker, args=(child,), daemon=True)
                p.start()
                child.close()
                self.workers.append((p, parent))
        except BaseException:  # Ctrl-C while starting: the workers started so far go too
            self.kill()
            raise
        # the workers ignore SIGTERM (the parent decides), so multiprocessing's own exit clean-up,
        # which terminates daemon workers with SIGTERM and joins them, would wait on a live pool for
        # ever: a pool still open at exit is killed first (atexit runs the later registration first)
        if not _EXIT_KILL:
            atexit.register(_kill_live_pools)
            _EXIT_KILL.append(True)
        _LIVE_POOLS.add(self)

    def run(self, tasks: list, take: Callable[[list], None]) -> None:
        """Run ``tasks`` (in order, one a worker at a time), ``take`` each result as it arrives.
        Raises what a worker raised outside a game, and :class:`PlaytestError` when a worker dies."""
        from multiprocessing.connection import wait

        queue = list(reversed(tasks))
        idle = list(reversed(self.workers))
        busy: dict = {}   # pipe -> worker
        while queue or busy:
            while idle and queue:
                w = idle.pop()
                w[1].send(queue.pop())
                busy[w[1]] = w
            ready = wait([*busy, *(p.sentinel for p, _ in busy.values())])
            for conn in [c for c in busy if c in ready]:
                w = busy.pop(conn)
                try:
                    ok, value = conn.recv()
                except (EOFError, OSError):
                    raise self._died(w[0]) from None
                if not ok:
                    exc, text = value
                    raise exc from WorkerTraceback(text)
                idle.append(w)
                take(value)
            for p, _ in busy.values():
                if p.sentinel in ready:
                    raise self._died(p)

    @staticmethod
    def _died(p) -> PlaytestError:
        p.join(1)
        return PlaytestError(f"a playtest worker process died (exit code {p.exitcode}); "
                             "too little memory, or a crash in a library: try fewer workers")

    def alive(self) -> bool:
        return all(p.is_alive() for p, _ in self.workers)

    def close(self) -> None:
        """Stop the workers after their current task (they are idle between batches)."""
        for p, conn in self.workers:
            try:
                conn.send(None)
            except OSError:
                pass   # the worker is gone already: nothing to tell it
        for p, conn in self.workers:
            p.join(5)
        self.kill()

    def kill(self) -> None:
        """Stop every worker now and close the pipes."""
        _LIVE_POOLS.discard(self)
        for p, _ in self.workers:
            if p.is_alive():
                p.kill()
        for p, conn in self.workers:
            p.join(5)
            conn.close()


#: the pool :func:`shared_pool` keeps open for the batches run inside it: (workers, pool or None)
_shared: dict = {}


@contextmanager
def shared_pool(workers: int | None = None, start: bool = False):
    """Run every local-pool batch of :func:`run_batch` with ``workers`` processes (default: CPU
    count) inside this block on one pool, started once: its workers keep what they read and
    computed (the scenario, the LOS answers, the AI's map fields) from one batch to the next, for
    callers that run many small batches of one scenario (``ironcross tune``: one batch a trial).
    The results are those of separate pools (the same tasks, ordered by game index). Nested
    blocks share the outer pool; the pool is stopped when the outermost block ends. ``start``:
    start the workers now (more than one), not at the first batch: a command starts them before
    its progress bar starts a thread, so a fork copies a process with one thread."""
    workers = max(1, workers or os.cpu_count() or 1)
    if _shared:
        yield
        return
    _shared["pool"] = (workers, _LocalPool(workers) if start and workers > 1 else None)
    try:
        yield
    finally:
        _, pool = _shared.pop("pool", (0, None))
        if pool is not None:
            pool.close()


def _run_pool(workers: int, tasks: list, take: Callable[[list], None]) -> None:
    """Run ``tasks`` on a local pool of ``workers`` processes (the enclosing :func:`shared_pool`'s
    when it has that many, else a new one), ``take`` each result part as it completes. On Ctrl-C
    (or any error) the running workers are stopped at once, not waited for, and the interrupt is
    re-raised promptly (a pool kept by :func:`shared_pool` is dropped; its next batch starts a new one)."""
    held = _shared.get("pool")
    shared = held is not None and held[0] == workers
    if shared and (held[1] is None or not held[1].alive()):
        if held[1] is not None:
            held[1].kill()
        _shared["pool"] = (workers, _LocalPool(workers))
    pool = _shared["pool"][1] if shared else _LocalPool(workers)
    ok = False
    try:
        pool.run(tasks, take)
        ok = True
    finally:
        if not ok:
            pool.kill()
            if shared:
                _shared["pool"] = (workers, None)
        elif not shared:
            pool.close()


def games_text(n: int) -> str:
    """A number of games as a summary says it: "1 game", "24 games"."""
    return f"{n} game" if n == 1 else f"{n} games"


def wilson_interval(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval for ``k`` successes in ``n`` trials."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def _system_of(results: list[GameResult]):
    """The rule system of a batch's results (the first game's; the default system without any)."""
    return get(results[0].rule_system if results else DEFAULT_SYSTEM)


def _bookkeeping(system, played: list[GameResult]) -> tuple[Counter, Counter]:
    """Eliminations of the played games by cause, and by rule those the system calls
    ``"bookkeeping"`` (removed by no rule of play; 0 in a sound engine). Empty without causes."""
    causes: Counter = Counter()
    bookkeeping: Counter = Counter()
    if system.elimination_cause is None:
        return causes, bookkeeping
    for r in played:
        for rule, k in r.eliminations_by_rule.items():
            c = system.cause_of(rule)
            causes[c] += k
            if c == "bookkeeping":
                bookkeeping[rule] += k
    return causes, bookkeeping


def summarise(results: Iterable[GameResult], scenario: LoadedScenario | None = None) -> dict:
    """Outcome counts and rates with 95 % intervals, game length, casualties (per side and unit
    kind; per side and Game Turn: mean per game with a 95 % interval of the mean), first contact,
    hot spots (most fired-at plus eliminations) and fire origins; eliminations per game by cause
    (the rule system's ``causes``; Iron Cross: attack, mine, scenario, crew, bookkeeping) and the
    total of ``bookkeeping_eliminations`` (units removed by a rule that is no attack, mine, scenario
    roll or crew rule; 0 in a sound engine) with their rules. Errored games count in the outcomes
    (as "error") but not in game length, casualties by turn or causes. ``scenario``: the batch's
    loaded scenario, whose rule system sorts the eliminations into causes (without it, the
    results' own ``rule_system``)."""
    rs = list(results)
    system = scenario.system if scenario is not None else _system_of(rs)
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
    causes, bookkeeping = _bookkeeping(system, [r for r in rs if r.outcome != "error"])
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
        "eliminations_by_cause": {c: causes.get(c, 0) / len(played) if played else 0.0 for c in system.causes},
        "bookkeeping_eliminations": {"total": sum(bookkeeping.values()), "by_rule": dict(sorted(bookkeeping.items()))},
        "hot_hexes": hot.most_common(10),
        "fire_origins": origins.most_common(10),
        "errors": [{"seed": r.seed, "index": r.index, "error": r.error, "replay": r.replay}
                   for r in rs if r.outcome == "error"],
        "trust": {**trust_report(rs, system), "blunders": blunder_report(rs, system)},
    }


def blunder_report(results: Iterable[GameResult], system=None) -> dict:
    """The blunder report of a batch (docs/ai.md): ``{"kinds": {kind: definition}, "per_side":
    {side: {kind: {"per_game": mean count a played game, "games": games with at least one, "total",
    "first_turn": mean Game Turn of the first one (None without)}}}, "per_game": [{"index", "seed",
    side: {kind: count}}]}``; kinds are the results' rule system's (``RuleSystem.blunder_kinds``),
    sides and kinds without any left out of ``per_side``. ``system``: the rule system (default: the
    results' own ``rule_system``)."""
    rs = list(results)
    system = system if system is not None else _system_of(rs)
    played = [r for r in rs if r.outcome != "error"]
    per_side: dict[str, dict] = {}
    for side in system.sides:
        for kind in system.blunder_kinds:
            counts = [len((r.blunders.get(side) or {}).get(kind, [])) for r in played]
            if not any(counts):
                continue
            firsts = [min(i.get("turn", 0) for i in r.blunders[side][kind]) for r in played
                      if (r.blunders.get(side) or {}).get(kind)]
            per_side.setdefault(side, {})[kind] = {
                "per_game": sum(counts) / len(played), "games": sum(1 for c in counts if c), "total": sum(counts),
                "first_turn": statistics.mean(firsts) if firsts else None}
    per_game = [{"index": r.index, "seed": r.seed,
                 **{side: {k: len(v) for k, v in kinds.items()} for side, kinds in r.blunders.items()}}
                for r in played if r.blunders]
    return {"kinds": dict(system.blunder_kinds), "per_side": per_side, "per_game": per_game}


def trust_report(results: Iterable[GameResult], system=None) -> dict:
    """How far to trust a batch: the things that make its answer mislead, each expected to be 0.

    Returns ``{"games", "played", "errors", "player_errors", "never_entered", "never_acted",
    "bookkeeping_eliminations", "seconds_per_game", "decisions_per_game", "warnings"}``:
    ``errors`` the games that raised (excluded from the shares and averages); ``player_errors``
    those raised inside a player (an AI bug, never swallowed); ``never_entered`` / ``never_acted``
    per side the mean number of units per played game that never entered the map / never acted,
    and ``most_often``: [(unit id, games idle)] for the five most often idle; ``bookkeeping_eliminations``
    the units removed by no attack, mine, scenario roll or crew rule (rule -> count); wall time and
    decisions per game (mean, median, max); ``warnings``: one line for each of these that is not 0.
    Bookkeeping eliminations are those the rule system ``system`` (a :class:`core.rule_system.RuleSystem`;
    None: the results' own) calls ``"bookkeeping"``."""
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
    bk = _bookkeeping(system if system is not None else _system_of(rs), played)[1]

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
