"""Where a vector read starts (``widening.Widening``): the ladder's step that holds what the
last reads under a key needed."""

from __future__ import annotations

from collections.abc import Hashable

from belief_graph.widening import Widening


def ladder(widening: Widening, key: Hashable = "ns") -> int:
    return widening.start(key, 100, 4, 1600)


def test_a_read_starts_at_the_foot_until_one_needed_more() -> None:
    widening = Widening()
    assert ladder(widening) == 100
    widening.learned("ns", 100)
    assert ladder(widening) == 100
    widening.learned("ns", 101)
    assert ladder(widening) == 400
    widening.learned("ns", 5_000)  # never past the top
    assert ladder(widening) == 1600
    assert ladder(widening, "other") == 100  # each key its own


def test_with_a_window_it_starts_where_most_of_the_last_reads_needed() -> None:
    widening = Widening(window=5)
    for reach in (300, 40, 50):  # crowded once: most needed the foot
        widening.learned("ns", reach)
    assert ladder(widening) == 100
    for reach in (900, 700):  # now most needed more: 300 of 40, 50, 300, 700, 900
        widening.learned("ns", reach)
    assert ladder(widening) == 400
    for reach in (20, 30):  # the oldest two forgotten: 50 of 20, 30, 50, 700, 900
        widening.learned("ns", reach)
    assert ladder(widening) == 100


def test_the_memory_is_bounded() -> None:
    widening = Widening()
    for i in range(Widening._KEYS):
        widening.learned(i, 1_000)
    assert ladder(widening, 0) == 1600
    widening.learned("one more", 1_000)  # forgets every key at once
    assert ladder(widening, 0) == 100
    assert ladder(widening, "one more") == 1600
