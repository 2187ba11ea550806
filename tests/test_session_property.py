"""Property: whatever the weights say, every call the session emits parses and conforms.

The golden tiny model has random weights, so its choices exercise every branch the grammar
leaves open. Schemas come from hypothesis (the grammar tests' generator); each example decodes
several commands through `Session.complete()` on the native engine (FP32), and every call is
validated with the `jsonschema` library, format checks included.
"""

from __future__ import annotations

import jsonschema
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from agent.calling.grammar import SchemaError
from agent.calling.session import Session
from tests.test_grammar import schemas

QUERIES = (
    "turn on the kitchen light",
    "set it to 21.5 degrees",
    "play jazz",
    "x",
    "",
    "what's the weather in Zürich tomorrow?",
    "remind me at 7",
    "42",
    "don't do anything",
    "open the garage door and dim the hall",
)
# JSON Schema 2020-12 semantics (RFC 3339 `time` carries an offset), as the grammar enforces.
FORMATS = jsonschema.Draft202012Validator.FORMAT_CHECKER


@st.composite
def tool_sets(draw: st.DrawFn) -> list[dict]:
    n = draw(st.integers(1, 3))
    tools = []
    for i in range(n):
        props = draw(st.lists(schemas, min_size=1, max_size=3))
        names = [f"p{j}" for j in range(len(props))]
        required = draw(st.lists(st.sampled_from(names), unique=True))
        tools.append(
            {
                "name": f"tool_{i}",
                "parameters": {
                    "type": "object",
                    "properties": dict(zip(names, props, strict=True)),
                    "required": required,
                },
            }
        )
    return tools


@pytest.fixture(scope="module")
def engine_model(tiny_cact):
    from agent.model.engine import native_available

    assert native_available(), "the native kernels must be built for this test"
    return tiny_cact


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(tools=tool_sets(), require=st.booleans())
def test_every_call_parses_and_conforms(engine_model, tools, require):
    try:
        s = Session(engine_model, tools, backend="native", mode="fp32", max_new_tokens=160)
    except SchemaError:
        reject()  # the generator made a schema no value satisfies: refused at load, as it must
    by_name = {t["name"]: t["parameters"] for t in tools}
    for q in QUERIES:
        env = s.complete(q, require_call=require)
        if not q.strip():
            assert env["type"] == "error" and env["error_code"] == "empty_input"
            continue
        if not env["success"]:
            # Allowed failures, each an error envelope: the budget cannot hold even the
            # shortest call, or the tools prefix leaves no room in the model's positions.
            assert env["error_code"] in ("decode_failed", "too_long"), env
            assert env["error_code"] == "too_long" or "budget" in env["error"], env
            continue
        calls = env["function_calls"]
        assert isinstance(calls, list) and (calls or not require)
        for c in calls:
            jsonschema.validate(c["arguments"], by_name[c["name"]], format_checker=FORMATS)
