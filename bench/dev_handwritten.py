"""Write the hand-written development set: `python bench/dev_handwritten.py --out FILE.jsonl`.

The generated dev sets (`bench/dev_sets.py`) come from the training templates, so a decoding
rule that fixes how people actually phrase things ("make the pantry teal", "fan on gale") shows
no gain there, while the hand-written held-out homes must stay the final test and never choose
anything. These 90 requests to three homes, written by hand for choosing rules, sit between:
their names and phrasings are not the held-out homes' (no held-out home, room or device is
reused), and nothing here is ever trained on.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agent.offline.train.homes import home_tools

HOMES: dict[str, dict[str, Any]] = {
    "mill_cottage": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["pantry", "sunroom", "Mia's room", "attic", "mud room"],
            "colors": ["white", "warm white", "teal", "coral", "sunset", "ice blue"],
        },
        "fan": {"kind": "simulated_fan", "speeds": ["calm", "brisk", "gale"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "clothes airer": "airer",
                "espresso machine": "espresso",
                "heated mirror": "mirror",
            },
        },
        "heating": {"kind": "simulated_thermostat", "min_temperature": 12, "max_temperature": 28},
    },
    "bakery_unit": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "front counter": "counter_bulb",
                "bake room": "bake_bulb",
                "loading bay": "bay_bulb",
            },
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"proofer": 5, "dough mixer": 6, "extractor hood": 13},
        },
        "leds": {"kind": "gpio_leds", "leds": {"oven ready": 20, "door open": 21}},
        "blinds": {"kind": "simulated_blinds", "rooms": ["shop window", "back office"]},
    },
    "attic_flat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["lounge", "Zoe's room", "bedroom 5", "bedroom 6", "landing nook"],
            "colors": ["white", "peach", "mint", "violet", "candle"],
            "tool": "set_lamps",
            "description": "Lamps in each room: on or off, brightness in percent, colour.",
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "mid", "max", "night"]},
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["Zoe's room", "skylight"],
            "tool": "set_shades",
        },
        "heat": {
            "kind": "simulated_thermostat",
            "min_temperature": 15,
            "max_temperature": 26,
            "tool": "set_radiators",
        },
    },
}


def c(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "arguments": args}


P, T = "positive", "two_actions"
U, I, N, O, M = "unsupported", "invalid", "negated", "off_topic", "missing"

CASES: dict[str, list[tuple[str, str, list[dict[str, Any]]]]] = {
    "mill_cottage": [
        (P, "switch on the pantry light", [c("set_light", room="pantry", on=True)]),
        (P, "make the sunroom teal", [c("set_light", room="sunroom", color="teal")]),
        (P, "Mia's room light to coral please", [c("set_light", room="Mia's room", color="coral")]),
        (P, "dim the attic to 15%", [c("set_light", room="attic", brightness=15)]),
        (P, "mud room lights off", [c("set_light", room="mud room", on=False)]),
        (
            P,
            "set the sunroom lights to ice blue",
            [c("set_light", room="sunroom", color="ice blue")],
        ),
        (P, "sunset colour in the attic", [c("set_light", room="attic", color="sunset")]),
        (P, "fan on gale", [c("set_fan", on=True, speed="gale")]),
        (P, "set the fan to calm", [c("set_fan", speed="calm")]),
        (P, "switch the fan off", [c("set_fan", on=False)]),
        (P, "turn the clothes airer on", [c("set_switch", device="clothes airer", action="ON")]),
        (P, "espresso machine off", [c("set_switch", device="espresso machine", action="OFF")]),
        (P, "toggle the heated mirror", [c("set_switch", device="heated mirror", action="TOGGLE")]),
        (P, "heating to 21 degrees", [c("set_thermostat", temperature=21)]),
        (P, "put the heating on auto", [c("set_thermostat", mode="auto")]),
        (
            T,
            "espresso machine on and the pantry light on",
            [
                c("set_switch", device="espresso machine", action="ON"),
                c("set_light", room="pantry", on=True),
            ],
        ),
        (
            T,
            "make the attic warm white, then fan to brisk",
            [c("set_light", room="attic", color="warm white"), c("set_fan", speed="brisk")],
        ),
        (
            T,
            "turn off the clothes airer and set the heating to 19",
            [
                c("set_switch", device="clothes airer", action="OFF"),
                c("set_thermostat", temperature=19),
            ],
        ),
        (U, "turn on the larder light", []),
        (U, "make the sunroom purple", []),
        (U, "switch on the toaster", []),
        (U, "fan on hurricane", []),
        (I, "heating to 35 degrees", []),
        (I, "dim the attic to 140 percent", []),
        (N, "don't turn off the espresso machine", []),
        (N, "never mind the fan", []),
        (O, "what's the weather like in the sunroom today", []),
        (O, "order more coffee beans for the espresso machine", []),
        (M, "switch the plug on", []),
        (M, "make the light brighter", []),
    ],
    "bakery_unit": [
        (P, "lights on in the bake room", [c("set_light", room="bake room", on=True)]),
        (P, "front counter light to 60%", [c("set_light", room="front counter", brightness=60)]),
        (P, "switch off the loading bay light", [c("set_light", room="loading bay", on=False)]),
        (P, "start the proofer", [c("set_relay", relay="proofer", on=True)]),
        (P, "turn the dough mixer off", [c("set_relay", relay="dough mixer", on=False)]),
        (P, "extractor hood on please", [c("set_relay", relay="extractor hood", on=True)]),
        (P, "flash the oven ready light", [c("set_led", led="oven ready", mode="blink")]),
        (P, "door open led off", [c("set_led", led="door open", mode="off")]),
        (P, "close the shop window blinds", [c("set_blinds", room="shop window", position=0)]),
        (P, "open the back office blinds", [c("set_blinds", room="back office", position=100)]),
        (P, "shop window blinds to 30 percent", [c("set_blinds", room="shop window", position=30)]),
        (P, "turn on the oven ready led", [c("set_led", led="oven ready", mode="on")]),
        (P, "kill the extractor hood", [c("set_relay", relay="extractor hood", on=False)]),
        (P, "bake room lights to 100 percent", [c("set_light", room="bake room", brightness=100)]),
        (
            T,
            "start the dough mixer and switch on the proofer",
            [
                c("set_relay", relay="dough mixer", on=True),
                c("set_relay", relay="proofer", on=True),
            ],
        ),
        (
            T,
            "close the shop window blinds, then turn off the front counter light",
            [
                c("set_blinds", room="shop window", position=0),
                c("set_light", room="front counter", on=False),
            ],
        ),
        (
            T,
            "extractor hood off and door open led on",
            [
                c("set_relay", relay="extractor hood", on=False),
                c("set_led", led="door open", mode="on"),
            ],
        ),
        (
            T,
            "loading bay light on, then blink the oven ready led",
            [
                c("set_light", room="loading bay", on=True),
                c("set_led", led="oven ready", mode="blink"),
            ],
        ),
        (U, "turn on the walk-in freezer", []),
        (U, "lights on in the staff room", []),
        (U, "open the skylight blinds", []),
        (U, "switch on the bread slicer", []),
        (I, "shop window blinds to 180 percent", []),
        (N, "do not start the proofer yet", []),
        (N, "leave the extractor hood alone", []),
        (O, "how long should sourdough prove?", []),
        (O, "call the flour supplier", []),
        (M, "turn the relay on", []),
        (M, "make the led blink", []),
        (M, "set the blinds to 50", []),
    ],
    "attic_flat": [
        (P, "lounge lamps on", [c("set_lamps", room="lounge", on=True)]),
        (P, "make Zoe's room mint", [c("set_lamps", room="Zoe's room", color="mint")]),
        (P, "turn off the light in bedroom 5", [c("set_lamps", room="bedroom 5", on=False)]),
        (P, "bedroom 6 to 25 percent", [c("set_lamps", room="bedroom 6", brightness=25)]),
        (P, "landing nook light on", [c("set_lamps", room="landing nook", on=True)]),
        (P, "violet in the lounge please", [c("set_lamps", room="lounge", color="violet")]),
        (P, "fan to night", [c("set_fan", speed="night")]),
        (P, "turn the fan on at max", [c("set_fan", on=True, speed="max")]),
        (P, "stop the fan", [c("set_fan", on=False)]),
        (P, "close the skylight", [c("set_shades", room="skylight", position=0)]),
        (P, "open Zoe's shades", [c("set_shades", room="Zoe's room", position=100)]),
        (P, "radiators to 20", [c("set_radiators", temperature=20)]),
        (P, "turn the radiators off", [c("set_radiators", mode="off")]),
        (P, "set the heating to 18.5 degrees", [c("set_radiators", temperature=18.5)]),
        (
            T,
            "bedroom 5 lamps off and bedroom 6 lamps on",
            [c("set_lamps", room="bedroom 5", on=False), c("set_lamps", room="bedroom 6", on=True)],
        ),
        (
            T,
            "make the lounge peach and close the skylight",
            [
                c("set_lamps", room="lounge", color="peach"),
                c("set_shades", room="skylight", position=0),
            ],
        ),
        (
            T,
            "radiators to 22 then fan to low",
            [c("set_radiators", temperature=22), c("set_fan", speed="low")],
        ),
        (U, "turn on the bedroom 2 light", []),
        (U, "make the lounge orange", []),
        (U, "open the kitchen blinds", []),
        (U, "fan to turbo", []),
        (U, "switch on the kettle", []),
        (I, "radiators to 31 degrees", []),
        (I, "lounge lamps to 250 percent", []),
        (N, "don't open the skylight", []),
        (N, "no need to turn the fan on", []),
        (O, "what time is sunset today", []),
        (O, "read me Zoe's messages", []),
        (M, "open the shades", []),
        (M, "set the lamps to 40 percent", []),
    ],
}


def rows(
    cases_by_home: dict[str, list[tuple[str, str, list[dict[str, Any]]]]] | None = None,
    homes: dict[str, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The cases as `needled eval` reads them (vendor JSONL, tools on each case); another dev
    set's cases and homes in the same shape when given."""
    out = []
    homes = HOMES if homes is None else homes
    for home, cases in (CASES if cases_by_home is None else cases_by_home).items():
        tools = home_tools(homes[home])
        for category, query, answers in cases:
            out.append(
                {
                    "query": query,
                    "tools": tools,
                    "answers": answers,
                    "category": category,
                    "home": home,
                }
            )
    return out


def main(make_rows: Callable[[], list[dict[str, Any]]] = rows, doc: str = __doc__) -> int:
    """Write `make_rows()` to `--out` (the dev sets built on these homes share it)."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("--out", required=True, help="JSONL file to write")
    a = p.parse_args()
    data = make_rows()
    Path(a.out).write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in data), encoding="utf-8"
    )
    print(f"{a.out}: {len(data)} cases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
