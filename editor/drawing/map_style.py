"""How the map is drawn: the layers in drawing order, the scale (scene units per lattice unit, a
hex 100 scene units across flats), the colours, line widths and text sizes of every layer."""

from __future__ import annotations

from PySide6.QtGui import QColor

from maps import hexgrid

__all__ = ["LAYERS", "HEX_HEIGHT", "SCENE_PER_X", "SCENE_PER_Y"]


#: Every layer a :class:`MapPainter` can draw, in drawing order of their main items.
LAYERS: tuple[str, ...] = (
    "levels", "marshes", "grid", "gullies", "roads", "trees", "buildings", "obstacles", "ids", "labels",
    "sections", "provenance", "title", "legend",
)

#: Scene units per lattice unit (Y: 5 m; X: 5/sqrt(3) m), so that hexes are regular.
SCENE_PER_Y: float = 50.0
SCENE_PER_X: float = SCENE_PER_Y * hexgrid.X_SCALE_M / hexgrid.Y_SCALE_M
#: A hex is this many scene units across flats (10 m, rule 2.1).
HEX_HEIGHT: float = 2 * SCENE_PER_Y
#: Corner-to-corner width of a hex in scene units.
HEX_WIDTH: float = 4 * SCENE_PER_X

# ------------------------------------------------------------------------------------------
# Colours and sizes (scene units: a hex is 100 across flats)
# ------------------------------------------------------------------------------------------
CLEAR = QColor("#f1e4c3")          # pale buff
LEVEL_COLOURS = {1: QColor("#dcbf86"), 2: QColor("#c09658"), 3: QColor("#a2753c"), 4: QColor("#86592a")}
CONTOUR = QColor("#6e4a22")
MARSH = QColor("#b3d5c9")
MARSH_STROKE = QColor("#2b6c78")
GRID = QColor("#5b5042")
GULLY_EDGE = QColor("#5a3818")
GULLY_FILL = QColor("#9a6836")
ROAD_EDGE = QColor("#4d453c")
ROAD_FILL = QColor("#b9ad98")
BRIDGE_DECK = QColor("#e0d6c2")
TREE_FILL = QColor("#4b9a3f")
TREE_LIGHT = QColor("#86c46c")
TREE_EDGE = QColor("#1d4a19")
BUILDING_FILL = QColor("#9b2f24")
#: Linear obstacles (drawn in this order of kinds): (colour, width, dash pattern or None) strokes,
#: the first one underneath: a wall solid dark, a low stone wall dark with a dotted light core, a
#: hedge green, a fence dashed brown.
OBSTACLE_STYLE: dict[str, tuple[tuple[QColor, float, list[float] | None], ...]] = {
    "wall": ((QColor("#1e1e1e"), 7.0, None),),
    "low_stone_wall": ((QColor("#1e1e1e"), 5.5, None), (QColor("#c9c4b6"), 2.6, [1.0, 1.0])),
    "hedge": ((QColor("#1d4a19"), 10.0, None), (QColor("#4b9a3f"), 6.0, None)),
    "fence": ((QColor("#6b4424"), 3.2, [3.0, 1.6]),),
}
TANK_TRAP = QColor("#1e1e1e")
#: Scene units between two crosses of a row of tank traps, and half the arm of a cross.
TANK_TRAP_STEP = 14.0
TANK_TRAP_ARM = 4.5
TANK_TRAP_WIDTH = 2.2
BUILDING_EDGE = QColor("#111111")
#: The light core of a window's double line.
WINDOW_CORE = QColor("#e8eef2")
ID_COLOUR = QColor("#3d352b")
SECTION_LINE = QColor(42, 42, 88, 190)
SECTION_TEXT = QColor("#2a2a58")
MARGIN_BG = QColor("#fbf7ec")

GRID_WIDTH = 1.6
FRAME_WIDTH = 4.0
SECTION_WIDTH = 4.5
CONTOUR_WIDTH = 3.5
GULLY_WIDTH = 30.0
GULLY_EDGE_WIDTH = 4.0
ROAD_WIDTH = 15.0
ROAD_EDGE_WIDTH = 3.0
TREE_EDGE_WIDTH = 2.2
BUILDING_EDGE_WIDTH = 2.6

ID_PX = 15
LABEL_PX = 26
BUILDING_LABEL_PX = 22
TITLE_PX = 36
LEGEND_PX = 18
MARGIN = 24.0          # around the map inside the scene rect
TITLE_H = 60.0
FONT_FAMILY = "DejaVu Sans"
