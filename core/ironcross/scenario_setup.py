"""From a scenario file to a :class:`GameSetup`: the units of each OOB, their zones and entries,
allotments, restrictions and the victory conditions (24.1).

This is the only place where the scenario model meets the engine; no scenario-specific code.
Choices the rules leave to chance or to the players before play are made here with a generator
seeded from the game's seed and recorded in ``GameSetup.choices`` (logged at game start):

* which of several men with the same PR a "less" removes (24.1: "randomly determines");
* which entry option a group takes when the scenario offers a choice before the game.

Hidden hexes (24.2) and the infiltration zone (24.3) go into ``GameSetup.hidden_hexes`` and
``GameSetup.infiltration`` (the engine uses them with the advanced rules). Not used yet: optional
detachments (e.g. Scenario 5's turn-2 entry, Scenario 6's SPECIAL).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from core.ironcross.setup import Allotment, Deployment, Entry, GameSetup
from core.ironcross.state import Phase, Unit, UnitKind

__all__ = ["build_setup", "load_setup", "apply_fixed_setup", "SetupError"]


class SetupError(ValueError):
    """The scenario cannot be turned into a game (an OOB entry the roster lacks, an empty zone)."""


_PHASES = {"movement": Phase.MOVEMENT, "reaction_movement": Phase.REACTION_MOVEMENT}


def _engine_unit(ru, squad_ammo: int | None = None, cw_ammo: int | None = None) -> Unit:
    """An engine :class:`Unit` from a roster unit (scenarios.counters)."""
    k = ru.kind
    if k == "infantry":
        return Unit(id=ru.id, side=ru.side, kind=UnitKind.INFANTRY, weapon=ru.weapon, squad=ru.squad,
                    ap=ru.ap_factor, ap_range=max(1, ru.initial_range), assault=ru.assault_rating, pr=ru.pr,
                    name=f"{ru.weapon} {ru.squad} PR{ru.pr}", ammo=squad_ammo if ru.weapon == "LMG" else None)
    if k == "commander":
        return Unit(id=ru.id, side=ru.side, kind=UnitKind.COMMANDER, weapon=ru.rank, squad=None,
                    ap=ru.ap_factor, ap_range=max(1, ru.initial_range), assault=ru.assault_rating, pr=ru.pr,
                    name=f"{ru.rank} PR{ru.pr}")
    if k == "cw":
        return Unit(id=ru.id, side=ru.side, kind=UnitKind.CW, weapon=ru.type, ap=ru.ap_factor,
                    ap_range=max(1, ru.initial_range), at=ru.at_factor or 0, assault=ru.assault_rating, pr=ru.pr,
                    ma=ru.movement, crew_max=ru.crew, crew=ru.crew, name=f"{ru.type} #{ru.number}", ammo=cw_ammo)
    if k == "afv":
        return Unit(id=ru.id, side=ru.side, kind=UnitKind.AFV, weapon=ru.type, ap=ru.ap_factor,
                    ap_range=max(1, ru.ap_range), at=ru.at_factor or 0, pr=ru.pr, ma=ru.movement,
                    frontal=ru.frontal_modifier, flank=ru.flank_modifier, overrun=ru.overrun_factor,
                    name=f"{ru.type} #{ru.number}")
    raise SetupError(f"unknown unit kind {k!r}")


def _squad_units(roster, side: str, entry, rnd: random.Random, choices: list[str]) -> list:
    men = list(roster.squad(side, entry.letter).men)
    if entry.only is not None:
        keep = []
        pool = list(men)
        for spec in entry.only:
            for _ in range(spec.count):
                match = [m for m in pool if m.weapon == spec.type and (spec.pr is None or m.pr == spec.pr)]
                if not match:
                    raise SetupError(f"{side} Squad {entry.letter} has no {spec.type} PR{spec.pr} for 'only'")
                pick = match[0] if len(match) == 1 else match[rnd.randrange(len(match))]
                pool.remove(pick)
                keep.append(pick)
        return sorted(keep, key=lambda m: m.index)
    for spec in entry.less:
        for _ in range(spec.count):
            match = [m for m in men if m.weapon == spec.type and (spec.pr is None or m.pr == spec.pr)]
            if not match:
                raise SetupError(f"{side} Squad {entry.letter} has no {spec.type} PR{spec.pr} to leave out")
            if len(match) == 1:
                pick = match[0]
            else:
                pick = match[rnd.randrange(len(match))]
                choices.append(f"{side} Squad {entry.letter} less {spec.type} PR{spec.pr}: "
                               f"{pick.id} left out, chosen at random among {[m.id for m in match]} (24.1)")
            men.remove(pick)
    return men


def build_setup(scenario, hexmap, *, seed: int = 0, roster=None, chart=None) -> GameSetup:
    """Turn a validated :class:`scenarios.model.Scenario` on ``hexmap`` into a :class:`GameSetup`.

    ``seed`` drives the pre-game random choices (recorded in ``GameSetup.choices``).
    Raises :class:`SetupError` when the roster lacks a unit or a zone is empty.
    """
    from maps.terrain_chart import load_terrain_chart
    from scenarios.counters import load_counters
    from scenarios.scenario_file import scenario_context
    from scenarios.victory import UnitRef, evaluate

    roster = roster or load_counters()
    chart = chart or load_terrain_chart()
    ctx = scenario_context(scenario, hexmap)
    rnd = random.Random(f"setup:{seed}")
    choices: list[str] = []
    units: dict[str, Unit] = {}
    deployments: list[Deployment] = []
    entries: list[Entry] = []
    allotments: list[Allotment] = []
    grenades = {"german": 0, "russian": 0}
    no_move_before: dict[str, int] = {}
    area = {h.id for h in ctx.area}

    def zone_of(region, what: str) -> frozenset[str]:
        hexes = frozenset(h.id for h in region.resolve(ctx))
        if area is not None:
            hexes = frozenset(h for h in hexes if h in area) or hexes
        if not hexes:
            raise SetupError(f"{scenario.title}: {what} resolves to no hex")
        return hexes

    for side in ("german", "russian"):
        spec = scenario.side(side)
        for e in spec.oob:
            if e.kind == "grenades":
                grenades[side] += e.count
        for gi, group in enumerate(spec.groups):
            ids: list[str] = []
            ips: list[int] = []
            ap_mines = at_mines = 0
            for e in group.oob:
                if e.kind == "squad":
                    for ru in _squad_units(roster, side, e, rnd, choices):
                        u = _engine_unit(ru, squad_ammo=e.ammo)
                        units[u.id] = u
                        ids.append(u.id)
                elif e.kind == "commander":
                    ru = roster.commander(side, e.type, pr=e.pr)
                    u = _engine_unit(ru)
                    units[u.id] = u
                    ids.append(u.id)
                elif e.kind == "crew_weapon":
                    for n in e.numbers:
                        u = _engine_unit(roster.crew_weapon(side, e.weapon, n), cw_ammo=e.ammo)
                        units[u.id] = u
                        ids.append(u.id)
                elif e.kind == "afv":
                    for n in e.numbers:
                        u = _engine_unit(roster.afv(side, e.type, n))
                        units[u.id] = u
                        ids.append(u.id)
                elif e.kind == "ip":
                    ips.extend([e.points] * e.count)
                elif e.kind == "mines":
                    if e.mine_type == "AP":
                        ap_mines += e.factors
                    else:
                        at_mines += e.factors
                elif e.kind == "grenades":
                    grenades[side] += e.count
            label = group.name or f"{side} group {gi + 1}"
            if group.setup is not None:
                zone = zone_of(group.setup.region, f"{label} set-up zone")
                deployments.append(Deployment(side, ids, zone, label))
                if ips or ap_mines or at_mines:
                    allotments.append(Allotment(side, zone, ips, ap_mines, at_mines))
            elif group.entry is not None:
                opts = group.entry.options
                opt = opts[0] if len(opts) == 1 else opts[rnd.randrange(len(opts))]
                if len(opts) > 1:
                    choices.append(f"{label}: enters by option {opts.index(opt) + 1} of {len(opts)} "
                                   f"({opt.text or 'turn ' + str(opt.turn)}), chosen before the game")
                hexes = zone_of(opt.region, f"{label} entry")
                entries.append(Entry(side, ids, hexes, opt.turn, _PHASES.get(opt.phase, Phase.MOVEMENT), label))
                if ips or ap_mines or at_mines:
                    choices.append(f"{label}: IPs/mines of an entering group are not placed (no set-up zone)")
            else:
                raise SetupError(f"{scenario.title}: {label} has neither a set-up zone nor an entry")
            for r in group.restrictions:
                for uid in ids:
                    no_move_before[uid] = r.until_turn
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
                      playing_area=frozenset(h.id for h in ctx.area))
    setup.choices = choices  # type: ignore[attr-defined]
    # 24.2 hidden hexes and 24.3 infiltration (used with the advanced rules only)
    for side in ("german", "russian"):
        spec = scenario.side(side)
        setup.hidden_hexes[side] = spec.hidden_hexes
        if spec.infiltration is not None and spec.infiltration.allowed and spec.infiltration.zone is not None:
            setup.infiltration[side] = zone_of(spec.infiltration.zone, f"{side} infiltration zone")
    setup.objectives = scenario_objectives(victory, ctx)  # type: ignore[attr-defined]
    return setup


def scenario_objectives(victory, ctx) -> dict[str, list[dict]]:
    """Per side, what the victory conditions ask of it, as data for AI players (issue 8).

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
    """Narrow ``setup`` to a designer's fixed set-up (the editor's "use this set-up"):
    ``fixed = {"units": {uid: {"hex", "facing", "down"}}, "hidden_hexes": {hex: side},
    "mines": {hex: {"side", "ap", "at"}}}``.

    Each placed unit's deployment zone becomes its one hex (a unit the setup lacks, e.g. a man a
    "less" left out with another seed, or a hex outside its zone is ignored). The order of the
    units is kept (each deployment is split in place), so the set-up asks for the units in the
    same order as the scenario's and a replay of such a game re-runs on the plain scenario.
    The facings, UP/DOWN, hidden hexes and mines are kept in ``setup.fixed`` for the players
    (:class:`core.playtest.FixedSetupPlayer` chooses them). The rules are unchanged: the narrowed
    zones only remove choices. Returns ``setup`` (changed in place).
    """
    if not fixed:
        return setup
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
    setup.fixed = {"units": {k: dict(v) for k, v in units.items() if k in setup.units},  # type: ignore[attr-defined]
                   "hidden_hexes": dict(fixed.get("hidden_hexes") or {}),
                   "mines": {k: dict(v) for k, v in (fixed.get("mines") or {}).items()}}
    return setup


def load_setup(path: str | os.PathLike[str], *, seed: int = 0) -> tuple[object, GameSetup]:
    """Load a scenario file (validated) and build its :class:`GameSetup`; returns (scenario, setup).

    Raises :class:`maps.document_file.DocumentError` for an invalid file, :class:`SetupError` when it
    cannot be played.
    """
    from scenarios.scenario_file import load_scenario, load_scenario_map

    sc = load_scenario(Path(path))
    hexmap = load_scenario_map(sc, path)
    return sc, build_setup(sc, hexmap, seed=seed)
