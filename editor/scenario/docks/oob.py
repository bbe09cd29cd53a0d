"""The Orders of battle dock: each side's groups and their entries as a tree, edited in place or
by forms, and what each entry gives (its squads' men, the men a "less" entry leaves out)."""

from __future__ import annotations

import html

from pydantic import ValidationError
from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFontMetrics
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from scenarios.model import (
    UNIT_ENTRY_TYPES,
    GrenadesEntry,
    OOBParseError,
    SquadEntry,
    accepted_forms,
    parse_oob_entry,
    parse_oob_line,
)
from editor.scenario.builders.side_forms import GroupDialog, group_json, group_values
from editor.scenario.document import ScenarioDocument, validation_message
from editor.scenario.scenario_files import region_at, set_region_at
from editor.drawing.widgets import button_grid, wrap_tree_cells
from editor.scenario.docks.unit_drag import UnitTree
from editor.scenario.wording import LOC_ROLE, MAN_ROLE, SIDES, SIDE_WIDE, UNIT_ROLE, _SIDE, _edit_error, _warn

__all__ = ["OOBPanel"]


# ============================================================================ OOB

class OOBPanel(QWidget):
    """Sides -> groups -> OOB entries (-> the men of a squad from the roster), and per side a
    "Side-wide" node for the entries that belong to no group (grenades, 15.9; IPs and mines the
    side places in any of its set-up zones, 18.1, 19.1). Entries are typed in the rulebook's
    printed forms and their variants (:data:`scenarios.model.OOB_FORMS`: "Squad D (10) less R
    PR9", "MMG #'s 1 & 2 (14 each)", "Mor #1 (12)", "BT7m #1 and #2", "IP1 x2", "6 grenades"),
    several at once separated by ";". Groups are added and edited with :class:`GroupDialog`."""

    unit_selected = Signal(str)   # an engine unit id (for placement)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: ScenarioDocument | None = None
        lay = QVBoxLayout(self)
        self.tree = UnitTree()
        self.tree.setHeaderLabels(["Order of battle", "Deploys"])
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setStretchLastSection(False)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)   # sized by _fit_columns
        wrap_tree_cells(self.tree)   # a long printed entry on two lines, read whole
        self.tree.setDragEnabled(True)
        self.tree.itemDoubleClicked.connect(self._double_clicked)
        self.tree.currentItemChanged.connect(self._current)
        self.tree.itemExpanded.connect(lambda _it: self._fit_columns())
        self.tree.itemCollapsed.connect(lambda _it: self._fit_columns())
        lay.addWidget(self.tree, 1)
        self.target = QLabel()
        self.target.setWordWrap(True)
        lay.addWidget(self.target)
        row = QHBoxLayout()
        self.entry_text = QLineEdit()
        self.entry_text.setPlaceholderText("Squad D (10) less R PR9")
        self.entry_text.setToolTip(accepted_forms())
        self.entry_text.returnPressed.connect(self.add_from_field)
        row.addWidget(self.entry_text, 1)
        b = QPushButton("Add")
        b.clicked.connect(self.add_from_field)
        row.addWidget(b)
        lay.addLayout(row)
        lay.addLayout(button_grid([("Edit", self.edit_selected), ("Remove", self.remove_selected),
                                   ("Add group...", self.add_group_dialog), ("Edit group...", self.edit_group_dialog)]))
        self.info = QLabel()
        self.info.setWordWrap(True)
        lay.addWidget(self.info)
        self.prompt = None  # (title, label, default) -> str | None; set by the window
        #: (panel, side, group index or None) -> the group form's values or None; None: GroupDialog
        self.group_form = None

    def set_document(self, doc: ScenarioDocument) -> None:
        self.doc = doc
        doc.changed.connect(lambda what: self.refresh() if what == "scenario" else self._update_placed())
        self.refresh()

    def _update_placed(self) -> None:
        """A placement changed: "in 4307" beside each unit, without rebuilding the tree."""
        for it in self._items():
            uid = it.data(0, UNIT_ROLE)
            if uid:
                p = self.doc.placement.get(uid)
                it.setText(1, f"in {p.hex}" if p else "")

    # -- view
    def refresh(self) -> None:
        cur = self.current_loc()
        self.tree.clear()
        sc = self.doc.scenario
        setup = self.doc.setup()
        groups_units = {}
        if setup is not None:
            for d in setup.deployments:
                groups_units[(d.side, d.group)] = ("set up", d.units)
            for e in setup.entries:
                groups_units[(e.side, e.group)] = (f"enters turn {e.turn}", e.units)
        for side in SIDES:
            spec = sc.side(side)
            st = QTreeWidgetItem([side.capitalize(), ""])
            st.setData(0, LOC_ROLE, (side,))
            f = st.font(0)
            f.setBold(True)
            st.setFont(0, f)
            self.tree.addTopLevelItem(st)
            totals = self._side_totals(spec)
            if totals:   # on a line of its own across the tree, under the side's name
                tt = QTreeWidgetItem([totals, ""])
                tt.setForeground(0, QBrush(QColor(90, 90, 90)))
                tt.setToolTip(0, f"{side.capitalize()}: {totals} (hidden hexes from the Sides dock; grenades "
                                 "and mine factors summed over all the side's entries)")
                st.addChild(tt)
                tt.setFirstColumnSpanned(True)
            for gi, g in enumerate(spec.groups):
                how = "set-up zone" if g.setup is not None else \
                    "enters turn " + "/".join(str(o.turn) for o in g.entry.options)
                for r in g.restrictions:
                    how += f", no move before turn {r.until_turn}"
                gi_item = QTreeWidgetItem([g.name, how])
                gi_item.setData(0, LOC_ROLE, (side, "groups", gi))
                st.addChild(gi_item)
                for ei, e in enumerate(g.oob):
                    self._entry_item(gi_item, side, e, (side, "groups", gi, "oob", ei))
                units = groups_units.get((side, g.name), (None, []))[1]
                if units:
                    ui = QTreeWidgetItem([f"{len(units)} units on counters", ""])
                    ui.setForeground(0, QBrush(QColor(90, 90, 90)))
                    gi_item.addChild(ui)
                    for uid in units:
                        u = setup.units[uid]
                        placed = self.doc.placement.get(uid)
                        c = QTreeWidgetItem([f"{u.name or uid}  [{uid}]", f"in {placed.hex}" if placed else ""])
                        c.setData(0, UNIT_ROLE, uid)
                        ui.addChild(c)
            sw = QTreeWidgetItem([SIDE_WIDE, f"{len(spec.oob)} entr{'y' if len(spec.oob) == 1 else 'ies'}"
                                  if spec.oob else "grenades, IPs, mines"])
            sw.setData(0, LOC_ROLE, (side, "oob"))
            sw.setToolTip(0, "Entries of the whole side, in no group: grenades (15.9); IPs and mines the side "
                             "places in any of its set-up zones (18.1, 19.1). Units always belong to a group.")
            sw.setForeground(0, QBrush(QColor(60, 60, 140)))
            st.addChild(sw)
            for ei, e in enumerate(spec.oob):
                self._entry_item(sw, side, e, (side, "oob", ei))
        self.tree.expandToDepth(1)
        if cur is not None:
            self.select_loc(cur)
        self._show_target()
        self._fit_columns()
        err = self.doc.setup_error()
        refused = getattr(self, "_refused", None)
        if not err and refused is not None and refused[0] and refused[0] == self.entry_text.text():
            # a redraw of the document (a map pause, an autosave) must not wipe why the text the
            # designer is fixing was refused
            self.info.setText(f"<span style='color:#b00'>Not added: {html.escape(refused[1])}</span>")
            return
        self.info.setText(f"<span style='color:#b00'>Cannot build the forces: {err}</span>" if err else
                          "Type entries as printed, several separated by ';' (the field's tooltip lists the "
                          "forms). Double-click an entry to edit it; drag a unit onto the map (Place tool) "
                          "to set it up.")

    @staticmethod
    def _side_totals(spec) -> str:
        """"3 hidden hexes, 10 grenades, 10 AT mine factors": what the side has beyond its units."""
        extra = []
        if spec.hidden_hexes:
            extra.append(f"{spec.hidden_hexes} hidden hexes")
        if spec.grenades:
            extra.append(f"{spec.grenades} grenades")
        for t in ("AT", "AP"):
            if spec.mine_factors(t):
                extra.append(f"{spec.mine_factors(t)} {t} mine factors")
        return ", ".join(extra)

    def _fit_columns(self) -> None:
        """The "Deploys" column at the width, at most 40% of the tree, that leaves the fewest
        wrapped lines in both columns: its short texts ("set-up zone", "in 4307") whole and the
        entries the rest of a narrow dock; a long text ("enters turn 3, no move before turn 4",
        "Squad E (4 units, MP PR10, ...)") wraps onto a second line."""
        tree = self.tree
        view = tree.viewport().width()
        cap = view * 2 // 5
        margin = 2 * (tree.style().pixelMetric(tree.style().PixelMetric.PM_FocusFrameHMargin) + 1)
        fm = tree.fontMetrics()
        rows = []   # (text, its font's metrics, branch indentation, Deploys text) of the rows in view
        for it in self._items():
            if self._shown(it) and not it.isFirstColumnSpanned():
                depth, p = 1, it.parent()   # the root is decorated: one indentation more
                while p is not None:
                    depth, p = depth + 1, p.parent()
                rows.append((it.text(0), QFontMetrics(it.font(0)), depth * tree.indentation(), it.text(1)))
        longest_word = max((fm.horizontalAdvance(w) + margin + 2 for r in rows for w in r[3].split()), default=0)
        floor = min(cap, max(60, longest_word))
        choices = sorted({floor} | {w for r in rows if r[3]
                                    for w in [fm.horizontalAdvance(r[3]) + margin + 2] if floor < w <= cap})

        def lines(metrics: QFontMetrics, text: str, room: int) -> int:
            if not text:
                return 0
            box = metrics.boundingRect(QRect(0, 0, max(1, room), 1 << 20), int(Qt.TextFlag.TextWordWrap), text)
            return box.height() // max(1, metrics.lineSpacing())

        def wrapped(deploys: int) -> int:   # text lines of the rows in view
            return sum(lines(m, t0, view - deploys - indent - margin) + lines(fm, t1, deploys - margin)
                       for t0, m, indent, t1 in rows)

        best = min(choices, key=lambda d: (wrapped(d), -d))
        tree.header().resizeSection(1, best)

    @staticmethod
    def _shown(it: QTreeWidgetItem) -> bool:
        """The item is in the tree's view when scrolled to: every ancestor expanded."""
        p = it.parent()
        while p is not None:
            if not p.isExpanded():
                return False
            p = p.parent()
        return True

    def resizeEvent(self, ev) -> None:  # noqa: N802
        super().resizeEvent(ev)
        self._fit_columns()

    def _entry_item(self, parent: QTreeWidgetItem, side: str, e, loc: tuple) -> None:
        it = QTreeWidgetItem([e.text or getattr(e, "label", lambda: e.kind)(), e.kind.replace("_", " ")])
        it.setData(0, LOC_ROLE, loc)
        parent.addChild(it)
        if isinstance(e, SquadEntry):
            try:
                sq = self.doc.roster.squad(side, e.letter)
            except KeyError as err:
                bad = QTreeWidgetItem([str(err.args[0]), ""])
                bad.setForeground(0, QBrush(QColor(180, 0, 0)))
                it.addChild(bad)
                return
            st = self.doc.setup()
            # exactly the men the engine leaves out (24.1 choices as the designer's set-up makes them)
            removed = {m.id for m in sq.men if m.id not in st.units} if st is not None else _removed_men(sq, e)
            choice = {m: c for c in self.doc.random_choices() for m in c["among"]
                      if c["side"] == side and c["squad"] == e.letter}
            for m in sq.men:
                out = m.id in removed
                c = choice.get(m.id)
                if c is not None:
                    note = "left out (24.1 choice)" if out else "kept (24.1 choice)"
                else:
                    note = "left out" if out else (f"ammo {e.ammo}" if m.weapon == "LMG" and e.ammo is not None else "")
                item = QTreeWidgetItem([f"{m.weapon} PR{m.pr}  ({m.id})", note])
                item.setData(0, MAN_ROLE, m.id)
                if c is not None:
                    tip = (f"24.1: {c['side']} Squad {c['squad']} {c['what']} chooses among {', '.join(c['among'])}. "
                           "The choice is made once here and used by every game that uses the designer's set-up "
                           "(other games draw it again). Double-click "
                           + ("another candidate to leave him out instead." if out else "to leave this man out instead."))
                    item.setToolTip(0, tip)
                    item.setToolTip(1, tip)
                if out:
                    item.setForeground(0, QBrush(QColor(150, 150, 150)))
                    f = item.font(0)
                    f.setStrikeOut(True)
                    item.setFont(0, f)
                it.addChild(item)

    def left_out_men(self) -> set[str]:
        """The men struck out in the tree (for tests and the screenshot)."""
        return {it.data(0, MAN_ROLE) for it in self._items() if it.data(0, MAN_ROLE) and it.font(0).strikeOut()}

    def toggle_left_out(self, uid: str) -> bool:
        """Change the 24.1 choice ``uid`` belongs to (:meth:`ScenarioDocument.swap_left_out`)."""
        why = self.doc.swap_left_out(uid)
        self.info.setText(f"<span style='color:#b00'>{why}</span>" if why else
                          f"24.1 choice changed: see the struck-out men (Edit > Undo to go back)")
        return why is None

    def _double_clicked(self, it: QTreeWidgetItem, _col: int) -> None:
        man = it.data(0, MAN_ROLE)
        if man and any(man in c["among"] for c in self.doc.random_choices()):
            self.toggle_left_out(man)
            return
        self.edit_selected()

    def current_loc(self) -> tuple | None:
        it = self.tree.currentItem()
        while it is not None and it.data(0, LOC_ROLE) is None:
            it = it.parent()
        return tuple(it.data(0, LOC_ROLE)) if it is not None else None

    def select_loc(self, loc: tuple) -> bool:
        """Select the tree item of a location (or its closest ancestor)."""
        loc = tuple(loc)
        best = None
        for it in self._items():
            l2 = it.data(0, LOC_ROLE)
            if l2 is not None and tuple(l2) == loc[:len(l2)] and (best is None or len(l2) > len(best.data(0, LOC_ROLE))):
                best = it
        if best is not None:
            self.tree.setCurrentItem(best)
            self.tree.scrollToItem(best)
        return best is not None

    def select_unit(self, uid: str) -> None:
        for it in self._items():
            if it.data(0, UNIT_ROLE) == uid:
                self.tree.setCurrentItem(it)
                return

    def _items(self):
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            it = stack.pop()
            yield it
            stack.extend(it.child(i) for i in range(it.childCount()))

    def _current(self, it, _prev) -> None:
        if it is not None and it.data(0, UNIT_ROLE):
            self.unit_selected.emit(it.data(0, UNIT_ROLE))
        self._show_target()

    def target_of(self, loc: tuple | None) -> tuple[str, int | None]:
        """Where the entry field adds for a selection: (side, group index), group None = the
        side-wide entries (the side's node or its Side-wide node selected)."""
        loc = tuple(loc or ("german",))
        if len(loc) > 2 and loc[1] == "groups":
            return loc[0], loc[2]
        return loc[0], None

    def _show_target(self) -> None:
        if self.doc is None:
            return
        side, gi = self.target_of(self.current_loc())
        where = f"group {self.doc.scenario.side(side).groups[gi].name}" if gi is not None else \
            "the side-wide entries (grenades, IPs, mines)"
        self.target.setText(f"Add to {_SIDE[side]} {where}:")

    def selected_unit(self) -> str | None:
        it = self.tree.currentItem()
        return it.data(0, UNIT_ROLE) if it is not None else None

    # -- edits
    def _ask(self, title: str, label: str, default: str = "") -> str | None:
        if self.prompt is not None:
            return self.prompt(title, label, default)
        from editor.drawing.tool import ToolContext

        return ToolContext._ask(title, label, default)

    def _types(self, side: str) -> dict:
        """The roster's crew weapon and AFV type names of ``side`` for the parser (its own
        spellings: a designer's roster may add types)."""
        sd = getattr(self.doc.roster.document, side)
        return {"crew_weapon_types": list(sd.cw_types), "afv_types": [*sd.afv_types, *sd.afv_aliases]}

    def parse(self, side: str, text: str) -> list:
        """The entries of a printed text (one entry, or several separated by ";");
        raises OOBParseError."""
        return parse_oob_line(text, **self._types(side)) if ";" in text else \
            [parse_oob_entry(text, **self._types(side))]

    def unbuildable(self, side: str, entries: list) -> str | None:
        """Why the roster the scenario is played with cannot give the units of ``entries`` (the
        loader's sentence, :func:`core.ironcross.scenario_setup.entry_problem`) with the roster
        change that would make the entry valid, or None."""
        from core.ironcross.scenario_setup import entry_problem

        for e in entries:
            if not isinstance(e, UNIT_ENTRY_TYPES):
                continue
            problem = entry_problem(self.doc.roster, side, e)
            if problem is None:
                continue
            if e.kind == "squad":
                have = {sq.letter for sq in self.doc.roster.squads(side)}
                fix = (f"Squad {e.letter} is not in the roster: Counter roster dock > Add squad... adds it to this "
                       "scenario's roster." if e.letter not in have else
                       f"To play it, change a man of Squad {e.letter} in the Counter roster dock (Override value..., "
                       "e.g. its weapon or PR) or add a squad of your own (Add squad...): the change is this "
                       "scenario's roster override, the shipped roster is not touched.")
            elif e.kind == "commander" and e.pr is None and \
                    sum(1 for c in self.doc.roster.commanders(side) if c.rank == e.type.upper()) > 1:
                fix = "Type the entry with one of the PRs named (the side has more than one such counter)."
            else:
                button = {"commander": "Add commander...", "crew_weapon": "Add CW...", "afv": "Add AFV..."}[e.kind]
                fix = f"Counter roster dock > {button} adds that counter to this scenario's roster."
            return f"{e.text or e.label()}: {problem}. {fix}"
        return None

    def _refuse(self, text: str) -> None:
        """Say under the entry field why a typed entry is not taken (the field keeps the text, and
        :meth:`refresh` keeps the reason while the field still holds that text)."""
        self._refused = (self.entry_text.text(), text)
        self.info.setText(f"<span style='color:#b00'>Not added: {html.escape(text)}</span>")
        self.entry_text.setToolTip(text)

    def add_entry(self, side: str, group: int | None, text: str) -> bool:
        """Add printed OOB entries (one, or several separated by ";") to group ``group`` of
        ``side`` (None: the side-wide entries), one undo step. Grenades always go to the side
        (15.9: a side's number of grenades); a unit entry is refused at side level (24.1: units
        belong to a group). Refusals are shown with the accepted forms; returns False then."""
        try:
            entries = self.parse(side, text)
        except OOBParseError as err:
            _warn(self, "Cannot read the entry", str(err))
            return False
        if group is None:
            units = [e.text or e.kind for e in entries if isinstance(e, UNIT_ENTRY_TYPES)]
            if units:
                _warn(self, "Units belong to a group",
                      f"{', '.join(units)}: a unit belongs to a group, which sets it up or brings it in (24.1). "
                      "Select a group of the side first; the side-wide entries hold grenades, IPs and mines.")
                return False
        problem = self.unbuildable(side, entries)
        if problem is not None:   # refused where it is typed, in the loader's words (24.1)
            self._refuse(problem)
            return False
        # (entry, goes to the side-wide entries)
        placed = [(e, group is None or isinstance(e, GrenadesEntry)) for e in entries]

        def change(d):
            for e, sidewide in placed:
                ej = e.model_dump(mode="json", exclude_none=True)
                (d[side].setdefault("oob", []) if sidewide else d[side]["groups"][group]["oob"]).append(ej)

        try:
            self.doc.edit(f"Add {text} to {side}", change)
        except ValidationError as err:
            _warn(self, "Invalid entry", validation_message(err))
            return False
        spec = self.doc.scenario.side(side)
        if group is not None:
            # the group stays the target of the next line, even when the line held grenades
            n = len(spec.groups[group].oob)
            self.select_loc((side, "groups", group, "oob", n - 1) if n else (side, "groups", group))
        else:
            self.select_loc((side, "oob", len(spec.oob) - 1))
        moved = [e.text for e, sidewide in placed if sidewide and group is not None]
        if moved:
            self.info.setText(f"{', '.join(moved)}: added to the {side} side-wide entries "
                              "(15.9: grenades are the side's, not a group's).")
        return True

    def set_entry(self, loc: tuple, text: str) -> bool:
        """Replace the OOB entry at ``loc`` by a printed form (a unit entry is refused at side level)."""
        try:
            e = self.parse(loc[0], text)
            if len(e) != 1:
                raise OOBParseError(text, "an entry is edited one at a time (no ';')")
            e = e[0]
        except OOBParseError as err:
            _warn(self, "Cannot read the entry", str(err))
            return False
        if loc[1] == "oob" and isinstance(e, UNIT_ENTRY_TYPES):
            _warn(self, "Units belong to a group", f"{text}: a unit belongs to a group (24.1); add it to a group.")
            return False
        problem = self.unbuildable(loc[0], [e])
        if problem is not None:
            self._refuse(problem)
            return False
        try:
            self.doc.edit(f"Edit {text}", lambda d: set_region_at(d, loc, e.model_dump(mode="json", exclude_none=True)))
        except ValidationError as err:
            _warn(self, "Invalid entry", validation_message(err))
            return False
        return True

    def remove_entry(self, loc: tuple) -> None:
        self.doc.edit("Remove OOB entry", lambda d: region_at(d, loc[:-1]).pop(loc[-1]))

    def add_from_field(self) -> None:
        """Add the typed entries where :meth:`target_of` says (the selected group, else side-wide)."""
        text = self.entry_text.text().strip()
        if not text:
            return
        side, group = self.target_of(self.current_loc())
        if self.add_entry(side, group, text):
            self.entry_text.clear()
            self.entry_text.setToolTip(accepted_forms())

    def edit_selected(self) -> None:
        loc = self.current_loc()
        if loc is not None and len(loc) == 3 and loc[1] == "groups":
            self.edit_group_dialog()
            return
        if loc is None or "oob" not in loc or not isinstance(loc[-1], int):   # a side or its Side-wide node
            return
        e = region_at(self.doc.scenario.model_dump(mode="json"), loc)
        t = self._ask("Edit OOB entry", "Printed form of the entry:", e.get("text") or "")
        if t:
            self.set_entry(loc, t)

    def remove_selected(self) -> None:
        loc = self.current_loc()
        if loc is None:
            return
        if "oob" in loc:
            self.remove_entry(loc)
        elif len(loc) == 3:
            try:
                self.doc.edit("Remove group", lambda d: d[loc[0]]["groups"].pop(loc[2]))
            except ValidationError as err:
                _warn(self, "Cannot remove the group", validation_message(err))

    def add_group(self, side: str, name: str, setup: bool = True, **values) -> bool:
        """Add a group (one undo step): it sets up in a zone of its own inside the map sections
        (:func:`default_setup_hexes`), or enters (``turn``, ``phase``, ``through``: a compass
        edge or "hexes" with ``hexes``; default the first edge the side's entering groups do not
        use); ``until_turn``: may not move before that Player Turn. Returns False (with a
        message) when refused."""
        vals = {"name": name, "deploy": "setup" if setup else "entry", **values}
        try:
            grp = group_json(self.doc, side, vals)
            self.doc.edit(f"Add {side} group {grp['name']}", lambda d: d[side]["groups"].append(grp))
        except ValueError as err:   # a pydantic ValidationError is a ValueError
            _warn(self, "Cannot add the group", _edit_error(err))
            return False
        self.select_loc((side, "groups", len(self.doc.scenario.side(side).groups) - 1))
        return True

    def edit_group(self, side: str, index: int, **values) -> bool:
        """Change group ``index`` of ``side`` from the group form's values (:func:`group_json`;
        a rename follows into the side's detachments), one undo step."""
        base = self.doc.data()[side]["groups"][index]
        old = base["name"]
        try:
            grp = group_json(self.doc, side, {**group_values(self.doc.scenario.side(side).groups[index]), **values},
                             base)

            def change(d):
                d[side]["groups"][index] = grp
                for det in d[side].get("detachments", []):
                    if det.get("from_group") == old:
                        det["from_group"] = grp["name"]

            self.doc.edit(f"Edit {side} group {grp['name']}", change)
        except ValueError as err:
            _warn(self, "Cannot change the group", _edit_error(err))
            return False
        return True

    def _group_values(self, side: str, index: int | None) -> dict | None:
        if self.group_form is not None:
            return self.group_form(self, side, index)
        dlg = GroupDialog(self.doc, side, index, self)
        values = dlg.values() if dlg.exec() == QDialog.DialogCode.Accepted else None
        dlg.deleteLater()   # a form made for each call: never left behind as the panel's child
        return values

    def add_group_dialog(self) -> None:
        """Ask for a new group of the selected side (set-up or entering; :class:`GroupDialog`)."""
        side = (self.current_loc() or ("german",))[0]
        vals = self._group_values(side, None)
        if vals:
            self.add_group(side, vals.pop("name", ""), vals.pop("deploy", "setup") == "setup", **vals)

    def edit_group_dialog(self) -> None:
        """Edit the selected group (name, deployment, entry, restriction; :class:`GroupDialog`)."""
        loc = self.current_loc()
        if loc is None or len(loc) < 3 or loc[1] != "groups":
            self.info.setText("Select a group to edit it.")
            return
        vals = self._group_values(loc[0], loc[2])
        if vals:
            self.edit_group(loc[0], loc[2], **vals)


def _removed_men(sq, e: SquadEntry) -> set[str]:
    """The men a "less"/"only" entry leaves out when the forces cannot be built (the first
    matching men); otherwise the tree shows the engine's own choice."""
    men = list(sq.men)
    if e.only is not None:
        keep: set[str] = set()
        for spec in e.only:
            for _ in range(spec.count):
                for m in men:
                    if m.id not in keep and m.weapon == spec.type and (spec.pr is None or m.pr == spec.pr):
                        keep.add(m.id)
                        break
        return {m.id for m in men} - keep
    out: set[str] = set()
    for spec in e.less:
        for _ in range(spec.count):
            for m in men:
                if m.id not in out and m.weapon == spec.type and (spec.pr is None or m.pr == spec.pr):
                    out.add(m.id)
                    break
    return out
