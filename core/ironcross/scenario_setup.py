"""From a scenario file to a :class:`GameSetup`: the units of each OOB, their zones and entries,
allotments, restrictions and the victory conditions (24.1).

This is the only place where the scenario model meets the engine; no scenario-specific code.
Choices the rules leave to chance or to the players before play are made here with a generator
seeded from the game's seed and recorded in ``GameSetup.choices`` (logged at game start):

* which of several men with the same PR a "less" removes (24.1: "randomly determines"), unless a
  designer's set-up settled it once (``left_out``, the editor's OOB tree; a placement file);
* which entry option a group (or a detachment) takes when the scenario offers a choice before the game.

Hidden hexes (24.2) and the infiltration zone (24.3) go into ``GameSetup.hidden_hexes`` and
``GameSetup.infiltration`` (scenario rules: the engine uses them under the basic and the advanced
rules alike).

Every OOB entry becomes game data, recorded in ``GameSetup.oob_use`` (JSON path -> what it became),
or the scenario is refused with a :class:`SetupError` naming the entry (``ironcross validate``
reports the same cases first, :func:`scenarios.scenario_file.check_scenario`): units of a group
set up in its zone or enter with it; ammo numbers go to the squad's LMGs or to the member an
"ONLY" list gives them to, or to the CW; grenades to the side; a group's IPs and mines are placed
by the side at set-up in the group's zone, the side-level ones anywhere in the side's set-up zones
(18.1, 19.1); an IP's "on any building hex" narrows its zone. The detachments (special options,
not OOB entries: e.g. Scenario 5's EXCEPTION, Scenario 6's SPECIAL) go into
``GameSetup.detachments`` (their entry resolved to hexes); the game offers them to their side at
set-up (:mod:`core.ironcross.detachment`).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from core.ironcross.setup import (Allotment, CapCount, Deployment, Detachment, DetachmentLimit, Entry, GameSetup,
                                  SetupCap, SetupError)
from core.ironcross.state import Phase, Unit, UnitKind
from maps.document_file import json_path
from scenarios.model import UNIT_ENTRY_TYPES

__all__ = ["build_setup", "load_setup", "apply_fixed_setup", "entry_problem", "SetupError"]


_PHASES = {"movement": Phase.MOVEMENT, "reaction_movement": Phase.REACTION_MOVEMENT}


def _engine_unit(ru, ammo: int | None = None) -> Unit:
    """An engine :class:`Unit` from a roster unit (scenarios.counters); ``ammo``: its ammo points
    (24.1; None = unlimited) for an infantry man or a CW."""
    k = ru.kind
    if k == "infantry":
        return Unit(id=ru.id, side=ru.side, kind=UnitKind.INFANTRY, weapon=ru.weapon, squad=ru.squad,
                    ap=ru.ap_factor, ap_range=max(1, ru.initial_range), assault=ru.assault_rating, pr=ru.pr,
                    name=f"{ru.weapon} {ru.squad} PR{ru.pr}", ammo=ammo)
    if k == "commander":
        return Unit(id=ru.id, side=ru.side, kind=UnitKind.COMMANDER, weapon=ru.rank, squad=None,
                    ap=ru.ap_factor, ap_range=max(1, ru.initial_range), assault=ru.assault_rating, pr=ru.pr,
                    name=f"{ru.rank} PR{ru.pr}")
    if k == "cw":
        return Unit(id=ru.id, side=ru.side, kind=UnitKind.CW, weapon=ru.type, ap=ru.ap_factor,
                    ap_range=max(1, ru.initial_range), at=ru.at_factor or 0, assault=ru.assault_rating, pr=ru.pr,
                    ma=ru.movement, crew_max=ru.crew, crew=ru.crew, name=f"{ru.type} #{ru.number}", ammo=ammo)
    if k == "afv":
        return Unit(id=ru.id, side=ru.side, kind=UnitKind.AFV, weapon=ru.type, ap=ru.ap_factor,
                    ap_range=max(1, ru.ap_range), at=ru.at_factor or 0, pr=ru.pr, ma=ru.movement,
                    frontal=ru.frontal_modifier, flank=ru.flank_modifier, overrun=ru.overrun_factor,
                    name=f"{ru.type} #{ru.number}")
    raise SetupError(f"unknown unit kind {k!r}")


def _squad_units(roster, side: str, entry, rnd: random.Random, choices: list[str], left_out: frozenset[str] = frozenset(),
                 random_choices: list[dict] | None = None) -> list[tuple[object, int | None]]:
    """The roster men of a squad entry (24.1 "less ..." / "... only"), each with its ammo points:
    the member's own "(N)" in an "only" list ("LMG PR9 (10)", "FT PR9 (4)"), else the squad's "(N)"
    for its LMGs (24.1 AMMO POINTS), else None (unlimited).

    Where several men match and the rulebook has the choice made at random, the designer's
    ``left_out`` ids decide (the editor's set-up); otherwise the generator does. The generator is
    drawn either way, so one choice never shifts the draws of the others. Each real choice (some
    but not all of the matching men left out by the whole entry) is recorded in ``random_choices``:
    ``{"side", "squad", "what", "among": [ids], "out": [ids], "by": "designer" | "random"}``.
    Raises :class:`SetupError` when the squad lacks a member the entry names, or when an ammo number
    would go to nobody."""
    men = list(roster.squad(side, entry.letter).men)
    label = f"{side} Squad {entry.letter}"
    rec = random_choices if random_choices is not None else []
    drawn: dict[tuple, dict] = {}   # (weapon, pr) -> {"what", "by"} for the specs that drew

    def note(spec, word: str, by: str) -> None:
        key = (spec.type, spec.pr)
        d = drawn.setdefault(key, {"what": f"{word} {spec.type}{f' PR{spec.pr}' if spec.pr is not None else ''}",
                                   "by": by})
        if by == "designer":
            d["by"] = "designer"

    if entry.only is not None:
        keep = []
        pool = list(men)
        for spec in entry.only:
            for _ in range(spec.count):
                match = [m for m in pool if m.weapon == spec.type and (spec.pr is None or m.pr == spec.pr)]
                if not match:
                    raise SetupError(f"{label} has no {spec.type} PR{spec.pr} for 'only'")
                if len(match) == 1:
                    pick = match[0]
                else:
                    pick = match[rnd.randrange(len(match))]
                    wanted = [m for m in match if m.id not in left_out]
                    by = "random"
                    if len(wanted) < len(match) and wanted:   # 24.1: the designer chose whom to keep
                        pick, by = wanted[0], "designer"
                    note(spec, "only", by)
                pool.remove(pick)
                keep.append((pick, spec.ammo))
        out = [(m, a if a is not None else (entry.ammo if m.weapon == "LMG" else None))
               for m, a in sorted(keep, key=lambda x: x[0].index)]
        _check_squad_ammo(entry, label, [m for m, _ in out])
    else:
        for spec in entry.less:
            if spec.ammo is not None:
                raise SetupError(f"{label}: ammo ({spec.ammo}) on {spec.type} PR{spec.pr}, a member left out (24.1 "
                                 "'less'), would go to nobody")
            for _ in range(spec.count):
                match = [m for m in men if m.weapon == spec.type and (spec.pr is None or m.pr == spec.pr)]
                if not match:
                    raise SetupError(f"{label} has no {spec.type} PR{spec.pr} to leave out")
                if len(match) == 1:
                    pick = match[0]
                else:
                    pick = match[rnd.randrange(len(match))]
                    chosen = [m for m in match if m.id in left_out]
                    by = "random"
                    if chosen:   # 24.1 "randomly determines": the designer's set-up made the draw once
                        pick, by = chosen[0], "designer"
                    how = "chosen in the designer's set-up" if by == "designer" else "chosen at random"
                    choices.append(f"{label} less {spec.type} PR{spec.pr}: "
                                   f"{pick.id} left out, {how} among {[m.id for m in match]} (24.1)")
                    note(spec, "less", by)
                men.remove(pick)
        _check_squad_ammo(entry, label, men)
        out = [(m, entry.ammo if m.weapon == "LMG" else None) for m in men]
    kept = {m.id for m, _ in out}
    squad = roster.squad(side, entry.letter).men
    for (t, pr), d in drawn.items():
        among = [m.id for m in squad if m.weapon == t and (pr is None or m.pr == pr)]
        gone = [m for m in among if m not in kept]
        if 0 < len(gone) < len(among):   # a real choice: some of the candidates stay, some go
            rec.append({"side": side, "squad": entry.letter, "what": d["what"], "among": among, "out": gone,
                        "by": d["by"]})
    return out


def _check_squad_ammo(entry, label: str, men: list) -> None:
    """24.1 AMMO POINTS: a squad's "(N)" is its LMG's; a squad with no LMG in play would drop it."""
    if entry.ammo is not None and not any(m.weapon == "LMG" for m in men):
        raise SetupError(f"{label} ({entry.ammo}): the squad has no LMG in play to take the ammo points (24.1)")


def entry_problem(roster, side: str, entry) -> str | None:
    """Why ``roster`` cannot give the units of one OOB entry of ``side`` (a
    :class:`scenarios.model` entry), in the words :func:`build_setup` would raise it with (24.1:
    the squad has no such man to leave out / keep, an ammo number for no LMG; the roster has no
    such commander, crew weapon or AFV), or None when it can (entries that bring no unit: None).
    The 24.1 random choices are drawn with a fixed generator: a problem does not depend on them."""
    try:
        if entry.kind == "squad":
            _squad_units(roster, side, entry, random.Random(0), [])
        elif entry.kind == "commander":
            roster.commander(side, entry.type, pr=entry.pr)
        elif entry.kind == "crew_weapon":
            for n in entry.numbers:
                roster.crew_weapon(side, entry.weapon, n)
        elif entry.kind == "afv":
            for n in entry.numbers:
                roster.afv(side, entry.type, n)
    except (SetupError, KeyError, ValueError) as e:
        return str(e.args[0]) if e.args else str(e)
    return None


def build_setup(scenario, hexmap, *, seed: int = 0, roster=None, chart=None,
                left_out=None) -> GameSetup:
    """Turn a validated :class:`scenarios.model.Scenario` on ``hexmap`` into a :class:`GameSetup`.

    ``seed`` drives the pre-game random choices (recorded in ``GameSetup.choices``); ``left_out``
    (unit ids) settles the 24.1 "less"/"only" choices among several matching men the way a
    designer's set-up did (the others stay random); every such choice is in
    ``GameSetup.random_choices`` (see :func:`_squad_units`). ``roster``: the base roster (default
    the shipped one, or the scenario's merged roster): the scenario's ``roster`` block is applied
    to it (:func:`scenarios.scenario_roster.scenario_roster`); ``chart``: default the map's own
    chart (``hexmap.chart``).
    Raises :class:`SetupError` when the roster lacks a unit, a zone is empty or an OOB entry would
    not be used (a unit entry at side level, IPs or mines without a set-up zone, an ammo number
    for nobody, a "with" naming no unit of the group).
    """
    from maps.document_file import DocumentError
    from maps.terrain_chart import load_terrain_chart
    from scenarios.scenario_file import scenario_context
    from scenarios.scenario_roster import scenario_roster
    from scenarios.victory import UnitRef, evaluate

    try:   # the base roster with the scenario's own additions and overrides
        roster = scenario_roster(scenario, roster)
    except DocumentError as e:
        raise SetupError(f"{scenario.title}: the scenario's roster: {e}") from None
    chart = chart or getattr(hexmap, "chart", None) or load_terrain_chart()
    ctx = scenario_context(scenario, hexmap)
    rnd = random.Random(f"setup:{seed}")
    choices: list[str] = []
    random_choices: list[dict] = []
    left_out = frozenset(left_out or ())
    units: dict[str, Unit] = {}
    deployments: list[Deployment] = []
    entries: list[Entry] = []
    allotments: list[Allotment] = []
    grenades = {"german": 0, "russian": 0}
    no_move_before: dict[str, int] = {}
    oob_use: dict[str, str] = {}
    group_ids: dict[tuple[str, str], list[str]] = {}  # (side, group name) -> its unit ids

    def zone_of(region, what: str) -> frozenset[str]:
        hexes = frozenset(h.id for h in region.resolve(ctx))  # inside the playing area (24.1 MAP)
        if not hexes:
            raise SetupError(f"{scenario.title}: {what} resolves to no hex")
        return hexes

    def unusable(loc: tuple, e, why: str) -> SetupError:
        return SetupError(f"{scenario.title}: {json_path(loc)}: {e.text or e.kind}: {why}")

    for side in ("german", "russian"):
        spec = scenario.side(side)
        setup_zones: list[frozenset[str]] = []  # the side's set-up zones (side-level IPs and mines, 18.1, 19.1)
        for gi, group in enumerate(spec.groups):
            ids: list[str] = []
            ips: list[int] = []
            ap_mines = at_mines = 0
            where_ips: list[tuple[tuple, object]] = []  # IP entries restricted to a region ("on any building hex")
            area_mines: dict[frozenset[str], list] = {}  # mines with an area of their own: zone -> [ap, at, region]
            label = group.name or f"{side} group {gi + 1}"
            unit_labels = {x.label() for x in group.oob if isinstance(x, UNIT_ENTRY_TYPES)}
            for ei, e in enumerate(group.oob):
                loc = (side, "groups", gi, "oob", ei)
                before = len(ids)
                if e.kind == "squad":
                    for ru, ammo in _squad_units(roster, side, e, rnd, choices, left_out, random_choices):
                        u = _engine_unit(ru, ammo)  # 24.1 AMMO POINTS (22.0 counts them, advanced rules)
                        units[u.id] = u
                        ids.append(u.id)
                elif e.kind == "commander":
                    ru = roster.commander(side, e.type, pr=e.pr)
                    u = _engine_unit(ru)
                    units[u.id] = u
                    ids.append(u.id)
                elif e.kind == "crew_weapon":
                    for n in e.numbers:
                        u = _engine_unit(roster.crew_weapon(side, e.weapon, n), e.ammo)
                        units[u.id] = u
                        ids.append(u.id)
                elif e.kind == "afv":
                    for n in e.numbers:
                        u = _engine_unit(roster.afv(side, e.type, n))
                        units[u.id] = u
                        ids.append(u.id)
                elif e.kind in ("ip", "mines"):
                    own = group.mines_region(e) if e.kind == "mines" else None
                    if group.setup is None and own is None:
                        raise unusable(loc, e, f"group {label!r} enters the map and has no set-up zone to place "
                                               "it in (18.1, 19.1)")
                    if own is not None:
                        # 19.1: the mines' own area (the scenario's), not the group's zone
                        zone = zone_of(own, f"{json_path(loc)} mines area")
                        ap_at = area_mines.setdefault(zone, [0, 0, own])
                        ap_at[0 if e.mine_type == "AP" else 1] += e.factors
                        oob_use[json_path(loc)] = f"{e.factors} {e.mine_type} mine factors placed by {side} at " \
                                                  f"set-up in {own.describe()} (19.1)"
                    elif e.kind == "mines":
                        if e.mine_type == "AP":
                            ap_mines += e.factors
                        else:
                            at_mines += e.factors
                        oob_use[json_path(loc)] = f"{e.factors} {e.mine_type} mine factors placed by {side} at " \
                                                  f"set-up in the zone of {label} (19.1)"
                    elif e.where is not None:
                        where_ips.append((loc, e))
                    else:
                        ips.extend([e.points] * e.count)
                        oob_use[json_path(loc)] = f"IP{e.points} x {e.count} placed by {side} at set-up in the zone " \
                                                  f"of {label} (18.1)"
                elif e.kind == "grenades":
                    grenades[side] += e.count
                    oob_use[json_path(loc)] = f"{e.count} grenades for {side} (15.6)"
                else:  # pragma: no cover - the model's discriminated union has no other kind
                    raise unusable(loc, e, f"unknown OOB entry kind {e.kind!r}")
                if len(ids) > before:
                    with_ = ""
                    if e.with_unit is not None:
                        if e.with_unit not in unit_labels:
                            raise unusable(loc, e, f"'with {e.with_unit}' names no unit entry of group {label!r}")
                        with_ = f" with {e.with_unit}"
                    oob_use[json_path(loc)] = f"units {', '.join(ids[before:])} of {label}{with_}"
            group_ids[(side, group.name)] = ids
            if group.setup is not None:
                zone = zone_of(group.setup.region, f"{label} set-up zone")
                setup_zones.append(zone)
                deployments.append(Deployment(side, ids, zone, label))
                if ips or ap_mines or at_mines:
                    allotments.append(Allotment(side, zone, ips, ap_mines, at_mines, label))
                for loc, e in where_ips:
                    z = zone & zone_of(e.where, f"{json_path(loc)} 'where'")
                    if not z:
                        raise unusable(loc, e, f"no hex of the set-up zone of {label} is {e.where.describe()}")
                    allotments.append(Allotment(side, z, [e.points] * e.count, group=label))
                    oob_use[json_path(loc)] = f"IP{e.points} x {e.count} placed by {side} at set-up in the zone " \
                                              f"of {label}, {e.where.describe()} (18.1)"
            elif group.entry is not None:
                opts = group.entry.options
                opt = opts[0] if len(opts) == 1 else opts[rnd.randrange(len(opts))]
                if len(opts) > 1:
                    choices.append(f"{label}: enters by option {opts.index(opt) + 1} of {len(opts)} "
                                   f"({opt.text or 'turn ' + str(opt.turn)}), chosen before the game")
                hexes = zone_of(opt.region, f"{label} entry")
                entries.append(Entry(side, ids, hexes, opt.turn, _PHASES.get(opt.phase, Phase.MOVEMENT), label))
            else:
                raise SetupError(f"{scenario.title}: {label} has neither a set-up zone nor an entry")
            for zone, (ap, at, _own) in area_mines.items():  # 19.1 mines with an area of their own
                allotments.append(Allotment(side, zone, [], ap, at, f"{label} mines"))
            for r in group.restrictions:
                for uid in ids:
                    no_move_before[uid] = r.until_turn
        # side-level entries (24.1 "The units, improved positions, and number of grenades each side
        # will have"): grenades for the side; IPs and mines placed by the side at set-up anywhere in
        # its set-up zones (18.1, 19.1); units belong to a group (they need a zone or an entry)
        side_zone = frozenset().union(*setup_zones)
        for ei, e in enumerate(spec.oob):
            loc = (side, "oob", ei)
            if e.kind == "grenades":
                grenades[side] += e.count
                oob_use[json_path(loc)] = f"{e.count} grenades for {side} (15.6)"
            elif e.kind == "mines" and e.area is not None:
                # 19.1: the mines' own area (the scenario's), not the side's set-up zones
                zone = zone_of(e.area, f"{json_path(loc)} mines area")
                ap, at = (e.factors, 0) if e.mine_type == "AP" else (0, e.factors)
                allotments.append(Allotment(side, zone, [], ap, at, f"{side} mines"))
                oob_use[json_path(loc)] = f"{e.factors} {e.mine_type} mine factors placed by {side} at set-up in " \
                                          f"{e.area.describe()} (19.1)"
            elif e.kind in ("ip", "mines"):
                if not side_zone:
                    raise unusable(loc, e, f"the {side} side sets nothing up on the map: no set-up zone to place it "
                                           "in (18.1, 19.1)")
                zone, where = side_zone, ""
                if e.kind == "ip" and e.where is not None:
                    zone = side_zone & zone_of(e.where, f"{json_path(loc)} 'where'")
                    where = f", {e.where.describe()}"
                    if not zone:
                        raise unusable(loc, e, f"no hex of the {side} set-up zones is {e.where.describe()}")
                if e.kind == "ip":
                    allotments.append(Allotment(side, zone, [e.points] * e.count, group=f"{side} set-up"))
                    oob_use[json_path(loc)] = f"IP{e.points} x {e.count} placed by {side} at set-up in its set-up " \
                                              f"zones{where} (18.1)"
                else:
                    ap, at = (e.factors, 0) if e.mine_type == "AP" else (0, e.factors)
                    allotments.append(Allotment(side, zone, [], ap, at, f"{side} set-up"))
                    oob_use[json_path(loc)] = f"{e.factors} {e.mine_type} mine factors placed by {side} at set-up " \
                                              "in its set-up zones (19.1)"
            else:
                raise unusable(loc, e, "a unit entry at side level belongs to no group: it has no set-up zone and "
                                       "no entry (24.1); move it into a group")
    victory = scenario.victory

    def decide(state, game):
        placement: dict[str, list] = {}
        kinds = {UnitKind.INFANTRY: "infantry", UnitKind.COMMANDER: "commander", UnitKind.CW: "crew_weapon",
                 UnitKind.AFV: "afv"}
        for u in state.units.values():
            if u.on_map:
                placement.setdefault(u.hex, []).append(UnitRef(u.side, u.id, kinds[u.kind], u.squad))
        res = evaluate(victory, placement, ctx, dict(state.control))
        return res.result, {"reason": res.reason, "points": res.points}

    order = (scenario.sets_up_first, "russian" if scenario.sets_up_first == "german" else "german")
    setup = GameSetup(hexmap=hexmap, chart=chart, units=units, game_length=scenario.turns,
                      first_side=scenario.moves_first, setup_order=order, deployments=deployments,
                      entries=entries, allotments=allotments, grenades=grenades, victory=decide,
                      no_move_before=no_move_before, title=scenario.title,
                      playing_area=frozenset(h.id for h in ctx.area), oob_use=oob_use)
    setup.choices = choices  # type: ignore[attr-defined]
    setup.random_choices = random_choices  # type: ignore[attr-defined]
    # 24.2 hidden hexes and 24.3 infiltration (scenario rules: used under any rules)
    for side in ("german", "russian"):
        spec = scenario.side(side)
        setup.hidden_hexes[side] = spec.hidden_hexes
        if spec.infiltration is not None and spec.infiltration.allowed and spec.infiltration.zone is not None:
            setup.infiltration[side] = zone_of(spec.infiltration.zone, f"{side} infiltration zone")
    # scenario detachments (special options, 24.1): offered to the side at set-up (Game); an entry
    # with several options is chosen before the game like a group's (drawn after every other draw)
    for side in ("german", "russian"):
        for d in scenario.side(side).detachments:
            ids = group_ids.get((side, d.from_group))
            if ids is None:
                raise SetupError(f"{scenario.title}: {side} detachment {d.name!r}: no group {d.from_group!r}")
            opts = d.entry.options
            opt = opts[0] if len(opts) == 1 else opts[rnd.randrange(len(opts))]
            if len(opts) > 1:
                choices.append(f"{side} detachment {d.name}: enters by option {opts.index(opt) + 1} of {len(opts)} "
                               f"({opt.text or 'turn ' + str(opt.turn)}), chosen before the game")
            hexes = zone_of(opt.region, f"{side} detachment {d.name} entry")
            limits = [DetachmentLimit(x.kind, x.count, tuple(x.types) if x.types else None) for x in d.limits]
            setup.detachments.append(Detachment(
                side, d.name, d.from_group, list(ids), limits,
                Entry(side, [], hexes, opt.turn, _PHASES.get(opt.phase, Phase.MOVEMENT), f"{d.from_group}: {d.name}"),
                d.record_before))
    # set-up caps inside sub-zones (24.1 unit deployment restrictions) and initial control
    for side in ("german", "russian"):
        for ci, cap in enumerate(scenario.side(side).caps):
            setup.caps.append(_engine_cap(scenario.title, side, ci, cap, units, group_ids,
                                          zone_of(cap.region, f"{side} cap {ci + 1} region")))
    for ic in scenario.initial_control:
        for h in sorted(zone_of(ic.region, f"initial control of {ic.side}")):
            if setup.initial_control.get(h, ic.side) != ic.side:
                raise SetupError(f"{scenario.title}: hex {h} is given to both sides' initial control")
            setup.initial_control[h] = ic.side
    setup.objectives = scenario_objectives(victory, ctx)  # type: ignore[attr-defined]
    return setup


def cap_selection(side: str, cap, units: dict, group_ids: dict) -> list[str]:
    """The ids of the side's units a :class:`scenarios.model.SetupCap` counts: the men of its
    ``squad`` and/or the units of its ``group`` (neither: every unit of the side), in order.
    Raises KeyError naming a group the side lacks."""
    ids = [u.id for u in units.values() if u.side == side]
    if cap.group is not None:
        if (side, cap.group) not in group_ids:
            raise KeyError(f"no {side} group {cap.group!r}")
        ids = [x for x in group_ids[(side, cap.group)] if x in ids]
    if cap.squad is not None:
        ids = [x for x in ids if units[x].kind == UnitKind.INFANTRY and units[x].squad == cap.squad]
    return ids


def _engine_cap(title: str, side: str, ci: int, cap, units: dict, group_ids: dict, hexes: frozenset[str]) -> SetupCap:
    """A scenario's set-up cap as engine data: per limit, the unit ids it counts (a type matches a
    unit's weapon: member type, commander rank, CW or AFV type, any case)."""
    try:
        ids = cap_selection(side, cap, units, group_ids)
    except KeyError as e:
        raise SetupError(f"{title}: {side} cap {ci + 1}: {e.args[0]}") from None
    limits, named = [], set()
    for lim in cap.max:
        match = frozenset(x for x in ids if lim.type is None or units[x].weapon.upper() == lim.type.upper())
        named |= match
        limits.append(CapCount(lim.type or "unit", lim.count, match))
    if cap.others is not None:
        limits.append(CapCount("other unit", cap.others, frozenset(ids) - named))
    return SetupCap(side, hexes, limits, cap.describe())


def scenario_objectives(victory, ctx) -> dict[str, list[dict]]:
    """Per side, what the victory conditions ask of it, as data for AI players.

    Each objective is ``{"hexes": [hex ids], "goal": "occupy" | "clear", "weight": w, "text": ...}``:
    ``occupy`` -- have units there at the end (to win, or to deny the opponent a condition that
    needs his units there or needs him alone there); ``clear`` -- no enemy units there at the end
    (eliminate or keep out the units the condition counts). ``"control": True`` when what counts
    is the hexes' control (last to occupy: ``controls`` conditions, victory-point awards): a hex
    the side controls is held without standing in it until the enemy enters it. Derived from the scenario's victory
    regions (:func:`scenarios.victory.iter_condition_regions` walks the same tree), never from
    scenario-specific code. Victory points: the scoring side occupies the award regions, the other
    side holds them (occupy) and clears them.
    """
    from scenarios.victory import AllOf, AnyOf, AtLeast, Controls, NoneIn, Not, SoleOccupant

    out: dict[str, list[dict]] = {"german": [], "russian": []}
    area = {h.id for h in ctx.area}
    seen: set[tuple] = set()

    def other(s: str) -> str:
        return "russian" if s == "german" else "german"

    def add(side: str, region, goal: str, weight: float, text: str, control: bool = False) -> None:
        try:
            hexes = sorted(h.id for h in region.resolve(ctx) if h.id in area)
        except Exception:  # an unresolvable region is the validator's business, not the AI's
            return
        if not hexes:
            return
        key = (side, goal, tuple(hexes))
        if key in seen:
            for o in out[side]:
                if (o["goal"], tuple(o["hexes"])) == key[1:]:
                    if o["weight"] < weight:
                        o["weight"], o["text"] = weight, text
                    if control:
                        o["control"] = True
            return
        seen.add(key)
        out[side].append({"hexes": hexes, "goal": goal, "weight": weight, "text": text,
                          **({"control": True} if control else {})})

    def walk(c, winner: str, positive: bool, w: float) -> None:
        if isinstance(c, (AtLeast, SoleOccupant, Controls)):
            present = positive  # the condition wants c.side present (or absent when negated)
            ctl = isinstance(c, Controls)
            if present and c.side == winner:
                add(winner, c.region, "occupy", w, c.describe(), ctl)
                add(other(winner), c.region, "occupy", w * 0.8, "deny: " + c.describe(), ctl)
                add(other(winner), c.region, "clear", w * 0.8, "deny: " + c.describe())
            elif not present:
                add(winner, c.region, "clear", w, "not " + c.describe())
                add(c.side, c.region, "occupy", w * 0.8, "deny: not " + c.describe())
        elif isinstance(c, NoneIn):
            if positive:
                add(winner, c.region, "clear", w, c.describe())
                add(c.side, c.region, "occupy", w * 0.8, "deny: " + c.describe())
            elif c.side == winner:
                add(winner, c.region, "occupy", w, "not " + c.describe())
        elif isinstance(c, (AllOf, AnyOf)):
            for x in c.of:
                walk(x, winner, positive, w)
        elif isinstance(c, Not):
            walk(c.of, winner, not positive, w)

    for o in victory.outcomes:
        if o.result in out:
            walk(o.condition, o.result, True, 1.0)
    if victory.points is not None:
        vp = victory.points
        for a in vp.awards:  # awards score controlled hexes (last to occupy)
            w = 1.0 + 0.1 * a.points
            add(vp.side, a.region, "occupy", w, f"{vp.side} victory points", True)
            add(other(vp.side), a.region, "occupy", w * 0.8, f"deny {vp.side} victory points", True)
    return out


def apply_fixed_setup(setup: GameSetup, fixed: dict | None) -> GameSetup:
    """Narrow ``setup`` to a designer's fixed set-up (the editor's "use this set-up", a placement
    file): ``fixed = {"units": {uid: {"hex", "facing", "down"}}, "hidden_hexes": {hex: side},
    "mines": {hex: {"side", "ap", "at"}}, "ips": {hex: {"side", "points"}}, "left_out": [uid, ...]}``;
    ``setup`` must have been
    built with ``left_out=fixed["left_out"]`` (:func:`load_setup` does).

    The set-up is checked first (:func:`core.ironcross.placement.check_fixed_setup`): a unit the
    orders of battle lack, a hex off the map or outside the unit's zone, stacking, hidden hexes or
    mines beyond the allotment, an IP the side lacks or outside its zone, a unit over a set-up cap
    raise :class:`SetupError` listing every problem -- a game never
    silently starts from something else than the designer placed.
    Each placed unit's deployment zone becomes its one hex. The order of the units is kept (each
    deployment is split in place), so the set-up asks for the units in the same order as the
    scenario's and a replay of such a game re-runs on the plain scenario with the same ``left_out``.
    Each placed IP's marker gets its hex the same way (18.1; the order of the IP markers is kept).
    The facings, UP/DOWN (3.12), hidden hexes and mines are kept in ``setup.fixed`` for the players
    (:class:`core.ironcross.fixed_setup_player.FixedSetupPlayer` chooses them). The rules are unchanged: the narrowed
    zones only remove choices. Returns ``setup`` (changed in place).
    """
    from core.ironcross.placement import check_fixed_setup

    if not fixed:
        return setup
    problems = check_fixed_setup(setup, fixed)
    if problems:
        raise SetupError("the designer's set-up cannot be played as placed: "
                         + "; ".join(str(p) for p in problems))
    units = fixed.get("units") or {}
    deployments: list[Deployment] = []
    for d in setup.deployments:
        run: list[str] = []
        for uid in d.units:
            p = units.get(uid)
            if p is not None and p.get("hex") in d.zone:
                if run:
                    deployments.append(Deployment(d.side, run, d.zone, d.group))
                    run = []
                deployments.append(Deployment(d.side, [uid], frozenset({p["hex"]}), d.group))
            else:
                run.append(uid)
        if run:
            deployments.append(Deployment(d.side, run, d.zone, d.group))
    setup.deployments = deployments
    ips = {k: dict(v) for k, v in (fixed.get("ips") or {}).items()}
    if ips:
        # 18.1: each placed IP's marker gets its one hex; the markers keep their order (each
        # allotment is split in place, its mines after its IPs), as the units' deployments do
        from core.ironcross.placement import ip_assignment

        at = {slot: h for h, slot in ip_assignment(setup, ips)[0].items()}
        allotments: list[Allotment] = []
        for ai, al in enumerate(setup.allotments):
            run: list[int] = []
            for k, pts in enumerate(al.ips):
                h = at.get((ai, k))
                if h is None:
                    run.append(pts)
                    continue
                if run:
                    allotments.append(Allotment(al.side, al.zone, run, group=al.group))
                    run = []
                allotments.append(Allotment(al.side, frozenset({h}), [pts], group=al.group))
            if run or al.ap_mines or al.at_mines or not al.ips:
                allotments.append(Allotment(al.side, al.zone, run, al.ap_mines, al.at_mines, al.group))
        setup.allotments = allotments
    setup.fixed = {"units": {k: dict(v) for k, v in units.items() if k in setup.units},  # type: ignore[attr-defined]
                   "hidden_hexes": dict(fixed.get("hidden_hexes") or {}),
                   "mines": {k: dict(v) for k, v in (fixed.get("mines") or {}).items()},
                   "ips": ips,
                   "left_out": list(fixed.get("left_out") or [])}
    return setup


def load_setup(path: str | os.PathLike[str], *, seed: int = 0, left_out=None) -> tuple[object, GameSetup]:
    """Load a scenario file (validated) and build its :class:`GameSetup` on the scenario's map
    (with the terrain chart the map names) and roster (the counters file the scenario names, else
    the shipped roster, with the scenario's own additions and overrides); returns (scenario,
    setup). ``left_out``: see :func:`build_setup`.

    Raises :class:`maps.document_file.DocumentError` for an invalid file, :class:`SetupError` when it
    cannot be played.
    """
    from scenarios.scenario_file import load_scenario, load_scenario_map, load_scenario_roster

    sc = load_scenario(Path(path))
    hexmap = load_scenario_map(sc, path)
    roster = load_scenario_roster(sc, path)
    return sc, build_setup(sc, hexmap, seed=seed, roster=roster, left_out=left_out)
