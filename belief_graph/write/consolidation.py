"""Consolidation, the "sleep" pass: the pure plan over a whole namespace, and the exact reverse
of one. No I/O: the read step (``writer.py``) hands in every slot and claim of the namespace.

A plan merges duplicates of one fact into the claim that holds it, retires a second belief of a
single-valued fact, closes conflicts and review flags whose cause is gone, flags dependents of
erased premises nobody flagged, and repairs what it can of the version chains; what it cannot
repair without deleting or guessing it reports. Everything it changes in place is recorded on
its Revision (``undo``), so ``rollback`` sets the namespace back exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..errors import ConflictError
from ..identity import stated_value, value_key, values_match
from ..models import ConsolidationAction, ConsolidationStep, IntegrityCheck, IntegrityProblem
from ..policy import PairScores, Policy, is_same
from ..vocabulary import normalize_key
from .changes import (
    ASSIGNED_MOMENTS,
    Assign,
    ChangeSet,
    Contradiction,
    Merge,
    Reinforce,
    Retire,
    Settle,
    SlotState,
    Supersedes,
    Unsettle,
)
from .state import State

# The properties a consolidation may change on a claim: its rollback sets them all back.
SNAPSHOT = (
    "status",
    "disputed",
    "needs_review",
    "review_reason",
    "review_revision",
    "version",
    "frequency",
    "confidence",
    "valid_to",
    "superseded_at",
    "reinforced_at",
)
LIVE = ("active", "pending")
_CAUSE = re.compile(r"claim (\S+), which was")


@dataclass
class Survey:
    """A namespace as the read step found it: its slots (with ``seq``, for the locks) and every
    claim by id (moments parsed; ``in_slot``, ``supersedes``, ``refs``, ``conflicts``,
    ``flagged_at`` as ``write/consolidate_claims`` returns them). ``paraphrases``: for a
    text-only claim, the model scores of the claims nearest to it (models on only)."""

    namespace: str
    state: State
    claims: dict[str, dict[str, Any]]
    paraphrases: dict[str, dict[str, PairScores]] = field(default_factory=dict)

    @property
    def slots(self) -> dict[str, SlotState]:
        return {s.slot_id: s for s in self.state.slots.values()}


@dataclass
class Plan:
    """What a consolidation does: its ``ChangeSet`` (``None``: nothing to change), the steps
    as the report lists them, and the problems it leaves for a human."""

    change: ChangeSet | None
    steps: list[ConsolidationStep]
    problems: list[IntegrityProblem]


def same_value(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    scores: PairScores | None,
    policy: Policy,
    *,
    same_fact: bool = False,
) -> bool:
    """True when two claims state one value: one object (``identity.value_key``: articles,
    plural, case and word order aside; two structured claims: nothing else counts), the same
    sentence (normalized), for two claims of one fact (``same_fact``) the value a sentence
    states, or, for a text-only claim, a paraphrase the models call the same (never one whose
    words show another value, a negation, another subject or relation). Never two polarities."""
    if bool(a.get("negated")) != bool(b.get("negated")):
        return False
    if a.get("object_key") is not None and b.get("object_key") is not None:
        return _object_key(a) == _object_key(b)
    if a.get("text") and b.get("text") and normalize_key(a["text"]) == normalize_key(b["text"]):
        return True
    if same_fact:
        mine = stated_value(a.get("object"), a.get("text") or "")
        theirs = stated_value(b.get("object"), b.get("text") or "")
        if mine is not None and theirs is not None:
            return values_match(a.get("object"), mine, b.get("object"), theirs)
    return (
        scores is not None
        and scores.frame in ("same", "other")
        and is_same(
            PairScores(similarity=scores.similarity, contradiction=scores.contradiction), policy
        )
    )


def _object_key(claim: Mapping[str, Any]) -> str:
    """A structured claim's value identity (claims stored before ``value_key`` existed, or
    built without their object, by the normalized key they kept)."""
    obj = claim.get("object")
    return value_key(obj) if obj is not None else value_key(str(claim["object_key"]))


class _Planner:
    def __init__(
        self,
        survey: Survey,
        policy: Policy,
        rid: str,
        actor: str | None,
        now: datetime,
    ) -> None:
        self.s = survey
        self.claims = survey.claims
        self.slots = survey.slots
        self.policy = policy
        self.now = now
        self.change = ChangeSet(
            revision_id=rid,
            namespace=survey.namespace,
            op="consolidate",
            decision="consolidate",
            reason="",
            at=now,
            actor=actor,
        )
        self.steps: list[ConsolidationStep] = []
        self.problems: list[IntegrityProblem] = []
        self.into: dict[str, str] = {}  # merged duplicate → the claim it folds into
        self.retired: dict[str, str] = {}  # claim → the status it leaves with
        self.touched: set[str] = set()  # claims whose properties or edges change
        self.informs: set[str] = set()  # claims a decision rests on (their slots are locked)
        self.settled: dict[tuple[str, str], str] = {}  # open conflict (from, to) → resolution
        self.carried: set[tuple[str, str]] = set()
        self.versions: dict[str, int | None] = {}  # claim → version assigned
        self.slot_before: dict[str, dict[str, Any]] = {}
        self.edges = [
            (c["id"], x["rival"], x)
            for c in self.claims.values()
            for x in c.get("conflicts") or []
            if x.get("rival") in self.claims
        ]
        self.active_by_slot: dict[str | None, list[dict[str, Any]]] | None = None
        self.premise_of: dict[str, set[str]] = {}  # premise → claims that DEPEND_ON it
        for c in self.claims.values():
            for r in c.get("refs") or []:
                if r["kind"] == "DEPENDS_ON" and r.get("to") is not None:
                    self.premise_of.setdefault(r["to"], set()).add(c["id"])

    # -- helpers ---------------------------------------------------------------------------------

    def rank(self, c: Mapping[str, Any]) -> tuple[Any, ...]:
        """The claim ``current`` answers with first (it holds now), then the order ``as_of``
        breaks ties in (accepted last): the survivor of a fact's duplicates is the one the reads
        already answer with, so ``current`` does not change."""
        end = c.get("valid_to")
        holds = c["valid_from"] <= self.now and (end is None or end > self.now)
        return (holds, c.get("accepted_at") or c["recorded_at"], c.get("version") or 0, c["id"])

    def twin_rank(self, c: Mapping[str, Any]) -> tuple[Any, ...]:
        """Across facts, a structured claim (it has a key) absorbs a text-only one."""
        return (c.get("object_key") is not None, *self.rank(c))

    def status(self, claim_id: str) -> str:
        """A claim's status once the plan is applied."""
        return self.retired.get(claim_id) or self.claims[claim_id]["status"]

    def step(
        self,
        action: ConsolidationAction,
        claim_id: str | None,
        detail: str,
        *,
        other_id: str | None = None,
        slot_id: str | None = None,
    ) -> None:
        self.steps.append(
            ConsolidationStep(
                action=action, claim_id=claim_id, other_id=other_id, slot_id=slot_id, detail=detail
            )
        )

    def problem(
        self,
        check: IntegrityCheck,
        detail: str,
        *,
        claim_id: str | None = None,
        slot_id: str | None = None,
    ) -> None:
        self.problems.append(
            IntegrityProblem(check=check, claim_id=claim_id, slot_id=slot_id, detail=detail)
        )

    def slot_of(self, claim: Mapping[str, Any]) -> str | None:
        slots = claim.get("in_slot") or []
        return slots[0] if slots else claim.get("slot_id")

    def final(self, claim_id: str) -> str:
        while claim_id in self.into:
            claim_id = self.into[claim_id]
        return claim_id

    def open_conflicts(self) -> list[tuple[str, str, dict[str, Any]]]:
        """Every open CONTRADICTS edge read (from, to, edge)."""
        return self.edges

    # -- the plan --------------------------------------------------------------------------------

    def plan(self) -> Plan:
        self.duplicates_in_slots()
        self.twins_across_slots()
        for duplicate, survivor in self.into.items():
            self.merge(duplicate, self.final(survivor))
        self.conflicts()
        self.review_flags()
        self.references()
        self.chains()
        self.disputed()
        return self.finish()

    def duplicates_in_slots(self) -> None:
        """Invariant 1 and duplicates: a fact with several active claims keeps the one the reads
        answer with; the others of its value fold into it, another value of a single-valued
        fact (an older writer's second belief) is superseded by it."""
        by_slot: dict[str, list[dict[str, Any]]] = {}
        for c in self.claims.values():
            slot_id = self.slot_of(c)
            if c["status"] == "active" and slot_id in self.slots:
                by_slot.setdefault(slot_id, []).append(c)
        for slot_id, active in sorted(by_slot.items()):
            if len(active) < 2:
                continue
            single = self.slots[slot_id].cardinality == "single"
            groups: list[list[dict[str, Any]]] = []
            for c in sorted(active, key=self.rank):
                home = next(
                    (g for g in groups if same_value(g[0], c, None, self.policy, same_fact=True)),
                    None,
                )
                if home is None:
                    groups.append([c])
                else:
                    home.append(c)
            winner = max(active, key=self.rank)
            for group in groups:
                keep = max(group, key=self.rank)
                for c in group:
                    if c is not keep:
                        self.into[c["id"]] = keep["id"]
                if single and keep is not winner:
                    self.supersede(keep, winner, slot_id)

    def twins_across_slots(self) -> None:
        """A text-only claim that opened a fact of its own while another claim holds the same
        sentence (or, with models, a paraphrase of it) folds into that claim."""
        active = [
            c for c in self.claims.values() if c["status"] == "active" and c["id"] not in self.into
        ]
        by_text: dict[str, list[dict[str, Any]]] = {}
        for c in active:
            if c.get("text"):
                by_text.setdefault(normalize_key(c["text"]), []).append(c)
        for c in sorted(active, key=self.twin_rank):
            if c.get("object_key") is not None or c["id"] in self.retired:
                continue
            near = [
                self.claims[i]
                for i, scores in self.s.paraphrases.get(c["id"], {}).items()
                if i in self.claims and same_value(c, self.claims[i], scores, self.policy)
            ]
            twins = [
                t
                for t in (*by_text.get(normalize_key(c["text"]), []), *near)
                if t["id"] != c["id"]
                and t["status"] == "active"
                and t["id"] not in self.retired
                and self.slot_of(t) != self.slot_of(c)
                and self.twin_rank(t) > self.twin_rank(c)
            ]
            if twins:
                self.into[c["id"]] = max(twins, key=self.twin_rank)["id"]

    def end(self, claim: Mapping[str, Any], holder: Mapping[str, Any]) -> datetime | None:
        """Where a retired claim's open window closes: where ``holder`` starts holding (never
        before the claim's own start), so every answer ``as_of`` gave stays as it was."""
        if claim.get("valid_to") is not None:
            return None  # an end is never moved
        start: datetime = max(claim["valid_from"], holder["valid_from"])
        return start

    def merge(self, duplicate: str, survivor: str) -> None:
        d, s = self.claims[duplicate], self.claims[survivor]
        self.retired[duplicate] = "superseded"
        self.touched |= {duplicate, survivor}
        self.change.retires.append(
            Retire(duplicate, "superseded", d["status"], d.get("valid_to"), self.end(d, s))
        )
        self.change.merges.append(Merge(duplicate, survivor))
        self.step(
            "merge",
            duplicate,
            "the same fact and value as the claim it folds into: it supports it, and its "
            "mentions, episodes and dependents go with it",
            other_id=survivor,
            slot_id=self.slot_of(d),
        )

    def supersede(self, loser: dict[str, Any], winner: dict[str, Any], slot_id: str) -> None:
        self.retired[loser["id"]] = "superseded"
        self.touched |= {loser["id"]}
        self.informs.add(winner["id"])
        self.change.retires.append(
            Retire(
                loser["id"],
                "superseded",
                "active",
                loser.get("valid_to"),
                self.end(loser, winner),
                why="superseded",
            )
        )
        for dependent in self.dependents(loser["id"]):
            self.touched.add(dependent)
        self.step(
            "supersede",
            loser["id"],
            "a second belief of a single-valued fact: the one the reads answer with stays",
            other_id=winner["id"],
            slot_id=slot_id,
        )

    def dependents(self, claim_id: str) -> list[str]:
        """Live claims that DEPEND_ON ``claim_id`` or that it SUPPORTS (those a retirement
        flags)."""
        out = set(self.premise_of.get(claim_id, ()))
        out |= {
            r["to"]
            for r in self.claims[claim_id].get("refs") or []
            if r["kind"] == "SUPPORTS" and r.get("to") in self.claims
        }
        return sorted(i for i in out if self.claims[i]["status"] in LIVE)

    def conflicts(self) -> None:
        """Open conflicts: a merged side's conflicts pass to the claim it folds into; a conflict
        whose side left the beliefs (or whose window ended) is closed."""
        merges: dict[str, int] = {}
        for a, b, edge in self.open_conflicts():
            fa, fb = self.final(a), self.final(b)
            if a in self.into or b in self.into:
                self.touched |= {a, b}
                resolution = f"merged into {fa if a in self.into else fb}"
                self.settled[(a, b)] = resolution
                self.change.settles.append(Settle(a, resolution, rival=b))
                if fa == fb or self.status(fa) not in LIVE or self.status(fb) not in LIVE:
                    continue
                if self.has_open(fa, fb) or (fa, fb) in self.carried or (fb, fa) in self.carried:
                    continue
                self.carried.add((fa, fb))
                self.touched |= {fa, fb}
                self.change.contradictions.append(Contradiction(fa, fb, edge.get("score"), True))
                merges[fa] = merges.get(fa, 0) + 1
                self.step(
                    "carry_conflict",
                    fa,
                    f"the conflict of merged claim {a if a in self.into else b} stays open "
                    "against the claim that holds its value",
                    other_id=fb,
                )
                continue
            gone = self.gone(a) or self.gone(b)
            if gone is None:
                continue
            self.touched |= {a, b}
            if a in self.retired or b in self.retired:
                continue  # the retirement settles it, with the status it leaves with
            self.settled[(a, b)] = gone
            self.change.settles.append(Settle(a, gone, rival=b))
            self.step(
                "close_conflict",
                a,
                f"a side is no longer a belief ({gone})",
                other_id=b,
            )
        for a, b, _ in self.open_conflicts():
            if (a, b) not in self.settled and (a in self.retired or b in self.retired):
                self.settled[(a, b)] = self.retired.get(a) or self.retired[b]
                self.touched |= {a, b}

    def has_open(self, a: str, b: str) -> bool:
        return any(
            {x, y} == {a, b} and (x, y) not in self.settled for x, y, _ in self.open_conflicts()
        )

    def gone(self, claim_id: str) -> str | None:
        """Why a side of a conflict no longer stands (``None``: it does)."""
        status = self.status(claim_id)
        if status not in LIVE:
            return status
        end = self.claims[claim_id].get("valid_to")
        if status == "active" and end is not None and end <= self.now:
            return "ended"
        return None

    def review_flags(self) -> None:
        """A review flag closes when its claim left the beliefs, or when the premise it names
        holds its value again (a rollback restored it, or it is active again)."""
        for c in sorted(self.claims.values(), key=lambda c: c["id"]):
            if not c.get("needs_review"):
                continue
            if self.status(c["id"]) not in LIVE:
                self.clear(c, f"the claim itself is {self.status(c['id'])}")
                continue
            found = _CAUSE.search(c.get("review_reason") or "")
            premise = self.claims.get(found.group(1)) if found else None
            if premise is None or premise["status"] == "erased":
                continue
            holder = self.holder(premise)
            if holder is not None:
                self.informs.add(holder)
                self.clear(c, f"its premise {premise['id']} holds its value again", holder)

    def holder(self, premise: Mapping[str, Any]) -> str | None:
        """An active claim of the premise's fact with the premise's value (itself, or the copy
        a rollback restored), if any."""
        if self.active_by_slot is None:
            # Built once the merges are planned: a merged claim holds no value any more.
            self.active_by_slot = {}
            for c in sorted(self.claims.values(), key=self.rank, reverse=True):
                if self.status(c["id"]) == "active":
                    self.active_by_slot.setdefault(self.slot_of(c), []).append(c)
        for c in self.active_by_slot.get(self.slot_of(premise), []):
            if c["id"] == premise["id"] or same_value(c, premise, None, self.policy):
                return str(c["id"])
        return None

    def clear(self, claim: Mapping[str, Any], why: str, premise: str | None = None) -> None:
        self.touched.add(claim["id"])
        self.change.clear_review_of.append(claim["id"])
        self.step("clear_flag", claim["id"], f"review flag closed: {why}", other_id=premise)

    def references(self) -> None:
        """Every DEPENDS_ON / SUPPORTS edge points at a claim of this namespace that is not
        erased; a live dependent of an erased premise that no revision flagged since the
        erasure is flagged now. Edges are never deleted: what cannot be repaired is reported."""
        cleared = set(self.change.clear_review_of)
        for c in sorted(self.claims.values(), key=lambda c: c["id"]):
            for ref in c.get("refs") or []:
                target = ref.get("to")
                if target is None or target not in self.claims:
                    self.problem(
                        "reference",
                        f"its {ref['kind']} edge points outside the namespace or at no claim; "
                        "edges are never deleted, check how it was written",
                        claim_id=c["id"],
                    )
                    continue
                premise, dependent = (
                    (self.claims[target], c)
                    if ref["kind"] == "DEPENDS_ON"
                    else (c, self.claims[target])
                )
                if premise["status"] != "erased" or dependent["status"] not in LIVE:
                    continue
                if self.status(dependent["id"]) not in LIVE:
                    continue
                flagged = dependent.get("needs_review") and dependent["id"] not in cleared
                since = dependent.get("flagged_at")
                erased = premise.get("erased_at")
                if flagged or (since is not None and erased is not None and since >= erased):
                    continue
                if any(i == dependent["id"] for i, _ in self.change.raises):
                    continue
                link = "depends on" if ref["kind"] == "DEPENDS_ON" else "is supported by"
                reason = (
                    f"it {link} claim {premise['id']}, which was erased (found by consolidation "
                    f"{self.change.revision_id})"
                )
                self.touched.add(dependent["id"])
                self.change.raises.append((dependent["id"], reason))
                self.step(
                    "flag",
                    dependent["id"],
                    f"it {link} an erased claim and nobody reviewed it since",
                    other_id=premise["id"],
                )

    def chains(self) -> None:
        """Each single-valued fact's versions are 1..n, each superseding its predecessor, and
        the slot counts them. A merged duplicate that shares its number with the survivor
        leaves the chain (as a window learned late does); a missing edge to the predecessor is
        added; the count and head are set. Anything else is reported."""
        members: dict[str, list[dict[str, Any]]] = {}
        for c in self.claims.values():
            slot_id = self.slot_of(c)
            if slot_id is None:
                self.problem("slot", "the claim is in no slot", claim_id=c["id"])
                continue
            members.setdefault(slot_id, []).append(c)
        for slot_id, slot in sorted(self.slots.items()):
            claims = members.get(slot_id, [])
            if slot.cardinality != "single":
                if any(c.get("supersedes") for c in claims):
                    self.problem(
                        "chain", "a multi-valued fact has SUPERSEDES edges", slot_id=slot_id
                    )
                continue
            self.chain(slot, claims)

    def chain(self, slot: SlotState, claims: list[dict[str, Any]]) -> None:
        slot_id = slot.slot_id
        by_version: dict[int, list[dict[str, Any]]] = {}
        for c in claims:
            if c.get("version") is not None:
                by_version.setdefault(int(c["version"]), []).append(c)
        for number, shared in sorted(by_version.items()):
            if len(shared) < 2:
                continue
            stays = [c for c in shared if c["id"] not in self.retired]
            if len(stays) != 1 or any(c.get("supersedes") for c in shared if c not in stays):
                continue  # reported below
            for c in shared:
                if c is not stays[0]:
                    self.versions[c["id"]] = None
                    self.touched.add(c["id"])
                    self.step(
                        "repair_chain",
                        c["id"],
                        f"retired here, it shared version {number} with the claim that stays: "
                        "it leaves the chain, as a window learned late does",
                        other_id=stays[0]["id"],
                        slot_id=slot_id,
                    )
        chain = sorted(
            (c for c in claims if self.version(c) is not None), key=lambda c: self.version(c) or 0
        )
        numbers = [self.version(c) for c in chain]
        if numbers != list(range(1, len(chain) + 1)):
            self.problem(
                "chain",
                f"versions {numbers} are not 1..{len(chain)}; renumbering history is left to "
                "a human",
                slot_id=slot_id,
            )
            return
        incoming: dict[str, int] = {}
        for c in claims:
            for target in c.get("supersedes") or []:
                incoming[target] = incoming.get(target, 0) + 1
        for i, c in enumerate(chain):
            outs = [t for t in c.get("supersedes") or []]
            if i == 0:
                if outs:
                    self.problem(
                        "chain",
                        "the first version supersedes a claim",
                        claim_id=c["id"],
                        slot_id=slot_id,
                    )
                continue
            before = chain[i - 1]["id"]
            if not outs:
                self.change.supersedes.append(Supersedes(c["id"], before, "CONSOLIDATE"))
                self.touched |= {c["id"], before}
                self.step(
                    "repair_chain",
                    c["id"],
                    f"version {i + 1} did not supersede version {i}: the edge is added",
                    other_id=before,
                    slot_id=slot_id,
                )
            elif outs != [before]:
                self.problem(
                    "chain",
                    f"version {i + 1} supersedes {outs}, not its predecessor {before}",
                    claim_id=c["id"],
                    slot_id=slot_id,
                )
        for target, n in sorted(incoming.items()):
            if n > 1:
                self.problem("chain", f"superseded {n} times", claim_id=target, slot_id=slot_id)
        for c in claims:
            if c.get("version") is None and self.version(c) is None and c.get("supersedes"):
                self.problem(
                    "chain",
                    "a claim outside the chain supersedes another",
                    claim_id=c["id"],
                    slot_id=slot_id,
                )
        head = chain[-1]["id"] if chain else None
        if (slot.versions or 0) != len(chain) or slot.head != head:
            self.slot_before[slot_id] = {"versions": slot.versions, "head": slot.head}
            slot.versions, slot.head = len(chain), head
            slot.touched_by = self.change.revision_id
            self.step(
                "repair_chain",
                head,
                f"the fact counts {len(chain)} versions, head {head}",
                slot_id=slot_id,
            )

    def version(self, c: Mapping[str, Any]) -> int | None:
        if c["id"] in self.versions:
            return self.versions[c["id"]]
        v = c.get("version")
        return int(v) if v is not None else None

    def disputed(self) -> None:
        """``disputed`` says what the open conflicts say, once the plan is applied."""
        still_open: set[str] = set()
        for a, b, _ in self.open_conflicts():
            if (a, b) not in self.settled:
                still_open |= {a, b}
        for a, b in self.carried:
            still_open |= {a, b}
        # The settle and contradiction rows already set the flag of the claims they touch.
        handled = {i for pair in (*self.settled, *self.carried) for i in pair}
        for c in sorted(self.claims.values(), key=lambda c: c["id"]):
            if c["id"] in self.retired or c["id"] in handled:
                continue
            should = self.status(c["id"]) in LIVE and c["id"] in still_open
            if bool(c.get("disputed")) != should:
                self.touched.add(c["id"])
                self.change.disputes.append((c["id"], should))
                self.step(
                    "set_disputed",
                    c["id"],
                    "an open conflict stands against it"
                    if should
                    else "no open conflict stands against it",
                )

    def finish(self) -> Plan:
        if not self.steps:
            return Plan(None, [], self.problems)
        change = self.change
        survivors: dict[str, list[str]] = {}
        for m in change.merges:
            survivors.setdefault(m.into, []).append(m.id)
        for survivor, merged in sorted(survivors.items()):
            s = self.claims[survivor]
            mentions = [self.claims[i] for i in merged]
            last = max(
                (m.get("reinforced_at") or m["recorded_at"] for m in [s, *mentions]),
            )
            change.reinforcements.append(
                Reinforce(
                    survivor,
                    sum(int(m.get("frequency") or 1) for m in mentions),
                    confidence=max(float(m["confidence"]) for m in mentions),
                    at=last,
                    previous_confidence=s["confidence"],
                    previous_at=s.get("reinforced_at"),
                )
            )
        for claim_id, version in sorted(self.versions.items()):
            change.assigns.append(Assign(claim_id, {"version": version}))
        for claim_id in list(self.touched):
            self.touched |= set(self.dependents(claim_id)) if claim_id in self.retired else set()
        locked = sorted(
            {
                slot_id
                for i in self.touched | self.informs
                if (slot_id := self.slot_of(self.claims[i])) in self.slots
            }
            | set(self.slot_before)
        )
        for slot_id in locked:
            self.slots[slot_id].touched_by = change.revision_id
        change.slot_ids = locked
        change.slot_id = locked[0] if locked else None
        change.undo = {
            "claims": {i: snapshot(self.claims[i]) for i in sorted(self.touched)},
            "conflicts": [
                {"from": a, "to": b, "previous": edge.get("settled_by")}
                for a, b, edge in self.open_conflicts()
                if (a, b) in self.settled
            ],
            "slots": self.slot_before,
        }
        counts: dict[str, int] = {}
        for step in self.steps:
            counts[step.action] = counts.get(step.action, 0) + 1
        change.reason = "consolidation: " + ", ".join(
            f"{n} {action.replace('_', ' ')}" for action, n in sorted(counts.items())
        )
        return Plan(change, self.steps, self.problems)


def snapshot(claim: Mapping[str, Any]) -> dict[str, Any]:
    """The properties a consolidation may change, as JSON (moments as ISO-8601 text)."""
    out: dict[str, Any] = {}
    for name in SNAPSHOT:
        value = claim.get(name)
        out[name] = value.isoformat() if isinstance(value, datetime) else value
    return out


def consolidate(
    survey: Survey, *, policy: Policy, rid: str, actor: str | None, now: datetime
) -> Plan:
    """The plan of a consolidation of ``survey``'s namespace (pure)."""
    return _Planner(survey, policy, rid, actor, now).plan()


def undo(
    state: State,
    namespace: str,
    target: Mapping[str, Any],
    *,
    revision_id: str,
    rid: str,
    actor: str | None,
    now: datetime,
) -> ChangeSet:
    """The exact reverse of consolidation ``target`` (its op, slot ids, changes and ``undo``
    record): every property it changed set back, the conflicts it settled open again, the
    edges it made gone. Refused when a later revision touched one of its facts."""
    record: dict[str, Any] = target["undo"]
    slot_ids: list[str] = target["slot_ids"] or []
    for slot_id in slot_ids:
        slot = state.slot(slot_id)
        if slot is None:
            continue
        if slot.last_revision != revision_id:
            raise ConflictError(
                f"revision_id: revision {slot.last_revision!r} changed the same fact after "
                f"{revision_id!r}; roll that back first"
            )
        slot.touched_by = rid
        before = record["slots"].get(slot_id)
        if before is not None:
            slot.versions, slot.head = before["versions"] or 0, before["head"]
    retired = {c["id"] for c in target["changes"] if c["kind"] == "RETIRED"}
    change = ChangeSet(
        revision_id=rid,
        namespace=namespace,
        op="rollback",
        decision="rollback",
        reason=f"reverses consolidation {revision_id}",
        at=now,
        actor=actor,
        slot_id=slot_ids[0] if slot_ids else None,
        slot_ids=slot_ids,
        undoes=revision_id,
    )
    for claim_id, props in sorted(record["claims"].items()):
        change.assigns.append(Assign(claim_id, _parsed(props), restored=claim_id in retired))
    change.unsettles += [
        Unsettle(c["from"], c["to"], revision_id, c["previous"]) for c in record["conflicts"]
    ]
    change.unlink = sorted(record["claims"])
    change.unlinked_revision = revision_id
    return change


def _parsed(props: Mapping[str, Any]) -> dict[str, Any]:
    return {
        k: datetime.fromisoformat(v) if k in ASSIGNED_MOMENTS and isinstance(v, str) else v
        for k, v in props.items()
    }


def scored(rows: Iterable[tuple[str, str, PairScores]]) -> dict[str, dict[str, PairScores]]:
    """Paraphrase scores by text-only claim, then by the claim it was compared with."""
    out: dict[str, dict[str, PairScores]] = {}
    for claim_id, other, scores in rows:
        out.setdefault(claim_id, {})[other] = scores
    return out
