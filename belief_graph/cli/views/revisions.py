"""What the writes did and what waits for a human: a revision's result, an observation's
proposals, conflicts, a consolidation's plan, disputes, the review queue."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Group
from rich.text import Text

from belief_graph.cli.render import Column, FittedTable, Times, mapping_table, status, txt
from belief_graph.extraction import Observation
from belief_graph.models import Claim, Conflict, ConsolidationReport, Dispute, RevisionResult


def result_table(result: RevisionResult) -> FittedTable:
    """What one write operation did."""
    table = FittedTable(
        txt(f"revision {result.revision_id}"),
        [Column("field", 0, style="bold"), Column("value", 0, wrap=True)],
        show_header=False,
    )
    rows: list[tuple[str, str]] = [
        ("operation", result.op + (" (replayed)" if result.replayed else "")),
        ("verdict", result.verdict or "—"),
        ("decision", result.decision),
        ("reason", result.reason or "—"),
        ("slot", result.slot_id or "—"),
    ]
    for name in ("added", "retired", "reinforced", "flagged", "restored", "contradicted"):
        ids: list[str] = getattr(result, name)
        if ids:
            rows.append((name, ", ".join(ids)))
    for name, value in rows:
        table.add_row(name, txt(value))
    return table


def observation_table(observation: Observation, times: Times) -> FittedTable:
    """One row per proposal of an ``observe``: the claim, and what became of it."""
    table = FittedTable(
        txt(f"episode {observation.episode_id} ({observation.extractor} extractor)"),
        [
            Column("subject", 2, fold_into="claim", fold_label="about "),
            Column("predicate", 1),
            Column("claim", 0, wrap=True),
            Column("window", 3, fold_into="claim", fold_label="valid "),
            Column("outcome", 0, wrap=True),
        ],
    )
    results = iter(observation.results)
    refusals = list(observation.refused)
    for proposal in observation.proposals:
        refusal = next((r for r in refusals if r.proposal == proposal), None)
        if refusal is not None:
            refusals.remove(refusal)
        reason = refusal.reason if refusal is not None else None
        if reason is not None and reason.startswith(("invalid:", "not written:")):
            # Refused before the write path: no result of its own.
            outcome = f"refused: {reason}"
        else:
            result = next(results, None)
            if result is None:
                outcome = "—"
            elif reason is not None:
                outcome = f"{result.decision}: {reason}"
            else:
                outcome = f"{result.verdict or '—'} {result.decision}"
                if result.replayed:
                    outcome += " (replayed)"
        window = " – ".join(
            times.short(moment) if moment else "…"
            for moment in (proposal.valid_from, proposal.valid_to)
        )
        marks = " ".join(
            word
            for word, on in (("negated", proposal.negated), ("correction", proposal.correction))
            if on
        )
        table.add_row(
            txt(proposal.subject or "—"),
            txt(proposal.predicate or "(kept as text)"),
            txt(proposal.sentence + (f" ({marks})" if marks else "")),
            txt("—" if window == "… – …" else window),
            txt(outcome),
        )
    for refusal in refusals:
        # The whole episode: the extractor gave nothing usable.
        table.add_row(
            txt("—"),
            txt("—"),
            txt(refusal.proposal.source),
            txt("—"),
            txt(f"refused: {refusal.reason}"),
        )
    return table


def conflicts_table(conflicts: Iterable[Conflict], title: str) -> FittedTable:
    """One row per CONTRADICTS edge."""
    table = FittedTable(
        txt(title),
        [
            Column("claim", 2, fold_into="says", style="dim"),
            Column("status", 3, fold_into="says"),
            Column("says", 0, wrap=True),
            Column("rival", 2, fold_into="rival says", style="dim"),
            Column("rival status", 3, fold_into="rival says"),
            Column("rival says", 0, wrap=True),
            Column("score", 4, fold_into="resolution", fold_label="score "),
            Column("resolution", 1),
        ],
    )
    for k in conflicts:
        table.add_row(
            txt(k.claim.id),
            status(k.claim.status),
            txt(k.claim.object or k.claim.text or "—"),
            txt(k.rival.id),
            status(k.rival.status),
            txt(k.rival.object or k.rival.text or "—"),
            "—" if k.score is None else f"{k.score:.2f}",
            txt(k.resolution or "open"),
        )
    return table


def consolidation_tables(report: ConsolidationReport) -> list[FittedTable]:
    """A consolidation's steps (what it changed, or would change), the problems it left, and a
    summary naming the revision that rolls it back."""
    tables: list[FittedTable] = []
    if report.steps:
        steps = FittedTable(
            txt(("planned" if report.dry_run else "consolidated") + f" {report.namespace}"),
            [
                Column("action", 0, style="bold"),
                Column("claim", 0),
                Column("with", 1, fold_into="claim", fold_label="with "),
                Column("slot", 3, fold_into="why", fold_label="slot ", style="dim"),
                Column("why", 0, wrap=True),
            ],
        )
        for step in report.steps:
            steps.add_row(
                txt(step.action.replace("_", " ")),
                txt(step.claim_id or "—"),
                txt(step.other_id or "—"),
                txt(step.slot_id or "—"),
                txt(step.detail),
            )
        tables.append(steps)
    if report.problems:
        problems = FittedTable(
            txt("not repaired (a human decides)"),
            [
                Column("check", 0, style="bold"),
                Column("claim", 1, fold_into="problem", fold_label="claim "),
                Column("slot", 2, fold_into="problem", fold_label="slot ", style="dim"),
                Column("problem", 0, wrap=True),
            ],
        )
        for problem in report.problems:
            problems.add_row(
                txt(problem.check),
                txt(problem.claim_id or "—"),
                txt(problem.slot_id or "—"),
                txt(problem.detail),
            )
        tables.append(problems)
    summary: dict[str, Any] = {f"{k.replace('_', ' ')} read": v for k, v in report.examined.items()}
    summary["steps"] = len(report.steps)
    summary["problems"] = len(report.problems)
    if report.revision is not None:
        summary["revision"] = report.revision.revision_id
        summary["undo with"] = (
            f"belief-graph rollback -n {report.namespace} {report.revision.revision_id}"
        )
    elif report.dry_run:
        summary["written"] = "nothing (dry run)"
    else:
        summary["written"] = "nothing: the namespace is clean"
    tables.append(mapping_table(f"consolidate {report.namespace}", summary))
    return tables


def disputes_table(disputes: Iterable[Dispute], title: str) -> FittedTable:
    """One row per policy that evidence disputes (or that was demoted)."""
    table = FittedTable(
        txt(title),
        [
            Column("policy", 2, fold_into="says", style="dim"),
            Column("says", 0, wrap=True),
            Column("standing", 1),
            Column("evidence against", 0, wrap=True),
            Column("episodes", 3, fold_into="standing", fold_label="episodes "),
            Column("sources", 3, fold_into="standing", fold_label="sources "),
        ],
    )
    for d in disputes:
        table.add_row(
            txt(d.policy.id),
            txt(d.policy.object or d.policy.text or "—"),
            txt("demoted" if d.demoted else "in force"),
            txt(", ".join(f"{c.id}: {c.object or c.text}" for c in d.evidence) or "—"),
            str(d.episodes),
            str(d.sources),
        )
    return table


def review_lines(claims: Sequence[Claim]) -> Group:
    """Why each claim needs review."""
    return Group(
        *(Text.assemble(txt(c.id, "dim"), ": ", txt(c.review_reason or "")) for c in claims)
    )
