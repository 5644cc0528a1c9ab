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
