"""Scenario detachments: a side's special option to bring some units of a group in by another
entry (24.1 scenario instructions; Scenario 5 EXCEPTION, Scenario 6 SPECIAL).

A :class:`core.ironcross.setup.Detachment` is offered to its side as one set-up item: at the
very start of the set-up when it must be recorded before the enemy's set-up (``record_before``
``"enemy_setup"``, Scenario 5), else at the start of the side's own set-up (``"game"``, Scenario
6: "instead of deploying", so before the group deploys). The side picks units one
:class:`core.ironcross.actions.Detach` at a time -- a squad whole (all its men in the group), a
commander, a CW or an AFV -- within the limits ("up to": none is allowed), and closes the choice
with :class:`core.ironcross.actions.EndSetup` (closed by itself when no pick is left). The chosen
units then wait off the map for the detachment's entry (its hexes, turn and phase, entering by
the ordinary entry machinery of :mod:`core.ironcross.movement`) instead of their group's set-up
or entry.

The choice is the side's secret until the units enter: the ``detachment`` event is marked
``secret`` (the referee's log), and the opponent's view (``Game.view``) shows a chosen unit
waiting off the map exactly as it would show it without the detachment.

A mixin of :class:`core.ironcross.game.Game`; it reads and changes only the game's state.
"""

from __future__ import annotations

from core.ironcross.actions import Action, Detach, EndSetup, IllegalAction
from core.ironcross.setup import Detachment, Entry
from core.ironcross.state import Phase, UnitKind

__all__ = ["DetachmentRules", "pick_kind"]

_KIND = {UnitKind.INFANTRY: "squad", UnitKind.COMMANDER: "commander", UnitKind.CW: "crew_weapon",
         UnitKind.AFV: "afv"}


def pick_kind(u) -> tuple[str, str]:
    """(limit kind, type) of a unit for the detachment limits: ``("squad", letter)``,
    ``("commander", rank)``, ``("crew_weapon", weapon)`` or ``("afv", AFV type)``."""
    k = _KIND[u.kind]
    return (k, u.squad or "") if k == "squad" else (k, u.weapon or "")


class DetachmentRules:
    """Scenario detachments at set-up (24.1 special options)."""

    # ================================================================== queue (called by Game.__init__)
    def _queue_detachments(self) -> None:
        """Put each detachment of ``setup.detachments`` in the set-up queue as an item
        ``(side, "detachment", index)``: ``"enemy_setup"`` ones first of all (before both
        sides' set-up: the side's own set-up is replaced for the units chosen), ``"game"`` ones
        at the start of their side's set-up (the queue holds the sides' set-ups one after the
        other, in ``setup_order``)."""
        self._det_picks: dict[int, list[tuple[int, tuple[str, ...]]]] = {}  # index -> (limit, units) picked
        #: chosen uid -> its ``entered`` flag without the detachment (True: its group sets up)
        self._detached_shown_entered: dict[str, bool] = {}
        dets = self.setup.detachments
        if not dets:
            return
        q = self._setup_queue
        first = [(d.side, "detachment", i) for i, d in enumerate(dets) if d.record_before == "enemy_setup"]
        rest = [(d.side, "detachment", i) for i, d in enumerate(dets) if d.record_before != "enemy_setup"]
        sides = list(self.setup.setup_order) + sorted({item[0] for item in q + rest} - set(self.setup.setup_order))
        new = list(first)
        for side in sides:
            new.extend(item for item in rest if item[0] == side)
            new.extend(item for item in q if item[0] == side)
        q[:] = new

    # ================================================================== offers
    def _detachment_candidates(self, d: Detachment) -> list[tuple[str, str, tuple[str, ...]]]:
        """(limit kind, type, units) of each possible pick of ``d``: a squad's men of the group
        together (in the group's order), each commander, CW and AFV alone; eliminated units and
        units an earlier detachment took never."""
        order: list[tuple[str, str, str]] = []   # (kind, type, a squad letter or a unit id)
        squads: dict[str, list[str]] = {}
        for uid in d.units:
            u = self.state.units[uid]
            if u.eliminated or uid in self._detached_shown_entered:
                continue   # (a unit another detachment of the scenario took already)
            kind, typ = pick_kind(u)
            if kind != "squad":
                order.append((kind, typ, uid))
                continue
            if typ not in squads:   # a squad's place is its first man's
                squads[typ] = []
                order.append((kind, typ, typ))
            squads[typ].append(uid)
        return [(k, t, tuple(squads[x]) if k == "squad" else (x,)) for k, t, x in order]

    @staticmethod
    def _limit_for(d: Detachment, kind: str, typ: str, used: dict[int, int]) -> int | None:
        """The limit of ``d`` a pick of ``kind``/``typ`` counts against (one with room; a limit
        that names types before one that does not), or None when none has room."""
        fits = [i for i, lim in enumerate(d.limits) if lim.kind == kind
                and (lim.types is None or typ.upper() in {t.upper() for t in lim.types})
                and used.get(i, 0) < lim.count]
        if not fits:
            return None
        return min(fits, key=lambda i: (d.limits[i].types is None, i))

    def _detachment_offers(self, i: int) -> list[tuple[int, tuple[str, ...]]]:
        """(limit index, units) of every pick the side may still make in detachment ``i``."""
        d = self.setup.detachments[i]
        picks = self._det_picks.get(i, [])
        used: dict[int, int] = {}
        for li, _ in picks:
            used[li] = used.get(li, 0) + 1
        taken = {uid for _, us in picks for uid in us}
        out = []
        for kind, typ, units in self._detachment_candidates(d):
            if taken & set(units):
                continue
            li = self._limit_for(d, kind, typ, used)
            if li is not None:
                out.append((li, units))
        return out

    def _detachment_actions(self, i: int) -> list[Action]:
        """24.1 special option: one :class:`Detach` per pick still possible, then :class:`EndSetup`."""
        d = self.setup.detachments[i]
        return [Detach(d.name, units) for _, units in self._detachment_offers(i)] + [EndSetup()]

    def detachment_choice(self, side: str) -> dict | None:
        """The open detachment choice of ``side`` (its own secret), or None: ``name``, ``group``,
        ``record_before``, ``limits`` (``[{"kind", "count", "types", "left"}]``), ``entry``
        (``{"hexes": [...], "turn", "phase"}``), ``group_start`` (where the group's units start
        otherwise: ``{"hexes": [...], "turn": entry turn, or 0 for a set-up zone}``), ``chosen``
        (unit ids picked so far) and ``offers`` (the unit tuples still possible, as ``Detach``)."""
        q = self._setup_queue
        if not q or q[0][1] != "detachment" or q[0][0] != side or self.state.phase is not Phase.SETUP:
            return None
        i = q[0][2]
        d = self.setup.detachments[i]
        picks = self._det_picks.get(i, [])
        used: dict[int, int] = {}
        for li, _ in picks:
            used[li] = used.get(li, 0) + 1
        start_hexes: set[str] = set()
        start_turn = 0
        for dep in self.setup.deployments:
            if dep.side == side and dep.group == d.group:
                start_hexes |= dep.zone
        if not start_hexes:
            for e in self.setup.entries:
                if e.side == side and e.group == d.group:
                    start_hexes |= e.hexes
                    start_turn = e.turn
        return {"name": d.name, "group": d.group, "record_before": d.record_before,
                "limits": [{"kind": lim.kind, "count": lim.count, "types": list(lim.types) if lim.types else None,
                            "left": lim.count - used.get(li, 0)} for li, lim in enumerate(d.limits)],
                "entry": {"hexes": sorted(d.entry.hexes), "turn": d.entry.turn, "phase": d.entry.phase.value},
                "group_start": {"hexes": sorted(start_hexes), "turn": start_turn},
                "chosen": [uid for _, us in picks for uid in us],
                "offers": [list(us) for _, us in self._detachment_offers(i)]}

    # ================================================================== apply
    def _detachment_decider(self) -> str | None:
        """Who decides the detachment item at the head of the queue (None: nothing left to pick,
        the item is closed)."""
        side, _, i = self._setup_queue[0]
        if self._detachment_offers(i):
            return side
        self._close_detachment()
        return None

    def _apply_detachment(self, a: Action) -> None:
        """A :class:`Detach` pick (checked against the offers: the group, the kinds, types and
        counts of the limits) or :class:`EndSetup` (closes the choice). Raises
        :class:`IllegalAction` ("24.1") for anything else, changing nothing."""
        side, _, i = self._setup_queue[0]
        d = self.setup.detachments[i]
        if isinstance(a, EndSetup):
            self._close_detachment()
            return
        if not isinstance(a, Detach):
            raise IllegalAction("24.1", f"choose the units of detachment {d.name!r} first (Detach, or EndSetup "
                                        "to close the choice)")
        if a.detachment != d.name:
            raise IllegalAction("24.1", f"the detachment to choose now is {d.name!r}, not {a.detachment!r}")
        offers = self._detachment_offers(i)
        units = tuple(a.units)
        for li, us in offers:
            if us == units:
                self._det_picks.setdefault(i, []).append((li, units))
                self._event("detach", rule="24.1", side=side, detachment=d.name, units=list(units), secret=True)
                return
        raise IllegalAction("24.1", self._why_not_detach(i, units))

    def _why_not_detach(self, i: int, units: tuple[str, ...]) -> str:
        """Why ``units`` is not a pick of detachment ``i`` now (for :class:`IllegalAction`)."""
        d = self.setup.detachments[i]
        if not units:
            return "name the units to detach"
        for uid in units:
            if uid not in d.units:
                return f"{uid} is not a unit of {d.group!r}, the group detachment {d.name!r} comes from"
        picks = self._det_picks.get(i, [])
        taken = {uid for _, us in picks for uid in us}
        if taken & set(units):
            return f"{', '.join(sorted(taken & set(units)))} already chosen"
        for kind, typ, cand in self._detachment_candidates(d):
            if set(units) & set(cand):
                if cand != units:
                    if kind == "squad":
                        return (f"a squad is detached whole: all the men of Squad {typ} in {d.group!r} "
                                f"({', '.join(cand)}) in one pick")
                    return "a commander, CW or AFV is one pick of its own"
                lims = [lim for lim in d.limits if lim.kind == kind]
                if not lims:
                    return f"detachment {d.name!r} takes no {kind.replace('_', ' ')}"
                if not any(lim.types is None or typ.upper() in {t.upper() for t in lim.types} for lim in lims):
                    allowed = sorted({t for lim in lims for t in (lim.types or ())})
                    return (f"detachment {d.name!r} takes only {', '.join(allowed)} as {kind.replace('_', ' ')}, "
                            f"not {typ}")
                n = sum(lim.count for lim in lims)
                return f"detachment {d.name!r} takes at most {n} {kind.replace('_', ' ')} pick(s), already chosen"
        return f"{', '.join(units)} cannot be detached"

    def _close_detachment(self) -> None:
        """End the choice at the head of the queue: the chosen units now enter by the
        detachment's entry (their group's set-up items leave the queue); a secret
        ``detachment`` event records them (none: the option is not used)."""
        side, _, i = self._setup_queue.pop(0)
        d = self.setup.detachments[i]
        chosen = [uid for _, us in self._det_picks.get(i, []) for uid in us]
        if chosen:
            e = Entry(side, chosen, d.entry.hexes, d.entry.turn, d.entry.phase, d.entry.group)
            for uid in chosen:
                self._detached_shown_entered[uid] = uid not in self._entry_of   # a set-up group's unit: True
                self._entry_of[uid] = e
                self.state.units[uid].entered = False
            gone = set(chosen)
            self._setup_queue[:] = [it for it in self._setup_queue if not (it[1] == "unit" and it[2][0] in gone)]
        self._event("detachment", rule="24.1", side=side, detachment=d.name, group=d.group, units=chosen,
                    entry_turn=d.entry.turn, entry_phase=d.entry.phase.value, secret=True)

    # ================================================================== views
    def _hide_detachments(self, snap: dict, side: str) -> None:
        """In ``side``'s view (a state snapshot): the opponent's chosen units that have not entered
        yet look as they would without the detachment (waiting with their group's entry, or off
        the map not set up), so the view does not tell which units were chosen."""
        for uid, shown in self._detached_shown_entered.items():
            u = self.state.units[uid]
            if u.side != side and not u.entered and uid in snap["units"]:
                snap["units"][uid]["entered"] = shown
