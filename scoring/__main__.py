"""Run the command line: ``python -m scoring --help``."""

import sys

from scoring.cli import main

sys.exit(main())
