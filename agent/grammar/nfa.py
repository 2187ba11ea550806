"""Byte-level NFA builder and the lazily determinized automaton built from it.

The schema compiler writes an NFA with epsilon moves (cheap to build: compile time stays in the
milliseconds for tens of tools). :class:`Automaton` determinizes it on demand: a DFA state is
the set of NFA states reachable so far, interned to a small int, and its whole 256-entry
transition row is computed the first time the state is entered. Decoding only ever visits a
few hundred DFA states, so the subset construction never runs on the full machine.

NFA states that cannot reach acceptance are pruned from every DFA state, so a live DFA state
always has a completion, and ``DEAD`` is reported at the first byte that makes acceptance
impossible.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from .charset import ByteSet, Charset, json_sequences

DEAD = -1
_INF = 1 << 60


class NFA:
    """States are ints; edges are inclusive byte ranges; ``eps`` are epsilon moves."""

    __slots__ = ("edges", "eps")

    def __init__(self) -> None:
        self.edges: list[list[tuple[int, int, int]]] = []
        self.eps: list[list[int]] = []

    def new(self) -> int:
        self.edges.append([])
        self.eps.append([])
        return len(self.edges) - 1

    def __len__(self) -> int:
        return len(self.edges)

    def byte(self, s: int, lo: int, hi: int, t: int | None = None) -> int:
        if t is None:
            t = self.new()
        self.edges[s].append((lo, hi, t))
        return t

    def byteset(self, s: int, bs: ByteSet, t: int | None = None) -> int:
        if t is None:
            t = self.new()
        for lo, hi in bs:
            self.edges[s].append((lo, hi, t))
        return t

    def epsilon(self, s: int, t: int) -> None:
        self.eps[s].append(t)

    def literal(self, s: int, data: bytes, t: int | None = None) -> int:
        if not data:
            if t is None:
                return s
            self.epsilon(s, t)
            return t
        for i, b in enumerate(data):
            s = self.byte(s, b, b, t if i == len(data) - 1 else None)
        return s

    def json_char(self, s: int, cs: Charset, t: int) -> None:
        """Paths s -> t spelling one member of cs as a JSON-string character."""
        # A prefix trie over the sequences so shared lead bytes are one state.
        trie: dict[tuple[int, ByteSet], int] = {}
        for seq in json_sequences(cs):
            cur = s
            for i, bs in enumerate(seq):
                if i == len(seq) - 1:
                    self.byteset(cur, bs, t)
                    break
                key = (cur, bs)
                nxt = trie.get(key)
                if nxt is None:
                    nxt = self.byteset(cur, bs)
                    trie[key] = nxt
                cur = nxt


class Automaton:
    """Deterministic byte automaton over int states (lazy subset construction of an NFA).

    ``advance(state, byte)`` returns the next state or :data:`DEAD`; ``is_accepting(state)``
    says whether the bytes so far form a complete sentence. ``distance(state)`` is the length
    of the shortest completion, which :meth:`shortest_completion` spells out.
    """

    def __init__(self, nfa: NFA, start: int, accept: int) -> None:
        self.nfa = nfa
        self.accept_nfa = accept
        self._dist, self._step = _distances(nfa, accept)
        self._closure_cache: dict[int, frozenset[int]] = {}
        self._ids: dict[frozenset[int], int] = {}
        self._raw_ids: dict[frozenset[int], int] = {}
        self.sets: list[frozenset[int]] = []
        self.rows: list[list[int] | None] = []
        self._accepting: list[bool] = []
        self._state_dist: list[int] = []
        first = self._closure_of((start,))
        if not first:
            raise ValueError("the grammar accepts nothing")
        self.start: int = self._intern(first)

    # -- construction -------------------------------------------------------------------------
    def _closure(self, s: int) -> frozenset[int]:
        c = self._closure_cache.get(s)
        if c is not None:
            return c
        seen = {s}
        stack = [s]
        eps = self.nfa.eps
        while stack:
            for t in eps[stack.pop()]:
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        dist = self._dist
        c = frozenset(x for x in seen if dist[x] < _INF)
        self._closure_cache[s] = c
        return c

    def _closure_of(self, targets: Iterable[int]) -> frozenset[int]:
        out: set[int] = set()
        for t in targets:
            out |= self._closure(t)
        return frozenset(out)

    def _intern(self, states: frozenset[int]) -> int:
        i = self._ids.get(states)
        if i is None:
            i = len(self.sets)
            self._ids[states] = i
            self.sets.append(states)
            self.rows.append(None)
            self._accepting.append(self.accept_nfa in states)
            self._state_dist.append(min(self._dist[x] for x in states))
        return i

    def row(self, state: int) -> list[int]:
        """The full transition row of a state (computed once)."""
        r = self.rows[state]
        if r is not None:
            return r
        per_byte: list[list[int] | None] = [None] * 256
        dist = self._dist
        for s in self.sets[state]:
            for lo, hi, t in self.nfa.edges[s]:
                if dist[t] >= _INF:
                    continue
                for b in range(lo, hi + 1):
                    lst = per_byte[b]
                    if lst is None:
                        per_byte[b] = [t]
                    else:
                        lst.append(t)
        r = [DEAD] * 256
        raw_ids = self._raw_ids
        for b, lst in enumerate(per_byte):
            if lst is None:
                continue
            key = frozenset(lst)
            i = raw_ids.get(key)
            if i is None:
                closed = self._closure_of(key)
                i = self._intern(closed) if closed else DEAD
                raw_ids[key] = i
            r[b] = i
        self.rows[state] = r
        return r

    # -- queries ------------------------------------------------------------------------------
    def advance(self, state: int, byte: int) -> int:
        r = self.rows[state]
        if r is None:
            r = self.row(state)
        return r[byte]

    def feed(self, state: int, data: bytes) -> int:
        for b in data:
            if state == DEAD:
                return DEAD
            r = self.rows[state]
            if r is None:
                r = self.row(state)
            state = r[b]
        return state

    def is_accepting(self, state: int) -> bool:
        return state != DEAD and self._accepting[state]

    def matches(self, data: bytes) -> bool:
        return self.is_accepting(self.feed(self.start, data))

    def is_final(self, state: int) -> bool:
        """Accepting with no possible continuation."""
        return self.is_accepting(state) and all(x == DEAD for x in self.row(state))

    def distance(self, state: int) -> int:
        """Bytes in the shortest completion from state (0 when accepting)."""
        return self._state_dist[state]

    def shortest_completion(self, state: int) -> bytes:
        cur = min(self.sets[state], key=self._dist.__getitem__)
        out = bytearray()
        step = self._step
        while cur != self.accept_nfa:
            b, cur = step[cur]
            if b >= 0:
                out.append(b)
        return bytes(out)

    @property
    def num_states(self) -> int:
        """DFA states materialized so far."""
        return len(self.sets)


def _distances(nfa: NFA, accept: int) -> tuple[list[int], list[tuple[int, int]]]:
    """Shortest completion length per NFA state (0-1 BFS backwards from accept) and the next
    step on one shortest path (byte or -1 for an epsilon move, target)."""
    n = len(nfa)
    rev: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for s in range(n):
        for lo, _hi, t in nfa.edges[s]:
            rev[t].append((s, lo))
        for t in nfa.eps[s]:
            rev[t].append((s, -1))
    dist = [_INF] * n
    step: list[tuple[int, int]] = [(-1, -1)] * n
    dist[accept] = 0
    dq: deque[int] = deque([accept])
    while dq:
        v = dq.popleft()
        dv = dist[v]
        for u, b in rev[v]:
            w = dv + (b >= 0)
            if w < dist[u]:
                dist[u] = w
                step[u] = (b, v)
                if b >= 0:
                    dq.append(u)
                else:
                    dq.appendleft(u)
    return dist, step
