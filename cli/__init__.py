"""The toolkit's front ends that sit on top of the import graph: the ``ironcross`` command line
(:mod:`cli.main`) and the playtest report pictures (:mod:`cli.playtest_report`, drawn with the
editor's map painter). Nothing in ``core/``, ``maps/`` or ``scenarios/`` imports this package."""
