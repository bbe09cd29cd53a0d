"""Red Flags and Iron Crosses what-if changes (:mod:`core.whatif`): the change grammar, each change
as an edit of the scenario's JSON, the changes that apply to a scenario by default, and the
validation of a changed scenario file. The same boundary as Iron Cross's
(:mod:`core.ironcross.whatif_changes`), with the Red Flags scenario's own things to change: its
groups of units (each with its activation card), its rectangular set-up zones and its victory
results ("controls at least N of the objective hexes").

Grammar (one change: ``TARGET OP VALUE``; ``OP`` is ``=``, ``+=`` or ``-=``; SIDE is ``german`` or
``russian``; ``[N]`` picks the N-th victory result, from 1; absent = every one)::

    turns=8 | turns+=1 | turns-=2          game length in turns (r.turns)
    SIDE.oob+=TYPE | SIDE.oob-=TYPE        one unit of a roster type the side already fields
                                           (sov_rifle_section, ger_pzkpfw_iv_f2, ...): added to the
                                           group of the first such unit as a copy of it (without
                                           its tow, a transport is not shared), or the last such
                                           unit removed (never a group's last unit, never a
                                           transport another unit names as its tow or carrier)
    SIDE.setup+=1 | SIDE.setup-=1          the set-up zone's block one hex wider / narrower on
                                           every side (columns and rows; listed hexes stay)
    victory.count[I]+=1 | -=1              "controls at least N objective hexes" of the results
"""

from __future__ import annotations

import copy

from core.whatif import Change, check_with, makeable, split_change, turns_change, whole_number

__all__ = ["KINDS", "DEFAULT_KINDS", "GRAMMAR", "parse_change", "apply_change", "default_changes", "check_file"]

SIDES = ("german", "russian")

KINDS: dict[str, str] = {
    "turns": "game length +-1 and +-2 turns (r.turns)",
    "oob": "one unit of a roster type added to or removed from a side's groups",
    "setup": "a set-up zone's block one hex wider or narrower",
    "victory": "a victory result's 'controls at least N objective hexes' +-1",
}

DEFAULT_KINDS = tuple(KINDS)

GRAMMAR = __doc__.split("Grammar", 1)[1]


def parse_change(text: str, data: dict | None = None, path: str | None = None) -> Change:
    """The :class:`core.whatif.Change` that ``text`` names (the module's grammar). Raises
    ValueError naming the text and the problem (unknown target, a value that is no number)."""
    parts, index, op, value = split_change(text, "'turns=8' or 'russian.oob-=sov_rifle_section'")
    target = ".".join(parts)
    where = f"[{index}]" if index else ""
    if parts == ["turns"]:
        return turns_change(text, op, value, "turns")
    if parts == ["victory", "count"] and op != "=":
        whole_number(value, text)
        return Change(text.strip(), "victory", f"victory.count{where}",
                      f"objective hexes a victory result needs{where} {op[0]}{value}")
    if len(parts) != 2 or parts[0] not in SIDES or parts[1] not in ("oob", "setup"):
        raise ValueError(f"{text!r}: unknown target {target!r}; targets: turns, victory.count, SIDE.oob, SIDE.setup "
                         f"(SIDE german or russian)")
    side, what = parts
    if op == "=":
        raise ValueError(f"{text!r}: {what} changes by += or -=")
    if what == "oob":
        verb = "one more" if op == "+=" else "one fewer"
        return Change(text.strip(), "oob", f"{side}.oob.{value}", f"{side}: {verb} {value}")
    n = whole_number(value, text)
    return Change(text.strip(), "setup", f"{side}.setup", f"{side} set-up zone {op[0]}{n} hex on every side")


def _units(side: dict) -> list[tuple[dict, dict]]:
    """(group, unit) of every unit of a side, in file order."""
    return [(g, u) for g in side.get("groups", []) for u in g.get("units", [])]


def _new_id(base: str, taken: set[str]) -> str:
    for k in range(2, 100):
        cand = f"{base[:20]}+{k}"
        if cand not in taken:
            return cand
    raise ValueError(f"no free unit id for another copy of {base}")


def _oob_change(data: dict, side: str, unit_type: str, add: bool, text: str) -> None:
    sd = data[side]
    same = [(g, u) for g, u in _units(sd) if u.get("type") == unit_type]
    if not same:
        fielded = sorted({u.get("type") for _g, u in _units(sd)})
        raise ValueError(f"{text!r}: the {side} side fields no {unit_type}; it fields {', '.join(fielded)}")
    if add:
        g, u = same[0]
        taken = {x.get("id") for s in SIDES for _g, x in _units(data[s])}
        new = {k: v for k, v in copy.deepcopy(u).items() if k not in ("tow", "aboard", "limbered")}
        new["id"] = _new_id(u["id"], taken)
        g["units"].append(new)
        return
    named = {x.get(k) for s in SIDES for _g, x in _units(data[s]) for k in ("tow", "aboard")} - {None}
    for g, u in reversed(same):
        if len(g["units"]) > 1 and u["id"] not in named:
            g["units"].remove(u)
            return
    raise ValueError(f"{text!r}: every {unit_type} is its group's last unit or another unit's transport")


def _setup_change(data: dict, side: str, n: int, text: str) -> None:
    zone = data[side].get("setup_zone") or {}
    cols, rows = zone.get("columns"), zone.get("rows")
    if cols is None or rows is None:
        raise ValueError(f"{text!r}: the {side} set-up zone has no block of columns and rows")
    c0, c1, r0, r1 = cols[0] - n, cols[1] + n, rows[0] - n, rows[1] + n
    if c0 > c1 or r0 > r1:
        raise ValueError(f"{text!r}: the {side} set-up zone would be empty")
    zone["columns"] = [max(10, c0), min(99, c1)]
    zone["rows"] = [max(1, r0), min(99, r1)]


def apply_change(data: dict, change: Change | str, path: str | None = None) -> dict:
    """A new scenario JSON: ``data`` (a Red Flags scenario) with ``change`` made (``path``, the
    scenario file, is part of the boundary's signature). Raises ValueError naming the change when
    it cannot be made (a type the side does not field, a zone or result that cannot change)."""
    ch = parse_change(change) if isinstance(change, str) else change
    text = ch.text
    _parts, index, op, value = split_change(text, "")
    out = copy.deepcopy(data)
    if ch.kind == "turns":
        n = whole_number(value, text)
        turns = n if op == "=" else out["turns"] + (n if op == "+=" else -n)
        if not 1 <= turns <= 50:
            raise ValueError(f"{text!r}: {turns} turns is outside 1-50")
        out["turns"] = turns
    elif ch.kind == "oob":
        _oob_change(out, ch.field.split(".")[0], value, op == "+=", text)
    elif ch.kind == "setup":
        n = whole_number(value, text)
        _setup_change(out, ch.field.split(".")[0], n if op == "+=" else -n, text)
    elif ch.kind == "victory":
        v = out["victory"]
        results = v.get("results") or []
        pick = range(len(results)) if index is None else [int(index) - 1]
        if not results or any(not 0 <= i < len(results) for i in pick):
            raise ValueError(f"{text!r}: the victory conditions have {len(results)} result(s)")
        n = whole_number(value, text) * (1 if op == "+=" else -1)
        top = len(v.get("objectives") or [])
        moved = False
        for i in pick:
            new = results[i]["controls_at_least"] + n
            if 1 <= new <= top:
                results[i]["controls_at_least"] = new
                moved = True
        if not moved:
            raise ValueError(f"{text!r}: no result can need {'more' if n > 0 else 'fewer'} objective hexes "
                             f"(1 to {top})")
    else:  # pragma: no cover - parse_change names only the kinds above
        raise ValueError(f"{text!r}: unknown kind {ch.kind}")
    return out


def default_changes(data: dict, path: str | None = None, kinds: tuple[str, ...] = DEFAULT_KINDS) -> list[str]:
    """The changes of ``kinds`` that apply to the scenario ``data``, in the order of :data:`KINDS`,
    each one that :func:`apply_change` can make (whether the result validates is for
    :func:`check_file`)."""
    texts: list[str] = []
    if "turns" in kinds:
        texts += ["turns+=1", "turns-=1", "turns+=2", "turns-=2"]
    if "oob" in kinds:
        for side in SIDES:
            types: list[str] = []
            for _g, u in _units(data[side]):
                if u.get("type") not in types and u.get("arrives") is None:   # aircraft: one sortie each
                    types.append(u["type"])
            for t in types:
                texts += [f"{side}.oob+={t}", f"{side}.oob-={t}"]
    if "setup" in kinds:
        for side in SIDES:
            texts += [f"{side}.setup+=1", f"{side}.setup-=1"]
    if "victory" in kinds:
        for i in range(len((data.get("victory") or {}).get("results") or [])):
            texts += [f"victory.count[{i + 1}]+=1", f"victory.count[{i + 1}]-=1"]
    return makeable(texts, apply_change, data, path)


def check_file(path: str, known: frozenset[str] | None = None) -> frozenset[str] | str:
    """Validate a (changed) scenario file as ``ironcross validate --warnings`` does (the Red Flags
    checks: map, zones, roster types, cards, tows, aircraft, victory; then its design warnings:
    zones without room, guns that can never move, aircraft after the last turn...): the set of its
    design warnings, or a one-line problem: the first error, or the first design warning not in
    ``known`` (the scenario as it was: a change must not bring a new design problem)."""
    from core.redflags.system import scenario_warnings

    return check_with(path, known, scenario_warnings, str, lambda w: f"design check: {w}")
