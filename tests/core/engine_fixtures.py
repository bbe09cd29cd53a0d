"""Small hand-made games for engine tests: a tiny map, a few units, scripted dice."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.dice import Dice, Roll
from core.ironcross.game import Game
from core.ironcross.setup import Deployment, GameSetup
from core.ironcross.state import Unit, UnitKind
from maps.terrain_chart import load_terrain_chart
from tests.mapbuilder import make_map


@dataclass
class ScriptedDice(Dice):
    """Dice that return scripted values first (one list per roll), then fall back to the seed."""

    script: list[tuple[int, ...]] = field(default_factory=list)

    def roll(self, n, purpose, rule):
        if self.script:
            dice = tuple(self.script.pop(0))
            assert len(dice) == n, f"scripted {dice} for a roll of {n} dice ({purpose}, {rule})"
            r = Roll(len(self.rolls), dice, purpose, rule)
            self.rolls.append(r)
            if self.on_roll:
                self.on_roll(r)
            return r
        return super().roll(n, purpose, rule)


def inf(uid, side, squad="A", weapon="R", ap=4, rng=7, assault=3, pr=8, commander=False):
    kind = UnitKind.COMMANDER if commander else UnitKind.INFANTRY
    return Unit(id=uid, side=side, kind=kind, weapon=weapon, squad=None if commander else squad, ap=ap, ap_range=rng,
                assault=assault, pr=pr)


def afv(uid, side, weapon="T34a", ap=6, at=12, ma=10, frontal=4, flank=2, overrun=7, pr=8):
    return Unit(id=uid, side=side, kind=UnitKind.AFV, weapon=weapon, ap=ap, ap_range=10, at=at, ma=ma,
                frontal=frontal, flank=flank, overrun=overrun, pr=pr)


def cw(uid, side, weapon="MMG", ap=8, rng=12, at=0, crew=3, ma=3, pr=8):
    return Unit(id=uid, side=side, kind=UnitKind.CW, weapon=weapon, ap=ap, ap_range=rng, at=at, crew_max=crew,
                crew=crew, ma=ma, pr=pr)


def small_game(units, placements, *, hexmap=None, seed=1, first_side="german", length=3, script=(),
               entries=(), grenades=None, victory=None):
    """A game already past set-up: ``placements`` maps unit id -> hex (or (hex, down, facing))."""
    m = hexmap or make_map(cols=(10, 20), rows=(1, 12))
    us = {u.id: u for u in units}
    deps = []
    for uid, where in placements.items():
        hx = where if isinstance(where, str) else where[0]
        deps.append(Deployment(us[uid].side, [uid], frozenset([hx])))
    setup = GameSetup(hexmap=m, chart=load_terrain_chart(), units=us, game_length=length, first_side=first_side,
                      setup_order=("german", "russian"), deployments=deps, entries=list(entries),
                      grenades=grenades or {"german": 2, "russian": 2}, victory=victory)
    g = Game(setup, seed)
    g.dice = ScriptedDice(seed=seed, on_roll=g._log_roll, script=list(script))
    while g.state.phase.value == "setup":
        uid = g._setup_queue[0][2][0]
        where = placements[uid]
        hx, down, facing = (where, False, None) if isinstance(where, str) else where
        if us[uid].has_facing and facing is None:
            facing = 1
        from core.ironcross.actions import Place
        g.apply(Place(uid, hx, down, facing))
    return g
