"""Prompt text exactly as Needle 2 was trained on it (spec section 5).

Single turn (the caller prepends BOS, id 2, as an id, never as text), shown on three lines
that are one string::

    [<|im_start|>system\\n{facts}<|im_end|>\\n]
    <|im_start|>user\\n<tools>{tools JSON}</tools>\\n
    {query}<|im_end|>\\n<|im_start|>assistant\\n

The part up to and including ``</tools>\\n`` does not depend on the query: it is the *tools
prefix* (:func:`split_prompt`), prefilled once per session and kept as KV sinks; the rest is the
per-query suffix. The assistant answers (training target)::

    [<think>\\n{reasoning}\\n</think>\\n]
    <tool_call>[{"name":..,"arguments":{..}}, ...]</tool_call><|im_end|>

followed by EOS (id 1).

Multi-step turns (``Session.run()``): the vendor's multi-turn format is not public, so this is
ours, and the training data of the model issue uses the same. After the assistant's turn the
conversation continues, on the same token stream, with a user turn carrying the results of the
calls, in call order, as a compact JSON list inside the ``<tool_result>`` markers::

    <tool_call>[...]</tool_call><|im_end|>\\n
    <|im_start|>user\\n
    <tool_result>[{"name":"get_weather","result":{...}}, ...]</tool_result><|im_end|>\\n
    <|im_start|>assistant\\n

Each element is ``{"name": call name, "result": value}`` or, when the handler failed,
``{"name": call name, "error": message}``. The assistant then answers with another call list
(``[]`` when it is done). A new user query in the same conversation is a plain user turn
without a tools block (the tools stay pinned in the prefix)::

    <|im_start|>user\\n{query}<|im_end|>\\n<|im_start|>assistant\\n

(No line breaks other than the ``\\n`` shown; the wrapping above is for reading only.)
System facts are ``key: value; key: value`` (date, locale, device, ...): facts, never
instructions.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

IM_START = "<|im_start|>"
IM_END = "<|im_end|>"
THINK = "<think>"
THINK_END = "</think>"
TOOLS = "<tools>"
TOOLS_END = "</tools>"
TOOL_CALL = "<tool_call>"
TOOL_CALL_END = "</tool_call>"
TOOL_RESULT = "<tool_result>"
TOOL_RESULT_END = "</tool_result>"
BOS_ID = 2


def render_system_facts(facts: Mapping[str, Any] | str | None) -> str | None:
    """``{"date": "2025-01-02", "locale": "fr-FR"}`` -> ``"date: 2025-01-02; locale: fr-FR"``."""
    if facts is None:
        return None
    if isinstance(facts, str):
        return facts
    return "; ".join(f"{k}: {v}" for k, v in facts.items())


def system_turn(facts: Mapping[str, Any] | str | None) -> str:
    text = render_system_facts(facts)
    if not text:
        return ""
    return f"{IM_START}system\n{text}{IM_END}\n"


def tools_prefix(tools_json: str, system_facts: Mapping[str, Any] | str | None = None) -> str:
    """Everything before the query: optional system turn, user header, ``<tools>...</tools>\\n``."""
    return f"{system_turn(system_facts)}{IM_START}user\n{TOOLS}{tools_json}{TOOLS_END}\n"


def query_suffix(query: str) -> str:
    """The per-query rest of the first user turn, ending with the assistant header."""
    return f"{query}{IM_END}\n{IM_START}assistant\n"


def split_prompt(
    tools_json: str, query: str, system_facts: Mapping[str, Any] | str | None = None
) -> tuple[str, str]:
    """(tools prefix, query suffix); their concatenation is :func:`render_prompt`."""
    return tools_prefix(tools_json, system_facts), query_suffix(query)


def render_prompt(
    tools_json: str, query: str, system_facts: Mapping[str, Any] | str | None = None
) -> str:
    """The full single-turn prompt text (without BOS)."""
    prefix, suffix = split_prompt(tools_json, query, system_facts)
    return prefix + suffix


def render_calls_json(calls: Iterable[Mapping[str, Any]]) -> str:
    """Compact call list ``[{"name":..,"arguments":{..}}]`` as the model writes it."""
    items = [{"name": c["name"], "arguments": c.get("arguments", {})} for c in calls]
    return json.dumps(items, separators=(",", ":"), ensure_ascii=False)


def render_assistant_turn(calls_json: str, reasoning: str | None = None) -> str:
    """The assistant's answer as trained, through ``<|im_end|>\\n`` (EOS is not text)."""
    think = f"{THINK}\n{reasoning}\n{THINK_END}\n" if reasoning else ""
    return f"{think}{TOOL_CALL}{calls_json}{TOOL_CALL_END}{IM_END}\n"


def render_tool_results(results: Iterable[Mapping[str, Any]]) -> str:
    """Compact JSON list of ``{"name", "result"}`` / ``{"name", "error"}`` in call order."""
    items: list[dict[str, Any]] = []
    for r in results:
        item: dict[str, Any] = {"name": r["name"]}
        if "error" in r and r["error"] is not None:
            item["error"] = str(r["error"])
        else:
            item["result"] = r.get("result")
        items.append(item)
    return json.dumps(items, separators=(",", ":"), ensure_ascii=False, default=str)


def tool_result_turn(results: Iterable[Mapping[str, Any]]) -> str:
    """User turn feeding results back, ending with the next assistant header."""
    body = render_tool_results(results)
    return f"{IM_START}user\n{TOOL_RESULT}{body}{TOOL_RESULT_END}{IM_END}\n{IM_START}assistant\n"


def user_turn(query: str) -> str:
    """A follow-up query in the same conversation (tools stay in the pinned prefix)."""
    return f"{IM_START}user\n{query}{IM_END}\n{IM_START}assistant\n"
