"""Copies of shipped scenario files for tests: written elsewhere (so the map and the counter files
are named by absolute path), optionally shortened, optionally changed.

A shortened copy keeps the map, the forces and the rules and brings every later Game Turn the
scenario names (an entry, an arrival) forward to its last turn, so it still validates and its
reinforcements still enter: a test that only needs a game to be played, a replay to verify or a
message to be printed runs in a fraction of a whole game's time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable


def clamp_turns(v: Any, last: int) -> Any:
    """``v`` (a scenario's JSON value) with every ``"turn"`` integer above ``last`` made ``last``."""
    if isinstance(v, dict):
        return {k: (min(x, last) if k == "turn" and type(x) is int else clamp_turns(x, last)) for k, x in v.items()}
    if isinstance(v, list):
        return [clamp_turns(x, last) for x in v]
    return v


def scenario_copy(folder: Path, source: Path | str, *, turns: int | None = None, name: str | None = None,
                  change: Callable[[dict], Any] | None = None, bring_forward: bool = True) -> Path:
    """The path of a copy of the scenario file ``source`` in ``folder`` (named ``name``, else as
    the source): its map (and counters) named by absolute path; with ``turns``, lasting that many
    Game Turns, the later turns it names brought forward (:func:`clamp_turns`) unless
    ``bring_forward`` is False; ``change`` edits the JSON data in place before it is written."""
    source = Path(source)
    d = json.loads(source.read_text(encoding="utf-8"))
    if turns is not None:
        if bring_forward:
            d = clamp_turns(d, turns)
        d["turns"] = turns
    d["map"]["file"] = str((source.parent / d["map"]["file"]).resolve())
    if isinstance(d.get("counters"), str):
        d["counters"] = str((source.parent / d["counters"]).resolve())
    if change is not None:
        change(d)
    out = Path(folder) / (name or source.name)
    out.write_text(json.dumps(d), encoding="utf-8")
    return out
