"""The custom homes' evaluation set (for `needled train --config`) is well formed: every tool
renamed and re-described with a `log` kind among them, enough cases of each category, every
expected call valid for its home's tools, every refusal really a refusal, note messages the
user's own words, and names unseen by the held-out homes and the demo home."""

from __future__ import annotations

import importlib.util
import json
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from agent.offline.train.synth import tools_from_config
from devices import build_registry
from tests.case_checks import (
    check_answers,
    check_invalid,
    check_unsupported,
    enum_values,
)

DATA = Path(__file__).resolve().parent / "data"
HOMES = DATA / "custom_homes"
NAMES = HOMES / "names.json"
HELDOUT_NAMES = DATA / "heldout_homes_names.json"

HOME_NAMES = sorted(p.stem for p in HOMES.glob("*.toml"))
REFUSALS = ("unsupported", "invalid", "negated", "off_topic", "missing")


def _rows(home: str) -> list[dict[str, Any]]:
    text = (HOMES / f"{home}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


ROWS = {home: _rows(home) for home in HOME_NAMES}
ALL = [r for rows in ROWS.values() for r in rows]


def _devices(home: str) -> dict[str, dict[str, Any]]:
    return tomllib.loads((HOMES / f"{home}.toml").read_text(encoding="utf-8"))["devices"]


def _log_tools(home: str) -> set[str]:
    return {t.get("tool", "log_message") for t in _devices(home).values() if t["kind"] == "log"}


def test_at_least_two_homes() -> None:
    assert len(HOME_NAMES) >= 2
    assert all(set(r["home"] for r in ROWS[h]) == {h} for h in HOME_NAMES)


@pytest.mark.parametrize("home", HOME_NAMES)
def test_every_tool_is_renamed_and_redescribed_with_a_log_kind(home: str) -> None:
    devices = _devices(home)
    assert 3 <= len(devices) <= 6
    assert "log" in {t["kind"] for t in devices.values()}
    # the same devices without the overrides give the kinds' own names and descriptions
    plain = {
        k: {key: v for key, v in t.items() if key not in ("tool", "description")}
        for k, t in devices.items()
    }
    for own, kind in zip(
        tools_from_config(HOMES / f"{home}.toml"), build_registry(plain).tools(), strict=True
    ):
        assert own["name"] != kind["name"]
        assert own["description"] != kind["description"]
        assert own["parameters"] == kind["parameters"]


@pytest.mark.parametrize("home", HOME_NAMES)
def test_counts_per_category(home: str) -> None:
    rows = ROWS[home]
    assert len(rows) >= 40
    cats = Counter(r["category"] for r in rows)
    assert set(cats) == {"positive", "two_actions", *REFUSALS}, cats
    assert 0.5 <= cats["positive"] / len(rows) <= 0.7, cats
    assert 0.12 <= cats["two_actions"] / len(rows) <= 0.2, cats
    for cat in REFUSALS:
        assert cats[cat] >= 2, (cat, cats)
    # notes are the new kind, but a home is mostly its devices: at most a fifth of the positives
    logs = _log_tools(home)
    notes = sum(r["answers"][0]["name"] in logs for r in rows if r["category"] == "positive")
    assert 1 <= notes <= cats["positive"] // 5, notes


def test_no_duplicate_queries_within_a_home() -> None:
    seen = Counter((r["home"], r["query"].casefold()) for r in ALL)
    assert [k for k, n in seen.items() if n > 1] == []


@pytest.mark.parametrize("home", HOME_NAMES)
def test_tools_are_the_configs_tools(home: str) -> None:
    tools = tools_from_config(HOMES / f"{home}.toml")
    for r in ROWS[home]:
        assert r["tools"] == tools, r["query"]


def test_answers_validate_against_their_tools() -> None:
    check_answers(ALL)


def test_notes_are_the_users_own_words() -> None:
    # exact match on a free-text message is only fair when the words are in the query verbatim
    for r in ALL:
        for call in r["answers"]:
            if call["name"] in _log_tools(r["home"]):
                message = call["arguments"]["message"]
                assert message in r["query"], r["query"]
                assert len(message.split()) <= 10, r["query"]


def test_unsupported_names_are_absent_from_the_tools() -> None:
    check_unsupported(ALL)


def test_invalid_numbers_are_out_of_range() -> None:
    check_invalid(ALL)


def test_names_are_listed_and_unseen_by_heldout_and_demo_homes() -> None:
    names = json.loads(NAMES.read_text(encoding="utf-8"))
    assert names == sorted(set(names)) and all(n == n.lower() for n in names)
    for r in ALL:
        for t in r["tools"]:
            for key in ("room", "device", "relay", "led"):
                for v in t["parameters"]["properties"].get(key, {}).get("enum", ()):
                    assert v.lower() in names, (r["home"], v)
    heldout = set(json.loads(HELDOUT_NAMES.read_text(encoding="utf-8")))
    assert "study" in heldout and not heldout & set(names)
    demo = enum_values(tools_from_config())
    assert "kitchen" in demo and not demo & set(names)


def test_generated_files_match_their_sources() -> None:
    path = DATA / "make_custom_homes.py"
    spec = importlib.util.spec_from_file_location("make_custom_homes", path)
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    files = maker.build()
    assert set(files) == {NAMES, *(HOMES / f"{h}.jsonl" for h in HOME_NAMES)}
    for path, text in files.items():
        assert path.read_text(encoding="utf-8") == text, path.name
