"""Write the everyday-phrasing development set: `python bench/dev_everyday.py --out FILE.jsonl`.

The other hand-written dev sets are nearly solved while the held-out homes are not, because
people say things those sets rarely do: "kill the lights", "to full", "at half brightness",
"heating on", "twenty degrees", "raise the blinds", a plug that is "started", a relay called a
"vent fan" in a home without a fan tool. These 363 requests to eighteen homes of their
own were written by hand, before the model was run on them (80 at first, then 48, 42, 32,
20, 21, 17, 52 and 51 more once those were solved), for choosing decoding rules on such
phrasings. No name here is a held-out one, and nothing here is ever trained on.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_handwritten  # noqa: E402  (a sibling script, not a package)

HOMES: dict[str, dict[str, Any]] = {
    "canal_boat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["chart room", "Ruth's room", "bedroom 4", "stern deck", "washroom"],
            "colors": ["white", "warm white", "rust", "sky blue", "lilac"],
        },
        "heating": {"kind": "simulated_thermostat", "min_temperature": 10, "max_temperature": 26},
        "fan": {"kind": "simulated_fan", "speeds": ["quiet", "medium", "high"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {"bread maker": "bread", "towel warmer": "towels", "radio": "radio"},
        },
    },
    "print_shop": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "press floor": "press_bulb",
                "stock room": "stock_bulb",
                "front desk": "desk_bulb",
            },
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"ink dryer": 5, "guillotine": 6, "vent fan": 13},
        },
        "leds": {"kind": "gpio_leds", "leds": {"job done": 20, "paper low": 21}},
        "blinds": {"kind": "simulated_blinds", "rooms": ["front desk", "stock room"]},
    },
    "forest_hut": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["loft bed", "Omar's room", "veranda", "bunk room"],
            "colors": ["white", "firefly", "ember"],
            "tool": "lamps",
            "description": "The hut's lamps: on or off, brightness in percent, colour.",
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["bunk room", "veranda"],
            "tool": "curtains",
        },
        "heat": {
            "kind": "simulated_thermostat",
            "min_temperature": 5,
            "max_temperature": 25,
            "tool": "heater",
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "high"], "tool": "ceiling_fan"},
    },
    "loft_studio": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "mixing desk": "desk_bulb",
                "vocal booth": "booth_bulb",
                "green room": "green_bulb",
            },
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {"kiln": "kiln", "tea urn": "urn", "heat lamp": "lamp"},
        },
        "fan": {"kind": "simulated_fan", "speeds": ["slow", "fast"]},
        "heating": {"kind": "simulated_thermostat", "min_temperature": 16, "max_temperature": 30},
    },
    "barge": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["front cabin", "engine bay", "back deck", "Tom's bunk"],
            "colors": ["white", "blue", "amber glow"],
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"deck pump": 5, "cabin heater": 6, "horn": 13},
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["front cabin", "Tom's bunk"],
            "tool": "set_curtains",
        },
    },
    "fisher_cottage": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["den", "Ada's room", "bedroom 7", "mud hall"],
            "colors": ["white", "warm white", "red", "seafoam"],
        },
        "heat": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 28,
            "tool": "boiler",
            "description": "The cottage boiler: target temperature in degrees Celsius, or mode.",
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["den", "Ada's room"]},
        "plugs": {"kind": "tasmota", "switches": {"dishwasher": "dw", "slow cooker": "sc"}},
    },
    "repair_cafe": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {"solder station": "solder_bulb", "front till": "till_bulb"},
        },
        "leds": {"kind": "gpio_leds", "leds": {"alarm": 20, "queue": 21}},
        "relays": {"kind": "gpio_relays", "relays": {"extractor": 5, "air line": 6}},
        "fan": {
            "kind": "simulated_fan",
            "speeds": ["low", "medium", "high"],
            "tool": "ceiling_fan",
        },
    },
    "mill_loft": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["loft", "Kai's room", "games room", "utility"],
            "colors": ["white", "cool white", "amber", "violet"],
            "tool": "room_lights",
            "description": "Lights in each room: on or off, brightness in percent, colour.",
        },
        "heating": {"kind": "simulated_thermostat", "min_temperature": 12, "max_temperature": 28},
        "fan": {"kind": "simulated_fan", "speeds": ["low", "high", "max"]},
    },
    "allotment_shed": {
        "relays": {
            "kind": "gpio_relays",
            "relays": {"water butt pump": 5, "propagator": 6, "shed fan": 13},
        },
        "plugs": {"kind": "tasmota", "switches": {"tea maker": "tea", "radio": "radio"}},
    },
    "river_flat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["bedroom 8", "office", "loo", "hallway"],
            "colors": ["white", "pink", "lime"],
        },
        "fan": {"kind": "simulated_fan", "speeds": ["1", "2", "3"]},
        "blinds": {"kind": "simulated_blinds", "rooms": ["office", "bedroom 8"]},
    },
    "bakehouse": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["flour store", "counter", "Ivy's room"],
            "colors": ["white", "warm white", "orange"],
        },
        "heating": {"kind": "simulated_thermostat", "min_temperature": 12, "max_temperature": 28},
        "plugs": {
            "kind": "tasmota",
            "switches": {"mixer": "mixer", "proof box": "proof", "radio": "radio"},
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["counter"]},
    },
    "signal_box": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "lever room": "lever_bulb",
                "booth": "booth_bulb",
                "stairwell": "stair_bulb",
            },
        },
        "heat": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 26,
            "tool": "warmth",
            "description": "Heating for the signal box: target temperature in degrees, or mode.",
        },
        "relays": {"kind": "gpio_relays", "relays": {"urn": 5, "heater fan": 6}},
        "blinds": {"kind": "simulated_blinds", "rooms": ["booth"], "tool": "set_shutters"},
    },
    "tea_room": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["parlour", "servery", "Bea's snug", "bay window"],
            "colors": ["white", "amber", "rose"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {"cake fridge": "fridge", "jukebox": "jukebox", "till": "till"},
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["bay window", "parlour"]},
        "fan": {"kind": "simulated_fan", "speeds": ["gentle", "strong"]},
    },
    "dive_shop": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "fill station": "fill_bulb",
                "wetsuit rack": "rack_bulb",
                "shop floor": "floor_bulb",
            },
        },
        "relays": {"kind": "gpio_relays", "relays": {"air compressor": 5, "drying fan": 6}},
        "leds": {"kind": "gpio_leds", "leds": {"tank full": 20, "door bell": 21}},
        "water": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 30,
            "tool": "hot_water",
            "description": "Water heating for the dive shop: target temperature in degrees "
            "Celsius, or mode.",
        },
    },
    "plot_shed": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["seed bench", "greenhouse 2", "Jim's corner"],
            "colors": ["white", "daylight", "grow red"],
            "tool": "shed_lamps",
            "description": "Lamps in the shed and greenhouse: on or off, brightness, colour.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"water butt pump": 5, "propagator": 6, "radio": 13},
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["greenhouse 2", "seed bench"],
            "tool": "vents",
            "description": "Roof vents by area: position 0 is shut, 100 wide open.",
        },
    },
    "vicarage": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["vestry", "bell tower", "Agnes's study"],
            "colors": ["white", "warm white", "blue"],
        },
        "relays": {"kind": "gpio_relays", "relays": {"boiler pump": 5, "organ blower": 6}},
        "leds": {"kind": "gpio_leds", "leds": {"service": 20, "alarm armed": 21}},
        "blinds": {"kind": "simulated_blinds", "rooms": ["vestry", "Agnes's study"]},
        "heating": {"kind": "simulated_thermostat", "min_temperature": 8, "max_temperature": 24},
        "fan": {"kind": "simulated_fan", "speeds": ["low", "high"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {"tea urn": "urn", "hymn board": "board"},
        },
    },
    "terrace_7": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["berth 1", "berth 2", "berth 3", "shower 2", "lounge"],
            "colors": ["white", "warm white", "green"],
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["berth 1", "lounge"]},
        "heating": {"kind": "simulated_thermostat", "min_temperature": 10, "max_temperature": 26},
    },
    "boat_yard": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["slipway", "dry dock", "north gate"],
            "colors": ["white", "amber"],
            "tool": "floods",
            "description": "Yard floodlights by area: on or off, brightness, colour.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"band saw": 5, "sawdust extractor": 6, "pressure washer": 13},
            "tool": "machines",
            "description": "Workshop machines on relays: on or off.",
        },
        "heat": {
            "kind": "simulated_thermostat",
            "min_temperature": 5,
            "max_temperature": 25,
            "tool": "stove",
            "description": "The workshop's wood stove: target temperature in degrees, or mode.",
        },
    },
}


def c(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "arguments": args}


P, T = "positive", "two_actions"
U, I, N, O, M = "unsupported", "invalid", "negated", "off_topic", "missing"

CASES: dict[str, list[tuple[str, str, list[dict[str, Any]]]]] = {
    "canal_boat": [
        (P, "kill the lights in the chart room", [c("set_light", room="chart room", on=False)]),
        (P, "lights out in Ruth's room", [c("set_light", room="Ruth's room", on=False)]),
        (P, "chart room lights to full", [c("set_light", room="chart room", brightness=100)]),
        (P, "put the washroom light on", [c("set_light", room="washroom", on=True)]),
        (
            P,
            "can you turn the stern deck lights on please",
            [c("set_light", room="stern deck", on=True)],
        ),
        (
            P,
            "bedroom 4 light at half brightness",
            [c("set_light", room="bedroom 4", brightness=50)],
        ),
        (P, "set Ruth's room to lilac", [c("set_light", room="Ruth's room", color="lilac")]),
        (
            P,
            "make the chart room a bit dimmer, say 25 percent",
            [c("set_light", room="chart room", brightness=25)],
        ),
        (
            P,
            "I'd like the washroom in warm white",
            [c("set_light", room="washroom", color="warm white")],
        ),
        (P, "switch the heating on", [c("set_thermostat", mode="heat")]),
        (P, "heating off please", [c("set_thermostat", mode="off")]),
        (P, "set the heat to twenty degrees", [c("set_thermostat", temperature=20)]),
        (P, "thermostat to 18.5", [c("set_thermostat", temperature=18.5)]),
        (P, "warm the boat up to 22", [c("set_thermostat", temperature=22)]),
        (P, "put the fan on high", [c("set_fan", on=True, speed="high")]),
        (P, "turn the fan off", [c("set_fan", on=False)]),
        (P, "fan to quiet", [c("set_fan", speed="quiet")]),
        (P, "start the bread maker", [c("set_switch", device="bread maker", action="ON")]),
        (P, "switch off the towel warmer", [c("set_switch", device="towel warmer", action="OFF")]),
        (P, "toggle the radio", [c("set_switch", device="radio", action="TOGGLE")]),
        (P, "radio on", [c("set_switch", device="radio", action="ON")]),
        (
            T,
            "kill the chart room lights and turn the fan off",
            [c("set_light", room="chart room", on=False), c("set_fan", on=False)],
        ),
        (
            T,
            "heating to 21 and the towel warmer on",
            [
                c("set_thermostat", temperature=21),
                c("set_switch", device="towel warmer", action="ON"),
            ],
        ),
        (
            T,
            "turn off the lights in Ruth's room, then switch on the radio",
            [
                c("set_light", room="Ruth's room", on=False),
                c("set_switch", device="radio", action="ON"),
            ],
        ),
        (
            T,
            "bedroom 4 to sky blue and the washroom to 60 percent",
            [
                c("set_light", room="bedroom 4", color="sky blue"),
                c("set_light", room="washroom", brightness=60),
            ],
        ),
        (U, "turn on the engine room light", []),
        (U, "fan on auto", []),
        (U, "make the chart room lights green", []),
        (I, "heating to 35 degrees", []),
        (I, "chart room lights to 140 percent", []),
        (N, "don't turn on the radio", []),
        (N, "leave the heating alone", []),
        (O, "what's the weather on the canal tomorrow", []),
        (O, "play some jazz on the radio", []),
        (M, "set the lights to 40 percent", []),
        (M, "turn on the plug", []),
    ],
    "print_shop": [
        (P, "press floor lights on", [c("set_light", room="press floor", on=True)]),
        (
            P,
            "fade the stock room to 30 percent over 5 seconds",
            [c("set_light", room="stock room", brightness=30, transition=5)],
        ),
        (P, "front desk light blue", [c("set_light", room="front desk", color="blue")]),
        (P, "turn off the front desk lamp", [c("set_light", room="front desk", on=False)]),
        (P, "start the ink dryer", [c("set_relay", relay="ink dryer", on=True)]),
        (P, "shut down the guillotine", [c("set_relay", relay="guillotine", on=False)]),
        (P, "vent fan on", [c("set_relay", relay="vent fan", on=True)]),
        (P, "blink the job done light", [c("set_led", led="job done", mode="blink")]),
        (P, "turn the paper low led off", [c("set_led", led="paper low", mode="off")]),
        (P, "switch on the paper low indicator", [c("set_led", led="paper low", mode="on")]),
        (
            P,
            "raise the blinds at the front desk",
            [c("set_blinds", room="front desk", position=100)],
        ),
        (P, "lower the stock room blinds", [c("set_blinds", room="stock room", position=0)]),
        (P, "stock room blinds halfway", [c("set_blinds", room="stock room", position=50)]),
        (P, "front desk blinds to 75", [c("set_blinds", room="front desk", position=75)]),
        (
            T,
            "open the front desk blinds and turn on the press floor lights",
            [
                c("set_blinds", room="front desk", position=100),
                c("set_light", room="press floor", on=True),
            ],
        ),
        (
            T,
            "stop the ink dryer and blink the job done led",
            [
                c("set_relay", relay="ink dryer", on=False),
                c("set_led", led="job done", mode="blink"),
            ],
        ),
        (
            T,
            "vent fan off, then stock room lights to 10 percent",
            [
                c("set_relay", relay="vent fan", on=False),
                c("set_light", room="stock room", brightness=10),
            ],
        ),
        (U, "open the blinds on the press floor", []),
        (U, "turn on the laminator", []),
        (I, "front desk blinds to 120 percent", []),
        (N, "don't start the guillotine", []),
        (O, "order more paper", []),
        (O, "how much ink is left", []),
        (M, "blink the led", []),
    ],
    "forest_hut": [
        (P, "lamps on in the bunk room", [c("lamps", room="bunk room", on=True)]),
        (P, "Omar's room lamp off", [c("lamps", room="Omar's room", on=False)]),
        (P, "veranda lamp to ember", [c("lamps", room="veranda", color="ember")]),
        (P, "make the loft bed firefly", [c("lamps", room="loft bed", color="firefly")]),
        (P, "loft bed lamp at 15 percent", [c("lamps", room="loft bed", brightness=15)]),
        (P, "close the veranda curtains", [c("curtains", room="veranda", position=0)]),
        (P, "open the curtains in the bunk room", [c("curtains", room="bunk room", position=100)]),
        (P, "heater to 19 degrees", [c("heater", temperature=19)]),
        (P, "set the heater to auto", [c("heater", mode="auto")]),
        (P, "turn the heater off", [c("heater", mode="off")]),
        (P, "ceiling fan on low", [c("ceiling_fan", on=True, speed="low")]),
        (P, "stop the ceiling fan", [c("ceiling_fan", on=False)]),
        (
            T,
            "veranda lamp on and close the curtains there",
            [c("lamps", room="veranda", on=True), c("curtains", room="veranda", position=0)],
        ),
        (
            T,
            "heater to 21, then the fan on high",
            [c("heater", temperature=21), c("ceiling_fan", on=True, speed="high")],
        ),
        (U, "lamps on in the kitchen", []),
        (U, "open the curtains in Omar's room", []),
        (I, "heater to 30 degrees", []),
        (N, "no need to open the curtains", []),
        (O, "tell me a story by the fire", []),
        (M, "set the lamp colour to ember", []),
    ],
    "loft_studio": [
        (P, "switch the vocal booth light off", [c("set_light", room="vocal booth", on=False)]),
        (P, "green room lights at 80%", [c("set_light", room="green room", brightness=80)]),
        (
            P,
            "mixing desk light to purple please",
            [c("set_light", room="mixing desk", color="purple")],
        ),
        (P, "dim the vocal booth down to 15", [c("set_light", room="vocal booth", brightness=15)]),
        (P, "fire up the kiln", [c("set_switch", device="kiln", action="ON")]),
        (P, "turn the tea urn on", [c("set_switch", device="tea urn", action="ON")]),
        (P, "heat lamp off", [c("set_switch", device="heat lamp", action="OFF")]),
        (P, "flip the heat lamp", [c("set_switch", device="heat lamp", action="TOGGLE")]),
        (P, "fan on fast", [c("set_fan", on=True, speed="fast")]),
        (P, "slow the fan down", [c("set_fan", speed="slow")]),
        (P, "make it 23 degrees in here", [c("set_thermostat", temperature=23)]),
        (P, "thermostat on cool", [c("set_thermostat", mode="cool")]),
        (
            P,
            "set the temperature to twenty two and a half",
            [c("set_thermostat", temperature=22.5)],
        ),
        (
            P,
            "green room light on at 40 percent",
            [c("set_light", room="green room", on=True, brightness=40)],
        ),
        (
            T,
            "kiln off and the heat lamp on",
            [
                c("set_switch", device="kiln", action="OFF"),
                c("set_switch", device="heat lamp", action="ON"),
            ],
        ),
        (
            T,
            "switch off the tea urn, then set the thermostat to 19",
            [c("set_switch", device="tea urn", action="OFF"), c("set_thermostat", temperature=19)],
        ),
        (
            T,
            "vocal booth lights off and the fan off too",
            [c("set_light", room="vocal booth", on=False), c("set_fan", on=False)],
        ),
        (
            T,
            "green room to orange and mixing desk to 50 percent",
            [
                c("set_light", room="green room", color="orange"),
                c("set_light", room="mixing desk", brightness=50),
            ],
        ),
        (U, "turn on the control room light", []),
        (U, "fan on medium", []),
        (U, "make the green room light teal", []),
        (I, "thermostat to 40", []),
        (I, "green room light to 300 percent", []),
        (N, "don't switch on the kiln", []),
        (N, "please do not turn the fan off", []),
        (O, "record a new song", []),
        (O, "what's the temperature in the vocal booth", []),
        (M, "turn off the light", []),
        (M, "set the fan speed", []),
    ],
    "barge": [
        (P, "engine bay light on", [c("set_light", room="engine bay", on=True)]),
        (P, "turn the back deck lights blue", [c("set_light", room="back deck", color="blue")]),
        (
            P,
            "Tom's bunk light to amber glow",
            [c("set_light", room="Tom's bunk", color="amber glow")],
        ),
        (
            P,
            "put the front cabin light on at 70",
            [c("set_light", room="front cabin", on=True, brightness=70)],
        ),
        (P, "sound the horn", [c("set_relay", relay="horn", on=True)]),
        (P, "cabin heater on", [c("set_relay", relay="cabin heater", on=True)]),
        (P, "switch the deck pump off", [c("set_relay", relay="deck pump", on=False)]),
        (P, "stop the deck pump", [c("set_relay", relay="deck pump", on=False)]),
        (P, "close the curtains in Tom's bunk", [c("set_curtains", room="Tom's bunk", position=0)]),
        (
            P,
            "open the front cabin curtains halfway",
            [c("set_curtains", room="front cabin", position=50)],
        ),
        (
            P,
            "front cabin curtains fully open",
            [c("set_curtains", room="front cabin", position=100)],
        ),
        (
            T,
            "cabin heater off and the engine bay light off",
            [
                c("set_relay", relay="cabin heater", on=False),
                c("set_light", room="engine bay", on=False),
            ],
        ),
        (
            T,
            "open the front cabin curtains and switch on the front cabin light",
            [
                c("set_curtains", room="front cabin", position=100),
                c("set_light", room="front cabin", on=True),
            ],
        ),
        (U, "turn on the wheelhouse light", []),
        (U, "open the engine bay curtains", []),
        (I, "front cabin light at 120 percent", []),
        (N, "never sound the horn", []),
        (O, "how deep is the canal here", []),
        (M, "switch on the relay", []),
    ],
    "fisher_cottage": [
        (P, "crank the boiler up to 24", [c("boiler", temperature=24)]),
        (P, "bump the heat to 21 degrees", [c("boiler", temperature=21)]),
        (P, "set heating to 20\u00b0C", [c("boiler", temperature=20)]),
        (P, "turn the heat down to 18", [c("boiler", temperature=18)]),
        (P, "knock the den lights down to 10 percent", [c("set_light", room="den", brightness=10)]),
        (P, "can I get the lights on in Ada's room", [c("set_light", room="Ada's room", on=True)]),
        (
            P,
            "it's too bright in the den, make it 30 percent",
            [c("set_light", room="den", brightness=30)],
        ),
        (P, "den blinds down", [c("set_blinds", room="den", position=0)]),
        (P, "blinds up in Ada's room", [c("set_blinds", room="Ada's room", position=100)]),
        (P, "den blinds a quarter open", [c("set_blinds", room="den", position=25)]),
        (P, "bedroom 7 light red", [c("set_light", room="bedroom 7", color="red")]),
        (P, "make bedroom 7 seafoam", [c("set_light", room="bedroom 7", color="seafoam")]),
        (P, "start the dishwasher", [c("set_switch", device="dishwasher", action="ON")]),
        (P, "switch the slow cooker off", [c("set_switch", device="slow cooker", action="OFF")]),
        (P, "boiler off", [c("boiler", mode="off")]),
        (P, "put the boiler on auto", [c("boiler", mode="auto")]),
        (
            T,
            "start the dishwasher and set the boiler to 19",
            [c("set_switch", device="dishwasher", action="ON"), c("boiler", temperature=19)],
        ),
        (
            T,
            "Ada's room light on, bedroom 7 light off",
            [
                c("set_light", room="Ada's room", on=True),
                c("set_light", room="bedroom 7", on=False),
            ],
        ),
        (U, "turn on the kitchen lights", []),
        (U, "make the den purple", []),
        (U, "open the bedroom 7 blinds", []),
        (I, "boiler to 40 degrees", []),
        (N, "don't start the dishwasher", []),
        (O, "what's on TV tonight", []),
        (M, "open the blinds", []),
    ],
    "repair_cafe": [
        (P, "solder station light on", [c("set_light", room="solder station", on=True)]),
        (
            P,
            "front till light to 60 percent over 2 seconds",
            [c("set_light", room="front till", brightness=60, transition=2)],
        ),
        (P, "blink the queue led", [c("set_led", led="queue", mode="blink")]),
        (P, "alarm led off", [c("set_led", led="alarm", mode="off")]),
        (P, "turn the alarm light on", [c("set_led", led="alarm", mode="on")]),
        (P, "extractor on", [c("set_relay", relay="extractor", on=True)]),
        (P, "shut off the air line", [c("set_relay", relay="air line", on=False)]),
        (P, "ceiling fan to medium", [c("ceiling_fan", speed="medium")]),
        (P, "fan on high please", [c("ceiling_fan", on=True, speed="high")]),
        (P, "kill the fan", [c("ceiling_fan", on=False)]),
        (
            T,
            "extractor on and fan on low",
            [c("set_relay", relay="extractor", on=True), c("ceiling_fan", on=True, speed="low")],
        ),
        (
            T,
            "queue led blink, alarm led off",
            [c("set_led", led="queue", mode="blink"), c("set_led", led="alarm", mode="off")],
        ),
        (U, "turn on the back room light", []),
        (U, "fan on max", []),
        (N, "never turn the extractor off", []),
        (O, "how long is the queue", []),
        (M, "turn the led on", []),
    ],
    "mill_loft": [
        (
            P,
            "would you mind turning off the loft lights",
            [c("room_lights", room="loft", on=False)],
        ),
        (P, "lihgts on in the games room", [c("room_lights", room="games room", on=True)]),
        (P, "games room brightness 40", [c("room_lights", room="games room", brightness=40)]),
        (
            P,
            "set the colour in Kai's room to cool white",
            [c("room_lights", room="Kai's room", color="cool white")],
        ),
        (
            P,
            "utility lights to twenty-five per cent",
            [c("room_lights", room="utility", brightness=25)],
        ),
        (P, "switch to cool mode", [c("set_thermostat", mode="cool")]),
        (P, "cooling on", [c("set_thermostat", mode="cool")]),
        (P, "heat mode please", [c("set_thermostat", mode="heat")]),
        (P, "can you make it warmer? 22 please", [c("set_thermostat", temperature=22)]),
        (P, "set the speed to max", [c("set_fan", speed="max")]),
        (P, "fan speed low", [c("set_fan", speed="low")]),
        (P, "turn off the fan please", [c("set_fan", on=False)]),
        (
            T,
            "loft lights off and then the fan on",
            [c("room_lights", room="loft", on=False), c("set_fan", on=True)],
        ),
        (
            T,
            "Kai's room violet as well as the loft at 50%",
            [
                c("room_lights", room="Kai's room", color="violet"),
                c("room_lights", room="loft", brightness=50),
            ],
        ),
        (U, "turn on the attic lights", []),
        (U, "fan to medium", []),
        (I, "loft lights to 150%", []),
        (N, "don't turn the fan on", []),
        (O, "tell me a joke", []),
        (M, "set the brightness to 40", []),
    ],
    "allotment_shed": [
        (P, "start the water butt pump", [c("set_relay", relay="water butt pump", on=True)]),
        (P, "propagator off", [c("set_relay", relay="propagator", on=False)]),
        (P, "turn the shed fan on", [c("set_relay", relay="shed fan", on=True)]),
        (P, "switch off the tea maker", [c("set_switch", device="tea maker", action="OFF")]),
        (P, "radio on please", [c("set_switch", device="radio", action="ON")]),
        (P, "toggle the radio", [c("set_switch", device="radio", action="TOGGLE")]),
        (
            T,
            "propagator on and the radio off",
            [
                c("set_relay", relay="propagator", on=True),
                c("set_switch", device="radio", action="OFF"),
            ],
        ),
        (
            T,
            "stop the water butt pump, then start the shed fan",
            [
                c("set_relay", relay="water butt pump", on=False),
                c("set_relay", relay="shed fan", on=True),
            ],
        ),
        (U, "turn on the greenhouse heater", []),
        (N, "leave the propagator on", []),
        (O, "when did it last rain", []),
        (M, "switch it on", []),
    ],
    "river_flat": [
        (P, "turn on bedroom eight", [c("set_light", room="bedroom 8", on=True)]),
        (P, "bedroom 8 lights off", [c("set_light", room="bedroom 8", on=False)]),
        (P, "needle, the loo light on please", [c("set_light", room="loo", on=True)]),
        (
            P,
            "set the office to 70 percent brightness",
            [c("set_light", room="office", brightness=70)],
        ),
        (P, "brightness of the hallway to 20", [c("set_light", room="hallway", brightness=20)]),
        (P, "the hallway light, turn it off", [c("set_light", room="hallway", on=False)]),
        (P, "make the office lime", [c("set_light", room="office", color="lime")]),
        (P, "fan at speed 2", [c("set_fan", speed="2")]),
        (P, "fan to 3", [c("set_fan", speed="3")]),
        (P, "close the office blinds halfway", [c("set_blinds", room="office", position=50)]),
        (
            P,
            "open the blinds in bedroom 8 to 80",
            [c("set_blinds", room="bedroom 8", position=80)],
        ),
        (P, "office blinds fully closed", [c("set_blinds", room="office", position=0)]),
        (
            T,
            "turn on bedroom eight and the loo",
            [c("set_light", room="bedroom 8", on=True), c("set_light", room="loo", on=True)],
        ),
        (
            T,
            "fan off and office blinds up",
            [c("set_fan", on=False), c("set_blinds", room="office", position=100)],
        ),
        (U, "turn on the garage light", []),
        (U, "fan to speed 5", []),
        (I, "office blinds to 130", []),
        (N, "please don't open the blinds", []),
        (O, "what's my schedule", []),
        (M, "lights on", []),
    ],
    "bakehouse": [
        (
            P,
            "could you set the counter lights to orange",
            [c("set_light", room="counter", color="orange")],
        ),
        (
            P,
            "I want the flour store at 45 percent",
            [c("set_light", room="flour store", brightness=45)],
        ),
        (
            P,
            "Ivy's room should be warm white",
            [c("set_light", room="Ivy's room", color="warm white")],
        ),
        (
            P,
            "let's have the counter at full brightness",
            [c("set_light", room="counter", brightness=100)],
        ),
        (P, "flour store light at max", [c("set_light", room="flour store", brightness=100)]),
        (
            P,
            "counter light to orange and 60%",
            [c("set_light", room="counter", brightness=60, color="orange")],
        ),
        (P, "turn the heat up to 21", [c("set_thermostat", temperature=21)]),
        (P, "set the thermostat to 19 degrees celsius", [c("set_thermostat", temperature=19)]),
        (P, "thermostat 20 C", [c("set_thermostat", temperature=20)]),
        (P, "make sure the mixer is off", [c("set_switch", device="mixer", action="OFF")]),
        (P, "the proof box needs to be on", [c("set_switch", device="proof box", action="ON")]),
        (P, "power down the radio", [c("set_switch", device="radio", action="OFF")]),
        (P, "shut the counter blinds", [c("set_blinds", room="counter", position=0)]),
        (P, "put the thermostat on heat mode", [c("set_thermostat", mode="heat")]),
        (P, "change Ivy's room to orange", [c("set_light", room="Ivy's room", color="orange")]),
        (
            T,
            "mixer off, radio on",
            [
                c("set_switch", device="mixer", action="OFF"),
                c("set_switch", device="radio", action="ON"),
            ],
        ),
        (
            T,
            "set the thermostat to 22 and turn the counter lights on",
            [c("set_thermostat", temperature=22), c("set_light", room="counter", on=True)],
        ),
        (U, "switch the oven on", []),
        (N, "do not touch the mixer", []),
        (O, "how warm is it outside", []),
        (M, "set it to orange", []),
    ],
    "signal_box": [
        (P, "stairwell light on for me", [c("set_light", room="stairwell", on=True)]),
        (P, "booth light to 35%", [c("set_light", room="booth", brightness=35)]),
        (P, "lever room light purple", [c("set_light", room="lever room", color="purple")]),
        (P, "warm the box up to 20", [c("warmth", temperature=20)]),
        (P, "it's freezing, heating to 23", [c("warmth", temperature=23)]),
        (P, "switch the heating to auto", [c("warmth", mode="auto")]),
        (P, "urn on", [c("set_relay", relay="urn", on=True)]),
        (P, "turn the heater fan off", [c("set_relay", relay="heater fan", on=False)]),
        (P, "shutters down in the booth", [c("set_shutters", room="booth", position=0)]),
        (P, "booth shutters half open", [c("set_shutters", room="booth", position=50)]),
        (
            P,
            "fade the stairwell to 10% over 3 seconds",
            [c("set_light", room="stairwell", brightness=10, transition=3)],
        ),
        (
            T,
            "urn off and stairwell light off",
            [c("set_relay", relay="urn", on=False), c("set_light", room="stairwell", on=False)],
        ),
        (
            T,
            "heating to 19, booth light on",
            [c("warmth", temperature=19), c("set_light", room="booth", on=True)],
        ),
        (U, "lever room shutters up", []),
        (N, "don't turn the urn off", []),
        (O, "when's the next train", []),
        (M, "light to 35%", []),
    ],
    "tea_room": [
        (P, "lights on in the parlour", [c("set_light", room="parlour", on=True)]),
        (P, "servery light off please", [c("set_light", room="servery", on=False)]),
        (P, "dim Bea's snug to 20 percent", [c("set_light", room="Bea's snug", brightness=20)]),
        (P, "make the bay window amber", [c("set_light", room="bay window", color="amber")]),
        (P, "can the parlour lights go rose", [c("set_light", room="parlour", color="rose")]),
        (P, "bay window blinds up", [c("set_blinds", room="bay window", position=100)]),
        (P, "parlour blinds to 30", [c("set_blinds", room="parlour", position=30)]),
        (P, "fan on strong", [c("set_fan", on=True, speed="strong")]),
        (P, "turn the fan down to gentle", [c("set_fan", speed="gentle")]),
        (P, "stop the fan", [c("set_fan", on=False)]),
        (P, "switch the cake fridge on", [c("set_switch", device="cake fridge", action="ON")]),
        (P, "jukebox off", [c("set_switch", device="jukebox", action="OFF")]),
        (P, "toggle the till", [c("set_switch", device="till", action="TOGGLE")]),
        (
            T,
            "parlour lights on and the jukebox on",
            [
                c("set_light", room="parlour", on=True),
                c("set_switch", device="jukebox", action="ON"),
            ],
        ),
        (
            T,
            "close the bay window blinds then turn off the servery light",
            [
                c("set_blinds", room="bay window", position=0),
                c("set_light", room="servery", on=False),
            ],
        ),
        (U, "turn on the kitchen lights", []),
        (N, "leave the jukebox alone", []),
        (O, "what's the soup of the day", []),
        (M, "set the brightness to 40", []),
    ],
    "dive_shop": [
        (P, "fill station light on", [c("set_light", room="fill station", on=True)]),
        (P, "wetsuit rack lights to 70%", [c("set_light", room="wetsuit rack", brightness=70)]),
        (P, "shop floor lights off", [c("set_light", room="shop floor", on=False)]),
        (P, "start the air compressor", [c("set_relay", relay="air compressor", on=True)]),
        (P, "kill the air compressor", [c("set_relay", relay="air compressor", on=False)]),
        (P, "drying fan on", [c("set_relay", relay="drying fan", on=True)]),
        (P, "tank full led on", [c("set_led", led="tank full", mode="on")]),
        (P, "make the door bell led blink", [c("set_led", led="door bell", mode="blink")]),
        (P, "hot water to 28 degrees", [c("hot_water", temperature=28)]),
        (P, "put the water heating on auto", [c("hot_water", mode="auto")]),
        (P, "turn the water heater off", [c("hot_water", mode="off")]),
        (
            T,
            "air compressor on and the tank full led off",
            [
                c("set_relay", relay="air compressor", on=True),
                c("set_led", led="tank full", mode="off"),
            ],
        ),
        (
            T,
            "shop floor lights on, then the hot water to 25",
            [c("set_light", room="shop floor", on=True), c("hot_water", temperature=25)],
        ),
        (U, "switch on the sauna", []),
        (I, "hot water to 45 degrees", []),
        (N, "don't start the air compressor", []),
        (O, "how deep is the reef", []),
    ],
    "plot_shed": [
        (P, "seed bench lamp on", [c("shed_lamps", room="seed bench", on=True)]),
        (
            P,
            "greenhouse 2 lamps to grow red",
            [c("shed_lamps", room="greenhouse 2", color="grow red")],
        ),
        (P, "Jim's corner to daylight", [c("shed_lamps", room="Jim's corner", color="daylight")]),
        (P, "dim the seed bench to 15%", [c("shed_lamps", room="seed bench", brightness=15)]),
        (P, "open the vents in greenhouse 2", [c("vents", room="greenhouse 2", position=100)]),
        (P, "vents on the seed bench to 40", [c("vents", room="seed bench", position=40)]),
        (P, "shut the greenhouse 2 vents", [c("vents", room="greenhouse 2", position=0)]),
        (P, "water butt pump on", [c("set_relay", relay="water butt pump", on=True)]),
        (P, "turn off the propagator", [c("set_relay", relay="propagator", on=False)]),
        (P, "radio on please", [c("set_relay", relay="radio", on=True)]),
        (
            T,
            "propagator on and open the greenhouse 2 vents",
            [
                c("set_relay", relay="propagator", on=True),
                c("vents", room="greenhouse 2", position=100),
            ],
        ),
        (
            T,
            "lamps off in Jim's corner and the radio off",
            [
                c("shed_lamps", room="Jim's corner", on=False),
                c("set_relay", relay="radio", on=False),
            ],
        ),
        (U, "turn on the sprinkler", []),
        (I, "greenhouse 2 lamps to 150 percent", []),
        (N, "never turn the propagator off", []),
        (M, "open the vents", []),
    ],
    "vicarage": [
        (P, "vestry lights on", [c("set_light", room="vestry", on=True)]),
        (P, "switch off the bell tower light", [c("set_light", room="bell tower", on=False)]),
        (
            P,
            "Agnes's study lights to 60 percent",
            [c("set_light", room="Agnes's study", brightness=60)],
        ),
        (P, "make the vestry lights blue", [c("set_light", room="vestry", color="blue")]),
        (P, "close the vestry blinds", [c("set_blinds", room="vestry", position=0)]),
        (P, "Agnes's study blinds half way", [c("set_blinds", room="Agnes's study", position=50)]),
        (P, "heating to 19", [c("set_thermostat", temperature=19)]),
        (P, "turn the heating off", [c("set_thermostat", mode="off")]),
        (P, "fan on low", [c("set_fan", on=True, speed="low")]),
        (P, "switch the fan off", [c("set_fan", on=False)]),
        (P, "boiler pump on", [c("set_relay", relay="boiler pump", on=True)]),
        (P, "turn off the organ blower", [c("set_relay", relay="organ blower", on=False)]),
        (P, "service led on", [c("set_led", led="service", mode="on")]),
        (P, "flash the alarm armed led", [c("set_led", led="alarm armed", mode="blink")]),
        (P, "start the tea urn", [c("set_switch", device="tea urn", action="ON")]),
        (P, "hymn board off", [c("set_switch", device="hymn board", action="OFF")]),
        (
            T,
            "vestry lights off and the fan off",
            [c("set_light", room="vestry", on=False), c("set_fan", on=False)],
        ),
        (
            T,
            "heating to 21 then open Agnes's study blinds",
            [
                c("set_thermostat", temperature=21),
                c("set_blinds", room="Agnes's study", position=100),
            ],
        ),
        (U, "turn on the crypt lights", []),
        (N, "don't switch the tea urn on", []),
        (O, "who's preaching on Sunday", []),
        (M, "turn it up to 60 percent", []),
    ],
    "terrace_7": [
        (P, "berth 2 light on", [c("set_light", room="berth 2", on=True)]),
        (P, "turn off the light in berth three", [c("set_light", room="berth 3", on=False)]),
        (P, "shower 2 lights to 40%", [c("set_light", room="shower 2", brightness=40)]),
        (P, "lounge light warm white", [c("set_light", room="lounge", color="warm white")]),
        (P, "open the blinds in berth one", [c("set_blinds", room="berth 1", position=100)]),
        (P, "lounge blinds to 25", [c("set_blinds", room="lounge", position=25)]),
        (P, "set the thermostat to 20.5", [c("set_thermostat", temperature=20.5)]),
        (P, "thermostat on auto", [c("set_thermostat", mode="auto")]),
        (
            T,
            "berth 1 lights off and berth 2 lights on",
            [c("set_light", room="berth 1", on=False), c("set_light", room="berth 2", on=True)],
        ),
        (
            T,
            "close the lounge blinds and turn the lounge light on",
            [c("set_blinds", room="lounge", position=0), c("set_light", room="lounge", on=True)],
        ),
        (U, "berth 4 light on", []),
        (I, "thermostat to 40", []),
        (N, "leave the berth 3 light on", []),
        (M, "open the blinds", []),
    ],
    "boat_yard": [
        (P, "slipway floods on", [c("floods", room="slipway", on=True)]),
        (P, "dry dock lights off", [c("floods", room="dry dock", on=False)]),
        (P, "north gate floodlight to 50%", [c("floods", room="north gate", brightness=50)]),
        (P, "turn the north gate lights amber", [c("floods", room="north gate", color="amber")]),
        (P, "band saw on", [c("machines", relay="band saw", on=True)]),
        (P, "kill the sawdust extractor", [c("machines", relay="sawdust extractor", on=False)]),
        (P, "start the pressure washer", [c("machines", relay="pressure washer", on=True)]),
        (P, "stove to 22", [c("stove", temperature=22)]),
        (P, "turn the stove off", [c("stove", mode="off")]),
        (P, "heat the workshop", [c("stove", mode="heat")]),
        (
            T,
            "band saw off and sawdust extractor off",
            [
                c("machines", relay="band saw", on=False),
                c("machines", relay="sawdust extractor", on=False),
            ],
        ),
        (
            T,
            "floods on at the slipway and the stove to 18",
            [c("floods", room="slipway", on=True), c("stove", temperature=18)],
        ),
        (U, "turn on the crane", []),
        (N, "do not start the band saw", []),
        (O, "what time is high tide", []),
    ],
}


def rows() -> list[dict[str, Any]]:
    """The cases as `needled eval` reads them (vendor JSONL, tools on each case)."""
    return dev_handwritten.rows(CASES, HOMES)


def main() -> int:
    return dev_handwritten.main(rows, __doc__)


if __name__ == "__main__":
    raise SystemExit(main())
