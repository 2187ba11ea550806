"""Loss curve as a PNG: matplotlib when it is installed, else a small built-in rasterizer.

The fallback draws axes, a light grid, the raw loss (grey), its moving average (blue) and the
start of the QAT phase (red), and encodes the image with `zlib` (PNG is deflate-compressed rows
behind a filter byte, plus CRC-checked chunks), so no plotting dependency is needed.
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Sequence
from pathlib import Path


def _smooth(v: Sequence[float], k: int) -> list[float]:
    out, acc = [], 0.0
    for i, x in enumerate(v):
        acc += x
        if i >= k:
            acc -= v[i - k]
        out.append(acc / min(i + 1, k))
    return out


def encode_png(pixels: list[bytearray], width: int, height: int) -> bytes:
    """RGB rows (3 bytes per pixel) -> PNG bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(r) for r in pixels)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


# 3x5 pixel digits for the axis labels of the fallback plot (rows top to bottom, 3 bits each).
_GLYPHS = {
    "0": (7, 5, 5, 5, 7),
    "1": (2, 6, 2, 2, 7),
    "2": (7, 1, 7, 4, 7),
    "3": (7, 1, 7, 1, 7),
    "4": (5, 5, 7, 1, 1),
    "5": (7, 4, 7, 1, 7),
    "6": (7, 4, 7, 5, 7),
    "7": (7, 1, 1, 1, 1),
    "8": (7, 5, 7, 5, 7),
    "9": (7, 5, 7, 1, 7),
    ".": (0, 0, 0, 0, 2),
    "-": (0, 0, 7, 0, 0),
}


def _raster(losses: Sequence[float], phase_split: int | None, w: int = 640, h: int = 360) -> bytes:
    img = [bytearray(b"\xff" * (3 * w)) for _ in range(h)]
    ml, mr, mt, mb = 40, 10, 10, 30

    def put(x: int, y: int, rgb: tuple[int, int, int]) -> None:
        if 0 <= x < w and 0 <= y < h:
            img[y][3 * x : 3 * x + 3] = bytes(rgb)

    def text(x: int, y: int, s: str, scale: int = 2) -> None:
        for ch in s:
            for r, bits in enumerate(_GLYPHS.get(ch, (0,) * 5)):
                for c in range(3):
                    if bits >> (2 - c) & 1:
                        for dy in range(scale):
                            for dx in range(scale):
                                put(x + c * scale + dx, y + r * scale + dy, (60, 60, 60))
            x += 4 * scale

    def line(x0: float, y0: float, x1: float, y1: float, rgb: tuple[int, int, int]) -> None:
        n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        for i in range(n + 1):
            t = i / n
            put(round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t), rgb)

    vals = [math.log10(max(v, 1e-6)) for v in losses] or [0.0]
    lo, hi = min(vals), max(vals)
    if hi - lo < 1e-9:
        hi = lo + 1.0
    pw, ph = w - ml - mr, h - mt - mb

    def xy(i: int, v: float) -> tuple[float, float]:
        x = ml + pw * i / max(1, len(vals) - 1)
        return x, mt + ph * (1 - (v - lo) / (hi - lo))

    for k in range(math.floor(lo), math.ceil(hi) + 1):  # decade grid lines
        for frac in (1, 2, 5):
            v = k + math.log10(frac)
            if lo <= v <= hi:
                y = round(xy(0, v)[1])
                line(ml, y, w - mr, y, (225, 225, 225) if frac != 1 else (190, 190, 190))
                if frac == 1:  # label the decades: 10, 1, 0.1, 0.01 ...
                    label = f"{10.0**k:g}" if k >= -4 else f"1e{k}"
                    text(2, y - 5, label)
    text(ml, h - mb + 8, "0")
    last = str(len(vals))
    text(w - mr - 8 * len(last), h - mb + 8, last)
    line(ml, mt, ml, h - mb, (0, 0, 0))
    line(ml, h - mb, w - mr, h - mb, (0, 0, 0))
    if phase_split is not None and 0 < phase_split < len(vals):
        x = round(xy(phase_split, lo)[0])
        line(x, mt, x, h - mb, (220, 40, 40))
    for series, rgb in ((vals, (180, 180, 180)), (_smooth(vals, 25), (30, 80, 200))):
        for i in range(1, len(series)):
            line(*xy(i - 1, series[i - 1]), *xy(i, series[i]), rgb)
    return encode_png(img, w, h)


def loss_curve_png(
    losses: Sequence[float], path: str | Path, phase_split: int | None = None
) -> None:
    """Write the training loss curve (log scale) to `path`."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        Path(path).write_bytes(_raster(losses, phase_split))
        return
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=80)
    ax.plot(losses, color="0.7", lw=0.8, label="loss")
    ax.plot(_smooth(list(losses), 25), color="C0", lw=1.5, label="moving average")
    if phase_split is not None and 0 < phase_split < len(losses):
        ax.axvline(phase_split, color="C3", lw=1, label="QAT starts")
    ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("cross-entropy (target tokens)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
