"""``python -m cli ...``: the ``ironcross`` command line (:func:`cli.main.main`)."""

import sys

from cli.main import main

sys.exit(main())
