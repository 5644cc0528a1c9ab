"""The benchmarks: scripts that print figures (never tests), run from the repository's root.

``python -m bench`` lists them, each with the question it answers; ``python -m bench NAME
[options]`` runs one (``--help`` for its options, ``--json`` for one JSON object). Shared code:
``bench.common`` (a database, the offline models, timing and report helpers) and ``bench.data``
(the data files and the generated drafts). ``bench/experiments/`` keeps the scripts that
answered a settled question and are worth running again when Neo4j changes.
"""
