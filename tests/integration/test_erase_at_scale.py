"""Erase at any size (issue 64, item 1): a namespace of 50,000 claims is erased on the launcher's
default memory settings, in batches; a failure halfway and a client killed halfway leave what
the erase covers unreadable and closed to writes, and the same erase called again finishes the
job; afterwards no erased string remains anywhere (invariant 7) and the other namespace is as
it was."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable

import pytest

from belief_graph import BeliefGraph, ConflictError, NotFound
from belief_graph.policy import Policy
from belief_graph.server.provide import ConnectionInfo
from belief_graph.testing.factories import draft, people
from belief_graph.testing.graph import check_graph, namespace_snapshot, q, strings_holding
from belief_graph.transfer.snapshot import export_namespace
from belief_graph.write import erasure

NS, OTHER = "user:big", "user:neighbour"
MARK = "zqxmark"  # in every erased string (lower case: no id holds it), so a trace holds it


def traces(bg: BeliefGraph) -> list[str]:
    return strings_holding(bg.store, MARK)


def assert_closed(bg: BeliefGraph, subject: str, predicate: str, claim_id: str) -> None:
    """What a running erase covers: nothing of it read, nothing written to it."""
    for read in (bg.get, bg.lineage):
        with pytest.raises(NotFound):
            read(NS, claim_id)
    assert bg.current(NS, subject, predicate) is None
    assert bg.history(NS, subject, predicate) == []
    assert bg.beliefs(NS, subject) == []
    assert subject not in bg.subjects(NS) and bg.pending(NS) == [] and bg.conflicts(NS) == []
    assert bg.needs_review(NS) == []
    with pytest.raises(ConflictError, match="is running over what this write touches"):
        bg.remember(draft(subject, predicate, "Faro", namespace=NS))
    with pytest.raises(ConflictError, match="has not finished"):
        export_namespace(bg.store, NS, io.StringIO())
    # Its neighbour reads and writes as ever.
    assert bg.current(OTHER, "ana", "lives_in") is not None
    bg.remember(draft("ana", "likes", "tea", namespace=OTHER))


def neighbour(bg: BeliefGraph) -> None:
    bg.remember(draft("ana", "lives_in", "Lisbon", namespace=OTHER))
    bg.remember(draft("ana", "lives_in", "Porto", namespace=OTHER))


@pytest.mark.slow
def test_fifty_thousand_claims_erased_in_batches_through_a_failure_halfway(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    bg = make_bg(policy=Policy(preset="recency"))
    claims = 50_000
    bg.ingest(people(NS, claims, tag=f"{MARK}-"), batch_size=5_000)
    first = next(iter(bg.subjects(NS, limit=1)))
    contract = bg.contract(
        NS,
        bg.history(NS, first, "lives_in")[-1].id,
        reason=f"{MARK} caller text in a reason",
    )
    assert contract.reason.startswith(MARK)
    neighbour(bg)
    stored = q(bg.store, "MATCH (c:Claim {namespace: $ns}) RETURN count(c) AS n", ns=NS)[0]["n"]
    assert stored >= 50_000

    batches: list[int] = []

    def fail_after_five(step: str, done: int) -> None:
        batches.append(done)
        if len(batches) == 5:
            raise RuntimeError("the client went away")

    with pytest.raises(RuntimeError, match="went away"):
        bg.erase(NS, progress=fail_after_five)
    erased = q(
        bg.store, "MATCH (c:Claim {namespace: $ns, status: 'erased'}) RETURN count(c) AS n", ns=NS
    )[0]["n"]
    assert erased == 5 * erasure.ERASE_BATCH < stored  # five batches committed, no more
    unerased = q(
        bg.store,
        "MATCH (c:Claim {namespace: $ns}) WHERE c.status <> 'erased' RETURN c.id AS id LIMIT 1",
        ns=NS,
    )[0]["id"]
    assert_closed(bg, first, "lives_in", unerased)
    kept = namespace_snapshot(bg.store, OTHER)

    done = bg.erase(NS)
    assert done.erasure is not None and done.erasure.resumed
    assert done.erasure.claims == len(done.retired) == stored
    assert done.erasure.facts >= claims // 6 and done.erasure.episodes == claims // 10
    assert done.erasure.revisions >= 1  # the contract's reason
    assert traces(bg) == []
    assert check_graph(bg.store) == []
    assert namespace_snapshot(bg.store, OTHER) == kept
    # Finished: the namespace reads (nothing) and takes writes again, in facts of their own.
    again = bg.remember(draft(first, "lives_in", "Faro", namespace=NS))
    assert again.verdict == "NEW"
    assert bg.erase(NS, revision_id=done.revision_id).replayed


CHILD = textwrap.dedent(
    """
    import sys
    from belief_graph import BeliefGraph
    from belief_graph.store import Store
    from belief_graph.write import erasure

    erasure.ERASE_BATCH = 200
    uri, user, password, database = sys.argv[1:5]
    bg = BeliefGraph(Store(uri, (user, password) if password else None, database))

    def tell(step, done):
        print(step, done, flush=True)
        if step == "claims" and done >= 600:
            input()  # halfway: wait here until the parent kills this process

    bg.erase("user:big", subject=sys.argv[5], progress=tell)
    """
)


@pytest.mark.slow
def test_a_client_killed_halfway_leaves_the_erase_closed_and_a_second_one_finishes_it(
    make_bg: Callable[..., BeliefGraph], neo4j_info: ConnectionInfo
) -> None:
    bg = make_bg()
    subject = f"{MARK}-person-0"
    last = bg.ingest(
        (draft(subject, f"fact_{i}", f"{MARK}-{i}", namespace=NS) for i in range(1_500)),
        batch_size=500,
    )[-1].added[0]  # erased or not yet when the child is killed: hidden either way
    other = bg.remember(draft("bob", "lives_in", "Oslo", namespace=NS)).added[0]
    neighbour(bg)
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            CHILD,
            neo4j_info.uri,
            neo4j_info.user,
            neo4j_info.password,
            neo4j_info.database,
            subject,
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ},
    )
    assert child.stdout is not None
    told = [child.stdout.readline().split() for _ in range(3)]
    assert told[-1] == ["claims", "600"], told
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=60)
    assert_closed(bg, subject, "fact_1499", last)
    assert bg.get(NS, other).object == "Oslo"  # another subject of the namespace reads on

    done = bg.erase(NS, subject=subject)
    assert done.erasure is not None and done.erasure.resumed
    assert done.erasure.claims == 1_500 and done.erasure.facts == 1_500
    assert traces(bg) == [] and check_graph(bg.store) == []
    assert q(bg.store, "MATCH (r:Erasing) RETURN count(r) AS n")[0]["n"] == 0


@pytest.mark.slow
def test_a_namespace_erase_finishes_a_subjects_erase_that_stopped(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    bg = make_bg()
    subject = f"{MARK}-person-0"
    bg.ingest(draft(subject, f"fact_{i}", f"{MARK}-{i}", namespace=NS) for i in range(30))
    bg.remember(draft("bob", "lives_in", f"{MARK}-Oslo", namespace=NS))
    assert f"{MARK}-Oslo" in traces(bg)  # the look for traces finds them while they are there

    def stop(step: str, done: int) -> None:
        raise RuntimeError("stopped")

    with pytest.raises(RuntimeError):
        bg.erase(NS, subject=subject, progress=stop)
    with pytest.raises(ConflictError, match="is running over"):
        bg.remember(draft(subject, "fact_0", "again", namespace=NS))
    whole = bg.erase(NS)
    # The subject's 30 claims went with its own erase's one batch; the rest with the whole one.
    assert whole.erasure is not None and whole.erasure.claims == 1
    assert q(bg.store, "MATCH (r:Erasing) RETURN count(r) AS n")[0]["n"] == 0
    assert traces(bg) == [] and check_graph(bg.store) == []
    assert bg.remember(draft(subject, "fact_0", "again", namespace=NS)).verdict == "NEW"
