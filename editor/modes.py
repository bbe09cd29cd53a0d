"""The editor window's modes, as data shared by the shell and the modes: the modes a user switches
between (Ctrl+1/2/3), the tools of each and what each is for. The Scenario controller reads the
tools of a mode from here, so no mode imports the main window."""

from __future__ import annotations

__all__ = ["MODES", "MODE_TOOLS", "MODE_HELP"]

#: The window's modes (task, label); Scenario and Play need an open scenario.
MODES: tuple[tuple[str, str], ...] = (("map", "Map"), ("scenario", "Scenario"), ("play", "Play"))
#: The tools of each mode; the first is the one chosen on entering the mode.
MODE_TOOLS: dict[str, tuple[str, ...]] = {
    "map": ("select", "terrain", "trees", "level", "building", "path", "obstacle", "feature", "los"),
    "scenario": ("place", "region", "north", "marks", "tableplace", "tape"),
    "play": ("hotseat",),
}
#: the modes' tool tips
MODE_HELP = {"map": "paint terrain, buildings, roads and features; LOS; terrain chart; errata",
             "scenario": "properties, orders of battle, regions, victory, set-up, validation",
             "play": "batch playtest, watch a game, hot-seat"}
