"""Red Flags and Iron Crosses behind the toolkit's rule-system boundary (:mod:`core.rule_system`).

:data:`SYSTEM` is everything the runner, replay, validate and the editor need: the scenario's
set-up, a new game, seeded players, the player view, the action JSON, the playtest result fields,
the per-turn record, the scenario summary and design warnings, the pieces the editor draws, one
sentence per event, the LOS rule and the terrain mapping. Nothing outside this package knows the
rules; the registry imports this module on first use of ``"rule_system": "redflags"``.
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from typing import Any, Mapping

from core.dice import derive_seed
from core.redflags.actions import action_from_json, action_to_json
from core.redflags.blunders import KINDS as BLUNDER_KINDS
from core.redflags.blunders import blunder_watch
from core.redflags.game import RULES, Game
from core.redflags.players import DESCRIPTIONS, canonical_settings, make_player
from core.redflags.scenario import Setup, load_setup, scenario_from_data
from core.redflags.tables import OPTIONS, rule_text
from core.redflags.terrain import terrain_mapping
from core.redflags.view import PlayerView
from core.rule_system import Piece, RuleSystem

__all__ = ["SYSTEM", "new_game", "make_players", "view", "result_fields", "turn_record", "summarise_scenario",
           "scenario_warnings", "pieces", "describe_event", "los", "CAUSES", "elimination_cause", "scenario_map"]

SIDES = ("german", "russian")


def new_game(setup: Setup, seed: int, rules: str = "standard", options: tuple[str, ...] = ()) -> Game:
    """A game of ``setup`` at its start (``rules``: "standard"; ``options``: see ``SYSTEM.options``)."""
    return Game(setup, seed, rules=rules or "standard", options=tuple(options))


def make_players(setup: Setup, ai: Mapping[str, str], seed: int) -> dict[str, Any]:
    """``{side: player}`` for ``ai`` = ``{side: "random" | "heuristic[:k=v,...]"}`` (behaviour settings
    after the colon, :mod:`core.redflags.ai_settings`); the German player is seeded
    ``derive_seed(seed, 1)``, the Russian ``derive_seed(seed, 2)``. A side named by the bare player
    the scenario stores settings for (``ai_settings``) takes them. Raises KeyError for an unknown
    name, ValueError for a bad setting."""
    from core.behaviour_settings import stored_specs, with_stored

    spec = with_stored({side: ai.get(side, "heuristic") for side in SIDES}, stored_specs(setup.scenario.ai_settings))
    return {side: make_player(spec[side], derive_seed(seed, 1 if side == "german" else 2)) for side in SIDES}


def view(game: Game, side: str) -> PlayerView:
    """What ``side`` may know (:class:`core.redflags.view.PlayerView`)."""
    return PlayerView(game, side)


def result_fields(game: Game) -> dict:
    """Playtest result fields: casualties per side and unit kind, per side and turn, where units
    were eliminated, fired at and fired from, the first turn with combat, eliminations by rule and
    side, attacks per unit, units that never acted, and the reason the game ended."""
    cas: dict[str, dict[str, int]] = {s: {} for s in SIDES}
    by_turn: dict[str, list[int]] = {s: [] for s in SIDES}
    elim: Counter = Counter()
    fire_at: Counter = Counter()
    fire_from: Counter = Counter()
    by_rule: Counter = Counter()
    by_side: dict[str, Counter] = {s: Counter() for s in SIDES}
    attacks: dict[str, Counter] = {s: Counter() for s in SIDES}
    acted: set[str] = set()
    first = None
    for e in game.events:
        k = e["kind"]
        if k == "eliminated":
            side = e["side"]
            cas[side][e["unit_kind"]] = cas[side].get(e["unit_kind"], 0) + 1
            t = max(1, int(e.get("turn") or 1))
            row = by_turn[side]
            row.extend([0] * (t - len(row)))
            row[t - 1] += 1
            by_rule[e["rule"]] += 1
            by_side[side][e["rule"]] += 1
            if e.get("hex"):
                elim[e["hex"]] += 1
        elif k == "fire":
            if e.get("hex"):
                fire_at[e["hex"]] += 1
            if e.get("unit"):
                u = game.units[e["unit"]]
                attacks[u.side][u.uid] += 1
                if first is None:
                    first = e["turn"]
        elif k == "engage":
            fire_from[e["source"]] += 1
        elif k == "action":
            a = e["action"]
            if a.get("unit"):
                acted.add(a["unit"])
    turns = game.turn_no
    for row in by_turn.values():
        row.extend([0] * (turns - len(row)))
    idle = {s: {"never_entered": sorted(u.uid for u in game.units.values() if u.side == s and u.status == "waiting"),
                "never_acted": sorted(u.uid for u in game.units.values() if u.side == s and u.uid not in acted
                                      and u.status != "waiting")} for s in SIDES}
    return {"casualties": cas, "casualties_by_turn": by_turn, "first_contact": first, "eliminated_at": dict(elim),
            "fire_at": dict(fire_at), "fire_from": dict(fire_from), "reason": game.reason,
            "eliminations_by_rule": dict(by_rule), "eliminations_by_side": {s: dict(c) for s, c in by_side.items()},
            "attacks": {s: {u: n for u, n in sorted(c.items())} for s, c in attacks.items()}, "idle": idle}


def turn_record(game: Game) -> tuple[str, dict[str, int]]:
    """(the outcome the victory conditions give now, {side: objective hexes it controls})."""
    return game.standing(), game.held()


def summarise_scenario(path: str, data: dict) -> str:
    """One line for ``ironcross validate``; raises :class:`DocumentError` naming the file, the
    JSON path and the problem for an invalid scenario."""
    sc, hexmap, roster = scenario_from_data(data, path)
    parts = []
    for s in SIDES:
        spec = sc.side(s)
        n = sum(len(g.units) for g in spec.groups)
        parts.append(f"{s.capitalize()} {n} units in {len(spec.groups)} group(s)")
    return (f"Red Flags scenario {sc.number or '-'} {sc.title!r}: {sc.map.section}, {sc.turns} turns, "
            + ", ".join(parts) + f", {len(sc.victory.objectives)} objective hexes")


def scenario_warnings(path: str) -> list[str]:
    """Design warnings (``validate --warnings``): set-up zones without room for their units,
    objectives inside the attacker's set-up zone, aircraft arriving after the last turn, guns that
    can never move, groups left without a black card where wire or mines need one."""
    from core.redflags.scenario import load_scenario

    sc, hexmap, roster = load_scenario(path)
    c0, c1 = hexmap.section_columns(sc.map.section)
    area = {h.id for h in hexmap.all_hexes() if c0 <= h.col <= c1}
    setup = Setup(sc, str(path), hexmap, frozenset(area), roster.by_id())
    g = Game(setup, 0)
    out: list[str] = []
    for s in SIDES:
        need = sum(g.space_of(u) for u in g.units.values() if u.side == s and g._placeable(u))
        room = g.capacity * len(setup.zone(s))
        if need > room:
            out.append(f"$.{s}.setup_zone: the zone holds {room} bases, the side's units need {need} (r.stacking)")
    att = [s for s in SIDES if sc.victory.initial_control and s != sc.victory.initial_control]
    for s in att:
        inside = sorted(set(sc.victory.objectives) & setup.zone(s))
        if inside:
            out.append(f"$.victory.objectives: {', '.join(inside)} lie in the {s} set-up zone")
    for s, grp, u, loc in sc.units():
        e = roster.by_id()[u.type]
        if e.kind == "aircraft" and u.arrives and u.arrives > sc.turns:
            out.append(f"$.{s}.groups[{loc[2]}].units[{loc[4]}].arrives: {u.id} arrives after the last turn ({sc.turns})")
        if e.kind == "artillery" and e.size == "heavy" and not u.tow:
            out.append(f"$.{s}.groups[{loc[2]}].units[{loc[4]}]: {u.id} ({e.name}) has no tow and can never move "
                       "(Movement: medium and heavy artillery may only move if towed)")
    if sc.fortifications.wire or sc.fortifications.mines:
        for s in SIDES:
            if not any(grp.card.black for grp in sc.side(s).groups):
                out.append(f"$.{s}.groups: no group of the {s} side has a black card; it can never remove wire or "
                           "enter a mined hex (Movement)")
    return out


_KIND_WORD = {"artillery": "gun", "afv": "afv", "recon": "recon", "transport": "transport", "aircraft": "aircraft",
              "observer": "observer", "commander": "commander", "infantry": "infantry", "engineer": "engineer",
              "cavalry": "cavalry"}


def pieces(game: Game) -> list[Piece]:
    """Every unit on the map (and aboard vehicles) as :class:`core.rule_system.Piece` for the editor."""
    out = []
    for u in game.units.values():
        if not u.in_play:
            continue
        hexes = tuple(u.hexes)
        status: list[str] = []
        if u.carried_by:
            hexes = tuple(game.units[u.carried_by].hexes)
            status.append(f"aboard {u.carried_by}")
        if not hexes:
            continue
        if u.status == "shaken":
            status.append("SHAKEN")
        if u.dug_in:
            status.append("dug in")
        if u.enfiladed:
            status.append("enfiladed")
        if u.limbered:
            status.append("limbered")
        if u.wire_held:
            status.append("wire")
        label = f"{u.uid} {u.name}"
        if u.kind in ("infantry", "engineer", "cavalry") or (u.kind == "recon" and not u.armoured):
            label += f" ({u.strength})"
        elif u.armoured and u.vehicles > 1:
            label += f" (x{u.vehicles})"
        elif u.kind == "artillery":
            label += f" (crew {u.crew})"
        facing = u.heading if u.kind == "aircraft" else u.facing
        out.append(Piece(u.uid, u.side, hexes, label, _KIND_WORD.get(u.kind, u.kind), tuple(status), facing))
    return out


def describe_event(e: dict) -> str:
    """One English sentence for an event (empty for dice rolls and decisions, which the log shows
    through their effects)."""
    k = e.get("kind")
    d = e
    if k in ("roll", "action"):
        return ""
    if k == "game_start":
        return f"{d.get('title')}: {d.get('turns')} turns; objectives {', '.join(d.get('objectives') or [])}."
    if k == "place":
        return f"{d['unit']} sets up in {d['hex']}" + (" dug in." if d.get("dug_in") else ".")
    if k == "setup_end":
        return "The set-up is complete."
    if k == "turn_start":
        return f"Turn {d['turn']} of {d.get('turn_of')}: the activation cards are shuffled."
    if k == "card":
        colour = "black" if d.get("black") else "red"
        return f"Card {d.get('card')} ({colour}): the {d['side']} {d['group']} is activated."
    if k == "activation_end":
        return f"The {d.get('group')} has done everything it will." + (" (nothing it could do)" if d.get("auto") else "")
    if k == "move":
        return f"{d['unit']} moves {d['hexes']} hex{'es' if d['hexes'] != 1 else ''}: {' - '.join(d['path'])}" + (
            f", with the commander {d['with_commander']}." if d.get("with_commander") else ".")
    if k == "engage":
        how = f" (spotted by {d['spotter']})" if d.get("spotter") else ""
        return f"{d['unit']} engages {d['target']} in {d['hex']} from {d['source']} at {d['range']} hexes{how}."
    if k == "enfiladed":
        return f"{d['unit']} is enfiladed by {d['by']}: it may not return fire until it is activated."
    if k == "initiative":
        return f"Who fires first: {d.get('first') or 'both at once'} ({d.get('reason')})."
    if k == "fire":
        who = d.get("unit") or "the minefield"
        hits = d.get("hits") or {}
        res = ", ".join(f"{u} {n} hit{'s' if n != 1 else ''}" for u, n in hits.items()) or "no hits"
        dice = ", ".join(f"{n}D6 {w.replace('_', ' ')}" for w, n in (d.get("weapons") or {}).items())
        return f"{who}{' returns fire' if d.get('returning') else ' fires'} at {d.get('hex')} ({dice}): {res}."
    if k == "hits":
        return f"{d['unit']} takes {d['hits']} hit{'s' if d['hits'] != 1 else ''}" + (
            f", loses {', '.join(d['removed'])}" if d.get("removed") else "") + f"; {d.get('left')} left."
    if k == "eliminated":
        return f"{d['unit']} ({d['side']} {d['unit_kind']}) is {d.get('status', 'eliminated')} in {d.get('hex')} ({d.get('cause')})."
    if k == "morale":
        return f"{d['unit']} checks morale: {d['total']}{''.join(f' {v:+d}' for v in (d.get('modifiers') or {}).values())}: {d['result']}."
    if k == "rally":
        return f"{d['unit']} rallies and does nothing else this activation."
    if k == "enfilade_ends":
        return f"{d['unit']} is activated: no longer enfiladed."
    if k == "control":
        return f"The {d['side']} side takes control of {d['hex']}."
    if k == "turn_end":
        held = d.get("held") or {}
        return f"End of turn {d['turn']}: " + ", ".join(f"{s} controls {n}" for s, n in held.items()) + \
            f" objectives (standing: {d.get('standing')})."
    if k == "game_over":
        return f"Game over: {d['outcome']} ({d.get('reason')})."
    if k == "aircraft_arrives":
        return f"{d['unit']} arrives over {d['hex']} for {d.get('turns')} turns."
    if k == "aircraft_leaves":
        return f"{d['unit']} leaves the battlefield ({d.get('reason')})."
    if k == "air_step":
        return f"{d['unit']} flies to {d.get('hex')}" + (" and off the battlefield." if d.get("left") else ".")
    if k == "air_attack":
        what = "drops its bombs" if d.get("kind_of_attack") == "bomb" else "makes a strafing run"
        return f"{d['unit']} {what} on {d.get('hex')}."
    if k == "air_attack_off":
        return f"{d['unit']}'s attack falls off the battlefield."
    if k in ("embus", "debus"):
        return f"{d['unit']} {k}ses {'onto' if k == 'embus' else 'from'} {d['vehicle']} in {d['hex']}."
    if k in ("limber", "unlimber"):
        return f"{d['unit']} {k}s ({d['vehicle']}): it takes the turn."
    if k == "wire":
        return f"{d['unit']} enters the barbed wire in {d['hex']} and must remove it before moving again."
    if k == "wire_removed":
        return f"{d['unit']} removes the barbed wire in {d['hex']}."
    if k == "mined_hex":
        return f"{d['unit']} enters the mined hex {d['hex']} and stops."
    if k == "extend":
        return f"{d['unit']} spreads over {' and '.join(d['hexes'])}."
    if k == "contract":
        return f"{d['unit']} closes up into {d['hex']}."
    if k == "charges":
        return f"{d['unit']} places {d['used']} demolition charge(s); {d['left']} left."
    if k == "passengers":
        return f"{d['unit']} is set down in {d.get('hex')} from its lost transport."
    if k == "shuffle":
        return ""
    return f"{k} ({rule_text(e.get('rule', ''))})"


def los(game: Game, a: str, b: str) -> bool:
    """The Red Flags LOS rule between hexes ``a`` and ``b`` with the game's units as obstacles."""
    return game.los(a, b)


def _load_setup(path: str | os.PathLike[str], seed: int = 0, fixed: dict | None = None) -> Setup:
    return load_setup(path, seed, fixed)


#: Why units were eliminated, for the playtest report (the rule an ``eliminated`` event names).
CAUSES = ("fire", "air", "mines", "morale")
_CAUSE_OF = {"r.damage": "fire", "fire.bombing": "air", "fire.strafing": "air", "r.mines": "mines", "r.morale": "morale"}


def elimination_cause(rule: str) -> str:
    """The cause (one of :data:`CAUSES`) of an elimination logged under ``rule``."""
    return _CAUSE_OF.get(rule, "fire")


def scenario_map(path: str) -> tuple[Any, list[str]]:
    """(the map, [its ONE section]) a Red Flags scenario is played on."""
    from core.redflags.scenario import load_scenario

    sc, hexmap, _roster = load_scenario(path)
    return hexmap, [sc.map.section]


# ------------------------------------------------------------------ the editor's scenario form and Watch
_UNITS = "$.{side}.groups[*].units[*]"


def scenario_schema() -> dict:
    """The JSON schema of a Red Flags scenario file (:class:`core.redflags.scenario.Scenario`)."""
    from core.redflags.scenario import Scenario

    return Scenario.model_json_schema()


def scenario_hints() -> dict:
    """What the editor's form needs beyond the schema (``RuleSystem.scenario_hints``): the set-up
    zones, wire, mines and objectives are hex lists (zones also a column x row block), an
    aircraft's entry one hex; a unit's ``type`` one of its side's entries of the shipped roster
    (Units), facings and headings hexsides 1-6, a unit's ``tow``/``aboard`` one of its side's unit ids
    (Units: Transport unit);
    unit ids unique; a new group's activation card (Activation) and a new unit from templates."""
    from core.redflags.roster import shipped_roster
    from core.redflags.scenario import SUITS

    roster = shipped_roster()
    hexside = [[i, f"hexside {i}"] for i in range(1, 7)]
    hints: dict[str, Any] = {"hex_lists": ["$.fortifications.wire", "$.fortifications.mines", "$.victory.objectives"],
                             "hexes": [], "hex_blocks": [], "choices": {}, "unique": [], "templates": {},
                             "labels": {}}
    for side in SIDES:
        units = _UNITS.format(side=side)
        hints["hex_lists"].append(f"$.{side}.setup_zone.hexes")
        hints["hex_blocks"].append(f"$.{side}.setup_zone")
        hints["hexes"].append(f"{units}.entry")
        types = [[e.id, f"{e.name} ({e.kind})"] for e in roster.units if e.side == side]
        hints["choices"][f"{units}.type"] = types
        hints["choices"][f"$.{side}.facing"] = hexside
        hints["choices"][f"{units}.heading"] = hexside
        hints["unique"].append(f"{units}.id")
        hints["refs"] = {**hints.get("refs", {}), f"{units}.tow": f"{units}.id", f"{units}.aboard": f"{units}.id"}
        prefix = "G" if side == "german" else "R"
        hints["templates"][f"$.{side}.groups[*].units"] = {"id": f"{prefix}1", "type": types[0][0]}
        hints["templates"][f"$.{side}.groups"] = {"name": "New group", "card": {"rank": "2", "suit": SUITS[0]},
                                                   "units": [{"id": f"{prefix}1", "type": types[0][0]}]}
        hints["labels"][f"$.{side}.groups"] = "name"
        hints["labels"][f"$.{side}.groups[*].units"] = "id"
    hints["labels"]["$.victory.results"] = "outcome"
    return hints


def new_scenario(map_file: str, sections: list[str], title: str = "New scenario") -> dict:
    """A minimal valid Red Flags scenario (``RuleSystem.new_scenario``) on ``map_file`` (as
    written in the file) and the FIRST of ``sections`` (the one section played on): 6 turns, the
    German side sets up first in the section's first three columns (one rifle squad, card A of
    spades), the Russian side in its last three (one rifle section, card A of hearts), the centre
    hex an objective held by the German side. Raises ValueError for no section or a section the
    map lacks (the map is read from ``map_file`` relative to the working folder when relative)."""
    from core.redflags.roster import shipped_roster
    from core.redflags.scenario import load_map_cached
    from pathlib import Path

    if not sections:
        raise ValueError("a Red Flags scenario is played on one map section: name it")
    hexmap = load_map_cached(Path(map_file).resolve())
    try:
        c0, c1 = hexmap.section_columns(sections[0])
    except KeyError:
        raise ValueError(f"the map has no section {sections[0]!r}") from None
    ext = hexmap.doc.extent
    r0, r1 = ext.first_row, ext.last_row
    roster = shipped_roster()
    first = {s: next(e.id for e in roster.units if e.side == s and e.kind == "infantry") for s in SIDES}
    from maps import hexgrid

    mid = hexgrid.hex_id((c0 + c1) // 2, (r0 + r1) // 2)
    return {
        "format": "redflags-scenario", "version": 1, "rule_system": "redflags", "title": title,
        "map": {"file": str(map_file), "sections": [sections[0]]},
        "turns": 6, "sets_up_first": "german",
        "german": {"setup_zone": {"columns": [c0, min(c0 + 2, c1)], "rows": [r0, r1]}, "facing": 2,
                   "groups": [{"name": "1. Zug", "card": {"rank": "A", "suit": "spades"},
                               "units": [{"id": "G1", "type": first["german"]}]}]},
        "russian": {"setup_zone": {"columns": [max(c1 - 2, c0), c1], "rows": [r0, r1]}, "facing": 5,
                    "groups": [{"name": "1st Platoon", "card": {"rank": "A", "suit": "hearts"},
                                "units": [{"id": "R1", "type": first["russian"]}]}]},
        "victory": {"objectives": [mid], "initial_control": "german",
                    "results": [{"outcome": "russian", "side": "russian", "controls_at_least": 1}],
                    "default": "german"},
    }


def status_lines(game: Game) -> list[str]:
    """The Watch's lines (Activation): the card turned now and whose group it activates, the
    cards turned this turn in order, and the cards still to come (their order is hidden: listed by
    side); during set-up, who places."""
    if game.is_terminal():
        return [f"game over: {game.outcome}"]
    if game.turn_no == 0 or (game.card is None and not game.turned):
        return ["Set-up (r.setup): " + (f"{game.current_side()} places its units" if game.current_side() else "")]
    out = []
    if game.card is not None:
        c = game.card
        out.append(f"Turn {game.turn_no} of {game.game_length} -- card up: {c['label']}, {c['side']} {c['group']}"
                   + (" (black)" if c["black"] else ""))
    turned = [f"{c['label']} {c['group']}" for c in game.turned]
    out.append(f"Turned ({len(turned)} of {len(game.cards)}): " + (", ".join(turned) or "none"))
    rest = {s: [f"{c['label']} {c['group']}" for c in game.deck if c["side"] == s] for s in SIDES}
    n = sum(len(v) for v in rest.values())
    out.append(f"To come ({n}, face down): "
               + ("; ".join(f"{s} {', '.join(v)}" for s, v in rest.items() if v) or "none -- the turn ends"))
    return out


def vassal_plan(path: str):
    """What the VASSAL module of the scenario file holds (:mod:`core.redflags.vassal_plan`)."""
    from core.redflags.vassal_plan import plan_from_files

    return plan_from_files(path)


def _whatif_changes():
    """The what-if change kinds of Red Flags scenarios (:mod:`core.redflags.whatif_changes`)."""
    from core.redflags import whatif_changes

    return whatif_changes


def _settings_space(player: str) -> tuple[dict, dict]:
    """(search space, defaults) of the heuristic's behaviour settings
    (:mod:`core.redflags.ai_settings`); KeyError for a player without settings."""
    if player != "heuristic":
        raise KeyError(player)
    from core.redflags.ai_settings import SEARCH_SPACE, RedFlagsSettings

    return dict(SEARCH_SPACE), RedFlagsSettings().model_dump()


def _optional_fields() -> dict[str, Any]:
    """The boundary's optional fields this system fills, for a :class:`RuleSystem` that has them
    (a later ``core/rule_system.py``); an older one without them is built without them."""
    have = {f.name for f in dataclasses.fields(RuleSystem)}
    offered = {"causes": CAUSES, "elimination_cause": elimination_cause, "scenario_map": scenario_map,
               "status_lines": status_lines, "scenario_schema": scenario_schema, "scenario_hints": scenario_hints,
               "new_scenario": new_scenario, "vassal_plan": vassal_plan, "whatif_changes": _whatif_changes,
               "player_settings": canonical_settings, "settings_space": _settings_space,
               "blunder_kinds": dict(BLUNDER_KINDS), "blunder_watch": blunder_watch}
    return {k: v for k, v in offered.items() if k in have}


SYSTEM = RuleSystem(
    name="redflags",
    title="Red Flags and Iron Crosses -- Tarred and Featherstoned",
    seed="seeds/004_922d117e221c8d86.txt",
    players=dict(DESCRIPTIONS),
    rules=RULES,
    load_setup=_load_setup,
    new_game=new_game,
    make_players=make_players,
    view=view,
    action_to_json=action_to_json,
    action_from_json=action_from_json,
    result_fields=result_fields,
    turn_record=turn_record,
    summarise_scenario=summarise_scenario,
    scenario_warnings=scenario_warnings,
    pieces=pieces,
    describe_event=describe_event,
    los=los,
    terrain_mapping=terrain_mapping(),
    options=dict(OPTIONS),
    **_optional_fields(),
)
