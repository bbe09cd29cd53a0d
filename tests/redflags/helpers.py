"""Small Red Flags games for the rule tests: a scenario on Map 2 with the units the test names,
placed where it says (a designer's fixed set-up), and the activation card the test wants turned.

Map 2 of the shipped mapsheet (hex ids CCRR) as Red Flags reads it, by column (rows 1-27):
clear ground in columns 30-38 rows 1-10; the road down column 33 (3314-3327) and the road
3014-3114-3214-3314-3414-3513-3613-3712-3812-3911-4011-...; Hill J 3615-3618, 3715-3718 (3717 at
level 2), 3816-3818, 3917-3919; woods 3121-3123, 3221-3222, 4719-4720, 4819; buildings 3412-3413,
3904, 4106-4107, 4109, 4307-4308, 4811; marsh 4323-4324, 4423-4424, 4522, 5015-5021.
"""

from __future__ import annotations

import json
from pathlib import Path

from core.redflags.game import Game
from core.redflags.scenario import load_setup
from maps import hexgrid

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"
SHIPPED = ROOT / "scenarios" / "data" / "redflags_1_hill_j.json"


def nb(h: str, side: int) -> str:
    """The hex across hexside ``side`` (1 top, clockwise) of ``h``."""
    return hexgrid.neighbour(hexgrid.parse_hex_id(h), side).id


def scenario_data(german: list, russian: list, *, wire=(), mines=(), turns=6, objectives=("3717",),
                  german_facing=4, russian_facing=1, dug_in=False, results=None, sudden_death=False,
                  initial_control="german", default="german") -> dict:
    """A scenario on Map 2; ``german``/``russian``: ``[(group, card, [unit dicts])]`` where a card is
    ``"A-spades"`` and a unit dict has at least ``id`` and ``type``."""

    def groups(spec):
        out = []
        for name, card, units in spec:
            rank, suit = card.split("-")
            out.append({"name": name, "card": {"rank": rank, "suit": suit}, "units": units})
        return out

    return {
        "format": "redflags-scenario", "version": 1, "rule_system": "redflags", "title": "test",
        "map": {"file": str(MAP), "sections": ["Map 2"]}, "turns": turns, "sets_up_first": "german",
        "german": {"setup_zone": {"columns": [30, 50], "rows": [1, 27]}, "facing": german_facing, "dug_in": dug_in,
                   "groups": groups(german)},
        "russian": {"setup_zone": {"columns": [30, 50], "rows": [1, 27]}, "facing": russian_facing,
                    "groups": groups(russian)},
        "fortifications": {"wire": list(wire), "mines": list(mines)},
        "victory": {"objectives": list(objectives), "initial_control": initial_control,
                    "results": results if results is not None else [
                        {"outcome": "russian", "side": "russian", "controls_at_least": 1}],
                    "default": default, "sudden_death": sudden_death},
    }


def make_game(tmp_path, german: list, russian: list, places: dict, seed: int = 1, options=(), **kw) -> Game:
    """A game of the scenario above with ``places`` {unit: hex} (every unit to be placed)."""
    p = Path(tmp_path) / "rf_test.json"
    p.write_text(json.dumps(scenario_data(german, russian, **kw)))
    st = load_setup(p, seed, {"units": places})
    return Game(st, seed, options=tuple(options))


def activate(g: Game, side: str, group: str, suit: str | None = None) -> Game:
    """Turn the card of ``group`` now (``suit`` overrides its colour), with no card left after it."""
    card = next(c for c in g.cards if c["side"] == side and c["group"] == group)
    card = dict(card)
    if suit is not None:
        card["suit"] = suit
        card["black"] = suit in ("clubs", "spades")
    g.deck = []
    g.card = card
    g.turned.append(card)
    g._decider = side
    g._activate()
    g._legal = None
    return g


def new_turn(g: Game) -> Game:
    """Advance the turn counter as a new turn would (per-turn marks reset by the number)."""
    g.turn_no += 1
    return g


def rolls(g: Game, start: int = 0) -> list[dict]:
    return [e for e in g.events[start:] if e["kind"] == "roll"]


def events(g: Game, kind: str, start: int = 0) -> list[dict]:
    return [e for e in g.events[start:] if e["kind"] == kind]


def unit(uid: str, type_: str, **kw) -> dict:
    return {"id": uid, "type": type_, **kw}


class FixedDice:
    """Replace a game's dice with a scripted sequence of faces (tests of a rule's arithmetic).
    The faces are consumed in order; running out raises AssertionError."""

    def __init__(self, g: Game, faces: list[int]):
        self.faces = list(faces)
        self.g = g
        g.dice._rng = self  # type: ignore[assignment]

    def randint(self, a: int, b: int) -> int:
        assert self.faces, "the test ran out of scripted dice"
        return self.faces.pop(0)

    def randrange(self, n: int) -> int:
        return 0

    def getstate(self):
        return tuple(self.faces)

    def setstate(self, st) -> None:
        self.faces = list(st)
