"""Write the short-names development set: `python bench/dev_short.py --out FILE.jsonl`.

Homes whose owners wrote full names in the config ("Tamsin's attic bedroom", "port side bilge
pump") and whose people say the shortest form that still picks one thing ("Tamsin's room",
"the bilge pump"). The fresh-names dev set (bench/dev_names.py) was served at 97% and said
almost every name whole; its few failures were short forms. Five helper writers wrote this set
under the held-out writers' brief (tests/data/heldout_brief.md) with the checker refusing every
name of training, the dev sets and held-out sets 1 to 7, a note asking for full names in the
configs and about two thirds of the requests saying a shorter form, counts of 13 one-action,
6 multi-action and 7 refusals per home, and a persona of their own (a watermill family, a
bakery and a teacher's flat; a livery yard, a restorer's workshop and a Welsh farmhouse; a
Dutch barge, a yoga studio and a student flat; a vicarage, a florist and a home run by voice;
a fish breeder, a tattoo studio and a grandmother's summer). They were told it is a development
set: rules are chosen on it, as on every dev set here; nothing is ever trained on it.

A second batch of five writers (folders b2_*: a smithy, a campsite farmhouse and a captain's
bungalow; a GP's annexe, a micro-brewery and a toddler's semi; a village theatre, an allotment
chalet and a silversmith's loft; kennels, a post office and a teenager's loft; a chapel home, a
mushroom unit and elderly twins' flat) wrote 390 more under the same note after the short-form
reader (agent/calling/grammar/shortnames.py) was built on the first, and was measured before
anyone read it: commands 150 -> 171 of 195, two actions 50 -> 72 of 90, refusals 104 -> 104
of 105, against the decoding before the reader.

A third batch of five (folders b3_*: a narrowboat hire base, a dental surgery and a rugby
clubhouse; a hill farm bed and breakfast, a recording studio and a widower's bungalow; a
letterpress workshop, a care home lounge and a rowing club boathouse; a school house with three
teenagers, a cheese dairy and a piano teacher's flat; a motorbike garage, a nursery room and a
canal-side loft) wrote 390 more under the same note, and it was measured before anyone read it,
at 1960515, min_confidence 0.5: commands 186 of 195 (95.4%), two actions 81 of 90 (90.0%),
refusals 102 of 105 (bench/general/dev_short_batch3_first_read.json).

Each writer's folder under bench/dev_short/ holds `homes/<home>.toml` and `cases.txt`, in the
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

FOLDER = HERE / "dev_short"
# the cases as `needled eval` reads them (vendor JSONL, tools on each case)
rows = partial(dev_lists.rows, FOLDER)

if __name__ == "__main__":
    raise SystemExit(dev_handwritten.main(rows, __doc__))
