"""Regenerate the held-out homes' evaluation files from their hand-written sources.

There are seven sets, each a folder of configs and a source: ``homes/`` with
``heldout_homes.txt``, and ``homesN/`` with ``heldout_homesN.txt`` for N = 2 to 7; each writes
its own ``.jsonl`` and ``_names.json`` beside its source.

- ``homes/<home>.toml``: one needled config per home (device tables only).
- ``heldout_homes.txt``: the hand-written cases, one per line (format below).
- ``heldout_homes.jsonl`` (written): vendor-format cases, each with the exact ``tools`` its home's
  config produces through the device kinds, plus ``category`` and ``home``.
- ``heldout_homes_names.json`` (written): every name a home's config chooses (rooms, device,
  relay, plug and LED labels, custom colours and fan speeds), lowercased. Training name pools
  must not contain any of them, so the evaluation homes stay unseen. Values fixed by a device
  kind (thermostat modes, ON/OFF/TOGGLE, LED modes, log levels, the default colours and fan
  speeds) are in every home and are not listed.

The script only attaches schemas and parses the answers; the queries are copied verbatim.
Run it after editing a source or a device kind's schema, and commit the result::

    python tests/data/make_heldout_homes.py          # rewrite the generated files
    python tests/data/make_heldout_homes.py --check  # exit 1 if they have drifted

Source format: ``## <home>`` starts a home; then one case a line,
``<cat> | <query> | <answer>`` where ``cat`` is one of ``pos two uns inv neg off mis``.
For ``pos`` and ``two`` the answer is the calls, ``tool key=value ...`` separated by `` ; ``,
values written as JSON (``room="Ana's room" on=true brightness=40``). For ``uns`` it is
``absent: <name>`` (the name the query uses that this home's tools lack); for ``inv`` it is
``range: <tool>.<param>=<number>`` (the out-of-range number the query says). Other refusals
leave it empty. Blank lines and lines starting with ``#`` are ignored.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

# Each set: its homes' configs, its source, and the two files written from them. Each later set
# was written while the one before it was being studied, and uses none of the earlier names.
SETS = {
    1: (HERE / "homes", HERE / "heldout_homes.txt"),
    2: (HERE / "homes2", HERE / "heldout_homes2.txt"),
    3: (HERE / "homes3", HERE / "heldout_homes3.txt"),
    4: (HERE / "homes4", HERE / "heldout_homes4.txt"),
    5: (HERE / "homes5", HERE / "heldout_homes5.txt"),
    6: (HERE / "homes6", HERE / "heldout_homes6.txt"),
    7: (HERE / "homes7", HERE / "heldout_homes7.txt"),
}
HOMES, SOURCE = SETS[1]


def outputs(source: Path) -> tuple[Path, Path]:
    """The cases file and the names file written from a source."""
    return source.with_suffix(".jsonl"), source.with_name(source.stem + "_names.json")


CASES, NAMES = outputs(SOURCE)

CATEGORIES = {
    "pos": "positive",
    "two": "two_actions",
    "uns": "unsupported",
    "inv": "invalid",
    "neg": "negated",
    "off": "off_topic",
    "mis": "missing",
}

# The config keys whose entries (list items or table keys) are names a user chose.
_NAME_KEYS = ("rooms", "colors", "speeds", "switches", "devices", "relays", "leds")

_ARG = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')


def home_tools(home: str, folder: Path = HOMES) -> list[dict[str, Any]]:
    """The tool schemas the home's config produces through needled's device kinds."""
    sys.path.insert(0, str(ROOT))
    from agent.offline.train.synth import tools_from_config

    return tools_from_config(folder / f"{home}.toml")


def homes(folder: Path = HOMES) -> list[str]:
    return sorted(p.stem for p in folder.glob("*.toml"))


def _kind_defaults() -> set[str]:
    sys.path.insert(0, str(ROOT))
    from devices.simulated import DEFAULT_COLORS
    from devices.zigbee2mqtt import COLORS

    return {*DEFAULT_COLORS, *COLORS, "low", "medium", "high"}


def config_names(folder: Path = HOMES) -> list[str]:
    """Every name the homes' configs choose, lowercased and sorted (kind defaults left out)."""
    import tomllib

    defaults = _kind_defaults()
    names: set[str] = set()
    for home in homes(folder):
        cfg = tomllib.loads((folder / f"{home}.toml").read_text(encoding="utf-8"))
        for table in cfg.get("devices", {}).values():
            for key in _NAME_KEYS:
                # a kind's default colour or speed is no chosen name; a room or LED called
                # "blue" is
                keep = key not in ("colors", "speeds")
                names.update(
                    str(n).lower() for n in table.get(key, ()) if keep or n not in defaults
                )
    return sorted(names)


def _calls(text: str, where: str) -> list[dict[str, Any]]:
    calls = []
    for part in text.split(" ; "):
        name, _, rest = part.strip().partition(" ")
        args = {k: json.loads(v) for k, v in _ARG.findall(rest)}
        if _ARG.sub("", rest).strip():
            raise ValueError(f"{where}: cannot parse arguments {rest!r}")
        calls.append({"name": name, "arguments": args})
    return calls


def parse_source(text: str, source: str = SOURCE.name) -> list[dict[str, Any]]:
    """The cases of a source file (``source`` names it in errors), without tools."""
    rows: list[dict[str, Any]] = []
    home = None
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#") and not line.startswith("##"):
            continue
        if line.startswith("##"):
            home = line[2:].strip()
            continue
        where = f"{source}:{n}"
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3 or parts[0] not in CATEGORIES or home is None:
            raise ValueError(f"{where}: expected '<cat> | <query> | <answer>' inside a home")
        cat, query, answer = CATEGORIES[parts[0]], parts[1], parts[2]
        row: dict[str, Any] = {"query": query, "answers": [], "category": cat, "home": home}
        if cat in ("positive", "two_actions"):
            row["answers"] = _calls(answer, where)
        elif cat == "unsupported":
            if not answer.startswith("absent:"):
                raise ValueError(f"{where}: unsupported cases name the absent name")
            row["absent"] = answer.removeprefix("absent:").strip()
        elif cat == "invalid":
            m = re.fullmatch(r"range:\s*(\w+)\.(\w+)=(-?[\d.]+)", answer)
            if not m:
                raise ValueError(f"{where}: invalid cases give 'range: tool.param=number'")
            row["out_of_range"] = {
                "name": m[1],
                "param": m[2],
                "value": json.loads(m[3]),
            }
        elif answer:
            raise ValueError(f"{where}: a {cat} case has no answer")
        rows.append(row)
    return rows


def build(which: int = 1) -> tuple[str, str]:
    """The text of a set's cases file and of its names file."""
    folder, source = SETS[which]
    tools = {h: home_tools(h, folder) for h in homes(folder)}
    lines = []
    for row in parse_source(source.read_text(encoding="utf-8"), source.name):
        if row["home"] not in tools:
            raise ValueError(f"no config for home {row['home']!r}")
        out = {"query": row.pop("query"), "tools": tools[row["home"]], **row}
        lines.append(json.dumps(out, ensure_ascii=False))
    names = json.dumps(config_names(folder), indent=1, ensure_ascii=False)
    return "\n".join(lines) + "\n", names + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the files have drifted")
    args = ap.parse_args()
    stale = []
    for which, (_, source) in SETS.items():
        cases, names = build(which)
        cases_path, names_path = outputs(source)
        if args.check:
            stale += [
                p.name for p, t in ((cases_path, cases), (names_path, names)) if p.read_text() != t
            ]
            continue
        cases_path.write_text(cases, encoding="utf-8")
        names_path.write_text(names, encoding="utf-8")
        n_names = names.count(",") + 1
        print(
            f"{cases_path.name}: {cases.count(chr(10))} cases; {names_path.name}: {n_names} names"
        )
    if stale:
        print(f"out of date: {', '.join(stale)}; run {Path(__file__).name}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
