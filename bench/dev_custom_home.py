"""Write the development custom home: `python bench/dev_custom_home.py --out DIR`.

`needled train --config` adapts the general model to a home whose tools go beyond the device
kinds (renamed tools, the owner's descriptions, the `log` kind). Its settings (steps, replay)
must be chosen on a home of its own: the two custom homes in `tests/data/custom_homes/` are
held out and never choose anything. This one, a harbour café, shares no name with them, with
the held-out homes or with the evaluation side of the name pools. DIR gets `harbour_cafe.toml`
and `harbour_cafe.jsonl` (42 requests written by hand, vendor format with `tools`).
"""

from __future__ import annotations

import argparse
import json
import tomllib
from pathlib import Path
from typing import Any

from agent.offline.train.homes import home_tools

CONFIG = """\
# Development custom home (bench/dev_custom_home.py): a harbour cafe. Every tool is renamed and
# described in the owner's words; the staff board takes notes (the `log` kind).
[devices.lights]
kind = "simulated_lights"
tool = "glow"
description = "Switch or dim the cafe's lights, or give them a mood colour."
rooms = ["bar", "Nadia's kitchen", "cellar stairs", "harbour room", "cake counter"]
colors = ["bright white", "harbour blue", "ember"]

[devices.heating]
kind = "simulated_thermostat"
tool = "warmth"
description = "Set the cafe heating: a target temperature in degrees Celsius, or a mode."
min_temperature = 14
max_temperature = 26

[devices.awnings]
kind = "simulated_blinds"
tool = "awning"
description = "Roll an awning out or in; 0 is rolled in, 100 fully out."
rooms = ["front window", "harbour room"]

[devices.sockets]
kind = "tasmota"
tool = "socket"
description = "Switch one of the cafe's smart sockets on or off, or toggle it."
switches = { "ice machine" = "ice", "window heater" = "heater", "milk frother" = "frother" }

[devices.fan]
kind = "simulated_fan"
tool = "air"
description = "Run the ceiling fan, stop it, or change its speed."
speeds = ["hush", "gusty", "tempest"]

[devices.board]
kind = "log"
tool = "staff_board"
description = "Pin a short note on the staff board."
"""


def c(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "arguments": args}


CASES: list[tuple[str, str, list[dict[str, Any]]]] = [
    ("positive", "turn on the bar lights", [c("glow", room="bar", on=True)]),
    ("positive", "cake counter light off", [c("glow", room="cake counter", on=False)]),
    ("positive", "dim the harbour room to 40%", [c("glow", room="harbour room", brightness=40)]),
    ("positive", "make Nadia's kitchen ember", [c("glow", room="Nadia's kitchen", color="ember")]),
    ("positive", "cellar stairs lights on please", [c("glow", room="cellar stairs", on=True)]),
    (
        "positive",
        "set the bar to harbour blue",
        [c("glow", room="bar", color="harbour blue")],
    ),
    ("positive", "heating to 21 degrees", [c("warmth", temperature=21)]),
    ("positive", "put the heating on auto", [c("warmth", mode="auto")]),
    ("positive", "switch the heating off", [c("warmth", mode="off")]),
    (
        "positive",
        "roll out the front window awning",
        [c("awning", room="front window", position=100)],
    ),
    ("positive", "harbour room awning in", [c("awning", room="harbour room", position=0)]),
    (
        "positive",
        "awning at the front window to half",
        [c("awning", room="front window", position=50)],
    ),
    ("positive", "switch on the ice machine", [c("socket", device="ice machine", action="ON")]),
    ("positive", "window heater off", [c("socket", device="window heater", action="OFF")]),
    ("positive", "toggle the milk frother", [c("socket", device="milk frother", action="TOGGLE")]),
    ("positive", "fan on tempest", [c("air", on=True, speed="tempest")]),
    ("positive", "set the fan to hush", [c("air", speed="hush")]),
    ("positive", "stop the ceiling fan", [c("air", on=False)]),
    (
        "positive",
        "pin a note: out of oat milk",
        [c("staff_board", message="out of oat milk")],
    ),
    (
        "positive",
        "tell the staff the ice machine is leaking",
        [c("staff_board", message="the ice machine is leaking")],
    ),
    (
        "positive",
        "post a warning on the board: card reader offline",
        [c("staff_board", message="card reader offline", level="warning")],
    ),
    (
        "positive",
        "brighten the cake counter to full",
        [c("glow", room="cake counter", brightness=100)],
    ),
    (
        "two_actions",
        "bar lights off and the milk frother off",
        [c("glow", room="bar", on=False), c("socket", device="milk frother", action="OFF")],
    ),
    (
        "two_actions",
        "heating to 19, then fan on gusty",
        [c("warmth", temperature=19), c("air", on=True, speed="gusty")],
    ),
    (
        "two_actions",
        "roll in the harbour room awning and switch on the harbour room lights",
        [c("awning", room="harbour room", position=0), c("glow", room="harbour room", on=True)],
    ),
    (
        "two_actions",
        "switch on the window heater and note that the door sticks",
        [
            c("socket", device="window heater", action="ON"),
            c("staff_board", message="the door sticks"),
        ],
    ),
    (
        "two_actions",
        "turn off the cellar stairs and cake counter lights",
        [c("glow", room="cellar stairs", on=False), c("glow", room="cake counter", on=False)],
    ),
    (
        "two_actions",
        "Nadia's kitchen to bright white, then the ice machine on",
        [
            c("glow", room="Nadia's kitchen", color="bright white"),
            c("socket", device="ice machine", action="ON"),
        ],
    ),
    ("unsupported", "turn on the terrace heater", []),
    ("unsupported", "switch on the toilet light", []),
    ("unsupported", "make the bar lights green", []),
    ("unsupported", "roll out the kitchen awning", []),
    ("unsupported", "fan on turbo", []),
    ("invalid", "heating to 30 degrees", []),
    ("invalid", "bar lights to 140 percent", []),
    ("negated", "don't turn off the ice machine", []),
    ("negated", "leave the awnings alone", []),
    ("off_topic", "play some jazz in the harbour room", []),
    ("off_topic", "how many lattes did we sell today?", []),
    ("missing", "turn the lights on", []),
    ("missing", "roll out the awning", []),
    ("missing", "set the heating", []),
]


def rows() -> list[dict[str, Any]]:
    """The cases as `needled eval` reads them (vendor JSONL, tools on each case)."""
    tools = home_tools(tomllib.loads(CONFIG)["devices"])
    return [
        {"query": q, "tools": tools, "answers": a, "category": cat, "home": "harbour_cafe"}
        for cat, q, a in CASES
    ]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="directory for harbour_cafe.toml and .jsonl")
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "harbour_cafe.toml").write_text(CONFIG)
    data = rows()
    (out / "harbour_cafe.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in data), encoding="utf-8"
    )
    print(f"wrote {len(data)} cases and the config to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
