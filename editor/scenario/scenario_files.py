"""Scenario files as the editor meets them: a JSON document's ``format``, the designer's set-up
file beside a scenario, a new scenario on a map, and the data at a location of a scenario's JSON
(a region of a group, an entry or a victory condition)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from maps.hexmap import HexMap
from scenarios.model import Scenario

__all__ = ["new_scenario", "file_format", "placement_path", "region_at", "set_region_at"]


def file_format(path: str | os.PathLike[str]) -> str | None:
    """The ``format`` field of a JSON document (``"ironcross-scenario"``, ``"ironcross-map"``...),
    or None when the file is not a JSON object with one."""
    try:
        with open(path, encoding="utf-8") as f:
            head = f.read(4096)
    except OSError:
        return None
    import re

    m = re.search(r'"format"\s*:\s*"([^"]+)"', head)
    return m.group(1) if m else None


def is_scenario_format(fmt: str | None) -> bool:
    """Whether a document ``format`` is a scenario of some rule system: ``"ironcross-scenario"``
    (every system's, by the boundary's convention) or another system's own ``"NAME-scenario"``
    (the 20 mm rules' ``"twentymm-scenario"``); its ``rule_system`` then says which system."""
    return bool(fmt) and (fmt == "ironcross-scenario" or fmt.endswith("-scenario"))


def placement_path(path: str | os.PathLike[str]) -> Path:
    p = Path(path)
    return p.with_name(p.stem + ".placement.json")


def new_scenario(map_file: str | os.PathLike[str], hexmap: HexMap, title: str = "New scenario",
                 sections: list[str] | None = None) -> Scenario:
    """A minimal valid scenario on ``hexmap``: the map ``sections`` (default: all), north at the
    top of the sheet, one group a side and a placeholder victory condition. The placeholders are
    regions of the playing area itself, so they lie inside whatever sections are chosen, now or
    later: the Germans set up within 2 hexes of the west map edge, the Russians enter on turn 1
    on the east map edge, and the Russians win with a unit within 2 hexes of the west edge."""
    sections = list(sections or [s.name for s in hexmap.doc.sections] or ["Map"])
    c0, r0 = hexmap.first_column, hexmap.first_row
    hid = lambda c, r: f"{c:02d}{r:02d}"  # noqa: E731
    west = {"kind": "within", "of": {"kind": "map_edge", "direction": "west"}, "distance": 2}
    data = {
        "title": title,
        "map": {"file": str(Path(map_file).resolve()), "sections": sections},
        "north": {"hex": hid(c0, r0 + 1), "points_to": hid(c0, r0)},
        "turns": 8, "sets_up_first": "german", "moves_first": "russian",
        "german": {"groups": [{"name": "German force", "oob": [], "setup": {"region": west}}]},
        "russian": {"groups": [{"name": "Russian force", "oob": [],
                                "entry": {"options": [{"region": {"kind": "map_edge", "direction": "east"},
                                                       "turn": 1}]}}]},
        "victory": {"text": "The Russians win if a Russian unit is within 2 hexes of the west map edge at the end; "
                            "otherwise the Germans win.",
                    "outcomes": [{"result": "russian", "condition": {
                        "kind": "at_least", "side": "russian", "count": 1, "region": west}}],
                    "default": "german"},
    }
    return Scenario.model_validate(data)


def region_at(data: Any, loc: tuple) -> Any:
    for k in loc:
        data = data[k]
    return data


def set_region_at(data: Any, loc: tuple, value: Any) -> None:
    for k in loc[:-1]:
        data = data[k]
    data[loc[-1]] = value
