"""What a 20 mm scenario puts into a VASSAL module (``ironcross export vassal``), as the shared plan
(:class:`core.vassal_plan.VassalPlan`) on a FREE board: the rules measure in inches, so pieces
stand anywhere (the board's hex grid does not snap; it only names where a piece is).

* Board: the scenario's map sections as the table (``docs/table-map.md``); a unit's table position
  (inches, ``"at"`` or a hex centre) is converted to map units (``TableMap.from_table``: the
  scenario's scale, inches per hex across flats), which the writer turns into board pixels.
* Counters: every unit of the scenario with its values from the scenario and the Vehicle and
  Anti-Tank Gun Reference Table: an infantry section its men and special weapons (SMG, LMG, AT
  rifle, Panzerfaust); a crewed weapon its crew (an anti-tank gun its calibre and Strike Values per
  range band); a vehicle its Armour Value, gun calibre and Strike Values, movement class and
  turret; a battery its guns and calibre. Facing is a free rotation to the unit's bearing (degrees,
  0 = +x, 90 = +y down the sheet).
* Set-up: every unit at its table position and facing (embarked and limbered units with their
  vehicle); hidden units (Setup: "troops in cover may begin the game hidden") on their side's own
  copy of the board; off-table batteries in their side's box; the objectives as markers at their
  points.
* Help: the scenario's text, objectives, set-up areas, scale, and the provenance of the reference
  rows the counters use.

Reached through ``RuleSystem.vassal_plan`` (``core.twentymm.system``).
"""

from __future__ import annotations

import html
import os
from pathlib import Path

from core.vassal_plan import SIDE_NAMES, Counter, Placement, VassalPlan

__all__ = ["plan_from_files", "unit_counter", "MARKERS"]

#: Markers of the palette: name -> (lines printed, rule section).
MARKERS: dict[str, tuple[tuple[str, str, str], str]] = {
    "Pinned": (("", "PINNED", ""), "Pinning"),
    "Immobilised": (("", "IMMOB.", ""), "Aiming for The Tracks"),
    "Knocked out": (("", "K.O.", ""), "Damaged Vehicles"),
    "Hidden": (("", "HIDDEN", ""), "Visibility and Spotting"),
    "Objective": (("", "OBJ.", ""), "Scenario"),
}
_WEAPON_NAMES = {"hmg": "HMG", "lmg": "LMG", "mortar_light": "light mortar", "mortar_medium": "medium mortar",
                 "mortar_heavy": "heavy mortar"}


def _sv(sv: list) -> str:
    """Strike Values per range band (up to 10, 20, ... 60 inches), ``8 7 5 4 - -`` ('-': out of
    effective range; spaces, as VASSAL's piece definitions reserve '/')."""
    return " ".join("-" if v is None else str(v) for v in sv)


def unit_counter(spec, side: str) -> Counter:
    """The counter of a unit of the scenario (``spec``: :class:`core.twentymm.scenario.UnitSpec`)."""
    from core.twentymm import tables

    values: dict[str, str] = {"ID": spec.id, "Side": SIDE_NAMES[side], "Type": spec.type, "Name": spec.name or spec.id}
    t = spec.type
    if t in ("section", "command", "foo"):
        arms = {"SMG": spec.smg, "LMG": spec.lmg, "AT rifle": spec.at_rifle, "Panzerfaust": spec.panzerfaust}
        values["Men"] = str(spec.men)
        values.update({k: str(v) for k, v in arms.items() if v})
        short = {"SMG": "S", "LMG": "L", "AT rifle": "A", "Panzerfaust": "P"}
        bottom = f"{spec.men} men " + " ".join(f"{v}{short[k]}" for k, v in arms.items() if v)
    elif t == "vehicle":
        ref = tables.vehicle(spec.vehicle)
        values.update({"Vehicle": spec.vehicle, "AV": str(ref["av"]), "Class": ref.get("class", ""),
                       "Turret": "yes" if ref.get("turret") else "no"})
        guns = ref.get("guns") or []
        if guns:
            values.update({"Calibre": f"{guns[0]['calibre']} mm", "SV": _sv(guns[0]["sv"])})
        bottom = f"AV{ref['av']}" + (f" {guns[0]['calibre']}mm" if guns else "")
    elif t == "atg":
        g = tables.gun(spec.gun)
        values.update({"Gun": spec.gun, "Calibre": f"{g['calibre']} mm", "SV": _sv(g["sv"]), "Crew": str(spec.crew)})
        bottom = f"{g['calibre']}mm crew {spec.crew}"
    elif t == "battery":
        calibre = spec.calibre or 150
        values.update({"Guns": str(spec.guns), "Calibre": f"{calibre} mm"})
        bottom = f"{spec.guns} x {calibre}mm"
    else:  # hmg, lmg, mortars: a crewed weapon
        values.update({"Weapon": _WEAPON_NAMES.get(t, t), "Crew": str(spec.crew)})
        bottom = f"{_WEAPON_NAMES.get(t, t)} crew {spec.crew}"
    for flag in ("radio", "elite", "officer", "hidden", "schuerzen", "he_only"):
        if getattr(spec, flag):
            values[flag.replace("_", " ").capitalize()] = "yes"
    for key in ("embarked_in", "limbered_to"):
        if getattr(spec, key):
            values[key.replace("_", " ").capitalize()] = getattr(spec, key)
    middle = spec.vehicle if t == "vehicle" else (spec.name or t)
    return Counter(side=side, lines=(spec.id, middle, bottom.strip()), values=values, name=f"{spec.id} {spec.name}".strip(),
                   facing="degrees")


def plan_from_files(scenario_path: str | os.PathLike[str]) -> VassalPlan:
    """The plan of a 20 mm scenario file. Raises :class:`maps.document_file.DocumentError` for an
    invalid scenario (a unit off the table, hidden outside cover, ...)."""
    from core.twentymm.scenario import load_setup, read_scenario

    path = Path(scenario_path)
    doc = read_scenario(path)
    setup = load_setup(path)
    table = setup.table
    units = {u.uid: u for u in setup.units}
    counters: dict[str, Counter] = {}
    placed: dict[str, Placement] = {}
    off_table: dict[str, list[str]] = {"german": [], "russian": []}
    for side in ("german", "russian"):
        for spec in getattr(doc, side):
            counters[spec.id] = unit_counter(spec, side)
            u = units[spec.id]
            if spec.type == "battery" or u.pos is None:
                off_table[side].append(spec.id)
                continue
            placed[spec.id] = Placement(table.from_table(*u.pos), float(u.facing), secret=bool(spec.hidden))
    objectives = [("Objective", Placement(table.from_table(*o["point"]))) for o in setup.objectives]
    markers = {name: Counter(side="marker", lines=lines, values={"Marker": name, "Rule": rule}, name=name)
               for name, (lines, rule) in MARKERS.items()}
    provenance = _reference_provenance(doc)
    return VassalPlan(system="20 mm", title=doc.title, hexmap=table.hexmap,
                      sections=list(doc.map.sections or [sec.name for sec in table.hexmap.doc.sections]), turns=doc.turns, counters=counters, markers=markers,
                      placed=placed, help_html=_help_html(doc, setup, provenance), grid="free", turn_name="Game Turn",
                      holding=[(s, "off-table support", ids) for s, ids in off_table.items() if ids],
                      placed_markers=objectives, source=str(path), provenance=provenance)


def _reference_provenance(doc) -> list[str]:
    """Where the reference rows the scenario's vehicles and guns use come from, one line each."""
    from core.twentymm import tables

    out = []
    for side in ("german", "russian"):
        for spec in getattr(doc, side):
            if spec.type == "vehicle":
                ref = tables.vehicle(spec.vehicle)
                line = f"{spec.vehicle}: {ref.get('provenance', 'rulebook')}"
                if ref.get("class_provenance"):
                    line += f"; movement class: {ref['class_provenance']}"
                out.append(line)
            elif spec.type == "atg":
                out.append(f"{spec.gun}: {tables.gun(spec.gun).get('provenance', 'rulebook')}")
    return sorted(set(out))


def _help_html(doc, setup, provenance: list[str]) -> str:
    """The scenario's text as the designer wrote it, with scale, objectives and set-up areas."""
    from core.twentymm import tables

    e = html.escape
    parts = [f"<h1>{e(doc.title)}</h1>"]
    if doc.background:
        parts.append(f"<p>{e(doc.background)}</p>")
    parts.append(f"<h2>Table</h2><p>{e(', '.join(doc.map.sections or ['the whole map']))} at {doc.scale:g} inches "
                 "per hex across flats. Pieces stand anywhere: measure in inches (the board's hex grid does not snap; "
                 f"one hex is {doc.scale:g} inches).{' Snow.' if doc.snow else ''}</p>")
    parts.append(f"<p>Game length: {doc.turns} Game Turns. {SIDE_NAMES[doc.first_side]} moves first; "
                 f"{SIDE_NAMES[doc.attacker]} attacks.</p>")
    if setup.objectives:
        parts.append("<h2>Objectives</h2><ul>" + "".join(
            f"<li>{e(o['name'])}: within {o['radius']:g} inches of ({o['point'][0]:.1f}, {o['point'][1]:.1f}) in</li>"
            for o in setup.objectives) + "</ul>")
    for side in ("german", "russian"):
        ring = doc.setup_areas.get(side)
        rows = [f"<li>{e(s.id)} {e(s.name)} ({e(s.type)})" + (" hidden" if s.hidden else "") + "</li>"
                for s in getattr(doc, side)]
        parts.append(f"<h2>{SIDE_NAMES[side]}</h2>"
                     + (f"<p>Set-up area (inches): {e(str([list(p) for p in ring]))}</p>" if ring else "")
                     + "<ul>" + "".join(rows) + "</ul>")
    if doc.notes:
        parts.append(f"<h2>Notes</h2><p>{e(doc.notes)}</p>")
    if doc.provenance:
        parts.append(f"<h2>Provenance</h2><p>{e(', '.join(f'{k}: {v}' for k, v in doc.provenance.items()))}</p>")
    parts.append(f"<h2>Reference table</h2><p>{e(tables.reference().get('source', ''))}</p>")
    if provenance:
        parts.append("<ul>" + "".join(f"<li>{e(p)}</li>" for p in provenance) + "</ul>")
    return "<html><body>" + "\n".join(parts) + "</body></html>\n"
