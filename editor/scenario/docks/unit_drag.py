"""Units dragged from the OOB and Set-up trees onto the map: the MIME type and the tree that
hands its unit items out as it."""

from __future__ import annotations

from PySide6.QtWidgets import QTreeWidget
from editor.scenario.wording import UNIT_ROLE

__all__ = ["UnitTree", "UNIT_MIME"]


# ============================================================================ unit drag

UNIT_MIME = "application/x-ironcross-unit"


class UnitTree(QTreeWidget):
    """A tree whose unit items drag out as ``UNIT_MIME`` (the unit id) onto the map."""

    def mimeData(self, items):  # noqa: N802
        from PySide6.QtCore import QMimeData

        md = QMimeData()
        uids = [it.data(0, UNIT_ROLE) for it in items if it.data(0, UNIT_ROLE)]
        if uids:
            md.setData(UNIT_MIME, uids[0].encode())
            md.setText(uids[0])
        return md
