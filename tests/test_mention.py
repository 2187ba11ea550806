"""The mention prior: names the request says win close calls among the grammar's choices, and
calls that put an unsaid name in a room/device argument are flagged."""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
import pytest
from conftest import GOLDEN

from agent.calling.grammar import TokenMasker, compile_calls, decode_call
from agent.calling.grammar.masker import vocab_from_sentencepiece
from agent.calling.grammar.mention import (
    ONLY_NAME,
    TOOL_BOOST,
    MentionPrior,
    _unheld,
)
from agent.calling.grammar.reading import (
    clause_numbers,
    mended,
    resolve_there,
    switch_senses,
    unnamed_arguments,
    with_name_digits,
    with_setting_digits,
    with_typos_mended,
    words,
)
from agent.calling.rangecheck import Said


def _tool(
    name: str,
    properties: dict,
    required: Sequence[str] = (),
    description: str | None = None,
) -> dict:
    """A tool schema with these parameters (and a description, when given)."""
    params: dict = {"type": "object", "properties": properties}
    if required:
        params["required"] = list(required)
    return {
        "name": name,
        **({"description": description} if description else {}),
        "parameters": params,
    }


RELAY = {
    "name": "set_relay",
    "parameters": {
        "type": "object",
        "properties": {
            "relay": {"type": "string", "enum": ["aquarium pump", "aquarium heater", "kettle"]},
            "on": {"type": "boolean"},
        },
        "required": ["relay", "on"],
    },
}
LED = {
    "name": "set_led",
    "parameters": {
        "type": "object",
        "properties": {
            "led": {"type": "string", "enum": ["status", "wifi"]},
            "mode": {"type": "string", "enum": ["on", "off", "blink"]},
        },
        "required": ["led", "mode"],
    },
}
BLINDS = {
    "name": "set_blinds",
    "parameters": {
        "type": "object",
        "properties": {
            "room": {"type": "string", "enum": ["Ana's room", "study"]},
            "position": {"type": "integer", "minimum": 0, "maximum": 100},
        },
        "required": ["room", "position"],
    },
}


@pytest.fixture(scope="module")
def vocab() -> tuple[list[bytes], list[int]]:
    spm = pytest.importorskip("sentencepiece")
    sp = spm.SentencePieceProcessor(model_file=str(GOLDEN / "tok1024.model"))
    return vocab_from_sentencepiece(sp)


def _text(calls: list[dict]) -> bytes:
    return json.dumps(calls, ensure_ascii=False, separators=(",", ":")).encode()


def _decode(
    vocab: tuple[list[bytes], list[int]],
    tools: list[dict],
    query: str,
    wants: Sequence[tuple[list[dict], float]],
    weight: float,
    settle: bool = False,
) -> list[dict]:
    """Decode with a stand-in model that scores each allowed token by the best of `wants` (call
    lists with a preference) that the text so far plus the token is still a prefix of."""
    token_bytes, special = vocab
    masker = TokenMasker(compile_calls(tools), token_bytes, special)
    texts = [(_text(calls), pref) for calls, pref in wants]
    fed: list[int] = []

    def score(cands: np.ndarray) -> np.ndarray:
        done = b"".join(token_bytes[t] for t in fed[1:])  # after <tool_call>
        out = np.zeros(len(cands))
        for i, t in enumerate(cands):
            data = done + token_bytes[int(t)]
            for text, pref in texts:
                if text.startswith(data) or (int(t) == masker.end_id and done == text):
                    out[i] = max(out[i], pref)
        return out

    prior = MentionPrior(query, tools, token_bytes, weight, settle=settle)
    res = decode_call(
        masker, masker.automaton.start, score, 200, on_token=fed.append, bias_fn=prior
    )
    assert not res.closed_by_budget
    assert res.ok, res.error
    return res.calls


PUMP_ON = [{"name": "set_relay", "arguments": {"relay": "aquarium pump", "on": True}}]
HEATER_ON = [{"name": "set_relay", "arguments": {"relay": "aquarium heater", "on": True}}]


def test_the_named_device_wins_a_close_call(vocab: tuple[list[bytes], list[int]]) -> None:
    wants = [(PUMP_ON, 2.0), (HEATER_ON, 1.0)]
    assert _decode(vocab, [RELAY], "aquarium heater on please", wants, 0.0) == PUMP_ON
    assert _decode(vocab, [RELAY], "aquarium heater on please", wants, 5.0) == HEATER_ON


def test_the_one_name_said_in_full_outweighs_a_familiar_one(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    glow = {
        "name": "glow",
        "parameters": {
            "type": "object",
            "properties": {
                "room": {"type": "string", "enum": ["bar", "harbour room"]},
                "color": {"type": "string", "enum": ["bright white", "harbour blue", "ember"]},
            },
        },
    }

    def color(c: str) -> list[dict]:
        return [{"name": "glow", "arguments": {"room": "bar", "color": c}}]

    # a lead of 8 beats the plain weight (5) but not the weight of the only name said (15)
    wants = [(color("bright white"), 9.0), (color("harbour blue"), 1.0)]
    assert _decode(vocab, [glow], "set the bar to harbour blue", wants, 5.0) == color(
        "harbour blue"
    )
    # two colours said: each keeps the plain weight, and the lead decides
    query = "set the bar to harbour blue or ember"
    assert _decode(vocab, [glow], query, wants, 5.0) == color("bright white")


def test_a_confident_model_still_decides(vocab: tuple[list[bytes], list[int]]) -> None:
    # a bias, not an override: a margin above the weight (that of the only name said, here)
    # keeps the model's choice
    wants = [(PUMP_ON, 1.0 + 5.0 * ONLY_NAME + 1.0), (HEATER_ON, 1.0)]
    assert _decode(vocab, [RELAY], "aquarium heater on please", wants, 5.0) == PUMP_ON


def test_the_choice_to_refuse_is_never_biased(vocab: tuple[list[bytes], list[int]]) -> None:
    wants = [([], 2.0), (HEATER_ON, 1.5)]
    assert _decode(vocab, [RELAY], "aquarium heater on please", wants, 50.0) == []


def test_a_second_call_moves_on_to_the_next_named_thing(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    off = {"name": "set_relay", "arguments": {"relay": "aquarium pump", "on": False}}
    heater_off = {"name": "set_relay", "arguments": {"relay": "aquarium heater", "on": False}}
    query = "turn off the aquarium pump and the aquarium heater"
    wants = [([off, off], 2.0), ([off, heater_off], 1.0)]
    assert _decode(vocab, [RELAY], query, wants, 0.0) == [off, off]
    assert _decode(vocab, [RELAY], query, wants, 5.0) == [off, heater_off]


def _relay(name: str, on: bool) -> dict:
    return {"name": "set_relay", "arguments": {"relay": name, "on": on}}


def test_an_unsaid_verb_carries_over_to_the_next_thing(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    # "off" is said once, yet governs both things; the model's lean to `true` loses
    query = "turn off the aquarium pump and the kettle"
    pump_off = _relay("aquarium pump", False)
    wants = [([pump_off, _relay("kettle", True)], 6.0), ([pump_off, _relay("kettle", False)], 1.0)]
    assert _decode(vocab, [RELAY], query, wants, 0.0)[1] == _relay("kettle", True)
    assert _decode(vocab, [RELAY], query, wants, 5.0)[1] == _relay("kettle", False)


def test_each_clause_keeps_its_own_verb(vocab: tuple[list[bytes], list[int]]) -> None:
    query = "turn the kettle on and the aquarium pump off"
    kettle_on = _relay("kettle", True)
    wants = [([kettle_on, _relay("aquarium pump", True)], 3.0)]
    wants.append(([kettle_on, _relay("aquarium pump", False)], 1.0))
    assert _decode(vocab, [RELAY], query, wants, 5.0)[1] == _relay("aquarium pump", False)
    # and the first call is not pulled to the later clause's "off"
    wants = [([_relay("kettle", False), _relay("aquarium pump", False)], 3.0)]
    wants.append(([kettle_on, _relay("aquarium pump", False)], 1.0))
    assert _decode(vocab, [RELAY], query, wants, 5.0)[0] == kettle_on


def test_a_switch_value_said_once_is_not_spent(vocab: tuple[list[bytes], list[int]]) -> None:
    # An enum of switch values: the second LED is "on" too, although the first call used it.
    # "open" inside the name "door open" is no verb.
    led = {
        **LED,
        "parameters": {
            **LED["parameters"],
            "properties": {
                "led": {"type": "string", "enum": ["door open", "wifi"]},
                "mode": {"type": "string", "enum": ["on", "off", "blink"]},
            },
        },
    }
    first = {"name": "set_led", "arguments": {"led": "door open", "mode": "on"}}
    blink = {"name": "set_led", "arguments": {"led": "wifi", "mode": "blink"}}
    on = {"name": "set_led", "arguments": {"led": "wifi", "mode": "on"}}
    query = "turn on the door open led and the wifi led"
    wants = [([first, blink], 2.0), ([first, on], 1.0)]
    assert _decode(vocab, [led], query, wants, 0.0) == [first, blink]
    assert _decode(vocab, [led], query, wants, 5.0) == [first, on]


FAN = {
    "name": "set_fan",
    "parameters": {
        "type": "object",
        "properties": {
            "on": {"type": "boolean"},
            "speed": {"type": "string", "enum": ["calm", "brisk", "gale"]},
        },
    },
}


def test_a_renamed_tool_is_found_by_its_description(vocab: tuple[list[bytes], list[int]]) -> None:
    air = {
        **FAN,
        "name": "air",
        "description": "Run the ceiling fan, stop it, or change its speed.",
    }
    glow = {
        "name": "glow",
        "description": "Switch or dim the cafe's lights.",
        "parameters": {"type": "object", "properties": {"on": {"type": "boolean"}}},
    }
    fan_off = [{"name": "air", "arguments": {"on": False}}]
    lights_off = [{"name": "glow", "arguments": {"on": False}}]
    wants = [(lights_off, 2.0), (fan_off, 1.0)]
    assert _decode(vocab, [glow, air], "stop the ceiling fan", wants, 0.0) == lights_off
    assert _decode(vocab, [glow, air], "stop the ceiling fan", wants, 5.0) == fan_off
    # a word of the description is weak evidence: a model sure of another tool keeps it
    wants = [(lights_off, 4.0), (fan_off, 1.0)]
    assert _decode(vocab, [glow, air], "stop the ceiling fan", wants, 5.0) == lights_off


def test_a_three_letter_word_of_a_description_points_at_its_tool(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    air = {**FAN, "name": "air_flow", "description": "Switch the fan on or off."}
    glow = {
        "name": "glow",
        "description": "Switch or dim the cafe's lights.",
        "parameters": {"type": "object", "properties": {"on": {"type": "boolean"}}},
    }
    fan_on = [{"name": "air_flow", "arguments": {"on": True}}]
    lights_on = [{"name": "glow", "arguments": {"on": True}}]
    wants = [(lights_on, 1.2), (fan_on, 1.0)]
    assert _decode(vocab, [glow, air], "put on the fan", wants, 0.0) == lights_on
    assert _decode(vocab, [glow, air], "put on the fan", wants, 5.0) == fan_on


WARMTH = _tool(
    "warmth",
    {
        "temperature": {
            "type": "number",
            "minimum": 10,
            "maximum": 26,
            "description": "Target temperature in degrees Celsius",
        },
        "mode": {"type": "string", "enum": ["heat", "auto", "off"]},
    },
    description="Heating for the signal box.",
)
HEATERS = {
    **RELAY,
    "parameters": {
        **RELAY["parameters"],
        "properties": {
            "relay": {"type": "string", "enum": ["heater fan", "towel warmer"]},
            "on": {"type": "boolean"},
        },
    },
}


def test_a_said_number_goes_to_a_tool_with_a_place_for_it(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    fan_on = [{"name": "set_relay", "arguments": {"relay": "heater fan", "on": True}}]
    to_20 = [{"name": "warmth", "arguments": {"temperature": 20}}]
    wants = [(fan_on, 1.2), (to_20, 1.0)]
    assert _decode(vocab, [HEATERS, WARMTH], "make it 20", wants, 0.0) == fan_on
    assert _decode(vocab, [HEATERS, WARMTH], "make it 20", wants, 5.0) == to_20
    # out of range but in the unit of the thermostat's key: still the thermostat's
    assert not _decode(vocab, [HEATERS, WARMTH], "make it 30 degrees", [], 5.0)


def test_a_warmth_word_with_what_a_thermostat_holds_names_it(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    fan_on = [{"name": "set_relay", "arguments": {"relay": "heater fan", "on": True}}]
    auto = [{"name": "warmth", "arguments": {"mode": "auto"}}]
    wants = [(fan_on, 6.0), (auto, 1.0)]
    tools = [HEATERS, WARMTH]
    assert _decode(vocab, tools, "switch the heating to auto", wants, 0.0) == fan_on
    assert _decode(vocab, tools, "switch the heating to auto", wants, 5.0) == auto
    # a warmth word inside a name said is that name's ("the towel warmer")
    warmer_off = [{"name": "set_relay", "arguments": {"relay": "towel warmer", "on": False}}]
    off = [{"name": "warmth", "arguments": {"mode": "off"}}]
    wants = [(warmer_off, 1.0), (off, 0.9)]
    assert _decode(vocab, tools, "switch off the towel warmer", wants, 5.0) == warmer_off


def test_a_tool_whose_whole_name_is_said_takes_a_shared_room(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    lamps = _tool(
        "shed_lamps",
        {
            "room": {"type": "string", "enum": ["greenhouse 2", "seed bench"]},
            "on": {"type": "boolean"},
        },
    )
    vents = {**BLINDS, "name": "vents"}
    vents["parameters"] = {
        **BLINDS["parameters"],
        "properties": {
            "room": {"type": "string", "enum": ["greenhouse 2", "seed bench"]},
            "position": {"type": "integer", "minimum": 0, "maximum": 100},
        },
    }
    lamps_off = [{"name": "shed_lamps", "arguments": {"room": "greenhouse 2", "on": False}}]
    shut = [{"name": "vents", "arguments": {"room": "greenhouse 2", "position": 0}}]
    # the model's lean towards the lamps is more than a word of a name outweighs
    wants = [(lamps_off, 10.0), (shut, 0.0)]
    query = "shut the greenhouse 2 vents"
    assert _decode(vocab, [lamps, vents], query, wants, 0.0) == lamps_off
    assert _decode(vocab, [lamps, vents], query, wants, 5.0) == shut


def _led(led: str, mode: str) -> dict:
    return {"name": "set_led", "arguments": {"led": led, "mode": mode}}


def test_the_list_goes_on_while_a_thing_named_in_full_is_left(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    one, both = [_led("status", "blink")], [_led("status", "blink"), _led("wifi", "off")]
    wants = [(one, 1.0), (both, 0.9)]
    query = "status led blink, wifi led off"
    assert _decode(vocab, [LED], query, wants, 0.0) == one
    assert _decode(vocab, [LED], query, wants, 5.0) == both
    # a thing named in a negated clause is not left for a call
    assert _decode(vocab, [LED], "status led blink, but not the wifi led", wants, 5.0) == one


def test_the_list_ends_once_every_clause_has_its_call(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    both = [_led("status", "blink"), _led("wifi", "off")]
    more = [*both, {"name": "set_relay", "arguments": {"relay": "kettle", "on": False}}]
    wants = [(more, 1.0), (both, 0.9)]
    query = "status led blink, wifi led off"
    assert _decode(vocab, [LED, RELAY], query, wants, 0.0) == more
    assert _decode(vocab, [LED, RELAY], query, wants, 5.0) == both
    # a clause still without its call keeps the list going
    query = "status led blink, wifi led off and the kettle off"
    assert _decode(vocab, [LED, RELAY], query, wants, 5.0) == more


def test_calls_follow_the_clauses_that_point_at_their_tools(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    # the kettle is the name said in full, but the request starts with the thermostat
    climate = _tool(
        "climate",
        {"temperature": {"type": "integer", "minimum": 5, "maximum": 30}},
        description="Set the thermostat's target temperature.",
    )
    query = "thermostat to 19 and after that switch the kettle off"
    heat = {"name": "climate", "arguments": {"temperature": 19}}
    kettle = _relay("kettle", False)
    wants = [([kettle, heat], 2.0), ([heat, kettle], 1.0)]
    assert _decode(vocab, [RELAY, climate], query, wants, 0.0) == [kettle, heat]
    assert _decode(vocab, [RELAY, climate], query, wants, 5.0) == [heat, kettle]


def test_a_name_said_in_a_later_clause_waits_for_its_call(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    leds = {
        **LED,
        "parameters": {
            **LED["parameters"],
            "properties": {
                "led": {"type": "string", "enum": ["power", "garage"]},
                "mode": {"type": "string", "enum": ["on", "off", "blink"]},
            },
        },
    }

    def led(name: str, mode: str) -> dict:
        return {"name": "set_led", "arguments": {"led": name, "mode": mode}}

    query = "switch on the power light, let the garage light flash"
    wants = [([led("garage", "on"), led("power", "blink")], 4.0)]
    wants.append(([led("power", "on"), led("garage", "blink")], 1.0))
    assert _decode(vocab, [leds], query, wants, 5.0) == wants[1][0]


def test_a_call_does_not_end_before_a_value_the_request_says(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    on = [{"name": "set_fan", "arguments": {"on": True}}]
    gale = [{"name": "set_fan", "arguments": {"on": True, "speed": "gale"}}]
    wants = [(on, 2.0), (gale, 1.0)]
    assert _decode(vocab, [FAN], "fan on gale", wants, 0.0) == on
    assert _decode(vocab, [FAN], "fan on gale", wants, 5.0) == gale
    # nothing said for the speed: the call ends where the model ends it
    assert _decode(vocab, [FAN], "fan on please", wants, 5.0) == on
    # nor is a mode word, often a verb: "cool it down to 17" asks for no mode
    thermo = _tool(
        "set_thermostat",
        {
            "temperature": {"type": "integer", "minimum": 5, "maximum": 30},
            "mode": {"type": "string", "enum": ["heat", "cool", "off"]},
        },
    )
    t17 = [{"name": "set_thermostat", "arguments": {"temperature": 17}}]
    cool = [{"name": "set_thermostat", "arguments": {"temperature": 17, "mode": "cool"}}]
    assert _decode(vocab, [thermo], "cool it down to 17", [(t17, 2.0), (cool, 1.0)], 5.0) == t17
    # a bare on/off word is no value to wait for
    off = [{"name": "set_fan", "arguments": {"on": False}}]
    assert _decode(vocab, [FAN], "fan off", [(off, 2.0), (gale, 1.0)], 5.0) == off


def test_a_said_key_waits_until_the_number_is_whole(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    feed = _tool(
        "feed",
        {
            "grams": {"type": "integer", "minimum": 0, "maximum": 1000},
            "food": {"type": "string", "enum": ["pellets", "flakes"]},
        },
    )

    def call(grams: int) -> list[dict]:
        return [{"name": "feed", "arguments": {"grams": grams, "food": "flakes"}}]

    # "flakes" keeps the call open for its key, but not by cutting "805" to 80 (" 8|0|5")
    wants = [(call(80), 2.0), (call(805), 1.0)]
    assert _decode(vocab, [feed], "805 grams of flakes", wants, 0.0) == call(80)
    assert _decode(vocab, [feed], "805 grams of flakes", wants, 5.0) == call(805)


def test_open_and_close_mean_a_bounded_numbers_ends(vocab: tuple[list[bytes], list[int]]) -> None:
    def at(position: int) -> list[dict]:
        return [{"name": "set_blinds", "arguments": {"room": "study", "position": position}}]

    wants = [(at(88), 2.0), (at(0), 1.0), (at(100), 1.0), (at(30), 1.0)]
    assert _decode(vocab, [BLINDS], "close the study blinds", wants, 0.0) == at(88)
    assert _decode(vocab, [BLINDS], "close the study blinds", wants, 5.0) == at(0)
    assert _decode(vocab, [BLINDS], "open the study blinds", wants, 5.0) == at(100)
    # a number said wins over the word, and both words say nothing
    assert _decode(vocab, [BLINDS], "open the study blinds to 30", wants, 5.0) == at(30)
    assert _decode(vocab, [BLINDS], "open or close the study blinds", wants, 5.0) == at(88)


def test_calls_follow_the_order_of_the_request(vocab: tuple[list[bytes], list[int]]) -> None:
    def led(name: str) -> dict:
        return {"name": "set_led", "arguments": {"led": name, "mode": "on"}}

    query = "turn the wifi led on and turn on the status led"
    wants = [([led("status"), led("wifi")], 2.0), ([led("wifi"), led("status")], 1.0)]
    assert _decode(vocab, [LED], query, wants, 0.0) == [led("status"), led("wifi")]
    assert _decode(vocab, [LED], query, wants, 5.0) == [led("wifi"), led("status")]


def test_the_tool_whose_values_are_named_wins(vocab: tuple[list[bytes], list[int]]) -> None:
    led = [{"name": "set_led", "arguments": {"led": "status", "mode": "on"}}]
    kettle = [{"name": "set_relay", "arguments": {"relay": "kettle", "on": True}}]
    wants = [(led, 2.0), (kettle, 1.0)]
    assert _decode(vocab, [LED, RELAY], "switch on the kettle", wants, 0.0) == led
    assert _decode(vocab, [LED, RELAY], "switch on the kettle", wants, 5.0) == kettle


def test_a_tool_backed_by_a_name_said_in_full_outweighs_a_familiar_one(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    led = [{"name": "set_led", "arguments": {"led": "status", "mode": "on"}}]
    kettle = [{"name": "set_relay", "arguments": {"relay": "kettle", "on": True}}]
    # a margin above the weight would keep a value choice; a tool choice gets TOOL_BOOST
    # times the weight when the request says one of its names in full
    assert TOOL_BOOST * 5.0 > 8.0 > 5.0
    wants = [(led, 9.0), (kettle, 1.0)]
    assert _decode(vocab, [LED, RELAY], "switch on the kettle", wants, 5.0) == kettle
    # still a bias: a model sure enough keeps its tool
    wants = [(led, 9.0 + TOOL_BOOST * 5.0), (kettle, 1.0)]
    assert _decode(vocab, [LED, RELAY], "switch on the kettle", wants, 5.0) == led


def test_a_word_of_another_tools_name_withholds_the_boost(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    lights = _tool(
        "set_light",
        {"room": {"type": "string", "enum": ["Leo's room", "study"]}, "on": {"type": "boolean"}},
        required=["room", "on"],
    )
    leo = [{"name": "set_light", "arguments": {"room": "Leo's room", "on": True}}]
    blinds = [{"name": "set_blinds", "arguments": {"room": "study", "position": 100}}]
    wants = [(blinds, 9.0), (leo, 1.0)]
    # "blinds" names set_blinds; Leo's room is the lights': no boost, the model's call stands
    query = "open the blinds in Leo's room"
    assert _decode(vocab, [BLINDS, lights], query, wants, 5.0) == blinds
    # without the rival word the room decides the tool
    assert _decode(vocab, [BLINDS, lights], "Leo's room on", wants, 5.0) == leo


def test_a_name_said_in_a_later_clause_does_not_pull_the_first_call(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    thermostat = _tool(
        "set_thermostat",
        {"temperature": {"type": "integer", "minimum": 5, "maximum": 30}},
        required=["temperature"],
    )
    heat = {"name": "set_thermostat", "arguments": {"temperature": 19}}
    kettle = {"name": "set_relay", "arguments": {"relay": "kettle", "on": True}}
    wants = [([heat, kettle], 9.0), ([kettle, heat], 1.0)]
    tools = [thermostat, RELAY]
    # the first call is about the first clause, which names nothing
    query = "nineteen degrees please, then the kettle on"
    assert _decode(vocab, tools, query, wants, 5.0) == [heat, kettle]
    # said in the first clause, the kettle gets the boost there
    query = "the kettle on, then nineteen degrees please"
    assert _decode(vocab, tools, query, wants, 5.0) == [kettle, heat]


def test_clauses_break_at_punctuation_and_joining_words() -> None:
    q = "Nineteen degrees, then Sami's study blinds and the fan"
    assert list(zip(words(q), clause_numbers(q), strict=True)) == [
        ("nineteen", 0),
        ("degree", 0),
        ("then", 1),
        ("sami's", 1),
        ("study", 1),
        ("blind", 1),
        ("and", 2),
        ("the", 2),
        ("fan", 2),
    ]


COFFEE = _tool(
    "water_coffee",
    {
        "grams": {"type": "integer", "minimum": 0, "maximum": 1000},
        "strength": {"type": "number", "minimum": 0, "maximum": 1},
    },
)


def _grams(n: float, key: str = "grams") -> list[dict]:
    return [{"name": "water_coffee", "arguments": {key: n}}]


@pytest.mark.parametrize(
    ("query", "said", "cut"),
    [
        ("coffee grams to 805", 805, 80),
        ("coffee, seventy two grams", 72, 2),
        ("coffee grams to four hundred ninety five", 495, 49),
    ],
)
def test_a_number_the_request_says_is_written_in_full(
    vocab: tuple[list[bytes], list[int]], query: str, said: int, cut: int
) -> None:
    wants = [(_grams(cut), 2.0), (_grams(said), 1.0)]
    assert _decode(vocab, [COFFEE], query, wants, 0.0) == _grams(cut)
    assert _decode(vocab, [COFFEE], query, wants, 5.0) == _grams(said)


def test_a_percentage_is_a_fraction_only_where_the_range_is_one(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    wants = [(_grams(0.4, "strength"), 2.0), (_grams(0.5, "strength"), 1.0)]
    assert _decode(vocab, [COFFEE], "strength 50 percent", wants, 5.0) == _grams(0.5, "strength")
    token_bytes, _ = vocab
    prior = MentionPrior("coffee 40 percent", [COFFEE], token_bytes, 5.0)
    digits = np.array([token_bytes.index(b"4"), token_bytes.index(b"0")], dtype=np.int32)
    # grams run to 1000: 40 percent is no 0.4 there, so "0" (of 0.4) gets nothing; "4" does
    assert list(prior(b'[{"name":"water_coffee","arguments":{"grams":', digits)) == [5.0, 0.0]
    assert list(prior(b'[{"name":"water_coffee","arguments":{"strength":', digits)) == [5.0, 5.0]


NOTE = _tool(
    "log_message",
    {
        "message": {"type": "string", "minLength": 1},
        "level": {"type": "string", "enum": ["info", "warning"]},
    },
    required=["message"],
)


def _note(text: str) -> list[dict]:
    return [{"name": "log_message", "arguments": {"message": text}}]


def test_a_note_is_copied_from_the_request(vocab: tuple[list[bytes], list[int]]) -> None:
    query = "note that the pump was cleaned, thanks"
    wants = [(_note("the ch ch ch"), 2.0), (_note("the pump was cleaned"), 1.0)]
    assert _decode(vocab, [NOTE], query, wants, 0.0) == _note("the ch ch ch")
    # the copy ends where a phrase of the request ends (the comma), not mid-phrase
    assert _decode(vocab, [NOTE], query, wants, 5.0) == _note("the pump was cleaned")
    wants = [(_note("the pump"), 2.0), (_note("the pump was cleaned"), 1.0)]
    assert _decode(vocab, [NOTE], query, wants, 5.0) == _note("the pump was cleaned")


@pytest.mark.parametrize(
    ("query", "note", "first"),
    [
        ("pin a note: out of oat milk", "out of oat milk", "a note"),
        ("post a note on the board: card reader offline", "card reader offline", "the board"),
        (
            "heater on and note that the door sticks",
            "the door sticks",
            "heater on and note that the door sticks",
        ),
    ],
)
def test_a_note_starts_where_the_request_marks_it(
    vocab: tuple[list[bytes], list[int]], query: str, note: str, first: str
) -> None:
    # a model that cannot copy starts at the first words it likes; a colon, "that" or
    # "saying" says where the note begins
    wants = [(_note(first), 2.0), (_note(note), 1.0)]
    assert _decode(vocab, [NOTE], query, wants, 5.0) == _note(note)


def test_a_note_opened_by_a_merged_token_is_still_copied() -> None:
    # the vocabulary merges a key's close with the start of its text: '":":{' begins a note the
    # request never says, and must not win over the plain '":"' that leaves the choice open
    tokens = [b'":"', b'":":{', b'":"out', b'":"milk', b'":"out"}', b"x"]
    prior = MentionPrior("pin a note: out of milk", [NOTE], tokens, 5.0)
    bonus = prior(b'[{"name":"log_message","arguments":{"message', np.arange(len(tokens)))
    assert bonus is not None
    assert list(bonus) == [15.0, 0.0, 15.0, 0.0, 0.0, 0.0]  # "milk" is no start after the colon


def test_no_opinion_outside_name_choices(vocab: tuple[list[bytes], list[int]]) -> None:
    token_bytes, _ = vocab
    prior = MentionPrior("aquarium heater on", [RELAY], token_bytes, 5.0)
    cands = np.arange(14, 270, dtype=np.int32)  # the byte tokens
    assert prior(b"", cands) is None  # `[` or `[]`: whether to call at all
    assert prior(b'[{"name":"set_relay","arguments":{', cands) is None  # which key
    at = token_bytes[14:270].index
    at_bool = b'[{"name":"set_relay","arguments":{"relay":"aquarium heater","on":'
    # a switching boolean: only the literal against the request's sense is held back
    sense = prior(at_bool, cands)
    assert sense is not None and sense[at(b"f")] < 0 and sense[at(b"t")] == 0.0
    assert MentionPrior("aquarium heater", [RELAY], token_bytes, 5.0)(at_bool, cands) is None
    bonus = prior(b'[{"name":"set_relay","arguments":{"relay":"aquarium ', cands)
    assert bonus is not None
    assert bonus[at(b"h")] == 5.0 * ONLY_NAME  # "aquarium heater": the only name said
    assert bonus[at(b"p")] == 0.0  # "aquarium pump": half said, outranked
    assert bonus[at(b"x")] == 0.0  # no value goes on so
    assert MentionPrior("aquarium heater on", [RELAY], token_bytes, 0.0)(b"[", cands) is None


def test_words_ignore_case_plurals_and_curly_apostrophes() -> None:
    assert words("Turn on the LIGHTS in Ana\u2019s room") == [
        "turn",
        "on",
        "the",
        "light",
        "in",
        "ana's",
        "room",
    ]
    assert words("glass bus") == ["glass", "bus"]


def test_unnamed_arguments_flags_a_room_the_request_never_says() -> None:
    blinds = [{"name": "set_blinds", "arguments": {"room": "Ana's room", "position": 100}}]
    flagged = unnamed_arguments("open the blinds in Leo's room", [BLINDS], blinds)
    # "room" is shared but names nothing
    assert flagged == [{"name": "set_blinds", "argument": "room", "value": "Ana's room"}]
    assert unnamed_arguments("open ana's blinds", [BLINDS], blinds) == []
    assert unnamed_arguments("Open the blinds in ANA'S ROOM", [BLINDS], blinds) == []


def test_unnamed_arguments_leaves_settings_alone() -> None:
    flash = [{"name": "set_led", "arguments": {"led": "wifi", "mode": "blink"}}]
    assert unnamed_arguments("flash the wifi light", [LED], flash) == []  # "flash" is blink
    one = {**RELAY, "parameters": {"properties": {"relay": {"enum": ["kettle"]}}}}
    kettle = [{"name": "set_relay", "arguments": {"relay": "kettle"}}]
    assert unnamed_arguments("switch it on", [one], kettle) == []  # nothing to choose
    assert unnamed_arguments("status led on", [LED], flash) == [
        {"name": "set_led", "argument": "led", "value": "wifi"}
    ]


def _one(tool: dict, key: str, value: str) -> list[dict]:
    return [{"name": tool["name"], "arguments": {key: value}}]


def test_a_name_said_in_part_must_fit_it_alone() -> None:
    # "the aquarium" is the pump or the heater: that names neither
    pump = _one(RELAY, "relay", "aquarium pump")
    assert unnamed_arguments("turn on the aquarium", [RELAY], pump) != []
    # another thing beside the shared word: the aquarium filter is not the pump
    lights = {**RELAY, "parameters": {"properties": {"relay": {"enum": ["aquarium pump", "tv"]}}}}
    assert unnamed_arguments("turn on the aquarium filter", [lights], pump) != []
    assert unnamed_arguments("turn on the aquarium please", [lights], pump) == []
    assert unnamed_arguments("aquarium pump off", [RELAY], pump) == []
    rooms = {
        "name": "set_blinds",
        "parameters": {"properties": {"room": {"enum": ["Yusuf's corner", "Yusuf's bathroom"]}}},
    }
    corner = _one(rooms, "room", "Yusuf's corner")
    assert unnamed_arguments("close the blinds in Umar's corner", [rooms], corner) != []
    assert unnamed_arguments("close the blinds in the corner", [rooms], corner) == []


def test_a_numbered_name_needs_its_number() -> None:
    rooms = {
        "name": "set_light",
        "parameters": {"properties": {"room": {"enum": ["bedroom 1", "den"]}}},
    }
    one = _one(rooms, "room", "bedroom 1")
    assert unnamed_arguments("turn on the bedroom 2 light", [rooms], one) != []
    assert unnamed_arguments("turn on the bedroom 1 light", [rooms], one) == []
    assert unnamed_arguments("turn on the light in bedroom one", [rooms], one) == []


def test_a_typo_still_names_a_thing() -> None:
    rooms = {
        "name": "set_light",
        "parameters": {"properties": {"room": {"enum": ["Quinn's office", "Quinn's den"]}}},
    }
    office = _one(rooms, "room", "Quinn's office")
    assert unnamed_arguments("lights off in Quinn's offfice", [rooms], office) == []
    assert unnamed_arguments("lights off in Quinn's den", [rooms], office) != []
    relay = {"name": "r", "parameters": {"properties": {"relay": {"enum": ["old monitor", "fan"]}}}}
    monitor = _one(relay, "relay", "old monitor")
    assert unnamed_arguments("turn the old monitro on", [relay], monitor) == []
    assert unnamed_arguments("turn the old radio on", [relay], monitor) != []


def test_a_colour_or_speed_the_request_never_says_is_flagged() -> None:
    fan = {
        "name": "set_fan",
        "parameters": {"properties": {"speed": {"enum": ["low", "medium", "night"]}}},
    }
    night = [{"name": "set_fan", "arguments": {"speed": "night"}}]
    assert unnamed_arguments("fan to turbo", [fan], night) == [
        {"name": "set_fan", "argument": "speed", "value": "night"}
    ]
    assert unnamed_arguments("fan to night", [fan], night) == []
    low = [{"name": "set_fan", "arguments": {"speed": "low"}}]
    assert unnamed_arguments("slow the fan down, slow speed", [fan], low) == []  # a synonym
    lamp = {
        "name": "set_light",
        "parameters": {"properties": {"color": {"enum": ["teal", "warm white"]}}},
    }
    white = [{"name": "set_light", "arguments": {"color": "warm white"}}]
    assert unnamed_arguments("make it orange", [lamp], white) != []
    assert unnamed_arguments("warm white please", [lamp], white) == []


def _home_tools(home: str) -> list[dict]:
    from conftest import ROOT

    for line in (ROOT / "tests" / "data" / "heldout_homes.jsonl").read_text().splitlines():
        case = json.loads(line)
        if case.get("home") == home:
            return case["tools"]
    raise LookupError(home)


def test_the_bundled_general_model_takes_the_named_device() -> None:
    from agent.calling.session import Session
    from agent.model.bundled import GENERAL

    # manor_house: a pool pump on a smart plug, a koi pond pump on a relay, an alarm LED
    s = Session(GENERAL, _home_tools("manor_house"), threads=1)
    env = s.complete("turn on the pool pump")
    assert env["function_calls"] == [
        {"name": "set_switch", "arguments": {"device": "pool pump", "action": "ON"}}
    ]
    assert "unnamed" not in env
    env = s.complete("switch the koi pond pump on")
    assert env["function_calls"] == [
        {"name": "set_relay", "arguments": {"relay": "koi pond pump", "on": True}}
    ]


def test_a_call_for_a_room_the_home_lacks_is_flagged_and_doubted() -> None:
    from agent.calling.session import UNNAMED_CONFIDENCE, Session
    from agent.model.bundled import GENERAL

    s = Session(GENERAL, _home_tools("ana_flat"), threads=1)
    # ana_flat's blinds are in Ana's room and the study; a call must name one of them
    env = s.complete("open the blinds in Leo's room", require_call=True)
    assert env["success"] and env["function_calls"][0]["name"] == "set_blinds"
    assert env["unnamed"] == [
        {
            "name": "set_blinds",
            "argument": "room",
            "value": env["function_calls"][0]["arguments"]["room"],
        }
    ]
    assert env["confidence"] <= UNNAMED_CONFIDENCE


def test_a_tool_named_in_full_counts_as_much_as_a_value(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    heater = _tool(
        "set_diesel_heater",
        {"temperature": {"type": "integer", "minimum": 5, "maximum": 30}},
        required=["temperature"],
    )
    boat = _tool(
        "set_boat_switch",
        {
            "relay": {"type": "string", "enum": ["inverter", "water pump"]},
            "on": {"type": "boolean"},
            "minutes": {"type": "integer", "minimum": 0, "maximum": 60},
        },
        required=["relay", "on"],
    )
    wrong = [{"name": "set_boat_switch", "arguments": {"relay": "inverter", "on": True}}]
    right = [{"name": "set_diesel_heater", "arguments": {"temperature": 21}}]
    wants = [(wrong, 4.0), (right, 0.5)]
    query = "set the diesel heater to 21"
    assert _decode(vocab, [boat, heater], query, wants, 5.0) == right
    # one word of it ("heater") is weaker evidence: 0.7 of the weight does not beat 3.5
    got = _decode(vocab, [boat, heater], "set the heater to 21", wants, 5.0)
    assert [c["name"] for c in got] == ["set_boat_switch"]


def test_a_second_call_does_not_repeat_what_was_said_once(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    off = {"name": "set_relay", "arguments": {"relay": "aquarium pump", "on": False}}
    again = {"name": "set_relay", "arguments": {"relay": "aquarium pump", "on": True}}
    kettle = {"name": "set_relay", "arguments": {"relay": "kettle", "on": True}}
    two = {
        **RELAY,
        "parameters": {
            **RELAY["parameters"],
            "properties": {
                "relay": {"type": "string", "enum": ["aquarium pump", "kettle"]},
                "on": {"type": "boolean"},
            },
        },
    }
    query = "turn off the aquarium pump and switch the other one on"
    wants = [([off, again], 2.0), ([off, kettle], 1.0)]
    assert _decode(vocab, [two], query, wants, 0.0) == [off, again]
    assert _decode(vocab, [two], query, wants, 5.0) == [off, kettle]
    # said twice, it may be used twice
    twice = "turn off the aquarium pump, then turn the aquarium pump on"
    assert _decode(vocab, [two], twice, wants, 5.0) == [off, again]


POOL = _tool(
    "stop_pool", {"depth": {"type": "integer", "minimum": 0, "maximum": 200}}, required=["depth"]
)
# what a trained vocabulary merges: a key's closing quote and colon with a number's first digit
MERGED = [b'":1', b'":5', b'":100}},"', b'"', b'":', b"1", b"5", b"9", b"4", b"0}}]"]


def _bias(prior: MentionPrior, text: bytes) -> dict[bytes, float]:
    out = prior(text, np.arange(len(MERGED), dtype=np.int32))
    assert out is not None
    return {tok: float(b) for tok, b in zip(MERGED, out, strict=True) if b}


def test_a_number_begun_with_the_keys_close_is_judged_as_a_number() -> None:
    prior = MentionPrior("stop the pool at depth 54", [POOL], MERGED, 5.0)
    key = b'[{"name":"stop_pool","arguments":{"depth'
    # '":5' starts the 54 the request says; '":1' and '":100}},"' start or write one it does not
    # and are held back; closing the key alone leaves every number open
    assert _bias(prior, key) == {
        b'":5': 5.0,
        b'"': 5.0,
        b'":': 5.0,
        b'":1': -5.0,
        b'":100}},"': -5.0,
    }


def test_a_number_said_once_and_written_is_spent() -> None:
    first = b'[{"name":"stop_pool","arguments":{"depth":10}},'
    second = first + b'{"name":"stop_pool","arguments":{"depth'
    prior = MentionPrior("depth ten, then depth 9", [POOL], MERGED, 5.0)
    # the second call's number is the 9, not the 10 again: "1" of "19" is held back
    assert _bias(prior, second)[b'":1'] < 0
    assert _bias(prior, second + b'":') == {b"9": 5.0}
    # a number said twice may be written twice
    twice = MentionPrior("depth 10, then depth 10 again", [POOL], MERGED, 5.0)
    assert _bias(twice, second)[b'":1'] > 0
    # with every said number spent, the bias still points at them rather than at nothing
    spent = MentionPrior("depth 10, then the same", [POOL], MERGED, 5.0)
    assert _bias(spent, second)[b'":1'] > 0


LIGHTS = _tool(
    "set_light",
    {
        "room": {"type": "string", "enum": ["library", "study"]},
        "on": {"type": "boolean"},
        "brightness": {"type": "integer", "minimum": 0, "maximum": 100},
        "color": {"type": "string", "enum": ["amber", "white"]},
    },
    required=["room"],
)


def _with_transition(**schema: str) -> dict:
    """LIGHTS with a fade time in seconds after its colour (a zigbee2mqtt light)."""
    lights = json.loads(json.dumps(LIGHTS))
    lights["parameters"]["properties"]["transition"] = {
        "type": "number",
        "minimum": 0,
        "maximum": 600,
        **schema,
    }
    return lights


def _lit(room: str, **more: object) -> list[dict]:
    return [{"name": "set_light", "arguments": {"room": room, **more}}]


def test_a_switch_the_request_gives_a_sense_is_not_left_out(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    room_only = _lit("library")
    on = _lit("library", on=True)
    amber = _lit("library", color="amber")
    wants = [(room_only, 3.0), (amber, 2.5), (on, 1.0)]
    assert _decode(vocab, [LIGHTS], "turn on the library lights", wants, 0.0) == room_only
    # "turn on" gives this call a sense: the switch key itself is pushed, not any key
    assert _decode(vocab, [LIGHTS], "turn on the library lights", wants, 5.0) == on
    off = _lit("library", on=False)
    assert (
        _decode(vocab, [LIGHTS], "library lights off", [(room_only, 3.0), (off, 1.0)], 5.0) == off
    )
    # no switching word: the call ends where the model ends it
    assert _decode(vocab, [LIGHTS], "the library lights please", wants, 5.0) == room_only


def test_a_shared_name_goes_to_the_tool_whose_name_is_said_too(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    light_on = _lit("study", on=True)
    blinds = [{"name": "set_blinds", "arguments": {"room": "study", "position": 100}}]
    wants = [(light_on, 2.0), (blinds, 1.0)]
    query = "open the blinds in the study"
    assert _decode(vocab, [LIGHTS, BLINDS], query, wants, 0.0) == light_on
    # the study is a room of both tools; "blinds" says which
    assert _decode(vocab, [LIGHTS, BLINDS], query, wants, 5.0) == blinds


def test_a_number_said_goes_to_its_key_before_the_call_ends(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    lights = _with_transition(description="Fade time in seconds")
    room_only = _lit("library")
    amber = _lit("library", color="amber")
    bright = _lit("library", brightness=60)
    fade = _lit("library", transition=60)
    wants = [(room_only, 3.0), (amber, 2.5), (fade, 2.0), (bright, 1.0)]
    assert _decode(vocab, [lights], "library light to 60", wants, 0.0) == room_only
    # no unit: the first numeric key in the schema's order that the number fits
    assert _decode(vocab, [lights], "library light to 60", wants, 5.0) == bright
    # a unit the description names picks its key
    assert _decode(vocab, [lights], "library light fade over 60 seconds", wants, 5.0) == fade
    # with two clauses the number may be another call's: no push to go on after the room
    token_bytes, _ = vocab
    comma = np.array([token_bytes.index(b",")])
    after_room = b'[{"name":"set_light","arguments":{"room":"library"'
    one = MentionPrior("library light to 20", [lights], token_bytes, 5.0)
    two = MentionPrior("library light please, then the heating to 20", [lights], token_bytes, 5.0)
    assert one(after_room, comma) is not None
    assert two(after_room, comma) is None


def test_the_second_look_ends_a_call_with_nothing_said_left(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    on = _lit("library", on=True)
    on_amber = _lit("library", on=True, color="amber")
    wants = [(on_amber, 3.0), (on, 1.0)]
    query = "turn on the library lights"
    # a plain decode leaves the model its extra argument; the grounding check then refuses it
    assert _decode(vocab, [LIGHTS], query, wants, 5.0) == on_amber
    assert _decode(vocab, [LIGHTS], query, wants, 5.0, settle=True) == on
    # a colour the request says is still left to say
    said = "turn on the library lights in amber"
    assert (
        _decode(vocab, [LIGHTS], said, [(on, 3.0), (on_amber, 1.0)], 5.0, settle=True) == on_amber
    )


def test_a_description_that_says_the_rivals_word_keeps_the_boost(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    shutters = _tool(
        "adjust_shutters",
        {
            "room": {"type": "string", "enum": ["Farah's office"]},
            "position": {"type": "integer", "minimum": 0, "maximum": 100},
        },
        required=["room", "position"],
        description="Open or close a room's blinds.",
    )
    wrong = [{"name": "set_blinds", "arguments": {"room": "study", "position": 0}}]
    right = [{"name": "adjust_shutters", "arguments": {"room": "Farah's office", "position": 0}}]
    wants = [(wrong, 9.0), (right, 1.0)]
    query = "shut the blinds in Farah's office"
    assert _decode(vocab, [BLINDS, shutters], query, wants, 5.0) == right
    # a name and description without the word (nor another word for a blind) leave the
    # rival's word in force
    plain = {**shutters, "name": "adjust_covers", "description": "Move a room's covers."}
    plain_right = [{**right[0], "name": "adjust_covers"}]
    wants = [(wrong, 9.0), (plain_right, 1.0)]
    assert _decode(vocab, [BLINDS, plain], query, wants, 5.0) == wrong


def test_a_tool_named_twice_may_be_called_twice(vocab: tuple[list[bytes], list[int]]) -> None:
    on = {"name": "set_fan", "arguments": {"on": True}}
    off = {"name": "set_fan", "arguments": {"on": False}}
    led = {"name": "set_led", "arguments": {"led": "status", "mode": "off"}}
    wants = [([on, led], 2.0), ([on, off], 1.0)]
    query = "fan on for a minute, then the fan off"
    assert _decode(vocab, [FAN, LED], query, wants, 0.0) == [on, led]
    # "fan" said twice: the second call may go to the fan again
    assert _decode(vocab, [FAN, LED], query, wants, 5.0) == [on, off]


def test_a_value_said_in_a_later_clause_does_not_hold_the_first_call(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    on = {"name": "set_fan", "arguments": {"on": True}}
    gale = {"name": "set_fan", "arguments": {"speed": "gale"}}
    both = {"name": "set_fan", "arguments": {"on": True, "speed": "gale"}}
    wants = [([on, gale], 2.0), ([both], 1.0)]
    assert _decode(vocab, [FAN], "fan on, then change the fan to gale", wants, 5.0) == [on, gale]
    # in one clause the speed is the call's own
    assert _decode(vocab, [FAN], "fan on at gale", [([on], 2.0), ([both], 1.0)], 5.0) == [both]


def test_a_setting_said_in_full_is_the_next_key(vocab: tuple[list[bytes], list[int]]) -> None:
    on = _lit("library", on=True)
    amber = _lit("library", color="amber")
    wants = [(on, 3.0), (amber, 1.0)]
    assert _decode(vocab, [LIGHTS], "make the library amber", wants, 0.0) == on
    # going on alone let the model write "on"; the said colour's own key is pushed
    assert _decode(vocab, [LIGHTS], "make the library amber", wants, 5.0) == amber


def test_each_clause_keeps_its_own_number(vocab: tuple[list[bytes], list[int]]) -> None:
    token_bytes, _ = vocab
    tid = {t: np.array([token_bytes.index(t)]) for t in (b",", b"2", b"6")}
    prior = MentionPrior(
        "library light on at sixty, and the study light to 20", [LIGHTS], token_bytes, 5.0
    )
    first = b'[{"name":"set_light","arguments":{"room":"library","on":true'
    # the library's clause says sixty: the call goes on to its number, and writes 60, not 20
    assert prior(first, tid[b","]) is not None
    digits = first + b',"brightness":'
    assert prior(digits, tid[b"6"]) is not None
    assert prior(digits, tid[b"2"]) is None
    second = first + b',"brightness":60}},{"name":"set_light","arguments":{"room":"study"'
    assert prior(second, tid[b","]) is not None
    assert prior(second + b',"brightness":', tid[b"6"]) is None


def test_a_bound_said_by_a_word_outweighs_the_models_number(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    four = [{"name": "set_blinds", "arguments": {"room": "study", "position": 4}}]
    full = [{"name": "set_blinds", "arguments": {"room": "study", "position": 100}}]
    wants = [(four, 6.0), (full, 1.0)]
    query = "raise the blinds in the study"
    assert _decode(vocab, [BLINDS], query, wants, 0.0) == four
    assert _decode(vocab, [BLINDS], query, wants, 5.0) == full
    # "wind in" closes
    closed = [{"name": "set_blinds", "arguments": {"room": "study", "position": 0}}]
    wants = [(four, 6.0), (closed, 1.0)]
    assert _decode(vocab, [BLINDS], "wind in the study blinds", wants, 5.0) == closed


def test_each_clause_keeps_its_own_bound(vocab: tuple[list[bytes], list[int]]) -> None:
    half = {"name": "set_blinds", "arguments": {"room": "study", "position": 50}}
    ana_half = {"name": "set_blinds", "arguments": {"room": "Ana's room", "position": 50}}
    ana_open = {"name": "set_blinds", "arguments": {"room": "Ana's room", "position": 100}}
    wants = [([half, ana_half], 2.0), ([half, ana_open], 1.0)]
    query = "open the study blinds half way, then open the blinds in Ana's room"
    assert _decode(vocab, [BLINDS], query, wants, 0.0) == [half, ana_half]
    # the second clause says no number: its "open" is the maximum
    assert _decode(vocab, [BLINDS], query, wants, 5.0) == [half, ana_open]


def test_a_call_takes_the_number_of_the_clause_that_says_its_tool(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    # the room is said with the blinds; the lamp's clause says only "the lamp" and 10
    shut = {"name": "set_blinds", "arguments": {"room": "study", "position": 0}}
    dark = {"name": "set_light", "arguments": {"room": "study", "brightness": 0}}
    ten = {"name": "set_light", "arguments": {"room": "study", "brightness": 10}}
    wants = [([shut, dark], 3.0), ([shut, ten], 1.0)]
    query = "close the blinds in the study and dim the lamp to 10 percent"
    assert _decode(vocab, [BLINDS, LIGHTS], query, wants, 0.0) == [shut, dark]
    assert _decode(vocab, [BLINDS, LIGHTS], query, wants, 5.0) == [shut, ten]
    # a clause that names a thing of its own keeps its call: the study's lamp is in the first
    query = "close the blinds and dim the lamp in the study, then the library lamp to 10"
    first = b'[{"name":"set_blinds","arguments":{"room":"study","position":0}},'
    prior = MentionPrior(query, [BLINDS, LIGHTS], vocab[0], 5.0)
    call = first + b'{"name":"set_light","arguments":{"room":"study","brightness":'
    assert prior._anchor(call) == words(query).index("study")


def test_a_second_number_goes_on_to_the_next_numeric_key(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    lights = _with_transition()
    thirty = _lit("library", brightness=30)
    both = _lit("library", brightness=30, transition=5)
    wants = [(thirty, 3.0), (both, 1.0)]
    query = "fade the library to 30 percent over 5 seconds"
    assert _decode(vocab, [lights], query, wants, 0.0) == thirty
    assert _decode(vocab, [lights], query, wants, 5.0) == both
    # a number cut to fit its range holds what it was cut from: 11 is no transition
    eleven = [Said(11.0), Said(5.0)]
    assert _unheld(eleven, b'{"arguments":{"speed":1,') == [Said(5.0)]
    assert _unheld(eleven, b'{"arguments":{"speed":11') == [Said(5.0)]
    assert _unheld(eleven, b'{"arguments":{"speed":2,') == eleven


def test_a_numeric_key_the_request_gives_no_number_is_held_back(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    heater = _tool(
        "heater",
        {
            "temperature": {"type": "number", "minimum": 5, "maximum": 25},
            "mode": {"type": "string", "enum": ["heat", "auto", "off"]},
        },
    )
    guess = [{"name": "heater", "arguments": {"temperature": 6, "mode": "auto"}}]
    auto = [{"name": "heater", "arguments": {"mode": "auto"}}]
    wants = [(guess, 3.0), (auto, 1.0)]
    assert _decode(vocab, [heater], "set the heater to auto", wants, 0.0) == guess
    assert _decode(vocab, [heater], "set the heater to auto", wants, 5.0) == auto
    # a number said backs the key, even one out of range (the range check must see it)
    warm = [{"name": "heater", "arguments": {"temperature": 20, "mode": "auto"}}]
    assert _decode(vocab, [heater], "heater to auto at 20", [(warm, 3.0), (auto, 1.0)], 5.0) == warm
    token_bytes, _ = vocab
    key = np.array([token_bytes.index(b"t")])
    start = b'[{"name":"heater","arguments":{"'
    assert MentionPrior("heater to auto at 30", [heater], token_bytes, 5.0)(start, key) is None
    assert MentionPrior("heater to auto", [heater], token_bytes, 5.0)(start, key)[0] < 0


def test_a_clause_that_says_only_the_thing_takes_the_verb_before_it(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    off = {"name": "set_light", "arguments": {"room": "library", "on": False}}
    bare = {"name": "set_light", "arguments": {"room": "study"}}
    amber = {"name": "set_light", "arguments": {"room": "study", "color": "amber"}}
    study_off = {"name": "set_light", "arguments": {"room": "study", "on": False}}
    wants = [([off, amber], 3.0), ([off, bare], 2.0), ([off, study_off], 1.0)]
    query = "turn off the library and study lights"
    assert _decode(vocab, [LIGHTS], query, wants, 0.0) == [off, amber]
    assert _decode(vocab, [LIGHTS], query, wants, 5.0) == [off, study_off]


def test_a_first_clause_of_only_the_thing_takes_the_verb_after_it(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    lib_on = {"name": "set_light", "arguments": {"room": "library", "on": True}}
    lib_off = {"name": "set_light", "arguments": {"room": "library", "on": False}}
    study_off = {"name": "set_light", "arguments": {"room": "study", "on": False}}
    wants = [([lib_on, study_off], 3.0), ([lib_off, study_off], 1.0)]
    query = "library and study lights off"
    assert _decode(vocab, [LIGHTS], query, wants, 0.0) == [lib_on, study_off]
    assert _decode(vocab, [LIGHTS], query, wants, 5.0) == [lib_off, study_off]


def test_a_tool_word_inside_a_device_name_points_at_no_second_call(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    cabin = _tool(
        "cabin_light",
        {"room": {"type": "string", "enum": ["berth"]}, "on": {"type": "boolean"}},
        required=["room"],
    )
    relay = _tool(
        "set_relay",
        {
            "relay": {"type": "string", "enum": ["anchor light", "bilge pump"]},
            "on": {"type": "boolean"},
        },
        required=["relay", "on"],
    )
    off = {"name": "cabin_light", "arguments": {"room": "berth", "on": False}}
    again = {"name": "cabin_light", "arguments": {"room": "berth", "on": True}}
    anchor = {"name": "set_relay", "arguments": {"relay": "anchor light", "on": True}}
    wants = [([off, again], 3.0), ([off, anchor], 1.0)]
    query = "cabin light off and anchor light on"
    assert _decode(vocab, [cabin, relay], query, wants, 0.0) == [off, again]
    assert _decode(vocab, [cabin, relay], query, wants, 5.0) == [off, anchor]


def test_a_clause_of_only_a_number_belongs_to_the_one_before() -> None:
    lights = MentionPrior("make the library dimmer, say 25 percent", [LIGHTS], [b"a"], 5.0)
    assert len(set(lights.clause)) == 1
    # a clause that says a thing is its own, number or not
    two = MentionPrior("library light please, then the heating to 20", [LIGHTS], [b"a"], 5.0)
    assert len(set(two.clause)) == 2


def test_there_points_back_at_the_last_thing_said() -> None:
    things = ["veranda", "bunk room"]
    assert (
        resolve_there("veranda lamp on and close the curtains there", things)
        == "veranda lamp on and close the curtains in the veranda"
    )
    # a "there" that points at nothing said, or asks, is left alone
    for q in ("is there a lamp in the veranda", "over there, the veranda", "close it there"):
        assert resolve_there(q, things) == q


BOARD = _tool(
    "staff_board",
    {
        "message": {"type": "string"},
        "level": {"type": "string", "enum": ["info", "warning", "error"]},
    },
    required=["message"],
)


def test_a_log_level_is_written_only_when_said(vocab: tuple[list[bytes], list[int]]) -> None:
    plain = [{"name": "staff_board", "arguments": {"message": "the door sticks"}}]
    warned = [
        {"name": "staff_board", "arguments": {"message": "the door sticks", "level": "warning"}}
    ]
    query = "note that the door sticks"
    assert _decode(vocab, [BOARD], query, [(warned, 3.0), (plain, 1.0)], 0.0) == warned
    assert _decode(vocab, [BOARD], query, [(warned, 3.0), (plain, 1.0)], 5.0) == plain
    said = "post a warning: the door sticks"
    assert _decode(vocab, [BOARD], said, [(plain, 3.0), (warned, 1.0)], 5.0) == warned


def test_a_colour_said_only_inside_a_name_is_not_said() -> None:
    lights = json.loads(json.dumps(LIGHTS))
    props = lights["parameters"]["properties"]
    props["room"]["enum"] = ["green room", "study"]
    props["color"]["enum"] = ["green", "white"]
    prior = MentionPrior("green room lights at 80%", [lights], [b"a"], 5.0)
    assert prior._mention("green")[0] == 0.0
    assert prior._mention("green room")[0] == 1.0
    assert MentionPrior("make the study green", [lights], [b"a"], 5.0)._mention("green")[0] == 1.0
    flagged = unnamed_arguments(
        "green room lights to green",
        [lights],
        [{"name": "set_light", "arguments": {"room": "green room", "color": "green"}}],
    )
    assert flagged == []
    assert unnamed_arguments(
        "green room lights at 80%",
        [lights],
        [{"name": "set_light", "arguments": {"room": "green room", "color": "green"}}],
    ) == [{"name": "set_light", "argument": "color", "value": "green"}]


def test_a_setting_said_with_no_switching_word_sets_no_switch(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    fan = json.loads(json.dumps(FAN))
    fan["parameters"]["properties"]["speed"]["enum"] = ["slow", "fast"]
    both = [{"name": "set_fan", "arguments": {"on": False, "speed": "slow"}}]
    slow = [{"name": "set_fan", "arguments": {"speed": "slow"}}]
    wants = [(both, 3.0), (slow, 1.0)]
    assert _decode(vocab, [fan], "slow the fan down", wants, 0.0) == both
    assert _decode(vocab, [fan], "slow the fan down", wants, 5.0) == slow
    # "fire up" is a switching word: the switch stays
    on = [{"name": "set_fan", "arguments": {"on": True, "speed": "fast"}}]
    assert _decode(vocab, [fan], "fire up the fan on fast", [(on, 3.0)], 5.0) == on


def test_a_said_number_that_fits_is_not_cut_short(vocab: tuple[list[bytes], list[int]]) -> None:
    heat = _tool(
        "set_thermostat", {"temperature": {"type": "number", "minimum": 16, "maximum": 30}}
    )
    cut = [{"name": "set_thermostat", "arguments": {"temperature": 22}}]
    whole = [{"name": "set_thermostat", "arguments": {"temperature": 22.5}}]
    wants = [(cut, 12.0), (whole, 1.0)]
    query = "set the temperature to twenty two and a half"
    assert _decode(vocab, [heat], query, wants, 0.0) == cut
    assert _decode(vocab, [heat], query, wants, 5.0) == whole
    # one out of range is left to the grammar's cut, for the range check to see
    token_bytes, _ = vocab
    close = np.array([token_bytes.index(b"}")])
    text = b'[{"name":"set_thermostat","arguments":{"temperature":3'
    assert MentionPrior("thermostat to 35", [heat], token_bytes, 5.0)(text, close) is None


def test_the_one_name_said_in_the_calls_clause_counts_as_the_only_one(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    wifi_blink = {"name": "set_led", "arguments": {"led": "wifi", "mode": "blink"}}
    status_off = {"name": "set_led", "arguments": {"led": "status", "mode": "off"}}
    status_blink = {"name": "set_led", "arguments": {"led": "status", "mode": "blink"}}
    wifi_off = {"name": "set_led", "arguments": {"led": "wifi", "mode": "off"}}
    wants = [([wifi_blink, status_off], 9.0), ([status_blink, wifi_off], 1.0)]
    query = "status led blink, wifi led off"
    assert _decode(vocab, [LED], query, wants, 0.0) == [wifi_blink, status_off]
    assert _decode(vocab, [LED], query, wants, 5.0) == [status_blink, wifi_off]


def test_as_well_as_joins_two_commands() -> None:
    assert clause_numbers("the den violet as well as the loft at 50%") == [0] * 3 + [1] * 7
    assert clause_numbers("the den violet as well") == [0, 0, 0, 0, 0]


def test_warmth_words_point_at_the_tool_that_takes_a_temperature() -> None:
    heat = _tool("boiler", {"temperature": {"type": "number"}})
    prior = MentionPrior("can you make it warmer", [heat, LIGHTS], [b"a"], 5.0)
    assert prior._tool_score("boiler", [], []) > 0
    assert (
        MentionPrior("can you make it", [heat, LIGHTS], [b"a"], 5.0)._tool_score("boiler", [], [])
        == 0
    )


def test_full_or_max_pushes_the_first_bounded_number(vocab: tuple[list[bytes], list[int]]) -> None:
    room = _lit("library")
    full = _lit("library", brightness=100)
    white = _lit("library", brightness=100, color="white")
    assert _decode(vocab, [LIGHTS], "library light at max", [(room, 3.0), (full, 1.0)], 0.0) == room
    assert _decode(vocab, [LIGHTS], "library light at max", [(room, 3.0), (full, 1.0)], 5.0) == full
    # a colour nobody said, after a said setting, is held back ("at full brightness")
    query = "the library at full brightness"
    assert _decode(vocab, [LIGHTS], query, [(white, 3.0), (full, 1.0)], 5.0) == full
    # after a switch alone it is not ("fan on medium", a speed the fan lacks, stays doubted)
    on_amber = _lit("library", on=True, color="amber")
    on = _lit("library", on=True)
    assert (
        _decode(vocab, [LIGHTS], "library light on please", [(on_amber, 3.0), (on, 1.0)], 5.0)
        == on_amber
    )


def test_a_tool_without_properties_gets_no_key_push() -> None:
    free = {"name": "note", "parameters": {"type": "object"}}
    prior = MentionPrior("note hi there", [free], [b'"', b"a", b',"'], 5.0)
    # a free object: nothing to push, and no crash on the keys written so far
    assert prior(b'[{"name":"note","arguments":{"text":"hi', np.arange(3)) is None


def test_a_percentage_goes_to_the_key_in_percent(vocab: tuple[list[bytes], list[int]]) -> None:
    lights = _with_transition()
    swapped = _lit("library", brightness=3, transition=10)
    right = _lit("library", brightness=10, transition=3)
    wants = [(swapped, 3.0), (right, 1.0)]
    query = "fade the library to 10% over 3 seconds"
    assert _decode(vocab, [lights], query, wants, 0.0) == swapped
    assert _decode(vocab, [lights], query, wants, 5.0) == right


def test_a_names_number_said_in_words_names_it() -> None:
    names = ["bedroom 8", "bedroom 21", "bedroom 80", "loo"]
    said = "turn on Bedroom Eight and the loo, then bedroom twenty-one"
    assert with_name_digits(said, names) == "turn on bedroom 8 and the loo, then bedroom 21"
    # a number that is not the name's own is left alone
    assert with_name_digits("bedroom eighteen", names) == "bedroom eighteen"


def test_a_name_said_only_in_a_later_clause_is_not_the_first_calls(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    lights = _tool(
        "set_light",
        {"room": {"type": "string", "enum": ["bedroom 8", "loo"]}, "on": {"type": "boolean"}},
        required=["room"],
    )
    both = [
        {"name": "set_light", "arguments": {"room": "bedroom 8", "on": True}},
        {"name": "set_light", "arguments": {"room": "loo", "on": True}},
    ]
    loo = [both[1]]
    wants = [(loo, 1.0), (both, 0.5)]
    assert _decode(vocab, [lights], "turn on bedroom eight and the loo", wants, 5.0) == both


def test_a_number_said_asks_for_no_mode_as_well(vocab: tuple[list[bytes], list[int]]) -> None:
    both = [{"name": "warmth", "arguments": {"temperature": 18, "mode": "heat"}}]
    temp = [{"name": "warmth", "arguments": {"temperature": 18}}]
    wants = [(both, 1.0), (temp, 0.9)]
    assert _decode(vocab, [WARMTH], "warmth to 18", wants, 0.0) == both
    assert _decode(vocab, [WARMTH], "warmth to 18", wants, 5.0) == temp
    # "heating" says the heat mode
    assert _decode(vocab, [WARMTH], "warmth to heating and 18", wants, 5.0) == both


def test_a_name_said_again_goes_to_the_other_tool_that_has_it(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    awning = _tool(
        "awning",
        {
            "room": {"type": "string", "enum": ["harbour room", "front window"]},
            "position": {"type": "integer", "minimum": 0, "maximum": 100},
        },
        required=["room", "position"],
    )
    glow = _tool(
        "glow",
        {"room": {"type": "string", "enum": ["harbour room", "bar"]}, "on": {"type": "boolean"}},
        required=["room"],
        description="Switch or dim the cafe's lights.",
    )
    rolled = {"name": "awning", "arguments": {"room": "harbour room", "position": 0}}
    lit = {"name": "glow", "arguments": {"room": "harbour room", "on": True}}
    wants = [([rolled, rolled], 1.0), ([rolled, lit], 0.5)]
    query = "roll in the harbour room awning and switch on the harbour room lights"
    assert _decode(vocab, [awning, glow], query, wants, 5.0) == [rolled, lit]


def test_a_typo_in_a_name_is_mended_where_it_completes_the_name() -> None:
    things = ["small pool pump", "deck", "rice cooker", "hall"]
    assert with_typos_mended("stop the smalll pool pump", things, []) == (
        "stop the small pool pump"
    )
    assert with_typos_mended("the dcek blinds to 12", things, []) == "the deck blinds to 12"
    assert with_typos_mended("RIEC COOKER OFF", things, []) == "rice cooker OFF"
    # a number word, a common word or a one-word setting is never taken for a typo
    assert with_typos_mended("hall blinds half way", things, []) == "hall blinds half way"
    assert with_typos_mended("lights on while I cook", things, ["white"]) == (
        "lights on while I cook"
    )
    # a short word with one letter changed is likely another word: "dock" is not "deck"
    assert with_typos_mended("dock lights on", things, []) == "dock lights on"
    # a possessive one letter off is someone else's
    assert with_typos_mended("Tally's room light on", ["Tilly's room"], []) == (
        "Tally's room light on"
    )
    # two names one typo away: no guess
    assert with_typos_mended("the hale light", ["hall", "halt"], []) == "the hale light"


def test_a_word_inside_a_name_or_another_clause_is_no_rival(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    plugs = _tool(
        "plugs",
        {
            "device": {"type": "string", "enum": ["Emma's fan", "kettle"]},
            "action": {"type": "string", "enum": ["ON", "OFF", "TOGGLE"]},
        },
        required=["device", "action"],
    )
    fan = _tool("set_fan", {"on": {"type": "boolean"}})
    plug_off = {"name": "plugs", "arguments": {"device": "Emma's fan", "action": "OFF"}}
    fan_off = {"name": "set_fan", "arguments": {"on": False}}
    wants = [([fan_off, fan_off], 8.0), ([plug_off, fan_off], 0.5)]
    query = "hey needle, kill Emma's fan and stop the fan right now"
    assert _decode(vocab, [plugs, fan], query, wants, 5.0) == [plug_off, fan_off]


def test_a_lamp_is_a_light(vocab: tuple[list[bytes], list[int]]) -> None:
    lamp = _tool(
        "set_lamp",
        {"room": {"type": "string", "enum": ["Yara's study"]}, "on": {"type": "boolean"}},
        required=["room"],
        description="Switch the caravan lamp on or off.",
    )
    pilot = {**LED, "name": "set_pilot_light"}
    lamp_off = [{"name": "set_lamp", "arguments": {"room": "Yara's study", "on": False}}]
    pilot_off = [{"name": "set_pilot_light", "arguments": {"led": "status", "mode": "off"}}]
    wants = [(pilot_off, 8.0), (lamp_off, 0.5)]
    query = "lights off in Yara's study"
    assert _decode(vocab, [lamp, pilot], query, wants, 5.0) == lamp_off


def test_a_mode_follows_its_clauses_sense_over_a_familiar_one(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    both_off = [_led("status", "off"), _led("wifi", "off")]
    blink = [_led("status", "off"), _led("wifi", "blink")]
    # "blink" is a sense word although the LEDs' mode has a value "blink"
    wants = [(both_off, 8.0), (blink, 0.0)]
    query = "status led off and blink the wifi led"
    assert _decode(vocab, [LED], query, wants, 5.0) == blink


def test_a_mode_said_as_a_setting_waits_for_its_key(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    thermostat = _tool(
        "set_thermostat",
        {
            "temperature": {"type": "number", "minimum": 10, "maximum": 28},
            "mode": {"type": "string", "enum": ["heat", "cool", "auto", "off"]},
        },
    )
    temp = [{"name": "set_thermostat", "arguments": {"temperature": 22}}]
    both = [{"name": "set_thermostat", "arguments": {"temperature": 22, "mode": "cool"}}]
    wants = [(temp, 1.0), (both, 0.5)]
    query = "set the thermostat to cool and twenty two degrees"
    assert _decode(vocab, [thermostat], query, wants, 5.0) == both
    # a mode word as a verb is the model's to read ("cool it down to 22")
    assert _decode(vocab, [thermostat], "cool it down to 22", wants, 5.0) == temp


def test_a_tools_name_word_inside_a_things_name_is_not_its_name(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    glow = _tool(
        "room_glow",
        {
            "room": {"type": "string", "enum": ["Tilly's room", "utility"]},
            "on": {"type": "boolean"},
        },
        required=["room"],
    )
    roller = _tool(
        "roller",
        {
            "room": {"type": "string", "enum": ["Tilly's room"]},
            "position": {"type": "integer", "minimum": 0, "maximum": 100},
        },
        required=["room", "position"],
        description="Roller blinds by room.",
    )
    lit = [{"name": "room_glow", "arguments": {"room": "Tilly's room", "on": False}}]
    down = [{"name": "roller", "arguments": {"room": "Tilly's room", "position": 0}}]
    wants = [(lit, 5.0), (down, 0.0)]
    assert _decode(vocab, [glow, roller], "Tilly's room blinds down", wants, 5.0) == down


def test_a_clause_that_points_at_a_tool_gets_its_call_and_its_number(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    heating = _tool(
        "set_thermostat",
        {
            "mode": {"type": "string", "enum": ["heat", "cool", "off"]},
            "temperature": {"type": "number", "minimum": 10, "maximum": 28},
        },
        description="Set the thermostat's target temperature or mode.",
    )
    kettle = {"name": "set_relay", "arguments": {"relay": "kettle", "on": True}}
    heat = {"name": "set_thermostat", "arguments": {"mode": "heat"}}
    to_21 = {"name": "set_thermostat", "arguments": {"temperature": 21}}
    wants = [([kettle], 1.0), ([kettle, heat], 0.9), ([kettle, to_21], 0.5)]
    query = "kettle on, then the heating to 21"
    assert _decode(vocab, [RELAY, heating], query, wants, 0.0) == [kettle]
    assert _decode(vocab, [RELAY, heating], query, wants, 5.0) == [kettle, to_21]


def test_a_named_tool_holds_its_number_out_of_range() -> None:
    lights = _tool(
        "cabin_lights",
        {
            "room": {"type": "string", "enum": ["cabin 3"]},
            "brightness": {"type": "integer", "minimum": 0, "maximum": 100},
        },
    )
    prior = MentionPrior("set the warmth to 35", [lights, WARMTH], [b"a"], 5.0)
    scores = dict(prior._choices(("tool", None, None), [], []))
    # 35 is outside the warmth's range, but the request names it: the range check refuses it
    assert scores[b"warmth"] > 0
    prior = MentionPrior("set it to 35", [lights, WARMTH], [b"a"], 5.0)
    assert dict(prior._choices(("tool", None, None), [], []))[b"warmth"] < 0


def test_a_number_said_only_in_words_outweighs_the_models_own(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    quarter = [{"name": "set_blinds", "arguments": {"room": "study", "position": 25}}]
    four = [{"name": "set_blinds", "arguments": {"room": "study", "position": 4}}]
    wants = [(four, 8.0), (quarter, 0.0)]
    assert _decode(vocab, [BLINDS], "study blinds to a quarter", wants, 5.0) == quarter


def test_a_digit_setting_said_in_words_is_written_in_digits() -> None:
    speeds = {"1", "2", "3", "4"}
    assert with_setting_digits("fan speed three", speeds) == "fan speed 3"
    assert with_setting_digits("fan to two and the lights off", speeds) == (
        "fan to 2 and the lights off"
    )
    # part of a larger number, or not after a word that sets it: left alone
    for said in ("blinds three quarters", "to twenty one and a half", "turn on the three lights"):
        assert with_setting_digits(said, speeds) == said


def test_a_digit_speed_said_is_written(vocab: tuple[list[bytes], list[int]]) -> None:
    fan = _tool(
        "set_fan",
        {"on": {"type": "boolean"}, "speed": {"type": "string", "enum": ["1", "2", "3", "4"]}},
    )
    on = [{"name": "set_fan", "arguments": {"on": True}}]
    on_4 = [{"name": "set_fan", "arguments": {"on": True, "speed": "4"}}]
    wants = [(on, 1.0), (on_4, 0.5)]
    assert _decode(vocab, [fan], "fan on 4", wants, 5.0) == on_4


def test_a_setting_only_one_sharing_tool_has_decides_between_them(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    lights = _tool(
        "set_light",
        {
            "room": {"type": "string", "enum": ["study", "hall"]},
            "color": {"type": "string", "enum": ["white", "deep red"]},
        },
        required=["room"],
    )
    shut = [{"name": "set_blinds", "arguments": {"room": "study", "position": 0}}]
    red = [{"name": "set_light", "arguments": {"room": "study", "color": "deep red"}}]
    wants = [(shut, 5.0), (red, 0.0)]
    assert _decode(vocab, [BLINDS, lights], "study to deep red", wants, 5.0) == red


def test_and_a_half_does_not_begin_a_clause() -> None:
    assert len(set(clause_numbers("thermostat to twenty one and a half"))) == 1
    assert len(set(clause_numbers("thermostat to 21 and a fan off"))) == 2


def test_request_readings_survive_odd_names_and_larger_numbers() -> None:
    odd = {
        "name": "l",
        "parameters": {
            "type": "object",
            "properties": {"room": {"type": "string", "enum": ["C:\\d 2", "bedroom ²", "²"]}},
        },
    }
    assert mended("turn on the kitchen light", [odd]) == "turn on the kitchen light"
    # a setting of digits is not read out of a larger number, nor out of "one of"
    speeds = {"10", "20", "1"}
    for said in ("set the timer to twenty five percent", "turn on one of the lamps"):
        assert with_setting_digits(said, speeds) == said
    # a typo is mended where it stands in the name only
    said = "lights on in the hall closed, and leave the garage door closed"
    assert with_typos_mended(said, ["hall closet", "garage"], []) == (
        "lights on in the hall closet, and leave the garage door closed"
    )


def test_seconds_said_go_to_a_transition_and_a_percentage_to_the_brightness() -> None:
    from agent.calling.session import Session
    from agent.model.bundled import GENERAL
    from agent.offline.train.homes import home_tools

    # a transition's unit is in its name only (zigbee2mqtt's schema has no description)
    tools = home_tools({"lights": {"kind": "zigbee2mqtt_lights", "devices": {"tack room": "t1"}}})
    s = Session(GENERAL, tools, threads=1)
    env = s.complete("fade the tack room lights off over 10 seconds")
    assert env["function_calls"] == [
        {"name": "set_light", "arguments": {"room": "tack room", "on": False, "transition": 10}}
    ]
    env = s.complete("fade the tack room to 30 percent over 5 seconds")
    assert env["function_calls"] == [
        {"name": "set_light", "arguments": {"room": "tack room", "brightness": 30, "transition": 5}}
    ]


def test_a_joining_word_inside_a_name_starts_no_clause() -> None:
    from agent.calling.grammar.reading import (
        clause_numbers,
        words,
    )

    said = "turn the lights off in Mum and Dad's room"
    assert len(clause_numbers(said)) == len(words(said))
    assert len(set(clause_numbers(said))) == 2
    assert set(clause_numbers(said, ["Mum and Dad's room", "hall"])) == {0}
    assert set(clause_numbers("hall on and Mum off", ["Mum and Dad's room"])) == {0, 1}


@pytest.mark.parametrize(
    ("said", "sense"),
    [
        ("den blinds down", "close"),
        ("Finn's blinds all the way up", "open"),
        ("put the shades all the way down", "close"),
        ("turn the heating all the way up", None),  # no cover: no opening
        ("light up the office", "on"),
        ("bring the office lights up to full brightness", None),  # a level, not a switch
    ],
)
def test_up_opens_a_cover_and_lights_a_room_up_to_is_a_level(said: str, sense: str | None) -> None:
    got = {s for _, ss in switch_senses(words(said)) for s in ss}
    assert got == ({sense} if sense else set())


def test_a_mode_said_inside_a_tool_name_is_not_said(vocab: tuple[list[bytes], list[int]]) -> None:
    pump = _tool(
        "set_heat_pump",
        {"mode": {"type": "string", "enum": ["heat", "cool", "off"]}},
        required=["mode"],
    )
    heat = [{"name": "set_heat_pump", "arguments": {"mode": "heat"}}]
    cool = [{"name": "set_heat_pump", "arguments": {"mode": "cool"}}]
    wants = [(heat, 3.0), (cool, 1.0)]
    query = "put the heat pump on cool"
    assert _decode(vocab, [pump], query, wants, 0.0) == heat
    assert _decode(vocab, [pump], query, wants, 5.0) == cool


def test_a_value_said_only_inside_a_longer_one_is_not_said(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    lights = _tool(
        "set_light",
        {
            "room": {"type": "string", "enum": ["spray cabin"]},
            "color": {"type": "string", "enum": ["white", "moon white", "honey"]},
        },
        required=["room"],
    )
    white = [{"name": "set_light", "arguments": {"room": "spray cabin", "color": "white"}}]
    moon = [{"name": "set_light", "arguments": {"room": "spray cabin", "color": "moon white"}}]
    wants = [(white, 4.0), (moon, 1.0)]
    query = "spray cabin light to moon white"
    assert _decode(vocab, [lights], query, wants, 0.0) == white
    assert _decode(vocab, [lights], query, wants, 5.0) == moon


def test_a_one_word_tool_name_only_it_has_is_as_good_as_a_name_said(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    stove = _tool(
        "set_stove",
        {"mode": {"type": "string", "enum": ["heat", "off"]}},
        required=["mode"],
    )
    relay = _tool(
        "set_relay",
        {"relay": {"type": "string", "enum": ["trough pump"]}, "on": {"type": "boolean"}},
        required=["relay", "on"],
    )
    pump = [{"name": "set_relay", "arguments": {"relay": "trough pump", "on": False}}]
    off = [{"name": "set_stove", "arguments": {"mode": "off"}}]
    wants = [(pump, 4.5), (off, 1.0)]
    assert _decode(vocab, [stove, relay], "turn the stove off", wants, 0.0) == pump
    assert _decode(vocab, [stove, relay], "turn the stove off", wants, 5.0) == off


def test_a_room_said_outranks_a_colour_another_tool_has_too(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    porch = _tool(
        "porch_light",
        {
            "room": {"type": "string", "enum": ["porch"]},
            "color": {"type": "string", "enum": ["amber", "red"]},
        },
        required=["room"],
    )
    lib = {"name": "set_light", "arguments": {"room": "library", "color": "white"}}
    study = {"name": "set_light", "arguments": {"room": "study", "color": "amber"}}
    outside = {"name": "porch_light", "arguments": {"room": "porch", "color": "amber"}}
    wants = [([lib, outside], 3.0), ([lib, study], 1.0)]
    query = "white in the library and amber in the study"
    assert _decode(vocab, [LIGHTS, porch], query, wants, 0.0) == [lib, outside]
    assert _decode(vocab, [LIGHTS, porch], query, wants, 5.0) == [lib, study]


def test_a_thing_said_outranks_a_colour_and_a_light_word(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    outdoor = _tool(
        "outdoor_lights",
        {
            "room": {"type": "string", "enum": ["rose arch"]},
            "on": {"type": "boolean"},
            "color": {"type": "string", "enum": ["red", "white"]},
        },
        required=["room"],
    )
    led = _tool(
        "set_led",
        {
            "led": {"type": "string", "enum": ["engaged", "ready"]},
            "mode": {"type": "string", "enum": ["on", "off", "blink"]},
        },
        required=["led", "mode"],
    )
    arch = [{"name": "outdoor_lights", "arguments": {"room": "rose arch", "color": "red"}}]
    engaged = [{"name": "set_led", "arguments": {"led": "engaged", "mode": "on"}}]
    wants = [(arch, 3.0), (engaged, 1.0)]
    query = "put the red engaged light on"
    assert _decode(vocab, [outdoor, led], query, wants, 0.0) == arch
    assert _decode(vocab, [outdoor, led], query, wants, 5.0) == engaged


def test_of_two_tools_with_the_room_the_one_named_more_fully_is_chosen() -> None:
    """ "the back stairs strip light": both light tools have the back stairs and both names
    are said ("light"), but only set_strip_light's name says "strip" too."""
    from agent.calling.session import Session
    from agent.model.bundled import GENERAL
    from agent.offline.train.homes import home_tools

    home = {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["farm kitchen", "bedroom 4", "bedroom 5", "cheese room", "back stairs"],
            "colors": ["white", "warm white", "heather", "slate blue"],
        },
        "strips": {
            "kind": "zigbee2mqtt_lights",
            "devices": {"farm kitchen": "kitchen_strip", "back stairs": "stair_strip"},
            "tool": "set_strip_light",
            "description": "LED strip lights under the kitchen cupboards and along the back "
            "stairs.",
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["farm kitchen", "bedroom 4"]},
        "heating": {"kind": "simulated_thermostat", "min_temperature": 8, "max_temperature": 24},
    }
    s = Session(GENERAL, home_tools(home), threads=1)
    strip = s.complete("turn off the back stairs strip light")["function_calls"]
    assert strip == [{"name": "set_strip_light", "arguments": {"room": "back stairs", "on": False}}]
    plain = s.complete("turn off the back stairs light")["function_calls"]
    assert plain == [{"name": "set_light", "arguments": {"room": "back stairs", "on": False}}]


def test_a_tool_name_s_head_noun_names_it() -> None:
    """ "open the vents in bay 3": bay 3 has lights and vents; "vents" is the head of
    roof_vents, so the vents are meant, though "roof" is never said."""
    from agent.calling.session import Session
    from agent.model.bundled import GENERAL
    from agent.offline.train.homes import home_tools

    home = {
        "vents": {
            "kind": "simulated_blinds",
            "rooms": ["bay 1", "bay 2", "bay 3"],
            "tool": "roof_vents",
            "description": "Motorised roof vents in each glasshouse bay; 0 shut, 100 open.",
        },
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["bay 1", "bay 2", "bay 3", "potting shed"],
            "tool": "bay_lights",
            "description": "Grow and work lights in each bay.",
        },
    }
    s = Session(GENERAL, home_tools(home), threads=1)
    vents = s.complete("open the vents in bay 3")["function_calls"]
    assert vents == [{"name": "roof_vents", "arguments": {"room": "bay 3", "position": 100}}]
    light = s.complete("turn on the light in bay 3")["function_calls"]
    assert light == [{"name": "bay_lights", "arguments": {"room": "bay 3", "on": True}}]


def test_a_tool_name_said_as_written_takes_the_room_inside_it() -> None:
    """ "playroom heater to 19 degrees": the playroom is a room of the lights too, but the
    request says set_playroom_heater's whole name, so the heater is meant."""
    from agent.calling.session import Session
    from agent.model.bundled import GENERAL
    from agent.offline.train.homes import home_tools

    home = {
        "lights": {"kind": "simulated_lights", "rooms": ["playroom", "den", "bedroom 6"]},
        "heater": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 25,
            "tool": "set_playroom_heater",
            "description": "The oil heater in the playroom: target temperature or mode.",
        },
    }
    s = Session(GENERAL, home_tools(home), threads=1)
    heat = s.complete("playroom heater to 19 degrees")["function_calls"]
    assert heat == [{"name": "set_playroom_heater", "arguments": {"temperature": 19}}]
    off = s.complete("switch off the playroom heater")["function_calls"]
    assert off == [{"name": "set_playroom_heater", "arguments": {"mode": "off"}}]
    light = s.complete("playroom light off")["function_calls"]
    assert light == [{"name": "set_light", "arguments": {"room": "playroom", "on": False}}]


def test_a_thing_said_by_the_end_of_its_name_takes_its_own_sense(
    vocab: tuple[list[bytes], list[int]],
) -> None:
    # "floodlight off and the trough heater on": the floodlight is off, though said in part
    yard = _tool(
        "set_yard_relay",
        {
            "relay": {"type": "string", "enum": ["stackyard floodlight", "trough heater"]},
            "on": {"type": "boolean"},
        },
        ("relay", "on"),
    )
    token_bytes, _ = vocab
    t, f = (next(i for i, b in enumerate(token_bytes) if b.startswith(x)) for x in (b"t", b"f"))
    cands = np.array([t, f])
    after = b'[{"name":"set_yard_relay","arguments":{"relay":"stackyard floodlight","on":'
    bias = MentionPrior("floodlight off and the trough heater on", [yard], token_bytes, 5.0)(
        after, cands
    )
    assert bias is not None and bias[0] < 0 == bias[1]  # "true" held back, "false" free
    # said as the second thing, it takes the second sense
    later = MentionPrior("trough heater off and the floodlight on", [yard], token_bytes, 5.0)
    flood = b'[{"name":"set_yard_relay","arguments":{"relay":"trough heater","on":false},'
    flood += after[1:]
    bias = later(flood, cands)
    assert bias is not None and bias[1] < 0 == bias[0]


def test_full_brightness_is_no_longest_fade_as_well(vocab: tuple[list[bytes], list[int]]) -> None:
    lights = _with_transition(description="Fade time in seconds")
    full = _lit("library", on=True, brightness=100)
    both = _lit("library", on=True, brightness=100, transition=600)
    # the model would end after the brightness; "full" pushes no second bounded key
    wants = [(full, 1.0), (both, 0.9)]
    said = "turn on the library light at full brightness"
    assert _decode(vocab, [lights], said, wants, 5.0) == full
