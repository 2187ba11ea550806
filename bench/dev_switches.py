"""Write the switches development set: `python bench/dev_switches.py --out FILE.jsonl`.

A switching word the call must not drop ("turn on the boat loft lights" is not just the room),
a room that the lights and the blinds share ("open the blinds in the pottery room"), things that
open by switching on ("open the sprinkler valve"), and the refusals that look like them: 30
requests written by hand to two homes of their own, for choosing how the decoding prior keeps a
call's switch and picks between tools that share a name. No name here is a held-out one.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_handwritten  # noqa: E402  (a sibling script, not a package)

HOMES: dict[str, dict[str, Any]] = {
    "boat_shed": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["boat loft", "pottery room", "Eli's room", "wash house"],
            "colors": ["white", "warm white", "sea green", "dusk"],
        },
        "blinds": {"kind": "simulated_blinds", "rooms": ["pottery room", "Eli's room"]},
        "relays": {
            "kind": "gpio_relays",
            "relays": {"sprinkler valve": 5, "koi pump": 6, "yard gate": 13},
        },
        "fan": {"kind": "simulated_fan", "speeds": ["soft", "strong"]},
    },
    "cider_barn": {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["press room", "den", "Nia's room"],
            "tool": "set_lamps",
            "description": "Lamps in each room: on or off, brightness in percent, colour.",
        },
        "blinds": {
            "kind": "simulated_blinds",
            "rooms": ["den", "press room"],
            "tool": "set_shades",
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {"bottle washer": "washer", "still heater": "still"},
        },
    },
}


def c(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "arguments": args}


P, T = "positive", "two_actions"
U, Q, N = "unsupported", "off_topic", "negated"

CASES: dict[str, list[tuple[str, str, list[dict[str, Any]]]]] = {
    "boat_shed": [
        (P, "turn on the boat loft lights", [c("set_light", room="boat loft", on=True)]),
        (P, "wash house light off", [c("set_light", room="wash house", on=False)]),
        (P, "switch off the lights in Eli's room", [c("set_light", room="Eli's room", on=False)]),
        (P, "turn on the pottery room light", [c("set_light", room="pottery room", on=True)]),
        (
            P,
            "turn on the boat loft light at 40 percent",
            [c("set_light", room="boat loft", on=True, brightness=40)],
        ),
        (P, "dim the wash house to 20 percent", [c("set_light", room="wash house", brightness=20)]),
        (P, "turn the boat loft light to 60", [c("set_light", room="boat loft", brightness=60)]),
        (
            P,
            "open the blinds in the pottery room",
            [c("set_blinds", room="pottery room", position=100)],
        ),
        (P, "close Eli's room blinds", [c("set_blinds", room="Eli's room", position=0)]),
        (
            P,
            "pottery room blinds to 30 percent",
            [c("set_blinds", room="pottery room", position=30)],
        ),
        (P, "open the sprinkler valve", [c("set_relay", relay="sprinkler valve", on=True)]),
        (P, "close the sprinkler valve", [c("set_relay", relay="sprinkler valve", on=False)]),
        (P, "open the yard gate", [c("set_relay", relay="yard gate", on=True)]),
        (P, "koi pump on please", [c("set_relay", relay="koi pump", on=True)]),
        (P, "turn off the fan", [c("set_fan", on=False)]),
        (
            T,
            "lights on in the boat loft, the wash house to 10 percent",
            [
                c("set_light", room="boat loft", on=True),
                c("set_light", room="wash house", brightness=10),
            ],
        ),
        (
            T,
            "open the sprinkler valve and switch off the koi pump",
            [
                c("set_relay", relay="sprinkler valve", on=True),
                c("set_relay", relay="koi pump", on=False),
            ],
        ),
        (U, "open the blinds in the wash house", []),
        (U, "open the garage door", []),
        (N, "don't open the sprinkler valve", []),
        (Q, "is the yard gate open", []),
    ],
    "cider_barn": [
        (P, "den lamps on", [c("set_lamps", room="den", on=True)]),
        (P, "turn off the lamp in Nia's room", [c("set_lamps", room="Nia's room", on=False)]),
        (P, "open the shades in the den", [c("set_shades", room="den", position=100)]),
        (P, "close the press room shades", [c("set_shades", room="press room", position=0)]),
        (P, "switch on the bottle washer", [c("set_switch", device="bottle washer", action="ON")]),
        (
            T,
            "turn on the press room lamps and the still heater",
            [
                c("set_lamps", room="press room", on=True),
                c("set_switch", device="still heater", action="ON"),
            ],
        ),
        (U, "open the shades in Nia's room", []),
        (N, "leave the den lamps on", []),
        (Q, "play some folk music in the den", []),
    ],
}


def rows() -> list[dict[str, Any]]:
    """The cases as `needled eval` reads them (vendor JSONL, tools on each case)."""
    return dev_handwritten.rows(CASES, HOMES)


def main() -> int:
    return dev_handwritten.main(rows, __doc__)


if __name__ == "__main__":
    raise SystemExit(main())
