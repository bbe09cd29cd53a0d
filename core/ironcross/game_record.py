"""What a game's record says about its units, for the playtest runner's trust report.

- Why each unit was eliminated: an enemy attack, a mine, a scenario roll, a crew rule, or the
  engine's own bookkeeping (a penalty the rulebook does not have). A designer acts on casualty
  figures, so a playtest must be able to say that every unit lost was lost to something the rules
  make happen. Each ``eliminated`` event carries the rule that removed the unit;
  :func:`elimination_cause` sorts those rules into causes.
- Which units never entered the map and which never acted (:func:`unit_activity`): an AI that
  leaves a scenario's tanks off the map, or its ATG silent, makes the batch's answer mislead.
- How often each unit attacked (:func:`attacks_by_unit`) and which hexes the victory conditions
  name (:func:`objective_hexes`): the balance sheet's evidence for why a side lost
  (``benchmarks/balance.py``).
"""

from __future__ import annotations

__all__ = ["CAUSES", "ACTING_EVENTS", "ATTACK_EVENTS", "elimination_cause", "unit_activity", "attacks_by_unit",
           "objective_hexes"]

#: Every cause, in the order reports list them. ``bookkeeping`` must stay at 0 in a sound engine.
CAUSES: tuple[str, ...] = ("attack", "mine", "scenario", "crew", "bookkeeping")

# rule-number prefixes (the part before the first space, e.g. "9.2 A" -> "9.2") -> cause
_ATTACK = ("9.", "11.", "12.", "13.", "14.", "15.", "16.", "17.", "21.", "22.", "23.", "24.35", "24.36")
_MINE = ("19.", "24.37")
_SCENARIO = ("24.3",)  # 24.34 infiltration results (F#): a die roll of the scenario's own rule
_CREW = ("20.",)


def elimination_cause(rule: str) -> str:
    """The cause of an elimination logged under ``rule`` (e.g. "11.42", "9.2 C", "19.24", "8.62").

    Returns one of :data:`CAUSES`: ``attack`` (fire, AT fire, overrun defence and results, mortar
    rounds and their scatter, grenades, flamethrowers, assault, MG modes: rules 9, 11-17, 21-23,
    24.35/24.36 grenade attacks on revealed hidden hexes), ``mine`` (19.x, 24.37), ``scenario``
    (24.34 infiltration results), ``crew`` (20.x crew replacements reverting) and ``bookkeeping`` for
    any other rule, e.g. a stacking penalty (8.62) that the rulebook does not have."""
    r = (rule or "").strip()
    head = r.split(" ")[0]
    for prefixes, cause in ((_MINE, "mine"), (_ATTACK, "attack"), (_SCENARIO, "scenario"), (_CREW, "crew")):
        if any(head == p.rstrip(".") or head.startswith(p) for p in prefixes):
            return cause
    return "bookkeeping"


#: Event kinds that show a unit acting, with the field naming the unit(s): moving or turning (8.0,
#: 8.7, 9.0, 8.65), any fire attempt (10.0, 14.0, 15.0, 16.0, 21.0; a failed PC counts, 4.0),
#: assault (17.0), crew replacement (20.1). Set-up placement and free state changes are not acts.
ACTING_EVENTS: dict[str, str] = {
    "moved": "units", "facing": "unit", "overrun": "unit", "push_wreck": "unit",
    "fire": "firers", "grenade": "thrower", "flame": "unit", "mortar_fire": "unit", "mode_fire": "unit",
    "assault_designated": "units", "assault": "attackers", "crew_replacement": "unit",
}


def unit_activity(game) -> dict[str, dict[str, list[str]]]:
    """Idle units of a finished :class:`core.ironcross.game.Game`, per side:
    ``{"german": {"never_entered": [unit ids], "never_acted": [unit ids]}, "russian": {...}}``.

    ``never_entered``: units not eliminated that were never on the map (reinforcements that did not
    enter, units left off the map at set-up). ``never_acted``: units on the map at the end of the
    game that never moved, turned, fired (or tried to), threw a grenade, assaulted or overran
    (:data:`ACTING_EVENTS`). Units eliminated are in neither list. Ids are sorted."""
    acted: set[str] = set()
    placed: set[str] = set()
    for e in game.events:
        k = e["kind"]
        if k == "placed":
            placed.add(e.get("unit"))
        field_ = ACTING_EVENTS.get(k)
        if field_ is None:
            continue
        v = e.get(field_)
        if isinstance(v, list):
            acted.update(v)
        elif v:
            acted.add(v)
    out: dict[str, dict[str, list[str]]] = {}
    for side in ("german", "russian"):
        never_entered, never_acted = [], []
        for u in sorted(game.state.units_of(side), key=lambda x: x.id):
            if u.eliminated:
                continue
            if u.hex is None and u.id not in acted and u.id not in placed:
                never_entered.append(u.id)  # (a crew replacement, 20.1, is off the map but acted)
            elif u.hex is not None and u.id not in acted:
                never_acted.append(u.id)
        out[side] = {"never_entered": never_entered, "never_acted": never_acted}
    return out


#: Event kinds that are an attack by a unit, with the field naming the attacker(s): fire of any kind
#: (AP, AT, opportunity and defensive fire, 10.0-13.0; a failed PC counts, 4.0), grenades (15.0),
#: flamethrowers (16.0), mortar fire (14.0), MG modes (21.0), assault (17.0) and overrun (9.0).
ATTACK_EVENTS: dict[str, str] = {
    "fire": "firers", "grenade": "thrower", "flame": "unit", "mortar_fire": "unit", "mode_fire": "unit",
    "assault": "attackers", "overrun": "unit",
}


def attacks_by_unit(game) -> dict[str, dict[str, int]]:
    """Attacks each unit of a finished :class:`core.ironcross.game.Game` took part in, per side:
    ``{"german": {unit id: attacks}, "russian": {...}}`` (:data:`ATTACK_EVENTS`, one per event
    naming the unit). Every unit that stood on the map at some time is listed, 0 when it never
    attacked (placed at set-up, entered, on the map at the end, or eliminated); units that never
    came onto the map are not (see :func:`unit_activity`). Ids are sorted."""
    count: dict[str, int] = {}
    seen: set[str] = set()
    for e in game.events:
        k = e["kind"]
        if k == "placed" and e.get("unit"):
            seen.add(e["unit"])
        elif k == "moved":
            seen.update(e.get("units") or ())
        field_ = ATTACK_EVENTS.get(k)
        if field_ is None:
            continue
        v = e.get(field_)
        for uid in (v if isinstance(v, list) else [v] if v else []):
            count[uid] = count.get(uid, 0) + 1
    out: dict[str, dict[str, int]] = {"german": {}, "russian": {}}
    for u in sorted(game.state.units.values(), key=lambda x: x.id):
        if u.hex is not None or u.eliminated or u.id in seen or u.id in count:
            out[u.side][u.id] = count.get(u.id, 0)
    return out


def objective_hexes(setup) -> frozenset[str]:
    """The hexes the scenario's victory conditions name: the union of the objectives of weight 1 or
    more that :func:`core.ironcross.scenario_setup.scenario_objectives` derives (``setup.objectives``;
    each side's own conditions and victory-point awards, not the 0.8-weighted "deny" copies).
    Empty when the set-up carries no objectives."""
    out: set[str] = set()
    for objs in (getattr(setup, "objectives", None) or {}).values():
        for o in objs:
            if o.get("weight", 0) >= 1.0:
                out.update(o.get("hexes") or ())
    return frozenset(out)
