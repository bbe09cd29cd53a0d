"""Form editors for the parts of a side that were edited only as JSON: entry turns and phases
(``movement`` / ``reaction_movement``), detachments (special options), infiltration (allowed and
its zone) and the number of hidden hexes with the set-up text, caps, initial control and mine
areas (the "Set-up" tab, :mod:`editor.scenario.builders.setup_forms`), the player notes; and the group form of the OOB dock
(:class:`GroupDialog`, :func:`group_json`: a set-up group at a place of its own inside the map
sections, or an entering group with its turn, phase and edge or hexes, and "may not move until
Player Turn N").

:class:`SidesPanel` observes a :class:`editor.scenario.document.ScenarioDocument`; every change
is one ``ScenarioDocument.edit`` (one undo step, refused with a message when the result is not a
valid scenario). Regions (entry edges, the infiltration zone, a detachment's entry) are edited
in the Regions panel, as every other region.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.scenario.builders.setup_forms import SetupSpecsTab, edit_or_warn, hexes_region
from editor.scenario.document import ScenarioDocument

__all__ = ["SidesPanel", "GroupDialog", "parse_limits", "format_limits", "group_json", "default_setup_hexes",
           "default_entry_edge", "group_values"]

SIDES = ("german", "russian")
PHASES = ("movement", "reaction_movement")
ROLE = Qt.ItemDataRole.UserRole


def parse_limits(text: str) -> list[dict]:
    """``"squad 1; crew_weapon 1 MMG ATR"`` -> [{"kind": "squad", "count": 1}, {"kind":
    "crew_weapon", "count": 1, "types": ["MMG", "ATR"]}]. Raises ValueError."""
    out = []
    for part in (p.strip() for p in text.replace("\n", ";").split(";")):
        if not part:
            continue
        words = part.replace(",", " ").split()
        if len(words) < 2 or not words[1].isdigit():
            raise ValueError(f"a limit is 'KIND COUNT [TYPES]', not {part!r}")
        d: dict = {"kind": words[0], "count": int(words[1])}
        if words[2:]:
            d["types"] = words[2:]
        out.append(d)
    if not out:
        raise ValueError("a detachment needs at least one limit")
    return out


def format_limits(limits) -> str:
    return "; ".join(f"{x.kind} {x.count}" + (" " + " ".join(x.types) if x.types else "") for x in limits)


class SidesPanel(QWidget):
    """Per side: entry options (turn, phase), detachments, infiltration and hidden hexes, notes."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: ScenarioDocument | None = None
        self._updating = False
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(QLabel("Side"))
        self.side = QComboBox()
        self.side.addItems(SIDES)
        self.side.currentTextChanged.connect(lambda _t: self.refresh())
        top.addWidget(self.side, 1)
        lay.addLayout(top)
        self.tabs = QTabWidget()
        lay.addWidget(self.tabs, 1)

        # -- entries
        w = QWidget()
        v = QVBoxLayout(w)
        self.entries = QTreeWidget()
        self.entries.setHeaderLabels(["Entering group / option", "Turn", "Phase"])
        # the group's name takes the room left; turn and phase as wide as their text, never cut
        head = self.entries.header()
        head.setStretchLastSection(False)
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        head.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.entries.currentItemChanged.connect(lambda _i, _p: self._entry_selected())
        v.addWidget(self.entries, 1)
        f = QFormLayout()
        self.entry_turn = QSpinBox()
        self.entry_turn.setRange(1, 99)
        self.entry_phase = QComboBox()
        self.entry_phase.addItems(PHASES)
        self.entry_choose = QCheckBox("chosen before the game")
        self.entry_choose.setToolTip("the owner chooses the option before the game")
        f.addRow("Turn", self.entry_turn)
        f.addRow("Phase", self.entry_phase)
        f.addRow(self.entry_choose)
        v.addLayout(f)
        row = QHBoxLayout()
        for text, slot in (("Add option", self.add_entry_option), ("Remove option", self.remove_entry_option)):
            b = QPushButton(text)
            b.clicked.connect(slot)
            row.addWidget(b)
        v.addLayout(row)
        self.entry_turn.valueChanged.connect(lambda t: self._entry_changed(turn=t))
        self.entry_phase.currentTextChanged.connect(lambda p: self._entry_changed(phase=p))
        self.entry_choose.toggled.connect(self._choose_changed)
        self.tabs.addTab(w, "Entries")

        # -- detachments
        w = QWidget()
        v = QVBoxLayout(w)
        self.detachments = QListWidget()
        self.detachments.currentRowChanged.connect(lambda _r: self._detachment_selected())
        v.addWidget(self.detachments, 1)
        f = QFormLayout()
        self.det_name = QLineEdit()
        self.det_group = QComboBox()
        self.det_limits = QLineEdit()
        self.det_limits.setPlaceholderText("crew_weapon 1 MMG; squad 1")
        self.det_turn = QSpinBox()
        self.det_turn.setRange(1, 99)
        self.det_phase = QComboBox()
        self.det_phase.addItems(PHASES)
        self.det_record = QComboBox()
        self.det_record.addItems(["game", "enemy_setup"])
        self.det_text = QLineEdit()
        f.addRow("Name", self.det_name)
        f.addRow("From group", self.det_group)
        f.addRow("Limits", self.det_limits)
        f.addRow("Enters on turn", self.det_turn)
        f.addRow("Phase", self.det_phase)
        f.addRow("Recorded before", self.det_record)
        f.addRow("Printed text", self.det_text)
        v.addLayout(f)
        row = QHBoxLayout()
        for text, slot in (("Add", self.add_detachment), ("Apply", self.apply_detachment),
                           ("Remove", self.remove_detachment)):
            b = QPushButton(text)
            b.clicked.connect(slot)
            row.addWidget(b)
        v.addLayout(row)
        note = QLabel("The detachment's entry edge is a region: edit it in the Regions panel.")
        note.setWordWrap(True)
        v.addWidget(note)
        self.tabs.addTab(w, "Detachments")

        # -- infiltration and hidden hexes
        w = QWidget()
        f = QFormLayout(w)
        self.infiltration = QCheckBox("may infiltrate (24.3)")
        self.infiltration.toggled.connect(self.set_infiltration)
        self.infil_zone = QLabel()
        self.infil_zone.setWordWrap(True)
        self.hidden = QSpinBox()
        self.hidden.setRange(0, 99)
        self.hidden.valueChanged.connect(self.set_hidden_hexes)
        f.addRow(self.infiltration)
        f.addRow("Infiltration zone", self.infil_zone)
        f.addRow("Hidden hexes (24.2)", self.hidden)
        infil = w   # in the "Set-up" tab below, above the set-up text, caps, initial control, mine areas

        # -- notes
        w = QWidget()
        v = QVBoxLayout(w)
        self.notes = QListWidget()
        self.notes.setWordWrap(True)
        self.notes.currentRowChanged.connect(lambda r: self._note_selected())
        v.addWidget(self.notes, 1)
        self.note_text = QPlainTextEdit()
        self.note_text.setMaximumHeight(90)
        v.addWidget(self.note_text)
        row = QHBoxLayout()
        for text, slot in (("Add note", self.add_note), ("Apply", self.apply_note), ("Remove", self.remove_note)):
            b = QPushButton(text)
            b.clicked.connect(slot)
            row.addWidget(b)
        v.addLayout(row)
        self.tabs.addTab(w, "Notes")
        self.tabs.setTabToolTip(self.tabs.count() - 1, "player notes")

        # -- set-up: infiltration, hidden hexes, then set-up text, caps, initial control, mine areas
        # (editor.scenario.builders.setup_forms); one scrolling tab, so the tab bar fits the dock
        from PySide6.QtWidgets import QScrollArea

        self.setup_tab = SetupSpecsTab(lambda: self.cur_side)
        page = QWidget()
        pv = QVBoxLayout(page)
        pv.setContentsMargins(0, 0, 0, 0)
        pv.addWidget(infil)
        pv.addWidget(self.setup_tab)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(page)
        self.tabs.insertTab(2, scroll, "Set-up")
        self.tabs.setTabToolTip(2, "infiltration, hidden hexes, set-up text, caps inside sub-zones, initial control, "
                                   "mine areas")

    # ------------------------------------------------------------------ document
    def set_document(self, doc: ScenarioDocument) -> None:
        self.doc = doc
        self.setup_tab.doc = doc
        doc.changed.connect(lambda what: what == "scenario" and self.refresh())
        self.refresh()

    def _edit(self, text: str, change) -> bool:
        return edit_or_warn(self, text, change)

    @property
    def cur_side(self) -> str:
        return self.side.currentText()

    def refresh(self) -> None:
        if self.doc is None:
            return
        self._updating = True
        try:
            sc = self.doc.scenario
            spec = sc.side(self.cur_side)
            keep = self.entry_loc()
            self.entries.clear()
            for gi, g in enumerate(spec.groups):
                if g.entry is None:
                    continue
                gi_item = QTreeWidgetItem([g.name + (" (chosen before the game)" if g.entry.choose_before_game else ""),
                                           "", ""])
                gi_item.setData(0, ROLE, (gi, None))
                self.entries.addTopLevelItem(gi_item)
                for oi, o in enumerate(g.entry.options):
                    c = QTreeWidgetItem([f"option {oi + 1}: {o.region.describe()}", str(o.turn), o.phase])
                    c.setData(0, ROLE, (gi, oi))
                    gi_item.addChild(c)
            self.entries.expandAll()
            sel = None
            for it in self._entry_items():
                if keep is not None and tuple(it.data(0, ROLE)) == keep:
                    sel = it
            if sel is None:
                sel = next((it for it in self._entry_items() if it.data(0, ROLE)[1] is not None), None)
            if sel is not None:
                self.entries.setCurrentItem(sel)
            row = self.detachments.currentRow()
            self.detachments.clear()
            for d in spec.detachments:
                self.detachments.addItem(f"{d.name} (from {d.from_group}: {format_limits(d.limits)})")
            self.det_group.clear()
            self.det_group.addItems([g.name for g in spec.groups])
            if spec.detachments:
                self.detachments.setCurrentRow(min(max(row, 0), len(spec.detachments) - 1))
            inf = spec.infiltration
            self.infiltration.setChecked(bool(inf is not None and inf.allowed))
            if inf is not None and inf.zone is not None:
                hexes, err = self.doc.resolve(inf.zone)
                self.infil_zone.setText(f"{inf.zone.describe()}: {err or str(len(hexes)) + ' hexes'} "
                                        "(edit it in the Regions panel)")
            else:
                self.infil_zone.setText("none")
            self.hidden.setValue(spec.hidden_hexes)
            nrow = self.notes.currentRow()
            self.notes.clear()
            for i, n in enumerate(spec.notes):
                it = QListWidgetItem(f"{i + 1}. {n.text}")
                if n.erratum:
                    it.setToolTip(f"printed: {n.printed}\nerratum: {n.erratum}")
                self.notes.addItem(it)
            if spec.notes:
                self.notes.setCurrentRow(min(max(nrow, 0), len(spec.notes) - 1))
        finally:
            self._updating = False
        self._entry_selected()
        self._detachment_selected()
        self._note_selected()
        self.setup_tab.refresh()

    # ------------------------------------------------------------------ entries
    def _entry_items(self):
        for i in range(self.entries.topLevelItemCount()):
            t = self.entries.topLevelItem(i)
            yield t
            for k in range(t.childCount()):
                yield t.child(k)

    def entry_loc(self) -> tuple | None:
        it = self.entries.currentItem()
        return tuple(it.data(0, ROLE)) if it is not None else None

    def select_entry(self, group: int, option: int | None) -> None:
        for it in self._entry_items():
            if tuple(it.data(0, ROLE)) == (group, option):
                self.entries.setCurrentItem(it)

    def _entry_selected(self) -> None:
        loc = self.entry_loc()
        if self.doc is None or loc is None:
            return
        g = self.doc.scenario.side(self.cur_side).groups[loc[0]]
        o = g.entry.options[loc[1] if loc[1] is not None else 0]
        self._updating = True
        try:
            self.entry_turn.setValue(o.turn)
            self.entry_phase.setCurrentText(o.phase)
            self.entry_choose.setChecked(g.entry.choose_before_game)
        finally:
            self._updating = False

    def set_entry(self, group: int, option: int, turn: int | None = None, phase: str | None = None) -> bool:
        """Set the turn and/or phase of entry option ``option`` of group ``group`` (one undo step)."""
        side = self.cur_side
        o = self.doc.scenario.side(side).groups[group].entry.options[option]
        if (turn is None or turn == o.turn) and (phase is None or phase == o.phase):
            return False

        def change(d):
            od = d[side]["groups"][group]["entry"]["options"][option]
            if turn is not None:
                od["turn"] = turn
            if phase is not None:
                od["phase"] = phase

        what = f"turn {turn}" if turn is not None else f"phase {phase}"
        return self._edit(f"Entry of {self.doc.scenario.side(side).groups[group].name}: {what}", change)

    def _entry_changed(self, turn=None, phase=None) -> None:
        loc = self.entry_loc()
        if self._updating or loc is None:
            return
        self.set_entry(loc[0], loc[1] if loc[1] is not None else 0, turn, phase)

    def _choose_changed(self, on: bool) -> None:
        loc = self.entry_loc()
        if self._updating or loc is None:
            return
        side = self.cur_side
        self._edit("Entry option chosen before the game" if on else "Entry option at random",
                   lambda d: d[side]["groups"][loc[0]]["entry"].__setitem__("choose_before_game", on))

    def add_entry_option(self) -> None:
        loc = self.entry_loc()
        if loc is None:
            return
        side, gi = self.cur_side, loc[0]

        def change(d):
            opts = d[side]["groups"][gi]["entry"]["options"]
            new = dict(opts[loc[1] if loc[1] is not None else -1])
            new.pop("text", None)
            opts.append(new)

        self._edit("Add entry option", change)

    def remove_entry_option(self) -> None:
        loc = self.entry_loc()
        if loc is None or loc[1] is None:
            return
        side = self.cur_side
        self._edit("Remove entry option", lambda d: d[side]["groups"][loc[0]]["entry"]["options"].pop(loc[1]))

    # ------------------------------------------------------------------ detachments
    def _detachment_selected(self) -> None:
        if self.doc is None:
            return
        spec = self.doc.scenario.side(self.cur_side)
        r = self.detachments.currentRow()
        if not 0 <= r < len(spec.detachments):
            return
        d = spec.detachments[r]
        self.det_name.setText(d.name)
        self.det_group.setCurrentText(d.from_group)
        self.det_limits.setText(format_limits(d.limits))
        self.det_turn.setValue(d.entry.options[0].turn)
        self.det_phase.setCurrentText(d.entry.options[0].phase)
        self.det_record.setCurrentText(d.record_before)
        self.det_text.setText(d.text or "")

    def _detachment_form(self, base: dict | None) -> dict:
        d = dict(base or {})
        d["name"] = self.det_name.text().strip() or "Detachment"
        d["from_group"] = self.det_group.currentText()
        d["limits"] = parse_limits(self.det_limits.text() or "squad 1")
        entry = dict(d.get("entry") or {"options": [{"region": {"kind": "map_edge", "direction": "north"}, "turn": 1}]})
        opts = [dict(o) for o in entry["options"]]
        opts[0]["turn"] = self.det_turn.value()
        opts[0]["phase"] = self.det_phase.currentText()
        entry["options"] = opts
        d["entry"] = entry
        d["record_before"] = self.det_record.currentText()
        if self.det_text.text().strip():
            d["text"] = self.det_text.text().strip()
        else:
            d.pop("text", None)
        return d

    def add_detachment(self) -> bool:
        """A new detachment from the form (name, group, limits, turn, phase)."""
        side = self.cur_side
        try:
            det = self._detachment_form(None)
        except ValueError as e:
            QMessageBox.warning(self, "Invalid detachment", str(e))
            return False
        ok = self._edit(f"Add detachment {det['name']}", lambda d: d[side].setdefault("detachments", []).append(det))
        if ok:
            self.detachments.setCurrentRow(self.detachments.count() - 1)
        return ok

    def apply_detachment(self) -> bool:
        r = self.detachments.currentRow()
        side = self.cur_side
        if r < 0:
            return False
        try:
            base = self.doc.data()[side]["detachments"][r]
            det = self._detachment_form(base)
        except (ValueError, KeyError, IndexError) as e:
            QMessageBox.warning(self, "Invalid detachment", str(e))
            return False
        return self._edit(f"Edit detachment {det['name']}", lambda d: d[side]["detachments"].__setitem__(r, det))

    def remove_detachment(self) -> None:
        r = self.detachments.currentRow()
        side = self.cur_side
        if r >= 0:
            self._edit("Remove detachment", lambda d: d[side]["detachments"].pop(r))

    # ------------------------------------------------------------------ infiltration, hidden hexes
    def set_infiltration(self, allowed: bool) -> None:
        """Allow (with a zone: the side's first set-up or entry region until edited) or forbid 24.3."""
        if self._updating or self.doc is None:
            return
        side = self.cur_side
        spec = self.doc.scenario.side(side)
        if bool(spec.infiltration is not None and spec.infiltration.allowed) == allowed:
            return

        def change(d):
            if not allowed:
                d[side].pop("infiltration", None)
                return
            inf = d[side].get("infiltration") or {}
            if "zone" not in inf:
                g = d[side]["groups"][0]
                inf["zone"] = g["setup"]["region"] if "setup" in g else g["entry"]["options"][0]["region"]
            inf["allowed"] = True
            d[side]["infiltration"] = inf

        self._edit(f"{side.capitalize()} infiltration {'allowed' if allowed else 'not allowed'}", change)

    def set_hidden_hexes(self, n: int) -> None:
        if self._updating or self.doc is None:
            return
        side = self.cur_side
        if self.doc.scenario.side(side).hidden_hexes != n:
            self._edit(f"{side.capitalize()} hidden hexes: {n}", lambda d: d[side].__setitem__("hidden_hexes", n))

    # ------------------------------------------------------------------ notes
    def _note_selected(self) -> None:
        if self.doc is None:
            return
        notes = self.doc.scenario.side(self.cur_side).notes
        r = self.notes.currentRow()
        if 0 <= r < len(notes):
            self.note_text.setPlainText(notes[r].text)

    def add_note(self, text: str | None = None) -> bool:
        side = self.cur_side
        t = (text if isinstance(text, str) else self.note_text.toPlainText()).strip()
        if not t:
            return False
        ok = self._edit("Add player note", lambda d: d[side].setdefault("notes", []).append({"text": t}))
        if ok:
            self.notes.setCurrentRow(self.notes.count() - 1)
        return ok

    def apply_note(self) -> bool:
        side, r = self.cur_side, self.notes.currentRow()
        t = self.note_text.toPlainText().strip()
        if r < 0 or not t:
            return False
        return self._edit(f"Edit player note {r + 1}", lambda d: d[side]["notes"][r].__setitem__("text", t))

    def remove_note(self) -> None:
        side, r = self.cur_side, self.notes.currentRow()
        if r >= 0:
            self._edit(f"Remove player note {r + 1}", lambda d: d[side]["notes"].pop(r))


# ============================================================================ groups (OOB dock)

COMPASS_EDGES = ("north", "east", "south", "west")
THROUGH_HEXES = "hexes"


def _region_hexes(doc: ScenarioDocument, region) -> frozenset[str]:
    return doc.resolve(region)[0]


def _edge_directions(region) -> set[str]:
    """The compass words of the map edges a region names (through unions)."""
    out: set[str] = set()
    stack = [region]
    while stack:
        r = stack.pop()
        if getattr(r, "kind", "") == "map_edge":
            out.add(r.direction)
        stack.extend(c for _loc, c in r.children())
    return out


def default_setup_hexes(doc: ScenarioDocument) -> list[str]:
    """A set-up zone for a new group: a hex and its neighbours inside the scenario's playing area
    (its map sections), as far as possible from every zone and entry region the scenario already
    has (both sides), so that new groups land at distinct places; the first lands in the middle
    of the area. Raises ValueError when the sections cover no hex."""
    from maps import hexgrid

    try:
        area = doc.context.area
    except Exception as e:  # noqa: BLE001 - a RegionError of broken sections, said in words
        raise ValueError(f"the scenario's map sections cannot be resolved: {e}") from None
    if not area:
        raise ValueError("the scenario's map sections cover no hex")
    taken: set = set()
    for side in SIDES:
        for g in doc.scenario.side(side).groups:
            regions = [g.setup.region] if g.setup is not None else [o.region for o in g.entry.options]
            for r in regions:
                taken |= {hexgrid.parse_hex_id(h) for h in _region_hexes(doc, r)}
    taken &= area
    # distance (in steps inside the area) from the nearest taken hex: breadth-first from all of them
    dist: dict = {h: 0 for h in taken}
    frontier = list(taken)
    while frontier:
        nxt = []
        for h in frontier:
            for n in hexgrid.neighbours(h):
                if n in area and n not in dist:
                    dist[n] = dist[h] + 1
                    nxt.append(n)
        frontier = nxt
    far = max(dist.values(), default=0) + 1
    cols = [h.col for h in area]
    rows = [h.row for h in area]
    mid = hexgrid.Hex((min(cols) + max(cols)) // 2, (min(rows) + max(rows)) // 2)
    inner = [h for h in area if all(n in area for n in hexgrid.neighbours(h))] or list(area)
    best = min(inner, key=lambda h: (-dist.get(h, far), hexgrid.distance(h, mid), h.id))
    ring = [n for n in hexgrid.neighbours(best) if n in area and n not in taken]
    return sorted(h.id for h in [best, *ring])


def default_entry_edge(doc: ScenarioDocument, side: str) -> str:
    """The first compass edge (north, east, south, west: words of the scenario's north
    indicator) no entering group of ``side`` uses yet; north when all are used."""
    used: set[str] = set()
    for g in doc.scenario.side(side).groups:
        if g.entry is not None:
            for o in g.entry.options:
                used |= _edge_directions(o.region)
    return next((e for e in COMPASS_EDGES if e not in used), COMPASS_EDGES[0])



def unique_group_name(doc: ScenarioDocument, side: str) -> str:
    names = {g.name for g in doc.scenario.side(side).groups}
    n = len(names) + 1
    while f"{side.capitalize()} group {n}" in names:
        n += 1
    return f"{side.capitalize()} group {n}"


def group_values(group) -> dict:
    """The group form's values of an existing group (its entry region kept as it is)."""
    o = group.entry.options[0] if group.entry is not None else None
    nm = next((r for r in group.restrictions if r.kind == "no_movement"), None)
    return {"name": group.name, "deploy": "entry" if o is not None else "setup",
            "turn": o.turn if o is not None else 1, "phase": o.phase if o is not None else "movement",
            "through": "keep", "until_turn": nm.until_turn if nm is not None else None}


def group_json(doc: ScenarioDocument, side: str, values: dict, base: dict | None = None) -> dict:
    """The JSON of a group from the group form's ``values``: ``name``, ``deploy`` ("setup" or
    "entry"), for an entry ``turn``, ``phase`` and ``through`` (a compass edge, "hexes" with
    ``hexes`` text, or "keep": the region it has), and ``until_turn`` (the group may not move
    before that Player Turn; None: no restriction). ``base``: the group edited (its OOB, notes
    and other entry options are kept). A new set-up group gets :func:`default_setup_hexes`.
    Raises ValueError."""
    g = dict(base or {"oob": []})
    name = (values.get("name") or "").strip()
    if not name:
        raise ValueError("a group needs a name")
    others = {x.name for x in doc.scenario.side(side).groups if base is None or x.name != base.get("name")}
    if name in others:
        raise ValueError(f"the {side} side already has a group named {name!r}")
    g["name"] = name
    if values.get("deploy", "setup") == "setup":
        g.pop("entry", None)
        if "setup" not in g:
            g["setup"] = {"region": {"kind": "hexes", "hexes": default_setup_hexes(doc)}}
    else:
        g.pop("setup", None)
        entry = dict(g.get("entry") or {"options": []})
        opts = [dict(o) for o in entry.get("options", [])]
        first = opts[0] if opts else {}
        through = values.get("through") or "keep"
        if through == "keep":
            region = first.get("region") or {"kind": "map_edge", "direction": default_entry_edge(doc, side)}
        elif through == THROUGH_HEXES:
            region = hexes_region(values.get("hexes") or "")
        elif through in COMPASS_EDGES:
            region = {"kind": "map_edge", "direction": through}
        else:
            raise ValueError(f"unknown entry edge {through!r}")
        if region != first.get("region"):
            first = {k: v for k, v in first.items() if k != "text"}
        first.update(region=region, turn=int(values.get("turn") or 1), phase=values.get("phase") or "movement")
        entry["options"] = [first, *opts[1:]]
        g["entry"] = entry
    until = values.get("until_turn")
    keep = [r for r in g.get("restrictions", []) if r.get("kind") != "no_movement"]
    if until:
        old = next((r for r in g.get("restrictions", []) if r.get("kind") == "no_movement"), {})
        keep.append({**old, "kind": "no_movement", "until_turn": int(until)})
    g["restrictions"] = keep
    return g


class GroupDialog(QDialog):
    """Add or edit a group: name; sets up on the map (a zone of its own, painted later in Regions)
    or enters it (turn, phase, a map edge or hexes); "may not move until Player Turn N"."""

    def __init__(self, doc: ScenarioDocument, side: str, group_index: int | None = None, parent=None):
        super().__init__(parent)
        self.doc, self.side, self.index = doc, side, group_index
        g = doc.scenario.side(side).groups[group_index] if group_index is not None else None
        self.setWindowTitle(f"Edit {side} group" if g is not None else f"Add {side} group")
        f = QFormLayout(self)
        self.name = QLineEdit(g.name if g is not None else unique_group_name(doc, side))
        self.deploy = QComboBox()
        self.deploy.addItem("sets up on the map", "setup")
        self.deploy.addItem("enters the map", "entry")
        self.turn = QSpinBox()
        self.turn.setRange(1, max(1, doc.scenario.turns))
        self.phase = QComboBox()
        self.phase.addItems(PHASES)
        self.through = QComboBox()
        for e in COMPASS_EDGES:
            self.through.addItem(f"the {e} map edge", e)
        self.through.addItem("hexes...", THROUGH_HEXES)
        self.hexes = QLineEdit()
        self.hexes.setPlaceholderText("5014, or 3001-3013")
        self.restrict = QCheckBox("may not move until Player Turn")
        self.until = QSpinBox()
        self.until.setRange(2, max(2, doc.scenario.turns))
        self.where = QLabel()
        self.where.setWordWrap(True)
        f.addRow("Name", self.name)
        f.addRow("Deploys", self.deploy)
        f.addRow("", self.where)
        f.addRow("Enters on turn", self.turn)
        f.addRow("Phase", self.phase)
        f.addRow("Through", self.through)
        f.addRow("Hexes", self.hexes)
        row = QHBoxLayout()
        row.addWidget(self.restrict)
        row.addWidget(self.until)
        f.addRow(row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        f.addRow(buttons)
        # initial values
        self.through.setCurrentIndex(self.through.findData(default_entry_edge(doc, side)))
        if g is not None:
            self.deploy.setCurrentIndex(1 if g.entry is not None else 0)
            if g.entry is not None:
                o = g.entry.options[0]
                self.turn.setValue(o.turn)
                self.phase.setCurrentText(o.phase)
                r = o.region
                if r.kind == "map_edge" and r.sections is None:
                    self.through.setCurrentIndex(self.through.findData(r.direction))
                elif r.kind == "hexes":
                    self.through.setCurrentIndex(self.through.findData(THROUGH_HEXES))
                    self.hexes.setText(", ".join(r.hexes))
                elif r.kind == "hex_range":
                    self.through.setCurrentIndex(self.through.findData(THROUGH_HEXES))
                    self.hexes.setText(f"{r.first}-{r.last}")
                else:
                    self.through.insertItem(0, f"as now: {r.describe()}", "keep")
                    self.through.setCurrentIndex(0)
            nm = next((r for r in g.restrictions if r.kind == "no_movement"), None)
            if nm is not None:
                self.restrict.setChecked(True)
                self.until.setValue(nm.until_turn)
        self.deploy.currentIndexChanged.connect(lambda _i: self._enable())
        self.through.currentIndexChanged.connect(lambda _i: self._enable())
        self.restrict.toggled.connect(lambda _on: self._enable())
        self._enable()

    def _enable(self) -> None:
        entry = self.deploy.currentData() == "entry"
        for w in (self.turn, self.phase, self.through):
            w.setEnabled(entry)
        self.hexes.setEnabled(entry and self.through.currentData() == THROUGH_HEXES)
        self.until.setEnabled(self.restrict.isChecked())
        g = self.doc.scenario.side(self.side).groups[self.index] if self.index is not None else None
        if entry:
            self.where.setText("enters in its side's Movement Phase unless the phase says otherwise (24.1)")
        elif g is not None and g.setup is not None:
            self.where.setText(f"set-up zone: {g.setup.region.describe()} (paint it in Regions)")
        else:
            self.where.setText("gets a zone of its own inside the map sections; paint it in Regions")

    def values(self) -> dict:
        """The form as :func:`group_json` reads it."""
        return {"name": self.name.text(), "deploy": self.deploy.currentData(), "turn": self.turn.value(),
                "phase": self.phase.currentText(), "through": self.through.currentData(),
                "hexes": self.hexes.text(), "until_turn": self.until.value() if self.restrict.isChecked() else None}
