"""Training data over generated homes: names come from the training side of the split, a word
is valid in one home and refused in another, refusals are what their category says."""

from __future__ import annotations

import random

import pytest

from agent.offline.train import homes as H
from agent.offline.train.synth import parse_sentences
from devices.registry import validate

ROWS, RECORD = H.synthesize_homes(160, 24, seed=3)
ROWS_V3, RECORD_V3 = H.synthesize_homes(120, 16, seed=5, data_version=3)


def _enum_values(tools: list[dict]) -> set[str]:
    out = set()
    for t in tools:
        for p in t["parameters"].get("properties", {}).values():
            out |= {str(v).lower() for v in p.get("enum", [])}
    return out


def test_training_and_evaluation_names_are_disjoint() -> None:
    held = H.heldout_names()
    assert held, "the held-out homes' names file must be in the repository"
    split = H.name_split()
    for key, side in split.items():
        train = {str(n).lower() for n in side["train"]}
        assert not train & {str(n).lower() for n in side["eval"]}, key
    for r in ROWS:
        leaked = _enum_values(r["tools"]) & held
        assert not leaked, (r["query"], leaked)


def test_every_answer_is_a_valid_call_of_its_own_tools() -> None:
    for r in ROWS:
        by_name = {t["name"]: t for t in r["tools"]}
        assert 1 <= len(r["tools"]) <= RECORD["max_tools"] <= 11
        for call in r["answers"]:
            assert call["name"] in by_name, r
            assert validate(call["arguments"], by_name[call["name"]]["parameters"]) == [], r


def test_schemas_are_the_device_handlers_own() -> None:
    rng = random.Random(5)
    pools = {k: v["train"] for k, v in H.name_split().items()}
    for _ in range(30):
        devices = H.random_home(rng, pools)
        tools = H.home_tools(devices)
        assert 1 <= len(devices) <= 8
        assert len(tools) == len(devices)
        assert len({t["name"] for t in tools}) == len(tools)
        # The sentences parse and name only declared tools and parameters.
        sf = parse_sentences(H.home_sentences(devices, tools, rng, pools))
        assert set(sf.tools) <= {t["name"] for t in tools}


def test_a_name_is_valid_in_one_home_and_refused_in_another() -> None:
    called: set[str] = set()
    refused_queries: list[tuple[str, set[str]]] = []
    for r in ROWS:
        for c in r["answers"]:
            called |= {v.lower() for v in c["arguments"].values() if isinstance(v, str)}
        if r["category"] == "unsupported":
            refused_queries.append((r["query"].lower(), _enum_values(r["tools"])))
    both = [
        n
        for n in called
        if len(n) > 4 and any(n in q and n not in have for q, have in refused_queries)
    ]
    assert both, "no name is both called in one home and unsupported in another"


def test_invalid_examples_say_a_number_outside_the_range() -> None:
    inv = [r for r in ROWS if r["category"] == "invalid"]
    assert len(inv) >= 20
    for r in inv:
        assert r["answers"] == []
    # The generator's out-of-range draw: above the maximum or below the minimum, never inside.
    g = H.Generator([], None, seed=1)
    schema = {"type": "integer", "minimum": 0, "maximum": 100}
    for _ in range(200):
        v = g._number_outside(schema)
        assert v > 100 or v < 0


def test_category_mix_and_record() -> None:
    cats = {r["category"] for r in ROWS}
    assert cats == set(H.HOME_MIX)
    assert set(RECORD["kinds"]) <= set(H.HOME_KINDS)
    assert RECORD["max_enum_values"] <= 10
    assert RECORD["general_schemas"] is True
    # Groups share their tools, so the trainer computes each home's prefix once per batch.
    assert len({str(r["tools"]) for r in ROWS}) >= 120


@pytest.mark.parametrize("seed", [0, 9])
def test_deterministic_per_seed(seed: int) -> None:
    a, _ = H.synthesize_homes(6, 8, seed=seed)
    b, _ = H.synthesize_homes(6, 8, seed=seed)
    assert a == b


def test_renamed_tools_read_as_their_kind_and_avoid_held_out_words() -> None:
    rng = random.Random(11)
    names = {k: {H.made_tool_name(k, rng) for _ in range(200)} for k in H.HOME_KINDS}
    for kind, made in names.items():
        # many distinct names per kind, none using a word of the held-out homes' tool names
        assert len(made) >= 30, (kind, len(made))
        for n in made:
            assert not set(n.split("_")) & H.HELDOUT_TOOL_WORDS, n
            assert H.tool_noun(kind, n) is not None, n
    assert H.tool_noun("simulated_thermostat", "set_heat_pump") == "heat pump"
    assert H.tool_noun("simulated_thermostat", "set_light") is None
    # a description names the tool's own device when the name has one
    described = [H.made_description("simulated_blinds", rng, "set_shutters") for _ in range(50)]
    assert sum("shutters" in d.lower() for d in described) >= 25
    assert all(d[:1].isupper() and "{" not in d for d in described)


def test_requests_use_the_word_a_renamed_tool_chose() -> None:
    rng = random.Random(2)
    pools = {k: v["train"] for k, v in H.name_split().items()}
    devices = {"d0": {"kind": "simulated_thermostat", "tool": "set_radiator"}}
    tools = H.home_tools(devices)
    text = H.home_sentences(devices, tools, rng, pools)
    sf = parse_sentences(text)
    assert "(thermostat | radiator)" in text
    from agent.offline.train.synth import Generator

    rows = Generator(tools, sf, seed=1, mix={"positive": 1.0}).generate(300)
    assert any("radiator" in r["query"] for r in rows)
    assert all(c["name"] == "set_radiator" for r in rows for c in r["answers"])


def test_adapting_a_notes_tool_speaks_the_owners_description() -> None:
    from agent.offline.train.synth import Generator

    rng = random.Random(4)
    pools = {k: v["train"] for k, v in H.name_split().items()}
    devices = {
        "d0": {
            "kind": "log",
            "tool": "staff_board",
            "description": "Pin a short note on the board.",
        }
    }
    tools = H.home_tools(devices)
    text = H.home_sentences(devices, tools, rng, pools, more_phrasings=True)
    rows = Generator(tools, parse_sentences(text), seed=1, mix={"positive": 1.0}).generate(400)
    queries = [r["query"].lower() for r in rows]
    # the description's verb and place, and the colon form people write notes in
    assert any("pin a note:" in q for q in queries)
    assert any("on the board" in q for q in queries)
    for r in rows:
        for call in r["answers"]:
            assert validate(call["arguments"], tools[0]["parameters"]) == [], r
    # notes that do not start with "the": a note is a fragment as often as a sentence
    notes = {c["arguments"]["message"] for r in rows for c in r["answers"]}
    assert sum(not n.startswith("the ") for n in notes) >= len(notes) // 3
    # a description with no verb and place leaves the stock phrasings
    assert H.own_log_phrasings("Keep a note.") == H.own_log_phrasings("")


def test_held_out_tool_names_never_reach_training() -> None:
    import json
    from pathlib import Path

    data = Path(__file__).parent / "data"
    held = set()
    for f in [data / "heldout_homes.jsonl", *sorted((data / "custom_homes").glob("*.jsonl"))]:
        for line in f.read_text().splitlines():
            held |= {t["name"] for t in json.loads(line)["tools"]}
    defaults = {"set_light", "set_thermostat", "set_blinds", "set_fan", "set_switch"}
    defaults |= {"set_relay", "set_led", "log_message", "set_lamp", "set_plug"}
    for rows in (ROWS, ROWS_V3):  # version 3 also builds tool names from a home's own words
        trained = {t["name"] for r in rows for t in r["tools"]}
        assert not (held - defaults) & trained


ROWS_V2, RECORD_V2 = H.synthesize_homes(120, 16, seed=4, data_version=2)


def test_version_1_is_the_recorded_data() -> None:
    # the bundled model's command must still rebuild its data
    again, _ = H.synthesize_homes(160, 24, seed=3, data_version=1)
    assert again == ROWS
    assert RECORD["data_version"] == 1 and RECORD_V2["data_version"] == 2


def test_version_2_keeps_held_out_names_out_of_the_demo_homes_refusals() -> None:
    from agent.offline.train.synth import tools_from_config

    held = H.heldout_names()
    text = H.DEMO_SENTENCES.read_text(encoding="utf-8")

    def unknowns(t: str) -> list[set[str]]:
        lines = [x for x in t.splitlines() if x.startswith("_unknown = ")]
        return [{n.strip().lower() for n in x[11:].split("|")} for x in lines]

    # the sentences file names rooms that are never valid in training ("study", "porch",
    # "garage": held out or on the evaluation side of the split) as unsupported
    rooms = H.name_split()["rooms"]
    never_valid = held | {n.lower() for n in rooms["eval"]}
    assert all(u & never_valid for u in unknowns(text))
    train = {n.lower() for n in rooms["train"]}
    for seed in range(5):
        fresh = unknowns(H._fresh_unknowns(text, random.Random(seed), rooms["train"]))
        for old, new in zip(unknowns(text), fresh, strict=True):
            assert len(new) == len(old) and new <= train | {"kitchen", "bathroom"}
            assert old & {"kitchen", "bathroom"} <= new  # the home's own, unsupported here
    demo = tools_from_config(H.DEMO_CONFIG)
    assert any(r["tools"] == demo and r["category"] == "unsupported" for r in ROWS_V2)


def test_version_2_invents_names_as_often_valid_as_refused() -> None:
    pools = {k: {n.lower() for n in v["train"]} for k, v in H.name_split().items()}
    known = pools["rooms"] | pools["devices"] | pools["leds"] | {"kitchen", "bathroom"}
    valid_new = refused_new = 0
    for r in ROWS_V2:
        new = {v for v in _enum_values(r["tools"]) if v not in known} - {
            v.lower() for v in pools["colors"]
        }
        names = [v for v in new if not v.isdigit() and v not in ("on", "off", "toggle")]
        for call in r["answers"]:
            valid_new += any(str(a).lower() in names for a in call["arguments"].values())
        refused_new += r["category"] == "unsupported" and not any(
            n in r["query"].lower() for n in _enum_values(r["tools"])
        )
    assert valid_new > 50 and refused_new > 20
    held = H.heldout_names()
    for r in ROWS_V2:
        assert not _enum_values(r["tools"]) & held


def test_the_unseen_names_dev_set_avoids_training_and_held_out_names() -> None:
    rows, _ = H.synthesize_homes(30, 6, seed=4244, names="unseen", demo_share=0.0)
    split = H.name_split()
    train = {n.lower() for k in ("rooms", "devices") for n in split[k]["train"]}
    unseen = {n.lower() for k in ("rooms", "devices") for n in split[k]["eval"]}
    held = H.heldout_names()
    seen_unseen = set()
    for r in rows:
        values = {
            str(v).lower()
            for t in r["tools"]
            for k, p in t["parameters"].get("properties", {}).items()
            if k in ("room", "device", "relay")
            for v in p.get("enum", [])
        }
        assert not values & held
        assert not values & train
        seen_unseen |= values & unseen
    assert len(seen_unseen) > 20
    with pytest.raises(ValueError):
        H.synthesize_homes(1, 1, names="eval")


def test_version_3_invents_colours_speeds_and_tool_names_and_keeps_held_out_out() -> None:
    split = H.name_split()
    colors = {n.lower() for n in split["colors"]["train"] + split["colors"]["eval"]}
    speeds = {s.lower() for ss in split["speed_sets"]["train"] for s in ss.split(" | ")}
    speeds |= {s.lower() for s in split["speed_sets"]["eval"]}
    made_colors = made_speeds = 0
    held = H.heldout_names()
    for r in ROWS_V3:
        assert not _enum_values(r["tools"]) & held
        for t in r["tools"]:
            props = t["parameters"].get("properties", {})
            made_colors += len({c.lower() for c in props.get("color", {}).get("enum", [])} - colors)
            made_speeds += len({s.lower() for s in props.get("speed", {}).get("enum", [])} - speeds)
    assert made_colors > 20 and made_speeds > 5
    assert RECORD_V3["data_version"] == 3 and RECORD_V3["invented_homes"] == 0.75
    with pytest.raises(ValueError):
        H.synthesize_homes(1, 1, data_version=8)


def test_version_4_is_version_2_with_the_short_phrasings() -> None:
    rows, record = H.synthesize_homes(60, 8, seed=4, data_version=4)
    again, _ = H.synthesize_homes(60, 8, seed=4, data_version=2)
    assert record["invented_homes"] == 0.5 and record["data_version"] == 4
    # the same homes and tools, asked in more ways
    assert [r["tools"] for r in rows] == [r["tools"] for r in again]
    assert {r["query"] for r in rows} != {r["query"] for r in again}


def test_version_3_has_the_short_phrasings_and_valid_calls() -> None:
    short = [r for r in ROWS_V3 if r["query"].lower().startswith("make the ") and r["answers"]]
    colour = [
        r
        for r in short
        if any("color" in c["arguments"] and "on" not in c["arguments"] for c in r["answers"])
    ]
    assert colour, "no 'make the <room> <colour>' request"
    for r in ROWS_V3:
        by_name = {t["name"]: t for t in r["tools"]}
        for call in r["answers"]:
            assert call["name"] in by_name
            assert not validate(call["arguments"], by_name[call["name"]]["parameters"])


ROWS_V5, RECORD_V5 = H.synthesize_homes(150, 16, seed=6, data_version=5)


def _names_by_tool(tools: list[dict]) -> dict[str, set[str]]:
    out = {}
    for t in tools:
        props = t["parameters"].get("properties", {})
        for key in ("room", "device", "relay", "led"):
            if "enum" in props.get(key, {}):
                out[t["name"]] = {str(v).lower() for v in props[key]["enum"]}
    return out


def test_version_5_puts_look_alike_tools_side_by_side_with_their_own_names() -> None:
    assert RECORD_V5["lookalike_homes"] == 0.4 and RECORD_V5["data_version"] == 5
    twins = 0
    for r in ROWS_V5:
        lights = [t for t in r["tools"] if "brightness" in t["parameters"].get("properties", {})]
        if len(lights) < 2:
            continue
        twins += 1
        names = _names_by_tool(lights)
        a, b = (names[t["name"]] for t in lights[:2])
        assert a and b and not a & b, r["tools"]  # only the names tell the two apart
        for call in r["answers"]:
            assert (
                validate(
                    call["arguments"],
                    next(t for t in r["tools"] if t["name"] == call["name"])["parameters"],
                )
                == []
            )
    # one row in ten or more asks a home with two lights tools
    assert twins >= len(ROWS_V5) // 10


def _unknowns(text: str) -> dict[str, set[str]]:
    """`[slot tool.param]` -> the names its `_unknown` line refuses."""
    out, slot = {}, None
    for line in text.splitlines():
        if line.startswith("[slot "):
            slot = line[6:-1]
        elif line.startswith("_unknown = ") and slot:
            out[slot] = {n.strip().lower() for n in line[11:].split("|")}
    return out


def test_version_5_never_refuses_a_name_another_tool_of_the_home_serves() -> None:
    # small pools, so a refusal drawn for one tool would surely hit the other's names
    pools = {k: v["train"] for k, v in H.name_split().items()}
    pools["devices"] = ["kettle", "pond pump", "heater", "radio", "fridge", "lamp", "printer"]
    pools["rooms"] = ["kitchen", "porch", "hall", "study", "den", "loft", "garage", "cellar"]
    devices = {
        "plugs": {"kind": "tasmota", "switches": {"kettle": "k"}},
        "board": {"kind": "gpio_relays", "relays": {"pond pump": 5}},
        "lights": {"kind": "simulated_lights", "rooms": ["kitchen"]},
        "outside": {"kind": "simulated_lights", "rooms": ["porch"], "tool": "porch_lights"},
        "covers": {"kind": "simulated_blinds", "rooms": ["study"]},
    }
    tools = H.home_tools(devices)
    wide = _unknowns(H.home_sentences(devices, tools, random.Random(1), pools, home_wide=True))
    assert "pond pump" not in wide["set_switch.device"]
    assert "kettle" not in wide["set_relay.relay"]
    assert "porch" not in wide["set_light.room"] and "kitchen" not in wide["porch_lights.room"]
    # a light in the study is still no light: the blinds' rooms stay refusable for lights
    assert "study" in wide["set_light.room"] and "study" in wide["porch_lights.room"]
    narrow = _unknowns(H.home_sentences(devices, tools, random.Random(1), pools))
    assert "pond pump" in narrow["set_switch.device"]  # what version 2 taught


def test_version_2_rows_do_not_change_with_version_5() -> None:
    # the bundled model's earlier stages must still rebuild their data
    rng = random.Random(9)
    pools = {k: v["train"] for k, v in H.name_split().items()}
    a = H.random_home(rng, pools)
    b = H.random_home(random.Random(9), pools, lookalike=0.0)
    assert a == b


def test_version_5_asks_lights_with_a_transition_to_fade_over_seconds() -> None:
    faded = [r for r in ROWS_V5 if any("transition" in c["arguments"] for c in r["answers"])]
    assert len(faded) >= 20
    for r in faded:
        call = next(c for c in r["answers"] if "transition" in c["arguments"])
        tool = next(t for t in r["tools"] if t["name"] == call["name"])
        assert "transition" in tool["parameters"]["properties"]
        assert "sec" in r["query"].lower()  # typos included ("secconds")
        assert 1 <= call["arguments"]["transition"] <= 60
    # no earlier version says a transition
    assert not any("transition" in c["arguments"] for r in ROWS_V3 for c in r["answers"])


ROWS_V7, RECORD_V7 = H.synthesize_homes(80, 16, seed=6, data_version=7)


def test_version_6_teaches_lists_of_three_and_four_on_version_2_homes() -> None:
    rows, record = H.synthesize_homes(60, 16, seed=4, data_version=6)
    again, _ = H.synthesize_homes(60, 16, seed=4, data_version=2)
    assert [r["tools"] for r in rows] == [r["tools"] for r in again]
    sizes = [len(r["answers"]) for r in rows if r["category"] == "two_actions"]
    assert all(2 <= n <= 4 for n in sizes)
    assert sizes.count(3) >= 0.2 * len(sizes) and 4 in sizes
    # version 2 said lists of two only, so a model trained on it learns to stop at the second
    assert {len(r["answers"]) for r in again if r["category"] == "two_actions"} == {2}
    assert record["list_actions"] == {"2": 0.6, "3": 0.32, "4": 0.08}
    for r in rows:
        by_name = {t["name"]: t for t in r["tools"]}
        calls = r["answers"]
        for i, c in enumerate(calls):
            assert validate(c["arguments"], by_name[c["name"]]["parameters"]) == [], r
            assert all(c != d for d in calls[:i]), r  # no request said twice


def test_version_7_says_one_request_over_several_names() -> None:
    from agent.offline.train.synth import Generator

    pools = {k: v["train"] for k, v in H.name_split().items()}
    rng = random.Random(2)
    said = 0
    for _ in range(6):
        devices = H.random_home(rng, pools)
        tools = H.home_tools(devices)
        sf = parse_sentences(H.home_sentences(devices, tools, rng, pools))
        gen = Generator(tools, sf, seed=7, shared=H.SHARED_PARAMS, shared_share=1.0)
        for _ in range(30):
            r = gen._shared_example()
            if r is None:
                continue  # this home's tools have no name to share
            said += 1
            calls = r["answers"]
            first = calls[0]["arguments"]
            assert {c["name"] for c in calls} == {calls[0]["name"]}, r
            assert all(set(c["arguments"]) == set(first) for c in calls), r
            (key,) = {k for c in calls for k, v in c["arguments"].items() if v != first[k]}
            assert key in H.SHARED_PARAMS, r
            assert len({c["arguments"][key] for c in calls}) == len(calls) in (2, 3), r
            assert " and " in r["query"].lower(), r
    assert said >= 60
    # in the version's own data, lists over names sit beside plain lists
    assert any(len(r["answers"]) == 3 for r in ROWS_V7 if r["category"] == "two_actions")


def test_version_7_remarks_ask_nothing() -> None:
    from agent.offline.train.synth import _REMARKS

    remarked = [r for r in ROWS_V7 if any(m.lower() in r["query"].lower() for m in _REMARKS)]
    assert len(remarked) >= 40
    assert {r["category"] for r in remarked} <= {"positive", "two_actions"}
    for r in remarked:
        said = " ".join(str(v) for c in r["answers"] for v in c["arguments"].values()).lower()
        # a remark carries no value: every argument is said by the request around it
        assert all(m.lower() not in said for m in _REMARKS if m in r["query"]), r
    # the remarks and the names never meet the held-out homes' names
    held = H.heldout_names()
    assert not {m.lower() for m in _REMARKS} & held
