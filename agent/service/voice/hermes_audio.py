"""Rhasspy/Hermes speech to text over MQTT: the audio stream in, ``textCaptured`` out.

Between ``hermes/asr/startListening`` and ``hermes/asr/stopListening`` for a ``siteId``, the WAV
chunks on ``hermes/audioServer/<siteId>/audioFrame`` are collected; with ``stopOnSilence`` (the
Hermes default) pocketsphinx's endpointer ends the utterance when the speaker stops, without
waiting for ``stopListening``. The utterance is recognised, ``hermes/asr/textCaptured`` is
published with the transcript (empty when no command was heard), and the transcript goes through
the command pipeline like any other command (executed only with ``mqtt.hermes_execute``, as for
``hermes/nlu/query``); its reply, with the transcript, goes to ``needled/<node_id>/result``.
With Hermes NLU also on (``mqtt.hermes``), only ``textCaptured`` is published: Rhasspy's dialogue
manager sends that text back as ``hermes/nlu/query``, which runs it once.

Only the link's ``subscribe``/``publish`` are used, so this module needs nothing of the MQTT
transport's internals.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from agent.service.pipeline import JsonDict
from agent.service.voice.asr import Transcript
from agent.service.voice.audio import MAX_SECONDS, RATE, AudioError, read_wav
from agent.service.voice.service import Utterance, VoiceService
from devices.registry import MqttLink

log = logging.getLogger("needled.hermes.audio")

START = "hermes/asr/startListening"
STOP = "hermes/asr/stopListening"
FRAMES = "hermes/audioServer/+/audioFrame"
TEXT_CAPTURED = "hermes/asr/textCaptured"
ASR_ERROR = "hermes/error/asr"


class Endpointer(Protocol):
    def feed(self, pcm: bytes) -> list[bytes]: ...

    def flush(self) -> bytes: ...


@dataclass
class _Listening:
    site_id: str
    session_id: Any
    stop_on_silence: bool
    endpointer: Endpointer
    started: float = field(default_factory=time.monotonic)
    pcm: list[bytes] = field(default_factory=list)
    size: int = 0


class HermesAudio:
    """One daemon's Hermes ASR: sessions by ``siteId``, utterances to the voice service."""

    def __init__(
        self,
        link: MqttLink,
        voice: VoiceService,
        *,
        endpointer: Callable[[], Endpointer],
        reply_topic: str,
        execute: bool = False,
        run_commands: bool = True,
    ) -> None:
        self.link = link
        self.voice = voice
        self.make_endpointer = endpointer
        self.reply_topic = reply_topic
        self.execute = execute
        self.run_commands = run_commands
        self._sessions: dict[str, _Listening] = {}
        self._lock = threading.Lock()

    def subscribe(self) -> None:
        """(Re)subscribe on the link; call again after the link's subscriptions were cleared."""
        self.link.subscribe(START, self._on_start)
        self.link.subscribe(STOP, self._on_stop)
        self.link.subscribe(FRAMES, self._on_frame)

    # --- Hermes messages --------------------------------------------------------------------

    def _on_start(self, _topic: str, payload: bytes) -> None:
        msg = _json(payload)
        if msg is None:
            log.warning("ignoring malformed %s", START)
            return
        site = str(msg.get("siteId") or "default")
        with self._lock:
            self._sessions[site] = _Listening(
                site,
                msg.get("sessionId"),
                bool(msg.get("stopOnSilence", True)),
                self.make_endpointer(),
            )
        log.info("Hermes: listening on site %s", site)

    def _on_stop(self, _topic: str, payload: bytes) -> None:
        msg = _json(payload)
        if msg is None:
            log.warning("ignoring malformed %s", STOP)
            return
        site = str(msg.get("siteId") or "default")
        with self._lock:
            session = self._sessions.pop(site, None)
        if session is not None:
            speech = session.endpointer.flush()
            # no speech detected by the endpointer: let the recognizer judge all of it
            self._finish(session, speech or b"".join(session.pcm))

    def _on_frame(self, topic: str, payload: bytes) -> None:
        parts = topic.split("/")
        site = parts[2] if len(parts) == 4 else "default"
        with self._lock:
            session = self._sessions.get(site)
        if session is None:
            return  # not listening on this site: frames flow all the time
        try:
            pcm = read_wav(payload)
        except AudioError as exc:
            self._error(session, f"bad audio frame: {exc}")
            with self._lock:
                self._sessions.pop(site, None)
            return
        session.pcm.append(pcm)
        session.size += len(pcm)
        utterances = session.endpointer.feed(pcm)
        too_long = session.size > MAX_SECONDS * RATE * 2
        if (utterances and session.stop_on_silence) or too_long:
            with self._lock:
                if self._sessions.get(site) is not session:
                    return
                self._sessions.pop(site)
            speech = utterances[0] if utterances else session.endpointer.flush()
            self._finish(session, speech or b"".join(session.pcm))

    # --- results --------------------------------------------------------------------------------

    def _finish(self, session: _Listening, pcm: bytes) -> None:
        seconds = len(pcm) / (2 * RATE)

        def captured(t: Transcript) -> None:
            self.link.publish(
                TEXT_CAPTURED,
                json.dumps(
                    {
                        "text": "" if t.rejected else t.text,
                        "likelihood": t.confidence,
                        "seconds": round(seconds, 3),
                        "siteId": session.site_id,
                        "sessionId": session.session_id,
                        "lang": "en",
                    }
                ),
            )

        def reply(payload: JsonDict) -> None:
            payload = {**payload, "siteId": session.site_id, "sessionId": session.session_id}
            self.link.publish(self.reply_topic, json.dumps(payload))

        self.voice.submit(
            Utterance(
                reply=reply,
                source="hermes",
                pcm=pcm,
                id=session.session_id,
                execute=self.execute,
                on_transcript=captured,
                run_command=self.run_commands,
                meta={"siteId": session.site_id},
            )
        )

    def _error(self, session: _Listening, message: str) -> None:
        log.warning("Hermes ASR on site %s: %s", session.site_id, message)
        self.link.publish(
            ASR_ERROR,
            json.dumps(
                {
                    "error": message,
                    "context": "needled",
                    "siteId": session.site_id,
                    "sessionId": session.session_id,
                }
            ),
        )


def _json(payload: bytes) -> dict[str, Any] | None:
    try:
        msg = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return None
    return msg if isinstance(msg, dict) else None
