"""``python -m vouched`` runs the CLI."""

from vouched._cli import main

raise SystemExit(main())
