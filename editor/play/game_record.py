"""Games seen in the editor, without Qt: a recorded game (watch) and a hot-seat session, and the
batch worker function run in playtest worker processes -- for any rule system.

:class:`GameRecording` plays one AI-vs-AI game (or re-applies the decisions of a saved replay)
and keeps, after every decision, a light snapshot of the state and the events that decision
caused, so the watch panel can step forward and back instantly. :class:`HotseatSession` is a
live game in which people play some sides and AIs the others.

Everything about the game goes through the scenario's :class:`core.rule_system.RuleSystem`
(``for_scenario(path)``; a replay's ``rule_system``): set-up, game, players, views, the actions'
JSON, the pieces on the map and the log's sentences. A system with the optional editor fields
(``watch_state``, ``describe_action``, ``log_events``, ``action_notes``, ``click_action``, ...; Iron Cross has them) is
shown with them; any other from its ``pieces`` and ``describe_event``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Callable

from core.game_log import action_label, log_lines

__all__ = ["Snapshot", "Step", "GameRecording", "HotseatSession", "run_games", "lower_priority", "init_worker",
           "describe_action", "describe_events", "snapshot", "system_of", "action_label", "log_lines",
           "action_uids", "state_text"]


@dataclass
class Snapshot:
    """The state after a decision. ``turn`` (Game Turn), ``decider`` (the side to act, None at
    the end), ``outcome``; a system with ``watch_state`` (Iron Cross) fills ``player_turn``,
    ``phase``, ``phasing``, ``turns`` and ``units`` (uid -> (hex, facing, down, morale, side,
    label)); any other ``pieces`` (its :class:`core.rule_system.Piece` list) and ``units`` uid ->
    (first hex or None, facing, False, "normal", side, label)."""

    turn: int
    player_turn: int
    phase: str
    phasing: str
    decider: str | None
    units: dict[str, tuple]   # uid -> (hex, facing, down, morale, side, label)
    outcome: str | None = None
    turns: int | None = None
    pieces: tuple = ()
    #: the system's ``status_lines(game)`` (e.g. Red Flags' activation cards), empty without them
    status: tuple = ()


@dataclass
class Step:
    side: str | None
    action: dict | None
    events: list[dict] = field(default_factory=list)


def system_of(system=None):
    """``system``, else the default system (Iron Cross) -- for a session or recording made
    without one (older code and tests build them around a bare Iron Cross game)."""
    from core.rule_system import get

    return system if system is not None else get(None)


def snapshot(game, system=None) -> Snapshot:
    """The state of ``game`` now (see :class:`Snapshot`), through its ``system`` (None: the
    default system): ``watch_state`` when the system has it, else ``pieces``."""
    system = system_of(system)
    decider = game.current_side()
    status = tuple(system.status_lines(game)) if getattr(system, "status_lines", None) is not None else ()
    if system.watch_state is not None:
        st = dict(system.watch_state(game))
        return Snapshot(st["turn"], st.get("player_turn", 0), st.get("phase", ""), st.get("phasing", ""), decider,
                        dict(st.get("units") or {}), st.get("outcome"), st.get("turns"), (), status)
    pieces = tuple(system.pieces(game))
    units = {p.uid: (p.hexes[0] if p.hexes else None, p.facing, False, "normal", p.side, p.label) for p in pieces}
    return Snapshot(game.turn, 0, "", "", decider, units, game.outcome, None, pieces, status)


def state_text(snap: Snapshot, bold: bool = False) -> str:
    """The state line of a snapshot (HTML): "<b>Turn 3/8</b>, player turn 1 (german phasing),
    phase <b>fire</b>; russian to act" -- turn, and what the system's state has; ``bold``: the
    side to act (or the outcome) in bold."""
    b = (lambda t: f"<b>{t}</b>") if bold else (lambda t: t)
    who = f"{b(snap.decider)} to act" if snap.decider else f"game over: {b(snap.outcome)}"
    turn = f"<b>Turn {snap.turn}" + (f"/{snap.turns}" if snap.turns else "") + "</b>"
    if snap.phase:
        return (f"{turn}, player turn {snap.player_turn} ({snap.phasing} phasing), phase "
                f"<b>{snap.phase.replace('_', ' ')}</b>; {who}")
    return f"{turn}; {who}"


def action_uids(system, action, uids) -> set[str]:
    """The pieces (of ``uids``) an action names: every string in its JSON, at any depth, that is
    one of ``uids`` (a piece's id)."""
    found: set[str] = set()
    uids = set(uids)

    def walk(x):
        if isinstance(x, str):
            if x in uids:
                found.add(x)
        elif isinstance(x, dict):
            for y in x.values():
                walk(y)
        elif isinstance(x, (list, tuple)):
            for y in x:
                walk(y)

    walk(system.action_to_json(action))
    return found


def describe_action(a, game=None, system=None) -> str:
    """A short readable label of action ``a`` (an action or its JSON dict) in ``system`` (None:
    the default system, Iron Cross: with ``game`` the units it names are described, e.g. "Lose G1
    (R PR7, assault 2)" for a 17.23 casualty)."""
    return action_label(system_of(system), a, game)


def describe_events(events: list[dict], where=None, system=None) -> list[str]:
    """The events of one decision as the log's sentences (:func:`log_lines`; None: the default
    system's)."""
    return log_lines(system_of(system), events, where)


def lower_priority(increment: int = 5) -> None:
    """Initializer of the editor's batch worker processes: a lower CPU priority, so that on a
    busy machine the GUI thread is scheduled first (the workers lose nothing on an idle one)."""
    import os

    try:
        os.nice(increment)
    except (AttributeError, OSError):  # no nice() (Windows) or not permitted
        pass


def init_worker(modules: dict[str, str] | None = None, increment: int = 5) -> None:
    """Initializer of the editor's batch worker processes: :func:`lower_priority`, and the rule
    systems added at run time (``{name: module}``, :func:`core.rule_system.add_module`) made known
    there, as ``core.playtest`` does for its workers."""
    from core.rule_system import add_module

    lower_priority(increment)
    for name, module in (modules or {}).items():
        add_module(name, module)


def run_games(scenario_path: str, items: list[tuple[int, int]], ai: dict[str, str], rules: str,
              options: tuple[str, ...], fixed_setup: dict | None = None) -> list[dict]:
    """Play games ``items`` [(index, seed)...] in a worker process; their results as dicts.
    ``fixed_setup``: the designer's set-up the games start from (see ``core.playtest``)."""
    from core.playtest import play_game

    return [asdict(play_game(scenario_path, i, s, ai, rules, options, fixed_setup=fixed_setup)) for i, s in items]


class GameRecording:
    """A whole game: ``steps[i]`` is decision i and its events; ``snapshots[i]`` the state
    before decision i (``snapshots[-1]`` the end). ``system``: the game's rule system."""

    def __init__(self, header: dict, setup, game, system=None):
        self.header = header
        self.setup = setup
        self.game = game
        self.system = system_of(system)
        self.steps: list[Step] = []
        self.snapshots: list[Snapshot] = [snapshot(game, self.system)]
        self.pre_events: list[dict] = list(game.events)

    @classmethod
    def _start(cls, scenario_path: str, seed: int, rules: str, options: tuple[str, ...], ai: dict,
               fixed: dict | None = None, system=None):
        """The game at its start, as ``core.playtest`` starts it: the scenario's system (or
        ``system``, a replay's) loads the set-up (narrowed to a designer's set-up ``fixed``) and
        starts the game."""
        from core.rule_system import for_scenario

        system = system if system is not None else for_scenario(scenario_path)
        setup = system.load_setup(scenario_path, seed, fixed)   # a designer's set-up: its 24.1 choices too
        game = system.new_game(setup, seed, rules, tuple(options))
        head = {"scenario": str(scenario_path), "rule_system": system.name, "seed": seed, "rules": rules,
                "options": list(options), "ai": ai, **({"fixed_setup": fixed} if fixed else {})}
        return cls(head, setup, game, system)

    def _record(self, action) -> None:
        g = self.game
        side = g.current_side()
        ev = g.apply(action)
        self.steps.append(Step(side, self.system.action_to_json(action), list(ev)))
        self.snapshots.append(snapshot(g, self.system))

    @classmethod
    def play(cls, scenario_path: str, seed: int, ai: dict[str, str], rules: str | None = None,
             options: tuple[str, ...] = (), max_actions: int = 100_000,
             progress: Callable[[int], bool] | None = None, fixed_setup: dict | None = None) -> "GameRecording":
        """Play an AI-vs-AI game to its end (``progress(n)`` returning False stops early): the
        same game as ``core.playtest.play_game`` with these arguments (same set-up, players and
        seeds: the system's ``make_players``), so game ``i`` of a batch is watched with ``seed =
        derive_seed(batch seed, i)``. ``rules``: None = the system's first level. ``fixed_setup``:
        the designer's set-up it starts from (the system's players place it)."""
        from core.rule_system import for_scenario

        system = for_scenario(scenario_path)
        rules = rules if rules is not None else system.rules[0]
        rec = cls._start(scenario_path, seed, rules, options, ai, fixed_setup, system)
        players = system.make_players(rec.setup, ai, seed)
        g = rec.game
        n = 0
        while not g.is_terminal() and n < max_actions:
            side = g.current_side()
            a = players[side].choose(system.view(g, side), side, g.legal_actions())
            rec._record(a)
            n += 1
            if progress is not None and n % 200 == 0 and progress(n) is False:
                break
        return rec

    @classmethod
    def from_replay(cls, path: str, scenario_override: str | None = None) -> "GameRecording":
        """Re-apply the decisions of a replay file (``core.replay.read_replay``) with the replay's
        ``rule_system`` (absent: the scenario's). Raises ``DocumentError`` naming the file, the line and the
        problem for a file that is no replay or a decision the system cannot read."""
        from core.replay import read_replay, replay_decisions
        from core.rule_system import for_scenario, get

        rp = read_replay(path)
        h = rp.header
        scenario = scenario_override or h["scenario"]
        system = get(h["rule_system"]) if h.get("rule_system") else for_scenario(scenario)
        rec = cls._start(scenario, int(h["seed"]), h.get("rules") or system.rules[0],
                         tuple(h.get("options") or ()), h.get("ai") or {}, h.get("fixed_setup"), system)
        for a in replay_decisions(path, rp, system, events_only=True):  # DocumentError: file, line, decision
            if rec.game.is_terminal():
                break
            rec._record(a)
        return rec

    def __len__(self) -> int:
        return len(self.steps)


class HotseatSession:
    """A live game of any rule system: ``humans`` are the sides people play; the others are
    played by the system's AIs (``make_players``, seeded from ``seed`` as a batch's game).

    ``fixed_setup``: the designer's set-up (``ScenarioDocument.fixed_setup``) the game starts
    from, as a batch with *Use this set-up*: the system's ``load_setup`` narrows the set-up to it
    and its players place it; a player with ``designers_choice(view, side, actions)`` (Iron
    Cross's :class:`core.ironcross.fixed_setup_player.FixedSetupPlayer`) places what the designer
    placed for the human sides too; what he did not place is set up by the side's player (the
    human or the AI). Raises the system's ``ScenarioError`` for a set-up that cannot be played."""

    #: the designer's set-up players per side (None: no designer's set-up)
    fixed_players: dict | None = None
    #: the game's rule system (None: the default system, for a session built around a bare game)
    system = None

    def __init__(self, scenario_path: str, seed: int, humans: set[str], ai: dict[str, str] | None = None,
                 rules: str | None = None, options: tuple[str, ...] = (), fixed_setup: dict | None = None):
        from core.rule_system import for_scenario

        self.system = system = for_scenario(scenario_path)
        rules = rules if rules is not None else system.rules[0]
        self.setup = system.load_setup(scenario_path, seed, fixed_setup)
        self.game = system.new_game(self.setup, seed, rules, tuple(options))
        prepare = getattr(self.game, "prepare_los", None)
        if prepare is not None:
            prepare(background=True)  # Iron Cross: the LOS table (disk cache) without blocking the UI
        self.humans = set(humans)
        ai = ai or {}
        self.players = system.make_players(self.setup, {s: ai.get(s, "random") for s in system.sides}, seed)
        fixed = self.players if any(hasattr(p, "designers_choice") for p in self.players.values()) else None
        #: the designer's set-up players (None without one)
        self.fixed_players = dict(fixed) if fixed else None
        self.log: list[dict] = list(self.game.events)

    @property
    def rules_system(self):
        """The game's rule system (the default one for a session made without it)."""
        return system_of(self.system)

    def view(self, side: str):
        return self.rules_system.view(self.game, side)

    def human_to_act(self) -> bool:
        s = self.game.current_side()
        return s is not None and s in self.humans

    def designers_choice(self):
        """The decision at hand when the designer's set-up settles it (Iron Cross: a unit, mine
        factors or hidden hex he placed, 24.1), for any side; else None."""
        g = self.game
        if not self.fixed_players or g.is_terminal():
            return None
        side = g.current_side()
        fp = self.fixed_players.get(side)
        if fp is None or not hasattr(fp, "designers_choice"):
            return None
        return fp.designers_choice(self.view(side), side, g.legal_actions())

    def apply(self, action) -> list[dict]:
        ev = self.game.apply(action)
        self.log.extend(ev)
        return ev

    def ai_step(self, side: str | None = None):
        g = self.game
        s = g.current_side()
        a = self.players[s].choose(self.view(s), s, g.legal_actions())
        self.apply(a)
        return a

    def run_ai(self, limit: int = 5000) -> int:
        """Let the AIs play until a human must decide or the game ends (the designer's set-up
        places what he placed for the human sides too); returns decisions made."""
        n = 0
        while not self.game.is_terminal() and n < limit:
            if self.human_to_act():
                a = self.designers_choice()
                if a is None:
                    break
                self.apply(a)
            else:
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
