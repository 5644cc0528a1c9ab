"""What the client does around each statement, measured cheap (docs/benchmarks.md, "Bulk
ingest, the client's side"): the ids it draws, the parameters it hands the driver, the rows it
takes back."""

from __future__ import annotations

import logging
import os
from datetime import UTC, datetime, timedelta, timezone

from neo4j._codec.packstream import v1 as packstream
from neo4j.time import DateTime

from belief_graph import cypher
from belief_graph.client import new_id
from belief_graph.store import _native, _query, _sent

CROCKFORD = set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")


def _packed(params: dict[str, object]) -> bytes:
    packer = packstream.Packer(buffer := packstream.PackableBuffer())
    packer.pack(params)
    return bytes(buffer.data)


def test_ids_are_ulids_unique_and_ordered_by_the_millisecond() -> None:
    ids = [new_id() for _ in range(20_000)]
    assert len(set(ids)) == len(ids)
    assert all(len(i) == 26 and set(i) <= CROCKFORD for i in ids)
    # The first 10 digits are the milliseconds: later ids never sort before earlier ones.
    stamps = [i[:10] for i in ids]
    assert stamps == sorted(stamps)
    millis = int(
        "".join(f"{'0123456789ABCDEFGHJKMNPQRSTVWXYZ'.index(c):05b}" for c in ids[-1][:10]), 2
    )
    assert abs(millis / 1000 - datetime.now(UTC).timestamp()) < 60


def test_a_forked_process_draws_other_random_bits_than_its_parent() -> None:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next ids, then out without running the parent's cleanup
        os.write(write, "".join(new_id() for _ in range(4)).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    child = os.read(read, 26 * 4).decode()
    os.close(read)
    mine = "".join(new_id() for _ in range(4))
    # The random part (the last 16 digits) of the same draws in both: never alike.
    assert [child[i + 10 : i + 26] for i in range(0, 104, 26)] != [
        mine[i + 10 : i + 26] for i in range(0, 104, 26)
    ]


def test_parameters_sent_have_a_repr_of_their_size_and_the_same_bytes() -> None:
    batch = {"claims": [{"id": f"c{i}", "text": "x" * 50} for i in range(1000)], "carry": False}
    params = {"batch": batch, "ids": ["a", "b"], "namespace": "ns", "k": 3}
    sent = _sent(params)
    assert (
        repr(sent)
        == "{'batch': <a map of 2 keys>, 'ids': <a list of 2>, 'namespace': 'ns', 'k': 3}"
    )
    assert _packed(sent) == _packed(params)


def test_with_debug_logging_on_the_parameters_go_as_given() -> None:
    log = logging.getLogger("neo4j.io")
    level = log.level
    log.setLevel(logging.DEBUG)
    try:
        params = {"batch": {"claims": [{"id": "c1"}]}}
        assert _sent(params) is params
    finally:
        log.setLevel(level)


def test_rows_come_back_as_python_values_however_deep() -> None:
    moment = DateTime(2025, 3, 4, 5, 6, 7, tzinfo=timezone(timedelta(hours=2)))
    row = {
        "n": 1,
        "slots": [{"claims": [{"at": moment, "tags": ["a", 2.5, None]}], "seq": 3}],
        "at": moment,
        "held": ["x", "y"],
        "mixed": [1.5, moment],
    }
    native = _native(row)
    assert native == {
        "n": 1,
        "slots": [
            {
                "claims": [
                    {"at": datetime(2025, 3, 4, 3, 6, 7, tzinfo=UTC), "tags": ["a", 2.5, None]}
                ],
                "seq": 3,
            }
        ],
        "at": datetime(2025, 3, 4, 3, 6, 7, tzinfo=UTC),
        "held": ["x", "y"],
        "mixed": [1.5, datetime(2025, 3, 4, 3, 6, 7, tzinfo=UTC)],
    }
    assert native["at"].tzinfo is UTC


def test_a_statement_sent_has_a_repr_of_its_size_and_the_same_bytes() -> None:
    params = {"namespace": "ns", "subject_key": "ana", "predicate": "city", "valid_at": None}
    params["known_at"] = None
    text = _query("read/as_of_claims", params)
    assert repr(text) == f"<a statement of {len(text)} characters>"
    assert str(text) is text  # the driver's str() keeps it so
    assert _packed({"q": text}) == _packed({"q": cypher.sent("read/as_of_claims")})
    log = logging.getLogger("neo4j.io")
    level = log.level
    log.setLevel(logging.DEBUG)
    try:
        assert type(_query("read/as_of_claims", params)) is str
    finally:
        log.setLevel(level)
