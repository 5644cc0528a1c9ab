"""The ``belief-graph`` command line: ``app`` (the commands), ``render`` (tables and panels),
``config`` (namespace and time-zone defaults), ``browser`` (audit queries and Browser links),
``demo`` (the narrated stories), ``docs`` (docs/cli.md from the commands' help)."""
