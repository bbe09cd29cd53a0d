"""What a scenario puts into a VASSAL module (``ironcross export vassal``), as plain data every rule
system fills the same way: counters with their printed lines and values, markers, the set-up, later
entries, boxes of units waiting off the map, each side's secrets, the turn track's length and the
scenario's text. No Qt and no pywargame: ``cli/vassal_module.py`` draws and writes a plan without
knowing any system; a system makes its plan in its own package (``RuleSystem.vassal_plan``:
``core/ironcross/vassal_plan.py``, ``core/redflags/vassal_plan.py``, ``core/twentymm/vassal_plan.py``).

Two kinds of board (``VassalPlan.grid``):

* ``"hex"`` -- a hex system (Iron Cross, Red Flags): the board carries a snapping hex grid whose
  location names are the printed hex ids; a placement's ``where`` is a hex id (``"4307"``) and its
  ``facing`` a hexside 1-6 (1 = the top of the sheet, clockwise: :func:`maps.hexgrid.neighbour`).
* ``"free"`` -- a measured system (the 20 mm rules): the board carries a hex grid that does NOT snap
  (it only names where a piece stands); a placement's ``where`` is a point in map units (the
  lattice coordinates of :mod:`maps.hexgrid`: hex (col, row) has its centre at ``X = 3 col``,
  ``Y = 2 row + (col & 1)``) and its ``facing`` a bearing in degrees (0 = +X, east; 90 = +Y, down
  the sheet, as the 20 mm rules measure).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["SIDE_NAMES", "Counter", "Placement", "VassalPlan", "secret_marker"]

SIDE_NAMES = {"german": "German", "russian": "Russian"}


@dataclass(frozen=True)
class Counter:
    """One counter of the palette.

    ``side``: ``"german"``/``"russian"`` (its colours and its tab), or ``"marker"``; ``lines``: the
    three lines printed on it (top, middle in bold, bottom); ``values``: its values as piece
    properties (name -> text, in the order given); ``name``: the piece's name; ``facing``:
    ``"hexside"`` (six steps), ``"degrees"`` (free rotation) or None; ``layers``: (layer name, the
    band's text, the key with Ctrl) of states shown as a band on the counter (Iron Cross's DOWN,
    Red Flags' DUG IN)."""

    side: str
    lines: tuple[str, str, str]
    values: dict[str, str]
    name: str = ""
    facing: Literal["hexside", "degrees"] | None = None
    layers: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class Placement:
    """Where a counter or marker stands at the start: ``where`` a hex id (hex grid) or (X, Y) map
    units (free board); ``facing`` a hexside 1-6 or a bearing in degrees (see the module
    docstring), None: as drawn; ``layers``: the names of the counter's layers showing at start;
    ``secret``: the unit starts hidden from the other side (it stands on its own side's private
    copy of the board, at the same place)."""

    where: str | tuple[float, float]
    facing: float | None = None
    layers: tuple[str, ...] = ()
    secret: bool = False


@dataclass
class VassalPlan:
    """What goes into the module.

    ``system``: the rule system's display name; ``hexmap`` (:class:`maps.hexmap.HexMap`) and
    ``sections``: the board; ``grid``: ``"hex"`` or ``"free"``; ``turns``: the turn track's length
    and ``turn_name`` its name; ``counters``: uid -> :class:`Counter` in roster order;
    ``markers``: marker name -> :class:`Counter` (side ``"marker"``; ``values`` at least
    ``Rule``); ``placed``: uid -> :class:`Placement` at start; ``placed_markers``: (marker name,
    :class:`Placement`) public markers at start (wire, mines, objectives a scenario prints);
    ``entries``: (side, turn, uids) units that enter later; ``holding``: (side, box title, uids)
    units waiting in a box without a turn (not yet set up, off the table); ``secrets``: side ->
    names of markers only that side sees (each name begins with its marker's name, see
    :func:`secret_marker`); ``help_html``: the scenario's text; ``provenance``: reconstructed
    values, one line each."""

    system: str
    title: str
    hexmap: Any
    sections: list[str]
    turns: int
    counters: dict[str, Counter]
    markers: dict[str, Counter]
    placed: dict[str, Placement]
    help_html: str
    grid: Literal["hex", "free"] = "hex"
    turn_name: str = "Game Turn"
    entries: list[tuple[str, int, list[str]]] = field(default_factory=list)
    holding: list[tuple[str, str, list[str]]] = field(default_factory=list)
    placed_markers: list[tuple[str, Placement]] = field(default_factory=list)
    secrets: dict[str, list[str]] = field(default_factory=dict)
    source: str = ""
    provenance: list[str] = field(default_factory=list)


def secret_marker(name: str, markers: dict[str, Any]) -> str:
    """The marker a secret named ``name`` is drawn with: the longest marker name it begins with
    (``"IP 2 (4308)"`` -> ``"IP 2"``, ``"Hidden hex 4509"`` -> ``"Hidden"``), else the last marker
    whose first word it begins with (``"IP 4"`` -> ``"IP 3"``). Raises KeyError when none fits."""
    fits = [m for m in markers if name.startswith(m)]
    if fits:
        return max(fits, key=len)
    word = name.split(" ", 1)[0]
    same = [m for m in markers if m.split(" ", 1)[0] == word]
    if same:
        return same[-1]
    raise KeyError(name)
