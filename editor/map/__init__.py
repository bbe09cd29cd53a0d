"""The Map mode: the map document and its undo commands, the map edits, the painting tools
(select, terrain, trees, level, building, path, obstacle, feature, LOS) and the Terrain chart,
Errata and LOS docks. Uses only the shared drawing below it."""
