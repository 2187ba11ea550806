"""Write the multi-action development set: `python bench/dev_lists.py --out FILE.jsonl`.

Requests that ask for two or three things at once, the category every held-out set found
weakest. Helper writers wrote them while set 4 was being studied, each given the held-out
writers' brief (tests/data/heldout_brief.md: the device kinds, the case format, the answer
conventions, the names to avoid) with its counts changed to 14 multi-action and 4 one-action
requests per home, and a persona of their own (a family at a kitchen speaker in the morning
rush, people typing from phones, small workplaces at closing time, grandparents and
grandchildren speaking in full sentences). They were told it is a development set: rules are
chosen on it, as on every dev set here; nothing is ever trained on it.

Each writer's folder under bench/dev_lists/ holds `homes/<home>.toml` and `cases.txt`, in the
held-out sets' source format (tests/data/make_heldout_homes.py reads both).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import dev_handwritten  # noqa: E402  (a sibling script, not a package)

FOLDER = HERE / "dev_lists"


def _maker() -> Any:
    path = HERE.parent / "tests" / "data" / "make_heldout_homes.py"
    spec = importlib.util.spec_from_file_location("make_heldout_homes", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def rows(folder: Path = FOLDER) -> list[dict[str, Any]]:
    """The cases as `needled eval` reads them (vendor JSONL, tools on each case), from each
    writer's folder under `folder`."""
    mh = _maker()
    out: list[dict[str, Any]] = []
    for writer in sorted(p for p in folder.iterdir() if p.is_dir()):
        homes = writer / "homes"
        tools = {h: mh.home_tools(h, homes) for h in mh.homes(homes)}
        source = writer / "cases.txt"
        for row in mh.parse_source(source.read_text(encoding="utf-8"), source.name):
            out.append({"query": row.pop("query"), "tools": tools[row["home"]], **row})
    return out


def main() -> int:
    return dev_handwritten.main(rows, __doc__)


if __name__ == "__main__":
    raise SystemExit(main())
