"""Tool schemas from dicts, JSON files and decorated functions.

No ``from __future__ import annotations`` here on purpose: the decorator resolves hints with
``typing.get_type_hints`` and would not see the test's local names in string form.
"""

import enum
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Optional

import pytest

from agent.calling.grammar import compile_calls
from agent.calling.tools import (
    Field,
    SchemaError,
    Tool,
    load_tools,
    load_tools_file,
    parse_docstring,
    render_tools_json,
    tool,
    tool_from_dict,
)

# What the vendor package's @tool decorator writes for our example functions; regenerate
# with tests/data/make_vendor_tool_schemas.py.
VENDOR_SCHEMAS = Path(__file__).resolve().parent / "data" / "vendor_tool_schemas.json"


class Unit(enum.Enum):
    C = "celsius"
    F = "fahrenheit"


@dataclass
class Point:
    x: int
    y: int = 0


def test_decorator_full_mapping() -> None:
    @tool
    def set_light(
        room: Literal["kitchen", "hall"],
        level: Annotated[int, Field(ge=0, le=100, description="percent")] = 50,
        unit: Optional[Unit] = None,  # noqa: UP045 - the Optional spelling is what we test
        tags: list[str] | None = None,
        ratio: float = Field(0.5, gt=0, lt=1),
        code: Annotated[str, Field(pattern="^[A-Z]{2}$", max_length=2)] = "AA",
        at: Point | None = None,
        flag: bool = False,
        anything: Any = None,
    ) -> str:
        """Set a light.

        Longer text.

        Args:
            room (str): which room.
            level: ignored, the Field wins.
            unit: temperature
                unit, continued.

        Returns:
            a message.
        """
        return room

    spec = set_light.tool_spec
    assert isinstance(spec, Tool) and spec.fn is set_light
    assert set_light("hall") == "hall"
    assert spec.description == "Set a light. Longer text."
    p = spec.parameters
    assert p["type"] == "object"
    assert p["required"] == ["room"]
    props = p["properties"]
    assert list(props) == [
        "room",
        "level",
        "unit",
        "tags",
        "ratio",
        "code",
        "at",
        "flag",
        "anything",
    ]
    assert props["room"] == {
        "type": "string",
        "enum": ["kitchen", "hall"],
        "description": "which room.",
    }
    assert props["level"] == {
        "type": "integer",
        "description": "percent",
        "minimum": 0,
        "maximum": 100,
    }
    assert props["unit"] == {
        "type": "string",
        "enum": ["celsius", "fahrenheit"],
        "description": "temperature unit, continued.",
    }
    assert props["tags"] == {"type": "array", "items": {"type": "string"}}
    assert props["ratio"] == {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}
    assert props["code"] == {"type": "string", "maxLength": 2, "pattern": "^[A-Z]{2}$"}
    assert props["at"] == {
        "type": "object",
        "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
        "required": ["x"],
    }
    assert props["flag"] == {"type": "boolean"}
    assert props["anything"] == {}
    aut = compile_calls([spec])
    assert aut.matches(b'[{"name":"set_light","arguments":{"room":"hall","level":100}}]')
    assert not aut.matches(b'[{"name":"set_light","arguments":{"room":"hall","level":101}}]')


def test_decorator_overrides_and_literal_types() -> None:
    @tool(name="dim", description="Dim it")
    def f(n: Literal[1, 2, 3], mode: Literal["a", 1]) -> None:
        """Ignored."""

    assert f.tool_spec.name == "dim" and f.tool_spec.description == "Dim it"
    props = f.tool_spec.parameters["properties"]
    assert props["n"] == {"type": "integer", "enum": [1, 2, 3]}
    assert props["mode"] == {"type": ["string", "integer"], "enum": ["a", 1]}


def test_decorator_rejects_unsupported_types_and_keywords() -> None:
    with pytest.raises(SchemaError, match="bad"):

        @tool
        def bad(x: complex) -> None: ...

    with pytest.raises(SchemaError) as info:

        @tool
        def pat(x: Annotated[str, Field(pattern="(?=x)")]) -> None: ...

    assert info.value.tool == "pat" and info.value.keyword == "pattern"


def test_docstring_parser() -> None:
    summary, args = parse_docstring(
        """Do a thing.

        Arguments:
            a (int): first
                and more.
            b: second.
        Raises:
            ValueError: never.
        """
    )
    assert summary == "Do a thing."
    assert args == {"a": "first and more.", "b": "second."}
    assert parse_docstring(None) == ("", {})


def test_from_dicts_and_file(tmp_path: Path) -> None:
    spec = {
        "name": "get_weather",
        "description": "Weather",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "title": "City", "default": "Paris"}},
            "required": ["city"],
        },
    }
    wrapped = {"type": "function", "function": spec}
    assert tool_from_dict(wrapped).to_schema() == spec
    f1 = tmp_path / "list.json"
    f1.write_text(json.dumps([spec]))
    f2 = tmp_path / "obj.json"
    f2.write_text(json.dumps({"tools": [spec]}))
    assert [t.to_schema() for t in load_tools_file(f1)] == [spec]
    assert [t.to_schema() for t in load_tools(str(f2))] == [spec]
    no_params = tool_from_dict({"name": "ping"})
    assert no_params.parameters == {"type": "object", "properties": {}}
    assert no_params.description is None


def _params(prop: dict) -> dict:
    return {"type": "object", "properties": {"n": prop}}


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ({"name": "t", "parameters": _params({"type": "integer", "multipleOf": 2})}, "multipleOf"),
        (
            {"name": "t", "parameters": _params({"type": "array", "uniqueItems": True})},
            "uniqueItems",
        ),
        ({"name": "t", "parameters": {"type": "object", "oneOf": []}}, "oneOf"),
        ({"name": "t", "parameters": {"type": "array"}}, "object"),
        (
            {"name": "t", "parameters": {"type": "object", "properties": {}, "required": ["x"]}},
            "required",
        ),
        (
            {"name": "t", "parameters": _params({"type": "integer", "minimum": 3, "maximum": 1})},
            "admits no value",
        ),
        ({"name": "", "parameters": {}}, "name"),
    ],
)
def test_load_rejects_with_tool_and_keyword(spec: dict, needle: str) -> None:
    with pytest.raises(SchemaError) as info:
        load_tools([spec])
    assert needle in str(info.value)
    if spec["name"]:
        assert "'t'" in str(info.value)


def test_duplicate_names_rejected() -> None:
    spec = {"name": "a", "parameters": {"type": "object", "properties": {}}}
    with pytest.raises(SchemaError, match="duplicate"):
        load_tools([spec, spec])


def test_render_tools_json_is_compact_and_keeps_non_ascii() -> None:
    tools = [
        tool_from_dict(
            {
                "name": "météo",
                "description": "Temps à Paris",
                "parameters": {"type": "object", "properties": {"v": {"type": "string"}}},
            }
        ),
        tool_from_dict({"name": "b", "parameters": {"type": "object", "properties": {}}}),
    ]
    text = render_tools_json(tools)
    assert text == (
        '[{"name":"météo","description":"Temps à Paris","parameters":{"type":"object",'
        '"properties":{"v":{"type":"string"}}}},{"name":"b","parameters":{"type":"object",'
        '"properties":{}}}]'
    )
    assert render_tools_json([t.to_schema() for t in tools]) == text


def _vendor_schemas() -> dict[str, dict]:
    schemas = json.loads(VENDOR_SCHEMAS.read_text(encoding="utf-8"))
    assert isinstance(schemas, list) and schemas
    return {s["name"]: s for s in schemas}


def test_vendor_schemas_load_unchanged() -> None:
    for name, schema in _vendor_schemas().items():
        (loaded,) = load_tools([schema])
        assert loaded.name == name and loaded.fn is None
        assert loaded.to_schema() == schema


def test_vendor_decorator_output_loads() -> None:
    schema = _vendor_schemas()["get_weather"]

    def get_weather(city: str) -> None:
        """Our own docstring and signature are ignored: the vendor schema wins."""

    # what the vendor decorator leaves on the function it decorates
    get_weather._needle_tool = schema  # type: ignore[attr-defined]
    (loaded,) = load_tools([get_weather])
    assert loaded.fn is get_weather
    assert loaded.to_schema() == schema
    (again,) = load_tools([schema])
    aut = compile_calls([again], require_call=True)
    assert aut.matches(
        b'[{"name":"get_weather","arguments":{"city":"Oslo","days":14,"unit":"f",'
        b'"color":"fahrenheit","opts":{"a":1},"items":[1,"x"],"ratio":0.5,"code":"XY",'
        b'"when":"2024-02-29","gt":9.5}}]'
    )
    assert not aut.matches(b'[{"name":"get_weather","arguments":{"city":"Oslo","days":0}}]')
