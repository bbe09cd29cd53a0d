"""Iron Cross's what-if changes (:mod:`core.whatif`): the change grammar, each change as an edit of
the scenario's JSON (the editor applies the same edit as one undoable step), the changes that
apply to a scenario by default, and the validation of a changed scenario file.

Grammar (one change: ``TARGET OP VALUE``; ``OP`` is ``=``, ``+=`` or ``-=``; SIDE is ``german`` or
``russian``; ``[N]`` picks the N-th group (from 1) or the N-th victory condition, absent = every
one that has the thing)::

    turns=8 | turns+=1 | turns-=2          game length in Game Turns (24.1)
    SIDE.oob+=UNIT | SIDE.oob-=UNIT        one unit of a kind, from the scenario's roster (24.1):
                                           UNIT a squad member's weapon (R, LMG, MP, FT; "@B" names
                                           the squad: LMG@B), a crew weapon type (MMG, 45AT, Mor) or
                                           an AFV type (IIIe, T34b)
    SIDE.ammo+=N | SIDE.ammo-=N            every ammo number of the side (22.2; no effect under the
                                           basic rules, 22.0, so never a default)
    SIDE.entry[G]+=N | SIDE.entry-=N       entry turn of the side's entering groups later/earlier
    SIDE.grenades=N | +=N | -=N            grenades (15.2)
    SIDE.ips+=N | SIDE.ips-=N              improved positions of the side's first IP entry (16.0)
    SIDE.mines.AP+=N | SIDE.mines.AT-=N    mine factors (19.0)
    SIDE.setup[G]+=1 | SIDE.setup-=1       set-up zone one hex ring wider / narrower
    SIDE.entry_edge[G]+=1 | -=1            entry hexes one hex wider / narrower along the map edge
    victory.count[I]+=1 | -=1              "at least N units" of the victory conditions
    victory.band+=1 | -=1                  every boundary of the victory-point schedule up / down
    SIDE.hidden=N | +=N | -=N              hidden hexes (24.2)

A region one ring **wider** is ``within 1 of`` it; one ring **narrower** is the region less its
hexes next to the ring just outside it. An entry edge stays on the map edge: wider = the edge
hexes within 1 of it, narrower = less its edge hexes next to edge hexes outside it.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any, Iterator

from core.whatif import Change, check_with, makeable, split_change, turns_change, whole_number

__all__ = ["KINDS", "parse_change", "apply_change", "default_changes", "check_file", "GRAMMAR"]

SIDES = ("german", "russian")

#: kind -> what it changes
KINDS: dict[str, str] = {
    "turns": "game length +-1 and +-2 Game Turns (24.1)",
    "oob": "one unit of a kind added to or removed from a side's OOB, from the scenario's roster (24.1)",
    "ammo": "every ammo number of a side (22.2; basic rules: no depletion, 22.0)",
    "entry": "a group's entry turn earlier or later (24.1)",
    "grenades": "a side's grenades (15.2)",
    "ips": "a side's improved positions (16.0)",
    "mines": "a side's AP or AT mine factors (19.0)",
    "setup": "a set-up zone one hex ring wider or narrower",
    "entry_edge": "an entry edge one hex wider or narrower",
    "victory": "a victory threshold: N units or the VP band +-1",
    "hidden": "a side's hidden hexes (24.2)",
}

#: the kinds tried by default (ammo only when asked: under the basic rules it changes nothing)
DEFAULT_KINDS = tuple(k for k in KINDS if k != "ammo")

GRAMMAR = __doc__.split("Grammar", 1)[1].split("A region one ring", 1)[0]

_INFANTRY = ("R", "LMG", "MP", "FT")


def parse_change(text: str, data: dict | None = None, path: str | None = None) -> Change:
    """The :class:`core.whatif.Change` that ``text`` names (see the module's grammar; ``data`` and
    ``path``, the scenario, are part of the boundary's signature: Iron Cross's grammar does not
    need them to parse, :func:`apply_change` reads them). Raises
    ValueError naming the text and the problem (unknown target, a value that is no number)."""
    parts, index, op, value = split_change(text, "'turns=8' or 'russian.oob-=LMG'")
    target = ".".join(parts)
    where = f"[{index}]" if index else ""
    if parts == ["turns"]:
        return turns_change(text, op, value, "Game Turns")
    if parts[0] == "victory" and len(parts) == 2 and parts[1] in ("count", "band") and op != "=":
        whole_number(value, text)
        what = "units needed by the victory conditions" if parts[1] == "count" else "victory-point band boundaries"
        return Change(text.strip(), "victory", f"victory.{parts[1]}{where}", f"{what}{where} {op[0]}{value}")
    if parts[0] not in SIDES or len(parts) < 2:
        raise ValueError(f"{text!r}: unknown target {target!r}; targets: turns, victory.count, victory.band, "
                         f"SIDE.oob, SIDE.ammo, SIDE.entry, SIDE.grenades, SIDE.ips, SIDE.mines.AP|AT, SIDE.setup, "
                         f"SIDE.entry_edge, SIDE.hidden (SIDE german or russian)")
    side, what = parts[0], ".".join(parts[1:])
    if what == "oob":
        if op == "=":
            raise ValueError(f"{text!r}: a unit is added (oob+=UNIT) or removed (oob-=UNIT)")
        verb = "one more" if op == "+=" else "one fewer"
        return Change(text.strip(), "oob", f"{side}.oob.{value}", f"{side}: {verb} {value}")
    kinds = {"ammo": "ammo", "entry": "entry", "grenades": "grenades", "ips": "ips", "mines.AP": "mines",
             "mines.AT": "mines", "setup": "setup", "entry_edge": "entry_edge", "hidden": "hidden"}
    if what not in kinds:
        raise ValueError(f"{text!r}: unknown target {target!r}; a side has oob, ammo, entry, grenades, ips, "
                         f"mines.AP, mines.AT, setup, entry_edge, hidden")
    n = whole_number(value, text)
    if op == "=" and what not in ("grenades", "hidden"):
        raise ValueError(f"{text!r}: {what} changes by += or -=")
    words = {"ammo": "ammo numbers", "entry": "entry turn", "grenades": "grenades", "ips": "IPs",
             "mines.AP": "AP mine factors", "mines.AT": "AT mine factors", "setup": "set-up zone (hex rings)",
             "entry_edge": "entry edge (hexes along the edge)", "hidden": "hidden hexes"}
    delta = f"= {n}" if op == "=" else f"{op[0]}{n}"
    return Change(text.strip(), kinds[what], f"{side}.{what}{where}", f"{side} {words[what]}{where} {delta}")


# ------------------------------------------------------------------------------- the edits

def _entries(side: dict) -> Iterator[tuple[list, int, dict]]:
    """(list, index, entry) of every OOB entry of a side: the side's own, then each group's."""
    for lst in [side.setdefault("oob", [])] + [g.setdefault("oob", []) for g in side.get("groups", [])]:
        for i, e in enumerate(lst):
            yield lst, i, e


def _groups(side: dict, index: str | None, has: str, text: str) -> list[dict]:
    groups = side.get("groups", [])
    if index is not None:
        i = int(index) - 1
        if not 0 <= i < len(groups):
            raise ValueError(f"{text!r}: the side has {len(groups)} group(s)")
        if groups[i].get(has) is None:
            raise ValueError(f"{text!r}: group {index} ({groups[i].get('name')}) has no {has.replace('_', ' ')}")
        return [groups[i]]
    out = [g for g in groups if g.get(has) is not None]
    if not out:
        raise ValueError(f"{text!r}: no group of the side has a{'n' if has[0] in 'ae' else ''} {has.replace('_', ' ')}")
    return out


def _widen(region: dict, d: int) -> dict:
    return {"kind": "within", "of": region, "distance": d}


def _narrow(region: dict) -> dict:
    ring = {"kind": "difference", "of": _widen(region, 1), "minus": [region]}
    return {"kind": "difference", "of": region, "minus": [{"kind": "adjacent_to", "of": ring}]}


_EDGES = {"kind": "union", "of": [{"kind": "map_edge", "direction": d} for d in ("north", "east", "south", "west")]}


def _edge_widen(region: dict) -> dict:
    return {"kind": "intersection", "of": [_widen(region, 1), copy.deepcopy(_EDGES)]}


def _edge_narrow(region: dict) -> dict:
    outside = {"kind": "difference", "of": _edge_widen(region), "minus": [region]}
    return {"kind": "difference", "of": region, "minus": [{"kind": "adjacent_to", "of": outside}]}


@lru_cache(maxsize=8)
def _roster_of(path: str, counters: str | None, roster_block: str):
    from scenarios.model import Scenario
    from scenarios.scenario_file import load_scenario_roster
    import json

    data = json.loads(roster_block)
    return load_scenario_roster(Scenario.model_validate(data), path)


def _roster(data: dict, path: str | None):
    import json

    return _roster_of(path or "", data.get("counters"), json.dumps(data, sort_keys=True))


def _squad_left(roster, side: str, entry: dict, weapon: str) -> int:
    """How many men with ``weapon`` a squad entry keeps (the roster's squad less its ``less``)."""
    if entry.get("only") is not None:
        return sum(s.get("count", 1) for s in entry["only"] if s["type"] == weapon)
    have = sum(1 for m in roster.squad(side, entry["letter"]).men if m.weapon == weapon)
    return have - sum(s.get("count", 1) for s in entry.get("less", []) if s["type"] == weapon)


def _oob_change(data: dict, side: str, value: str, add: bool, text: str, path: str | None) -> None:
    roster = _roster(data, path)
    sd = data[side]
    unit, _at, letter = value.partition("@")
    up = unit.upper()
    if up in _INFANTRY:
        squads = [e for _l, _i, e in _entries(sd) if e.get("kind") == "squad" and e.get("only") is None
                  and (not letter or e.get("letter") == letter.upper())]
        if add:   # 24.1 "less": put a man left out back
            for e in squads:
                for s in e.get("less", []):
                    if s["type"] == up:
                        if s.get("count", 1) > 1:
                            s["count"] -= 1
                        else:
                            e["less"].remove(s)
                        return
            raise ValueError(f"{text!r}: no {side} squad{f' {letter}' if letter else ''} leaves out a {up} to put "
                             "back (24.1 'less'); the roster's squads are full")
        for e in squads:
            left = _squad_left(roster, side, e, up)
            if left >= 1:
                less = e.setdefault("less", [])
                same = next((s for s in less if s["type"] == up and s.get("pr") is None), None)
                if same is not None:
                    same["count"] = same.get("count", 1) + 1
                else:
                    less.append({"type": up, "count": 1})
                if up == "LMG" and left == 1 and e.get("ammo") is not None:
                    e.pop("ammo")   # 24.1: the squad's ammo number is its LMG's; it goes with it
                return
        raise ValueError(f"{text!r}: no {side} squad{f' {letter}' if letter else ''} has a {up} left to remove")
    try:
        kind, typ = "crew_weapon", roster.crew_weapon_type(side, unit)
        key = "weapon"
        pool = [c.number for c in roster.crew_weapons(side) if c.type == typ]
    except KeyError:
        try:
            kind, typ = "afv", roster.afv_type(side, unit)
            key = "type"
            pool = [a.number for a in roster.afvs(side) if a.type == typ]
        except KeyError:
            raise ValueError(f"{text!r}: {unit!r} is no squad member (R, LMG, MP, FT), crew weapon or AFV type of "
                             f"the {side} roster") from None
    norm = (lambda t: roster.crew_weapon_type(side, t)) if kind == "crew_weapon" else (lambda t: roster.afv_type(side, t))

    def same(e: dict) -> bool:
        try:
            return e.get("kind") == kind and norm(e.get(key, "")) == typ
        except KeyError:
            return False

    found = [(lst, i, e) for lst, i, e in _entries(sd) if same(e)]
    if not add:
        if not found:
            raise ValueError(f"{text!r}: the {side} OOB has no {typ}")
        lst, i, e = found[-1]
        e["numbers"] = e["numbers"][:-1]
        if not e["numbers"]:
            lst.remove(e)
        return
    used = {n for _l, _i, e in found for n in e["numbers"]}
    free = sorted(set(pool) - used)
    if not free:
        raise ValueError(f"{text!r}: every {side} {typ} counter of the roster is in the OOB already")
    if found:
        found[0][2]["numbers"] = found[0][2]["numbers"] + [free[0]]
        return
    groups = sd.get("groups", [])
    if not groups:
        raise ValueError(f"{text!r}: the {side} side has no group to add a {typ} to")
    groups[0].setdefault("oob", []).append({"text": f"{typ} #{free[0]}", "kind": kind, key: typ, "numbers": [free[0]]})


def _shift(obj: Any, add: int, text: str, what: str, low: int = 0) -> int:
    new = obj + add
    if new < low:
        raise ValueError(f"{text!r}: {what} would fall to {new}")
    return new


def apply_change(data: dict, change: Change | str, path: str | None = None) -> dict:
    """A new JSON dict of the scenario ``data`` (unchanged) with ``change`` made (a
    :class:`core.whatif.Change` or its text); ``path`` the scenario's file (its roster for OOB
    changes). Raises ValueError naming the change and why it cannot be made here (nothing to
    remove, a Game Turn before 1, ...); whether the result is a valid scenario is
    :func:`check_file`'s to say."""
    text = change if isinstance(change, str) else change.text
    parse_change(text)   # raises with the grammar's message for a text it refuses
    parts, index, op, value = split_change(text, "")
    out = copy.deepcopy(data)
    sign = -1 if op == "-=" else 1
    if parts == ["turns"]:
        n = int(value)
        out["turns"] = n if op == "=" else _shift(out["turns"], sign * n, text, "the game length", 1)
        return out
    if parts[0] == "victory":
        d = sign * int(value)
        v = out.get("victory", {})
        if parts[1] == "count":
            nodes = list(_at_least(v))
            if index is not None:
                i = int(index) - 1
                if not 0 <= i < len(nodes):
                    raise ValueError(f"{text!r}: the victory conditions have {len(nodes)} 'at least N units'")
                nodes = [nodes[i]]
            if not nodes:
                raise ValueError(f"{text!r}: no victory condition counts units ('at least N units')")
            for node in nodes:
                node["count"] = _shift(node.get("count", 1), d, text, "a unit count", 1)
            return out
        pts = v.get("points")
        if not pts:
            raise ValueError(f"{text!r}: the scenario has no victory-point schedule")
        bands = sorted(pts["schedule"], key=lambda b: b["min"])
        for i, b in enumerate(bands):
            if i > 0:
                b["min"] += d
            if i < len(bands) - 1:
                b["max"] += d
            if b["min"] > b["max"]:
                raise ValueError(f"{text!r}: the band of {b['result']} would be empty")
        return out
    side, what = parts[0], ".".join(parts[1:])
    sd = out[side]
    if what == "oob":
        _oob_change(out, side, value, op == "+=", text, path)
        return out
    n = int(value)
    if what == "hidden":
        sd["hidden_hexes"] = n if op == "=" else _shift(sd.get("hidden_hexes", 0), sign * n, text, "hidden hexes")
        return out
    if what == "grenades":
        g = next((e for _l, _i, e in _entries(sd) if e.get("kind") == "grenades"), None)
        if g is None:
            if op == "-=":
                raise ValueError(f"{text!r}: the {side} side has no grenades")
            g = {"text": "Grenades", "kind": "grenades", "count": 0}
            sd.setdefault("oob", []).append(g)
        g["count"] = n if op == "=" else _shift(g["count"], sign * n, text, "grenades")
        g["text"] = f"Grenades ({g['count']})"
        return out
    if what == "ammo":
        hits = 0
        for _l, _i, e in _entries(sd):
            if e.get("ammo") is not None:
                e["ammo"] = _shift(e["ammo"], sign * n, text, "an ammo number")
                hits += 1
            for s in e.get("only") or []:
                if s.get("ammo") is not None:
                    s["ammo"] = _shift(s["ammo"], sign * n, text, "an ammo number")
                    hits += 1
        if not hits:
            raise ValueError(f"{text!r}: no {side} unit has an ammo number")
        return out
    if what == "ips":
        found = [(lst, e) for lst, _i, e in _entries(sd) if e.get("kind") == "ip"]
        if not found:
            if op == "-=":
                raise ValueError(f"{text!r}: the {side} side has no IPs")
            g = next((g for g in sd.get("groups", []) if g.get("setup")), None)
            if g is None:
                raise ValueError(f"{text!r}: no {side} group sets up on the map to hold IPs (16.0)")
            g.setdefault("oob", []).append({"text": f"IP1 x {n}", "kind": "ip", "points": 1, "count": n})
            return out
        lst, e = found[0]
        e["count"] = _shift(e["count"], sign * n, text, "IPs")
        if e["count"] == 0:
            lst.remove(e)
        else:
            e["text"] = f"IP{e['points']} x {e['count']}"
        return out
    if what.startswith("mines."):
        mt = what.split(".")[1]
        found = [(lst, e) for lst, _i, e in _entries(sd) if e.get("kind") == "mines" and e.get("mine_type") == mt]
        if not found:
            raise ValueError(f"{text!r}: the {side} side has no {mt} mines (a new minefield needs an area)")
        lst, e = found[0]
        e["factors"] = _shift(e["factors"], sign * n, text, f"{mt} mine factors")
        if e["factors"] == 0:
            lst.remove(e)
        return out
    if what == "entry":
        for g in _groups(sd, index, "entry", text):
            for o in g["entry"]["options"]:
                o["turn"] = _shift(o["turn"], sign * n, text, "an entry turn", 1)
                if o["turn"] > out["turns"]:
                    raise ValueError(f"{text!r}: {g.get('name')} would enter after the last Game Turn")
        return out
    if what == "setup":
        for g in _groups(sd, index, "setup", text):
            r = g["setup"]["region"]
            for _ in range(n):
                r = _widen(r, 1) if sign > 0 else _narrow(r)
            g["setup"]["region"] = r
        return out
    if what == "entry_edge":
        for g in _groups(sd, index, "entry", text):
            for o in g["entry"]["options"]:
                r = o["region"]
                for _ in range(n):
                    r = _edge_widen(r) if sign > 0 else _edge_narrow(r)
                o["region"] = r
        return out
    raise ValueError(f"{text!r}: unknown target")   # parse_change refuses it first


def _at_least(node: Any) -> Iterator[dict]:
    """Every ``at_least`` condition of the victory JSON, in document order."""
    if isinstance(node, dict):
        if node.get("kind") == "at_least":
            yield node
        for v in node.values():
            yield from _at_least(v)
    elif isinstance(node, list):
        for x in node:
            yield from _at_least(x)


def default_changes(data: dict, path: str | None = None, kinds: tuple[str, ...] = DEFAULT_KINDS) -> list[str]:
    """The changes of ``kinds`` that apply to the scenario ``data`` (its file ``path``), in the
    order of :data:`KINDS`, each one that :func:`apply_change` can make (whether the result
    validates is for :func:`check_file`)."""
    texts: list[str] = []
    if "turns" in kinds:
        texts += ["turns+=1", "turns-=1", "turns+=2", "turns-=2"]
    if "oob" in kinds:
        for side in SIDES:
            sd = data[side]
            types: list[str] = []
            for _l, _i, e in _entries(copy.deepcopy(sd)):
                if e.get("kind") == "squad":
                    types += [t for t in ("R", "LMG") if t not in types]
                elif e.get("kind") == "crew_weapon" and e["weapon"] not in types:
                    types.append(e["weapon"])
                elif e.get("kind") == "afv" and e["type"] not in types:
                    types.append(e["type"])
            for t in types:
                texts += [f"{side}.oob+={t}", f"{side}.oob-={t}"]
    for kind, word, ops in (("ammo", "ammo", ("+=2", "-=2")), ("entry", "entry", ("+=1", "-=1")),
                            ("grenades", "grenades", ("+=2", "-=2")), ("ips", "ips", ("+=1", "-=1")),
                            ("mines", "mines.AP", ("+=2", "-=2")), ("mines", "mines.AT", ("+=2", "-=2")),
                            ("setup", "setup", ("+=1", "-=1")), ("entry_edge", "entry_edge", ("+=1", "-=1")),
                            ("hidden", "hidden", ("+=1", "-=1"))):
        if kind in kinds:
            for side in SIDES:
                texts += [f"{side}.{word}{op}" for op in ops]
    if "victory" in kinds:
        texts += ["victory.count+=1", "victory.count-=1", "victory.band+=1", "victory.band-=1"]
    return makeable(texts, apply_change, data, path)


def check_file(path: str, known: frozenset[str] | None = None) -> frozenset[str] | str:
    """Validate a (changed) scenario file as ``ironcross validate --warnings`` does, with the
    engine's set-up: the keys (``"check JSON-path"``) of its design warnings, or a one-line
    problem: the first error, or the first design warning whose key is not in ``known`` (the
    scenario as it was: a change must not bring a new design problem)."""
    from core.ironcross.design_checks import scenario_file_warnings

    return check_with(path, known, scenario_file_warnings, lambda w: f"{w.check} {w.path}",
                      lambda w: f"design check {w.check}: {w.message}")
