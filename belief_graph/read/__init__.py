"""Reads that are more than one statement: one module per kind (``doctor``)."""
