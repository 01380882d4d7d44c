"""Allow ``python -m embedviz``."""

# Stop signals are handled before anything heavy is imported (see embedviz.launch).
from embedviz.launch import run

raise SystemExit(run())
