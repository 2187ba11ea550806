"""Write the coordination development set: `python bench/dev_coordination.py --out FILE.jsonl`.

Two things under one verb ("turn off the pantry light and the attic light"), two verbs for two
things ("the fan off and the pantry light on"), and the questions and negations that look like
them: 32 requests written by hand to the three homes of `bench/dev_handwritten.py` (same tools,
same names, so nothing held out is reused), for choosing how a switch value follows the verb
that governs its thing. The generated dev sets say "off" once per thing and show no gain there.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from agent.offline.train.homes import home_tools


def _handwritten() -> Any:
    spec = importlib.util.spec_from_file_location(
        "dev_handwritten", Path(__file__).with_name("dev_handwritten.py")
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def c(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "arguments": args}


def light(room: str, on: bool) -> dict[str, Any]:
    return c("set_light", room=room, on=on)


def plug(device: str, action: str) -> dict[str, Any]:
    return c("set_switch", device=device, action=action)


def relay(name: str, on: bool) -> dict[str, Any]:
    return c("set_relay", relay=name, on=on)


def led(name: str, mode: str) -> dict[str, Any]:
    return c("set_led", led=name, mode=mode)


def lamps(room: str, on: bool) -> dict[str, Any]:
    return c("set_lamps", room=room, on=on)


def fan(on: bool) -> dict[str, Any]:
    return c("set_fan", on=on)


CASES: dict[str, list[tuple[str, list[dict[str, Any]]]]] = {
    "mill_cottage": [
        (
            "turn off the pantry light and the attic light",
            [light("pantry", False), light("attic", False)],
        ),
        (
            "switch on the sunroom and the mud room lights",
            [light("sunroom", True), light("mud room", True)],
        ),
        (
            "turn off the espresso machine and the heated mirror",
            [plug("espresso machine", "OFF"), plug("heated mirror", "OFF")],
        ),
        (
            "switch the clothes airer on and the sunroom light too",
            [plug("clothes airer", "ON"), light("sunroom", True)],
        ),
        (
            "heated mirror off, then the attic light on",
            [plug("heated mirror", "OFF"), light("attic", True)],
        ),
        (
            "turn on the espresso machine and the pantry light",
            [plug("espresso machine", "ON"), light("pantry", True)],
        ),
        (
            "kill the heated mirror and the clothes airer",
            [plug("heated mirror", "OFF"), plug("clothes airer", "OFF")],
        ),
        (
            "lights off in Mia's room and the sunroom",
            [light("Mia's room", False), light("sunroom", False)],
        ),
        ("turn the fan off and the pantry light on", [fan(False), light("pantry", True)]),
        (
            "toggle the espresso machine and turn off the mud room light",
            [plug("espresso machine", "TOGGLE"), light("mud room", False)],
        ),
        ("switch off the attic light", [light("attic", False)]),
        ("put the heated mirror on", [plug("heated mirror", "ON")]),
        ("don't turn off the pantry light and the attic light", []),
    ],
    "bakery_unit": [
        (
            "switch on the proofer and the dough mixer",
            [relay("proofer", True), relay("dough mixer", True)],
        ),
        (
            "turn off the extractor hood and the proofer",
            [relay("extractor hood", False), relay("proofer", False)],
        ),
        (
            "turn off the bake room light and the dough mixer",
            [light("bake room", False), relay("dough mixer", False)],
        ),
        (
            "loading bay lights on and front counter lights off",
            [light("loading bay", True), light("front counter", False)],
        ),
        (
            "flash the oven ready light and turn off the door open light",
            [led("oven ready", "blink"), led("door open", "off")],
        ),
        (
            "turn on the door open led and the oven ready led",
            [led("door open", "on"), led("oven ready", "on")],
        ),
        (
            "stop the dough mixer, then switch on the extractor hood",
            [relay("dough mixer", False), relay("extractor hood", True)],
        ),
        (
            "turn the front counter light on and the proofer off",
            [light("front counter", True), relay("proofer", False)],
        ),
        ("shut off the extractor hood", [relay("extractor hood", False)]),
        ("start the proofer", [relay("proofer", True)]),
        ("is the proofer on and the dough mixer off?", []),
        ("never switch off the extractor hood", []),
    ],
    "attic_flat": [
        (
            "turn off the lamps in the lounge and the landing nook",
            [lamps("lounge", False), lamps("landing nook", False)],
        ),
        ("switch on bedroom 5 and bedroom 6", [lamps("bedroom 5", True), lamps("bedroom 6", True)]),
        ("Zoe's room lamp off and the fan on", [lamps("Zoe's room", False), fan(True)]),
        (
            "turn on the lounge lamp, then the landing nook lamp",
            [lamps("lounge", True), lamps("landing nook", True)],
        ),
        (
            "turn the fan off and switch on the bedroom 6 lamp",
            [fan(False), lamps("bedroom 6", True)],
        ),
        ("lamps off in bedroom 5", [lamps("bedroom 5", False)]),
        ("could you tell me why the lounge lamp is off", []),
    ],
}


def _category(query: str, answers: list[dict[str, Any]]) -> str:
    if answers:
        return "two_actions" if len(answers) > 1 else "positive"
    return "negated" if query.split()[0] in ("don't", "never") else "off_topic"


def rows() -> list[dict[str, Any]]:
    """The cases as `needled eval` reads them (vendor JSONL, tools on each case)."""
    homes = _handwritten().HOMES
    out = []
    for home, cases in CASES.items():
        tools = home_tools(homes[home])
        for query, answers in cases:
            out.append(
                {
                    "query": query,
                    "tools": tools,
                    "answers": answers,
                    "category": _category(query, answers),
                    "home": home,
                }
            )
    return out


def main() -> int:
    return _handwritten().main(rows, __doc__)


if __name__ == "__main__":
    raise SystemExit(main())
