"""Template-driven data synthesis: the sentences syntax, the contract of each category, output."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from agent.offline.train.synth import (
    Generator,
    TemplateError,
    number_words,
    parse_sentences,
    parse_template,
    synthesize,
    tools_from_config,
)
from devices.registry import validate

ROOT = Path(__file__).resolve().parents[1]
DEMO_INI = ROOT / "agent" / "data" / "demo_sentences.ini"

LIGHT = {
    "name": "set_light",
    "parameters": {
        "type": "object",
        "properties": {
            "room": {"type": "string", "enum": ["kitchen", "living room"]},
            "on": {"type": "boolean"},
            "brightness": {"type": "integer", "minimum": 0, "maximum": 100},
        },
        "required": ["room"],
    },
}
TIMER = {
    "name": "start_timer",
    "description": "Start a kitchen timer.",
    "parameters": {
        "type": "object",
        "properties": {
            "minutes": {"type": "integer", "minimum": 1, "maximum": 90},
            "label": {"type": "string", "enum": ["pasta", "eggs", "tea"]},
        },
        "required": ["minutes"],
    },
}


def expansions(src: str, n: int = 300, tool: dict | None = None) -> set[str]:
    g = Generator([tool or LIGHT], None, seed=1)
    tree = parse_template(src)
    return {g.sample(tree, (tool or LIGHT)["name"]).text for _ in range(n)}


def test_alternatives_optional_and_glue() -> None:
    assert expansions("(turn | switch) on [the] light[s]") == {
        f"{v} on{a} light{s}" for v in ("turn", "switch") for a in ("", " the") for s in ("", "s")
    }
    assert expansions("colo[u]r") == {"color", "colour"}
    assert expansions("a (b | [c] d) e") == {"a b e", "a c d e", "a d e"}


def test_slots_tags_and_ranges() -> None:
    g = Generator(
        [LIGHT], parse_sentences("[slot room]\nliving room = lounge | living room\n"), seed=2
    )
    tree = parse_template("turn on{on:true} the {room} light")
    seen = Counter()
    for _ in range(200):
        s = g.sample(tree, "set_light")
        assert s.args["on"] is True
        assert s.args["room"] in ("kitchen", "living room")
        seen[s.text] += 1
        if "lounge" in s.text:
            assert s.args["room"] == "living room"
    assert {
        "turn on the kitchen light",
        "turn on the lounge light",
        "turn on the living room light",
    } == set(seen)
    tree = parse_template("dim the {room} light to (10..20){brightness} percent")
    vals = set()
    for _ in range(300):
        s = g.sample(tree, "set_light")
        assert 10 <= s.args["brightness"] <= 20 and isinstance(s.args["brightness"], int)
        vals.add(s.args["brightness"])
        assert str(s.args["brightness"]) in s.text or number_words(s.args["brightness"]) in (
            s.text.replace("-", " ")
        )
    assert len(vals) == 11
    # A zero-width tag binds without words; a tag without value on words takes their value.
    s = g.sample(parse_template("too dark in the {room} {on:true}"), "set_light")
    assert s.args["on"] is True and s.text.startswith("too dark in the ")
    s = g.sample(parse_template("(lounge){room:living room} lights"), "set_light")
    assert s.args == {"room": "living room"}


def test_template_errors() -> None:
    for bad in ("(a | b", "a ]", "[x", "{", "a {}"):
        with pytest.raises(TemplateError):
            parse_template(bad)
    with pytest.raises(TemplateError, match="not declared"):
        Generator([LIGHT], parse_sentences("[set_fan]\nfan on{on:true}\n"))
    with pytest.raises(TemplateError, match="no parameter"):
        Generator([LIGHT], parse_sentences("[set_light]\nlight {colour}\n"))
    with pytest.raises(TemplateError, match="before any"):
        parse_sentences("turn on\n")
    with pytest.raises(TemplateError, match="request"):
        parse_sentences("[negation]\ndon't\n")


def test_number_words() -> None:
    assert number_words(0) == "zero"
    assert number_words(21) == "twenty one"
    assert number_words(21, hyphen=True) == "twenty-one"
    assert number_words(40) == "forty"
    assert number_words(100) == "one hundred"
    assert number_words(105) == "one hundred and five"
    assert number_words(20.5) == "twenty point five"
    assert number_words(-3) == "minus three"


def test_contract_per_category() -> None:
    tools = tools_from_config()
    by_name = {t["name"]: t for t in tools}
    rows = synthesize(tools, DEMO_INI, 1500, seed=3)
    cats = Counter(r["category"] for r in rows)
    assert set(cats) == {
        "positive",
        "two_actions",
        "negated",
        "off_topic",
        "unsupported",
        "missing",
    }
    for r in rows:
        assert set(r) >= {"query", "tools", "answers", "category"}
        assert r["tools"] == tools
        n = {"positive": 1, "two_actions": 2}.get(r["category"], 0)
        assert len(r["answers"]) == n, r
        for c in r["answers"]:
            schema = by_name[c["name"]]["parameters"]
            assert validate(c["arguments"], schema) == [], r
            # Keys in declared order: what the grammar emits.
            order = list(schema["properties"])
            keys = list(c["arguments"])
            assert keys == sorted(keys, key=order.index)
            assert c["arguments"], r  # never an empty call when the tool has parameters
        if r["category"] == "two_actions":
            a, b = r["answers"]
            assert a != b
    # Round trip through JSON as the vendor's loader reads it.
    assert json.loads(json.dumps(rows[0]))["query"] == rows[0]["query"]
    # Negated requests embed a real request; unsupported ones a value the tools do not have.
    neg = [r["query"].lower() for r in rows if r["category"] == "negated"]
    cues = ("n't", "dont", "not", "never", "no need", "never mind", "cancel", "forget")
    assert all(any(w in q for w in cues) for q in neg)
    uns = [r["query"].lower() for r in rows if r["category"] == "unsupported"]
    foreign = (
        "garage",
        "hallway",
        "office",
        "garden",
        "basement",
        "attic",
        "dining",
        "kids",
        "porch",
        "study",
        "kitchen",
        "bathroom",
    )
    # (a typo may hit the room's name itself: most queries still spell it out)
    hits = sum(any(room in q for room in foreign) for q in uns)
    assert uns and hits >= 0.9 * len(uns)


def test_missing_value_lines_refuse() -> None:
    sf = parse_sentences("[set_light]\nturn on{on:true} the light\n")
    g = Generator([LIGHT], sf, seed=0)
    s = g.missing()
    assert s is not None and s.text == "turn on the light"
    assert g.call("set_light", s.args) is None
    with pytest.raises(TemplateError):
        g.positive("set_light")  # no line of this tool yields a complete call


def test_schema_only_tools() -> None:
    rows = synthesize([TIMER], None, 200, seed=5)
    pos = [r for r in rows if r["category"] == "positive"]
    assert pos
    for r in pos:
        (c,) = r["answers"]
        assert c["name"] == "start_timer"
        assert validate(c["arguments"], TIMER["parameters"]) == []
        assert "minutes" in c["arguments"]
        assert "start" in r["query"].lower() or "timer" in r["query"].lower()
    assert any(r["category"] == "missing" for r in rows)
    assert any(r["category"] == "two_actions" for r in rows)


def test_deterministic_per_seed() -> None:
    tools = tools_from_config()
    a = synthesize(tools, DEMO_INI, 200, seed=7)
    b = synthesize(tools, DEMO_INI, 200, seed=7)
    c = synthesize(tools, DEMO_INI, 200, seed=8)
    assert a == b and a != c
    assert len({(r["query"].lower(), json.dumps(r["answers"])) for r in a}) == len(a)


def test_reasoning_and_system() -> None:
    g = Generator(
        [LIGHT],
        parse_sentences("[set_light]\nturn on{on:true} the {room} light\n"),
        seed=0,
        reasoning=True,
        system="location: Lisbon",
    )
    row = g.example("positive")
    assert row["system"] == "location: Lisbon"
    assert "room=" in row["reasoning"] and "on=true from 'on'" in row["reasoning"]


def test_demo_sentences_cover_every_tool() -> None:
    tools = tools_from_config()
    sf = parse_sentences(DEMO_INI.read_text(), str(DEMO_INI))
    assert set(sf.tools) == {t["name"] for t in tools}
    g = Generator(tools, sf, seed=0)
    rng = random.Random(0)
    for t in tools:
        for _ in range(5):
            s, c = g.positive(t["name"])
            assert c["name"] == t["name"] and s.text
    assert rng  # silence unused


def test_synth_cli(tmp_path: Path) -> None:
    import argparse

    from agent.offline.train.synth import add_arguments, read_jsonl, synth_main

    p = argparse.ArgumentParser()
    add_arguments(p)
    out = tmp_path / "d.jsonl"
    args = p.parse_args(
        [
            "--config",
            str(ROOT / "agent" / "data" / "default.toml"),
            "--sentences",
            str(DEMO_INI),
            "-n",
            "50",
            "--out",
            str(out),
        ]
    )
    assert synth_main(args) == 0
    assert len(read_jsonl(out)) == 50


def test_a_name_the_sentences_call_unknown_is_valid_where_the_home_has_it() -> None:
    # demo_sentences.ini lists "study", "garage" and "hallway" as unknown rooms: in a home that
    # has them they are requests, never refusals
    tools = tools_from_config(ROOT / "tests" / "data" / "voice_home2.toml")
    sf = parse_sentences((ROOT / "agent" / "data" / "demo_sentences.ini").read_text())
    rows = Generator(tools, sf, seed=4).generate(3000)
    rooms = {
        t["name"]: set(t["parameters"]["properties"]["room"]["enum"])
        for t in tools
        if "room" in t["parameters"]["properties"]
    }
    light_rooms = rooms["set_light"]
    assert {"study", "garage", "hallway"} <= light_rooms
    unsupported = [r["query"].lower() for r in rows if r["category"] == "unsupported"]
    assert unsupported
    for q in unsupported:
        if "light" in q and "blind" not in q and "shade" not in q:
            assert not any(room in q for room in light_rooms), q
    served = [c["arguments"].get("room") for r in rows for c in r["answers"]]
    assert {"study", "garage", "hallway"} <= set(served)
