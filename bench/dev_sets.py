"""Write the two development sets the decoding prior's weight was chosen on.

    python bench/dev_sets.py --out DIR

`dev_generated.jsonl`: 60 generated homes x 10 requests with training-side names (seed 4242).
`dev_unseen_names.jsonl`: 60 homes x 10 with names from the evaluation side of the split that
the hand-written held-out homes do not use, and no demo home (seed 4244). Both come from the
generator (agent/offline/train/homes.py), so they measure choices (prior weight, model
stage), never the final score: that is the hand-written held-out set's job.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from agent.offline.train.homes import synthesize_homes

SETS = {
    "dev_generated.jsonl": {"seed": 4242, "names": "train", "demo_share": 0.1},
    "dev_unseen_names.jsonl": {"seed": 4244, "names": "unseen", "demo_share": 0.0},
}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="folder for the JSONL files")
    a = p.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, kw in SETS.items():
        rows, _ = synthesize_homes(60, 10, **kw)
        with open(out / name, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        print(f"{out / name}: {len(rows)} cases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
