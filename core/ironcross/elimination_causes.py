"""What lies behind each elimination: an enemy attack, a mine, a scenario roll, a crew rule, or
the engine's own bookkeeping (a penalty the rulebook does not have).

A designer acts on casualty figures, so a playtest must be able to say that every unit lost was
lost to something the rules make happen. Each ``eliminated`` event carries the rule that removed
the unit; :func:`elimination_cause` sorts those rules into causes.
"""

from __future__ import annotations

__all__ = ["CAUSES", "elimination_cause"]

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
