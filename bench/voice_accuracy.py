"""Spoken-command accuracy as a JSON report: the test set of tests/voice_testset.py (espeak-ng
voices and speeds, sox noise), recognised and answered through the daemon's own parts.

    python bench/voice_accuracy.py --out bench/voice_accuracy.json

tests/test_voice_accuracy.py asserts the targets on the same report; this writes it down with
the machine, the models' hashes and each stage's time.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import voice_testset  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "bench" / "voice_accuracy.json"))
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        report = voice_testset.run(Path(tmp))
    Path(a.out).write_text(json.dumps(report, indent=1) + "\n")
    rates = report["rates"]
    for key in (
        "command_clean_demo",
        "command_noisy_demo",
        "command_clean_home2",
        "command_noisy_home2",
        "noncommand_rejected",
    ):
        print(f"{key:<22}{rates[key] * 100:6.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
