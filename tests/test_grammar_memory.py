"""Memory of the compiled call grammar, and its behaviour pinned to the list-based build.

The automaton stores its NFA in flat arrays, one copy of the call body however large
``max_calls`` is (the other copies are state numbers only), and DFA rows as 16-bit arrays. These
tests bound what a compile keeps and peaks at, and check that nothing visible changed: state
numbers, rows, distances and shortest completions are those the list-of-tuples implementation
gave (``PINNED`` was recorded with it), and every answer agrees with a naive subset simulation
of the fully expanded NFA.
"""

from __future__ import annotations

import gc
import hashlib
import json
import random
import tomllib
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from agent.calling.grammar import DEAD, SchemaError, compile_calls, compile_value
from agent.calling.grammar import nfa as N
from agent.calling.grammar import schema as S
from agent.calling.tools import load_tools
from agent.offline.bench import tool_set

TOOLS = [
    {
        "name": "get_weather",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "minLength": 1, "maxLength": 12},
                "unit": {"enum": ["celsius", "fahrenheit"]},
                "days": {"type": "integer", "minimum": 1, "maximum": 14},
            },
            "required": ["city"],
        },
    },
    {
        "name": "set_light",
        "parameters": {
            "type": "object",
            "properties": {
                "room": {"type": "string", "enum": ["kitchen", "hall", "bedroom"]},
                "on": {"type": "boolean"},
                "level": {"type": "number", "minimum": 0, "exclusiveMaximum": 99.5},
            },
            "required": ["room", "on"],
        },
    },
    {
        "name": "set_code",
        "parameters": {
            "type": "object",
            "properties": {
                "code": {"type": "string", "pattern": "^[A-Z]{2}-\\d{1,3}$"},
                "tags": {
                    "type": "array",
                    "items": {"type": "string", "maxLength": 3},
                    "maxItems": 2,
                },
                "when": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
            },
            "required": ["code"],
        },
    },
]

# (NFA states, DFA states after `fingerprint`, digest) from the list-based implementation.
PINNED = {
    (8, False): (6739, 2234, "374a0cd801ab799d"),
    (8, True): (6739, 2240, "25e78b35ca7af00c"),
    (None, False): (845, 804, "707430f7fd190c3f"),
    (None, True): (845, 804, "f673832d985e6cce"),
    (3, False): (2529, 1895, "5b41e58510f3d761"),
    (3, True): (2529, 1872, "53d38746df990cfe"),
}


def _random_walk(
    aut: Any, rng: random.Random, steps: int, stop: float, ascii_bias: float | None = None
) -> Iterator[int]:
    """The states of one seeded random walk from the start state: up to `steps` bytes, ending
    early in an accepting state with probability `stop`; with `ascii_bias`, an ASCII byte is
    taken with that probability when one is allowed."""
    st = aut.start
    for _ in range(steps):
        r = aut.row(st)
        choices = [b for b in range(256) if r[b] != DEAD]
        if not choices or (aut.is_accepting(st) and rng.random() < stop):
            return
        if ascii_bias is not None:
            ascii_ = [b for b in choices if b < 0x80]
            choices = ascii_ if ascii_ and rng.random() < ascii_bias else choices
        st = r[rng.choice(choices)]
        yield st


def fingerprint(aut: Any, limit: int = 1500) -> tuple[int, int, str]:
    """Breadth-first rows of the first `limit` states, then 40 seeded random walks; every
    state's number, row, acceptance, distance and shortest completion go into the digest."""
    h = hashlib.sha256()
    seen = {aut.start}
    queue = [aut.start]
    i = 0
    while i < len(queue) and i < limit:
        s = queue[i]
        i += 1
        r = aut.row(s)
        h.update(bytes(str([s, list(r), aut.is_accepting(s), aut.distance(s)]), "ascii"))
        h.update(aut.shortest_completion(s))
        for b in range(256):
            t = r[b]
            if t != DEAD and t not in seen:
                seen.add(t)
                queue.append(t)
    rng = random.Random(5)
    for _ in range(40):
        for st in _random_walk(aut, rng, 400, stop=0.5, ascii_bias=0.9):
            h.update(bytes(str([st, aut.distance(st)]), "ascii"))
            h.update(aut.shortest_completion(st))
    return len(aut.nfa), aut.num_states, h.hexdigest()[:16]


@pytest.mark.parametrize(("max_calls", "require_call"), sorted(PINNED, key=str))
def test_automaton_answers_as_the_list_based_build(max_calls: int | None, require_call: bool):
    aut = compile_calls(TOOLS, require_call=require_call, max_calls=max_calls)
    assert fingerprint(aut) == PINNED[(max_calls, require_call)]


@pytest.mark.parametrize("max_calls", [2, 8])
def test_virtual_copies_equal_stored_copies(max_calls: int):
    aut = compile_calls(TOOLS, max_calls=max_calls)
    assert aut.nfa.rep_count == max_calls
    assert aut.nfa.n_stored < len(aut.nfa)
    expanded = aut.nfa.expand()
    assert expanded.n_stored == len(expanded) == len(aut.nfa)
    for s in range(len(aut.nfa)):
        assert aut.nfa.edges(s) == expanded.edges(s)
        assert aut.nfa.eps(s) == expanded.eps(s)
    full = N.Automaton(expanded, 0, aut.accept_nfa)
    assert fingerprint(full) == fingerprint(aut)


def _call_texts(rng: random.Random, n: int) -> list[bytes]:
    def one() -> dict:
        tool = rng.choice(["get_weather", "set_light", "set_code"])
        if tool == "get_weather":
            args: dict = {"city": rng.choice(["Oslo", "Paris", "Rio de J", "Zürich", "東京"])}
            if rng.random() < 0.5:
                args["unit"] = rng.choice(["celsius", "fahrenheit"])
            if rng.random() < 0.5:
                args["days"] = rng.randint(0, 15)
        elif tool == "set_light":
            args = {"room": rng.choice(["hall", "kitchen", "garage"]), "on": rng.random() < 0.5}
            if rng.random() < 0.5:
                args["level"] = rng.choice([0, 12.5, 99.4, 99.5, 100])
        else:
            args = {"code": rng.choice(["AB-1", "XY-999", "ab-1", "AB-1234"])}
            if rng.random() < 0.5:
                args["tags"] = rng.choice([[], ["a"], ["abc", "d"], ["abcd"], ["a", "b", "c"]])
            if rng.random() < 0.5:
                args["when"] = rng.choice([None, "2024-02-29", "2023-02-29"])
        return {"name": tool, "arguments": args}

    out = []
    for _ in range(n):
        calls = [one() for _ in range(rng.randint(0, 4))]
        text = json.dumps(calls, separators=(",", ":"), ensure_ascii=False).encode()
        out.append(text)
        cut = rng.randrange(len(text) + 1)
        out.append(text[:cut] + bytes([rng.randrange(256)]) + text[cut:])
    return out


def _naive(f: N.FrozenNFA, start: int, accept: int) -> Callable[[bytes], list[tuple[bool, bool]]]:
    """Subset simulation over every NFA state, live = can still reach acceptance."""
    n = len(f)
    edges = [f.edges(s) for s in range(n)]
    eps = [f.eps(s) for s in range(n)]
    preds: list[set[int]] = [set() for _ in range(n)]
    for s in range(n):
        for _lo, _hi, t in edges[s]:
            preds[t].add(s)
        for t in eps[s]:
            preds[t].add(s)
    co = {accept}
    todo = [accept]
    while todo:
        for u in preds[todo.pop()]:
            if u not in co:
                co.add(u)
                todo.append(u)

    def close(states: set[int]) -> set[int]:
        out = set(states)
        todo = list(states)
        while todo:
            for t in eps[todo.pop()]:
                if t not in out:
                    out.add(t)
                    todo.append(t)
        return {s for s in out if s in co}

    def run(data: bytes) -> list[tuple[bool, bool]]:
        cur = close({start})
        trace = [(bool(cur), accept in cur)]
        for b in data:
            cur = close({t for s in cur for lo, hi, t in edges[s] if lo <= b <= hi})
            trace.append((bool(cur), accept in cur))
        return trace

    return run


def test_automaton_agrees_with_a_naive_simulation():
    aut = compile_calls(TOOLS, max_calls=3)
    naive = _naive(aut.nfa.expand(), 0, aut.accept_nfa)
    rng = random.Random(11)
    texts = _call_texts(rng, 60) + [b"[]", b"[ ]", b"", b"[{", b"[" + b"x" * 3]
    accepted = 0
    for text in texts:
        st = aut.start
        got = [(True, aut.is_accepting(st))]
        for b in text:
            st = aut.advance(st, b) if st != DEAD else DEAD
            got.append((st != DEAD, aut.is_accepting(st)))
        assert got == naive(text), text
        assert aut.matches(text) == got[-1][1]
        accepted += got[-1][1]
    assert 10 < accepted < len(texts)


def _demo_tools() -> list:
    from agent.service.config import default_config_text, parse_config
    from devices import build_registry

    cfg = parse_config(tomllib.loads(default_config_text()), source="test")
    return load_tools(build_registry(cfg.devices, timeout=5, mqtt=None).tools())


def _traced(fn: Callable[[], Any]) -> tuple[Any, int, int]:
    """fn(), and the traced bytes it left allocated and peaked at."""
    assert not tracemalloc.is_tracing()
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        out = fn()
        cur, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return out, cur - base, peak - base


# (tools, retained bound, peak bound) for compile_calls(max_calls=8). Measured: demo 30 KB /
# 70 KB, tool_set(5) 0.2 / 0.65 MB, tool_set(50) 1.7 / 6.3 MB; the list-based build kept 1.65,
# 17 and 171 MB and peaked at 2.4, 27 and 267 MB.
BOUNDS = [("demo", 200_000, 500_000), (5, 600_000, 2_000_000), (50, 4_000_000, 16_000_000)]


@pytest.mark.parametrize(("which", "kept_max", "peak_max"), BOUNDS)
def test_compiled_call_grammar_is_compact(which: Any, kept_max: int, peak_max: int):
    tools = _demo_tools() if which == "demo" else load_tools(tool_set(which))
    compile_calls(tools, max_calls=8)  # fill the module caches first
    aut, kept, peak = _traced(lambda: compile_calls(tools, max_calls=8))
    assert kept < kept_max, kept
    assert peak < peak_max, peak
    assert aut.nfa.nbytes() < 16 * len(aut.nfa)


def test_decoding_rows_are_compact():
    aut = compile_calls(_demo_tools(), max_calls=8)
    texts = _call_texts(random.Random(3), 40)

    def walk() -> int:
        rng = random.Random(4)
        for _ in range(200):
            walked = list(_random_walk(aut, rng, 300, stop=0.3))
            aut.shortest_completion(walked[-1] if walked else aut.start)
        for t in texts:
            aut.feed(aut.start, t)
        return aut.num_states

    before = aut.num_states
    states, kept, _peak = _traced(walk)
    assert states - before > 1000
    # A row is 256 16-bit entries; the list-based rows and caches took about 2.9 KB a state.
    assert kept / (states - before) < 1400, kept / (states - before)
    r = aut.rows[aut.start]
    assert r is not None and len(r) == 256 and r.itemsize == 2


def test_building_leaves_no_cyclic_garbage():
    # Self-recursive closures (schema validation, the fraction DP) made a reference cycle per
    # call; the one through the NFA builder kept the whole list-based NFA alive until the
    # cyclic collector ran. Compiling and dropping an automaton must free it by refcounting.
    for tools in (load_tools(tool_set(5)), TOOLS):
        compile_calls(tools, max_calls=8)
        gc.collect()
        gc.disable()
        try:
            aut = compile_calls(tools, max_calls=8)
            aut.feed(aut.start, b'[{"name":"')
            del aut
            assert gc.collect() == 0
        finally:
            gc.enable()


def test_distance_paths_agree():
    # The reverse graph built in plain Python (small automata) and with NumPy (large ones) is
    # the same, so both give the same distances and shortest steps.
    for aut in (
        compile_calls(TOOLS, max_calls=2),
        compile_value({"type": "integer", "minimum": -5, "maximum": 120}),
    ):
        small = N._reverse_small(aut.nfa)
        big = N._reverse(aut.nfa)
        assert [list(x) for x in small] == [list(x) for x in big]


def test_string_cache_is_bounded():
    for n in range(S._STRING_CACHE_ENTRIES + 20):
        compile_value({"type": "string", "maxLength": n + 1})
    assert len(S._string_cache) <= S._STRING_CACHE_ENTRIES
    big = {"type": "string", "maxLength": S._STRING_CACHE_MAX_STATES + 10}
    assert compile_value(big).matches(b'"' + b"a" * (S._STRING_CACHE_MAX_STATES + 10) + b'"')
    assert all(len(c.edges) <= S._STRING_CACHE_MAX_STATES for c in S._string_cache.values())


def test_repeated_calls_keep_compile_errors():
    bad = {"name": "bad", "parameters": {"type": "object", "properties": {"x": False}}}
    for max_calls in (None, 1, 8):
        with pytest.raises(SchemaError, match="admits no value"):
            compile_calls([TOOLS[0], bad], max_calls=max_calls)
    with pytest.raises(SchemaError, match="duplicate"):
        compile_calls([TOOLS[0], TOOLS[0]], max_calls=8)


def test_rows_keep_the_masker_interface():
    aut = compile_calls(TOOLS, max_calls=4)
    st = aut.feed(aut.start, b'[{"name":"set_light","arguments":{"room":"hall","on":true}}')
    assert aut.rows[st] is None
    r = aut.row(st)
    assert aut.rows[st] is r
    assert [aut.advance(st, b) for b in range(256)] == list(r)
    assert r[ord("]")] != DEAD and r[ord(",")] != DEAD and r[ord("x")] == DEAD
    assert aut.shortest_completion(st) == b"]"
