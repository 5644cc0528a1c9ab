"""A bulk write defers the collector's full passes while it runs, and only then."""

from __future__ import annotations

import gc
import threading

import pytest

from belief_graph.write.bulk import FULL_PASS_DEFERRAL, fewer_full_collections


def test_the_oldest_generation_waits_longer_meanwhile_and_the_thresholds_come_back() -> None:
    before = gc.get_threshold()
    with fewer_full_collections():
        young, middle, old = gc.get_threshold()
        assert (young, middle) == before[:2], "the young generations are collected as before"
        assert old == before[2] * FULL_PASS_DEFERRAL
    assert gc.get_threshold() == before


def test_the_thresholds_come_back_after_an_error() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), fewer_full_collections():
        raise RuntimeError("a draft refused midway")
    assert gc.get_threshold() == before


def test_overlapping_bulk_writes_defer_once_and_restore_when_the_last_ends() -> None:
    before = gc.get_threshold()
    deferred = (*before[:2], before[2] * FULL_PASS_DEFERRAL)
    inside, release = threading.Event(), threading.Event()

    def other() -> None:
        with fewer_full_collections():
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=other)
    with fewer_full_collections():
        thread.start()
        assert inside.wait(10)
        assert gc.get_threshold() == deferred, "not deferred twice over"
    assert gc.get_threshold() == deferred, "the other bulk write still runs"
    release.set()
    thread.join(10)
    assert gc.get_threshold() == before


def _full_passes() -> tuple[list[int], object]:
    """A list that counts the oldest generation's passes from now on, and its callback."""
    passes: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 2:
            passes.append(1)

    gc.callbacks.append(seen)
    return passes, seen


def test_a_full_pass_that_came_due_meanwhile_runs_before_the_bulk_write_returns() -> None:
    young, middle, old = gc.get_threshold()
    gc.collect()
    passes, seen = _full_passes()
    try:
        with fewer_full_collections():
            # Enough container objects for more passes of the middle generation than the
            # oldest one's threshold allows: a full pass is due once the thresholds are back.
            kept: list[list[int]] = []
            while gc.get_count()[2] <= old and len(kept) < young * middle * old * 10:
                kept.extend([i] for i in range(young))
            assert gc.get_count()[2] > old
            during = len(passes)
        assert len(passes) == during + 1, "the deferred full pass ran as the bulk write ended"
        assert gc.get_count()[2] == 0, "nothing left due for the next call"
    finally:
        gc.callbacks.remove(seen)
    assert kept


def test_a_small_bulk_write_leaves_the_collector_as_it_was() -> None:
    gc.collect()
    passes, seen = _full_passes()
    try:
        with fewer_full_collections():
            kept = [[i] for i in range(100)]
        assert passes == [], "no full pass was due: none is forced"
    finally:
        gc.callbacks.remove(seen)
    assert kept


def test_a_pass_due_before_a_small_bulk_write_is_left_to_the_collector() -> None:
    young, middle, old = gc.get_threshold()
    gc.collect()
    passes, seen = _full_passes()
    try:
        gc.set_threshold(young, middle, old * FULL_PASS_DEFERRAL)  # the process's own doing
        kept: list[list[int]] = []
        while gc.get_count()[2] <= old and len(kept) < young * middle * old * 10:
            kept.extend([i] for i in range(young))
        gc.set_threshold(young, middle, old)
        before = len(passes)
        with fewer_full_collections():
            kept.append([0])
        assert len(passes) == before, "the bulk write did not make it due: none is forced"
    finally:
        gc.set_threshold(young, middle, old)
        gc.callbacks.remove(seen)
    assert kept
