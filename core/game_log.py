"""The game log as sentences, for any rule system: the editor's Watch and Hot-seat show it, and
``ironcross replay FILE --log`` prints a replay's whole log headless (the same sentences).

A system with the optional ``describe_action`` and ``log_events`` (:class:`core.rule_system.RuleSystem`;
Iron Cross has them) words its own actions and events; any other is read from its actions' JSON
and its ``describe_event``.
"""

from __future__ import annotations

__all__ = ["action_label", "log_lines", "decisions_of"]


def _generic_label(d: dict) -> str:
    """A label from an action's JSON: its kind in words, then its fields ("roll: dice 2")."""
    def v(x):
        if isinstance(x, (list, tuple)):
            return ", ".join(str(y) for y in x)
        if isinstance(x, bool):
            return "yes" if x else "no"
        return str(x)

    kind = str(d.get("kind", "action")).replace("_", " ")
    rest = [f"{str(k).replace('_', ' ')} {v(x)}" for k, x in d.items()
            if k != "kind" and x not in (None, "", [], (), False)]
    return kind + (": " + ", ".join(rest) if rest else "")


def action_label(system, action, game=None) -> str:
    """A short readable label of ``action`` (an action or its JSON dict): the system's
    ``describe_action`` when it has one, else its JSON's kind and fields."""
    if system.describe_action is not None:
        return system.describe_action(action, game)
    d = action if isinstance(action, dict) else system.action_to_json(action)
    return _generic_label(d)


def log_lines(system, events: list[dict], where=None) -> list[str]:
    """The log's sentences for the events of one decision: the system's ``log_events`` when it
    has one; else an ``action`` event (with its action's JSON) is "Side: label"
    (:func:`action_label`) and any other event the system's ``describe_event`` ("" skips it)."""
    if system.log_events is not None:
        return system.log_events(events, where)
    out = []
    for e in events:
        if e.get("kind") == "action" and isinstance(e.get("action"), dict):
            text = f"{str(e.get('side') or '').capitalize()}: {action_label(system, e['action'])}"
        else:
            text = system.describe_event(e)
        if text:
            out.append(text)
    return out


def decisions_of(events: list[dict]) -> list[list[dict]]:
    """A game's events (a replay's, in order) cut into the events of each decision: an ``action``
    event starts a new group with the events it caused; what comes before the first one (the game's
    start) is a group of its own. Every event is in exactly one group, in order."""
    groups: list[list[dict]] = []
    for e in events:
        if e.get("kind") == "action" or not groups:
            groups.append([e])
        else:
            groups[-1].append(e)
    return groups
