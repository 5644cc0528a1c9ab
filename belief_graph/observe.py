"""``observe``: what someone said taken in as claims.

An extractor proposes claims from an episode; each becomes a draft carrying its source span
(``episode_content``), so that verification checks it against what was said before it is
believed (docs/extraction.md). What one turn said is remembered as one batch; when the write
path refuses the batch, each draft goes again on its own, so that one refused draft does not
keep the others out. Every refusal comes back with its reason.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from datetime import datetime

from pydantic import ValidationError

from .errors import ConflictError, NotFound
from .extraction import (
    Episode,
    Extractor,
    KnownSubjects,
    MalformedOutput,
    Observation,
    Proposal,
    Refusal,
)
from .models import ClaimDraft, RevisionResult, SourceType
from .vocabulary import Vocabulary
from .write.remember import UNSUPPORTED_BY_SOURCE, Request


def observe_episode(
    namespace: str,
    episode: Episode,
    episode_id: str,
    extractor: Extractor,
    source_type: SourceType,
    actor: str | None,
    *,
    vocabulary: Vocabulary,
    known_subjects: KnownSubjects,
    clock: Callable[[], datetime],
    new_id: Callable[[], str],
    remember: Callable[[Sequence[Request]], list[RevisionResult]],
) -> Observation:
    """``BeliefGraph.observe``'s work, its arguments checked: ``episode`` (named ``episode_id``)
    through ``extractor``, each draft a request (its revision id drawn by ``new_id`` unless the
    episode is named) that ``remember`` writes."""
    try:
        proposals = extractor.extract(episode, vocabulary=vocabulary, known_subjects=known_subjects)
    except MalformedOutput as exc:
        whole = Proposal(
            subject=episode.speaker, predicate="", object="", sentence="", source=episode.text
        )
        return Observation(
            episode_id=episode_id,
            extractor=extractor.name,
            proposals=[],
            results=[],
            refused=[Refusal(proposal=whole, reason=str(exc))],
        )
    now = clock()
    refused: list[Refusal] = []
    drafted: list[tuple[Proposal, Request]] = []
    for proposal in proposals:
        try:
            draft = _draft_of(namespace, episode, episode_id, proposal, source_type, now)
        except ValidationError as exc:
            refused.append(Refusal(proposal=proposal, reason=f"invalid: {_first(exc)}"))
            continue
        except ValueError as exc:
            refused.append(Refusal(proposal=proposal, reason=f"invalid: {exc}"))
            continue
        if episode.id:
            request = Request(draft, _revision_of(episode.id, proposal), actor)
        else:
            request = Request(draft, new_id(), actor, fresh=True)
        drafted.append((proposal, request))
    results: list[RevisionResult] = []
    for proposal, written in _remember_each(drafted, remember):
        if isinstance(written, ValidationError):
            refused.append(Refusal(proposal=proposal, reason=f"invalid: {_first(written)}"))
            continue
        if isinstance(written, Exception):
            refused.append(Refusal(proposal=proposal, reason=f"not written: {written}"))
            continue
        result = written
        results.append(result)
        if result.decision == "refuse":
            refused.append(Refusal(proposal=proposal, reason=result.reason))
        elif result.decision == "hold_pending" and result.reason == UNSUPPORTED_BY_SOURCE:
            refused.append(
                Refusal(
                    proposal=proposal,
                    reason=f"unsupported: {result.reason} (pending claim {result.claim_id})",
                )
            )
    return Observation(
        episode_id=episode_id,
        extractor=extractor.name,
        proposals=proposals,
        results=results,
        refused=refused,
    )


def _remember_each(
    drafted: list[tuple[Proposal, Request]],
    remember: Callable[[Sequence[Request]], list[RevisionResult]],
) -> list[tuple[Proposal, RevisionResult | Exception]]:
    """Each request's result, or the error that kept it from being written. One batch
    first (one embedding call, one read, one write for what one turn said); when the write
    path refuses the batch, nothing of it was written, and each request goes again on its
    own, so that one refused request does not keep the others out."""
    refusals = (ValidationError, ConflictError, NotFound, ValueError)
    if len(drafted) > 1:
        try:
            batch = remember([request for _, request in drafted])
            return list(zip([proposal for proposal, _ in drafted], batch, strict=True))
        except refusals:
            pass
    each: list[tuple[Proposal, RevisionResult | Exception]] = []
    for proposal, request in drafted:
        try:
            each.append((proposal, remember([request])[0]))
        except refusals as exc:
            each.append((proposal, exc))
    return each


def _draft_of(
    namespace: str,
    episode: Episode,
    episode_id: str,
    proposal: Proposal,
    source_type: SourceType,
    now: datetime,
) -> ClaimDraft:
    """The draft a proposal becomes: verified against its source span, in the episode."""
    valid_from = proposal.valid_from
    if valid_from is None and proposal.valid_to is not None and proposal.valid_to <= episode.at:
        raise ValueError(
            f"valid_to: it ended ({proposal.valid_to.isoformat()}) before it was said and no "
            "start is known; a window in the past needs its valid_from"
        )
    if valid_from is None and episode.at < now and not proposal.correction:
        # Said in the past: it held at least from when it was said. (A correction says the
        # old value was never true: it keeps no start of its own.)
        valid_from = episode.at
    if proposal.text_only:
        return ClaimDraft(
            namespace=namespace,
            text=proposal.sentence,
            source_type=source_type,
            author=episode.speaker,
            valid_from=valid_from,
            episode_id=episode_id,
            episode_content=proposal.source,
        )
    return ClaimDraft(
        namespace=namespace,
        subject=proposal.subject,
        predicate=proposal.predicate,
        object=proposal.object,
        text=proposal.sentence,
        source_type=source_type,
        author=episode.speaker,
        valid_from=valid_from,
        valid_to=proposal.valid_to,
        episode_id=episode_id,
        episode_content=proposal.source,
        negated=True if proposal.negated else None,
        correction=proposal.correction,
    )


def _revision_of(episode_id: str, proposal: Proposal) -> str:
    """The same proposal from the same episode is the same revision (a replay)."""
    digest = hashlib.sha256(
        json.dumps([episode_id, proposal.model_dump(mode="json")], sort_keys=True).encode()
    ).hexdigest()
    return f"obs-{digest[:32]}"


def _first(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error["loc"])
    return f"{where}: {error['msg']}" if where else str(error["msg"])
