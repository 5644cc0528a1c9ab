"""The ``belief-graph`` command line: ``app`` (the one typer app) filled by the command groups
``read``, ``write``, ``queues``, ``admin`` and ``server`` (``neo4j``); what commands share in
``command``, ``inputs``, ``options``, ``output`` and ``revision_commands`` (the commands of one
shape, from a table); ``render`` (the rich toolkit) and ``views/`` (each kind of answer's
tables); ``config`` (namespace and time-zone defaults), ``browser`` (audit queries and Browser
links), ``demo`` (the narrated stories), ``docs`` (docs/cli.md from the commands' help)."""
