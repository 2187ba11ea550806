"""Write the fresh development set: `python bench/dev_fresh.py --out FILE.jsonl`.

Six batches of 100 requests to five homes each, written by six separate writers after the
named look, the one-room reading and the tighter grounding had been chosen on the older dev
sets, each told only the device kinds, this file's format and the names it must not use (the
held-out homes'); none saw the model's answers while writing (home keys carry the batch's
letter):
s. a new owner's first day: plain, complete sentences, renamed tools, two tools of one kind;
t. a kitchen speaker, written down as heard: everyday verbs, numbers as words, the setting
   before the room ("forty percent in the snug"), a pronoun inside one request;
u. an integrator's handover checks: terse, one capability each, every value and range end;
v. a household's shared chat: wishes and statements that carry a command ("I want the
   conservatory at 30 percent"), questions that are orders, "plus" and "also";
w. plain commands to homes that are hard to route: one room in two lights tools and the
   blinds, plug and relay names alike, LEDs named like rooms;
x. workplaces in their trade's words: a hall, a brewery, a nursery, a camper van, a pottery.
Their first run (`needled eval --min-confidence 0.5`) measured the rules chosen before them;
later rules were chosen on them too, as on every dev set. Nothing here is ever trained on.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_handwritten  # noqa: E402  (a sibling script, not a package)


def c(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "arguments": args}


P, T = "positive", "two_actions"
U, I, N, O, M = "unsupported", "invalid", "negated", "off_topic", "missing"

HOMES: dict[str, dict[str, Any]] = {
    "s_quarry_farmhouse": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["flagstone kitchen", "Ines's room", "bedroom 4", "tack room", "cider loft"],
            "colors": ["white", "warm white", "heather", "straw yellow", "slate blue"],
        },
        "underfloor": {
            "kind": "simulated_thermostat",
            "min_temperature": 8,
            "max_temperature": 26,
            "tool": "set_underfloor",
            "description": (
                "The underfloor heating under the flagstones: target temperature in degrees "
                "Celsius, or mode."
            ),
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["flagstone kitchen", "Ines's room"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "egg incubator": "incubator",
                "dehydrator": "dehydrator",
                "milk frother": "frother",
            },
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"gate motor": 17, "trough heater": 27, "yard lamp": 22},
        },
    },
    "s_canal_studio": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "window seat": "seat_bulb",
                "sleeping loft": "loft_bulb",
                "shower room": "shower_bulb",
                "entry passage": "passage_bulb",
            },
        },
        "fan": {
            "kind": "simulated_fan",
            "speeds": ["drift", "steady", "gust"],
            "tool": "set_ceiling_fan",
            "description": "The ceiling fan over the sleeping loft: on or off, or a speed.",
        },
        "leds": {"kind": "gpio_leds", "leds": {"post waiting": 20, "rubbish day": 21}},
        "heating": {"kind": "simulated_thermostat", "min_temperature": 16, "max_temperature": 25},
    },
    "s_old_vicarage": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["parlour", "Rowan's room", "bedroom 7", "sewing room", "back stairs"],
            "colors": ["white", "warm white", "saffron", "lilac", "sea green"],
            "tool": "set_house_lights",
            "description": "Lights inside the house: on or off, brightness in percent, colour.",
        },
        "garden": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "lych gate": "gate_bulb",
                "orchard path": "path_bulb",
                "bothy": "bothy_bulb",
            },
            "tool": "set_garden_lights",
            "description": "Outdoor lights at the lych gate, along the orchard path and in the bothy.",  # noqa: E501
        },
        "shutters": {
            "kind": "simulated_blinds",
            "rooms": ["parlour", "sewing room"],
            "tool": "set_shutters",
            "description": (
                "Wooden shutters on the parlour and sewing room windows; 0 is shut, "
                "100 folded fully open."
            ),
        },
        "boiler": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 24,
            "tool": "set_boiler",
            "description": "The old boiler's thermostat: target temperature in degrees Celsius, or mode.",  # noqa: E501
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "chest freezer": "freezer",
                "bread maker": "breadmaker",
                "slow cooker": "cooker",
            },
        },
    },
    "s_boatyard_shed": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["rigging loft", "varnish room", "slipway", "chandlery counter"],
            "colors": ["white", "cool white", "sodium orange", "harbour green"],
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"steam box": 5, "resin heater": 6, "winch": 13},
        },
        "leds": {
            "kind": "gpio_leds",
            "leds": {"glue curing": 20, "tide alarm": 21},
            "tool": "set_wall_leds",
            "description": "Indicator LEDs on the workshop wall: on, off or blink.",
        },
        "fan": {
            "kind": "simulated_fan",
            "speeds": ["trickle", "brisk", "full"],
            "tool": "set_extractor",
            "description": "The varnish room's extractor fan: on or off, or its speed.",
        },
        "dimmers": {
            "kind": "tasmota_dimmer",
            "dimmers": {"bench lamp": "bench_dimmer", "hull lamp": "hull_dimmer"},
        },
    },
    "s_alpine_chalet": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["ski room", "bedroom 9", "Océane's room", "drying room", "fondue corner"],
            "colors": ["white", "warm white", "glacier blue", "ember red", "pine green"],
        },
        "heating": {"kind": "simulated_thermostat", "min_temperature": 12, "max_temperature": 28},
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["bedroom 9", "Océane's room", "picture window"],
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "medium", "high"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "boot dryer": "bootdryer",
                "raclette grill": "raclette",
                "towel warmer": "towels",
            },
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"snow melt mat": 17, "hot water cylinder": 27},
        },
    },
    "t_okafor_house": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["kitchen diner", "Tobi's room", "bedroom 7", "downstairs loo", "den"],
            "colors": ["white", "warm white", "marigold", "sea green", "lilac"],
        },
        "heating": {"kind": "simulated_thermostat", "min_temperature": 14, "max_temperature": 25},
        "blinds": {"kind": "simulated_blinds", "rooms": ["kitchen diner", "Tobi's room"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "slow cooker": "cooker",
                "tumble dryer": "dryer",
                "Nana's heat pad": "pad",
            },
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "medium", "high"]},
    },
    "t_corner_shop": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "shop floor": "floor_bulb",
                "stockroom": "stock_bulb",
                "window display": "window_bulb",
                "bin yard": "yard_bulb",
            },
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "drinks chiller": "chiller",
                "ice lolly freezer": "freezer",
                "lottery terminal": "lotto",
            },
        },
        "leds": {"kind": "gpio_leds", "leds": {"door chime": 20, "shutter warning": 21}},
        "shutter": {
            "kind": "simulated_blinds",
            "rooms": ["shop front"],
            "tool": "roller_shutter",
            "description": (
                "The roller shutter over the shop front: position 0 is fully down, 100 fully up."
            ),
        },
        "relays": {"kind": "gpio_relays", "relays": {"doorway heater": 17, "extractor": 27}},
    },
    "t_tarn_cottage": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "inglenook",
                "bunkhouse",
                "loft bedroom",
                "cellar steps",
                "Granddad Ned's room",
            ],
            "colors": ["white", "warm white", "heather", "ember"],
        },
        "heat": {
            "kind": "simulated_thermostat",
            "min_temperature": 8,
            "max_temperature": 24,
            "tool": "storage_heaters",
            "description": (
                "The cottage's storage heaters: target temperature in degrees Celsius, or a mode."
            ),
        },
        "fan": {
            "kind": "simulated_fan",
            "speeds": ["slow", "middling", "fast"],
            "tool": "beam_fan",
            "description": (
                "The ceiling fan on the old oak beam in the inglenook: on or off, and its speed."
            ),
        },
        "shutters": {
            "kind": "simulated_blinds",
            "rooms": ["loft bedroom", "bunkhouse"],
            "tool": "set_shutters",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "immersion": "immersion",
                "log splitter": "splitter",
                "welly dryer": "welly",
            },
        },
    },
    "t_allotment_yard": {
        "garden": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "potting shed": "shed_bulb",
                "pergola": "pergola_bulb",
                "cider barn": "barn_bulb",
                "veg patch": "veg_bulb",
            },
            "tool": "garden_lights",
            "description": (
                "Outdoor lights in the potting shed, over the pergola, "
                "in the cider barn and along the veg patch."
            ),
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"water butt pump": 17, "propagator": 27, "electric fence": 22},
        },
        "leds": {"kind": "gpio_leds", "leds": {"frost warning": 23, "hen hatch": 24}},
        "vent": {
            "kind": "simulated_fan",
            "speeds": ["low", "high"],
            "tool": "vent_fan",
            "description": "The extractor fan in the glasshouse gable: on or off, low or high.",
        },
        "heater": {
            "kind": "simulated_thermostat",
            "min_temperature": 4,
            "max_temperature": 18,
            "tool": "glasshouse_heater",
            "description": (
                "The electric heater in the glasshouse: "
                "target temperature in degrees Celsius, or a mode."
            ),
        },
    },
    "t_mildmay_flat": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["Priya's room", "Jonas's room", "room 9", "shared kitchen", "stairwell"],
            "colors": ["white", "warm white", "red", "blue", "tangerine"],
        },
        "heating": {"kind": "simulated_thermostat", "min_temperature": 16, "max_temperature": 23},
        "blinds": {"kind": "simulated_blinds", "rooms": ["Priya's room", "shared kitchen"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "washing machine": "washer",
                "wifi router": "router",
                "Jonas's record player": "decks",
            },
        },
    },
    "u_harbour_cafe": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["service counter", "window bar", "courtyard tables", "pastry kitchen"],
            "colors": ["warm white", "cool white", "copper", "sage"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "coffee grinder": "grinder",
                "cake fridge": "cakefridge",
                "milk steamer": "steamer",
                "menu screen": "menu",
            },
        },
        "kitchen_power": {
            "kind": "tasmota",
            "switches": {
                "dough sheeter": "sheeter",
                "proving cabinet": "prover",
                "dishwasher": "dishwasher",
            },
            "tool": "kitchen_power",
            "description": "Sockets in the pastry kitchen: switch an appliance ON, OFF or TOGGLE.",
        },
        "extractor": {
            "kind": "simulated_fan",
            "speeds": ["slow", "steady", "rapid"],
            "tool": "set_extractor",
            "description": "The kitchen extractor fan: on, off or speed.",
        },
        "awning": {
            "kind": "simulated_blinds",
            "rooms": ["street awning"],
            "tool": "set_awning",
            "description": (
                "The retractable awning over the street tables; 0 is rolled in, 100 fully out."
            ),
        },
    },
    "u_dental_surgery": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "treatment room A",
                "treatment room B",
                "waiting area",
                "decon room",
                "front desk",
            ],
            "colors": ["neutral white", "calm blue", "mint"],
        },
        "climate": {
            "kind": "simulated_thermostat",
            "min_temperature": 18,
            "max_temperature": 24,
            "tool": "set_climate",
            "description": (
                "Air conditioning for the surgery: target temperature in degrees Celsius, or mode."
            ),
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["waiting area", "treatment room A", "treatment room B"],
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"suction unit": 17, "autoclave": 27, "water distiller": 22},
        },
        "signals": {
            "kind": "gpio_leds",
            "leds": {"patient ready": 20, "nurse needed": 21, "x-ray active": 26},
            "tool": "set_signal",
            "description": "Corridor signal lamps outside the treatment rooms: on, off or blink.",
        },
        "desk_leds": {
            "kind": "gpio_leds",
            "leds": {"card reader": 5, "phones diverted": 6},
            "tool": "set_desk_led",
            "description": "Status LEDs on the front desk panel: on, off or blink.",
        },
    },
    "u_barn_conversion": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "threshing floor",
                "cart shed bedroom",
                "dairy bathroom",
                "granary bedroom",
                "tack room",
            ],
            "colors": ["white", "warm white", "harvest gold", "dusk blue"],
        },
        "yard": {
            "kind": "simulated_lights",
            "rooms": ["yard", "paddock gate", "log store"],
            "colors": ["white"],
            "tool": "set_yard_lights",
            "description": "Outdoor lights around the barn yard: on, off and brightness.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 26,
            "tool": "set_underfloor",
            "description": (
                "Underfloor heating across the barn: target temperature in degrees Celsius, "
                "or mode."
            ),
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["threshing floor", "granary bedroom"],
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"borehole pump": 17, "log boiler": 27, "electric gate": 22},
        },
        "vent": {
            "kind": "simulated_fan",
            "speeds": ["trickle", "standard", "purge"],
            "tool": "set_ventilation",
            "description": "Heat-recovery ventilation unit: on, off or fan speed.",
        },
    },
    "u_studio_flat": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "sleeping alcove": "alcove_bulb",
                "desk corner": "desk_bulb",
                "shower room": "shower_bulb",
                "kitchen strip": "strip_bulb",
            },
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 16,
            "max_temperature": 26,
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["sash window"]},
        "fan": {"kind": "simulated_fan", "speeds": ["low", "high"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "rice cooker": "rice",
                "panel heater": "panel",
                "desk monitor": "monitor",
            },
        },
    },
    "u_hotel_floor": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["room 201", "room 202", "room 203", "corridor", "linen store"],
            "colors": ["white", "warm white", "champagne", "ruby"],
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 15,
            "max_temperature": 22,
            "tool": "corridor_heating",
            "description": (
                "Heating for the second-floor corridor: target temperature in degrees Celsius, "
                "or mode."
            ),
        },
        "aircon": {
            "kind": "simulated_thermostat",
            "min_temperature": 17,
            "max_temperature": 28,
            "tool": "suite_air_con",
            "description": (
                "Air conditioning in the corner suite: target temperature in degrees Celsius, "
                "or mode."
            ),
        },
        "curtains": {
            "kind": "simulated_blinds",
            "rooms": ["room 201", "room 202", "room 203"],
            "tool": "set_curtains",
            "description": "Motorised curtains by room; position 0 is closed, 100 fully open.",
        },
        "leds": {
            "kind": "gpio_leds",
            "leds": {"do not disturb": 20, "make up room": 21, "lift fault": 22},
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "ice machine": "ice",
                "trouser press": "press",
                "shoe buffer": "buffer",
            },
        },
    },
    "v_terraced_family": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "front room",
                "Imogen's room",
                "Theo and Kit's room",
                "bedroom 4",
                "back kitchen",
                "stairwell",
            ],
            "colors": ["white", "warm white", "marigold", "duck egg", "cherry"],
        },
        "heating": {"kind": "simulated_thermostat", "min_temperature": 14, "max_temperature": 25},
        "blinds": {"kind": "simulated_blinds", "rooms": ["front room", "Imogen's room"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "tumble dryer": "dryer",
                "slow cooker": "cooker",
                "fish tank filter": "tankfilter",
            },
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "medium", "high"]},
    },
    "v_farmhouse": {
        "house": {
            "kind": "simulated_lights",
            "rooms": ["farm kitchen", "parlour", "Grandad Ned's room", "back stairs", "gun room"],
            "colors": ["white", "warm white", "harvest gold", "heather"],
            "tool": "house_lights",
            "description": "Lights inside the farmhouse: on or off, brightness in percent, colour.",
        },
        "yard": {
            "kind": "simulated_lights",
            "rooms": ["milking shed", "lambing pens", "tack room", "cart shed", "yard"],
            "colors": ["white", "warm white"],
            "tool": "yard_lights",
            "description": "Outbuilding and yard lights: on or off, brightness, colour.",
        },
        "boiler": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 24,
            "tool": "set_boiler",
            "description": "The farmhouse oil boiler: target temperature (Celsius) or mode.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {
                "borehole pump": 17,
                "trough heater": 27,
                "egg incubator": 22,
                "electric fence": 23,
            },
        },
        "leds": {"kind": "gpio_leds", "leds": {"frost warning": 5, "hen house door": 6}},
    },
    "v_city_flat": {
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "living space": "living_bulb",
                "sleeping loft": "loft_bulb",
                "balcony": "balcony_bulb",
                "walk-in wardrobe": "wardrobe_bulb",
                "bathroom": "bath_bulb",
            },
        },
        "shades": {
            "kind": "simulated_blinds",
            "rooms": ["living space", "sleeping loft"],
            "tool": "set_shades",
        },
        "awning": {
            "kind": "simulated_blinds",
            "rooms": ["balcony awning"],
            "tool": "set_awning",
            "description": "The balcony's retractable awning; 0 is rolled in, 100 fully out.",
        },
        "aircon": {
            "kind": "simulated_thermostat",
            "min_temperature": 16,
            "max_temperature": 30,
            "tool": "set_aircon",
            "description": (
                "The split air conditioner: target temperature in degrees Celsius, "
                "or mode (heat, cool, auto or off)."
            ),
        },
        "fan": {
            "kind": "simulated_fan",
            "speeds": ["low", "medium", "high", "night"],
            "tool": "ceiling_fan",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "balcony heater": "patio_heater",
                "record player": "turntable",
                "robot hoover dock": "hoover",
                "coffee machine": "coffee",
            },
        },
    },
    "v_bungalow": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "sitting room",
                "Harold's den",
                "Jean's sewing room",
                "main bedroom",
                "side door",
                "spare bedroom",
            ],
            "colors": ["white", "warm white", "soft peach", "lilac"],
        },
        "heating": {"kind": "simulated_thermostat", "min_temperature": 16, "max_temperature": 26},
        "curtains": {
            "kind": "simulated_blinds",
            "rooms": ["sitting room", "main bedroom"],
            "tool": "set_curtains",
            "description": "Open or close the motorised curtains; 0 is closed, 100 fully open.",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "riser recliner": "recliner",
                "wireless": "radio",
                "foot warmer": "footwarmer",
                "bird bath heater": "birdbath",
            },
        },
        "leds": {
            "kind": "gpio_leds",
            "leds": {"pill reminder": 20, "carer visit": 21},
            "tool": "panel_lights",
            "description": "Reminder lights on the kitchen panel: on, off or blink.",
        },
    },
    "v_student_house": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "Priya's room",
                "Tomasz's room",
                "Callum's room",
                "Ife's room",
                "shared kitchen",
                "front lounge",
            ],
            "colors": ["white", "red", "neon green", "hot pink", "electric blue"],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "PS5": "ps5",
                "toastie maker": "toastie",
                "projector": "projector",
                "hair straighteners": "straighteners",
            },
        },
        "kitchen": {
            "kind": "tasmota",
            "switches": {
                "air fryer": "airfryer",
                "washing machine": "washer",
                "microwave": "microwave",
            },
            "tool": "kitchen_sockets",
            "description": "Sockets in the shared kitchen: switch an appliance ON, OFF or TOGGLE.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 22,
            "tool": "set_heating",
            "description": (
                "The house's central heating, capped at 22 degrees by the landlord: "
                "target temperature in degrees Celsius, or mode."
            ),
        },
        "fan": {"kind": "simulated_fan", "speeds": ["low", "mid", "full"]},
    },
    "w_quarry_farmhouse": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["farm kitchen", "bedroom 4", "bedroom 5", "cheese room", "back stairs"],
            "colors": ["white", "warm white", "heather", "slate blue"],
        },
        "strips": {
            "kind": "zigbee2mqtt_lights",
            "devices": {"farm kitchen": "kitchen_strip", "back stairs": "stair_strip"},
            "tool": "set_strip_light",
            "description": "LED strip lights under the kitchen cupboards and along the back stairs.",  # noqa: E501
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["farm kitchen", "bedroom 4"]},
        "heating": {"kind": "simulated_thermostat", "min_temperature": 8, "max_temperature": 24},
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "incubator": "incubator_plug",
                "radio": "radio_plug",
                "bottle steriliser": "steriliser_plug",
            },
        },
        "relays": {"kind": "gpio_relays", "relays": {"incubator heater": 5, "trough pump": 6}},
    },
    "w_harbour_terrace": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["kitchen", "office 2", "office 3", "front parlour", "Iris's room"],
            "colors": ["white", "warm white", "sea green", "driftwood", "lilac"],
        },
        "underfloor": {
            "kind": "simulated_thermostat",
            "min_temperature": 16,
            "max_temperature": 29,
            "tool": "set_underfloor",
            "description": (
                "Underfloor heating in the kitchen and bathroom: target temperature in degrees "
                "Celsius, or mode."
            ),
        },
        "radiators": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 24,
            "tool": "set_upstairs_heating",
            "description": "The radiators upstairs: target temperature in degrees Celsius, or mode.",  # noqa: E501
        },
        "shutters": {
            "kind": "simulated_blinds",
            "rooms": ["office 2", "front parlour", "Iris's room"],
            "tool": "set_shutters",
            "description": "Wooden shutters; position 0 is closed, 100 fully open.",
        },
        "leds": {
            "kind": "gpio_leds",
            "leds": {"kitchen": 20, "office 2": 21, "office 3": 22},
            "tool": "set_door_led",
            "description": (
                "The little LEDs above each door that show a room is busy: on, off or blink."
            ),
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "coffee grinder": "grinder",
                "fish tank": "tank",
                "label printer": "labels",
            },
        },
    },
    "w_canal_lockhouse": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["lock office", "boathouse", "lantern room", "bedroom 7", "bedroom 8"],
            "colors": ["white", "cool white", "canal green", "lamp orange"],
        },
        "ceiling_fan": {
            "kind": "simulated_fan",
            "speeds": ["slow", "steady", "fast"],
            "tool": "set_ceiling_fan",
            "description": "The ceiling fan in the lantern room: on or off, or its speed.",
        },
        "desk_fan": {
            "kind": "simulated_fan",
            "speeds": ["low", "mid", "max"],
            "tool": "set_desk_fan",
            "description": "The little desk fan in the lock office: on or off, or its speed.",
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["lantern room", "bedroom 7", "bedroom 8"],
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"lock gate motor": 5, "sluice pump": 6, "boathouse heater": 13},
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "boathouse radio": "radio",
                "sluice lamp": "lamp",
                "bread maker": "bread",
            },
        },
        "heating": {"kind": "simulated_thermostat", "min_temperature": 5, "max_temperature": 22},
    },
    "w_chapel_conversion": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["nave", "vestry", "choir loft", "bedroom 9", "Tobias's room"],
            "colors": ["white", "warm white", "crimson", "gold", "indigo"],
        },
        "spots": {
            "kind": "zigbee2mqtt_lights",
            "devices": {"nave": "nave_spots", "bell tower": "tower_bulb", "lychgate": "gate_bulb"},
            "tool": "set_spotlight",
            "description": "Spotlights on the nave beams, up the bell tower and over the lychgate.",
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["nave", "vestry"]},
        "heating": {"kind": "simulated_thermostat", "min_temperature": 12, "max_temperature": 26},
        "fan": {"kind": "simulated_fan", "speeds": ["hush", "airy", "blustery"]},
        "plugs": {
            "kind": "tasmota",
            "switches": {"organ": "organ_plug", "tea urn": "urn_plug", "projector": "proj_plug"},
        },
        "relays": {"kind": "gpio_relays", "relays": {"organ blower": 5, "tea urn boiler": 6}},
        "leds": {
            "kind": "gpio_leds",
            "leds": {"vestry": 20, "bell tower": 21},
            "description": (
                "Status LEDs on the control board by the door, named for the area they watch: "
                "on, off or blink."
            ),
        },
    },
    "w_lighthouse_keepers": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["lamp room", "keeper's kitchen", "office 2", "office 4", "watch room"],
            "colors": ["white", "warm white", "beacon red", "sea blue"],
        },
        "dimmers": {
            "kind": "tasmota_dimmer",
            "dimmers": {"watch room": "watch_dimmer", "spiral stair": "stair_dimmer"},
            "description": "Dimmable wall lamps in the watch room and up the spiral stair.",
        },
        "shutters": {
            "kind": "simulated_blinds",
            "rooms": ["watch room", "office 2", "office 4"],
            "tool": "set_storm_shutters",
            "description": "Storm shutters; position 0 is closed, 100 fully open.",
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 10,
            "max_temperature": 25,
            "tool": "set_heating",
            "description": "The cottage heating: target temperature in degrees Celsius, or mode.",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "chart lamp": "chart",
                "soup maker": "soup",
                "barometer clock": "clock",
            },
        },
        "relays": {"kind": "gpio_relays", "relays": {"foghorn": 5, "lantern motor": 6}},
        "leds": {
            "kind": "gpio_leds",
            "leds": {"lamp room": 20, "foghorn": 21},
            "tool": "set_panel_led",
            "description": "Indicator LEDs on the keeper's panel: on, off or blink.",
        },
    },
    "x_st_aldhelm_hall": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["main hall", "stage", "foyer", "committee room", "green room"],
            "colors": ["white", "warm white", "blue", "magenta", "gold"],
            "tool": "hall_lights",
            "description": (
                "Ceiling lights in each part of the hall: on or off, brightness in percent, colour."
            ),
        },
        "dimmers": {
            "kind": "tasmota_dimmer",
            "dimmers": {
                "footlights": "foot_dim",
                "follow spot": "spot_dim",
                "house lights": "house_dim",
            },
            "tool": "stage_dimmers",
            "description": (
                "Theatre dimmer channels: footlights, follow spot and the house lights over the "
                "audience; on or off, or a level in percent."
            ),
        },
        "heating": {
            "kind": "simulated_thermostat",
            "min_temperature": 8,
            "max_temperature": 24,
            "tool": "hall_heating",
            "description": "Hall radiators and blower heaters: target temperature in °C, or mode.",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {"tea urn": "urn", "PA amp": "pa_amp", "projector": "projector"},
        },
        "signs": {
            "kind": "gpio_leds",
            "leds": {"hearing loop": 20, "doors open": 21},
            "tool": "foyer_signs",
            "description": "Illuminated signs in the foyer: hearing loop and doors open; on, off or blink.",  # noqa: E501
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["main hall", "committee room"],
            "tool": "blackout_blinds",
            "description": "Blackout blinds; position 0 is closed, 100 fully open.",
        },
    },
    "x_tidewater_brewing": {
        "relays": {
            "kind": "gpio_relays",
            "relays": {
                "mash tun heater": 17,
                "HLT element": 27,
                "wort pump": 22,
                "glycol chiller": 23,
            },
            "tool": "brewhouse",
            "description": (
                "Brewhouse relays: mash tun heater, hot liquor tank (HLT) element, wort pump and "
                "glycol chiller; on or off."
            ),
        },
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "brewhouse floor": "bh_bulb",
                "taproom": "tap_bulb",
                "barrel store": "barrel_bulb",
                "loading dock": "dock_bulb",
            },
        },
        "cold": {
            "kind": "simulated_thermostat",
            "min_temperature": 1,
            "max_temperature": 12,
            "tool": "cold_room",
            "description": "The cold room's cooling controller: target in degrees Celsius, or mode.",  # noqa: E501
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "keg washer": "kegwash",
                "capping machine": "capper",
                "taproom jukebox": "jukebox",
            },
        },
        "leds": {"kind": "gpio_leds", "leds": {"mash in": 20, "CIP running": 21}},
        "fan": {
            "kind": "simulated_fan",
            "speeds": ["low", "high", "purge"],
            "tool": "steam_extractor",
            "description": "The extractor hood over the kettle: on or off, or its speed.",
        },
    },
    "x_fernhollow_nursery": {
        "vents": {
            "kind": "simulated_blinds",
            "rooms": ["bay 1", "bay 2", "bay 3", "propagation house"],
            "tool": "roof_vents",
            "description": (
                "Motorised roof vents in each glasshouse bay; position 0 is shut, 100 fully open."
            ),
        },
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["bay 1", "bay 2", "bay 3", "potting shed", "sales yard"],
            "colors": ["white", "grow pink", "deep red", "far red"],
            "tool": "bay_lights",
            "description": (
                "Supplementary lights in each bay, the potting shed and the sales yard: on or "
                "off, brightness in percent, colour."
            ),
        },
        "water": {
            "kind": "gpio_relays",
            "relays": {"mist line": 5, "drip line": 6, "boom irrigator": 13, "heat mat bench": 19},
            "tool": "watering",
            "description": (
                "Watering and bench heating relays: mist line, drip line, boom irrigator and the "
                "heated mat bench; on or off."
            ),
        },
        "heat": {
            "kind": "simulated_thermostat",
            "min_temperature": 4,
            "max_temperature": 28,
            "tool": "glasshouse_heating",
            "description": "The glasshouse boiler: target temperature in degrees Celsius, or mode.",
        },
        "fans": {
            "kind": "simulated_fan",
            "speeds": ["low", "medium", "high"],
            "tool": "haf_fans",
            "description": "Horizontal airflow (HAF) fans along the glasshouse: on or off, speed.",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "soil steriliser": "steriliser",
                "tray washer": "traywash",
                "till": "till",
            },
        },
    },
    "x_kestrel_van": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["cab", "bunk", "worktop", "tailgate"],
            "colors": ["white", "warm white", "red"],
        },
        "heater": {
            "kind": "simulated_thermostat",
            "min_temperature": 8,
            "max_temperature": 26,
            "tool": "diesel_heater",
            "description": "The diesel night heater: target cabin temperature in °C, or mode.",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"hot water boiler": 17, "shower pump": 27, "USB sockets": 22},
            "tool": "van_relays",
            "description": "12 volt circuits on relays: hot water boiler, shower pump, USB sockets.",  # noqa: E501
        },
        "fan": {
            "kind": "simulated_fan",
            "speeds": ["low", "medium", "high", "extract"],
            "tool": "roof_fan",
            "description": "The roof vent fan over the bunk: on or off, or its speed.",
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["skylight", "sliding door"]},
        "leds": {"kind": "gpio_leds", "leds": {"battery low": 20, "grey tank": 21}},
    },
    "x_saltmarsh_pottery": {
        "relays": {
            "kind": "gpio_relays",
            "relays": {
                "kiln vent": 5,
                "test kiln": 6,
                "pugmill": 13,
                "glaze booth extractor": 19,
            },
            "tool": "kiln_room",
            "description": (
                "Relays in the kiln room and glaze area: kiln vent, test kiln, pugmill and the "
                "glaze booth extractor; on or off."
            ),
        },
        "lights": {
            "kind": "zigbee2mqtt_lights",
            "devices": {
                "throwing room": "throw_bulb",
                "glaze room": "glaze_bulb",
                "shop counter": "shop_bulb",
                "drying racks": "racks_bulb",
            },
            "tool": "workshop_lights",
            "description": "Lights over the wheels, the glaze room, the shop counter and the drying racks.",  # noqa: E501
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {"potter's wheel": "wheel", "wax pot": "wax", "clay mixer": "mixer"},
        },
        "signs": {
            "kind": "gpio_leds",
            "leds": {"kiln firing": 20, "class in session": 21},
            "tool": "door_signs",
            "description": (
                "Lit signs on the workshop door: kiln firing and class in session; on, off or blink."  # noqa: E501
            ),
        },
        "cupboard": {
            "kind": "simulated_thermostat",
            "min_temperature": 15,
            "max_temperature": 40,
            "tool": "drying_cupboard",
            "description": "The heated drying cupboard for greenware: target in °C, or mode.",
        },
    },
}

CASES: dict[str, list[tuple[str, str, list[dict[str, Any]]]]] = {
    "s_quarry_farmhouse": [
        (
            P,
            "Please turn on the light in the tack room.",
            [c("set_light", room="tack room", on=True)],
        ),
        (
            P,
            "Set the cider loft light to 35 percent.",
            [c("set_light", room="cider loft", brightness=35)],
        ),
        (
            P,
            "Make the light in Ines's room slate blue.",
            [c("set_light", room="Ines's room", color="slate blue")],
        ),
        (
            P,
            "Change the flagstone kitchen light to straw yellow.",
            [c("set_light", room="flagstone kitchen", color="straw yellow")],
        ),
        (P, "Set the underfloor heating to 22 degrees.", [c("set_underfloor", temperature=22)]),
        (P, "Put the underfloor heating into auto mode.", [c("set_underfloor", mode="auto")]),
        (P, "Close the blinds in Ines's room.", [c("set_blinds", room="Ines's room", position=0)]),
        (
            P,
            "Open the flagstone kitchen blinds halfway.",
            [c("set_blinds", room="flagstone kitchen", position=50)],
        ),
        (P, "Turn on the egg incubator.", [c("set_switch", device="egg incubator", action="ON")]),
        (P, "Toggle the milk frother.", [c("set_switch", device="milk frother", action="TOGGLE")]),
        (P, "Switch on the trough heater.", [c("set_relay", relay="trough heater", on=True)]),
        (P, "Turn off the yard lamp.", [c("set_relay", relay="yard lamp", on=False)]),
        (
            T,
            "Turn off the light in bedroom 4 and close the blinds in the flagstone kitchen.",
            [
                c("set_light", room="bedroom 4", on=False),
                c("set_blinds", room="flagstone kitchen", position=0),
            ],
        ),
        (
            T,
            "Switch on the gate motor, then turn on the yard lamp.",
            [
                c("set_relay", relay="gate motor", on=True),
                c("set_relay", relay="yard lamp", on=True),
            ],
        ),
        (
            T,
            "Set the underfloor heating to 19 degrees and switch off the dehydrator.",
            [
                c("set_underfloor", temperature=19),
                c("set_switch", device="dehydrator", action="OFF"),
            ],
        ),
        (U, "Turn on the light in the dairy.", []),
        (I, "Set the underfloor heating to 40 degrees.", []),
        (N, "Please do not switch off the egg incubator.", []),
        (O, "How long does it take for eggs to hatch in an incubator?", []),
        (M, "Please switch on the plug.", []),
    ],
    "s_canal_studio": [
        (
            P,
            "Turn on the light above the window seat.",
            [c("set_light", room="window seat", on=True)],
        ),
        (
            P,
            "Set the sleeping loft light to 20 percent brightness.",
            [c("set_light", room="sleeping loft", brightness=20)],
        ),
        (
            P,
            "Change the shower room light to green.",
            [c("set_light", room="shower room", color="green")],
        ),
        (P, "Turn off the entry passage light.", [c("set_light", room="entry passage", on=False)]),
        (
            P,
            "Fade the window seat light to 60 percent over 5 seconds.",
            [c("set_light", room="window seat", brightness=60, transition=5)],
        ),
        (P, "Turn on the ceiling fan.", [c("set_ceiling_fan", on=True)]),
        (P, "Set the ceiling fan to gust.", [c("set_ceiling_fan", speed="gust")]),
        (P, "Turn the ceiling fan off.", [c("set_ceiling_fan", on=False)]),
        (P, "Make the post waiting LED blink.", [c("set_led", led="post waiting", mode="blink")]),
        (P, "Turn off the rubbish day LED.", [c("set_led", led="rubbish day", mode="off")]),
        (P, "Set the thermostat to 20.5 degrees.", [c("set_thermostat", temperature=20.5)]),
        (P, "Switch the thermostat to cool mode.", [c("set_thermostat", mode="cool")]),
        (
            T,
            "Turn on the ceiling fan at steady and switch off the sleeping loft light.",
            [
                c("set_ceiling_fan", on=True, speed="steady"),
                c("set_light", room="sleeping loft", on=False),
            ],
        ),
        (
            T,
            "Switch on the rubbish day LED and turn the entry passage light purple.",
            [
                c("set_led", led="rubbish day", mode="on"),
                c("set_light", room="entry passage", color="purple"),
            ],
        ),
        (
            T,
            "Set the thermostat to 18 degrees, then dim the window seat light to 10 percent.",
            [
                c("set_thermostat", temperature=18),
                c("set_light", room="window seat", brightness=10),
            ],
        ),
        (U, "Set the ceiling fan to tempest.", []),
        (I, "Set the sleeping loft light to 120 percent.", []),
        (N, "Don't turn the ceiling fan on yet.", []),
        (O, "What time does the post usually arrive on a Saturday?", []),
        (M, "Set the light to 50 percent.", []),
    ],
    "s_old_vicarage": [
        (P, "Turn on the parlour light.", [c("set_house_lights", room="parlour", on=True)]),
        (
            P,
            "Switch on the light at the lych gate.",
            [c("set_garden_lights", room="lych gate", on=True)],
        ),
        (
            P,
            "Set the orchard path light to 30 percent.",
            [c("set_garden_lights", room="orchard path", brightness=30)],
        ),
        (
            P,
            "Make the light in Rowan's room lilac.",
            [c("set_house_lights", room="Rowan's room", color="lilac")],
        ),
        (P, "Turn off the bothy light.", [c("set_garden_lights", room="bothy", on=False)]),
        (
            P,
            "Dim the back stairs light to 15 percent.",
            [c("set_house_lights", room="back stairs", brightness=15)],
        ),
        (
            P,
            "Change the sewing room light to saffron.",
            [c("set_house_lights", room="sewing room", color="saffron")],
        ),
        (P, "Open the parlour shutters fully.", [c("set_shutters", room="parlour", position=100)]),
        (
            P,
            "Set the sewing room shutters to 25 percent.",
            [c("set_shutters", room="sewing room", position=25)],
        ),
        (P, "Set the boiler to 21 degrees.", [c("set_boiler", temperature=21)]),
        (P, "Turn on the bread maker.", [c("set_switch", device="bread maker", action="ON")]),
        (P, "Switch off the slow cooker.", [c("set_switch", device="slow cooker", action="OFF")]),
        (
            T,
            "Close the parlour shutters and turn on the parlour light.",
            [
                c("set_shutters", room="parlour", position=0),
                c("set_house_lights", room="parlour", on=True),
            ],
        ),
        (
            T,
            "Turn on the orchard path light and the light in bedroom 7.",
            [
                c("set_garden_lights", room="orchard path", on=True),
                c("set_house_lights", room="bedroom 7", on=True),
            ],
        ),
        (
            T,
            "Turn the boiler off and switch off the bothy light.",
            [c("set_boiler", mode="off"), c("set_garden_lights", room="bothy", on=False)],
        ),
        (U, "Make the parlour light turquoise.", []),
        (I, "Set the boiler to 30 degrees.", []),
        (N, "Please don't switch off the chest freezer.", []),
        (O, "Who planted the apple trees along the orchard path?", []),
        (M, "Please turn on the garden light.", []),
    ],
    "s_boatyard_shed": [
        (P, "Turn on the rigging loft light.", [c("set_light", room="rigging loft", on=True)]),
        (
            P,
            "Set the slipway light to sodium orange.",
            [c("set_light", room="slipway", color="sodium orange")],
        ),
        (
            P,
            "Dim the chandlery counter light to 45 percent.",
            [c("set_light", room="chandlery counter", brightness=45)],
        ),
        (P, "Turn off the varnish room light.", [c("set_light", room="varnish room", on=False)]),
        (P, "Switch on the steam box.", [c("set_relay", relay="steam box", on=True)]),
        (P, "Turn off the winch.", [c("set_relay", relay="winch", on=False)]),
        (P, "Make the tide alarm LED blink.", [c("set_wall_leds", led="tide alarm", mode="blink")]),
        (P, "Turn on the glue curing LED.", [c("set_wall_leds", led="glue curing", mode="on")]),
        (P, "Start the extractor fan on brisk.", [c("set_extractor", on=True, speed="brisk")]),
        (P, "Turn the extractor fan off.", [c("set_extractor", on=False)]),
        (
            P,
            "Set the bench lamp to 70 percent.",
            [c("set_dimmer", device="bench lamp", brightness=70)],
        ),
        (P, "Switch off the hull lamp.", [c("set_dimmer", device="hull lamp", on=False)]),
        (
            T,
            "Turn on the resin heater and set the extractor fan to full.",
            [c("set_relay", relay="resin heater", on=True), c("set_extractor", speed="full")],
        ),
        (
            T,
            "Switch on the hull lamp, then turn off the slipway light.",
            [
                c("set_dimmer", device="hull lamp", on=True),
                c("set_light", room="slipway", on=False),
            ],
        ),
        (
            T,
            "Turn off the glue curing LED and switch off the steam box.",
            [
                c("set_wall_leds", led="glue curing", mode="off"),
                c("set_relay", relay="steam box", on=False),
            ],
        ),
        (U, "Turn on the planer.", []),
        (I, "Set the bench lamp to 250 percent.", []),
        (N, "Do not start the winch while I am under the hull.", []),
        (O, "How many coats of varnish does a mahogany deck need?", []),
        (M, "Turn on the lamp.", []),
    ],
    "s_alpine_chalet": [
        (P, "Turn on the light in Océane's room.", [c("set_light", room="Océane's room", on=True)]),
        (
            P,
            "Set the fondue corner light to ember red.",
            [c("set_light", room="fondue corner", color="ember red")],
        ),
        (
            P,
            "Dim the light in bedroom 9 to 25 percent.",
            [c("set_light", room="bedroom 9", brightness=25)],
        ),
        (P, "Turn off the ski room light.", [c("set_light", room="ski room", on=False)]),
        (P, "Set the thermostat to 23 degrees.", [c("set_thermostat", temperature=23)]),
        (P, "Switch the thermostat to heat mode.", [c("set_thermostat", mode="heat")]),
        (
            P,
            "Close the picture window blinds.",
            [c("set_blinds", room="picture window", position=0)],
        ),
        (
            P,
            "Open the blinds in bedroom 9 to 75 percent.",
            [c("set_blinds", room="bedroom 9", position=75)],
        ),
        (P, "Set the fan to medium.", [c("set_fan", speed="medium")]),
        (P, "Turn on the boot dryer.", [c("set_switch", device="boot dryer", action="ON")]),
        (P, "Switch on the snow melt mat.", [c("set_relay", relay="snow melt mat", on=True)]),
        (
            P,
            "Turn off the hot water cylinder.",
            [c("set_relay", relay="hot water cylinder", on=False)],
        ),
        (
            T,
            "Turn on the drying room light and switch on the boot dryer.",
            [
                c("set_light", room="drying room", on=True),
                c("set_switch", device="boot dryer", action="ON"),
            ],
        ),
        (
            T,
            "Open the blinds in Océane's room halfway and set the ski room light to glacier blue.",
            [
                c("set_blinds", room="Océane's room", position=50),
                c("set_light", room="ski room", color="glacier blue"),
            ],
        ),
        (
            T,
            "Turn off the raclette grill and turn off the fan.",
            [c("set_switch", device="raclette grill", action="OFF"), c("set_fan", on=False)],
        ),
        (U, "Turn on the fireplace.", []),
        (I, "Set the thermostat to 3 degrees.", []),
        (N, "Don't close the picture window blinds tonight.", []),
        (O, "Which piste is best to ski down from the chalet tomorrow morning?", []),
        (M, "Set the blinds to 30 percent.", []),
    ],
    "t_okafor_house": [
        (P, "get the kitchen diner light on", [c("set_light", room="kitchen diner", on=True)]),
        (P, "can I have thirty percent in the den", [c("set_light", room="den", brightness=30)]),
        (P, "Tobi's room light, off", [c("set_light", room="Tobi's room", on=False)]),
        (P, "let's have lilac in bedroom seven", [c("set_light", room="bedroom 7", color="lilac")]),
        (
            P,
            "the downstairs loo light down to ten percent",
            [c("set_light", room="downstairs loo", brightness=10)],
        ),
        (
            P,
            "could we get the heating up to twenty one degrees",
            [c("set_thermostat", temperature=21)],
        ),
        (P, "pop the heating on auto", [c("set_thermostat", mode="auto")]),
        (P, "open the kitchen diner blinds", [c("set_blinds", room="kitchen diner", position=100)]),
        (P, "Tobi's blinds halfway please", [c("set_blinds", room="Tobi's room", position=50)]),
        (P, "switch the slow cooker on", [c("set_switch", device="slow cooker", action="ON")]),
        (
            P,
            "the tumble dryer, turn it off",
            [c("set_switch", device="tumble dryer", action="OFF")],
        ),
        (P, "can I have the fan on medium", [c("set_fan", speed="medium")]),
        (
            T,
            "open Tobi's blinds and put his light on",
            [
                c("set_blinds", room="Tobi's room", position=100),
                c("set_light", room="Tobi's room", on=True),
            ],
        ),
        (
            T,
            "Nana's heat pad on and the heating to twenty two",
            [
                c("set_switch", device="Nana's heat pad", action="ON"),
                c("set_thermostat", temperature=22),
            ],
        ),
        (
            T,
            "turn the fan off then let's have marigold in the den",
            [c("set_fan", on=False), c("set_light", room="den", color="marigold")],
        ),
        (U, "get the utility room light on", []),
        (I, "heating up to thirty degrees", []),
        (N, "don't switch the tumble dryer off yet, it's still damp", []),
        (O, "what's for tea in the kitchen diner tonight", []),
        (M, "let's have the blinds at fifty percent", []),
    ],
    "t_corner_shop": [
        (P, "get the shop floor lights on", [c("set_light", room="shop floor", on=True)]),
        (
            P,
            "could we have the window display in blue",
            [c("set_light", room="window display", color="blue")],
        ),
        (P, "stockroom light, off", [c("set_light", room="stockroom", on=False)]),
        (P, "eighty percent on the shop floor", [c("set_light", room="shop floor", brightness=80)]),
        (P, "pull the shutter up", [c("roller_shutter", room="shop front", position=100)]),
        (
            P,
            "bring the shutter halfway down",
            [c("roller_shutter", room="shop front", position=50)],
        ),
        (P, "turn the drinks chiller on", [c("set_switch", device="drinks chiller", action="ON")]),
        (
            P,
            "the lottery terminal, switch it off",
            [c("set_switch", device="lottery terminal", action="OFF")],
        ),
        (
            P,
            "flick the ice lolly freezer on",
            [c("set_switch", device="ice lolly freezer", action="ON")],
        ),
        (P, "make the door chime light blink", [c("set_led", led="door chime", mode="blink")]),
        (P, "doorway heater on please", [c("set_relay", relay="doorway heater", on=True)]),
        (P, "can I have the extractor off", [c("set_relay", relay="extractor", on=False)]),
        (
            T,
            "shutter down and the shutter warning light off",
            [
                c("roller_shutter", room="shop front", position=0),
                c("set_led", led="shutter warning", mode="off"),
            ],
        ),
        (
            T,
            "switch on the bin yard light and the extractor",
            [c("set_light", room="bin yard", on=True), c("set_relay", relay="extractor", on=True)],
        ),
        (
            T,
            "turn off the doorway heater then get the stockroom light to fifty percent",
            [
                c("set_relay", relay="doorway heater", on=False),
                c("set_light", room="stockroom", brightness=50),
            ],
        ),
        (U, "switch the slush machine on", []),
        (I, "shutter up to a hundred and twenty percent", []),
        (N, "leave the drinks chiller alone, don't turn it off", []),
        (O, "how many scratchcards did we sell today", []),
        (M, "get the light off", []),
    ],
    "t_tarn_cottage": [
        (P, "get the inglenook light on", [c("set_light", room="inglenook", on=True)]),
        (P, "let's have ember in the inglenook", [c("set_light", room="inglenook", color="ember")]),
        (P, "the cellar steps light, off", [c("set_light", room="cellar steps", on=False)]),
        (
            P,
            "can I have forty percent in Granddad Ned's room",
            [c("set_light", room="Granddad Ned's room", brightness=40)],
        ),
        (P, "bunkhouse light to heather", [c("set_light", room="bunkhouse", color="heather")]),
        (
            P,
            "could we set the storage heaters to eighteen",
            [c("storage_heaters", temperature=18)],
        ),
        (P, "switch the storage heaters off", [c("storage_heaters", mode="off")]),
        (P, "get the fan going on slow", [c("beam_fan", on=True, speed="slow")]),
        (P, "put the fan up to fast", [c("beam_fan", speed="fast")]),
        (
            P,
            "close the loft bedroom shutters",
            [c("set_shutters", room="loft bedroom", position=0)],
        ),
        (
            P,
            "open the shutters in the bunkhouse",
            [c("set_shutters", room="bunkhouse", position=100)],
        ),
        (P, "the immersion, on", [c("set_switch", device="immersion", action="ON")]),
        (
            T,
            "open the loft bedroom shutters halfway and put its light on",
            [
                c("set_shutters", room="loft bedroom", position=50),
                c("set_light", room="loft bedroom", on=True),
            ],
        ),
        (
            T,
            "log splitter off and the fan off",
            [c("set_switch", device="log splitter", action="OFF"), c("beam_fan", on=False)],
        ),
        (
            T,
            "toggle the welly dryer and get the heaters to twenty",
            [
                c("set_switch", device="welly dryer", action="TOGGLE"),
                c("storage_heaters", temperature=20),
            ],
        ),
        (U, "make the inglenook green", []),
        (I, "storage heaters down to two degrees", []),
        (N, "don't put the immersion on, we've got plenty of hot water", []),
        (O, "is there any firewood left by the inglenook", []),
        (M, "could we have the shutters closed", []),
    ],
    "t_allotment_yard": [
        (P, "get the potting shed light on", [c("garden_lights", room="potting shed", on=True)]),
        (
            P,
            "pergola lights, warm white",
            [c("garden_lights", room="pergola", color="warm white")],
        ),
        (P, "the veg patch lights off", [c("garden_lights", room="veg patch", on=False)]),
        (
            P,
            "twenty five percent in the cider barn",
            [c("garden_lights", room="cider barn", brightness=25)],
        ),
        (P, "start the water butt pump", [c("set_relay", relay="water butt pump", on=True)]),
        (P, "the electric fence, off", [c("set_relay", relay="electric fence", on=False)]),
        (P, "can we have the propagator on", [c("set_relay", relay="propagator", on=True)]),
        (P, "flash the frost warning", [c("set_led", led="frost warning", mode="blink")]),
        (P, "hen hatch light off", [c("set_led", led="hen hatch", mode="off")]),
        (P, "get the vent fan going on high", [c("vent_fan", on=True, speed="high")]),
        (P, "turn the vent fan down to low", [c("vent_fan", speed="low")]),
        (
            P,
            "heater in the glasshouse to eight degrees",
            [c("glasshouse_heater", temperature=8)],
        ),
        (
            T,
            "light the pergola and turn the electric fence on",
            [
                c("garden_lights", room="pergola", on=True),
                c("set_relay", relay="electric fence", on=True),
            ],
        ),
        (
            T,
            "vent fan off and the glasshouse heater on auto",
            [c("vent_fan", on=False), c("glasshouse_heater", mode="auto")],
        ),
        (
            T,
            "frost warning on, then the propagator off",
            [
                c("set_led", led="frost warning", mode="on"),
                c("set_relay", relay="propagator", on=False),
            ],
        ),
        (U, "turn on the sprinklers", []),
        (I, "glasshouse heater up to twenty five degrees", []),
        (N, "don't run the water butt pump, the butt's empty", []),
        (O, "when should I plant out the runner beans in the veg patch", []),
        (M, "turn the light up to sixty percent", []),
    ],
    "t_mildmay_flat": [
        (P, "get the shared kitchen light on", [c("set_light", room="shared kitchen", on=True)]),
        (
            P,
            "Priya's room light, tangerine",
            [c("set_light", room="Priya's room", color="tangerine")],
        ),
        (
            P,
            "can I have fifteen percent in Jonas's room",
            [c("set_light", room="Jonas's room", brightness=15)],
        ),
        (P, "switch off the light in room nine", [c("set_light", room="room 9", on=False)]),
        (P, "put the stairwell light on", [c("set_light", room="stairwell", on=True)]),
        (P, "heating to nineteen and a half degrees", [c("set_thermostat", temperature=19.5)]),
        (P, "turn the heating off", [c("set_thermostat", mode="off")]),
        (P, "shut Priya's blinds", [c("set_blinds", room="Priya's room", position=0)]),
        (
            P,
            "let's have the shared kitchen blinds at seventy percent",
            [c("set_blinds", room="shared kitchen", position=70)],
        ),
        (P, "the washing machine, on", [c("set_switch", device="washing machine", action="ON")]),
        (P, "turn the wifi router off", [c("set_switch", device="wifi router", action="OFF")]),
        (
            P,
            "get Jonas's record player on",
            [c("set_switch", device="Jonas's record player", action="ON")],
        ),
        (
            T,
            "open the blinds in the shared kitchen and put the light on in there",
            [
                c("set_blinds", room="shared kitchen", position=100),
                c("set_light", room="shared kitchen", on=True),
            ],
        ),
        (
            T,
            "heating to twenty and the washing machine off",
            [
                c("set_thermostat", temperature=20),
                c("set_switch", device="washing machine", action="OFF"),
            ],
        ),
        (
            T,
            "red in Jonas's room and blue in Priya's",
            [
                c("set_light", room="Jonas's room", color="red"),
                c("set_light", room="Priya's room", color="blue"),
            ],
        ),
        (U, "turn the bathroom light on", []),
        (I, "heating to twenty eight degrees", []),
        (N, "don't switch off the wifi router, I'm on a call", []),
        (O, "whose turn is it to take the bins out", []),
        (M, "could we have the blinds halfway", []),
    ],
    "u_harbour_cafe": [
        (
            P,
            "Service counter light on.",
            [c("set_light", room="service counter", on=True)],
        ),
        (P, "Window bar light off.", [c("set_light", room="window bar", on=False)]),
        (
            P,
            "Courtyard tables light to 0 percent.",
            [c("set_light", room="courtyard tables", brightness=0)],
        ),
        (
            P,
            "Pastry kitchen light to 100 percent.",
            [c("set_light", room="pastry kitchen", brightness=100)],
        ),
        (
            P,
            "Service counter light, colour copper.",
            [c("set_light", room="service counter", color="copper")],
        ),
        (
            P,
            "Window bar light to sage.",
            [c("set_light", room="window bar", color="sage")],
        ),
        (
            P,
            "Coffee grinder plug on.",
            [c("set_switch", device="coffee grinder", action="ON")],
        ),
        (
            P,
            "Toggle the cake fridge.",
            [c("set_switch", device="cake fridge", action="TOGGLE")],
        ),
        (
            P,
            "Kitchen power: proving cabinet off.",
            [c("kitchen_power", device="proving cabinet", action="OFF")],
        ),
        (P, "Extractor to rapid.", [c("set_extractor", speed="rapid")]),
        (
            P,
            "Awning fully out.",
            [c("set_awning", room="street awning", position=100)],
        ),
        (
            T,
            "Courtyard tables light to cool white, then awning halfway.",
            [
                c("set_light", room="courtyard tables", color="cool white"),
                c("set_awning", room="street awning", position=50),
            ],
        ),
        (
            T,
            "Dough sheeter on and dishwasher off.",
            [
                c("kitchen_power", device="dough sheeter", action="ON"),
                c("kitchen_power", device="dishwasher", action="OFF"),
            ],
        ),
        (
            T,
            "Menu screen off, extractor to slow.",
            [
                c("set_switch", device="menu screen", action="OFF"),
                c("set_extractor", speed="slow"),
            ],
        ),
        (U, "Washroom light on.", []),
        (U, "Extractor to overdrive.", []),
        (I, "Pastry kitchen light to 101 percent.", []),
        (N, "Do not switch on the milk steamer.", []),
        (O, "What time does the courtyard close today?", []),
        (M, "Light to 60 percent.", []),
    ],
    "u_dental_surgery": [
        (
            P,
            "Treatment room A light on.",
            [c("set_light", room="treatment room A", on=True)],
        ),
        (P, "Decon room light off.", [c("set_light", room="decon room", on=False)]),
        (
            P,
            "Front desk light to 100 percent.",
            [c("set_light", room="front desk", brightness=100)],
        ),
        (
            P,
            "Treatment room B light, calm blue.",
            [c("set_light", room="treatment room B", color="calm blue")],
        ),
        (
            P,
            "Waiting area light to mint.",
            [c("set_light", room="waiting area", color="mint")],
        ),
        (P, "Climate to 18 degrees.", [c("set_climate", temperature=18)]),
        (P, "Climate mode cool.", [c("set_climate", mode="cool")]),
        (
            P,
            "Waiting area blinds closed.",
            [c("set_blinds", room="waiting area", position=0)],
        ),
        (P, "Suction unit on.", [c("set_relay", relay="suction unit", on=True)]),
        (
            P,
            "Patient ready signal to blink.",
            [c("set_signal", led="patient ready", mode="blink")],
        ),
        (
            P,
            "Phones diverted LED on.",
            [c("set_desk_led", led="phones diverted", mode="on")],
        ),
        (
            T,
            "Autoclave off, then water distiller on.",
            [
                c("set_relay", relay="autoclave", on=False),
                c("set_relay", relay="water distiller", on=True),
            ],
        ),
        (
            T,
            "Nurse needed signal off and card reader LED to blink.",
            [
                c("set_signal", led="nurse needed", mode="off"),
                c("set_desk_led", led="card reader", mode="blink"),
            ],
        ),
        (
            T,
            "Treatment room B blinds to 50 percent and treatment room B light to neutral white.",
            [
                c("set_blinds", room="treatment room B", position=50),
                c("set_light", room="treatment room B", color="neutral white"),
            ],
        ),
        (U, "Treatment room C light on.", []),
        (I, "Climate to 25 degrees.", []),
        (I, "Treatment room A blinds to 110 percent.", []),
        (N, "Don't blink the x-ray active signal.", []),
        (O, "Book a check-up for Thursday in treatment room A.", []),
        (M, "Signal to blink.", []),
    ],
    "u_barn_conversion": [
        (
            P,
            "Threshing floor light on.",
            [c("set_light", room="threshing floor", on=True)],
        ),
        (
            P,
            "Granary bedroom light to 0 percent.",
            [c("set_light", room="granary bedroom", brightness=0)],
        ),
        (
            P,
            "Cart shed bedroom light, harvest gold.",
            [c("set_light", room="cart shed bedroom", color="harvest gold")],
        ),
        (
            P,
            "Dairy bathroom light to dusk blue.",
            [c("set_light", room="dairy bathroom", color="dusk blue")],
        ),
        (
            P,
            "Paddock gate light on.",
            [c("set_yard_lights", room="paddock gate", on=True)],
        ),
        (
            P,
            "Log store light to 100 percent.",
            [c("set_yard_lights", room="log store", brightness=100)],
        ),
        (P, "Underfloor to 10 degrees.", [c("set_underfloor", temperature=10)]),
        (P, "Underfloor mode off.", [c("set_underfloor", mode="off")]),
        (
            P,
            "Granary bedroom blinds fully open.",
            [c("set_blinds", room="granary bedroom", position=100)],
        ),
        (P, "Borehole pump on.", [c("set_relay", relay="borehole pump", on=True)]),
        (P, "Ventilation to purge.", [c("set_ventilation", speed="purge")]),
        (
            T,
            "Electric gate on and yard light to 40 percent.",
            [
                c("set_relay", relay="electric gate", on=True),
                c("set_yard_lights", room="yard", brightness=40),
            ],
        ),
        (
            T,
            "Threshing floor blinds to 25 percent and threshing floor light to warm white.",
            [
                c("set_blinds", room="threshing floor", position=25),
                c("set_light", room="threshing floor", color="warm white"),
            ],
        ),
        (
            T,
            "Log boiler off, then underfloor mode heat.",
            [
                c("set_relay", relay="log boiler", on=False),
                c("set_underfloor", mode="heat"),
            ],
        ),
        (U, "Ventilation to max.", []),
        (I, "Underfloor to 27 degrees.", []),
        (N, "Do not open the granary bedroom blinds.", []),
        (N, "Don't switch on the log boiler.", []),
        (O, "How old are the threshing floor beams?", []),
        (M, "Blinds to 50 percent.", []),
    ],
    "u_studio_flat": [
        (
            P,
            "Sleeping alcove light on.",
            [c("set_light", room="sleeping alcove", on=True)],
        ),
        (P, "Shower room light off.", [c("set_light", room="shower room", on=False)]),
        (
            P,
            "Kitchen strip to 100 percent.",
            [c("set_light", room="kitchen strip", brightness=100)],
        ),
        (
            P,
            "Sleeping alcove light, purple.",
            [c("set_light", room="sleeping alcove", color="purple")],
        ),
        (
            P,
            "Desk corner light to warm white.",
            [c("set_light", room="desk corner", color="warm white")],
        ),
        (
            P,
            "Desk corner light off over a 600 second transition.",
            [c("set_light", room="desk corner", on=False, transition=600)],
        ),
        (P, "Thermostat to 26 degrees.", [c("set_thermostat", temperature=26)]),
        (P, "Thermostat mode heat.", [c("set_thermostat", mode="heat")]),
        (P, "Blinds closed.", [c("set_blinds", room="sash window", position=0)]),
        (P, "Fan to high.", [c("set_fan", speed="high")]),
        (
            P,
            "Toggle the rice cooker.",
            [c("set_switch", device="rice cooker", action="TOGGLE")],
        ),
        (
            T,
            "Panel heater on, then thermostat mode off.",
            [
                c("set_switch", device="panel heater", action="ON"),
                c("set_thermostat", mode="off"),
            ],
        ),
        (
            T,
            "Blinds to 75 percent and sleeping alcove light to pink.",
            [
                c("set_blinds", room="sash window", position=75),
                c("set_light", room="sleeping alcove", color="pink"),
            ],
        ),
        (
            T,
            "Desk monitor off and desk corner light off.",
            [
                c("set_switch", device="desk monitor", action="OFF"),
                c("set_light", room="desk corner", on=False),
            ],
        ),
        (U, "Kitchen strip to teal.", []),
        (I, "Thermostat to 15 degrees.", []),
        (N, "Don't turn the fan off.", []),
        (O, "How much did the panel heater cost to run last month?", []),
        (O, "What's a good recipe for the rice cooker?", []),
        (M, "Light on.", []),
    ],
    "u_hotel_floor": [
        (P, "Room 201 light on.", [c("set_light", room="room 201", on=True)]),
        (P, "Linen store light off.", [c("set_light", room="linen store", on=False)]),
        (
            P,
            "Corridor light to 0 percent.",
            [c("set_light", room="corridor", brightness=0)],
        ),
        (
            P,
            "Room 203 light to 100 percent.",
            [c("set_light", room="room 203", brightness=100)],
        ),
        (
            P,
            "Room 202 light, champagne.",
            [c("set_light", room="room 202", color="champagne")],
        ),
        (P, "Room 201 light to ruby.", [c("set_light", room="room 201", color="ruby")]),
        (
            P,
            "Corridor heating to 15 degrees.",
            [c("corridor_heating", temperature=15)],
        ),
        (P, "Suite air con to 28 degrees.", [c("suite_air_con", temperature=28)]),
        (P, "Suite air con mode cool.", [c("suite_air_con", mode="cool")]),
        (
            P,
            "Room 203 curtains fully open.",
            [c("set_curtains", room="room 203", position=100)],
        ),
        (P, "Lift fault LED to blink.", [c("set_led", led="lift fault", mode="blink")]),
        (
            T,
            "Ice machine on and trouser press off.",
            [
                c("set_switch", device="ice machine", action="ON"),
                c("set_switch", device="trouser press", action="OFF"),
            ],
        ),
        (
            T,
            "Corridor heating mode heat, then suite air con mode auto.",
            [
                c("corridor_heating", mode="heat"),
                c("suite_air_con", mode="auto"),
            ],
        ),
        (
            T,
            "Room 202 curtains to 50 percent and make up room LED on.",
            [
                c("set_curtains", room="room 202", position=50),
                c("set_led", led="make up room", mode="on"),
            ],
        ),
        (U, "Room 204 light on.", []),
        (I, "Suite air con to 29 degrees.", []),
        (N, "Don't toggle the shoe buffer.", []),
        (O, "Is room 202 booked tonight?", []),
        (M, "Curtains to 30 percent.", []),
        (M, "LED to blink.", []),
    ],
    "v_terraced_family": [
        (P, "could the stairwell light go on?", [c("set_light", room="stairwell", on=True)]),
        (
            P,
            "I want the front room at 30 percent",
            [c("set_light", room="front room", brightness=30)],
        ),
        (P, "can we get the heating up to 21", [c("set_thermostat", temperature=21)]),
        (
            P,
            "need the tumble dryer plug off",
            [c("set_switch", device="tumble dryer", action="OFF")],
        ),
        (
            P,
            "it'd be nice to have the blinds open in Imogen's room",
            [c("set_blinds", room="Imogen's room", position=100)],
        ),
        (P, "bump the fan up to high", [c("set_fan", speed="high")]),
        (
            P,
            "someone flick the slow cooker on before you head out",
            [c("set_switch", device="slow cooker", action="ON")],
        ),
        (
            P,
            "Theo and Kit's room light off please, they're finally asleep",
            [c("set_light", room="Theo and Kit's room", on=False)],
        ),
        (
            P,
            "can the back kitchen go marigold for tea",
            [c("set_light", room="back kitchen", color="marigold")],
        ),
        (
            P,
            "front room blinds halfway would be good, the sun's on the telly",
            [c("set_blinds", room="front room", position=50)],
        ),
        (
            P,
            "knock the heating down to 17, it's roasting in here",
            [c("set_thermostat", temperature=17)],
        ),
        (P, "pop the bedroom 4 light on", [c("set_light", room="bedroom 4", on=True)]),
        (
            T,
            "heating to 19 and the fan off",
            [c("set_thermostat", temperature=19), c("set_fan", on=False)],
        ),
        (
            T,
            "close the front room blinds, then dim the front room light to 20",
            [
                c("set_blinds", room="front room", position=0),
                c("set_light", room="front room", brightness=20),
            ],
        ),
        (
            T,
            "fish tank filter back on, also the stairwell light to duck egg",
            [
                c("set_switch", device="fish tank filter", action="ON"),
                c("set_light", room="stairwell", color="duck egg"),
            ],
        ),
        (U, "can someone put the garage light on", []),
        (I, "heating up to 29 please, I'm frozen", []),
        (N, "don't switch off the fish tank filter, the fish need it", []),
        (O, "has anyone seen my phone charger in the front room?", []),
        (M, "can we get the blinds down", []),
    ],
    "v_farmhouse": [
        (
            P,
            "could the lambing pens light go on, a ewe's about to drop",
            [c("yard_lights", room="lambing pens", on=True)],
        ),
        (
            P,
            "I want the parlour at 40 percent",
            [c("house_lights", room="parlour", brightness=40)],
        ),
        (
            P,
            "need the borehole pump on, the trough's empty",
            [c("set_relay", relay="borehole pump", on=True)],
        ),
        (P, "can we get the boiler up to 20", [c("set_boiler", temperature=20)]),
        (
            P,
            "flick the electric fence off, I'm moving the heifers",
            [c("set_relay", relay="electric fence", on=False)],
        ),
        (
            P,
            "make the hen house door light blink so I remember to shut them in",
            [c("set_led", led="hen house door", mode="blink")],
        ),
        (
            P,
            "sort out the tack room light, it's been left on all night",
            [c("yard_lights", room="tack room", on=False)],
        ),
        (
            P,
            "it'd be nice to have the farm kitchen in harvest gold",
            [c("house_lights", room="farm kitchen", color="harvest gold")],
        ),
        (
            P,
            "frost warning light off now, it's thawed",
            [c("set_led", led="frost warning", mode="off")],
        ),
        (P, "pop the egg incubator on", [c("set_relay", relay="egg incubator", on=True)]),
        (P, "boiler to auto please", [c("set_boiler", mode="auto")]),
        (
            P,
            "Grandad Ned's room light down to 15",
            [c("house_lights", room="Grandad Ned's room", brightness=15)],
        ),
        (
            T,
            "cart shed light off and the yard light on",
            [
                c("yard_lights", room="cart shed", on=False),
                c("yard_lights", room="yard", on=True),
            ],
        ),
        (
            T,
            "trough heater on, then the boiler to 18",
            [c("set_relay", relay="trough heater", on=True), c("set_boiler", temperature=18)],
        ),
        (
            T,
            "parlour lights on plus the gun room to warm white",
            [
                c("house_lights", room="parlour", on=True),
                c("house_lights", room="gun room", color="warm white"),
            ],
        ),
        (U, "could the grain dryer go on?", []),
        (I, "boiler up to 30, it's bitter out", []),
        (N, "don't turn the incubator off, there are eggs in it", []),
        (O, "did anyone feed the dogs in the yard?", []),
        (M, "can someone put the lights on, I can't see a thing", []),
    ],
    "v_city_flat": [
        (
            P,
            "could the balcony light go on? we're eating out there",
            [c("set_light", room="balcony", on=True)],
        ),
        (
            P,
            "I want the living space at 60 percent",
            [c("set_light", room="living space", brightness=60)],
        ),
        (
            P,
            "shades down in the sleeping loft please",
            [c("set_shades", room="sleeping loft", position=0)],
        ),
        (
            P,
            "it'd be nice to have the awning out, it's scorching",
            [c("set_awning", room="balcony awning", position=100)],
        ),
        (P, "can we get the aircon down to 19", [c("set_aircon", temperature=19)]),
        (P, "aircon on cool", [c("set_aircon", mode="cool")]),
        (P, "bump the ceiling fan to high", [c("ceiling_fan", speed="high")]),
        (
            P,
            "need the coffee machine plug on",
            [c("set_switch", device="coffee machine", action="ON")],
        ),
        (
            P,
            "flick the record player off, the neighbours are complaining",
            [c("set_switch", device="record player", action="OFF")],
        ),
        (
            P,
            "can the bathroom go purple for my bath",
            [c("set_light", room="bathroom", color="purple")],
        ),
        (
            P,
            "switch the sleeping loft light off over 10 seconds",
            [c("set_light", room="sleeping loft", on=False, transition=10)],
        ),
        (
            P,
            "pop the balcony heater on, it's getting nippy",
            [c("set_switch", device="balcony heater", action="ON")],
        ),
        (
            T,
            "awning halfway and the balcony heater off",
            [
                c("set_awning", room="balcony awning", position=50),
                c("set_switch", device="balcony heater", action="OFF"),
            ],
        ),
        (
            T,
            "living space shades open, then the ceiling fan on",
            [c("set_shades", room="living space", position=100), c("ceiling_fan", on=True)],
        ),
        (
            T,
            "record player on, living space lights to warm white",
            [
                c("set_switch", device="record player", action="ON"),
                c("set_light", room="living space", color="warm white"),
            ],
        ),
        (U, "can the walk-in wardrobe go teal", []),
        (I, "aircon to 12 please", []),
        (N, "don't close the shades in the living space, I'm painting", []),
        (O, "what time does the balcony get the evening sun?", []),
        (M, "could the shades go halfway?", []),
    ],
    "v_bungalow": [
        (
            P,
            "could the light in Jean's sewing room go on?",
            [c("set_light", room="Jean's sewing room", on=True)],
        ),
        (
            P,
            "I want the sitting room at 70 percent, Dad can't see the crossword",
            [c("set_light", room="sitting room", brightness=70)],
        ),
        (P, "can we get the heating up to 23 for Mum", [c("set_thermostat", temperature=23)]),
        (
            P,
            "it'd be nice to have the curtains open in the main bedroom",
            [c("set_curtains", room="main bedroom", position=100)],
        ),
        (
            P,
            "need the foot warmer plug off",
            [c("set_switch", device="foot warmer", action="OFF")],
        ),
        (
            P,
            "set the pill reminder light blinking",
            [c("panel_lights", led="pill reminder", mode="blink")],
        ),
        (P, "carer visit light on please", [c("panel_lights", led="carer visit", mode="on")]),
        (P, "knock the heating down to 19", [c("set_thermostat", temperature=19)]),
        (
            P,
            "Harold's den in soft peach would be lovely",
            [c("set_light", room="Harold's den", color="soft peach")],
        ),
        (
            P,
            "flick the wireless on for the cricket",
            [c("set_switch", device="wireless", action="ON")],
        ),
        (
            P,
            "sitting room curtains halfway, the sun's on the telly",
            [c("set_curtains", room="sitting room", position=50)],
        ),
        (
            P,
            "side door light off, they're all in now",
            [c("set_light", room="side door", on=False)],
        ),
        (
            T,
            "riser recliner on and the sitting room light to warm white",
            [
                c("set_switch", device="riser recliner", action="ON"),
                c("set_light", room="sitting room", color="warm white"),
            ],
        ),
        (
            T,
            "close the main bedroom curtains, then the main bedroom light to 10",
            [
                c("set_curtains", room="main bedroom", position=0),
                c("set_light", room="main bedroom", brightness=10),
            ],
        ),
        (
            T,
            "pill reminder off, also the heating to 21",
            [
                c("panel_lights", led="pill reminder", mode="off"),
                c("set_thermostat", temperature=21),
            ],
        ),
        (U, "could the summerhouse light go on?", []),
        (I, "spare bedroom light to 150 percent", []),
        (N, "don't turn the bird bath heater off, it's freezing out", []),
        (O, "did Mum ring about the sheets for the spare bedroom?", []),
        (M, "could someone pop the plug on for Dad", []),
    ],
    "v_student_house": [
        (
            P,
            "could the front lounge light go on? film night",
            [c("set_light", room="front lounge", on=True)],
        ),
        (
            P,
            "I want Ife's room at 25 percent",
            [c("set_light", room="Ife's room", brightness=25)],
        ),
        (P, "can we get the heating up to 20, it's baltic", [c("set_heating", temperature=20)]),
        (
            P,
            "need the air fryer off, someone left it on",
            [c("kitchen_sockets", device="air fryer", action="OFF")],
        ),
        (P, "bump the fan to full", [c("set_fan", speed="full")]),
        (
            P,
            "flick the PS5 plug off, it's 3am",
            [c("set_switch", device="PS5", action="OFF")],
        ),
        (
            P,
            "Callum's room hot pink pls",
            [c("set_light", room="Callum's room", color="hot pink")],
        ),
        (
            P,
            "pop the washing machine on",
            [c("kitchen_sockets", device="washing machine", action="ON")],
        ),
        (P, "toggle the projector", [c("set_switch", device="projector", action="TOGGLE")]),
        (
            P,
            "shared kitchen lights off, last one out",
            [c("set_light", room="shared kitchen", on=False)],
        ),
        (P, "heating off, the bills are mad", [c("set_heating", mode="off")]),
        (
            P,
            "Tomasz's room light to electric blue",
            [c("set_light", room="Tomasz's room", color="electric blue")],
        ),
        (
            T,
            "toastie maker on and the shared kitchen light on",
            [
                c("set_switch", device="toastie maker", action="ON"),
                c("set_light", room="shared kitchen", on=True),
            ],
        ),
        (
            T,
            "heating to 18, then the fan off",
            [c("set_heating", temperature=18), c("set_fan", on=False)],
        ),
        (
            T,
            "microwave off, plus Priya's room to neon green",
            [
                c("kitchen_sockets", device="microwave", action="OFF"),
                c("set_light", room="Priya's room", color="neon green"),
            ],
        ),
        (U, "could the toaster go on?", []),
        (I, "heating to 26 lads", []),
        (N, "don't switch the washing machine off, my stuff's mid-cycle", []),
        (O, "who finished the milk in the shared kitchen", []),
        (M, "can someone turn the lights off, I'm in bed", []),
    ],
    "w_quarry_farmhouse": [
        (P, "turn on the farm kitchen light", [c("set_light", room="farm kitchen", on=True)]),
        (
            P,
            "switch on the strip lights in the farm kitchen",
            [c("set_strip_light", room="farm kitchen", on=True)],
        ),
        (P, "close the farm kitchen blinds", [c("set_blinds", room="farm kitchen", position=0)]),
        (P, "bedroom 4 light to 30 percent", [c("set_light", room="bedroom 4", brightness=30)]),
        (P, "make bedroom 5 slate blue", [c("set_light", room="bedroom 5", color="slate blue")]),
        (
            P,
            "turn off the back stairs strip light",
            [c("set_strip_light", room="back stairs", on=False)],
        ),
        (P, "set the heating to 19", [c("set_thermostat", temperature=19)]),
        (P, "switch the incubator off", [c("set_switch", device="incubator", action="OFF")]),
        (P, "turn on the incubator heater", [c("set_relay", relay="incubator heater", on=True)]),
        (
            P,
            "open the bedroom 4 blinds halfway",
            [c("set_blinds", room="bedroom 4", position=50)],
        ),
        (P, "turn the trough pump off", [c("set_relay", relay="trough pump", on=False)]),
        (P, "cheese room light off", [c("set_light", room="cheese room", on=False)]),
        (
            T,
            "put the radio on and set the back stairs light to 20 percent",
            [
                c("set_switch", device="radio", action="ON"),
                c("set_light", room="back stairs", brightness=20),
            ],
        ),
        (
            T,
            "open the farm kitchen blinds and turn off the farm kitchen strip lights",
            [
                c("set_blinds", room="farm kitchen", position=100),
                c("set_strip_light", room="farm kitchen", on=False),
            ],
        ),
        (
            T,
            "toggle the bottle steriliser, then heating to 21",
            [
                c("set_switch", device="bottle steriliser", action="TOGGLE"),
                c("set_thermostat", temperature=21),
            ],
        ),
        (U, "turn on the dairy light", []),
        (I, "set the heating to 30", []),
        (N, "don't switch the trough pump on", []),
        (O, "how long do duck eggs take to hatch", []),
        (M, "set the blinds to 40 percent", []),
    ],
    "w_harbour_terrace": [
        (P, "turn on the kitchen light", [c("set_light", room="kitchen", on=True)]),
        (P, "make the kitchen door LED blink", [c("set_door_led", led="kitchen", mode="blink")]),
        (P, "set the underfloor heating to 23", [c("set_underfloor", temperature=23)]),
        (P, "upstairs heating to 18 degrees", [c("set_upstairs_heating", temperature=18)]),
        (P, "close the shutters in office 2", [c("set_shutters", room="office 2", position=0)]),
        (P, "office 3 light to 60 percent", [c("set_light", room="office 3", brightness=60)]),
        (P, "switch on the office 2 door LED", [c("set_door_led", led="office 2", mode="on")]),
        (P, "make the front parlour lilac", [c("set_light", room="front parlour", color="lilac")]),
        (P, "turn the upstairs heating off", [c("set_upstairs_heating", mode="off")]),
        (P, "turn off the fish tank", [c("set_switch", device="fish tank", action="OFF")]),
        (
            P,
            "open the shutters in Iris's room",
            [c("set_shutters", room="Iris's room", position=100)],
        ),
        (P, "put the underfloor heating on auto", [c("set_underfloor", mode="auto")]),
        (
            T,
            "switch the coffee grinder on and turn off the office 3 door LED",
            [
                c("set_switch", device="coffee grinder", action="ON"),
                c("set_door_led", led="office 3", mode="off"),
            ],
        ),
        (
            T,
            "set the front parlour shutters halfway and dim the front parlour light to 25 percent",
            [
                c("set_shutters", room="front parlour", position=50),
                c("set_light", room="front parlour", brightness=25),
            ],
        ),
        (
            T,
            "underfloor heating to 20 and the upstairs heating to 17",
            [c("set_underfloor", temperature=20), c("set_upstairs_heating", temperature=17)],
        ),
        (U, "turn on the cellar light", []),
        (I, "set the upstairs heating to 28", []),
        (N, "don't close the office 2 shutters", []),
        (O, "what time is high tide in the harbour today", []),
        (M, "make the door LED blink", []),
    ],
    "w_canal_lockhouse": [
        (P, "turn on the ceiling fan", [c("set_ceiling_fan", on=True)]),
        (P, "set the desk fan to max", [c("set_desk_fan", speed="max")]),
        (P, "switch off the desk fan", [c("set_desk_fan", on=False)]),
        (P, "ceiling fan to fast", [c("set_ceiling_fan", speed="fast")]),
        (P, "turn off the boathouse light", [c("set_light", room="boathouse", on=False)]),
        (P, "switch the boathouse heater on", [c("set_relay", relay="boathouse heater", on=True)]),
        (
            P,
            "turn the boathouse radio off",
            [c("set_switch", device="boathouse radio", action="OFF")],
        ),
        (P, "close the bedroom 8 blinds", [c("set_blinds", room="bedroom 8", position=0)]),
        (
            P,
            "bedroom 7 light to canal green",
            [c("set_light", room="bedroom 7", color="canal green")],
        ),
        (P, "start the sluice pump", [c("set_relay", relay="sluice pump", on=True)]),
        (P, "turn on the sluice lamp", [c("set_switch", device="sluice lamp", action="ON")]),
        (P, "set the heating to 17", [c("set_thermostat", temperature=17)]),
        (
            T,
            "open the lantern room blinds and turn the ceiling fan to slow",
            [
                c("set_blinds", room="lantern room", position=100),
                c("set_ceiling_fan", speed="slow"),
            ],
        ),
        (
            T,
            "switch off the lock gate motor and turn off the lock office light",
            [
                c("set_relay", relay="lock gate motor", on=False),
                c("set_light", room="lock office", on=False),
            ],
        ),
        (
            T,
            "desk fan on and bedroom 8 light to 10 percent",
            [c("set_desk_fan", on=True), c("set_light", room="bedroom 8", brightness=10)],
        ),
        (U, "set the ceiling fan to hurricane", []),
        (I, "open the bedroom 7 blinds to 150 percent", []),
        (N, "don't turn on the boathouse heater", []),
        (O, "when does the next narrowboat come through the lock", []),
        (M, "switch the light off", []),
    ],
    "w_chapel_conversion": [
        (P, "turn on the nave light", [c("set_light", room="nave", on=True)]),
        (P, "switch on the nave spotlights", [c("set_spotlight", room="nave", on=True)]),
        (P, "close the nave blinds", [c("set_blinds", room="nave", position=0)]),
        (P, "turn on the vestry LED", [c("set_led", led="vestry", mode="on")]),
        (P, "vestry light off", [c("set_light", room="vestry", on=False)]),
        (P, "make the bell tower LED blink", [c("set_led", led="bell tower", mode="blink")]),
        (
            P,
            "bell tower spotlight to 70 percent",
            [c("set_spotlight", room="bell tower", brightness=70)],
        ),
        (P, "switch on the organ", [c("set_switch", device="organ", action="ON")]),
        (P, "turn off the organ blower", [c("set_relay", relay="organ blower", on=False)]),
        (P, "turn the tea urn boiler on", [c("set_relay", relay="tea urn boiler", on=True)]),
        (P, "make the choir loft gold", [c("set_light", room="choir loft", color="gold")]),
        (P, "set the fan to blustery", [c("set_fan", speed="blustery")]),
        (
            T,
            "switch off the projector and open the vestry blinds",
            [
                c("set_switch", device="projector", action="OFF"),
                c("set_blinds", room="vestry", position=100),
            ],
        ),
        (
            T,
            "heating to 20 and the fan off",
            [c("set_thermostat", temperature=20), c("set_fan", on=False)],
        ),
        (
            T,
            "turn off the lychgate spotlight and the bell tower LED",
            [
                c("set_spotlight", room="lychgate", on=False),
                c("set_led", led="bell tower", mode="off"),
            ],
        ),
        (U, "turn on the crypt light", []),
        (I, "set Tobias's room light to 120 percent", []),
        (N, "don't switch the tea urn on", []),
        (O, "which hymns are we singing on Sunday", []),
        (M, "open the blinds", []),
    ],
    "w_lighthouse_keepers": [
        (P, "turn on the lamp room light", [c("set_light", room="lamp room", on=True)]),
        (
            P,
            "make the lamp room LED blink",
            [c("set_panel_led", led="lamp room", mode="blink")],
        ),
        (P, "turn on the foghorn", [c("set_relay", relay="foghorn", on=True)]),
        (P, "switch off the foghorn LED", [c("set_panel_led", led="foghorn", mode="off")]),
        (
            P,
            "watch room dimmer to 30 percent",
            [c("set_dimmer", device="watch room", brightness=30)],
        ),
        (P, "turn off the watch room light", [c("set_light", room="watch room", on=False)]),
        (
            P,
            "close the storm shutters in office 4",
            [c("set_storm_shutters", room="office 4", position=0)],
        ),
        (P, "office 2 light to sea blue", [c("set_light", room="office 2", color="sea blue")]),
        (P, "turn on the spiral stair lamps", [c("set_dimmer", device="spiral stair", on=True)]),
        (P, "switch the chart lamp on", [c("set_switch", device="chart lamp", action="ON")]),
        (P, "start the lantern motor", [c("set_relay", relay="lantern motor", on=True)]),
        (P, "set the heating to 18", [c("set_heating", temperature=18)]),
        (
            T,
            "open the watch room shutters and turn off the watch room wall lamps",
            [
                c("set_storm_shutters", room="watch room", position=100),
                c("set_dimmer", device="watch room", on=False),
            ],
        ),
        (
            T,
            "turn off the soup maker and turn on the keeper's kitchen light",
            [
                c("set_switch", device="soup maker", action="OFF"),
                c("set_light", room="keeper's kitchen", on=True),
            ],
        ),
        (
            T,
            "office 4 light to 45 percent and the office 2 shutters halfway",
            [
                c("set_light", room="office 4", brightness=45),
                c("set_storm_shutters", room="office 2", position=50),
            ],
        ),
        (U, "make the keeper's kitchen purple", []),
        (I, "set the heating to 3 degrees", []),
        (N, "don't turn on the foghorn", []),
        (O, "how tall is this lighthouse", []),
        (M, "close the storm shutters", []),
    ],
    "x_st_aldhelm_hall": [
        (
            P,
            "lights down on stage to twenty percent",
            [c("hall_lights", room="stage", brightness=20)],
        ),
        (
            P,
            "bring the house lights up to full",
            [c("stage_dimmers", device="house lights", brightness=100)],
        ),
        (P, "kill the follow spot", [c("stage_dimmers", device="follow spot", on=False)]),
        (P, "footlights at sixty", [c("stage_dimmers", device="footlights", brightness=60)]),
        (P, "put the foyer lights on", [c("hall_lights", room="foyer", on=True)]),
        (P, "wash the stage in magenta", [c("hall_lights", room="stage", color="magenta")]),
        (
            P,
            "switch the tea urn on, the knitting circle's in at two",
            [c("set_switch", device="tea urn", action="ON")],
        ),
        (P, "PA amp off now the raffle's done", [c("set_switch", device="PA amp", action="OFF")]),
        (
            P,
            "blackouts down in the main hall, the film's about to start",
            [c("blackout_blinds", room="main hall", position=0)],
        ),
        (
            P,
            "heating up to nineteen for the tea dance",
            [c("hall_heating", temperature=19)],
        ),
        (P, "flash the doors open sign", [c("foyer_signs", led="doors open", mode="blink")]),
        (P, "hearing loop sign on", [c("foyer_signs", led="hearing loop", mode="on")]),
        (
            T,
            "open the committee room blinds halfway and make its lights warm white",
            [
                c("blackout_blinds", room="committee room", position=50),
                c("hall_lights", room="committee room", color="warm white"),
            ],
        ),
        (
            T,
            "projector on and main hall lights down to ten",
            [
                c("set_switch", device="projector", action="ON"),
                c("hall_lights", room="main hall", brightness=10),
            ],
        ),
        (
            T,
            "heating off and kill the urn, we're locking up",
            [c("hall_heating", mode="off"), c("set_switch", device="tea urn", action="OFF")],
        ),
        (U, "turn on the bar lights", []),
        (I, "house lights to a hundred and twenty percent", []),
        (N, "don't switch off the green room lights, the cast are still changing", []),
        (O, "who's got the main hall booked on Saturday night", []),
        (M, "dim the lights to thirty percent", []),
    ],
    "x_tidewater_brewing": [
        (P, "fire up the mash tun heater", [c("brewhouse", relay="mash tun heater", on=True)]),
        (P, "HLT element off", [c("brewhouse", relay="HLT element", on=False)]),
        (
            P,
            "start the wort pump, we're transferring to FV2",
            [c("brewhouse", relay="wort pump", on=True)],
        ),
        (P, "glycol chiller on", [c("brewhouse", relay="glycol chiller", on=True)]),
        (P, "cold room down to three degrees", [c("cold_room", temperature=3)]),
        (P, "extractor to purge", [c("steam_extractor", speed="purge")]),
        (P, "kill the extractor, boil's finished", [c("steam_extractor", on=False)]),
        (P, "taproom lights to forty percent", [c("set_light", room="taproom", brightness=40)]),
        (
            P,
            "fade the taproom to warm white over ten seconds",
            [c("set_light", room="taproom", color="warm white", transition=10)],
        ),
        (P, "keg washer on", [c("set_switch", device="keg washer", action="ON")]),
        (P, "blink the mash in light", [c("set_led", led="mash in", mode="blink")]),
        (P, "CIP running light off", [c("set_led", led="CIP running", mode="off")]),
        (
            T,
            "mash tun heater off and wort pump on",
            [
                c("brewhouse", relay="mash tun heater", on=False),
                c("brewhouse", relay="wort pump", on=True),
            ],
        ),
        (
            T,
            "loading dock lights on, then toggle the capping machine",
            [
                c("set_light", room="loading dock", on=True),
                c("set_switch", device="capping machine", action="TOGGLE"),
            ],
        ),
        (
            T,
            "cold room to auto and kill the jukebox",
            [
                c("cold_room", mode="auto"),
                c("set_switch", device="taproom jukebox", action="OFF"),
            ],
        ),
        (U, "switch on the bottling line", []),
        (I, "cold room to minus four", []),
        (N, "don't start the wort pump yet, still sparging", []),
        (O, "how many kegs of the oyster stout have we got left", []),
        (M, "lights to thirty percent please", []),
    ],
    "x_fernhollow_nursery": [
        (P, "open the vents in bay 3", [c("roof_vents", room="bay 3", position=100)]),
        (
            P,
            "propagation house vents a quarter open",
            [c("roof_vents", room="propagation house", position=25)],
        ),
        (P, "shut the bay 1 vents, frost tonight", [c("roof_vents", room="bay 1", position=0)]),
        (P, "bay 2 grow lights to deep red", [c("bay_lights", room="bay 2", color="deep red")]),
        (
            P,
            "bay one lights to seventy five percent",
            [c("bay_lights", room="bay 1", brightness=75)],
        ),
        (P, "sales yard lights off", [c("bay_lights", room="sales yard", on=False)]),
        (P, "run the mist line", [c("watering", relay="mist line", on=True)]),
        (P, "stop the boom irrigator", [c("watering", relay="boom irrigator", on=False)]),
        (
            P,
            "heat mat bench on for the cuttings",
            [c("watering", relay="heat mat bench", on=True)],
        ),
        (P, "glasshouse heating to twelve degrees", [c("glasshouse_heating", temperature=12)]),
        (P, "HAF fans on high", [c("haf_fans", on=True, speed="high")]),
        (P, "steriliser on", [c("set_switch", device="soil steriliser", action="ON")]),
        (
            T,
            "drip line on and open bay 2 vents halfway",
            [
                c("watering", relay="drip line", on=True),
                c("roof_vents", room="bay 2", position=50),
            ],
        ),
        (
            T,
            "boiler to auto, then the fans to low",
            [c("glasshouse_heating", mode="auto"), c("haf_fans", speed="low")],
        ),
        (
            T,
            "potting shed lights on and switch the tray washer on",
            [
                c("bay_lights", room="potting shed", on=True),
                c("set_switch", device="tray washer", action="ON"),
            ],
        ),
        (U, "open the vents in bay 4", []),
        (I, "glasshouse heating to forty degrees", []),
        (N, "don't switch on the boom irrigator, the pelargoniums are soaked", []),
        (O, "what do we charge for a tray of bedding plugs", []),
        (M, "open the vents", []),
    ],
    "x_kestrel_van": [
        (P, "bunk light on", [c("set_light", room="bunk", on=True)]),
        (P, "worktop light to thirty percent", [c("set_light", room="worktop", brightness=30)]),
        (P, "cab light red, we're driving", [c("set_light", room="cab", color="red")]),
        (P, "tailgate light off", [c("set_light", room="tailgate", on=False)]),
        (P, "heater to eighteen", [c("diesel_heater", temperature=18)]),
        (P, "diesel heater off", [c("diesel_heater", mode="off")]),
        (
            P,
            "put the boiler on for a shower",
            [c("van_relays", relay="hot water boiler", on=True)],
        ),
        (P, "shower pump off", [c("van_relays", relay="shower pump", on=False)]),
        (P, "roof fan on extract", [c("roof_fan", on=True, speed="extract")]),
        (P, "close the skylight blind", [c("set_blinds", room="skylight", position=0)]),
        (P, "sliding door blind halfway", [c("set_blinds", room="sliding door", position=50)]),
        (P, "battery low LED off", [c("set_led", led="battery low", mode="off")]),
        (
            T,
            "USB sockets on and bunk light to warm white",
            [
                c("van_relays", relay="USB sockets", on=True),
                c("set_light", room="bunk", color="warm white"),
            ],
        ),
        (
            T,
            "roof fan off, then open the skylight blind",
            [c("roof_fan", on=False), c("set_blinds", room="skylight", position=100)],
        ),
        (
            T,
            "blink the grey tank LED and heater to twenty",
            [c("set_led", led="grey tank", mode="blink"), c("diesel_heater", temperature=20)],
        ),
        (U, "turn on the awning light", []),
        (I, "heater to thirty five", []),
        (N, "don't turn the heater off while we're asleep", []),
        (O, "how far is it to the next campsite", []),
        (M, "set the blind to half", []),
    ],
    "x_saltmarsh_pottery": [
        (P, "kill the kiln vent", [c("kiln_room", relay="kiln vent", on=False)]),
        (P, "fire the test kiln", [c("kiln_room", relay="test kiln", on=True)]),
        (P, "pugmill on", [c("kiln_room", relay="pugmill", on=True)]),
        (
            P,
            "glaze booth extractor on, I'm spraying",
            [c("kiln_room", relay="glaze booth extractor", on=True)],
        ),
        (
            P,
            "throwing room lights up to ninety",
            [c("workshop_lights", room="throwing room", brightness=90)],
        ),
        (P, "glaze room lights on", [c("workshop_lights", room="glaze room", on=True)]),
        (P, "shop counter light off", [c("workshop_lights", room="shop counter", on=False)]),
        (
            P,
            "drying racks to warm white",
            [c("workshop_lights", room="drying racks", color="warm white")],
        ),
        (P, "potter's wheel off", [c("set_switch", device="potter's wheel", action="OFF")]),
        (P, "toggle the wax pot", [c("set_switch", device="wax pot", action="TOGGLE")]),
        (P, "kiln firing sign on", [c("door_signs", led="kiln firing", mode="on")]),
        (P, "drying cupboard to thirty degrees", [c("drying_cupboard", temperature=30)]),
        (
            T,
            "clay mixer on and the pugmill off",
            [
                c("set_switch", device="clay mixer", action="ON"),
                c("kiln_room", relay="pugmill", on=False),
            ],
        ),
        (
            T,
            "flash the class in session sign and dim the throwing room to fifty",
            [
                c("door_signs", led="class in session", mode="blink"),
                c("workshop_lights", room="throwing room", brightness=50),
            ],
        ),
        (
            T,
            "kiln vent on, then the drying cupboard to auto",
            [c("kiln_room", relay="kiln vent", on=True), c("drying_cupboard", mode="auto")],
        ),
        (U, "switch on the slab roller", []),
        (I, "drying cupboard to sixty degrees", []),
        (N, "don't fire the test kiln till the glazes are dry", []),
        (O, "what cone did we take the last bisque to", []),
        (M, "turn the sign on", []),
    ],
}


def rows() -> list[dict[str, Any]]:
    """The cases as `needled eval` reads them (vendor JSONL, tools on each case)."""
    return dev_handwritten.rows(CASES, HOMES)


def main() -> int:
    return dev_handwritten.main(rows, __doc__)


if __name__ == "__main__":
    raise SystemExit(main())
