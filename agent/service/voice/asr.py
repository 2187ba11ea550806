"""The speech recognizer interface: 16 kHz mono int16 PCM in, a :class:`Transcript` out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class Transcript:
    """What was heard. ``rejected`` is set when the audio is not a command the grammar knows
    (silence, an incomplete phrase, or speech that fits a free phone loop much better than the
    grammar); ``text`` then holds the best grammar path for the logs only, never a command."""

    text: str
    confidence: float
    rejected: bool
    reason: str = ""
    timings: Mapping[str, float] = field(default_factory=dict)  # milliseconds

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["timings"] = dict(self.timings)
        return d


@runtime_checkable
class Recognizer(Protocol):
    """An ASR engine constrained to the configured tools.

    ``transcribe`` takes one utterance; ``set_tools`` rebuilds the grammar when the config's
    tools change. Implementations are used from one thread at a time (the voice service holds a
    lock around them).
    """

    def transcribe(self, pcm: bytes) -> Transcript: ...

    def set_tools(self, tools: Sequence[Mapping[str, Any]]) -> None: ...
