"""Checks shared by the hand-written case files (held-out homes, custom homes): every answer a
valid call of its own tools, and each refusal what its category says it is."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from agent.calling.rangecheck import said_numbers
from devices.registry import validate

Row = dict[str, Any]


def param(tools: list[Row], tool: str, name: str) -> Row:
    """The schema of parameter `name` of `tool` (asserting both exist)."""
    by_name = {t["name"]: t for t in tools}
    assert tool in by_name, f"no tool {tool!r}"
    props = by_name[tool]["parameters"]["properties"]
    assert name in props, f"{tool} has no parameter {name!r}"
    return props[name]


def enum_values(tools: list[Row]) -> set[str]:
    """Every enum value of every tool, casefolded."""
    return {
        str(v).casefold()
        for t in tools
        for p in t["parameters"]["properties"].values()
        for v in p.get("enum", ())
    }


def check_answers(rows: Iterable[Row]) -> None:
    """One call for a positive case, two or more for two actions ("the hall, the landing and
    the porch off" is three), none for a refusal; each valid."""
    for r in rows:
        n = len(r["answers"])
        if r["category"] == "two_actions":
            assert n >= 2, r["query"]
        else:
            assert n == {"positive": 1}.get(r["category"], 0), r["query"]
        tools = {t["name"]: t for t in r["tools"]}
        for call in r["answers"]:
            assert call["name"] in tools, (r["query"], call)
            problems = validate(call["arguments"], tools[call["name"]]["parameters"])
            assert problems == [], (r["query"], problems)


def check_unsupported(rows: Iterable[Row]) -> None:
    """An unsupported case names (in its query) a value its tools lack: `absent` is the name,
    or `tool.param=name` for a value one parameter lacks."""
    for r in (r for r in rows if r["category"] == "unsupported"):
        absent = r["absent"]
        if "=" in absent:
            where, _, name = absent.partition("=")
            tool, _, pname = where.partition(".")
            enum = param(r["tools"], tool, pname)["enum"]
            assert name.casefold() not in {str(v).casefold() for v in enum}, r["query"]
        else:
            name = absent
            assert name.casefold() not in enum_values(r["tools"]), r["query"]
            assert name not in {t["name"] for t in r["tools"]}, r["query"]
        assert name.casefold() in r["query"].casefold(), r["query"]


def check_invalid(rows: Iterable[Row]) -> None:
    """An invalid case says a number (in digits or words) outside its parameter's range."""
    for r in (r for r in rows if r["category"] == "invalid"):
        bad = r["out_of_range"]
        schema = param(r["tools"], bad["name"], bad["param"])
        assert schema["type"] in ("integer", "number")
        value = bad["value"]
        assert value < schema["minimum"] or value > schema["maximum"], r["query"]
        # said in digits or in words ("ten degrees"), or in minutes for a parameter in seconds
        said = {s.value for s in said_numbers(r["query"])}
        if "minute" in r["query"]:
            said |= {v * 60 for v in said}
        assert str(value) in r["query"] or float(value) in said, r["query"]
