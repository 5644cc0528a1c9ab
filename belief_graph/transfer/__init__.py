"""Moving claims in and out: claim import (``claims``) and namespace snapshots (``snapshot``)."""
