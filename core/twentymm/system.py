"""The 20 mm Russo-German rules (seed 003) as a :class:`core.rule_system.RuleSystem`.

Registered at import as ``"twentymm"`` (``core.rule_system.SYSTEM_MODULES`` names this module)."""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from core import rule_system
from core.rule_system import Mark, Piece, RuleSystem
from core.twentymm import tables
from core.twentymm.actions import action_from_json, action_to_json
from core.twentymm.blunders import KINDS as BLUNDER_KINDS
from core.twentymm.blunders import blunder_watch
from core.twentymm.game import Game
from core.twentymm.model import SIDES, Unit
from core.twentymm.players import canonical_settings, make_player
from core.twentymm.scenario import build_setup, load_setup, read_scenario, table_for

PLAYERS = {"random": "a uniform pick among the representative legal actions",
           "heuristic": "advances through cover towards the objectives, fires at the best expected effect, assaults when the dice favour it"}


@dataclass
class View:
    """What ``side`` may know of ``game``: its own units, and enemy units not hidden to every one
    of its units (``enemies``). Players read the game through it."""

    game: Game
    side: str

    @property
    def own(self) -> list[Unit]:
        return self.game.living(self.side)

    @property
    def enemies(self) -> list[Unit]:
        g = self.game
        mine = [u for u in g.living(self.side)]
        return [e for e in g.living() if e.side != self.side and g.on_table(e) and (not e.hidden or any(m.uid in e.known_by for m in mine))]


def new_game(setup, seed: int = 0, rules=None, options=None) -> Game:
    """RuleSystem.new_game."""
    return Game(setup, seed, rules, options)


def make_players(setup, ai, seed: int) -> dict:
    """``{side: player}`` for ``ai`` = ``{side: "random" | "heuristic[:k=v,...]"}`` (behaviour settings
    after the colon, :mod:`core.twentymm.ai_settings`), seeded from ``seed``. A side named by the
    bare player the scenario stores settings for (``ai_settings``) takes them. Raises ValueError
    naming an unknown player or a bad setting."""
    from core.behaviour_settings import with_stored

    spec = with_stored({side: ai.get(side, "heuristic") for side in SIDES}, getattr(setup, "ai_settings", None) or {})
    return {side: make_player(spec[side], random.Random(f"{seed}:{side}").randrange(2**31)) for side in SIDES}


def _settings_space(player: str) -> tuple[dict, dict]:
    """(search space, defaults) of the heuristic's behaviour settings
    (:mod:`core.twentymm.ai_settings`); KeyError for a player without settings."""
    if player != "heuristic":
        raise KeyError(player)
    from core.twentymm.ai_settings import SEARCH_SPACE, TwentyMMSettings

    return dict(SEARCH_SPACE), TwentyMMSettings().model_dump()


def view(game: Game, side: str) -> View:
    return View(game, side)


def _hex(game: Game, p) -> str:
    return game.table.hex_at(p).id


def result_fields(game: Game) -> dict:
    """Casualties per side (men, vehicles, guns lost), eliminated_at / fire_at per hex, the first
    combat's Game Turn, the reason the game ended."""
    cas = {}
    for side in SIDES:
        men = sum(u.men_start - u.men for u in game.units.values() if u.side == side and u.kind == "infantry")
        crew = sum(u.crew_start - u.crew for u in game.units.values() if u.side == side and u.kind == "gun")
        cas[side] = {"men": men + crew,
                     "vehicles": sum(1 for u in game.units.values() if u.side == side and u.kind == "vehicle" and not u.alive),
                     "guns": sum(1 for u in game.units.values() if u.side == side and u.kind == "gun" and not u.alive)}
    elim, fire = Counter(), Counter()
    last = {u.uid: u.pos for u in game.units.values()}
    for e in game.events:
        if e["kind"] == "eliminated":
            p = last.get(e["uid"])
            if p is not None:
                elim[_hex(game, p)] += 1
        elif e["kind"] in ("small_arms_fire", "at_shot", "he_shot") and e.get("target"):
            p = last.get(e["target"])
            if p is not None:
                fire[_hex(game, p)] += 1
        elif e["kind"] == "template":
            fire[_hex(game, e["centre"])] += 1
    first = next((e["turn"] for e in game.events if e["kind"] == "roll" and e["rule"] not in ("Ditching, Obstacles and Difficult Terrain",)), None)
    return {"casualties": cas, "eliminated_at": dict(elim), "fire_at": dict(fire), "first_contact": first, "reason": game.reason}


def turn_record(game: Game):
    """(the outcome the victory conditions give now, {side: objectives held})."""
    held = {s: sum(1 for o in game.setup.objectives if game.holder(o) == s) for s in SIDES}
    return (game.outcome or game._victory(), held)


def summarise_scenario(path, data) -> str:
    doc = read_scenario(path, data)
    setup = build_setup(path, doc, table_for(path, doc))
    n = Counter((u.side, u.kind) for u in setup.units)
    forces = "; ".join(f"{s}: " + ", ".join(f"{n[(s, k)]} {k}" for k in ("infantry", "gun", "vehicle", "battery") if n[(s, k)]) for s in SIDES)
    return (f"20 mm scenario {doc.title!r}: {doc.turns} turns, {doc.scale:g} in per hex on {doc.map.sections or 'the whole map'}"
            f"{', snow' if doc.snow else ''}; {forces}; {len(doc.objectives)} objectives, attacker {doc.attacker}")


def scenario_warnings(path) -> list:
    """Design warnings: vehicles starting in difficult terrain or in buildings, objectives off the
    table, a side without units."""
    doc = read_scenario(path)
    table = table_for(path, doc)
    setup = build_setup(path, doc, table)
    out = []
    for u in setup.units:
        if u.kind == "vehicle" and u.pos is not None:
            t = table.terrain_at(u.pos)
            if t.building:
                out.append(f"{u.uid} starts inside building {t.building}")
            elif t.going == "difficult" and u.vclass in ("wheeled", "horse"):
                out.append(f"{u.uid} (wheeled) starts in difficult terrain it cannot leave")
    for o in setup.objectives:
        if not table.on_table(o["point"]):
            out.append(f"objective {o['name']!r} is off the table")
    for s in SIDES:
        if not any(u.side == s for u in setup.units):
            out.append(f"the {s} side has no units")
    return out


def map_bearing(facing: float) -> float:
    """A 20 mm bearing (degrees, 0 = +x, 90 = +y on the table: :mod:`core.twentymm.model`) as a
    :class:`Piece` bearing (degrees clockwise from the top of the sheet). The table's inches are
    an isotropic scaling of the true-scale map with x along the columns and y down the rows, so
    the angle is the same: only its origin moves."""
    return round((float(facing) + 90.0) % 360.0, 3)


def _mu(table, p) -> tuple[float, float]:
    """Table inches -> map units (``TableMap.from_table``), rounded to 1e-4."""
    x, y = table.from_table(float(p[0]), float(p[1]))
    return (round(x, 4), round(y, 4))


def _ring(table, geom) -> tuple[tuple[float, float], ...]:
    """The exterior of a shapely polygon in inches as a ring of map units (last point dropped)."""
    pts = list(geom.exterior.coords)[:-1]
    return tuple(_mu(table, q) for q in pts)


BASE = 0.25   # reading for drawing: a figure's base is half an inch across


def reach(game: Game, u: Unit) -> float | None:
    """The longest range of ``u``'s weapons in inches (Infantry Small Arms Weapons; the Anti-Tank
    Guns table's 40 inches; a mortar's range), or None for a unit without weapons."""
    if u.is_mortar:
        return tables.MORTAR_RANGE[u.weapon]
    if u.is_atg or (u.kind == "vehicle" and game.at_weapons(u)):
        return 40.0
    arms = game.small_arms_of(u)
    ranges = [tables.small_arms_range(w) for w, n in arms.items() if n]
    return max(ranges) if ranges else None


def pieces(game: Game) -> list[Piece]:
    """Every unit on the table as a Piece: ``hexes`` the hex under it, ``facing`` the nearest
    hexside (1-6 clockwise from the top of the sheet); where it stands in map units (``point``,
    ``TableMap.from_table``), its ``bearing`` (hull or line facing) and ``turret`` (clockwise from
    the top), its ``footprint`` (a vehicle's 2 x 1 inch hull; a section's line of men on their
    half-inch bases; a gun's 1-inch square), its men as ``figures``, its fire ``arc`` (Firing:
    +-22.5 degrees, about the turret plus its free traverse for a turreted vehicle) and ``reach``
    (its longest range, in hexes)."""
    from shapely.geometry import Point

    t = game.table
    out = []
    for u in game.units.values():
        if not u.alive or u.kind == "battery" or u.pos is None:
            continue
        status = []
        if u.hidden:
            status.append("hidden")
        if u.embarked_in:
            status.append(f"aboard {u.embarked_in}")
        if u.under_he:
            status.append("UNDER HE")
        if u.immobilised:
            status.append("IMMOBILISED")
        if u.tow:
            status.append("limbered")
        label = u.vtype if u.kind == "vehicle" else (u.weapon if u.kind == "gun" else f"{u.men} men")
        brg = map_bearing(u.facing)
        face = round(brg / 60.0) % 6 + 1
        if u.kind == "vehicle":
            foot, figs = _ring(t, u.footprint()), ()
        elif u.kind == "gun":
            foot = _ring(t, Point(u.pos).buffer(0.5, cap_style="square"))
            figs = tuple(_mu(t, q) for q in u.figures())
        else:
            men = u.figures()
            foot = _ring(t, u.footprint().buffer(BASE, quad_segs=4)) if men and not u.embarked_in else ()
            figs = tuple(_mu(t, q) for q in men) if not u.embarked_in else ()
        turret = map_bearing(u.turret) if (u.kind == "vehicle" and u.turret is not None) else None
        arc = 22.5 + (game.free_traverse(u) if turret is not None else 0.0)
        r = reach(game, u)
        out.append(Piece(u.uid, u.side, (_hex(game, u.pos),), f"{u.uid} {label}",
                         {"infantry": "infantry", "gun": "gun", "vehicle": "afv"}[u.kind], tuple(status), face,
                         point=_mu(t, u.pos), bearing=brg, footprint=foot, arc=arc if r else None, figures=figs,
                         turret=turret, reach=None if r is None else round(r / t.scale, 4)))
    return out


def _circle(table, centre, radius: float) -> tuple[tuple[float, float], ...]:
    from shapely.geometry import Point

    return _ring(table, Point(centre).buffer(radius, quad_segs=12))


def marks(game: Game, events: list[dict]) -> list[Mark]:
    """What the events of one decision show on the map (RuleSystem.marks), in map units: each
    shot a ``fire`` line from the firer to its target (small arms, anti-tank, direct HE; ``hit``
    for AT and HE shots), an LMG/HMG's 2-inch ``corridor`` to its range (Infantry Small Arms
    Weapons), each ``template`` as its circle (2/3/4 inches across) with a ``fire`` line from an
    on-table mortar, a shell's ``scatter`` (aimed at -> landed), each ``move`` (from -> to)."""
    from shapely.geometry import LineString

    t = game.table
    out: list[Mark] = []
    for e in events:
        k = e.get("kind")
        side = e.get("side") or ""
        if k in ("small_arms_fire", "at_shot", "he_shot") and e.get("frm") and e.get("at"):
            a, b = e["frm"], e["at"]
            if k == "small_arms_fire" and e.get("corridor"):
                rng = tables.small_arms_range(e["corridor"])
                d = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
                end = (a[0] + (b[0] - a[0]) / d * rng, a[1] + (b[1] - a[1]) / d * rng)
                band = LineString([a, end]).buffer(1.0, cap_style="flat")
                out.append(Mark("corridor", _ring(t, band), side, f"{e['corridor'].upper()} corridor"))
            hit = e.get("hit") if k != "small_arms_fire" else bool(sum((e.get("killed") or {}).values()))
            word = {"small_arms_fire": "small arms", "at_shot": "AT", "he_shot": "HE"}[k]
            out.append(Mark("fire", (_mu(t, a), _mu(t, b)), side, f"{e.get('uid', '')} {word}", hit))
        elif k == "template" and e.get("centre"):
            c = e["centre"]
            if e.get("frm"):
                out.append(Mark("fire", (_mu(t, e["frm"]), _mu(t, c)), side, "indirect HE"))
            out.append(Mark("template", _circle(t, c, float(e.get("diameter", 2.0)) / 2), side,
                            f"{e.get('diameter', 0):g}-inch template"))
        elif k == "scatter" and e.get("aim") and e.get("land") and e.get("inches"):
            out.append(Mark("scatter", (_mu(t, e["aim"]), _mu(t, e["land"])), side, f"scatter {e['inches']}\""))
        elif k == "move" and e.get("frm") and e.get("to") and e["frm"] != e["to"]:
            out.append(Mark("move", (_mu(t, e["frm"]), _mu(t, e["to"])), side, e.get("uid", "")))
    return out


def describe_event(e: dict) -> str:
    k = e.get("kind")
    if k == "roll":
        return ""
    if k == "move":
        return f"{e['uid']} moves to ({e['to'][0]:.1f}, {e['to'][1]:.1f})."
    if k == "small_arms_fire":
        return f"{e['uid']} fires at {e['target']}: hits {e['hits']}, killed {e['killed']}."
    if k == "at_shot":
        return f"{e['uid']} fires at {e['target']}: {'hit' if e['hit'] else 'miss'} ({e['roll']}{e['mod']:+d} vs {e['need']})."
    if k == "penetration":
        return f"{e['target']}: {e['result']} ({e['total']} vs armour {e['av']})."
    if k == "eliminated":
        return f"{e['uid']} is out: {e['why']}."
    if k == "revealed":
        return f"{e['uid']} is revealed ({e['why']})."
    if k == "spotted":
        return f"{e['uid']} is spotted by {', '.join(e['by'])}."
    if k == "game_over":
        return f"Game over: {e['outcome']} ({e['reason']})."
    if k == "end_turn":
        return f"The {e['side']} turn ends."
    return f"{k.replace('_', ' ')} ({e.get('rule', '')})."


def los(game: Game, a: str, b: str) -> bool:
    """LOS between the centres of hexes ``a`` and ``b`` on the game's table (maps/table_map.py)."""
    t = game.table
    return not t.blocks_los(t.hex_centre(a), t.hex_centre(b))


# ------------------------------------------------------------------ the editor's tabletop tools
# (RuleSystem.table_scale / setup_pieces / place_piece / move_reach; docs/tabletop.md)
REACH_RAYS = 36   # reading for drawing: the reach polygon samples a straight move every 10 degrees


def _doc_of(path, data=None):
    """The checked scenario (``data``: its JSON, else read from ``path``); ScenarioError naming
    the file and problem for one that cannot be read."""
    from maps.document_file import DocumentError

    try:
        return read_scenario(path, data)
    except DocumentError as e:
        raise rule_system.ScenarioError(str(e)) from None


def table_scale(path, data=None) -> float | None:
    """RuleSystem.table_scale: the scenario's inches per hex across flats (``scale``); a Y map
    unit is half of it, an X map unit ``1/sqrt(3)`` of a Y unit (:class:`Piece`)."""
    if isinstance(data, dict) and isinstance(data.get("scale"), (int, float)) and data["scale"] > 0:
        return float(data["scale"])
    return float(_doc_of(path, data).scale)


def _setup_game(path, data=None) -> Game:
    """A game at the start of the scenario (``data``: its JSON as edited, else the file)."""
    from maps.document_file import DocumentError

    doc = _doc_of(path, data)
    try:
        setup = build_setup(path, doc, table_for(path, doc))
    except DocumentError as e:
        raise rule_system.ScenarioError(str(e)) from None
    return Game(setup, 0)


def setup_pieces(path, data=None) -> list[Piece]:
    """RuleSystem.setup_pieces: every unit of the scenario file ``path`` (``data``: its JSON as
    edited) as a :class:`Piece` where it sets up (map units, bearing, footprint, arc, reach),
    hidden units included (status "hidden"); units aboard or towed are not pieces of their own.
    Raises ScenarioError for a scenario that cannot be set up."""
    return pieces(_setup_game(path, data))


def _spec(doc_data: dict, uid: str) -> tuple[str, dict]:
    for side in SIDES:
        for s in doc_data.get(side) or []:
            if isinstance(s, dict) and s.get("id") == uid:
                return side, s
    raise rule_system.ScenarioError(f"Setup: no unit {uid!r} in the scenario")


def place_piece(path, data: dict, uid: str, point, bearing: float) -> dict:
    """RuleSystem.place_piece: a copy of the scenario JSON ``data`` (of the file ``path``) with
    unit ``uid`` set up at ``point`` (map units) facing ``bearing`` (degrees clockwise from the top
    of the sheet; stored as the rules' facing, 0 = +x) -- ``"at"`` in table inches, 2 decimals,
    replacing a ``"hex"``. ``data`` is not changed. Raises ScenarioError "RULE: reason" when the
    rules refuse the position: Setup (off the table; outside the side's ``setup_areas``; a hidden
    unit not in cover), Mortars and Other Indirect Fire Weapons (an off-table battery), Infantry
    Riding In or On Vehicles / Towing (a unit aboard or limbered moves with its vehicle), Vehicle
    Movement (a vehicle's hull in a building, reading; on another vehicle's hull, reading),
    Ditching, Obstacles and Difficult Terrain (a vehicle across tank traps; a wheeled vehicle in
    difficult terrain)."""
    import copy as _copy

    from shapely.geometry import Point as _Point

    from core.twentymm.scenario import setup_area

    Err = rule_system.ScenarioError
    doc = _doc_of(path, data)
    table = table_for(path, doc)
    side, spec = _spec(data, uid)
    if spec.get("type") == "battery":
        raise Err("Mortars and Other Indirect Fire Weapons: off-table artillery is not placed on the table")
    if spec.get("embarked_in"):
        raise Err(f"Infantry Riding In or On Vehicles: {uid} rides in {spec['embarked_in']}: place that vehicle")
    if spec.get("limbered_to"):
        raise Err(f"Towing, Limbering and Unlimbering: {uid} is limbered to {spec['limbered_to']}: place that vehicle")
    x, y = table.to_table(float(point[0]), float(point[1]))
    pos = (round(x, 2), round(y, 2))
    facing = round((float(bearing) - 90.0) % 360.0, 2)
    if not table.on_table(pos):
        raise Err(f"Setup: ({pos[0]:g}, {pos[1]:g}) inches is off the table ({', '.join(doc.map.sections or []) or 'the map'})")
    area = setup_area(doc, side)
    if area is not None and not area.covers(_Point(pos)):
        raise Err(f"Setup: ({pos[0]:g}, {pos[1]:g}) is outside the {side} set-up area the scenario gives")
    if spec.get("hidden") and table.terrain_at(pos).cover is None:
        raise Err(f"Setup: {uid} is hidden and only troops in cover may begin the game hidden")
    if spec.get("type") == "vehicle":
        probe = Unit(uid=uid, side=side, kind="vehicle", pos=pos, facing=facing, vtype=spec.get("vehicle"))
        hull = probe.footprint()
        if any(b.polygon.intersects(hull) for b in table.buildings):
            raise Err("Vehicle Movement: a vehicle cannot stand in a building (reading)")
        if any(t.geometry.intersects(hull) for t in table.tank_traps):
            raise Err("Ditching, Obstacles and Difficult Terrain: tank traps are impassable to all vehicles")
        if probe.vclass in ("wheeled", "horse") and table.difficult.intersects(hull):
            raise Err("Ditching, Obstacles and Difficult Terrain: lorries and other wheeled vehicles cannot enter difficult terrain")
        game = _setup_game(path, data)
        for v in game.units.values():
            if v.uid != uid and v.kind == "vehicle" and v.pos is not None and v.footprint().intersects(hull):
                raise Err(f"Vehicle Movement: the hull would stand on {v.uid}'s (reading: pieces do not overlap)")
    out = _copy.deepcopy(data)
    _, s = _spec(out, uid)
    s.pop("hex", None)
    s["at"] = [pos[0], pos[1]]
    s["facing"] = facing
    _setup_game(path, out)   # the whole scenario still sets up (ScenarioError naming the problem)
    return out


def move_reach(source, uid: str, data=None) -> tuple[tuple[float, float], ...]:
    """RuleSystem.move_reach: where unit ``uid`` can move this turn, a closed ring of map units
    (first point not repeated), or () when it cannot move (an anti-tank gun, an immobilised
    vehicle, a deployed mortar or HMG, a unit aboard, off-table artillery, already acted).
    ``source``: a :class:`Game` (the unit as it stands; a unit of the side not to play as if its
    turn came now) or a scenario path (``data``: its JSON as edited; the unit at its set-up).

    Sampled (reading for drawing): a straight move along each of :data:`REACH_RAYS` bearings,
    each the farthest point :meth:`Game.reach_point` finds by bisection with the move's own
    validation (allowance by going -- road, cross-country, difficult, snow; obstacles; buildings;
    tank traps; the table's edge); joined into a star-shaped ring about the unit. A path with
    bends may reach a little further round an obstacle; ``apply`` remains the judge."""
    game = source if isinstance(source, Game) else _setup_game(source, data)
    u = game.units.get(uid)
    if u is None:
        raise rule_system.ScenarioError(f"Setup: no unit {uid!r} in the scenario")
    if not u.alive or u.pos is None or u.kind == "battery" or not game.on_table(u):
        return ()
    saved = (game.side, u.acted, u.fired)
    if game.side != u.side and not game.is_terminal():
        game.side, u.acted, u.fired = u.side, False, False
    try:
        r = max(game.allowance_rates(u).values()) + 1.0
        pts = []
        for k in range(REACH_RAYS):
            a = 2 * math.pi * k / REACH_RAYS
            p = game.reach_point(u, (u.pos[0] + math.cos(a) * r, u.pos[1] + math.sin(a) * r))
            pts.append(p if p is not None else u.pos)
    finally:
        game.side, u.acted, u.fired = saved
    if all(game.table.distance(p, u.pos) < 0.3 for p in pts):
        return ()
    return tuple(_mu(game.table, p) for p in pts)


TERRAIN_MAPPING = {
    "scale": {"reads": "inches per hex across flats, stated by each scenario ('scale')", "provenance": "reconstructed",
              "rationale": "DESIGN.md 'One map, several scales'; docs/table-map.md"},
    "woods": {"reads": "hexes with 2+ tree symbols, merged: block LOS ('hill, wood or village'), soft cover, difficult terrain",
              "provenance": "reconstructed", "rationale": "seed: woods block LOS, trees soft cover; difficult is the table's reading 2"},
    "scattered_trees": {"reads": "1 tree symbol: soft cover, no block, cross-country", "provenance": "reconstructed",
                        "rationale": "'soft cover implies a bush, tree or similar'"},
    "buildings": {"reads": "building symbols: hard cover, block LOS, one room each, doors and windows on every wall; vehicles cannot enter",
                  "provenance": "rulebook", "rationale": "'Troops inside buildings count as behind hard cover'; rooms/windows not in the map (reading)"},
    "hills": {"reads": "level areas blocking LOS between lower figures", "provenance": "rulebook", "rationale": "'obscured by intervening terrain such as a hill'"},
    "roads": {"reads": "road going: infantry 4, vehicles their road speed", "provenance": "rulebook", "rationale": "Infantry / Vehicle Movement"},
    "marsh": {"reads": "difficult terrain: infantry 2, tanks/half-tracks dice for ditching, wheeled barred", "provenance": "rulebook",
              "rationale": "Obstacles and Difficult Terrain; marsh as difficult is the scenario's reading"},
    "gullies": {"reads": "difficult terrain and soft cover ('a fold in the ground')", "provenance": "reconstructed", "rationale": "Cover Saves"},
    "snow": {"reads": "per scenario: infantry cross-country as difficult; wheeled vehicles half road speed and 2 cross-country",
             "provenance": "rulebook", "rationale": "Infantry in Snow Terrain; Vehicles in Snow Terrain"},
    "obstacles": {"reads": "walls (hard), low stone walls (hard; vehicles only low-profile), hedges (soft), fences (none): one turn for infantry, ditching for tracked, barred to wheeled",
                  "provenance": "rulebook", "rationale": "Cover Saves; Ditching, Obstacles and Difficult Terrain"},
    "tank_traps": {"reads": "impassable to all vehicles except through holes blown by direct HE of 75 mm or more; an obstacle to infantry",
                   "provenance": "rulebook", "rationale": "Ditching, Obstacles and Difficult Terrain"},
}

# ------------------------------------------------------------------ the editor's scenario form and Watch
def scenario_schema() -> dict:
    """The JSON schema of a 20 mm scenario file (:class:`core.twentymm.scenario.Scenario`)."""
    from core.twentymm.scenario import Scenario

    return Scenario.model_json_schema()


def scenario_hints() -> dict:
    """What the editor's form needs beyond the schema: a unit's or objective's ``hex`` is one hex
    (set by a click; ``at`` stays inches on the table), a vehicle's ``vehicle`` and an anti-tank
    gun's ``gun`` a row of the Vehicle and Anti-Tank Gun Reference Table, ``embarked_in`` and
    ``limbered_to`` one of the side's unit ids, unit ids unique, a new
    unit a rifle section (Organisation)."""
    ref = tables.reference()
    hints: dict = {"hex_lists": [], "hexes": ["$.objectives[*].hex"], "choices": {}, "unique": [], "templates": {},
                   "labels": {"$.objectives": "name"}}
    for side in SIDES:
        hints["hexes"].append(f"$.{side}[*].hex")
        hints["choices"][f"$.{side}[*].vehicle"] = [[v, v] for v in sorted(ref["vehicles"])]
        hints["choices"][f"$.{side}[*].gun"] = [[g, g] for g in sorted(ref["guns"])]
        hints["unique"].append(f"$.{side}[*].id")
        hints.setdefault("refs", {}).update({f"$.{side}[*].embarked_in": f"$.{side}[*].id",
                                             f"$.{side}[*].limbered_to": f"$.{side}[*].id"})
        hints["templates"][f"$.{side}"] = {"id": f"{side[0].upper()}-1", "type": "section", "name": "section",
                                           "hex": "", "facing": 0, "men": 8, "lmg": 1}
        hints["labels"][f"$.{side}"] = "id"
    hints["templates"]["$.objectives"] = {"name": "objective", "hex": "", "radius": 4.0}
    return hints


def new_scenario(map_file: str, sections: list[str], title: str = "New scenario") -> dict:
    """A minimal valid 20 mm scenario on ``map_file`` and ``sections`` (the whole map when empty):
    4 inches a hex, 8 turns, a German rifle section at the west edge of the area and a Russian one
    at its east edge, one objective in its centre hex, the German side attacking. Raises ValueError
    for a section the map lacks."""
    from maps.hexgrid import hex_id
    from maps.mapfile import load_map

    hexmap = load_map(Path(map_file).resolve())
    cols = []
    for name in sections or []:
        try:
            cols.append(hexmap.section_columns(name))
        except KeyError:
            raise ValueError(f"the map has no section {name!r}") from None
    ext = hexmap.doc.extent
    c0 = min((a for a, _b in cols), default=ext.first_column)
    c1 = max((b for _a, b in cols), default=ext.last_column)
    row = (ext.first_row + ext.last_row) // 2
    unit = {"type": "section", "facing": 0, "men": 8, "lmg": 1}
    return {"rule_system": "twentymm", "format": "twentymm-scenario", "version": 1, "title": title,
            "map": {"file": str(map_file), **({"sections": list(sections)} if sections else {})},
            "scale": 4.0, "turns": 8, "first_side": "german", "attacker": "german",
            "objectives": [{"name": "the centre", "hex": hex_id((c0 + c1) // 2, row), "radius": 4.0}],
            "german": [{"id": "G-1", "name": "1. Gruppe", "hex": hex_id(c0 + 1, row), **unit, "facing": 90}],
            "russian": [{"id": "R-1", "name": "1st section", "hex": hex_id(c1 - 1, row), **unit, "facing": 270}]}


def status_lines(game: Game) -> list[str]:
    """The Watch's lines (Sequence of Play): whose side turn it is, and which of its units have
    moved, fired or acted this turn and which may still."""
    if game.is_terminal():
        return [f"game over: {game.outcome}" + (f" ({game.reason})" if game.reason else "")]
    side = game.side
    mine = [u for u in game.units.values() if u.side == side and u.alive and u.kind != "battery"]
    done = [u.uid for u in mine if u.acted or u.fired]
    left = [u.uid for u in mine if not (u.acted or u.fired)]
    return [f"Turn {game.game_turn} of {game.setup.turns}: the {side} side's turn",
            f"Acted ({len(done)} of {len(mine)}): " + (", ".join(done) or "none"),
            "Still to act: " + (", ".join(left) or "none")]


def vassal_plan(path: str):
    """What the VASSAL module of the scenario file holds (:mod:`core.twentymm.vassal_plan`)."""
    from core.twentymm.vassal_plan import plan_from_files

    return plan_from_files(path)


SYSTEM = RuleSystem(
    name="twentymm",
    title="20 mm Russo-German War c. 1943 (Mike Adams, after Battle!)",
    seed="seeds/003_ce611893870b1f40.txt",
    players=PLAYERS,
    rules=("standard",),
    load_setup=load_setup,
    new_game=new_game,
    make_players=make_players,
    player_settings=canonical_settings,
    settings_space=_settings_space,
    blunder_kinds=dict(BLUNDER_KINDS),
    blunder_watch=blunder_watch,
    view=view,
    action_to_json=action_to_json,
    action_from_json=action_from_json,
    result_fields=result_fields,
    turn_record=turn_record,
    summarise_scenario=summarise_scenario,
    scenario_warnings=scenario_warnings,
    pieces=pieces,
    marks=marks,
    status_lines=status_lines,
    scenario_schema=scenario_schema,
    scenario_hints=scenario_hints,
    new_scenario=new_scenario,
    vassal_plan=vassal_plan,
    describe_event=describe_event,
    los=los,
    terrain_mapping=TERRAIN_MAPPING,
    options={},
    table_scale=table_scale,
    setup_pieces=setup_pieces,
    place_piece=place_piece,
    move_reach=move_reach,
)

rule_system.register(SYSTEM, "core.twentymm.system")
