"""Byte-level NFA builder and the lazily determinized automaton built from it.

The schema compiler writes an NFA with epsilon moves (cheap to build: compile time stays in the
milliseconds for tens of tools). :class:`Automaton` determinizes it on demand: a DFA state is
the set of NFA states reachable so far, interned to a small int, and its whole 256-entry
transition row is computed the first time the state is entered. Decoding only ever visits a
few hundred DFA states, so the subset construction never runs on the full machine.

NFA states that cannot reach acceptance are pruned from every DFA state, so a live DFA state
always has a completion, and ``DEAD`` is reported at the first byte that makes acceptance
impossible.

Memory. The builder appends edges to flat int arrays; :meth:`NFA.freeze` turns them into a
:class:`FrozenNFA` in CSR form (per-state offsets into byte-range and target arrays), which is
all the automaton keeps. A tail block of states may be declared repeated
(:meth:`NFA.repeat`): the copies exist only as state numbers (``first + k * period + offset``)
resolved against the one stored block, so a call list of at most ``max_calls`` calls stores
one call body, not ``max_calls`` of them. DFA rows are ``array('h')`` (``array('i')`` once
state numbers pass 32767), 512 bytes where a list of ints took 2 KB.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Iterable
from functools import lru_cache

import numpy as np

from agent.calling.grammar.charset import ByteSet, Charset, json_sequences

DEAD = -1
_INF = 1 << 60
# "Cannot reach acceptance" in the int32 distance arrays.
_UNREACHED = 0x7FFFFFFF
# Rows start as copies of these (copying an array is far cheaper than building one from a list).
_DEAD_ROW_H = array("h", [DEAD]) * 256
_DEAD_ROW_I = array("i", [DEAD]) * 256


def _int_array(a: np.ndarray) -> array:
    out = array("i")
    out.frombytes(np.ascontiguousarray(a, dtype=np.int32).tobytes())
    return out


def _csr(src: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Stable grouping by source: (order, offsets) with offsets[s]..offsets[s+1] for s."""
    order = np.argsort(src, kind="stable")
    offsets = np.zeros(n + 1, dtype=np.int64)
    if len(src):
        np.cumsum(np.bincount(src, minlength=n), out=offsets[1:])
    return order, offsets


@lru_cache(maxsize=256)
def _json_char_template(cs: Charset) -> tuple[int, tuple[tuple[int, int, int, int], ...]]:
    """The states and edges :meth:`NFA.json_char` adds for cs, once per charset.

    Returns (new states, edges (src, lo, hi, tgt) in insertion order) where src/tgt -1 is the
    start state, -2 the target state and j >= 0 the j-th new state.
    """
    # A prefix trie over the sequences so shared lead bytes are one state.
    trie: dict[tuple[int, ByteSet], int] = {}
    edges: list[tuple[int, int, int, int]] = []
    k = 0
    for seq in json_sequences(cs):
        cur = -1
        last = len(seq) - 1
        for i, bs in enumerate(seq):
            if i == last:
                edges.extend((cur, lo, hi, -2) for lo, hi in bs)
                break
            key = (cur, bs)
            nxt = trie.get(key)
            if nxt is None:
                nxt = k
                k += 1
                edges.extend((cur, lo, hi, nxt) for lo, hi in bs)
                trie[key] = nxt
            cur = nxt
    return k, tuple(edges)


class NFA:
    """Builder: states are ints; edges are inclusive byte ranges; ``epsilon`` adds empty moves.

    Edges and epsilon moves are kept in insertion order per source state (the order matters
    to the automaton's tie-breaking); :meth:`freeze` produces the compact, read-only form.
    """

    __slots__ = ("_n", "_edges", "_eps", "_repeat")

    def __init__(self) -> None:
        self._n = 0
        self._edges = array("i")  # (src, lo, hi, tgt) per edge
        self._eps = array("i")  # (src, tgt) per epsilon move
        self._repeat: tuple[int, int, int, int, int, int] | None = None

    def new(self) -> int:
        n = self._n
        self._n = n + 1
        return n

    def __len__(self) -> int:
        if self._repeat is not None:
            first, count, _src, _lo, _hi, size = self._repeat
            return first + count * (size - first)
        return self._n

    def byte(self, s: int, lo: int, hi: int, t: int | None = None) -> int:
        if t is None:
            t = self._n
            self._n = t + 1
        self._edges.extend((s, lo, hi, t))
        return t

    def byteset(self, s: int, bs: ByteSet, t: int | None = None) -> int:
        if t is None:
            t = self._n
            self._n = t + 1
        e = self._edges
        for lo, hi in bs:
            e.extend((s, lo, hi, t))
        return t

    def epsilon(self, s: int, t: int) -> None:
        self._eps.extend((s, t))

    def literal(self, s: int, data: bytes, t: int | None = None) -> int:
        if not data:
            if t is None:
                return s
            self.epsilon(s, t)
            return t
        last = len(data) - 1
        base = self._n
        self._n = base + last + (t is None)
        e = self._edges
        for i, b in enumerate(data):
            nxt = t if i == last and t is not None else base + i
            e.extend((s, b, b, nxt))
            s = nxt
        return s

    def json_char(self, s: int, cs: Charset, t: int) -> None:
        """Paths s -> t spelling one member of cs as a JSON-string character."""
        k, edges = _json_char_template(cs)
        base = self._n
        self._n = base + k
        flat: list[int] = []
        for src, lo, hi, tgt in edges:
            flat += (s if src < 0 else base + src, lo, hi, t if tgt < 0 else base + tgt)
        self._edges.extend(flat)

    def repeat(self, first: int, count: int, src: int, lo: int, hi: int) -> None:
        """Make the states ``first..len-1`` (one block) ``count`` blocks in a row.

        Copy ``k`` of the block is states ``first + k * P ..`` (``P`` the block size): the
        same edges, with targets inside the block moved along, targets before it kept. Copy
        ``k`` enters copy ``k + 1`` from its copy of ``src`` by a byte in ``lo..hi`` landing on
        its first state (an edge after ``src``'s own). This is the numbering building the
        copies one after the other would give; no state may be added afterwards.
        """
        if self._repeat is not None:
            raise RuntimeError("an NFA has at most one repeated block")
        if not first <= src < self._n or count < 1:
            raise ValueError("repeat: bad block")
        self._repeat = (first, count, src, lo, hi, self._n)

    def freeze(self) -> FrozenNFA:
        """The compact read-only NFA; the builder is emptied."""
        n = self._n
        rep = self._repeat
        if rep is not None and rep[5] != n:
            raise RuntimeError("states were added after repeat()")
        f = FrozenNFA.__new__(FrozenNFA)
        e = np.frombuffer(self._edges, dtype=np.int32).reshape(-1, 4)
        x = np.frombuffer(self._eps, dtype=np.int32).reshape(-1, 2)
        order, f_start = _csr(e[:, 0], n)
        e = e[order]
        f.e_start = _int_array(f_start)
        f.e_lo = e[:, 1].astype(np.uint8).tobytes()
        f.e_hi = e[:, 2].astype(np.uint8).tobytes()
        f.e_tgt = _int_array(e[:, 3])
        order, x_start = _csr(x[:, 0], n)
        f.x_start = _int_array(x_start)
        f.x_tgt = _int_array(x[order, 1])
        del e, x, order
        f.n_stored = n
        if rep is None or rep[1] == 1:
            f.rep_first, f.rep_period, f.rep_count = n, 0, 1
            f.rep_src, f.rep_lo, f.rep_hi = -1, 0, 0
        else:
            first, count, src, lo, hi, _ = rep
            f.rep_first, f.rep_period, f.rep_count = first, n - first, count
            f.rep_src, f.rep_lo, f.rep_hi = src, lo, hi
        self._edges = array("i")
        self._eps = array("i")
        self._n = 0
        self._repeat = None
        return f


class FrozenNFA:
    """Read-only NFA in CSR arrays (see :meth:`NFA.freeze`).

    Stored state ``p`` has edges ``e_start[p] .. e_start[p + 1]`` of ``e_lo``/``e_hi``
    (bytes) and ``e_tgt``, and epsilon moves ``x_start[p] .. x_start[p + 1]`` of ``x_tgt``.
    States past the stored ones are copies of the repeated block (``rep_*``); :meth:`edges`
    and :meth:`eps` resolve any state number.
    """

    __slots__ = (
        "e_start",
        "e_lo",
        "e_hi",
        "e_tgt",
        "x_start",
        "x_tgt",
        "n_stored",
        "rep_first",
        "rep_period",
        "rep_count",
        "rep_src",
        "rep_lo",
        "rep_hi",
    )

    def __len__(self) -> int:
        return self.rep_first + self.rep_count * self.rep_period

    def locate(self, s: int) -> tuple[int, int, int]:
        """(stored state, copy index, state-number shift) of any state."""
        first = self.rep_first
        if s < first:
            return s, 0, 0
        k, off = divmod(s - first, self.rep_period)
        return first + off, k, k * self.rep_period

    def edges(self, s: int) -> list[tuple[int, int, int]]:
        """(lo, hi, target) of state s, in insertion order."""
        p, k, shift = self.locate(s)
        first = self.rep_first
        lo_b, hi_b, tg = self.e_lo, self.e_hi, self.e_tgt
        out = []
        for j in range(self.e_start[p], self.e_start[p + 1]):
            t = tg[j]
            out.append((lo_b[j], hi_b[j], t + shift if t >= first else t))
        if p == self.rep_src and k < self.rep_count - 1:
            out.append((self.rep_lo, self.rep_hi, first + (k + 1) * self.rep_period))
        return out

    def eps(self, s: int) -> list[int]:
        p, _k, shift = self.locate(s)
        first = self.rep_first
        tg = self.x_tgt
        return [
            t + shift if t >= first else t
            for t in (tg[j] for j in range(self.x_start[p], self.x_start[p + 1]))
        ]

    def expand(self) -> FrozenNFA:
        """The same NFA with every copy of the repeated block stored."""
        b = NFA()
        n = len(self)
        b._n = n
        for s in range(n):
            for lo, hi, t in self.edges(s):
                b.byte(s, lo, hi, t)
            for t in self.eps(s):
                b.epsilon(s, t)
        return b.freeze()

    def nbytes(self) -> int:
        """Bytes held by the arrays."""
        arrays = (self.e_start, self.e_tgt, self.x_start, self.x_tgt)
        return sum(a.itemsize * len(a) for a in arrays) + len(self.e_lo) + len(self.e_hi)


class Automaton:
    """Deterministic byte automaton over int states (lazy subset construction of an NFA).

    ``advance(state, byte)`` returns the next state or :data:`DEAD`; ``is_accepting(state)``
    says whether the bytes so far form a complete sentence. ``distance(state)`` is the length
    of the shortest completion, which :meth:`shortest_completion` spells out.

    ``rows[state]`` is the state's transition row once computed (``None`` before; see
    :meth:`row`): an ``array`` of 256 next states indexed by byte.
    """

    def __init__(self, nfa: NFA | FrozenNFA, start: int, accept: int) -> None:
        f = nfa.freeze() if isinstance(nfa, NFA) else nfa
        dist, step_b, step_t = _distances(f, accept)
        if f.rep_count > 1 and not _periodic(f, accept, dist):
            f = f.expand()
            dist, step_b, step_t = _distances(f, accept)
        self.nfa = f
        self.accept_nfa = accept
        self._dist = dist
        self._step_b = step_b
        self._step_t = step_t
        self._closure_cache: dict[int, frozenset[int]] = {}
        self._ids: dict[frozenset[int], int] = {}
        self.sets: list[frozenset[int]] = []
        self.rows: list[array | None] = []
        self._accepting: list[bool] = []
        self._state_dist = array("i")
        first = self._closure_of((start,))
        if not first:
            raise ValueError("the grammar accepts nothing")
        self.start: int = self._intern(first)

    # -- construction -------------------------------------------------------------------------
    def _dist_of(self, s: int) -> int:
        f = self.nfa
        if s >= f.rep_first:
            s = f.rep_first + (s - f.rep_first) % f.rep_period
        d = self._dist[s]
        return _INF if d == _UNREACHED else d

    def _closure(self, s: int) -> frozenset[int]:
        c = self._closure_cache.get(s)
        if c is not None:
            return c
        f = self.nfa
        dist = self._dist
        first, period = f.rep_first, f.rep_period
        x_start, x_tgt = f.x_start, f.x_tgt
        p = s if s < first else first + (s - first) % period
        if x_start[p] == x_start[p + 1]:
            # No epsilon moves: not worth a cache entry.
            return frozenset((s,)) if dist[p] != _UNREACHED else frozenset()
        seen = {s}
        stack = [s]
        while stack:
            v = stack.pop()
            if v < first:
                p, shift = v, 0
            else:
                k, off = divmod(v - first, period)
                p, shift = first + off, k * period
            for j in range(x_start[p], x_start[p + 1]):
                t = x_tgt[j]
                if t >= first:
                    t += shift
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        c = frozenset(
            x for x in seen if dist[x if x < first else first + (x - first) % period] != _UNREACHED
        )
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
            self._state_dist.append(min(map(self._dist_of, states)))
        return i

    def row(self, state: int) -> array:
        """The full transition row of a state (computed once)."""
        r = self.rows[state]
        if r is not None:
            return r
        f = self.nfa
        dist = self._dist
        first, period = f.rep_first, f.rep_period
        e_start, e_lo, e_hi, e_tgt = f.e_start, f.e_lo, f.e_hi, f.e_tgt
        # Live edges of the member states, in member order then edge order: a byte's target
        # list is the targets of the edges covering it, in this order.
        los: list[int] = []
        his: list[int] = []
        tgts: list[int] = []
        for s in self.sets[state]:
            if s < first:
                p, k, shift = s, 0, 0
            else:
                k, off = divmod(s - first, period)
                p, shift = first + off, k * period
            for j in range(e_start[p], e_start[p + 1]):
                t = e_tgt[j]
                if dist[t] == _UNREACHED:
                    continue
                los.append(e_lo[j])
                his.append(e_hi[j])
                tgts.append(t + shift if t >= first else t)
            if p == f.rep_src and k < f.rep_count - 1 and dist[first] != _UNREACHED:
                los.append(f.rep_lo)
                his.append(f.rep_hi)
                tgts.append(first + (k + 1) * period)
        # (first byte, end byte, target list) of each run of bytes with one target list.
        if len(tgts) == 1:
            runs = [(los[0], his[0] + 1, tgts)]
        else:
            # Bytes between consecutive range boundaries share their target list.
            cuts = sorted(set(los).union([h + 1 for h in his]))
            edges = list(zip(los, his, tgts, strict=True))
            runs = []
            for a, b in zip(cuts, cuts[1:], strict=False):
                lst = [t for lo, hi, t in edges if lo <= a <= hi]
                if lst:
                    runs.append((a, b, lst))
        done: dict[frozenset[int], int] = {}
        fills = []
        for a, b, lst in runs:
            key = frozenset(lst)
            i = done.get(key)
            if i is None:
                closed = self._closure_of(key)
                i = self._intern(closed) if closed else DEAD
                done[key] = i
            if i != DEAD:
                fills.append((a, b, i))
        code = "h" if len(self.sets) <= 0x8000 else "i"
        r = (_DEAD_ROW_H if code == "h" else _DEAD_ROW_I)[:]
        for a, b, i in fills:
            if b - a == 1:
                r[a] = i
            else:
                r[a:b] = array(code, (i,)) * (b - a)
        self.rows[state] = r
        return r

    # -- queries ------------------------------------------------------------------------------
    def advance(self, state: int, byte: int) -> int:
        r = self.rows[state]
        if r is None:
            r = self.row(state)
        return r[byte]

    def feed(self, state: int, data: bytes) -> int:
        rows = self.rows
        for b in data:
            if state == DEAD:
                return DEAD
            r = rows[state]
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
        f = self.nfa
        first = f.rep_first
        cur = min(self.sets[state], key=self._dist_of)
        out = bytearray()
        step_b, step_t = self._step_b, self._step_t
        while cur != self.accept_nfa:
            p, _k, shift = f.locate(cur)
            b = step_b[p]
            nxt = step_t[p]
            cur = nxt + shift if nxt >= first else nxt
            if b >= 0:
                out.append(b)
        return bytes(out)

    @property
    def num_states(self) -> int:
        """DFA states materialized so far."""
        return len(self.sets)


def _periodic(f: FrozenNFA, accept: int, dist: array) -> bool:
    """Whether distances and shortest steps of every copy of the repeated block are those of
    the stored copy: the link edge never shortens a path (the link source is settled before
    the next copy's first state), and acceptance lies outside the block."""
    first = f.rep_first
    if accept >= first:
        return False
    d_src, d_first = dist[f.rep_src], dist[first]
    return d_src != _UNREACHED and (d_first == _UNREACHED or d_src < d_first)


def _distances(f: FrozenNFA, accept: int) -> tuple[array, array, array]:
    """Shortest completion length per stored NFA state (0-1 BFS backwards from accept; the
    stored states only, see :func:`_periodic`) and the next step on one shortest path (byte
    or -1 for an epsilon move, target)."""
    # Predecessors of each state in the order a scan of the states would list them: by
    # source, edges before epsilon moves, each in insertion order.
    small = len(f.e_tgt) + len(f.x_tgt) <= _SMALL
    rs, r_src, r_byte = _reverse_small(f) if small else _reverse(f)
    n = f.n_stored
    dist = [_UNREACHED] * n  # a list while searching (faster), an array after
    step_b = array("h", [-1]) * n
    step_t = array("i", [-1]) * n
    dist[accept] = 0
    dq: deque[int] = deque([accept])
    pop, push, push_front = dq.popleft, dq.append, dq.appendleft
    while dq:
        v = pop()
        dv = dist[v]
        for j in range(rs[v], rs[v + 1]):
            u = r_src[j]
            b = r_byte[j]
            w = dv + (b >= 0)
            if w < dist[u]:
                dist[u] = w
                step_b[u] = b
                step_t[u] = v
                if b >= 0:
                    push(u)
                else:
                    push_front(u)
    return array("i", dist), step_b, step_t


# Below this many edges and epsilon moves the reverse graph is built in plain Python (NumPy's
# per-call overhead dominates on the small automata compiled to check enum values).
_SMALL = 256


def _reverse_small(f: FrozenNFA) -> tuple[list[int], list[int], list[int]]:
    """:func:`_reverse` in plain Python lists (the same arrays)."""
    n = f.n_stored
    e_start, e_tgt = f.e_start.tolist(), f.e_tgt.tolist()
    x_start, x_tgt = f.x_start.tolist(), f.x_tgt.tolist()
    e_lo = f.e_lo
    rev: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for s in range(n):
        for j in range(e_start[s], e_start[s + 1]):
            rev[e_tgt[j]].append((s, e_lo[j]))
        for j in range(x_start[s], x_start[s + 1]):
            rev[x_tgt[j]].append((s, -1))
    rs = [0]
    r_src: list[int] = []
    r_byte: list[int] = []
    for preds in rev:
        for u, b in preds:
            r_src.append(u)
            r_byte.append(b)
        rs.append(len(r_src))
    return rs, r_src, r_byte


def _reverse(f: FrozenNFA) -> tuple[array, array, array]:
    n = f.n_stored
    e_start = np.frombuffer(f.e_start, dtype=np.int32)
    x_start = np.frombuffer(f.x_start, dtype=np.int32)
    states = np.arange(n, dtype=np.int32)
    src = np.concatenate([np.repeat(states, np.diff(e_start)), np.repeat(states, np.diff(x_start))])
    n_e = len(f.e_tgt)
    tgt = np.concatenate(
        [np.frombuffer(f.e_tgt, dtype=np.int32), np.frombuffer(f.x_tgt, dtype=np.int32)]
    )
    kind = np.zeros(len(src), dtype=np.int8)
    kind[n_e:] = 1
    order = np.lexsort((kind, src, tgt))  # stable: insertion order breaks the last ties
    byte = np.full(len(src), -1, dtype=np.int16)
    byte[:n_e] = np.frombuffer(f.e_lo, dtype=np.uint8)
    r_start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(tgt, minlength=n), out=r_start[1:])
    return _int_array(r_start), _int_array(src[order]), array("h", byte[order].tobytes())
