"""The victory builder's tree of outcomes, conditions and victory points: drawn from the
scenario with what holds on the trial set-up, and its structure edits (add, remove, move an
outcome, a sub-condition, a points award or band)."""

from __future__ import annotations

import copy

from pydantic import ValidationError
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QTreeWidgetItem

from scenarios.regions import region_from_data
from editor.scenario.wording import LOC_ROLE, _warn, _winner, condition_sentence, region_words
from editor.scenario.builders.victory_conditions import (
    SIDES,
    SIDE_LABELS,
    _get,
    _set_combo,
    leaf_condition,
    other_side,
)


class VictoryTree:
    """The tree half of :class:`editor.scenario.builders.victory_builder.VictoryPanel` (its
    ``tree``, ``doc`` and ``_change`` are the panel's)."""

    # ------------------------------------------------------------------ refresh
    def refresh(self) -> None:
        """Show the document's victory (tree, form, text, JSON) and what holds on the trial set-up."""
        if self.doc is None:
            return
        v = self.doc.scenario.victory
        vdata = self.victory_data()
        want = self._select_next if self._select_next is not None else self.loc
        self._select_next = None
        self._updating = True
        try:
            if not (self.text.hasFocus() and self.text.document().isModified()) and self.text.toPlainText() != v.text:
                self.text.setPlainText(v.text)
                self.text.document().setModified(False)
            _set_combo(self.default, v.default)
            self.buttons["Add victory points"].setEnabled(v.points is None)
            self._fill_json(keep_edits=True)
            try:
                self._decides = self.doc.evaluate().outcome
            except Exception:  # noqa: BLE001 - an unresolvable region: shown per node below
                self._decides = None
            self.tree.blockSignals(True)
            self.tree.clear()
            sel = None
            items = []
            for i, o in enumerate(v.outcomes):
                it = self._outcome_item(i, o)
                self.tree.addTopLevelItem(it)
                items.append(it)
                self._add_children(it, o.condition, ("outcomes", i, "condition"))
            if v.points is not None:
                self.tree.addTopLevelItem(self._points_item(v.points))
            self.tree.expandAll()
            # the selection: the node wanted, else the nearest node above it that is left
            if want is not None:
                for n in range(len(want), 0, -1):
                    sel = self._item_at(want[:n])
                    if sel is not None:
                        break
            if sel is None and self.tree.topLevelItemCount():
                sel = self.tree.topLevelItem(0)
            if sel is not None:
                self.tree.setCurrentItem(sel)
            self.loc = tuple(sel.data(0, LOC_ROLE)) if sel is not None else None
            self.tree.blockSignals(False)
            self._fit_rows()
            self._load_form(vdata)
        finally:
            self._updating = False

    def _now(self, cond) -> str:
        from scenarios.victory import condition_holds

        try:
            return "holds" if condition_holds(cond, self.doc.placement_refs(), self.doc.context,
                                              self.doc.initial_control()) else "-"
        except Exception as e:  # noqa: BLE001 - an unresolvable region is shown, not raised
            return f"error: {e}"

    def _outcome_item(self, i: int, o) -> QTreeWidgetItem:
        c = o.condition
        head = f"{i + 1}. {_winner(o.result)} if "
        words = {"all_of": "all of:", "any_of": "any of:", "not": "not:"}.get(c.kind) or condition_sentence(c)
        now = self._now(c)
        if self._decides == i:
            now = "decides"
        it = QTreeWidgetItem([head + words, now])
        it.setData(0, LOC_ROLE, ("outcomes", i))
        it.setToolTip(0, (o.text + "\n\n" if o.text else "") + c.describe())
        f = it.font(0)
        f.setBold(True)
        it.setFont(0, f)
        if self._decides == i:
            it.setFont(1, f)
            it.setForeground(1, QBrush(QColor(0, 110, 0)))
        return it

    def _add_children(self, parent: QTreeWidgetItem, cond, loc: tuple) -> None:
        if cond.kind in ("all_of", "any_of"):
            subs = [(("of", j), s) for j, s in enumerate(cond.of)]
        elif cond.kind == "not":
            subs = [(("of",), cond.of)]
        else:
            return
        for tail, s in subs:
            words = {"all_of": "all of:", "any_of": "any of:", "not": "not:"}.get(s.kind) or condition_sentence(s)
            it = QTreeWidgetItem([words, self._now(s)])
            it.setData(0, LOC_ROLE, (*loc, *tail))
            it.setToolTip(0, s.describe())
            parent.addChild(it)
            self._add_children(it, s, (*loc, *tail))

    def _points_item(self, vp) -> QTreeWidgetItem:
        from scenarios.victory import max_points, score

        try:
            mx = str(max_points(vp, self.doc.context))
        except Exception:  # noqa: BLE001 - an unresolvable award region
            mx = "?"
        try:
            now: int | None = score(vp, self.doc.context, placement=self.doc.placement_refs())
        except Exception:  # noqa: BLE001
            now = None
        it = QTreeWidgetItem([f"Victory points for the {SIDE_LABELS[vp.side]}s (at most {mx})",
                              f"{now} VP" if now is not None else "error"])
        it.setData(0, LOC_ROLE, ("points",))
        f = it.font(0)
        f.setBold(True)
        it.setFont(0, f)
        for i, a in enumerate(vp.awards):
            c = QTreeWidgetItem([f"{a.points} VP per {'hex' if a.kind == 'per_hex' else 'building'} "
                                 f"{region_words(a.region)}", ""])
            c.setData(0, LOC_ROLE, ("points", "awards", i))
            c.setToolTip(0, a.region.describe())
            it.addChild(c)
        for i, band in enumerate(vp.schedule):
            here = now is not None and band.min <= now <= band.max
            c = QTreeWidgetItem([f"{band.min}-{band.max} VP: {_winner(band.result)}", "now" if here else ""])
            c.setData(0, LOC_ROLE, ("points", "schedule", i))
            it.addChild(c)
        return it

    def _items(self):
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            it = stack.pop(0)
            yield it
            stack[:0] = [it.child(i) for i in range(it.childCount())]

    def _item_at(self, loc: tuple) -> QTreeWidgetItem | None:
        for it in self._items():
            if tuple(it.data(0, LOC_ROLE) or ()) == tuple(loc):
                return it
        return None

    def _fit_rows(self) -> None:
        """Give each row the height of its words wrapped in the first column (less its indent)."""
        fm = self.tree.fontMetrics()
        width = self.tree.header().sectionSize(0)
        for it in self._items():
            depth, p = 0, it.parent()
            while p is not None:
                depth, p = depth + 1, p.parent()
            w = max(60, width - self.tree.indentation() * (depth + 1) - 8)
            h = fm.boundingRect(QRect(0, 0, w, 10000), int(Qt.TextFlag.TextWordWrap), it.text(0)).height() + 4
            it.setSizeHint(0, QSize(w, h))

    def select(self, loc: tuple | None) -> bool:
        """Select the node at ``loc`` (relative to the victory); False when there is none."""
        it = self._item_at(loc) if loc is not None else None
        if it is None:
            return False
        self.tree.setCurrentItem(it)
        return True

    def _selected(self, it, _prev) -> None:
        if it is None:
            return
        self.loc = tuple(it.data(0, LOC_ROLE))
        self._updating = True
        try:
            self._load_form(self.victory_data())
        finally:
            self._updating = False

    # ------------------------------------------------------------------ structure
    def add_outcome(self) -> None:
        """A new outcome at the end: the other side's win (after a German outcome a Russian one) on
        at least 1 unit in the default region."""
        if self.doc is None:
            return
        outs = self.victory_data()["outcomes"]
        last = outs[-1]["result"] if outs else None
        result = other_side(last) if last in SIDES else "german"
        cond = leaf_condition("at_least", result, self._default_region())
        i = len(outs)
        self._change(f"Add outcome {i + 1}", lambda v: v["outcomes"].append({"result": result, "condition": cond}),
                     select=("outcomes", i))

    def add_sub_condition(self) -> None:
        """Add a condition to the selected all of / any of (a copy of its last one), or after the
        selected condition inside one (a copy of it)."""
        cl = self.cond_loc()
        if cl is None or self.doc is None:
            return
        vdata = self.victory_data()
        node = _get(vdata, cl)
        if node["kind"] in ("all_of", "any_of"):
            parent, j = cl, len(node["of"])
            new = copy.deepcopy(node["of"][-1])
        else:
            parent = self._parent_composite(cl)
            if parent is None:
                _warn(self, "Add sub-condition", "Sub-conditions go in an 'all of' or 'any of': change the "
                      "condition's kind to one of them first.")
                return
            j = cl[-1] + 1
            new = copy.deepcopy(node)
        self._change("Add sub-condition", lambda v: _get(v, parent)["of"].insert(j, new), select=(*parent, "of", j))

    def remove_selected(self) -> None:
        """Remove the selected outcome, sub-condition, award, band or the victory points."""
        loc, kind = self.loc, self.node_kind()
        if loc is None or self.doc is None:
            return
        if kind == "condition":
            parent = self._parent_composite(loc)
            if parent is None:
                _warn(self, "Cannot remove", "A 'not' has exactly one condition: change the kind of the 'not' "
                      "(or remove the outcome) instead.")
                return
            if len(_get(self.victory_data(), parent)["of"]) == 1:
                _warn(self, "Cannot remove", "An 'all of' or 'any of' needs at least one condition: change its "
                      "kind or remove the outcome instead.")
                return
        if kind == "points":
            self._change("Remove victory points", lambda v: v.pop("points"), select=("outcomes", 0))
            return
        j = loc[-1]
        # then select the node before it, else its parent (an outcome's condition: the outcome)
        near = (*loc[:-1], j - 1) if j > 0 else (loc[:-2] if kind == "condition" else loc)
        self._change("Remove from victory", lambda v: _get(v, loc[:-1]).pop(j), select=near)

    def move_selected(self, d: int) -> None:
        """Move the selected outcome (or sub-condition of an all of / any of, award, band) up
        (``d`` = -1) or down (+1): the first outcome that holds decides, so the order matters."""
        loc = self.loc
        if loc is None or self.doc is None:
            return
        kind = self.node_kind()
        if kind == "condition" and self._parent_composite(loc) is None:
            return
        if kind not in ("outcome", "condition", "award", "band"):
            return
        i = loc[-1]
        j = i + d
        seq = _get(self.victory_data(), loc[:-1])
        if not 0 <= j < len(seq):
            return

        def fn(v):
            s = _get(v, loc[:-1])
            s[i], s[j] = s[j], s[i]

        what = {"outcome": "outcome", "condition": "condition", "award": "award", "band": "points band"}[kind]
        self._change(f"Move {what} {'up' if d < 0 else 'down'}", fn, select=(*loc[:-1], j))

    def add_points(self) -> None:
        """Decide the game by victory points too (evaluated before the outcomes): the Germans score
        1 VP per hex of the default region they control; the lower half of the points a Russian
        victory, the upper half a German one."""
        if self.doc is None or self.doc.scenario.victory.points is not None:
            return
        region = self._default_region()
        try:
            top = max(1, len(self.doc.resolve(region_from_data(region))[0]))
        except ValidationError:
            top = 1
        half = (top - 1) // 2
        vp = {"side": "german", "awards": [{"kind": "per_hex", "region": region, "points": 1}],
              "schedule": [{"min": 0, "max": half, "result": "russian"},
                           {"min": half + 1, "max": top, "result": "german"}]}
        self._change("Add victory points", lambda v: v.__setitem__("points", vp), select=("points",))

    def add_award(self) -> None:
        """Another award: a copy of the last one."""
        vp = self.victory_data().get("points")
        if vp is None:
            return
        new = copy.deepcopy(vp["awards"][-1])
        n = len(vp["awards"])
        self._change("Add victory points award", lambda v: v["points"]["awards"].append(new),
                     select=("points", "awards", n))

    def add_band(self) -> None:
        """Another band of the schedule (a draw): the first gap between the bands (0-13 and 19-34
        leave 14-18), else the point above the highest band; placed in the order of the points."""
        vp = self.victory_data().get("points")
        if vp is None:
            return
        sched = vp["schedule"]
        bands = sorted(sched, key=lambda b: b["min"])
        gap = next(((a["max"] + 1, b["min"] - 1) for a, b in zip(bands, bands[1:]) if b["min"] > a["max"] + 1), None)
        lo, hi = gap if gap is not None else (bands[-1]["max"] + 1,) * 2
        new = {"min": lo, "max": hi, "result": "draw"}
        at = next((i for i, b in enumerate(sched) if b["min"] > hi), len(sched))
        self._change("Add points band", lambda v: v["points"]["schedule"].insert(at, new),
                     select=("points", "schedule", at))
