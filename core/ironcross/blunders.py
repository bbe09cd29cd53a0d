"""The blunder report of an Iron Cross game: choices a wargamer calls errors, read off the events
and the game state by the playtest runner, independent of the AI that played (any player, human
or AI, is judged the same way).

The runner (:mod:`core.playtest`) asks the rule system for a watcher (``RuleSystem.blunder_watch``)
and calls it before every decision (:meth:`BlunderWatch.before`: the state and the legal actions
the decider had) and after it (:meth:`BlunderWatch.after`: the events it logged); at the end
:meth:`BlunderWatch.finish` gives ``{side: {kind: [item, ...]}}``, each item a JSON-ready dict with
the Game Turn (``turn``), the hex and the units. The kinds and their exact definitions are
:data:`KINDS` (the same text as ``docs/ai.md``, "Blunder report").
"""

from __future__ import annotations

from typing import Any

from core.ironcross import combat_tables as ct
from core.ironcross.state import positions_changed
from maps import hexgrid

__all__ = ["KINDS", "BlunderWatch", "blunder_watch", "EXPECTED_EFFECT_WEIGHTS"]

#: kind -> its definition (docs/ai.md, "Blunder report")
KINDS: dict[str, str] = {
    "intensive_fire_burnout": "an own MG's Intensive Fire roll (11.15) left it jammed, with a major "
                              "malfunction or broken (the item says which, and when)",
    "hidden_revealed_by_own_move": "own hidden units (24.2) revealed because an own unit moved into or out of "
                                   "their hex (24.22) while no enemy unit on the map had LOS to it",
    "halted_in_open_under_mg": "a stack of 3+ own infantry/CW units ends a move UP in a hex without cover (no "
                               "trees, building or IP) in the LOS and normal range (11.2) of a visible, "
                               "working enemy MG, while a hex with more AP dice (11.31) within 2 hexes "
                               "held no enemy",
    "lone_assault_failed": "an assault (17.0) on a hex holding enemy units whose PCs (17.12) failed for a "
                           "single unit assaulting alone, or for leaderless units fewer than the defenders",
    "objective_abandoned": "a move leaves an objective hex the side's units stood in empty (or with one "
                           "unit where there were three or more) while a visible enemy unit is within 6 "
                           "hexes of it",
    "decisive_enemy_unattacked": "at the end of a game the side did not win, a visible enemy unit on an "
                                 "objective hex that no attack of the side targeted in the last Game Turn "
                                 "although one of its units stood within reach (its normal AP range, or 4 "
                                 "hexes: a move and an assault)",
    "poor_target": "AP fire whose expected effect is below half that of the best AP fire the same firers "
                   "(same Intensive Fire) had at that moment, when the best was worth at least 0.1",
    "known_minefield_reentered": "own units enter a hex whose AP mines the side already knew (its own, or "
                                 "revealed by an earlier entry, 19.22) while own infantry/CW units stood in it, "
                                 "so the mines attack those units again (19.24: every unit in the hex, at each "
                                 "entry)",
}

#: the expected effect of an AP attack: E counts 1, S 0.5, P 0.2 (a unit's worth for eliminated;
#: suppressed and pinned units are out of the fight for a while, 6.0)
EXPECTED_EFFECT_WEIGHTS = {ct.ApResult.ELIMINATED: 1.0, ct.ApResult.SUPPRESSED: 0.5, ct.ApResult.PINNED: 0.2}

_OBJECTIVE_REACH = 6
_COVER_REACH = 2
_ASSAULT_REACH = 4


def _d(a: str, b: str) -> int:
    return hexgrid.distance(hexgrid.parse_hex_id(a), hexgrid.parse_hex_id(b))


class BlunderWatch:
    """Watches one Iron Cross game (see the module)."""

    def __init__(self, game):
        from core.ironcross.game_record import objective_hexes

        self.objectives = objective_hexes(game.setup)
        self.found: dict[str, dict[str, list[dict]]] = {}
        self._pos: dict[str, tuple[str | None, str]] = {}
        self._attacked_last: dict[str, set[str]] = {}
        # hexes whose AP mines an entry revealed (19.22): known to both sides from then on
        self._ap_revealed: set[str] = {h for h, m in game.state.mines.items() if m.get("revealed_ap")}
        self._snapshot(game)

    # ------------------------------------------------------------------ bookkeeping
    def _add(self, side: str, kind: str, **item: Any) -> None:
        self.found.setdefault(side, {}).setdefault(kind, []).append(item)

    def _snapshot(self, game) -> None:
        """Where every unit stands now (unit id -> (hex or None, side)). Taken again only when some
        unit's hex or elimination changed since, or units came or went (the state's position
        counter, which also keeps ``GameState.units_at``): most decisions move nobody."""
        units = game.state.units
        key = (positions_changed(), id(units), len(units))
        if key == getattr(self, "_pos_key", None):
            return
        self._pos_key = key
        self._pos = {u.id: (u.hex if u.on_map and not u.eliminated else None, u.side)
                     for u in units.values()}

    def _units_at(self, game, h: str, side: str) -> list:
        return [u for u in game.state.units_at(h) if u.side == side and not u.eliminated]

    def _visible_enemies(self, game, side: str) -> list:
        return [u for u in game.state.units.values() if u.side != side and u.on_map and not u.eliminated
                and not u.hidden]

    # ------------------------------------------------------------------ before a decision
    def before(self, game, side: str, action, legal) -> None:
        """Judge the chosen AP fire against the others the same firers had (``poor_target``)."""
        if getattr(action, "kind", None) != "fire" or getattr(action, "mode", "AP") == "AT":
            return
        same = [a for a in legal if getattr(a, "kind", None) == "fire" and getattr(a, "mode", "AP") != "AT"
                and tuple(a.firers) == tuple(action.firers) and tuple(a.intensive) == tuple(action.intensive)]
        if len(same) < 2:
            return
        from core.ironcross.view import PlayerView

        v = PlayerView(game, side)
        opportunity = game.window_hex() is not None if hasattr(game, "window_hex") else False
        value = {a.target: self._effect(game, v, a, opportunity) for a in same}
        best = max(value.values())
        mine = value.get(action.target, 0.0)
        if best >= 0.1 and mine < 0.5 * best:
            top = min((t for t, x in value.items() if x == best))
            self._add(side, "poor_target", turn=game.state.turn, units=list(action.firers), hex=action.target,
                      effect=round(mine, 3), best=round(best, 3), best_hex=top)

    @staticmethod
    def _effect(game, v, a, opportunity: bool) -> float:
        fp = v.ap_firepower(a.firers, a.target, a.intensive, opportunity)
        if fp <= 0:
            return 0.0
        moved = any(game.state.units[x].moved for x in a.firers)
        out = 0.0
        for t in game.state.units_at(a.target):
            if t.side == game.state.units[a.firers[0]].side or t.eliminated or t.hidden:
                continue
            probs = ct.ap_result_probabilities(fp, v.ap_dice_against(t.id, moved))
            out += sum(w * probs.get(r, 0.0) for r, w in EXPECTED_EFFECT_WEIGHTS.items())
        return out

    # ------------------------------------------------------------------ after a decision
    def after(self, game, events: list[dict]) -> None:
        """Read the events one decision logged (with the state after it)."""
        last_turn = game.state.turn >= game.state.game_length
        failed: dict[str, list[str]] = {}
        detonations: list[tuple[str, set, list[str]]] = []  # AP minefields set off (19.22), their attacks
        for e in events:
            k = e.get("kind")
            if k == "mines_revealed" and e.get("rule") == "19.22":
                h = e["hex"]
                m = game.state.mines.get(h) or {}
                known = {"german", "russian"} if h in self._ap_revealed else {m.get("side")}
                self._ap_revealed.add(h)
                detonations.append((h, known, []))
            elif k == "mine_result" and e.get("rule") == "19.24" and detonations:
                detonations[-1][2].append(e["unit"])
            elif k == "intensive_fire" and e.get("effect") != "no effect":
                u = game.state.units[e["unit"]]
                self._add(u.side, "intensive_fire_burnout", turn=game.state.turn, units=[u.id], hex=u.hex,
                          effect=e.get("effect"))
            elif k == "revealed" and e.get("rule") == "24.22" and str(e.get("reason", "")).startswith("a unit moved"):
                h = e.get("hex")
                if h and not any(game.los(x.hex, h).clear for x in self._visible_enemies(game, e["side"])):
                    self._add(e["side"], "hidden_revealed_by_own_move", turn=game.state.turn, hex=h,
                              units=list(e.get("units", [])))
            elif k == "move_start":  # where the group and its hex's stack stood when it set off
                self._start = {x: self._pos.get(x, (None, ""))[0] for x in e.get("units", [])}
                self._start_pos = dict(self._pos)
            elif k == "move_end" and e.get("hex") and e.get("units"):
                self._after_move(game, e)
            elif k == "assault_failed":
                failed.setdefault(e.get("target"), []).extend(e.get("units", []))
            elif last_turn and k in ("fire", "grenade", "flame", "assault", "mortar_declared", "overrun_result"):
                tgt = e.get("target") or e.get("hex")
                side = e.get("side")
                if side is None:
                    ids = e.get("firers") or [e.get(x) for x in ("thrower", "unit") if e.get(x)]
                    side = game.state.units[ids[0]].side if ids and ids[0] in game.state.units else None
                if tgt and side:
                    self._attacked_last.setdefault(side, set()).add(tgt)
        for target, ids in failed.items():
            self._judge_assault(game, target, ids, events)
        for h, known, attacked in detonations:
            self._judge_mine_entry(game, h, known, attacked)
        self._snapshot(game)

    def _judge_mine_entry(self, game, h: str, known: set, attacked: list[str]) -> None:
        """``known_minefield_reentered``: an entry into ``h`` set off its AP mines, known before it to
        the sides in ``known``, and they attacked ``attacked`` (19.24); own units that stood in ``h``
        before the decision were attacked again because units of their side entered."""
        units = [game.state.units[x] for x in attacked if x in game.state.units]
        for side in ("german", "russian"):
            if side not in known:
                continue
            mine = [u for u in units if u.side == side]
            came = [u.id for u in mine if self._pos.get(u.id, (None, ""))[0] != h]
            stood = [u.id for u in mine if self._pos.get(u.id, (None, ""))[0] == h]
            if came and stood:
                self._add(side, "known_minefield_reentered", turn=game.state.turn, hex=h, units=came,
                          attacked_again=stood)

    def _after_move(self, game, e: dict) -> None:
        h = e["hex"]
        movers = [game.state.units[x] for x in e["units"] if x in game.state.units]
        if not movers:
            return
        side = movers[0].side
        # objective_abandoned: the hex the group came from
        start = getattr(self, "_start", {})
        frm = {start.get(u.id) for u in movers} - {h, None}
        for f in sorted(frm):
            if f not in self.objectives:
                continue
            before = sum(1 for (p, s) in getattr(self, "_start_pos", self._pos).values() if p == f and s == side)
            now = len(self._units_at(game, f, side))
            if (now == 0 or (now == 1 and before >= 3)) and any(
                    _d(f, x.hex) <= _OBJECTIVE_REACH for x in self._visible_enemies(game, side)):
                self._add(side, "objective_abandoned", turn=game.state.turn, hex=f, units=[u.id for u in movers],
                          left=now, before=before)
        # halted_in_open_under_mg
        stack = [u for u in self._units_at(game, h, side) if not u.is_afv and not u.down]
        if len(stack) < 3 or not self._open(game, h):
            return
        mgs = [x for x in self._visible_enemies(game, side) if x.is_mg and not getattr(x, "mg_broken", False)
               and _d(x.hex, h) <= max(1, x.ap_range) and game.los(x.hex, h, x.down).clear]
        if not mgs:
            return
        here = self._dice(game, h)
        enemy_hexes = {x.hex for x in self._visible_enemies(game, side)}
        cover = [n for n in self._ring(game, h) if n not in enemy_hexes and self._dice(game, n) > here]
        if cover:
            self._add(side, "halted_in_open_under_mg", turn=game.state.turn, hex=h, units=sorted(u.id for u in stack),
                      mg=[x.id for x in mgs], cover=min(cover))

    @staticmethod
    def _open(game, h: str) -> bool:
        t = game.terrain
        return t.trees(h) == 0 and not t.is_building(h) and not game.state.ips.get(h, 0)

    @staticmethod
    def _dice(game, h: str) -> int:
        return game.terrain.ap_dice(h, target_down=False, firer_moved=False, afv_cover=False,
                                    ip_points=game.state.ips.get(h, 0))

    @staticmethod
    def _ring(game, h: str) -> list[str]:
        """The hexes within :data:`_COVER_REACH` of ``h`` (on the map, inside the playing area)."""
        area = getattr(game.setup, "playing_area", None)
        out = []
        for c in hexgrid.area(hexgrid.parse_hex_id(h), _COVER_REACH):
            if not (10 <= c.col <= 99 and 1 <= c.row <= 99):
                continue
            hid = hexgrid.hex_id(c.col, c.row)
            if hid != h and (not area or hid in area):
                out.append(hid)
        return out

    def _judge_assault(self, game, target: str, failed_ids: list[str], events: list[dict]) -> None:
        us = [game.state.units[x] for x in failed_ids if x in game.state.units]
        if not us:
            return
        side = us[0].side
        passed = []
        for e in events:
            if e.get("kind") == "assault" and e.get("target") == target:
                passed.extend(e.get("attackers") or [])
        every = [game.state.units[x] for x in dict.fromkeys(list(failed_ids) + list(passed)) if x in game.state.units]
        defenders = sum(1 for (p, s) in self._pos.values() if p == target and s != side)
        leader = any(a.is_leader_for(b) for a in every for b in every if a is not b) or any(u.is_commander for u in every)
        if defenders and (len(every) == 1 or (not leader and len(every) < defenders)):
            self._add(side, "lone_assault_failed", turn=game.state.turn, hex=target, units=sorted(failed_ids),
                      attackers=len(every), defenders=defenders)

    # ------------------------------------------------------------------ the end
    def finish(self, game) -> dict[str, dict[str, list[dict]]]:
        """``{side: {kind: [item, ...]}}`` of the whole game (sides and kinds without items left out)."""
        outcome = game.state.outcome or getattr(game, "outcome", None)
        for side in ("german", "russian"):
            if outcome == side:
                continue
            hit = self._attacked_last.get(side, set())
            own = [u for u in game.state.units.values() if u.side == side and u.on_map and not u.eliminated]
            for x in sorted(self._visible_enemies(game, side), key=lambda u: u.id):
                if x.hex not in self.objectives or x.hex in hit:
                    continue
                near = [u.id for u in own if _d(u.hex, x.hex) <= max(_ASSAULT_REACH, u.ap_range if u.ap > 0 else 0)]
                if near:
                    self._add(side, "decisive_enemy_unattacked", turn=game.state.turn, hex=x.hex, units=[x.id],
                              within_reach=sorted(near))
        return self.found


def blunder_watch(game) -> BlunderWatch:
    """The watcher of one game (``RuleSystem.blunder_watch``)."""
    return BlunderWatch(game)
