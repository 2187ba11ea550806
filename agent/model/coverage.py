"""Whether the configured tools have shapes the model saw in training, as warnings naming the fix.

A `.cact` file has no metadata section, so what a model was trained on is recorded beside it, in
the training report `<model>.report.json`, under ``"trained_on"``::

    {"kinds": ["simulated_lights", ...], "max_tools": 8, "max_enum_values": 10,
     "param_types": ["enum", "integer", "number", "boolean"], "general_schemas": true}

A model trained for one home alone also lists that home's exact tool schemas under
``"only_tools"``: it has learned those names as the only valid values, so any other tool (a
renamed room, another device) is outside its training however familiar its shape.

``kinds`` are the device kinds whose tools were in the training homes; ``general_schemas`` says
the training also had tool sets from random schemas, so a tool of another kind is still familiar
when its shape (tool count, enum sizes, parameter types) is within the other bounds. A parameter's
type is ``enum`` when it lists its values, else its JSON type (a free-text ``string``, ``array``,
``object``, ...). A model outside these bounds still runs: it is just likely to refuse or to get
the call wrong, which is what the warnings say, with the command that fixes it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPORT_SUFFIX = ".report.json"


@dataclass(frozen=True)
class TrainedOn:
    """What a model's training covered; None fields were not recorded (that check is skipped)."""

    kinds: frozenset[str] | None = None
    max_tools: int | None = None
    max_enum_values: int | None = None
    param_types: frozenset[str] | None = None
    general_schemas: bool = False
    only_tools: frozenset[str] | None = None  # canonical JSON of each schema (single-home model)


def canonical_tool(schema: Mapping[str, Any]) -> str:
    """A schema as one string that ignores key order (how ``only_tools`` are compared)."""
    return json.dumps(schema, sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True)
class ConfiguredTool:
    """One configured device: its config table name, device kind and tool schema."""

    device: str
    kind: str
    schema: Mapping[str, Any]


def report_path(model: str | Path) -> Path:
    return Path(f"{model}{REPORT_SUFFIX}")


def read_trained_on(model: str | Path) -> tuple[TrainedOn | None, str]:
    """The training record beside ``model``, or (None, why it is unknown)."""
    path = report_path(model)
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, f"no training report {path.name} beside the model"
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return None, f"its training report {path.name} cannot be read ({exc})"
    raw = report.get("trained_on") if isinstance(report, dict) else None
    if not isinstance(raw, dict):
        return None, f'its training report {path.name} has no "trained_on" record'
    try:
        return _parse(raw), ""
    except ValueError as exc:
        return None, f'"trained_on" in {path.name} is malformed: {exc}'


def _parse(raw: Mapping[str, Any]) -> TrainedOn:
    def names(key: str) -> frozenset[str] | None:
        v = raw.get(key)
        if v is None:
            return None
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise ValueError(f"{key} must be a list of strings")
        return frozenset(v)

    def count(key: str) -> int | None:
        v = raw.get(key)
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{key} must be a non-negative integer")
        return v

    general = raw.get("general_schemas", False)
    if not isinstance(general, bool):
        raise ValueError("general_schemas must be true or false")
    only = raw.get("only_tools")
    if only is not None and (
        not isinstance(only, list) or not all(isinstance(t, Mapping) for t in only)
    ):
        raise ValueError("only_tools must be a list of tool schemas")
    return TrainedOn(
        only_tools=None if only is None else frozenset(canonical_tool(t) for t in only),
        kinds=names("kinds"),
        max_tools=count("max_tools"),
        max_enum_values=count("max_enum_values"),
        param_types=names("param_types"),
        general_schemas=general,
    )


def param_type(schema: Mapping[str, Any]) -> str:
    """``enum`` for a parameter that lists its values, else its JSON type (``string`` is free
    text); a parameter allowing several types is named by them joined with ``|``."""
    if "enum" in schema:
        return "enum"
    t = schema.get("type")
    if isinstance(t, list):
        return "|".join(str(x) for x in t)
    if isinstance(t, str):
        return t
    return "anyOf" if "anyOf" in schema else "untyped"


def _shape_problems(tool: ConfiguredTool, trained: TrainedOn) -> list[str]:
    name = tool.schema.get("name", "?")
    props = (tool.schema.get("parameters") or {}).get("properties") or {}
    out = []
    for pname, p in props.items():
        if not isinstance(p, Mapping):
            continue
        kind = param_type(p)
        if trained.param_types is not None and kind not in trained.param_types:
            what = "free text" if kind == "string" else f"of type {kind}"
            out.append(
                f"tool {name} (devices.{tool.device}) has a parameter {pname!r} {what}; the "
                f"model was trained only on {', '.join(sorted(trained.param_types))} parameters"
            )
        values = p.get("enum")
        limit = trained.max_enum_values
        if isinstance(values, list) and limit is not None and len(values) > limit:
            out.append(
                f"tool {name} (devices.{tool.device}) parameter {pname!r} has {len(values)} "
                f"values; the model was trained on at most {limit}"
            )
    return out


def coverage_problems(trained: TrainedOn, tools: Sequence[ConfiguredTool]) -> list[str]:
    """Each way the configured tools leave what ``trained`` covered, one sentence each."""
    out = []
    if trained.max_tools is not None and len(tools) > trained.max_tools:
        out.append(
            f"{len(tools)} tools are configured; the model was trained on at most "
            f"{trained.max_tools} at once"
        )
    for tool in tools:
        if trained.only_tools is not None and canonical_tool(tool.schema) not in trained.only_tools:
            out.append(
                f"tool {tool.schema.get('name', '?')} (devices.{tool.device}) is not one the "
                "model was trained on: it was trained for one home's exact tools and refuses "
                "names it has not seen"
            )
            continue
        shape = _shape_problems(tool, trained)
        out.extend(shape)
        known = trained.kinds is None or tool.kind in trained.kinds
        if not known and not (trained.general_schemas and not shape):
            out.append(
                f"device kind {tool.kind} (devices.{tool.device}) was not in the model's training"
            )
    return out


def fix_hint(config_path: str | None) -> str:
    return (
        f"run `needled train --config {config_path or 'FILE'}` to fine-tune the model for "
        "these tools"
    )


def coverage_warnings(
    model: str | Path,
    devices: Mapping[str, Mapping[str, Any]],
    tool_schemas: Iterable[Mapping[str, Any]],
    *,
    config_path: str | None = None,
) -> list[str]:
    """The start-up warnings for serving ``tool_schemas`` (one per device table of ``devices``,
    in the same order, as the registry builds them) with ``model``; each names the fix."""
    schemas = list(tool_schemas)
    tables = list(devices.items())
    if len(tables) != len(schemas):
        # tools that do not come one per device table (a caller's own list): their kinds are
        # unknown, but their shapes can still be checked
        tables = [(str(s.get("name", "?")), {}) for s in schemas]
    tools = [
        ConfiguredTool(name, str(table.get("kind", "?")), schema)
        for (name, table), schema in zip(tables, schemas, strict=True)
    ]
    hint = fix_hint(config_path)
    trained, why = read_trained_on(model)
    if trained is None:
        return [
            f"the training coverage of model {Path(model).name} is unknown ({why}); if commands "
            f"for your devices are refused or answered wrongly, {hint}"
        ]
    return [
        f"{p}: such commands may be refused or answered wrongly; {hint}"
        for p in coverage_problems(trained, tools)
    ]
