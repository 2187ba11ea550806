"""The `.cact` reader's invariants, its fuzz robustness, and the writer's byte identity."""

from __future__ import annotations

import hashlib
import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.model import cact
from agent.model.errors import CactError
from agent.model.tokenizer import tokenizer_blob_from_sentencepiece
from tests.conftest import GOLDEN, golden_json

TINY = (GOLDEN / "tiny.cact").read_bytes()
DIR_OFF = 120 + 4 * 28
N_TINY = struct.unpack_from("<I", TINY, 4)[0]


def rec_offset(i: int) -> int:
    return DIR_OFF + i * cact.RECORD.size


def patched(data: bytes, offset: int, fmt: str, *values) -> bytes:
    b = bytearray(data)
    struct.pack_into(fmt, b, offset, *values)
    return bytes(b)


def patch_record(data: bytes, i: int, **fields) -> bytes:
    names = ("dtype", "ndim", "pad", "s0", "s1", "s2", "s3", "offset", "nbytes", "group", "bits")
    rec = dict(zip(names, cact.RECORD.unpack_from(data, rec_offset(i)), strict=True))
    rec.update(fields)
    return patched(data, rec_offset(i), cact.RECORD.format, *rec.values())


def error_of(data: bytes) -> str:
    with pytest.raises(CactError) as e:
        cact.parse(data, "m.cact")
    return str(e.value)


# --- reading ---------------------------------------------------------------------------------
def test_golden_files_read_with_canonical_names(tiny_cact, release_cact):
    # release_cact: the release file's first three layers, its engram site 2 and confidence head
    assert len(tiny_cact.tensors) == 83 and len(release_cact.tensors) == 62
    assert tiny_cact.tensors[0].name == "embedding"
    assert release_cact.info("layer02.k_proj").shape == (256, 512)
    assert release_cact.info("engram0.tables").shape == (4 * 8192, 128)
    assert release_cact.info("confidence_head.probes").shape == (8, 512)
    assert tiny_cact.tensors[-1].name == "tokenizer"
    names = [t.name for t in tiny_cact.tensors]
    manifest = golden_json("tiny_float")
    assert names[:-1] == [e["name"] for e in manifest]
    assert tiny_cact.head_codes == (1, 2) and release_cact.head_codes == (2,)


def test_tensor_views_are_zero_copy_over_the_mapping(release_cact):
    v = release_cact.cq("layer00.q_proj")
    assert v.codes.shape == (512, 128) and v.norms.shape == (512, 4)
    for a in (v.codes, v.norms, release_cact.array("final_norm")):
        assert not a.flags.owndata and not a.flags.writeable
    # The view's memory is the file's memory at the recorded offset.
    t = release_cact.info("layer00.q_proj")
    raw = np.frombuffer(release_cact.buffer, np.uint8, 16, t.offset)
    assert np.array_equal(v.codes[0, :16], raw)
    assert v.codes.__array_interface__["data"][0] == raw.__array_interface__["data"][0]


def test_dense_matches_float_source_within_quantization(tiny_cact):
    with np.load(GOLDEN / "tiny_float_part.npz") as z:
        w = z["002:layer00.q_proj"]
    dense = tiny_cact.dense("layer00.q_proj")
    corr = np.sum(dense * w) / np.sqrt(np.sum(dense**2) * np.sum(w**2))
    assert dense.shape == w.shape and corr > 0.9


@pytest.mark.parametrize(
    "tag,words",
    [(0x05E12A82, "2.0.0-2.0.2"), (0x05E12A84, "Needle 3"), (0x12345678, "unknown format tag")],
)
def test_other_generations_are_refused_by_name(tag, words):
    msg = error_of(patched(TINY, 0, "<I", tag))
    assert words in msg and "m.cact" in msg and "byte offset 0" in msg


@pytest.mark.parametrize("size", [0, 3, 60, 119, 200, DIR_OFF + 44 * 10])
def test_truncated_headers_and_directories(size):
    msg = error_of(TINY[:size])
    assert "truncated" in msg or "past the end" in msg or "tag" in msg


def test_truncated_blob_names_tensor_and_offset():
    msg = error_of(TINY[:-10])
    assert f"tensor {N_TINY - 1}" in msg and "outside the file" in msg
    assert f"byte offset {rec_offset(N_TINY - 1)}" in msg


def test_directory_past_end():
    msg = error_of(patched(TINY, 4, "<I", 30000))
    assert "past the end" in msg


def test_tensor_count_inconsistent_with_geometry():
    msg = error_of(patched(TINY, 4, "<I", 40))
    assert "geometry needs" in msg


def test_geometry_inconsistency_is_reported():
    msg = error_of(patched(TINY, 4 * 12, "<I", 200))  # hada_n not a power of two
    assert "hada_n" in msg


def test_misaligned_offset():
    t = cact.parse(TINY).info("layer00.norm_in")
    msg = error_of(patch_record(TINY, t.index, offset=t.offset + 2))
    assert "aligned" in msg and f"tensor {t.index}" in msg


def test_overlapping_blobs():
    a = cact.parse(TINY).info("layer00.q_norm")
    b = cact.parse(TINY).info("layer00.k_norm")
    msg = error_of(patch_record(TINY, b.index, offset=a.offset))
    assert "overlaps" in msg and f"tensor {b.index}" in msg


def test_unknown_dtype_and_bad_nbytes_and_shape():
    assert "unknown dtype 9" in error_of(patch_record(TINY, 1, dtype=9))
    assert "nbytes" in error_of(patch_record(TINY, 1, nbytes=510))
    assert "geometry needs" in error_of(patch_record(TINY, 1, s0=255))
    assert "must be CQ" in error_of(patch_record(TINY, 2, dtype=1))
    assert "CQ bits 7" in error_of(patch_record(TINY, 2, bits=7))
    assert "group" in error_of(patch_record(TINY, 2, group=100))
    assert "nbytes" in error_of(patch_record(TINY, 2, bits=3))


def test_malformed_tokenizer_blob_is_a_reader_error():
    tok = cact.parse(TINY).info("tokenizer")
    msg = error_of(patched(TINY, tok.offset, "<I", 5))  # n_pieces
    assert "tokenizer" in msg and f"tensor {tok.index}" in msg


def test_read_cact_on_missing_and_empty_files(tmp_path):
    with pytest.raises(CactError, match="cannot open"):
        cact.read_cact(tmp_path / "nope.cact")
    (tmp_path / "empty.cact").write_bytes(b"")
    with pytest.raises(CactError, match="empty"):
        cact.read_cact(tmp_path / "empty.cact")


# --- fuzz -----------------------------------------------------------------------------------
def _parse_only_raises_cact_error(data: bytes) -> None:
    try:
        cact.parse(data, "fuzz.cact")
    except CactError:
        pass


def record_boundaries() -> list[int]:
    cf = cact.parse(TINY)
    cuts = {0, 4, 120, DIR_OFF, len(TINY) - 1}
    cuts |= {rec_offset(i) for i in range(N_TINY + 1)}
    cuts |= {t.offset for t in cf.tensors} | {t.offset + t.nbytes - 1 for t in cf.tensors}
    return sorted(c for c in cuts if c < len(TINY))


def test_truncation_at_every_record_boundary_raises_cact_error():
    for cut in record_boundaries():
        with pytest.raises(CactError):
            cact.parse(TINY[:cut], "fuzz.cact")


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(
    st.lists(st.tuples(st.integers(0, DIR_OFF + 44 * N_TINY - 1), st.integers(0, 255)), max_size=6)
)
def test_random_byte_flips_in_header_and_directory(flips):
    b = bytearray(TINY)
    for off, val in flips:
        b[off] = val
    _parse_only_raises_cact_error(bytes(b))


@FUZZ
@given(st.integers(0, len(TINY) - 1), st.integers(1, 255))
def test_random_byte_flips_anywhere(off, xor):
    b = bytearray(TINY)
    b[off] ^= xor
    _parse_only_raises_cact_error(bytes(b))


@FUZZ
@given(
    st.integers(0, N_TINY - 1),
    st.sampled_from(["dtype", "ndim", "s0", "s1", "s2", "offset", "nbytes", "group", "bits"]),
    st.integers(0, 2**32 - 1),
)
def test_random_directory_field_values(i, fld, value):
    if fld in ("dtype", "ndim"):
        value &= 0xFF
    _parse_only_raises_cact_error(patch_record(TINY, i, **{fld: value}))


@FUZZ
@given(st.integers(1, 28), st.integers(0, 2**32 - 1))
def test_random_header_field_values(field_index, value):
    _parse_only_raises_cact_error(patched(TINY, 4 * field_index, "<I", value))


# --- writing --------------------------------------------------------------------------------
def tiny_floats() -> dict[str, np.ndarray]:
    """Float sources of part of tiny.cact: every kind the writer encodes (2- and 4-bit CQ rows
    of two shapes, FP16 vectors, scalars, a probe head), not all 9 MB of them."""
    with np.load(GOLDEN / "tiny_float_part.npz") as z:
        return {k.split(":", 1)[1]: z[k] for k in z.files}


def test_writer_reproduces_tiny_cact_byte_for_byte():
    # Each tensor the vendor's exporter wrote is rebuilt from its float source at the bits
    # and kind the vendor's bits map gives it, byte for byte; the file around them (header,
    # codebooks, directory, alignment, tokenizer) is rebuilt byte for byte from the parsed file.
    src = cact.parse(TINY)
    floats = tiny_floats()
    manifest = {e["name"]: e["bits"] for e in golden_json("tiny_float")}
    bits_map = cact.parse_bits_map(golden_json("tiny")["bits_map"])
    assert len(floats) >= 20
    for name, w in floats.items():
        t = src.info(name)
        if t.dtype == cact.CQ:
            assert t.bits == manifest[name] == cact.bits_for(name, bits_map)
            blob = cact.quantized_blob(w, t.bits, t.group)
        else:
            assert manifest[name] == 16
            blob = cact.fp16_blob(w)
        assert blob.data == bytes(src.blob(name)), name
    blob = tokenizer_blob_from_sentencepiece((GOLDEN / "tok1024.model").read_bytes())
    assert blob == bytes(src.tokenizer_blob)
    img = cact.rewrite_cact(src)
    assert hashlib.sha256(img).hexdigest() == golden_json("tiny")["cact_sha256"]


def test_unchanged_rewrite_is_byte_identical(release_cact):
    assert cact.rewrite_cact(release_cact) == bytes(release_cact.buffer)


def test_edit_requantizes_only_changed_tensors():
    src = cact.parse(TINY)
    w = src.dense("layer01.v_proj") * 1.5
    out = cact.parse(cact.rewrite_cact(src, {"layer01.v_proj": w, "final_norm": np.ones(256)}))
    for t in src.tensors:
        same = bytes(out.blob(t.name)) == bytes(src.blob(t.name))
        assert same == (t.name not in ("layer01.v_proj", "final_norm")), t.name
    assert np.all(out.f32("final_norm") == 1.0)
    assert out.info("layer01.v_proj").bits == 2


def test_bits_map_prefixes():
    bm = cact.parse_bits_map("embedding=4,mhc=4,attn.q_proj=3,default=2")
    assert cact.bits_for("embedding", bm) == 4
    assert cact.bits_for("mhc_phi_res", bm) == 4
    assert cact.bits_for("layer07.q_proj", bm) == 3
    assert cact.bits_for("layer07.k_proj", bm) == 2
    with pytest.raises(ValueError):
        cact.parse_bits_map("embedding=4")
    with pytest.raises(ValueError):
        cact.parse_bits_map("default=6")
