"""What a game's record says about its units, for the playtest runner's trust report.

- Why each unit was eliminated: an enemy attack, a mine, a scenario roll, a crew rule, or the
  engine's own bookkeeping (a penalty the rulebook does not have). A designer acts on casualty
  figures, so a playtest must be able to say that every unit lost was lost to something the rules
  make happen. Each ``eliminated`` event carries the rule that removed the unit;
  :func:`elimination_cause` sorts those rules into causes.
- Which units never entered the map and which never acted (:func:`unit_activity`): an AI that
  leaves a scenario's tanks off the map, or its ATG silent, makes the batch's answer mislead.
"""

from __future__ import annotations

__all__ = ["CAUSES", "ACTING_EVENTS", "elimination_cause", "unit_activity"]

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
