"""Write the fresh-names development set: `python bench/dev_names.py --out FILE.jsonl`.

Whole homes' worth of cases (one action, two or three at once, and every kind of refusal)
whose names no earlier set, dev or held-out, uses: the seventh held-out set shares no name
with any dev set, and rules chosen on dev sets whose names sets 2 to 6 share may fit those
names rather than the ways people ask. Five helper writers wrote it after set 7 was sealed,
each given the held-out writers' brief (tests/data/heldout_brief.md: the device kinds, the
case format, the answer conventions) with the checker refusing every name of training, of
the dev sets and of held-out sets 1 to 7, and a persona of their own (a ski chalet, a
mountain refuge and a forge; a lighthouse let, a boat shed and a three-generation household;
a dental surgery, the flat above it and a beekeeper's farm; a couple with a newborn, a
gamer's den and a widower's terrace; an astronomer's observatory, a vineyard barn and a
nurses' shared house). They were told it is a development set: rules are chosen on it, as
on every dev set here; nothing is ever trained on it.

Each writer's folder under bench/dev_names/ holds `homes/<home>.toml` and `cases.txt`, in the
held-out sets' source format (tests/data/make_heldout_homes.py reads both).
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import dev_handwritten  # noqa: E402  (sibling scripts, not a package)
import dev_lists  # noqa: E402

FOLDER = HERE / "dev_names"
# the cases as `needled eval` reads them (vendor JSONL, tools on each case)
rows = partial(dev_lists.rows, FOLDER)

if __name__ == "__main__":
    raise SystemExit(dev_handwritten.main(rows, __doc__))
