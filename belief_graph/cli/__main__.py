"""``python -m belief_graph.cli``: the same as the ``belief-graph`` command."""

from belief_graph.cli.app import main

main()
