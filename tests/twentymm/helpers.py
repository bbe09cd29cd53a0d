"""Small tables and games for the 20 mm rules' tests (seed 003)."""

from __future__ import annotations

from maps.hexmap import HexMap
from maps.model import Extent, HexRecord, MapFile, Obstacle, Section, TankTraps
from maps.table_map import TableMap

from core.twentymm.game import Game
from core.twentymm.model import Setup, Unit

S = 4.0


def table(hexes=(), buildings=(), obstacles=(), tank_traps=(), roads=(), snow=False) -> TableMap:
    """An open table: columns 10-30, rows 1-20 at 4 inches per hex (x about 35-104, y 4-82)."""
    hm = HexMap(MapFile(name="open", extent=Extent(first_column=10, last_column=30, first_row=1, last_row=20),
                        sections=[Section(name="All", first_column=10, last_column=30)],
                        hexes=[HexRecord(**h) for h in hexes], buildings=list(buildings),
                        obstacles=list(obstacles), tank_traps=list(tank_traps), roads=[list(r) for r in roads]))
    return TableMap.from_map(hm, S, snow=snow)


OPEN = None


def open_table() -> TableMap:
    global OPEN
    if OPEN is None:
        OPEN = table()
    return OPEN


def inf(uid, side, pos, facing=0.0, men=8, **kw) -> Unit:
    return Unit(uid=uid, side=side, kind="infantry", pos=pos, facing=facing, men=men, **kw)


def veh(uid, side, pos, vtype="Pz IV", facing=0.0, **kw) -> Unit:
    return Unit(uid=uid, side=side, kind="vehicle", pos=pos, facing=facing, vtype=vtype, **kw)


def gun(uid, side, pos, weapon, facing=0.0, crew=4, **kw) -> Unit:
    return Unit(uid=uid, side=side, kind="gun", pos=pos, facing=facing, weapon=weapon, crew=crew, **kw)


def game(units, t=None, seed=0, first="german", turns=10, objectives=(), attacker="german") -> Game:
    return Game(Setup(table=t or open_table(), units=list(units), first_side=first, turns=turns,
                      objectives=list(objectives), attacker=attacker), seed)


class Fixed:
    """A stand-in for the dice's random generator that returns scripted values."""

    def __init__(self, values):
        import random
        self.values = list(values)
        self.rest = random.Random(0)   # after the script: ordinary seeded dice

    def randint(self, a, b):
        if not self.values:
            return self.rest.randint(a, b)
        v = self.values.pop(0)
        assert a <= v <= b
        return v

    def randrange(self, n):
        if not self.values:
            return self.rest.randrange(n)
        return self.randint(1, n) - 1


def script(g: Game, *values) -> Fixed:
    """Make the game's next dice the given values."""
    f = Fixed(values)
    g.dice._rng = f
    return f


def rolls(g: Game, since: int = 0) -> list[dict]:
    return [e for e in g.events[since:] if e["kind"] == "roll"]


def kinds(events) -> list[str]:
    return [e["kind"] for e in events]


def wall(id_, line, kind="wall"):
    return Obstacle(id=id_, kind=kind, line=[list(p) for p in line])


def traps(id_, line):
    return TankTraps(id=id_, line=[list(p) for p in line])
