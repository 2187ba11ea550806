"""Prompt rendering (spec section 5) and the multi-step turn format."""

from __future__ import annotations

import json

import pytest
from conftest import GOLDEN as CONF_GOLDEN

from agent.calling.prompt import (
    render_assistant_turn,
    render_calls_json,
    render_prompt,
    render_system_facts,
    render_tool_results,
    split_prompt,
    tool_result_turn,
    tools_prefix,
    user_turn,
)
from agent.calling.tools import render_tools_json, tool_from_dict

TOOLS_JSON = '[{"name":"f","parameters":{"type":"object","properties":{}}}]'


def test_render_prompt_exact() -> None:
    assert render_prompt(TOOLS_JSON, "turn on the light") == (
        "<|im_start|>user\n<tools>" + TOOLS_JSON + "</tools>\nturn on the light<|im_end|>\n"
        "<|im_start|>assistant\n"
    )
    facts = {"date": "2025-01-02", "locale": "fr-FR"}
    assert render_prompt(TOOLS_JSON, "q", facts) == (
        "<|im_start|>system\ndate: 2025-01-02; locale: fr-FR<|im_end|>\n"
        "<|im_start|>user\n<tools>" + TOOLS_JSON + "</tools>\nq<|im_end|>\n<|im_start|>assistant\n"
    )
    assert render_system_facts("battery: 40%") == "battery: 40%"
    assert render_prompt(TOOLS_JSON, "q", "") == render_prompt(TOOLS_JSON, "q")


def test_split_prompt_prefix_is_query_independent() -> None:
    facts = {"device": "pi"}
    p1, s1 = split_prompt(TOOLS_JSON, "first", facts)
    p2, s2 = split_prompt(TOOLS_JSON, "second", facts)
    assert p1 == p2 == tools_prefix(TOOLS_JSON, facts)
    assert p1.startswith("<|im_start|>system\n") and p1.endswith("</tools>\n")
    assert s1 == "first<|im_end|>\n<|im_start|>assistant\n"
    assert p1 + s1 == render_prompt(TOOLS_JSON, "first", facts)
    assert s1 != s2


def test_multi_step_turns() -> None:
    calls = render_calls_json([{"name": "get_weather", "arguments": {"city": "Zürich"}}])
    assert calls == '[{"name":"get_weather","arguments":{"city":"Zürich"}}]'
    assert render_assistant_turn(calls) == f"<tool_call>{calls}</tool_call><|im_end|>\n"
    assert render_assistant_turn("[]", reasoning="think") == (
        "<think>\nthink\n</think>\n<tool_call>[]</tool_call><|im_end|>\n"
    )
    results = [{"name": "get_weather", "result": {"temp": 3}}, {"name": "x", "error": "boom"}]
    body = render_tool_results(results)
    assert json.loads(body) == [
        {"name": "get_weather", "result": {"temp": 3}},
        {"name": "x", "error": "boom"},
    ]
    assert " " not in body
    assert tool_result_turn(results) == (
        "<|im_start|>user\n<tool_result>" + body + "</tool_result><|im_end|>\n"
        "<|im_start|>assistant\n"
    )
    assert user_turn("and tomorrow?") == (
        "<|im_start|>user\nand tomorrow?<|im_end|>\n<|im_start|>assistant\n"
    )


def test_markers_tokenize_to_their_ids() -> None:
    spm = pytest.importorskip("sentencepiece")
    model = CONF_GOLDEN / "tok8192.model"
    if not model.exists():
        pytest.skip("golden tokenizer missing")
    sp = spm.SentencePieceProcessor(model_file=str(model))
    tools_json = render_tools_json(
        [tool_from_dict({"name": "f", "parameters": {"type": "object", "properties": {}}})]
    )
    ids = sp.encode(render_prompt(tools_json, "hi", {"date": "x"}))
    for marker_id in (4, 5, 8, 9):
        assert marker_id in ids
    text = (
        render_prompt(tools_json, "hi")
        + render_assistant_turn("[]")
        + tool_result_turn([{"name": "f", "result": 1}])
    )
    ids = sp.encode(text)
    for marker_id in (10, 11, 12, 13):
        assert ids.count(marker_id) == 1
