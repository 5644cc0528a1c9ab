"""Random operation sequences over a few namespaces, subjects and values, each operation
followed by checks of the DESIGN §7 invariants in plain Cypher and through the API: the state
machine of ``tests/integration/test_invariants.py``, shared with the tests that replay its
sequences another way (``test_onetrip.py``)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

import pytest
from hypothesis import strategies as st

from belief_graph import (
    BeliefGraph,
    Claim,
    ClaimDraft,
    ConflictError,
    NotFound,
    RevisionResult,
    Tuning,
)
from belief_graph.store import Store
from belief_graph.testing.factories import Clock
from belief_graph.testing.graph import (
    counts,
    one_active_per_single_slot,
    q,
    string_values,
    superseded_without_an_end,
)
from belief_graph.vocabulary import normalize_key

NAMESPACES = ["user:ana", "user:ben"]
SUBJECTS = ["ana", "Ben"]
PREDICATES = ["city", "risk_tolerance", "likes"]  # lives_in and risk_tolerance single, likes multi
OBJECTS = ["Lisbon", "Porto", "Oslo", "cautious", "aggressive", "jazz", "tea"]
SOURCES = ["human_verified", "user_stated", "observed", "tool_output", "inferred"]


def check_namespace_isolation(store: Store, bg: BeliefGraph) -> None:
    ids = {
        r["id"]: r["ns"] for r in q(store, "MATCH (c:Claim) RETURN c.id AS id, c.namespace AS ns")
    }
    for ns in NAMESPACES:
        seen = []
        for subject in SUBJECTS:
            seen += bg.beliefs(ns, subject)
            for predicate in PREDICATES:
                for read in (bg.current, bg.history, bg.as_of):
                    got = read(ns, subject, predicate)
                    seen += got if isinstance(got, list) else [got] if got else []
        seen += bg.pending(ns) + bg.needs_review(ns)
        for conflict in bg.conflicts(ns):
            seen += [conflict.claim, conflict.rival]
        for cid in [i for i, n in ids.items() if n == ns][:6]:
            lineage = bg.lineage(ns, cid)
            seen += [lineage.claim, *lineage.chain, *lineage.dependents, *lineage.premises]
            seen.append(bg.get(ns, cid))
        assert all(c.namespace == ns for c in seen), "invariant 5: a read crossed namespaces"
        for cid in [i for i, n in ids.items() if n != ns][:6]:
            with pytest.raises(NotFound):
                bg.get(ns, cid)
            with pytest.raises(NotFound):
                bg.lineage(ns, cid)
            with pytest.raises(NotFound):
                bg.contract(ns, cid)


def ids(found: Claim | list[Claim] | None) -> list[str]:
    if found is None:
        return []
    return sorted(c.id for c in found) if isinstance(found, list) else [found.id]


def first(found: Claim | list[Claim] | None) -> str | None:
    found_ids = ids(found)
    return ",".join(found_ids) if found_ids else None


# -- the random sequences -------------------------------------------------------------------

ns_i = st.integers(0, len(NAMESPACES) - 1)
pick = st.integers(0, 1_000)

remember_op = st.tuples(
    st.just("remember"),
    ns_i,
    st.integers(0, len(SUBJECTS) - 1),
    st.integers(0, len(PREDICATES) - 1),
    st.integers(0, len(OBJECTS) - 1),
    st.sampled_from(SOURCES),
    st.sampled_from([0.3, 0.8, 1.0]),
    st.booleans(),
    st.booleans(),  # with an episode
    st.sampled_from([None, -40, -5, 5, 40]),  # valid_from, days from now (None: now)
    st.sampled_from([None, 3, 30]),  # valid_to, days after valid_from (None: open)
)
OPS = st.one_of(
    remember_op,
    remember_op,
    remember_op,
    st.tuples(st.just("contract"), pick, st.booleans(), st.sampled_from([None, -3, 3, 30])),
    st.tuples(st.just("wait"), st.sampled_from([1, 10, 45])),
    # days later, a new value of the fact last remembered (a change, or a correction): what an
    # as_of of a moment in between must not see
    st.tuples(
        st.just("revisit"),
        st.sampled_from([1, 10, 45]),
        st.integers(0, len(OBJECTS) - 1),
        st.booleans(),
    ),
    st.tuples(st.just("settle"), ns_i, pick, st.booleans()),
    # an open conflict settled for one side (its claim or its rival)
    st.tuples(st.just("resolve"), ns_i, pick, st.booleans()),
    st.tuples(st.just("promote"), pick),
    st.tuples(st.just("rollback"), pick),
    st.tuples(st.just("rectify"), pick, st.integers(0, len(OBJECTS) - 1)),
    st.tuples(st.just("erase"), ns_i, st.integers(0, len(SUBJECTS) - 1)),
    st.tuples(st.just("replay"), pick),
)


Asked = tuple[str, str, str, datetime, datetime]  # namespace, subject, predicate, valid, known


@dataclass
class Done:
    op: str
    namespace: str
    result: RevisionResult
    call: Callable[[], RevisionResult] | None = None  # re-issue with the same revision id


@dataclass
class Run:
    store: Store
    bg: BeliefGraph
    done: list[Done] = field(default_factory=list)
    claims: list[tuple[str, str]] = field(default_factory=list)  # (namespace, id)
    counter: itertools.count[int] = field(default_factory=itertools.count)
    revisions: int = 0
    replays: int = 0
    asked: dict[Asked, str | None] = field(default_factory=dict)  # every answer so far
    # Per namespace, the answers of its last check; and the namespaces the clock has moved on
    # for (a wait) since their last check.
    latest: dict[str, dict[Asked, str | None]] = field(default_factory=dict)
    moved: set[str] = field(default_factory=set)
    long: bool = False  # a fact has more claims than the engine's reader walks
    last_fact: tuple[int, int, int] | None = None  # (namespace, subject, predicate) remembered

    def rid(self) -> str:
        return f"rev-{next(self.counter):04d}"

    @property
    def clock(self) -> Clock:
        assert isinstance(self.bg.clock, Clock)
        return self.bg.clock

    def steps(self, ops: Iterable[tuple[Any, ...]]) -> Iterator[tuple[Any, ...]]:
        """The operations of a sequence, a revisit as the wait and the remember it stands for:
        a new value of the fact last remembered when its turn comes (none before any)."""
        for op in ops:
            if op[0] != "revisit":
                yield op
            elif self.last_fact is not None:
                _, days, o, correction = op
                yield ("wait", days)
                yield (
                    "remember",
                    *self.last_fact,
                    o,
                    "user_stated",
                    0.8,
                    correction,
                    False,
                    None,
                    None,
                )

    def apply(self, op: tuple[Any, ...]) -> None:
        kind = op[0]
        if kind == "wait":
            self.clock.set(self.clock.now + timedelta(days=op[1]))
            self.moved = set(NAMESPACES)
            return
        call = self.prepare(op)
        if call is None:
            return
        ns, do, replayable = call
        if kind == "replay":
            before = counts(self.store)
            original: Done = do
            assert original.call is not None
            again = original.call()
            assert again.replayed, "invariant 4: a repeated revision id ran again"
            assert again.model_copy(update={"replayed": False}) == original.result
            assert counts(self.store) == before, "invariant 4: a replay changed the graph"
            self.replays += 1
            return
        forbidden = self.erase_targets(ns, op) if kind == "erase" else None
        before = counts(self.store)
        try:
            result = do()
        except (ConflictError, ValueError):
            assert counts(self.store) == before, "a refused operation wrote something"
            return
        after = counts(self.store)
        assert not result.replayed
        self.revisions += 1
        assert after["revisions"] == before["revisions"] + 1 == self.revisions, "invariant 4"
        assert after["claims"] >= before["claims"], "invariant 3: a claim disappeared"
        assert one_active_per_single_slot(self.store) == []
        assert superseded_without_an_end(self.store) == []
        self.claims += [(ns, cid) for cid in result.added]
        self.done.append(Done(kind, ns, result, do if replayable else None))
        if forbidden is not None:
            self.check_erased(*forbidden)
        self.check_time({ns} | self.moved)

    def work_queues_down(self) -> None:
        """Invariant 10: conflicts, pending and needs_review can all be emptied through the API
        (and the time invariants hold on the way)."""
        bg = self.bg
        for ns in NAMESPACES:
            for conflict in bg.conflicts(ns, open_only=True):
                a, b = conflict.claim, conflict.rival
                try:
                    bg.resolve(ns, a.id, b.id, keep=a.id, reason="kept the newer")
                except ConflictError:  # a stale side: the conflict is dismissed instead
                    bg.dismiss(ns, a.id, b.id, reason="not a contradiction")
                self.check_time({ns})
            assert bg.conflicts(ns, open_only=True) == []
            for claim in bg.pending(ns):
                bg.reject(ns, claim.id)
            assert bg.pending(ns) == []
            for claim in bg.needs_review(ns):
                bg.reviewed(ns, claim.id, reason="checked")
            assert bg.needs_review(ns) == []
            self.check_time({ns})

    def check_time(self, namespaces: set[str] | None = None, everything: bool = False) -> None:
        """Invariants 8 and 9 in ``namespaces`` (None: all): current = as_of(now, now) =
        beliefs, for every fact; and every as_of answer given for a past known_at is given
        again (unless erased since). After an operation its namespace is checked (and every
        namespace after a wait: the clock moved for all), and the answers of that namespace's
        check before are asked again: a namespace no operation touched and no wait moved holds
        the same graph at nearly the same moment, so checking it again would repeat the answers
        just given. ``everything`` checks every namespace and asks every answer of the sequence
        again (which catches an operation that changed a namespace not its own, and would grow
        with the square of the sequence after each operation)."""
        bg = self.bg
        checked = NAMESPACES if namespaces is None or everything else sorted(namespaces)
        answers: dict[Asked, str | None] = {}
        self.long = self.any_long_fact()
        for ns in checked:
            for subject in SUBJECTS:
                held = {(c.predicate, c.id) for c in bg.beliefs(ns, subject)}
                for predicate in PREDICATES:
                    now = bg.current(ns, subject, predicate)
                    t = self.clock.now
                    again = bg.as_of(ns, subject, predicate, valid_at=t, known_at=t)
                    assert ids(now) == ids(again), "invariant 8: current ≠ as_of(now, now)"
                    canonical = bg.vocabulary.canonical(predicate)
                    assert ids(now) == sorted(i for p, i in held if p == canonical), (
                        "invariant 8: current ≠ beliefs"
                    )
                    for days in (-20, 0, 2, 10, 35):
                        key = (ns, subject, predicate, t + timedelta(days=days), t)
                        held_then = (
                            again
                            if days == 0
                            else bg.as_of(ns, subject, predicate, valid_at=key[3], known_at=t)
                        )
                        assert self.walked_alike(ids(held_then), *key), "as_of ≠ its walk"
                        assert ids(held_then) == self.by_index(*key), "as_of ≠ by index"
                        answers[key] = first(held_then)
        asked_before = (
            self.asked
            if everything
            else {k: v for ns in checked for k, v in self.latest.get(ns, {}).items()}
        )
        for (ns, subject, predicate, valid_at, known_at), answer in asked_before.items():
            held_then = bg.as_of(ns, subject, predicate, valid_at=valid_at, known_at=known_at)
            asked = (ns, subject, predicate, valid_at, known_at)
            assert self.walked_alike(ids(held_then), *asked), "as_of ≠ its walk"
            assert ids(held_then) == self.by_index(*asked), "as_of ≠ by index"
            got = first(held_then)
            seen = {*(answer or "").split(","), *(got or "").split(",")} - {""}
            if got != answer and any(bg.get(ns, i).status == "erased" for i in seen):
                continue
            assert got == answer, "invariant 9: an answer for a past known_at changed"
        self.asked.update(answers)
        for ns in checked:
            self.latest[ns] = {k: v for k, v in answers.items() if k[0] == ns}
        self.moved -= set(checked)

    def reader(self, walk_up_to: int) -> BeliefGraph:
        """A second client that walks every fact of up to ``walk_up_to`` claims and reads a
        longer one by index (the engine walks a fact of a few claims, and the facts of these
        sequences are short)."""
        tuning = Tuning(walk_up_to=walk_up_to)
        return BeliefGraph(self.store, policy=self.bg.policy, clock=self.bg.clock, tuning=tuning)

    @cached_property
    def indexed(self) -> BeliefGraph:
        return self.reader(0)

    @cached_property
    def walked(self) -> BeliefGraph:
        return self.reader(10**9)

    @staticmethod
    def answer(bg: BeliefGraph, *asked: Any) -> list[str]:
        """What ``bg`` answers as_of for ``asked`` (an ``Asked``)."""
        ns, subject, predicate, valid_at, known_at = asked
        return ids(bg.as_of(ns, subject, predicate, valid_at=valid_at, known_at=known_at))

    def by_index(self, *asked: Any) -> list[str]:
        return self.answer(self.indexed, *asked)

    def by_walk(self, *asked: Any) -> list[str]:
        return self.answer(self.walked, *asked)

    def walked_alike(self, held: list[str], *asked: Any) -> bool:
        """``held`` (the engine's answer to ``asked``) is what walking the fact answers. While
        no fact has more claims than the engine's reader walks, its reader walks every fact (the
        statement takes the same branch), and the answer is not read again."""
        return not self.long or held == self.by_walk(*asked)

    def any_long_fact(self) -> bool:
        """Whether a fact of the sequence has more claims than the engine's reader walks (it
        reads that one by index)."""
        rows = q(
            self.store,
            "MATCH (s:Slot) WHERE s.namespace IN $namespaces "
            "AND COUNT { (s)<-[:IN_SLOT]-() } > $walk_up_to RETURN count(s) AS n",
            namespaces=NAMESPACES,
            walk_up_to=self.bg.tuning.walk_up_to,
        )
        return bool(rows[0]["n"])

    def prepare(self, op: tuple[Any, ...]) -> tuple[str, Any, bool] | None:
        bg, kind = self.bg, op[0]
        if kind == "remember":
            _, n, s, p, o, source, confidence, correction, episode, start, length = op
            self.last_fact = n, s, p
            ns, token = NAMESPACES[n], next(self.counter)
            now = self.clock.now
            valid_from = None if start is None else now + timedelta(days=start)
            valid_to = (
                None if length is None else (valid_from or now) + timedelta(days=length, hours=1)
            )
            draft = ClaimDraft(
                namespace=ns,
                subject=SUBJECTS[s],
                predicate=PREDICATES[p],
                object=OBJECTS[o],
                text=f"{SUBJECTS[s]} {PREDICATES[p]} {OBJECTS[o]} (said #{token:04d}).",
                source_type=source,
                confidence=confidence,
                correction=correction,
                author=f"agent-{token:04d}",
                episode_id=f"ep-{token:04d}" if episode else None,
                episode_content=f"chat line #{token:04d} about {OBJECTS[o]}" if episode else None,
                valid_from=valid_from,
                valid_to=valid_to,
            )
            if token % 3 == 0:
                # The engine draws this one's revision id, as for most callers (and only then
                # does a client decide on the state its last write of the fact carried back).
                return ns, lambda: bg.remember(draft), False
            rid = self.rid()
            return ns, lambda: bg.remember(draft, revision_id=rid), True
        if kind == "contract":
            if not self.claims:
                return None
            ns, cid = self.claims[op[1] % len(self.claims)]
            retract, rid = op[2], self.rid()
            end = None if op[3] is None else self.clock.now + timedelta(days=op[3])
            return (
                ns,
                lambda: bg.contract(ns, cid, retract=retract, valid_to=end, revision_id=rid),
                True,
            )
        if kind == "settle":
            ns = NAMESPACES[op[1]]
            pending = bg.pending(ns)
            if not pending:
                return None
            cid, rid = pending[op[2] % len(pending)].id, self.rid()
            settle = bg.confirm if op[3] else bg.reject
            return ns, lambda: settle(ns, cid, revision_id=rid), True
        if kind == "resolve":
            ns = NAMESPACES[op[1]]
            conflicts = bg.conflicts(ns, open_only=True)
            if not conflicts:
                return None
            conflict, rid = conflicts[op[2] % len(conflicts)], self.rid()
            claim_id, rival_id = conflict.claim.id, conflict.rival.id
            keep = claim_id if op[3] else rival_id
            return (
                ns,
                lambda: bg.resolve(ns, claim_id, rival_id, keep=keep, revision_id=rid),
                True,
            )
        if kind == "promote":
            if not self.claims:
                return None
            ns, cid = self.claims[op[1] % len(self.claims)]
            rid = self.rid()
            return (
                ns,
                lambda: bg.promote(ns, cid, by="human", actor="reviewer", revision_id=rid),
                True,
            )
        if kind == "rollback":
            targets = [d for d in self.done if d.op != "erase"]
            if not targets:
                return None
            target, rid = targets[op[1] % len(targets)], self.rid()
            ns, trid = target.namespace, target.result.revision_id
            return ns, lambda: bg.rollback(ns, trid, new_revision_id=rid), True
        if kind == "rectify":
            if not self.claims:
                return None
            ns, cid = self.claims[op[1] % len(self.claims)]
            obj, token, rid = OBJECTS[op[2]], next(self.counter), self.rid()
            return (
                ns,
                lambda: bg.rectify(
                    ns,
                    cid,
                    object=obj,
                    text=f"Corrected to {obj} (#{token:04d}).",
                    actor=f"dpo-{token:04d}",
                    revision_id=rid,
                ),
                True,
            )
        if kind == "erase":
            ns, subject, rid = NAMESPACES[op[1]], SUBJECTS[op[2]], self.rid()
            return ns, lambda: bg.erase(ns, subject=subject, revision_id=rid), True
        replayable = [d for d in self.done if d.call is not None]
        if not replayable:
            return None
        target = replayable[op[1] % len(replayable)]
        return target.namespace, target, True

    def erase_targets(self, ns: str, op: tuple[Any, ...]) -> tuple[set[str], set[str]]:
        rows = q(
            self.store,
            "MATCH (c:Claim {namespace: $ns, subject_key: $key}) WHERE c.status <> 'erased' "
            "OPTIONAL MATCH (c)-[:DERIVED_FROM]->(e:Episode) "
            "RETURN c.text AS text, c.object AS object, c.subject AS subject, "
            "collect(e.content) AS episodes",
            ns=ns,
            key=normalize_key(SUBJECTS[op[2]]),
        )
        # Authors and actors are who wrote, not what was said about the subject: they stay on
        # the audit trail (Revision.actor), so only content is checked here.
        unique = {r["text"] for r in rows} | {e for r in rows for e in r["episodes"] if e}
        shared = {r["object"] for r in rows} | {r["subject"] for r in rows}
        return unique, shared

    def check_erased(self, unique: set[str], shared: set[str]) -> None:
        values = string_values(self.store)
        for text in unique:
            assert not any(text in v for v in values), f"invariant 7: {text!r} survived erase"
        still_used = {
            v
            for r in q(
                self.store,
                "MATCH (c:Claim) WHERE c.status <> 'erased' RETURN c.object AS o, c.subject AS s",
            )
            for v in (r["o"], r["s"])
        }
        for value in shared - still_used:
            assert value not in values, f"invariant 7: {value!r} survived erase"
