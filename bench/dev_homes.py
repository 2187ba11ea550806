"""Write the second fresh development set: `python bench/dev_homes.py --out FILE.jsonl`.

Whole homes' worth of cases (one action, two or three at once, and every kind of refusal),
written by four helper writers while the seventh held-out set was sealed and the sixth was
being studied: each was given the held-out writers' brief (tests/data/heldout_brief.md: the
device kinds, the case format, the answer conventions, the names to avoid) and a persona of
their own (a dog groomer's and a bike workshop, a family with young twins, a large shared
allotment and its sheds, a live-in carer and two elderly siblings). They were told it is a
development set: rules are chosen on it, as on every dev set here; nothing is ever trained on
it. The held-out sets' writers' checker refuses its names for later held-out sets.

Each writer's folder under bench/dev_homes/ holds `homes/<home>.toml` and `cases.txt`, in the
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

FOLDER = HERE / "dev_homes"
# the cases as `needled eval` reads them (vendor JSONL, tools on each case)
rows = partial(dev_lists.rows, FOLDER)

if __name__ == "__main__":
    raise SystemExit(dev_handwritten.main(rows, __doc__))
