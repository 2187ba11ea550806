"""The held-out homes' evaluation sets are well formed: enough homes and cases per category,
every expected call valid for its home's tools, every refusal really a refusal, and the tools
exactly what each home's config produces through the device kinds. The second set uses no name
the first uses or training draws from."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from agent.offline.train.synth import tools_from_config
from tests.case_checks import (
    check_answers,
    check_invalid,
    check_unsupported,
    enum_values,
)

DATA = Path(__file__).resolve().parent / "data"
# (cases, names, configs) of each set
SETS = {
    1: (DATA / "heldout_homes.jsonl", DATA / "heldout_homes_names.json", DATA / "homes"),
    2: (DATA / "heldout_homes2.jsonl", DATA / "heldout_homes2_names.json", DATA / "homes2"),
    3: (DATA / "heldout_homes3.jsonl", DATA / "heldout_homes3_names.json", DATA / "homes3"),
    4: (DATA / "heldout_homes4.jsonl", DATA / "heldout_homes4_names.json", DATA / "homes4"),
    5: (DATA / "heldout_homes5.jsonl", DATA / "heldout_homes5_names.json", DATA / "homes5"),
    6: (DATA / "heldout_homes6.jsonl", DATA / "heldout_homes6_names.json", DATA / "homes6"),
    7: (DATA / "heldout_homes7.jsonl", DATA / "heldout_homes7_names.json", DATA / "homes7"),
}

REFUSALS = ("unsupported", "invalid", "negated", "off_topic", "missing")
# Minimum counts per category over the whole set, and per home; a home with no numeric
# parameter cannot have an `invalid` case, so that one is only required of the whole set.
MIN_TOTAL = {"positive": 120, "two_actions": 40, **{c: 20 for c in REFUSALS}}
MIN_PER_HOME = {"positive": 10, "two_actions": 4, "unsupported": 2, "negated": 2, "off_topic": 2}


def _rows(which: int) -> list[dict[str, Any]]:
    text = SETS[which][0].read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


ROWS = {which: _rows(which) for which in SETS}


def _maker() -> Any:
    spec = importlib.util.spec_from_file_location(
        "make_heldout_homes", DATA / "make_heldout_homes.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("which", SETS)
def test_counts_per_category_and_home(which: int) -> None:
    rows = ROWS[which]
    assert len(rows) >= 300
    homes = Counter(r["home"] for r in rows)
    assert len(homes) >= 10
    cats = Counter(r["category"] for r in rows)
    assert set(cats) == set(MIN_TOTAL), cats
    for cat, least in MIN_TOTAL.items():
        assert cats[cat] >= least, (cat, cats[cat])
    for home in homes:
        per = Counter(r["category"] for r in rows if r["home"] == home)
        for cat, least in MIN_PER_HOME.items():
            assert per[cat] >= least, (home, cat, per[cat])
        assert per["missing"] >= 2, home


@pytest.mark.parametrize("which", SETS)
def test_no_duplicate_queries_within_a_home(which: int) -> None:
    seen = Counter((r["home"], r["query"].casefold()) for r in ROWS[which])
    assert [k for k, n in seen.items() if n > 1] == []


@pytest.mark.parametrize(
    "which,home", [(w, h) for w in SETS for h in sorted({r["home"] for r in ROWS[w]})]
)
def test_tools_are_the_configs_tools(which: int, home: str) -> None:
    tools = tools_from_config(SETS[which][2] / f"{home}.toml")
    assert 1 <= len(tools) <= 8
    for r in ROWS[which]:
        if r["home"] == home:
            assert r["tools"] == tools, r["query"]


@pytest.mark.parametrize("which", SETS)
def test_answers_validate_against_their_tools(which: int) -> None:
    check_answers(ROWS[which])


@pytest.mark.parametrize("which", SETS)
def test_unsupported_names_are_absent_from_the_tools(which: int) -> None:
    check_unsupported(ROWS[which])


@pytest.mark.parametrize("which", SETS)
def test_invalid_numbers_are_out_of_range(which: int) -> None:
    check_invalid(ROWS[which])


@pytest.mark.parametrize("which", SETS)
def test_names_file_lists_every_chosen_name_and_no_demo_name(which: int) -> None:
    rows = ROWS[which]
    names = json.loads(SETS[which][1].read_text(encoding="utf-8"))
    assert names == sorted(set(names)) and all(n == n.lower() for n in names)
    in_tools = set().union(*(enum_values(r["tools"]) for r in rows))
    assert set(names) <= in_tools
    # every room and device label of every home is listed
    for r in rows:
        for t in r["tools"]:
            for key in ("room", "device", "relay", "led"):
                for v in t["parameters"]["properties"].get(key, {}).get("enum", ()):
                    assert v.lower() in names, (r["home"], v)
    # the bundled demo home is in training, so none of its names (rooms, colours, speeds) may
    # be held out
    demo = enum_values(tools_from_config())
    assert "kitchen" in demo and not demo & set(names)


@pytest.mark.parametrize("which", [2, 3, 4, 5, 6, 7])
def test_a_later_set_uses_no_earlier_name_nor_one_of_training(which: int) -> None:
    """Written while the set before it was studied, a set shares no name with the earlier
    ones, and none of its names is one the recorded training split trains on."""
    from agent.offline.train.homes import name_split

    names = set(json.loads(SETS[which][1].read_text(encoding="utf-8")))
    earlier = set().union(
        *(json.loads(SETS[w][1].read_text(encoding="utf-8")) for w in SETS if w < which)
    )
    assert names and not names & earlier
    split = name_split()
    train = {n.lower() for k in ("rooms", "devices", "leds", "colors") for n in split[k]["train"]}
    train |= {w.strip().lower() for ss in split["speed_sets"]["train"] for w in ss.split("|")}
    assert not names & train


@pytest.mark.parametrize("which", SETS)
def test_generated_files_match_their_sources(which: int) -> None:
    cases, names = _maker().build(which)
    assert SETS[which][0].read_text(encoding="utf-8") == cases
    assert SETS[which][1].read_text(encoding="utf-8") == names


def test_the_writer_batch_checker_passes_a_good_batch_and_names_the_faults(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("cwb", DATA / "check_writer_batch.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    (tmp_path / "homes").mkdir()
    (tmp_path / "homes" / "zz_home.toml").write_text(
        '[devices.lights]\nkind = "simulated_lights"\nrooms = ["Zebedee\'s nook", "qwertyroom"]\n'
    )
    (tmp_path / "cases.txt").write_text(
        "## zz_home\n"
        'pos | qwertyroom light on | set_light room="qwertyroom" on=true\n'
        "uns | turn on the attic light | absent: attic\n"
        "inv | qwertyroom light to 150 percent | range: set_light.brightness=150\n"
    )
    assert mod.check(tmp_path) == []
    # a development set's names are taken too (rules are chosen on them)
    assert "flour store" in mod.taken_names()
    (tmp_path / "cases.txt").write_text(
        "## zz_home\n"
        'pos | qwertyroom light on | set_light room="kitchen" on=true\n'
        "inv | qwertyroom light to 50 percent | range: set_light.brightness=50\n"
    )
    (tmp_path / "homes" / "yy_home.toml").write_text(
        '[devices.lights]\nkind = "simulated_lights"\nrooms = ["kitchen"]\n'
        '[devices.leds]\nkind = "gpio_leds"\nleds = {"blue" = 20}\n'
    )
    faults = " ".join(mod.check(tmp_path))
    assert "'kitchen' is taken" in faults and "inside the range" in faults
    assert "'blue' is taken" in faults  # a colour the demo home trains on, as an LED's name
    assert "home yy_home has no cases" in faults and "kitchen" in faults
