"""Games seen in the editor, without Qt: a recorded game (watch) and a hot-seat session, and the
batch worker function run in playtest worker processes.

:class:`GameRecording` plays one AI-vs-AI game (or re-applies the decisions of a saved replay)
and keeps, after every decision, a light snapshot of the state (turn, phase, each unit's hex,
facing, UP/DOWN, morale) and the events that decision caused, so the watch panel can step
forward and back instantly. :class:`HotseatSession` is a live :class:`core.ironcross.game.Game`
in which people play some sides and AIs the others.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Callable

__all__ = ["Snapshot", "Step", "GameRecording", "HotseatSession", "run_games", "lower_priority", "describe_action",
           "describe_event", "fire_odds"]


@dataclass
class Snapshot:
    turn: int
    player_turn: int
    phase: str
    phasing: str
    decider: str | None
    units: dict[str, tuple]   # uid -> (hex, facing, down, morale, side, label)
    outcome: str | None = None


@dataclass
class Step:
    side: str | None
    action: dict | None
    events: list[dict] = field(default_factory=list)


def _label(u) -> str:
    if u.kind.value == "infantry":
        return f"{u.weapon}{u.squad or ''}"
    if u.kind.value == "commander":
        return u.weapon
    return (u.weapon or "")[:5]


def snapshot(game) -> Snapshot:
    s = game.state
    units = {uid: (u.hex, u.facing, u.down, u.morale.value.lower(), u.side, _label(u))
             for uid, u in s.units.items() if u.on_map}
    return Snapshot(s.turn, s.player_turn, s.phase.value, s.phasing, game.current_side(), units, s.outcome)


def lower_priority(increment: int = 5) -> None:
    """Initializer of the editor's batch worker processes: a lower CPU priority, so that on a
    busy machine the GUI thread is scheduled first (the workers lose nothing on an idle one)."""
    import os

    try:
        os.nice(increment)
    except (AttributeError, OSError):  # no nice() (Windows) or not permitted
        pass


def run_games(scenario_path: str, items: list[tuple[int, int]], ai: dict[str, str], rules: str,
              options: tuple[str, ...], fixed_setup: dict | None = None) -> list[dict]:
    """Play games ``items`` [(index, seed)...] in a worker process; their results as dicts.
    ``fixed_setup``: the designer's set-up the games start from (see ``core.playtest``)."""
    from core.playtest import play_game

    return [asdict(play_game(scenario_path, i, s, ai, rules, options, fixed_setup=fixed_setup)) for i, s in items]


def describe_action(a, game=None) -> str:
    """A short readable label of action ``a`` (an Action or its JSON dict); with ``game`` the
    units it names may be described from the game (e.g. "Lose G1 (R PR7)" for a 17.23 casualty)."""
    d = a if isinstance(a, dict) else _to_json(a)
    k = d.get("kind")
    if k == "take_casualty":
        u = game.state.units.get(d["unit"]) if game is not None else None
        if u is None:
            return f"Lose {d['unit']}"
        what = [f"{u.weapon} PR{u.pr}", f"assault {u.assault}"]
        if u.is_cw:
            what.append(f"crew {u.crew}")
        if u.is_commander:
            what.append("commander")
        return f"Lose {u.id} ({', '.join(what)})"
    if k == "place":
        return f"place {d['unit']} in {d['hex']}" + (" DOWN" if d.get("down") else "") + \
            (f" facing {d['facing']}" if d.get("facing") else "")
    if k == "start_move":
        return "start moving " + ", ".join(d["units"]) + (f" (leader {d['leader']})" if d.get("leader") else "")
    if k in ("step", "enter"):
        return f"{k} {d['hex']}"
    if k == "fire":
        return f"{d.get('mode', 'AP')} fire by {', '.join(d['firers'])} at {d['target']}" + \
            (f" ({d['target_unit']})" if d.get("target_unit") else "") + \
            (" intensive" if d.get("intensive") else "")
    if k == "face":
        return f"face hexside {d['hexside']}"
    if k == "overrun_at_fire":
        return f"special AT fire by {d['unit']} at the overrunning AFV (9.2 A)"
    if k in ("grenade", "flame"):
        return f"{k}: {d.get('thrower') or d.get('unit')} at {d['target']}"
    if k == "mortar":
        return f"mortar {d['unit']} at {d['target']} x{d.get('rounds', 1)}"
    if k == "designate_assault":
        return f"assault {d['target']} with {', '.join(d['units'])}"
    if k == "set_state":
        return f"{'DOWN' if d['down'] else 'UP'}: {', '.join(d['units'])}"
    return k.replace("_", " ") if k else str(d)


def _to_json(a) -> dict:
    from core.ironcross.actions import action_to_json

    return action_to_json(a)


def describe_event(e: dict) -> str:
    k = e.get("kind")
    if k == "action":
        return f"{e.get('side', '')}: {describe_action(e['action'])}"
    if k == "roll":
        return f"  roll {e.get('purpose', '')}: {e.get('dice')} ({e.get('rule', '')})"
    if k == "ap_result":
        return f"  {e['unit']}: dice {e.get('dice')} vs firepower {e.get('firepower')} -> {e.get('result')}"
    if k == "phase":
        return f"-- {e.get('phase', '')} ({e.get('side', e.get('phasing', ''))})"
    rest = {x: v for x, v in e.items() if x not in ("kind", "turn", "player_turn", "phase", "rule") and v not in (None, [], {})}
    txt = ", ".join(f"{x}={v}" for x, v in list(rest.items())[:5])
    return f"  {k}: {txt}" + (f" ({e['rule']})" if e.get("rule") else "")


class GameRecording:
    """A whole game: ``steps[i]`` is decision i and its events; ``snapshots[i]`` the state
    before decision i (``snapshots[-1]`` the end)."""

    def __init__(self, header: dict, setup, game):
        self.header = header
        self.setup = setup
        self.game = game
        self.steps: list[Step] = []
        self.snapshots: list[Snapshot] = [snapshot(game)]
        self.pre_events: list[dict] = list(game.events)

    @classmethod
    def _start(cls, scenario_path: str, seed: int, rules: str, options: tuple[str, ...], ai: dict,
               fixed: dict | None = None):
        from core.ironcross.game import Game
        from core.playtest import _setup_for

        setup = _setup_for(scenario_path, seed, fixed)   # a designer's set-up: its 24.1 choices too
        game = Game(setup, seed, rules=rules, options=options)
        head = {"scenario": str(scenario_path), "seed": seed, "rules": rules, "options": list(options), "ai": ai}
        return cls(head, setup, game)

    def _record(self, action) -> None:
        g = self.game
        side = g.current_side()
        ev = g.apply(action)
        self.steps.append(Step(side, _to_json(action), list(ev)))
        self.snapshots.append(snapshot(g))

    @classmethod
    def play(cls, scenario_path: str, seed: int, ai: dict[str, str], rules: str = "basic",
             options: tuple[str, ...] = (), max_actions: int = 100_000,
             progress: Callable[[int], bool] | None = None) -> "GameRecording":
        """Play an AI-vs-AI game to its end (``progress(n)`` returning False stops early)."""
        from core.dice import derive_seed
        from core.ironcross.view import PlayerView
        from core.players import make_player

        rec = cls._start(scenario_path, seed, rules, options, ai)
        players = {s: make_player(ai[s], derive_seed(seed, 1 if s == "german" else 2)) for s in ("german", "russian")}
        g = rec.game
        n = 0
        while not g.is_terminal() and n < max_actions:
            side = g.current_side()
            a = players[side].choose(PlayerView(g, side), side, g.legal_actions())
            rec._record(a)
            n += 1
            if progress is not None and n % 200 == 0 and progress(n) is False:
                break
        return rec

    @classmethod
    def from_replay(cls, path: str, scenario_override: str | None = None) -> "GameRecording":
        """Re-apply the decisions of a replay file (``core.replay.read_replay``)."""
        from core.ironcross.actions import action_from_json
        from core.replay import read_replay

        rp = read_replay(path)
        h = rp.header
        rec = cls._start(scenario_override or h["scenario"], int(h["seed"]), h.get("rules", "basic"),
                         tuple(h.get("options") or ()), h.get("ai") or {}, h.get("fixed_setup"))
        for a in rp.actions:
            if rec.game.is_terminal():
                break
            rec._record(action_from_json(a))
        return rec

    def __len__(self) -> int:
        return len(self.steps)


def fire_odds(game, action) -> dict | None:
    """For an AP :class:`Fire`: the final firepower and, per target unit, the dice and the exact
    probabilities of E/S/P/no effect (``combat_tables.ap_result_probabilities``)."""
    from core.ironcross import combat_tables as ct
    from core.ironcross.view import PlayerView

    if getattr(action, "kind", None) != "fire" or action.mode != "AP":
        return None
    side = game.current_side()
    v = PlayerView(game, side)
    try:
        fp = v.ap_firepower(action.firers, action.target, action.intensive)
    except Exception:  # noqa: BLE001 - a view helper missing in an older engine
        return None
    moved = any(game.state.units[f].moved for f in action.firers)
    out = {"firepower": fp, "targets": {}}
    for t in game.state.units_at(action.target):
        if t.side == side:
            continue
        try:
            n = v.ap_dice_against(t.id, moved)
        except Exception:  # noqa: BLE001
            continue
        pr = ct.ap_result_probabilities(fp, n) if fp > 0 else {r: (1.0 if r is ct.ApResult.NO_EFFECT else 0.0)
                                                              for r in ct.ApResult}
        out["targets"][t.id] = {"dice": n, **{r.value: p for r, p in pr.items()}}
    return out


class HotseatSession:
    """A live game: ``humans`` are the sides people play; the others are played by AIs."""

    def __init__(self, scenario_path: str, seed: int, humans: set[str], ai: dict[str, str] | None = None,
                 rules: str = "basic"):
        from core.dice import derive_seed
        from core.ironcross.game import Game
        from core.ironcross.scenario_setup import load_setup
        from core.players import make_player

        _sc, self.setup = load_setup(scenario_path, seed=seed)
        self.game = Game(self.setup, seed, rules=rules)
        self.game.prepare_los(background=True)  # the LOS table (disk cache) without blocking the UI
        self.humans = set(humans)
        ai = ai or {}
        self.players = {s: make_player(ai.get(s, "random"), derive_seed(seed, 1 if s == "german" else 2))
                        for s in ("german", "russian")}
        self.log: list[dict] = list(self.game.events)

    def human_to_act(self) -> bool:
        s = self.game.current_side()
        return s is not None and s in self.humans

    def apply(self, action) -> list[dict]:
        ev = self.game.apply(action)
        self.log.extend(ev)
        return ev

    def ai_step(self, side: str | None = None):
        from core.ironcross.view import PlayerView

        g = self.game
        s = g.current_side()
        a = self.players[s].choose(PlayerView(g, s), s, g.legal_actions())
        self.apply(a)
        return a

    def run_ai(self, limit: int = 5000) -> int:
        """Let the AIs play until a human must decide or the game ends; returns decisions made."""
        n = 0
        while not self.game.is_terminal() and not self.human_to_act() and n < limit:
            self.ai_step()
            n += 1
        return n

    def advance_until(self, pred: Callable[[list], bool], limit: int = 20000) -> bool:
        """Let the AI decide for everybody until ``pred(legal actions)`` holds (for set-up
        shortcuts and tests); returns whether it does."""
        n = 0
        while not self.game.is_terminal() and n < limit:
            if pred(self.game.legal_actions()):
                return True
            self.ai_step()
            n += 1
        return False
