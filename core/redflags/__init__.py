"""Red Flags and Iron Crosses -- Tarred and Featherstoned (``seeds/004_922d117e221c8d86.txt``, a fragment).

The second rule system of the toolkit: 100 mm hexes, playing-card activation, units of several
figures. Everything the fragment prints is implemented; what it leaves out (how dice become hits,
what a hit does, morale, victory) is reconstructed as data labelled ``"reconstructed"`` with a
rationale (``core/redflags/data/``, ``docs/redflags.md``). Nothing outside this package knows its
rules: the toolkit reaches it through :data:`core.redflags.system.SYSTEM`.
"""
