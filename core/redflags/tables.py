"""The printed tables and the reconstructed values of Red Flags and Iron Crosses, read from data.

Every number the rules use lives in ``core/redflags/data/*.json`` as a *valued entry*
``{"value": ..., "provenance": "rulebook", "source": "<section of the fragment>"}`` or
``{"value": ..., "provenance": "reconstructed", "rationale": "<one line>"}``:

- ``weapons.json``: the weapon table (Firing and bombing): range, dice and what they are counted
  per, which targets a weapon may engage, and the reconstructed penetration class;
- ``movement.json``: the movement table (hexes per turn per unit type), the aircraft table
  (hexes per turn / turns over the battlefield) and the movement rules' numbers;
- ``rules.json``: the rule register (every rule id that events carry, with its printed quote or
  its reconstruction's rationale) and the reconstructed values (hit numbers, morale, space);
- ``terrain_mapping.json``: how the system reads the shared painted map (see :mod:`.terrain`).

:func:`load_data` validates a file (raises :class:`maps.document_file.DocumentError` naming the
file, the JSON path and the problem); :func:`weapon_table` builds :class:`Weapon` records for a
set of options (``"ranges-b"``: the second reading of the artillery ranges).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from maps.document_file import DocumentError, Problem, json_path, read_json

__all__ = ["DATA_DIR", "Valued", "Weapon", "load_data", "iter_valued", "value", "weapon_table", "rule_register",
           "rule_text", "movement_table", "aircraft_table", "rules_value", "OPTIONS", "SIDES"]

DATA_DIR = Path(__file__).resolve().parent / "data"

SIDES = ("german", "russian")

#: Optional readings of unclear clauses (name -> description), for ``RuleSystem.options``.
OPTIONS: dict[str, str] = {
    "ranges-b": "weapon table, second reading of the artillery ranges: infantry guns 6, heavy mortars 8, "
                "mountain guns 12, field guns 16, medium and heavy guns 20 hexes (default: 6, 6, 8, 12, 16, 20)",
}


class Valued(BaseModel):
    """One value with its provenance: ``rulebook`` needs ``source``, ``reconstructed`` needs ``rationale``."""

    model_config = ConfigDict(extra="allow", frozen=True)

    value: Any
    provenance: Literal["rulebook", "reconstructed"]
    source: str | None = None
    rationale: str | None = None

    @model_validator(mode="after")
    def _needs_reason(self) -> "Valued":
        if self.provenance == "rulebook" and not self.source:
            raise ValueError("a 'rulebook' value needs 'source' (the fragment's section)")
        if self.provenance == "reconstructed" and not self.rationale:
            raise ValueError("a 'reconstructed' value needs a one-line 'rationale'")
        return self


def iter_valued(node: Any, loc: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    """Every valued entry (a dict with ``"value"`` and ``"provenance"``) in a JSON tree, with its location."""
    if isinstance(node, dict):
        if "value" in node and "provenance" in node:
            yield loc, node
            return
        for k, v in node.items():
            yield from iter_valued(v, loc + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from iter_valued(v, loc + (i,))


@lru_cache(maxsize=None)
def _load(name: str) -> str:
    path = DATA_DIR / name
    data = read_json(path)  # the safe reader: a damaged copy is refused naming the file and the place
    if not isinstance(data, dict):
        raise DocumentError(path, [Problem("$", "expected a JSON object (a table of the rules)")])
    problems = []
    for loc, entry in iter_valued(data):
        try:
            Valued.model_validate(entry)
        except ValidationError as e:
            for err in e.errors(include_url=False):
                problems.append(Problem(json_path(loc + tuple(err.get("loc", ()))), err.get("msg", "invalid")))
    if problems:
        raise DocumentError(path, problems)
    return json.dumps(data)


def load_data(name: str) -> dict:
    """The parsed data file ``core/redflags/data/<name>`` (a fresh copy; validated once per process).
    Raises :class:`DocumentError` for a valued entry without its provenance."""
    return json.loads(_load(name))


def value(entry: dict) -> Any:
    """The ``value`` of a valued entry."""
    return entry["value"]


@lru_cache(maxsize=None)
def _rules_doc() -> dict:
    return load_data("rules.json")


def rule_register() -> dict[str, dict]:
    """Rule id -> ``{"provenance", "section"/"title", "quote"/"rationale"}``: every rule events name."""
    return _rules_doc()["rules"]


def rule_text(rule: str) -> str:
    """A short human label for a rule id (``"movement.uphill"`` -> ``"Movement (printed)"``)."""
    r = rule_register().get(rule)
    if r is None:
        return rule
    if r["provenance"] == "rulebook":
        return f"{r['section']} (printed)"
    return f"{r['title']} (reconstructed)"


def rules_value(*path: str) -> Any:
    """A reconstructed (or printed) value of ``rules.json`` ``values``: ``rules_value("hit_number", "personnel_open")``."""
    node: Any = _rules_doc()["values"]
    for p in path:
        node = node[p]
    return node["value"]


@lru_cache(maxsize=None)
def _movement_doc() -> dict:
    return load_data("movement.json")


def movement_table() -> dict[str, Any]:
    """``{"ground": {type: hexes}, "recon": {mode: hexes}, "rules": {name: value}}`` (values only)."""
    d = _movement_doc()

    def flat(n: Any) -> Any:
        if isinstance(n, dict) and "value" in n and "provenance" in n:
            return n["value"]
        if isinstance(n, dict):
            return {k: flat(v) for k, v in n.items()}
        return n

    return {"ground": flat(d["ground"]), "recon": flat(d["recon"]), "rules": flat(d["rules"])}


def aircraft_table() -> dict[str, tuple[int, int]]:
    """Aircraft role -> (hexes per turn, turns over the battlefield) (aircraft table)."""
    return {k: (v["hexes"]["value"], v["turns"]["value"]) for k, v in _movement_doc()["aircraft"].items()}


@dataclass(frozen=True)
class Weapon:
    """One row of the weapon table, resolved for a set of options.

    ``range`` hexes (0: in the hex; None: the bombed area), ``dice`` D6 ``per`` figure / crew
    figure / engineer / AFV / aircraft / hex of mines; ``targets`` the target classes it may engage
    (``"personnel"``, ``"vehicle"`` = artillery, vehicles and tanks, ``"aircraft"``);
    ``penetration`` its class against armour (None: cannot hurt AFVs); ``artillery``: its hits
    take effect on every unit in the hex (General Rules); ``indirect``: may fire at hexes it
    cannot see through a spotter (artillery other than anti-tank guns); ``ground_equivalent``:
    for anti-aircraft guns, the weapon they count as against ground targets; ``uses``: a limit
    per sortie or per engineer (None: unlimited)."""

    id: str
    name: str
    range: int | None
    dice: int
    per: str
    targets: frozenset[str]
    penetration: int | None
    artillery: bool
    indirect: bool
    ground_equivalent: str | None = None
    uses: int | None = None


@lru_cache(maxsize=8)
def weapon_table(options: tuple[str, ...] = ()) -> dict[str, Weapon]:
    """Weapon id -> :class:`Weapon` (``options``: ``"ranges-b"`` takes each range's ``alternative``)."""
    doc = load_data("weapons.json")
    alt = "ranges-b" in options
    out: dict[str, Weapon] = {}
    for wid, w in doc["weapons"].items():
        rng = w["range"]["value"]
        if alt and "alternative" in w["range"]:
            rng = w["range"]["alternative"]
        if rng == "bombed area":
            rng = None
        pen = w["penetration"]["value"] if w.get("penetration") else None
        uses = None
        if "uses" in w:
            uses = w["uses"]["value"]
        elif "uses_per_engineer" in w:
            uses = w["uses_per_engineer"]["value"]
        out[wid] = Weapon(wid, w["name"], rng, w["dice"]["value"], w["per"], frozenset(w["targets"]["value"]), pen,
                          bool(w["artillery"]), bool(w["indirect"]),
                          w["ground_equivalent"]["value"] if "ground_equivalent" in w else None, uses)
    return out
