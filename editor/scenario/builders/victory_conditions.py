"""The victory conditions as the victory builder edits them (JSON data of the scenario's
``victory``): the condition kinds and their words, a new leaf condition, a condition converted to
another kind, hex lists typed by the designer, the region field's modes, and the combo boxes
that show them."""

from __future__ import annotations

import copy
import re
from typing import Any

from PySide6.QtWidgets import QComboBox

from maps import hexgrid

__all__ = [
    "CONDITION_KINDS",
    "LEAF_KINDS",
    "leaf_condition",
    "convert_condition",
    "parse_hex_list",
    "region_mode",
]


SIDES = ("german", "russian")
RESULT_LABELS = {"german": "Germans win", "russian": "Russians win", "draw": "Draw"}
SIDE_LABELS = {"german": "German", "russian": "Russian"}
#: condition kind -> its words in the Condition box
CONDITION_KINDS = {
    "at_least": "at least N units in",
    "none_in": "no units in",
    "sole_occupant": "sole occupant of",
    "controls": "controls every hex of",
    "all_of": "all of (each must hold)",
    "any_of": "any of (one must hold)",
    "not": "not (must not hold)",
}
LEAF_KINDS = ("at_least", "none_in", "sole_occupant", "controls")
UNIT_KINDS = {"infantry": "infantry", "commander": "commanders", "crew_weapon": "crew weapons", "afv": "AFVs"}
GROUPINGS = {"any": "every unit counts", "same_squad_or_commanders": "commanders or units of one squad"}
SCOPES = {"region": "of the region as a whole", "each_building": "of at least N buildings of it"}
AWARD_KINDS = {"per_hex": "per hex controlled", "per_building": "per building wholly controlled"}
#: region field modes and their words
REGION_MODES = {"named": "Named region", "hexes": "Hexes", "features": "Map features",
                "terrain": "Kind of terrain", "json": "Advanced (JSON)"}


def other_side(side: str) -> str:
    return "russian" if side == "german" else "german"


def leaf_condition(kind: str, side: str, region: dict) -> dict:
    """A new condition of a leaf ``kind`` (at_least, none_in, sole_occupant, controls) as JSON:
    ``side``'s units, ``region`` (JSON, copied); at_least counts 1 unit."""
    if kind not in LEAF_KINDS:
        raise ValueError(f"{kind!r} is not a condition on a region (one of {', '.join(LEAF_KINDS)})")
    out: dict[str, Any] = {"kind": kind, "side": side, "region": copy.deepcopy(region)}
    if kind == "at_least":
        out["count"] = 1
    return out


def _subs(cond: dict) -> list[dict]:
    of = cond.get("of")
    return of if isinstance(of, list) else ([of] if isinstance(of, dict) else [])


def first_leaf(cond: dict) -> dict | None:
    """The first condition on a region in ``cond`` (depth first), or None."""
    if cond.get("kind") in LEAF_KINDS:
        return cond
    for s in _subs(cond):
        x = first_leaf(s)
        if x is not None:
            return x
    return None


def convert_condition(cond: dict, kind: str, side: str, region: dict) -> dict:
    """``cond`` (JSON) turned into a condition of ``kind``, keeping what carries over:

    * to ``all_of`` / ``any_of``: the sub-conditions of a composite, else ``[cond]``;
    * to ``not``: ``cond`` itself becomes the one condition that must not hold;
    * to a leaf kind: the side and region of ``cond``'s first leaf (``side`` and ``region`` when
      it has none); that leaf itself when it is already of ``kind``.
    """
    old = cond.get("kind")
    if kind == old:
        return copy.deepcopy(cond)
    if kind in ("all_of", "any_of"):
        if old in ("all_of", "any_of"):
            return {"kind": kind, "of": copy.deepcopy(cond["of"])}
        if old == "not":
            return {"kind": kind, "of": [copy.deepcopy(cond["of"])]}
        return {"kind": kind, "of": [copy.deepcopy(cond)]}
    if kind == "not":
        return {"kind": "not", "of": copy.deepcopy(cond)}
    leaf = first_leaf(cond)
    if leaf is not None and leaf["kind"] == kind:
        return copy.deepcopy(leaf)
    if leaf is not None:
        side, region = leaf.get("side", side), leaf.get("region", region)
    return leaf_condition(kind, side, region)


def parse_hex_list(text: str) -> list[str]:
    """``"4307, 4308 4309"`` -> ``["4307", "4308", "4309"]``: hex ids separated by commas,
    semicolons or spaces, in the order typed (a repeat is dropped). Raises ValueError naming a
    token that is not a hex id, or when there is none."""
    out: list[str] = []
    for tok in re.split(r"[\s,;]+", text.strip()):
        if not tok:
            continue
        try:
            h = hexgrid.parse_hex_id(tok)
        except hexgrid.HexIdError:
            raise ValueError(f"{tok!r} is not a hex id (four digits, column and row: 4307)") from None
        if h.id not in out:
            out.append(h.id)
    if not out:
        raise ValueError("type at least one hex id (4307, 4308)")
    return out


def region_mode(data: Any) -> str:
    """Which page of :class:`RegionField` shows the region JSON ``data``: ``named``, ``hexes``,
    ``features`` (one named map feature or a union of them), ``terrain`` (a ``feature_kind``) or
    ``json`` (anything else)."""
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind in ("named", "hexes"):
        return kind
    if kind == "feature":
        return "features"
    if kind == "union" and data.get("of") and all(isinstance(r, dict) and r.get("kind") == "feature"
                                                  for r in data["of"]):
        return "features"
    if kind == "feature_kind":
        return "terrain"
    return "json"


def _feature_names(data: dict) -> list[str]:
    if data.get("kind") == "feature":
        return [data["name"]]
    return [r["name"] for r in data.get("of", [])]


def natural_key(name: str) -> list:
    """Sort "Building 10" after "Building 9"."""
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", name)]


def _combo(items: dict[str, str], min_chars: int = 14) -> QComboBox:
    """A combo box of ``items`` (key -> words; the key is the item's data) that never asks for
    the width of its longest item (the dock is about 360 pixels wide)."""
    c = QComboBox()
    for k, v in items.items():
        c.addItem(v, k)
    c.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    c.setMinimumContentsLength(min_chars)
    return c


def _set_combo(c: QComboBox, key: Any) -> None:
    i = c.findData(key)
    c.setCurrentIndex(i)



def _get(data: Any, loc: tuple) -> Any:
    for k in loc:
        data = data[k]
    return data
