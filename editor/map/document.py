"""The map document: owns a :class:`maps.model.MapFile` and the ``QUndoStack`` of its edits.

Following Tiled's ``Document``: nothing edits the map behind the document's back. Every edit is a
command (:mod:`editor.map.commands`) pushed on :attr:`MapDocument.undo_stack`; commands call
:meth:`MapDocument.apply`, which replaces the changed fragments of the map and emits
:attr:`MapDocument.changed` with the hex ids affected (``None``: anything may have changed).
Views observe that signal and redraw (Orange's scheme/scene split).

The ``MapFile`` is kept as an immutable snapshot: an edit makes a new ``MapFile`` (a shallow
``model_copy`` with the changed fields replaced), never mutating lists or records in place. So
commands can keep the previous fragments by reference and restore them exactly, and a
:class:`maps.hexmap.HexMap` handed to a worker thread never changes under it. The ``HexMap`` is
rebuilt lazily on first use after an edit.

The terrain chart is part of the map (``MapFile.terrain_chart``, :attr:`MapDocument.chart`): an
edit in the Terrain chart dock is a map edit (:class:`editor.map.commands.ChartCommand`, the chart
becomes embedded in the map file) and emits :attr:`MapDocument.chart_changed` instead of
``changed`` (the painted map does not depend on it); saving the map saves its chart.

Files: :meth:`save` is atomic (:func:`maps.mapfile.save_map`); :meth:`autosave` writes
``FILE.autosave`` beside the file (the main window calls it every minute from a ``QTimer``);
:meth:`newer_autosave` tells whether a crash left an autosave newer than the file.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from maps.document_file import atomic_write_text
from maps.hexmap import HexMap
from maps.mapfile import chart_path, check_map, load_map_file, map_chart, map_json, save_map
from maps.document_file import load_document
from maps.model import MAP_FORMAT, MAP_VERSION, Extent, HexRecord, MapFile, Section

__all__ = ["MapDocument", "autosave_path", "new_map", "is_shipped_map"]

AUTOSAVE_SUFFIX = ".autosave"


def is_shipped_map(path: str | os.PathLike[str]) -> bool:
    """Is ``path`` a file in the shipped map folder (``maps/data``), which the shipped scenarios read?"""
    import maps

    try:
        return Path(path).resolve().parent == (Path(maps.__file__).resolve().parent / "data")
    except OSError:
        return False


def autosave_path(path: str | os.PathLike[str]) -> Path:
    """The side file autosaves go to: ``FILE.autosave`` next to ``FILE``."""
    p = Path(path)
    return p.with_name(p.name + AUTOSAVE_SUFFIX)


def remove_autosave(path: str | os.PathLike[str]) -> None:
    """Remove the autosave side file of ``path`` (none: nothing to do). One that cannot be removed
    (no permission, a read-only folder) is logged: it will be offered for recovery next time."""
    a = autosave_path(path)
    try:
        a.unlink(missing_ok=True)
    except OSError as e:
        logging.getLogger(__name__).warning("cannot remove the autosave %s: %s", a, e.strerror or e)


def new_map(columns: tuple[int, int] = (10, 30), rows: tuple[int, int] = (1, 27), name: str = "Untitled map") -> MapFile:
    """An empty map (all clear, level 0) of the given columns and rows, one section."""
    return MapFile(
        name=name,
        extent=Extent(first_column=columns[0], last_column=columns[1], first_row=rows[0], last_row=rows[1]),
        sections=[Section(name="Map", first_column=columns[0], last_column=columns[1])],
    )


class MapDocument(QObject):
    """A map being edited: the model, its undo stack, its file and its dirty state.

    Signals: ``changed(object)`` - a frozenset of the hex ids whose values changed, or None when
    map-wide things (buildings, paths, extent...) may have changed; ``chart_changed(object)`` -
    the terrain chart (:attr:`chart`) changed; ``dirty_changed(bool)``; ``path_changed(object)``.
    """

    changed = Signal(object)
    chart_changed = Signal(object)
    dirty_changed = Signal(bool)
    path_changed = Signal(object)

    def __init__(self, mapfile: MapFile, path: str | os.PathLike[str] | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self._map = mapfile
        self._path = Path(path) if path is not None else None
        self._hexmap: HexMap | None = None
        self._last_hexmap: HexMap | None = None
        self._records: dict[str, HexRecord] | None = None
        self._recovered = False
        self._building_map = None
        self._building_key = None
        #: chart files the map names, loaded (resolved path -> TerrainChart)
        self._chart_files: dict[Path, object] = {}
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)

    def _clean_changed(self, _clean: bool) -> None:
        try:
            self.dirty_changed.emit(self.is_dirty)
        except RuntimeError:  # the stack is being destroyed with the document
            pass

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: str | os.PathLike[str], parent: QObject | None = None) -> "MapDocument":
        """Load and check a map file and the terrain chart it names; raises
        :class:`maps.document_file.DocumentError`."""
        mf = load_map_file(path)
        chart = map_chart(mf, path)   # a chart file that cannot be loaded is refused here, by name
        if isinstance(mf.terrain_chart, str):   # in memory the chart file is named by its absolute path
            mf = mf.model_copy(update={"terrain_chart": str(chart_path(mf, path))})
        doc = cls(mf, path, parent)
        if isinstance(mf.terrain_chart, str):
            doc._chart_files[Path(mf.terrain_chart)] = chart
        return doc

    @staticmethod
    def newer_autosave(path: str | os.PathLike[str]) -> Path | None:
        """The autosave side file of ``path`` when it exists and is newer than the file."""
        a = autosave_path(path)
        try:
            if a.stat().st_mtime > Path(path).stat().st_mtime:
                return a
        except OSError:
            return None
        return None

    def recover_from(self, autosave: str | os.PathLike[str]) -> None:
        """Replace the map by the autosaved one (an undoable edit; the document becomes dirty).

        Raises :class:`DocumentError` when the autosave is not a valid map.
        """
        from editor.map.commands import ReplaceMapCommand

        doc = load_document(autosave, MapFile, format_name=MAP_FORMAT, version=MAP_VERSION, checks=check_map)
        self.undo_stack.push(ReplaceMapCommand(self, doc, "Recover autosave"))
        self._recovered = True
        self.dirty_changed.emit(True)

    # ------------------------------------------------------------------ the model
    @property
    def map(self) -> MapFile:
        """The current map (an immutable snapshot: do not change it, push a command)."""
        return self._map

    @property
    def hexmap(self) -> HexMap:
        """The derived read-only :class:`HexMap` of the current map (rebuilt lazily after edits),
        carrying the map's terrain chart (``hexmap.chart``)."""
        if self._hexmap is None:   # what the edit left alone is taken over from the last one
            self._hexmap = HexMap(self._map, chart=self.chart, reuse=self._last_hexmap)
            self._last_hexmap = self._hexmap
        return self._hexmap

    @property
    def chart(self):
        """The terrain effects chart the map is played with: the embedded chart, the chart file
        the map names (loaded when named), or the shipped chart."""
        ref = self._map.terrain_chart
        if ref is None or not isinstance(ref, str):
            return map_chart(self._map)
        p = chart_path(self._map, self._path)
        if p not in self._chart_files:
            self._chart_files[p] = map_chart(self._map, self._path)   # raises DocumentError by name
        return self._chart_files[p]

    def set_chart(self, chart, text: str = "Edit terrain chart") -> None:
        """Play the map with ``chart`` (a :class:`TerrainChart`, embedded in the map file when
        saved): one undoable map edit."""
        from editor.map.commands import ChartCommand

        if chart is self.chart:
            return
        self.undo_stack.push(ChartCommand(self, text, fields={"terrain_chart": chart}))

    def use_chart_file(self, path: str | os.PathLike[str], text: str | None = None) -> None:
        """Name the chart file ``path`` as the map's chart (saved relative to the map file): one
        undoable map edit. Raises DocumentError when the file is not a valid chart."""
        from editor.map.commands import ChartCommand
        from maps.terrain_chart import load_terrain_chart

        p = Path(path).resolve()
        self._chart_files[p] = load_terrain_chart(p)
        ref = str(p)
        if ref == self._map.terrain_chart:
            return
        self.undo_stack.push(ChartCommand(self, text or f"Use terrain chart {p.name}", fields={"terrain_chart": ref}))

    @property
    def building_map(self):
        """An :class:`editor.map.edits.BuildingIndex` of the buildings (cheap lookups of building hexes
        for brushes); rebuilt only when the buildings or the extent change."""
        from editor.map.edits import BuildingIndex

        key = (id(self._map.buildings), self._map.extent)
        if self._building_map is None or self._building_key != key:
            self._building_map = BuildingIndex(self._map)
            self._building_key = key
        return self._building_map

    @property
    def records(self) -> dict[str, HexRecord]:
        """Hex records by id (only the hexes the file lists; others are clear, level 0)."""
        if self._records is None:
            self._records = {r.id: r for r in self._map.hexes}
        return self._records

    def apply(self, hexes: dict[str, HexRecord | None] | None = None, fields: dict[str, object] | None = None) -> None:
        """Replace hex records (``None`` removes the record) and whole fields of the map.

        Only commands call this (in their redo/undo). Emits :attr:`changed`.
        """
        update: dict[str, object] = dict(fields or {})
        if hexes:
            recs = dict(self.records) if "hexes" not in update else {r.id: r for r in update["hexes"]}  # type: ignore[union-attr]
            for hid, rec in hexes.items():
                if rec is None:
                    recs.pop(hid, None)
                else:
                    recs[hid] = rec
            update["hexes"] = list(recs.values())
            self._records = recs
        elif "hexes" in update:
            self._records = None
        if not update:
            return
        self._map = self._map.model_copy(update=update)
        self._hexmap = None
        if set(update) == {"terrain_chart"}:   # the painted map does not depend on the chart
            self.chart_changed.emit(self.chart)
            return
        only_hexes = set(update) == {"hexes"} and not fields
        self.changed.emit(frozenset(hexes) if only_hexes and hexes else None)
        if "terrain_chart" in update:
            self.chart_changed.emit(self.chart)

    # ------------------------------------------------------------------ files
    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def is_dirty(self) -> bool:
        return self._recovered or not self.undo_stack.isClean()

    def display_name(self) -> str:
        return self._path.name if self._path else "untitled"

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Save atomically to ``path`` (default: the document's path); the document becomes clean
        and its autosave side file is removed. Raises DocumentError (map invalid), ValueError (no
        path) or OSError."""
        target = Path(path) if path is not None else self._path
        if target is None:
            raise ValueError("the document has no file name yet: use Save As")
        out = self._map
        if isinstance(out.terrain_chart, str):   # the chart file is saved relative to the map file
            p = chart_path(out, self._path)
            try:
                ref = os.path.relpath(p, target.resolve().parent).replace(os.sep, "/")
            except ValueError:   # another drive
                ref = str(p)
            out = out.model_copy(update={"terrain_chart": ref})
        save_map(target, out)
        old = self._path
        self._path = target
        self._recovered = False
        self._building_map = None
        self._building_key = None
        self.undo_stack.setClean()
        self.dirty_changed.emit(False)
        for p in {old, target}:
            if p is not None:
                try:
                    autosave_path(p).unlink()
                except OSError:
                    pass
        if old != target:
            self.path_changed.emit(target)
        return target

    def autosave(self) -> Path | None:
        """Write the map to ``FILE.autosave`` when it has unsaved changes; returns the path written.

        An untitled document autosaves nowhere (returns None).
        """
        if self._path is None or not self.is_dirty:
            return None
        a = autosave_path(self._path)
        atomic_write_text(a, json.dumps(map_json(self._map), indent=1, ensure_ascii=False) + "\n")
        return a

    def discard_autosave(self) -> None:
        if self._path is not None:
            remove_autosave(self._path)
