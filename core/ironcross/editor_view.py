"""Iron Cross's richer text and state for the editor's Watch and Hot-seat, behind the rule-system
boundary: the :class:`core.rule_system.RuleSystem` fields ``describe_action``, ``log_events``,
``watch_state`` and ``action_notes`` of :data:`core.ironcross.system.SYSTEM` are these functions.

Pure Python (no Qt): the log's sentences with their rules, readable action labels (a 17.23
casualty choice names the unit's weapon and PR), the state the Watch keeps after each decision
(turn, player turn, phase, each unit's hex, facing, UP/DOWN and morale) and the exact odds of an
AP fire (``combat_tables.ap_result_probabilities``).
"""

from __future__ import annotations

__all__ = ["describe_action", "describe_event", "describe_events", "fire_odds", "fire_odds_text", "watch_state",
           "action_notes", "action_for_click", "click_targets", "decision_note"]


def counter_label(u) -> str:
    """The short text on a unit's counter: infantry weapon and squad letter ("R" + "A" = "RA"),
    a commander's weapon, else the first five letters of the weapon (AFVs, CWs)."""
    if u.kind.value == "infantry":
        return f"{u.weapon}{u.squad or ''}"
    if u.kind.value == "commander":
        return u.weapon
    return (u.weapon or "")[:5]


def watch_state(game) -> dict:
    """The state the editor's Watch keeps after each decision (``editor.play.game_record.Snapshot``
    fields): ``turn``, ``player_turn``, ``phase`` (the Phase's value), ``phasing``, ``outcome``,
    ``turns`` (the game length in Game Turns) and ``units``: uid -> (hex, facing, down, morale in
    lower case, side, counter label) of every unit on the map (2.2)."""
    s = game.state
    units = {uid: (u.hex, u.facing, u.down, u.morale.value.lower(), u.side, counter_label(u))
             for uid, u in s.units.items() if u.on_map}
    return {"turn": s.turn, "player_turn": s.player_turn, "phase": s.phase.value, "phasing": s.phasing,
            "outcome": s.outcome, "turns": s.game_length, "units": units}


def describe_action(a, game=None) -> str:
    """A short readable label of action ``a`` (an Action or its JSON dict); with ``game`` the
    units it names may be described from the game (e.g. "Lose G1 (R PR7)" for a 17.23 casualty)."""
    d = a if isinstance(a, dict) else _to_json(a)
    k = d.get("kind")
    if k == "take_casualty":
        u = game.state.units.get(d["unit"]) if game is not None else None
        if u is None:
            return f"Lose {d['unit']}"
        what = [f"{u.weapon} PR{u.pr}", f"assault {u.assault}"]
        if u.is_cw:
            what.append(f"crew {u.crew}")
        if u.is_commander:
            what.append("commander")
        return f"Lose {u.id} ({', '.join(what)})"
    if k == "place":
        return f"place {d['unit']} in {d['hex']}" + (" DOWN" if d.get("down") else "") + \
            (f" facing {d['facing']}" if d.get("facing") else "")
    if k == "start_move":
        return "start moving " + ", ".join(d["units"]) + (f" (leader {d['leader']})" if d.get("leader") else "")
    if k in ("step", "enter"):
        return f"{k} {d['hex']}"
    if k == "fire":
        return f"{d.get('mode', 'AP')} fire by {', '.join(d['firers'])} at {d['target']}" + \
            (f" ({d['target_unit']})" if d.get("target_unit") else "") + \
            (" intensive" if d.get("intensive") else "")
    if k == "face":
        return f"face hexside {d['hexside']}"
    if k == "overrun_at_fire":
        return f"special AT fire by {d['unit']} at the overrunning AFV (9.2 A)"
    if k in ("grenade", "flame"):
        return f"{k}: {d.get('thrower') or d.get('unit')} at {d['target']}"
    if k == "mortar":
        return f"mortar {d['unit']} at {d['target']} x{d.get('rounds', 1)}"
    if k == "designate_assault":
        return f"assault {d['target']} with {', '.join(d['units'])}"
    if k == "set_state":
        return f"{'DOWN' if d['down'] else 'UP'}: {', '.join(d['units'])}"
    if k == "detach":
        return f"detach {', '.join(d['units'])} ({d['detachment']})"
    return k.replace("_", " ") if k else str(d)


def _to_json(a) -> dict:
    from core.ironcross.actions import action_to_json

    return action_to_json(a)


_RESULTS = {"E": "ELIMINATED", "S": "SUPPRESSED", "P": "PINNED", "N": "no effect", "NE": "no effect",
            "-": "no effect", "": "no effect", None: "no effect"}
_SKIP = ("i", "kind", "turn", "player_turn", "phase", "rule")


def _list(xs) -> str:
    xs = list(xs or [])
    return ", ".join(str(x) for x in xs) if xs else "nobody"


def _dice(dice) -> str:
    d = list(dice or [])
    return f"{len(d)} {'die' if len(d) == 1 else 'dice'} ({' '.join(str(x) for x in d)})"


def _v(units, one: str, many: str) -> str:
    """The verb agreeing with a list of units: "R-B-5 moves", "R-B-4, R-B-7 move"."""
    return one if len(list(units or [])) == 1 else many


def _side(s) -> str:
    return str(s or "").capitalize()


def _words(k: str) -> str:
    return str(k).replace("_", " ")


def _value(v) -> str:
    if isinstance(v, (list, tuple)):
        return _list(v)
    if isinstance(v, dict):
        return ", ".join(f"{_words(k)} {_value(x)}" for k, x in v.items())
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def _at(units, where) -> str:
    """Units with their hexes, grouped: "G-C-9, G-C-10 in 4106; G-MMG-1 in 4107"."""
    groups: dict[str, list[str]] = {}
    for u in units or []:
        text = where(u)
        uid, _, hx = text.partition(" in ")
        groups.setdefault(hx, []).append(uid)
    return "; ".join(", ".join(us) + (f" in {hx}" if hx else "") for hx, us in groups.items()) or "nobody"


def _sentence(e: dict, where, ctx: dict) -> str:
    """The event as a sentence, without its rule."""
    k = e.get("kind")
    g = e.get
    if k == "action":
        return f"{_side(g('side'))}: {describe_action(e['action'])}"
    if k == "game_start":
        return f"Game starts: {g('title', '')}, seed {g('seed')}, {g('rules')} rules"
    if k == "game_over":
        det = g("details") or {}
        why = det.get("reason") if isinstance(det, dict) else ""
        return f"Game over: {g('outcome')} wins" + (f" ({why})" if why else "") if g("outcome") != "draw" else \
            "Game over: a draw" + (f" ({why})" if why else "")
    if k == "player_turn":
        return f"== Game Turn {g('game_turn', g('turn'))}: {_side(g('phasing'))} player turn =="
    if k == "phase":
        return f"-- {_words(g('phase', '')).capitalize()} Phase ({_side(g('phasing', g('side')))} phasing) --"
    if k == "roll":
        dice = list(g("dice") or [])
        return f"Roll for {g('purpose', '')}: {' + '.join(str(d) for d in dice)} = {g('total')}"
    if k == "pc":
        mod = g("modifier") or 0
        return (f"{where(g('unit'))} {'passes' if g('passed') else 'fails'} its PC for {g('purpose', '')}: "
                f"{g('total')} against PR {g('pr')}" + (f" (modifier {mod:+d})" if mod else ""))
    if k == "fire":
        ctx["fire"] = e
        how = g("mode", "AP") + (", opportunity fire" if g("opportunity") else "")
        return f"{_at(g('firers'), where)} fires at {g('target')} ({how})"
    if k == "ap_firepower":
        ctx["fp"] = g("final")
        red = [f"{_words(x)} -{g(x)}" for x in ("target_hex_reduction", "los_reduction") if g(x)]
        return (f"Firepower at {g('target')}: {g('final')} AP (base {g('base')}" + (", " + ", ".join(red) if red else "")
                + (", from higher ground" if g("higher") else "") + ")")
    if k == "ap_result":
        f = ctx.get("fire")
        res = _RESULTS.get(g("result"), str(g("result")))
        if f is not None:
            return (f"{_at(f.get('firers'), where)} fires at {f.get('target')}: {g('firepower')} AP "
                    f"on {g('unit')}, {_dice(g('dice'))} -> {res}")
        return f"{where(g('unit'))}: {g('firepower')} AP, {_dice(g('dice'))} -> {res}"
    if k == "at_result":
        return (f"{where(g('firer'))} fires AT {g('at')} at {g('unit')} (armour {g('armour')}, "
                f"{'front' if g('frontal') else 'side or rear'}): {' + '.join(str(d) for d in g('dice') or [])} = "
                f"{g('total')} -> {'DESTROYED' if g('destroyed') else 'not destroyed'}")
    if k == "morale":
        return f"{where(g('unit'))} becomes {str(g('after', '')).upper()} (was {str(g('before', '')).lower()})"
    if k == "eliminated":
        return f"{g('unit')} ({g('side')}) is eliminated in {g('hex')}"
    if k == "moved":
        mp = g("mp_left") or {}
        left = sorted(set(mp.values())) if isinstance(mp, dict) else []
        tail = f" ({left[0]:g} MP left)" if len(left) == 1 else ""
        us = g("units")
        return (f"{_list(us)} {_v(us, 'moves', 'move')} {g('frm')} -> {g('to')}" if g("frm") else
                f"{_list(us)} {_v(us, 'enters', 'enter')} in {g('to')}") + tail
    if k == "move_start":
        return f"{_list(g('units'))} {_v(g('units'), 'starts', 'start')} moving" + \
            (f", led by {g('leader')}" if g("leader") else "") + \
            (f", directed by {g('directed_by')}" if g("directed_by") else "")
    if k == "move_end":
        return f"{_list(g('units'))} {_v(g('units'), 'ends its', 'end their')} move" + \
            (f" in {g('hex')}" if g("hex") else "") if g("units") else "The move ends"
    if k == "move_failed":
        return f"{_list(g('units'))} {_v(g('units'), 'fails', 'fail')} to start moving"
    if k == "move_stopped":
        return f"{_list(g('units'))} {_v(g('units'), 'has', 'have')} to stop"
    if k == "placed":
        return f"{g('unit')} is set up in {g('hex')}" + (" DOWN" if g("down") else " UP") + \
            (f", facing hexside {g('facing')}" if g("facing") else "")
    if k == "control":
        return f"{_side(g('side'))} controls {g('hex')}"
    if k == "facing":
        return f"{where(g('unit'))} turns to face hexside {g('facing')}"
    if k == "state_change":
        return f"{_list(g('units'))} {_v(g('units'), 'goes', 'go')} {'DOWN' if g('down') else 'UP'}"
    if k == "recovered":
        return f"{where(g('unit'))} recovers"
    if k == "still_pinned":
        return f"{where(g('unit'))} stays pinned"
    if k == "grenade":
        return f"{where(g('thrower'))} throws a grenade at {g('target')}" + ("" if g("passed", True) else " (PC failed)")
    if k in ("grenade_result", "flame_result", "mine_result"):
        what = {"grenade_result": "Grenade", "flame_result": "Flame", "mine_result": "Mines"}[k]
        return f"{what} on {where(g('unit'))}: die {g('die')} -> {_RESULTS.get(g('result'), str(g('result')))}"
    if k == "assault_designated":
        return f"{_side(g('side'))} will assault {g('target')} from {g('frm')} with {_list(g('units'))}"
    if k == "assault":
        return f"{_side(g('side'))} assaults {g('target')} from {g('frm')} with {_list(g('attackers'))}"
    if k == "assault_fire":
        return f"{g('unit')} fights ({g('step', '')}): die {g('die')} against {g('rating')} -> {'a hit' if g('hit') else 'a miss'}"
    if k == "assault_over":
        return f"The assault on {g('target')} is over: {g('winner')} holds it (survivors {_list(g('survivors'))})"
    if k == "assault_failed":
        return f"{_list(g('units'))} cannot assault {g('target')}"
    if k == "casualty_choice":
        return f"{_side(g('side'))} must remove {g('hits')} of {_list(g('candidates'))} in {g('hex')}"
    if k == "casualty_chosen":
        return f"{_side(g('side'))} removes {g('unit')} in {g('hex')}"
    if k == "casualties_forced":
        return f"{_side(g('side'))} loses {_list(g('units'))} in {g('hex')}: {g('reason', '')}"
    if k == "setup_done":
        return "Set-up done"
    if k == "hidden_hex":
        return f"{_side(g('side'))} marks {g('hex')} as a hidden hex"
    if k == "mines_placed":
        return f"{_side(g('side'))} lays {g('factors')} {_words(g('type', 'mine'))} factors in {g('hex')}"
    if k == "mines_revealed":
        return f"Mines in {g('hex')} revealed" + (f": {g('ap')} AP" if g("ap") else "") + (f", {g('at')} AT" if g("at") else "")
    if k == "ip_placed":
        return f"{_side(g('side'))} builds an improved position ({g('points')}) in {g('hex')}"
    if k == "ammo":
        return f"{g('unit')} uses {g('spent')} ammunition for {g('purpose', 'fire')} ({g('left')} left)"
    if k == "out_of_ammo":
        return f"{g('unit')} is out of ammunition"
    if k == "intensive_fire":
        return f"{g('unit')} intensive fire: {g('total')} -> {g('effect')}"
    if k == "crew_losses":
        return f"{g('unit')} loses {g('lost')} crew ({g('crew')} left)"
    if k == "first_shot":
        return "First shot of the player turn"
    if k == "revealed":
        return f"{_side(g('side'))} units in {g('hex')} revealed ({g('reason')}): {_list(g('units'))}"
    if k == "wreck":
        return f"{g('unit')} is a wreck in {g('hex')}"
    if k == "no_effect":
        return f"{g('unit')}: no effect ({g('reason', '')})"
    if k == "tank_commander_killed":
        return f"{g('unit')} loses its tank commander"
    if k == "observation":
        return (f"{g('observer')} in {g('hex')} {'observes' if g('observed') else 'does not observe'} {g('target')}: "
                f"{g('total')} against {g('base')}")
    if k == "mg_mode":
        return f"{g('unit')} sets its MG to {g('mode')}" + (f" at {g('target')}" if g("target") else "")
    if k == "mode_fire":
        return f"{where(g('unit'))} fires in {g('mode')} mode" + ("" if g("passed", True) else " (PC failed)")
    if k == "mode_attack":
        return f"{g('mode')} attack on {g('target')} in {g('hex')}: {g('final')} AP"
    if k == "morale_phase_skipped":
        return f"{_side(g('side'))} Morale Phase skipped: {g('reason', '')}"
    if k == "detachment":
        return (f"{_side(g('side'))} detachment {g('detachment')}: {_list(g('units'))}"
                + (f", entering on turn {g('entry_turn')}" if g("units") else " (not used)"))
    if k == "infiltration":
        return f"{_side(g('side'))} infiltration ({g('stage', '')})" + (f": squad {g('squad')}" if g("squad") else "")
    rest = [f"{_words(x)} {_value(v)}" for x, v in e.items() if x not in _SKIP and v not in (None, [], {}, "")]
    return f"{_words(k).capitalize()}: " + "; ".join(rest[:6])


def describe_event(e: dict, where=None, ctx: dict | None = None) -> str:
    """One event of the game log as a sentence with its rule, e.g. "R-A-3 in 4307 fires at 4308:
    11 AP on G-C-1, 3 dice (2 5 6) -> PINNED (11.42)". ``where(uid)`` gives a unit's hex (the
    sentence then says where a firer stands); ``ctx`` carries the fire an AP result belongs to
    between the events of one decision (:func:`describe_events` passes it)."""
    ctx = {} if ctx is None else ctx

    def w(uid):
        h = where(uid) if where is not None and uid else None
        return f"{uid} in {h}" if h else str(uid)

    text = _sentence(e, w, ctx)
    indent = "" if e.get("kind") in ("action", "phase", "player_turn", "game_start", "game_over") else "  "
    return indent + text + (f" ({e['rule']})" if e.get("rule") else "")


def describe_events(events: list[dict], where=None) -> list[str]:
    """The events of one decision as sentences (:func:`describe_event`); an AP result names the
    fire it comes from."""
    ctx: dict = {}
    return [describe_event(e, where, ctx) for e in events]


def fire_odds(game, action) -> dict | None:
    """For an AP :class:`Fire`: the final firepower and, per target unit, the dice and the exact
    probabilities of E/S/P/no effect (``combat_tables.ap_result_probabilities``)."""
    from core.ironcross import combat_tables as ct
    from core.ironcross.view import PlayerView

    if getattr(action, "kind", None) != "fire" or action.mode != "AP":
        return None
    side = game.current_side()
    v = PlayerView(game, side)
    try:
        fp = v.ap_firepower(action.firers, action.target, action.intensive)
    except Exception:  # noqa: BLE001 - a view helper missing in an older engine
        return None
    moved = any(game.state.units[f].moved for f in action.firers)
    out = {"firepower": fp, "targets": {}}
    for t in game.state.units_at(action.target):
        if t.side == side:
            continue
        try:
            n = v.ap_dice_against(t.id, moved)
        except Exception:  # noqa: BLE001
            continue
        pr = ct.ap_result_probabilities(fp, n) if fp > 0 else {r: (1.0 if r is ct.ApResult.NO_EFFECT else 0.0)
                                                              for r in ct.ApResult}
        out["targets"][t.id] = {"dice": n, **{r.value: p for r, p in pr.items()}}
    return out


def fire_odds_text(game, action) -> str:
    """An AP fire's odds in one line ("FP 6: R1 2d 3/10/25%": firepower, then per target unit its
    dice and the percentages of E/S/P), or "" for any other action."""
    o = fire_odds(game, action)
    if not o:
        return ""
    return f"FP {o['firepower']}: " + "; ".join(
        f"{t} {v['dice']}d {100 * v['E']:.0f}/{100 * v['S']:.0f}/{100 * v['P']:.0f}%" for t, v in o["targets"].items())


def action_notes(game, action) -> str:
    """The Hot-seat's note under a legal action: an AP fire's odds (:func:`fire_odds_text`)."""
    if getattr(action, "kind", None) == "fire" and getattr(action, "mode", None) == "AP":
        return fire_odds_text(game, action)
    return ""


def _units_of(a) -> tuple[str, ...]:
    for f in ("units", "firers"):
        if hasattr(a, f):
            return tuple(getattr(a, f))
    for f in ("unit", "thrower"):
        if hasattr(a, f):
            return (getattr(a, f),)
    return ()


def action_for_click(game, selected: str | None, hid: str):
    """The Hot-seat's map click: the legal action a click on hex ``hid`` means with the unit
    ``selected`` selected (a set-up placement 24.1, a step of the moving unit 8.0, the selected
    unit's fire, grenade, flame or mortar at the hex), or None; may be ``[StartMove, hid]`` when
    a move must start first (the step follows)."""
    acts = game.legal_actions()
    places = [a for a in acts if a.kind == "place" and a.hex == hid]
    if places:
        return sorted(places, key=lambda a: (a.down, a.facing or 0))[0]
    for a in acts:
        if a.kind in ("step", "enter") and a.hex == hid:
            return a
    if selected is None:
        return None
    fires = [a for a in acts if a.kind == "fire" and a.target == hid and selected in a.firers]
    if fires:
        return sorted(fires, key=lambda a: (a.mode != "AP", len(a.firers), len(a.intensive)))[0]
    for a in acts:
        if a.kind in ("grenade", "flame", "mortar") and a.target == hid and selected in _units_of(a):
            return a
    starts = [a for a in acts if a.kind == "start_move" and a.units == (selected,) and a.directed_by is None]
    if starts:
        return [starts[0], hid]
    return None


def click_targets(game, selected: str) -> tuple[set[str], set[str]]:
    """The hexes the Hot-seat outlines for the selected unit: ``(moves, targets)`` -- where it (or
    the moving unit) may step now or start a move to (8.0), and the hexes it may fire, throw or
    shoot a mortar at."""
    from maps import hexgrid

    moves: set[str] = set()
    targets: set[str] = set()
    for a in game.legal_actions():
        if a.kind in ("step", "enter"):
            moves.add(a.hex)
        elif a.kind == "start_move" and a.units == (selected,):
            u = game.state.units[selected]
            if u.hex:
                moves.update(h.id for h in hexgrid.neighbours(hexgrid.parse_hex_id(u.hex)) if game.map.contains(h))
        elif a.kind in ("fire", "grenade", "flame", "mortar") and selected in _units_of(a):
            targets.add(a.target)
    return moves, targets


def decision_note(game, side: str) -> str:
    """17.23: what ``side`` must decide while an assault waits for its casualties (HTML), or ""."""
    c = game.casualty_choice(side) if side else None
    if not c:
        return ""
    return (f"<b>Assault in {c['hex']}: {side} removes {c['hits']} more unit(s) of his choice (17.23)</b>"
            f" - choose in the list")
