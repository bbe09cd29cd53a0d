"""The region builder's data side, without widgets: every kind of the region language with its
label (:data:`KINDS`), a new region of a kind with sensible defaults (:func:`default_region`),
converting a region to another kind keeping what carries over (:func:`convert_region`), and a
region's problem in one line of words (:func:`region_problem`, never a traceback)."""
from __future__ import annotations

import copy
import re
from typing import Any

from pydantic import ValidationError

from scenarios.regions import COMPASS, region_from_data

__all__ = ["KINDS", "KIND_LABELS", "default_region", "convert_region", "parse_hex_ids", "region_problem"]


#: Every kind of the region language, in the order the builder offers them, with its label.
KINDS: tuple[tuple[str, str], ...] = (
    ("hexes", "Hexes"),
    ("hex_range", "Hex line (from ... to)"),
    ("feature", "Named feature"),
    ("feature_kind", "Feature kind"),
    ("map_edge", "Map edge"),
    ("section", "Map section"),
    ("area", "Whole playing area"),
    ("path", "Road or gully"),
    ("side_of", "Side of a path or hex line"),
    ("beyond", "Beyond a column, row or hex"),
    ("reachable", "Reachable, with barriers"),
    ("adjacent_to", "Adjacent to"),
    ("within", "Within N hexes of"),
    ("named", "Named region"),
    ("union", "Union (any of)"),
    ("intersection", "Intersection (all of)"),
    ("difference", "Difference (minus)"),
)
KIND_LABELS = dict(KINDS)

#: short labels of the feature kinds (the long ones of :data:`FEATURE_KINDS` are the tooltips)
_FEATURE_KIND_LABELS = {
    "building_hexes": "building hexes", "multi_hex_buildings": "multi-hex building hexes",
    "single_hex_buildings": "one-hex building hexes", "tree_hexes": "tree hexes (2+ trees)",
    "woods": "woods hexes", "any_trees": "hexes with any tree", "marsh": "marsh hexes", "road": "road hexes",
    "bridge": "bridge hexes", "gully": "gully hexes", "hill": "hill hexes",
}
_SHEET = {0: "up the sheet", 3: "right on the sheet", 6: "down the sheet", 9: "left on the sheet"}
_RED = "#b00000"


# =============================================================================== pure helpers

def parse_hex_ids(text: str) -> list[str]:
    """The hex ids in a typed field: separated by commas, semicolons, spaces or dashes
    ("1014-1315-1608", "4307, 4308"). Tokens are returned as typed (a bad one is reported by the
    region's validation, naming it)."""
    return [t for t in re.split(r"[\s,;\-\u2013]+", text.strip()) if t]


def _leaf_default(kind: str, ctx=None) -> dict:
    m = getattr(ctx, "hexmap", None)
    if kind == "hexes":
        return {"kind": "hexes", "hexes": []}
    if kind == "hex_range":
        return {"kind": "hex_range", "first": "", "last": ""}
    if kind == "feature":
        names = _feature_names(m)
        return {"kind": "feature", "name": names[0] if names else ""}
    if kind == "feature_kind":
        return {"kind": "feature_kind", "feature": "building_hexes"}
    if kind == "map_edge":
        return {"kind": "map_edge", "direction": "north"}
    if kind == "section":
        secs = list(getattr(ctx, "sections", None) or []) or [s.name for s in (m.doc.sections if m else [])]
        return {"kind": "section", "name": secs[0] if secs else ""}
    if kind == "area":
        return {"kind": "area"}
    if kind == "path":
        return {"kind": "path", "network": "road", "through": []}
    if kind == "beyond":
        return {"kind": "beyond", "direction": "north", "row": 1, "inclusive": False}
    if kind == "named":
        names = sorted(getattr(ctx, "named", {}) or {})
        return {"kind": "named", "name": names[0] if names else ""}
    raise ValueError(f"unknown region kind {kind!r}")


def default_region(kind: str, ctx=None) -> dict:
    """A new region of ``kind`` as the builder starts it (hex fields empty, to be picked; a side
    of a road, reachable from the north map edge with a road as the barrier...). ``ctx`` (a
    :class:`RegionContext` or None) supplies the first feature, section and named region."""
    if kind == "side_of":
        return {"kind": "side_of", "direction": "north", "of": _leaf_default("path"), "include_boundary": False}
    if kind == "reachable":
        return {"kind": "reachable", "start": {"kind": "map_edge", "direction": "north"},
                "barrier": _leaf_default("path")}
    if kind == "adjacent_to":
        return {"kind": "adjacent_to", "of": _leaf_default("hexes")}
    if kind == "within":
        return {"kind": "within", "of": _leaf_default("hexes"), "distance": 1}
    if kind in ("union", "intersection"):
        return {"kind": kind, "of": [_leaf_default("hexes"), _leaf_default("hexes")]}
    if kind == "difference":
        return {"kind": "difference", "of": _leaf_default("feature", ctx), "minus": [_leaf_default("hexes")]}
    return _leaf_default(kind, ctx)


def _children(d: dict) -> list[dict]:
    k = d.get("kind")
    if k in ("side_of", "adjacent_to", "within"):
        return [d["of"]] if isinstance(d.get("of"), dict) else []
    if k == "reachable":
        return [x for x in (d.get("start"), d.get("barrier")) if isinstance(x, dict)]
    if k in ("union", "intersection"):
        return [x for x in d.get("of", []) if isinstance(x, dict)]
    if k == "difference":
        return ([d["of"]] if isinstance(d.get("of"), dict) else []) + [x for x in d.get("minus", []) if isinstance(x, dict)]
    return []


def _hex_list(d: dict) -> list[str]:
    k = d.get("kind")
    if k == "hexes":
        return list(d.get("hexes", []))
    if k == "path":
        return list(d.get("through", []))
    if k == "hex_range":
        return [x for x in (d.get("first"), d.get("last")) if x]
    return []


_COMPOSITE = ("side_of", "reachable", "adjacent_to", "within", "union", "intersection", "difference")


def convert_region(old: dict, kind: str, ctx=None) -> dict:
    """The region the builder shows when the designer switches ``old`` to another ``kind``:
    what fits is kept. Hex ids pass between a hex list, a road's waypoints and a hex line; a
    compass direction between map edge, side of and beyond; the parts of a combining kind pass
    to another; a region switched to a combining kind becomes its (first) part, so "Hill K"
    switched to *Difference* is "Hill K minus ..." (a road switched to *Reachable* is its barrier)."""
    if old.get("kind") == kind:
        return copy.deepcopy(old)
    new = default_region(kind, ctx)
    ids = _hex_list(old)
    if ids and kind == "hexes":
        new["hexes"] = ids
    elif ids and kind == "path":
        new["through"] = ids
    elif ids and kind == "hex_range":
        new["first"], new["last"] = ids[0], ids[-1] if len(ids) > 1 else ""
    if "direction" in new and old.get("direction") in COMPASS:
        new["direction"] = old["direction"]
    if kind not in _COMPOSITE:
        return new
    parts = _children(old) if old.get("kind") in _COMPOSITE else []
    if not parts:
        meaningful = old.get("kind") is not None and old != default_region(old["kind"], ctx)
        parts = [copy.deepcopy(old)] if meaningful else []
        if parts and kind == "reachable" and old.get("kind") in ("path", "hex_range", "hexes"):
            new["barrier"] = parts[0]
            return new
    parts = copy.deepcopy(parts)
    if not parts:
        return new
    if kind in ("side_of", "adjacent_to", "within"):
        new["of"] = parts[0]
    elif kind == "reachable":
        new["start"] = parts[0]
        if len(parts) > 1:
            new["barrier"] = parts[1]
    elif kind in ("union", "intersection"):
        new["of"] = parts if len(parts) > 1 else parts + [_leaf_default("hexes")]
    elif kind == "difference":
        new["of"] = parts[0]
        if len(parts) > 1:
            new["minus"] = parts[1:]
    return new


def _short_validation(e: ValidationError) -> str:
    """A pydantic error in words: the first problem, without pydantic's decorations."""
    errs = e.errors()
    if not errs:
        return str(e)
    err = errs[0]
    msg = str(err.get("msg", ""))
    msg = re.sub(r"^(Value error|Assertion failed), ", "", msg)
    loc = ".".join(str(x) for x in err.get("loc", ()) if not (isinstance(x, str) and x in KIND_LABELS))
    more = f" (and {len(errs) - 1} more)" if len(errs) > 1 else ""
    return (f"{loc}: {msg}" if loc else msg) + more


def region_problem(data: Any) -> str | None:
    """What keeps ``data`` from being a region, in words (None when it is one): an incomplete
    field ("pick or type at least one hex") before pydantic's message."""
    if not isinstance(data, dict):
        return "a region is a JSON object with a \"kind\""
    k = data.get("kind")
    if k not in KIND_LABELS:
        return f"unknown region kind {k!r}; kinds: {', '.join(KIND_LABELS)}"
    if k == "hexes" and not data.get("hexes"):
        return "pick or type at least one hex"
    if k == "path" and len(data.get("through") or []) < 2:
        return f"pick or type at least two {data.get('network', 'road')} hexes (the waypoints, in order)"
    if k == "hex_range" and not (data.get("first") and data.get("last")):
        return "pick or type both ends of the hex line"
    if k in ("feature", "section", "named") and not data.get("name"):
        return {"feature": "choose a feature", "section": "choose a map section",
                "named": "choose a named region (the scenario has none yet?)"}[k]
    for c in _children(data):
        p = region_problem(c)
        if p is not None:
            return p
    try:
        region_from_data(data)
    except ValidationError as e:
        return _short_validation(e)
    return None


def _feature_names(hexmap) -> list[str]:
    if hexmap is None:
        return []
    names = sorted(hexmap.features)
    blds = sorted({b.display_name() for b in hexmap.buildings.values() if b.number is not None or b.name})
    return names + [b for b in blds if b not in names]


def _ctx_of(source):
    if source is None:
        return None
    return getattr(source, "context", source)
