"""The temporary folder a play panel writes the playable copy of the scenario in memory to."""

from __future__ import annotations

import tempfile


class SnapshotFolder:
    """A temporary folder made at the first use of :attr:`name` and removed when ``owner`` (a
    QObject: the panel) is destroyed, at exit at the latest. A panel that never runs games leaves
    nothing in the system's temporary folder; ``prefix`` names the folder (e.g.
    ``"ironcross-playtest-"``)."""

    def __init__(self, owner, prefix: str):
        self._owner = owner
        self._prefix = prefix
        self._dir: tempfile.TemporaryDirectory | None = None

    @property
    def name(self) -> str:
        """The folder's path (made now if it was not yet). Raises OSError when it cannot be made."""
        if self._dir is None:
            self._dir = tempfile.TemporaryDirectory(prefix=self._prefix)
            self._owner.destroyed.connect(self._dir.cleanup)
        return self._dir.name
