"""Undo commands: one ``QUndoCommand`` subclass per kind of map edit (as Tiled's painttilelayer.h).

Every command records, at creation, the map fragments it replaces (hex records by id, whole list
fields such as ``buildings`` or ``roads``) and the fragments it puts in their place; ``redo`` and
``undo`` hand one or the other to :meth:`editor.map.document.MapDocument.apply`. Map values are
immutable snapshots, so "before" restores exactly what was there (a building cut by a brush comes
back with its polygon, number, name and provenance).

Brush commands carry a ``stroke`` id: consecutive commands of the same class and stroke merge
(``id()`` / ``mergeWith()``), so one mouse drag is one undo step.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from maps.model import HexRecord, MapFile

__all__ = [
    "MapEditCommand",
    "PaintTerrainCommand",
    "PaintTreesCommand",
    "PaintLevelCommand",
    "FloodFillCommand",
    "AddBuildingCommand",
    "EditBuildingCommand",
    "JoinBuildingsCommand",
    "DeleteBuildingCommand",
    "PathCommand",
    "ObstacleCommand",
    "NameFeatureCommand",
    "PasteRegionCommand",
    "ResizeMapCommand",
    "ApplyErrataCommand",
    "ReplaceMapCommand",
    "ChartCommand",
    "MapPropertiesCommand",
]


class MapEditCommand(QUndoCommand):
    """Base: replace some hex records and some whole fields of the map; undo puts them back.

    Subclasses set :attr:`MERGE_ID` (a distinct int) when strokes of them merge.
    """

    MERGE_ID = -1

    def __init__(self, doc: "MapDocument", text: str, hexes: dict[str, HexRecord | None] | None = None,
                 fields: dict[str, object] | None = None, stroke: int | None = None):
        super().__init__(text)
        self.doc = doc
        self.stroke = stroke
        self.after_hexes: dict[str, HexRecord | None] = dict(hexes or {})
        self.after_fields: dict[str, object] = dict(fields or {})
        recs = doc.records
        self.before_hexes: dict[str, HexRecord | None] = {hid: recs.get(hid) for hid in self.after_hexes}
        self.before_fields: dict[str, object] = {k: getattr(doc.map, k) for k in self.after_fields}

    @property
    def empty(self) -> bool:
        return not self.after_hexes and not self.after_fields

    def redo(self) -> None:
        self.doc.apply(self.after_hexes, self.after_fields)

    def undo(self) -> None:
        self.doc.apply(self.before_hexes, self.before_fields)

    def id(self) -> int:  # noqa: A003 - Qt's name
        return self.MERGE_ID if self.stroke is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        if type(other) is not type(self) or other.stroke is None or other.stroke != self.stroke:
            return False
        for hid, rec in other.after_hexes.items():
            if hid not in self.before_hexes:
                self.before_hexes[hid] = other.before_hexes[hid]
            self.after_hexes[hid] = rec
        for k, v in other.after_fields.items():
            if k not in self.before_fields:
                self.before_fields[k] = other.before_fields[k]
            self.after_fields[k] = v
        return True


class PaintTerrainCommand(MapEditCommand):
    """Terrain brush (clear / marsh); takes building symbols out of the painted hexes."""

    MERGE_ID = 1


class PaintTreesCommand(MapEditCommand):
    """Tree-symbol brush: set, add or remove tree symbols."""

    MERGE_ID = 2


class PaintLevelCommand(MapEditCommand):
    """Level brush: set the hill level of hexes."""

    MERGE_ID = 3


class FloodFillCommand(MapEditCommand):
    """Flood fill of a 6-connected same-terrain region: one undo step."""


class AddBuildingCommand(MapEditCommand):
    """A new building symbol (polygon drawn on the lattice, or a hex footprint)."""


class EditBuildingCommand(MapEditCommand):
    """Change a building's number, name or polygon."""


class JoinBuildingsCommand(MapEditCommand):
    """Join two building symbols in adjacent hexes into one multi-hex building."""


class DeleteBuildingCommand(MapEditCommand):
    """Remove a building symbol."""


class PathCommand(MapEditCommand):
    """Road or gully path drawn hex to hex; the clicks of one path merge into one undo step."""

    MERGE_ID = 4


class ObstacleCommand(MapEditCommand):
    """Draw, re-kind or delete a linear obstacle or tank traps (``obstacles``, ``tank_traps``)."""


class NameFeatureCommand(MapEditCommand):
    """Name a set of hexes as a feature ("Hill K"), or rename / remove one."""


class PasteRegionCommand(MapEditCommand):
    """Paste a copied (possibly rotated) hex region."""


class ResizeMapCommand(MapEditCommand):
    """Add or remove columns or rows on an edge of the map."""


class MapPropertiesCommand(MapEditCommand):
    """Change the map's name or description (a copy of a map gets its own name)."""


class ReplaceMapCommand(MapEditCommand):
    """Replace the whole map by another (autosave recovery); only the fields that differ are kept."""

    def __init__(self, doc: "MapDocument", new: MapFile, text: str):
        cur = doc.map
        fields = {k: getattr(new, k) for k in MapFile.model_fields if getattr(new, k) != getattr(cur, k)}
        super().__init__(doc, text, fields=fields)


class ApplyErrataCommand(ReplaceMapCommand):
    """Apply an errata file's matching corrections: one undoable step."""


class ChartCommand(MapEditCommand):
    """Change the terrain chart the map is played with (``MapFile.terrain_chart``): a value edited
    in the Terrain chart dock (the chart becomes embedded in the map) or a chart file named."""
