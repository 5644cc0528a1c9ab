"""``BeliefGraph``: the public API (validated methods, each namespace routed to its database)
and the composition root that joins the write path (``write/``), the reads (``read/``), the
ingest pipeline (``ingest.py``) and ``observe`` (``observe.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from itertools import groupby
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, InstanceOf

from .detect import Detector
from .errors import ModelError
from .extraction import Episode, Extractor, KnownSubjects, Observation, default_extractor
from .ingest import Drafts, default_batch, in_batches, no_stamp_dropped, stamped
from .models import (
    Claim,
    ClaimDraft,
    Conflict,
    ConsolidationReport,
    CurrentBelief,
    Dispute,
    DoctorReport,
    EmbedResult,
    HistoricalDraft,
    Identifier,
    Lineage,
    Moment,
    NamespaceInfo,
    Reason,
    RevisionResult,
    ScopeChain,
    ScopedAnswer,
    ScopedHit,
    SearchHit,
    SourceType,
    Term,
    Text,
)
from .observe import observe_episode
from .policy import Policy
from .read import facts, records, review
from .read.context import ReadContext
from .read.scoped import scoped_answer, scoped_nearest
from .read.search import nearest
from .read.tuning import ReadTuning
from .settings import database_map
from .store import Store
from .ulid import new_id
from .validation import checked
from .vocabulary import Vocabulary
from .widening import Widening
from .write.embed import EMBED_PAGE, embed_missing
from .write.engine import Tuning
from .write.remember import Request
from .write.writer import Writer


def utcnow() -> datetime:
    """Now, timezone-aware, in UTC."""
    return datetime.now(UTC)


class BeliefGraph:
    """A belief store on Neo4j. Use ``BeliefGraph.connect()`` and close it (or use ``with``)."""

    def __init__(
        self,
        store: Store,
        *,
        vocabulary: Vocabulary | None = None,
        policy: Policy | None = None,
        detector: Detector | None = None,
        clock: Callable[[], datetime] = utcnow,
        tuning: Tuning = Tuning(),
    ) -> None:
        """``tuning``: how the engine writes and reads where two ways give the same beliefs, and
        its id factory (``write.engine.Tuning``; the defaults are the engine's)."""
        self.store = store
        self.vocabulary = vocabulary or Vocabulary.default()
        self.policy = policy or Policy()
        self.detector = detector or Detector()
        self.clock = clock
        self.tuning = tuning
        self._writer = Writer(
            self.store, self.vocabulary, self.policy, self.detector, clock, new_id, tuning
        )
        self._widening = Widening()
        self.read_tuning = ReadTuning(walk_up_to=tuning.walk_up_to)

    # -- lifecycle ---------------------------------------------------------------------------

    @classmethod
    @checked
    def connect(
        cls,
        uri: Term | None = None,
        *,
        auth: tuple[Term, Term] | None = None,
        database: Identifier | None = None,
        policy: Policy | Term | None = None,
        models: bool | None = None,
        start: bool = True,
        bookmarks: Sequence[Term] = (),
        databases: Annotated[Mapping[Identifier, Term], AfterValidator(database_map)] | None = None,
    ) -> BeliefGraph:
        """Connect to ``uri``, else to ``NEO4J_URI``, else to (and if ``start``, start) a local one.

        ``models`` loads the embedding and contradiction models (default: the
        ``BELIEF_GRAPH_MODELS`` setting); without them detection is structural only.
        ``bookmarks`` (another client's ``bookmarks()``) make this client's reads wait, on a
        cluster, until the writes they stand for are visible: read-your-writes across processes.
        ``databases`` maps namespaces (or prefixes) to databases of their own (default: the
        ``NEO4J_DATABASES`` setting; see ``docs/deploy.md``).
        """
        from .server.provide import provide
        from .settings import EngineSettings, Neo4jSettings

        engine = EngineSettings()
        if databases is None:
            databases = Neo4jSettings().databases
        if uri is None:
            info = provide(start=start)
            uri, database = info.uri, database or info.database
            auth = auth or ((info.user, info.password) if info.password else None)
        else:
            neo = Neo4jSettings()
            database = database or neo.database
            password = neo.password.get_secret_value()
            auth = auth or ((neo.user, password) if password else None)
        store = Store(uri, auth, database or "neo4j", bookmarks=bookmarks, databases=databases)
        vocabulary = (
            Vocabulary.load(engine.vocabulary) if engine.vocabulary else Vocabulary.default()
        )
        chosen = policy if isinstance(policy, Policy) else Policy.load(policy or engine.policy)
        use_models = engine.models if models is None else models
        detector = Detector()
        if use_models:
            from .semantic.contradiction import make_scorer
            from .semantic.embeddings import SentenceTransformerEmbedder

            threads = engine.inference_threads
            detector = Detector(
                SentenceTransformerEmbedder(
                    engine.embedding_model, threads=threads, runtime=engine.embedding_runtime
                ),
                make_scorer(
                    engine.contradiction_model,
                    threads=threads,
                    runtime=engine.contradiction_runtime,
                ),
            )
        return cls(store, vocabulary=vocabulary, policy=chosen, detector=detector)

    def close(self) -> None:
        """Close the connection."""
        self.store.close()

    def bookmarks(self) -> list[str]:
        """Bookmarks of every write this client made (and those it was connected with): give
        them to ``connect(bookmarks=...)`` in another process so its reads see these writes."""
        return self.store.bookmarks()

    def __enter__(self) -> BeliefGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @checked
    def init_schema(
        self, timeout_seconds: Annotated[int, Field(ge=1, le=86_400)] = 120
    ) -> list[str]:
        """Create constraints and indexes (idempotent) and wait until they are online, in the
        default database and in every database a namespace is mapped to."""
        applied: list[str] = []
        for store in self.store.every_database():
            applied = store.apply_schema(timeout_seconds)
        return applied

    def _writer_on(self, namespace: str) -> Writer:
        """The writer for ``namespace``'s database (the one writer when nothing is mapped)."""
        store = self.store.on(namespace)
        if store is self.store:
            return self._writer
        return Writer(
            store, self.vocabulary, self.policy, self.detector, self.clock, new_id, self.tuning
        )

    def _remember(
        self, requests: Sequence[Request], *, ingested: bool = False
    ) -> list[RevisionResult]:
        """Remember a batch, one transaction per run of consecutive drafts in one database (a
        transaction cannot span databases); results in the batch's order. ``ingested``: a
        batch of an ``ingest`` (``Writer.remember``)."""
        if not self.store.routes:
            return self._writer.remember(requests, ingested=ingested)
        results: list[RevisionResult] = []
        for _, run in groupby(requests, key=lambda r: self.store.database_of(r.draft.namespace)):
            batch = list(run)
            writer = self._writer_on(batch[0].draft.namespace)
            results.extend(writer.remember(batch, ingested=ingested))
        return results

    def _reads(self) -> ReadContext:
        """What the reads need, as the client holds it at this call."""
        return ReadContext(
            self.store, self.vocabulary, self.detector, self.clock, self.read_tuning, self._widening
        )

    # -- remember: detect → decide → apply ----------------------------------------------------

    @checked
    def remember(
        self, draft: ClaimDraft, *, revision_id: Identifier | None = None, actor: Term | None = None
    ) -> RevisionResult:
        """Take a claim in: NEW, SAME (reinforce), UPDATE or CONFLICT, decided by the policy.

        A replayed ``revision_id`` changes nothing and returns the original result.
        """
        no_stamp_dropped(draft, None, "draft")
        if revision_id is None:
            return self._remember([Request(draft, self._writer.new_id(), actor, fresh=True)])[0]
        return self._remember([Request(draft, revision_id, actor)])[0]

    @checked
    def ingest(
        self,
        drafts: Iterable[ClaimDraft],
        *,
        batch_size: Annotated[int, Field(ge=1, le=100_000)] | None = None,
        revision_ids: Iterable[Identifier] | None = None,
        actor: Term | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[RevisionResult]:
        """Remember many drafts in order, ``batch_size`` per transaction (same rules as
        ``remember``; embeddings, when a model is loaded, are computed a batch at a time; by
        default ``default_batch_size``).

        Give ``revision_ids`` (one per draft) to make a re-run after a failure idempotent: drafts
        that already ran are replays. ``progress`` is called with the count done after each batch.
        If a draft is refused, the batches before it are kept and the error names its index. A
        claim id or revision id given twice, or a revision id missing, is refused by name; for a
        list of drafts before anything is written, for a stream before its batch is.
        """
        return self._ingest(drafts, batch_size, revision_ids, actor, progress)

    @checked
    def import_history(
        self,
        drafts: Iterable[HistoricalDraft],
        *,
        actor: Term,
        batch_size: Annotated[int, Field(ge=1, le=100_000)] | None = None,
        revision_ids: Iterable[Identifier] | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[RevisionResult]:
        """Import history learned elsewhere, each draft keeping the transaction time it was
        learned at (``recorded_at``): the one way a caller's stamp reaches the engine's record of
        what it knew when. Audited: each draft's revision is of op ``import`` and names ``actor``
        (required), so the claims whose transaction time came from outside are found by their
        revision. Otherwise as ``ingest``: the same decisions, batches, replays by
        ``revision_ids``. A stamp ahead of the engine's clock (beyond ``clock_skew_seconds``) or
        earlier than its fact's last recorded change is refused naming ``recorded_at``."""

        return self._ingest(stamped(drafts), batch_size, revision_ids, actor, progress)

    @property
    def default_batch_size(self) -> int:
        """Drafts per transaction when ``ingest`` (and the CLI's ``import``) is given none:
        ``ingest.INGEST_BATCH``, or ``INGEST_BATCH_WITH_MODELS`` with a contradiction model."""
        return default_batch(with_models=self.detector.scorer is not None)

    def _ingest(
        self,
        drafts: Drafts,
        batch_size: int | None,
        revision_ids: Iterable[Identifier] | None,
        actor: Term | None,
        progress: Callable[[int], None] | None,
    ) -> list[RevisionResult]:
        """``ingest``'s work, its arguments checked (``ingest.py``): pipelined on one database,
        batch by batch where namespaces are routed to several (a transaction cannot span
        databases)."""
        return in_batches(
            drafts,
            batch_size or self.default_batch_size,
            revision_ids,
            actor,
            progress,
            new_id=self._writer.new_id,
            remember=lambda batch: self._remember(batch, ingested=True),
            pipeline=None if self.store.routes else self._writer.ingest,
        )

    @checked
    def observe(
        self,
        namespace: Identifier,
        episode: Episode,
        *,
        extractor: InstanceOf[Extractor] | None = None,
        source_type: SourceType = "user_stated",
        actor: Term | None = None,
    ) -> Observation:
        """Take in what someone said: an extractor proposes claims from ``episode`` and each is
        remembered with its source span as ``episode_content``, so that verification checks it
        against what was said before it is believed (docs/extraction.md).

        ``extractor`` defaults to the LLM extractor when ``BELIEF_GRAPH_EXTRACTOR_URL`` is set,
        else the offline rule extractor. A proposal without a time of its own is valid from
        ``episode.at`` when that is in the past (a replayed conversation), else from now. The
        result lists the proposals, one write result for each that reached the write path, and
        the refused ones with the reason: invalid, contradicted by their source (stored
        ``rejected``), unsupported by it (held ``pending``), or refused by the write path. An
        episode observed again with the same ``id`` changes nothing (its revisions replay).
        """
        chosen = extractor if extractor is not None else default_extractor()
        return observe_episode(
            namespace,
            episode,
            episode.id or new_id(),
            chosen,
            source_type,
            actor,
            vocabulary=self.vocabulary,
            known_subjects=KnownSubjects(lambda: self.subjects(namespace)),
            clock=self.clock,
            new_id=self._writer.new_id,
            remember=self._remember,
        )

    @checked
    def contract(
        self,
        namespace: Identifier,
        claim_id: Identifier,
        *,
        retract: bool = True,
        valid_to: Moment | None = None,
        reason: Reason = "",
        revision_id: Identifier | None = None,
        actor: Term | None = None,
    ) -> RevisionResult:
        """Retire a belief: ``retract`` (it was wrong) or close its validity at ``valid_to``
        (it was true until then). Direct dependents are flagged ``needs_review``.
        """
        return self._writer_on(namespace).contract(
            namespace,
            claim_id,
            retract=retract,
            valid_to=valid_to,
            reason=reason,
            revision_id=revision_id,
            actor=actor,
        )

    @checked
    def confirm(
        self,
        namespace: Identifier,
        claim_id: Identifier,
        *,
        revision_id: Identifier | None = None,
        actor: Term | None = None,
    ) -> RevisionResult:
        """A human accepts a pending claim: it becomes the belief, its rival is superseded."""
        return self._writer_on(namespace).settle(
            namespace, claim_id, accept=True, revision_id=revision_id, actor=actor
        )

    @checked
    def reject(
        self,
        namespace: Identifier,
        claim_id: Identifier,
        *,
        revision_id: Identifier | None = None,
        actor: Term | None = None,
    ) -> RevisionResult:
        """A human rejects a pending claim: it is kept as ``rejected``; the belief stands."""
        return self._writer_on(namespace).settle(
            namespace, claim_id, accept=False, revision_id=revision_id, actor=actor
        )

    @checked
    def resolve(
        self,
        namespace: Identifier,
        claim_id: Identifier,
        rival_id: Identifier,
        *,
        keep: Identifier,
        reason: Reason = "",
        revision_id: Identifier | None = None,
        actor: Term | None = None,
    ) -> RevisionResult:
        """A human settles an open conflict for ``keep`` (``claim_id`` or ``rival_id``): the other
        side was wrong (retracted, or rejected if pending); a pending side kept becomes the
        belief as ``confirm`` makes it one (a waiting correction retracts every version it
        corrects). Recorded as a revision with ``reason``."""
        return self._writer_on(namespace).resolve(
            namespace,
            claim_id,
            rival_id,
            keep=keep,
            reason=reason,
            revision_id=revision_id,
            actor=actor,
        )

    @checked
    def dismiss(
        self,
        namespace: Identifier,
        claim_id: Identifier,
        rival_id: Identifier,
        *,
        reason: Reason = "",
        revision_id: Identifier | None = None,
        actor: Term | None = None,
    ) -> RevisionResult:
        """A human dismisses an open conflict (the two claims do not contradict each other):
        both stay as they are, neither is disputed by the other any more."""
        return self._writer_on(namespace).dismiss(
            namespace, claim_id, rival_id, reason=reason, revision_id=revision_id, actor=actor
        )

    @checked
    def reviewed(
        self,
        namespace: Identifier,
        claim_id: Identifier,
        *,
        premise: Identifier | None = None,
        reason: Reason = "",
        revision_id: Identifier | None = None,
        actor: Term | None = None,
    ) -> RevisionResult:
        """A claim flagged ``needs_review`` has been reviewed: the flag is lifted. ``premise``
        re-points it: it now depends on that claim (the new version) instead of its retired
        premises."""
        return self._writer_on(namespace).reviewed(
            namespace,
            claim_id,
            premise=premise,
            reason=reason,
            revision_id=revision_id,
            actor=actor,
        )

    @checked
    def rectify(
        self,
        namespace: Identifier,
        claim_id: Identifier,
        *,
        object: Term,
        text: Text,
        actor: Term,
        revision_id: Identifier | None = None,
    ) -> RevisionResult:
        """GDPR Art. 16: a human corrects a belief. The old claim is retracted (it was never true)
        and the corrected one takes its place over the same validity, as ``human_verified``.
        """
        return self._writer_on(namespace).rectify(
            namespace, claim_id, object=object, text=text, actor=actor, revision_id=revision_id
        )

    @checked
    def rollback(
        self,
        namespace: Identifier,
        revision_id: Identifier,
        *,
        new_revision_id: Identifier | None = None,
        actor: Term | None = None,
    ) -> RevisionResult:
        """Reverse an earlier revision with a new one. Claims it added are retracted; claims it
        retired come back as new versions (history is never rewritten); reinforcements and flags
        are undone. Refused when a later revision touched the same fact.
        """
        return self._writer_on(namespace).rollback(
            namespace, revision_id, new_revision_id=new_revision_id, actor=actor
        )

    @checked
    def consolidate(
        self,
        namespace: Identifier,
        *,
        dry_run: bool = False,
        revision_id: Identifier | None = None,
        actor: Term | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> ConsolidationReport:
        """The "sleep" pass over one namespace, as ONE revision that ``rollback`` undoes
        exactly: duplicates of one fact (text-only twins included) merge into the claim that
        holds it, keeping every provenance link; a second belief of a single-valued fact is
        superseded; conflicts and review flags whose cause is gone close; dependents of erased
        premises are flagged; version chains are repaired where no history must be rewritten.
        What cannot be repaired is reported in ``problems``. ``dry_run``: the plan only,
        nothing written; a clean namespace writes nothing either. ``progress`` is called with
        (claims read, claims in all) while the namespace is read.
        """
        return self._writer_on(namespace).consolidate(
            namespace, dry_run=dry_run, revision_id=revision_id, actor=actor, progress=progress
        )

    @checked
    def erase(
        self,
        namespace: Identifier,
        *,
        subject: Term | None = None,
        claim_ids: Sequence[Identifier] | None = None,
        revision_id: Identifier | None = None,
        actor: Term | None = None,
        progress: Callable[[str, int], None] | None = None,
    ) -> RevisionResult:
        """GDPR Art. 17: remove the content (text, triple, embedding, episodes, the caller's
        words about them in revisions) of a whole namespace, one subject, or listed claims, at
        any size. Content-free tombstones keep the history consistent; afterwards no erased
        string or vector remains in the database.

        It runs in batches, each its own transaction: from the first on, nothing it covers is
        read, and a write to it is refused (``ConflictError``). An erase that stopped halfway (a
        crash, a failure) keeps all that closed; calling ``erase`` again with the same arguments
        finishes it (``erasure.resumed`` in its report). The result's ``retired`` lists the
        claims erased and ``erasure`` reports what was erased. ``progress`` is told each step:
        ``("claims" | "facts" | "revisions", how many so far)``.
        """
        return self._writer_on(namespace).erase(
            namespace,
            subject=subject,
            claim_ids=claim_ids,
            revision_id=revision_id,
            actor=actor,
            progress=progress,
        )

    # -- evidence and policy (docs/policy.md) --------------------------------------------------

    @checked
    def promote(
        self,
        namespace: Identifier,
        claim_id: Identifier,
        *,
        by: Literal["human", "record", "outcome"],
        origin: Term | None = None,
        reason: Reason = "",
        revision_id: Identifier | None = None,
        actor: Term | None = None,
    ) -> RevisionResult:
        """Evidence becomes policy, explicitly and audited. ``by``: ``human`` (a human's decision;
        ``actor`` names the human), ``record`` (a merged ADR or pull request, named as
        ``origin``) or ``outcome`` (the claim's value held across ``promote_after_episodes``
        independent episodes). A pending claim disputing a policy becomes the belief and
        supersedes it; an active evidence claim continues as a policy from now; a demoted
        policy is reinstated."""
        return self._writer_on(namespace).promote(
            namespace,
            claim_id,
            by=by,
            origin=origin,
            reason=reason,
            revision_id=revision_id,
            actor=actor,
        )

    @checked
    def demote(
        self,
        namespace: Identifier,
        claim_id: Identifier,
        *,
        reason: Reason = "",
        revision_id: Identifier | None = None,
        actor: Term | None = None,
    ) -> RevisionResult:
        """A policy is demoted to disputed and flagged for a human (``needs_review``, and listed
        by ``disputes``): it stays the belief, never deleted, until a human promotes the
        evidence against it or reinstates it (``promote`` it)."""
        return self._writer_on(namespace).demote(
            namespace, claim_id, reason=reason, revision_id=revision_id, actor=actor
        )

    @checked
    def disputes(self, namespace: Identifier) -> list[Dispute]:
        """Policies that evidence disputes, or that were demoted, each with the evidence held
        against it and how independent that evidence is (episodes, sources)."""
        return review.disputes(self.store.on(namespace), namespace)

    # -- reads ---------------------------------------------------------------------------------

    @checked
    def current(
        self, namespace: Identifier, subject: Term, predicate: Term
    ) -> Claim | list[Claim] | None:
        """The current belief: a claim or ``None`` (single-valued), a list (multi-valued).

        ``None`` means unknown: the engine never guesses.
        """
        # Current is as_of(now, now), by definition: one statement answers both.
        return facts.holding(self._reads(), namespace, subject, predicate, None, None)

    @checked
    def as_of(
        self,
        namespace: Identifier,
        subject: Term,
        predicate: Term,
        valid_at: Moment | None = None,
        known_at: Moment | None = None,
    ) -> Claim | list[Claim] | None:
        """What held at world time ``valid_at`` as known at transaction time ``known_at``.

        Both default to now; given only ``known_at``, ``valid_at`` is the same moment.
        """
        return facts.holding(self._reads(), namespace, subject, predicate, valid_at, known_at)

    @checked
    def beliefs(self, namespace: Identifier, subject: Term) -> list[Claim]:
        """Every current belief about ``subject``."""
        return facts.beliefs(self._reads(), namespace, subject)

    @checked
    def subjects(
        self, namespace: Identifier, limit: Annotated[int, Field(ge=1, le=10_000)] = 200
    ) -> list[str]:
        """The subjects the namespace holds claims about, the most talked-about first."""
        return records.subjects(self.store.on(namespace), namespace, limit)

    @checked
    def history(self, namespace: Identifier, subject: Term, predicate: Term) -> list[Claim]:
        """Every claim ever made about one fact, oldest first."""
        return facts.history(self._reads(), namespace, subject, predicate)

    @checked
    def get(self, namespace: Identifier, claim_id: Identifier) -> Claim:
        """One claim by id (``NotFound`` if it is not in the namespace)."""
        return records.get(self.store.on(namespace), namespace, claim_id)

    @checked
    def lineage(self, namespace: Identifier, claim_id: Identifier) -> Lineage:
        """The claim's version chain, SUPERSEDES verdicts, provenance, revisions, dependents."""
        return records.lineage(self.store.on(namespace), namespace, claim_id)

    @checked
    def conflicts(self, namespace: Identifier, *, open_only: bool = False) -> list[Conflict]:
        """Recorded contradictions, newest first (``open_only``: those still unresolved)."""
        return review.conflicts(self.store.on(namespace), namespace, open_only)

    @checked
    def rivals(self, namespace: Identifier, claims: Sequence[Claim]) -> list[Claim]:
        """The claims standing against ``claims`` (an answer the caller is about to give): the
        other side of each open contradiction, and the pending claims of the same facts."""
        if not claims:
            return []
        return review.rivals(
            claims, self.conflicts(namespace, open_only=True), self.pending(namespace)
        )

    @checked
    def pending(self, namespace: Identifier) -> list[Claim]:
        """Claims waiting for a human to confirm or reject them."""
        return review.pending(self.store.on(namespace), namespace)

    @checked
    def needs_review(self, namespace: Identifier) -> list[Claim]:
        """Claims whose premise was retired, with ``review_reason``."""
        return review.needs_review(self.store.on(namespace), namespace)

    def namespaces(self) -> list[NamespaceInfo]:
        """Every namespace holding claims, in every database in use (the default one and each
        mapped one), with its claim counts; sorted by namespace."""
        return records.namespaces(self.store)

    @checked
    def current_beliefs(self, namespace: Identifier, predicate: Term) -> list[CurrentBelief]:
        """Every current belief of ``predicate`` in ``namespace``, by subject, each with when
        its fact was first recorded (``since``)."""
        return facts.current_beliefs(self._reads(), namespace, predicate)

    @checked
    def namespaces_holding(self, predicate: Term, prefix: Identifier | None = None) -> list[str]:
        """The namespaces holding a current belief of ``predicate``, sorted: every one, or
        ``prefix`` and the namespaces below it (named ``prefix.`` and more)."""
        return records.namespaces_holding(self._reads(), predicate, prefix or "")

    # -- semantic retrieval and health -----------------------------------------------------------

    @checked
    def search(
        self,
        query: Text,
        namespace: Identifier,
        k: Annotated[int, Field(ge=1, le=1000)] = 10,
        *,
        history: bool = False,
        valid_at: Moment | None = None,
        known_at: Moment | None = None,
    ) -> list[SearchHit]:
        """Claims whose sentence is nearest to ``query``: current beliefs only by default.

        ``history=True`` searches every version (not erased); ``valid_at``/``known_at`` search
        what held then, as ``as_of`` defines it. A hit that is disputed or has a pending rival
        comes back with its rivals, so the contradiction is seen instead of hidden.
        """
        return nearest(self._reads(), query, namespace, k, history, valid_at, known_at)

    # -- reads through a scope chain (docs/policy.md, "Scopes") -----------------------------------

    @checked
    def scoped_current(self, scope: ScopeChain, subject: Term, predicate: Term) -> ScopedAnswer:
        """The current belief about one fact through ``scope``, a chain of namespaces nearest
        first (``"session:42 > agent:reviewer > project:atlas"``, or a list): each namespace
        answers for itself, a policy outranks evidence, then the nearer namespace answers first.
        Evidence holding another value than a policy answer comes back as ``disputes``. Nothing
        outside the chain is read."""
        return scoped_answer(self._reads(), scope, subject, predicate, None, None)

    @checked
    def scoped_as_of(
        self,
        scope: ScopeChain,
        subject: Term,
        predicate: Term,
        valid_at: Moment | None = None,
        known_at: Moment | None = None,
    ) -> ScopedAnswer:
        """``as_of`` through a scope chain: each namespace's answer at (``valid_at``,
        ``known_at``), resolved as ``scoped_current`` resolves the present."""
        return scoped_answer(self._reads(), scope, subject, predicate, valid_at, known_at)

    @checked
    def scoped_search(
        self,
        query: Text,
        scope: ScopeChain,
        k: Annotated[int, Field(ge=1, le=1000)] = 10,
        *,
        history: bool = False,
        valid_at: Moment | None = None,
        known_at: Moment | None = None,
    ) -> list[ScopedHit]:
        """``search`` through a scope chain. Each hit says its kind, the namespace of the chain
        that answered (``scope``, ``layer``) and its support; a fact found in several namespaces
        comes back once, as ``scoped_current`` resolves it (so a policy is returned with the
        evidence that disputes it). ``history=True`` returns every version found, unresolved."""
        return scoped_nearest(self._reads(), query, scope, k, history, valid_at, known_at)

    def doctor(self) -> DoctorReport:
        """Connectivity, schema, the vector index online and every claim embedded, each model
        loaded and answering sensibly, and a paraphrased query that must retrieve the right
        belief. Every check that can run, runs; each failed one says what to do
        (``Check.remedy``). Reads only: the paraphrase probe writes into a namespace of its own
        and removes it whole afterwards (``read/doctor.py``)."""
        from .read.doctor import diagnose

        return diagnose(self.store, self.detector, self._prober, new_id)

    def _prober(self) -> BeliefGraph:
        """This engine with its embedding model alone: doctor's probe needs no other."""
        return BeliefGraph(
            self.store,
            vocabulary=self.vocabulary,
            policy=self.policy,
            detector=Detector(self.detector.embedder),
            clock=self.clock,
        )

    @checked
    def embed(
        self,
        namespace: Identifier,
        *,
        batch_size: Annotated[int, Field(ge=1, le=10_000)] = EMBED_PAGE,
        progress: Callable[[int, int], None] | None = None,
    ) -> EmbedResult:
        """Give every claim of ``namespace`` that has no vector one (claims written with the
        models off have none, and search never finds them), ``batch_size`` claims a committed
        transaction. Idempotent and resumable: a claim with a vector is never embedded again,
        and a run that stopped keeps its committed batches. ``progress`` is called with
        (claims done, claims found) after each batch. Needs the embedding model."""
        if self.detector.embedder is None:
            raise ModelError("embed needs an embedding model (connect with models=True)")
        return embed_missing(
            self.store.on(namespace),
            self.detector.embedder,
            namespace,
            batch_size=batch_size,
            progress=progress,
        )
