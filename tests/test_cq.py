"""CQ math against the golden header codebooks and its own algebraic identities."""

from __future__ import annotations

import numpy as np
import pytest

from kernels import cq
from tests.conftest import GOLDEN


def test_codebooks_match_header_bit_for_bit():
    header = np.frombuffer((GOLDEN / "tiny.cact").read_bytes()[120 : 120 + 112], "<f4")
    assert np.array_equal(cq.header_codebooks(128).view(np.uint32), header.view(np.uint32))


def test_cq2_codebook_is_the_published_asymmetric_one():
    want = [-0.1331721395254135, -0.03990209102630615, 0.04003528133034706, 0.13346044719219208]
    assert cq.codebook(2, 128).tolist() == pytest.approx(want, rel=0, abs=0)


@pytest.mark.parametrize("n", [8, 128, 512])
def test_hadamard_is_orthonormal_and_fwht_matches_it(n):
    h = cq.hadamard(n)
    np.testing.assert_allclose(h @ h.T, np.eye(n), atol=1e-6)
    x = np.random.default_rng(n).standard_normal((5, n)).astype(np.float32)
    # Butterflies sum in a different order than the matrix product: a few ulps of |x|.
    np.testing.assert_allclose(cq.fwht(x), x @ h, atol=1e-5 * np.abs(x).max() * np.sqrt(n))


def test_fwht_rejects_non_power_of_two():
    with pytest.raises(ValueError):
        cq.fwht(np.zeros(12, np.float32))


@pytest.mark.parametrize("bits", [2, 3, 4])
def test_pack_unpack_round_trip(bits):
    codes = np.random.default_rng(bits).integers(0, 1 << bits, (7, 256)).astype(np.uint8)
    packed = cq.pack_codes(codes, bits)
    assert packed.shape == (7, 256 * bits // 8)
    assert np.array_equal(cq.unpack_codes(packed, bits, 256), codes)


def test_packing_is_lsb_first():
    codes = np.array([[1, 2, 3, 0, 0, 0, 0, 3]], np.uint8)
    # 1 | 2<<2 | 3<<4 | 3<<14 = 0b1100_0000_0011_1001
    assert cq.pack_codes(codes, 2).tolist() == [[0x39, 0xC0]]


def test_nearest_breaks_ties_to_the_lower_index():
    cb = np.array([-1.0, 0.0, 1.0], np.float32)
    assert cq.nearest(np.array([-0.5, 0.5, 2.0, -3.0], np.float32), cb).tolist() == [0, 1, 2, 0]


@pytest.mark.parametrize("bits", [2, 3, 4, 5])
@pytest.mark.parametrize("cols", [128, 200, 512])
def test_quantize_dequantize_and_matvec_agree(bits, cols):
    rng = np.random.default_rng(cols + bits)
    w = rng.standard_normal((9, cols)).astype(np.float32)
    packed, norms = cq.quantize(w, bits, 128)
    assert packed.shape == (9, cq.row_code_bytes(cols, bits, 128))
    assert norms.dtype == np.float16 and norms.shape == (9, -(-cols // 128))
    dense = cq.dequantize(packed, norms, cols, bits, 128)
    assert dense.shape == (9, cols)
    # Quantization error shrinks with bits; 2-bit keeps the rows well correlated.
    corr = np.sum(dense * w) / np.sqrt(np.sum(dense**2) * np.sum(w**2))
    assert corr > {2: 0.9, 3: 0.95, 4: 0.98, 5: 0.85}[bits]
    x = rng.standard_normal((3, cols)).astype(np.float32)
    ref = x @ dense.T
    got = cq.matvec(packed, norms, x, cols, bits, 128)
    np.testing.assert_allclose(got, ref, atol=1e-4 * np.abs(ref).max())


def test_ternary_uses_three_levels_and_crumb_codes():
    w = np.random.default_rng(0).standard_normal((4, 128)).astype(np.float32)
    packed, _ = cq.quantize(w, cq.TERNARY_BITS, 128)
    crumbs = cq.unpack_codes(packed, 2, 128)
    assert set(np.unique(crumbs)) <= {0, 1, 3}  # 2 never appears
    trits = cq.codes_of(packed, cq.TERNARY_BITS, 128, 128)
    assert set(np.unique(trits)) <= {0, 1, 2}
    assert np.array_equal(crumbs == 3, trits == 0)


def test_zero_group_quantizes_to_zero_norm():
    packed, norms = cq.quantize(np.zeros((2, 128), np.float32), 2, 128)
    assert not norms.any()
    assert not cq.dequantize(packed, norms, 128, 2, 128).any()
