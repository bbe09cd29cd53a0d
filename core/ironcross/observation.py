"""Observation (23.0, advanced rules). A mixin of :class:`core.ironcross.game.Game`.

Observation is step b of the fire combat procedure (10.0, 23.11): after the LOS and before the fire
PCs. It is part of the fire action: the engine picks the observer and rolls, no separate decision.

* Adjacent hexes always observe each other (23.0): no roll.
* 23.12 one unit per hex per target hex and phase: the first attempt from a hex at a target hex in a
  phase stands for the rest of that phase (success or failure); each unit attempts at most one
  observation per phase, so a second unit of the hex may try another hex. The engine picks the unit
  with the best modifiers (commanders first, units that have not moved), ties by id. 23.13 success
  counts for every unit of the observer's hex. 23.14 group fire: only a leader of the group observes,
  for the whole attack.
* 23.2: 2d6 + modifiers <= the target hex's Observation Base (terrain chart; note d rows take the base
  of the hex's other terrain; road rows are ignored as for dice). Every modifier of both lists; the
  "within the last three phases" ones look at the current phase and the two before it, Morale Phases
  not counted (:data:`HISTORY_PHASES`), from the per-unit history in ``GameState.records["history"]``:
  ``moved`` uid -> [phase index, event sequence], ``fired`` uid -> [[phase index, category], ...],
  ``observed`` "obs>target" -> the last success (observer modifier a).
* Fire categories (observer modifiers g-j): ``g`` non-MG AP fire (infantry, commanders, flamethrowers),
  ``h`` LMG or ATR, ``i`` MMG or mortar, ``j`` ATG, AFV or an MG using Intensive Fire. A unit's fire
  falls in the one most specific category; different categories in the hex add up (cumulative).
* Optional penalty (option ``observation-penalty``): when no modifier favours the observer, an
  observer that has not moved makes every unit of its hex "moved" for the Player Turn (11.32 dice,
  12.2), one that has moved may not attempt (unobserved).
* Optional special roll (option ``observation-special-roll``): the Cumulative Combat Results Table's
  Special Roll becomes the attacker's 2d6 <= the target hex's Observation Base = eliminated.
"""

from __future__ import annotations

from core.ironcross.state import PHASE_ORDER, Phase, Unit
from maps import hexgrid

__all__ = ["ObservationRules", "RULE_SETS", "check_rules", "HISTORY_PHASES", "OPTION_PENALTY", "OPTION_SPECIAL_ROLL", "OPTIONS",
           "fire_category"]

#: 23.2 "within the last three phases": the current phase and the two before it (Morale excluded).
HISTORY_PHASES = 3
OPTION_PENALTY = "observation-penalty"
OPTION_SPECIAL_ROLL = "observation-special-roll"
OPTIONS = (OPTION_PENALTY, OPTION_SPECIAL_ROLL)

RULE_SETS = ("basic", "advanced")


def check_rules(rules: str, options: tuple[str, ...]) -> None:
    """Refuse an unknown rule set or optional rule (ValueError naming the known ones). Optional
    rules are advanced-rule options: they need ``rules="advanced"``."""
    if rules not in RULE_SETS:
        raise ValueError(f"unknown rules {rules!r}: use one of {', '.join(RULE_SETS)}")
    bad = [o for o in options if o not in OPTIONS]
    if bad:
        raise ValueError(f"unknown optional rule(s) {', '.join(bad)}: known are {', '.join(OPTIONS)}")
    if options and rules != "advanced":
        raise ValueError("optional rules (23.2 penalty, special roll) go with rules='advanced'")


_COUNTED_PHASES = [p for p in PHASE_ORDER if p is not Phase.MORALE]
_CATEGORY_MOD = {"g": -2, "h": -3, "i": -4, "j": -5}


def fire_category(u: Unit, *, intensive: bool = False, mode: str = "AP") -> str:
    """The 23.2 observer-modifier category (g-j) of a fire by ``u``."""
    if u.is_afv or u.is_atg or (u.is_mg and intensive):
        return "j"
    if u.weapon == "MMG" or u.is_mortar:
        return "i"
    if u.weapon == "LMG" or u.is_atr:
        return "h"
    return "g"


def _dist(a: str, b: str) -> int:
    return hexgrid.distance(hexgrid.parse_hex_id(a), hexgrid.parse_hex_id(b))


class ObservationRules:
    """23.0 observation, its history and its effects' helpers."""

    # ---------------------------------------------------------------- switches
    def _observation_on(self) -> bool:
        return getattr(self, "rules", "basic") == "advanced"

    def _option(self, name: str) -> bool:
        return self._observation_on() and name in getattr(self, "options", ())

    # ---------------------------------------------------------------- history (23.2 "*")
    def _phase_index(self) -> int:
        """A running number of the non-Morale phases of the game (Morale shares the number of the
        phase before it)."""
        s = self.state
        base = (s.player_turn - 1) * len(_COUNTED_PHASES)
        if s.phase in _COUNTED_PHASES:
            return base + _COUNTED_PHASES.index(s.phase)
        return base - 1

    def _history(self) -> dict:
        return self.state.records.setdefault("history", {"moved": {}, "fired": {}, "observed": {}})

    def _note_moved(self, u: Unit) -> None:
        """Called when a unit moves (8.0): 23.2 target g / observer c, and observer a ("since")."""
        if self._observation_on():
            self._history()["moved"][u.id] = [self._phase_index(), len(self.events)]

    def _note_fired(self, u: Unit, category: str) -> None:
        """A unit actually fired (its fire PC passed): 23.2 observer g-j."""
        if not self._observation_on():
            return
        idx = self._phase_index()
        lst = [e for e in self._history()["fired"].get(u.id, []) if e[0] > idx - HISTORY_PHASES]
        if [idx, category] not in lst:
            lst.append([idx, category])
        self._history()["fired"][u.id] = lst

    def _recent(self, idx: int) -> bool:
        return idx > self._phase_index() - HISTORY_PHASES

    def _moved_recently(self, u: Unit) -> bool:
        m = self._history()["moved"].get(u.id)
        return m is not None and self._recent(m[0])

    def _counts_moved(self, u: Unit) -> bool:
        """11.32 / 12.2 "moved": really moved, or made to count as moved by the optional penalty a."""
        return u.moved or u.observe_moved

    # ---------------------------------------------------------------- per-phase attempts (23.12)
    def _obs_memory(self) -> dict:
        s = self.state
        key = f"{s.player_turn}:{s.phase.value}"
        mem = self.state.records.get("observation")
        if mem is None or mem.get("phase") != key:
            mem = {"phase": key, "attempts": {}, "used": []}
            self.state.records["observation"] = mem
        return mem

    def _observation_base(self, hex_id: str) -> int:
        """23.2 the Observation Base of the target hex's terrain (chart; note d: the other terrain)."""
        rows = [k for k in self.terrain.rows(hex_id) if k not in ("road", "bridge")] or ["clear"]
        chart = self.setup.chart
        others = [k for k in rows if not chart.row(k).observation_base.value.other]
        other = others[0] if others else "clear"
        return chart.observation_base(rows[0], self.terrain.trees(hex_id), other=other)

    def _observation_modifiers(self, obs: Unit, obs_hex: str, target: str) -> tuple[list[list], list[list]]:
        """23.2: ([rule, value] favouring the target), ([rule, value] favouring the observer)."""
        s = self.state
        los = self.los(obs_hex, target, firer_down=obs.down)
        targets = [t for t in s.units_at(target) if t.side != obs.side and self.is_visible_to(t, obs.side)]
        tgt: list[list] = []
        rng = _dist(obs_hex, target)
        if rng > 5 and (rng - 5) // 5:
            tgt.append(["23.2 a", (rng - 5) // 5])
        if s.ips.get(target):
            tgt.append(["23.2 b", s.ips[target]])
        if self.terrain.trees(target):
            tgt.append(["23.2 c", self.terrain.trees(target)])
        if los.trees_afvs_wrecks:
            tgt.append(["23.2 d", los.trees_afvs_wrecks])
        if los.marsh_hexes:
            tgt.append(["23.2 e", los.marsh_hexes])
        if targets and all(not t.is_afv and t.down for t in targets):
            tgt.append(["23.2 f", 1])
        if self._moved_recently(obs):
            tgt.append(["23.2 g", 2])
        ob: list[list] = []
        hist = self._history()
        last = hist["observed"].get(f"{obs_hex}>{target}")
        if last is not None and last["pt"] < s.player_turn and last["observer"] == obs.id:
            seq = last["seq"]
            moved_since = [u for u in [obs] + targets if hist["moved"].get(u.id, [-99, -1])[1] > seq]
            if not moved_since:
                ob.append(["23.2 obs a", -1])
        if los.level_difference <= -2 and not self.terrain.is_woods(target) and not self.terrain.is_building(target):
            ob.append(["23.2 obs b", -1])
        if any(self._moved_recently(t) for t in targets):
            ob.append(["23.2 obs c", -2])
        if any(t.is_afv for t in targets):
            ob.append(["23.2 obs d", -4])
        if obs.is_commander:
            ob.append(["23.2 obs e", -2])
        if sum(t.men for t in targets) >= 4:
            ob.append(["23.2 obs f", -1])
        cats = set()
        for t in targets:
            for idx, cat in hist["fired"].get(t.id, []):
                if self._recent(idx):
                    cats.add(cat)
        for cat in sorted(cats):
            ob.append([f"23.2 obs {cat}", _CATEGORY_MOD[cat]])
        return tgt, ob

    def _observer_candidates(self, side: str, obs_hex: str, only: list[Unit] | None) -> list[Unit]:
        used = set(self._obs_memory()["used"])
        pool = only if only is not None else [u for u in self.state.units_at(obs_hex) if u.side == side]
        return [u for u in pool if u.on_map and u.id not in used]

    def _observation_failed(self, obs_hex: str, target: str, side: str) -> bool:
        """Known already this phase that ``obs_hex`` does not observe ``target`` (failed attempt, or
        no unit left to attempt): used to drop AT fire that 23.31 forbids."""
        if not self._observation_on() or _dist(obs_hex, target) <= 1:
            return False
        att = self._obs_memory()["attempts"].get(f"{obs_hex}>{target}")
        if att is not None:
            return not att["observed"]
        return not self._observer_candidates(side, obs_hex, None)

    def _observe(self, side: str, obs_hex: str, target: str, only: list[Unit] | None = None) -> bool:
        """One observation attempt (23.1, 23.2) from ``obs_hex`` at ``target``; ``only``: the units
        that may observe (23.14 group fire: the leaders). Returns whether it is observed."""
        if _dist(obs_hex, target) <= 1:
            return True  # 23.0 adjacent hexes always observe each other
        mem = self._obs_memory()
        key = f"{obs_hex}>{target}"
        if key in mem["attempts"]:
            return mem["attempts"][key]["observed"]  # 23.12 one attempt per hex and target hex
        cands = self._observer_candidates(side, obs_hex, only)
        if not cands:
            mem["attempts"][key] = {"observer": None, "observed": False}
            self._event("observation", rule="23.12", hex=obs_hex, target=target, observer=None, observed=False,
                        reason="no unit left to observe")
            return False
        scored = []
        for u in cands:
            tgt, ob = self._observation_modifiers(u, obs_hex, target)
            scored.append((sum(m[1] for m in tgt) + sum(m[1] for m in ob), u.id, u, tgt, ob))
        scored.sort(key=lambda x: (x[0], x[1]))
        total_mod, _, obs, tgt, ob = scored[0]
        mem["used"].append(obs.id)
        base = self._observation_base(target)
        if self._option(OPTION_PENALTY) and not ob:
            if self._counts_moved(obs):
                mem["attempts"][key] = {"observer": obs.id, "observed": False}
                self._event("observation", rule="23.2 penalty b", hex=obs_hex, target=target, observer=obs.id,
                            observed=False, reason="optional penalty: no observer modifier and it has moved")
                return False
            for u in self.state.units_at(obs_hex):
                if u.side == side and not u.observe_moved:
                    u.observe_moved = True
            self._event("observation_penalty", rule="23.2 penalty a", hex=obs_hex, observer=obs.id)
        r = self.roll(2, f"observation of {target} by {obs.id}", "23.2")
        ok = r.total + total_mod <= base
        mem["attempts"][key] = {"observer": obs.id, "observed": ok}
        if ok:
            self._history()["observed"][key] = {"pt": self.state.player_turn, "seq": len(self.events),
                                                "observer": obs.id}
        self._event("observation", rule="23.2", hex=obs_hex, target=target, observer=obs.id, total=r.total,
                    modifier=total_mod, base=base, modifiers=tgt + ob, observed=ok)
        return ok

    def _special_roll_by_observation(self, t: Unit) -> bool:
        """Optional Special Roll (Cumulative Combat Results Table): the attacker's 2d6 <= the target
        hex's Observation Base eliminates the unit. Returns True when eliminated."""
        base = self._observation_base(t.hex)
        r = self.roll(2, f"optional special roll ({t.id})", "11.45")
        out = r.total <= base
        self._event("special_roll", rule="11.45 optional", unit=t.id, total=r.total, base=base, eliminated=out)
        return out
