"""JSON Schemas of the public models, generated into ``schemas/``.

python -m belief_graph.schemas          # rewrite schemas/*.json
python -m belief_graph.schemas --check  # exit 1 if they drifted from the models
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pydantic import BaseModel

from .models import (
    Claim,
    ClaimDraft,
    Conflict,
    ConsolidationReport,
    Dispute,
    DoctorReport,
    EmbedResult,
    Lineage,
    RevisionResult,
    ScopedAnswer,
    ScopedHit,
    SearchHit,
)

MODELS: dict[str, type[BaseModel]] = {
    "claim_draft": ClaimDraft,
    "claim": Claim,
    "revision_result": RevisionResult,
    "conflict": Conflict,
    "lineage": Lineage,
    "search_hit": SearchHit,
    "scoped_answer": ScopedAnswer,
    "scoped_hit": ScopedHit,
    "doctor_report": DoctorReport,
    "consolidation_report": ConsolidationReport,
    "dispute": Dispute,
    "embed_result": EmbedResult,
}

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schemas"


def render() -> dict[str, str]:
    """File name → schema text, as the models define them now."""
    return {
        f"{name}.schema.json": json.dumps(model.model_json_schema(), indent=2, sort_keys=True)
        + "\n"
        for name, model in MODELS.items()
    }


def main(argv: list[str]) -> int:
    drift = []
    for name, text in render().items():
        path = SCHEMA_DIR / name
        if "--check" in argv:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                drift.append(name)
        else:
            path.write_text(text, encoding="utf-8")
    if drift:
        print(
            f"schemas drifted from the models: {', '.join(drift)}; "
            "run `python -m belief_graph.schemas`",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
