"""The Set-up dock: the designer's trial set-up, units to place by group with their zones,
placed units, hidden hexes, mines and IPs."""

from __future__ import annotations

from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.drawing.widgets import wrap_tree_cells
from editor.scenario.document import ScenarioDocument
from editor.scenario.docks.unit_drag import UnitTree
from editor.scenario.wording import SIDES, UNIT_ROLE

__all__ = ["SetupPanel"]


# ============================================================================ set-up

class SetupPanel(QWidget):
    """The designer's trial set-up: units to place by group (with their zones), placed units
    (facing for ATGs, MGs and AFVs; UP or DOWN, 3.12), hidden hexes, mines and IPs per side (18.1),
    the side's set-up caps (24.1), entering units by turn."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: ScenarioDocument | None = None
        lay = QVBoxLayout(self)
        self.tree = UnitTree()
        self.tree.setDragEnabled(True)
        self.tree.setHeaderLabels(["Unit", "Where"])
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setStretchLastSection(False)   # the second column as wide as its text
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        wrap_tree_cells(self.tree)   # the side's marks line across the tree, on as many lines as it needs
        lay.addWidget(self.tree, 1)
        row = QHBoxLayout()
        row.addWidget(QLabel("Facing"))
        self.facing = QSpinBox()
        self.facing.setRange(1, 6)
        row.addWidget(self.facing)
        b = QPushButton("Set facing")
        b.clicked.connect(self._set_facing)
        row.addWidget(b, 1)
        lay.addLayout(row)
        row2 = QHBoxLayout()
        self.down_btn = QPushButton("UP / DOWN")
        self.down_btn.setToolTip("The selected placed unit starts DOWN, or UP again (3.12); Shift+click on the map")
        self.down_btn.clicked.connect(self.toggle_down)
        row2.addWidget(self.down_btn)
        b2 = QPushButton("Remove from map")
        b2.clicked.connect(self._unplace)
        row2.addWidget(b2)
        lay.addLayout(row2)
        # hidden hexes and mines: what the Marks tool (K) puts on the map
        mrow = QHBoxLayout()
        mrow.addWidget(QLabel("Marks (K)"))
        self.mark_side = QComboBox()
        self.mark_side.addItems(SIDES)
        self.mark_mode = QComboBox()
        self.mark_mode.addItems(["hidden hex", "AP mines", "AT mines", "IP"])
        self.mark_factors = QSpinBox()
        self.mark_factors.setRange(1, 7)
        self.mark_factors.setValue(2)
        self.mark_factors.setToolTip("Mine factors in the hex (19.12: AP at most 4, AT 2 to 7); "
                                     "IP: the IP's points (18.1)")
        for wdg in (self.mark_side, self.mark_mode, self.mark_factors):
            mrow.addWidget(wdg)
        lay.addLayout(mrow)
        self.marks = QLabel()
        self.marks.setWordWrap(True)
        lay.addWidget(self.marks)
        self.status = QLabel()
        self.status.setWordWrap(True)
        lay.addWidget(self.status)

    def set_document(self, doc: ScenarioDocument) -> None:
        self.doc = doc
        doc.changed.connect(lambda what: self.refresh())
        self.refresh()

    def selected_unit(self) -> str | None:
        it = self.tree.currentItem()
        return it.data(0, UNIT_ROLE) if it is not None else None

    def select_unit(self, uid: str) -> None:
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            it = stack.pop()
            if it.data(0, UNIT_ROLE) == uid:
                self.tree.setCurrentItem(it)
                return
            stack.extend(it.child(i) for i in range(it.childCount()))

    def refresh(self) -> None:
        cur = self.selected_unit()
        self.tree.clear()
        st = self.doc.setup()
        if st is None:
            self.status.setText(f"Cannot build the forces: {self.doc.setup_error()}")
            return
        sc = self.doc.scenario
        for side in (sc.sets_up_first, "russian" if sc.sets_up_first == "german" else "german"):
            spec = sc.side(side)
            top = QTreeWidgetItem([f"{side.capitalize()} sets up" if side == sc.sets_up_first else
                                   f"{side.capitalize()}", ""])
            self.tree.addTopLevelItem(top)
            for d in [d for d in st.deployments if d.side == side]:
                g = QTreeWidgetItem([d.group, f"zone of {len(d.zone)} hexes"])
                top.addChild(g)
                for uid in d.units:
                    u = st.units[uid]
                    p = self.doc.placement.get(uid)
                    where = (f"{p.hex}" + (f", facing {p.facing}" if p.facing else "") + (", DOWN" if p.down else "")
                             if p else "not placed")
                    c = QTreeWidgetItem([f"{u.name or uid}  [{uid}]", where])
                    c.setData(0, UNIT_ROLE, uid)
                    if p is None:
                        c.setForeground(1, QBrush(QColor(150, 90, 0)))
                    g.addChild(c)
            by_turn: dict[int, list] = {}
            for e in [e for e in st.entries if e.side == side]:
                by_turn.setdefault(e.turn, []).append(e)
            for turn in sorted(by_turn):
                t = QTreeWidgetItem([f"Enter on turn {turn}", ""])
                top.addChild(t)
                for e in by_turn[turn]:
                    g = QTreeWidgetItem([e.group, f"{len(e.hexes)} entry hexes"
                                         + ("" if e.phase.value == "movement" else f", {e.phase.value}")])
                    t.addChild(g)
                    for uid in e.units:
                        g.addChild(QTreeWidgetItem([f"{st.units[uid].name or uid}  [{uid}]", "enters"]))
            extra = []
            if spec.hidden_hexes:
                extra.append(f"hidden hexes: {spec.hidden_hexes}")
            for t in ("AT", "AP"):
                if spec.mine_factors(t):
                    extra.append(f"{t} mine factors: {spec.mine_factors(t)}")
            if spec.ips():
                # "IP1 x 3" kept on one line where the row wraps (no-break spaces)
                extra.append("IPs: " + ", ".join(f"IP{e.points}\u00a0x\u00a0{e.count}" for e in spec.ips()))
            if spec.infiltration is not None and spec.infiltration.allowed:
                extra.append("may infiltrate")
            if extra:   # across both columns (nothing is placed for it), wrapped
                line = QTreeWidgetItem(["; ".join(extra), ""])
                top.addChild(line)
                line.setFirstColumnSpanned(True)
        self.tree.expandAll()
        if cur:
            self.select_unit(cur)
        lines = []
        for side in SIDES:
            n = self.doc.scenario.side(side).hidden_hexes
            hh = sorted(h for h, s in self.doc.hidden.items() if s == side)
            ap, at, _z = self.doc.mine_allotment(side)
            pap, pat = self.doc.mines_placed(side)
            parts = []
            if n:
                parts.append(f"hidden hexes {len(hh)}/{n}" + (f" ({', '.join(hh)})" if hh else ""))
            if ap:
                parts.append(f"AP mines {pap}/{ap}")
            if at:
                parts.append(f"AT mines {pat}/{at}")
            have: dict[int, int] = {}
            for pts, _z, _g in self.doc.ip_allotment(side):
                have[pts] = have.get(pts, 0) + 1
            for pts in sorted(have, reverse=True):   # 18.1 the side's IPs, placed / in the OOB
                placed_ip = sum(1 for i in self.doc.ips.values() if i["side"] == side and i["points"] == pts)
                parts.append(f"IP{pts} {placed_ip}/{have[pts]}")
            for cap in self.doc.scenario.side(side).caps:
                parts.append(f"cap: {cap.describe()}")
            if parts:
                lines.append(f"{side.capitalize()}: " + "; ".join(parts))
        self.marks.setText("\n".join(lines) or "No hidden hexes or mines in this scenario.")
        placed = len(self.doc.placement)
        bad = self.doc.setup_problem_hexes()
        self.status.setText(f"{placed} of {sum(len(d.units) for d in st.deployments)} set-up units placed. "
                            "Drag a unit from this list or the OOB onto the map (Place tool), or select it "
                            "and click a hex." + (f"\nSet-up problems in {', '.join(sorted(bad))} (red on the map, "
                                                  "listed in the Validation dock)." if bad else ""))

    def _set_facing(self) -> None:
        uid = self.selected_unit()
        if uid:
            self.doc.set_facing(uid, self.facing.value())

    def _unplace(self) -> None:
        uid = self.selected_unit()
        if uid:
            self.doc.unplace(uid)

    def toggle_down(self) -> bool:
        """The selected placed unit starts DOWN, or UP again (3.12); False when none is placed."""
        uid = self.selected_unit()
        p = self.doc.placement.get(uid) if uid else None
        return p is not None and self.doc.set_down(uid, not p.down)
