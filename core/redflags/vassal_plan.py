"""What a Red Flags scenario puts into a VASSAL module (``ironcross export vassal``), as the shared
plan (:class:`core.vassal_plan.VassalPlan`, hex grid): the 100 mm hexes are the shared map's hexes
(General Rules), so the board and its grid named by the printed hex ids are Iron Cross's.

* Counters: every unit of the scenario from its roster entry (the Units table's establishments):
  ID and its group's activation card on top, the roster name, then what it fights with -- figures
  (R rifle, S SMG, L LMG, A infantry anti-tank) and support weapon, or gun with range and dice
  (weapon table), AFV class, transport, aircraft role and engines; quality as ``+``/``-``. The same
  values as piece properties. Facing (r.enfilade) and an aircraft's heading are six-step rotations
  (hexside 1 at the top, clockwise); DUG IN (r.setup) a layer of every unit that may dig in.
* Markers: Shaken and Broken (r.morale), Wire and Mines (Movement), Objective (r.victory), and one
  card per group (Activation) naming its group.
* Set-up: a designer's set-up ``NAME.placement.json`` beside the scenario (``{"units": {uid:
  hex}}``, the shape ``load_setup(path, fixed=...)`` takes) is played into a game's set-up
  (r.setup: zones, space, no enemy), so carried units and limbered guns stand with their vehicle;
  every unit it does not place waits in its side's set-up box. The scenario's wire, mines and
  objectives stand at their hexes (printed in the scenario, public). Aircraft wait in an entry box
  for their turn (Movement: aircraft), their entry hex and heading as values.
* Help: the scenario's text, the set-up zones, groups and cards, and the roster entries' provenance
  where a value is reconstructed.

Reached through ``RuleSystem.vassal_plan`` (``core.redflags.system``).
"""

from __future__ import annotations

import html
import os
from pathlib import Path

from core.vassal_plan import SIDE_NAMES, Counter, Placement, VassalPlan

__all__ = ["plan_from_files", "unit_counter", "MARKERS"]

#: Markers of the palette: name -> (lines printed, rule).
MARKERS: dict[str, tuple[tuple[str, str, str], str]] = {
    "Shaken": (("", "SHAKEN", "morale"), "r.morale"),
    "Broken": (("", "BROKEN", "morale"), "r.morale"),
    "Wire": (("", "WIRE", "movement"), "movement.wire"),
    "Mines": (("", "MINES", "movement"), "movement.mines"),
    "Objective": (("", "OBJ.", "victory"), "r.victory"),
}
_FIGURE_CODES = {"rifle": "R", "smg": "S", "lmg": "L", "infantry_at": "A"}
_QUALITY_MARK = {"above_average": "+", "average": "", "below_average": "-"}
#: Units that may set up dug in (r.setup: not AFVs, transports or aircraft).
_DIGS_IN = ("infantry", "engineer", "cavalry", "recon", "artillery", "observer", "commander")


def _figures_text(figures: list[str]) -> str:
    """``4R 1L 1S``: how many figures carry each weapon (Units: Notes), in the order R S L A."""
    return " ".join(f"{figures.count(w)}{code}" for w, code in _FIGURE_CODES.items() if figures.count(w))


def _weapon_name(wid: str | None, weapons) -> str:
    return weapons[wid].name if wid in weapons else (wid or "")


def unit_counter(spec, entry, group, side: str, weapons) -> Counter:
    """The counter of one unit of the scenario: ``spec`` its :class:`core.redflags.scenario.UnitSpec`,
    ``entry`` its roster entry, ``group`` its group (card), ``weapons`` the weapon table."""
    kind = entry.kind
    support = entry.support if spec.support is None else (None if spec.support == "none" else spec.support)
    values: dict[str, str] = {"ID": spec.id, "Side": SIDE_NAMES[side], "Group": group.name,
                              "Card": group.card.label(), "Type": entry.id, "Name": entry.name, "Kind": kind,
                              "Quality": spec.quality}
    armoured = kind == "afv" or (kind == "recon" and entry.recon_mode == "armoured_car")
    if entry.figures:
        values["Figures"] = ", ".join(entry.figures)
        bottom = _figures_text(entry.figures)
        if support:
            values["Support"] = _weapon_name(support, weapons)
            bottom += " +" + {"hmg": "HMG", "infantry_mortar": "MOR", "flamethrower": "FLM"}.get(support, support)
        if entry.recon_mode:
            values["Recon"] = entry.recon_mode
    elif armoured or kind == "artillery":
        w = weapons[entry.gun]
        values.update({"Gun": w.name, "Range": str(w.range), "Dice": f"{w.dice} per {w.per}"})
        if w.penetration is not None:
            values["Penetration"] = str(w.penetration)
        if armoured:
            values.update({"AFV class": entry.afv_class or "", "Vehicles": str(entry.vehicles)})
            bottom = f"{entry.afv_class} {w.range}h {w.dice}D" + (f" x{entry.vehicles}" if entry.vehicles > 1 else "")
        else:
            values["Size"] = entry.size or ""
            bottom = f"{w.range}h {w.dice}D {entry.size}"
            if spec.tow:
                values["Tow"] = spec.tow
            if spec.limbered:
                values["Limbered"] = "yes"
    elif kind == "transport":
        values["Transport"] = entry.transport or ""
        bottom = entry.transport or ""
    elif kind == "aircraft":
        values.update({"Role": entry.role or "", "Engines": str(entry.engines), "Arrives": str(spec.arrives),
                       "Entry": spec.entry or "", "Heading": str(spec.heading)})
        bottom = f"{(entry.role or '').replace('_', ' ')} T{spec.arrives}"
    else:  # observer, commander: one figure
        bottom = kind
    if spec.aboard:
        values["Aboard"] = spec.aboard
    values["Provenance"] = entry.provenance.provenance
    mark = _QUALITY_MARK[spec.quality]
    layers = (("Dug in", "DUG IN", "G"),) if kind in _DIGS_IN and not armoured else ()
    return Counter(side=side, lines=(f"{spec.id} {group.card.label()}", entry.name, f"{bottom} {mark}".strip()),
                   values=values, name=f"{spec.id} {entry.name}", facing="hexside", layers=layers)


def _markers(sc) -> dict[str, Counter]:
    out = {name: Counter(side="marker", lines=lines, values={"Marker": name, "Rule": rule}, name=name)
           for name, (lines, rule) in MARKERS.items()}
    for side in ("german", "russian"):
        for g in sc.side(side).groups:
            name = f"Card {g.card.rank} of {g.card.suit}"
            out[name] = Counter(side="marker", lines=(SIDE_NAMES[side], g.card.label(), g.name),
                                values={"Marker": name, "Rule": "activation", "Side": SIDE_NAMES[side],
                                        "Group": g.name}, name=f"{g.card.label()} {g.name}")
    return out


def _read_placement(path: Path) -> dict[str, str]:
    """The designer's set-up file beside the scenario: ``{"units": {uid: hex}}``; raises
    :class:`maps.document_file.DocumentError` naming the file and the place of a malformed one."""
    from maps.document_file import DocumentError, Problem, read_json

    data = read_json(path)
    units = data.get("units") if isinstance(data, dict) else None
    if not isinstance(units, dict):
        raise DocumentError(path, [Problem("$.units", "a Red Flags set-up is {\"units\": {unit id: hex id}}")])
    bad = [Problem(f"$.units.{k}", "a hex id (\"3717\") is expected") for k, v in units.items() if not isinstance(v, str)]
    if bad:
        raise DocumentError(path, bad)
    return dict(units)


def plan_from_files(scenario_path: str | os.PathLike[str]) -> VassalPlan:
    """The plan of a Red Flags scenario file and, when it exists, ``NAME.placement.json`` beside it.

    Raises :class:`maps.document_file.DocumentError` for an invalid scenario or set-up file and
    :class:`core.rule_system.ScenarioError` (a ValueError) naming the file and the unit for a set-up
    that does not fit (outside its zone, no space: r.setup)."""
    from core.redflags.game import Game
    from core.redflags.scenario import load_setup
    from core.redflags.tables import weapon_table

    path = Path(scenario_path)
    placement_path = path.with_name(path.name.removesuffix(".json") + ".placement.json")
    fixed = {"units": _read_placement(placement_path)} if placement_path.exists() else None
    setup = load_setup(path, fixed=fixed)
    game = Game(setup, 0)  # plays the designer's placements into the set-up (r.setup), checking each
    sc = setup.scenario
    weapons = weapon_table()
    counters: dict[str, Counter] = {}
    for side, group, spec, _loc in sc.units():
        counters[spec.id] = unit_counter(spec, setup.roster[spec.type], group, side, weapons)
    placed: dict[str, Placement] = {}
    waiting: dict[str, list[str]] = {"german": [], "russian": []}
    entries: dict[tuple[str, int], list[str]] = {}
    for side, _g, spec, _loc in sc.units():
        u = game.units[spec.id]
        if u.kind == "aircraft":
            entries.setdefault((side, spec.arrives or 1), []).append(spec.id)
        elif u.hexes:
            placed[spec.id] = Placement(u.hexes[0], u.facing, ("Dug in",) if u.dug_in else ())
        elif u.carried_by and game.units[u.carried_by].hexes:
            placed[spec.id] = Placement(game.units[u.carried_by].hexes[0], u.facing)
        else:
            waiting[side].append(spec.id)
    holding = [(side, f"set up in the zone ({_zone_text(sc.side(side).setup_zone)})", ids)
               for side, ids in waiting.items() if ids]
    public = [("Wire", Placement(h)) for h in sc.fortifications.wire] + \
             [("Mines", Placement(h)) for h in sc.fortifications.mines] + \
             [("Objective", Placement(h)) for h in sc.victory.objectives]
    provenance = []
    for e in sorted({setup.roster[s.type].id: setup.roster[s.type] for _s, _g, s, _l in sc.units()}.values(),
                    key=lambda e: e.id):
        p = e.provenance
        if p.provenance == "reconstructed":
            provenance.append(f"{e.id} ({e.name}): reconstructed: {p.rationale}")
        elif p.reconstructed:
            provenance.append(f"{e.id} ({e.name}): {p.source}; reconstructed: {p.reconstructed}")
    return VassalPlan(system="Red Flags", title=sc.title, hexmap=setup.hexmap, sections=list(sc.map.sections),
                      turns=sc.turns, counters=counters, markers=_markers(sc), placed=placed,
                      help_html=_help_html(sc, setup.roster, provenance), grid="hex", turn_name="Turn",
                      entries=[(s, t, ids) for (s, t), ids in sorted(entries.items())], holding=holding,
                      placed_markers=public, source=str(path), provenance=provenance)


def _zone_text(z) -> str:
    parts = []
    if z.columns is not None and z.rows is not None:
        parts.append(f"columns {z.columns[0]:02d}-{z.columns[1]:02d}, rows {z.rows[0]:02d}-{z.rows[1]:02d}")
    if z.hexes:
        parts.append("hexes " + ", ".join(z.hexes))
    return "; ".join(parts)


def _help_html(sc, roster: dict, provenance: list[str]) -> str:
    """The scenario's text as the designer wrote it, with its set-up zones, groups and cards."""
    e = html.escape
    parts = [f"<h1>{e(sc.title)}</h1>", "<p>Red Flags and Iron Crosses: 100 mm hexes are the map's hexes.</p>"]
    if sc.background:
        parts.append(f"<p>{e(sc.background)}</p>")
    parts.append(f"<h2>Map</h2><p>{e(', '.join(sc.map.sections))}</p>")
    parts.append(f"<p>Game length: {sc.turns} turns. {SIDE_NAMES[sc.sets_up_first]} sets up first. Each turn the "
                 "activation cards are shuffled and turned one by one; the group on the card acts (Activation).</p>")
    for side in ("german", "russian"):
        spec = sc.side(side)
        parts.append(f"<h2>{SIDE_NAMES[side]}</h2><p>Set-up zone: {e(_zone_text(spec.setup_zone))}; facing hexside "
                     f"{spec.facing}{'; sets up dug in' if spec.dug_in else ''}.</p>")
        if spec.notes:
            parts.append("<ul>" + "".join(f"<li>{e(n)}</li>" for n in spec.notes) + "</ul>")
        rows = []
        for g in spec.groups:
            units = ", ".join(f"{u.id} ({roster[u.type].name}"
                              + (f", {u.quality.replace('_', ' ')}" if u.quality != "average" else "")
                              + (f", arrives turn {u.arrives} at {u.entry} heading {u.heading}" if u.arrives else "")
                              + ")" for u in g.units)
            rows.append(f"<li>{e(g.card.label())} {e(g.name)}: {e(units)}</li>")
        parts.append("<ul>" + "".join(rows) + "</ul>")
    f = sc.fortifications
    if f.wire or f.mines:
        parts.append(f"<h2>Fortifications</h2><p>Wire: {e(', '.join(f.wire) or 'none')}. "
                     f"Mines: {e(', '.join(f.mines) or 'none')}.</p>")
    parts.append(f"<h2>Victory conditions</h2><p>{e(sc.victory.text)}</p><p>Objectives: "
                 f"{e(', '.join(sc.victory.objectives))}.</p>")
    if sc.notes:
        parts.append("<h2>Notes</h2><ul>" + "".join(f"<li>{e(n)}</li>" for n in sc.notes) + "</ul>")
    if provenance:
        parts.append("<h2>Reconstructed values</h2><p>The fragment does not print these; they are reconstructed "
                     "(see the toolkit's docs/redflags.md):</p><ul>"
                     + "".join(f"<li>{e(p)}</li>" for p in provenance) + "</ul>")
    return "<html><body>" + "\n".join(parts) + "</body></html>\n"

