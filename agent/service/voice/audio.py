"""Audio for the recognizer: WAV decoding and conversion to 16 kHz mono 16-bit PCM."""

from __future__ import annotations

import io
import struct
import wave

import numpy as np

RATE = 16000  # what the bundled acoustic model was trained on
MAX_SECONDS = 30.0  # one command; longer input is refused instead of decoded for minutes


class AudioError(ValueError):
    """Audio that cannot be used; the message names the problem for the error reply."""


def pcm_to_16k_mono(pcm: bytes, rate: int, width: int, channels: int) -> bytes:
    """Convert little-endian PCM (8/16/24/32-bit, any channel count) to 16 kHz mono int16."""
    if width not in (1, 2, 3, 4):
        raise AudioError(f"unsupported sample width of {width} bytes")
    if channels < 1 or channels > 16:
        raise AudioError(f"unsupported channel count {channels}")
    if not 4000 <= rate <= 192000:
        raise AudioError(f"unsupported sample rate {rate} Hz")
    frame = width * channels
    usable = len(pcm) - len(pcm) % frame
    raw = memoryview(pcm)[:usable]
    if width == 1:  # WAV 8-bit is unsigned
        x = (np.frombuffer(raw, np.uint8).astype(np.float32) - 128.0) * 256.0
    elif width == 2:
        x = np.frombuffer(raw, "<i2").astype(np.float32)
    elif width == 3:
        b = np.frombuffer(raw, np.uint8).reshape(-1, 3).astype(np.int32)
        v = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        v = np.where(v >= 1 << 23, v - (1 << 24), v)
        x = v.astype(np.float32) / 256.0
    else:
        x = np.frombuffer(raw, "<i4").astype(np.float32) / 65536.0
    if channels > 1:
        x = x.reshape(-1, channels).mean(axis=1)
    if rate != RATE and len(x):
        x = resample(x, rate, RATE)
    return np.clip(np.rint(x), -32768, 32767).astype("<i2").tobytes()


def resample(x: np.ndarray, src: int, dst: int) -> np.ndarray:
    """Band-limited linear-phase resampling (windowed-sinc low-pass, then interpolation).

    Speech energy above 4 kHz matters little to the recognizer, but aliasing from a 44.1/48 kHz
    source folds noise into the band it listens to, so downsampling low-passes first.
    """
    if src > dst:
        cutoff = 0.5 * dst / src * 0.9  # in cycles per input sample, with a guard band
        taps = 63
        n = np.arange(taps) - (taps - 1) / 2
        h = 2 * cutoff * np.sinc(2 * cutoff * n) * np.hamming(taps)
        h /= h.sum()
        x = np.convolve(x, h.astype(np.float32), mode="same")
    n_out = int(round(len(x) * dst / src))
    t = np.arange(n_out, dtype=np.float64) * (src / dst)
    return np.interp(t, np.arange(len(x)), x).astype(np.float32)


def read_wav(data: bytes) -> bytes:
    """A WAV file's audio as 16 kHz mono int16 PCM; :class:`AudioError` when it is unusable."""
    if len(data) < 44 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise AudioError("not a WAV file (expected a RIFF/WAVE header)")
    try:
        with wave.open(io.BytesIO(data), "rb") as w:
            rate, width, channels = w.getframerate(), w.getsampwidth(), w.getnchannels()
            if channels < 1 or rate < 1:
                raise AudioError("WAV header has no channels or no sample rate")
            if w.getnframes() > MAX_SECONDS * rate:
                raise AudioError(f"audio longer than {MAX_SECONDS:g} s")
            pcm = w.readframes(w.getnframes())
    except AudioError:
        raise
    # the wave module signals a broken chunk list with any of these (a bare RuntimeError when
    # a chunk's length points past the end)
    except (wave.Error, EOFError, ValueError, RuntimeError, struct.error) as exc:
        raise AudioError(f"malformed WAV: {exc or type(exc).__name__}") from None
    if not pcm:
        raise AudioError("WAV file has no audio frames")
    return pcm_to_16k_mono(pcm, rate, width, channels)


def wav_bytes(pcm: bytes, rate: int = RATE, channels: int = 1, width: int = 2) -> bytes:
    """Wrap PCM in a WAV header (tests, the Hermes stream's replies)."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(pcm)
    return buf.getvalue()
