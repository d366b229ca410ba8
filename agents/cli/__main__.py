"""``python -m goldrush_agents.cli``: the ``goldrush`` command."""

from goldrush_agents.cli import main

raise SystemExit(main())
