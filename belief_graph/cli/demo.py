"""``belief-graph demo``: the seed stories on a real Neo4j, narrated for a person."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from rich.console import Console
from rich.panel import Panel

from ..models import Claim, ClaimDraft, HistoricalDraft

if TYPE_CHECKING:
    from ..client import BeliefGraph


def _day(month: int, day: int) -> datetime:
    return datetime(2026, month, day, 12, 0, tzinfo=UTC)


def _one(value: Claim | list[Claim] | None) -> str:
    if value is None:
        return "unknown (no belief: the engine does not guess)"
    if isinstance(value, list):
        return ", ".join(c.object or "" for c in value) or "nothing"
    return f"{value.object}  (version {value.version}, {value.status})"


def run(bg: BeliefGraph, console: Console, browser_url: str | None = None) -> str:
    """Run the stories in a fresh namespace; return that namespace."""
    stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
    ns = f"demo:{stamp}"
    say = console.print
    say(Panel.fit(f"belief-graph demo in namespace [bold]{ns}[/]", style="cyan"))

    say("\n[bold]1. Priya changes her mind about risk[/]")
    first = bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="priya",
            predicate="risk tolerance",
            object="cautious",
            text="Priya is cautious with money and dislikes individual stocks.",
            episode_id="session-1",
            episode_content="I keep my savings in a deposit account.",
        )
    )
    say(
        f"  session 1 → {first.verdict}: risk tolerance is "
        f"{_one(bg.current(ns, 'priya', 'risk_tolerance'))}"
    )
    flip = bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="priya",
            predicate="risk_tolerance",
            object="aggressive",
            text="Priya now wants an aggressive, high-risk portfolio.",
            episode_id="session-2",
        )
    )
    now = bg.current(ns, "priya", "risk_tolerance")
    say(f"  session 2 → {flip.verdict} ({flip.decision}): risk tolerance is {_one(now)}")
    assert isinstance(now, Claim)
    chain = bg.lineage(ns, now.id)
    say(
        f"  lineage: {len(chain.chain)} versions, contradiction flag={now.contradiction}, "
        f"provenance: {', '.join(e.id for e in chain.episodes)}"
    )

    say("\n[bold]2. The project moves from Express.js to Go[/]")
    # What the team's notes knew in spring, imported with the days it was learned on (the one
    # way a caller's transaction time is kept: an audited import, each revision an `import`).
    bg.import_history(
        [
            HistoricalDraft(
                namespace=ns,
                subject="atlas",
                predicate="uses",
                object="Express.js",
                text="The Atlas backend uses Express.js.",
                valid_from=_day(3, 1),
                recorded_at=_day(3, 3),
            ),
            HistoricalDraft(
                namespace=ns,
                subject="atlas",
                predicate="is built with",
                object="Go",
                text="We switched the Atlas backend to Go.",
                valid_from=_day(5, 15),
                recorded_at=_day(5, 16),
            ),
        ],
        actor="demo: the team's spring notes",
    )
    say(f"  what does Atlas use now?            {_one(bg.current(ns, 'atlas', 'uses_framework'))}")
    march = bg.as_of(ns, "atlas", "uses_framework", valid_at=_day(3, 20))
    say(f"  what did it use in March?          {_one(march)}")
    may10 = bg.as_of(ns, "atlas", "uses_framework", known_at=_day(5, 10))
    say(f"  what did we believe on May 10?     {_one(may10)}")
    say(
        f"  what did it use in February?       "
        f"{_one(bg.as_of(ns, 'atlas', 'uses_framework', valid_at=_day(2, 1)))}"
    )

    say("\n[bold]2b. A change scheduled for next month is not true yet[/]")
    today = bg.clock()
    bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="atlas",
            predicate="uses",
            object="Rust",
            text="From next month the Atlas backend will be written in Rust.",
            valid_from=today + timedelta(days=30),
        )
    )
    say(f"  what does Atlas use now?            {_one(bg.current(ns, 'atlas', 'uses_framework'))}")
    later = bg.as_of(ns, "atlas", "uses_framework", valid_at=today + timedelta(days=31))
    say(f"  and in 31 days?                    {_one(later)}")
    say("  (Go is already the superseded version, yet current until Rust's time comes)")

    say("\n[bold]2c. A correction: the value was never true[/]")
    wrong = bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="atlas",
            predicate="deploys to",
            object="AWS",
            text="Atlas deploys to AWS.",
        )
    )
    believed = bg.get(ns, wrong.added[0]).recorded_at
    fix = bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="atlas",
            predicate="deploys to",
            object="Hetzner",
            text="Actually, Atlas has always deployed to Hetzner.",
            correction=True,
        )
    )
    say(
        f"  {fix.decision}: {len(fix.retired)} claim retracted (never true), deploys to "
        f"{_one(bg.current(ns, 'atlas', 'deploys_to'))}"
    )
    then = bg.as_of(ns, "atlas", "deploys_to", valid_at=believed, known_at=believed)
    say(f"  what we believed before the fix:   {_one(then)}  (kept on record)")
    say(
        f"  what was true then, as known now:  "
        f"{_one(bg.as_of(ns, 'atlas', 'deploys_to', valid_at=believed))}"
    )

    say("\n[bold]3. Goals are multi-valued: a second goal does not overwrite the first[/]")
    bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="priya",
            predicate="goal",
            object="buy a house",
            text="Priya wants to buy a house.",
        )
    )
    bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="priya",
            predicate="wants to",
            object="retire early",
            text="Priya wants to retire early.",
        )
    )
    say(f"  goals: {_one(bg.current(ns, 'priya', 'has_goal'))}")

    say("\n[bold]4. Retiring a premise flags what depends on it[/]")
    db = bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="atlas",
            predicate="uses database",
            object="PostgreSQL",
            text="Atlas stores its data in PostgreSQL.",
        )
    )
    bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="atlas",
            predicate="migration tool",
            object="Alembic",
            text="Atlas runs its migrations with Alembic.",
            depends_on=(db.added[0],),
        )
    )
    bg.contract(ns, db.added[0], reason="the database choice was wrong")
    for claim in bg.needs_review(ns):
        say(f"  needs review: {claim.text!r} because {claim.review_reason}")

    say("\n[bold]5. Rollback[/]")
    bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="priya",
            predicate="city",
            object="Berlin",
            text="Priya lives in Berlin.",
        )
    )
    moved = bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="priya",
            predicate="city",
            object="Lisbon",
            text="Priya moved to Lisbon.",
        )
    )
    say(f"  city after the move: {_one(bg.current(ns, 'priya', 'lives_in'))}")
    bg.rollback(ns, moved.revision_id)
    say(
        f"  after rolling back revision {moved.revision_id}: "
        f"{_one(bg.current(ns, 'priya', 'lives_in'))}"
    )

    _convention_story(bg, ns, say)

    url = browser_url or "http://127.0.0.1:7474/browser/"
    say(
        Panel.fit(
            f"Open Neo4j Browser at [link={url}]{url}[/link] and run:\n\n"
            f":param ns => '{ns}'\n"
            "MATCH p = (:Claim {namespace: $ns, predicate: 'risk_tolerance'})"
            "-[:SUPERSEDES|DERIVED_FROM*0..3]-() RETURN p",
            title="audit the lineage",
            style="green",
        )
    )
    return ns


def _convention_story(bg: BeliefGraph, ns: str, say: Callable[..., None]) -> None:
    """Evidence vs policy (docs/policy.md): an agent's observations dispute a convention, the
    convention is demoted for a human, and a human's decision promotes the evidence."""
    say("\n[bold]6. An agent's observation disputes a convention; a human promotes it[/]")
    rule = bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="atlas",
            predicate="package manager",
            object="pnpm",
            text="Atlas uses pnpm (ADR-7).",
            kind="policy",
            author="tech-lead",
            origin="ADR-7",
            episode_id="ADR-7",
        )
    )
    say(f"  ADR-7 sets the convention: {_one(bg.current(ns, 'atlas', 'package_manager'))}")
    runs = [("ci-101", "ci-agent"), ("ci-101", "ci-agent"), ("ci-102", "ci-agent")]
    runs.append(("ci-103", "review-bot"))
    seen = None
    for run_id, agent in runs:
        result = bg.remember(
            ClaimDraft(
                namespace=ns,
                subject="atlas",
                predicate="package manager",
                object="npm",
                text=f"CI run {run_id} installed the dependencies with npm.",
                source_type="observed",
                author=agent,
                origin=f"CI run {run_id}",
                episode_id=run_id,
            )
        )
        seen = seen or result
        say(f"  {agent} observes npm in {run_id} → {result.decision}: {result.reason}")
    assert seen is not None
    say(
        f"  the convention still holds: {_one(bg.current(ns, 'atlas', 'package_manager'))} "
        "(evidence never supersedes a policy)"
    )
    for dispute in bg.disputes(ns):
        standing = "demoted to disputed" if dispute.demoted else "in force"
        say(
            f"  dispute: policy {dispute.policy.object!r} ({standing}) against "
            f"{', '.join(repr(c.object) for c in dispute.evidence)}: "
            f"{dispute.episodes} independent runs, {dispute.sources} agents (a replayed run "
            "counts once)"
        )
    promoted = bg.promote(
        ns, seen.added[0], by="human", actor="ana", reason="we moved to npm workspaces"
    )
    now = bg.current(ns, "atlas", "package_manager")
    say(f"  ana decides → {promoted.decision}: {promoted.reason}")
    assert isinstance(now, Claim)
    say(f"  the convention now: {_one(now)}, kind={now.kind}")
    say(f"  ADR-7's pnpm stays on record: {bg.get(ns, rule.added[0]).status}")
