"""A toy rule system for the tests: a two-side dice race, nothing like Iron Cross, registered at
run time (``SYSTEM_MODULES["toy"] = "tests.toy_system"``, the :func:`toy` fixture), so worker
processes find it too. ``tests/core/test_rule_system_boundary.py`` plays it through the runner,
``replay --verify`` and ``validate``; ``tests/editor/test_editor_systems.py`` through the editor's
Watch, Hot-seat, Playtest dock and scenario window.

The toy's rules (numbered T.x the way the Iron Cross tests cite rule numbers):
T.1 each Game Turn the German side decides, then the Russian; T.2 a side rolls one or two dice and
adds them to its score; T.3 two dice both showing 1 reset the roller's score to 0; T.4 or it
holds; T.5 the game ends after the scenario's ``turns`` Game Turns or when a side reaches its
``target``: the higher score wins, equal scores draw; T.6 (a test scenario's ``boom_in_turn``) the
engine fails when that Game Turn begins; T.7 (a scenario with ``tracks``) each side's runner
stands on its track of hexes, one hex further for every 5 points (the last hex at most), and a
scenario's ``wagon`` (hex ids) is a German piece spanning those hexes; T.8 (a scenario with
``tracks``) instead of rolling, a side may nudge its own runner: one point, no die.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pytest

from core import rule_system
from core.dice import Dice, derive_seed
from core.rule_system import IllegalActionError, Piece, RuleSystem, ScenarioError
from maps.document_file import DocumentError, Problem, read_json

__all__ = ["TOY", "SIDES", "SYSTEM", "ToyRoll", "ToyNudge", "ToyHold", "ToyGame", "toy", "toy_file", "toy_map_file"]

TOY = "toy"
MODULE = "tests.toy_system"
SIDES = ("german", "russian")


# ----------------------------------------------------------------------------------- the toy system
@dataclass(frozen=True)
class ToyRoll:
    """T.2: roll ``dice`` (1 or 2) dice and add them to the score."""

    dice: int
    kind: str = "roll"


@dataclass(frozen=True)
class ToyNudge:
    """T.8: nudge the side's own runner ``runner`` (its uid, "G" or "R") one point on."""

    runner: str
    kind: str = "nudge"


@dataclass(frozen=True)
class ToyHold:
    """T.4: hold."""

    kind: str = "hold"


class ToyIllegal(IllegalActionError):
    def __init__(self, rule: str, message: str):
        self.rule = rule
        super().__init__(f"illegal ({rule}): {message}")


@dataclass
class ToySetup:
    title: str
    turns: int
    target: int
    boom_in_turn: int | None = None
    tracks: dict = field(default_factory=dict)
    wagon: tuple = ()


class ToyGame:
    """The dice race; every roll is a ``roll`` event (T.2), every decision an ``action`` event."""

    def __init__(self, setup: ToySetup, seed: int, rules: str = "standard", options: tuple[str, ...] = ()):
        self.setup = setup
        self.rules = rules
        self.events: list[dict] = []
        self.actions: list = []
        self.score = {s: 0 for s in SIDES}
        self._turn = 1
        self._side = "german"
        self._outcome: str | None = None
        self.dice = Dice(seed, on_roll=lambda r: self._event("roll", r.rule, dice=list(r.dice), total=r.total,
                                                               purpose=r.purpose))
        self._event("game_start", "T.1", seed=seed, rules=rules, title=setup.title)

    def _event(self, kind: str, rule: str, **data) -> dict:
        e = {"i": len(self.events), "kind": kind, "rule": rule, "turn": self._turn, **data}
        self.events.append(e)
        return e

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def outcome(self) -> str | None:
        return self._outcome

    def current_side(self) -> str | None:
        return None if self.is_terminal() else self._side

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def legal_actions(self) -> list:
        if self.is_terminal():
            return []
        nudge = [ToyNudge(self._side[0].upper())] if self.setup.tracks else []   # T.8
        return [ToyRoll(1), ToyRoll(2), *nudge, ToyHold()]

    def apply(self, action) -> list[dict]:
        if self.is_terminal():
            raise ToyIllegal("T.5", "the game is over")
        if action not in self.legal_actions():
            raise ToyIllegal("T.2", f"{action!r} is no toy action")
        start = len(self.events)
        side = self._side
        self.actions.append(action)
        self._event("action", "", side=side, action=action_to_json(action))
        if isinstance(action, ToyRoll):
            r = self.dice.roll(action.dice, f"race ({side})", "T.2")
            if action.dice == 2 and r.dice == (1, 1):
                self.score[side] = 0
                self._event("reset", "T.3", side=side)
            else:
                self.score[side] += r.total
                self._event("scored", "T.2", side=side, points=r.total, score=self.score[side])
        elif isinstance(action, ToyNudge):
            self.score[side] += 1
            self._event("scored", "T.8", side=side, points=1, score=self.score[side])
        if side == "russian":
            self._turn += 1
            self._side = "german"
            if self.setup.boom_in_turn == self._turn:
                raise RuntimeError(f"toy engine failure at the start of Game Turn {self._turn} (T.6)")
        else:
            self._side = "russian"
        g, r = self.score["german"], self.score["russian"]
        if self._turn > self.setup.turns or max(g, r) >= self.setup.target:
            self._outcome = "german" if g > r else "russian" if r > g else "draw"
            self._turn = min(self._turn, self.setup.turns)
            self._event("game_over", "T.5", outcome=self._outcome, details={"reason": f"scores {g}-{r}"})
        return self.events[start:]


class ToyHeuristic:
    """Rolls two dice when behind, one otherwise; never holds."""

    name = "heuristic"

    def __init__(self, seed: int):
        self.seed = seed

    def choose(self, view, side, actions):
        behind = view["score"][side] < view["score"]["russian" if side == "german" else "german"]
        return next(a for a in actions if isinstance(a, ToyRoll) and a.dice == (2 if behind else 1))


def _random(seed: int):
    from core.ironcross.players import RandomPlayer

    return RandomPlayer(seed)


TOY_PLAYERS = {"random": _random, "heuristic": ToyHeuristic}


def _int(data, key: str, path, problems: list) -> int:
    v = data.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v < 1:
        problems.append(Problem(f"$.{key}", f"must be a whole number of at least 1, not {v!r}"))
        return 1
    return v


def toy_setup(path, data=None) -> ToySetup:
    data = read_json(path) if data is None else data
    problems: list[Problem] = []
    turns, target = _int(data, "turns", path, problems), _int(data, "target", path, problems)
    if not isinstance(data.get("title"), str) or not data["title"]:
        problems.append(Problem("$.title", "missing"))
    if problems:
        raise DocumentError(str(path), problems)
    return ToySetup(data["title"], turns, target, data.get("boom_in_turn"),
                    {s: list(t) for s, t in (data.get("tracks") or {}).items()}, tuple(data.get("wagon") or ()))


def load_setup(path, seed: int, fixed=None) -> ToySetup:
    if fixed:
        raise ScenarioError(f"{path}: the toy game has no set-up to fix")
    return toy_setup(path)


def make_players(setup, ai, seed: int) -> dict:
    return {side: TOY_PLAYERS[ai[side]](derive_seed(seed, 1 if side == "german" else 2)) for side in ai}


def action_to_json(a) -> dict:
    return asdict(a)


def action_from_json(d: dict):
    if d.get("kind") == "roll":
        return ToyRoll(int(d["dice"]))
    if d.get("kind") == "hold":
        return ToyHold()
    if d.get("kind") == "nudge":
        return ToyNudge(str(d["runner"]))
    raise ToyIllegal("T.2", f"no toy action {d!r}")


def result_fields(game) -> dict:
    first = next((e["turn"] for e in game.events if e["kind"] == "roll"), None)
    return {"first_contact": first, "reason": game.events[-1].get("details", {}).get("reason", ""),
            "eliminations_by_rule": {"T.3": sum(1 for e in game.events if e["kind"] == "reset")}}


def turn_record(game) -> tuple[str, dict[str, int]]:
    g, r = game.score["german"], game.score["russian"]
    return ("german" if g > r else "russian" if r > g else "draw"), dict(game.score)


def summarise(path, data) -> str:
    s = toy_setup(path, data)
    return f"toy scenario {s.title!r}: first to {s.target} in {s.turns} turns"


def warnings(path) -> list:
    s = toy_setup(path)
    return [f"$.target: {s.target} cannot be reached in {s.turns} turns (at most 12 a turn)"] \
        if s.target > 12 * s.turns else []


def pieces(game) -> list[Piece]:
    """T.7: each side's runner (on its track, or off the map without one; label its score,
    status "leading" for the side ahead, "reset" after a T.3 reset) and the wagon."""
    out = []
    g, r = game.score["german"], game.score["russian"]
    last_reset = {e["side"] for e in game.events[-3:] if e["kind"] == "reset"}
    for s in SIDES:
        track = game.setup.tracks.get(s) or []
        hexes = (track[min(game.score[s] // 5, len(track) - 1)],) if track else ()
        ahead = (s == "german" and g > r) or (s == "russian" and r > g)
        status = tuple(w for w, on in (("leading", ahead), ("reset", s in last_reset)) if on)
        out.append(Piece(s[0].upper(), s, hexes, str(game.score[s]), "score" if not track else "runner", status,
                         3 if track else None))
    if game.setup.wagon:
        out.append(Piece("W", "german", tuple(game.setup.wagon), "WAG", "wagon"))
    return out


#: the toy's scenario file, as a JSON schema (the editor's form is built from it)
TOY_SCHEMA = {
    "title": "Toy race scenario", "type": "object", "required": ["rule_system", "title", "turns", "target"],
    "properties": {
        "format": {"const": "ironcross-scenario", "type": "string"}, "version": {"type": "integer"},
        "rule_system": {"const": TOY, "type": "string"}, "title": {"type": "string"},
        "number": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "map": {"type": "object", "properties": {"file": {"type": "string"},
                                                 "sections": {"type": "array", "items": {"type": "string"}}}},
        "turns": {"type": "integer", "minimum": 1}, "target": {"type": "integer", "minimum": 1},
        "tracks": {"type": "object", "properties": {s: {"type": "array", "items": {"type": "string"}} for s in SIDES}},
        "wagon": {"type": "array", "items": {"type": "string"}},
        "leader": {"enum": list(SIDES), "type": "string"},
    }}


def status_lines(game) -> list[str]:
    """T.5: the scores and the target."""
    return [f"Scores: german {game.score['german']}, russian {game.score['russian']} (target {game.setup.target})"]


def new_scenario(map_file: str, sections: list[str], title: str = "New scenario") -> dict:
    """A toy race on ``map_file``: 6 turns, target 30, tracks along rows 10 and 14 (T.7)."""
    return {"format": "ironcross-scenario", "version": 1, "rule_system": TOY, "title": title,
            "map": {"file": map_file, "sections": list(sections)}, "turns": 6, "target": 30,
            "tracks": {"german": [f"{c}10" for c in range(35, 40)], "russian": [f"{c}14" for c in range(35, 40)]}}


SYSTEM = RuleSystem(
    name=TOY, title="Toy Race Game", seed="tests/toy_system.py", players={
        "random": "uniformly random", "heuristic": "two dice when behind"},
    rules=("standard",), load_setup=load_setup, new_game=lambda setup, seed, rules, options: ToyGame(setup, seed, rules),
    make_players=make_players, view=lambda game, side: {"score": dict(game.score), "turn": game.turn},
    action_to_json=action_to_json, action_from_json=action_from_json, result_fields=result_fields,
    turn_record=turn_record, summarise_scenario=summarise, scenario_warnings=warnings,
    pieces=lambda game: pieces(game),
    describe_event=lambda e: f"{e['kind']} ({e['rule']})", los=lambda game, a, b: True,
    terrain_mapping={"provenance": "reconstructed", "rationale": "the toy race has no map"},
    causes=("reset",), elimination_cause=lambda rule: "reset", status_lines=status_lines,
    scenario_schema=lambda: TOY_SCHEMA, new_scenario=new_scenario,
    scenario_hints=lambda: {"hex_lists": ["$.tracks.german", "$.tracks.russian", "$.wagon"],
                            "choices": {"$.target": [[n, f"{n} points"] for n in (10, 20, 30, 40, 60)]}})


@pytest.fixture
def toy():
    """The toy system, known by name for the length of one test (its module is this one, so
    worker processes find it too)."""
    rule_system.SYSTEM_MODULES[TOY] = MODULE
    yield rule_system.get(TOY)
    rule_system.unregister(TOY)


def toy_file(folder: Path, name: str = "race.json", **more) -> str:
    d = {"format": "ironcross-scenario", "version": 1, "rule_system": TOY, "title": "Toy race", "number": 7,
         "turns": 6, "target": 30, **more}
    p = Path(folder) / name
    p.write_text(json.dumps(d))
    return str(p)




def toy_map_file(folder: Path, name: str = "race_map.json", **more) -> str:
    """A toy scenario on Map 2 of the shipped map sheet (T.7): the runners' tracks along rows 10
    and 14 from column 35, a wagon spanning 4012-4013."""
    root = Path(__file__).resolve().parents[1]
    d = {"map": {"file": str(root / "maps" / "data" / "iron_cross_mapsheet_corrected.json"), "sections": ["Map 2"]},
         "tracks": {"german": [f"{c}10" for c in range(35, 45)], "russian": [f"{c}14" for c in range(35, 45)]},
         "wagon": ["4012", "4013"], **more}
    return toy_file(folder, name, **d)
