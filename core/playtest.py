"""Headless playtests: run whole games of a scenario with AI players and summarise them.

Each game ``i`` of a batch seeded ``S`` uses the seed ``derive_seed(S, i)`` for its dice, its
pre-game choices and its players, so results are the same whatever the number of workers or the
backend. Games run in batches (one task per batch, not per game) on a local process pool, or on a
Dask distributed cluster when a scheduler address is given. An exception inside one game does not
stop the batch: the game is reported with its seed and the error, and its replay is kept.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from core.dice import derive_seed

__all__ = ["GameResult", "play_game", "run_batch", "summarise", "wilson_interval", "parse_ai"]

_SETUP_CACHE: dict[tuple[str, int], object] = {}


@dataclass
class GameResult:
    """One game's result: ``outcome`` "german"/"russian"/"draw" or "error"; ``turns`` played;
    ``casualties`` per side and unit kind; ``first_contact`` the Game Turn of the first combat
    roll (None without combat); ``eliminated_at`` and ``fire_at`` hex counts."""

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


def parse_ai(text: str | None) -> dict[str, str]:
    """``"german=random,russian=heuristic"`` -> {"german": "random", "russian": "heuristic"};
    missing sides default to ``random``. Raises ValueError on a malformed spec."""
    out = {"german": "random", "russian": "random"}
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


def _setup_for(scenario_path: str, seed: int):
    from core.ironcross.scenario_setup import load_setup

    return load_setup(scenario_path, seed=seed)[1]


def play_game(scenario_path: str, index: int, seed: int, ai: dict[str, str], rules: str = "basic",
              options: tuple[str, ...] = (), replay_dir: str | None = None, max_actions: int = 200_000) -> GameResult:
    """Play one game to its end; never raises for an error inside the game (reported instead)."""
    from core.ironcross.actions import action_to_json
    from core.ironcross.game import Game
    from core.players import make_player
    from core.replay import write_replay

    game = None
    try:
        setup = _setup_for(scenario_path, seed)
        game = Game(setup, seed, rules=rules, options=options)
        for c in getattr(setup, "choices", []):
            game._event("pre_game_choice", rule="24.1", text=c)
        players = {side: make_player(ai[side], derive_seed(seed, 1 if side == "german" else 2)) for side in ai}
        n = 0
        while not game.is_terminal():
            side = game.current_side()
            acts = game.legal_actions()
            a = players[side].choose(game.view(side), side, acts)
            game.apply(a)
            n += 1
            if n > max_actions:
                raise RuntimeError(f"no end after {max_actions} actions")
        res = _result_of(game, index, seed)
    except Exception as e:  # one broken game must not stop the batch
        res = GameResult(index, seed, "error", game.state.turn if game else 0,
                         error=f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=6)}")
    if replay_dir is not None and game is not None:
        path = Path(replay_dir) / f"game_{index:05d}_seed_{seed}.jsonl"
        header = {"scenario": str(scenario_path), "seed": seed, "rules": rules, "options": list(options),
                  "ai": ai, "index": index, "outcome": res.outcome, "error": res.error,
                  "actions": [action_to_json(a) for a in game.actions]}
        write_replay(path, header, json.loads(json.dumps(game.events, default=str)))
        res.replay = str(path)
    return res


def _result_of(game, index: int, seed: int) -> GameResult:
    cas: dict[str, dict[str, int]] = {"german": {}, "russian": {}}
    elim: Counter = Counter()
    fire: Counter = Counter()
    first = None
    for e in game.events:
        k = e["kind"]
        if k == "eliminated":
            u = game.units[e["unit"]]
            cas[u.side][u.kind.value] = cas[u.side].get(u.kind.value, 0) + 1
            if e.get("hex"):
                elim[e["hex"]] += 1
        elif k in ("fire", "grenade_result", "flame_result", "assault"):
            tgt = e.get("target") or (game.units[e["unit"]].hex if e.get("unit") in game.units else None)
            if tgt:
                fire[tgt] += 1
        elif k == "roll" and first is None and e["rule"] not in ("7.0 b",) and not e["purpose"].startswith("PC"):
            first = e["turn"]
    details = game.events[-1].get("details") or {}
    return GameResult(index, seed, game.state.outcome or "draw", game.state.turn, cas, first, dict(elim), dict(fire),
                      len(game.actions), reason=(details.get("reason") if isinstance(details, dict) else "") or "")


def _run_chunk(args) -> list[dict]:
    scenario_path, items, ai, rules, options, replay_dir = args
    return [asdict(play_game(scenario_path, i, s, ai, rules, tuple(options), replay_dir)) for i, s in items]


def run_batch(scenario_path: str, games: int, seed: int, ai: dict[str, str], *, rules: str = "basic",
              options: tuple[str, ...] = (), workers: int | None = None, scheduler: str | None = None,
              replay_dir: str | None = None, on_progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """Run ``games`` games; returns their results ordered by game index (independent of workers)."""
    items = [(i, derive_seed(seed, i)) for i in range(games)]
    workers = max(1, workers or os.cpu_count() or 1)
    size = max(1, min(25, math.ceil(games / (workers * 4))))
    chunks = [items[k:k + size] for k in range(0, games, size)]
    tasks = [(str(scenario_path), c, ai, rules, list(options), replay_dir) for c in chunks]
    if replay_dir:
        Path(replay_dir).mkdir(parents=True, exist_ok=True)
    out: list[dict] = []
    if scheduler:
        try:
            from distributed import Client, as_completed
        except ImportError:
            raise RuntimeError("--scheduler needs Dask distributed: pip install 'ironcross[cluster]'") from None
        with Client(scheduler, timeout="10s") as client:
            futs = client.map(_run_chunk, tasks, pure=False)
            for f in as_completed(futs):
                part = f.result()
                out.extend(part)
                if on_progress:
                    on_progress(len(part))
    elif workers == 1:
        for t in tasks:
            part = _run_chunk(t)
            out.extend(part)
            if on_progress:
                on_progress(len(part))
    else:
        with ProcessPoolExecutor(max_workers=workers) as ex:
            for part in ex.map(_run_chunk, tasks):
                out.extend(part)
                if on_progress:
                    on_progress(len(part))
    out.sort(key=lambda r: r["index"])
    return [GameResult(**r) for r in out]


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
    """Outcome counts and rates with 95 % intervals, game length, casualties, contact, hot spots."""
    rs = list(results)
    n = len(rs)
    counts = Counter(r.outcome for r in rs)
    outcomes = {k: counts.get(k, 0) for k in ("german", "russian", "draw")}
    if counts.get("error"):
        outcomes["error"] = counts["error"]
    rates = {k: {"rate": v / n if n else 0.0, "ci95": wilson_interval(v, n)} for k, v in outcomes.items()}
    turns = [r.turns for r in rs if r.outcome != "error"]
    cas: dict[str, dict[str, float]] = {}
    for side in ("german", "russian"):
        kinds = Counter()
        for r in rs:
            kinds.update(r.casualties.get(side, {}))
        cas[side] = {k: v / n for k, v in sorted(kinds.items())} if n else {}
    contact = [r.first_contact for r in rs if r.first_contact is not None]
    hot = Counter()
    for r in rs:
        hot.update(r.eliminated_at)
        hot.update(r.fire_at)
    return {
        "games": n,
        "outcomes": outcomes,
        "rates": rates,
        "turns": {"mean": statistics.mean(turns) if turns else 0,
                  "stdev": statistics.pstdev(turns) if len(turns) > 1 else 0.0},
        "casualties_per_game": cas,
        "first_contact": {"mean_turn": statistics.mean(contact) if contact else None,
                          "games_with_contact": len(contact)},
        "hot_hexes": hot.most_common(10),
        "errors": [{"seed": r.seed, "index": r.index, "error": r.error, "replay": r.replay}
                   for r in rs if r.outcome == "error"],
    }
