"""The region builder (issue 17 item 1): regions of the region language built with forms and
clicks on the map, not typed as JSON.

Widgets (reusable; the Regions dock uses them, a victory builder may embed them):

* :class:`RegionForm` edits one region node (:mod:`scenarios.regions`): the kind chosen from a
  list (:data:`KINDS`, every kind the language has) and a form for its parameters. Kinds that
  combine regions (side of, reachable, adjacent to, within, union, intersection, difference)
  hold nested :class:`RegionForm` s, edited the same way; a union's part can also be one of the
  scenario's named regions. Each node shows its own hex count, or its problem in words (an
  incomplete field, a hex off the map, a road that does not run there), never a traceback.
  API: ``set_source(source)`` (an object whose ``context`` is the
  :class:`scenarios.regions.RegionContext` to resolve against, e.g. a
  :class:`editor.scenario.document.ScenarioDocument`), ``set_region(data)`` (a region's JSON;
  does not emit ``changed``), ``region() -> dict`` (the JSON the form holds, in the canonical
  ``model_dump(mode="json", exclude_none=True)`` form when it validates), ``hexes()`` /
  ``error()`` / ``is_valid()``, and the signal ``changed(dict)`` after every edit.
* :class:`RegionEditor`: a :class:`RegionForm` in a *Builder* tab beside an *Advanced (JSON)*
  tab that round-trips with it (valid JSON typed there fills the form; a form edit rewrites the
  JSON), with the live hex count (``count``) and the region in words (``describe``). Same API.
* Hex fields (:class:`HexField`: a list of hexes, the waypoints of a road, one hex) and the
  feature picker take clicks on the map: their *Pick* button makes them the application's
  :func:`picker` target; the window's *Pick hexes* tool
  (:class:`editor.scenario.tools.RegionPickTool`) sends each clicked hex to it. A hex list
  toggles the clicked hex (a drag adds or removes like the Region paint tool), a road or gully
  appends the hex as its next waypoint (clicking the last one again removes it), a single hex
  takes the click and stops (a hex line's *from* then passes on to its *to*), a feature picker
  takes the feature or building in the clicked hex. Esc or the button again stops picking. The
  window marks the picked hexes on the map (:func:`picked_items`, numbered for a road); a panel
  shows its region's hexes with
  :meth:`editor.scenario.window.ScenarioController.preview_region` (``editor.hexes()``).
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import shiboken6
from pydantic import ValidationError
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSizePolicy,
    QSpinBox,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from maps import hexgrid
from scenarios.regions import COMPASS, FEATURE_KINDS, RegionError, region_from_data

__all__ = ["KINDS", "KIND_LABELS", "RegionForm", "RegionEditor", "HexField", "FeatureField", "HexPicker",
           "picker", "default_region", "convert_region", "parse_hex_ids", "region_problem", "WrapLabel", "picked_items"]

#: Every kind of the region language, in the order the builder offers them, with its label.
KINDS: tuple[tuple[str, str], ...] = (
    ("hexes", "Hexes"),
    ("hex_range", "Hex line (from ... to)"),
    ("feature", "Named feature"),
    ("feature_kind", "Feature kind"),
    ("map_edge", "Map edge"),
    ("section", "Map section"),
    ("area", "Whole playing area"),
    ("path", "Road or gully"),
    ("side_of", "Side of a path or hex line"),
    ("beyond", "Beyond a column, row or hex"),
    ("reachable", "Reachable, with barriers"),
    ("adjacent_to", "Adjacent to"),
    ("within", "Within N hexes of"),
    ("named", "Named region"),
    ("union", "Union (any of)"),
    ("intersection", "Intersection (all of)"),
    ("difference", "Difference (minus)"),
)
KIND_LABELS = dict(KINDS)

#: short labels of the feature kinds (the long ones of :data:`FEATURE_KINDS` are the tooltips)
_FEATURE_KIND_LABELS = {
    "building_hexes": "building hexes", "multi_hex_buildings": "multi-hex building hexes",
    "single_hex_buildings": "one-hex building hexes", "tree_hexes": "tree hexes (2+ trees)",
    "woods": "woods hexes", "any_trees": "hexes with any tree", "marsh": "marsh hexes", "road": "road hexes",
    "bridge": "bridge hexes", "gully": "gully hexes", "hill": "hill hexes",
}
_SHEET = {0: "up the sheet", 3: "right on the sheet", 6: "down the sheet", 9: "left on the sheet"}
_RED = "#b00000"


# =============================================================================== pure helpers

def parse_hex_ids(text: str) -> list[str]:
    """The hex ids in a typed field: separated by commas, semicolons, spaces or dashes
    ("1014-1315-1608", "4307, 4308"). Tokens are returned as typed (a bad one is reported by the
    region's validation, naming it)."""
    return [t for t in re.split(r"[\s,;\-\u2013]+", text.strip()) if t]


def _leaf_default(kind: str, ctx=None) -> dict:
    m = getattr(ctx, "hexmap", None)
    if kind == "hexes":
        return {"kind": "hexes", "hexes": []}
    if kind == "hex_range":
        return {"kind": "hex_range", "first": "", "last": ""}
    if kind == "feature":
        names = _feature_names(m)
        return {"kind": "feature", "name": names[0] if names else ""}
    if kind == "feature_kind":
        return {"kind": "feature_kind", "feature": "building_hexes"}
    if kind == "map_edge":
        return {"kind": "map_edge", "direction": "north"}
    if kind == "section":
        secs = list(getattr(ctx, "sections", None) or []) or [s.name for s in (m.doc.sections if m else [])]
        return {"kind": "section", "name": secs[0] if secs else ""}
    if kind == "area":
        return {"kind": "area"}
    if kind == "path":
        return {"kind": "path", "network": "road", "through": []}
    if kind == "beyond":
        return {"kind": "beyond", "direction": "north", "row": 1, "inclusive": False}
    if kind == "named":
        names = sorted(getattr(ctx, "named", {}) or {})
        return {"kind": "named", "name": names[0] if names else ""}
    raise ValueError(f"unknown region kind {kind!r}")


def default_region(kind: str, ctx=None) -> dict:
    """A new region of ``kind`` as the builder starts it (hex fields empty, to be picked; a side
    of a road, reachable from the north map edge with a road as the barrier...). ``ctx`` (a
    :class:`RegionContext` or None) supplies the first feature, section and named region."""
    if kind == "side_of":
        return {"kind": "side_of", "direction": "north", "of": _leaf_default("path"), "include_boundary": False}
    if kind == "reachable":
        return {"kind": "reachable", "start": {"kind": "map_edge", "direction": "north"},
                "barrier": _leaf_default("path")}
    if kind == "adjacent_to":
        return {"kind": "adjacent_to", "of": _leaf_default("hexes")}
    if kind == "within":
        return {"kind": "within", "of": _leaf_default("hexes"), "distance": 1}
    if kind in ("union", "intersection"):
        return {"kind": kind, "of": [_leaf_default("hexes"), _leaf_default("hexes")]}
    if kind == "difference":
        return {"kind": "difference", "of": _leaf_default("feature", ctx), "minus": [_leaf_default("hexes")]}
    return _leaf_default(kind, ctx)


def _children(d: dict) -> list[dict]:
    k = d.get("kind")
    if k in ("side_of", "adjacent_to", "within"):
        return [d["of"]] if isinstance(d.get("of"), dict) else []
    if k == "reachable":
        return [x for x in (d.get("start"), d.get("barrier")) if isinstance(x, dict)]
    if k in ("union", "intersection"):
        return [x for x in d.get("of", []) if isinstance(x, dict)]
    if k == "difference":
        return ([d["of"]] if isinstance(d.get("of"), dict) else []) + [x for x in d.get("minus", []) if isinstance(x, dict)]
    return []


def _hex_list(d: dict) -> list[str]:
    k = d.get("kind")
    if k == "hexes":
        return list(d.get("hexes", []))
    if k == "path":
        return list(d.get("through", []))
    if k == "hex_range":
        return [x for x in (d.get("first"), d.get("last")) if x]
    return []


_COMPOSITE = ("side_of", "reachable", "adjacent_to", "within", "union", "intersection", "difference")


def convert_region(old: dict, kind: str, ctx=None) -> dict:
    """The region the builder shows when the designer switches ``old`` to another ``kind``:
    what fits is kept. Hex ids pass between a hex list, a road's waypoints and a hex line; a
    compass direction between map edge, side of and beyond; the parts of a combining kind pass
    to another; a region switched to a combining kind becomes its (first) part, so "Hill K"
    switched to *Difference* is "Hill K minus ..." (a road switched to *Reachable* is its barrier)."""
    if old.get("kind") == kind:
        return copy.deepcopy(old)
    new = default_region(kind, ctx)
    ids = _hex_list(old)
    if ids and kind == "hexes":
        new["hexes"] = ids
    elif ids and kind == "path":
        new["through"] = ids
    elif ids and kind == "hex_range":
        new["first"], new["last"] = ids[0], ids[-1] if len(ids) > 1 else ""
    if "direction" in new and old.get("direction") in COMPASS:
        new["direction"] = old["direction"]
    if kind not in _COMPOSITE:
        return new
    parts = _children(old) if old.get("kind") in _COMPOSITE else []
    if not parts:
        meaningful = old.get("kind") is not None and old != default_region(old["kind"], ctx)
        parts = [copy.deepcopy(old)] if meaningful else []
        if parts and kind == "reachable" and old.get("kind") in ("path", "hex_range", "hexes"):
            new["barrier"] = parts[0]
            return new
    parts = copy.deepcopy(parts)
    if not parts:
        return new
    if kind in ("side_of", "adjacent_to", "within"):
        new["of"] = parts[0]
    elif kind == "reachable":
        new["start"] = parts[0]
        if len(parts) > 1:
            new["barrier"] = parts[1]
    elif kind in ("union", "intersection"):
        new["of"] = parts if len(parts) > 1 else parts + [_leaf_default("hexes")]
    elif kind == "difference":
        new["of"] = parts[0]
        if len(parts) > 1:
            new["minus"] = parts[1:]
    return new


def _short_validation(e: ValidationError) -> str:
    """A pydantic error in words: the first problem, without pydantic's decorations."""
    errs = e.errors()
    if not errs:
        return str(e)
    err = errs[0]
    msg = str(err.get("msg", ""))
    msg = re.sub(r"^(Value error|Assertion failed), ", "", msg)
    loc = ".".join(str(x) for x in err.get("loc", ()) if not (isinstance(x, str) and x in KIND_LABELS))
    more = f" (and {len(errs) - 1} more)" if len(errs) > 1 else ""
    return (f"{loc}: {msg}" if loc else msg) + more


def region_problem(data: Any) -> str | None:
    """What keeps ``data`` from being a region, in words (None when it is one): an incomplete
    field ("pick or type at least one hex") before pydantic's message."""
    if not isinstance(data, dict):
        return "a region is a JSON object with a \"kind\""
    k = data.get("kind")
    if k not in KIND_LABELS:
        return f"unknown region kind {k!r}; kinds: {', '.join(KIND_LABELS)}"
    if k == "hexes" and not data.get("hexes"):
        return "pick or type at least one hex"
    if k == "path" and len(data.get("through") or []) < 2:
        return f"pick or type at least two {data.get('network', 'road')} hexes (the waypoints, in order)"
    if k == "hex_range" and not (data.get("first") and data.get("last")):
        return "pick or type both ends of the hex line"
    if k in ("feature", "section", "named") and not data.get("name"):
        return {"feature": "choose a feature", "section": "choose a map section",
                "named": "choose a named region (the scenario has none yet?)"}[k]
    for c in _children(data):
        p = region_problem(c)
        if p is not None:
            return p
    try:
        region_from_data(data)
    except ValidationError as e:
        return _short_validation(e)
    return None


def _feature_names(hexmap) -> list[str]:
    if hexmap is None:
        return []
    names = sorted(hexmap.features)
    blds = sorted({b.display_name() for b in hexmap.buildings.values() if b.number is not None or b.name})
    return names + [b for b in blds if b not in names]


def _ctx_of(source):
    if source is None:
        return None
    return getattr(source, "context", source)


class WrapLabel(QLabel):
    """A word-wrapped label whose minimum height is what its text needs at its current width,
    so a scroll area (which ignores height-for-width) scrolls instead of squeezing what follows."""

    def __init__(self, text: str = "", parent: QWidget | None = None):
        super().__init__(text, parent)
        self.setWordWrap(True)

    def minimumSizeHint(self):  # noqa: N802
        s = super().minimumSizeHint()
        if self.width() > 0 and self.text():
            s.setHeight(max(s.height(), self.heightForWidth(self.width())))
        return s

    def resizeEvent(self, ev) -> None:  # noqa: N802
        super().resizeEvent(ev)
        if ev.oldSize().width() != ev.size().width():
            self.updateGeometry()

    def setText(self, text: str) -> None:  # noqa: N802
        super().setText(text)
        self.updateGeometry()


def _combo(items: list[tuple[str, Any]] | None = None, min_chars: int = 8) -> QComboBox:
    c = QComboBox()
    c.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    c.setMinimumContentsLength(min_chars)
    c.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    for text, data in items or []:
        c.addItem(text, data)
    return c


def _select(combo: QComboBox, data: Any) -> None:
    """Choose the item whose data is ``data`` (an editable combo takes unknown text as typed)."""
    i = combo.findData(data)
    if i >= 0:
        combo.setCurrentIndex(i)
    elif combo.isEditable():
        combo.setEditText(str(data))
    else:
        combo.addItem(str(data), data)
        combo.setCurrentIndex(combo.count() - 1)


# =============================================================================== map picking

class HexPicker(QObject):
    """The one field that takes clicks on the map (at most one in the application).
    ``active_changed(field or None)`` when picking starts or stops; ``picked(field)`` after a
    click changed it. A field is any widget with ``set_picking(bool)``, ``pick(hex_id) -> str``,
    ``drag(hex_id)``, ``picked_hexes() -> list[str]`` and ``ordered`` (waypoints are numbered)."""

    active_changed = Signal(object)
    picked = Signal(object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._field = None

    @property
    def field(self):
        f = self._field
        return f if f is not None and shiboken6.isValid(f) else None

    def start(self, field) -> None:
        """Make ``field`` the target of map clicks (the previous one stops)."""
        old = self.field
        if old is field:
            return
        self._field = field
        if old is not None:
            old.set_picking(False)
        field.set_picking(True)
        self.active_changed.emit(field)

    def stop(self, field=None) -> None:
        """Stop picking (only when ``field`` is the active one, if given)."""
        if self._field is None:
            return
        old = self.field
        if field is not None and old is not None and field is not old:
            return
        self._field = None
        if old is not None:
            old.set_picking(False)
        self.active_changed.emit(None)

    def stop_within(self, widget: QWidget) -> None:
        """Stop picking when the active field is ``widget`` or inside it (it is being removed)."""
        f = self.field
        if f is not None and (f is widget or widget.isAncestorOf(f)):
            self.stop()
        elif self._field is not None and f is None:
            self.stop()

    def pick(self, hex_id: str) -> str:
        """A click on ``hex_id``: the active field takes it; returns what happened, in words."""
        f = self.field
        if f is None:
            self.stop()
            return "no field is picking hexes: press a Pick button in the region builder"
        msg = f.pick(hex_id)
        self.picked.emit(f)
        return msg

    def drag(self, hex_id: str) -> str | None:
        f = self.field
        if f is None:
            return None
        msg = f.drag(hex_id)
        if msg is not None:
            self.picked.emit(f)
        return msg

    def hexes(self) -> tuple[list[str], bool]:
        """The active field's hexes (valid ids) and whether they are ordered waypoints."""
        f = self.field
        if f is None:
            return [], False
        return f.picked_hexes(), bool(getattr(f, "ordered", False))


_PICKER: HexPicker | None = None


def picker() -> HexPicker:
    """The application's :class:`HexPicker`."""
    global _PICKER
    if _PICKER is None or not shiboken6.isValid(_PICKER):
        _PICKER = HexPicker()
    return _PICKER


def _pick_button(tip: str) -> QToolButton:
    """A *Pick* toggle; while it is down it reads *Picking* on the cyan of the map's marks."""
    b = QToolButton()
    b.setText("Pick")
    b.setCheckable(True)
    b.setToolTip(tip)
    b.setStyleSheet("QToolButton:checked { background: #bfe9f7; border: 1px solid #0096c8; border-radius: 2px;"
                    " font-weight: bold; }")
    b.toggled.connect(lambda on: b.setText("Picking" if on else "Pick"))
    return b


def _set_pick_state(b: QToolButton, on: bool) -> None:
    """Show ``b`` down or up without its ``toggled`` (the picker sets it)."""
    b.blockSignals(True)
    b.setChecked(on)
    b.blockSignals(False)
    b.setText("Picking" if on else "Pick")


class HexField(QWidget):
    """Hex ids typed or picked on the map. ``mode``: ``"list"`` (a set of hexes: a click toggles
    a hex), ``"path"`` (waypoints in order: a click appends, a click on the last one removes it)
    or ``"one"`` (a single hex: a click sets it and picking passes to ``next_field``, if any)."""

    changed = Signal()

    def __init__(self, mode: str = "list", placeholder: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.mode = mode
        self.ordered = mode == "path"
        self.next_field: HexField | None = None
        self._adding = True
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(3)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText(placeholder)
        self.edit.setMinimumWidth(60)
        tip = {"list": "Pick on the map: each click adds a hex or removes it (drag to add or remove several)",
               "path": "Pick on the map: click the waypoints in order along the road or gully; "
                       "click the last one again to remove it",
               "one": "Pick on the map: click the hex"}[mode]
        self.edit.setToolTip("Hex ids CCRR, separated by commas, spaces or dashes; or " + tip[0].lower() + tip[1:])
        self.pick_button = _pick_button(tip)
        lay.addWidget(self.edit, 1)
        lay.addWidget(self.pick_button)
        self.edit.textEdited.connect(lambda _t: self.changed.emit())
        self.pick_button.toggled.connect(self._toggled)

    def ids(self) -> list[str]:
        return parse_hex_ids(self.edit.text())

    def set_ids(self, ids: list[str]) -> None:
        """Show ``ids`` (no ``changed``)."""
        self.edit.setText((" - " if self.mode == "path" else ", ").join(ids))

    def value(self) -> str:
        ids = self.ids()
        return ids[0] if ids else ""

    def _toggled(self, on: bool) -> None:
        if on:
            picker().start(self)
        else:
            picker().stop(self)

    def set_picking(self, on: bool) -> None:
        _set_pick_state(self.pick_button, on)

    @property
    def picking(self) -> bool:
        return picker().field is self

    def picked_hexes(self) -> list[str]:
        out = []
        for t in self.ids():
            try:
                hexgrid.parse_hex_id(t)
            except hexgrid.HexIdError:
                continue
            out.append(t)
        return out

    def pick(self, hid: str) -> str:
        ids = self.ids()
        if self.mode == "one":
            self.set_ids([hid])
            self.changed.emit()
            picker().stop(self)
            if self.next_field is not None and shiboken6.isValid(self.next_field):
                picker().start(self.next_field)
                return f"{hid} picked; now click the other end"
            return f"{hid} picked"
        if self.mode == "path":
            if ids and ids[-1] == hid:
                ids.pop()
                msg = f"waypoint {hid} removed ({len(ids)} left)"
            else:
                ids.append(hid)
                msg = f"waypoint {len(ids)}: {hid}"
        else:
            self._adding = hid not in ids
            if self._adding:
                ids.append(hid)
            else:
                ids.remove(hid)
            msg = f"{hid} {'added' if self._adding else 'removed'} ({len(ids)} hex{'es' if len(ids) != 1 else ''})"
        self.set_ids(ids)
        self.changed.emit()
        return msg

    def drag(self, hid: str) -> str | None:
        """A drag over ``hid`` with the button down: a hex list adds (or removes, as the press
        did) the hex; other fields ignore drags."""
        if self.mode != "list":
            return None
        ids = self.ids()
        if self._adding == (hid in ids):
            return None
        ids.append(hid) if self._adding else ids.remove(hid)
        self.set_ids(ids)
        self.changed.emit()
        return f"{hid} {'added' if self._adding else 'removed'} ({len(ids)} hexes)"


class FeatureField(QWidget):
    """A named feature or building of the map: chosen from the list, typed, or picked on the map
    (the feature, else the building, in the clicked hex)."""

    changed = Signal()
    ordered = False

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.hexmap = None
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(3)
        self.combo = _combo()
        self.combo.setEditable(True)
        self.pick_button = _pick_button("Pick on the map: click a hex of the feature or building")
        lay.addWidget(self.combo, 1)
        lay.addWidget(self.pick_button)
        self.combo.currentTextChanged.connect(lambda _t: self.changed.emit())
        self.pick_button.toggled.connect(lambda on: picker().start(self) if on else picker().stop(self))

    def set_hexmap(self, hexmap) -> None:
        self.hexmap = hexmap
        cur = self.combo.currentText()
        self.combo.blockSignals(True)
        self.combo.clear()
        for n in _feature_names(hexmap):
            self.combo.addItem(n)
        self.combo.setEditText(cur)
        self.combo.blockSignals(False)

    def value(self) -> str:
        return self.combo.currentText().strip()

    def set_value(self, name: str) -> None:
        self.combo.blockSignals(True)
        self.combo.setEditText(name)
        self.combo.blockSignals(False)

    def set_picking(self, on: bool) -> None:
        _set_pick_state(self.pick_button, on)

    def picked_hexes(self) -> list[str]:
        if self.hexmap is None:
            return []
        try:
            return sorted(h.id for h in self.hexmap.feature_hexes(self.value()))
        except KeyError:
            return []

    def feature_at(self, hid: str) -> str | None:
        m = self.hexmap
        if m is None:
            return None
        h = hexgrid.parse_hex_id(hid)
        for name in sorted(m.features):
            if hid in m.features[name].hexes:
                return name
        for bid, hs in sorted(m.building_hexes.items()):
            if h in hs:
                b = m.buildings[bid]
                if b.number is not None or b.name:
                    return b.display_name()
        return None

    def pick(self, hid: str) -> str:
        name = self.feature_at(hid)
        if name is None:
            return f"{hid} is in no named feature or building: click another hex"
        self.set_value(name)
        self.changed.emit()
        picker().stop(self)
        return f"{name} picked"

    def drag(self, hid: str) -> str | None:
        return None


class _DirectionCombo(QComboBox):
    """A compass word, shown with where it points on the sheet under the scenario's north."""

    def __init__(self):
        super().__init__()
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(6)
        for w in COMPASS:
            self.addItem(w, w)

    def set_north(self, north) -> None:
        for i in range(self.count()):
            w = self.itemData(i)
            text = w
            if north is not None:
                k = north.direction(w)
                text = f"{w} ({_SHEET.get(k, f'{30 * k} degrees from the top')})"
            self.setItemText(i, text)


# =============================================================================== kind editors

class _Editor(QWidget):
    """The parameters of one kind (inside a :class:`RegionForm`)."""

    changed = Signal()
    kind = ""

    def __init__(self, form: "RegionForm"):
        super().__init__()
        self.form = form
        self.lay = QFormLayout(self)
        self.lay.setContentsMargins(0, 0, 0, 0)
        self.lay.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.lay.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)

    def load(self, d: dict) -> None: ...

    def dump(self) -> dict:
        return {"kind": self.kind}

    def children(self) -> list["RegionForm"]:
        return []

    def set_context(self, ctx) -> None: ...

    def _child(self, data: dict, caption: str) -> "RegionForm":
        f = RegionForm(parent_form=self.form)
        f.set_region(data)
        f.changed.connect(lambda _d: self.changed.emit())
        box = QWidget()
        v = QVBoxLayout(box)
        v.setContentsMargins(0, 2, 0, 0)
        v.setSpacing(1)
        lab = WrapLabel(caption)
        lab.setStyleSheet("color: #555")
        v.addWidget(lab)
        v.addWidget(f)
        self.lay.addRow(box)
        return f


class _HexesEditor(_Editor):
    kind = "hexes"

    def __init__(self, form):
        super().__init__(form)
        self.field = HexField("list", "4307, 4308")
        self.field.changed.connect(self.changed)
        self.lay.addRow("Hexes", self.field)

    def load(self, d):
        self.field.set_ids(list(d.get("hexes", [])))

    def dump(self):
        return {"kind": "hexes", "hexes": self.field.ids()}


class _RangeEditor(_Editor):
    kind = "hex_range"

    def __init__(self, form):
        super().__init__(form)
        self.first = HexField("one", "5014")
        self.last = HexField("one", "7014")
        self.first.next_field = self.last
        for f in (self.first, self.last):
            f.changed.connect(self.changed)
        self.lay.addRow("From", self.first)
        self.lay.addRow("To", self.last)
        hint = WrapLabel("along one hex column or one hex row, both ends included")
        hint.setStyleSheet("color: #555")
        self.lay.addRow(hint)

    def load(self, d):
        self.first.set_ids([d["first"]] if d.get("first") else [])
        self.last.set_ids([d["last"]] if d.get("last") else [])

    def dump(self):
        return {"kind": "hex_range", "first": self.first.value(), "last": self.last.value()}


class _AreaEditor(_Editor):
    kind = "area"

    def __init__(self, form):
        super().__init__(form)
        lab = WrapLabel("every hex of the scenario's map sections")
        self.lay.addRow(lab)


class _SectionEditor(_Editor):
    kind = "section"

    def __init__(self, form):
        super().__init__(form)
        self.combo = _combo()
        self.combo.setEditable(True)
        self.combo.currentTextChanged.connect(lambda _t: self.changed.emit())
        self.lay.addRow("Section", self.combo)

    def set_context(self, ctx):
        m = getattr(ctx, "hexmap", None)
        cur = self.combo.currentText()
        self.combo.blockSignals(True)
        self.combo.clear()
        for s in (m.doc.sections if m is not None else []):
            self.combo.addItem(s.name)
        self.combo.setEditText(cur)
        self.combo.blockSignals(False)

    def load(self, d):
        self.combo.blockSignals(True)
        self.combo.setEditText(d.get("name", ""))
        self.combo.blockSignals(False)

    def dump(self):
        return {"kind": "section", "name": self.combo.currentText().strip()}


class _EdgeEditor(_Editor):
    kind = "map_edge"

    def __init__(self, form):
        super().__init__(form)
        self.direction = _DirectionCombo()
        self.direction.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.lay.addRow("Edge", self.direction)
        self.only = QWidget()
        self.only_lay = QHBoxLayout(self.only)
        self.only_lay.setContentsMargins(0, 0, 0, 0)
        self.checks: dict[str, QCheckBox] = {}
        self.lay.addRow("Only of", self.only)
        self.only.setToolTip("Tick map sections to take the edge of those sections only; none ticked: the "
                             "edge of the whole playing area")
        self._sections: list[str] | None = None

    def set_context(self, ctx):
        self.direction.set_north(getattr(ctx, "north", None))
        m = getattr(ctx, "hexmap", None)
        names = [s.name for s in (m.doc.sections if m is not None else [])]
        keep = self._checked()
        if list(self.checks) == names + [s for s in (keep or []) if s not in names]:
            return
        for cb in self.checks.values():
            self.only_lay.removeWidget(cb)
            cb.hide()
            cb.deleteLater()
        self.checks = {}
        for n in names + [s for s in (keep or []) if s not in names]:
            cb = QCheckBox(n)
            cb.setChecked(n in (keep or []))
            cb.toggled.connect(lambda _on: self.changed.emit())
            self.only_lay.addWidget(cb)
            self.checks[n] = cb

    def _checked(self) -> list[str] | None:
        if not self.checks:
            return self._sections
        out = [n for n, cb in self.checks.items() if cb.isChecked()]
        return out or None

    def load(self, d):
        _select(self.direction, d.get("direction", "north"))
        self._sections = list(d["sections"]) if d.get("sections") else None
        for n, cb in self.checks.items():
            cb.blockSignals(True)
            cb.setChecked(n in (self._sections or []))
            cb.blockSignals(False)
        missing = [s for s in (self._sections or []) if s not in self.checks]
        for n in missing:
            cb = QCheckBox(n)
            cb.setChecked(True)
            cb.toggled.connect(lambda _on: self.changed.emit())
            self.only_lay.addWidget(cb)
            self.checks[n] = cb

    def dump(self):
        d = {"kind": "map_edge", "direction": self.direction.currentData()}
        secs = self._checked()
        if secs:
            d["sections"] = secs
        return d


class _FeatureEditor(_Editor):
    kind = "feature"

    def __init__(self, form):
        super().__init__(form)
        self.field = FeatureField()
        self.field.changed.connect(self.changed)
        self.lay.addRow("Feature", self.field)

    def set_context(self, ctx):
        self.field.set_hexmap(getattr(ctx, "hexmap", None))

    def load(self, d):
        self.field.set_value(d.get("name", ""))

    def dump(self):
        return {"kind": "feature", "name": self.field.value()}


class _FeatureKindEditor(_Editor):
    kind = "feature_kind"

    def __init__(self, form):
        super().__init__(form)
        self.combo = _combo([(_FEATURE_KIND_LABELS[k], k) for k in FEATURE_KINDS])
        for i, k in enumerate(FEATURE_KINDS):
            self.combo.setItemData(i, FEATURE_KINDS[k], Qt.ItemDataRole.ToolTipRole)
        self.combo.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.lay.addRow("Every", self.combo)

    def load(self, d):
        _select(self.combo, d.get("feature", "building_hexes"))

    def dump(self):
        return {"kind": "feature_kind", "feature": self.combo.currentData()}


class _PathEditor(_Editor):
    kind = "path"

    def __init__(self, form):
        super().__init__(form)
        self.network = _combo([("road", "road"), ("gully", "gully")], 5)
        self.network.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.through = HexField("path", "1014 - 1315 - 1608")
        self.through.changed.connect(self.changed)
        self.lay.addRow("Along", self.network)
        self.lay.addRow("Through", self.through)

    def load(self, d):
        _select(self.network, d.get("network", "road"))
        self.through.set_ids(list(d.get("through", [])))

    def dump(self):
        return {"kind": "path", "network": self.network.currentData(), "through": self.through.ids()}


class _SideOfEditor(_Editor):
    kind = "side_of"

    def __init__(self, form):
        super().__init__(form)
        self.direction = _DirectionCombo()
        self.direction.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.boundary = QCheckBox("include the line itself")
        self.boundary.toggled.connect(lambda _on: self.changed.emit())
        self.lay.addRow("Side", self.direction)
        self.lay.addRow(self.boundary)
        self.of: RegionForm | None = None

    def set_context(self, ctx):
        self.direction.set_north(getattr(ctx, "north", None))

    def load(self, d):
        _select(self.direction, d.get("direction", "north"))
        self.boundary.setChecked(bool(d.get("include_boundary", False)))
        self.of = self._child(d.get("of") or _leaf_default("path"), "of (a road, gully, hex line or any region)")

    def dump(self):
        return {"kind": "side_of", "direction": self.direction.currentData(),
                "of": self.of.region() if self.of else {}, "include_boundary": self.boundary.isChecked()}

    def children(self):
        return [self.of] if self.of else []


class _BeyondEditor(_Editor):
    kind = "beyond"
    BOUNDS = (("hex row", "row"), ("hex column", "column"), ("hex", "hex"))

    def __init__(self, form):
        super().__init__(form)
        self.direction = _DirectionCombo()
        self.bound = _combo(list(self.BOUNDS), 6)
        self.column = QSpinBox()
        self.column.setRange(0, 99)
        self.column.setSuffix("xx")
        self.row = QSpinBox()
        self.row.setRange(0, 99)
        self.row.setPrefix("xx")
        self.hex = HexField("one", "3901")
        self.inclusive = QCheckBox("inclusive (the row, column or hex's own line too)")
        self.value = QWidget()
        v = QHBoxLayout(self.value)
        v.setContentsMargins(0, 0, 0, 0)
        for w in (self.row, self.column, self.hex):
            v.addWidget(w)
        v.addStretch(0)
        self.lay.addRow("Side", self.direction)
        self.lay.addRow("Of", self.bound)
        self.lay.addRow("", self.value)
        self.lay.addRow(self.inclusive)
        for s in (self.direction.currentIndexChanged, self.column.valueChanged, self.row.valueChanged,
                  self.inclusive.toggled):
            s.connect(lambda *_a: self.changed.emit())
        self.bound.currentIndexChanged.connect(self._bound_changed)
        self.hex.changed.connect(self.changed)
        self._show_bound()

    def _show_bound(self) -> None:
        b = self.bound.currentData()
        self.row.setVisible(b == "row")
        self.column.setVisible(b == "column")
        self.hex.setVisible(b == "hex")
        if b != "hex":
            picker().stop(self.hex)

    def _bound_changed(self, _i) -> None:
        self._show_bound()
        self.changed.emit()

    def set_context(self, ctx):
        self.direction.set_north(getattr(ctx, "north", None))

    def load(self, d):
        _select(self.direction, d.get("direction", "north"))
        b = "column" if d.get("column") is not None else "hex" if d.get("hex") is not None else "row"
        _select(self.bound, b)
        if d.get("column") is not None:
            self.column.setValue(int(d["column"]))
        if d.get("row") is not None:
            self.row.setValue(int(d["row"]))
        self.hex.set_ids([d["hex"]] if d.get("hex") else [])
        self.inclusive.setChecked(bool(d.get("inclusive", False)))
        self._show_bound()

    def dump(self):
        b = self.bound.currentData()
        d: dict[str, Any] = {"kind": "beyond", "direction": self.direction.currentData()}
        d[b] = {"row": self.row.value(), "column": self.column.value(), "hex": self.hex.value()}[b]
        d["inclusive"] = self.inclusive.isChecked()
        return d


class _AdjacentEditor(_Editor):
    kind = "adjacent_to"

    def __init__(self, form):
        super().__init__(form)
        self.of: RegionForm | None = None

    def load(self, d):
        self.of = self._child(d.get("of") or _leaf_default("hexes"), "hexes with a neighbour in")

    def dump(self):
        return {"kind": "adjacent_to", "of": self.of.region() if self.of else {}}

    def children(self):
        return [self.of] if self.of else []


class _WithinEditor(_Editor):
    kind = "within"

    def __init__(self, form):
        super().__init__(form)
        self.distance = QSpinBox()
        self.distance.setRange(0, 99)
        self.distance.setSuffix(" hexes")
        self.distance.valueChanged.connect(lambda _v: self.changed.emit())
        self.lay.addRow("Within", self.distance)
        self.of: RegionForm | None = None

    def load(self, d):
        self.distance.setValue(int(d.get("distance", 1)))
        self.of = self._child(d.get("of") or _leaf_default("hexes"), "of (range 11.2, the region itself included)")

    def dump(self):
        return {"kind": "within", "of": self.of.region() if self.of else {}, "distance": self.distance.value()}

    def children(self):
        return [self.of] if self.of else []


class _ReachableEditor(_Editor):
    kind = "reachable"

    def __init__(self, form):
        super().__init__(form)
        self.start: RegionForm | None = None
        self.barrier: RegionForm | None = None

    def load(self, d):
        self.start = self._child(d.get("start") or {"kind": "map_edge", "direction": "north"},
                                 "reachable from")
        self.barrier = self._child(d.get("barrier") or _leaf_default("path"),
                                   "without crossing (the barrier; a union for several)")

    def dump(self):
        return {"kind": "reachable", "start": self.start.region() if self.start else {},
                "barrier": self.barrier.region() if self.barrier else {}}

    def children(self):
        return [f for f in (self.start, self.barrier) if f is not None]


class _NamedEditor(_Editor):
    kind = "named"

    def __init__(self, form):
        super().__init__(form)
        self.combo = _combo()
        self.combo.setEditable(True)
        self.combo.currentTextChanged.connect(lambda _t: self.changed.emit())
        self.lay.addRow("Region", self.combo)

    def set_context(self, ctx):
        names = sorted(getattr(ctx, "named", {}) or {})
        skip = self.form.root().exclude_named
        cur = self.combo.currentText()
        self.combo.blockSignals(True)
        self.combo.clear()
        for n in names:
            if n not in skip:
                self.combo.addItem(n)
        self.combo.setEditText(cur)
        self.combo.blockSignals(False)

    def load(self, d):
        self.combo.blockSignals(True)
        self.combo.setEditText(d.get("name", ""))
        self.combo.blockSignals(False)

    def dump(self):
        return {"kind": "named", "name": self.combo.currentText().strip()}


class _AddNamedCombo(QComboBox):
    """*Add named region...*: the scenario's named regions; choosing one emits ``chosen(name)``
    and the list shows its prompt again. Refilled whenever it opens."""

    chosen = Signal(str)
    PROMPT = "Add named region..."

    def __init__(self, names):
        super().__init__()
        self.names = names
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(10)
        self.setToolTip("Add one of the scenario's named regions as a part")
        self.refill()
        self.currentIndexChanged.connect(self._chosen)

    def refill(self) -> None:
        self.blockSignals(True)
        self.clear()
        self.addItem(self.PROMPT, None)
        for n in self.names():
            self.addItem(n, n)
        self.setCurrentIndex(0)
        self.blockSignals(False)

    def showPopup(self) -> None:  # noqa: N802
        self.refill()
        super().showPopup()

    def _chosen(self, i: int) -> None:
        name = self.itemData(i)
        if not name:
            return
        self.blockSignals(True)
        self.setCurrentIndex(0)
        self.blockSignals(False)
        self.chosen.emit(name)


class _PartList(QWidget):
    """The parts of a union, an intersection or a difference's *minus*: nested forms, each
    removable (while more than one is left), plus *Add part* and *Add named region...*."""

    changed = Signal()

    def __init__(self, editor: _Editor, caption: str):
        super().__init__()
        self.editor = editor
        self.caption = caption
        self.forms: list[RegionForm] = []
        self.lay = QVBoxLayout(self)
        self.lay.setContentsMargins(0, 0, 0, 0)
        self.lay.setSpacing(2)
        self.parts = QVBoxLayout()
        self.parts.setSpacing(3)
        self.lay.addLayout(self.parts)
        row = QHBoxLayout()
        self.add_button = QToolButton()
        self.add_button.setText("Add part")
        self.add_button.setToolTip("Add a part (a new region, built the same way)")
        self.add_button.clicked.connect(lambda: self.add(_leaf_default("hexes"), emit=True))
        # a list, not a menu: choosing a name adds it (no modal popup loop)
        self.named_combo = _AddNamedCombo(self.named_choices)
        self.named_combo.chosen.connect(lambda n: self.add({"kind": "named", "name": n}, emit=True))
        row.addWidget(self.add_button)
        row.addWidget(self.named_combo, 1)
        self.lay.addLayout(row)

    def named_choices(self) -> list[str]:
        ctx = self.editor.form.ctx()
        skip = self.editor.form.root().exclude_named
        return [n for n in sorted(getattr(ctx, "named", {}) or {}) if n not in skip]

    def add(self, data: dict, emit: bool = False) -> "RegionForm":
        f = RegionForm(parent_form=self.editor.form, removable=True)
        f.set_region(data)
        f.changed.connect(lambda _d: self.changed.emit())
        f.remove_requested.connect(self.remove)
        self.parts.addWidget(f)
        self.forms.append(f)
        self._update_buttons()
        if emit:
            f.set_context(self.editor.form.ctx())
            self.changed.emit()
        return f

    def remove(self, form: "RegionForm") -> None:
        if form not in self.forms or len(self.forms) <= 1:
            return
        picker().stop_within(form)
        self.forms.remove(form)
        self.parts.removeWidget(form)
        form.hide()
        form.deleteLater()
        self._update_buttons()
        self.changed.emit()

    def _update_buttons(self) -> None:
        for f in self.forms:
            if f.remove_button is not None:
                f.remove_button.setEnabled(len(self.forms) > 1)

    def load(self, items: list[dict]) -> None:
        for d in items or [_leaf_default("hexes")]:
            self.add(d)

    def regions(self) -> list[dict]:
        return [f.region() for f in self.forms]


class _ListEditor(_Editor):
    def __init__(self, form, kind: str):
        super().__init__(form)
        self.kind = kind
        words = "in any of these parts" if kind == "union" else "in every one of these parts"
        lab = WrapLabel(f"hexes {words}")
        lab.setStyleSheet("color: #555")
        self.lay.addRow(lab)
        self.parts = _PartList(self, words)
        self.parts.changed.connect(self.changed)
        self.lay.addRow(self.parts)

    def load(self, d):
        self.parts.load([x for x in d.get("of", []) if isinstance(x, dict)])

    def dump(self):
        return {"kind": self.kind, "of": self.parts.regions()}

    def children(self):
        return list(self.parts.forms)


class _DifferenceEditor(_Editor):
    kind = "difference"

    def __init__(self, form):
        super().__init__(form)
        self.of: RegionForm | None = None
        self.minus: _PartList | None = None

    def load(self, d):
        self.of = self._child(d.get("of") or _leaf_default("feature"), "hexes of")
        lab = WrapLabel("minus the hexes of any of")
        lab.setStyleSheet("color: #555")
        self.lay.addRow(lab)
        self.minus = _PartList(self, "minus")
        self.minus.load([x for x in d.get("minus", []) if isinstance(x, dict)])
        self.minus.changed.connect(self.changed)
        self.lay.addRow(self.minus)

    def dump(self):
        return {"kind": "difference", "of": self.of.region() if self.of else {},
                "minus": self.minus.regions() if self.minus else []}

    def children(self):
        return ([self.of] if self.of else []) + (list(self.minus.forms) if self.minus else [])


_EDITORS = {
    "hexes": _HexesEditor, "hex_range": _RangeEditor, "area": _AreaEditor, "section": _SectionEditor,
    "map_edge": _EdgeEditor, "feature": _FeatureEditor, "feature_kind": _FeatureKindEditor, "path": _PathEditor,
    "side_of": _SideOfEditor, "beyond": _BeyondEditor, "adjacent_to": _AdjacentEditor, "within": _WithinEditor,
    "reachable": _ReachableEditor, "named": _NamedEditor,
    "union": lambda f: _ListEditor(f, "union"), "intersection": lambda f: _ListEditor(f, "intersection"),
    "difference": _DifferenceEditor,
}


# =============================================================================== the form

class RegionForm(QFrame):
    """One region node: its kind and a form for its parameters (nested for combining kinds).

    Signals: ``changed(dict)`` after every edit by the user (the region as :meth:`region`
    gives it), ``remove_requested(form)`` (the part's remove button). ``set_region`` does not
    emit ``changed``."""

    changed = Signal(object)
    remove_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None, *, source=None, parent_form: "RegionForm | None" = None,
                 removable: bool = False):
        super().__init__(parent)
        self.parent_form = parent_form
        self._source = source
        #: named regions not offered (the region being edited, so it never refers to itself)
        self.exclude_named: set[str] = set()
        self._loading = 0
        self._hexes: frozenset[str] | None = None
        self._error: str | None = None
        self._own_error: str | None = None
        lay = QVBoxLayout(self)
        lay.setSpacing(3)
        if parent_form is not None:
            self.setFrameShape(QFrame.Shape.StyledPanel)
            lay.setContentsMargins(5, 3, 3, 3)
        else:
            lay.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.setSpacing(4)
        self.kind_combo = _combo(list((label, kind) for kind, label in KINDS), 10)
        self.kind_combo.setToolTip("What the region is built from")
        self.status = QLabel()
        self.status.setToolTip("the hexes of this part on the map")
        head.addWidget(self.kind_combo, 1)
        head.addWidget(self.status)
        self.remove_button: QToolButton | None = None
        if removable:
            self.remove_button = QToolButton()
            self.remove_button.setText("\u2715")
            self.remove_button.setToolTip("Remove this part")
            self.remove_button.clicked.connect(lambda: self.remove_requested.emit(self))
            head.addWidget(self.remove_button)
        lay.addLayout(head)
        self.error_label = WrapLabel()
        self.error_label.setStyleSheet(f"color: {_RED}")
        self.error_label.hide()
        lay.addWidget(self.error_label)
        self.body = QVBoxLayout()
        self.body.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(self.body)
        self.editor: _Editor | None = None
        self.kind_combo.currentIndexChanged.connect(self._kind_chosen)
        self._build({"kind": "hexes", "hexes": []})

    # ------------------------------------------------------------------ context
    def root(self) -> "RegionForm":
        f = self
        while f.parent_form is not None:
            f = f.parent_form
        return f

    def set_source(self, source) -> None:
        """Resolve against ``source.context`` (a :class:`RegionContext`; or a context itself)."""
        self._source = source
        self.set_context(self.ctx())
        if self.parent_form is None:
            self.refresh_status()

    def ctx(self):
        """The :class:`RegionContext` the form resolves against, or None."""
        root = self.root()
        return _ctx_of(root._source)

    def set_context(self, ctx) -> None:
        """Refresh the choices (features, sections, named regions, compass words) from ``ctx``."""
        if self.editor is not None:
            self._loading += 1
            try:
                self.editor.set_context(ctx)
            finally:
                self._loading -= 1
            for c in self.editor.children():
                c.set_context(ctx)

    # ------------------------------------------------------------------ content
    def kind(self) -> str:
        return self.kind_combo.currentData()

    def _build(self, data: dict) -> None:
        kind = data.get("kind")
        if kind not in _EDITORS:
            raise ValueError(f"unknown region kind {kind!r}; kinds: {', '.join(KIND_LABELS)}")
        self._loading += 1
        try:
            if self.editor is not None:
                picker().stop_within(self.editor)
                self.body.removeWidget(self.editor)
                self.editor.hide()
                self.editor.deleteLater()
            self.kind_combo.blockSignals(True)
            self.kind_combo.setCurrentIndex(self.kind_combo.findData(kind))
            self.kind_combo.blockSignals(False)
            ed = _EDITORS[kind](self)
            self.editor = ed
            self.body.addWidget(ed)
            ed.load(data)
            ctx = self.ctx()
            ed.set_context(ctx)
            for c in ed.children():
                c.set_context(ctx)
            ed.changed.connect(self._changed)
        finally:
            self._loading -= 1

    def set_region(self, data: dict | None) -> None:
        """Fill the form from a region's JSON (None: an empty hex list). Raises ValueError for an
        unknown kind. Does not emit ``changed``."""
        data = copy.deepcopy(data) if data is not None else {"kind": "hexes", "hexes": []}
        if not isinstance(data, dict):
            raise ValueError("a region is a JSON object with a \"kind\"")
        self._build(data)
        if self.parent_form is None:
            self.refresh_status()

    def set_kind(self, kind: str) -> None:
        """Switch to ``kind`` as the designer does with the list (what fits is kept, see
        :func:`convert_region`); emits ``changed``."""
        i = self.kind_combo.findData(kind)
        if i < 0:
            raise ValueError(f"unknown region kind {kind!r}")
        self.kind_combo.setCurrentIndex(i)

    def _kind_chosen(self, _i: int) -> None:
        kind = self.kind_combo.currentData()
        old = self.editor.dump() if self.editor is not None else {}
        self._build(convert_region(old, kind, self.ctx()))
        self._changed()

    def region(self) -> dict:
        """The region the form holds, as JSON: canonical (``model_dump(mode="json",
        exclude_none=True)``) when it validates, else as entered (see :meth:`error`)."""
        d = self.editor.dump() if self.editor is not None else {}
        try:
            return region_from_data(d).model_dump(mode="json", exclude_none=True)
        except (ValidationError, ValueError):
            return d

    def parts(self) -> list["RegionForm"]:
        """The nested forms (a side of's *of*, a union's parts, a difference's *of* then *minus*...)."""
        return self.editor.children() if self.editor is not None else []

    # ------------------------------------------------------------------ status
    def _changed(self) -> None:
        if self._loading:
            return
        if self.parent_form is None:
            self.refresh_status()
        self.changed.emit(self.region())

    def refresh_status(self) -> None:
        """Resolve every node again and show its count or its problem."""
        bad = None
        for c in self.parts():
            c.refresh_status()
            if c._error is not None and bad is None:
                bad = c
        self._own_error = None
        self._hexes = None
        if bad is not None:
            self._error = f"{KIND_LABELS.get(bad.kind(), bad.kind())}: {bad._error}" if bad._own_error else bad._error
            self.status.setText("")
            self.status.setToolTip("a part below has a problem")
            self.error_label.hide()
            return
        d = self.editor.dump() if self.editor is not None else {}
        msg = region_problem(d)
        if msg is None:
            ctx = self.ctx()
            if ctx is not None:
                try:
                    self._hexes = frozenset(h.id for h in region_from_data(d).resolve(ctx))
                except RegionError as e:
                    msg = e.message
        self._error = self._own_error = msg
        if msg is not None:
            self.status.setText("")
            self.error_label.setText(msg)
            self.error_label.show()
        else:
            self.error_label.hide()
            n = len(self._hexes) if self._hexes is not None else None
            self.status.setText("" if n is None else f"{n} hex{'es' if n != 1 else ''}")
            if n == 0:
                self.status.setStyleSheet(f"color: {_RED}")
                self.status.setToolTip("no hexes: check the parameters")
            else:
                self.status.setStyleSheet("")
                self.status.setToolTip("the hexes of this part on the map")

    def hexes(self) -> frozenset[str]:
        """The resolved hex ids (empty while the region has a problem or no source is set)."""
        return self._hexes or frozenset()

    def error(self) -> str | None:
        """What keeps the region from resolving, in words (the first part with a problem), or None."""
        return self._error

    def is_valid(self) -> bool:
        return self._error is None and region_problem(self.region()) is None

    def forms(self) -> list["RegionForm"]:
        """This form and every nested one, depth first."""
        out = [self]
        for c in self.parts():
            out += c.forms()
        return out


# =============================================================================== form + JSON

class RegionEditor(QWidget):
    """A :class:`RegionForm` (*Builder* tab) and the region's JSON (*Advanced (JSON)* tab), kept
    in step, with the live hex count (``count``) and the region in words (``describe``).
    ``changed(dict)`` after every edit in either tab; ``set_region`` does not emit it."""

    changed = Signal(object)

    def __init__(self, parent: QWidget | None = None, source=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.describe = WrapLabel()
        self.count = WrapLabel()
        f = self.count.font()
        f.setBold(True)
        self.count.setFont(f)
        lay.addWidget(self.describe)
        lay.addWidget(self.count)
        self.tabs = QTabWidget()
        self.form = RegionForm(source=source)
        self.form.status.hide()   # the whole region's count is ``count``, above the tabs
        page = QWidget()
        pl = QVBoxLayout(page)
        pl.setContentsMargins(4, 4, 4, 4)
        pl.addWidget(self.form)
        pl.addStretch(1)
        self.tabs.addTab(page, "Builder")
        jpage = QWidget()
        jl = QVBoxLayout(jpage)
        jl.setContentsMargins(4, 4, 4, 4)
        self.text = QPlainTextEdit()
        self.text.setPlaceholderText('{"kind": "hexes", "hexes": ["4307", "4308"]}')
        self.text.setMinimumHeight(120)
        self.json_error = WrapLabel()
        self.json_error.setStyleSheet(f"color: {_RED}")
        self.json_error.hide()
        jl.addWidget(self.text, 1)
        jl.addWidget(self.json_error)
        self.tabs.addTab(jpage, "Advanced (JSON)")
        lay.addWidget(self.tabs, 1)
        self._syncing = False
        self.form.changed.connect(self._form_changed)
        self.text.textChanged.connect(self._text_changed)
        self._show()

    def set_source(self, source) -> None:
        self.form.set_source(source)
        self._show()

    def set_region(self, data: dict | None) -> None:
        """Show ``data`` in both tabs (does not emit ``changed``)."""
        self.form.set_region(data)
        self._write_text()
        self._show()

    def region(self) -> dict:
        return self.form.region()

    def hexes(self) -> frozenset[str]:
        return self.form.hexes()

    def error(self) -> str | None:
        """The JSON's problem (while the text is not a valid region), else the form's."""
        return self.json_error.text() if not self.json_error.isHidden() else self.form.error()

    def is_valid(self) -> bool:
        return self.json_error.isHidden() and self.form.is_valid()

    def refresh(self) -> None:
        """Resolve again (the map, the north indicator or the named regions changed)."""
        self.form.set_context(self.form.ctx())
        self.form.refresh_status()
        self._show()

    def _write_text(self) -> None:
        self._syncing = True
        try:
            self.text.setPlainText(json.dumps(self.form.region(), indent=1))
        finally:
            self._syncing = False
        self.json_error.hide()

    def _form_changed(self, _data) -> None:
        self._write_text()
        self._show()
        self.changed.emit(self.region())

    def _text_changed(self) -> None:
        if self._syncing:
            return
        text = self.text.toPlainText()
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            self._json_problem(f"not JSON: {e}")
            return
        msg = region_problem(data)
        if msg is not None:   # the form keeps the last valid region; the JSON's problem is shown
            self._json_problem(msg)
            return
        self.form.set_region(data)
        self.json_error.hide()
        self._show()
        self.changed.emit(self.region())

    def _json_problem(self, msg: str) -> None:
        self.json_error.setText(msg)
        self.json_error.show()
        self._show()
        self.changed.emit(self.region())   # the region is as before, but not valid while the JSON is not

    def _show(self) -> None:
        err = self.error()
        if err is not None:
            self.count.setText(f"<span style='color:{_RED}'>{_html(err)}</span>")
        elif self.form.ctx() is None:
            self.count.setText("")
        else:
            n = len(self.form.hexes())
            self.count.setText(f"{n} hex{'es' if n != 1 else ''}")
        try:
            self.describe.setText(region_from_data(self.form.region()).describe())
        except (ValidationError, ValueError):
            self.describe.setText("")


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def picked_items(hexes: list[str], ordered: bool = False) -> list:
    """Overlay items marking the hexes of the field being picked: a thick cyan outline on each
    (over the region's magenta), numbered in order for a road's waypoints."""
    from PySide6.QtGui import QColor

    from editor.drawing.canvas import hex_path
    from editor.scenario.overlay import _label, _path_item, _pen, hex_centre

    out: list = []
    cyan = QColor(0, 150, 200)
    for i, hid in enumerate(hexes):
        try:
            h = hexgrid.parse_hex_id(hid)
        except hexgrid.HexIdError:
            continue
        out.append(_path_item(hex_path([h]), QColor(0, 170, 220, 40), _pen(cyan, 3.5), 15))
        if ordered:
            out += _label(str(i + 1), hex_centre(h), cyan.darker(140), px=24, z=31)
    return out


# =============================================================================== screenshot

def screenshot(out: str, size: tuple[int, int] = (1366, 768)) -> str:
    """Render the region builder offscreen to the PNG ``out``: Scenario 2 in the Scenario mode,
    a new region "north of the road" being built as *Reachable* from the north map edge with the
    east-west road (three waypoints picked on the map, numbered) as the barrier, the result
    drawn on the map. ``python -m editor.scenario.builders.region_builder docs/images/region-builder.png``."""
    from pathlib import Path

    from PySide6.QtWidgets import QApplication

    from editor.drawing.canvas import ToolEvent
    from editor.main_window import MainWindow

    root = Path(__file__).resolve().parents[3]
    app = QApplication.instance() or QApplication([])
    w = MainWindow(persist_settings=False)
    w.resize(*size)
    w.show()
    app.processEvents()
    w.open_file(root / "scenarios" / "data" / "scenario_2_khristishche.json", offer_recovery=False)
    ctl = w.scenario_ctl
    ctl.docks["regions"].raise_()
    panel = ctl.regions
    panel.new_region()
    panel.name.setText("north of the road")
    form = panel.editor.form
    form.set_kind("reachable")
    barrier = form.parts()[1]
    barrier.editor.through.pick_button.click()
    tool = w.tools.current
    for h in ("1014", "1715", "3014"):
        tool.press(ToolEvent.at_hex(h))
        tool.release(ToolEvent.at_hex(h))
    app.processEvents()
    ctl.fit()
    app.processEvents()
    w.grab().save(str(out), "PNG")
    picker().stop()
    ctl.doc.undo_stack.setClean()
    w.close()
    return str(out)


if __name__ == "__main__":   # pragma: no cover - a documentation helper
    import os
    import sys

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    import tempfile

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    _app = QApplication.instance() or QApplication([])
    from editor.app import quiet_qt_messages

    quiet_qt_messages()
    print(screenshot(sys.argv[1] if len(sys.argv) > 1 else "docs/images/region-builder.png"))
