"""The held-out homes' evaluation set is well formed: enough homes and cases per category, every
expected call valid for its home's tools, every refusal really a refusal, and the tools exactly
what each home's config produces through the device kinds."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from agent.train.synth import tools_from_config
from devices.registry import validate

DATA = Path(__file__).resolve().parent / "data"
CASES = DATA / "heldout_homes.jsonl"
NAMES = DATA / "heldout_homes_names.json"
HOMES = DATA / "homes"

REFUSALS = ("unsupported", "invalid", "negated", "off_topic", "missing")
# Minimum counts per category over the whole set, and per home; a home with no numeric
# parameter cannot have an `invalid` case, so that one is only required of the whole set.
MIN_TOTAL = {"positive": 120, "two_actions": 40, **{c: 20 for c in REFUSALS}}
MIN_PER_HOME = {"positive": 10, "two_actions": 4, "unsupported": 2, "negated": 2, "off_topic": 2}


def _rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines()]


ROWS = _rows()


def _maker() -> Any:
    spec = importlib.util.spec_from_file_location(
        "make_heldout_homes", DATA / "make_heldout_homes.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _param(tools: list[dict[str, Any]], tool: str, param: str) -> dict[str, Any]:
    by_name = {t["name"]: t for t in tools}
    assert tool in by_name, f"no tool {tool!r}"
    props = by_name[tool]["parameters"]["properties"]
    assert param in props, f"{tool} has no parameter {param!r}"
    return props[param]


def _enum_values(tools: list[dict[str, Any]]) -> set[str]:
    return {
        str(v).casefold()
        for t in tools
        for p in t["parameters"]["properties"].values()
        for v in p.get("enum", ())
    }


def test_counts_per_category_and_home() -> None:
    assert len(ROWS) >= 300
    homes = Counter(r["home"] for r in ROWS)
    assert len(homes) >= 10
    cats = Counter(r["category"] for r in ROWS)
    assert set(cats) == set(MIN_TOTAL), cats
    for cat, least in MIN_TOTAL.items():
        assert cats[cat] >= least, (cat, cats[cat])
    for home in homes:
        per = Counter(r["category"] for r in ROWS if r["home"] == home)
        for cat, least in MIN_PER_HOME.items():
            assert per[cat] >= least, (home, cat, per[cat])
        assert per["missing"] >= 2, home


def test_no_duplicate_queries_within_a_home() -> None:
    seen = Counter((r["home"], r["query"].casefold()) for r in ROWS)
    assert [k for k, n in seen.items() if n > 1] == []


@pytest.mark.parametrize("home", sorted({r["home"] for r in ROWS}))
def test_tools_are_the_configs_tools(home: str) -> None:
    tools = tools_from_config(HOMES / f"{home}.toml")
    assert 1 <= len(tools) <= 8
    for r in ROWS:
        if r["home"] == home:
            assert r["tools"] == tools, r["query"]


def test_answers_validate_against_their_tools() -> None:
    for r in ROWS:
        want = {"positive": 1, "two_actions": 2}.get(r["category"], 0)
        assert len(r["answers"]) == want, r["query"]
        tools = {t["name"]: t for t in r["tools"]}
        for call in r["answers"]:
            assert call["name"] in tools, (r["query"], call)
            problems = validate(call["arguments"], tools[call["name"]]["parameters"])
            assert problems == [], (r["query"], problems)


def test_unsupported_names_are_absent_from_the_tools() -> None:
    for r in (r for r in ROWS if r["category"] == "unsupported"):
        absent = r["absent"]
        if "=" in absent:
            where, _, name = absent.partition("=")
            tool, _, param = where.partition(".")
            enum = _param(r["tools"], tool, param)["enum"]
            assert name.casefold() not in {str(v).casefold() for v in enum}, r["query"]
        else:
            name = absent
            assert name.casefold() not in _enum_values(r["tools"]), r["query"]
            assert name not in {t["name"] for t in r["tools"]}, r["query"]
        assert name.casefold() in r["query"].casefold(), r["query"]


def test_invalid_numbers_are_out_of_range() -> None:
    for r in (r for r in ROWS if r["category"] == "invalid"):
        bad = r["out_of_range"]
        schema = _param(r["tools"], bad["name"], bad["param"])
        assert schema["type"] in ("integer", "number")
        value = bad["value"]
        assert value < schema["minimum"] or value > schema["maximum"], r["query"]
        assert str(value) in r["query"], r["query"]


def test_names_file_lists_every_chosen_name_and_no_demo_name() -> None:
    names = json.loads(NAMES.read_text(encoding="utf-8"))
    assert names == sorted(set(names)) and all(n == n.lower() for n in names)
    in_tools = set().union(*(_enum_values(r["tools"]) for r in ROWS))
    assert set(names) <= in_tools
    # every room and device label of every home is listed
    for r in ROWS:
        for t in r["tools"]:
            for key in ("room", "device", "relay", "led"):
                for v in t["parameters"]["properties"].get(key, {}).get("enum", ()):
                    assert v.lower() in names, (r["home"], v)
    # the bundled demo home is in training, so none of its names (rooms, colours, speeds) may
    # be held out
    demo = _enum_values(tools_from_config())
    assert "kitchen" in demo and not demo & set(names)


def test_generated_files_match_their_sources() -> None:
    cases, names = _maker().build()
    assert CASES.read_text(encoding="utf-8") == cases
    assert NAMES.read_text(encoding="utf-8") == names
