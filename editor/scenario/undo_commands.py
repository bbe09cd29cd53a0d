"""The scenario document's undo commands: a new snapshot of the scenario (consecutive paint
edits merged), a change of the designer's set-up (:class:`PlacedUnit` units, hidden hexes, mines,
IPs, the 24.1 choices), and the stacking check of a unit placed (8.61-8.63). A command's ``doc`` is
the :class:`editor.scenario.document.ScenarioDocument` it edits (its ``_set_scenario`` and
``_set_setup`` apply a snapshot)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject
from PySide6.QtGui import QUndoCommand

from scenarios.model import Scenario

__all__ = ["ScenarioEditCommand", "PlacementCommand", "PlacedUnit", "stack_problem"]


@dataclass(frozen=True)
class PlacedUnit:
    """A unit of the designer's trial set-up."""

    hex: str
    facing: int | None = None
    down: bool = False


def stack_problem(units: list, adding) -> str | None:
    """Why ``adding`` (an engine unit) may not join ``units`` in a hex (8.62/8.63: six men plus
    one AFV, one CW counter a side; 8.61 one AFV a hex), or None."""
    from core.ironcross.state import stacking_problem

    return stacking_problem([u for u in units if u.id != adding.id] + [adding])


class ScenarioEditCommand(QUndoCommand):
    """Replace the scenario by another snapshot; ``stroke`` merges consecutive paint edits."""

    def __init__(self, doc: QObject, text: str, new: Scenario, stroke: int | None = None):
        super().__init__(text)
        self.doc, self.before, self.after, self.stroke = doc, doc.scenario, new, stroke

    def redo(self) -> None:
        self.doc._set_scenario(self.after)

    def undo(self) -> None:
        self.doc._set_scenario(self.before)

    def id(self) -> int:  # noqa: A003
        return 101 if self.stroke is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802
        if not isinstance(other, ScenarioEditCommand) or other.stroke is None or other.stroke != self.stroke:
            return False
        self.after = other.after
        return True


class PlacementCommand(QUndoCommand):
    """Change the designer's set-up: the placement (place, move, turn, UP/DOWN or remove units),
    the hidden hexes (hex -> side), the mines (hex -> {"side", "ap", "at"}), the IPs (hex ->
    {"side", "points"}) and the 24.1 choices (``left_out``: unit ids); what is not given stays
    as it is."""

    def __init__(self, doc: QObject, text: str, new: dict[str, PlacedUnit] | None = None, *,
                 hidden: dict[str, str] | None = None, mines: dict[str, dict] | None = None,
                 left_out: set[str] | None = None, ips: dict[str, dict] | None = None):
        super().__init__(text)
        self.doc = doc
        self.before = (dict(doc.placement), dict(doc.hidden), {k: dict(v) for k, v in doc.mines.items()},
                       frozenset(doc.left_out), {k: dict(v) for k, v in doc.ips.items()})
        self.after = (dict(new) if new is not None else self.before[0],
                      dict(hidden) if hidden is not None else self.before[1],
                      {k: dict(v) for k, v in mines.items()} if mines is not None else self.before[2],
                      frozenset(left_out) if left_out is not None else self.before[3],
                      {k: dict(v) for k, v in ips.items()} if ips is not None else self.before[4])

    def redo(self) -> None:
        self.doc._set_setup(*self.after)

    def undo(self) -> None:
        self.doc._set_setup(*self.before)
