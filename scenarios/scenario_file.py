"""Loading, checking and saving scenario files (format ``ironcross-scenario``).

:func:`load_scenario` validates the JSON against :class:`scenarios.model.Scenario`, then checks
the whole document: the referenced map loads, every region resolves to at least one hex of that
map (inside the scenario's map sections; an explicitly listed hex off the map or outside the
sections is an error naming it), named regions, group and detachment names, errata records, that
every OOB entry is used by a game (:func:`oob_problems`: no unit entry outside a group, IPs and
mines only where a set-up zone can take them, no ammo number for nobody, "with" naming a unit of
the group), and -- when a counter roster is available -- every OOB entry names counters that exist.
Each problem is one line ``FILE: $.json.path: problem`` (:class:`maps.document_file.DocumentError`).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Iterator

from maps.document_file import DocumentError, Problem, atomic_write_text, json_path, load_document
from maps.hexmap import HexMap
from scenarios.model import (
    SCENARIO_FORMAT,
    SCENARIO_VERSION,
    UNIT_ENTRY_TYPES,
    AFVEntry,
    CommanderEntry,
    CrewWeaponEntry,
    IPEntry,
    MinesEntry,
    Scenario,
    SquadEntry,
)
from scenarios.regions import RegionContext, RegionError
from scenarios.victory import iter_condition_regions

__all__ = [
    "DATA_DIR",
    "SHIPPED_SCENARIOS",
    "load_scenario",
    "scenario_from_data",
    "check_scenario",
    "save_scenario",
    "map_path",
    "load_scenario_map",
    "roster_path",
    "load_scenario_roster",
    "load_base_roster",
    "scenario_json",
    "scenario_context",
    "iter_regions",
    "oob_problems",
    "apply_scenario_errata",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
SHIPPED_SCENARIOS = tuple(DATA_DIR / n for n in (
    "scenario_1_demyansk_pocket.json",
    "scenario_2_khristishche.json",
    "scenario_3_closing_the_ring.json",
    "scenario_4_tula.json",
    "scenario_5_through_the_marshes.json",
    "scenario_6_spartakovka.json",
))


def map_path(scenario: Scenario, scenario_path: str | os.PathLike[str] | None = None) -> Path:
    """The map file a scenario refers to (relative to the scenario file; shipped data folder when
    the scenario has no file yet)."""
    p = Path(scenario.map.file)
    if p.is_absolute():
        return p
    base = Path(scenario_path).resolve().parent if scenario_path else DATA_DIR
    return (base / p).resolve()


def load_scenario_map(scenario: Scenario, scenario_path: str | os.PathLike[str] | None = None) -> HexMap:
    """Load the scenario's map (raises DocumentError naming the map file)."""
    from maps.mapfile import load_map

    return load_map(map_path(scenario, scenario_path))


def roster_path(scenario: Scenario, scenario_path: str | os.PathLike[str] | None = None) -> Path | None:
    """The counters file a scenario names (``counters``, relative to the scenario file), or None
    when it is played with the shipped roster."""
    if scenario.counters is None:
        return None
    p = Path(scenario.counters)
    if p.is_absolute() or scenario_path is None:
        return p
    return (Path(scenario_path).resolve().parent / p).resolve()


def load_scenario_roster(scenario: Scenario, scenario_path: str | os.PathLike[str] | None = None):
    """The :class:`scenarios.counters.Roster` the scenario is played with: the counters file it
    names (else the shipped roster) with the scenario's own ``roster`` block (additions, then
    overrides; :func:`scenarios.scenario_roster.scenario_roster`). Raises :class:`DocumentError`
    naming the scenario file and ``$.counters`` (with the roster's own problems) when the named
    file cannot be loaded, or ``$.roster...`` paths when the block does not fit the roster."""
    from scenarios.scenario_roster import scenario_roster

    return scenario_roster(scenario, load_base_roster(scenario, scenario_path), scenario_path)


def load_base_roster(scenario: Scenario, scenario_path: str | os.PathLike[str] | None = None):
    """The roster the scenario's ``roster`` block applies to: the counters file the scenario names,
    else the shipped roster (never written by the editor). Raises :class:`DocumentError` naming
    the scenario file and ``$.counters`` when the named file cannot be loaded."""
    from scenarios.counters import load_counters

    p = roster_path(scenario, scenario_path)
    if p is None:
        return load_counters()
    try:
        return load_counters(p)
    except DocumentError as e:
        raise DocumentError(scenario_path or "<scenario>", [Problem(
            "$.counters", f"cannot load the counter roster {scenario.counters!r} ({p}): "
            + "; ".join(str(x) for x in e.problems))]) from None


def scenario_context(scenario: Scenario, hexmap: HexMap) -> RegionContext:
    """The region context of a scenario on a map: north indicator, map sections, named regions."""
    return RegionContext(hexmap, scenario.north, list(scenario.map.sections), dict(scenario.regions))


def iter_regions(scenario: Scenario) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every region of the scenario with its location in the file (``("russian", "groups", 0, ...)``)."""
    for name, r in scenario.regions.items():
        yield ("regions", name), r
    for side in ("german", "russian"):
        s = scenario.side(side)
        for gi, g in enumerate(s.groups):
            base = (side, "groups", gi)
            if g.setup is not None:
                yield (*base, "setup", "region"), g.setup.region
            if g.entry is not None:
                for oi, o in enumerate(g.entry.options):
                    yield (*base, "entry", "options", oi, "region"), o.region
            for ei, e in enumerate(g.oob):
                if isinstance(e, IPEntry) and e.where is not None:
                    yield (*base, "oob", ei, "where"), e.where
                if isinstance(e, MinesEntry) and e.area is not None:
                    yield (*base, "oob", ei, "area"), e.area
            if g.mines_area is not None:
                yield (*base, "mines_area"), g.mines_area
        for ei, e in enumerate(s.oob):
            if isinstance(e, IPEntry) and e.where is not None:
                yield (side, "oob", ei, "where"), e.where
            if isinstance(e, MinesEntry) and e.area is not None:
                yield (side, "oob", ei, "area"), e.area
        for ci, c in enumerate(s.caps):
            yield (side, "caps", ci, "region"), c.region
        if s.infiltration is not None and s.infiltration.zone is not None:
            yield (side, "infiltration", "zone"), s.infiltration.zone
        for di, d in enumerate(s.detachments):
            for oi, o in enumerate(d.entry.options):
                yield (side, "detachments", di, "entry", "options", oi, "region"), o.region
    for i, ic in enumerate(scenario.initial_control):
        yield ("initial_control", i, "region"), ic.region
    for loc, r in iter_condition_regions(scenario.victory):
        yield ("victory", *loc), r


def _structure_problems(sc: Scenario) -> list[Problem]:
    out: list[Problem] = []
    if sc.sets_up_first not in ("german", "russian"):  # pragma: no cover - pydantic guards
        out.append(Problem("$.sets_up_first", "must be german or russian"))
    for side in ("german", "russian"):
        s = sc.side(side)
        names = [g.name for g in s.groups]
        for gi, n in enumerate(names):
            if names.index(n) != gi:
                out.append(Problem(json_path((side, "groups", gi, "name")), f"group name {n!r} is used twice"))
        for di, d in enumerate(s.detachments):
            if d.from_group not in names:
                out.append(Problem(json_path((side, "detachments", di, "from_group")),
                                   f"no {side} group {d.from_group!r} (groups: {', '.join(names)})"))
        for gi, g in enumerate(s.groups):
            for opt_i, o in enumerate(g.entry.options if g.entry else []):
                if o.turn > sc.turns:
                    out.append(Problem(json_path((side, "groups", gi, "entry", "options", opt_i, "turn")),
                                       f"entry turn {o.turn} is after the last game turn {sc.turns}"))
            for ri, r in enumerate(g.restrictions):
                if r.until_turn > sc.turns:
                    out.append(Problem(json_path((side, "groups", gi, "restrictions", ri, "until_turn")),
                                       f"turn {r.until_turn} is after the last game turn {sc.turns}"))
            for ref in (g.setup.note if g.setup else None, g.entry.note if g.entry else None):
                if ref is not None and ref > len(s.notes):
                    out.append(Problem(json_path((side, "groups", gi)),
                                       f"refers to player note {ref} but the side has {len(s.notes)} notes"))
    for i, e in enumerate(sc.errata):
        side, _ = e.field.split(".")
        notes = sc.side(side).notes
        loc = ("errata", i)
        if e.point > len(notes):
            out.append(Problem(json_path(loc), f"{e.field} point {e.point}: the side has only {len(notes)} notes"))
            continue
        n = notes[e.point - 1]
        if e.corrected not in n.text:
            out.append(Problem(json_path((side, "notes", e.point - 1, "text")),
                               f"erratum {e.printed} -> {e.corrected} is recorded as applied but the note does not read {e.corrected!r}"))
        if n.printed is None or e.printed not in n.printed:
            out.append(Problem(json_path((side, "notes", e.point - 1, "printed")),
                               f"erratum {e.printed} -> {e.corrected}: the printed text must be kept and read {e.printed!r}"))
    return out


def oob_problems(sc: Scenario) -> list[Problem]:
    """Every OOB entry a game could not use ("read but not used" is an error, never silent), one
    :class:`Problem` naming the entry's JSON path and text:

    * a unit entry (squad, commander, CW, AFV) at side level: it belongs to no group, so it has no
      set-up zone and no entry (24.1);
    * IPs or mines of a group that enters the map, or at side level when no group of the side sets
      up on the map: there is no set-up zone to place them in (18.1, 19.1);
    * "with X" naming no unit entry of the same group;
    * an ammo number on a member a "less" leaves out (it would go to nobody; 24.1).

    The region checks (an IP's "on any building hex" meeting its zone, mines outside buildings,
    19.14) are in :func:`check_scenario`; the squad-has-an-LMG check needs the roster."""
    out: list[Problem] = []
    for side in ("german", "russian"):
        s = sc.side(side)
        sets_up = any(g.setup is not None for g in s.groups)
        for gi, g in enumerate(s.groups):
            labels = {e.label() for e in g.oob if isinstance(e, UNIT_ENTRY_TYPES)}
            for ei, e in enumerate(g.oob):
                p = json_path((side, "groups", gi, "oob", ei))
                what = e.text or e.kind
                if isinstance(e, (IPEntry, MinesEntry)) and g.setup is None and \
                        not (isinstance(e, MinesEntry) and g.mines_region(e) is not None):
                    out.append(Problem(p, f"{what}: group {g.name!r} enters the map and has no set-up zone to "
                                          f"place {'IPs' if isinstance(e, IPEntry) else 'mines'} in (18.1, 19.1); "
                                          "give them to a group that sets up"))
                if e.with_unit is not None and e.with_unit not in labels:
                    out.append(Problem(f"{p}.with_unit", f"{what}: 'with {e.with_unit}' names no unit entry of group "
                                                         f"{g.name!r} ({', '.join(sorted(labels)) or 'none'})"))
                if isinstance(e, SquadEntry):
                    for si, spec in enumerate(e.less):
                        if spec.ammo is not None:
                            out.append(Problem(f"{p}.less[{si}].ammo", f"{what}: ammo ({spec.ammo}) on a member "
                                                                       "left out would go to nobody (24.1)"))
        for ei, e in enumerate(s.oob):
            p = json_path((side, "oob", ei))
            what = e.text or e.kind
            if isinstance(e, UNIT_ENTRY_TYPES):
                out.append(Problem(p, f"{what}: a unit entry at side level belongs to no group, so it is never set "
                                      "up nor entered (24.1); move it into a group"))
            elif isinstance(e, (IPEntry, MinesEntry)) and not sets_up and \
                    not (isinstance(e, MinesEntry) and e.area is not None):
                out.append(Problem(p, f"{what}: no {side} group sets up on the map, so there is no set-up zone to "
                                      "place it in (18.1, 19.1)"))
            if e.with_unit is not None:
                out.append(Problem(f"{p}.with_unit", f"{what}: 'with {e.with_unit}' at side level: a side-level "
                                                     "entry deploys with no group; move it into the group"))
        names = [g.name for g in s.groups]
        for ci, c in enumerate(s.caps):
            p = json_path((side, "caps", ci))
            if c.group is not None and c.group not in names:
                out.append(Problem(f"{p}.group", f"set-up cap: no {side} group {c.group!r} (groups: {', '.join(names)})"))
                continue
            groups = [g for g in s.groups if c.group is None or g.name == c.group]
            if c.squad is not None and not any(isinstance(e, SquadEntry) and e.letter == c.squad
                                               for g in groups for e in g.oob):
                out.append(Problem(f"{p}.squad", f"set-up cap: {c.who()}: no Squad {c.squad} in "
                                                 f"{'group ' + repr(c.group) if c.group else 'the ' + side + ' OOB'}"))
            elif not any(g.setup is not None for g in groups):
                out.append(Problem(p, f"set-up cap: {c.who()} set up nowhere (they enter the map), so the cap "
                                      "is never used (24.1)"))
    return out


def _allotment_problems(sc: Scenario, ctx: RegionContext) -> list[Problem]:
    """IPs and mines that could never be placed: an IP's ``where`` ("on any building hex") meeting no
    hex of its set-up zone(s) (18.1), mines whose zone has only building hexes (19.14)."""
    out: list[Problem] = []
    buildings = frozenset(h for hs in ctx.hexmap.building_hexes.values() for h in hs)

    def hexes(region) -> frozenset:
        try:
            return region.resolve(ctx)
        except RegionError:
            return frozenset()  # reported by the region checks

    for side in ("german", "russian"):
        s = sc.side(side)
        side_zone = frozenset().union(*(hexes(g.setup.region) for g in s.groups if g.setup is not None))
        items = [((side, "groups", gi, "oob", ei), e, hexes(g.setup.region), f"the set-up zone of {g.name!r}")
                 for gi, g in enumerate(s.groups) if g.setup is not None for ei, e in enumerate(g.oob)]
        items += [((side, "oob", ei), e, side_zone, f"the {side} set-up zones") for ei, e in enumerate(s.oob)]
        # 19.1 mines with an area of their own go there, not in the zone
        own = {(side, "groups", gi, "oob", ei): g.mines_region(e) for gi, g in enumerate(s.groups)
               for ei, e in enumerate(g.oob) if isinstance(e, MinesEntry) and g.mines_region(e) is not None}
        own.update({(side, "oob", ei): e.area for ei, e in enumerate(s.oob)
                    if isinstance(e, MinesEntry) and e.area is not None})
        items = [it for it in items if it[0] not in own]
        items += [(loc, region_at_loc(s, loc), hexes(r), f"the mines area {r.describe()}") for loc, r in own.items()]
        for loc, e, zone, zname in items:
            if not zone:
                continue
            if isinstance(e, IPEntry) and e.where is not None:
                w = hexes(e.where)
                if w and not (zone & w):
                    out.append(Problem(json_path((*loc, "where")), f"{e.text or 'IP'}: no hex of {zname} is "
                                                                   f"{e.where.describe()} (18.1)"))
            if isinstance(e, MinesEntry) and not (zone - buildings):
                out.append(Problem(json_path(loc), f"{e.text or 'mines'}: {zname} has only building hexes, where mines "
                                                   "may not be deployed (19.14)"))
    return out


def region_at_loc(side_spec, loc: tuple):
    """The OOB entry of ``side_spec`` at ``(side, "groups", gi, "oob", ei)`` or ``(side, "oob", ei)``."""
    if loc[1] == "groups":
        return side_spec.groups[loc[2]].oob[loc[4]]
    return side_spec.oob[loc[2]]


def _control_and_cap_problems(sc: Scenario, ctx: RegionContext) -> list[Problem]:
    """Initial control given to both sides in one hex; a set-up cap whose region meets no set-up
    zone of the units it counts (never used)."""
    out: list[Problem] = []

    def hexes(region) -> frozenset:
        try:
            return frozenset(h.id for h in region.resolve(ctx))
        except RegionError:
            return frozenset()  # reported by the region checks

    owner: dict[str, tuple[str, int]] = {}
    for i, ic in enumerate(sc.initial_control):
        for h in sorted(hexes(ic.region)):
            o = owner.setdefault(h, (ic.side, i))
            if o[0] != ic.side:
                out.append(Problem(json_path(("initial_control", i, "region")),
                                   f"hex {h} is in the initial control of both sides (initial_control[{o[1]}] gives "
                                   f"it to {o[0]})"))
                break
    for side in ("german", "russian"):
        s = sc.side(side)
        for ci, c in enumerate(s.caps):
            zones = frozenset().union(*(hexes(g.setup.region) for g in s.groups
                                        if g.setup is not None and (c.group is None or g.name == c.group)))
            r = hexes(c.region)
            if r and zones and not (r & zones):
                out.append(Problem(json_path((side, "caps", ci, "region")),
                                   f"set-up cap: {c.region.describe()} meets no set-up zone of {c.who()}, so the cap "
                                   "is never used (24.1)"))
    return out


def _region_problems(sc: Scenario, hexmap: HexMap) -> list[Problem]:
    out: list[Problem] = []
    ctx = scenario_context(sc, hexmap)
    try:
        ctx.area
    except RegionError as e:
        return [Problem("$.map.sections", e.message)]
    if not ctx.area:
        return [Problem("$.map.sections", f"the map sections cover no hex of map {hexmap.name!r}")]
    for loc, region in iter_regions(sc):
        try:
            hexes = region.resolve(ctx)
        except RegionError as e:
            out.extend(Problem(json_path((*loc, *x.loc)), x.message) for x in e.all())
            continue
        if not hexes:
            out.append(Problem(json_path(loc), f"region resolves to no hexes on map {hexmap.name!r} "
                                               f"(sections {', '.join(sc.map.sections)}): {region.describe()}"))
    for k, h in (("hex", sc.north.hex), ("points_to", sc.north.points_to)):
        try:
            hexmap.hex(h)
        except KeyError as e:
            out.append(Problem(json_path(("north", k)), str(e)))
    out.extend(_allotment_problems(sc, ctx))
    out.extend(_control_and_cap_problems(sc, ctx))
    return out


def _roster_problems(sc: Scenario, roster) -> list[Problem]:
    out: list[Problem] = []
    for side in ("german", "russian"):
        s = sc.side(side)
        entries = [((side, "groups", gi, "oob", ei), e) for gi, g in enumerate(s.groups) for ei, e in enumerate(g.oob)]
        entries += [((side, "oob", ei), e) for ei, e in enumerate(s.oob)]
        for loc, e in entries:
            p = json_path(loc)
            try:
                if isinstance(e, SquadEntry):
                    sq = roster.squad(side, e.letter)
                    for field, specs in (("less", e.less), ("only", e.only or [])):
                        need: dict[tuple[str, int | None], int] = {}
                        for spec in specs:
                            need[(spec.type, spec.pr)] = need.get((spec.type, spec.pr), 0) + spec.count
                        for (t, pr), n in need.items():
                            have = len(sq.matching(t, pr))
                            if have < n:
                                what = f"{t}{f' PR{pr}' if pr is not None else ''}"
                                out.append(Problem(f"{p}.{field}", f"{e.text or e.label()}: {side} Squad {e.letter} has "
                                                                   f"{have} {what} unit(s), the entry needs {n}"))
                    if e.ammo is not None:  # 24.1 AMMO POINTS: the squad's "(N)" is its LMG's
                        if e.only is not None:
                            lmgs = sum(spec.count for spec in e.only if spec.type == "LMG")
                        else:
                            lmgs = len(sq.matching("LMG", None)) - sum(x.count for x in e.less if x.type == "LMG")
                        if lmgs <= 0:
                            out.append(Problem(f"{p}.ammo", f"{e.text or e.label()}: ammo ({e.ammo}) but {side} Squad "
                                                            f"{e.letter} has no LMG in play to take it (24.1)"))
                elif isinstance(e, CommanderEntry):
                    if e.pr is None:
                        if not any(c.rank == e.type.upper() for c in roster.commanders(side)):
                            raise KeyError(f"no {side} {e.type} in the counter roster")
                    else:
                        roster.commander(side, e.type, e.pr)
                elif isinstance(e, CrewWeaponEntry):
                    for n in e.numbers:
                        roster.crew_weapon(side, e.weapon, n)
                elif isinstance(e, AFVEntry):
                    for n in e.numbers:
                        roster.afv(side, e.type, n)
            except KeyError as err:
                msg = err.args[0] if err.args else str(err)
                out.append(Problem(p, f"{e.text or e.kind}: unknown unit: {msg}"))
        for ci, c in enumerate(s.caps):
            types = _cap_types(s, side, c, roster)
            for li, lim in enumerate(c.max):
                if lim.type is not None and types is not None and lim.type.upper() not in types:
                    out.append(Problem(json_path((side, "caps", ci, "max", li, "type")),
                                       f"set-up cap: no {lim.type} among {c.who()} "
                                       f"(their types: {', '.join(sorted(types)) or 'none'})"))
    return out


def _cap_types(s, side: str, cap, roster) -> set[str] | None:
    """The unit types (upper case) among the units a set-up cap counts (its squad's men, its
    group's units; men a "less" removes still count as a type), or None when the roster lacks them."""
    out: set[str] = set()
    try:
        for g in s.groups:
            if cap.group is not None and g.name != cap.group:
                continue
            for e in g.oob:
                if isinstance(e, SquadEntry):
                    if cap.squad is None or e.letter == cap.squad:
                        out |= {m.weapon.upper() for m in roster.squad(side, e.letter).men}
                elif cap.squad is not None:
                    continue
                elif isinstance(e, CommanderEntry):
                    out.add(e.type.upper())
                elif isinstance(e, CrewWeaponEntry):
                    out.add(e.weapon.upper())
                elif isinstance(e, AFVEntry):
                    out.add(e.type.upper())
    except KeyError:
        return None
    return out


def check_scenario(sc: Scenario, scenario_path: str | os.PathLike[str] | None = None, *,
                   hexmap: HexMap | None = None, roster: Any = "auto") -> list[Problem]:
    """Every problem of a validated scenario model: structure, regions on the map, OOB vs roster.

    ``hexmap``: the map to check against (default: the referenced map file). ``roster``: the
    base :class:`scenarios.counters.Roster` (or the scenario's merged one), ``None`` to skip, or
    ``"auto"`` (the counters file the scenario names, else the shipped roster when the counters
    module and file exist); the scenario's ``roster`` block is applied to it and its problems
    reported (``$.roster.add[0].letter``)."""
    out = _structure_problems(sc)
    out.extend(oob_problems(sc))
    if roster == "auto" and sc.counters is not None:
        try:
            roster = load_base_roster(sc, scenario_path)
        except DocumentError as e:
            out.extend(e.problems)
            roster = None
    if hexmap is None:
        try:
            hexmap = load_scenario_map(sc, scenario_path)
        except DocumentError as e:
            from maps.mapfile import missing_map_hint

            out.append(Problem("$.map.file", f"cannot load map {sc.map.file!r}: " +
                               "; ".join(str(p) for p in e.problems) +
                               missing_map_hint(sc.map.file, map_path(sc, scenario_path))))
    if hexmap is not None:
        out.extend(_region_problems(sc, hexmap))
    if roster == "auto":
        roster = _shipped_roster()
    if roster is not None and sc.roster is not None:
        # the scenario's own additions and overrides (an invalid block: its problems, and the OOB
        # is not checked against a roster it does not describe)
        from scenarios.scenario_roster import scenario_roster

        try:
            roster = scenario_roster(sc, roster, scenario_path)
        except DocumentError as e:
            out.extend(e.problems)
            roster = None
    if roster is not None:
        out.extend(_roster_problems(sc, roster))
    return out


def _shipped_roster():
    try:
        from scenarios.counters import load_counters, shipped_counters_path
    except ImportError:  # pragma: no cover - the roster module is optional
        return None
    if not shipped_counters_path().is_file():
        return None
    return load_counters()


def scenario_from_data(data: Any, path: str | os.PathLike[str] = "<scenario>", *, check: bool = True,
                       hexmap: HexMap | None = None, roster: Any = "auto") -> Scenario:
    """Validate parsed JSON as a scenario; raises DocumentError naming ``path``."""
    checks = (lambda sc: check_scenario(sc, None if str(path).startswith("<") else path, hexmap=hexmap,
                                        roster=roster)) if check else None
    return load_document(path, Scenario, format_name=SCENARIO_FORMAT, version=SCENARIO_VERSION, data=data,
                         checks=checks)


def load_scenario(path: str | os.PathLike[str], *, check: bool = True, hexmap: HexMap | None = None,
                  roster: Any = "auto") -> Scenario:
    """Load a scenario file and check it (see :func:`check_scenario`); raises DocumentError."""
    checks = (lambda sc: check_scenario(sc, path, hexmap=hexmap, roster=roster)) if check else None
    return load_document(path, Scenario, format_name=SCENARIO_FORMAT, version=SCENARIO_VERSION, checks=checks)


def save_scenario(path: str | os.PathLike[str], scenario: Scenario, layout: str | None = None) -> None:
    """Save a scenario atomically (write a temporary file, then rename) in the stable format of
    :func:`scenario_json`: ``layout`` is the text of the file as it was loaded (None: a new file)."""
    atomic_write_text(path, scenario_json(scenario, layout))


#: Keys written even when they hold their default: the discriminators and the document header.
_ALWAYS_KEYS = frozenset({"kind", "format", "version"})


def scenario_json(scenario: Scenario, layout: str | None = None) -> str:
    """The file text of ``scenario``: deterministic, and minimal against ``layout``.

    Without ``layout`` (a new file): the house style of the shipped files, ``json.dumps`` of the
    model (``None`` values left out) with an indent of one space, one value a line, and a final
    newline. With ``layout`` (the text the file had when it was loaded): the same indentation
    (spaces or a tab, as the file's first indented line), every object's keys in the order the
    file had them (new keys after them, in the model's order), and a default value the file did
    not write (``"less": []``, ``"phase": "movement"``) stays unwritten; objects that are new
    (no counterpart in the layout; list items are matched by their ``kind``/``name``/``text``/
    ``id``/``letter``/``unit``/``field``) are written in the house style. So saving an unchanged
    scenario gives back the file it was loaded from (when that file was ``json.dumps``-formatted),
    and an edit of one value is a one-line diff."""
    dumped = scenario.model_dump(mode="json", exclude_none=True)
    if layout is None:
        # later additions to the format are written only when used, so the shipped files (which
        # predate them) stay the house style itself (with a layout, unwritten defaults stay so)
        if not dumped.get("initial_control"):
            dumped.pop("initial_control", None)
        for side in ("german", "russian"):
            if isinstance(dumped.get(side), dict) and not dumped[side].get("caps"):
                dumped[side].pop("caps", None)
        return json.dumps(dumped, indent=1, ensure_ascii=False) + "\n"
    from maps.json_file import JsonFileProblem, parse_json

    try:  # the text the file was read from; the safe parser, should it have changed on disk since
        old = parse_json(layout)
    except JsonFileProblem:
        old = None
    indent: int | str | None = 1
    m = re.search(r"\n([ \t]+)\S", layout)
    if m:
        ws = m.group(1)
        indent = ws if "\t" in ws else len(ws)
    elif "\n" not in layout.strip():
        indent = None
    ascii_only = "\\u" in layout and layout.isascii()
    text = json.dumps(_layout_shaped(scenario, dumped, old), indent=indent, ensure_ascii=ascii_only)
    return text + ("\n" if layout.endswith("\n") or indent is not None else "")


def _item_key(x: Any) -> Any:
    if isinstance(x, dict):
        return tuple(str(x.get(k) or "") for k in ("kind", "name", "text", "id", "letter", "unit", "field", "type"))
    return json.dumps(x, sort_keys=True)


def _align(new: list, old: list) -> list[int | None]:
    """For each item of ``new``, the index of its counterpart in ``old`` (or None: a new item)."""
    import difflib

    out: list[int | None] = [None] * len(new)
    sm = difflib.SequenceMatcher(None, [_item_key(x) for x in old], [_item_key(x) for x in new], autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag in ("equal", "replace"):
            for k in range(min(i2 - i1, j2 - j1)):
                out[j1 + k] = i1 + k
    return out


def _layout_shaped(value: Any, dumped: Any, layout: Any) -> Any:
    """``dumped`` (the JSON of the model ``value``) with the keys, key order and defaults of ``layout``."""
    from pydantic import BaseModel

    if isinstance(value, BaseModel) and isinstance(dumped, dict):
        if not isinstance(layout, dict) or layout.get("kind", dumped.get("kind")) != dumped.get("kind"):
            return dumped   # a new object: the house style
        fields = type(value).model_fields
        out: dict[str, Any] = {}
        for k in [k for k in layout if k in dumped] + [k for k in dumped if k not in layout]:
            f = fields.get(k)
            if k not in layout and k not in _ALWAYS_KEYS and f is not None and not f.is_required() \
                    and getattr(value, k) == f.get_default(call_default_factory=True):
                continue   # a default the file did not write
            out[k] = _layout_shaped(getattr(value, k) if f is not None else None, dumped[k], layout.get(k))
        return out
    if isinstance(dumped, dict):
        if not isinstance(layout, dict):
            return dumped
        values = dict(zip(dumped, value.values())) if isinstance(value, dict) and len(value) == len(dumped) else {}
        order = [k for k in layout if k in dumped] + [k for k in dumped if k not in layout]
        return {k: _layout_shaped(values.get(k), dumped[k], layout.get(k)) for k in order}
    if isinstance(dumped, list):
        if not isinstance(layout, list) or not layout:
            return dumped
        items = list(value) if isinstance(value, (list, tuple)) and len(value) == len(dumped) else [None] * len(dumped)
        match = _align(dumped, layout)
        return [_layout_shaped(items[i], dumped[i], layout[m] if m is not None else None)
                for i, m in enumerate(match)]
    return dumped


def apply_scenario_errata(scenario: Scenario, errata) -> tuple[Scenario, list[str]]:
    """Apply the scenario corrections of an errata document (:class:`maps.errata.Errata`) that
    target this scenario's number. For each: the note's text has ``printed`` replaced by
    ``corrected`` (the printed text is kept), every hex id equal to ``printed`` in the side's
    regions from that note (set-ups, entries, infiltration, detachments with ``note`` = point)
    and in the scenario's named regions is replaced, and the erratum is recorded. Returns the new scenario and one line per correction
    (``applied``, ``already applied`` or ``mismatch``)."""
    from maps.errata import ScenarioCorrection

    data = scenario.model_dump(mode="json")
    report: list[str] = []
    for c in errata.corrections:
        if not isinstance(c, ScenarioCorrection) or c.scenario != scenario.number:
            continue
        side, _ = c.field.split(".")
        notes = data[side]["notes"]
        label = f"scenario {c.scenario} {c.field} point {c.point}: {c.printed} -> {c.corrected}"
        if c.point > len(notes):
            report.append(f"{label}: mismatch (the side has {len(notes)} notes)")
            continue
        note = notes[c.point - 1]
        done = any(e["field"] == c.field and e["point"] == c.point and e["printed"] == c.printed
                   for e in data["errata"])
        if done:
            report.append(f"{label}: already applied")
            continue
        if c.printed not in note["text"]:
            report.append(f"{label}: mismatch (the note does not read {c.printed!r})")
            continue
        if note.get("printed") is None:
            note["printed"] = note["text"]
        note["text"] = note["text"].replace(c.printed, c.corrected)
        note["erratum"] = c.line
        _replace_hex_in_side(data[side], data["regions"], c.point, c.printed, c.corrected)
        data["errata"].append({"field": c.field, "point": c.point, "printed": c.printed,
                               "corrected": c.corrected, "line": c.line})
        report.append(f"{label}: applied")
    return Scenario.model_validate(data), report


def _replace_hex_in_side(side: dict, regions: dict, point: int, old: str, new: str) -> None:
    def swap(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: swap(v) for k, v in node.items()}
        if isinstance(node, list):
            return [swap(v) for v in node]
        return new if node == old else node

    for g in side["groups"]:
        if g.get("setup") and g["setup"].get("note") == point:
            g["setup"]["region"] = swap(g["setup"]["region"])
        if g.get("entry") and g["entry"].get("note") == point:
            g["entry"]["options"] = swap(g["entry"]["options"])
    for name in list(regions):
        regions[name] = swap(regions[name])
    inf = side.get("infiltration")
    if inf and inf.get("note") == point and inf.get("zone") is not None:
        inf["zone"] = swap(inf["zone"])
    for d in side.get("detachments", []):
        if d.get("note") == point:
            d["entry"] = swap(d["entry"])
