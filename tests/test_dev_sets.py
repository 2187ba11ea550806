"""The hand-written development sets (bench/dev_handwritten.py, dev_coordination.py and
dev_custom_home.py) choose decoding rules and adapting settings, so they must be well formed and
must never reuse a name of the held-out homes or the held-out custom homes (or those would be
chosen on too)."""

from __future__ import annotations

import importlib.util
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from agent.offline.train.synth import tools_from_config
from tests.case_checks import check_answers

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
NAMED = ("room", "device", "relay", "led")


def _load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _held_out_names() -> set[str]:
    names = json.loads((DATA / "heldout_homes_names.json").read_text(encoding="utf-8"))
    names += json.loads((DATA / "custom_homes" / "names.json").read_text(encoding="utf-8"))
    return {n.casefold() for n in names}


@pytest.mark.parametrize(
    "script",
    [
        "dev_handwritten",
        "dev_custom_home",
        "dev_coordination",
        "dev_switches",
        "dev_everyday",
        "dev_speakers",
        "dev_lists",
    ],
)
def test_dev_cases_are_valid_and_name_nothing_held_out(script: str) -> None:
    rows = _load(script).rows()
    check_answers(rows)
    held = _held_out_names()
    for r in rows:
        for t in r["tools"]:
            for key in NAMED:
                for v in t["parameters"]["properties"].get(key, {}).get("enum", ()):
                    assert v.casefold() not in held, (script, v)


def test_the_dev_custom_home_config_gives_its_cases_tools(tmp_path: Path) -> None:
    mod = _load("dev_custom_home")
    config = tmp_path / "home.toml"
    config.write_text(mod.CONFIG)
    tools = tools_from_config(config)
    assert all(r["tools"] == tools for r in mod.rows())
    # every tool renamed: none of the kinds' default names is left
    assert not {t["name"] for t in tools} & {"set_light", "set_thermostat", "set_fan"}
    assert "log" in {d["kind"] for d in tomllib.loads(mod.CONFIG)["devices"].values()}
    # the custom home's colours and speeds are not the held-out ones either
    held = _held_out_names()
    for t in tools:
        for key in ("color", "speed"):
            for v in t["parameters"]["properties"].get(key, {}).get("enum", ()):
                assert v.casefold() not in held, v
