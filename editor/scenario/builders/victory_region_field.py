"""The region of a victory condition: hexes typed as a list or picked on the map, named map
features, a kind of terrain, a named region, or the region language as JSON."""

from __future__ import annotations

import copy
import json
from typing import Callable

from pydantic import ValidationError
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from maps.json_file import JsonFileProblem, parse_json
from scenarios.regions import FEATURE_KINDS, region_from_data
from editor.scenario.document import validation_message
from editor.scenario.builders.victory_conditions import (
    REGION_MODES,
    _combo,
    _feature_names,
    _set_combo,
    parse_hex_list,
    region_mode,
)

__all__ = ["RegionField"]


# ============================================================================ region field

class RegionField(QWidget):
    """A region picked without typing JSON (a named region, hexes, map features, a kind of
    terrain) or, for a relational region, typed in the region language (*Advanced (JSON)*).

    :meth:`set_region` shows a region (JSON) and emits nothing; a change the user makes emits
    ``changed(region JSON)``; *Pick on map* emits ``pick_requested`` (the panel then lets the
    Region paint tool paint this region's hexes). :meth:`set_choices` gives the scenario's named
    regions, the map's named features and a resolver (region JSON -> (hex ids, error or None))
    for the hex count shown below.
    """

    changed = Signal(object)
    pick_requested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self._data: dict | None = None
        self._updating = False
        self._resolve: Callable[[dict], tuple[frozenset, str | None]] | None = None
        # no taller than the page shown: a one-line page (a named region, hexes, a kind of terrain)
        # is not stretched to the height of the list or JSON pages, so the rows under it stay in view
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.mode = _combo(REGION_MODES, 12)
        self.mode.setToolTip("how the region is given: a named region of the scenario, hexes, named map features, "
                             "a kind of terrain, or the region language (JSON) for a relational region")
        self.mode.currentIndexChanged.connect(self._mode_changed)
        lay.addWidget(self.mode)
        self.pages = QStackedWidget()
        lay.addWidget(self.pages)
        # named region
        self.named = QComboBox()
        self.named.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.named.setMinimumContentsLength(12)
        self.named.setToolTip("a region of the scenario's table of named regions (Regions dock: Add named region)")
        self.named.activated.connect(self._named_chosen)
        self.pages.addWidget(self.named)
        # hexes
        w = QWidget()
        hl = QHBoxLayout(w)
        hl.setContentsMargins(0, 0, 0, 0)
        self.hexes = QLineEdit()
        self.hexes.setPlaceholderText("4307, 4308")
        self.hexes.setToolTip("hex ids separated by commas or spaces; Enter applies")
        self.hexes.editingFinished.connect(self._hexes_typed)
        hl.addWidget(self.hexes, 1)
        self.pick = QPushButton("Pick on map")
        self.pick.setToolTip("click or drag on the map to add hexes (start inside the region to remove); "
                             "the Region paint tool")
        self.pick.clicked.connect(self._pick)
        hl.addWidget(self.pick)
        self.pages.addWidget(w)
        # map features
        self.features = QListWidget()
        self.features.setToolTip("tick the hills and buildings that make the region")
        self.features.setMaximumHeight(110)
        self.features.setMinimumHeight(72)   # three rows in view, never a half-cut one alone
        self.features.itemChanged.connect(self._features_ticked)
        w = QWidget()   # (in a layout, the page is as tall as the list's maximum height)
        fl = QVBoxLayout(w)
        fl.setContentsMargins(0, 0, 0, 0)
        fl.addWidget(self.features)
        self.pages.addWidget(w)
        # kind of terrain
        self.terrain = _combo(FEATURE_KINDS, 12)
        self.terrain.activated.connect(self._terrain_chosen)
        self.pages.addWidget(self.terrain)
        # advanced (JSON)
        w = QWidget()
        jl = QVBoxLayout(w)
        jl.setContentsMargins(0, 0, 0, 0)
        self.json = QPlainTextEdit()
        self.json.setPlaceholderText('{"kind": "within", "of": {"kind": "feature", "name": "Hill K"}, "distance": 2}')
        self.json.setMaximumHeight(120)
        jl.addWidget(self.json)
        self.apply_json = QPushButton("Apply region JSON")
        self.apply_json.clicked.connect(self._json_applied)
        jl.addWidget(self.apply_json)
        self.pages.addWidget(w)
        self.info = QLabel()
        self.info.setWordWrap(True)
        lay.addWidget(self.info)
        self._show_page(0)

    # ------------------------------------------------------------------ input
    def set_choices(self, named: list[str], features: list[str],
                    resolve: Callable[[dict], tuple[frozenset, str | None]] | None) -> None:
        """The scenario's named regions, the map's named features and buildings, and how a region
        resolves (for the hex count)."""
        self._updating = True
        try:
            self.named.clear()
            self.named.addItems(list(named))
            self.named.setEnabled(bool(named))
            self.named.setPlaceholderText("no named regions" if not named else "")
            self.features.clear()
            for n in features:
                it = QListWidgetItem(n)
                it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                it.setCheckState(Qt.CheckState.Unchecked)
                self.features.addItem(it)
            self._resolve = resolve
        finally:
            self._updating = False
        if self._data is not None:
            self.set_region(self._data)

    def set_region(self, data: dict | None) -> None:
        """Show the region ``data`` (JSON) in the page that fits it; emits nothing."""
        self._data = copy.deepcopy(data) if data is not None else None
        self._updating = True
        try:
            mode = region_mode(data) if data is not None else "hexes"
            self.mode.setCurrentIndex(list(REGION_MODES).index(mode))
            self._fill(mode)
        finally:
            self._updating = False
        self._info()

    def region(self) -> dict | None:
        """The region shown (JSON), as last set or changed."""
        return copy.deepcopy(self._data) if self._data is not None else None

    def current_mode(self) -> str:
        return list(REGION_MODES)[max(0, self.mode.currentIndex())]

    # ------------------------------------------------------------------ pages
    def _show_page(self, i: int) -> None:
        """Show page ``i``; the other pages take no room (the field is as tall as its page)."""
        for k in range(self.pages.count()):
            p = self.pages.widget(k)
            p.setSizePolicy(QSizePolicy.Policy.Preferred,
                            QSizePolicy.Policy.Preferred if k == i else QSizePolicy.Policy.Ignored)
            p.updateGeometry()
        self.pages.setCurrentIndex(i)
        self.pages.updateGeometry()

    def _mode_changed(self, i: int) -> None:
        self._show_page(i)
        if self._updating:
            return
        # the user chose another way to give the region: the page starts from the region shown;
        # the region changes when the page is used
        self._updating = True
        try:
            self._fill(self.current_mode())
        finally:
            self._updating = False
        mode = self.current_mode()
        if mode == "features" and self._data and region_mode(self._data) != "features":
            # the count below still describes the region as it was: say that it changes on a tick
            self._info()
            self.info.setText(self.info.text() + "<br><i>tick the features that make the region</i>")

    def _fill(self, mode: str) -> None:
        d = self._data or {}
        same = region_mode(d) == mode if d else False
        if mode == "named":
            self.named.setCurrentIndex(self.named.findText(d.get("name", "")) if same else -1)
            if same and self.named.currentIndex() < 0:   # a name the table lacks: shown, kept
                self.named.addItem(d["name"])
                self.named.setCurrentIndex(self.named.count() - 1)
        elif mode == "hexes":
            if same:
                self.hexes.setText(", ".join(d["hexes"]))
            else:
                ids = self._resolve(d)[0] if (self._resolve is not None and d) else frozenset()
                self.hexes.setText(", ".join(sorted(ids)))
        elif mode == "features":
            names = _feature_names(d) if same else []
            have = {self.features.item(i).text() for i in range(self.features.count())}
            for n in names:
                if n not in have:   # a feature the map lacks: listed, so the region is kept as it is
                    it = QListWidgetItem(n)
                    it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                    self.features.addItem(it)
            first = None
            for i in range(self.features.count()):
                it = self.features.item(i)
                it.setCheckState(Qt.CheckState.Checked if it.text() in names else Qt.CheckState.Unchecked)
                if first is None and it.text() in names:
                    first = it
            if first is not None:
                self.features.scrollToItem(first, QListWidget.ScrollHint.PositionAtTop)
        elif mode == "terrain":
            _set_combo(self.terrain, d.get("feature") if same else None)
        else:
            self.json.setPlainText(json.dumps(d, indent=1, ensure_ascii=False) if d else "")

    def _info(self, error: str | None = None) -> None:
        if error is not None:
            self.info.setText(f"<span style='color:#b00'>{error}</span>")
            return
        d = self._data
        if d is None or self._resolve is None:
            self.info.setText("")
            return
        ids, err = self._resolve(d)
        try:
            words = region_from_data(d).describe()
        except ValidationError:
            words = "?"
        if err:
            self.info.setText(f"<span style='color:#b00'>{err}</span>")
        else:
            n = len(ids)
            colour = "#b00" if n == 0 else "#444"
            self.info.setText(f"<span style='color:{colour}'>{words}: {n} hex{'es' if n != 1 else ''}</span>")
        self.info.setToolTip(words)

    def _emit(self, data: dict) -> None:
        if self._updating or data == self._data:
            return
        self._data = copy.deepcopy(data)
        self.changed.emit(copy.deepcopy(data))

    def _named_chosen(self, _i: int) -> None:
        name = self.named.currentText()
        if name:
            self._emit({"kind": "named", "name": name})

    def _hexes_typed(self) -> None:
        if self._updating or not self.hexes.isModified():   # focus passing through changes nothing
            return
        self.hexes.setModified(False)
        try:
            ids = parse_hex_list(self.hexes.text())
        except ValueError as e:
            self._info(str(e))
            return
        self._emit({"kind": "hexes", "hexes": ids})

    def _pick(self) -> None:
        self.pick_requested.emit()

    def _features_ticked(self, _item) -> None:
        if self._updating:
            return
        ticked = [self.features.item(i).text() for i in range(self.features.count())
                  if self.features.item(i).checkState() == Qt.CheckState.Checked]
        d = self._data or {}
        before = _feature_names(d) if region_mode(d) == "features" else []
        # the order of the region is kept; a newly ticked feature comes last
        names = [n for n in before if n in ticked] + [n for n in ticked if n not in before]
        if not names:
            self._info("tick at least one feature")
            return
        if len(names) == 1:
            self._emit({"kind": "feature", "name": names[0]})
        else:
            self._emit({"kind": "union", "of": [{"kind": "feature", "name": n} for n in names]})

    def _terrain_chosen(self, _i: int) -> None:
        k = self.terrain.currentData()
        if k:
            self._emit({"kind": "feature_kind", "feature": k})

    def _json_applied(self) -> None:
        try:
            data = parse_json(self.json.toPlainText())  # an endless number or deep nesting is said
        except JsonFileProblem as e:
            self._info(f"not JSON: {e}")
            return
        try:
            region_from_data(data)
        except ValidationError as e:
            self._info("not a region: " + validation_message(e).replace("\n", "; "))
            return
        self._emit(data)
