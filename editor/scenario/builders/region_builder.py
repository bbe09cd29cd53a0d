"""The region builder: regions of the region language built with forms and
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

from pydantic import ValidationError
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from maps import hexgrid
from scenarios.regions import RegionError, region_from_data
from editor.scenario.builders.region_kind_editors import _EDITORS, _Editor
from editor.scenario.builders.region_kinds import (
    KINDS,
    KIND_LABELS,
    _RED,
    _ctx_of,
    convert_region,
    region_problem,
)
from editor.scenario.builders.region_picking import WrapLabel, _combo, picker
from maps.json_file import JsonFileProblem, parse_json

__all__ = ["RegionForm", "RegionEditor", "picked_items"]



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
            if hasattr(self.editor, "explain"):
                self.editor.explain(ctx)   # what a side of a bent line means there
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
            data = parse_json(text)  # an endless number or deep nesting is said
        except JsonFileProblem as e:
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
    from editor.drawing.pieces import _label, _path_item, _pen, hex_centre

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
