"""The scenario's Roster panel: the roster the scenario is played with, and forms to extend it.

The panel lists the merged roster (:attr:`editor.scenario.document.ScenarioDocument.roster`: the
shipped roster, or the counters file the scenario names, with the scenario's own ``roster``
block) per side, each counter's values with their provenance, and shows distinctly what the
scenario changes: a counter (or type) the scenario adds is marked ``+`` on green, a value it
overrides ``*`` in bold on blue; white values come from the rulebook, amber ones are
reconstructed. Forms (:class:`RosterEntryDialog`) add a squad (letter, side, its men with weapon
and PR), a commander, a crew weapon or an AFV (of a type of the roster or of a new type with its
values), and override one value of a shipped counter; double-clicking a value changes it (an
override of a shipped counter, or the addition's own value); *Remove* takes back an addition or
an override. Each change is one undo step on the scenario's ``QUndoStack``
(:meth:`ScenarioDocument.edit_roster`) and is refused, with the problem in words, when the
result does not validate. Everything is saved in the scenario file: the shipped counters file is
never written.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.scenario.document import ScenarioDocument
from editor.drawing.widgets import button_grid
from editor.scenario.builders.roster_entry_dialog import RosterEntryDialog
from editor.scenario.builders.roster_values import (
    ADDED_COLOUR,
    AFV_VALUES,
    CW_VALUES,
    KEY_ROLE,
    LEGEND,
    PROV_COLOURS,
    SIDES,
    _fmt,
    parse_value,
    refusal,
)

__all__ = ["RosterPanel"]



class RosterPanel(QWidget):
    """The merged roster of the scenario, per side, with the forms that add and override counters."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: ScenarioDocument | None = None
        #: ask(title, label, default) -> text or None (the window's prompt; tests set one)
        self.prompt = None
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.side = QComboBox()
        self.side.addItems(SIDES)
        self.side.currentTextChanged.connect(lambda _t: self.refresh())
        top.addWidget(self.side)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        top.addWidget(self.summary, 1)
        lay.addLayout(top)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Counter", "Value", "Provenance"])
        self.tree.itemDoubleClicked.connect(self._edit)
        # the counter's name in full (a narrow dock scrolls sideways rather than eliding it)
        self.tree.header().setStretchLastSection(True)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        lay.addWidget(self.tree, 1)
        self.prov = QLabel()
        self.prov.setWordWrap(True)
        lay.addWidget(self.prov)
        self.tree.currentItemChanged.connect(lambda it, _p: it is not None and self.prov.setText(it.toolTip(0)))
        self.problems = QLabel()
        self.problems.setWordWrap(True)
        self.problems.setStyleSheet("color: #a00000")
        lay.addWidget(self.problems)
        self.legend = QLabel(LEGEND)
        self.legend.setWordWrap(True)
        f = self.legend.font()
        f.setPointSizeF(f.pointSizeF() * 0.9)
        self.legend.setFont(f)
        lay.addWidget(self.legend)
        lay.addLayout(button_grid([("Add squad...", lambda: self.open_form("squad")),
                                   ("Add commander...", lambda: self.open_form("commander")),
                                   ("Add CW...", lambda: self.open_form("crew_weapon")),
                                   ("Add AFV...", lambda: self.open_form("afv")),
                                   ("Override value...", lambda: self.open_form("override")),
                                   ("Remove", self.remove_selected)]))

    # ------------------------------------------------------------------ document
    def set_document(self, doc: ScenarioDocument) -> None:
        if self.doc is not None:
            try:
                self.doc.changed.disconnect(self._doc_changed)
            except (RuntimeError, TypeError):
                pass
        self.doc = doc
        doc.changed.connect(self._doc_changed)
        self.refresh()

    def _doc_changed(self, what: str) -> None:
        if what == "scenario":
            self.refresh()

    @property
    def roster(self):
        """The merged roster shown (None without a document)."""
        return self.doc.roster if self.doc is not None else None

    def _block(self):
        return self.doc.scenario.roster if self.doc is not None else None

    # ------------------------------------------------------------------ view
    def type_name(self, u) -> str:
        """The type's name from the roster (``description``, without the rule reference)."""
        if u.kind not in ("cw", "afv"):
            return ""
        side = getattr(self.roster.document, u.side)
        t = (side.cw_types if u.kind == "cw" else side.afv_types).get(u.type)
        d = (getattr(t, "description", None) or "") if t is not None else ""
        return re.sub(r"\s*\([0-9.]+\)\s*$", "", d)

    def _counts(self) -> str:
        b = self._block()
        if b is None or b.is_empty():
            base = self.doc.base_roster.path.name if self.doc.base_roster.path else "the base roster"
            return f"this scenario adds and overrides nothing ({base})"
        kinds: dict[str, int] = {}
        for a in b.add:
            kinds[a.kind] = kinds.get(a.kind, 0) + 1
        words = {"squad": "squad", "commander": "commander", "cw_type": "CW type", "crew_weapon": "CW",
                 "afv_type": "AFV type", "afv": "AFV"}
        parts = [f"{n} {words[k]}{'s' if n > 1 else ''}" for k, n in kinds.items()]
        out = "this scenario adds " + ", ".join(parts) if parts else "this scenario adds nothing"
        if b.override:
            out += f"; overrides {len(b.override)} value{'s' if len(b.override) > 1 else ''}"
        return out

    def _expanded(self) -> set:
        out = set()

        def walk(it):
            if it.isExpanded():
                out.add(it.text(0) if _key(it) is None else repr(_key(it)))
            for i in range(it.childCount()):
                walk(it.child(i))

        for i in range(self.tree.topLevelItemCount()):
            walk(self.tree.topLevelItem(i))
        return out

    def refresh(self) -> None:
        from scenarios.counters import VALUE_FIELDS
        from scenarios.scenario_roster import roster_block_problems

        expanded = self._expanded()
        cur = self.tree.currentItem()
        cur_key = _key(cur) if cur is not None else None
        self.tree.clear()
        if self.doc is None:
            self.summary.clear()
            return
        r = self.roster
        side = self.side.currentText()
        merged = hasattr(r, "origin")
        self.summary.setText(f"{r.summary()}; {self._counts()}")
        problems = [] if merged else roster_block_problems(self.doc.base_roster, self._block())
        self.problems.setText("" if not problems else "The scenario's roster does not validate, so the base roster "
                              "is shown:\n" + "\n".join(str(p) for p in problems))
        groups: dict[str, QTreeWidgetItem] = {}
        select = None

        def group(key: str, data=None, added: bool = False) -> QTreeWidgetItem:
            if key not in groups:
                it = QTreeWidgetItem([("+ " if added else "") + key])
                it.setData(0, KEY_ROLE, data)
                if added:
                    self._paint(it, ADDED_COLOUR)
                    it.setToolTip(0, f"{key}: added by this scenario")
                self.tree.addTopLevelItem(it)
                groups[key] = it
            return groups[key]

        for u in r.units(side):
            origin = r.origin(u.id) if merged else "shipped"
            if u.kind == "infantry":
                sq_added = merged and (side, "squad", u.squad) in r.added
                parent = group(f"Squad {u.squad}", ("squad", side, u.squad) if sq_added else None, sq_added)
                desc = r.squad(side, u.squad).description
                if desc and not parent.toolTip(0).endswith(desc):
                    parent.setToolTip(0, (parent.toolTip(0) + "; " if parent.toolTip(0) else f"Squad {u.squad}: ")
                                      + desc)
            else:
                parent = group({"commander": "Commanders", "cw": "Crew weapons", "afv": "AFVs"}[u.kind])
            label = {"infantry": lambda: f"{u.id} {u.weapon}", "commander": lambda: f"{u.id} {u.rank}",
                     "cw": lambda: f"{u.id} {u.type} #{u.number}",
                     "afv": lambda: f"{u.id} {u.type} #{u.number}"}[u.kind]()
            mark = {"added": "+ ", "overridden": "* "}.get(origin, "")
            tname = self.type_name(u)
            ui = QTreeWidgetItem([mark + label + (f"  ({tname})" if tname else ""), f"PR{u.pr}"])
            ui.setData(0, KEY_ROLE, ("unit", u.id))
            if origin == "added":
                tip = f"{u.id}: a counter this scenario adds ($.roster.add[{r.added[u.id]}])"
            elif origin == "overridden":
                tip = f"{u.id}: this scenario overrides {', '.join(r.overridden[u.id])}"
            else:
                tip = f"{u.id}: as in the base roster"
            ui.setToolTip(0, tip + (f"; {tname}" if tname else ""))
            if origin == "added":
                self._paint(ui, ADDED_COLOUR)
            parent.addChild(ui)
            for f in VALUE_FIELDS[u.kind]:
                p = u.provenance_of(f)
                c = QTreeWidgetItem([f, _fmt(getattr(u, f, None)), p.short()])
                c.setData(0, KEY_ROLE, ("value", u.id, f))
                over = merged and r.override_index(u.id, f) is not None
                tip = p.rationale or p.ref or ""
                c.setToolTip(0, f"{u.id} {f}: {p.source}{' - ' + tip if tip else ''}"
                                + (" (overridden by this scenario)" if over else ""))
                self._paint(c, PROV_COLOURS.get(p.source, QColor(255, 255, 255)))
                if over:
                    c.setText(0, "* " + f)
                    self._bold(c)
                ui.addChild(c)
        if merged:   # the types this scenario adds, with their values
            for (s, kind, t), i in ((k, v) for k, v in r.added.items() if isinstance(k, tuple) and k[1] != "squad"):
                if s != side:
                    continue
                a = r.block.add[i]
                it = group(f"{'CW' if kind == 'cw_type' else 'AFV'} type {t}", ("type", i), True)
                for f in (CW_VALUES if kind == "cw_type" else AFV_VALUES):
                    c = QTreeWidgetItem([f, _fmt(getattr(a, f, None)), a.provenance_or_designer().short()])
                    c.setData(0, KEY_ROLE, ("type_value", i, f))
                    c.setToolTip(0, f"{t} {f}: a value of the type this scenario adds ($.roster.add[{i}])")
                    self._paint(c, PROV_COLOURS["designer"])
                    it.addChild(c)

        def restore(it):
            nonlocal select
            key = _key(it)
            if (it.text(0) if key is None else repr(key)) in expanded:
                it.setExpanded(True)
            if cur_key is not None and key == cur_key:
                select = it
            for i in range(it.childCount()):
                restore(it.child(i))

        for i in range(self.tree.topLevelItemCount()):
            restore(self.tree.topLevelItem(i))
        if select is not None:
            self.tree.setCurrentItem(select)

    @staticmethod
    def _paint(it: QTreeWidgetItem, colour: QColor) -> None:
        for k in range(3):
            it.setBackground(k, QBrush(colour))

    @staticmethod
    def _bold(it: QTreeWidgetItem) -> None:
        f = QFont(it.font(0))
        f.setBold(True)
        for k in range(3):
            it.setFont(k, f)

    def items(self) -> list[QTreeWidgetItem]:
        """Every item of the tree (depth first)."""
        out = []

        def walk(it):
            out.append(it)
            for i in range(it.childCount()):
                walk(it.child(i))

        for i in range(self.tree.topLevelItemCount()):
            walk(self.tree.topLevelItem(i))
        return out

    def item(self, key: tuple) -> QTreeWidgetItem | None:
        return next((it for it in self.items() if _key(it) == tuple(key)), None)

    # ------------------------------------------------------------------ edits (each one undo step)
    def _edit_block(self, text: str, change) -> None:
        if self.doc is None:
            raise ValueError("no scenario is open")
        self.doc.edit_roster(text, change)

    def add_entry(self, entry: dict, text: str | None = None) -> None:
        """Add one addition (the JSON of :mod:`scenarios.scenario_roster`); raises ValueError."""
        self._edit_block(text or f"Roster: add {_describe(entry)}", lambda b: b["add"].append(entry))

    def add_squad(self, side: str, letter: str, men: list, description: str | None = None,
                  note: str | None = None) -> None:
        """Add Squad ``letter`` of ``side``: ``men`` in counter order, ``(weapon, pr)`` pairs or
        ``{"weapon", "pr", ...}``. Raises ValueError (a letter the roster has, a PR outside 2-12 ...)."""
        ms = [dict(m) if isinstance(m, dict) else {"weapon": m[0], "pr": m[1]} for m in men]
        e = {"kind": "squad", "side": side, "letter": str(letter).strip().upper(),
             **({"description": description} if description else {}), "men": ms}
        self.add_entry(_with_provenance(e, note))

    def add_commander(self, side: str, rank: str, number: int, pr: int, weapon: str = "MP",
                      note: str | None = None) -> None:
        """Add a commander (PL, APL, PS) with its ID number, weapon and PR; raises ValueError."""
        self.add_entry(_with_provenance({"kind": "commander", "side": side, "rank": rank, "number": number,
                                         "weapon": weapon, "pr": pr}, note))

    def _add_numbered(self, kind: str, side: str, type_: str, number: int, values: dict | None,
                      description: str | None, note: str | None) -> None:
        r = self.roster
        sd = getattr(r.document, side)
        types = sd.afv_types if kind == "afv" else sd.cw_types
        known = (r.afv_type if kind == "afv" else r.crew_weapon_type)
        values = {k: v for k, v in (values or {}).items()}
        try:
            t = known(side, type_)
        except KeyError:
            t = None
        entries = []
        if t is None:   # a new type: the values define it; the counter takes them all
            te = {"kind": "afv_type" if kind == "afv" else "cw_type", "side": side, "type": str(type_).strip(),
                  **({"description": description} if description else {}),
                  **{k: v for k, v in values.items() if v is not None}}
            entries.append(_with_provenance(te, note))
            own = {}
            t = te["type"]
        else:           # a counter of a known type: only the values that differ are its own
            tp = types[t]
            own = {k: v for k, v in values.items() if v != getattr(tp, k, None) and v is not None}
        ce = {"kind": kind, "side": side, "type": t, "number": number, **own}
        entries.append(_with_provenance(ce, note))
        what = f"{side} {'AFV' if kind == 'afv' else 'CW'} {t} #{number}" + (" (new type)" if len(entries) > 1 else "")
        self._edit_block(f"Roster: add {what}", lambda b: b["add"].extend(entries))

    def add_crew_weapon(self, side: str, type_: str, number: int, values: dict | None = None,
                        description: str | None = None, note: str | None = None) -> None:
        """Add CW ``type_`` #``number``: of a type of the roster (``values`` that differ from the
        type become the counter's own) or of a new type (``values`` define it; one undo step
        adds both). Raises ValueError."""
        self._add_numbered("crew_weapon", side, type_, number, values, description, note)

    def add_afv(self, side: str, type_: str, number: int, values: dict | None = None,
                description: str | None = None, note: str | None = None) -> None:
        """Add AFV ``type_`` #``number`` (as :meth:`add_crew_weapon`, for AFVs); raises ValueError."""
        self._add_numbered("afv", side, type_, number, values, description, note)

    def set_value(self, uid: str, field: str, value: Any, note: str | None = None) -> None:
        """Change one value of counter ``uid``: a counter this scenario adds changes in its entry;
        a shipped counter gets an override (marked ``designer``; the shipped value again removes
        it). Raises ValueError (KeyError for an unknown counter)."""
        from scenarios.scenario_roster import OVERRIDE_FIELDS

        r = self.roster
        u = r.unit(uid)
        if field not in OVERRIDE_FIELDS[u.kind]:
            raise ValueError(f"{uid}: {field} cannot be changed; the values are {', '.join(OVERRIDE_FIELDS[u.kind])}")
        if hasattr(r, "added") and uid in r.added:
            i = r.added[uid]

            def change(b):
                e = b["add"][i]
                target = e["men"][u.index - 1] if e["kind"] == "squad" else e
                if value is None:
                    target.pop(field, None)
                else:
                    target[field] = value

            self._edit_block(f"Roster: {uid} {field} = {_fmt(value)}", change)
            return
        base = self.doc.base_roster.unit(uid)
        same = getattr(base, field) == (tuple(value) if isinstance(value, list) else value)
        j = r.override_index(uid, field) if hasattr(r, "override_index") else None

        def change(b):
            if same:
                if j is not None:
                    del b["override"][j]
                return
            o = {"unit": uid, "field": field, "value": value, "provenance": {"source": "designer"}}
            if j is not None:
                old = b["override"][j]
                o = {**old, "value": value}
            if note:
                o["note"] = note
            if j is not None:
                b["override"][j] = o
            else:
                b["override"].append(o)

        self._edit_block(f"Roster: {uid} {field} = {_fmt(value)}" + (" (shipped value)" if same else " (override)"),
                         change)

    def set_type_value(self, index: int, field: str, value: Any) -> None:
        """Change one value of a type this scenario adds (``block.add[index]``); raises ValueError."""
        def change(b):
            if value is None:
                b["add"][index].pop(field, None)
            else:
                b["add"][index][field] = value

        self._edit_block(f"Roster: {self._block().add[index].type} {field} = {_fmt(value)}", change)

    def remove_addition(self, index: int) -> None:
        """Take back ``block.add[index]`` (a squad with its men, a counter, a type); raises ValueError
        when something still needs it (a counter of an added type)."""
        e = self._block().add[index]
        self._edit_block(f"Roster: remove {_describe(e.model_dump(mode='json', exclude_none=True))}",
                         lambda b: b["add"].pop(index))

    def remove_override(self, uid: str, field: str | None = None) -> None:
        """Remove the override of ``uid``'s ``field`` (None: every override of ``uid``)."""
        r = self.roster
        idx = sorted((j for f, j in r.overridden.get(uid, {}).items() if field is None or f == field), reverse=True)
        if not idx:
            raise ValueError(f"this scenario overrides no value of {uid}{' ' + field if field else ''}")

        def change(b):
            for j in idx:
                del b["override"][j]

        self._edit_block(f"Roster: {uid} {field or 'values'} back to the shipped value"
                         f"{'s' if field is None and len(idx) > 1 else ''}", change)

    def remove_key(self, key: tuple) -> None:
        """Remove what the tree item of ``key`` stands for; raises ValueError with why not."""
        r = self.roster
        kind = key[0]
        if kind == "squad":
            _, side, letter = key
            return self.remove_addition(r.added[(side, "squad", letter)])
        if kind == "type":
            return self.remove_addition(key[1])
        if kind in ("unit", "value"):
            uid = key[1]
            if uid in getattr(r, "added", {}):
                return self.remove_addition(r.added[uid])
            if uid in getattr(r, "overridden", {}):
                return self.remove_override(uid, key[2] if kind == "value" and key[2] in r.overridden[uid] else None)
            raise ValueError(f"{uid} is a counter of the base roster: it cannot be removed (leave it out of the "
                             "OOB), and this scenario overrides none of its values")
        raise ValueError("select an added counter, an added type or an overridden value to remove it")

    def remove_selected(self) -> None:
        it = self.tree.currentItem()
        key = _key(it) if it is not None else None
        if key is None:
            self.prov.setText("Select an added counter, an added type or an overridden value to remove it.")
            return
        try:
            self.remove_key(key)
        except (ValueError, KeyError) as e:
            QMessageBox.warning(self, "Cannot remove", refusal(e))

    # ------------------------------------------------------------------ interaction
    def _edit(self, item: QTreeWidgetItem, _col: int) -> None:
        key = _key(item)
        if not key or key[0] not in ("value", "type_value"):
            return
        ask = self.prompt
        if ask is None:
            from editor.drawing.tool import ToolContext

            ask = ToolContext._ask
        field = key[2]
        t = ask("Change counter value", f"{key[1] if key[0] == 'value' else 'type'} {field}:", item.text(1))
        if t is None:
            return
        try:
            v = parse_value(field, t)
            if key[0] == "value":
                self.set_value(key[1], field, v)
            else:
                self.set_type_value(key[1], field, v)
        except (ValueError, KeyError) as e:
            QMessageBox.warning(self, "Cannot change the value", refusal(e))

    def open_form(self, kind: str) -> bool:
        """Show the form of ``kind`` (``squad``, ``commander``, ``crew_weapon``, ``afv``,
        ``override``); True when it changed the roster."""
        if self.doc is None:
            return False
        dlg = RosterEntryDialog(self, kind)
        accepted = dlg.exec() == QDialog.DialogCode.Accepted
        dlg.deleteLater()   # a form made for each call: never left behind as the panel's child
        return accepted

    def current_unit(self) -> tuple[str | None, str | None]:
        """(unit id, field) of the selected tree item."""
        it = self.tree.currentItem()
        key = _key(it) if it is not None else None
        if key and key[0] in ("unit", "value"):
            return key[1], (key[2] if key[0] == "value" else None)
        return None, None


def _key(it: QTreeWidgetItem) -> tuple | None:
    """The key of a tree item (``("unit", id)``, ``("value", id, field)``, ``("squad", side,
    letter)``, ``("type", index)``, ``("type_value", index, field)``) or None."""
    k = it.data(0, KEY_ROLE)
    return tuple(k) if k is not None else None


def _with_provenance(e: dict, note: str | None) -> dict:
    e["provenance"] = {"source": "designer"}
    if note:
        e["note"] = note
    return e


def _describe(e: dict) -> str:
    k = e.get("kind")
    s = e.get("side", "")
    if k == "squad":
        return f"{s} Squad {e.get('letter')} ({len(e.get('men', []))} men)"
    if k == "commander":
        return f"{s} {e.get('rank')} #{e.get('number')} PR{e.get('pr')}"
    if k in ("cw_type", "afv_type"):
        return f"{s} {'CW' if k == 'cw_type' else 'AFV'} type {e.get('type')}"
    return f"{s} {'AFV' if k == 'afv' else 'CW'} {e.get('type')} #{e.get('number')}"
