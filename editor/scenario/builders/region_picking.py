"""Picking hexes on the map for the region builder: the application's one :class:`HexPicker`
(:func:`picker`), whose target is the field whose *Pick* button is down; the hex fields
(:class:`HexField`: a list of hexes, the waypoints of a road, one hex) and the feature picker
(:class:`FeatureField`) that take the clicks; and small shared widgets of the forms."""
from __future__ import annotations

from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QSizePolicy, QToolButton, QWidget

from maps import hexgrid
from scenarios.regions import COMPASS
from editor.scenario.builders.region_kinds import _SHEET, _feature_names, parse_hex_ids

__all__ = ["HexField", "FeatureField", "HexPicker", "picker", "WrapLabel"]


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
