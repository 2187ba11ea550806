"""Examples -> token ids, exactly as the daemon will see them.

This is the one place the training code depends on the prompt contract: the prompt text comes
from :mod:`agent.calling.prompt` and the tools JSON from
:func:`agent.calling.tools.render_tools_json`, the same functions `Session.complete()` uses,
and the whole turn is encoded in one SentencePiece call after BOS, as the session does (the
chat markers are user-defined pieces, so they split out by themselves). The target is the
assistant turn of :func:`agent.calling.prompt.render_assistant_turn`
(`[<think>..</think>]<tool_call>[...]</tool_call><|im_end|>\\n`) followed by EOS; the loss covers
the target only. The decode driver emits `<tool_call>` as the first token after the prompt, so
the target starts with that marker (no SentencePiece "▁" in between).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agent.calling import prompt as P
from agent.calling.tools import render_tools_json
from agent.model.tokenizer import Tokenizer

EOS_ID = 1


@dataclass
class Encoded:
    prefix: tuple[int, ...]  # BOS + tools prefix (shared by every example with the same tools)
    suffix: list[int]  # the rest: query, assistant header, target, EOS
    target_start: int  # index into suffix of the first target token


def tools_json(tools: Sequence[Mapping[str, Any]]) -> str:
    return render_tools_json(tools)


def encode_example(
    tok: Tokenizer, row: Mapping[str, Any], use_reasoning: bool = False
) -> Encoded | None:
    """Token ids of one JSONL example; None if its prompt does not split at the tools prefix."""
    tj = tools_json(row["tools"])
    system = row.get("system") or None
    prefix_text = P.tools_prefix(tj, system)
    prompt_text = prefix_text + P.query_suffix(row["query"])
    reasoning = row.get("reasoning") if use_reasoning else None
    target_text = P.render_assistant_turn(P.render_calls_json(row["answers"]), reasoning)
    prefix = [P.BOS_ID] + tok.encode(prefix_text)
    prompt = [P.BOS_ID] + tok.encode(prompt_text)
    full = [P.BOS_ID] + tok.encode(prompt_text + target_text) + [EOS_ID]
    if full[: len(prompt)] != prompt or prompt[: len(prefix)] != prefix:
        return None  # a piece merged across a boundary (rare): the session would re-prefill
    return Encoded(tuple(prefix), full[len(prefix) :], len(prompt) - len(prefix))


def corpus_lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Text for training a tokenizer on a data set: queries, call lists, tool schemas."""
    lines: list[str] = []
    seen_tools: set[str] = set()
    # Repeat each schema so BPE learns its pieces (they fill most of every prompt), but keep the
    # corpus bounded when the data spans thousands of generated tool sets.
    n_sets = len({tools_json(r["tools"]) for r in rows})
    reps = max(1, 50 // max(1, n_sets))
    for r in rows:
        lines.append(r["query"])
        lines.append(P.render_calls_json(r["answers"]))
        if r.get("reasoning"):
            lines.append(r["reasoning"])
        tj = tools_json(r["tools"])
        if tj not in seen_tools:
            seen_tools.add(tj)
            lines.extend([tj] * reps)
            lines.extend([P.tools_prefix(tj)] * max(1, reps // 5))
    return lines
