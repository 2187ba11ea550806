"""The daemon's memory hygiene helpers (the RSS budget itself is tested end to end in
test_daemon_e2e.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_SCRIPT = """
from agent.service.daemon import trim_heap

def anon_kb():
    for line in open("/proc/self/status"):
        if line.startswith("RssAnon:"):
            return int(line.split()[1])

blocks = [bytes(2000) + i.to_bytes(4, "little") for i in range(20000)]  # ~40 MB on the heap
keep = blocks[-1]  # pins the top of the heap, so free() alone cannot shrink it
del blocks
before = anon_kb()
assert trim_heap()
print(before, anon_kb())
"""


def test_trim_heap_returns_freed_heap_pages() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        timeout=60,
    )
    before, after = map(int, out.stdout.split())
    assert before - after > 20_000, (before, after)  # most of the 40 MB went back
