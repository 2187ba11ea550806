"""Engine-agnostic constrained decoding of one assistant turn.

The driver owns the grammar; the engine owns the model. Two callbacks connect them:

- ``on_token(token_id)`` is called for every emitted token, in order (forced ones too), so the
  engine can append it to its sequence / KV cache;
- ``score_fn(candidate_ids)`` returns the logits of the *next* position for exactly those ids
  (a 1-D float array of the same length), given every token passed to ``on_token`` so far. The
  engine computes only those rows of the output projection.

When the grammar allows a single token it is emitted without calling ``score_fn``. Otherwise the
highest-scoring allowed token is taken (greedy).

Turn shape (spec section 5): optional ``<think>{reasoning}</think>\\n`` (free text, at most
``think_budget`` tokens; ``</think>`` is forced when the budget runs out), then
``<tool_call>{call list}</tool_call>`` and the trailer (``<|im_end|>``).

Budget: the call list (including ``</tool_call>``) takes at most ``max_tokens`` tokens. The
driver keeps the invariant ``used + completion_cost(state) <= max_tokens``, where the cost is
the number of tokens of the automaton's shortest completion spelled longest-token-first, plus
the end token. A choice that would break it is replaced by that completion from the current
state, so the JSON is always closed validly. If even the shortest call list does not fit,
nothing is decoded and an error is returned: never invalid JSON.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agent.calling.grammar.masker import (
    IM_END_ID,
    THINK_END_ID,
    THINK_ID,
    TOOL_CALL_ID,
    TokenMasker,
)
from agent.calling.grammar.nfa import DEAD

ScoreFn = Callable[[np.ndarray], np.ndarray]
# (call bytes so far, allowed ids) -> a bonus per allowed id, or None for no opinion
BiasFn = Callable[[bytes, np.ndarray], "np.ndarray | None"]


@dataclass
class DecodeResult:
    ok: bool
    token_ids: list[int] = field(default_factory=list)
    call_text: str | None = None
    calls: list[Any] | None = None
    reasoning: str | None = None
    error: str | None = None
    closed_by_budget: bool = False
    forced_steps: int = 0
    scored_steps: int = 0
    call_tokens: int = 0
    # Sum of log-probabilities of the chosen call tokens under the softmax restricted to the
    # allowed candidates (forced tokens contribute 0).
    call_logprob: float = 0.0
    # The same, with each step's probability that of every allowed token that spells on the
    # text finally written rather than of the chosen token alone: a name the model spells in
    # pieces ("g|reen|house" or "gre|en|house") has its probability split between spellings
    # of the same text, which says nothing about whether the text is right.
    text_logprob: float = 0.0
    grammar_seconds: float = 0.0
    score_seconds: float = 0.0


def _log_softmax_at(logits: np.ndarray, i: int) -> float:
    m = float(np.max(logits))
    return float(logits[i] - m - np.log(np.sum(np.exp(logits - m))))


def _newline_ids(masker: TokenMasker) -> list[int]:
    for tid, data in enumerate(masker.token_bytes):
        if data == b"\n":
            return [tid]
    return []


def decode_call(
    masker: TokenMasker,
    start_state: int,
    score_fn: ScoreFn,
    max_tokens: int,
    *,
    on_token: Callable[[int], None] | None = None,
    think_budget: int = 0,
    think_id: int = THINK_ID,
    think_end_id: int = THINK_END_ID,
    tool_call_id: int = TOOL_CALL_ID,
    newline_ids: Sequence[int] | None = None,
    trailer_ids: Sequence[int] = (IM_END_ID,),
    bias_fn: BiasFn | None = None,
) -> DecodeResult:
    """Decode ``[<think>..</think>\\n]<tool_call>JSON</tool_call><|im_end|>`` under the grammar.

    ``max_tokens`` bounds the call list plus ``</tool_call>``; ``think_budget`` (0: no
    reasoning) bounds the free text between ``<think>`` and ``</think>``. ``bias_fn`` adds
    a bonus to the allowed tokens' logits inside the call list (see ``mention.py``); the chosen
    token and ``call_logprob`` follow the biased logits, the policy actually decoded.
    """
    res = DecodeResult(ok=False)
    emitted = res.token_ids
    end_id = masker.end_id
    if end_id is None:
        raise ValueError("decode_call needs a masker with an end token")

    def emit(tid: int) -> None:
        emitted.append(tid)
        if on_token is not None:
            on_token(tid)

    def score(cands: np.ndarray) -> np.ndarray:
        t = time.perf_counter()
        logits = np.asarray(score_fn(cands), dtype=np.float64).reshape(-1)
        res.score_seconds += time.perf_counter() - t
        if logits.shape[0] != cands.shape[0]:
            raise ValueError(f"score_fn returned {logits.shape[0]} logits for {len(cands)} ids")
        return logits

    try:
        need = masker.completion_cost(start_state) if start_state != DEAD else None
    except ValueError:
        need = None
    if need is None or need > max_tokens:
        res.error = (
            f"token budget {max_tokens} is below the shortest call list ({need or '?'} tokens)"
        )
        return res

    # -- optional reasoning -------------------------------------------------------------------
    if think_budget > 0:
        opening = np.array([think_id, tool_call_id], dtype=np.int32)
        logits = score(opening)
        if int(opening[int(np.argmax(logits))]) == think_id:
            emit(think_id)
            free = np.concatenate([masker.free_text_ids, np.array([think_end_id], np.int32)])
            text_ids: list[int] = []
            closed = False
            while len(text_ids) < think_budget:
                logits = score(free)
                tid = int(free[int(np.argmax(logits))])
                emit(tid)
                if tid == think_end_id:
                    closed = True
                    break
                text_ids.append(tid)
            if not closed:
                emit(think_end_id)
            for nl in _newline_ids(masker) if newline_ids is None else newline_ids:
                emit(nl)
            raw = b"".join(masker.token_bytes[t] for t in text_ids)
            res.reasoning = raw.decode("utf-8", errors="replace").strip()
    emit(tool_call_id)

    # -- the call list ------------------------------------------------------------------------
    state = start_state
    used = 0
    call_ids: list[int] = []
    # each scored step: the call bytes before it, the allowed ids and their (biased) logits
    steps: list[tuple[int, np.ndarray, np.ndarray]] = []
    while True:
        g0 = time.perf_counter()
        span = masker.forced_span(state)
        if span is not None and used + len(span[0]) + 1 + masker.completion_cost(span[1]) <= (
            max_tokens
        ):
            res.grammar_seconds += time.perf_counter() - g0
            for tid in span[0]:
                emit(tid)
                call_ids.append(tid)
            used += len(span[0])
            res.forced_steps += len(span[0])
            state = span[1]
            continue
        forced = masker.forced(state)
        allowed = masker.allowed(state) if forced is None else None
        res.grammar_seconds += time.perf_counter() - g0
        if forced is not None:
            tid = forced
            res.forced_steps += 1
        else:
            if allowed is None or len(allowed) == 0:
                res.error = "grammar dead end (no token allowed)"
                return res
            logits = score(allowed)
            if bias_fn is not None:
                bonus = bias_fn(b"".join(masker.token_bytes[t] for t in call_ids), allowed)
                if bonus is not None:
                    logits = logits + bonus
            i = int(np.argmax(logits))
            tid = int(allowed[i])
            res.scored_steps += 1
            res.call_logprob += _log_softmax_at(logits, i)
            # a copy: a score function may hand back a view of a buffer it reuses
            steps.append(
                (sum(len(masker.token_bytes[t]) for t in call_ids), allowed, np.array(logits))
            )
        g0 = time.perf_counter()
        nxt = masker.advance_token(state, tid)
        if tid != end_id and nxt >= 0 and used + 1 + masker.completion_cost(nxt) > max_tokens:
            # The choice would leave too little budget to close: finish from here instead.
            res.grammar_seconds += time.perf_counter() - g0
            if steps and forced is None:
                steps.pop()  # the token chosen there is not the one written
            if not _close(masker, state, emit, call_ids):
                res.error = "cannot spell the closing bytes with the vocabulary"
                return res
            res.closed_by_budget = True
            break
        res.grammar_seconds += time.perf_counter() - g0
        emit(tid)
        used += 1
        if tid == end_id:
            break
        call_ids.append(tid)
        state = nxt

    for tid in trailer_ids:
        emit(tid)
    raw = b"".join(masker.token_bytes[t] for t in call_ids)
    res.text_logprob = _text_logprob(steps, raw, masker.token_bytes, end_id)
    res.call_tokens = len(call_ids)
    try:
        res.call_text = raw.decode("utf-8")
        res.calls = json.loads(res.call_text)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:  # pragma: no cover - a grammar bug
        res.error = f"grammar produced invalid JSON: {e}"
        return res
    res.ok = True
    return res


def _text_logprob(
    steps: Sequence[tuple[int, np.ndarray, np.ndarray]],
    raw: bytes,
    token_bytes: Sequence[bytes],
    end_id: int | None,
) -> float:
    """Sum over the scored steps of the log-probability of the allowed tokens that spell on
    `raw` from where the step stood (the end token where nothing is left)."""
    total = 0.0
    for at, allowed, logits in steps:
        rest = raw[at:]
        ok = np.array(
            [
                not rest if int(t) == end_id else bool(b) and rest.startswith(b)
                for t, b in ((t, token_bytes[int(t)]) for t in allowed)
            ]
        )
        if not ok.any():
            continue  # pragma: no cover - the chosen token always spells on
        m = float(np.max(logits))
        z = np.log(np.sum(np.exp(logits - m)))
        total += float(np.log(np.sum(np.exp(logits[ok] - m))) - z)
    return total


def _close(
    masker: TokenMasker,
    state: int,
    emit: Callable[[int], None],
    call_ids: list[int],
) -> bool:
    """Emit the shortest completion from state, then the end token."""
    try:
        spelled = masker.completion(state)
    except ValueError:
        return False
    for tid in spelled:
        emit(tid)
        call_ids.append(tid)
        state = masker.advance_token(state, tid)
    if not masker.automaton.is_accepting(state):  # pragma: no cover - completion ends in accept
        return False
    emit(masker.end_id)  # type: ignore[arg-type]
    return True
