"""The JSON envelope every turn returns (spec section 5), for errors raised anywhere."""

from __future__ import annotations

import resource
from typing import Any


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def error_envelope(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """An envelope of type `error`: the keys of a call, nothing executed, no speeds measured."""
    return {
        "type": "error",
        "success": False,
        "error": message,
        "error_code": code,
        "function_calls": [],
        "reasoning": None,
        "confidence": None,
        "prefill_tps": None,
        "decode_tps": None,
        "peak_ram_mb": round(peak_rss_mb(), 1),
        **extra,
    }


def below_confidence(confidence: Any, threshold: float) -> bool:
    """Whether calls at `confidence` are refused under `limits.min_confidence = threshold`
    (0 refuses nothing; a model without a head reports None and is never refused)."""
    return threshold > 0 and isinstance(confidence, (int, float)) and confidence < threshold
