"""Wyoming service: speech to text, and a conversation agent over the command pipeline.

Home Assistant adds it as a Wyoming integration (host and port). ``describe`` gets an ``info``
with an ``asr`` program (the tools grammar, English) and a ``handle`` program that controls the
home; ``transcribe`` + ``audio-start`` / ``audio-chunk``... / ``audio-stop`` gets a
``transcript`` (empty when nothing was recognised as a command); a ``transcript`` sent to it is
run as a command and answered ``handled`` (what was done) or ``not-handled`` (why not).

The server runs its own asyncio loop on a thread; decoding and commands run off that loop, so a
slow decode never stalls another connection's events.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Any

from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.event import Event
from wyoming.handle import Handled, NotHandled
from wyoming.info import (
    AsrModel,
    AsrProgram,
    Attribution,
    Describe,
    HandleModel,
    HandleProgram,
    Info,
)
from wyoming.server import AsyncEventHandler, AsyncTcpServer

from agent.service.pipeline import Command, JsonDict, Submit
from agent.service.voice.audio import MAX_SECONDS, AudioError, pcm_to_16k_mono
from agent.service.voice.service import VoiceService

log = logging.getLogger("needled.wyoming")

VERSION = "0.1.0"
_ATTRIBUTION = Attribution(name="CMU Sphinx", url="https://github.com/cmusphinx/pocketsphinx")
_OWN = Attribution(name="needled", url="")
SubmitFn = Callable[[Command], Submit]


def service_info() -> Info:
    """What ``describe`` answers."""
    return Info(
        asr=[
            AsrProgram(
                name="needled",
                attribution=_ATTRIBUTION,
                installed=True,
                description="pocketsphinx speech to text, constrained to this home's tools",
                version=VERSION,
                models=[
                    AsrModel(
                        name="needled-tools-grammar",
                        attribution=_ATTRIBUTION,
                        installed=True,
                        description="US English, grammar of the configured tools",
                        version=VERSION,
                        languages=["en"],
                    )
                ],
            )
        ],
        handle=[
            HandleProgram(
                name="needled",
                attribution=_OWN,
                installed=True,
                description="needled: runs commands as grammar-checked tool calls",
                version=VERSION,
                models=[
                    HandleModel(
                        name="needled-agent",
                        attribution=_OWN,
                        installed=True,
                        description="Needle 2 tool-calling model over the configured devices",
                        version=VERSION,
                        languages=["en"],
                    )
                ],
                supports_home_control=True,
            )
        ],
    )


def summarize(reply: JsonDict) -> tuple[bool, str]:
    """(handled, a short sentence) for a pipeline reply."""
    env = reply.get("envelope") or {}
    results = reply.get("results") or []
    if env.get("type") == "error":
        return False, f"Sorry, that failed: {env.get('error') or env.get('error_code')}."
    calls = env.get("function_calls") or []
    if env.get("type") != "call" or not calls:
        return False, "Sorry, I can't do that here."
    failed = [r for r in results if not r.get("ok")]
    if failed:
        f = failed[0]
        return False, f"Sorry, {f.get('name')} failed: {f.get('error')}."
    done = []
    for c in calls:
        args = ", ".join(f"{k} {_spoken(v)}" for k, v in (c.get("arguments") or {}).items())
        done.append(f"{str(c.get('name', '')).replace('_', ' ')}" + (f" ({args})" if args else ""))
    return True, "Done: " + "; ".join(done) + "."


def _spoken(v: Any) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    return str(v)


class _Handler(AsyncEventHandler):
    def __init__(self, server: WyomingServer, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.server = server
        self._audio: list[bytes] = []
        self._format = (16000, 2, 1)
        self._bytes = 0
        self._too_long = False

    async def handle_event(self, event: Event) -> bool:
        if Describe.is_type(event.type):
            await self.write_event(service_info().event())
        elif Transcribe.is_type(event.type):
            self._audio, self._bytes, self._too_long = [], 0, False
        elif AudioStart.is_type(event.type):
            start = AudioStart.from_event(event)
            self._format = (start.rate, start.width, start.channels)
            self._audio, self._bytes, self._too_long = [], 0, False
        elif AudioChunk.is_type(event.type):
            chunk = AudioChunk.from_event(event)
            self._format = (chunk.rate, chunk.width, chunk.channels)
            rate, width, channels = self._format
            if self._bytes + len(chunk.audio) > MAX_SECONDS * rate * width * channels:
                self._too_long = True  # keep the connection; the stop answers with nothing
            else:
                self._audio.append(chunk.audio)
                self._bytes += len(chunk.audio)
        elif AudioStop.is_type(event.type):
            text = await self._transcribe()
            await self.write_event(Transcript(text=text, language="en").event())
        elif Transcript.is_type(event.type):
            transcript = Transcript.from_event(event)
            handled, sentence = await self._run(transcript.text)
            context = transcript.context
            if handled:
                await self.write_event(Handled(text=sentence, context=context).event())
            else:
                await self.write_event(NotHandled(text=sentence, context=context).event())
        else:
            log.debug("Wyoming: ignoring %s", event.type)
        return True

    async def _transcribe(self) -> str:
        audio, self._audio, self._bytes = b"".join(self._audio), [], 0
        if self._too_long:
            log.warning("Wyoming: audio longer than %g s ignored", MAX_SECONDS)
            return ""
        rate, width, channels = self._format
        try:
            pcm = pcm_to_16k_mono(audio, rate, width, channels)
        except AudioError as exc:
            log.warning("Wyoming: unusable audio: %s", exc)
            return ""
        loop = asyncio.get_running_loop()
        t = await loop.run_in_executor(None, self.server.voice.transcribe_pcm, pcm)
        log.info(
            "Wyoming heard %r (confidence %.2f, rejected %s)", t.text, t.confidence, t.rejected
        )
        return "" if t.rejected else t.text

    async def _run(self, text: str) -> tuple[bool, str]:
        if not text or not text.strip():
            return False, "I didn't hear a command."
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[JsonDict] = loop.create_future()

        def reply(payload: JsonDict) -> None:
            loop.call_soon_threadsafe(lambda: fut.done() or fut.set_result(payload))

        status = self.server.submit(Command(text=text, source="wyoming", reply=reply))
        if status is Submit.DUPLICATE:  # no id, so never; kept for completeness of the contract
            return False, "Already done."
        try:
            payload = await asyncio.wait_for(fut, self.server.timeout)
        except TimeoutError:
            return False, "Sorry, that took too long."
        return summarize(payload)


class WyomingServer:
    """The Wyoming TCP service on ``host:port``, on a thread of its own."""

    def __init__(
        self, host: str, port: int, voice: VoiceService, submit: SubmitFn, timeout: float = 30.0
    ) -> None:
        self.host, self.port = host, port
        self.voice = voice
        self.submit = submit
        self.timeout = timeout
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: AsyncTcpServer | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self.error: BaseException | None = None

    def start(self, timeout: float = 10.0) -> None:
        """Listen, or raise the bind error (port taken) so the daemon reports it at start."""
        self._thread = threading.Thread(target=self._run, name="needled-wyoming", daemon=True)
        self._thread.start()
        self._ready.wait(timeout)
        if self.error is not None:
            raise OSError(f"Wyoming cannot listen on {self.host}:{self.port}: {self.error}")

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        server = AsyncTcpServer(self.host, self.port)
        self._server = server

        def factory(reader: Any, writer: Any) -> _Handler:
            return _Handler(self, reader, writer)

        try:
            loop.run_until_complete(server.start(factory))
        except OSError as exc:
            self.error = exc
            self._ready.set()
            loop.close()
            return
        log.info("Wyoming service on %s:%d", self.host, self.port)
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(server.stop())
            loop.close()

    def stop(self, timeout: float = 5.0) -> None:
        if self._loop is not None and self._loop.is_running():
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(timeout)
