"""What an Iron Cross scenario puts into a VASSAL module (``ironcross export vassal``): the counters
in play with their values, the designer's set-up, later entries, each side's secrets and the
scenario's text. Plain data, no Qt and no pywargame: ``cli/vassal_module.py`` draws and writes it.

Reached through the rule-system boundary (``RuleSystem.vassal_plan``) by the command line, and
directly by the editor's File > Export (:func:`plan_from_documents`, the in-memory documents). The
plan's shape is every system's: :class:`core.vassal_plan.VassalPlan`.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.vassal_plan import SIDE_NAMES, Counter, Placement, VassalPlan

__all__ = ["ExportError", "ExportPlan", "SIDE_NAMES", "MARKERS", "counter_lines", "unit_counter", "plan_from_files",
           "plan_from_documents"]


class ExportError(ValueError):
    """The scenario cannot be exported (names the file and the problems)."""


@dataclass
class ExportPlan(VassalPlan):
    """The module's plan (:class:`core.vassal_plan.VassalPlan`, hex grid) with ``units``: the engine
    units (:class:`core.ironcross.state.Unit`) by id in roster order, whose values the counters
    carry."""

    units: dict[str, Any] = field(default_factory=dict)


#: The markers of the palette: name -> (lines printed, rule).
MARKERS: dict[str, tuple[tuple[str, str, str], str]] = {
    "PINNED": (("", "PINNED", "3.2"), "3.2"),
    "SUPPRESSED": (("", "SUPPR.", "3.2"), "3.2"),
    "IP 1": (("", "IP", "1"), "18.1"),
    "IP 2": (("", "IP", "2"), "18.1"),
    "IP 3": (("", "IP", "3"), "18.1"),
    "Hidden": (("", "HIDDEN", "24.2"), "24.2"),
    "Wreck": (("", "WRECK", "12.3"), "12.3"),
    "AP mines": (("", "MINES", "AP"), "19.1"),
    "AT mines": (("", "MINES", "AT"), "19.1"),
    "Grenade": (("", "GREN.", "16.0"), "16.0"),
}


def counter_lines(u) -> tuple[str, str, str]:
    """The three lines printed on a counter: ID (top), weapon or type (middle), values (bottom).

    Infantry and commanders: ``AP-range assault PR`` (2.21); crew weapons: ``AP-range AT assault PR``
    (2.23; mortars' range is the minimum range); AFVs: ``AP-range AT F/f MA`` with the frontal and
    flank armour modifiers (2.22)."""
    kind = u.kind.value
    if kind == "afv":
        at = u.at if u.at else "-"
        return (u.id.split("-", 1)[1], u.weapon, f"{u.ap}-{u.ap_range} {at} {u.frontal:+d}/{u.flank:+d} {u.ma}")
    if kind == "cw":
        at = f" {u.at}" if u.at else ""
        return (u.id.split("-", 1)[1], u.weapon, f"{u.ap}-{u.ap_range}{at} {u.assault} PR{u.pr}")
    return (u.id.split("-", 1)[1], u.weapon, f"{u.ap}-{u.ap_range} {u.assault} PR{u.pr}")


def unit_counter(u) -> Counter:
    """The counter of an engine unit: its printed lines, its values as properties (``ID``, ``Side``,
    ``Kind``, ``Weapon``, ``AP``, ``Range``, ``Assault``, ``PR``; ``AT``, ``MA`` for crew weapons
    and AFVs, ``Crew``; ``Frontal``, ``Flank``, ``Overrun``; ``Squad``), UP/DOWN as a layer (3.1,
    3.12: every unit is UP or DOWN, AFVs too, docs/rules-interpretations.md) and a six-step facing
    when the unit has one (8.7: AFVs, MGs, ATGs)."""
    values = {"ID": u.id, "Side": SIDE_NAMES[u.side], "Kind": u.kind.value, "Weapon": u.weapon, "AP": u.ap,
              "Range": u.ap_range, "Assault": u.assault, "PR": u.pr}
    if u.kind.value in ("cw", "afv"):
        values.update({"AT": u.at, "MA": u.ma})
    if u.kind.value == "cw":
        values["Crew"] = u.crew_max
    if u.kind.value == "afv":
        values.update({"Frontal": u.frontal, "Flank": u.flank, "Overrun": u.overrun})
    if u.squad:
        values["Squad"] = u.squad
    return Counter(side=u.side, lines=counter_lines(u), values={k: str(v) for k, v in values.items()},
                   name=f"{u.id} {u.name}".strip(), facing="hexside" if u.has_facing else None,
                   layers=(("Down", "DOWN", "D"),))


def _marker_counters() -> dict[str, Counter]:
    return {name: Counter(side="marker", lines=lines, values={"Marker": name, "Rule": rule}, name=name)
            for name, (lines, rule) in MARKERS.items()}


# ---------------------------------------------------------------------------------------------
# Gathering the scenario
# ---------------------------------------------------------------------------------------------
def plan_from_files(scenario_path: str | os.PathLike[str]) -> ExportPlan:
    """The plan for the scenario file (validated) with its map, roster and, when it exists,
    ``NAME.placement.json`` beside it (the designer's set-up, checked). Raises
    :class:`maps.document_file.DocumentError` for an invalid scenario or placement file and
    :class:`ExportError` for a scenario that cannot be set up."""
    from core.ironcross.placement import load_placement
    from scenarios.scenario_file import load_scenario, load_scenario_map, load_scenario_roster

    path = Path(scenario_path)
    sc = load_scenario(path)
    hexmap = load_scenario_map(sc, path)
    roster = load_scenario_roster(sc, path)
    placement_path = path.with_name(path.name.removesuffix(".json") + ".placement.json")
    fixed = load_placement(placement_path) if placement_path.exists() else None
    return plan_from_documents(sc, hexmap, roster, fixed, source=str(path),
                               placement_source=str(placement_path) if fixed is not None else "")


def plan_from_documents(scenario, hexmap, roster=None, fixed: dict | None = None, *, source: str = "<scenario>",
                        placement_source: str = "<placement>") -> ExportPlan:
    """The plan for in-memory documents (what the editor holds): a validated
    :class:`scenarios.model.Scenario`, its :class:`maps.hexmap.HexMap`, roster and placement
    (``fixed``, the dict :func:`core.ironcross.placement.load_placement` returns, or None).

    Raises :class:`ExportError` naming ``source`` when the scenario cannot be set up, or naming
    ``placement_source`` with every problem of the placement."""
    from core.ironcross.placement import check_fixed_setup
    from core.ironcross.scenario_setup import build_setup
    from core.rule_system import ScenarioError

    try:
        setup = build_setup(scenario, hexmap, roster=roster, left_out=(fixed or {}).get("left_out"))
    except ScenarioError as e:
        raise ExportError(f"{source}: {e}") from None
    if fixed is not None:
        problems = check_fixed_setup(setup, fixed)
        if problems:
            raise ExportError("\n".join(f"{placement_source}: {p.path}: {p.message}" for p in problems))
    fixed = fixed or {}
    placed = {uid: (spec["hex"], spec.get("facing"), bool(spec.get("down")))
              for uid, spec in fixed.get("units", {}).items() if uid in setup.units}
    entries = []
    for e in setup.entries:
        ids = [u for u in e.units if u not in placed]
        if ids:
            entries.append((e.side, e.turn, ids))
    secrets: dict[str, list[str]] = {"german": [], "russian": []}
    placed_ips = fixed.get("ips", {})
    for side in ("german", "russian"):
        ips = [(h, v) for h, v in sorted(placed_ips.items()) if v["side"] == side]
        if ips:
            secrets[side] += [f"IP {v['points']} ({h})" for h, v in ips]
        else:
            secrets[side] += [f"IP {p}" for a in setup.allotments if a.side == side for p in a.ips]
        hidden = sorted(h for h, s in fixed.get("hidden_hexes", {}).items() if s == side)
        secrets[side] += [f"Hidden hex {h}" for h in hidden] or \
            [f"Hidden hex {i + 1}" for i in range(setup.hidden_hexes.get(side, 0))]
        mines = [(h, v) for h, v in sorted(fixed.get("mines", {}).items()) if v["side"] == side]
        if mines:
            for h, v in mines:
                secrets[side] += ([f"AP mines {v['ap']} ({h})"] if v.get("ap") else []) + \
                                 ([f"AT mines {v['at']} ({h})"] if v.get("at") else [])
        else:
            for a in setup.allotments:
                if a.side == side:
                    secrets[side] += ([f"AP mines {a.ap_mines}"] if a.ap_mines else []) + \
                                     ([f"AT mines {a.at_mines}"] if a.at_mines else [])
    provenance = []
    for uid in setup.units:
        try:
            ru = roster.unit(uid) if roster is not None else None
        except KeyError:
            ru = None
        if ru is not None:
            rec = [f"{f}: {ru.provenance_of(f).short()}" for f in sorted(ru.sources) if ru.is_reconstructed(f)]
            if rec:
                provenance.append(f"{uid}: " + "; ".join(rec))
    units = dict(setup.units)
    return ExportPlan(system="Iron Cross", title=scenario.title, hexmap=hexmap, sections=list(scenario.map.sections),
                      turns=scenario.turns, counters={uid: unit_counter(u) for uid, u in units.items()},
                      markers=_marker_counters(),
                      placed={uid: Placement(h, facing, ("Down",) if down else ()) for uid, (h, facing, down)
                              in placed.items()},
                      help_html=_help_html(scenario, provenance), grid="hex", entries=entries, secrets=secrets,
                      source=source, provenance=provenance, units=units)


def _help_html(sc, provenance: list[str]) -> str:
    """The scenario's text as the designer wrote it, as one HTML page."""
    e = html.escape
    parts = [f"<h1>{e(sc.title)}</h1>"]
    if sc.background:
        parts.append(f"<p>{e(sc.background)}</p>")
    parts.append(f"<h2>Map</h2><p>{e(sc.map.text or ', '.join(sc.map.sections))}</p>")
    if sc.north_text:
        parts.append(f"<p>{e(sc.north_text)}</p>")
    parts.append(f"<p>Game length: {sc.turns} Game Turns. {e(SIDE_NAMES[sc.sets_up_first])} sets up first; "
                 f"{e(SIDE_NAMES[sc.moves_first])} moves first.</p>")
    for side in ("german", "russian"):
        spec = sc.side(side)
        parts.append(f"<h2>{SIDE_NAMES[side]} set-up</h2>")
        if spec.setup_text:
            parts.append(f"<p>{e(spec.setup_text)}</p>")
        if spec.notes:
            parts.append("<ol>" + "".join(f"<li>{e(n.text)}</li>" for n in spec.notes) + "</ol>")
    victory_text = getattr(sc.victory, "text", "") or ""
    parts.append(f"<h2>Victory conditions</h2><p>{e(victory_text)}</p>")
    if sc.notes:
        parts.append("<h2>Special rules and notes</h2><ul>" + "".join(f"<li>{e(n)}</li>" for n in sc.notes) + "</ul>")
    if sc.provenance is not None:
        parts.append(f"<h2>Provenance</h2><p>Scenario: {e(sc.provenance.short())}</p>")
    if provenance:
        parts.append("<h2>Reconstructed counter values</h2><p>The rulebook does not print these values; they are "
                     "reconstructed (see the toolkit's docs/counters.md):</p><ul>"
                     + "".join(f"<li>{e(p)}</li>" for p in provenance) + "</ul>")
    return "<html><body>" + "\n".join(parts) + "</body></html>\n"
