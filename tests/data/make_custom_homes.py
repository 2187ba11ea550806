"""Regenerate the custom homes' evaluation files from their hand-written sources.

Custom homes measure ``needled train --config FILE``: homes built from needled's device kinds
but with every tool renamed and described in the owner's words, and a ``log`` kind (notes), which
the general model never saw. In ``custom_homes/``:

- ``<home>.toml``: the home's needled config (device tables only).
- ``<home>.txt``: its hand-written cases, in the format of ``make_heldout_homes.py`` (one
  ``## <home>`` section; answers use the home's own tool names).
- ``<home>.jsonl`` (written): vendor-format cases, each with the exact ``tools`` the config
  produces through the device kinds, plus ``category`` and ``home``.
- ``names.json`` (written): every name the configs choose, lowercased, so training name pools
  can leave them out as they do the held-out homes' names.

The script only attaches schemas and parses the answers; the queries are copied verbatim::

    python tests/data/make_custom_homes.py          # rewrite the generated files
    python tests/data/make_custom_homes.py --check  # exit 1 if they have drifted
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
HOMES = HERE / "custom_homes"
NAMES = HOMES / "names.json"

sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import make_heldout_homes as heldout  # noqa: E402  (the shared source format)


def homes() -> list[str]:
    return sorted(p.stem for p in HOMES.glob("*.toml"))


def home_tools(home: str) -> list[dict[str, Any]]:
    """The tool schemas the home's config produces through needled's device kinds."""
    from agent.offline.train.synth import tools_from_config

    return tools_from_config(HOMES / f"{home}.toml")


def home_cases(home: str) -> list[dict[str, Any]]:
    """The home's cases in vendor format, with its tools attached."""
    source = HOMES / f"{home}.txt"
    rows = heldout.parse_source(source.read_text(encoding="utf-8"), source.name)
    stray = {r["home"] for r in rows} - {home}
    if stray or not rows:
        raise ValueError(f"{source.name}: needs one '## {home}' section, found {sorted(stray)}")
    tools = home_tools(home)
    return [{"query": r.pop("query"), "tools": tools, **r} for r in rows]


def config_names() -> list[str]:
    """Every name the configs choose, lowercased and sorted (kind defaults left out)."""
    defaults = heldout._kind_defaults()
    names: set[str] = set()
    for home in homes():
        cfg = tomllib.loads((HOMES / f"{home}.toml").read_text(encoding="utf-8"))
        for table in cfg.get("devices", {}).values():
            for key in heldout._NAME_KEYS:
                names.update(str(n).lower() for n in table.get(key, ()) if n not in defaults)
    return sorted(names)


def build() -> dict[Path, str]:
    """The text of every generated file, by path."""
    out = {}
    for home in homes():
        rows = home_cases(home)
        out[HOMES / f"{home}.jsonl"] = "".join(
            json.dumps(r, ensure_ascii=False) + "\n" for r in rows
        )
    out[NAMES] = json.dumps(config_names(), indent=1, ensure_ascii=False) + "\n"
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the files have drifted")
    args = ap.parse_args()
    files = build()
    if args.check:
        stale = [p.name for p, t in files.items() if not p.exists() or p.read_text() != t]
        if stale:
            print(f"out of date: {', '.join(stale)}; run {Path(__file__).name}")
            return 1
        return 0
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
        print(f"{path.relative_to(HERE)}: {text.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
