"""``python -m generator`` is the same entry point as the ``ur-variants`` console script."""

from generator.cli import main

raise SystemExit(main())
