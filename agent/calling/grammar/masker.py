"""Lift the byte automaton to a token vocabulary.

:class:`TokenMasker` answers, for an automaton state, which token ids may come next: every
token whose bytes can be walked through the automaton from that state without dying. The
vocabulary is stored as a byte trie so tokens sharing a prefix share the walk, and each
state's answer is cached (the decoding loop revisits the same few states constantly: inside a
string, after a comma, ...). Special tokens (control pieces, chat markers) are never walked as
bytes; the grammar's end marker (``</tool_call>``) is allowed exactly when the automaton
accepts.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from agent.calling.grammar.nfa import DEAD, Automaton

END = -2  # state after the end token: nothing more is allowed

# Fixed ids of the Needle tokenizer (spec section 4).
PAD_ID, EOS_ID, BOS_ID, UNK_ID = 0, 1, 2, 3
IM_START_ID, IM_END_ID = 4, 5
THINK_ID, THINK_END_ID = 6, 7
TOOLS_ID, TOOLS_END_ID = 8, 9
TOOL_CALL_ID, TOOL_CALL_END_ID = 10, 11
TOOL_RESULT_ID, TOOL_RESULT_END_ID = 12, 13
MARKER_IDS = tuple(range(4, 14))


def vocab_from_sentencepiece(sp: Any) -> tuple[list[bytes], list[int]]:
    """Token bytes and special ids from a loaded ``sentencepiece.SentencePieceProcessor``.

    Normal pieces: text with U+2581 replaced by a space; byte pieces ``<0xNN>``: that byte;
    control and unknown pieces and the chat markers (ids 4..13): special (empty bytes).
    """
    n = sp.get_piece_size()
    out: list[bytes] = []
    special: list[int] = []
    for i in range(n):
        piece = sp.id_to_piece(i)
        if sp.is_control(i) or sp.is_unknown(i) or i in MARKER_IDS:
            out.append(b"")
            special.append(i)
        elif sp.is_byte(i):
            out.append(bytes([int(piece[3:5], 16)]))
        else:
            out.append(piece.replace("\u2581", " ").encode("utf-8"))
    return out, special


class VocabTrie:
    """The walkable tokens of a vocabulary as a byte trie in flat arrays.

    Built once per tokenizer and shared by every masker (one per tool subset): children of
    node `n` are entries `child_start[n] .. child_start[n + 1]` of `child_byte`/`child_node`,
    and the token ids ending at `n` are `ids[id_start[n] .. id_start[n + 1]]`. Flat arrays keep
    an 8192-token vocabulary well under a megabyte, where a dict per node took several.
    """

    def __init__(
        self,
        token_bytes: Sequence[bytes],
        special_ids: Iterable[int] = (),
        end_id: int | None = TOOL_CALL_END_ID,
    ) -> None:
        self.token_bytes = list(token_bytes)
        special = set(special_ids)
        walkable = [
            tid
            for tid, data in enumerate(self.token_bytes)
            if data and tid not in special and tid != end_id
        ]
        # Insert the tokens in sorted byte order, so a path stack replaces per-node dicts (whose
        # memory the allocator would keep after the build), then group children by parent.
        order = sorted(walkable, key=self.token_bytes.__getitem__)
        parent = array("i", [-1])
        byte = bytearray(b"\0")
        end_node = array("i")
        path: list[int] = []  # node ids along the previous token's bytes
        prev = b""
        for tid in order:
            data = self.token_bytes[tid]
            common = 0
            while common < min(len(prev), len(data)) and prev[common] == data[common]:
                common += 1
            del path[common:]
            for b in data[common:]:
                parent.append(path[-1] if path else 0)
                byte.append(b)
                path.append(len(parent) - 1)
            end_node.append(path[-1])
            prev = data
        n = len(parent)
        par = np.frombuffer(parent, dtype=np.int32)
        kids = np.argsort(par[1:], kind="stable") + 1  # child nodes grouped by parent, byte order
        counts = np.bincount(par[1:], minlength=n)
        self.child_start = array("i", np.concatenate([[0], np.cumsum(counts)]).astype(np.int32))
        self.child_node = array("i", kids.astype(np.int32))
        self.child_byte = bytearray(np.frombuffer(byte, np.uint8)[kids].tobytes())
        ends = np.frombuffer(end_node, dtype=np.int32)
        by_node = np.argsort(ends, kind="stable")
        self.ids = array("i", np.asarray(order, dtype=np.int32)[by_node])
        id_counts = np.bincount(ends, minlength=n)
        self.id_start = array("i", np.concatenate([[0], np.cumsum(id_counts)]).astype(np.int32))
        # one flag byte per id (8 KB at 8,192 tokens; a frozenset of ids took 0.5 MB)
        flags = bytearray(len(self.token_bytes))
        for tid in walkable:
            flags[tid] = 1
        self.walkable = bytes(flags)
        self.free_text_ids = np.array(sorted(walkable), dtype=np.int32)
        self.nodes = n

    def child(self, node: int, byte: int) -> int:
        """The child of `node` along `byte`, or -1."""
        for j in range(self.child_start[node], self.child_start[node + 1]):
            if self.child_byte[j] == byte:
                return self.child_node[j]
        return -1


class TokenMasker:
    """Allowed-token masks for the states of an :class:`Automaton`.

    Parameters
    ----------
    automaton:
        the byte automaton.
    token_bytes:
        bytes of each token id (index = id), or a prebuilt :class:`VocabTrie` to share.
    special_ids:
        ids never produced through the grammar (control pieces, chat markers). Tokens with
        empty bytes are treated as special too.
    end_id:
        the token that closes the grammar (``</tool_call>``, id 11); allowed exactly in
        accepting states and leading to :data:`END`. ``None``: no end token.
    span_encoder:
        spells a forced byte run as the tokenizer would (see :meth:`forced_span`).
    """

    def __init__(
        self,
        automaton: Automaton,
        token_bytes: Sequence[bytes] | VocabTrie,
        special_ids: Iterable[int] = (),
        end_id: int | None = TOOL_CALL_END_ID,
        span_encoder: Callable[[bytes], list[int]] | None = None,
    ) -> None:
        self.automaton = automaton
        self.span_encoder = span_encoder
        self._spans: dict[int, tuple[tuple[int, ...], int] | None] = {}
        trie = (
            token_bytes
            if isinstance(token_bytes, VocabTrie)
            else VocabTrie(token_bytes, special_ids, end_id)
        )
        self.trie = trie
        self.token_bytes = trie.token_bytes
        self.vocab_size = len(self.token_bytes)
        self.end_id = end_id
        self._walkable = trie.walkable
        self.free_text_ids = trie.free_text_ids
        self.trie_nodes = trie.nodes
        self._completions: dict[int, list[int]] = {}
        self._cache: dict[int, tuple[np.ndarray, int]] = {}

    def _compute(self, state: int) -> tuple[np.ndarray, int]:
        aut = self.automaton
        rows = aut.rows
        row_of = aut.row
        t = self.trie
        cs, cb, cn, is_, ids = t.child_start, t.child_byte, t.child_node, t.id_start, t.ids
        found: list[int] = []
        stack = [(0, state)]
        while stack:
            node, st = stack.pop()
            r = rows[st]
            if r is None:
                r = row_of(st)
            for j in range(cs[node], cs[node + 1]):
                ns = r[cb[j]]
                if ns == DEAD:
                    continue
                child = cn[j]
                a, b = is_[child], is_[child + 1]
                if b > a:
                    found.extend(ids[a:b])
                if cs[child + 1] > cs[child]:
                    stack.append((child, ns))
        if self.end_id is not None and aut.is_accepting(state):
            found.append(self.end_id)
        arr = np.array(sorted(found), dtype=np.int32)
        return arr, int(arr[0]) if len(arr) == 1 else -1

    # A set larger than this is cached as a bitset over the vocabulary: inside a free string
    # nearly every token is allowed, and an int32 array per such state (32 KB at 8,192 tokens,
    # one per string position of every string field) grew the daemon's memory by megabytes.
    PACK_ABOVE = 256

    def _lookup(self, state: int) -> tuple[np.ndarray, int]:
        hit = self._cache.get(state)
        if hit is None:
            arr, forced = self._compute(state)
            if arr.size > self.PACK_ABOVE:
                bits = np.zeros(self.vocab_size, dtype=bool)
                bits[arr] = True
                hit = (np.packbits(bits), forced)
            else:
                hit = (arr, forced)
            self._cache[state] = hit
            return arr, forced
        if hit[0].dtype == np.uint8:
            bits = np.unpackbits(hit[0], count=self.vocab_size)
            return np.flatnonzero(bits).astype(np.int32), hit[1]
        return hit

    def allowed(self, state: int) -> np.ndarray:
        """Sorted int32 array of the token ids allowed in state (cached; do not modify)."""
        if state == END or state == DEAD:
            return np.empty(0, dtype=np.int32)
        return self._lookup(state)[0]

    def forced(self, state: int) -> int | None:
        """The only allowed token id when exactly one is allowed, else None."""
        if state == END or state == DEAD:
            return None
        hit = self._cache.get(state)
        if hit is None:
            hit = self._lookup(state)
        return hit[1] if hit[1] >= 0 else None

    def advance_token(self, state: int, token_id: int) -> int:
        """State after token_id (:data:`DEAD` if not allowed, :data:`END` after end_id)."""
        if state == END or state == DEAD:
            return DEAD
        if token_id == self.end_id:
            return END if self.automaton.is_accepting(state) else DEAD
        if not 0 <= token_id < self.vocab_size or not self._walkable[token_id]:
            return DEAD
        return self.automaton.feed(state, self.token_bytes[token_id])

    def completion(self, state: int) -> list[int]:
        """Token ids spelling the automaton's shortest completion from state, longest token
        first (every byte is a token in a byte-fallback vocabulary); [] when accepting.

        Raises ValueError when the vocabulary cannot spell it."""
        hit = self._completions.get(state)
        if hit is not None:
            return hit
        rest = self.automaton.shortest_completion(state)
        t = self.trie
        out: list[int] = []
        pos = 0
        while pos < len(rest):
            node = 0
            best = -1
            best_len = 0
            j = pos
            while j < len(rest):
                nxt = t.child(node, rest[j])
                if nxt < 0:
                    break
                node = nxt
                j += 1
                if t.id_start[node + 1] > t.id_start[node]:
                    best, best_len = t.ids[t.id_start[node]], j - pos
            if best < 0:
                raise ValueError(f"the vocabulary cannot spell {rest[pos:]!r}")
            out.append(best)
            pos += best_len
        self._completions[state] = out
        return out

    def completion_cost(self, state: int) -> int:
        """Tokens needed to finish from state, the end token included."""
        return len(self.completion(state)) + (self.end_id is not None)

    def forced_span(self, state: int) -> tuple[tuple[int, ...], int] | None:
        """Tokens for the bytes the grammar fixes from `state`, and the state after them.

        Where the automaton admits exactly one next byte for a run of bytes (`{"name":"`, the
        rest of a unique enum value, `","arguments":{`), the text is determined; spelling it
        the way the tokenizer would (`span_encoder`) gives the tokens the model saw in training
        and costs no model call. None when nothing is forced or no encoder was given.
        """
        if self.span_encoder is None or state < 0:
            return None
        if state in self._spans:
            return self._spans[state]
        aut = self.automaton
        run = bytearray()
        s = state
        while not aut.is_accepting(s):
            row = aut.row(s)
            live = [b for b in range(256) if row[b] != DEAD]
            if len(live) != 1:
                break
            run.append(live[0])
            s = row[live[0]]
        out: tuple[tuple[int, ...], int] | None = None
        if run:
            try:
                ids = self.span_encoder(bytes(run))
            except (UnicodeDecodeError, ValueError):
                ids = []
            st = state
            for tid in ids:
                st = self.advance_token(st, tid)
                if st < 0:
                    break
            if ids and st == s:
                out = (tuple(ids), s)
        self._spans[state] = out
        return out

    def cached_states(self) -> int:
        return len(self._cache)
