"""The voice service: utterances in, transcripts out, commands into the daemon's pipeline.

Every audio path (the MQTT audio topic, the Hermes audio stream, Wyoming) hands its utterance to
one :class:`VoiceService`. Recognition runs on the service's own thread, so a transport's
network thread never waits for the decoder; a recognised command goes through the same
``Pipeline.submit`` as a typed one, and its reply carries the transcript beside the envelope.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agent.calling.envelope import error_envelope
from agent.service.pipeline import Command, JsonDict, Submit, make_reply
from agent.service.voice.asr import Recognizer, Transcript
from agent.service.voice.audio import AudioError, read_wav

log = logging.getLogger("needled.voice")

SubmitFn = Callable[[Command], Submit]


@dataclass
class Utterance:
    """One utterance to recognise: a WAV file (``wav``) or 16 kHz mono PCM (``pcm``)."""

    reply: Callable[[JsonDict], None]
    source: str
    wav: bytes | None = None
    pcm: bytes | None = None
    id: Any = None
    execute: bool = True
    dedup: Any = None
    meta: JsonDict = field(default_factory=dict)
    # called with the transcript before the command is submitted (Hermes textCaptured)
    on_transcript: Callable[[Transcript], None] | None = None
    # False: recognise only (another component runs the command, e.g. Rhasspy's NLU round)
    run_command: bool = True
    # called when the pipeline has already served this (source, dedup) pair: a redelivery
    on_duplicate: Callable[[], None] | None = None


def transcript_reply(command_id: Any, transcript: Transcript, code: str, message: str) -> JsonDict:
    """The error reply for audio that did not become a command, with what was heard."""
    reply = make_reply(command_id, transcript.text, error_envelope(code, message))
    reply["transcript"] = transcript.to_dict()
    return reply


class VoiceService:
    """A recognizer behind a bounded queue and one thread, feeding the command pipeline."""

    def __init__(self, recognizer: Recognizer, submit: SubmitFn, *, queue_size: int = 8) -> None:
        self.recognizer = recognizer
        self._submit = submit
        self._queue: queue.Queue[Utterance | None] = queue.Queue(maxsize=queue_size)
        self._lock = threading.Lock()  # one decode at a time, also for direct transcribe()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._work, name="needled-voice", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        if self._thread is None:
            return
        try:
            self._queue.put(None, timeout=timeout)
        except queue.Full:
            pass
        self._thread.join(timeout)
        self._thread = None

    def set_tools(self, tools: Sequence[Mapping[str, Any]]) -> None:
        """Rebuild the grammar for a reloaded config (waits for a decode in progress)."""
        with self._lock:
            self.recognizer.set_tools(tools)

    # --- recognition ----------------------------------------------------------------------------

    def transcribe_pcm(self, pcm: bytes) -> Transcript:
        with self._lock:
            return self.recognizer.transcribe(pcm)

    def transcribe_wav(self, wav: bytes) -> Transcript:
        """Raises :class:`AudioError` for audio that cannot be decoded."""
        return self.transcribe_pcm(read_wav(wav))

    # --- commands -------------------------------------------------------------------------------

    def submit(self, utt: Utterance) -> bool:
        """Queue an utterance; a full queue is answered ``busy`` at once (returns False)."""
        try:
            self._queue.put_nowait(utt)
        except queue.Full:
            _answer(utt, transcript_reply(utt.id, _EMPTY, "busy", "busy: too much audio queued"))
            return False
        return True

    def _work(self) -> None:
        while True:
            utt = self._queue.get()
            if utt is None:
                return
            try:
                self.handle(utt)
            except Exception as exc:  # one bad utterance never stops the service
                log.exception("voice command failed")
                _answer(utt, transcript_reply(utt.id, _EMPTY, "internal_error", str(exc)))

    def handle(self, utt: Utterance) -> None:
        """Recognise one utterance and submit it as a command (on the caller's thread)."""
        t0 = time.perf_counter()
        try:
            pcm = utt.pcm if utt.pcm is not None else read_wav(utt.wav or b"")
        except AudioError as exc:
            _answer(utt, transcript_reply(utt.id, _EMPTY, "bad_audio", str(exc)))
            return
        transcript = self.transcribe_pcm(pcm)
        asr_ms = (time.perf_counter() - t0) * 1000
        log.info(
            "heard %r (confidence %.2f%s) in %.0f ms",
            transcript.text,
            transcript.confidence,
            f", rejected: {transcript.reason}" if transcript.rejected else "",
            asr_ms,
        )
        if utt.on_transcript is not None:
            try:
                utt.on_transcript(transcript)
            except Exception:
                log.exception("transcript listener failed")
        if not utt.run_command:
            return
        if transcript.rejected:
            _answer(
                utt,
                transcript_reply(
                    utt.id,
                    transcript,
                    "not_a_command",
                    f"no command recognised: {transcript.reason}",
                ),
            )
            return

        def reply(payload: JsonDict) -> None:
            payload = dict(payload)
            payload["transcript"] = transcript.to_dict()
            payload.setdefault("timings", {})["asr_ms"] = round(asr_ms, 2)
            utt.reply(payload)

        cmd = Command(
            text=transcript.text,
            source=utt.source,
            reply=reply,
            id=utt.id,
            execute=utt.execute,
            dedup=utt.dedup,
            meta={**utt.meta, "voice": True},
        )
        if self._submit(cmd) is Submit.DUPLICATE and utt.on_duplicate is not None:
            utt.on_duplicate()


_EMPTY = Transcript("", 0.0, True, "no audio")


def _answer(utt: Utterance, payload: JsonDict) -> None:
    try:
        utt.reply(payload)
    except Exception:
        log.exception("reply to %s failed", utt.source)
