"""Grammar compiler, token masks and the constrained decoding driver."""

from __future__ import annotations

import json
import random
import time

import jsonschema
import numpy as np
import pytest
from conftest import GOLDEN as CONF_GOLDEN
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from agent.calling.grammar import (
    DEAD,
    END,
    SchemaError,
    TokenMasker,
    compile_calls,
    compile_value,
    decode_call,
    validate_schema,
    vocab_from_sentencepiece,
)
from agent.calling.grammar.regex import RegexError, compile_pattern

GOLDEN = CONF_GOLDEN
FORMAT_CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER


def accepts(schema: object, text: str) -> bool:
    return compile_value(schema).matches(text.encode("utf-8"))


def check_valid(schema: object, text: str) -> None:
    value = json.loads(text)
    jsonschema.Draft202012Validator(schema, format_checker=FORMAT_CHECKER).validate(value)


# -- hand-written accept / reject cases, one block per keyword ----------------------------------
CASES = [
    ({"type": "null"}, ["null"], ["nul", "0", '"null"', "None"]),
    ({"type": "boolean"}, ["true", "false"], ["True", "1", "tru", "null"]),
    (
        {"type": "integer"},
        ["0", "7", "-12", "123456789012345678901"],
        ["-0", "012", "1.0", "1e3", "+1", "", " 1"],
    ),
    (
        {"type": "integer", "minimum": 0, "maximum": 100},
        ["0", "9", "10", "99", "100", "42"],
        ["101", "0100", "00", "-1", "1000", "-0", "200"],
    ),
    (
        {"type": "integer", "exclusiveMinimum": -3, "exclusiveMaximum": 3},
        ["-2", "0", "2"],
        ["-3", "3", "-4", "30"],
    ),
    ({"type": "integer", "minimum": -15, "maximum": -3}, ["-3", "-15", "-10"], ["-16", "-2", "0"]),
    ({"type": "integer", "minimum": 5}, ["5", "6", "10", "99999999999"], ["4", "0", "-5"]),
    ({"type": "integer", "maximum": -5}, ["-5", "-6", "-100000"], ["-4", "0", "5"]),
    ({"type": "integer", "minimum": 1.5, "maximum": 3.5}, ["2", "3"], ["1", "4"]),
    (
        {"type": "number"},
        ["0", "-0.5", "1.25", "10", "3.14159"],
        ["1.", ".5", "01", "-0", "1e5", "NaN", "Infinity"],
    ),
    (
        {"type": "number", "minimum": 0.5, "exclusiveMaximum": 2},
        ["0.5", "0.50", "1", "1.999", "0.6"],
        ["0.49", "2", "2.0", "2.5", "-1", "10"],
    ),
    (
        {"type": "number", "minimum": -1.25, "maximum": -0.5},
        ["-1.25", "-1", "-0.5", "-0.75"],
        ["-1.26", "-0.49", "0", "-2"],
    ),
    (
        {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
        ["0.001", "1", "0.5", "1.0"],
        ["0", "0.0", "1.01", "-0.5"],
    ),
    # Near a strict bound, digits that would round onto it when parsed are refused.
    (
        {"type": "number", "exclusiveMaximum": 5},
        ["4.99999999999999", "4", "-3.5"],
        ["4.99999999999999999", "5"],
    ),
    ({"type": "string"}, ['""', '"abc"', '"é😀"', '"a\\"b"', '"\\n"', '"\\u0001"'], []),
    (
        {"type": "string"},
        [],
        ['"a', "abc", '"\n"', '"\\x"', '"\\u00e9"', '"\\/"', '"\x01"', '"\\u0041"'],
    ),
    (
        {"type": "string", "minLength": 2, "maxLength": 3},
        ['"ab"', '"abc"', '"é😀"', '"\\n\\t"'],
        ['"a"', '"abcd"', '""', '"😀"'],
    ),
    (
        {"type": "string", "pattern": "^[a-z]+[0-9]{2}$"},
        ['"ab12"', '"z00"'],
        ['"12"', '"ab123"', '"AB12"', '"ab1"'],
    ),
    ({"type": "string", "pattern": "ab"}, ['"xxabyy"', '"ab"'], ['"xxa"', '""']),
    (
        {"type": "string", "pattern": "^(cat|dog)s?$"},
        ['"cat"', '"dogs"'],
        ['"cats!"', '"bird"'],
    ),
    ({"type": "string", "pattern": "^\\d{3}-\\w+$"}, ['"123-a_b"'], ['"12-a"', '"123-"']),
    ({"type": "string", "pattern": "^[^a-c]$"}, ['"d"', '"é"'], ['"a"', '"c"', '""']),
    ({"type": "string", "pattern": "^a.c$"}, ['"abc"', '"a😀c"'], ['"a\\nc"', '"ac"']),
    (
        {"type": "string", "pattern": "^x{2,3}$", "maxLength": 2},
        ['"xx"'],
        ['"xxx"', '"x"'],
    ),
    (
        {"type": "string", "format": "date"},
        ['"2024-02-29"', '"2023-12-31"', '"2000-02-29"'],
        ['"2023-02-29"', '"2023-04-31"', '"1900-02-29"', '"2023-13-01"', '"23-01-01"'],
    ),
    (
        {"type": "string", "format": "time"},
        ['"12:30:00Z"', '"23:59:59.5+02:00"'],
        ['"24:00:00Z"', '"12:30"', '"12:30:00"'],
    ),
    (
        {"type": "string", "format": "date-time"},
        ['"2024-01-31T08:00:00Z"'],
        ['"2024-01-31 08:00:00Z"', '"2024-01-31"'],
    ),
    ({"type": "string", "format": "email"}, ['"a.b@ex.com"'], ['"ab.com"', '"a@b"', '"@x.io"']),
    ({"type": "string", "format": "uri"}, ['"anything"'], ["1"]),  # annotation only
    ({"enum": ["a", 1, None, True]}, ['"a"', "1", "null", "true"], ['"b"', "2", "false"]),
    ({"type": "string", "enum": ["a", "b", 3]}, ['"a"', '"b"'], ["3"]),
    ({"const": "on"}, ['"on"'], ['"off"']),
    ({"enum": ["a", "bb", "ccc"], "maxLength": 2}, ['"a"', '"bb"'], ['"ccc"']),
    ({"type": ["string", "null"]}, ['"x"', "null"], ["1", "true"]),
    ({"anyOf": [{"type": "integer"}, {"type": "boolean"}]}, ["1", "true"], ['"x"', "1.5"]),
    (
        {"type": "string", "anyOf": [{"maxLength": 1}, {"pattern": "^z+$"}]},
        ['"a"', '"zzzz"'],
        ['"ab"', "1"],
    ),
    (
        {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 2},
        ["[1]", "[1,2]"],
        ["[]", "[1,2,3]", "[1, 2]", '["a"]'],
    ),
    ({"type": "array", "items": {"type": "boolean"}}, ["[]", "[true,false,true]"], ["[1]"]),
    ({"type": "array", "maxItems": 0}, ["[]"], ["[1]"]),
    (
        {
            "type": "object",
            "properties": {
                "a": {"type": "integer"},
                "b": {"type": "boolean"},
                "c": {"type": "null"},
            },
            "required": ["b"],
        },
        ['{"b":true}', '{"a":1,"b":false}', '{"b":true,"c":null}', '{"a":1,"b":true,"c":null}'],
        ['{"a":1}', '{"b":true,"a":1}', '{"b": true}', "{}", '{"b":true,"d":1}'],
    ),
    (
        {"type": "object", "properties": {"x": {"type": "object", "properties": {}}}},
        ["{}", '{"x":{}}'],
        ['{"x":{"y":1}}'],
    ),
    ({"type": "object"}, ["{}", '{"k":[1,"a"]}', '{"a":{"b":1}}'], ['{"a":1,}', "[]"]),
    ({"type": "object", "additionalProperties": False}, ["{}"], ['{"a":1}']),
    (
        {"type": "object", "additionalProperties": {"type": "integer"}},
        ['{"a":1,"b":2}'],
        ['{"a":"x"}'],
    ),
    (
        {
            "$defs": {"pt": {"type": "object", "properties": {"x": {"type": "integer"}}}},
            "type": "object",
            "properties": {"p": {"$ref": "#/$defs/pt"}},
            "required": ["p"],
        },
        ['{"p":{"x":1}}', '{"p":{}}'],
        ['{"p":1}', "{}"],
    ),
    ({"allOf": [{"type": "integer"}, {"minimum": 3}]}, ["3", "4"], ["2", '"a"']),
    (
        {"type": "string", "title": "T", "description": "d", "default": "x", "examples": ["a"]},
        ['"z"'],
        ["1"],
    ),
    ({}, ["1", '"s"', "[1,[2]]", "null"], ["[[[1]]]", "nul"]),
]


@pytest.mark.parametrize(
    ("schema", "good", "bad"), CASES, ids=[json.dumps(c[0])[:60] for c in CASES]
)
def test_keyword_cases(schema: dict, good: list[str], bad: list[str]) -> None:
    aut = compile_value(schema)
    for text in good:
        assert aut.matches(text.encode()), f"should accept {text!r}"
        check_valid(schema, text)
    for text in bad:
        assert not aut.matches(text.encode()), f"should reject {text!r}"


@pytest.mark.parametrize(
    "data",
    [
        b'"\xff"',
        b'"\xc3"',
        b'"\xc0\xaf"',  # overlong
        b'"\xe0\x80\xaf"',  # overlong
        b'"\xed\xa0\x80"',  # surrogate
        b'"\xf4\x90\x80\x80"',  # above U+10FFFF
        b'"\x80"',
        b'"\xe2\x82"',
    ],
)
def test_invalid_utf8_rejected(data: bytes) -> None:
    aut = compile_value({"type": "string"})
    assert not aut.matches(data)
    # Every valid prefix dies exactly at the bad byte, never later.
    assert aut.matches('"é€😀"'.encode())


@pytest.mark.parametrize(
    "keyword_schema",
    [
        {"multipleOf": 2},
        {"uniqueItems": True},
        {"oneOf": [{"type": "string"}]},
        {"not": {"type": "string"}},
        {"patternProperties": {"^a": {}}},
        {"propertyNames": {"maxLength": 2}},
        {"minProperties": 1},
        {"maxProperties": 1},
        {"contains": {"type": "integer"}},
        {"prefixItems": [{"type": "integer"}]},
        {"if": {"type": "string"}},
        {"dependentRequired": {"a": ["b"]}},
        {"nullable": True},
    ],
)
def test_unsupported_keywords_are_rejected_with_tool_and_keyword(keyword_schema: dict) -> None:
    (keyword,) = keyword_schema
    params = {"type": "object", "properties": {"x": keyword_schema}}
    with pytest.raises(SchemaError) as info:
        validate_schema(params, "my_tool")
    assert "my_tool" in str(info.value)
    assert repr(keyword) in str(info.value)
    assert info.value.keyword == keyword
    with pytest.raises(SchemaError):
        compile_calls([{"name": "my_tool", "parameters": params}])


def test_annotations_and_vendor_extensions_accepted() -> None:
    params = {
        "type": "object",
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$comment": "c",
        "title": "t",
        "properties": {"x": {"type": "string", "description": "d", "examples": ["e"]}},
        "x-vendor": 1,
    }
    validate_schema(params, "t")
    assert compile_calls([{"name": "t", "parameters": params}]).matches(
        b'[{"name":"t","arguments":{"x":"a"}}]'
    )


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "integer", "minimum": 5, "maximum": 4},
        {"type": "number", "exclusiveMinimum": 1, "exclusiveMaximum": 1},
        {"type": "string", "minLength": 3, "maxLength": 2},
        {"type": "string", "enum": [1, 2]},
        {"type": "array", "minItems": 2, "maxItems": 1},
        {"type": "string", "pattern": "^a$", "minLength": 2},
    ],
)
def test_unsatisfiable_schemas_fail_at_compile(schema: dict) -> None:
    with pytest.raises(SchemaError):
        compile_value(schema)


def test_recursive_ref_rejected() -> None:
    schema = {
        "$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}}}},
        "$ref": "#/$defs/n",
    }
    with pytest.raises(SchemaError, match="recursive"):
        compile_value(schema)


@pytest.mark.parametrize(
    "pattern",
    ["(?=a)", "(?!a)", "(?<=a)", "(a)\\1", "\\bword", "a*?", "a+?", "(?P<n>a)", "\\p{L}", "^a|b^"],
)
def test_regex_outside_subset_rejected(pattern: str) -> None:
    with pytest.raises(RegexError):
        compile_pattern(pattern)
    with pytest.raises(SchemaError) as info:
        validate_schema({"type": "string", "pattern": pattern}, "rx")
    assert info.value.keyword == "pattern"


# -- the call list ------------------------------------------------------------------------------
WEATHER = {
    "name": "get_weather",
    "description": "Weather for a city",
    "parameters": {
        "type": "object",
        "properties": {
            "city": {"type": "string", "maxLength": 40},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            "days": {"type": "integer", "minimum": 1, "maximum": 14},
        },
        "required": ["city"],
    },
}
LIGHT = {
    "name": "set_light",
    "parameters": {
        "type": "object",
        "properties": {
            "room": {"type": "string", "enum": ["kitchen", "hall", "bedroom"]},
            "on": {"type": "boolean"},
            "level": {"type": "integer", "minimum": 0, "maximum": 100},
        },
        "required": ["room", "on"],
    },
}
TOOLS = [WEATHER, LIGHT]


def test_call_list_shapes() -> None:
    aut = compile_calls(TOOLS)
    good = [
        "[]",
        '[{"name":"get_weather","arguments":{"city":"Paris"}}]',
        '[{"name":"get_weather","arguments":{"city":"Paris","unit":"celsius","days":3}}]',
        '[{"name":"set_light","arguments":{"room":"hall","on":true}},'
        '{"name":"get_weather","arguments":{"city":"Oslo","days":14}}]',
    ]
    bad = [
        "[ ]",
        '[{"arguments":{"city":"Paris"},"name":"get_weather"}]',  # name first
        '[{"name":"get_weather","arguments":{"unit":"celsius","city":"Paris"}}]',  # order
        '[{"name":"get_weather","arguments":{}}]',  # required missing
        '[{"name":"get_weather","arguments":{"city":"Paris","days":15}}]',
        '[{"name":"set_light","arguments":{"room":"garage","on":true}}]',
        '[{"name":"nope","arguments":{}}]',
        '[{"name":"get_weather","arguments":{"city":"Paris"}},]',
        '{"name":"get_weather","arguments":{"city":"Paris"}}',
    ]
    for text in good:
        assert aut.matches(text.encode()), text
    for text in bad:
        assert not aut.matches(text.encode()), text


def test_require_call_and_max_calls() -> None:
    aut = compile_calls(TOOLS, require_call=True)
    assert not aut.matches(b"[]")
    assert aut.matches(b'[{"name":"set_light","arguments":{"room":"hall","on":false}}]')
    one = compile_calls(TOOLS, max_calls=1)
    call = '{"name":"set_light","arguments":{"room":"hall","on":false}}'
    assert one.matches(f"[{call}]".encode())
    assert not one.matches(f"[{call},{call}]".encode())
    two = compile_calls(TOOLS, max_calls=2)
    assert two.matches(f"[{call},{call}]".encode())
    assert not two.matches(f"[{call},{call},{call}]".encode())


def test_duplicate_tool_names_rejected() -> None:
    with pytest.raises(SchemaError, match="duplicate"):
        compile_calls([WEATHER, WEATHER])


def test_distance_and_shortest_completion() -> None:
    aut = compile_calls(TOOLS, require_call=True)
    done = aut.shortest_completion(aut.start)
    assert aut.matches(done)
    assert len(done) == aut.distance(aut.start)
    json.loads(done)
    state = aut.feed(aut.start, b'[{"name":"get_weather","arguments":{"city":"Par')
    assert state != DEAD and not aut.is_accepting(state)
    rest = aut.shortest_completion(state)
    assert rest == b'"}}]'
    assert aut.distance(state) == 4
    assert aut.is_accepting(aut.feed(state, rest))


def test_advance_is_deterministic_and_dead_is_sticky() -> None:
    aut = compile_value({"type": "integer", "minimum": 0, "maximum": 100})
    s1 = aut.advance(aut.start, ord("1"))
    assert s1 == aut.advance(aut.start, ord("1"))
    s10 = aut.advance(s1, ord("0"))
    s100 = aut.advance(s10, ord("0"))
    assert aut.is_accepting(s100)
    assert aut.advance(s100, ord("0")) == DEAD
    assert aut.advance(s10, ord("1")) == DEAD  # 101
    assert aut.feed(DEAD, b"1") == DEAD
    assert aut.is_final(s100)


# -- property tests: generated schemas, random walks, jsonschema validation ----------------------
def _num_bound() -> st.SearchStrategy[float | int]:
    return st.one_of(
        st.integers(-1000, 1000),
        st.decimals(-100, 100, places=2).map(lambda d: float(d)),
    )


PATTERNS = ["^[a-z]{1,5}$", "^\\d+(\\.\\d{1,2})?$", "[A-Z]", "^(on|off|auto)$", "^[^\\s]*$"]


@st.composite
def leaf_schema(draw: st.DrawFn) -> dict:
    kind = draw(st.sampled_from(["string", "integer", "number", "boolean", "null", "enum"]))
    s: dict = {"type": kind}
    if kind == "string":
        if draw(st.booleans()):
            s["minLength"] = draw(st.integers(0, 3))
        if draw(st.booleans()):
            s["maxLength"] = s.get("minLength", 0) + draw(st.integers(0, 6))
        choice = draw(st.sampled_from(["none", "pattern", "date", "time", "date-time", "email"]))
        if choice == "pattern":
            s["pattern"] = draw(st.sampled_from(PATTERNS))
        elif choice != "none":
            s["format"] = choice
    elif kind in ("integer", "number"):
        for kw in draw(
            st.lists(
                st.sampled_from(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]),
                unique=True,
                max_size=2,
            )
        ):
            s[kw] = draw(_num_bound())
    elif kind == "enum":
        s = {
            "enum": draw(
                st.lists(st.one_of(st.text(max_size=4), st.integers(-5, 5)), min_size=1, max_size=4)
            )
        }
    return s


def _nullable(schema: dict) -> dict:
    if "type" not in schema:
        return schema
    types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    return {**schema, "type": list(dict.fromkeys([*types, "null"]))}


def _containers(children: st.SearchStrategy[dict]) -> st.SearchStrategy[dict]:
    def obj(props: list[dict], req: list[bool]) -> dict:
        names = [f"k{i}" for i in range(len(props))]
        out = {"type": "object", "properties": dict(zip(names, props, strict=True))}
        required = [n for n, r in zip(names, req, strict=False) if r]
        if required:
            out["required"] = required
        return out

    return st.one_of(
        st.builds(obj, st.lists(children, max_size=3), st.lists(st.booleans(), max_size=3)),
        st.builds(
            lambda it, mn, extra: {
                "type": "array",
                "items": it,
                "minItems": mn,
                "maxItems": mn + extra,
            },
            children,
            st.integers(0, 2),
            st.integers(0, 2),
        ),
        st.builds(lambda a, b: {"anyOf": [a, b]}, children, children),
        st.builds(_nullable, children),
    )


schemas = st.recursive(leaf_schema(), _containers, max_leaves=6)


def random_walk(aut, rng: random.Random, soft_limit: int = 60) -> bytes:  # noqa: ANN001
    state = aut.start
    out = bytearray()
    while True:
        if aut.is_accepting(state) and (len(out) >= soft_limit or rng.random() < 0.3):
            return bytes(out)
        if len(out) >= soft_limit:
            rest = aut.shortest_completion(state)
            out += rest
            assert aut.is_accepting(aut.feed(state, rest))
            return bytes(out)
        row = aut.row(state)
        choices = [b for b in range(256) if row[b] != DEAD]
        if not choices:
            assert aut.is_accepting(state), "live state without a continuation"
            return bytes(out)
        # Favour ASCII so walks finish; lead bytes of multi-byte chars still appear.
        ascii_choices = [b for b in choices if b < 0x80]
        b = rng.choice(ascii_choices if ascii_choices and rng.random() < 0.8 else choices)
        out.append(b)
        state = row[b]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=schemas, seed=st.integers(0, 2**32 - 1))
def test_property_random_walks_validate(schema: dict, seed: int) -> None:
    try:
        aut = compile_value(schema)
    except SchemaError:
        assume(False)
        return
    rng = random.Random(seed)
    validator = jsonschema.Draft202012Validator(schema, format_checker=FORMAT_CHECKER)
    for _ in range(4):
        data = random_walk(aut, rng)
        value = json.loads(data.decode("utf-8"))
        validator.validate(value)
        # Canonical compact form: re-serializing reproduces the bytes for scalars and strings.
        if isinstance(value, str):
            assert json.dumps(value, ensure_ascii=False).encode() == data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    props=st.lists(schemas, min_size=1, max_size=3),
    req=st.lists(st.booleans(), min_size=3, max_size=3),
    require_call=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_property_call_lists_validate(
    props: list[dict], req: list[bool], require_call: bool, seed: int
) -> None:
    names = [f"p{i}" for i in range(len(props))]
    params = {"type": "object", "properties": dict(zip(names, props, strict=True))}
    params["required"] = [n for n, r in zip(names, req, strict=False) if r]
    tools = [{"name": "t1", "parameters": params}, LIGHT]
    try:
        aut = compile_calls(tools, require_call=require_call)
    except SchemaError:
        assume(False)
        return
    rng = random.Random(seed)
    by_name = {t["name"]: t["parameters"] for t in tools}
    for _ in range(3):
        calls = json.loads(random_walk(aut, rng, soft_limit=120))
        assert isinstance(calls, list)
        assert not require_call or calls
        for call in calls:
            assert list(call) == ["name", "arguments"]
            jsonschema.Draft202012Validator(
                by_name[call["name"]], format_checker=FORMAT_CHECKER
            ).validate(call["arguments"])


# -- token level with the real vocabularies -----------------------------------------------------
@pytest.fixture(scope="module", params=["tok8192.model", "tok1024.model"])
def vocab(request: pytest.FixtureRequest) -> tuple[list[bytes], list[int]]:
    spm = pytest.importorskip("sentencepiece")
    sp = spm.SentencePieceProcessor(model_file=str(GOLDEN / request.param))
    return vocab_from_sentencepiece(sp)


def test_vocab_bytes(vocab: tuple[list[bytes], list[int]]) -> None:
    token_bytes, special = vocab
    assert set(range(0, 14)) - {3} <= set(special) and 3 in special
    assert token_bytes[14 + 0x0A] == b"\n"  # <0x0A>
    assert all(len(token_bytes[14 + b]) == 1 and token_bytes[14 + b][0] == b for b in range(256))
    assert not any("\u2581".encode() in t for t in token_bytes)


def test_masks_agree_with_byte_automaton(vocab: tuple[list[bytes], list[int]]) -> None:
    token_bytes, special = vocab
    aut = compile_calls(TOOLS)
    masker = TokenMasker(aut, token_bytes, special)
    rng = random.Random(1)
    state = aut.start
    for _ in range(40):
        allowed = masker.allowed(state)
        allowed_set = set(allowed.tolist())
        assert not allowed_set & (set(special) - {11})
        assert (11 in allowed_set) == aut.is_accepting(state)
        assert np.all(np.diff(allowed) > 0) and allowed.dtype == np.int32
        # Exhaustive agreement with a direct byte walk of every token.
        for tid, data in enumerate(token_bytes):
            if tid in special or not data:
                continue
            assert (aut.feed(state, data) != DEAD) == (tid in allowed_set), (tid, data)
        forced = masker.forced(state)
        assert (forced is not None) == (len(allowed) == 1)
        tid = int(rng.choice(allowed.tolist()))
        state = masker.advance_token(state, tid)
        if state == END:
            break
        assert state != DEAD
    assert masker.advance_token(aut.start, 5) == DEAD  # a chat marker is never grammar text


def test_mask_cache_is_compact_and_exact(vocab: tuple[list[bytes], list[int]]) -> None:
    # Inside a free string almost every token is allowed: such states are cached as a bitset
    # over the vocabulary (1 KB at 8,192 tokens, not a 32 KB id array), and a cache hit gives
    # back exactly the ids a fresh computation gives.
    token_bytes, special = vocab
    note = {
        "name": "note",
        "parameters": {"type": "object", "properties": {"text": {"type": "string"}}},
    }
    aut = compile_calls([note])
    masker = TokenMasker(aut, token_bytes, special)
    state = aut.feed(aut.start, b'[{"name":"note","arguments":{"text":"')
    assert state != DEAD
    first = masker.allowed(state).copy()
    fresh = TokenMasker(aut, token_bytes, special)._compute(state)[0]
    assert np.array_equal(first, fresh) and np.array_equal(masker.allowed(state), fresh)
    cached = masker._cache[state][0]
    assert first.size > masker.PACK_ABOVE
    assert cached.dtype == np.uint8 and cached.nbytes <= (len(token_bytes) + 7) // 8
    small = masker.allowed(aut.start)
    assert masker._cache[aut.start][0] is small  # small sets stay plain id arrays


def test_forced_tokens_and_end_only_when_accepting(vocab: tuple[list[bytes], list[int]]) -> None:
    token_bytes, special = vocab
    aut = compile_calls([LIGHT], require_call=True)
    masker = TokenMasker(aut, token_bytes, special)
    state = aut.feed(aut.start, b'[{"name":"set_light","arguments":{"room":"hall","on":true')
    allowed = set(masker.allowed(state).tolist())
    assert 11 not in allowed
    state = aut.feed(state, b"}}]")
    assert masker.forced(state) == 11
    assert masker.advance_token(state, 11) == END
    assert masker.allowed(END).size == 0


def _weather_validator() -> dict:
    return {t["name"]: t["parameters"] for t in TOOLS}


def test_decode_call_random_scores_always_valid(vocab: tuple[list[bytes], list[int]]) -> None:
    token_bytes, special = vocab
    aut = compile_calls(TOOLS)
    masker = TokenMasker(aut, token_bytes, special)
    params = _weather_validator()
    for seed in range(12):
        rng = np.random.default_rng(seed)
        fed: list[int] = []
        calls_to_score = 0

        def score(cands: np.ndarray, rng: np.random.Generator = rng) -> np.ndarray:
            nonlocal calls_to_score
            calls_to_score += 1
            assert len(cands) > 1  # forced steps never reach the model
            return rng.normal(size=len(cands))

        res = decode_call(masker, aut.start, score, max_tokens=60, on_token=fed.append)
        assert res.ok, res.error
        assert fed == res.token_ids
        assert res.token_ids[0] == 10 and res.token_ids[-2:] == [11, 5]
        assert calls_to_score == res.scored_steps
        assert res.forced_steps + res.scored_steps == res.call_tokens + 1 or res.closed_by_budget
        assert len(res.token_ids) - 2 <= 60 + 1
        # the written text is at least as likely as the one spelling of it that was chosen
        assert res.call_logprob - 1e-9 <= res.text_logprob <= 1e-9
        for call in res.calls:
            jsonschema.validate(call["arguments"], params[call["name"]])


def test_decode_budget_closes_json(vocab: tuple[list[bytes], list[int]]) -> None:
    token_bytes, special = vocab
    aut = compile_calls([WEATHER], require_call=True)
    masker = TokenMasker(aut, token_bytes, special)
    space = token_bytes.index(b" ")
    x_id = token_bytes.index(b"x")

    def chatty(cands: np.ndarray) -> np.ndarray:
        # Prefer any text inside strings, and more calls over closing the list.
        scores = np.zeros(len(cands))
        scores[cands == space] = 5
        scores[cands == x_id] = 4
        scores[cands == token_bytes.index(b",")] = 6
        return scores

    for budget in (22, 30, 45, 80):
        res = decode_call(masker, aut.start, chatty, max_tokens=budget)
        assert res.ok, res.error
        assert res.call_tokens + 1 <= budget
        assert res.calls and all(c["name"] == "get_weather" for c in res.calls)
        for c in res.calls:
            jsonschema.validate(c["arguments"], WEATHER["parameters"])
    assert res.closed_by_budget
    short = decode_call(masker, aut.start, chatty, max_tokens=5)
    assert not short.ok and "budget" in short.error and short.calls is None


def test_decode_think_budget_then_forced_tool_call(vocab: tuple[list[bytes], list[int]]) -> None:
    token_bytes, special = vocab
    aut = compile_calls(TOOLS)
    masker = TokenMasker(aut, token_bytes, special)
    word = token_bytes.index(b" hello") if b" hello" in token_bytes else token_bytes.index(b"h")

    def wants_to_think(cands: np.ndarray) -> np.ndarray:
        scores = np.zeros(len(cands))
        scores[cands == 6] = 10  # <think>
        scores[cands == word] = 5
        scores[cands == 7] = -10  # never closes on its own
        return scores

    res = decode_call(masker, aut.start, wants_to_think, max_tokens=40, think_budget=5)
    assert res.ok
    ids = res.token_ids
    assert ids[0] == 6 and ids[1:6] == [word] * 5 and ids[6] == 7
    assert token_bytes[ids[7]] == b"\n" and ids[8] == 10
    assert res.reasoning == (token_bytes[word] * 5).decode().strip()
    no_think = decode_call(masker, aut.start, wants_to_think, max_tokens=40, think_budget=0)
    assert no_think.token_ids[0] == 10 and no_think.reasoning is None


def test_cached_mask_is_fast(vocab: tuple[list[bytes], list[int]]) -> None:
    token_bytes, special = vocab
    aut = compile_calls(TOOLS)
    masker = TokenMasker(aut, token_bytes, special)
    states = [aut.start]
    s = aut.start
    for chunk in (b"[", b'{"name":"', b"get_weather", b'","arguments":{"city":"', b"Pa"):
        s = aut.feed(s, chunk)
        states.append(s)
    for st_ in states:
        masker.allowed(st_)
    times = []
    for _ in range(200):
        for st_ in states:
            t = time.perf_counter()
            masker.allowed(st_)
            times.append(time.perf_counter() - t)
    assert float(np.median(times)) < 20e-6


def test_text_logprob_sums_the_spellings_of_the_written_text() -> None:
    from agent.calling.grammar.decode import _text_logprob

    token_bytes = [b"g", b"gr", b"een", b"reen", b"x", b""]
    end = 5
    steps = [
        (0, np.array([0, 1, 4]), np.zeros(3)),  # "g" and "gr" both spell on "green"
        (1, np.array([3, 4]), np.zeros(2)),  # after "g": "reen" does, "x" does not
        (5, np.array([4, end]), np.zeros(2)),  # at the end only the end token does
    ]
    got = _text_logprob(steps, b"green", token_bytes, end)
    assert got == pytest.approx(np.log(2 / 3) + np.log(1 / 2) + np.log(1 / 2))
