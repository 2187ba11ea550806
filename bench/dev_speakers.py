"""Write the speakers' development set: `python bench/dev_speakers.py --out FILE.jsonl`.

The other dev sets were written by one hand, in one voice. These requests were written by
eighteen separate writers, each told to speak as one kind of user and given only the device
kinds and this file's format (home keys carry the batch's letter):
a. a busy parent or a tired commuter: terse, elliptical ("lights, Maya's room, 40");
b. a polite older person or a non-native speaker: courtesies and remarks around the command
   ("The sawdust collector, please switch it off, thank you");
c. a home-automation hobbyist typing into a chat: device first, abbreviations, tools of related
   kinds in one home ("AC to 19");
d. a teenager texting: lowercase, slang, emoji ("fan on pls im dyingg");
e. a speech recogniser's transcript: no punctuation, hesitations, corrections ("set the
   heating to twenty no twenty two");
f. people who say why along with what ("the twins are finally asleep, switch off the twins'
   room light");
g. non-native speakers' grammar and literal translations ("please to open the light in
   Grandma room");
h. British and Irish colloquial speech ("stick the immersion on", "knock the heating down");
i. several commands in every form of coordination ("turn on the study nook light and make it
   warm white");
j. plain commands to homes of look-alike tools (two light tools, two thermostats, plugs and
   relays), routed by the name said;
k. plain, short commands to small flats of two to four tools ("lamp to 40");
l. plain commands to large houses of many numbered and possessive rooms ("Close Oscar's
   blinds and turn his light off");
m, n, o. a careful product tester's evaluation set, one capability per request, refusals in
   all five categories: to homes of default tools (m), of renamed and described tools (n),
   and of mixed kinds with everyday devices (o);
p. fast typing on a phone: typos in verbs, nouns and names ("trun off the lihgts");
q. plain commands to large homes of 8 to 11 tools, where only 5 reach the model;
r. devices called by the everyday names their tools' descriptions give ("'tv' is the telly").
Each batch was run through the model only once it was complete; rules were then chosen on it
and on every other dev set. No name here is a held-out one,
and nothing here is ever trained on.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_handwritten  # noqa: E402  (a sibling script, not a package)

HOMES: dict[str, dict[str, Any]] = {
    "a_terrace_house": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "kitchen diner",
                "Maya's room",
                "bedroom 6",
                "playroom",
                "front hall",
            ],
            "colors": ["white", "warm white", "teal", "peach"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 25,
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "medium", "high"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "toaster": "toaster_plug",
                "baby monitor": "monitor_plug",
                "Xbox": "console_plug",
            },
        },
    },
    "a_commuter_flat": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "lounge": "lounge_bulb",
                "box bedroom": "box_bulb",
                "en suite": "ensuite_bulb",
                "desk nook": "nook_bulb",
            },
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["lounge", "box bedroom"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "coffee machine": "coffee",
                "heated airer": "airer",
                "bed warmer": "blanket",
            },
        },
        "heat": {
            "kind": "simulated_thermostat",
            "min_temperature": 14,
            "max_temperature": 24,
            "tool": "radiators",
            "description": "The flat's radiators: target temperature in degrees Celsius, or mode.",
        },
    },
    "a_semi_detached": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "Finn's room",
                "Ava and Zoe's room",
                "bedroom 8",
                "utility room",
                "garden room",
            ],
            "colors": ["white", "cool white", "heather", "mint"],
            "tool": "house_lights",
            "description": "Indoor lights: on or off, brightness in percent, colour.",
        },
        "garden": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "garden path": "path_bulb",
                "car port": "drive_bulb",
                "shed": "shed_bulb",
            },
            "description": "Outdoor lights along the garden path, the car port and in the shed.",
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["garden room", "Finn's room"],
            "tool": "set_shades",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"garage heater": 17, "hot tub pump": 27, "heated rail": 22},
        },
        "fan": {"kind": "simulated_fan", "speeds": ["soft", "brisk", "max"]},
    },
    "a_bungalow": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["sitting room", "back bedroom", "baby's room", "front step"],
            "colors": ["white", "warm white", "honey", "rose"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 15,
            "max_temperature": 28,
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["baby's room", "sitting room"],
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"water heater": 5, "sprinklers": 6},
        },
        "leds": {
            "kind": "gpio_leds",
            "leds": {"bin day": 20, "school run": 21},
            "tool": "set_indicator",
            "description": "Indicator lights on the hall panel: on, off or blink.",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {"bottle warmer": "bottle", "telly": "tv_plug"},
        },
    },
    "b_marlow_bakery": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "shop front": "shop_bulb",
                "proving room": "prove_bulb",
                "back office": "office_bulb",
                "flour store": "flour_bulb",
            },
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "dough mixer": "mixer",
                "coffee machine": "coffee",
                "display fridge": "fridge",
                "oven 2": "oven2",
            },
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"extractor hood": 5, "proofer heater": 6},
        },
        "leds": {"kind": "gpio_leds", "leds": {"order ready": 20, "till": 21}},
        "blinds": {"kind": "simulated_blinds", "rooms": ["shop front", "back office"]},
    },
    "b_margaret_flat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "sitting room",
                "Margaret's bedroom",
                "entrance hall",
                "bedroom 6",
                "nook",
            ],
            "colors": ["white", "warm white", "peach", "soft green"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 27,
        },
        "curtains": {
            "kind": "simulated_blinds",
            "rooms": ["sitting room", "Margaret's bedroom"],
            "tool": "set_curtains",
            "description": (
                "Open or close the curtains in a room; position 0 is closed, 100 fully open."
            ),
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "bed warmer": "blanket",
                "reading lamp": "lamp",
                "television": "tv",
            },
        },
    },
    "b_dune_rental": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "lounge",
                "bunk room 1",
                "bunk room 2",
                "top landing",
                "garden room",
            ],
            "colors": ["white", "warm white", "blue", "sunset orange"],
        },
        "heat": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 24,
            "tool": "set_heat_pump",
            "description": (
                "The heat pump: target temperature in degrees Celsius, "
                "or mode (heat, cool, auto or off)."
            ),
        },
        "fan": {
            "kind": "simulated_fan",
            "speeds": ["low", "medium", "high", "full blast"],
            "tool": "ceiling_fan",
            "description": "The lounge ceiling fan: switch it on or off, or change its speed.",
        },
        "shades": {
            "kind": "simulated_blinds",
            "rooms": ["lounge", "garden room"],
            "tool": "set_shades",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "spa pool": "tub",
                "tumble dryer": "dehum",
                "porch heater": "porch",
            },
        },
    },
    "b_garage_workshop": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "tool bench": "bench_bulb",
                "spray booth": "booth_bulb",
                "front drive": "drive_bulb",
                "loft": "loft_bulb",
            },
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"air compressor": 17, "sawdust collector": 27, "band saw": 23},
        },
        "leds": {"kind": "gpio_leds", "leds": {"warning": 24, "glue timer": 25}},
        "fan": {"kind": "simulated_fan", "speeds": ["soft", "brisk", "gusty"]},
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 5,
            "max_temperature": 22,
        },
    },
    "c_maker_garage": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["lathe bench", "spray cabin", "Dan's corner", "bay 2"],
            "colors": ["white", "moon white", "honey"],
        },
        "outdoor": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "carport": "carport_bulb",
                "side gate": "gate_bulb",
                "front step": "step_bulb",
            },
            "tool": "set_outdoor_light",
            "description": "Outdoor Zigbee bulbs (carport, side gate, front step): on/off, "
            "brightness, colour, transition in seconds.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"pillar drill": 17, "extractor": 27, "garage door": 22},
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "soldering station": "solder",
                "3d printer": "printer",
                "shop vac": "vac",
            },
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "high"]},
        "leds": {"kind": "gpio_leds", "leds": {"status": 5, "printer done": 6}},
    },
    "c_split_level_flat": {
        "floor": {
            "kind": "simulated_thermostat",
            "min_temperature": 15,
            "max_temperature": 28,
            "tool": "floor_heating",
            "description": "Underfloor heating: target temperature in degrees Celsius, or mode.",
        },
        "ac": {
            "kind": "simulated_thermostat",
            "min_temperature": 16,
            "max_temperature": 30,
            "tool": "aircon",
            "description": (
                "The air conditioner (AC): target temperature in degrees Celsius, or mode."
            ),
        },
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["lounge", "kids' room", "Lena's room", "utility room"],
            "colors": ["white", "warm white", "teal", "magenta"],
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["lounge", "Lena's room", "roof window"],
        },
        "fan": {
            "kind": "simulated_fan",
            "speeds": ["hush", "gust", "storm"],
            "tool": "ceiling_fan",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {"heated airer": "airer", "coffee machine": "coffee"},
        },
    },
    "c_allotment_shed": {
        "relays": {
            "kind": "gpio_relays",
            "relays": {
                "rain butt pump": 17,
                "greenhouse heater": 27,
                "irrigation valve 1": 22,
                "irrigation valve 2": 23,
            },
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "propagator": "prop",
                "grow light": "grow",
                "fan heater": "fanheat",
                "battery charger": "charger",
            },
        },
        "leds": {"kind": "gpio_leds", "leds": {"frost alarm": 5, "tank low": 6}},
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {"seed bench": "bench_bulb", "shed door": "door_bulb"},
        },
        "shade": {
            "kind": "simulated_blinds",
            "rooms": ["glasshouse roof", "shed window"],
            "tool": "set_shade",
            "description": "Glasshouse roof shade cloth and shed window blind; "
            "position 0 closed, 100 open.",
        },
    },
    "c_terrace_house": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["hallway", "Mia's bedroom", "en suite", "sewing room"],
            "colors": ["white", "warm white", "cyan", "orange"],
        },
        "hue": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "Raj's study": "study_bulb",
                "top landing": "landing_bulb",
                "bedroom 6": "b3_bulb",
                "garden room": "garden_bulb",
            },
            "tool": "set_hue_light",
            "description": "Zigbee bulbs in Raj's study, top landing, bedroom 6 and garden room: "
            "on/off, brightness, colour, transition in seconds.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 25,
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["Raj's study", "Mia's bedroom"],
        },
        "leds": {"kind": "gpio_leds", "leds": {"doorbell": 18, "washer done": 23}},
        "plugs": {
            "kind": "tasmota",
            "switches": {"towel radiator": "towel", "espresso machine": "espresso"},
        },
    },
    "d_dorm_suite": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["Jay's room", "snack nook", "bunk 2", "games corner"],
            "colors": ["white", "purple", "neon green", "red"],
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "hurricane"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "drinks fridge": "fridge",
                "ring light": "ring",
                "gaming pc": "pc",
            },
        },
        "leds": {"kind": "gpio_leds", "leds": {"do not disturb": 22}},
    },
    "d_beach_house": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "surf shack": "shack_bulb",
                "Mia's loft": "loft_bulb",
                "back porch": "porch_bulb",
                "bathroom 2": "bath2_bulb",
            },
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["Mia's loft", "sun lounge"],
            "tool": "set_shades",
            "description": "The beach house shades: position 0 is closed, 100 fully open.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 27,
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"hot tub pump": 17, "porch heater": 27},
        },
    },
    "d_band_garage": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["practice room", "drum booth", "Leo's bedroom"],
            "colors": ["white", "blue", "hot pink", "sunset orange"],
        },
        "outside": {
            "kind": "zigbee2mqtt_lights",
            "devices": {"front drive": "drive_bulb", "side gate": "gate_bulb"},
            "tool": "outdoor_light",
            "description": (
                "Outdoor lights by the garage: on or off, brightness in percent, colour."
            ),
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "amp": "amp",
                "speaker 1": "spk1",
                "speaker 2": "spk2",
                "tea maker": "kettle",
            },
        },
        "leds": {"kind": "gpio_leds", "leds": {"recording": 20, "doorbell": 21}},
        "fan": {"kind": "simulated_fan", "speeds": ["chill", "blast"]},
    },
    "d_city_flat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["living room", "Zoe's room", "bedroom 5", "hallway"],
            "colors": ["white", "warm white", "blue", "pink", "teal"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 25,
            "tool": "set_heating",
            "description": "The flat's heating: target temperature in degrees Celsius, or mode.",
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["living room", "Zoe's room", "bedroom 5"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "hair straighteners": "straight",
                "string lights": "fairy",
                "coffee machine": "coffee",
            },
        },
        "fan": {"kind": "simulated_fan"},
    },
    "e_terrace_house": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "front room",
                "Priya's room",
                "bedroom 5",
                "back porch",
                "utility room",
            ],
            "colors": ["white", "warm white", "peach", "teal"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 25,
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "medium", "high"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "coffee machine": "coffee",
                "foot warmer": "blanket",
                "christmas tree": "fairy",
            },
        },
    },
    "e_allotment_shed": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "seed bench": "bench_bulb",
                "tool store": "store_bulb",
                "shed door": "door_bulb",
            },
            "tool": "shed_lights",
            "description": "Lights in the allotment shed: on or off, brightness in percent, "
            "colour, and a fade time in seconds.",
        },
        "shade": {
            "kind": "simulated_blinds",
            "rooms": ["greenhouse", "cold frame"],
            "tool": "shade_cloth",
            "description": "Open or close the shade cloth over a growing bed; "
            "position 0 is closed, 100 fully open.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {
                "rain barrel pump": 17,
                "greenhouse heater": 27,
                "sprinkler 1": 22,
                "sprinkler 2": 23,
            },
        },
        "leds": {"kind": "gpio_leds", "leds": {"frost alert": 5, "tank full": 6}},
    },
    "e_city_flat": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "living area": "living_bulb",
                "study nook": "study_bulb",
                "guest bedroom": "guest_bulb",
                "Leo's bedroom": "leo_bulb",
                "hallway": "hall_bulb",
            },
        },
        "heat": {
            "kind": "simulated_thermostat",
            "min_temperature": 15,
            "max_temperature": 28,
            "tool": "radiator",
            "description": "The flat's radiators: target temperature in degrees Celsius, or mode.",
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["living area", "study nook", "Leo's bedroom"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "tv": "tv_plug",
                "air purifier": "dehum",
                "desk lamp": "desklamp",
            },
        },
        "leds": {"kind": "gpio_leds", "leds": {"doorbell": 12, "washer done": 16}},
    },
    "e_farmhouse": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "farm kitchen",
                "Grandad's room",
                "tack room",
                "stable 1",
                "stable 2",
                "hay loft",
            ],
            "colors": ["white", "warm white", "honey", "red"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 8,
            "max_temperature": 24,
        },
        "fan": {"kind": "simulated_fan", "speeds": ["slow", "fast"]},
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["farm kitchen", "Grandad's room"],
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"well pump": 4, "fence energiser": 18, "yard floodlight": 24},
        },
    },
    "f_harbour_flat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "living room",
                "Nora's bedroom",
                "twins' room",
                "hall 2",
                "sewing room",
            ],
            "colors": ["white", "warm white", "peach", "teal"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 25,
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["living room", "Nora's bedroom", "twins' room"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "tea kettle": "kettle_plug",
                "coffee machine": "coffee_plug",
                "bed warmer": "blanket_plug",
            },
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "medium", "high"]},
    },
    "f_farm_office": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "front office": "office_bulb",
                "tack room": "tack_bulb",
                "staff kitchen": "kitchen_bulb",
            },
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"trough pump": 17, "yard floodlight": 27, "gate motor": 22},
        },
        "leds": {
            "kind": "gpio_leds",
            "leds": {"parcel waiting": 5, "frost alert": 6},
        },
        "stove": {
            "kind": "simulated_thermostat",
            "min_temperature": 8,
            "max_temperature": 24,
            "tool": "set_stove",
            "description": (
                "The office pellet stove: target temperature in degrees Celsius, or mode."
            ),
        },
    },
    "f_grandma_bungalow": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "sitting room",
                "Mum's room",
                "spare bedroom 2",
                "back porch",
                "sunroom",
            ],
            "colors": ["white", "soft yellow", "rose"],
            "tool": "lamps",
            "description": (
                "The bungalow's lamps, one per room: on or off, brightness in percent, colour."
            ),
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["sitting room", "sunroom", "Mum's room"],
            "tool": "shades",
            "description": "The roller shades in a room: position 0 is closed, 100 fully open.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 16,
            "max_temperature": 28,
        },
        "fan": {"kind": "simulated_fan", "speeds": ["hush", "cruise", "gust"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "radio": "radio_plug",
                "foot bath": "spa_plug",
                "lap warmer": "throw_plug",
            },
        },
    },
    "f_studio_loft": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["paint studio", "darkroom", "reading nook", "kid's loft"],
            "colors": ["white", "cool daylight", "red", "blue"],
        },
        "strips": {
            "kind": "zigbee2mqtt_lights",
            "devices": {"under cabinet": "cab_strip", "stairwell": "stair_strip"},
            "tool": "set_strip",
            "description": "LED light strips: on or off, brightness, colour, fade time in seconds.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"extractor": 5, "fish tank heater": 6},
        },
        "leds": {"kind": "gpio_leds", "leds": {"on air": 20}},
        "fan": {"kind": "simulated_fan", "speeds": ["low", "high"]},
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["paint studio", "reading nook"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 26,
        },
    },
    "g_tram_depot_flat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "kitchen corner",
                "Priya's room",
                "back bedroom",
                "sun porch",
                "toilet",
            ],
            "colors": ["white", "warm white", "red", "turquoise", "honey"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 27,
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "medium", "high"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "rice cooker": "rice",
                "iron": "iron",
                "fish tank filter": "filter",
            },
        },
    },
    "g_dental_clinic_annex": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "waiting room": "waiting_bulb",
                "surgery 1": "surg1_bulb",
                "surgery 2": "surg2_bulb",
                "Dr Kovac's office": "kovac_bulb",
            },
            "tool": "clinic_lights",
            "description": "The clinic's ceiling lights: on or off, brightness in percent, colour.",
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["waiting room", "Dr Kovac's office"],
            "tool": "window_shades",
            "description": "Raise or lower a room's window shades; 0 is closed, 100 fully open.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"autoclave": 5, "air purifier": 6, "door buzzer": 13},
        },
        "leds": {"kind": "gpio_leds", "leds": {"patient ready": 20, "sterile ok": 21}},
    },
    "g_hill_farmhouse": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["milk room", "Grandma's room", "big kitchen", "guest room 3"],
            "colors": ["white", "yellow", "green", "rose"],
        },
        "outdoor": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "barn": "barn_bulb",
                "hay loft": "loft_bulb",
                "yard": "yard_bulb",
            },
            "tool": "set_barn_light",
            "description": (
                "Lights of the barn, the hay loft and the yard: on/off, brightness, colour."
            ),
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 8,
            "max_temperature": 24,
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"well pump": 17, "chicken door": 27, "sheep fence": 22},
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["big kitchen", "Grandma's room"],
        },
    },
    "g_student_dorm_flat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["Kenji's room", "Lina's room", "shared kitchen", "hallway 2"],
        },
        "fan": {"kind": "simulated_fan", "speeds": ["quiet", "breezy", "stormy"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "water boiler": "boiler",
                "gaming pc": "pc",
                "hair dryer": "dryer",
            },
        },
        "leds": {"kind": "gpio_leds", "leds": {"doorbell": 4, "laundry done": 18}},
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 15,
            "max_temperature": 25,
        },
    },
    "h_leeds_terrace": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "front room",
                "kitchen",
                "upstairs landing",
                "little box room",
                "Nan's room",
            ],
            "colors": ["white", "warm white", "blue", "pink"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 26,
            "tool": "boiler",
            "description": (
                "The house boiler: heating target temperature in degrees Celsius, or mode."
            ),
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "toastie maker": "toastie_plug",
                "telly": "tv_plug",
                "immersion": "imm_plug",
            },
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "high"]},
    },
    "h_dublin_semi": {
        "zig": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "sitting room": "sitting_bulb",
                "front hall": "hall_bulb",
                "Aoife's room": "aoife_bulb",
                "back kitchen": "backkitchen_bulb",
            },
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["sitting room", "Aoife's room"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 25,
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"immersion": 17, "heated blanket": 27, "heated towel rail": 22},
        },
    },
    "h_glasgow_flat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["lounge", "Kirsty's room", "Callum's room", "loo", "hallway"],
            "colors": ["white", "warm white", "purple", "orange"],
            "tool": "lamps",
            "description": "The flat's ceiling lights: on or off, brightness in percent, colour.",
        },
        "zig": {
            "kind": "zigbee2mqtt_lights",
            "devices": {"sunroom": "cons_bulb", "back garden": "garden_bulb"},
            "tool": "garden_lights",
            "description": "Lights in the sunroom and the back garden.",
        },
        "fan": {"kind": "simulated_fan", "speeds": ["ticking over", "full pelt"]},
        "leds": {"kind": "gpio_leds", "leds": {"doorbell": 5, "boiler fault": 6}},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "slow cooker": "slowcooker",
                "heated airer": "dehum",
                "Christmas tree": "xmas_tree",
            },
        },
    },
    "h_cork_farmhouse": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["kitchen", "parlour", "back porch", "Da's room", "utility"],
            "colors": ["white", "warm white", "red", "green"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 5,
            "max_temperature": 28,
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"yard light": 5, "well pump": 6, "immersion": 13},
            "tool": "set_farm_switch",
            "description": (
                "Farm relays: the yard light, the well pump and the immersion, on or off."
            ),
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["parlour", "kitchen"],
            "tool": "set_curtains",
        },
        "leds": {"kind": "gpio_leds", "leds": {"gate open": 20, "oil low": 21}},
    },
    "i_harbour_flat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "back porch",
                "entry hall",
                "Mia's room",
                "study nook",
                "bedroom 5",
            ],
            "colors": ["white", "warm white", "blue", "red", "mint"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 27,
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["study nook", "Mia's room", "sitting room"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "tea kettle": "hf_kettle",
                "coffee machine": "hf_coffee",
                "desk lamp": "hf_desk",
            },
        },
    },
    "i_orchard_barn": {
        "zig": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "tack room": "tack_bulb",
                "hay loft": "loft_bulb",
                "workshop 1": "ws1_bulb",
                "workshop 2": "ws2_bulb",
            },
            "tool": "barn_lights",
            "description": "The barn's Zigbee lights: on or off, brightness, colour, fade time.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"trough pump": 17, "yard gate": 27, "feed auger": 22},
            "tool": "barn_relay",
            "description": "Switch one of the barn's relay-driven machines on or off.",
        },
        "leds": {"kind": "gpio_leds", "leds": {"alarm": 5, "gate open": 6}},
        "fan": {"kind": "simulated_fan", "speeds": ["slow", "fast"]},
    },
    "i_tall_townhouse": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "kitchen",
                "top landing",
                "Grandpa's room",
                "guest room",
                "cellar",
            ],
            "colors": ["white", "honey", "teal", "purple"],
        },
        "outdoor": {
            "kind": "zigbee2mqtt_lights",
            "devices": {"front door": "fd_bulb", "back garden": "bg_bulb"},
            "tool": "set_outdoor_light",
            "description": "Outdoor Zigbee lights by the front door and in the back garden.",
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "medium", "high"]},
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["kitchen", "guest room", "Grandpa's room"],
            "tool": "set_shades",
            "description": "Raise or lower a room's shades; 0 is closed, 100 fully open.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 5,
            "max_temperature": 30,
        },
    },
    "i_corner_cafe": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["counter", "dining area", "patio", "back office"],
            "colors": ["white", "warm white", "orange", "green"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "espresso machine": "cc_espresso",
                "grinder": "cc_grinder",
                "neon sign": "cc_sign",
                "dishwasher": "cc_dish",
            },
        },
        "leds": {"kind": "gpio_leds", "leds": {"order ready": 20, "wifi": 21}},
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 14,
            "max_temperature": 25,
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["dining area", "back office"]},
    },
    "j_terrace_house": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["front room", "Nina's bedroom", "bathroom 2", "back kitchen"],
            "colors": ["white", "warm white", "peach", "ocean blue"],
        },
        "garden": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "patio": "patio_bulb",
                "shed door": "shed_bulb",
                "garden path": "path_bulb",
            },
            "tool": "garden_lights",
            "description": (
                "Outdoor Zigbee bulbs in the garden: on or off, brightness, colour and fade time."
            ),
        },
        "floor": {
            "kind": "simulated_thermostat",
            "min_temperature": 15,
            "max_temperature": 29,
            "tool": "underfloor",
            "description": (
                "Underfloor heating under the kitchen and bathroom "
                "floors: target temperature or mode."
            ),
        },
        "ac": {
            "kind": "simulated_thermostat",
            "min_temperature": 16,
            "max_temperature": 30,
            "tool": "aircon",
            "description": (
                "The air conditioning unit in the front room: target temperature or mode."
            ),
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "tea kettle": "tea kettle_plug",
                "toaster": "toaster_plug",
                "foot warmer": "blanket_plug",
            },
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"well pump": 17, "pond filter": 27, "porch heater": 22},
        },
        "fan": {
            "kind": "simulated_fan",
            "speeds": ["low", "purge"],
            "tool": "bathroom_fan",
            "description": "The extractor fan in the bathroom: on or off, and its speed.",
        },
    },
    "j_farm_office": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "office 1": "office1_bulb",
                "office 2": "office2_bulb",
                "board room": "meeting_bulb",
                "front office": "front office_bulb",
            },
        },
        "yard": {
            "kind": "simulated_lights",
            "rooms": ["calving shed", "hay barn", "main gate"],
            "colors": ["white", "honey"],
            "tool": "yard_lights",
            "description": "Floodlights around the farmyard: on or off, brightness and colour.",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "coffee machine": "coffee",
                "label printer": "label printer",
                "oil heater": "heater",
            },
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"feed auger": 5, "trough pump": 6, "barn door motor": 13},
        },
        "leds": {
            "kind": "gpio_leds",
            "leds": {"gate open": 19, "alarm armed": 20, "milk tank full": 21},
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["board room", "front office"]},
        "fan": {"kind": "simulated_fan", "speeds": ["low", "medium", "high"]},
    },
    "j_lakeside_flat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["living room", "Oscar's room", "guest bedroom", "hallway"],
            "colors": ["white", "warm white", "soft violet", "green"],
        },
        "floor": {
            "kind": "simulated_thermostat",
            "min_temperature": 16,
            "max_temperature": 28,
            "tool": "underfloor",
            "description": (
                "Underfloor heating for the whole flat: target "
                "temperature in degrees Celsius, or mode."
            ),
        },
        "ac": {
            "kind": "simulated_thermostat",
            "min_temperature": 17,
            "max_temperature": 30,
            "tool": "aircon",
            "description": (
                "The wall-mounted air conditioner in the living room: target temperature or mode."
            ),
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["living room", "Oscar's room", "balcony door"],
        },
        "ceiling": {
            "kind": "simulated_fan",
            "speeds": ["soft", "middle", "full"],
            "tool": "ceiling_fan",
            "description": "The ceiling fan in the main bedroom: on or off, soft, middle or full.",
        },
        "desk": {
            "kind": "simulated_fan",
            "speeds": ["low", "high"],
            "tool": "desk_fan",
            "description": "The small desk fan in the study: on or off, low or high.",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "heated airer": "dehum",
                "lava lamp": "lava",
                "fish tank light": "tank",
            },
        },
    },
    "j_workshop_barn": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["lathe bench", "spray booth", "loft 2", "Dad's corner"],
        },
        "strips": {
            "kind": "zigbee2mqtt_lights",
            "devices": {"tool wall": "toolwall_strip", "timber rack": "timber_strip"},
            "tool": "strip_lights",
            "description": (
                "LED strip lights under the shelves: on or off, brightness, colour and fade time."
            ),
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {
                "sawdust extractor": 17,
                "air compressor": 27,
                "bench grinder": 22,
            },
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "radio": "radio",
                "glue pot": "gluepot",
                "battery charger": "charger",
            },
            "tool": "set_plug",
        },
        "leds": {
            "kind": "gpio_leds",
            "leds": {"compressor ready": 23, "door warning": 24},
        },
        "heat": {
            "kind": "simulated_thermostat",
            "min_temperature": 5,
            "max_temperature": 22,
            "tool": "workshop_heater",
            "description": "The diesel heater that warms the workshop: target temperature or mode.",
        },
        "fan": {
            "kind": "simulated_fan",
            "speeds": ["slow", "fast"],
            "tool": "extractor_fan",
            "description": "The extractor fan in the spray booth: on or off, slow or fast.",
        },
    },
    "k_studio_flat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["sofa nook", "sleeping alcove"],
            "colors": ["white", "warm white", "peach", "teal"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 25,
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["bay window"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {"coffee machine": "coffee", "foot warmer": "blanket"},
        },
    },
    "k_caravan": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["dinette", "end bedroom", "Nan's bunk"],
            "colors": ["white", "warm white", "blue"],
            "tool": "caravan_lights",
            "description": "The caravan's lights: on or off, brightness in percent, colour.",
        },
        "heat": {
            "kind": "simulated_thermostat",
            "min_temperature": 8,
            "max_temperature": 24,
            "tool": "heater",
            "description": (
                "The caravan's gas heater: target temperature in degrees Celsius, or mode."
            ),
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"fresh water pump": 17, "fridge": 27},
        },
        "vent": {
            "kind": "simulated_fan",
            "speeds": ["slow", "fast"],
            "tool": "roof_vent",
            "description": "The extractor fan in the roof vent: on or off, slow or fast.",
        },
    },
    "k_home_office": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "desk": "desk_bulb",
                "reading chair": "corner_bulb",
                "shelf 2": "shelf_bulb",
            },
        },
        "fan": {"kind": "simulated_fan", "speeds": ["soft", "brisk", "gusty"]},
        "leds": {"kind": "gpio_leds", "leds": {"do not disturb": 22, "on air": 23}},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "label printer": "printer",
                "oil heater": "heater",
                "second monitor": "monitor2",
            },
        },
    },
    "k_boat_cabin": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["berth"],
            "colors": ["white", "red", "honey"],
            "tool": "cabin_light",
            "description": (
                "The cabin light over the berth: on or off, brightness in percent, colour."
            ),
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["forward hatch", "porthole"],
            "tool": "shades",
            "description": "Roll the cabin's shades; position 0 is closed, 100 fully open.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"hull pump": 5, "anchor light": 6},
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 22,
        },
    },
    "l_harrow_house": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "kitchen",
                "dining room",
                "Theo's room",
                "Mia's room",
                "bedroom 10",
                "guest bedroom 2",
                "main bathroom",
                "front hall",
                "playroom",
                "back porch",
            ],
            "colors": ["warm white", "cool white", "forest green", "sky blue", "coral"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 27,
        },
        "fan": {"kind": "simulated_fan", "speeds": ["murmur", "drift", "storm"]},
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["dining room", "Theo's room", "writing room", "guest bedroom 2"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "coffee machine": "coffee",
                "bed warmer": "blanket",
                "fish tank pump": "fishtank",
            },
        },
        "leds": {"kind": "gpio_leds", "leds": {"doorbell": 22, "washer done": 23}},
    },
    "l_old_rectory": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "reading room",
                "breakfast room",
                "sewing room",
                "bedroom 8",
                "bedroom 9",
                "bedroom 5",
                "Granny's flat",
                "coat room",
                "long gallery",
                "wash house",
                "Hugo's den",
            ],
            "colors": [
                "amber dusk",
                "warm white",
                "rose gold",
                "midnight blue",
                "moonlight",
            ],
            "tool": "room_lights",
            "description": "The rectory's room lights: on or off, brightness in percent, colour.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 8,
            "max_temperature": 25,
            "tool": "central_heating",
            "description": (
                "The rectory's central heating: target temperature in degrees Celsius, or mode."
            ),
        },
        "shutters": {
            "kind": "simulated_blinds",
            "rooms": ["reading room", "breakfast room", "long gallery"],
            "tool": "shutters",
            "description": "The wooden window shutters; position 0 is shut, 100 fully open.",
        },
        "fan": {"kind": "simulated_fan", "speeds": ["hush", "brisk", "tempest"]},
        "relays": {
            "kind": "gpio_relays",
            "relays": {
                "garden fountain": 5,
                "gate motor": 6,
                "greenhouse heater": 13,
                "well pump": 19,
            },
        },
    },
    "l_maple_villa": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "living room",
                "kitchen",
                "bedroom 11",
                "bedroom 4",
                "Priya's room",
                "laundry",
                "upstairs landing",
                "home office",
                "sunroom",
            ],
            "colors": [
                "soft white",
                "heather purple",
                "burnt orange",
                "ocean blue",
                "mint green",
            ],
        },
        "outdoor": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "garage": "garage_bulb",
                "garden shed": "shed_bulb",
                "carport": "drive_bulb",
                "pool house": "pool_bulb",
            },
            "tool": "outdoor_lights",
            "description": (
                "Zigbee lights outside and in the outbuildings: "
                "on/off, brightness, colour, fade time."
            ),
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 28,
        },
        "fan": {"kind": "simulated_fan", "speeds": ["night", "cruise", "blast"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "pond filter": "poolpump",
                "patio heater": "hottub",
                "Christmas tree": "xmastree",
                "heated airer": "dehum",
            },
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["sunroom", "home office", "Priya's room"],
        },
    },
    "l_brook_farmhouse": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "farmhouse kitchen",
                "parlour",
                "pantry",
                "bedroom 12",
                "bedroom 6",
                "Elsie's room",
                "Mum and Dad's room",
                "guest bedroom 9",
                "upstairs bathroom",
                "mud room",
                "hay loft",
                "tack room",
            ],
            "colors": [
                "warm white",
                "harvest gold",
                "forest green",
                "dusky pink",
                "sky blue",
            ],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 5,
            "max_temperature": 24,
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {
                "trough pump": 17,
                "yard floodlight": 27,
                "paddock fence": 22,
            },
        },
        "leds": {"kind": "gpio_leds", "leds": {"gate open": 5, "freezer warning": 6}},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "toaster": "toaster",
                "boot dryer": "bootdryer",
                "egg incubator": "incubator",
            },
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["parlour", "farmhouse kitchen", "Elsie's room"],
        },
        "fan": {"kind": "simulated_fan", "speeds": ["purr", "draught", "gust"]},
    },
    "m_terrace_house": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "kitchen",
                "front room",
                "Grace's bedroom",
                "bedroom 5",
                "utility room",
            ],
            "colors": ["white", "warm white", "blue", "sunset orange", "green"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 27,
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["front room", "Grace's bedroom"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "tea kettle": "kettle_plug",
                "toaster": "toaster_plug",
                "foot warmer": "blanket_plug",
            },
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "medium", "high"]},
    },
    "m_garden_flat": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "hallway": "hall_bulb",
                "dining room": "dining_bulb",
                "Sam's study": "study_bulb",
                "bedroom 8": "bed1_bulb",
            },
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "high"]},
        "relays": {
            "kind": "gpio_relays",
            "relays": {"pond pump": 17, "patio heater": 27, "heated towel rail": 23},
        },
        "leds": {"kind": "gpio_leds", "leds": {"doorbell": 5, "laundry done": 6}},
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 5,
            "max_temperature": 25,
        },
    },
    "m_semi_detached": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "living room",
                "baby's room",
                "Dad's office",
                "upstairs landing",
                "bedroom 9",
            ],
            "colors": ["white", "warm white", "pink", "purple", "yellow"],
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["living room", "baby's room", "Dad's office"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "coffee machine": "coffee",
                "fish tank light": "tank",
                "label printer": "label printer",
            },
        },
        "leds": {"kind": "gpio_leds", "leds": {"front door": 12, "bin day": 16}},
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 28,
        },
    },
    "m_cottage_annex": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "pottery studio": "studio_bulb",
                "guest room": "guest_bulb",
                "back porch": "porch_bulb",
                "Lily's room": "lily_bulb",
            },
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 8,
            "max_temperature": 26,
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "medium", "high", "storm"]},
        "relays": {
            "kind": "gpio_relays",
            "relays": {"immersion heater": 17, "sprinklers": 18, "air dryer": 24},
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["pottery studio", "guest room"],
        },
    },
    "n_terrace_house": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "front parlour",
                "Maya's bedroom",
                "study 2",
                "back kitchen",
                "top landing",
            ],
            "colors": ["white", "warm white", "teal", "coral", "soft gold"],
            "tool": "lamps",
            "description": (
                "The lamps in each room of our terrace: on or off, "
                "brightness in percent, or a colour."
            ),
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["front parlour", "Maya's bedroom"],
            "tool": "window_covers",
            "description": "The roller blinds on our windows, where 0 is shut and 100 is fully up.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 25,
            "tool": "climate",
            "description": "Our boiler's thermostat: a target in degrees Celsius, or a mode.",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "coffee machine": "coffee",
                "heated rug": "blanket",
                "fish tank filter": "aqua",
            },
            "tool": "sockets",
            "description": "Smart sockets around the house that we switch on, off or toggle.",
        },
    },
    "n_mill_flat": {
        "zig": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "reading nook": "nook_bulb",
                "hallway 1": "hall1_bulb",
                "hallway 2": "hall2_bulb",
                "Grandpa's den": "den_bulb",
                "galley kitchen": "galley_bulb",
            },
            "tool": "bulbs",
            "description": (
                "The Zigbee bulbs in the flat: on or off, brightness, colour and fade time."
            ),
        },
        "fan": {
            "kind": "simulated_fan",
            "speeds": ["hush", "brisk", "storm"],
            "tool": "air_mover",
            "description": "The tower fan in the living area: on, off, or one of its speeds.",
        },
        "leds": {
            "kind": "gpio_leds",
            "leds": {"door chime": 22, "laundry done": 23, "post arrived": 24},
            "tool": "signal_lights",
            "description": (
                "The little indicator lights by the front door, which go on, off or blink."
            ),
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["reading nook", "Grandpa's den"],
            "tool": "shades",
            "description": "The pleated shades in the nook and the den, 0 closed to 100 open.",
        },
    },
    "n_allotment": {
        "relays": {
            "kind": "gpio_relays",
            "relays": {
                "rain tank pump": 17,
                "greenhouse heater": 27,
                "irrigation valve 3": 22,
                "soil warmer": 5,
            },
            "tool": "switchgear",
            "description": "The relays in the shed that power the garden kit on or off.",
        },
        "leds": {
            "kind": "gpio_leds",
            "leds": {"frost alert": 12, "tank full": 16, "gate open": 20},
            "tool": "indicators",
            "description": "Warning LEDs on the shed wall that can be on, off or blinking.",
        },
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["potting shed", "greenhouse", "tool store", "Bea's workbench"],
            "colors": ["white", "sunlit", "grow purple"],
            "tool": "shed_lights",
            "description": (
                "The lights around the plot: on or off, brightness in percent, or colour."
            ),
        },
        "fan": {
            "kind": "simulated_fan",
            "speeds": ["low", "high"],
            "tool": "greenhouse_fan",
            "description": "The extractor fan in the greenhouse roof: on, off, low or high.",
        },
    },
    "n_harbour_loft": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "master bedroom",
                "guest room",
                "Leo's nursery",
                "balcony",
                "bathroom 2",
            ],
            "colors": ["white", "warm white", "peach", "navy", "mint"],
            "tool": "room_lights",
            "description": (
                "Every light in the loft: on or off, brightness in percent, or a colour."
            ),
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["master bedroom", "guest room", "Leo's nursery"],
            "tool": "shutters",
            "description": "The electric shutters on the bedrooms, from 0 shut to 100 wide open.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 16,
            "max_temperature": 28,
            "tool": "aircon",
            "description": (
                "Our split air-con unit: a target in degrees Celsius, or heat, cool, auto or off."
            ),
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "air dryer": "dehum",
                "bottle warmer": "bottle",
                "TV 2": "tv2",
            },
            "tool": "power_points",
            "description": "The smart plugs in the loft that we turn on, off or toggle.",
        },
    },
    "o_terrace_house": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "front room",
                "Nina's bedroom",
                "bedroom 6",
                "utility room",
                "back porch",
            ],
            "colors": ["white", "warm white", "copper", "teal", "rose"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 27,
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "medium", "high"]},
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["front room", "Nina's bedroom"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "water boiler": "kettle_plug",
                "air purifier": "dehum_plug",
                "foot warmer": "blanket_plug",
            },
        },
        "leds": {"kind": "gpio_leds", "leds": {"doorbell": 20, "post box": 21}},
    },
    "o_garden_flat": {
        "zig": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "kitchen diner": "kitchen_diner_bulb",
                "study nook": "study_nook_bulb",
                "Priya's room": "leo_bulb",
                "hallway 1": "hallway_1_bulb",
            },
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {
                "pond pump": 17,
                "garden sprinkler": 27,
                "greenhouse heater": 22,
            },
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "router": "router_plug",
                "label printer": "printer_plug",
                "coffee machine": "coffee",
            },
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["kitchen diner", "study nook"],
            "tool": "set_shades",
            "description": (
                "Raise or lower the flat's roller shades; position 0 is closed, 100 fully open."
            ),
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 5,
            "max_temperature": 25,
        },
    },
    "o_cottage_annex": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["reading room", "Grandma's room", "guest room 3", "coat room"],
            "colors": ["white", "soft yellow", "mauve"],
            "tool": "set_lamp",
            "description": "The cottage lamps: on or off, brightness in percent, or colour.",
        },
        "zig": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "sun lounge": "sun_lounge_bulb",
                "garden path": "path_bulb",
                "log store": "log_store_bulb",
            },
            "tool": "set_zigbee_bulb",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 24,
            "tool": "set_radiators",
            "description": "The cottage radiators: target temperature in degrees Celsius, or mode.",
        },
        "fan": {"kind": "simulated_fan", "speeds": ["hush", "brisk"]},
        "relays": {
            "kind": "gpio_relays",
            "relays": {"towel radiator": 5, "immersion heater": 6},
        },
        "leds": {"kind": "gpio_leds", "leds": {"washing done": 23, "back door": 24}},
    },
    "o_workshop_loft": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["tool bench", "loft deck", "paint bay", "office 2"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "3D printer": "printer3d",
                "soldering iron": "solder",
                "shop vac": "shopvac",
                "tea maker": "loft_kettle",
            },
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"air compressor": 5, "dust collector": 6, "bench grinder": 13},
        },
        "leds": {
            "kind": "gpio_leds",
            "leds": {"job running": 20, "compressor ready": 21, "fault": 22},
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "high"]},
        "blinds": {"kind": "simulated_blinds", "rooms": ["loft deck", "office 2"]},
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 8,
            "max_temperature": 22,
        },
    },
    "p_harbour_flat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "living room",
                "Nadia's room",
                "bedroom 6",
                "galley kitchen",
                "shower room",
            ],
            "colors": ["white", "warm white", "teal", "coral", "violet"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 25,
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "medium", "high"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "coffee machine": "coffee",
                "bed warmer": "blanket",
                "hair dryer": "dryer",
            },
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["living room", "Nadia's room"],
        },
    },
    "p_workshop_barn": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "work bench": "bench_bulb",
                "spray booth": "booth_bulb",
                "tool store": "store_bulb",
                "loft 1": "loft1_bulb",
            },
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"sawdust vacuum": 5, "air compressor": 6, "yard floodlight": 13},
            "tool": "barn_power",
            "description": "Switch the barn's mains machines and the yard floodlight on or off.",
        },
        "leds": {"kind": "gpio_leds", "leds": {"kiln ready": 20, "door open": 21}},
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 5,
            "max_temperature": 22,
            "tool": "barn_heater",
            "description": (
                "The barn's space heater: target temperature in degrees Celsius, or mode."
            ),
        },
    },
    "p_grandmas_bungalow": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "front room",
                "Grandad's study",
                "sun porch",
                "bedroom 8",
                "back hall",
            ],
            "colors": ["white", "soft yellow", "heather", "peach"],
        },
        "shutters": {
            "kind": "simulated_blinds",
            "rooms": ["front room", "sun porch", "bedroom 8"],
            "tool": "shutters",
            "description": "The bungalow's roller shutters: position 0 shut, 100 fully open.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 28,
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "tea kettle": "kettle",
                "reading lamp": "lamp",
                "massage chair": "spa",
                "radio": "radio",
            },
        },
    },
    "p_city_studio": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["sleeping nook", "desk corner", "bathroom"],
            "colors": ["white", "warm white", "blue", "pink"],
        },
        "accent": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "balcony": "balcony_strip",
                "hallway": "hall_bulb",
                "wardrobe": "wardrobe_bulb",
            },
            "tool": "set_accent_light",
            "description": "The zigbee accent lights (balcony, hallway, wardrobe): on or off, "
            "brightness, colour and fade time.",
        },
        "fan": {"kind": "simulated_fan", "speeds": ["hush", "brisk", "tempest"]},
        "leds": {"kind": "gpio_leds", "leds": {"doorbell": 22, "mail box": 23}},
        "relays": {
            "kind": "gpio_relays",
            "relays": {"towel radiator": 17, "water heater": 27},
        },
    },
    "q_old_vicarage": {
        "house_lights": {
            "kind": "simulated_lights",
            "rooms": [
                "front parlour",
                "Edith's bedroom",
                "back kitchen",
                "study 2",
                "boot hall",
            ],
            "colors": ["white", "warm white", "saffron", "teal"],
            "tool": "house_lights",
            "description": "Lights inside the house: on or off, brightness in percent, colour.",
        },
        "garden_lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "rose arbour": "arbour_bulb",
                "gravel drive": "drive_bulb",
                "vegetable patch": "veg_bulb",
                "summerhouse": "summerhouse_bulb",
            },
            "tool": "garden_lights",
            "description": "Outdoor Zigbee lights around the garden and drive.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 27,
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "medium", "high"]},
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["front parlour", "study 2", "Edith's bedroom"],
        },
        "kitchen_plugs": {
            "kind": "tasmota",
            "switches": {
                "hot water urn": "vic_urn",
                "toaster": "vic_toaster",
                "bread maker": "vic_bread",
            },
            "tool": "kitchen_plugs",
            "description": "Smart plugs for the kitchen appliances.",
        },
        "workshop_plugs": {
            "kind": "tasmota",
            "switches": {
                "bench grinder": "ws_grinder",
                "soldering station": "ws_solder",
                "shop vac": "ws_vac",
            },
            "tool": "workshop_plugs",
            "description": "Smart plugs for the power tools in the workshop.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"well pump": 17, "gate motor": 27, "pond filter": 22},
        },
        "leds": {"kind": "gpio_leds", "leds": {"post box": 5, "doorbell": 6}},
    },
    "q_hill_farm": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "farm kitchen",
                "coat room",
                "Nell's room",
                "bedroom 6",
                "hayloft office",
            ],
            "colors": ["white", "warm white", "honey", "mint"],
        },
        "yard_lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "milking shed": "parlour_flood",
                "calving pen": "lambing_flood",
                "tractor barn": "tractor_flood",
                "yard gate": "gate_flood",
            },
            "tool": "yard_lights",
            "description": "Zigbee floodlights in the farm buildings and yard.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 8,
            "max_temperature": 25,
        },
        "barn_fan": {
            "kind": "simulated_fan",
            "speeds": ["slow", "fast"],
            "tool": "barn_fan",
            "description": "The big extractor fan in the hay barn.",
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["farm kitchen", "Nell's room"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "egg incubator": "incubator",
                "milk chiller": "chiller",
                "radio": "farm_radio",
            },
        },
        "valves": {
            "kind": "gpio_relays",
            "relays": {
                "trough valve 1": 17,
                "trough valve 2": 18,
                "orchard sprinkler": 23,
            },
            "tool": "irrigation_valves",
            "description": "Water valves for the animal troughs and the orchard sprinkler.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"fence energiser": 24, "grain auger": 25},
        },
        "leds": {"kind": "gpio_leds", "leds": {"gate open": 12, "ice alert": 16}},
    },
    "q_seaview_guesthouse": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["room 1", "room 2", "room 5", "breakfast room", "owners' flat"],
            "colors": ["white", "warm white", "heather", "gold"],
        },
        "hall_lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "ground floor landing": "landing_bulb",
                "top stairs": "stairs_bulb",
                "luggage nook": "nook_bulb",
                "back corridor": "corridor_bulb",
            },
            "tool": "hall_lights",
            "description": "Zigbee lights in the hallways, landings and stairs.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 15,
            "max_temperature": 24,
        },
        "fan": {"kind": "simulated_fan", "speeds": ["soft", "breezy", "gusty"]},
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["breakfast room", "room 1", "room 2"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "coffee machine": "coffee",
                "trouser press": "press",
                "boot dryer": "towel_rail",
            },
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"hot tub pump": 17, "sauna heater": 27},
        },
        "status_leds": {
            "kind": "gpio_leds",
            "leds": {"vacancy": 5, "check-in": 6},
            "tool": "status_leds",
            "description": "Indicator LEDs on the reception desk.",
        },
        "porch_leds": {
            "kind": "gpio_leds",
            "leds": {"house number": 13, "porch step": 19},
            "tool": "porch_leds",
            "description": "Small LEDs on the front porch.",
        },
    },
    "q_terrace_townhouse": {
        "downstairs": {
            "kind": "simulated_lights",
            "rooms": ["sitting room", "dining room", "utility room", "cloakroom"],
            "colors": ["white", "warm white", "blue", "peach"],
            "tool": "downstairs_lights",
            "description": "Lights in the downstairs rooms: on or off, brightness, colour.",
        },
        "upstairs": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "master bedroom": "master_bulb",
                "Priya's room": "priya_bulb",
                "spare room 2": "spare_bulb",
                "upstairs bathroom": "bath_bulb",
            },
            "tool": "upstairs_lights",
            "description": "Zigbee lights in the upstairs rooms.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 28,
        },
        "ceiling_fan": {
            "kind": "simulated_fan",
            "speeds": ["low", "medium", "high"],
            "tool": "ceiling_fan",
            "description": "The ceiling fan in the sitting room.",
        },
        "loft_fan": {
            "kind": "simulated_fan",
            "speeds": ["hush", "purge"],
            "tool": "loft_fan",
            "description": "The extractor fan in the loft conversion.",
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["sitting room", "master bedroom", "Priya's room"],
        },
        "kitchen_plugs": {
            "kind": "tasmota",
            "switches": {
                "milk frother": "th_frother",
                "coffee grinder": "th_grinder",
                "dishwasher": "th_dishwasher",
            },
            "tool": "kitchen_plugs",
            "description": "Smart plugs in the kitchen.",
        },
        "garage_plugs": {
            "kind": "tasmota",
            "switches": {
                "car charger": "th_charger",
                "chest freezer": "th_freezer",
                "pressure washer": "th_washer",
            },
            "tool": "garage_plugs",
            "description": "Smart plugs in the garage.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"boiler pump": 17, "water softener": 27},
        },
        "leds": {"kind": "gpio_leds", "leds": {"doorbell": 22, "wifi": 23}},
    },
    "r_terrace_house": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "front room",
                "kitchen diner",
                "Nan's room",
                "attic bedroom",
                "top landing",
            ],
            "colors": ["warm white", "cool white", "peach", "teal"],
            "description": "The lights in each room of the house: the big light in the front room, "
            "the kitchen diner spotlights, Nan's room, attic bedroom and the top landing light. "
            "On or off, brightness in percent, colour.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 12,
            "max_temperature": 25,
            "tool": "radiators",
            "description": "The house heating: the radiators all round the house, run by the "
            "boiler. Target temperature in degrees Celsius, or mode.",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "tv": "tv_plug",
                "jug kettle": "kettle_plug",
                "immersion": "immersion_plug",
            },
            "description": "Smart plugs: 'tv' is the telly and the sound bar in the front room, "
            "'jug kettle' is the kettle, 'immersion' is the immersion heater for the hot water. "
            "On, off or toggle.",
        },
        "curtains": {
            "kind": "simulated_blinds",
            "rooms": ["front room", "Nan's room"],
            "tool": "curtains",
            "description": "The electric curtains in the front room and Nan's room: position 0 "
            "is drawn shut, 100 fully open.",
        },
    },
    "r_hill_farm_workshop": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "joinery bench": "bench_strip",
                "potting shed": "shed_bulb",
                "yard": "yard_flood",
                "Dad's office": "office_bulb",
            },
            "description": "The Zigbee lights: 'joinery bench' is the strip light over the "
            "workbench, 'potting shed' is the bulb in the potting shed, 'yard' is the "
            "floodlight over the yard, 'Dad's office' is the office ceiling light. On or off, "
            "brightness, colour, fade time in seconds.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"extractor": 5, "air compressor": 6, "well pump": 13},
            "description": "Relays: 'extractor' is the sawdust extractor fan over the saw, "
            "'air compressor' is the compressor for the air tools, 'well pump' fills the "
            "water tank from the well. On or off.",
        },
        "leds": {
            "kind": "gpio_leds",
            "leds": {"busy": 20, "parcel": 21},
            "description": "The indicator lamps on the gate panel: 'busy' is the red "
            "do-not-disturb lamp outside Dad's office, 'parcel' is the green lamp that tells "
            "the courier where to leave parcels. On, off or blink.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 5,
            "max_temperature": 22,
            "description": "The workshop heating: the big blow heater on the wall. Target "
            "temperature in degrees Celsius, or mode.",
        },
    },
    "r_seafront_flat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "lounge",
                "galley kitchen",
                "Priya's bedroom",
                "spare room",
                "balcony",
            ],
            "colors": ["white", "sunset orange", "mint", "heather"],
            "description": "The ceiling lights in each room of the flat, plus the balcony wall "
            "lamp. On or off, brightness in percent, colour.",
        },
        "fan": {
            "kind": "simulated_fan",
            "speeds": ["drift", "breezy", "full blast"],
            "description": "The big wooden ceiling fan in the lounge. On or off, speed.",
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["lounge", "Priya's bedroom", "balcony door"],
            "description": "The roller blinds: 'balcony door' is the blind over the sliding "
            "glass door to the balcony. Position 0 is closed, 100 fully open.",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "coffee machine": "coffee",
                "shelf lights": "fairy",
                "damp dryer": "dehum",
            },
            "description": "Smart plugs: 'coffee machine' is the espresso machine, 'shelf "
            "lights' are the fairy lights on the bookshelf, 'damp dryer' is the dehumidifier "
            "in the spare room. On, off or toggle.",
        },
    },
    "r_old_vicarage": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "parish office",
                "bedroom 8",
                "bedroom 11",
                "flower room",
                "Father Tom's snug",
            ],
            "colors": ["white", "candle glow", "rose"],
            "tool": "lamps",
            "description": "The indoor lights: ceiling lights, wall lights and lamps in each "
            "room. On or off, brightness in percent, colour.",
        },
        "outside": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "church path": "path_lanterns",
                "front porch": "porch_lamp",
                "rose arch": "arch_bulbs",
            },
            "tool": "outdoor_lights",
            "description": "The outside Zigbee lights: 'church path' is the lanterns along the "
            "path to the church, 'front porch' is the lamp over the front door, 'rose arch' is the "
            "bulbs woven through the rose arch. On or off, brightness, colour, fade time in "
            "seconds.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 15,
            "max_temperature": 28,
            "tool": "underfloor_heating",
            "description": "The underfloor heating, the warm floors downstairs. Target "
            "temperature in degrees Celsius, or mode.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"fountain": 17, "rail heater": 27, "greenhouse heater": 22},
            "description": "Relays: 'fountain' is the pond fountain in the garden, 'rail heater' "
            "is the heated towel rail in the bathroom, 'greenhouse heater' keeps the greenhouse "
            "frost-free. On or off.",
        },
        "leds": {
            "kind": "gpio_leds",
            "leds": {"come in": 5, "engaged": 6},
            "description": "The little lamps on the parish office door: 'come in' is the green "
            "come-in-I'm-free light, 'engaged' is the red one that means I'm with someone. "
            "On, off or blink.",
        },
    },
}


def c(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "arguments": args}


P, T = "positive", "two_actions"
U, I, N, O, M = "unsupported", "invalid", "negated", "off_topic", "missing"

CASES: dict[str, list[tuple[str, str, list[dict[str, Any]]]]] = {
    "a_terrace_house": [
        (P, "kitchen diner off", [c("set_light", room="kitchen diner", on=False)]),
        (
            P,
            "uh can you pop the playroom light on",
            [c("set_light", room="playroom", on=True)],
        ),
        (
            P,
            "lights, Maya's room, 40",
            [c("set_light", room="Maya's room", brightness=40)],
        ),
        (P, "bedroom 6 to peach", [c("set_light", room="bedroom 6", color="peach")]),
        (
            P,
            "front hall down to ten percent",
            [c("set_light", room="front hall", brightness=10)],
        ),
        (P, "kill the Xbox", [c("set_switch", device="Xbox", action="OFF")]),
        (P, "fire up teh toaster", [c("set_switch", device="toaster", action="ON")]),
        (P, "ok so heating to nineteen", [c("set_thermostat", temperature=19)]),
        (P, "heating off, we're heading out", [c("set_thermostat", mode="off")]),
        (P, "crank the fan up to high", [c("set_fan", speed="high")]),
        (
            T,
            "toaster on and kitchen diner lights on",
            [
                c("set_switch", device="toaster", action="ON"),
                c("set_light", room="kitchen diner", on=True),
            ],
        ),
        (
            T,
            "shut the fan off and knock the heating down to 17",
            [c("set_fan", on=False), c("set_thermostat", temperature=17)],
        ),
        (
            T,
            "Maya's room warm white, bedroom 6 off",
            [
                c("set_light", room="Maya's room", color="warm white"),
                c("set_light", room="bedroom 6", on=False),
            ],
        ),
        (U, "garage light on", []),
        (I, "heating to thirty", []),
        (N, "don't turn the baby monitor off", []),
        (O, "add fish fingers to the shopping list", []),
        (M, "lights to sixty", []),
    ],
    "a_commuter_flat": [
        (P, "lounge lights 30", [c("set_light", room="lounge", brightness=30)]),
        (P, "en suite on", [c("set_light", room="en suite", on=True)]),
        (
            P,
            "desk nook light blue pls",
            [c("set_light", room="desk nook", color="blue")],
        ),
        (
            P,
            "dim the desk nook to fifteen percent over 5 seconds",
            [c("set_light", room="desk nook", brightness=15, transition=5)],
        ),
        (P, "shut the lounge blinds", [c("set_blinds", room="lounge", position=0)]),
        (
            P,
            "box bedroom blinds halfway",
            [c("set_blinds", room="box bedroom", position=50)],
        ),
        (
            P,
            "can you fire up the coffee machine",
            [c("set_switch", device="coffee machine", action="ON")],
        ),
        (
            P,
            "toggle the heated airer",
            [c("set_switch", device="heated airer", action="TOGGLE")],
        ),
        (P, "radiators to twenty one", [c("radiators", temperature=21)]),
        (P, "uh, turn the heating off", [c("radiators", mode="off")]),
        (
            T,
            "coffee machine on, lounge blinds open",
            [
                c("set_switch", device="coffee machine", action="ON"),
                c("set_blinds", room="lounge", position=100),
            ],
        ),
        (
            T,
            "kill the en suite and the box bedroom lights",
            [
                c("set_light", room="en suite", on=False),
                c("set_light", room="box bedroom", on=False),
            ],
        ),
        (
            T,
            "radiators up to 22 and stick the bed warmer on",
            [
                c("radiators", temperature=22),
                c("set_switch", device="bed warmer", action="ON"),
            ],
        ),
        (U, "close the en suite blinds", []),
        (I, "radiators to 28", []),
        (N, "don't open the box bedroom blinds yet", []),
        (M, "open the blinds", []),
    ],
    "a_semi_detached": [
        (P, "Finn's room light off", [c("house_lights", room="Finn's room", on=False)]),
        (
            P,
            "can u put ava and zoe's room on heether",
            [c("house_lights", room="Ava and Zoe's room", color="heather")],
        ),
        (
            P,
            "bump bedroom 8 up to 80",
            [c("house_lights", room="bedroom 8", brightness=80)],
        ),
        (P, "car port lights on", [c("set_light", room="car port", on=True)]),
        (
            P,
            "garden path at 25 percent",
            [c("set_light", room="garden path", brightness=25)],
        ),
        (
            P,
            "close the garden room shades",
            [c("set_shades", room="garden room", position=0)],
        ),
        (
            P,
            "ok Finn's blinds all the way up",
            [c("set_shades", room="Finn's room", position=100)],
        ),
        (
            P,
            "power down the hot tub pump",
            [c("set_relay", relay="hot tub pump", on=False)],
        ),
        (P, "fan to brisk", [c("set_fan", speed="brisk")]),
        (
            T,
            "garage heater off and the shed light off",
            [
                c("set_relay", relay="garage heater", on=False),
                c("set_light", room="shed", on=False),
            ],
        ),
        (
            T,
            "utility room off, garden room mint",
            [
                c("house_lights", room="utility room", on=False),
                c("house_lights", room="garden room", color="mint"),
            ],
        ),
        (
            T,
            "heated rail on and the fan on",
            [c("set_relay", relay="heated rail", on=True), c("set_fan", on=True)],
        ),
        (U, "turn on the hallway light", []),
        (I, "bedroom 8 lights to 120 percent", []),
        (N, "don't switch on the hot tub pump tonight", []),
        (O, "play the Frozen soundtrack in Ava and Zoe's room", []),
    ],
    "a_bungalow": [
        (
            P,
            "ugh it's pitch black out on the front step, light on",
            [c("set_light", room="front step", on=True)],
        ),
        (
            P,
            "baby's room lights down to five",
            [c("set_light", room="baby's room", brightness=5)],
        ),
        (P, "sitting room, rose", [c("set_light", room="sitting room", color="rose")]),
        (
            P,
            "get rid of the back bedroom light",
            [c("set_light", room="back bedroom", on=False)],
        ),
        (
            P,
            "close the baby's room blinds",
            [c("set_blinds", room="baby's room", position=0)],
        ),
        (
            P,
            "sitting room blinds open a quarter of the way",
            [c("set_blinds", room="sitting room", position=25)],
        ),
        (P, "heat to twenty-three", [c("set_thermostat", temperature=23)]),
        (P, "sprinklers off", [c("set_relay", relay="sprinklers", on=False)]),
        (
            P,
            "switch on the water heater",
            [c("set_relay", relay="water heater", on=True)],
        ),
        (
            P,
            "blink the bin day light",
            [c("set_indicator", led="bin day", mode="blink")],
        ),
        (P, "school run light off", [c("set_indicator", led="school run", mode="off")]),
        (P, "bottle warmer on", [c("set_switch", device="bottle warmer", action="ON")]),
        (
            P,
            "cut the telly at the plug",
            [c("set_switch", device="telly", action="OFF")],
        ),
        (
            T,
            "water heater on and heating to 20",
            [
                c("set_relay", relay="water heater", on=True),
                c("set_thermostat", temperature=20),
            ],
        ),
        (
            T,
            "baby's room blinds shut and the baby's room light off",
            [
                c("set_blinds", room="baby's room", position=0),
                c("set_light", room="baby's room", on=False),
            ],
        ),
        (
            T,
            "telly off, sitting room lights off",
            [
                c("set_switch", device="telly", action="OFF"),
                c("set_light", room="sitting room", on=False),
            ],
        ),
        (U, "turn on the dishwasher", []),
        (I, "heating to 10", []),
        (N, "don't turn the sprinklers on", []),
        (O, "remind me to call mum at six", []),
        (M, "set the heating", []),
    ],
    "b_marlow_bakery": [
        (
            P,
            "Good morning. Would you please switch on the light in the proving room?",
            [c("set_light", room="proving room", on=True)],
        ),
        (
            P,
            "The flour store light, please turn it off, I am finished there.",
            [c("set_light", room="flour store", on=False)],
        ),
        (
            P,
            "I would like the shop front light at eighty percent, please.",
            [c("set_light", room="shop front", brightness=80)],
        ),
        (
            P,
            "Would you kindly start the dough mixer for me?",
            [c("set_switch", device="dough mixer", action="ON")],
        ),
        (
            P,
            "Please switch off the outlet of oven 2, we do not need it any more today.",
            [c("set_switch", device="oven 2", action="OFF")],
        ),
        (
            P,
            "The coffee machine, could you toggle it please?",
            [c("set_switch", device="coffee machine", action="TOGGLE")],
        ),
        (
            P,
            "Put on the extractor hood, please, it is getting smoky in here.",
            [c("set_relay", relay="extractor hood", on=True)],
        ),
        (
            P,
            "Make the order ready light blink, if you would.",
            [c("set_led", led="order ready", mode="blink")],
        ),
        (
            P,
            "The till LED, switch it off please.",
            [c("set_led", led="till", mode="off")],
        ),
        (
            P,
            "Open for me the blinds of the back office, please.",
            [c("set_blinds", room="back office", position=100)],
        ),
        (
            T,
            "Please switch on the proofer heater and put the light in the proving room on also.",
            [
                c("set_relay", relay="proofer heater", on=True),
                c("set_light", room="proving room", on=True),
            ],
        ),
        (
            T,
            (
                "Would you close the shop front blinds and turn off the "
                "display fridge, please? We are closing."
            ),
            [
                c("set_blinds", room="shop front", position=0),
                c("set_switch", device="display fridge", action="OFF"),
            ],
        ),
        (
            T,
            "The order ready light on, please, and the coffee machine also on.",
            [
                c("set_led", led="order ready", mode="on"),
                c("set_switch", device="coffee machine", action="ON"),
            ],
        ),
        (U, "Please make the back office light turquoise, would you?", []),
        (
            I,
            "I would like the flour store light at one hundred and twenty percent.",
            [],
        ),
        (N, "Please do not start the dough mixer yet, the butter is still cold.", []),
        (
            O,
            "Could you tell me how many loaves we sold in the shop front yesterday?",
            [],
        ),
        (M, "Would you please switch it on for me?", []),
    ],
    "b_margaret_flat": [
        (
            P,
            "Would you please put on the light in the sitting room?",
            [c("set_light", room="sitting room", on=True)],
        ),
        (
            P,
            "The light of Margaret's bedroom, turn it off please, thank you.",
            [c("set_light", room="Margaret's bedroom", on=False)],
        ),
        (
            P,
            "I would like the nook a little darker, please, at thirty percent.",
            [c("set_light", room="nook", brightness=30)],
        ),
        (
            P,
            "Could you make the entrance hall light warm white, dear?",
            [c("set_light", room="entrance hall", color="warm white")],
        ),
        (
            P,
            "The heating, please put it to twenty-one.",
            [c("set_thermostat", temperature=21)],
        ),
        (
            P,
            "I am cold. Would you set the heat to nineteen and a half degrees?",
            [c("set_thermostat", temperature=19.5)],
        ),
        (
            P,
            "Please switch the heating off, it is warm enough now.",
            [c("set_thermostat", mode="off")],
        ),
        (
            P,
            "The curtains in the sitting room, three quarters open, if you please.",
            [c("set_curtains", room="sitting room", position=75)],
        ),
        (
            P,
            "Please close the curtains in Margaret's bedroom, I am going to sleep.",
            [c("set_curtains", room="Margaret's bedroom", position=0)],
        ),
        (
            P,
            "Would you be so kind as to turn on the television socket?",
            [c("set_switch", device="television", action="ON")],
        ),
        (
            T,
            "Please turn off the reading lamp and close the sitting room curtains.",
            [
                c("set_switch", device="reading lamp", action="OFF"),
                c("set_curtains", room="sitting room", position=0),
            ],
        ),
        (
            T,
            "I would like the heating at twenty-two and the bed warmer on, please.",
            [
                c("set_thermostat", temperature=22),
                c("set_switch", device="bed warmer", action="ON"),
            ],
        ),
        (
            T,
            (
                "Open for me the curtains of Margaret's bedroom, and "
                "the light there switch off, please."
            ),
            [
                c("set_curtains", room="Margaret's bedroom", position=100),
                c("set_light", room="Margaret's bedroom", on=False),
            ],
        ),
        (U, "Would you make the sitting room light lilac, please?", []),
        (I, "Put the heating up to thirty degrees, please, I am freezing.", []),
        (N, "Please, do not turn on the television, my grandson is sleeping.", []),
        (O, "Would you read me the news from the paper in the sitting room?", []),
    ],
    "b_dune_rental": [
        (
            P,
            "Hello, would you please turn on the lights in the garden room?",
            [c("set_light", room="garden room", on=True)],
        ),
        (
            P,
            "Bunk room 1, the light, switch it off please.",
            [c("set_light", room="bunk room 1", on=False)],
        ),
        (
            P,
            "Could the top landing light be made dimmer, say twenty percent?",
            [c("set_light", room="top landing", brightness=20)],
        ),
        (
            P,
            "I would like the lounge in sunset orange, please.",
            [c("set_light", room="lounge", color="sunset orange")],
        ),
        (
            P,
            "Please set the heat pump to twenty-one degrees.",
            [c("set_heat_pump", temperature=21)],
        ),
        (
            P,
            "Would you put the heat pump on cooling, please? It is very hot.",
            [c("set_heat_pump", mode="cool")],
        ),
        (
            P,
            "Please, the ceiling fan, set it to full blast.",
            [c("ceiling_fan", speed="full blast")],
        ),
        (
            P,
            "Could you switch the ceiling fan off, please?",
            [c("ceiling_fan", on=False)],
        ),
        (
            P,
            "Would you please lower the shades in the lounge completely?",
            [c("set_shades", room="lounge", position=0)],
        ),
        (
            P,
            "Open the garden room shades only one quarter, please.",
            [c("set_shades", room="garden room", position=25)],
        ),
        (
            T,
            "Please switch on the porch heater and open the lounge shades fully.",
            [
                c("set_switch", device="porch heater", action="ON"),
                c("set_shades", room="lounge", position=100),
            ],
        ),
        (
            T,
            "The fan to medium speed, and the heat pump to nineteen, please.",
            [c("ceiling_fan", speed="medium"), c("set_heat_pump", temperature=19)],
        ),
        (
            T,
            "Would you turn off the light in bunk room 2, and the tumble dryer also, please?",
            [
                c("set_light", room="bunk room 2", on=False),
                c("set_switch", device="tumble dryer", action="OFF"),
            ],
        ),
        (U, "Would you open the shades in bunk room 1, please?", []),
        (I, "Please set the heat pump to twenty-eight degrees.", []),
        (N, "Please don't switch on the spa pool tonight, the guests are out.", []),
        (M, "Please set the shades to half.", []),
    ],
    "b_garage_workshop": [
        (
            P,
            "Would you please switch on the light over the tool bench?",
            [c("set_light", room="tool bench", on=True)],
        ),
        (
            P,
            "The front drive light, I would like it off now.",
            [c("set_light", room="front drive", on=False)],
        ),
        (
            P,
            "Please, the spray booth light to full brightness.",
            [c("set_light", room="spray booth", brightness=100)],
        ),
        (
            P,
            "Could you set the light in the loft to forty percent, please?",
            [c("set_light", room="loft", brightness=40)],
        ),
        (
            P,
            "Kindly start the air compressor.",
            [c("set_relay", relay="air compressor", on=True)],
        ),
        (
            P,
            "The sawdust collector, please switch it off.",
            [c("set_relay", relay="sawdust collector", on=False)],
        ),
        (
            P,
            "Would you make the warning light blink?",
            [c("set_led", led="warning", mode="blink")],
        ),
        (P, "Please set the fan to brisk, would you?", [c("set_fan", speed="brisk")]),
        (
            P,
            "Set the heat in the garage to fifteen degrees, please.",
            [c("set_thermostat", temperature=15)],
        ),
        (
            P,
            "Please turn the heating on, I am working late tonight.",
            [c("set_thermostat", mode="heat")],
        ),
        (
            T,
            "Please switch off the band saw and the sawdust collector as well.",
            [
                c("set_relay", relay="band saw", on=False),
                c("set_relay", relay="sawdust collector", on=False),
            ],
        ),
        (
            T,
            "Would you turn on the tool bench light and set the heat to twelve degrees?",
            [
                c("set_light", room="tool bench", on=True),
                c("set_thermostat", temperature=12),
            ],
        ),
        (
            T,
            "The fan on, please, and the glue timer LED off.",
            [c("set_fan", on=True), c("set_led", led="glue timer", mode="off")],
        ),
        (U, "Please switch on the lathe for me.", []),
        (I, "Would you set the heating to twenty-five degrees?", []),
        (N, "Do not start the air compressor, please, I am on the telephone.", []),
        (O, "What size of drill bit do I need for an M6 thread at the tool bench?", []),
        (M, "Please turn the light off.", []),
    ],
    "c_maker_garage": [
        (
            P,
            "lathe bench lights 80%",
            [c("set_light", room="lathe bench", brightness=80)],
        ),
        (
            P,
            "Spray Cabin light -> moon white",
            [c("set_light", room="spray cabin", color="moon white")],
        ),
        (
            P,
            "Dan's corner lights off pls",
            [c("set_light", room="Dan's corner", on=False)],
        ),
        (P, "carport light on", [c("set_outdoor_light", room="carport", on=True)]),
        (
            P,
            "front step bulb 20% w/ a 3s fade",
            [c("set_outdoor_light", room="front step", brightness=20, transition=3)],
        ),
        (P, "extractor ON", [c("set_relay", relay="extractor", on=True)]),
        (P, "pillar drill relay off", [c("set_relay", relay="pillar drill", on=False)]),
        (
            P,
            "3D printer plug toggle",
            [c("set_switch", device="3d printer", action="TOGGLE")],
        ),
        (P, "status LED blink", [c("set_led", led="status", mode="blink")]),
        (
            P,
            "side gate light orange",
            [c("set_outdoor_light", room="side gate", color="orange")],
        ),
        (
            T,
            "extractor on and fan to high",
            [c("set_relay", relay="extractor", on=True), c("set_fan", speed="high")],
        ),
        (
            T,
            "bay 2 lights on, carport light off",
            [
                c("set_light", room="bay 2", on=True),
                c("set_outdoor_light", room="carport", on=False),
            ],
        ),
        (
            T,
            "shop vac off; status led off",
            [
                c("set_switch", device="shop vac", action="OFF"),
                c("set_led", led="status", mode="off"),
            ],
        ),
        (U, "fan to medium", []),
        (I, "lathe bench light 120%", []),
        (N, "don't start the pillar drill", []),
        (O, "what nozzle temp should I use for PETG on the 3D printer?", []),
        (M, "brightness 50%", []),
    ],
    "c_split_level_flat": [
        (P, "floor heating 24.5", [c("floor_heating", temperature=24.5)]),
        (P, "AC to 19", [c("aircon", temperature=19)]),
        (P, "aircon -> cool mode", [c("aircon", mode="cool")]),
        (P, "underfloor heating off", [c("floor_heating", mode="off")]),
        (P, "lounge lights teal", [c("set_light", room="lounge", color="teal")]),
        (P, "kids' room light 10%", [c("set_light", room="kids' room", brightness=10)]),
        (
            P,
            "roof window blind closed",
            [c("set_blinds", room="roof window", position=0)],
        ),
        (
            P,
            "Lena's room blinds 30%",
            [c("set_blinds", room="Lena's room", position=30)],
        ),
        (P, "ceiling fan to gust", [c("ceiling_fan", speed="gust")]),
        (P, "Heated airer on", [c("set_switch", device="heated airer", action="ON")]),
        (
            T,
            "AC off and open the lounge blinds",
            [c("aircon", mode="off"), c("set_blinds", room="lounge", position=100)],
        ),
        (
            T,
            "coffee machine on then utility room light on",
            [
                c("set_switch", device="coffee machine", action="ON"),
                c("set_light", room="utility room", on=True),
            ],
        ),
        (
            T,
            "floor heating 20; AC 23",
            [c("floor_heating", temperature=20), c("aircon", temperature=23)],
        ),
        (U, "utility room blinds down", []),
        (I, "AC to 12", []),
        (N, "do NOT turn the heated airer off", []),
        (M, "temp to 21", []),
    ],
    "c_allotment_shed": [
        (P, "rain butt pump on", [c("set_relay", relay="rain butt pump", on=True)]),
        (
            P,
            "irrigation valve 2 on",
            [c("set_relay", relay="irrigation valve 2", on=True)],
        ),
        (
            P,
            "greenhouse heater relay ON",
            [c("set_relay", relay="greenhouse heater", on=True)],
        ),
        (P, "fan heater off", [c("set_switch", device="fan heater", action="OFF")]),
        (P, "grow light on", [c("set_switch", device="grow light", action="ON")]),
        (
            P,
            "propagator toggle",
            [c("set_switch", device="propagator", action="TOGGLE")],
        ),
        (P, "frost alarm LED blink", [c("set_led", led="frost alarm", mode="blink")]),
        (P, "seed bench light 60%", [c("set_light", room="seed bench", brightness=60)]),
        (
            P,
            "glasshouse roof shade half way",
            [c("set_shade", room="glasshouse roof", position=50)],
        ),
        (
            P,
            "shed window blind open",
            [c("set_shade", room="shed window", position=100)],
        ),
        (
            T,
            "rain butt pump on, then irrigation valve 1 on",
            [
                c("set_relay", relay="rain butt pump", on=True),
                c("set_relay", relay="irrigation valve 1", on=True),
            ],
        ),
        (
            T,
            "close the glasshouse roof shade and greenhouse heater on",
            [
                c("set_shade", room="glasshouse roof", position=0),
                c("set_relay", relay="greenhouse heater", on=True),
            ],
        ),
        (
            T,
            "battery charger off, shed door light off",
            [
                c("set_switch", device="battery charger", action="OFF"),
                c("set_light", room="shed door", on=False),
            ],
        ),
        (U, "grow light to 50%", []),
        (I, "shed window blind to 150%", []),
        (N, "do not run the rain butt pump", []),
        (O, "when should I plant tomatoes in the greenhouse?", []),
        (M, "heater on", []),
    ],
    "c_terrace_house": [
        (
            P,
            "Raj's study light 40%",
            [c("set_hue_light", room="Raj's study", brightness=40)],
        ),
        (
            P,
            "top landing lights off",
            [c("set_hue_light", room="top landing", on=False)],
        ),
        (
            P,
            "en suite lights warm white",
            [c("set_light", room="en suite", color="warm white")],
        ),
        (
            P,
            "garden room bulb purple",
            [c("set_hue_light", room="garden room", color="purple")],
        ),
        (
            P,
            "bedroom 6 light 15% over 10s",
            [c("set_hue_light", room="bedroom 6", brightness=15, transition=10)],
        ),
        (
            P,
            "Mia's bedroom blinds 25%",
            [c("set_blinds", room="Mia's bedroom", position=25)],
        ),
        (P, "heating 19.5", [c("set_thermostat", temperature=19.5)]),
        (
            P,
            "towel radiator on",
            [c("set_switch", device="towel radiator", action="ON")],
        ),
        (P, "doorbell LED blink", [c("set_led", led="doorbell", mode="blink")]),
        (P, "sewing room light off", [c("set_light", room="sewing room", on=False)]),
        (
            T,
            "hallway light off and top landing light on",
            [
                c("set_light", room="hallway", on=False),
                c("set_hue_light", room="top landing", on=True),
            ],
        ),
        (
            T,
            "espresso machine on; heating to 21",
            [
                c("set_switch", device="espresso machine", action="ON"),
                c("set_thermostat", temperature=21),
            ],
        ),
        (
            T,
            "close Mia's bedroom blinds, then Mia's bedroom light orange",
            [
                c("set_blinds", room="Mia's bedroom", position=0),
                c("set_light", room="Mia's bedroom", color="orange"),
            ],
        ),
        (U, "hallway light pink", []),
        (I, "heating 30", []),
        (N, "don't turn off the towel radiator", []),
        (O, "good espresso beans for a moka pot?", []),
    ],
    "d_dorm_suite": [
        (
            P,
            "yo turn on jay's room light pls",
            [c("set_light", room="Jay's room", on=True)],
        ),
        (
            P,
            "snack nook lights off rn thx",
            [c("set_light", room="snack nook", on=False)],
        ),
        (
            P,
            "games corner purple plzzz 💜",
            [c("set_light", room="games corner", color="purple")],
        ),
        (
            P,
            "bunk 2 light to like 30% pls",
            [c("set_light", room="bunk 2", brightness=30)],
        ),
        (
            P,
            "make games corner neon green lol",
            [c("set_light", room="games corner", color="neon green")],
        ),
        (P, "fan on pls im dyingg 🥵", [c("set_fan", on=True)]),
        (P, "fan to hurricane lol 🌪️", [c("set_fan", speed="hurricane")]),
        (
            P,
            "switch on the drinks fridge ty",
            [c("set_switch", device="drinks fridge", action="ON")],
        ),
        (
            P,
            "toggle gaming pc plug",
            [c("set_switch", device="gaming pc", action="TOGGLE")],
        ),
        (
            P,
            "make the do not disturb led blink pls, exam tmrw",
            [c("set_led", led="do not disturb", mode="blink")],
        ),
        (
            T,
            "kill snack nook lights n turn on the fan",
            [c("set_light", room="snack nook", on=False), c("set_fan", on=True)],
        ),
        (
            T,
            "ring light on and jay's room to white pls",
            [
                c("set_switch", device="ring light", action="ON"),
                c("set_light", room="Jay's room", color="white"),
            ],
        ),
        (
            T,
            "bunk 2 lights on + do not disturb led on, gonna nap 😴",
            [
                c("set_light", room="bunk 2", on=True),
                c("set_led", led="do not disturb", mode="on"),
            ],
        ),
        (U, "turn on the balcony lights pls", []),
        (U, "fan to medium thx", []),
        (I, "bunk 2 brightness 200% lol", []),
        (N, "dont turn off the drinks fridge pls", []),
        (O, "play some drake in the games corner 🔥", []),
        (M, "change the light colour to red", []),
    ],
    "d_beach_house": [
        (
            P,
            "surf shack lights on pls 🏄",
            [c("set_light", room="surf shack", on=True)],
        ),
        (
            P,
            "mia's loft light to 10 percent im tryna sleep",
            [c("set_light", room="Mia's loft", brightness=10)],
        ),
        (
            P,
            "make bathroom 2 light blue",
            [c("set_light", room="bathroom 2", color="blue")],
        ),
        (
            P,
            "open the shades in the sun lounge",
            [c("set_shades", room="sun lounge", position=100)],
        ),
        (
            P,
            "close mia's loft shades pleaseee",
            [c("set_shades", room="Mia's loft", position=0)],
        ),
        (
            P,
            "sun lounge shades half way",
            [c("set_shades", room="sun lounge", position=50)],
        ),
        (P, "heating to 21 thx", [c("set_thermostat", temperature=21)]),
        (
            P,
            "turn the heating off its boiling in here",
            [c("set_thermostat", mode="off")],
        ),
        (P, "hot tub pump on!!", [c("set_relay", relay="hot tub pump", on=True)]),
        (P, "porch heater off pls", [c("set_relay", relay="porch heater", on=False)]),
        (
            T,
            "close the sun lounge shades n put the porch heater on",
            [
                c("set_shades", room="sun lounge", position=0),
                c("set_relay", relay="porch heater", on=True),
            ],
        ),
        (
            T,
            "heat on and surf shack lights off",
            [
                c("set_thermostat", mode="heat"),
                c("set_light", room="surf shack", on=False),
            ],
        ),
        (
            T,
            "back porch lights on then hot tub pump on 🛁",
            [
                c("set_light", room="back porch", on=True),
                c("set_relay", relay="hot tub pump", on=True),
            ],
        ),
        (U, "open the shades in the surf shack", []),
        (I, "heating to 35 pls im freezinggg", []),
        (N, "nah leave the hot tub pump alone", []),
        (O, "whats the surf forecast for tmrw", []),
        (M, "open the shades", []),
    ],
    "d_band_garage": [
        (
            P,
            "drum booth lights hot pink 💖",
            [c("set_light", room="drum booth", color="hot pink")],
        ),
        (
            P,
            "practice room lights to full",
            [c("set_light", room="practice room", brightness=100)],
        ),
        (
            P,
            "leo's bedroom light off ty",
            [c("set_light", room="Leo's bedroom", on=False)],
        ),
        (
            P,
            "front drive light on pls mates r here",
            [c("outdoor_light", room="front drive", on=True)],
        ),
        (
            P,
            "side gate light to 40%",
            [c("outdoor_light", room="side gate", brightness=40)],
        ),
        (P, "turn on amp", [c("set_switch", device="amp", action="ON")]),
        (
            P,
            "tea maker on plz need tea b4 practice",
            [c("set_switch", device="tea maker", action="ON")],
        ),
        (
            P,
            "recording light on we're goin live 🎙️",
            [c("set_led", led="recording", mode="on")],
        ),
        (
            P,
            "make the doorbell led blink",
            [c("set_led", led="doorbell", mode="blink")],
        ),
        (P, "fan to blast pls", [c("set_fan", speed="blast")]),
        (
            T,
            "amp on and speaker 1 on",
            [
                c("set_switch", device="amp", action="ON"),
                c("set_switch", device="speaker 1", action="ON"),
            ],
        ),
        (
            T,
            "recording led on n practice room lights sunset orange",
            [
                c("set_led", led="recording", mode="on"),
                c("set_light", room="practice room", color="sunset orange"),
            ],
        ),
        (
            T,
            "front drive light off and tea maker off, im out ✌️",
            [
                c("outdoor_light", room="front drive", on=False),
                c("set_switch", device="tea maker", action="OFF"),
            ],
        ),
        (U, "make the drum booth lights green", []),
        (I, "side gate light 120% pls", []),
        (N, "dont touch the amp rn", []),
        (O, "tune my guitar to drop d", []),
        (M, "turn on the speaker", []),
    ],
    "d_city_flat": [
        (P, "hallway light on pls", [c("set_light", room="hallway", on=True)]),
        (
            P,
            "zoe's room lights teal 🩵",
            [c("set_light", room="Zoe's room", color="teal")],
        ),
        (
            P,
            "living room to 20% brightness, movie time 🍿",
            [c("set_light", room="living room", brightness=20)],
        ),
        (
            P,
            "open the living room blinds pls",
            [c("set_blinds", room="living room", position=100)],
        ),
        (
            P,
            "close zoe's room blinds rn",
            [c("set_blinds", room="Zoe's room", position=0)],
        ),
        (P, "heating to 19.5", [c("set_heating", temperature=19.5)]),
        (P, "put heating on pls its freezin", [c("set_heating", mode="heat")]),
        (
            P,
            "turn on the string lights ✨",
            [c("set_switch", device="string lights", action="ON")],
        ),
        (
            P,
            "omg did i leave the hair straighteners on?? turn them off",
            [c("set_switch", device="hair straighteners", action="OFF")],
        ),
        (P, "fan to low", [c("set_fan", speed="low")]),
        (
            T,
            "hair straighteners off and hallway light off",
            [
                c("set_switch", device="hair straighteners", action="OFF"),
                c("set_light", room="hallway", on=False),
            ],
        ),
        (
            T,
            "open bedroom 5 blinds n coffee machine on",
            [
                c("set_blinds", room="bedroom 5", position=100),
                c("set_switch", device="coffee machine", action="ON"),
            ],
        ),
        (
            T,
            "living room lights pink and fan on",
            [c("set_light", room="living room", color="pink"), c("set_fan", on=True)],
        ),
        (U, "turn on the tv", []),
        (I, "heating to 30 pls", []),
        (N, "pls dont turn on the fan", []),
        (O, "order me a pizza 🍕", []),
        (M, "set blinds to 50", []),
    ],
    "e_terrace_house": [
        (
            P,
            "um turn on the uh the back porch light",
            [c("set_light", room="back porch", on=True)],
        ),
        (
            P,
            "okay so switch off the lights in priyas room",
            [c("set_light", room="Priya's room", on=False)],
        ),
        (
            P,
            "set the heating to twenty no twenty two",
            [c("set_thermostat", temperature=22)],
        ),
        (
            P,
            "uh can you make the front room lights like forty percent",
            [c("set_light", room="front room", brightness=40)],
        ),
        (
            P,
            "set bedroom five to um peach please",
            [c("set_light", room="bedroom 5", color="peach")],
        ),
        (P, "turn the fan up to high", [c("set_fan", speed="high")]),
        (
            P,
            "switch the foot warmer off no wait on switch it on",
            [c("set_switch", device="foot warmer", action="ON")],
        ),
        (
            P,
            "so um toggle the christmas tree",
            [c("set_switch", device="christmas tree", action="TOGGLE")],
        ),
        (
            P,
            "uh turn the thermostat down to eighteen point five",
            [c("set_thermostat", temperature=18.5)],
        ),
        (
            P,
            "the utility room light um can you make it teal",
            [c("set_light", room="utility room", color="teal")],
        ),
        (
            T,
            "turn off the utility room light and then um the coffee machine off too",
            [
                c("set_light", room="utility room", on=False),
                c("set_switch", device="coffee machine", action="OFF"),
            ],
        ),
        (
            T,
            "set the heating to twenty one and put the front room lights on warm white",
            [
                c("set_thermostat", temperature=21),
                c("set_light", room="front room", color="warm white"),
            ],
        ),
        (
            T,
            "okay so fan off and uh switch on the foot warmer",
            [
                c("set_fan", on=False),
                c("set_switch", device="foot warmer", action="ON"),
            ],
        ),
        (U, "um turn on the garage light", []),
        (I, "put the heating up to thirty", []),
        (N, "dont turn on the coffee machine", []),
        (O, "uh whats the weather like tomorrow", []),
        (M, "set the brightness to like seventy", []),
    ],
    "e_allotment_shed": [
        (
            P,
            "uh switch on the rain barrel pump",
            [c("set_relay", relay="rain barrel pump", on=True)],
        ),
        (P, "turn sprinkler one off", [c("set_relay", relay="sprinkler 1", on=False)]),
        (
            P,
            "okay so um start sprinkler two",
            [c("set_relay", relay="sprinkler 2", on=True)],
        ),
        (
            P,
            "make the frost alert light blink",
            [c("set_led", led="frost alert", mode="blink")],
        ),
        (
            P,
            "switch the tank full indicator off",
            [c("set_led", led="tank full", mode="off")],
        ),
        (
            P,
            "seed bench lights on",
            [c("shed_lights", room="seed bench", on=True)],
        ),
        (
            P,
            "dim the tool store to um twenty percent",
            [c("shed_lights", room="tool store", brightness=20)],
        ),
        (
            P,
            "open the shade cloth on the greenhouse like half way",
            [c("shade_cloth", room="greenhouse", position=50)],
        ),
        (
            P,
            "fade the seed bench light off over uh ten seconds",
            [c("shed_lights", room="seed bench", on=False, transition=10)],
        ),
        (
            P,
            "greenhouse heater on no sorry off turn it off",
            [c("set_relay", relay="greenhouse heater", on=False)],
        ),
        (
            T,
            "turn on the rain barrel pump and then sprinkler one as well",
            [
                c("set_relay", relay="rain barrel pump", on=True),
                c("set_relay", relay="sprinkler 1", on=True),
            ],
        ),
        (
            T,
            "um close the shade on the cold frame and switch the shed door light on",
            [
                c("shade_cloth", room="cold frame", position=0),
                c("shed_lights", room="shed door", on=True),
            ],
        ),
        (
            T,
            "set the frost alert to blink and uh turn the greenhouse heater on",
            [
                c("set_led", led="frost alert", mode="blink"),
                c("set_relay", relay="greenhouse heater", on=True),
            ],
        ),
        (U, "turn on sprinkler three", []),
        (I, "open the greenhouse shade to a hundred and twenty percent", []),
        (N, "dont start the rain barrel pump yet", []),
        (O, "remind me to buy um seed potatoes", []),
        (M, "uh open the shade cloth", []),
    ],
    "e_city_flat": [
        (P, "uh turn the hallway light on", [c("set_light", room="hallway", on=True)]),
        (
            P,
            "study nook lights um eighty percent",
            [c("set_light", room="study nook", brightness=80)],
        ),
        (
            P,
            "make leos bedroom warm white",
            [c("set_light", room="Leo's bedroom", color="warm white")],
        ),
        (P, "set the radiator to nineteen", [c("radiator", temperature=19)]),
        (P, "okay so put the heating on auto", [c("radiator", mode="auto")]),
        (
            P,
            "open the uh living area blinds",
            [c("set_blinds", room="living area", position=100)],
        ),
        (
            P,
            "lower the blinds in the study nook to like thirty percent",
            [c("set_blinds", room="study nook", position=30)],
        ),
        (P, "switch off the tv", [c("set_switch", device="tv", action="OFF")]),
        (
            P,
            "so um air purifier on please",
            [c("set_switch", device="air purifier", action="ON")],
        ),
        (
            P,
            "set the radiator to twenty three no twenty one point five",
            [c("radiator", temperature=21.5)],
        ),
        (
            T,
            "close the blinds in leos bedroom and turn his light off",
            [
                c("set_blinds", room="Leo's bedroom", position=0),
                c("set_light", room="Leo's bedroom", on=False),
            ],
        ),
        (
            T,
            "turn the tv off and then um set the radiator to eighteen",
            [
                c("set_switch", device="tv", action="OFF"),
                c("radiator", temperature=18),
            ],
        ),
        (
            T,
            "guest bedroom light on at um fifty percent and the hallway light off",
            [
                c("set_light", room="guest bedroom", on=True, brightness=50),
                c("set_light", room="hallway", on=False),
            ],
        ),
        (U, "turn on the uh the kitchen light", []),
        (U, "open the hallway blinds", []),
        (I, "set the radiator to ten degrees", []),
        (N, "dont switch off the hallway light", []),
        (M, "um turn the light on", []),
    ],
    "e_farmhouse": [
        (P, "um lights on in stable one", [c("set_light", room="stable 1", on=True)]),
        (
            P,
            "switch off the hay loft light",
            [c("set_light", room="hay loft", on=False)],
        ),
        (
            P,
            "make the lights in grandads room honey coloured",
            [c("set_light", room="Grandad's room", color="honey")],
        ),
        (
            P,
            "tack room lights uh to ten percent",
            [c("set_light", room="tack room", brightness=10)],
        ),
        (
            P,
            "okay so turn the heating on its freezing",
            [c("set_thermostat", mode="heat")],
        ),
        (
            P,
            "set the heating to fifteen actually sixteen degrees",
            [c("set_thermostat", temperature=16)],
        ),
        (P, "turn the fan to fast", [c("set_fan", speed="fast")]),
        (
            P,
            "open grandads blinds about halfway",
            [c("set_blinds", room="Grandad's room", position=50)],
        ),
        (
            P,
            "so um switch the fence energiser on",
            [c("set_relay", relay="fence energiser", on=True)],
        ),
        (
            P,
            "turn off the well pump",
            [c("set_relay", relay="well pump", on=False)],
        ),
        (
            T,
            "turn on the yard floodlight and then the stable two light",
            [
                c("set_relay", relay="yard floodlight", on=True),
                c("set_light", room="stable 2", on=True),
            ],
        ),
        (
            T,
            "heating to twenty and uh the fan off",
            [c("set_thermostat", temperature=20), c("set_fan", on=False)],
        ),
        (
            T,
            "open the farm kitchen blinds and um put the farm kitchen light on warm white",
            [
                c("set_blinds", room="farm kitchen", position=100),
                c("set_light", room="farm kitchen", color="warm white"),
            ],
        ),
        (U, "fan to medium", []),
        (I, "um heating up to thirty five", []),
        (N, "dont turn the fence energiser off", []),
        (O, "whats on the telly tonight", []),
    ],
    "f_harbour_flat": [
        (
            P,
            "the film's starting, drop the living room lights to 15 percent",
            [c("set_light", room="living room", brightness=15)],
        ),
        (
            P,
            "the twins are finally asleep, switch off the twins' room light",
            [c("set_light", room="twins' room", on=False)],
        ),
        (
            P,
            "I'm off to bed so close the blinds in Nora's bedroom",
            [c("set_blinds", room="Nora's bedroom", position=0)],
        ),
        (
            P,
            "guests are arriving soon, heating to 21 please",
            [c("set_thermostat", temperature=21)],
        ),
        (
            P,
            "can you put the tea kettle on? I'm making tea",
            [c("set_switch", device="tea kettle", action="ON")],
        ),
        (
            P,
            "is it possible to switch on the bed warmer? the bed's freezing",
            [c("set_switch", device="bed warmer", action="ON")],
        ),
        (P, "it's stuffy in here, could you turn the fan on?", [c("set_fan", on=True)]),
        (
            P,
            "I want the hall 2 light brighter, like 80%",
            [c("set_light", room="hall 2", brightness=80)],
        ),
        (
            P,
            "it's a lovely morning, open the living room blinds",
            [c("set_blinds", room="living room", position=100)],
        ),
        (
            P,
            "I'm heading out for the day so turn the heating off",
            [c("set_thermostat", mode="off")],
        ),
        (
            T,
            "bedtime: kill the living room light and switch on the bed warmer",
            [
                c("set_light", room="living room", on=False),
                c("set_switch", device="bed warmer", action="ON"),
            ],
        ),
        (
            T,
            "it's getting hot, fan to high and close the twins' room blinds halfway",
            [
                c("set_fan", speed="high"),
                c("set_blinds", room="twins' room", position=50),
            ],
        ),
        (
            T,
            "coffee break, could you start the coffee machine and turn on the sewing room light?",
            [
                c("set_switch", device="coffee machine", action="ON"),
                c("set_light", room="sewing room", on=True),
            ],
        ),
        (U, "it's dark out on the balcony, turn the balcony light on", []),
        (I, "I'm freezing, put the heating up to 30", []),
        (N, "the twins are asleep, so don't open the twins' room blinds", []),
        (O, "I'm bored, what's a good film to watch in the living room tonight?", []),
        (M, "can you set the brightness to 40? it's too bright", []),
    ],
    "f_farm_office": [
        (
            P,
            "the troughs are low, can you run the trough pump?",
            [c("set_relay", relay="trough pump", on=True)],
        ),
        (
            P,
            "the lorry's arriving after dark, switch the yard floodlight on",
            [c("set_relay", relay="yard floodlight", on=True)],
        ),
        (
            P,
            "the vet's here, start the gate motor please",
            [c("set_relay", relay="gate motor", on=True)],
        ),
        (
            P,
            "a parcel came for Sam, make the parcel waiting light blink",
            [c("set_led", led="parcel waiting", mode="blink")],
        ),
        (
            P,
            "frost is forecast tonight, turn the frost alert LED on",
            [c("set_led", led="frost alert", mode="on")],
        ),
        (
            P,
            "it's chilly in the office, set the stove to 19",
            [c("set_stove", temperature=19)],
        ),
        (P, "everyone's gone home, turn the stove off", [c("set_stove", mode="off")]),
        (
            P,
            "I'm doing the paperwork, can the front office light go to full?",
            [c("set_light", room="front office", brightness=100)],
        ),
        (
            P,
            "the tack room light is too harsh, make it warm white",
            [c("set_light", room="tack room", color="warm white")],
        ),
        (
            P,
            "I'm locking up the tack room, switch its light off",
            [c("set_light", room="tack room", on=False)],
        ),
        (
            T,
            "closing time: yard floodlight off and the stove off",
            [
                c("set_relay", relay="yard floodlight", on=False),
                c("set_stove", mode="off"),
            ],
        ),
        (
            T,
            (
                "the parcel's been collected, so turn off the parcel waiting "
                "LED and switch off the front office light"
            ),
            [
                c("set_led", led="parcel waiting", mode="off"),
                c("set_light", room="front office", on=False),
            ],
        ),
        (
            T,
            "can you start the trough pump and then set the staff kitchen light to 30 percent?",
            [
                c("set_relay", relay="trough pump", on=True),
                c("set_light", room="staff kitchen", brightness=30),
            ],
        ),
        (U, "the horses need feeding, turn on the feed auger", []),
        (I, "we've got visitors coming, stove to 28 please", []),
        (N, "the tank is nearly dry, so please don't run the trough pump", []),
        (O, "who left the tack room door open yesterday?", []),
        (M, "make the LED blink so I notice it", []),
    ],
    "f_grandma_bungalow": [
        (
            P,
            "Mum's about to have her nap, can you close the shades in Mum's room?",
            [c("shades", room="Mum's room", position=0)],
        ),
        (
            P,
            "the sun's come round, lower the sunroom shades halfway",
            [c("shades", room="sunroom", position=50)],
        ),
        (
            P,
            "it's Mum's bedtime, turn the lamp in Mum's room off",
            [c("lamps", room="Mum's room", on=False)],
        ),
        (
            P,
            "she's reading in the sitting room, could the lamp in there go up to 70 percent?",
            [c("lamps", room="sitting room", brightness=70)],
        ),
        (
            P,
            "the carer is arriving, I'd like the back porch lamp on",
            [c("lamps", room="back porch", on=True)],
        ),
        (
            P,
            "can you make the sunroom lamp rose? it's her favourite",
            [c("lamps", room="sunroom", color="rose")],
        ),
        (
            P,
            "her feet are aching, switch on the foot bath",
            [c("set_switch", device="foot bath", action="ON")],
        ),
        (
            P,
            "is it possible to turn the lap warmer off? she's warm enough now",
            [c("set_switch", device="lap warmer", action="OFF")],
        ),
        (
            P,
            "she feels the cold, could you put the heating up to 23?",
            [c("set_thermostat", temperature=23)],
        ),
        (
            P,
            "it's warm out, can you set the fan to cruise?",
            [c("set_fan", speed="cruise")],
        ),
        (
            T,
            "nap time: sitting room lamp off and the radio off",
            [
                c("lamps", room="sitting room", on=False),
                c("set_switch", device="radio", action="OFF"),
            ],
        ),
        (
            T,
            (
                "she's sleeping in spare bedroom 2 tonight, so turn the spare "
                "bedroom 2 lamp on and set the heating to 22"
            ),
            [
                c("lamps", room="spare bedroom 2", on=True),
                c("set_thermostat", temperature=22),
            ],
        ),
        (
            T,
            "it's too bright in the sunroom, close the shades there and dim the lamp to 10 percent",
            [
                c("shades", room="sunroom", position=0),
                c("lamps", room="sunroom", brightness=10),
            ],
        ),
        (U, "her programme is on soon, turn on the TV", []),
        (I, "she's freezing, heating to 35", []),
        (N, "she's watching telly, so don't turn the sitting room lamp off", []),
        (M, "can you open the shades? it's a lovely day", []),
    ],
    "f_studio_loft": [
        (
            P,
            "I'm developing prints, switch the darkroom light to red",
            [c("set_light", room="darkroom", color="red")],
        ),
        (
            P,
            "the fumes are strong, can you turn the extractor on?",
            [c("set_relay", relay="extractor", on=True)],
        ),
        (
            P,
            "I'm going live now, turn on the on air LED",
            [c("set_led", led="on air", mode="on")],
        ),
        (
            P,
            "late night snack, under cabinet strip to 30 percent",
            [c("set_strip", room="under cabinet", brightness=30)],
        ),
        (
            P,
            "heading upstairs, could you fade the stairwell strip on over 3 seconds?",
            [c("set_strip", room="stairwell", on=True, transition=3)],
        ),
        (
            P,
            "the kids are asleep, turn off the kid's loft light",
            [c("set_light", room="kid's loft", on=False)],
        ),
        (
            P,
            "I want the kid's loft brighter, like 75%",
            [c("set_light", room="kid's loft", brightness=75)],
        ),
        (
            P,
            "there's glare on my screen, can you close the paint studio blinds halfway?",
            [c("set_blinds", room="paint studio", position=50)],
        ),
        (
            P,
            "the fish tank is getting cold, switch on the fish tank heater",
            [c("set_relay", relay="fish tank heater", on=True)],
        ),
        (
            P,
            "it's warm with all the lamps going, can the fan go to high?",
            [c("set_fan", speed="high")],
        ),
        (
            T,
            "recording now: on air LED on and the fan off so it's quiet",
            [c("set_led", led="on air", mode="on"), c("set_fan", on=False)],
        ),
        (
            T,
            (
                "film night in the reading nook: close the reading nook "
                "blinds and dim its light to 10 percent"
            ),
            [
                c("set_blinds", room="reading nook", position=0),
                c("set_light", room="reading nook", brightness=10),
            ],
        ),
        (
            T,
            "done painting, so turn off the extractor and switch off the paint studio light",
            [
                c("set_relay", relay="extractor", on=False),
                c("set_light", room="paint studio", on=False),
            ],
        ),
        (U, "make the stairwell strip cool daylight, it's easier on the eyes", []),
        (I, "I need more light, open the paint studio blinds to 150 percent", []),
        (O, "how long should I leave the prints in the fixer?", []),
        (M, "can you turn on the strip? I can't see a thing", []),
    ],
    "g_tram_depot_flat": [
        (
            P,
            "please to open the light in Priya's room",
            [c("set_light", room="Priya's room", on=True)],
        ),
        (
            P,
            "lights of the toilet is on, off it please",
            [c("set_light", room="toilet", on=False)],
        ),
        (
            P,
            "the light of sun porch you can make turquoise?",
            [c("set_light", room="sun porch", color="turquoise")],
        ),
        (
            P,
            "kitchen corner light put to 40 percent",
            [c("set_light", room="kitchen corner", brightness=40)],
        ),
        (P, "the heating make 22 degree", [c("set_thermostat", temperature=22)]),
        (
            P,
            "heating more warm make it, to 24 please",
            [c("set_thermostat", temperature=24)],
        ),
        (
            P,
            "fan speed to medium please, is too strong",
            [c("set_fan", speed="medium")],
        ),
        (P, "open fan please, too hot in here", [c("set_fan", on=True)]),
        (
            P,
            "rice cooker you switch on, I am cooking the dinner",
            [c("set_switch", device="rice cooker", action="ON")],
        ),
        (
            P,
            "the iron you can off it? I forget it",
            [c("set_switch", device="iron", action="OFF")],
        ),
        (
            P,
            "fish tank filter do toggle please",
            [c("set_switch", device="fish tank filter", action="TOGGLE")],
        ),
        (
            T,
            "open light in kitchen corner and close light of toilet",
            [
                c("set_light", room="kitchen corner", on=True),
                c("set_light", room="toilet", on=False),
            ],
        ),
        (
            T,
            "heating put 21 and the rice cooker make on",
            [
                c("set_thermostat", temperature=21),
                c("set_switch", device="rice cooker", action="ON"),
            ],
        ),
        (
            T,
            "fan close it and after open light in sun porch",
            [c("set_fan", on=False), c("set_light", room="sun porch", on=True)],
        ),
        (U, "open the light of balcony please", []),
        (I, "heating make 35 degree, is very cold", []),
        (N, "please don't open the fan, baby is sleeping", []),
        (O, "play some Bollywood song in kitchen corner", []),
        (M, "light put to 50 percent", []),
    ],
    "g_dental_clinic_annex": [
        (
            P,
            "open light in waiting room please, patients are coming",
            [c("clinic_lights", room="waiting room", on=True)],
        ),
        (
            P,
            "light of surgery 1 to 80 percent put",
            [c("clinic_lights", room="surgery 1", brightness=80)],
        ),
        (
            P,
            "in surgery 2 close the light, we are finish",
            [c("clinic_lights", room="surgery 2", on=False)],
        ),
        (
            P,
            "Dr Kovac office light make warm white",
            [c("clinic_lights", room="Dr Kovac's office", color="warm white")],
        ),
        (
            P,
            "shades of waiting room open full",
            [c("window_shades", room="waiting room", position=100)],
        ),
        (
            P,
            "close the shade in Dr Kovac's office",
            [c("window_shades", room="Dr Kovac's office", position=0)],
        ),
        (
            P,
            "waiting room shades half way put",
            [c("window_shades", room="waiting room", position=50)],
        ),
        (
            P,
            "autoclave switch on please, need sterilize the tools",
            [c("set_relay", relay="autoclave", on=True)],
        ),
        (
            P,
            "air purifier you can turn off?",
            [c("set_relay", relay="air purifier", on=False)],
        ),
        (
            P,
            "patient ready led make it blink",
            [c("set_led", led="patient ready", mode="blink")],
        ),
        (
            T,
            "open light of surgery 1 and autoclave start",
            [
                c("clinic_lights", room="surgery 1", on=True),
                c("set_relay", relay="autoclave", on=True),
            ],
        ),
        (
            T,
            "close shades in waiting room and in Dr Kovac's office",
            [
                c("window_shades", room="waiting room", position=0),
                c("window_shades", room="Dr Kovac's office", position=0),
            ],
        ),
        (
            T,
            "patient ready led off it and light of surgery 2 also close",
            [
                c("set_led", led="patient ready", mode="off"),
                c("clinic_lights", room="surgery 2", on=False),
            ],
        ),
        (U, "open shades of surgery 1", []),
        (I, "waiting room light put 120 percent", []),
        (N, "the door buzzer don't turn on, please", []),
        (M, "shades put on 30 percent", []),
    ],
    "g_hill_farmhouse": [
        (
            P,
            "open the light of Grandma room",
            [c("set_light", room="Grandma's room", on=True)],
        ),
        (
            P,
            "in big kitchen light make yellow",
            [c("set_light", room="big kitchen", color="yellow")],
        ),
        (
            P,
            "light in guest room 3 go down to 30 percent",
            [c("set_light", room="guest room 3", brightness=30)],
        ),
        (
            P,
            "barn light close, the cows are sleep",
            [c("set_barn_light", room="barn", on=False)],
        ),
        (
            P,
            "the yard light open it, somebody is outside",
            [c("set_barn_light", room="yard", on=True)],
        ),
        (
            P,
            "well pump start please, tank is empty",
            [c("set_relay", relay="well pump", on=True)],
        ),
        (
            P,
            "sheep fence put on for the night",
            [c("set_relay", relay="sheep fence", on=True)],
        ),
        (P, "heating to nineteen degree make", [c("set_thermostat", temperature=19)]),
        (
            P,
            "blinds of big kitchen open",
            [c("set_blinds", room="big kitchen", position=100)],
        ),
        (
            P,
            "put Grandma room blinds on half way",
            [c("set_blinds", room="Grandma's room", position=50)],
        ),
        (
            T,
            "open light of big kitchen and well pump start too",
            [
                c("set_light", room="big kitchen", on=True),
                c("set_relay", relay="well pump", on=True),
            ],
        ),
        (
            T,
            "close barn light and yard light also",
            [
                c("set_barn_light", room="barn", on=False),
                c("set_barn_light", room="yard", on=False),
            ],
        ),
        (
            T,
            "heating make 20 degree, then close blinds of Grandma room",
            [
                c("set_thermostat", temperature=20),
                c("set_blinds", room="Grandma's room", position=0),
            ],
        ),
        (U, "open the light of stable", []),
        (U, "milk room light make blue", []),
        (I, "heating put to 30 degree, we are freezing", []),
        (O, "how many eggs the chickens make this week?", []),
        (M, "light make green please", []),
    ],
    "g_student_dorm_flat": [
        (
            P,
            "light of Kenji room open please",
            [c("set_light", room="Kenji's room", on=True)],
        ),
        (
            P,
            "in Lina's room the light make pink",
            [c("set_light", room="Lina's room", color="pink")],
        ),
        (
            P,
            "hallway 2 lights to 10 percent put, is night",
            [c("set_light", room="hallway 2", brightness=10)],
        ),
        (P, "fan to stormy please, I am sweating", [c("set_fan", speed="stormy")]),
        (P, "the fan you can turn off?", [c("set_fan", on=False)]),
        (
            P,
            "water boiler make on, I want tea",
            [c("set_switch", device="water boiler", action="ON")],
        ),
        (
            P,
            "gaming pc plug, switch it out",
            [c("set_switch", device="gaming pc", action="OFF")],
        ),
        (
            P,
            "laundry done led please to blink",
            [c("set_led", led="laundry done", mode="blink")],
        ),
        (P, "heating to 21 degree set", [c("set_thermostat", temperature=21)]),
        (P, "heating go off please, window is open", [c("set_thermostat", mode="off")]),
        (
            T,
            "water boiler on and after light of shared kitchen open",
            [
                c("set_switch", device="water boiler", action="ON"),
                c("set_light", room="shared kitchen", on=True),
            ],
        ),
        (
            T,
            "fan quiet make and heating to 18",
            [c("set_fan", speed="quiet"), c("set_thermostat", temperature=18)],
        ),
        (
            T,
            "close light of Lina room and the hair dryer off it",
            [
                c("set_light", room="Lina's room", on=False),
                c("set_switch", device="hair dryer", action="OFF"),
            ],
        ),
        (U, "fan put in turbo mode", []),
        (I, "heating make 10 degree", []),
        (N, "please not to turn on the gaming pc, my brother must study", []),
        (O, "wake me up seven o'clock tomorrow", []),
    ],
    "h_leeds_terrace": [
        (
            P,
            "stick the toastie maker on, love",
            [c("set_switch", device="toastie maker", action="ON")],
        ),
        (P, "stick the telly on", [c("set_switch", device="telly", action="ON")]),
        (
            P,
            "knock the big light off in the front room",
            [c("set_light", room="front room", on=False)],
        ),
        (
            P,
            "flick the upstairs landing light on, ta",
            [c("set_light", room="upstairs landing", on=True)],
        ),
        (P, "whack the heating up to 22", [c("boiler", temperature=22)]),
        (
            P,
            "could do with a bit more light in the kitchen, say 70",
            [c("set_light", room="kitchen", brightness=70)],
        ),
        (P, "bung the fan on", [c("set_fan", on=True)]),
        (
            P,
            "Nan's room light to warm white, love",
            [c("set_light", room="Nan's room", color="warm white")],
        ),
        (
            P,
            "switch the immersion off, cheers",
            [c("set_switch", device="immersion", action="OFF")],
        ),
        (
            P,
            "little box room light down to 20 percent",
            [c("set_light", room="little box room", brightness=20)],
        ),
        (
            T,
            "toastie maker on and knock the telly off, ta",
            [
                c("set_switch", device="toastie maker", action="ON"),
                c("set_switch", device="telly", action="OFF"),
            ],
        ),
        (
            T,
            "front room off, landing on",
            [
                c("set_light", room="front room", on=False),
                c("set_light", room="upstairs landing", on=True),
            ],
        ),
        (
            T,
            "knock the heating down to 19 and turn the fan off",
            [c("boiler", temperature=19), c("set_fan", on=False)],
        ),
        (U, "flick the bathroom light on", []),
        (I, "whack the heating up to 30", []),
        (N, "don't put the toastie maker on yet, love", []),
        (O, "what's on the telly tonight?", []),
        (M, "put the light on, love", []),
    ],
    "h_dublin_semi": [
        (
            P,
            "stick the immersion on there, would you",
            [c("set_relay", relay="immersion", on=True)],
        ),
        (
            P,
            "turn on the heated blanket, I'm frozen",
            [c("set_relay", relay="heated blanket", on=True)],
        ),
        (
            P,
            "knock off the front hall light",
            [c("set_light", room="front hall", on=False)],
        ),
        (
            P,
            "open the blinds in the sitting room, it's a grand day",
            [c("set_blinds", room="sitting room", position=100)],
        ),
        (
            P,
            "Aoife's room blinds halfway, ta",
            [c("set_blinds", room="Aoife's room", position=50)],
        ),
        (P, "put the heating on, it's baltic", [c("set_thermostat", mode="heat")]),
        (P, "turn the heating down to 18", [c("set_thermostat", temperature=18)]),
        (
            P,
            "back kitchen light to 40 percent",
            [c("set_light", room="back kitchen", brightness=40)],
        ),
        (
            P,
            "make the sitting room light blue",
            [c("set_light", room="sitting room", color="blue")],
        ),
        (
            P,
            "fade the front hall light off over 5 seconds",
            [c("set_light", room="front hall", on=False, transition=5)],
        ),
        (
            T,
            "close the sitting room blinds and flick the light on in there",
            [
                c("set_blinds", room="sitting room", position=0),
                c("set_light", room="sitting room", on=True),
            ],
        ),
        (
            T,
            "immersion off and the heating to 20",
            [
                c("set_relay", relay="immersion", on=False),
                c("set_thermostat", temperature=20),
            ],
        ),
        (
            T,
            "Aoife's room off and the front hall on, ta",
            [
                c("set_light", room="Aoife's room", on=False),
                c("set_light", room="front hall", on=True),
            ],
        ),
        (U, "open the blinds in the front hall", []),
        (I, "heating down to 8", []),
        (N, "don't turn the heated blanket on, it's warm enough", []),
        (M, "set the light to 40 percent", []),
    ],
    "h_glasgow_flat": [
        (P, "flick the loo light on", [c("lamps", room="loo", on=True)]),
        (
            P,
            "turn the big light off in the lounge",
            [c("lamps", room="lounge", on=False)],
        ),
        (P, "sunroom light on, ta", [c("garden_lights", room="sunroom", on=True)]),
        (
            P,
            "back garden light off, love",
            [c("garden_lights", room="back garden", on=False)],
        ),
        (P, "fan up to full pelt", [c("set_fan", speed="full pelt")]),
        (
            P,
            "bung the heated airer on",
            [c("set_switch", device="heated airer", action="ON")],
        ),
        (
            P,
            "stick the Christmas tree on",
            [c("set_switch", device="Christmas tree", action="ON")],
        ),
        (
            P,
            "make the doorbell light blink",
            [c("set_led", led="doorbell", mode="blink")],
        ),
        (
            P,
            "Callum's room down to 30 percent, cheers",
            [c("lamps", room="Callum's room", brightness=30)],
        ),
        (
            P,
            "make the hallway light purple",
            [c("lamps", room="hallway", color="purple")],
        ),
        (
            T,
            "lounge off, hallway on",
            [c("lamps", room="lounge", on=False), c("lamps", room="hallway", on=True)],
        ),
        (
            T,
            "knock the fan off and flick the sunroom light on",
            [c("set_fan", on=False), c("garden_lights", room="sunroom", on=True)],
        ),
        (
            T,
            "slow cooker on and the Christmas tree off",
            [
                c("set_switch", device="slow cooker", action="ON"),
                c("set_switch", device="Christmas tree", action="OFF"),
            ],
        ),
        (U, "stick the fan on medium", []),
        (U, "whack the heating up to 21", []),
        (I, "Kirsty's room to 200 percent", []),
        (O, "is it going to rain in the back garden the morrow?", []),
    ],
    "h_cork_farmhouse": [
        (
            P,
            "turn on the yard light",
            [c("set_farm_switch", relay="yard light", on=True)],
        ),
        (
            P,
            "switch the well pump off there",
            [c("set_farm_switch", relay="well pump", on=False)],
        ),
        (
            P,
            "stick the immersion on, Mam wants a bath",
            [c("set_farm_switch", relay="immersion", on=True)],
        ),
        (
            P,
            "close the kitchen curtains",
            [c("set_curtains", room="kitchen", position=0)],
        ),
        (
            P,
            "open the parlour curtains a quarter of the way",
            [c("set_curtains", room="parlour", position=25)],
        ),
        (P, "turn the heating up to 21", [c("set_thermostat", temperature=21)]),
        (P, "heating off, 'tis roasting", [c("set_thermostat", mode="off")]),
        (P, "back porch light on", [c("set_light", room="back porch", on=True)]),
        (P, "Da's room light to red", [c("set_light", room="Da's room", color="red")]),
        (
            P,
            "put the gate open light blinking",
            [c("set_led", led="gate open", mode="blink")],
        ),
        (
            T,
            "kitchen light off and close the curtains in the parlour",
            [
                c("set_light", room="kitchen", on=False),
                c("set_curtains", room="parlour", position=0),
            ],
        ),
        (
            T,
            "yard light on and the well pump off",
            [
                c("set_farm_switch", relay="yard light", on=True),
                c("set_farm_switch", relay="well pump", on=False),
            ],
        ),
        (
            T,
            "heating to 20 and turn the back porch light off",
            [
                c("set_thermostat", temperature=20),
                c("set_light", room="back porch", on=False),
            ],
        ),
        (U, "pop the kettle on", []),
        (I, "heating to 35", []),
        (N, "don't turn off the well pump whatever you do", []),
        (O, "what's the price of silage these days?", []),
        (M, "switch it off there, ta", []),
    ],
    "i_harbour_flat": [
        (P, "back porch light on please", [c("set_light", room="back porch", on=True)]),
        (
            P,
            "set Mia's room to mint",
            [c("set_light", room="Mia's room", color="mint")],
        ),
        (
            P,
            "dim bedroom 5 to 30 percent",
            [c("set_light", room="bedroom 5", brightness=30)],
        ),
        (P, "heating to 19", [c("set_thermostat", temperature=19)]),
        (
            P,
            "close the sitting room blinds",
            [c("set_blinds", room="sitting room", position=0)],
        ),
        (
            P,
            "switch the coffee machine on and then that's everything, thanks",
            [c("set_switch", device="coffee machine", action="ON")],
        ),
        (
            P,
            "turn on the study nook light and make it warm white",
            [c("set_light", room="study nook", on=True, color="warm white")],
        ),
        (
            P,
            "toggle the desk lamp",
            [c("set_switch", device="desk lamp", action="TOGGLE")],
        ),
        (
            T,
            "turn off the back porch and the entry hall lights",
            [
                c("set_light", room="back porch", on=False),
                c("set_light", room="entry hall", on=False),
            ],
        ),
        (
            T,
            "both the study nook and the sitting room blinds to half",
            [
                c("set_blinds", room="study nook", position=50),
                c("set_blinds", room="sitting room", position=50),
            ],
        ),
        (
            T,
            "blue in the study nook and red in the entry hall",
            [
                c("set_light", room="study nook", color="blue"),
                c("set_light", room="entry hall", color="red"),
            ],
        ),
        (
            T,
            "put the tea kettle on, then open the blinds in Mia's room",
            [
                c("set_switch", device="tea kettle", action="ON"),
                c("set_blinds", room="Mia's room", position=100),
            ],
        ),
        (
            T,
            "heating off; back porch light off",
            [
                c("set_thermostat", mode="off"),
                c("set_light", room="back porch", on=False),
            ],
        ),
        (
            T,
            "set the heating to 21 as well as switching on the desk lamp",
            [
                c("set_thermostat", temperature=21),
                c("set_switch", device="desk lamp", action="ON"),
            ],
        ),
        (U, "open the back porch blinds", []),
        (I, "heating to 32 and keep it there", []),
        (N, "don't switch the tea kettle on, and don't touch the blinds either", []),
        (M, "set the brightness and the colour", []),
    ],
    "i_orchard_barn": [
        (P, "hay loft lights on", [c("barn_lights", room="hay loft", on=True)]),
        (
            P,
            "workshop 2 to 70 percent",
            [c("barn_lights", room="workshop 2", brightness=70)],
        ),
        (P, "start the trough pump", [c("barn_relay", relay="trough pump", on=True)]),
        (
            P,
            "switch off the feed auger",
            [c("barn_relay", relay="feed auger", on=False)],
        ),
        (P, "make the alarm LED blink", [c("set_led", led="alarm", mode="blink")]),
        (P, "fan on fast", [c("set_fan", on=True, speed="fast")]),
        (
            P,
            "tack room light to green",
            [c("barn_lights", room="tack room", color="green")],
        ),
        (
            P,
            "fade the tack room lights off over 10 seconds",
            [c("barn_lights", room="tack room", on=False, transition=10)],
        ),
        (
            T,
            "workshop 1 and workshop 2 lights off",
            [
                c("barn_lights", room="workshop 1", on=False),
                c("barn_lights", room="workshop 2", on=False),
            ],
        ),
        (
            T,
            "turn on the trough pump, then the feed auger",
            [
                c("barn_relay", relay="trough pump", on=True),
                c("barn_relay", relay="feed auger", on=True),
            ],
        ),
        (
            T,
            "fan to slow plus the gate open LED on",
            [c("set_fan", speed="slow"), c("set_led", led="gate open", mode="on")],
        ),
        (
            T,
            "hay loft to 40 percent and the tack room to 80",
            [
                c("barn_lights", room="hay loft", brightness=40),
                c("barn_lights", room="tack room", brightness=80),
            ],
        ),
        (
            T,
            "Switch the alarm LED off. Stop the trough pump.",
            [
                c("set_led", led="alarm", mode="off"),
                c("barn_relay", relay="trough pump", on=False),
            ],
        ),
        (
            T,
            "switch the yard gate relay on and after that blink the gate open LED",
            [
                c("barn_relay", relay="yard gate", on=True),
                c("set_led", led="gate open", mode="blink"),
            ],
        ),
        (
            T,
            "Turn the fan on. Then the trough pump.",
            [c("set_fan", on=True), c("barn_relay", relay="trough pump", on=True)],
        ),
        (U, "fan on medium", []),
        (N, "never mind the trough pump, leave it running", []),
        (O, "how many bales are left in the hay loft", []),
        (M, "turn the relay on", []),
    ],
    "i_tall_townhouse": [
        (P, "cellar light off", [c("set_light", room="cellar", on=False)]),
        (
            P,
            "Grandpa's room to honey",
            [c("set_light", room="Grandpa's room", color="honey")],
        ),
        (
            P,
            "front door light on",
            [c("set_outdoor_light", room="front door", on=True)],
        ),
        (
            P,
            "back garden light at 25 percent",
            [c("set_outdoor_light", room="back garden", brightness=25)],
        ),
        (P, "fan to medium", [c("set_fan", speed="medium")]),
        (
            P,
            "shades in the guest room half way",
            [c("set_shades", room="guest room", position=50)],
        ),
        (P, "heating on", [c("set_thermostat", mode="heat")]),
        (P, "thermostat to 22.5", [c("set_thermostat", temperature=22.5)]),
        (
            P,
            "top landing light on and dim it to 20 percent",
            [c("set_light", room="top landing", on=True, brightness=20)],
        ),
        (
            T,
            "open the kitchen and the guest room shades",
            [
                c("set_shades", room="kitchen", position=100),
                c("set_shades", room="guest room", position=100),
            ],
        ),
        (
            T,
            "teal on the top landing and purple in the guest room",
            [
                c("set_light", room="top landing", color="teal"),
                c("set_light", room="guest room", color="purple"),
            ],
        ),
        (
            T,
            "switch off the cellar light and also the front door light",
            [
                c("set_light", room="cellar", on=False),
                c("set_outdoor_light", room="front door", on=False),
            ],
        ),
        (
            T,
            "fan off, then heating to 18",
            [c("set_fan", on=False), c("set_thermostat", temperature=18)],
        ),
        (
            T,
            "close the shades in Grandpa's room and also turn the light in there off",
            [
                c("set_shades", room="Grandpa's room", position=0),
                c("set_light", room="Grandpa's room", on=False),
            ],
        ),
        (
            T,
            "back garden and front door lights to full",
            [
                c("set_outdoor_light", room="back garden", brightness=100),
                c("set_outdoor_light", room="front door", brightness=100),
            ],
        ),
        (U, "make the kitchen light pink", []),
        (I, "heating to 3 degrees", []),
        (N, "don't open the guest room shades", []),
        (O, "what's on telly tonight, I'll watch it in the guest room", []),
    ],
    "i_corner_cafe": [
        (P, "patio lights on", [c("set_light", room="patio", on=True)]),
        (
            P,
            "dining area lights to warm white",
            [c("set_light", room="dining area", color="warm white")],
        ),
        (
            P,
            "espresso machine on",
            [c("set_switch", device="espresso machine", action="ON")],
        ),
        (
            P,
            "switch the neon sign off",
            [c("set_switch", device="neon sign", action="OFF")],
        ),
        (
            P,
            "order ready LED to blink",
            [c("set_led", led="order ready", mode="blink")],
        ),
        (P, "heating to 20", [c("set_thermostat", temperature=20)]),
        (
            P,
            "lower the dining area blinds all the way",
            [c("set_blinds", room="dining area", position=0)],
        ),
        (
            T,
            "grinder on and espresso machine on",
            [
                c("set_switch", device="grinder", action="ON"),
                c("set_switch", device="espresso machine", action="ON"),
            ],
        ),
        (
            T,
            "turn on the counter and patio lights",
            [
                c("set_light", room="counter", on=True),
                c("set_light", room="patio", on=True),
            ],
        ),
        (
            T,
            "dining area blinds open; back office blinds shut",
            [
                c("set_blinds", room="dining area", position=100),
                c("set_blinds", room="back office", position=0),
            ],
        ),
        (
            T,
            "heating off, then switch the dishwasher on",
            [
                c("set_thermostat", mode="off"),
                c("set_switch", device="dishwasher", action="ON"),
            ],
        ),
        (
            T,
            "wifi LED off plus order ready LED on",
            [
                c("set_led", led="wifi", mode="off"),
                c("set_led", led="order ready", mode="on"),
            ],
        ),
        (
            T,
            "orange on the patio and green at the counter",
            [
                c("set_light", room="patio", color="orange"),
                c("set_light", room="counter", color="green"),
            ],
        ),
        (U, "switch on the toaster", []),
        (I, "patio lights to 200 percent", []),
        (O, "book a table for four on the patio", []),
        (M, "turn the LED on", []),
    ],
    "j_terrace_house": [
        (
            P,
            "Could you switch on the patio lights?",
            [c("garden_lights", room="patio", on=True)],
        ),
        (
            P,
            "The front room light should be at forty percent.",
            [c("set_light", room="front room", brightness=40)],
        ),
        (
            P,
            "Make Nina's bedroom peach.",
            [c("set_light", room="Nina's bedroom", color="peach")],
        ),
        (
            P,
            "Set the underfloor heating to 24 degrees.",
            [c("underfloor", temperature=24)],
        ),
        (P, "I'd like the aircon on cool, please.", [c("aircon", mode="cool")]),
        (
            P,
            "Put the tea kettle on.",
            [c("set_switch", device="tea kettle", action="ON")],
        ),
        (
            P,
            "Please stop the pond filter.",
            [c("set_relay", relay="pond filter", on=False)],
        ),
        (P, "Bathroom fan to purge.", [c("bathroom_fan", speed="purge")]),
        (
            P,
            "Fade the shed door light out over ten seconds.",
            [c("garden_lights", room="shed door", on=False, transition=10)],
        ),
        (P, "Can you turn the underfloor heating off?", [c("underfloor", mode="off")]),
        (
            T,
            "Switch off the toaster and turn on the foot warmer.",
            [
                c("set_switch", device="toaster", action="OFF"),
                c("set_switch", device="foot warmer", action="ON"),
            ],
        ),
        (
            T,
            "Set the aircon to 21 and the bathroom fan to low.",
            [c("aircon", temperature=21), c("bathroom_fan", speed="low")],
        ),
        (
            T,
            "Turn the back kitchen light on and start the well pump.",
            [
                c("set_light", room="back kitchen", on=True),
                c("set_relay", relay="well pump", on=True),
            ],
        ),
        (U, "Turn the bathroom fan to medium.", []),
        (I, "Put the underfloor heating up to 35 degrees.", []),
        (N, "Don't switch on the porch heater.", []),
        (O, "Add toaster bags to my shopping list.", []),
        (M, "Set the aircon temperature, please.", []),
    ],
    "j_farm_office": [
        (
            P,
            "Turn on the light in office 2.",
            [c("set_light", room="office 2", on=True)],
        ),
        (
            P,
            "Front office lights to 80%.",
            [c("set_light", room="front office", brightness=80)],
        ),
        (P, "Light up the hay barn.", [c("yard_lights", room="hay barn", on=True)]),
        (
            P,
            "Switch the main gate floodlight to honey.",
            [c("yard_lights", room="main gate", color="honey")],
        ),
        (
            P,
            "Can you start the feed auger?",
            [c("set_relay", relay="feed auger", on=True)],
        ),
        (
            P,
            "Make the alarm armed LED blink.",
            [c("set_led", led="alarm armed", mode="blink")],
        ),
        (
            P,
            "Close the board room blinds.",
            [c("set_blinds", room="board room", position=0)],
        ),
        (
            P,
            "I'd like the front office blinds a quarter open.",
            [c("set_blinds", room="front office", position=25)],
        ),
        (
            P,
            "Toggle the label printer.",
            [c("set_switch", device="label printer", action="TOGGLE")],
        ),
        (
            P,
            "Change the board room light to warm white over two seconds.",
            [c("set_light", room="board room", color="warm white", transition=2)],
        ),
        (
            T,
            "Switch off the oil heater and set the fan to medium.",
            [
                c("set_switch", device="oil heater", action="OFF"),
                c("set_fan", speed="medium"),
            ],
        ),
        (
            T,
            "Open the board room blinds fully, then turn off the light in there.",
            [
                c("set_blinds", room="board room", position=100),
                c("set_light", room="board room", on=False),
            ],
        ),
        (
            T,
            "Stop the trough pump and light the gate open LED.",
            [
                c("set_relay", relay="trough pump", on=False),
                c("set_led", led="gate open", mode="on"),
            ],
        ),
        (U, "Turn on the tractor shed lights.", []),
        (I, "Set the front office light to 120 percent.", []),
        (N, "Please don't run the feed auger yet.", []),
        (O, "Order more cattle feed from the supplier.", []),
        (M, "Make the LED blink.", []),
    ],
    "j_lakeside_flat": [
        (
            P,
            "The hallway light should be off.",
            [c("set_light", room="hallway", on=False)],
        ),
        (
            P,
            "Set the guest bedroom light to soft violet.",
            [c("set_light", room="guest bedroom", color="soft violet")],
        ),
        (
            P,
            "Brighten Oscar's room to 75 percent.",
            [c("set_light", room="Oscar's room", brightness=75)],
        ),
        (
            P,
            "Raise the living room blinds all the way.",
            [c("set_blinds", room="living room", position=100)],
        ),
        (
            P,
            "Balcony door blinds halfway, please.",
            [c("set_blinds", room="balcony door", position=50)],
        ),
        (
            P,
            "Turn the underfloor heating up to twenty-two degrees.",
            [c("underfloor", temperature=22)],
        ),
        (P, "Put the aircon on auto.", [c("aircon", mode="auto")]),
        (P, "Set the ceiling fan to full.", [c("ceiling_fan", speed="full")]),
        (P, "Turn the study fan off.", [c("desk_fan", on=False)]),
        (
            P,
            "Could you turn off the lava lamp?",
            [c("set_switch", device="lava lamp", action="OFF")],
        ),
        (
            T,
            "Close Oscar's blinds and turn his light off.",
            [
                c("set_blinds", room="Oscar's room", position=0),
                c("set_light", room="Oscar's room", on=False),
            ],
        ),
        (
            T,
            "Turn the underfloor heating on and switch the aircon off.",
            [c("underfloor", mode="heat"), c("aircon", mode="off")],
        ),
        (
            T,
            "Desk fan to high and the fish tank light on.",
            [
                c("desk_fan", speed="high"),
                c("set_switch", device="fish tank light", action="ON"),
            ],
        ),
        (U, "Open the kitchen blinds.", []),
        (I, "Set the aircon to 12 degrees.", []),
        (N, "Don't turn off the heated airer.", []),
        (M, "Turn the fan on.", []),
    ],
    "j_workshop_barn": [
        (
            P,
            "Switch on the lathe bench light.",
            [c("set_light", room="lathe bench", on=True)],
        ),
        (
            P,
            "Spray booth light to full brightness.",
            [c("set_light", room="spray booth", brightness=100)],
        ),
        (P, "Make loft 2 blue.", [c("set_light", room="loft 2", color="blue")]),
        (
            P,
            "Turn on the strip lights on the tool wall.",
            [c("strip_lights", room="tool wall", on=True)],
        ),
        (
            P,
            "Dim the timber rack strip to ten percent.",
            [c("strip_lights", room="timber rack", brightness=10)],
        ),
        (
            P,
            "Fire up the sawdust extractor.",
            [c("set_relay", relay="sawdust extractor", on=True)],
        ),
        (
            P,
            "Shut off the air compressor.",
            [c("set_relay", relay="air compressor", on=False)],
        ),
        (P, "Switch the glue pot on.", [c("set_plug", device="glue pot", action="ON")]),
        (
            P,
            "I want the door warning light blinking.",
            [c("set_led", led="door warning", mode="blink")],
        ),
        (P, "Extractor fan to fast.", [c("extractor_fan", speed="fast")]),
        (P, "Set the workshop heater to 15.", [c("workshop_heater", temperature=15)]),
        (
            P,
            "Dad's corner light at sixty percent, please.",
            [c("set_light", room="Dad's corner", brightness=60)],
        ),
        (
            T,
            "Turn on the radio and set the workshop heater to eighteen.",
            [
                c("set_plug", device="radio", action="ON"),
                c("workshop_heater", temperature=18),
            ],
        ),
        (
            T,
            "Switch the compressor ready LED on and start the air compressor.",
            [
                c("set_led", led="compressor ready", mode="on"),
                c("set_relay", relay="air compressor", on=True),
            ],
        ),
        (
            T,
            "Turn off the spray booth light and the extractor fan.",
            [
                c("set_light", room="spray booth", on=False),
                c("extractor_fan", on=False),
            ],
        ),
        (U, "Turn on the spray gun.", []),
        (I, "Heater to 30 degrees.", []),
        (O, "How long does wood glue take to dry?", []),
        (M, "Dim the strip lights.", []),
    ],
    "k_studio_flat": [
        (
            P,
            "turn on the light in the sofa nook",
            [c("set_light", room="sofa nook", on=True)],
        ),
        (
            P,
            "sleeping alcove light off, please",
            [c("set_light", room="sleeping alcove", on=False)],
        ),
        (
            P,
            "I'd like the sofa nook at thirty percent",
            [c("set_light", room="sofa nook", brightness=30)],
        ),
        (
            P,
            "make the sleeping alcove peach",
            [c("set_light", room="sleeping alcove", color="peach")],
        ),
        (P, "warmer please, 22", [c("set_thermostat", temperature=22)]),
        (P, "turn the heating off", [c("set_thermostat", mode="off")]),
        (
            P,
            "set the flat to nineteen and a half degrees",
            [c("set_thermostat", temperature=19.5)],
        ),
        (P, "blinds halfway", [c("set_blinds", room="bay window", position=50)]),
        (
            P,
            "close the bay window blinds",
            [c("set_blinds", room="bay window", position=0)],
        ),
        (
            P,
            "could you switch the coffee machine on",
            [c("set_switch", device="coffee machine", action="ON")],
        ),
        (
            P,
            "the foot warmer should be off now",
            [c("set_switch", device="foot warmer", action="OFF")],
        ),
        (
            T,
            "open the blinds and put the coffee machine on",
            [
                c("set_blinds", room="bay window", position=100),
                c("set_switch", device="coffee machine", action="ON"),
            ],
        ),
        (
            T,
            "turn off the sofa nook light and switch on the foot warmer",
            [
                c("set_light", room="sofa nook", on=False),
                c("set_switch", device="foot warmer", action="ON"),
            ],
        ),
        (
            T,
            "heating to 20, then dim the sleeping alcove to ten percent",
            [
                c("set_thermostat", temperature=20),
                c("set_light", room="sleeping alcove", brightness=10),
            ],
        ),
        (U, "turn on the bathroom light", []),
        (I, "heat the flat to 30 degrees", []),
        (N, "don't open the blinds yet", []),
        (O, "what's the weather like tomorrow?", []),
        (M, "put the light on", []),
    ],
    "k_caravan": [
        (P, "dinette lights on", [c("caravan_lights", room="dinette", on=True)]),
        (
            P,
            "switch off Nan's bunk light",
            [c("caravan_lights", room="Nan's bunk", on=False)],
        ),
        (
            P,
            "end bedroom to 15 percent",
            [c("caravan_lights", room="end bedroom", brightness=15)],
        ),
        (
            P,
            "can you make the dinette warm white",
            [c("caravan_lights", room="dinette", color="warm white")],
        ),
        (
            P,
            "Nan's bunk light at full brightness",
            [c("caravan_lights", room="Nan's bunk", brightness=100)],
        ),
        (P, "heater to 21", [c("heater", temperature=21)]),
        (P, "turn the heater on", [c("heater", mode="heat")]),
        (
            P,
            "start the fresh water pump",
            [c("set_relay", relay="fresh water pump", on=True)],
        ),
        (P, "the fridge can go off now", [c("set_relay", relay="fridge", on=False)]),
        (P, "put the roof vent on fast", [c("roof_vent", speed="fast")]),
        (P, "please turn the roof vent off", [c("roof_vent", on=False)]),
        (
            T,
            "heater off and the roof vent on",
            [c("heater", mode="off"), c("roof_vent", on=True)],
        ),
        (
            T,
            "switch the fresh water pump on and the dinette lights off",
            [
                c("set_relay", relay="fresh water pump", on=True),
                c("caravan_lights", room="dinette", on=False),
            ],
        ),
        (
            T,
            "end bedroom light blue, and Nan's bunk light off",
            [
                c("caravan_lights", room="end bedroom", color="blue"),
                c("caravan_lights", room="Nan's bunk", on=False),
            ],
        ),
        (U, "turn on the awning light", []),
        (I, "heater up to 28", []),
        (N, "please don't switch off the fridge", []),
        (O, "how long is the drive to the coast from here?", []),
        (M, "turn the lights to 40", []),
    ],
    "k_home_office": [
        (P, "desk light on", [c("set_light", room="desk", on=True)]),
        (
            P,
            "turn the reading chair light down to twenty percent",
            [c("set_light", room="reading chair", brightness=20)],
        ),
        (
            P,
            "shelf 2 light in warm white please",
            [c("set_light", room="shelf 2", color="warm white")],
        ),
        (
            P,
            "turn off the desk light with a ten second fade",
            [c("set_light", room="desk", on=False, transition=10)],
        ),
        (P, "fan to gusty", [c("set_fan", speed="gusty")]),
        (P, "fan off", [c("set_fan", on=False)]),
        (P, "switch on the on air sign", [c("set_led", led="on air", mode="on")]),
        (
            P,
            "make the do not disturb light blink",
            [c("set_led", led="do not disturb", mode="blink")],
        ),
        (
            P,
            "switch the label printer off",
            [c("set_switch", device="label printer", action="OFF")],
        ),
        (
            P,
            "I need the oil heater on",
            [c("set_switch", device="oil heater", action="ON")],
        ),
        (
            P,
            "toggle the second monitor",
            [c("set_switch", device="second monitor", action="TOGGLE")],
        ),
        (
            T,
            "turn on the do not disturb light and switch the fan on",
            [c("set_led", led="do not disturb", mode="on"), c("set_fan", on=True)],
        ),
        (
            T,
            "label printer on, then reading chair light to 60",
            [
                c("set_switch", device="label printer", action="ON"),
                c("set_light", room="reading chair", brightness=60),
            ],
        ),
        (
            T,
            "oil heater off and the fan on soft",
            [
                c("set_switch", device="oil heater", action="OFF"),
                c("set_fan", on=True, speed="soft"),
            ],
        ),
        (U, "turn on the hallway light", []),
        (I, "desk light to 120 percent", []),
        (O, "remind me to call Sam at four", []),
        (M, "toggle the plug", []),
    ],
    "k_boat_cabin": [
        (P, "cabin light on", [c("cabin_light", room="berth", on=True)]),
        (P, "lamp to 40", [c("cabin_light", room="berth", brightness=40)]),
        (P, "make the light red", [c("cabin_light", room="berth", color="red")]),
        (
            P,
            "dim the cabin light to five percent",
            [c("cabin_light", room="berth", brightness=5)],
        ),
        (P, "close the porthole shade", [c("shades", room="porthole", position=0)]),
        (
            P,
            "open the forward hatch shade all the way",
            [c("shades", room="forward hatch", position=100)],
        ),
        (
            P,
            "the porthole shade should be a quarter open",
            [c("shades", room="porthole", position=25)],
        ),
        (P, "run the hull pump", [c("set_relay", relay="hull pump", on=True)]),
        (P, "anchor light off", [c("set_relay", relay="anchor light", on=False)]),
        (P, "it should be 18 degrees in here", [c("set_thermostat", temperature=18)]),
        (P, "heating on auto, please", [c("set_thermostat", mode="auto")]),
        (
            T,
            "cabin light off and anchor light on",
            [
                c("cabin_light", room="berth", on=False),
                c("set_relay", relay="anchor light", on=True),
            ],
        ),
        (
            T,
            "close the porthole shade and open the forward hatch one",
            [
                c("shades", room="porthole", position=0),
                c("shades", room="forward hatch", position=100),
            ],
        ),
        (
            T,
            "stop the hull pump, then set the heating to sixteen",
            [
                c("set_relay", relay="hull pump", on=False),
                c("set_thermostat", temperature=16),
            ],
        ),
        (U, "make the cabin light green", []),
        (I, "heating to 25", []),
        (N, "don't run the hull pump tonight", []),
        (M, "open the shade", []),
    ],
    "l_harrow_house": [
        (
            P,
            "Turn on the light in Theo's room.",
            [c("set_light", room="Theo's room", on=True)],
        ),
        (
            P,
            "could you switch off the back porch light",
            [c("set_light", room="back porch", on=False)],
        ),
        (
            P,
            "guest bedroom 2 lights at forty percent",
            [c("set_light", room="guest bedroom 2", brightness=40)],
        ),
        (
            P,
            "I'd like the dining room in forest green, please.",
            [c("set_light", room="dining room", color="forest green")],
        ),
        (P, "mia's room light off", [c("set_light", room="Mia's room", on=False)]),
        (
            P,
            "Set the thermostat to nineteen degrees.",
            [c("set_thermostat", temperature=19)],
        ),
        (P, "Change the fan speed to storm.", [c("set_fan", speed="storm")]),
        (
            P,
            "The writing room blinds should be half open.",
            [c("set_blinds", room="writing room", position=50)],
        ),
        (
            P,
            "Please turn the bed warmer on.",
            [c("set_switch", device="bed warmer", action="ON")],
        ),
        (
            P,
            "make the doorbell LED blink",
            [c("set_led", led="doorbell", mode="blink")],
        ),
        (
            T,
            "Turn off the playroom light and close the dining room blinds.",
            [
                c("set_light", room="playroom", on=False),
                c("set_blinds", room="dining room", position=0),
            ],
        ),
        (
            T,
            "Put the coffee machine on, then open the blinds in the writing room.",
            [
                c("set_switch", device="coffee machine", action="ON"),
                c("set_blinds", room="writing room", position=100),
            ],
        ),
        (
            T,
            "set the heating to 21.5 and switch the fan off",
            [c("set_thermostat", temperature=21.5), c("set_fan", on=False)],
        ),
        (U, "turn on the writing room light", []),
        (I, "Can you put the heating up to 30 degrees?", []),
        (N, "Don't turn the fish tank pump off.", []),
        (O, "What time does the bakery on the corner open?", []),
        (M, "Set the brightness to 60 percent.", []),
    ],
    "l_old_rectory": [
        (
            P,
            "Lights on in the long gallery, please.",
            [c("room_lights", room="long gallery", on=True)],
        ),
        (
            P,
            "Can you turn off the light in Granny's flat?",
            [c("room_lights", room="Granny's flat", on=False)],
        ),
        (
            P,
            "Hugo's den to amber dusk",
            [c("room_lights", room="Hugo's den", color="amber dusk")],
        ),
        (
            P,
            "Dim bedroom 5 to 15 percent.",
            [c("room_lights", room="bedroom 5", brightness=15)],
        ),
        (
            P,
            "Bring the wash house lights up to full brightness.",
            [c("room_lights", room="wash house", brightness=100)],
        ),
        (
            P,
            "Open the reading room shutters.",
            [c("shutters", room="reading room", position=100)],
        ),
        (
            P,
            "I'd like the breakfast room shutters a quarter open.",
            [c("shutters", room="breakfast room", position=25)],
        ),
        (
            P,
            "Set the central heating to 17 degrees.",
            [c("central_heating", temperature=17)],
        ),
        (
            P,
            "Start the garden fountain.",
            [c("set_relay", relay="garden fountain", on=True)],
        ),
        (
            P,
            "switch off the greenhouse heater",
            [c("set_relay", relay="greenhouse heater", on=False)],
        ),
        (
            T,
            "Switch on the gate motor and put the coat room light on.",
            [
                c("set_relay", relay="gate motor", on=True),
                c("room_lights", room="coat room", on=True),
            ],
        ),
        (
            T,
            "Close the long gallery shutters, then set the heating to twenty.",
            [
                c("shutters", room="long gallery", position=0),
                c("central_heating", temperature=20),
            ],
        ),
        (
            T,
            "Turn the sewing room light to rose gold and set the fan to tempest.",
            [
                c("room_lights", room="sewing room", color="rose gold"),
                c("set_fan", speed="tempest"),
            ],
        ),
        (U, "Open the shutters in the sewing room.", []),
        (I, "Turn the heating down to 5 degrees.", []),
        (N, "Please don't switch the well pump on.", []),
        (M, "Open the shutters.", []),
    ],
    "l_maple_villa": [
        (
            P,
            "turn the upstairs landing light off",
            [c("set_light", room="upstairs landing", on=False)],
        ),
        (
            P,
            "Priya's room light to heather purple, please",
            [c("set_light", room="Priya's room", color="heather purple")],
        ),
        (
            P,
            "Set the home office lights to 75%.",
            [c("set_light", room="home office", brightness=75)],
        ),
        (
            P,
            "Could you switch the carport light on?",
            [c("outdoor_lights", room="carport", on=True)],
        ),
        (
            P,
            "Fade the garage light out over ten seconds.",
            [c("outdoor_lights", room="garage", on=False, transition=10)],
        ),
        (
            P,
            "Set the pool house light to blue.",
            [c("outdoor_lights", room="pool house", color="blue")],
        ),
        (
            P,
            "It's chilly in here, set the thermostat to 23.",
            [c("set_thermostat", temperature=23)],
        ),
        (P, "Put the thermostat in cooling mode.", [c("set_thermostat", mode="cool")]),
        (
            P,
            "Toggle the heated airer.",
            [c("set_switch", device="heated airer", action="TOGGLE")],
        ),
        (
            P,
            "Open the sunroom blinds to 70 percent.",
            [c("set_blinds", room="sunroom", position=70)],
        ),
        (
            T,
            "Turn on the patio heater and the pool house light.",
            [
                c("set_switch", device="patio heater", action="ON"),
                c("outdoor_lights", room="pool house", on=True),
            ],
        ),
        (
            T,
            "Switch the Christmas tree on and the fan to blast.",
            [
                c("set_switch", device="Christmas tree", action="ON"),
                c("set_fan", speed="blast"),
            ],
        ),
        (
            T,
            "Set bedroom 4 to ocean blue and bedroom 11 to 20 percent.",
            [
                c("set_light", room="bedroom 4", color="ocean blue"),
                c("set_light", room="bedroom 11", brightness=20),
            ],
        ),
        (U, "Set the fan to high.", []),
        (I, "Living room brightness to 120 percent, please.", []),
        (N, "Don't turn the pond filter on tonight.", []),
        (O, "Play some jazz in the sunroom.", []),
        (M, "Switch on the plug.", []),
    ],
    "l_brook_farmhouse": [
        (
            P,
            "Switch on the tack room light.",
            [c("set_light", room="tack room", on=True)],
        ),
        (
            P,
            "Turn the lights off in Mum and Dad's room.",
            [c("set_light", room="Mum and Dad's room", on=False)],
        ),
        (
            P,
            "Elsie's room light in dusky pink, please.",
            [c("set_light", room="Elsie's room", color="dusky pink")],
        ),
        (
            P,
            "Set the hay loft lights to thirty percent.",
            [c("set_light", room="hay loft", brightness=30)],
        ),
        (
            P,
            "The light in the kitchen should be harvest gold.",
            [c("set_light", room="farmhouse kitchen", color="harvest gold")],
        ),
        (
            P,
            "Turn off the paddock fence.",
            [c("set_relay", relay="paddock fence", on=False)],
        ),
        (
            P,
            "Put the yard floodlight on.",
            [c("set_relay", relay="yard floodlight", on=True)],
        ),
        (
            P,
            "Raise the parlour blinds fully.",
            [c("set_blinds", room="parlour", position=100)],
        ),
        (P, "Heating to 18.5 degrees please.", [c("set_thermostat", temperature=18.5)]),
        (P, "Turn the fan down to the purr setting.", [c("set_fan", speed="purr")]),
        (
            T,
            "Switch the toaster on and close the kitchen blinds.",
            [
                c("set_switch", device="toaster", action="ON"),
                c("set_blinds", room="farmhouse kitchen", position=0),
            ],
        ),
        (
            T,
            "Switch off the mud room light and the yard floodlight.",
            [
                c("set_light", room="mud room", on=False),
                c("set_relay", relay="yard floodlight", on=False),
            ],
        ),
        (
            T,
            "Start the trough pump, then make the gate open LED blink.",
            [
                c("set_relay", relay="trough pump", on=True),
                c("set_led", led="gate open", mode="blink"),
            ],
        ),
        (U, "Turn on the light in bedroom 4.", []),
        (I, "Set the heating to twenty-eight degrees.", []),
        (N, "Don't switch on the boot dryer.", []),
        (O, "What's the weather doing tomorrow?", []),
    ],
    "m_terrace_house": [
        (P, "turn on the kitchen light", [c("set_light", room="kitchen", on=True)]),
        (
            P,
            "kill the utility room light",
            [c("set_light", room="utility room", on=False)],
        ),
        (
            P,
            "dim bedroom 5 to 30 percent",
            [c("set_light", room="bedroom 5", brightness=30)],
        ),
        (
            P,
            "make Grace's bedroom sunset orange",
            [c("set_light", room="Grace's bedroom", color="sunset orange")],
        ),
        (P, "set the heating to 19 degrees", [c("set_thermostat", temperature=19)]),
        (
            P,
            "close the blinds in Grace's bedroom",
            [c("set_blinds", room="Grace's bedroom", position=0)],
        ),
        (
            P,
            "open the front room blinds halfway",
            [c("set_blinds", room="front room", position=50)],
        ),
        (
            P,
            "start the tea kettle",
            [c("set_switch", device="tea kettle", action="ON")],
        ),
        (
            P,
            "toggle the foot warmer",
            [c("set_switch", device="foot warmer", action="TOGGLE")],
        ),
        (P, "fan to medium", [c("set_fan", speed="medium")]),
        (
            T,
            "switch off the toaster and turn on the fan",
            [c("set_switch", device="toaster", action="OFF"), c("set_fan", on=True)],
        ),
        (
            T,
            "close the front room blinds and put the front room light on",
            [
                c("set_blinds", room="front room", position=0),
                c("set_light", room="front room", on=True),
            ],
        ),
        (
            T,
            "heating to 21, then the kitchen lights to warm white",
            [
                c("set_thermostat", temperature=21),
                c("set_light", room="kitchen", color="warm white"),
            ],
        ),
        (U, "turn on the upstairs landing light", []),
        (I, "set the heating to 32", []),
        (N, "don't switch the tea kettle on", []),
        (O, "play some jazz in the kitchen", []),
        (M, "switch the plug off", []),
    ],
    "m_garden_flat": [
        (P, "switch on the hallway light", [c("set_light", room="hallway", on=True)]),
        (
            P,
            "brighten the dining room to 80 percent",
            [c("set_light", room="dining room", brightness=80)],
        ),
        (
            P,
            "bedroom 8 light at half brightness",
            [c("set_light", room="bedroom 8", brightness=50)],
        ),
        (
            P,
            "make the dining room lights blue",
            [c("set_light", room="dining room", color="blue")],
        ),
        (P, "turn the fan off", [c("set_fan", on=False)]),
        (P, "start the pond pump", [c("set_relay", relay="pond pump", on=True)]),
        (
            P,
            "switch off the patio heater",
            [c("set_relay", relay="patio heater", on=False)],
        ),
        (P, "flash the doorbell LED", [c("set_led", led="doorbell", mode="blink")]),
        (P, "laundry done LED off", [c("set_led", led="laundry done", mode="off")]),
        (P, "set the thermostat to auto", [c("set_thermostat", mode="auto")]),
        (
            T,
            "stop the pond pump and flip the heated towel rail on",
            [
                c("set_relay", relay="pond pump", on=False),
                c("set_relay", relay="heated towel rail", on=True),
            ],
        ),
        (
            T,
            "set the thermostat to 18 and switch the fan on",
            [c("set_thermostat", temperature=18), c("set_fan", on=True)],
        ),
        (
            T,
            "turn off the hallway light and blink the doorbell LED",
            [
                c("set_light", room="hallway", on=False),
                c("set_led", led="doorbell", mode="blink"),
            ],
        ),
        (U, "fan to medium", []),
        (I, "brighten the hallway to 120 percent", []),
        (N, "don't start the pond pump", []),
        (O, "add light bulbs for Sam's study to my shopping list", []),
        (M, "make the light blue", []),
    ],
    "m_semi_detached": [
        (
            P,
            "switch the upstairs landing light on",
            [c("set_light", room="upstairs landing", on=True)],
        ),
        (
            P,
            "turn off the lights in Dad's office",
            [c("set_light", room="Dad's office", on=False)],
        ),
        (
            P,
            "make the living room light warm white",
            [c("set_light", room="living room", color="warm white")],
        ),
        (
            P,
            "open the baby's room blinds",
            [c("set_blinds", room="baby's room", position=100)],
        ),
        (
            P,
            "lower Dad's office blinds to a quarter open",
            [c("set_blinds", room="Dad's office", position=25)],
        ),
        (
            P,
            "turn the coffee machine on",
            [c("set_switch", device="coffee machine", action="ON")],
        ),
        (
            P,
            "flip the label printer off",
            [c("set_switch", device="label printer", action="OFF")],
        ),
        (P, "blink the bin day LED", [c("set_led", led="bin day", mode="blink")]),
        (P, "turn the heating on", [c("set_thermostat", mode="heat")]),
        (P, "raise the temperature to 22", [c("set_thermostat", temperature=22)]),
        (
            T,
            "open the living room blinds and switch off the living room light",
            [
                c("set_blinds", room="living room", position=100),
                c("set_light", room="living room", on=False),
            ],
        ),
        (
            T,
            "turn the fish tank light on and the front door LED off",
            [
                c("set_switch", device="fish tank light", action="ON"),
                c("set_led", led="front door", mode="off"),
            ],
        ),
        (
            T,
            "heating to 20 and dim the upstairs landing to 40 percent",
            [
                c("set_thermostat", temperature=20),
                c("set_light", room="upstairs landing", brightness=40),
            ],
        ),
        (U, "close the bedroom 9 blinds", []),
        (I, "open the baby's room blinds to 150 percent", []),
        (N, "please don't turn off the fish tank light", []),
        (M, "change the brightness in the baby's room", []),
    ],
    "m_cottage_annex": [
        (
            P,
            "switch off the back porch light",
            [c("set_light", room="back porch", on=False)],
        ),
        (
            P,
            "Lily's room light to full",
            [c("set_light", room="Lily's room", brightness=100)],
        ),
        (
            P,
            "dim the guest room to 10 percent",
            [c("set_light", room="guest room", brightness=10)],
        ),
        (
            P,
            "make the pottery studio lights red",
            [c("set_light", room="pottery studio", color="red")],
        ),
        (P, "set the heat to 17.5", [c("set_thermostat", temperature=17.5)]),
        (P, "put the thermostat on cool", [c("set_thermostat", mode="cool")]),
        (P, "fan to storm", [c("set_fan", speed="storm")]),
        (
            P,
            "turn on the immersion heater",
            [c("set_relay", relay="immersion heater", on=True)],
        ),
        (P, "stop the sprinklers", [c("set_relay", relay="sprinklers", on=False)]),
        (
            P,
            "guest room blinds a quarter open",
            [c("set_blinds", room="guest room", position=25)],
        ),
        (
            T,
            "switch the air dryer on and the fan off",
            [c("set_relay", relay="air dryer", on=True), c("set_fan", on=False)],
        ),
        (
            T,
            "open the pottery studio blinds halfway and turn the pottery studio light off",
            [
                c("set_blinds", room="pottery studio", position=50),
                c("set_light", room="pottery studio", on=False),
            ],
        ),
        (
            T,
            "heating to 24 and the sprinklers on",
            [
                c("set_thermostat", temperature=24),
                c("set_relay", relay="sprinklers", on=True),
            ],
        ),
        (U, "make the pottery studio lights teal", []),
        (I, "heating down to 5 degrees", []),
        (O, "order a new filter for the air dryer", []),
        (M, "set the fan speed", []),
    ],
    "n_terrace_house": [
        (
            P,
            "switch on the top landing light",
            [c("lamps", room="top landing", on=True)],
        ),
        (
            P,
            "front parlour lights to full",
            [c("lamps", room="front parlour", brightness=100)],
        ),
        (P, "dim study 2 to 20 percent", [c("lamps", room="study 2", brightness=20)]),
        (
            P,
            "make the back kitchen coral",
            [c("lamps", room="back kitchen", color="coral")],
        ),
        (
            P,
            "close the blinds in the front parlour",
            [c("window_covers", room="front parlour", position=0)],
        ),
        (
            P,
            "put Maya's bedroom blinds halfway",
            [c("window_covers", room="Maya's bedroom", position=50)],
        ),
        (P, "set the heating to 19 degrees", [c("climate", temperature=19)]),
        (P, "turn the heating off", [c("climate", mode="off")]),
        (
            P,
            "start the coffee machine",
            [c("sockets", device="coffee machine", action="ON")],
        ),
        (
            P,
            "toggle the fish tank filter",
            [c("sockets", device="fish tank filter", action="TOGGLE")],
        ),
        (
            T,
            "open the front parlour blinds and switch on the front parlour light",
            [
                c("window_covers", room="front parlour", position=100),
                c("lamps", room="front parlour", on=True),
            ],
        ),
        (
            T,
            "switch off the heated rug and set the heating to 17",
            [
                c("sockets", device="heated rug", action="OFF"),
                c("climate", temperature=17),
            ],
        ),
        (
            T,
            "study 2 light to half and the top landing to teal",
            [
                c("lamps", room="study 2", brightness=50),
                c("lamps", room="top landing", color="teal"),
            ],
        ),
        (U, "turn the top landing light purple", []),
        (I, "set the heating to 30 degrees", []),
        (N, "don't switch on the heated rug", []),
        (O, "order descaler for the coffee machine", []),
        (M, "switch the socket on", []),
    ],
    "n_mill_flat": [
        (P, "turn on the light in hallway 1", [c("bulbs", room="hallway 1", on=True)]),
        (
            P,
            "kill the galley kitchen light",
            [c("bulbs", room="galley kitchen", on=False)],
        ),
        (
            P,
            "brighten the light in Grandpa's den to 80 percent",
            [c("bulbs", room="Grandpa's den", brightness=80)],
        ),
        (
            P,
            "make the reading nook light warm white",
            [c("bulbs", room="reading nook", color="warm white")],
        ),
        (
            P,
            "fade the hallway 2 light off over 5 seconds",
            [c("bulbs", room="hallway 2", on=False, transition=5)],
        ),
        (P, "fan to storm", [c("air_mover", speed="storm")]),
        (P, "stop the fan", [c("air_mover", on=False)]),
        (
            P,
            "blink the post arrived light",
            [c("signal_lights", led="post arrived", mode="blink")],
        ),
        (
            P,
            "open the shades in Grandpa's den",
            [c("shades", room="Grandpa's den", position=100)],
        ),
        (
            P,
            "set the reading nook shades to a quarter",
            [c("shades", room="reading nook", position=25)],
        ),
        (
            T,
            "turn on the door chime light and close the reading nook shades",
            [
                c("signal_lights", led="door chime", mode="on"),
                c("shades", room="reading nook", position=0),
            ],
        ),
        (
            T,
            "fan to hush and dim the galley kitchen to 40 percent",
            [
                c("air_mover", speed="hush"),
                c("bulbs", room="galley kitchen", brightness=40),
            ],
        ),
        (
            T,
            "switch off the lights in hallway 1 and hallway 2",
            [
                c("bulbs", room="hallway 1", on=False),
                c("bulbs", room="hallway 2", on=False),
            ],
        ),
        (U, "set the fan to medium", []),
        (I, "reading nook shades to 150 percent", []),
        (N, "don't turn the fan on", []),
        (O, "play an audiobook in the reading nook", []),
        (M, "set the shades to halfway", []),
    ],
    "n_allotment": [
        (
            P,
            "start the rain tank pump",
            [c("switchgear", relay="rain tank pump", on=True)],
        ),
        (
            P,
            "switch off the greenhouse heater",
            [c("switchgear", relay="greenhouse heater", on=False)],
        ),
        (
            P,
            "turn irrigation valve 3 on",
            [c("switchgear", relay="irrigation valve 3", on=True)],
        ),
        (P, "kill the soil warmer", [c("switchgear", relay="soil warmer", on=False)]),
        (
            P,
            "flash the frost alert light",
            [c("indicators", led="frost alert", mode="blink")],
        ),
        (
            P,
            "turn on the light in the tool store",
            [c("shed_lights", room="tool store", on=True)],
        ),
        (
            P,
            "set the greenhouse lights to grow purple",
            [c("shed_lights", room="greenhouse", color="grow purple")],
        ),
        (
            P,
            "Bea's workbench light to 60 percent",
            [c("shed_lights", room="Bea's workbench", brightness=60)],
        ),
        (P, "greenhouse fan to low", [c("greenhouse_fan", speed="low")]),
        (P, "turn the greenhouse fan off", [c("greenhouse_fan", on=False)]),
        (
            T,
            "stop the rain tank pump and turn on the tank full light",
            [
                c("switchgear", relay="rain tank pump", on=False),
                c("indicators", led="tank full", mode="on"),
            ],
        ),
        (
            T,
            "switch on the greenhouse heater and flash the frost alert LED",
            [
                c("switchgear", relay="greenhouse heater", on=True),
                c("indicators", led="frost alert", mode="blink"),
            ],
        ),
        (
            T,
            "turn off the potting shed light, then switch off the gate open LED",
            [
                c("shed_lights", room="potting shed", on=False),
                c("indicators", led="gate open", mode="off"),
            ],
        ),
        (U, "turn on the light in the chicken run", []),
        (I, "potting shed light to 110 percent", []),
        (N, "don't start irrigation valve 3", []),
        (O, "remind me to sow carrots in the greenhouse on Saturday", []),
        (M, "flash the LED", []),
    ],
    "n_harbour_loft": [
        (P, "switch the balcony light on", [c("room_lights", room="balcony", on=True)]),
        (
            P,
            "dim the light in Leo's nursery to 10 percent",
            [c("room_lights", room="Leo's nursery", brightness=10)],
        ),
        (
            P,
            "make the guest room light peach",
            [c("room_lights", room="guest room", color="peach")],
        ),
        (
            P,
            "master bedroom light to half",
            [c("room_lights", room="master bedroom", brightness=50)],
        ),
        (
            P,
            "open the shutters in Leo's nursery a quarter of the way",
            [c("shutters", room="Leo's nursery", position=25)],
        ),
        (
            P,
            "raise the master bedroom shutters fully",
            [c("shutters", room="master bedroom", position=100)],
        ),
        (P, "set the air-con to cool", [c("aircon", mode="cool")]),
        (P, "air-con to 23 degrees", [c("aircon", temperature=23)]),
        (
            P,
            "turn on the air dryer",
            [c("power_points", device="air dryer", action="ON")],
        ),
        (
            P,
            "flip the bottle warmer",
            [c("power_points", device="bottle warmer", action="TOGGLE")],
        ),
        (
            T,
            "close the shutters in Leo's nursery and dim the nursery light to 15 percent",
            [
                c("shutters", room="Leo's nursery", position=0),
                c("room_lights", room="Leo's nursery", brightness=15),
            ],
        ),
        (
            T,
            "set the air-con to 21 and switch off the air dryer",
            [
                c("aircon", temperature=21),
                c("power_points", device="air dryer", action="OFF"),
            ],
        ),
        (
            T,
            "turn the balcony light off and open the guest room shutters",
            [
                c("room_lights", room="balcony", on=False),
                c("shutters", room="guest room", position=100),
            ],
        ),
        (U, "open the shutters on the balcony", []),
        (I, "air-con to 12 degrees", []),
        (N, "don't open the master bedroom shutters", []),
        (O, "play white noise in Leo's nursery", []),
        (M, "set the air-con temperature", []),
    ],
    "o_terrace_house": [
        (
            P,
            "turn on the front room light",
            [c("set_light", room="front room", on=True)],
        ),
        (
            P,
            "dim Nina's bedroom to 20 percent",
            [c("set_light", room="Nina's bedroom", brightness=20)],
        ),
        (
            P,
            "back porch light to full",
            [c("set_light", room="back porch", brightness=100)],
        ),
        (
            P,
            "make the utility room teal",
            [c("set_light", room="utility room", color="teal")],
        ),
        (P, "set the heating to 21", [c("set_thermostat", temperature=21)]),
        (P, "turn the heating off", [c("set_thermostat", mode="off")]),
        (P, "fan to medium", [c("set_fan", speed="medium")]),
        (
            P,
            "close the blinds in Nina's bedroom",
            [c("set_blinds", room="Nina's bedroom", position=0)],
        ),
        (
            P,
            "switch the water boiler on",
            [c("set_switch", device="water boiler", action="ON")],
        ),
        (P, "flash the doorbell LED", [c("set_led", led="doorbell", mode="blink")]),
        (
            T,
            "turn off the back porch light and lower the front room blinds halfway",
            [
                c("set_light", room="back porch", on=False),
                c("set_blinds", room="front room", position=50),
            ],
        ),
        (
            T,
            "heating to 19 and switch on the foot warmer",
            [
                c("set_thermostat", temperature=19),
                c("set_switch", device="foot warmer", action="ON"),
            ],
        ),
        (
            T,
            "start the air purifier, then turn the fan on",
            [
                c("set_switch", device="air purifier", action="ON"),
                c("set_fan", on=True),
            ],
        ),
        (U, "make the front room lights purple", []),
        (I, "set the heating to 30 degrees", []),
        (N, "don't switch the water boiler on", []),
        (O, "remind me to descale the water boiler on Sunday", []),
        (M, "set the brightness to 60 percent", []),
    ],
    "o_garden_flat": [
        (
            P,
            "switch on the study nook light",
            [c("set_light", room="study nook", on=True)],
        ),
        (
            P,
            "brighten Priya's room to 80 percent",
            [c("set_light", room="Priya's room", brightness=80)],
        ),
        (
            P,
            "hallway 1 light to half",
            [c("set_light", room="hallway 1", brightness=50)],
        ),
        (
            P,
            "make the kitchen diner light blue",
            [c("set_light", room="kitchen diner", color="blue")],
        ),
        (
            P,
            "fade the study nook light off over 10 seconds",
            [c("set_light", room="study nook", on=False, transition=10)],
        ),
        (P, "start the pond pump", [c("set_relay", relay="pond pump", on=True)]),
        (
            P,
            "stop the garden sprinkler",
            [c("set_relay", relay="garden sprinkler", on=False)],
        ),
        (
            P,
            "toggle the label printer",
            [c("set_switch", device="label printer", action="TOGGLE")],
        ),
        (
            P,
            "open the shades in the kitchen diner",
            [c("set_shades", room="kitchen diner", position=100)],
        ),
        (P, "set the thermostat to 18.5", [c("set_thermostat", temperature=18.5)]),
        (P, "put the heating on auto", [c("set_thermostat", mode="auto")]),
        (
            T,
            "turn the coffee machine on and open the study nook shades halfway",
            [
                c("set_switch", device="coffee machine", action="ON"),
                c("set_shades", room="study nook", position=50),
            ],
        ),
        (
            T,
            "kill the kitchen diner light and switch off the pond pump",
            [
                c("set_light", room="kitchen diner", on=False),
                c("set_relay", relay="pond pump", on=False),
            ],
        ),
        (
            T,
            "set the heating to 20, then turn on the greenhouse heater",
            [
                c("set_thermostat", temperature=20),
                c("set_relay", relay="greenhouse heater", on=True),
            ],
        ),
        (U, "turn on the bathroom light", []),
        (I, "set the thermostat to 2 degrees", []),
        (N, "do not start the garden sprinkler", []),
        (O, "print my boarding pass on the label printer", []),
        (M, "open the shades", []),
    ],
    "o_cottage_annex": [
        (
            P,
            "turn on the lamp in the reading room",
            [c("set_lamp", room="reading room", on=True)],
        ),
        (
            P,
            "set Grandma's room to mauve",
            [c("set_lamp", room="Grandma's room", color="mauve")],
        ),
        (
            P,
            "dim guest room 3 to 15 percent",
            [c("set_lamp", room="guest room 3", brightness=15)],
        ),
        (
            P,
            "turn on the garden path light",
            [c("set_zigbee_bulb", room="garden path", on=True)],
        ),
        (
            P,
            "sun lounge light to warm white",
            [c("set_zigbee_bulb", room="sun lounge", color="warm white")],
        ),
        (P, "set the radiators to 22 degrees", [c("set_radiators", temperature=22)]),
        (P, "turn the heating on", [c("set_radiators", mode="heat")]),
        (P, "set the fan to brisk", [c("set_fan", speed="brisk")]),
        (
            P,
            "switch on the towel radiator",
            [c("set_relay", relay="towel radiator", on=True)],
        ),
        (
            P,
            "make the back door LED blink",
            [c("set_led", led="back door", mode="blink")],
        ),
        (
            T,
            "switch off the log store light and turn the towel radiator on",
            [
                c("set_zigbee_bulb", room="log store", on=False),
                c("set_relay", relay="towel radiator", on=True),
            ],
        ),
        (
            T,
            "reading room to soft yellow and guest room 3 to full brightness",
            [
                c("set_lamp", room="reading room", color="soft yellow"),
                c("set_lamp", room="guest room 3", brightness=100),
            ],
        ),
        (
            T,
            "turn the heating off and stop the fan",
            [c("set_radiators", mode="off"), c("set_fan", on=False)],
        ),
        (U, "set the fan to medium", []),
        (I, "turn the radiators up to 28", []),
        (N, "don't put the immersion heater on", []),
        (M, "change the light colour in Grandma's room", []),
    ],
    "o_workshop_loft": [
        (P, "turn the paint bay light on", [c("set_light", room="paint bay", on=True)]),
        (P, "kill the tool bench light", [c("set_light", room="tool bench", on=False)]),
        (
            P,
            "loft deck lights to 70 percent",
            [c("set_light", room="loft deck", brightness=70)],
        ),
        (
            P,
            "set the office 2 light to yellow",
            [c("set_light", room="office 2", color="yellow")],
        ),
        (P, "flip the shop vac on", [c("set_switch", device="shop vac", action="ON")]),
        (
            P,
            "start the air compressor",
            [c("set_relay", relay="air compressor", on=True)],
        ),
        (
            P,
            "turn the job running LED off",
            [c("set_led", led="job running", mode="off")],
        ),
        (P, "fan to low", [c("set_fan", speed="low")]),
        (
            P,
            "open the office 2 blinds a quarter of the way",
            [c("set_blinds", room="office 2", position=25)],
        ),
        (P, "turn the heating down to 16", [c("set_thermostat", temperature=16)]),
        (
            T,
            "start the dust collector and switch the fan on",
            [c("set_relay", relay="dust collector", on=True), c("set_fan", on=True)],
        ),
        (
            T,
            "close the loft deck blinds and turn the loft deck light on",
            [
                c("set_blinds", room="loft deck", position=0),
                c("set_light", room="loft deck", on=True),
            ],
        ),
        (
            T,
            "turn the tea maker on, then flash the compressor ready LED",
            [
                c("set_switch", device="tea maker", action="ON"),
                c("set_led", led="compressor ready", mode="blink"),
            ],
        ),
        (U, "switch on the lathe", []),
        (I, "loft deck blinds to 150 percent", []),
        (O, "order more filament for the 3D printer", []),
        (M, "turn on the LED", []),
    ],
    "p_harbour_flat": [
        (
            P,
            "trun off the lihgts in the livingroom",
            [c("set_light", room="living room", on=False)],
        ),
        (
            P,
            "nadias room ligths on pls",
            [c("set_light", room="Nadia's room", on=True)],
        ),
        (
            P,
            "dim the galey kitchen to 30 percent",
            [c("set_light", room="galley kitchen", brightness=30)],
        ),
        (
            P,
            "shower rom light to coral",
            [c("set_light", room="shower room", color="coral")],
        ),
        (P, "heatign to 21", [c("set_thermostat", temperature=21)]),
        (P, "swtich the heating off", [c("set_thermostat", mode="off")]),
        (P, "turn the fna up to high", [c("set_fan", speed="high")]),
        (
            P,
            "switch on the cofee machine",
            [c("set_switch", device="coffee machine", action="ON")],
        ),
        (
            P,
            "toggel the hair dryer",
            [c("set_switch", device="hair dryer", action="TOGGLE")],
        ),
        (
            P,
            "opne the blinds in nadias room",
            [c("set_blinds", room="Nadia's room", position=100)],
        ),
        (
            T,
            "heating to 19 and switch on the bed wamrer",
            [
                c("set_thermostat", temperature=19),
                c("set_switch", device="bed warmer", action="ON"),
            ],
        ),
        (
            T,
            "lihgts off in the shower room then fan off",
            [c("set_light", room="shower room", on=False), c("set_fan", on=False)],
        ),
        (
            T,
            "blinds in the livign room half way and bedroom 6 light to teal",
            [
                c("set_blinds", room="living room", position=50),
                c("set_light", room="bedroom 6", color="teal"),
            ],
        ),
        (U, "turn on the lights in the baclony", []),
        (I, "heatng to 32", []),
        (N, "dont swtich on the hair dryer", []),
        (O, "whats the wether like at the harbour tomorow", []),
        (M, "set the birghtness", []),
    ],
    "p_workshop_barn": [
        (P, "wrok bench light on", [c("set_light", room="work bench", on=True)]),
        (
            P,
            "spray boot lights to 80 percent",
            [c("set_light", room="spray booth", brightness=80)],
        ),
        (
            P,
            "loft 1 ligth to warm white",
            [c("set_light", room="loft 1", color="warm white")],
        ),
        (
            P,
            "fade the work bench light out over 10 secnds",
            [c("set_light", room="work bench", on=False, transition=10)],
        ),
        (
            P,
            "start the sawdust vaccum",
            [c("barn_power", relay="sawdust vacuum", on=True)],
        ),
        (P, "air compresor off", [c("barn_power", relay="air compressor", on=False)]),
        (
            P,
            "switch on the yard floodlihgt",
            [c("barn_power", relay="yard floodlight", on=True)],
        ),
        (
            P,
            "make the kiln ready led blnik",
            [c("set_led", led="kiln ready", mode="blink")],
        ),
        (P, "set the haeter to 15", [c("barn_heater", temperature=15)]),
        (P, "turn the heatre on", [c("barn_heater", mode="heat")]),
        (
            T,
            "sawdust vacum on and spary booth light to full",
            [
                c("barn_power", relay="sawdust vacuum", on=True),
                c("set_light", room="spray booth", brightness=100),
            ],
        ),
        (
            T,
            "kill the air compressr and blink the door open led",
            [
                c("barn_power", relay="air compressor", on=False),
                c("set_led", led="door open", mode="blink"),
            ],
        ),
        (
            T,
            "swich the heater off and the yard floodlihgt too",
            [
                c("barn_heater", mode="off"),
                c("barn_power", relay="yard floodlight", on=False),
            ],
        ),
        (U, "trun on the band saw", []),
        (I, "spray boot to 120 percent", []),
        (N, "dont start the air compresor yet", []),
        (O, "ordr more sandpaper for the work bench", []),
        (M, "trun the led on", []),
    ],
    "p_grandmas_bungalow": [
        (
            P,
            "grandads stuyd light on",
            [c("set_light", room="Grandad's study", on=True)],
        ),
        (P, "sun proch lights off", [c("set_light", room="sun porch", on=False)]),
        (
            P,
            "front room lihgts to 40 percent",
            [c("set_light", room="front room", brightness=40)],
        ),
        (
            P,
            "bedroom 8 to heahter",
            [c("set_light", room="bedroom 8", color="heather")],
        ),
        (
            P,
            "open the shutters in the frnt room",
            [c("shutters", room="front room", position=100)],
        ),
        (
            P,
            "sun porch shuters half way",
            [c("shutters", room="sun porch", position=50)],
        ),
        (P, "heating to 23 pleease", [c("set_thermostat", temperature=23)]),
        (P, "put the kettel on", [c("set_switch", device="tea kettle", action="ON")]),
        (
            P,
            "toggle the readign lamp",
            [c("set_switch", device="reading lamp", action="TOGGLE")],
        ),
        (P, "raido on", [c("set_switch", device="radio", action="ON")]),
        (
            T,
            "close the front room shuters and put the front room ligth on",
            [
                c("shutters", room="front room", position=0),
                c("set_light", room="front room", on=True),
            ],
        ),
        (
            T,
            "ketle on and heating up to 22",
            [
                c("set_switch", device="tea kettle", action="ON"),
                c("set_thermostat", temperature=22),
            ],
        ),
        (
            T,
            "turn off the radoi then the back hall light",
            [
                c("set_switch", device="radio", action="OFF"),
                c("set_light", room="back hall", on=False),
            ],
        ),
        (U, "open the shuttres in grandads study", []),
        (I, "heating to 5 degres", []),
        (O, "remind grandad abot his pills at 6", []),
        (M, "put the shuters at 30 percent", []),
    ],
    "p_city_studio": [
        (
            P,
            "sleepign nook light off",
            [c("set_light", room="sleeping nook", on=False)],
        ),
        (
            P,
            "desk cornr lights to 70 percent",
            [c("set_light", room="desk corner", brightness=70)],
        ),
        (
            P,
            "wardrboe light to pink",
            [c("set_accent_light", room="wardrobe", color="pink")],
        ),
        (P, "balcny light on", [c("set_accent_light", room="balcony", on=True)]),
        (
            P,
            "halway light to 20 percent",
            [c("set_accent_light", room="hallway", brightness=20)],
        ),
        (
            P,
            "fade the balcony lgiht off over 30 seconds",
            [c("set_accent_light", room="balcony", on=False, transition=30)],
        ),
        (P, "fan to tempset", [c("set_fan", speed="tempest")]),
        (P, "towel radaitor on", [c("set_relay", relay="towel radiator", on=True)]),
        (
            P,
            "swicth off the water heater",
            [c("set_relay", relay="water heater", on=False)],
        ),
        (P, "blink the doorbel led", [c("set_led", led="doorbell", mode="blink")]),
        (
            T,
            "sleeping nok light off and the halway light on",
            [
                c("set_light", room="sleeping nook", on=False),
                c("set_accent_light", room="hallway", on=True),
            ],
        ),
        (
            T,
            "watr heater on and the towel radiator too",
            [
                c("set_relay", relay="water heater", on=True),
                c("set_relay", relay="towel radiator", on=True),
            ],
        ),
        (
            T,
            "fan off n bathroom light to warm wihte",
            [
                c("set_fan", on=False),
                c("set_light", room="bathroom", color="warm white"),
            ],
        ),
        (U, "fan to turbo speeed", []),
        (I, "desk corner ligths to 200 percent", []),
        (N, "dont trun the water heater on", []),
        (M, "make the led blnik", []),
    ],
    "q_old_vicarage": [
        (
            P,
            "turn on the lights in the front parlour",
            [c("house_lights", room="front parlour", on=True)],
        ),
        (
            P,
            "switch off the rose arbour light",
            [c("garden_lights", room="rose arbour", on=False)],
        ),
        (
            P,
            "set the gravel drive light to 30 percent",
            [c("garden_lights", room="gravel drive", brightness=30)],
        ),
        (
            P,
            "make Edith's bedroom light teal",
            [c("house_lights", room="Edith's bedroom", color="teal")],
        ),
        (
            P,
            "put the hot water urn on",
            [c("kitchen_plugs", device="hot water urn", action="ON")],
        ),
        (
            P,
            "switch off the bench grinder",
            [c("workshop_plugs", device="bench grinder", action="OFF")],
        ),
        (P, "start the well pump", [c("set_relay", relay="well pump", on=True)]),
        (
            P,
            "close the blinds in study 2",
            [c("set_blinds", room="study 2", position=0)],
        ),
        (P, "set the heating to 19 degrees", [c("set_thermostat", temperature=19)]),
        (
            P,
            "make the post box LED blink",
            [c("set_led", led="post box", mode="blink")],
        ),
        (
            T,
            "turn off the summerhouse light and the toaster",
            [
                c("garden_lights", room="summerhouse", on=False),
                c("kitchen_plugs", device="toaster", action="OFF"),
            ],
        ),
        (
            T,
            "open the front parlour blinds halfway and switch on the pond filter",
            [
                c("set_blinds", room="front parlour", position=50),
                c("set_relay", relay="pond filter", on=True),
            ],
        ),
        (
            T,
            "turn the heating off and the fan on",
            [c("set_thermostat", mode="off"), c("set_fan", on=True)],
        ),
        (U, "turn on the conservatory light", []),
        (I, "set the heating to 32", []),
        (N, "don't start the soldering station", []),
        (M, "open the blinds", []),
    ],
    "q_hill_farm": [
        (P, "lights on in the coat room", [c("set_light", room="coat room", on=True)]),
        (
            P,
            "turn the calving pen light on",
            [c("yard_lights", room="calving pen", on=True)],
        ),
        (
            P,
            "dim the milking shed light to 20 percent",
            [c("yard_lights", room="milking shed", brightness=20)],
        ),
        (
            P,
            "bedroom 6 light to honey",
            [c("set_light", room="bedroom 6", color="honey")],
        ),
        (
            P,
            "switch on the egg incubator",
            [c("set_switch", device="egg incubator", action="ON")],
        ),
        (
            P,
            "turn on trough valve 2",
            [c("irrigation_valves", relay="trough valve 2", on=True)],
        ),
        (
            P,
            "shut off the orchard sprinkler",
            [c("irrigation_valves", relay="orchard sprinkler", on=False)],
        ),
        (
            P,
            "turn the fence energiser on",
            [c("set_relay", relay="fence energiser", on=True)],
        ),
        (P, "set the barn fan to fast", [c("barn_fan", speed="fast")]),
        (
            P,
            "raise the blinds in Nell's room",
            [c("set_blinds", room="Nell's room", position=100)],
        ),
        (
            T,
            "turn off the tractor barn light and stop the grain auger",
            [
                c("yard_lights", room="tractor barn", on=False),
                c("set_relay", relay="grain auger", on=False),
            ],
        ),
        (
            T,
            "switch the milk chiller on and make the gate open LED blink",
            [
                c("set_switch", device="milk chiller", action="ON"),
                c("set_led", led="gate open", mode="blink"),
            ],
        ),
        (
            T,
            "farm kitchen light to 70 percent and close the farm kitchen blinds",
            [
                c("set_light", room="farm kitchen", brightness=70),
                c("set_blinds", room="farm kitchen", position=0),
            ],
        ),
        (U, "barn fan to medium", []),
        (I, "set the heating to 3 degrees", []),
        (O, "order more feed for the calving pen", []),
        (M, "turn on the trough valve", []),
    ],
    "q_seaview_guesthouse": [
        (P, "turn off the light in room 5", [c("set_light", room="room 5", on=False)]),
        (
            P,
            "switch the top stairs light on",
            [c("hall_lights", room="top stairs", on=True)],
        ),
        (
            P,
            "set the back corridor light to warm white",
            [c("hall_lights", room="back corridor", color="warm white")],
        ),
        (
            P,
            "breakfast room lights to gold",
            [c("set_light", room="breakfast room", color="gold")],
        ),
        (P, "turn on the vacancy LED", [c("status_leds", led="vacancy", mode="on")]),
        (
            P,
            "turn the house number LED on",
            [c("porch_leds", led="house number", mode="on")],
        ),
        (
            P,
            "switch on the coffee machine",
            [c("set_switch", device="coffee machine", action="ON")],
        ),
        (
            P,
            "turn the sauna heater off",
            [c("set_relay", relay="sauna heater", on=False)],
        ),
        (P, "set the fan to breezy", [c("set_fan", speed="breezy")]),
        (
            P,
            "set the breakfast room blinds to 25 percent",
            [c("set_blinds", room="breakfast room", position=25)],
        ),
        (
            T,
            "turn on the hot tub pump and the boot dryer",
            [
                c("set_relay", relay="hot tub pump", on=True),
                c("set_switch", device="boot dryer", action="ON"),
            ],
        ),
        (
            T,
            "make the check-in LED blink and turn on the luggage nook light",
            [
                c("status_leds", led="check-in", mode="blink"),
                c("hall_lights", room="luggage nook", on=True),
            ],
        ),
        (
            T,
            "switch off the lights in the owners' flat and set the heating to auto",
            [
                c("set_light", room="owners' flat", on=False),
                c("set_thermostat", mode="auto"),
            ],
        ),
        (U, "turn on the light in room 9", []),
        (I, "dim room 2 to 200 percent", []),
        (N, "please don't turn on the trouser press", []),
        (O, "book a taxi for the guests in room 2", []),
        (M, "set the lights to 40 percent", []),
    ],
    "q_terrace_townhouse": [
        (
            P,
            "turn on the sitting room lights",
            [c("downstairs_lights", room="sitting room", on=True)],
        ),
        (
            P,
            "switch off the light in Priya's room",
            [c("upstairs_lights", room="Priya's room", on=False)],
        ),
        (
            P,
            "fade the master bedroom light to 10 percent over 30 seconds",
            [c("upstairs_lights", room="master bedroom", brightness=10, transition=30)],
        ),
        (
            P,
            "make the dining room lights blue",
            [c("downstairs_lights", room="dining room", color="blue")],
        ),
        (P, "turn the ceiling fan on", [c("ceiling_fan", on=True)]),
        (P, "set the loft fan to purge", [c("loft_fan", speed="purge")]),
        (
            P,
            "switch on the car charger",
            [c("garage_plugs", device="car charger", action="ON")],
        ),
        (
            P,
            "turn off the coffee grinder",
            [c("kitchen_plugs", device="coffee grinder", action="OFF")],
        ),
        (P, "turn on the boiler pump", [c("set_relay", relay="boiler pump", on=True)]),
        (P, "turn the wifi LED off", [c("set_led", led="wifi", mode="off")]),
        (
            P,
            "lower the master bedroom blinds halfway",
            [c("set_blinds", room="master bedroom", position=50)],
        ),
        (P, "set the heating to 22", [c("set_thermostat", temperature=22)]),
        (
            T,
            "turn off the utility room light and the dishwasher",
            [
                c("downstairs_lights", room="utility room", on=False),
                c("kitchen_plugs", device="dishwasher", action="OFF"),
            ],
        ),
        (
            T,
            "close the sitting room blinds and set the ceiling fan to low",
            [
                c("set_blinds", room="sitting room", position=0),
                c("ceiling_fan", speed="low"),
            ],
        ),
        (
            T,
            "switch on the chest freezer, then turn the heating on",
            [
                c("garage_plugs", device="chest freezer", action="ON"),
                c("set_thermostat", mode="heat"),
            ],
        ),
        (U, "make the sitting room light green", []),
        (I, "set the blinds in Priya's room to 150 percent", []),
        (N, "leave the boiler pump alone", []),
        (O, "what's on TV in the sitting room tonight?", []),
        (M, "turn on the fan", []),
    ],
    "r_terrace_house": [
        (P, "turn the telly off", [c("set_switch", device="tv", action="OFF")]),
        (P, "put the house heating to 20", [c("radiators", temperature=20)]),
        (
            P,
            "switch the immersion on so there's hot water for a bath",
            [c("set_switch", device="immersion", action="ON")],
        ),
        (
            P,
            "shut the curtains in Nan's room",
            [c("curtains", room="Nan's room", position=0)],
        ),
        (
            P,
            "front room curtains half way please",
            [c("curtains", room="front room", position=50)],
        ),
        (P, "radiators off, it's warm enough in here", [c("radiators", mode="off")]),
        (
            P,
            "the big light in the front room, on please",
            [c("set_light", room="front room", on=True)],
        ),
        (
            P,
            "landing light down to 10 percent",
            [c("set_light", room="top landing", brightness=10)],
        ),
        (
            P,
            "make Nan's room peach",
            [c("set_light", room="Nan's room", color="peach")],
        ),
        (P, "boil the kettle", [c("set_switch", device="jug kettle", action="ON")]),
        (
            T,
            "turn the telly off and the top landing light on",
            [
                c("set_switch", device="tv", action="OFF"),
                c("set_light", room="top landing", on=True),
            ],
        ),
        (
            T,
            "shut the front room curtains and put the radiators up to 22",
            [
                c("curtains", room="front room", position=0),
                c("radiators", temperature=22),
            ],
        ),
        (
            T,
            "attic bedroom to cool white, then switch the kettle on",
            [
                c("set_light", room="attic bedroom", color="cool white"),
                c("set_switch", device="jug kettle", action="ON"),
            ],
        ),
        (U, "turn on the light in the conservatory", []),
        (I, "put the house heating up to 30", []),
        (N, "don't put the immersion on yet", []),
        (O, "what's on the telly tonight?", []),
        (M, "change the landing light's colour", []),
    ],
    "r_hill_farm_workshop": [
        (
            P,
            "start the sawdust extractor",
            [c("set_relay", relay="extractor", on=True)],
        ),
        (P, "compressor off", [c("set_relay", relay="air compressor", on=False)]),
        (P, "fill the water tank", [c("set_relay", relay="well pump", on=True)]),
        (P, "put the do-not-disturb lamp on", [c("set_led", led="busy", mode="on")]),
        (P, "make the parcel lamp blink", [c("set_led", led="parcel", mode="blink")]),
        (P, "floodlight on over the yard", [c("set_light", room="yard", on=True)]),
        (
            P,
            "fade the workbench strip light to 40 percent over 5 seconds",
            [c("set_light", room="joinery bench", brightness=40, transition=5)],
        ),
        (P, "blow heater up to 18", [c("set_thermostat", temperature=18)]),
        (P, "turn the workshop heating off", [c("set_thermostat", mode="off")]),
        (
            P,
            "Dad's office light to warm white",
            [c("set_light", room="Dad's office", color="warm white")],
        ),
        (
            T,
            "turn the extractor off and the workbench light off too",
            [
                c("set_relay", relay="extractor", on=False),
                c("set_light", room="joinery bench", on=False),
            ],
        ),
        (
            T,
            "heating to 16 and start the compressor",
            [
                c("set_thermostat", temperature=16),
                c("set_relay", relay="air compressor", on=True),
            ],
        ),
        (
            T,
            "switch the yard floodlight off, then flash the green parcel lamp",
            [
                c("set_light", room="yard", on=False),
                c("set_led", led="parcel", mode="blink"),
            ],
        ),
        (U, "turn on the lathe", []),
        (I, "workshop heating to 28 degrees", []),
        (N, "don't start the compressor, it's too early", []),
        (M, "put the light on", []),
    ],
    "r_seafront_flat": [
        (P, "ceiling fan on", [c("set_fan", on=True)]),
        (P, "fan to full blast", [c("set_fan", speed="full blast")]),
        (
            P,
            "put the espresso machine on",
            [c("set_switch", device="coffee machine", action="ON")],
        ),
        (
            P,
            "turn off the dehumidifier",
            [c("set_switch", device="damp dryer", action="OFF")],
        ),
        (
            P,
            "toggle the string lights on the bookshelf",
            [c("set_switch", device="shelf lights", action="TOGGLE")],
        ),
        (
            P,
            "close the blind over the sliding door",
            [c("set_blinds", room="balcony door", position=0)],
        ),
        (
            P,
            "open Priya's blinds",
            [c("set_blinds", room="Priya's bedroom", position=100)],
        ),
        (
            P,
            "lounge blind a quarter open",
            [c("set_blinds", room="lounge", position=25)],
        ),
        (P, "balcony wall lamp on", [c("set_light", room="balcony", on=True)]),
        (
            P,
            "galley kitchen lights to mint",
            [c("set_light", room="galley kitchen", color="mint")],
        ),
        (
            P,
            "spare room light at 70 percent",
            [c("set_light", room="spare room", brightness=70)],
        ),
        (
            T,
            "fan down to drift and open the lounge blind",
            [
                c("set_fan", speed="drift"),
                c("set_blinds", room="lounge", position=100),
            ],
        ),
        (
            T,
            "coffee machine on and the galley kitchen light on",
            [
                c("set_switch", device="coffee machine", action="ON"),
                c("set_light", room="galley kitchen", on=True),
            ],
        ),
        (
            T,
            "dehumidifier off, then the spare room light off",
            [
                c("set_switch", device="damp dryer", action="OFF"),
                c("set_light", room="spare room", on=False),
            ],
        ),
        (U, "make the ceiling fan swing side to side", []),
        (I, "spare room light to 120 percent", []),
        (N, "don't switch off the fairy lights", []),
        (O, "order more coffee beans", []),
        (M, "set the blinds to 60", []),
    ],
    "r_old_vicarage": [
        (
            P,
            "switch on the path lanterns",
            [c("outdoor_lights", room="church path", on=True)],
        ),
        (P, "rose arch to pink", [c("outdoor_lights", room="rose arch", color="pink")]),
        (
            P,
            "dim the church path lanterns to 20 percent over 30 seconds",
            [c("outdoor_lights", room="church path", brightness=20, transition=30)],
        ),
        (P, "warm floors to 21 please", [c("underfloor_heating", temperature=21)]),
        (P, "switch off the underfloor heating", [c("underfloor_heating", mode="off")]),
        (P, "start the pond fountain", [c("set_relay", relay="fountain", on=True)]),
        (P, "heated towel rail on", [c("set_relay", relay="rail heater", on=True)]),
        (P, "put the red engaged light on", [c("set_led", led="engaged", mode="on")]),
        (P, "blink the come-in light", [c("set_led", led="come in", mode="blink")]),
        (
            P,
            "Father Tom's snug to candle glow",
            [c("lamps", room="Father Tom's snug", color="candle glow")],
        ),
        (
            P,
            "bedroom 11 lights at 40 percent",
            [c("lamps", room="bedroom 11", brightness=40)],
        ),
        (
            T,
            "turn the engaged light off and the come-in light on",
            [
                c("set_led", led="engaged", mode="off"),
                c("set_led", led="come in", mode="on"),
            ],
        ),
        (
            T,
            "porch lamp on and the parish office lamps off",
            [
                c("outdoor_lights", room="front porch", on=True),
                c("lamps", room="parish office", on=False),
            ],
        ),
        (
            T,
            "stop the fountain, then put the underfloor heating to 19",
            [
                c("set_relay", relay="fountain", on=False),
                c("underfloor_heating", temperature=19),
            ],
        ),
        (U, "turn on the garage light", []),
        (I, "warm floors up to 35", []),
        (N, "don't turn off the greenhouse heater", []),
        (O, "remind me about the parish meeting on Thursday", []),
    ],
}


def rows() -> list[dict[str, Any]]:
    """The cases as `needled eval` reads them (vendor JSONL, tools on each case)."""
    return dev_handwritten.rows(CASES, HOMES)


def main() -> int:
    return dev_handwritten.main(rows, __doc__)


if __name__ == "__main__":
    raise SystemExit(main())
