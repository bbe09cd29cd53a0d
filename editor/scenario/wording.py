"""How the scenario's panels say things to the designer: a region, a victory condition, its
winner, a place in the scenario (:func:`loc_label`), a refused edit; the JSON paths of the
validation messages; and the item-data roles their trees share (a place in the scenario, a unit,
a man of a squad)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from maps.document_file import json_path
from editor.scenario.document import ScenarioDocument, validation_message

__all__ = ["loc_label", "parse_json_path"]


SIDES = ("german", "russian")
LOC_ROLE = Qt.ItemDataRole.UserRole
UNIT_ROLE = Qt.ItemDataRole.UserRole + 1
MAN_ROLE = Qt.ItemDataRole.UserRole + 2   # a man of a squad entry (roster id) in the OOB tree


def parse_json_path(path: str) -> tuple:
    """``$.german.groups[0].oob[1]`` -> ("german", "groups", 0, "oob", 1)."""
    import re

    out: list[Any] = []
    for name, idx in re.findall(r"\.([A-Za-z_][A-Za-z0-9_ -]*)|\[(\d+)\]", path):
        out.append(int(idx) if idx else name)
    return tuple(out)


_SIDE = {"german": "German", "russian": "Russian"}
SIDE_WIDE = "Side-wide"   # the OOB tree's node of a side's entries in no group
_SIDES = {"german": "Germans", "russian": "Russians"}


def region_words(region) -> str:
    """Where a region is, as a designer says it: "on Hill K", "in 4307", "in hexes 4307, 4308",
    "in Building 3", "on the east map edge"."""
    kind = getattr(region, "kind", "")
    if kind == "feature":
        return f"on {region.name}" if region.name.lower().startswith("hill") else f"in {region.name}"
    if kind == "union" and all(getattr(r, "kind", "") == "feature" and r.name.lower().startswith("hill")
                               for r in region.of):
        return "on " + " or ".join(r.name for r in region.of)
    if kind == "hexes":
        hx = list(region.hexes)
        if len(hx) == 1:
            return f"in {hx[0]}"
        return f"in hexes {', '.join(hx)}" if len(hx) <= 4 else f"in {len(hx)} listed hexes ({hx[0]}...)"
    if kind == "map_edge":
        return f"on {region.describe()}"
    text = region.describe()
    if kind in ("named", "side_of", "beyond", "adjacent_to", "within") and \
            text.lower().startswith(("north", "south", "east", "west", "beyond", "adjacent", "within", "on ", "in ")):
        return text   # "south of the east-west road" reads without "in"
    return f"in {text}"


def condition_sentence(cond) -> str:
    """A victory condition as a designer says it: "no Russian unit on Hill K", "at least 2
    German units in 4307", "only German units in Building 3"."""
    k = getattr(cond, "kind", "")
    if k == "at_least":
        what = cond.units.describe() if cond.units.kinds or cond.units.grouping != "any" else "unit"
        n = cond.count
        if what == "unit":
            what = "unit" if n == 1 else "units"
        many = "a" if n == 1 and what == "unit" else f"at least {n}"
        return f"{many} {_SIDE.get(cond.side, cond.side)} {what} {region_words(cond.region)}"
    if k == "none_in":
        return f"no {_SIDE.get(cond.side, cond.side)} unit {region_words(cond.region)}"
    if k == "sole_occupant":
        if cond.scope == "each_building":
            return (f"{_SIDES.get(cond.side, cond.side)} alone in at least {cond.min_buildings} building(s) "
                    f"{region_words(cond.region)}")
        return f"only {_SIDE.get(cond.side, cond.side)} units {region_words(cond.region)}"
    if k == "controls":
        return f"{_SIDES.get(cond.side, cond.side)} control every hex {region_words(cond.region)}"
    if k in ("all_of", "any_of"):
        return (" and " if k == "all_of" else " or ").join(condition_sentence(c) for c in cond.of)
    if k == "not":
        return f"not ({condition_sentence(cond.of)})"
    return cond.describe() if hasattr(cond, "describe") else str(k)


def _winner(result: str) -> str:
    return {"german": "Germans win", "russian": "Russians win", "draw": "Draw"}.get(result, f"{result} wins")


def loc_label(doc: ScenarioDocument, loc: tuple) -> str:
    """The name of a region as a designer says it: "German set-up zone: German force",
    "Russian entry, turn 1: Russian force", "Germans win: no Russian unit on Hill K",
    "Hill K road (named region)"."""
    sc = doc.scenario
    if loc[0] == "regions":
        return f"{loc[1]} (named region)"
    if loc[0] in SIDES:
        side = loc[0]
        who = _SIDE[side]
        if len(loc) > 2 and loc[1] == "groups":
            g = sc.side(side).groups[loc[2]]
            if loc[3] == "setup":
                return f"{who} set-up zone: {g.name}"
            if loc[3] == "entry":
                opts = g.entry.options if g.entry is not None else []
                i = loc[5] if len(loc) > 5 and isinstance(loc[5], int) else 0
                turn = f", turn {opts[i].turn}" if i < len(opts) else ""
                alt = f" (option {i + 1} of {len(opts)})" if len(opts) > 1 else ""
                return f"{who} entry{turn}: {g.name}{alt}"
            if loc[3] == "oob":
                return f"{who} IP placement: {g.name}"
            return f"{who} {g.name}: {_words_of(loc[3:])}"
        if loc[1] == "infiltration":
            return f"{who} infiltration zone"
        if loc[1] == "oob" and len(loc) > 2 and isinstance(loc[2], int):
            try:
                e = sc.side(side).oob[loc[2]]
            except IndexError:
                e = None
            what = (getattr(e, "text", "") or getattr(e, "kind", "")) if e is not None else "entry"
            return f"{who} placement: {what}"
        if loc[1] == "caps" and len(loc) > 2 and isinstance(loc[2], int):
            try:
                c = sc.side(side).caps[loc[2]]
                return f"{who} set-up cap: {c.text or c.describe()}"
            except IndexError:
                return f"{who} set-up cap {loc[2] + 1}"
        if loc[1] == "detachments":
            return f"{who} detachment {sc.side(side).detachments[loc[2]].name}: entry edge"
        return f"{who} {_words_of(loc[1:])}"
    if loc[0] == "initial_control" and len(loc) > 1 and isinstance(loc[1], int):
        # the region a side holds from the start (control until the enemy occupies it)
        try:
            ic = sc.initial_control[loc[1]]
        except IndexError:
            return "controlled at start"
        return f"{_SIDES.get(ic.side, ic.side)} control from the start: {region_words(ic.region)}"
    if loc[0] == "victory":
        v = sc.victory
        if loc[1] == "points" and v.points is not None:
            try:
                a = v.points.awards[loc[3]]
            except (IndexError, TypeError):
                return "victory points award"
            per = "hex" if a.kind == "per_hex" else "building"
            return f"Victory points ({_SIDE.get(v.points.side, v.points.side)}): {a.points} per {per} {region_words(a.region)}"
        try:
            o = v.outcomes[loc[2]]
            leaf = o.condition
            parents = []
            for k in loc[4:-1]:
                parents.append(leaf)
                leaf = leaf.of[k] if isinstance(k, int) else (leaf.of if k == "of" and leaf.kind == "not" else leaf)
        except (IndexError, AttributeError, TypeError):
            return f"victory outcome {loc[2] + 1}"
        text = f"{_winner(o.result)}: {condition_sentence(leaf)}"
        negated = sum(1 for p in parents if p.kind == "not") % 2 == 1
        if negated:
            text = f"{_winner(o.result)} unless {condition_sentence(leaf)}"
        comp = next((p for p in reversed(parents) if p.kind in ("all_of", "any_of")), None)
        if comp is not None:
            text += f" ({'with' if comp.kind == 'all_of' else 'or'} {len(comp.of) - 1} more condition" \
                    f"{'s' if len(comp.of) > 2 else ''})"
        return text
    return json_path(loc)


def _words_of(loc) -> str:
    return " ".join(str(x).replace("_", " ") for x in loc)


def _warn(parent, title: str, text: str) -> None:
    QMessageBox.warning(parent, title, text)


def _edit_error(err: ValueError) -> str:
    """A refused edit in words: a pydantic error through :func:`validation_message`, else its text."""
    return validation_message(err) if isinstance(err, ValidationError) else str(err)
