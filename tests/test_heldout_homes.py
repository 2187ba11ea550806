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
from tests.case_checks import (
    check_answers,
    check_invalid,
    check_unsupported,
    enum_values,
)

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
    check_answers(ROWS)


def test_unsupported_names_are_absent_from_the_tools() -> None:
    check_unsupported(ROWS)


def test_invalid_numbers_are_out_of_range() -> None:
    check_invalid(ROWS)


def test_names_file_lists_every_chosen_name_and_no_demo_name() -> None:
    names = json.loads(NAMES.read_text(encoding="utf-8"))
    assert names == sorted(set(names)) and all(n == n.lower() for n in names)
    in_tools = set().union(*(enum_values(r["tools"]) for r in ROWS))
    assert set(names) <= in_tools
    # every room and device label of every home is listed
    for r in ROWS:
        for t in r["tools"]:
            for key in ("room", "device", "relay", "led"):
                for v in t["parameters"]["properties"].get(key, {}).get("enum", ()):
                    assert v.lower() in names, (r["home"], v)
    # the bundled demo home is in training, so none of its names (rooms, colours, speeds) may
    # be held out
    demo = enum_values(tools_from_config())
    assert "kitchen" in demo and not demo & set(names)


def test_generated_files_match_their_sources() -> None:
    cases, names = _maker().build()
    assert CASES.read_text(encoding="utf-8") == cases
    assert NAMES.read_text(encoding="utf-8") == names
