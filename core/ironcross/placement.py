"""The designer's set-up (a placement file, format ``ironcross-placement``) and its checks.

A placement file is what the editor saves beside a scenario as ``NAME.placement.json`` and what
``ironcross playtest SCENARIO --setup FILE`` plays::

    {"format": "ironcross-placement", "version": 1,
     "units":        {"G-A-1": {"hex": "4307", "facing": null, "down": false}, ...},
     "hidden_hexes": {"4509": "russian", ...},                                  # 24.2
     "mines":        {"4410": {"side": "russian", "ap": 0, "at": 5}, ...},       # 19.1
     "ips":          {"4308": {"side": "german", "points": 1}, ...},             # 18.1
     "left_out":     ["R-D-9", ...]}                                            # 24.1

``down`` is the unit's state at the start (3.12: UP or DOWN as the owner wishes). ``ips`` places
the side's improved positions (its OOB's IP entries) where the designer wants them.

``left_out`` settles, once, the "less R PR9" / "... only" choices the rulebook leaves to chance
when several men match (24.1 "randomly determines"): every game that uses the set-up leaves out
these men (:func:`core.ironcross.scenario_setup.build_setup`).

One set of checks serves the editor's drops, its Validation dock, the CLI and the games
(:func:`check_fixed_setup`, built from :func:`unit_problem`, :func:`hidden_problem` and
:func:`mines_problem`): a unit the orders of battle lack (or that its squad leaves out), a hex that
is not a hex id or not on the map, a hex outside the unit's set-up zone, a unit that enters
instead of setting up, an AFV on terrain it may not enter or in a hidden hex (24.21), stacking
(8.61-8.63), the scenario's set-up caps inside sub-zones (24.1), hidden hexes (24.2), mines (19.1,
19.12, 19.14: in the mines' own area or the zone, within the allotment) and IPs (18.1: an IP of the
side's OOB whose zone holds the hex, one a hex, in a hex infantry can occupy).
Each problem is a :class:`maps.document_file.Problem` whose path points into the placement file
(``$.units.R-D-9.hex``).
"""

from __future__ import annotations

import os
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from maps.document_file import Problem, load_document

__all__ = ["PLACEMENT_FORMAT", "PLACEMENT_VERSION", "PlacementFile", "load_placement", "placement_from_data",
           "placement_json", "check_fixed_setup", "unit_problem", "hidden_problem", "mines_problem", "unit_zone",
           "side_zone", "mine_allotment", "cap_problem", "ip_problem", "ip_assignment", "ip_allotment"]

PLACEMENT_FORMAT = "ironcross-placement"
PLACEMENT_VERSION = 1


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class PlacedUnitSpec(_Strict):
    """Where one unit sets up: its hex, its facing (a hexside 1-6; 8.7: ATGs, MGs and AFVs) and
    whether it is DOWN."""

    hex: str
    facing: int | None = Field(default=None, ge=1, le=6)
    down: bool = False


class MineSpec(_Strict):
    """One side's mine factors in one hex (19.1)."""

    side: Literal["german", "russian"]
    ap: int = Field(default=0, ge=0, le=999)
    at: int = Field(default=0, ge=0, le=999)


class IPSpec(_Strict):
    """One improved position of a side (18.1): its points."""

    side: Literal["german", "russian"]
    points: int = Field(ge=1, le=9)


class PlacementFile(_Strict):
    """A whole placement file (see the module docstring)."""

    format: Literal["ironcross-placement"] = PLACEMENT_FORMAT
    version: int = PLACEMENT_VERSION
    units: dict[str, PlacedUnitSpec] = Field(default_factory=dict)
    hidden_hexes: dict[str, Literal["german", "russian"]] = Field(default_factory=dict)
    mines: dict[str, MineSpec] = Field(default_factory=dict)
    ips: dict[str, IPSpec] = Field(default_factory=dict)
    left_out: list[str] = Field(default_factory=list)


def _to_fixed(doc: PlacementFile) -> dict:
    return {"units": {k: {"hex": v.hex, "facing": v.facing, "down": v.down} for k, v in doc.units.items()},
            "hidden_hexes": dict(doc.hidden_hexes),
            "mines": {k: {"side": m.side, "ap": m.ap, "at": m.at} for k, m in doc.mines.items()},
            "ips": {k: {"side": i.side, "points": i.points} for k, i in doc.ips.items()},
            "left_out": list(doc.left_out)}


def placement_from_data(data: Any, path: str | os.PathLike[str] = "<placement>") -> dict:
    """Validate parsed JSON as a placement file; returns the fixed set-up dict
    (``{"units", "hidden_hexes", "mines", "ips", "left_out"}``). Raises :class:`DocumentError` naming
    ``path``, the JSON path and the problem."""
    return _to_fixed(load_document(path, PlacementFile, format_name=PLACEMENT_FORMAT, version=PLACEMENT_VERSION,
                                   data=data))


def load_placement(path: str | os.PathLike[str]) -> dict:
    """Load a placement file (structure only; :func:`check_fixed_setup` checks it against a
    scenario). Raises :class:`DocumentError` naming the file, the place and the problem."""
    return _to_fixed(load_document(path, PlacementFile, format_name=PLACEMENT_FORMAT, version=PLACEMENT_VERSION))


def placement_json(fixed: dict) -> dict:
    """The JSON data of a placement file for a fixed set-up dict (sorted, as the editor saves it)."""
    return {"format": PLACEMENT_FORMAT, "version": PLACEMENT_VERSION,
            "units": {k: {"hex": v["hex"], "facing": v.get("facing"), "down": bool(v.get("down"))}
                      for k, v in sorted((fixed.get("units") or {}).items())},
            "hidden_hexes": dict(sorted((fixed.get("hidden_hexes") or {}).items())),
            "mines": {k: {"side": m["side"], "ap": int(m.get("ap", 0)), "at": int(m.get("at", 0))}
                      for k, m in sorted((fixed.get("mines") or {}).items())},
            **({"ips": {k: {"side": i["side"], "points": int(i["points"])}
                        for k, i in sorted((fixed.get("ips") or {}).items())}} if fixed.get("ips") else {}),
            "left_out": sorted(fixed.get("left_out") or [])}


# ---------------------------------------------------------------------------------- checks
def _hex_problem(setup, hex_id: str) -> str | None:
    """Why ``hex_id`` is no hex of the setup's map (malformed, off the map), or None."""
    from maps import hexgrid

    try:
        h = hexgrid.parse_hex_id(hex_id)
    except hexgrid.HexIdError as e:
        return str(e)
    hm = setup.hexmap
    if not hm.contains(h):
        return (f"hex {hex_id} is not on map {hm.name!r} (columns {hm.first_column:02d}-{hm.last_column:02d}, "
                f"rows {hm.first_row:02d}-{hm.last_row:02d})")
    return None


def _left_out_reason(setup, uid: str) -> str | None:
    for c in getattr(setup, "random_choices", []):
        if uid in c["out"]:
            return f"{uid} is left out of {c['side']} Squad {c['squad']} ({c['what']}, 24.1)"
    return None


def unit_zone(setup, uid: str) -> tuple[frozenset[str], str] | None:
    """(set-up zone, group name) of a unit that sets up, or None (it enters, or is unknown)."""
    for d in setup.deployments:
        if uid in d.units:
            return frozenset(d.zone), d.group
    return None


def unit_problem(setup, terrain, uid: str, hex_id: str, here: list, hidden: dict[str, str],
                 where: dict[str, str] | None = None) -> str | None:
    """Why unit ``uid`` may not set up in ``hex_id`` beside the engine units ``here`` (already in
    that hex), given the designer's hidden hexes (hex -> side); None when it may. Checks the unit
    exists (24.1), the hex is on the map, the unit sets up (not enters) and the hex is in its
    zone, AFV terrain (chart) and 24.21, stacking (8.61-8.63), and -- given ``where`` (unit id
    -> hex of the other units set up) -- the scenario's set-up caps (24.1, :func:`cap_problem`)."""
    from core.ironcross.state import stacking_problem

    u = setup.units.get(uid)
    if u is None:
        return _left_out_reason(setup, uid) or f"no unit {uid} in the scenario's orders of battle"
    bad = _hex_problem(setup, hex_id)
    if bad is not None:
        return bad
    z = unit_zone(setup, uid)
    if z is None:
        ent = next((e for e in setup.entries if uid in e.units), None)
        when = f" on turn {ent.turn}" if ent is not None else ""
        return f"{u.name or uid} enters the map{when}; it is not set up"
    if hex_id not in z[0]:
        return f"{hex_id} is outside the set-up zone of {u.name or uid}" + (f" ({z[1]})" if z[1] else "")
    if u.is_afv:
        if terrain.entry_cost(hex_id, "afv", False) is None:
            return (f"{u.name or uid} cannot enter {hex_id} "
                    f"({terrain.governing_row(hex_id)}: prohibited to AFVs on the terrain chart)")
        if hidden.get(hex_id) == u.side:
            return f"24.21: AFVs may not set up in a hidden hex ({hex_id})"
    if where is not None:
        why = cap_problem(setup, uid, hex_id, where)
        if why is not None:
            return why
    return stacking_problem([x for x in here if x.id != uid] + [u])


def cap_problem(setup, uid: str, hex_id: str, where) -> str | None:
    """Why setting unit ``uid`` up in ``hex_id`` would exceed one of the scenario's set-up caps
    inside a sub-zone (``setup.caps``, 24.1 unit deployment restrictions), given ``where``: unit
    id -> hex of the other units already set up; None when no cap is exceeded."""
    for cap in setup.caps:
        if hex_id not in cap.hexes:
            continue
        for lim in cap.limits:
            if uid not in lim.units:
                continue
            there = sorted(x for x in lim.units if x != uid and where.get(x) in cap.hexes)
            if len(there) >= lim.count:
                return (f"24.1 scenario set-up cap: {cap.text} ({len(there)} {lim.what}"
                        f"{'' if len(there) == 1 else 's'} already there: {', '.join(there) or 'none allowed'})")
    return None


def side_zone(setup, side: str) -> frozenset[str]:
    """Every hex of the side's set-up zones."""
    return frozenset(h for d in setup.deployments if d.side == side for h in d.zone)


def hidden_problem(setup, side: str, hex_id: str, hidden: dict[str, str], units_here: list) -> str | None:
    """Why ``hex_id`` may not become a hidden hex of ``side`` (24.2) given the hidden hexes
    already chosen (hex -> side, without this one) and the engine units set up in it."""
    allowed = setup.hidden_hexes.get(side, 0)
    if allowed <= 0:
        return f"the {side} side has no hidden hexes in this scenario"
    bad = _hex_problem(setup, hex_id)
    if bad is not None:
        return bad
    if hidden.get(hex_id) is not None:
        return f"{hex_id} is already a hidden hex"
    mine = sum(1 for s in hidden.values() if s == side)
    if mine >= allowed:
        return f"24.2: the {side} side has only {allowed} hidden hexes"
    if hex_id not in side_zone(setup, side):
        return f"{hex_id} is outside the {side} set-up zone"
    if any(u.side != side for u in units_here):
        return f"{hex_id} holds enemy units"
    if any(u.is_afv for u in units_here):
        return f"24.21: AFVs may not be hidden (an AFV is set up in {hex_id})"
    return None


def mine_allotment(setup, side: str) -> tuple[int, int, frozenset[str]]:
    """(AP factors, AT factors, hexes they may go in) the side's set-up groups bring (19.1)."""
    als = [a for a in setup.allotments if a.side == side]
    return (sum(a.ap_mines for a in als), sum(a.at_mines for a in als),
            frozenset(h for a in als if a.ap_mines or a.at_mines for h in a.zone))


def _fits(demands: dict[str, int], supplies: list[tuple[frozenset[str], int]]) -> bool:
    """Whether every hex's demand (hex -> amount) can be served by the supplies ((hexes it may
    serve, amount), each split freely among its hexes): a small max flow (augmenting paths)."""
    need = {h: n for h, n in demands.items() if n > 0}
    left = [c for _z, c in supplies]
    flow: dict[tuple[str, int], int] = {}

    def push(h: str, seen: set[int]) -> bool:   # one unit from hex h, rerouting earlier units if need be
        for i, (zone, _c) in enumerate(supplies):
            if h not in zone or i in seen:
                continue
            seen.add(i)
            if left[i] > 0:
                left[i] -= 1
                flow[(h, i)] = flow.get((h, i), 0) + 1
                return True
            for (h2, j), f in list(flow.items()):
                if j == i and f > 0 and h2 != h and push(h2, seen):
                    flow[(h2, i)] -= 1
                    flow[(h, i)] = flow.get((h, i), 0) + 1
                    return True
        return False

    for h in sorted(need):
        for _ in range(need[h]):
            if not push(h, set()):
                return False
    return True


def mines_problem(setup, terrain, side: str, hex_id: str, ap: int, at: int, mines: dict[str, dict]) -> str | None:
    """Why ``side`` may not have ``ap`` AP and ``at`` AT mine factors in ``hex_id`` beside the
    other mines ``mines`` (hex -> {"side", "ap", "at"}; this hex's entry is replaced), or None
    (19.1 allotment and zone, 19.12 factors a hex, 19.14 no mines in a building hex)."""
    if ap < 0 or at < 0:
        return "mine factors cannot be negative"
    if ap == 0 and at == 0:
        return None
    ap_max, at_max, zone = mine_allotment(setup, side)
    if ap_max == 0 and at_max == 0:
        return f"the {side} side has no mine factors to set up"
    bad = _hex_problem(setup, hex_id)
    if bad is not None:
        return bad
    als = [a for a in setup.allotments if a.side == side]
    for kind, n in (("AP", ap), ("AT", at)):   # 19.1 in the mines' own area, else the group's zone
        areas = [a.zone for a in als if (a.ap_mines if kind == "AP" else a.at_mines)]
        if n and areas and not any(hex_id in z for z in areas):
            return f"{hex_id} is outside the {side} area of the {kind} mines"
    if hex_id not in zone:
        return f"{hex_id} is outside the {side} set-up zone of the mines"
    if terrain.is_building(hex_id):
        return f"19.14: mines may not be in a building hex ({hex_id})"
    other = mines.get(hex_id)
    if other is not None and other["side"] != side:
        return f"{hex_id} already holds the other side's mines"
    if ap > 4:
        return "19.12: at most 4 AP mine factors in a hex"
    if at and not 2 <= at <= 7:
        return "19.12: 2 to 7 AT mine factors in a hex"
    used_ap = sum(m["ap"] for h, m in mines.items() if m["side"] == side and h != hex_id) + ap
    used_at = sum(m["at"] for h, m in mines.items() if m["side"] == side and h != hex_id) + at
    if used_ap > ap_max:
        return f"19.1: {used_ap} AP factors placed, the {side} side has {ap_max}"
    if used_at > at_max:
        return f"19.1: {used_at} AT factors placed, the {side} side has {at_max}"
    for kind in ("ap", "at"):   # several areas: each area's factors stay in it (19.1)
        sup = [(a.zone, a.ap_mines if kind == "ap" else a.at_mines) for a in als]
        if sum(1 for _z, c in sup if c) > 1:
            dem = {h: m[kind] for h, m in mines.items() if m["side"] == side and h != hex_id}
            dem[hex_id] = ap if kind == "ap" else at
            if not _fits(dem, sup):
                return (f"19.1: the {side} {kind.upper()} factors in {hex_id} exceed what its mine areas allot "
                        "(each area's factors stay in it)")
    return None


def ip_allotment(setup, side: str) -> list[tuple[int, frozenset[str], str]]:
    """The side's IP markers to place at set-up (18.1): (points, hexes it may go in, whose)."""
    return [(p, frozenset(a.zone), a.group) for a in setup.allotments if a.side == side for p in a.ips]


def ip_assignment(setup, ips: dict[str, dict]) -> tuple[dict[str, tuple[int, int]], list[str]]:
    """Match placed IPs (hex -> {"side", "points"}) to the IP markers of the set-up's allotments
    (18.1): returns ({hex: (allotment index, position in its ``ips``)}, [hexes no marker is left
    for]). A marker takes a hex of its side and points inside its zone; a bipartite matching, so
    an IP "on any building hex" and a plain one of the same points are told apart."""
    slots = [(ai, k) for ai, a in enumerate(setup.allotments) for k in range(len(a.ips))]
    owner: dict[tuple[int, int], str] = {}

    def ok(h: str, slot: tuple[int, int]) -> bool:
        a = setup.allotments[slot[0]]
        i = ips[h]
        return a.side == i.get("side") and a.ips[slot[1]] == int(i.get("points", 0)) and h in a.zone

    def take(h: str, seen: set) -> bool:
        for slot in slots:
            if slot in seen or not ok(h, slot):
                continue
            seen.add(slot)
            if slot not in owner or take(owner[slot], seen):
                owner[slot] = h
                return True
        return False

    left = [h for h in sorted(ips) if not take(h, set())]
    return {h: slot for slot, h in owner.items()}, left


def ip_problem(setup, terrain, side: str, hex_id: str, points: int, ips: dict[str, dict]) -> str | None:
    """Why ``side`` may not have an IP of ``points`` in ``hex_id`` beside the other IPs ``ips``
    (hex -> {"side", "points"}; this hex's entry is replaced), or None: 18.1 the side has such an
    IP in its OOB and one is left whose zone holds the hex, one IP a hex, a hex infantry and CW
    units can occupy."""
    mine = [(p, z) for p, z, _g in ip_allotment(setup, side)]
    if not mine:
        return f"the {side} side has no IPs in this scenario"
    if not any(p == points for p, _z in mine):
        have = sorted({p for p, _z in mine})
        return f"the {side} side has no IP{points} (its IPs: {', '.join(f'IP{p}' for p in have)})"
    bad = _hex_problem(setup, hex_id)
    if bad is not None:
        return bad
    other = ips.get(hex_id)
    if other is not None and other.get("side") != side:
        return f"{hex_id} already holds an IP of the other side (one IP marker a hex)"
    if not any(p == points and hex_id in z for p, z in mine):
        return f"{hex_id} is outside the set-up zone of every {side} IP{points} (18.1)"
    if terrain.entry_cost(hex_id, "infantry", False) is None:
        return f"18.1: an IP goes in a hex infantry and CW units can occupy ({hex_id}: {terrain.governing_row(hex_id)})"
    trial = {h: i for h, i in ips.items() if h != hex_id}
    trial[hex_id] = {"side": side, "points": points}
    _got, left = ip_assignment(setup, trial)
    if hex_id in left or left:
        n = sum(1 for p, _z in mine if p == points)
        return f"18.1: the {side} side has {n} IP{points}, every one already placed where it may go"
    return None


def check_fixed_setup(setup, fixed: dict | None) -> list[Problem]:
    """Every problem of a designer's set-up ``fixed`` on ``setup`` (a :class:`GameSetup` built
    with ``left_out=fixed["left_out"]``); [] when the games can start from it exactly as placed.

    Paths point into the placement file: ``$.units.<id>``, ``$.units.<id>.hex``,
    ``$.hidden_hexes.<hex>``, ``$.mines.<hex>``, ``$.ips.<hex>``, ``$.left_out[i]``."""
    from core.ironcross.hex_terrain import HexTerrain

    if not fixed:
        return []
    out: list[Problem] = []
    terrain = HexTerrain(setup.hexmap, setup.chart)
    units = fixed.get("units") or {}
    hidden = {str(h): str(s) for h, s in (fixed.get("hidden_hexes") or {}).items()}
    by_hex: dict[str, list] = {}
    for uid in sorted(units):
        p = units[uid]
        hid = str(p.get("hex"))
        u = setup.units.get(uid)
        why = unit_problem(setup, terrain, uid, hid, [], hidden)   # stacking is checked per hex below
        if why is not None:
            out.append(Problem(f"$.units.{uid}" + ("" if u is None else ".hex"), why))
            continue
        if p.get("facing") is not None and not u.has_facing:
            out.append(Problem(f"$.units.{uid}.facing", f"{u.name or uid} has no facing (8.7: only ATGs, MGs and AFVs)"))
        by_hex.setdefault(hid, []).append(u)
    from core.ironcross.state import stacking_problem

    for hid in sorted(by_hex):
        why = stacking_problem(by_hex[hid])
        if why is not None:
            out.append(Problem(f"$.units.{by_hex[hid][-1].id}.hex", f"{hid}: {why}"))
    # 24.1 set-up caps inside sub-zones: the units placed after a cap is full (in id order) are over it
    where: dict[str, str] = {}
    for uid in sorted(u.id for us in by_hex.values() for u in us):
        hid = str(units[uid].get("hex"))
        why = cap_problem(setup, uid, hid, where)
        if why is not None:
            out.append(Problem(f"$.units.{uid}.hex", why))
        else:
            where[uid] = hid
    chosen: dict[str, str] = {}
    for hid in sorted(hidden):
        side = hidden[hid]
        if side not in ("german", "russian"):
            out.append(Problem(f"$.hidden_hexes.{hid}", f"unknown side {side!r} (german or russian)"))
            continue
        why = hidden_problem(setup, side, hid, chosen, by_hex.get(hid, []))
        if why is not None:
            out.append(Problem(f"$.hidden_hexes.{hid}", why))
            continue
        chosen[hid] = side
    mines = {str(h): {"side": m.get("side"), "ap": int(m.get("ap", 0)), "at": int(m.get("at", 0))}
             for h, m in (fixed.get("mines") or {}).items()}
    placed: dict[str, dict] = {}
    for hid in sorted(mines):
        m = mines[hid]
        if m["side"] not in ("german", "russian"):
            out.append(Problem(f"$.mines.{hid}.side", f"unknown side {m['side']!r} (german or russian)"))
            continue
        why = mines_problem(setup, terrain, m["side"], hid, m["ap"], m["at"], placed)
        if why is not None:
            out.append(Problem(f"$.mines.{hid}", why))
            continue
        placed[hid] = m
    out.extend(_ip_problems(setup, terrain, fixed.get("ips") or {}))
    choices = getattr(setup, "random_choices", [])
    for i, uid in enumerate(fixed.get("left_out") or []):
        c = next((c for c in choices if uid in c["among"]), None)
        if c is None:
            out.append(Problem(f"$.left_out[{i}]", f"{uid} is not one of the men a 'less' or 'only' entry chooses "
                                                   "among (24.1)"))
        elif uid not in c["out"]:
            n = len(c["out"])
            out.append(Problem(f"$.left_out[{i}]", f"{uid} cannot be left out too: {c['side']} Squad {c['squad']} "
                                                   f"({c['what']}) leaves out {n} of {', '.join(c['among'])}"))
    return out


def _ip_problems(setup, terrain, ips: dict) -> list[Problem]:
    """The placed IPs' problems (18.1): side, hex, terrain, and an IP of the side's OOB left for
    each (:func:`ip_assignment`)."""
    out: list[Problem] = []
    good: dict[str, dict] = {}
    for hid in sorted(ips):
        i = ips[hid]
        side, pts = i.get("side"), int(i.get("points", 0))
        if side not in ("german", "russian"):
            out.append(Problem(f"$.ips.{hid}.side", f"unknown side {side!r} (german or russian)"))
            continue
        bad = _hex_problem(setup, hid)
        if bad is None and terrain.entry_cost(hid, "infantry", False) is None:
            bad = f"18.1: an IP goes in a hex infantry and CW units can occupy ({hid}: {terrain.governing_row(hid)})"
        if bad is not None:
            out.append(Problem(f"$.ips.{hid}", bad))
            continue
        good[hid] = {"side": side, "points": pts}
    _got, left = ip_assignment(setup, good)
    for hid in left:
        side, pts = good[hid]["side"], good[hid]["points"]
        mine = [(p, z) for p, z, _g in ip_allotment(setup, side)]
        if not any(p == pts for p, _z in mine):
            why = f"the {side} side has no IP{pts} in this scenario"
        elif not any(p == pts and hid in z for p, z in mine):
            why = f"{hid} is outside the set-up zone of every {side} IP{pts} (18.1)"
        else:
            why = f"18.1: more {side} IP{pts} placed than the side has ({sum(1 for p, _z in mine if p == pts)})"
        out.append(Problem(f"$.ips.{hid}", why))
    return out
