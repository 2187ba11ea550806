"""Tool schemas: from JSON-schema dicts, from a JSON file, and from decorated Python functions.

Every tool is checked when it is loaded: a constraining JSON-schema keyword the grammar cannot
enforce (``multipleOf``, ``uniqueItems``, ``oneOf``, ``not``, ``patternProperties``, ...) raises
:class:`~agent.calling.grammar.SchemaError` naming the tool and the keyword, and so does a
schema that admits no value at all. Annotation keywords (``description``, ``title``, ``default``,
``examples``, ``$schema``, ``$comment``, ...) are accepted and kept.

Functions::

    @tool
    def set_light(room: Literal["kitchen", "hall"], level: Annotated[int, Field(ge=0, le=100)] = 50,
                  color: str | None = None) -> str:
        '''Set a light.

        Args:
            room: which room.
            level: brightness in percent.
        '''

map to ``{"name": "set_light", "description": "Set a light.", "parameters": {"type": "object",
"properties": {...}, "required": ["room"]}}``. Type mapping: ``str`` string, ``int`` integer,
``float`` number, ``bool`` boolean, ``None`` null, ``list[X]``/``tuple[X, ...]``/``Sequence[X]``
array, ``dict`` free-form object, ``Literal``/``Enum`` enum (with the values' JSON type),
dataclasses nested objects, other unions ``anyOf``. ``Optional[X]`` (or ``X | None``) and
parameters with a default are not required; as in the vendor package's decorator the schema is
the one of ``X`` (the model was trained on that form). An unannotated parameter is a string.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import json
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.calling.grammar.schema import SchemaError, compile_value, validate_schema

__all__ = [
    "Field",
    "SchemaError",
    "Tool",
    "load_tools",
    "load_tools_file",
    "render_tools_json",
    "schema_from_function",
    "tool",
    "tool_from_dict",
    "tool_from_function",
]

_MISSING: Any = object()


class Field:
    """Constraints for one parameter, used as ``Annotated[T, Field(...)]`` or as the default."""

    def __init__(
        self,
        default: Any = _MISSING,
        *,
        description: str | None = None,
        title: str | None = None,
        ge: float | None = None,
        le: float | None = None,
        gt: float | None = None,
        lt: float | None = None,
        min_length: int | None = None,
        max_length: int | None = None,
        pattern: str | None = None,
        format: str | None = None,
        min_items: int | None = None,
        max_items: int | None = None,
        enum: Iterable[Any] | None = None,
        const: Any = _MISSING,
        examples: list[Any] | None = None,
    ) -> None:
        self.default = default
        self.const = const
        self._keywords = {
            "description": description,
            "title": title,
            "minimum": ge,
            "maximum": le,
            "exclusiveMinimum": gt,
            "exclusiveMaximum": lt,
            "minLength": min_length,
            "maxLength": max_length,
            "pattern": pattern,
            "format": format,
            "minItems": min_items,
            "maxItems": max_items,
            "enum": list(enum) if enum is not None else None,
            "examples": examples,
        }

    @property
    def has_default(self) -> bool:
        return self.default is not _MISSING

    def apply(self, schema: dict[str, Any]) -> dict[str, Any]:
        for key, value in self._keywords.items():
            if value is not None:
                schema[key] = value
        if self.const is not _MISSING:
            schema["const"] = self.const
        return schema


@dataclass
class Tool:
    """One callable tool: its JSON schema and, for decorated functions, the function."""

    name: str
    parameters: dict[str, Any]
    description: str | None = None
    fn: Callable[..., Any] | None = None

    def to_schema(self) -> dict[str, Any]:
        """``{"name", "description"?, "parameters"}`` in that key order (the trained form)."""
        out: dict[str, Any] = {"name": self.name}
        if self.description:
            out["description"] = self.description
        out["parameters"] = self.parameters
        return out

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.fn is None:
            raise TypeError(f"tool {self.name!r} has no Python implementation")
        return self.fn(*args, **kwargs)


# -- JSON sources ---------------------------------------------------------------------------------
def tool_from_dict(spec: Mapping[str, Any], fn: Callable[..., Any] | None = None) -> Tool:
    """Build and check a tool from ``{"name", "description"?, "parameters"}``.

    The OpenAI-style wrapper ``{"type": "function", "function": {...}}`` is unwrapped. Other
    tool-level keys do not constrain the arguments and are ignored.
    """
    if not isinstance(spec, Mapping):
        raise SchemaError("<tool>", "a tool must be a JSON object")
    if spec.get("type") == "function" and isinstance(spec.get("function"), Mapping):
        spec = spec["function"]
    name = spec.get("name")
    if not isinstance(name, str) or not name:
        raise SchemaError(str(name), "a tool needs a non-empty string name")
    desc = spec.get("description")
    if desc is not None and not isinstance(desc, str):
        raise SchemaError(name, "description must be a string")
    params = spec.get("parameters")
    if params is None:
        params = {"type": "object", "properties": {}}
    if not isinstance(params, Mapping):
        raise SchemaError(name, "parameters must be a JSON object")
    params = dict(params)
    if params.get("type", "object") != "object":
        raise SchemaError(name, "parameters must have type 'object'", "type", "parameters")
    params.setdefault("type", "object")
    check_parameters(name, params)
    return Tool(name=name, parameters=params, description=desc or None, fn=fn)


def check_parameters(name: str, params: Mapping[str, Any]) -> None:
    """Raise :class:`SchemaError` unless the grammar can enforce params exactly."""
    validate_schema(params, name)
    # Compiling finds what a keyword check cannot: unsatisfiable ranges, enum values of the
    # wrong type, recursive references.
    compile_value(params, tool=name, path="parameters")


def load_tools_file(path: str | Path) -> list[Tool]:
    """A JSON file holding a list of tool schemas or ``{"tools": [...]}``."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return load_tools(data)


def load_tools(source: Any) -> list[Tool]:
    """Tools from a path, a list (of dicts, :class:`Tool` objects or decorated functions), a
    ``{"tools": [...]}`` dict, or a single one of those."""
    if isinstance(source, str | Path):
        return load_tools_file(source)
    if isinstance(source, Mapping) and "tools" in source and "name" not in source:
        source = source["tools"]
    if isinstance(source, Mapping) or isinstance(source, Tool) or callable(source):
        source = [source]
    if not isinstance(source, list | tuple):
        raise SchemaError("<tools>", "expected a list of tools")
    tools: list[Tool] = []
    for item in source:
        if isinstance(item, Tool):
            check_parameters(item.name, item.parameters)
            tools.append(item)
        elif isinstance(item, Mapping):
            tools.append(tool_from_dict(item))
        elif callable(item):
            tools.append(tool_from_function(item))
        else:
            raise SchemaError("<tools>", f"cannot make a tool from {type(item).__name__}")
    names = [t.name for t in tools]
    for n in names:
        if names.count(n) > 1:
            raise SchemaError(n, "duplicate tool name")
    return tools


def render_tools_json(tools: Iterable[Tool | Mapping[str, Any]]) -> str:
    """The compact JSON list the prompt carries inside ``<tools>...</tools>``."""
    items = [t.to_schema() if isinstance(t, Tool) else _schema_of(t) for t in tools]
    return json.dumps(items, separators=(",", ":"), ensure_ascii=False)


def _schema_of(spec: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": spec["name"]}
    if spec.get("description"):
        out["description"] = spec["description"]
    out["parameters"] = spec.get("parameters", {"type": "object", "properties": {}})
    return out


# -- Python functions -----------------------------------------------------------------------------
_PRIMITIVES: dict[Any, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    type(None): "null",
}
_UNIONS = (typing.Union, types.UnionType)
_SEQUENCE_ORIGIN = typing.get_origin(typing.Sequence[int])
_MAPPING_ORIGIN = typing.get_origin(typing.Mapping[str, int])
_SECTIONS_ARGS = ("args", "arguments", "parameters", "params")
_SECTIONS_OTHER = ("returns", "return", "raises", "yields", "examples", "example", "note", "notes")


def _value_type(values: list[Any]) -> str | list[str] | None:
    names = []
    for v in values:
        t = "null" if v is None else _PRIMITIVES.get(type(v))
        if t is None:
            return None
        if t not in names:
            names.append(t)
    if set(names) == {"integer", "number"}:
        names = ["number"]
    return names[0] if len(names) == 1 else names


def _enum_schema(values: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    t = _value_type(values)
    if t is not None:
        out["type"] = t
    out["enum"] = values
    return out


def _strip_optional(annotation: Any) -> tuple[Any, bool]:
    if typing.get_origin(annotation) is typing.Annotated:
        inner, optional = _strip_optional(typing.get_args(annotation)[0])
        if optional:
            return typing.Annotated[(inner, *typing.get_args(annotation)[1:])], True
        return annotation, False
    if typing.get_origin(annotation) in _UNIONS:
        args = typing.get_args(annotation)
        rest = [a for a in args if a is not type(None)]
        if len(rest) < len(args):
            if len(rest) == 1:
                return rest[0], True
            return typing.Union[tuple(rest)], True  # noqa: UP007
    return annotation, False


def _json_schema(annotation: Any) -> dict[str, Any]:
    """JSON schema of a type annotation (Annotated metadata applied)."""
    if annotation is inspect.Parameter.empty or annotation is Any:
        return {"type": "string"} if annotation is inspect.Parameter.empty else {}
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        schema = _json_schema(args[0])
        for meta in args[1:]:
            if isinstance(meta, Field):
                meta.apply(schema)
            elif isinstance(meta, str):
                schema.setdefault("description", meta)
        return schema
    if annotation in _PRIMITIVES:
        return {"type": _PRIMITIVES[annotation]}
    if annotation is None:
        return {"type": "null"}
    if origin is typing.Literal:
        return _enum_schema(list(args))
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return _enum_schema([m.value for m in annotation])
    if origin in _UNIONS:
        rest = [a for a in args if a is not type(None)]
        branches = [_json_schema(a) for a in rest]
        if len(rest) < len(args):
            branches.append({"type": "null"})
        return {"anyOf": branches}
    if annotation in (list, tuple, set, frozenset) or origin in (
        list,
        tuple,
        set,
        frozenset,
        _SEQUENCE_ORIGIN,
    ):
        item_args = [a for a in args if a is not Ellipsis]
        if origin is tuple and len(item_args) > 1 and Ellipsis not in args:
            raise TypeError("fixed-length tuples are not supported; use tuple[X, ...]")
        return {"type": "array", "items": _json_schema(item_args[0]) if item_args else {}}
    if annotation is dict or origin in (dict, _MAPPING_ORIGIN):
        return {"type": "object"}
    if dataclasses.is_dataclass(annotation) and isinstance(annotation, type):
        return _dataclass_schema(annotation)
    raise TypeError(f"unsupported parameter type {annotation!r}")


def _dataclass_schema(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls, include_extras=True)
    props: dict[str, Any] = {}
    required: list[str] = []
    for f in dataclasses.fields(cls):
        ann, optional = _strip_optional(hints.get(f.name, str))
        props[f.name] = _json_schema(ann)
        has_default = (
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        )
        if not optional and not has_default:
            required.append(f.name)
    out: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        out["required"] = required
    return out


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """Google-style docstring -> (summary text, {argument: description})."""
    if not doc:
        return "", {}
    lines = inspect.cleandoc(doc).splitlines()
    summary: list[str] = []
    args: dict[str, str] = {}
    section = "summary"
    current: str | None = None
    arg_indent: int | None = None
    for line in lines:
        stripped = line.strip()
        head = stripped.rstrip(":").lower()
        if stripped.endswith(":") and head in _SECTIONS_ARGS:
            section, current, arg_indent = "args", None, None
            continue
        if stripped.endswith(":") and head in _SECTIONS_OTHER:
            section = "other"
            continue
        if section == "summary":
            summary.append(stripped)
        elif section == "args" and stripped:
            indent = len(line) - len(line.lstrip())
            m = re.match(r"(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$", stripped)
            if m and (arg_indent is None or indent <= arg_indent):
                arg_indent = indent
                current = m.group(1).lstrip("*")
                args[current] = m.group(2).strip()
            elif current is not None:
                args[current] = f"{args[current]} {stripped}".strip()
    text = " ".join(" ".join(summary).split())
    return text, args


def schema_from_function(
    fn: Callable[..., Any], name: str | None = None, description: str | None = None
) -> dict[str, Any]:
    """``{"name", "description"?, "parameters"}`` for a Python function."""
    sig = inspect.signature(fn)
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception as e:  # unresolved forward references
        raise TypeError(f"cannot resolve the type hints of {fn.__name__}: {e}") from e
    summary, arg_docs = parse_docstring(fn.__doc__)
    props: dict[str, Any] = {}
    required: list[str] = []
    for pname, param in sig.parameters.items():
        if pname in ("self", "cls") or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        annotation = hints.get(pname, param.annotation)
        inner, optional = _strip_optional(annotation)
        try:
            schema = _json_schema(inner)
        except TypeError as e:
            raise SchemaError(name or fn.__name__, f"parameter {pname!r}: {e}") from None
        field = param.default if isinstance(param.default, Field) else None
        if field is not None:
            field.apply(schema)
        if pname in arg_docs and arg_docs[pname] and "description" not in schema:
            schema["description"] = arg_docs[pname]
        props[pname] = schema
        has_default = param.default is not param.empty and field is None
        if field is not None and field.has_default:
            has_default = True
        if not has_default and not optional:
            required.append(pname)
    params: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        params["required"] = required
    out: dict[str, Any] = {"name": name or fn.__name__}
    desc = description if description is not None else summary
    if desc:
        out["description"] = desc
    out["parameters"] = params
    return out


def tool_from_function(fn: Callable[..., Any]) -> Tool:
    """A :class:`Tool` from a function (decorated or not; the vendor decorator's schema, stored
    on ``fn._needle_tool``, is honoured too)."""
    spec = getattr(fn, "tool_spec", None)
    if isinstance(spec, Tool):
        return spec
    vendor = getattr(fn, "_needle_tool", None)
    if isinstance(vendor, Mapping):
        return tool_from_dict(vendor, fn=fn)
    return tool_from_dict(schema_from_function(fn), fn=fn)


@typing.overload
def tool(fn: Callable[..., Any], /) -> Callable[..., Any]: ...
@typing.overload
def tool(
    *, name: str | None = None, description: str | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]: ...
def tool(
    fn: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
) -> Any:
    """Decorator: check the function's schema now and attach it as ``fn.tool_spec``.

    Usable bare (``@tool``) or with overrides (``@tool(name="x", description="...")``); the
    function itself is returned unchanged otherwise.
    """

    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        f.tool_spec = tool_from_dict(schema_from_function(f, name, description), fn=f)  # type: ignore[attr-defined]
        return f

    return wrap(fn) if fn is not None else wrap
