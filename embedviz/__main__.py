"""Allow ``python -m embedviz``."""

from embedviz.cli import main

raise SystemExit(main())
