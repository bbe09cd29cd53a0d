"""The scenario form of any rule system: a tree built from the system's JSON schema.

A scenario file of a system other than the forms' (``editor/scenario/system/scenario.py``) is edited here
with no knowledge of its rules: the tree shows the file's JSON (objects and lists as branches,
values as leaves); the editor under it is chosen from the system's ``scenario_schema()`` (strings,
numbers with their bounds, booleans, enums and constants as combo boxes) and ``scenario_hints()``
(``core.rule_system.RuleSystem``: roster references, compass hexsides and table rows as combo
boxes of their ``choices``; ``hexes`` and ``hex_lists`` set by clicking the map with the
:class:`FormPickTool`, the picked hexes highlighted; ``templates`` for new list items; ``unique``
ids made fresh on Add and Duplicate). Lists have Add / Duplicate / Remove, objects *Add field* for
an optional key and *Remove field*. Every edit is one step of the document's ``QUndoStack``
(:class:`DataCommand`, the whole JSON before and after), and the document validates the JSON in
memory through the system after each (``SystemScenarioDocument.validation``); problems are listed
with their JSON path and the tree's items at those paths are marked red.

:func:`dump_like` writes the JSON keeping the layout of the file it was loaded from (key order,
indentation, which objects and lists were written on one line); an unchanged file is written back
byte for byte.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any, Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QUndoCommand
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.drawing.tool import Tool
from maps import hexgrid
from maps.document_file import json_path

__all__ = ["DataCommand", "SystemForm", "FormPickTool", "loc_pattern", "schema_at", "default_for", "dump_like",
           "parse_path"]


# ------------------------------------------------------------------------------ JSON paths
def loc_pattern(loc: tuple) -> str:
    """The hint pattern of a location: ``("german", "groups", 0, "units")`` -> ``$.german.groups[*].units``."""
    return json_path(tuple("*" if isinstance(p, int) else p for p in loc)).replace(".*", "[*]")


def parse_path(path: str) -> tuple:
    """``$.german.groups[0].name`` -> ``("german", "groups", 0, "name")`` (a problem's path)."""
    out: list = []
    for key, idx in re.findall(r"\.([^.\[\]]+)|\[(\d+)\]", path):
        out.append(int(idx) if idx else key)
    return tuple(out)


def get_at(data: Any, loc: tuple) -> Any:
    for p in loc:
        data = data[p]
    return data


# ------------------------------------------------------------------------------ the schema
def _resolve(root: dict, node: dict | None) -> dict:
    node = node or {}
    while "$ref" in node:
        node = root.get("$defs", {}).get(node["$ref"].rsplit("/", 1)[-1], {})
    return node


_PY_TYPES = {"string": str, "integer": int, "number": (int, float), "boolean": bool, "array": list, "object": dict,
             "null": type(None)}


def _branch(root: dict, node: dict, value: Any = None) -> dict:
    """``node`` resolved; of an ``anyOf``, the branch that fits ``value`` (else the first not null)."""
    node = _resolve(root, node)
    if "anyOf" not in node:
        return node
    opts = [_resolve(root, b) for b in node["anyOf"]]
    for b in opts:
        t = b.get("type")
        if t and value is not None and isinstance(value, _PY_TYPES.get(t, object)) and \
                not (t in ("integer", "number") and isinstance(value, bool)):
            return {**{k: v for k, v in node.items() if k != "anyOf"}, **b}
    b = next((b for b in opts if b.get("type") != "null"), {})
    return {**{k: v for k, v in node.items() if k != "anyOf"}, **b}


def nullable(root: dict, node: dict) -> bool:
    node = _resolve(root, node)
    return any(_resolve(root, b).get("type") == "null" for b in node.get("anyOf", ()))


def _child(root: dict, node: dict, key: Any, value: Any = None) -> dict:
    node = _branch(root, node, value)
    if isinstance(key, int):
        pre = node.get("prefixItems")
        if pre and key < len(pre):
            return pre[key]
        return node.get("items") or {}
    props = node.get("properties") or {}
    if key in props:
        return props[key]
    ap = node.get("additionalProperties")
    return ap if isinstance(ap, dict) else {}


def schema_at(root: dict, loc: tuple, data: Any) -> dict:
    """The schema node (resolved, the ``anyOf`` branch that fits the value) at ``loc`` of ``data``."""
    node: dict = root
    cur = data
    for p in loc:
        node = _child(root, node, p, cur)
        try:
            cur = cur[p]
        except (KeyError, IndexError, TypeError):
            cur = None
    return _branch(root, node, cur)


def default_for(root: dict, node: dict) -> Any:
    """A plausible new value for a schema node: its default, constant, first enum value, minimum;
    an object with its required keys; a list with its minimum of items."""
    node = _branch(root, node)
    if "default" in node and node["default"] is not None:
        return copy.deepcopy(node["default"])
    if "const" in node:
        return node["const"]
    if node.get("enum"):
        return node["enum"][0]
    t = node.get("type")
    if t == "object":
        props = node.get("properties") or {}
        return {k: default_for(root, props[k]) for k in node.get("required", ()) if k in props}
    if t == "array":
        if node.get("prefixItems"):
            return [default_for(root, x) for x in node["prefixItems"]]
        return [default_for(root, node.get("items") or {}) for _ in range(int(node.get("minItems", 0)))]
    if t == "integer":
        return int(node.get("minimum", node.get("exclusiveMinimum", -1) + 1 if "exclusiveMinimum" in node else 0))
    if t == "number":
        return float(node.get("minimum", 1.0 if "exclusiveMinimum" in node else 0.0))
    if t == "boolean":
        return False
    if t == "string":
        return ""
    return None


# ------------------------------------------------------------------------------ layout-keeping JSON
class _Node:
    __slots__ = ("value", "start", "end", "children")

    def __init__(self, value, start, end, children):
        self.value, self.start, self.end, self.children = value, start, end, children


_DEC = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")


def _parse(text: str, i: int) -> tuple[_Node, int]:
    i = _WS.match(text, i).end()
    c = text[i]
    if c == "{":
        j = _WS.match(text, i + 1).end()
        kids: dict = {}
        value: dict = {}
        if text[j] == "}":
            return _Node(value, i, j + 1, kids), j + 1
        while True:
            j = _WS.match(text, j).end()
            key, j = _DEC.raw_decode(text, j)
            j = _WS.match(text, j).end() + 1   # ':'
            node, j = _parse(text, j)
            kids[key], value[key] = node, node.value
            j = _WS.match(text, j).end()
            if text[j] == "}":
                return _Node(value, i, j + 1, kids), j + 1
            j += 1   # ','
    if c == "[":
        j = _WS.match(text, i + 1).end()
        items: list = []
        if text[j] == "]":
            return _Node([], i, j + 1, items), j + 1
        while True:
            node, j = _parse(text, j)
            items.append(node)
            j = _WS.match(text, j).end()
            if text[j] == "]":
                return _Node([n.value for n in items], i, j + 1, items), j + 1
            j += 1
    value, j = _DEC.raw_decode(text, i)
    return _Node(value, i, j, None), j


def _house(value: Any, indent: str, level: int, width: int = 110) -> str:
    """A value never seen in the layout: on one line when short, else one value a line."""
    one = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or not value or len(one) + len(indent) * level <= width:
        return one
    pad, inner = indent * level, indent * (level + 1)
    if isinstance(value, dict):
        body = ",\n".join(f"{inner}{json.dumps(k, ensure_ascii=False)}: {_house(v, indent, level + 1, width)}"
                          for k, v in value.items())
        return "{\n" + body + "\n" + pad + "}"
    return "[\n" + ",\n".join(inner + _house(v, indent, level + 1, width) for v in value) + "\n" + pad + "]"


def _dump(value: Any, node: _Node | None, text: str, indent: str, level: int) -> str:
    if node is None:
        return _house(value, indent, level)
    if node.value == value and type(node.value) is type(value):
        return text[node.start:node.end]
    if not isinstance(value, (dict, list)) or type(value) is not type(node.value):
        return _house(value, indent, level)
    raw = text[node.start:node.end]
    if "\n" not in raw:   # written on one line: it stays on one line
        return json.dumps(value, ensure_ascii=False)
    pad, inner = indent * level, indent * (level + 1)
    if isinstance(value, dict):
        kids = node.children
        parts = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_dump(v, kids.get(k), text, indent, level + 1)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(parts) + "\n" + pad + "}" if parts else "{}"
    olds = list(node.children)
    parts = []
    for i, v in enumerate(value):   # an item keeps the layout of an equal old item, else of the one at its place
        match = next((o for o in olds if o.value == v), None) or (olds[i] if i < len(olds) else None)
        parts.append(inner + _dump(v, match, text, indent, level + 1))
    return "[\n" + ",\n".join(parts) + "\n" + pad + "]" if parts else "[]"


def dump_like(value: Any, layout: str | None) -> str:
    """The file text of ``value`` keeping the layout of ``layout`` (the text it was loaded from):
    key order as in ``value`` (the loaded order; new keys last), the file's indentation, objects
    and lists on one line where the file had them so, unchanged parts byte for byte; new parts in
    the house style (one space indent, short values on one line). Ends with a newline."""
    if not layout:
        return _house(value, " ", 0, 0 if isinstance(value, dict) else 110) + "\n"
    try:
        node, _ = _parse(layout, 0)
    except (ValueError, IndexError):
        return _house(value, " ", 0) + "\n"
    m = re.search(r"\n([ \t]+)\S", layout)
    indent = m.group(1) if m else " "
    return _dump(value, node, layout, indent, 0).rstrip("\n") + "\n"


# ------------------------------------------------------------------------------ undo
class DataCommand(QUndoCommand):
    """One edit of a system scenario document: its whole JSON before and after."""

    def __init__(self, doc, text: str, before: Any, after: Any):
        super().__init__(text)
        self.doc, self.before, self.after = doc, before, after

    def redo(self) -> None:
        self.doc.set_data(copy.deepcopy(self.after))

    def undo(self) -> None:
        self.doc.set_data(copy.deepcopy(self.before))


# ------------------------------------------------------------------------------ the map click
class FormPickTool(Tool):
    """Sets the selected hex field of the scenario form, or adds / removes the clicked hex to /
    from the selected hex list (another rule system's scenario)."""

    name = "formpick"
    label = "Pick hexes (form)"
    help = "Pick: click hexes to add them to the selected hex list (click again to remove) or to set the selected hex"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.form: SystemForm | None = None

    def press(self, ev) -> None:
        if not ev.on_map or self.form is None:
            return
        self.set_status(self.form.map_clicked(ev.hex.id) or self.help)


# ------------------------------------------------------------------------------ the form
_LOC = Qt.ItemDataRole.UserRole


def _combo() -> QComboBox:
    """A combo box that does not widen the dock to its longest entry (roster names are long)."""
    c = QComboBox()
    c.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    c.setMinimumContentsLength(16)
    return c


class SystemForm(QWidget):
    """The tree and editors of a system scenario document (see the module docstring). Signals:
    ``selection_changed(tuple)`` the location selected; ``pick_wanted(bool)`` a hex field is
    selected (the window chooses the :class:`FormPickTool`)."""

    selection_changed = Signal(object)
    pick_wanted = Signal(bool)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc = None
        self.schema: dict = {}
        self.hints: dict = {}
        self.loc: tuple = ()
        self.problems: dict[tuple, list[str]] = {}
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Field", "Value"])
        self.tree.setColumnWidth(0, 170)
        self.tree.currentItemChanged.connect(self._current_changed)
        lay.addWidget(self.tree, 3)
        row = QHBoxLayout()
        self.add_btn = QPushButton("Add")
        self.dup_btn = QPushButton("Duplicate")
        self.remove_btn = QPushButton("Remove")
        self.add_btn.clicked.connect(lambda: self.add_item())
        self.dup_btn.clicked.connect(lambda: self.duplicate())
        self.remove_btn.clicked.connect(lambda: self.remove())
        for b in (self.add_btn, self.dup_btn, self.remove_btn):
            row.addWidget(b)
        lay.addLayout(row)
        self.field_add = _combo()
        self.field_add.setToolTip("add an optional field the selected object does not have")
        self.field_add.activated.connect(self._add_field_chosen)
        lay.addWidget(self.field_add)
        self.editor = QWidget()
        self.editor_lay = QFormLayout(self.editor)
        lay.addWidget(self.editor)
        self.pick_note = QLabel()
        self.pick_note.setWordWrap(True)
        lay.addWidget(self.pick_note)
        self._refresh_buttons()

    # -------------------------------------------------------------- the document
    def set_document(self, doc) -> None:
        self.doc = doc
        s = getattr(doc, "system", None) if doc is not None else None
        self.schema = dict(s.scenario_schema()) if s is not None and s.scenario_schema is not None else {}
        self.hints = dict(s.scenario_hints()) if s is not None and s.scenario_hints is not None else {}
        self.loc = ()
        self.rebuild()

    def _hint(self, key: str, loc: tuple) -> Any:
        h = self.hints.get(key)
        if h is None:
            return None
        p = loc_pattern(loc)
        return h.get(p) if isinstance(h, dict) else (True if p in h else None)

    def kind_of(self, loc: tuple) -> str:
        """"hex_list", "hex", "choices", "object", "list" or the schema type of the value at ``loc``."""
        if self._hint("hex_lists", loc):
            return "hex_list"
        if self._hint("hexes", loc):
            return "hex"
        if self._hint("choices", loc) is not None or self._hint("refs", loc) is not None:
            return "choices"
        v = get_at(self.doc.data, loc)
        if isinstance(v, dict):
            return "object"
        if isinstance(v, list):
            return "list"
        node = schema_at(self.schema, loc, self.doc.data)
        if "enum" in node or "const" in node:
            return "enum"
        return node.get("type") or type(v).__name__

    def choices(self, loc: tuple) -> list[tuple[Any, str]]:
        """The ``(value, label)`` choices of the value at ``loc``: the hints' ``choices``, or the
        values now at the pattern its ``refs`` hint names (e.g. the ids of the side's units)."""
        ch = self._hint("choices", loc)
        if ch is not None:
            return [(v, lab) for v, lab in ch]
        ref = self._hint("refs", loc)
        if ref is None:
            return []
        own = get_at(self.doc.data, loc[:-1]).get("id") if isinstance(get_at(self.doc.data, loc[:-1]), dict) else None
        return [(v, str(v)) for v in _values_at(self.doc.data, ref) if v != own]

    def set_problems(self, problems: list) -> None:
        """Mark the tree's items at the problems' paths (``Problem`` objects: ``path``, ``message``)."""
        self.problems = {}
        for p in problems:
            self.problems.setdefault(parse_path(p.path), []).append(p.message)
        self.rebuild()

    # -------------------------------------------------------------- the tree
    def _label(self, loc: tuple, value: Any) -> str:
        if not loc:
            return ""
        last = loc[-1]
        if isinstance(last, int):
            key = self._hint("labels", loc[:-1])
            name = value.get(key) if isinstance(value, dict) and key else None
            return f"[{last}] {name}" if name is not None else f"[{last}]"
        return str(last)

    def _value_text(self, loc: tuple, value: Any) -> str:
        if isinstance(value, dict):
            if {"rank", "suit"} <= set(value):   # a card, a block...: short, generic
                return ", ".join(f"{v}" for v in value.values() if not isinstance(v, (dict, list)))
            return f"{len(value)} field" + ("" if len(value) == 1 else "s")
        if isinstance(value, list):
            if all(not isinstance(v, (dict, list)) for v in value) and len(json.dumps(value)) < 60:
                return ", ".join(str(v) for v in value)
            return f"{len(value)} item" + ("" if len(value) == 1 else "s")
        ch = self._hint("choices", loc)
        if ch:
            label = next((lab for v, lab in ch if v == value), None)
            if label is not None and label != value:
                return f"{value} -- {label}"
        return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)

    def rebuild(self) -> None:
        self.tree.blockSignals(True)
        self.tree.clear()
        self._items: dict[tuple, QTreeWidgetItem] = {}
        if self.doc is not None:
            self._fill(self.tree.invisibleRootItem(), (), self.doc.data)
        bad = QBrush(QColor(190, 0, 0))
        for loc, msgs in self.problems.items():
            for k in range(len(loc), -1, -1):   # the deepest item the path reaches
                it = self._items.get(loc[:k])
                if it is not None:
                    for c in (0, 1):
                        it.setForeground(c, bad)
                    it.setToolTip(1, "\n".join(msgs))
                    break
        self.tree.blockSignals(False)
        loc = self.loc
        while loc and loc not in self._items:
            loc = loc[:-1]
        self.select(loc)

    def _fill(self, parent, loc: tuple, value: Any) -> None:
        if loc:
            it = QTreeWidgetItem(parent, [self._label(loc, value), self._value_text(loc, value)])
            it.setData(0, _LOC, json.dumps(list(loc)))
            self._items[loc] = it
            parent = it
            if len(loc) <= 1 or isinstance(value, (dict, list)) and len(loc) <= 2:
                it.setExpanded(True)
        if isinstance(value, dict):
            for k, v in value.items():
                self._fill(parent, loc + (k,), v)
        elif isinstance(value, list) and not (loc and self.kind_of(loc) == "hex_list"):
            for i, v in enumerate(value):
                self._fill(parent, loc + (i,), v)

    def select(self, loc: tuple) -> None:
        """Select the tree item at ``loc`` (and show its editor)."""
        it = self._items.get(tuple(loc))
        self.loc = tuple(loc) if it is not None else ()
        self.tree.blockSignals(True)
        self.tree.setCurrentItem(it)
        self.tree.blockSignals(False)
        if it is not None:
            self.tree.scrollToItem(it)
        self._show_editor()
        self._refresh_buttons()
        self.selection_changed.emit(self.loc)
        self.pick_wanted.emit(self.loc != () and self.kind_of(self.loc) in ("hex", "hex_list"))

    def _current_changed(self, cur, _prev) -> None:
        if cur is None:
            return
        self.select(tuple(json.loads(cur.data(0, _LOC))))

    # -------------------------------------------------------------- editors
    def _show_editor(self) -> None:
        # The form is rebuilt from inside its own value widget's editingFinished handler (Return in
        # a spin box sets the value, the document changes, the form shows the new value): deleting
        # that widget there crashes Qt. Retire the old row instead: silenced (its focus-out must not
        # set a stale value after an undo), hidden, and deleted once control is back in the event loop.
        while self.editor_lay.rowCount():
            taken = self.editor_lay.takeRow(0)
            for item in (taken.labelItem, taken.fieldItem):
                old = item.widget() if item is not None else None
                if old is not None:
                    old.blockSignals(True)
                    old.hide()
                    old.deleteLater()
        self.pick_note.setText("")
        self.value_widget = None
        loc = self.loc
        if self.doc is None or not loc:
            return
        kind = self.kind_of(loc)
        value = get_at(self.doc.data, loc)
        node = schema_at(self.schema, loc, self.doc.data)
        w: QWidget | None = None
        if kind == "hex_list":
            self.pick_note.setText(f"{len(value)} hexes, highlighted on the map: click hexes on the map to add "
                                   "them, click a picked hex to remove it.")
            w = QLineEdit(", ".join(map(str, value)))
            w.setToolTip("hex ids separated by commas")
            w.editingFinished.connect(lambda w=w: self.set_hex_list_text(w.text()))
        elif kind == "hex":
            self.pick_note.setText("Click a hex on the map to set it.")
            w = QLineEdit("" if value is None else str(value))
            w.editingFinished.connect(lambda w=w: self.set_value(loc, w.text().strip() or None))
        elif kind in ("choices", "enum"):
            w = _combo()
            opts = self.choices(loc) if kind == "choices" else \
                [(v, str(v)) for v in (node.get("enum") or [node.get("const")])]
            if nullable(self.schema, schema_at(self.schema, loc[:-1], self.doc.data).get("properties", {}).get(
                    loc[-1], {}) if not isinstance(loc[-1], int) else {}):
                opts = [(None, "(none)")] + opts
            if value not in [v for v, _ in opts]:
                opts.append((value, f"{value} (not a choice)"))
            for v, lab in opts:
                w.addItem(lab if lab == str(v) or v is None else f"{v} -- {lab}", json.dumps(v))
            w.setCurrentIndex([v for v, _ in opts].index(value))
            w.activated.connect(lambda _i, w=w: self.set_value(loc, json.loads(w.currentData())))
        elif kind == "boolean":
            w = QCheckBox()
            w.setChecked(bool(value))
            w.toggled.connect(lambda on: self.set_value(loc, on))
        elif kind == "integer" and isinstance(value, int):
            w = QSpinBox()
            w.setRange(int(node.get("minimum", -10 ** 6)), int(node.get("maximum", 10 ** 6)))
            w.setValue(value)
            w.editingFinished.connect(lambda w=w: w.value() != get_at(self.doc.data, loc) and self.set_value(loc, w.value()))
        elif kind == "number" and isinstance(value, (int, float)):
            w = QDoubleSpinBox()
            w.setDecimals(2)
            w.setRange(float(node.get("minimum", -1e6)), float(node.get("maximum", 1e6)))
            w.setValue(float(value))
            w.editingFinished.connect(lambda w=w: w.value() != get_at(self.doc.data, loc) and self.set_value(loc, w.value()))
        elif kind in ("string", "str") or isinstance(value, str):
            w = QLineEdit(value)
            w.editingFinished.connect(lambda w=w: w.text() != get_at(self.doc.data, loc) and self.set_value(loc, w.text()))
        if w is not None:
            self.value_widget = w
            self.editor_lay.addRow(self._label(loc, value) or "value", w)
        msgs = self.problems.get(loc)
        if msgs:
            lab = QLabel("<span style='color:#b00'>" + "<br>".join(msgs) + "</span>")
            lab.setWordWrap(True)
            self.editor_lay.addRow(lab)

    def _refresh_buttons(self) -> None:
        loc, doc = self.loc, self.doc
        in_list = bool(loc) and isinstance(loc[-1], int)
        is_list = doc is not None and bool(loc) and isinstance(get_at(doc.data, loc), list)
        self.add_btn.setEnabled(is_list or in_list)
        self.dup_btn.setEnabled(in_list)
        parent_required = ()
        if doc is not None and loc and not in_list:
            parent_required = schema_at(self.schema, loc[:-1], doc.data).get("required", ())
        self.remove_btn.setEnabled(in_list or (bool(loc) and loc[-1] not in parent_required))
        self.remove_btn.setText("Remove" if in_list or not loc else "Remove field")
        self.field_add.clear()
        self.field_add.addItem("Add field...")
        if doc is not None:
            obj_loc = loc if loc and isinstance(get_at(doc.data, loc), dict) else (loc[:-1] if loc else ())
            obj = get_at(doc.data, obj_loc)
            if isinstance(obj, dict):
                props = schema_at(self.schema, obj_loc, doc.data).get("properties") or {}
                for k in props:
                    if k not in obj:
                        self.field_add.addItem(k, json.dumps(list(obj_loc) + [k]))
        self.field_add.setEnabled(self.field_add.count() > 1)

    # -------------------------------------------------------------- edits (each an undo step)
    def _edit(self, text: str, fn: Callable[[Any], Any], select: tuple | None = None) -> None:
        after = copy.deepcopy(self.doc.data)
        fn(after)
        if after == self.doc.data:
            return
        if select is not None:
            self.loc = select
        self.doc.push(DataCommand(self.doc, text, copy.deepcopy(self.doc.data), after))

    def set_value(self, loc: tuple, value: Any) -> None:
        """Set the value at ``loc`` (one undo step)."""
        def fn(d):
            get_at(d, loc[:-1])[loc[-1]] = value
        self._edit(f"Set {json_path(loc)} to {json.dumps(value, ensure_ascii=False)[:40]}", fn, loc)

    def set_hex_list_text(self, text: str) -> None:
        ids = [t.strip() for t in re.split(r"[,\s]+", text) if t.strip()]
        self.set_value(self.loc, ids)

    def _fresh(self, d: Any, loc: tuple, item: Any) -> Any:
        """``item`` with a fresh ``id``-like value for every unique field it holds (the hints' ``unique``)."""
        if not isinstance(item, dict):
            return item
        for key in list(item):
            pat = loc_pattern(loc + (key,))
            if pat not in (self.hints.get("unique") or ()) or not isinstance(item[key], str):
                continue
            used = set()
            for p in self.hints.get("unique") or ():
                used |= set(_values_at(d, p))
            base = re.sub(r"\d+$", "", item[key]) or "U"
            n, cand = 1, item[key]
            while not cand or cand in used:
                n += 1
                cand = f"{base}{n}"
            item[key] = cand
        return item

    def add_item(self) -> None:
        """Add a new item to the selected list (or after the selected item): the hints' template,
        else the schema's default."""
        loc = self.loc
        if not loc:
            return
        list_loc, at = (loc[:-1], loc[-1] + 1) if isinstance(loc[-1], int) else (loc, None)
        lst = get_at(self.doc.data, list_loc)
        if not isinstance(lst, list):
            return
        tpl = (self.hints.get("templates") or {}).get(loc_pattern(list_loc))
        item = copy.deepcopy(tpl) if tpl is not None else default_for(self.schema, _child(
            self.schema, schema_at(self.schema, list_loc, self.doc.data), 0))
        at = len(lst) if at is None else at

        def fn(d):
            get_at(d, list_loc).insert(at, self._fresh(d, list_loc + (at,), item))
        self._edit(f"Add to {json_path(list_loc)}", fn, list_loc + (at,))

    def duplicate(self) -> None:
        loc = self.loc
        if not loc or not isinstance(loc[-1], int):
            return
        item = copy.deepcopy(get_at(self.doc.data, loc))

        def fn(d):
            get_at(d, loc[:-1]).insert(loc[-1] + 1, self._fresh(d, loc[:-1] + (loc[-1] + 1,), item))
        self._edit(f"Duplicate {json_path(loc)}", fn, loc[:-1] + (loc[-1] + 1,))

    def remove(self) -> None:
        loc = self.loc
        if not loc:
            return

        def fn(d):
            del get_at(d, loc[:-1])[loc[-1]]
        self._edit(f"Remove {json_path(loc)}", fn, loc[:-1])

    def _add_field_chosen(self, index: int) -> None:
        data = self.field_add.itemData(index)
        if not data:
            return
        loc = tuple(json.loads(data))
        value = default_for(self.schema, schema_at(self.schema, loc, self.doc.data))
        hint = self.choices(loc) if self._hint("choices", loc) is not None or self._hint("refs", loc) is not None \
            else None
        if hint:
            value = hint[0][0]
        elif self._hint("hex_lists", loc):
            value = []

        def fn(d):
            get_at(d, loc[:-1])[loc[-1]] = value
        self._edit(f"Add field {json_path(loc)}", fn, loc)

    # -------------------------------------------------------------- the map
    def map_clicked(self, hex_id: str) -> str:
        """A click on hex ``hex_id`` with the form's selection: a hex list gets it (or loses it), a
        hex field is set to it. Returns what happened, for the status bar ("" = nothing)."""
        loc = self.loc
        if self.doc is None or not loc:
            return ""
        kind = self.kind_of(loc)
        if kind == "hex":
            self.set_value(loc, hex_id)
            return f"{json_path(loc)} = {hex_id}"
        if kind != "hex_list":
            return ""
        cur = list(get_at(self.doc.data, loc))
        if hex_id in cur:
            cur.remove(hex_id)
            self.set_value(loc, cur)
            return f"{hex_id} removed from {json_path(loc)}"
        self.set_value(loc, cur + [hex_id])
        return f"{hex_id} added to {json_path(loc)}"

    def hexes_of(self, loc: tuple) -> set[str]:
        """The hexes a location names: a hex, a hex list, a block (``columns`` x ``rows``) with the
        hex lists inside it, or every such thing inside an object or list."""
        out: set[str] = set()
        if self.doc is None:
            return out
        try:
            value = get_at(self.doc.data, loc)
        except (KeyError, IndexError, TypeError):
            return out
        kind = self.kind_of(loc) if loc else "object"
        if kind == "hex" and isinstance(value, str):
            return {value} if _is_hex(value) else set()
        if kind == "hex_list" and isinstance(value, list):
            return {v for v in value if isinstance(v, str) and _is_hex(v)}
        if loc and self._hint("hex_blocks", loc) and isinstance(value, dict):
            c, r = value.get("columns"), value.get("rows")
            if isinstance(c, list) and isinstance(r, list) and len(c) == 2 and len(r) == 2:
                for col in range(int(c[0]), int(c[1]) + 1):
                    for row in range(int(r[0]), int(r[1]) + 1):
                        try:
                            out.add(hexgrid.hex_id(col, row))
                        except hexgrid.HexIdError:
                            pass
        if isinstance(value, dict):
            for k in value:
                out |= self.hexes_of(loc + (k,))
        elif isinstance(value, list):
            for i in range(len(value)):
                out |= self.hexes_of(loc + (i,))
        return out

    def highlighted(self) -> set[str]:
        """The hexes of the selection (a set-up zone's block and hexes when a part of it is selected)."""
        loc = self.loc
        if not loc:
            return set()
        for k in range(len(loc), 0, -1):   # the innermost block containing the selection
            if self._hint("hex_blocks", loc[:k]):
                return self.hexes_of(loc[:k])
        return self.hexes_of(loc)


def _is_hex(text: str) -> bool:
    """Whether ``text`` is a hex id (a value being typed may not be one yet; it is not drawn)."""
    try:
        hexgrid.parse_hex_id(text)
    except hexgrid.HexIdError:
        return False
    return True


def _values_at(data: Any, pattern: str) -> list:
    """Every value at the locations matching ``pattern`` (``[*]`` = any index)."""
    parts = [k if k else ("*" if i == "*" else int(i)) for k, i in re.findall(r"\.([^.\[\]]+)|\[(\*|\d+)\]", pattern)]
    out: list = []

    def walk(v, rest):
        if not rest:
            out.append(v)
            return
        p = rest[0]
        if p == "*":
            if isinstance(v, list):
                for x in v:
                    walk(x, rest[1:])
        elif isinstance(v, dict) and p in v:
            walk(v[p], rest[1:])
        elif isinstance(v, list) and isinstance(p, int) and p < len(v):
            walk(v[p], rest[1:])

    walk(data, parts)
    return out
