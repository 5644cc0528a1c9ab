"""The one write path: read the slots, decide a ``ChangeSet`` per operation, apply them in one
transaction (``apply.py`` is the only code that opens a write transaction)."""
