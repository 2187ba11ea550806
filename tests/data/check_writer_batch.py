"""Check a held-out writer's batch before it joins a set: `python tests/data/check_writer_batch.py
DIR [--tools | --names]`.

DIR holds ``homes/<home>.toml`` (device tables only) and ``cases.txt`` in the format of
``make_heldout_homes.py``. Errors (exit 1): a kind outside the trained ones, a name the training
split trains on or an earlier set uses, an answer that is not a valid call of its home's tools,
an ``uns`` name the tools have, an ``inv`` number inside its range, a home without cases.
``--tools`` prints the tools each home's config produces (what the writer answers against);
``--names`` prints the evaluation-side names no set uses yet (what the writer may draw on).
The brief the writers of sets 2 to 4 followed is ``heldout_brief.md``.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from agent.offline.train.homes import name_split  # noqa: E402
from agent.offline.train.synth import tools_from_config  # noqa: E402

KINDS = {
    "gpio_leds",
    "gpio_relays",
    "simulated_blinds",
    "simulated_fan",
    "simulated_lights",
    "simulated_thermostat",
    "tasmota",
    "zigbee2mqtt_lights",
}


def _maker() -> Any:
    spec = importlib.util.spec_from_file_location("mh", HERE / "make_heldout_homes.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def taken_names() -> set[str]:
    """Names training trains on, and names an existing held-out set uses (lowercased)."""
    split = name_split()
    out = {n.lower() for k in ("rooms", "devices", "leds", "colors") for n in split[k]["train"]}
    out |= {w.strip().lower() for ss in split["speed_sets"]["train"] for w in ss.split("|")}
    for f in HERE.glob("heldout_homes*_names.json"):
        out |= {n.lower() for n in json.loads(f.read_text(encoding="utf-8"))}
    out |= dev_names()
    # the demo home trains on its own values (rooms, colours, speeds), so no thing may use one
    for t in tools_from_config():
        for sch in t["parameters"]["properties"].values():
            out |= {str(v).lower() for v in sch.get("enum", ())}
    return out


# The hand-written development sets rules are chosen on (bench/dev_*.py).
DEV_SETS = (
    "dev_handwritten",
    "dev_coordination",
    "dev_custom_home",
    "dev_switches",
    "dev_everyday",
    "dev_speakers",
    "dev_fresh",
    "dev_lists",
    "dev_homes",
    "dev_names",
    "dev_short",
    "dev_mixed",
)


def dev_names() -> set[str]:
    """The rooms and devices a development set names (lowercased): a held-out set written
    after this checker learned of them uses none, so no rule was chosen on its names. Sets 2
    to 6 were written before, and share some."""
    out: set[str] = set()
    bench = HERE.parent.parent / "bench"
    for name in DEV_SETS:
        spec = importlib.util.spec_from_file_location(name, bench / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        for row in mod.rows():
            for t in row["tools"]:
                for key, sch in t["parameters"]["properties"].items():
                    if key in ("room", "device", "relay", "led"):
                        out |= {str(v).lower() for v in sch.get("enum", ())}
    return out


def free_names() -> str:
    """The evaluation-side names of each pool that no set uses yet."""
    split, taken = name_split(), taken_names()
    parts = [
        f"## {k}\n" + ", ".join(n for n in split[k]["eval"] if n.lower() not in taken)
        for k in ("rooms", "devices", "leds", "colors")
    ]
    return "\n\n".join(parts) + "\n"


def check(folder: Path) -> list[str]:
    mh = _maker()
    errors: list[str] = []
    taken = taken_names()
    defaults = mh._kind_defaults()
    tools: dict[str, list[dict[str, Any]]] = {}
    for p in sorted((folder / "homes").glob("*.toml")):
        try:
            cfg = tomllib.loads(p.read_text(encoding="utf-8"))
            for name, table in cfg.get("devices", {}).items():
                if table.get("kind") not in KINDS:
                    errors.append(f"{p.name}: [devices.{name}] kind {table.get('kind')!r}")
                for key in mh._NAME_KEYS:
                    # a kind's default colour or speed is free to list; a thing is named
                    free = defaults if key in ("colors", "speeds") else set()
                    for n in table.get(key, ()):
                        if str(n).lower() in taken and n not in free:
                            errors.append(f"{p.name}: name {n!r} is taken; choose another")
            tools[p.stem] = tools_from_config(p)
        except Exception as e:  # a config the daemon would refuse, said as it would
            errors.append(f"{p.name}: {type(e).__name__}: {e}")
    rows = mh.parse_source((folder / "cases.txt").read_text(encoding="utf-8"), "cases.txt")
    from devices.registry import validate

    for r in rows:
        where = f"[{r['home']}] {r['query']!r}"
        home = tools.get(r["home"])
        if home is None:
            errors.append(f"{where}: no homes/{r['home']}.toml")
            continue
        by = {t["name"]: t for t in home}
        want = {"positive": 1, "two_actions": 2}.get(r["category"], 0)
        n = len(r["answers"])
        if n < want or (r["category"] != "two_actions" and n != want):
            errors.append(f"{where}: {n} calls for a {r['category']} case")
        for c in r["answers"]:
            t = by.get(c["name"])
            problems = validate(c["arguments"], t["parameters"]) if t else [f"no tool {c['name']}"]
            errors += [f"{where}: {p}" for p in problems]
        if r["category"] == "unsupported":
            values = {
                str(v).lower()
                for t in home
                for s in t["parameters"]["properties"].values()
                for v in s.get("enum", ())
            }
            if r["absent"].lower() in values:
                errors.append(f"{where}: {r['absent']!r} is a value of this home's tools")
        if r["category"] == "invalid":
            o = r["out_of_range"]
            s = by.get(o["name"], {}).get("parameters", {}).get("properties", {}).get(o["param"])
            if not s:
                errors.append(f"{where}: no {o['name']}.{o['param']}")
            elif s.get("minimum", -1e9) <= o["value"] <= s.get("maximum", 1e9):
                errors.append(f"{where}: {o['value']} is inside the range")
    errors += [f"home {h} has no cases" for h in tools if h not in {r["home"] for r in rows}]
    return errors


def main() -> int:
    if "--names" in sys.argv:
        print(free_names(), end="")
        return 0
    folder = Path(sys.argv[1])
    if "--tools" in sys.argv:
        for p in sorted((folder / "homes").glob("*.toml")):
            print(f"== {p.stem}")
            for t in tools_from_config(p):
                print(f"  {t['name']}: {t['description']}")
                req = t["parameters"].get("required", [])
                for k, v in t["parameters"]["properties"].items():
                    extra = v.get("enum") or [v.get("minimum"), v.get("maximum")]
                    extra = "" if v.get("type") == "boolean" else extra
                    print(f"    {k}{' (required)' if k in req else ''}: {v.get('type')} {extra}")
        return 0
    errors = check(folder)
    for e in errors:
        print("ERROR", e)
    print(f"{len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
