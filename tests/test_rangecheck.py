"""Numbers the user said against the numbers in the call (agent.calling.rangecheck)."""

from __future__ import annotations

from typing import Any

import pytest
from daemon_fixtures import make_config

from agent.calling.rangecheck import Said, find_remapped, said_numbers
from agent.offline.train.synth import number_words
from devices import build_registry

TOOLS = {t["name"]: t for t in build_registry(make_config().devices).tools()}
# a home with a numbered room and a 0..1 dimmer, as real configs have
TOOLS["set_zone"] = {
    "name": "set_zone",
    "parameters": {
        "type": "object",
        "properties": {
            "zone": {"type": "string", "enum": ["bedroom 2", "zone 3", "loft"]},
            "level": {"type": "number", "minimum": 0, "maximum": 1},
            "minutes": {"type": "integer", "exclusiveMinimum": 0, "maximum": 120},
        },
    },
}


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("set the thermostat to 99 degrees", [99]),
        ("250 percent", [250]),
        ("set it to -20", [-20]),
        ("minus 20 degrees", [-20]),
        ("negative five", [-5]),
        ("twenty-one point five", [21.5]),
        ("one hundred and fifty", [150]),
        ("a hundred percent", [100]),
        ("two thousand three hundred forty five", [2345]),
        ("one two three", [1, 2, 3]),
        ("20-25", [20, 25]),
        ("1,000 and 21.5", [1000, 21.5]),
        ("the one in the kitchen", []),
        ("lights off, last one out", []),
        ("the bright one hurts my eyes", []),
        ("fan to level one", [1]),
        ("bedroom one on", [1]),
        ("at 7:30 set it to 21", [21]),
        ("at 7 am", []),
        ("seven o'clock", []),
        ("turn it up by 2", []),
        ("zone2 on the 2nd floor to 21c", [21]),
        ("nineteen and a half degrees", [19.5]),
        ("minus 2 and a half", [-2.5]),
        ("open the blinds half way", [50]),
        ("blinds halfway and the fan to 3", [50, 3]),
        ("in half an hour", []),
        ("den blinds a quarter open", [25]),
        ("three quarters", [75]),
        ("a quarter of an hour", []),
        ("set heating to 20\u00b0C", [20]),
        ("open the blinds three quarters of the way", [75]),
        ("fan for three quarters of an hour", []),
        ("dim the kitchen lights by half", []),
        ("raise it by a quarter", []),
        ("run the fan for an hour and a half", []),
        ("heating on at half past six", []),
        ("lights to 40% at a quarter to seven", [40]),
        ("half of the lights", []),
    ],
)
def test_said_numbers(text: str, values: list[float]) -> None:
    assert [s.value for s in said_numbers(text)] == values


def test_said_numbers_reads_what_the_synthesiser_writes() -> None:
    """Every number word form the training data uses reads back as its number."""
    for n in [0, 7, 13, 20, 21, 45, 99, 100, 105, 250, 999, -3, -20, 21.5]:
        for hyphen in (False, True):
            text = f"set it to {number_words(n, hyphen)} please"
            assert [s.value for s in said_numbers(text)] == [n], text


def test_a_protected_name_is_blanked_as_a_whole_word_only() -> None:
    speeds = ["1", "2", "3", "bedroom 8"]
    assert [s.value for s in said_numbers("office blinds to 130", speeds)] == [130]
    assert [s.value for s in said_numbers("hallway to 20", speeds)] == [20]
    assert said_numbers("fan at speed 2", speeds) == []
    assert [s.value for s in said_numbers("bedroom 8 to 40", speeds)] == [40]
    assert [s.value for s in said_numbers("thermostat to 20.3", speeds)] == [20.3]


def test_half_is_half_of_a_percentage() -> None:
    assert said_numbers("at half brightness") == [Said(50.0, True)]


def test_percent_is_noted() -> None:
    assert said_numbers("dim to 40 per cent") == [Said(40, percent=True)]
    assert said_numbers("dim to 40%") == [Said(40, percent=True)]


@pytest.mark.parametrize(
    ("text", "calls", "param", "said"),
    [
        # the grammar's renderings of requests outside the range
        (
            "set the thermostat to 99 degrees",
            [call("set_thermostat", temperature=9, mode="cool")],
            "temperature",
            99,
        ),
        (
            "set the kitchen light to 250 percent",
            [call("set_light", room="kitchen", brightness=25)],
            "brightness",
            250,
        ),
        ("set the thermostat to -20", [call("set_thermostat", temperature=5)], "temperature", -20),
        (
            "set the thermostat to minus 20 degrees",
            [call("set_thermostat", temperature=20)],
            "temperature",
            -20,
        ),
        ("heating to ninety nine", [call("set_thermostat", temperature=30)], "temperature", 99),
        # one out-of-range number in a two-action command
        (
            "dim the kitchen to 50 and the bedroom to 300",
            [
                call("set_light", room="kitchen", brightness=50),
                call("set_light", room="bedroom", brightness=30),
            ],
            "brightness",
            300,
        ),
        ("zone 3 to 150 percent", [call("set_zone", zone="zone 3", level=1)], "level", 150),
        # a percentage is a fraction only for a 0..1 parameter: 200% is no blind position of 2
        (
            "set the bedroom shades to two hundred %",
            [call("set_blinds", room="bedroom", position=2)],
            "position",
            200,
        ),
        ("loft fan for 0 minutes", [call("set_zone", zone="loft", minutes=1)], "minutes", 0),
    ],
)
def test_remapped_numbers_are_found(text: str, calls: list, param: str, said: float) -> None:
    found = find_remapped(text, calls, TOOLS)
    assert found is not None and found.param == param and found.said.value == said
    assert str(said) in found.message() and param in found.message()


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ("set the thermostat to 21 degrees", [call("set_thermostat", temperature=21)]),
        ("set the thermostat to twenty one", [call("set_thermostat", temperature=21)]),
        ("turn on the kitchen light", [call("set_light", room="kitchen", on=True)]),
        ("open the bedroom blinds", [call("set_blinds", room="bedroom", position=100)]),
        # the 2 of "bedroom 2" is a name, not a level
        ("bedroom 2 to half", [call("set_zone", zone="bedroom 2", level=0.5)]),
        ("bedroom 2 at 50 percent", [call("set_zone", zone="bedroom 2", level=0.5)]),
        # times are not quantities
        ("at 7:30 set the heating to 21", [call("set_thermostat", temperature=21)]),
        ("set the heating to 19 at 6 am", [call("set_thermostat", temperature=19)]),
        # two numbers for two actions, each accounted for
        (
            "blinds to 40 and the heating to 21",
            [
                call("set_blinds", room="bedroom", position=40),
                call("set_thermostat", temperature=21),
            ],
        ),
        # the 50 belongs to the light: the heating's guess is not blamed on it
        (
            "dim the kitchen to 50 and make it warmer",
            [
                call("set_light", room="kitchen", brightness=50),
                call("set_thermostat", temperature=22),
            ],
        ),
        # a relative change: nothing to compare
        ("turn the heating up by 2", [call("set_thermostat", temperature=22)]),
        # an in-range number the integer parameter rounded is not a remap of the range
        ("dim the kitchen to 30.5", [call("set_light", room="kitchen", brightness=30)]),
        # in range, and a value the model chose for a word
        ("blinds halfway, it is 35 degrees out", [call("set_blinds", room="x", position=50)]),
    ],
)
def test_legitimate_calls_pass(text: str, calls: list) -> None:
    assert find_remapped(text, calls, TOOLS) is None


def test_unknown_tools_and_odd_arguments_are_ignored() -> None:
    assert find_remapped("set it to 99", [call("nope", x=9)], TOOLS) is None
    assert find_remapped("set it to 99", ["not a call", {"name": 3}], TOOLS) is None
    odd = [call("set_thermostat", temperature=True), {"name": "set_light", "arguments": None}]
    assert find_remapped("set it to 99", odd, TOOLS) is None


def test_a_number_said_after_its_parameters_name_is_that_parameters() -> None:
    """ "booth 2 brightness 110" decoded as brightness 11 and a fade of 110 seconds: the 110
    said after "brightness" is the brightness asked, out of its range, though the fade holds
    it. In range, a fade said apart is no remap."""
    from agent.offline.train.homes import home_tools

    tools = {
        t["name"]: t
        for t in home_tools(
            {
                "lights": {
                    "kind": "zigbee2mqtt_lights",
                    "devices": {"booth 1": "b1", "booth 2": "b2"},
                }
            }
        )
    }
    name = next(n for n in tools if "transition" in tools[n]["parameters"]["properties"])
    split = [call(name, room="booth 2", brightness=11, transition=110)]
    found = find_remapped("booth 2 brightness 110", split, tools)
    assert found is not None and found.param == "brightness" and found.said.value == 110
    fine = [call(name, room="booth 2", brightness=90, transition=110)]
    assert find_remapped("booth 2 brightness 90 over 110 seconds", fine, tools) is None
