"""Hostile `.cact` files: every malformed one is refused with one CactError naming the field, by
the reader, `needled inspect` and the engine alike, and none crashes or balloons the process.

Whatever could crash (a C allocation, the engine) runs in a child process, so a crash fails the
test instead of killing pytest.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agent.model import cact
from agent.model.errors import CactError

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "agent" / "models" / "demo.cact"
TOOLS = [
    {
        "name": "set_fan",
        "description": "Switch the fan on or off.",
        "parameters": {
            "type": "object",
            "properties": {"on": {"type": "boolean"}},
            "required": ["on"],
        },
    }
]


def needled(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "agent.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def mutated(tmp_path: Path, name: str, offset: int, value: int) -> Path:
    data = bytearray(DEMO.read_bytes())
    data[offset : offset + 4] = value.to_bytes(4, "little")
    out = tmp_path / f"{name}.cact"
    out.write_bytes(data)
    return out


# (header field, byte offset, value): each used to be accepted by `inspect` and then crash,
# balloon or fail with a stray exception type in `ask`
HEADER_CASES = [
    ("kv_window", 12, 1 << 24),  # accepted; a 2^24-slot cache
    ("engram_conv_dilation", 72, 1 << 24),  # SIGSEGV: memset of a failed allocation
    ("engram_conv_dilation", 72, 100_000),  # 1.8 GB resident
    ("kv_window", 12, 0),  # AssertionError
    ("kv_window", 12, 1 << 31),  # OverflowError
    ("max_seq_len", 44, 1 << 31),
    ("engram_orders", 80, 9),  # the engram hash keeps 8 tokens: reads past its window
]


@pytest.mark.parametrize(("field", "offset", "value"), HEADER_CASES)
def test_out_of_range_header_field_is_named_by_inspect_and_ask(tmp_path, field, offset, value):
    model = mutated(tmp_path, field, offset, value)
    with pytest.raises(CactError, match=field):
        cact.read_cact(model)
    r = needled("inspect", str(model))
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "invalid model" in r.stderr and field in r.stderr and str(value) in r.stderr
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps(TOOLS))
    r = needled("ask", "fan on", "--tools", str(tools), "--model", str(model))
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "invalid model" in r.stderr and field in r.stderr


def test_header_error_points_at_the_field_offset(tmp_path):
    model = mutated(tmp_path, "dil", 72, 1 << 24)
    with pytest.raises(CactError, match=r"\(byte offset 72\).*engram_conv_dilation"):
        cact.read_cact(model)


def test_geometry_over_the_state_budget_is_refused_by_name():
    g = cact.read_cact(DEMO).geometry
    fits = cact.Geometry(**{**g.__dict__, "max_seq_len": 1 << 16, "kv_window": 1 << 15})
    assert fits.state_bytes() <= cact.STATE_BUDGET_BYTES and not fits.problems()
    wide = cact.Geometry(
        **{**g.__dict__, "max_seq_len": 1 << 16, "kv_window": 1 << 16, "num_kv_heads": 4}
    )
    (problem,) = wide.problems()
    assert problem.startswith("kv_window 65536") and "MiB" in problem
    assert cact.read_cact(DEMO).geometry.state_bytes() < 4 << 20


def test_corrupt_tokenizer_length_is_a_cact_error_not_a_buffer_error(tmp_path):
    """The tokenizer parser's views of the map used to outlive its error, so closing the map
    raised BufferError instead of the CactError (446 of 3,000 mutated files)."""
    with cact.read_cact(DEMO) as cf:
        tok = cf.info("tokenizer")
    data = bytearray(DEMO.read_bytes())
    # the first piece's text length: past the end of the blob
    data[tok.offset + 24 + 5 : tok.offset + 24 + 7] = (0xFFFF).to_bytes(2, "little")
    model = tmp_path / "tok.cact"
    model.write_bytes(data)
    with pytest.raises(CactError, match="tokenizer"):
        cact.read_cact(model)
    r = needled("inspect", str(model))
    assert r.returncode == 2 and "invalid model" in r.stderr and "Traceback" not in r.stderr


def _child(code: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def test_engine_settings_beyond_its_budget_raise_instead_of_crashing():
    r = _child(
        f"""
        from agent.model.cact import read_cact
        from agent.model.engine import NativeEngine
        cf = read_cact({str(DEMO)!r})
        for kw in ({{"window": 1 << 22}}, {{"window": None, "capacity": 1 << 24}}):
            try:
                NativeEngine(cf, mode="int8", threads=1, **kw)
            except MemoryError as e:
                print("budget", e)
        try:
            NativeEngine(cf, mode="int8", window=1 << 31, threads=1)
        except ValueError as e:
            print("value", e)
        e = NativeEngine(cf, mode="int8", window=256, threads=1)
        print("ok", e.memory_budget_bytes <= (512 << 20), e.prefill([1, 2, 3]).shape)
        """
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert [ln.split()[0] for ln in lines] == ["budget", "budget", "value", "ok"], r.stdout
    assert "over its 512 MiB budget" in lines[0] and "window 4194304" in lines[0]
    assert "window must be 0..16777216" in lines[2]
    assert lines[3] == "ok True (3, 1024)"


def test_failed_allocation_raises_memory_error():
    """With the address space capped, the engine's allocations fail: each is checked, the half
    made engine is freed, and Python gets a MemoryError (it used to memset a NULL buffer)."""
    r = _child(
        f"""
        import resource
        from agent.model.cact import read_cact
        from agent.model.engine import NativeEngine
        cf = read_cact({str(DEMO)!r})
        NativeEngine(cf, mode="int8", window=256, threads=1).prefill([1, 2])
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        for _ in range(3):  # nothing leaks from a failed build
            try:
                NativeEngine(cf, mode="fp32", window=None, capacity=1 << 23, threads=1,
                             budget_bytes=0)
            except MemoryError as e:
                print(e)
        print("alive", NativeEngine(cf, mode="int8", window=256, threads=1).prefill([1]).shape)
        """
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 4 and all("cannot allocate" in ln for ln in lines[:3]), r.stdout
    assert lines[3] == "alive (1, 1024)"


FUZZ_CHILD = """
import collections, json, random, struct, sys
from agent.model import cact
from agent.model.engine import NativeEngine
from agent.model.errors import CactError
from agent.model.modelinfo import format_table, summarize
from agent.model.tokenizer import Tokenizer

demo_path, out_path, seed, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
src = open(demo_path, "rb").read()
with cact.read_cact(demo_path) as cf:
    tok = cf.info("tokenizer")
    n_tensors = len(cf.tensors)
dir_off = cact.HEADER.size + 4 * cact.CODEBOOK_LEN
regions = [
    (0, cact.HEADER.size),
    (dir_off, dir_off + n_tensors * cact.RECORD.size),
    (tok.offset, tok.offset + 64),
    (tok.offset, tok.offset + tok.nbytes),
]
values = [0, 1, 2, 3, 7, 8, 9, 255, 1 << 16, 1 << 24, 100000, (1 << 31) - 1, 1 << 31, 0xFFFFFFFF]
rng = random.Random(seed)
outcomes = collections.Counter()
for i in range(n):
    data = bytearray(src)
    for _ in range(rng.randint(1, 3)):
        lo, hi = rng.choice(regions)
        off = rng.randrange(lo, hi - 4)
        if rng.random() < 0.6:
            v = rng.choice(values) if rng.random() < 0.7 else rng.getrandbits(32)
            struct.pack_into("<I", data, off & ~3, v)
        else:
            data[off] = rng.randrange(256)
    with open(out_path, "wb") as f:
        f.write(data)
    try:
        with cact.read_cact(out_path) as cf:  # what `needled inspect` does
            format_table(summarize(cf))
        cf = cact.read_cact(out_path)  # what the daemon does
        Tokenizer(bytes(cf.tokenizer_blob))
        eng = NativeEngine(cf, mode="int8", window=cf.geometry.kv_window, sinks=4, threads=2)
        eng.prefill([1, 2, 3, 4, 5, 6])
        outcomes["loaded"] += 1
    except CactError:
        outcomes["CactError"] += 1
    except BaseException as e:
        outcomes[f"{type(e).__name__}: {e}"[:200]] += 1
        with open(out_path + f".{i}", "wb") as f:
            f.write(data)
# VmHWM, not ru_maxrss: the latter keeps the peak of the forked pytest from before exec
with open("/proc/self/status") as f:
    peak_mb = next(int(ln.split()[1]) for ln in f if ln.startswith("VmHWM:")) / 1024
print(json.dumps({"outcomes": outcomes, "peak_mb": peak_mb}))
"""


def test_seeded_mutation_fuzz_through_read_inspect_and_engine(tmp_path):
    r = subprocess.run(
        [sys.executable, "-c", FUZZ_CHILD, str(DEMO), str(tmp_path / "m.cact"), "14", "400"],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=ROOT,
    )
    assert r.returncode == 0, f"the child died ({r.returncode}): {r.stderr[-2000:]}"
    report = json.loads(r.stdout.splitlines()[-1])
    outcomes = report["outcomes"]
    assert set(outcomes) <= {"loaded", "CactError"}, outcomes
    assert outcomes["CactError"] > 200 and sum(outcomes.values()) == 400
    # the demo model's process: well under the daemon's 64 MB, whatever the header said
    assert report["peak_mb"] < 200, report


def test_cli_reports_an_engine_over_its_budget(tmp_path):
    r = needled(
        "logits", str(DEMO), "--ids", "1,2", "--backend", "native", "--window", str(1 << 22),
        "--out", str(tmp_path / "l.npy"),
    )  # fmt: skip
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "over its 512 MiB budget" in r.stderr
