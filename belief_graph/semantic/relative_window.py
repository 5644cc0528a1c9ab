"""DeBERTa's relative-position attention computed over the positions a batch uses, not all.

A DeBERTa-v2/v3 layer scores each token against a table of relative positions (512 rows with
256 position buckets), twice (``c2p``, ``p2c``): a matrix product over the whole table, of which
it then gathers the entries its tokens' relative positions index. A batch of pairs of 21 tokens
uses 41 of the 512 rows, and those products were 36 % of the offline contradiction classifier's
time (docs/benchmarks.md, "The contradiction classifier over the positions it uses").

``window`` rewrites an exported graph so that each product runs over the rows between the
smallest and the largest index its gather reads (computed in the graph, per batch), and the
gather's indices are shifted by the window's start. Every entry kept is the same dot product
over the same head dimensions as before, so the logits are the same to the bit.
"""

from __future__ import annotations

import heapq
from typing import Any

__all__ = ["window"]

_PREFIX = "relative_window/"


def window(graph: Any) -> int:
    """Rewrite the ONNX ``graph`` in place; how many gathers now read a window (0: the graph
    has no relative-position attention of DeBERTa's shape, and is left as it was).

    The shape looked for, per product: ``GatherElements(MatMul(states, Transpose(Tile(Expand(
    Reshape(table))))), Expand(Squeeze(Clip(index))))``, as torch's exporter writes
    ``torch.gather(torch.bmm(states, table.repeat(...).transpose(...)), -1, clamp(index))``."""
    from onnx import TensorProto, helper

    producer = {out: node for node in graph.node for out in node.output}

    def chain(name: str, *ops: str) -> list[Any] | None:
        """The producers of ``name`` through ``ops``, each fed by its first input's producer."""
        found = []
        for op in ops:
            node = producer.get(name)
            if node is None or node.op_type != op:
                return None
            found.append(node)
            name = node.input[0]
        return found

    sites = []
    for gather in (n for n in graph.node if n.op_type == "GatherElements"):
        product = producer.get(gather.input[0])
        if product is None or product.op_type != "MatMul":
            continue
        index = chain(gather.input[1], "Expand", "Squeeze", "Clip")
        table = chain(product.input[1], "Transpose", "Tile", "Expand", "Reshape")
        if index is not None and table is not None:
            sites.append((index[1], index[2].output[0], table[2], table[3].output[0]))
    reads: dict[str, str] = {}  # a table's Expand: the index its window is taken from
    for _, clipped, expand, _ in sites:
        if reads.setdefault(expand.output[0], clipped) != clipped:
            return 0  # one table gathered by two indices: not the shape this is for
    if not sites:
        return 0

    def name(suffix: str) -> str:
        return f"{_PREFIX}{suffix}"

    graph.initializer.extend(
        [
            helper.make_tensor(name("axis"), TensorProto.INT64, [1], [1]),
            helper.make_tensor(name("shape"), TensorProto.INT64, [1], [1]),
            helper.make_tensor(name("one"), TensorProto.INT64, [], [1]),
        ]
    )
    added: list[Any] = []
    windows: dict[str, tuple[str, str, str]] = {}  # an index (Clip's output): its window
    rows: set[str] = set()
    for squeeze, clipped, expand, table in sites:
        if clipped not in windows:
            first, last, stop, start, end, shifted = (
                name(f"{len(windows)}/{part}")
                for part in ("first", "last", "stop", "start", "end", "index")
            )
            added += [
                helper.make_node("ReduceMin", [clipped], [first], keepdims=0),
                helper.make_node("ReduceMax", [clipped], [last], keepdims=0),
                helper.make_node("Add", [last, name("one")], [stop]),
                helper.make_node("Reshape", [first, name("shape")], [start]),
                helper.make_node("Reshape", [stop, name("shape")], [end]),
                helper.make_node("Sub", [clipped, first], [shifted]),
            ]
            windows[clipped] = (start, end, shifted)
        start, end, shifted = windows[clipped]
        squeeze.input[0] = shifted
        sliced = f"{table}/{start}"
        if sliced not in rows:
            added.append(helper.make_node("Slice", [table, start, end, name("axis")], [sliced]))
            rows.add(sliced)
        expand.input[0] = sliced
    for node in added:
        node.name = node.output[0]
    nodes = _sorted([*graph.node, *added], graph)
    del graph.node[:]
    graph.node.extend(nodes)
    return len(sites)


def _sorted(nodes: list[Any], graph: Any) -> list[Any]:
    """``nodes`` in an order where each comes after the producers of what it reads (ONNX's
    rule; a subgraph's reads count for the node holding it), else in the order given."""
    known = {i.name for i in graph.input} | {t.name for t in graph.initializer} | {""}
    producer = {out: i for i, node in enumerate(nodes) for out in node.output}
    waiting = [0] * len(nodes)
    users: dict[int, list[int]] = {}
    for i, node in enumerate(nodes):
        for read in _reads(node) - known:
            if read in producer and producer[read] != i:
                waiting[i] += 1
                users.setdefault(producer[read], []).append(i)
    ready = [i for i, count in enumerate(waiting) if count == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        i = heapq.heappop(ready)
        order.append(nodes[i])
        for user in users.get(i, ()):
            waiting[user] -= 1
            if waiting[user] == 0:
                heapq.heappush(ready, user)
    if len(order) != len(nodes):
        raise ValueError("the graph has a cycle")
    return order


def _reads(node: Any) -> set[str]:
    """The names ``node`` reads, those its subgraphs (an ``If``'s branches) read included."""
    names = set(node.input)
    for attribute in node.attribute:
        subgraphs = [attribute.g] if attribute.HasField("g") else []
        for sub in [*subgraphs, *attribute.graphs]:
            for inner in sub.node:
                names |= _reads(inner)
    return names
