"""Games seen in the editor, without Qt: a recorded game (watch) and a hot-seat session, and the
batch worker function run in playtest worker processes.

:class:`GameRecording` plays one AI-vs-AI game (or re-applies the decisions of a saved replay)
and keeps, after every decision, a light snapshot of the state (turn, phase, each unit's hex,
facing, UP/DOWN, morale) and the events that decision caused, so the watch panel can step
forward and back instantly. :class:`HotseatSession` is a live :class:`core.ironcross.game.Game`
in which people play some sides and AIs the others.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Callable

__all__ = ["Snapshot", "Step", "GameRecording", "HotseatSession", "run_games", "lower_priority", "describe_action",
           "describe_event", "describe_events", "fire_odds"]


@dataclass
class Snapshot:
    turn: int
    player_turn: int
    phase: str
    phasing: str
    decider: str | None
    units: dict[str, tuple]   # uid -> (hex, facing, down, morale, side, label)
    outcome: str | None = None


@dataclass
class Step:
    side: str | None
    action: dict | None
    events: list[dict] = field(default_factory=list)


def _label(u) -> str:
    if u.kind.value == "infantry":
        return f"{u.weapon}{u.squad or ''}"
    if u.kind.value == "commander":
        return u.weapon
    return (u.weapon or "")[:5]


def snapshot(game) -> Snapshot:
    s = game.state
    units = {uid: (u.hex, u.facing, u.down, u.morale.value.lower(), u.side, _label(u))
             for uid, u in s.units.items() if u.on_map}
    return Snapshot(s.turn, s.player_turn, s.phase.value, s.phasing, game.current_side(), units, s.outcome)


def lower_priority(increment: int = 5) -> None:
    """Initializer of the editor's batch worker processes: a lower CPU priority, so that on a
    busy machine the GUI thread is scheduled first (the workers lose nothing on an idle one)."""
    import os

    try:
        os.nice(increment)
    except (AttributeError, OSError):  # no nice() (Windows) or not permitted
        pass


def run_games(scenario_path: str, items: list[tuple[int, int]], ai: dict[str, str], rules: str,
              options: tuple[str, ...], fixed_setup: dict | None = None) -> list[dict]:
    """Play games ``items`` [(index, seed)...] in a worker process; their results as dicts.
    ``fixed_setup``: the designer's set-up the games start from (see ``core.playtest``)."""
    from core.playtest import play_game

    return [asdict(play_game(scenario_path, i, s, ai, rules, options, fixed_setup=fixed_setup)) for i, s in items]


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


class GameRecording:
    """A whole game: ``steps[i]`` is decision i and its events; ``snapshots[i]`` the state
    before decision i (``snapshots[-1]`` the end)."""

    def __init__(self, header: dict, setup, game):
        self.header = header
        self.setup = setup
        self.game = game
        self.steps: list[Step] = []
        self.snapshots: list[Snapshot] = [snapshot(game)]
        self.pre_events: list[dict] = list(game.events)

    @classmethod
    def _start(cls, scenario_path: str, seed: int, rules: str, options: tuple[str, ...], ai: dict,
               fixed: dict | None = None):
        from core.ironcross.game import Game
        from core.playtest import _setup_for

        setup = _setup_for(scenario_path, seed, fixed)   # a designer's set-up: its 24.1 choices too
        game = Game(setup, seed, rules=rules, options=options)
        head = {"scenario": str(scenario_path), "seed": seed, "rules": rules, "options": list(options), "ai": ai,
                **({"fixed_setup": fixed} if fixed else {})}
        return cls(head, setup, game)

    def _record(self, action) -> None:
        g = self.game
        side = g.current_side()
        ev = g.apply(action)
        self.steps.append(Step(side, _to_json(action), list(ev)))
        self.snapshots.append(snapshot(g))

    @classmethod
    def play(cls, scenario_path: str, seed: int, ai: dict[str, str], rules: str = "basic",
             options: tuple[str, ...] = (), max_actions: int = 100_000,
             progress: Callable[[int], bool] | None = None, fixed_setup: dict | None = None) -> "GameRecording":
        """Play an AI-vs-AI game to its end (``progress(n)`` returning False stops early): the
        same game as ``core.playtest.play_game`` with these arguments (same set-up, players and
        seeds), so game ``i`` of a batch is watched with ``seed = derive_seed(batch seed, i)``.
        ``fixed_setup``: the designer's set-up it starts from (``FixedSetupPlayer`` places it)."""
        from core.dice import derive_seed
        from core.ironcross.view import PlayerView
        from core.players import make_player
        from core.playtest import FixedSetupPlayer

        rec = cls._start(scenario_path, seed, rules, options, ai, fixed_setup)
        players = {s: make_player(ai[s], derive_seed(seed, 1 if s == "german" else 2)) for s in ("german", "russian")}
        if getattr(rec.setup, "fixed", None):
            players = {s: FixedSetupPlayer(p, rec.setup.fixed, s) for s, p in players.items()}
        g = rec.game
        n = 0
        while not g.is_terminal() and n < max_actions:
            side = g.current_side()
            a = players[side].choose(PlayerView(g, side), side, g.legal_actions())
            rec._record(a)
            n += 1
            if progress is not None and n % 200 == 0 and progress(n) is False:
                break
        return rec

    @classmethod
    def from_replay(cls, path: str, scenario_override: str | None = None) -> "GameRecording":
        """Re-apply the decisions of a replay file (``core.replay.read_replay``)."""
        from core.ironcross.actions import action_from_json
        from core.replay import read_replay

        rp = read_replay(path)
        h = rp.header
        rec = cls._start(scenario_override or h["scenario"], int(h["seed"]), h.get("rules", "basic"),
                         tuple(h.get("options") or ()), h.get("ai") or {}, h.get("fixed_setup"))
        for a in rp.actions:
            if rec.game.is_terminal():
                break
            rec._record(action_from_json(a))
        return rec

    def __len__(self) -> int:
        return len(self.steps)


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


class HotseatSession:
    """A live game: ``humans`` are the sides people play; the others are played by AIs.

    ``fixed_setup``: the designer's set-up (``ScenarioDocument.fixed_setup``) the game starts
    from, as a batch with *Use this set-up*: every unit, hidden hex and mine he placed is set up as
    he placed it (:class:`core.playtest.FixedSetupPlayer`), for the human sides too; what he did
    not place is set up by the side's player (the human or the AI). Raises
    :class:`core.ironcross.scenario_setup.SetupError` for a set-up that cannot be played."""

    #: the designer's set-up players per side (None: no designer's set-up)
    fixed_players: dict | None = None

    def __init__(self, scenario_path: str, seed: int, humans: set[str], ai: dict[str, str] | None = None,
                 rules: str = "basic", options: tuple[str, ...] = (), fixed_setup: dict | None = None):
        from core.dice import derive_seed
        from core.ironcross.game import Game
        from core.players import make_player
        from core.playtest import FixedSetupPlayer, _setup_for

        self.setup = _setup_for(scenario_path, seed, fixed_setup)
        self.game = Game(self.setup, seed, rules=rules, options=options)
        self.game.prepare_los(background=True)  # the LOS table (disk cache) without blocking the UI
        self.humans = set(humans)
        ai = ai or {}
        self.players = {s: make_player(ai.get(s, "random"), derive_seed(seed, 1 if s == "german" else 2))
                        for s in ("german", "russian")}
        fixed = getattr(self.setup, "fixed", None)
        #: the designer's set-up players (None without one)
        self.fixed_players = {s: FixedSetupPlayer(p, fixed, s) for s, p in self.players.items()} if fixed else None
        if self.fixed_players:
            self.players = dict(self.fixed_players)
        self.log: list[dict] = list(self.game.events)

    def human_to_act(self) -> bool:
        s = self.game.current_side()
        return s is not None and s in self.humans

    def designers_choice(self):
        """The set-up decision at hand when the designer's set-up settles it (a unit, mine
        factors or hidden hex he placed), for any side; else None."""
        from core.ironcross.state import Phase

        g = self.game
        if not self.fixed_players or g.state.phase is not Phase.SETUP or g.is_terminal():
            return None
        side = g.current_side()
        fp = self.fixed_players.get(side)
        places = [a for a in g.legal_actions() if getattr(a, "kind", "") == "place"]
        if fp is None or not places:
            return None
        what = places[0].unit
        if what.startswith(("AP-mines:", "AT-mines:")):
            key = "ap" if what.startswith("AP") else "at"
            if not any(int(a.unit.split(":")[1]) <= fp.mines_left.get(a.hex, {}).get(key, 0) for a in places):
                return None
        elif what not in fp.units:
            return None
        from core.ironcross.view import PlayerView

        return fp.choose(PlayerView(g, side), side, g.legal_actions())

    def apply(self, action) -> list[dict]:
        ev = self.game.apply(action)
        self.log.extend(ev)
        return ev

    def ai_step(self, side: str | None = None):
        from core.ironcross.view import PlayerView

        g = self.game
        s = g.current_side()
        a = self.players[s].choose(PlayerView(g, s), s, g.legal_actions())
        self.apply(a)
        return a

    def run_ai(self, limit: int = 5000) -> int:
        """Let the AIs play until a human must decide or the game ends (the designer's set-up
        places what he placed for the human sides too); returns decisions made."""
        n = 0
        while not self.game.is_terminal() and n < limit:
            if self.human_to_act():
                a = self.designers_choice()
                if a is None:
                    break
                self.apply(a)
            else:
                self.ai_step()
            n += 1
        return n

    def advance_until(self, pred: Callable[[list], bool], limit: int = 20000) -> bool:
        """Let the AI decide for everybody until ``pred(legal actions)`` holds (for set-up
        shortcuts and tests); returns whether it does."""
        n = 0
        while not self.game.is_terminal() and n < limit:
            if pred(self.game.legal_actions()):
                return True
            self.ai_step()
            n += 1
        return False
