"""Players of the 20 mm rules: ``random`` (a uniform pick among the representative legal actions)
and ``heuristic`` (advances through cover towards the objectives, fires at the best expected
effect, assaults when the dice favour it, digs in as the defender).

A player has ``name`` and ``choose(view, side, actions) -> action``; ``view`` is
:class:`core.twentymm.system.View` (the game as ``side`` may know it)."""

from __future__ import annotations

import functools
import random
from itertools import product

from core.behaviour_settings import canonical_spec, canonical_text, spec_player
from core.twentymm import tables
from core.twentymm.ai_settings import TwentyMMSettings
from core.twentymm.actions import Assault, EndTurn, Fire, IndirectFire, Move, Special
from core.twentymm.model import other

# P(2D6 >= n)
_P2 = {n: sum(1 for a, b in product(range(1, 7), repeat=2) if a + b >= n) / 36 for n in range(-20, 30)}


def p1(need) -> float:
    """P(1D6 >= need)."""
    if need is None:
        return 0.0
    return max(0.0, min(1.0, (7 - need) / 6))


def p2(need) -> float:
    if need is None:
        return 0.0
    return _P2[max(-20, min(29, int(need)))]


class RandomPlayer:
    """Picks uniformly among the legal actions it is offered (seeded)."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, view, side, actions):
        return self.rng.choice(list(actions))


class HeuristicPlayer:
    """Scores every offered action by its expected effect (men killed, vehicles knocked out,
    ground gained towards objectives, cover) and plays the best; ends the turn when nothing is
    worth doing."""

    name = "heuristic"

    def __init__(self, seed: int = 0, settings: TwentyMMSettings | None = None):
        self.rng = random.Random(seed)
        #: how it plays (:class:`core.twentymm.ai_settings.TwentyMMSettings`; docs/ai.md has the defaults)
        self.settings = settings if settings is not None else TwentyMMSettings()

    def choose(self, view, side, actions):
        g = view.game
        best, best_s = None, self.settings.act_threshold
        for a in actions:
            if isinstance(a, EndTurn):
                continue
            try:
                s = self.score(g, side, a)
            except Exception as e:   # a scoring bug must surface, not be swallowed
                raise RuntimeError(f"heuristic scoring of {a!r}: {e}") from e
            s += self.rng.random() * 1e-3
            if s > best_s:
                best, best_s = a, s
        if best is None:
            return next(a for a in actions if isinstance(a, EndTurn))
        return best

    # ------------------------------------------------------------------ scoring
    def score(self, g, side, a) -> float:
        if isinstance(a, Fire):
            return self.fire_value(g, a)
        if isinstance(a, IndirectFire):
            return self.indirect_value(g, side, a)
        if isinstance(a, Assault):
            return self.assault_value(g, a)
        if isinstance(a, Move):
            return self.move_value(g, side, a)
        if isinstance(a, Special):
            u = g.units[a.uid]
            if a.what == "set_up":
                return 0.6
            if a.what == "unlimber":
                return 0.5
            if a.what == "disembark":
                return 0.4 if any(g.table.distance(u.pos, e.pos) < 24 for e in g.living(other(side)) if g.on_table(e)) else 0.0
            return 0.0
        return 0.0

    def fire_value(self, g, a: Fire) -> float:
        u, t = g.units[a.uid], (g.units[a.target] if a.target else None)
        if t is None:
            return 0.3
        d = g.table.distance(u.pos, t.pos)
        if a.weapon in ("small_arms", "mg"):
            arms = g.small_arms_of(u)
            cover = g.cover_at(t, u.pos)
            keep = 1 - p1(tables.cover_save_need(cover, "small_arms"))
            hits = 0.0
            for w in ("rifle", "smg"):
                hits += arms.get(w, 0) * p1(tables.small_arms_need(w, d, u.elite))
            for w in ("lmg", "hmg"):
                hits += arms.get(w, 0) * t.bodies * p1(tables.small_arms_need(w, d, u.elite))
            return min(hits * keep, t.bodies) * (1.5 if t.kind == "gun" else 1.0)
        need = tables.at_need(d)
        if need is None:
            return 0.0
        mods = g._aim_bonus(u, t) - (1 if t.moved else 0) + (1 if u.elite else 0)
        ph = p2(need - mods)
        if a.weapon == "at":
            shots = g.at_weapons(u, a.gun)
            sv = tables.sv_at(shots[0]["sv"], d, shots[0].get("bands")) if shots else None
            if sv is None:
                return 0.0
            av = g.armour(t, u.pos)
            eff = sv + (2 if a.tracks and not t.schuerzen else 0)
            if a.tracks:
                pk = 0.6
            else:
                pk = p2(av - eff + 1) * 1.0 + (p2(av - eff) - p2(av - eff + 1)) * 0.5
            n = len(shots) * (g._rate(u) if u.kind == "gun" else 1)
            return n * ph * pk * 6.0
        # HE
        he = tables.he_class(u.gun_calibre)
        r = tables.TEMPLATE_DIAMETER[he] / 2
        men = sum(1 for e in g.living(t.side) if g.on_table(e) for p in e.figures() if g.table.distance(p, t.pos) <= r)
        return ph * men * 0.6 + ph * 0.3

    def indirect_value(self, g, side, a: IndirectFire) -> float:
        u = g.units[a.uid]
        he = "artillery" if u.kind == "battery" else tables.MORTAR_CLASS[u.weapon]
        r = tables.TEMPLATE_DIAMETER[he] / 2 + 1.0
        men = sum(1 for e in g.living(other(side)) if g.on_table(e) for p in e.figures() if g.table.distance(p, a.point) <= r)
        own = sum(1 for e in g.living(side) if g.on_table(e) and g.table.distance(e.pos, a.point) <= r + 2)
        if own:
            return 0.0
        ranged = u.ranged is not None and u.ranged.get("ok") and g.table.distance(u.ranged["point"], a.point) <= tables.TEMPLATE_DIAMETER[he]
        p = 1.0 if ranged else 0.4
        n = max(1, u.guns)
        return p * men * 0.5 * min(n, 2) + 0.2 - (0.15 if a.director else 0.0)

    def assault_value(self, g, a: Assault) -> float:
        u, t = g.units[a.uid], g.units[a.target]
        if t.kind == "vehicle" and not t.passengers:
            return 2.0 if not t.is_tank else 1.2
        mine = g._assault_dice(u)
        theirs = g._assault_dice(t) if t.kind != "vehicle" else sum(g._assault_dice(g.units[p]) for p in t.passengers)
        defence = t.bodies * 0.4
        st = self.settings
        ratio = st.assault_ratio * st.defend_assault_ratio if _defends(g, u.side) else st.assault_ratio
        if mine >= max(1, theirs) * ratio and u.men - defence >= 3:
            return 1.5 + t.bodies
        return 0.0

    def move_value(self, g, side, a: Move) -> float:
        u = g.units[a.uid]
        if not a.path:
            return 0.25 if g.visible_enemies(u) else 0.0
        end = a.path[-1]
        attacker = g.setup.attacker == side
        objs = [tuple(o["point"]) for o in g.setup.objectives]
        st = self.settings
        s = 0.0
        here_c, there_c = g.ground_cover(u.pos), g.ground_cover(end)
        rank = {None: 0, "soft": 1, "hard": 2}
        if objs:
            d0 = min(g.table.distance(u.pos, o) for o in objs)
            d1 = min(g.table.distance(end, o) for o in objs)
            gain = d0 - d1
            if attacker:
                s += gain * (0.12 if u.kind == "infantry" else 0.06) * st.aggression
            else:
                if d0 <= 6 and d1 > d0:
                    s -= st.hold_objective
                s += gain * 0.04 * (st.aggression * st.defend_aggression) if d0 > 8 else 0.0
        # a defender waits for the enemy in cover; an attacker that valued it so would stop advancing
        s += (rank[there_c] - rank[here_c]) * (st.cover * st.defend_cover if _defends(g, side) else st.cover)
        if u.kind == "vehicle":
            foes = [e for e in g.living(other(side)) if g.on_table(e) and g.knows(u, e)]
            threat = [e for e in foes if (e.is_atg or e.at_rifle or e.panzerfaust) and g.table.distance(end, e.pos) < 10]
            s -= st.vehicle_caution * len(threat)
        if u.kind == "gun" and not attacker:
            s -= 0.5
        if u.hidden and there_c is None:
            s -= st.hidden_discipline
        return s


def _defends(g, side: str) -> bool:
    """Whether ``side`` is the defender of the game's scenario (it names an attacker, the other
    side): the side whose settings take the ``defend_*`` multipliers."""
    return g.setup.attacker is not None and g.setup.attacker != side


#: name -> factory(seed)
PLAYERS = {"random": RandomPlayer, "heuristic": HeuristicPlayer}


#: the players whose behaviour takes settings (``--ai german=heuristic:aggression=0.7``) -> their model
SETTINGS_MODELS = {"heuristic": TwentyMMSettings}
#: the same players -> the settings' canonical text of a ``k=v,...``/``@FILE`` text (raises ValueError)
SETTINGS_PLAYERS = {name: functools.partial(canonical_text, m) for name, m in SETTINGS_MODELS.items()}


def canonical_settings(spec: str) -> str:
    """The player spec with its settings validated and written out (``"heuristic:@s.json"`` ->
    ``"heuristic:aggression=0.7"``; :func:`core.behaviour_settings.canonical_spec`). Raises
    ValueError naming an unknown setting, a value out of range, an unreadable file, or a player
    that takes no settings."""
    return canonical_spec(spec, SETTINGS_PLAYERS)


def make_player(spec: str, seed: int):
    """The player of ``spec`` (``NAME[:k=v,...]``, settings for the heuristic,
    :class:`core.twentymm.ai_settings.TwentyMMSettings`) seeded ``seed``. Raises ValueError naming
    the known players for an unknown name, or the bad setting."""
    return spec_player(spec, seed, PLAYERS, SETTINGS_MODELS, lambda base: ValueError(
        f"unknown 20 mm player {base!r}; known: {', '.join(PLAYERS)}"))
