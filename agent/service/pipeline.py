"""Command pipeline: a bounded queue in front of the single inference worker.

Every command handed to :meth:`Pipeline.submit` gets exactly one reply through its ``reply``
callback: the worker's result, or at once a "busy" / "shutting down" / "invalid" error. A command
whose ``(source, id)`` was seen recently is never run again: it gets the first copy's reply
again, marked ``"replay": true`` (when the first copy is still waiting or running, as soon as it
is answered). The window of ids is kept on disk (:mod:`agent.service.dedup`), so this holds across a
restart, and a command cut off by a crash while its handlers ran is answered "outcome unknown".

The model decides each call over every tool; the caller's ACL then refuses a call of a tool the
source may not use, and a call whose number was changed to fit a parameter's range
(:mod:`agent.calling.rangecheck`) is refused too: in both cases nothing of the command runs.

The model side is reached only through the :class:`Completer` protocol, so the daemon can be built
and tested before the model-backed ``Session`` exists; the lead plugs that in through a
``CompleterFactory`` given to :func:`agent.service.daemon.run_daemon`.
"""

from __future__ import annotations

import collections
import enum
import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from agent.calling.envelope import below_confidence, error_envelope
from agent.calling.rangecheck import find_remapped
from agent.service.dedup import DONE, QUEUED, STARTED, DedupWindow, Key, command_key

if TYPE_CHECKING:
    from agent.service.config import Config, LimitsConfig, SecurityConfig
    from devices.registry import Registry

log = logging.getLogger("needled.pipeline")

JsonDict = dict[str, Any]

ENVELOPE_KEYS = (
    "type",
    "success",
    "error",
    "error_code",
    "function_calls",
    "reasoning",
    "confidence",
    "prefill_tps",
    "decode_tps",
    "peak_ram_mb",
)


@runtime_checkable
class Completer(Protocol):
    """The model boundary (spec section 5).

    ``complete`` returns the envelope dict with the keys of :data:`ENVELOPE_KEYS`; ``type`` is
    ``"call"``, ``"respond"`` or ``"error"`` and ``function_calls`` is a list of
    ``{"name": str, "arguments": dict}``. ``allowed_tools`` restricts the tools the model may call;
    the pipeline never passes it: the call is decided over all of ``tools()`` and the caller's ACL
    is applied to the decision, because a grammar narrowed to the allowed tools forces a call of
    one of them whatever was asked. The completer must be
    warm when the factory returns it (model mapped, tools prefix prefilled): the daemon sends
    ``READY=1`` right after. ``complete`` is only ever called from the one worker thread.
    """

    def complete(self, text: str, *, allowed_tools: set[str] | None = None) -> JsonDict: ...

    def tools(self) -> list[JsonDict]: ...


# factory(config, tool_schemas) -> warm Completer
CompleterFactory = Callable[["Config", list[JsonDict]], Completer]


def make_reply(
    command_id: Any, text: str, envelope: JsonDict, results: list[JsonDict] | None = None
) -> JsonDict:
    """The result payload every transport sends: ``id``, ``text``, ``envelope``, ``results``."""
    return {"id": command_id, "text": text, "envelope": envelope, "results": results or []}


class Submit(enum.Enum):
    ACCEPTED = "accepted"  # queued; the worker will reply
    BUSY = "busy"  # queue full; answered at once
    CLOSED = "closed"  # shutting down; answered at once
    REJECTED = "rejected"  # invalid (empty, too long); answered at once
    DUPLICATE = "duplicate"  # same (source, id) seen recently; answered with the first reply


@dataclass
class Command:
    text: str
    source: str  # ACL key: "mqtt", "mqtt:<user>", "serial", "console", "hermes"
    reply: Callable[[JsonDict], None]
    id: Any = None
    execute: bool = True  # False: recognise only (Hermes NLU), never run handlers
    dedup: Any = None  # dedup key when it is not ``id`` (e.g. MQTT 5 correlation data, bytes)
    meta: JsonDict = field(default_factory=dict)
    received: float = field(default_factory=time.monotonic)
    # the sender's own narrowing of the tools (Hermes intentFilter): the model still decides over
    # every tool the ACL allows, and a call outside these is refused, never coerced into them
    tools: frozenset[str] | None = None
    # monotonic time after which the command is stale (a voice query nobody waits for any more):
    # the worker answers "expired" instead of running it
    deadline: float | None = None
    _answered: bool = field(default=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def answer(self, payload: JsonDict) -> bool:
        """Send the reply; a second answer is a bug, so it is logged and dropped."""
        with self._lock:
            if self._answered:
                log.error(
                    "command %r from %s answered twice; second reply dropped", self.id, self.source
                )
                return False
            self._answered = True
        try:
            self.reply(payload)
        except Exception:
            # a broken transport callback must not take the worker down with it
            log.exception("reply to %s failed", self.source)
        return True

    def answer_error(self, code: str, message: str) -> bool:
        return self.answer(make_reply(self.id, self.text, error_envelope(code, message)))


_STOP = object()


class Pipeline:
    """Bounded FIFO + one worker thread running the completer and dispatching the calls."""

    def __init__(
        self,
        registry: Registry,
        completer: Completer,
        limits: LimitsConfig,
        security: SecurityConfig,
        *,
        dedup_path: str | Path | None = None,
    ) -> None:
        """``dedup_path``: the file that keeps the window of command ids across restarts (in the
        state directory); None keeps it in memory only."""
        self.registry = registry
        self.completer = completer
        self.limits = limits
        self.security = security
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=limits.queue_size)
        self._lock = threading.Lock()
        self._swap_lock = threading.Lock()
        # held by the worker while it runs a command; reload takes it to swap devices safely
        self._work_lock = threading.RLock()
        self._closed = False
        self._window = DedupWindow(limits.dedup_size, dedup_path)
        # copies of a command still queued or running, answered with its reply when it is done
        self._waiting: dict[Key, list[Command]] = {}
        self._listeners: list[Callable[[Command, JsonDict], None]] = []
        self._thread: threading.Thread | None = None
        self.in_flight_since: float | None = None
        self.last_progress = time.monotonic()
        self.counts = collections.Counter[str]()

    # --- lifecycle ------------------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._work, name="needled-worker", daemon=True)
        self._thread.start()

    def shutdown(self, timeout: float = 30.0) -> None:
        """Stop intake, answer queued commands "shutting down", let the in-flight one finish."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            pending = []
            while True:
                try:
                    pending.append(self._queue.get_nowait())
                except queue.Empty:
                    break
        for cmd in pending:
            self.counts["shutdown"] += 1
            for c in [cmd, *self._forget(cmd)]:
                c.answer_error(
                    "shutting_down", "shutting down: command not executed, send it again"
                )
        self._queue.put(_STOP)
        if self._thread is not None:
            self._thread.join(timeout)
        if self._thread is None or not self._thread.is_alive():
            self._window.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def replace(
        self,
        *,
        registry: Registry | None = None,
        completer: Completer | None = None,
        limits: LimitsConfig | None = None,
        security: SecurityConfig | None = None,
    ) -> None:
        """Swap parts between two commands (config reload); the queue size stays as started."""
        with self._swap_lock:
            if registry is not None:
                self.registry = registry
            if completer is not None:
                self.completer = completer
            if limits is not None:
                if limits.queue_size != self.limits.queue_size:
                    log.warning("limits.queue_size changes take effect after a restart")
                self.limits = limits
                self._window.resize(limits.dedup_size)
            if security is not None:
                self.security = security

    def exclusive(self) -> threading.RLock:
        """``with pipeline.exclusive():`` runs while no command is being processed."""
        return self._work_lock

    def add_listener(self, fn: Callable[[Command, JsonDict], None]) -> None:
        """``fn(command, reply)`` after each worker reply (HA sensors, console echo)."""
        self._listeners.append(fn)

    def healthy(self) -> bool:
        """True while the worker is alive and no command has been stuck past the stall limit."""
        if self._thread is None or not self._thread.is_alive():
            return False
        since = self.in_flight_since
        return since is None or time.monotonic() - since < self.limits.stall_timeout

    def pending(self) -> int:
        return self._queue.qsize()

    # --- intake ---------------------------------------------------------------------------------

    def submit(self, cmd: Command) -> Submit:
        text = cmd.text.strip() if isinstance(cmd.text, str) else ""
        if not text:
            cmd.answer_error("empty_command", "empty command")
            return Submit.REJECTED
        if len(text) > self.limits.line_length:
            cmd.answer_error(
                "too_long", f"command longer than {self.limits.line_length} characters"
            )
            return Submit.REJECTED
        cmd.text = text
        replay: JsonDict | None = None
        with self._lock:
            if self._closed:
                status = Submit.CLOSED
            else:
                key = self._key(cmd)
                entry = self._window.get(key) if key is not None else None
                if key is not None and entry is not None:
                    self.counts["duplicate"] += 1
                    status = Submit.DUPLICATE
                    if entry.state == DONE:
                        replay = entry.reply_dict() or make_reply(
                            cmd.id, cmd.text, _outcome_unknown()
                        )
                    elif entry.state == STARTED and not entry.live:
                        replay = make_reply(cmd.id, cmd.text, _outcome_unknown())
                    elif self._waiting_count() < self.limits.queue_size:
                        self._waiting.setdefault(key, []).append(cmd)
                        return Submit.DUPLICATE
                    else:
                        status = Submit.BUSY
                else:
                    try:
                        self._queue.put_nowait(cmd)
                    except queue.Full:
                        status = Submit.BUSY
                    else:
                        if key is not None:
                            self._window.queued(key)
                        self.counts["accepted"] += 1
                        return Submit.ACCEPTED
        if replay is not None:
            cmd.answer(_as_replay(replay))
            return status
        if status is Submit.CLOSED:
            cmd.answer_error("shutting_down", "shutting down: command not executed, send it again")
        else:
            self.counts["busy"] += 1
            cmd.answer_error(
                "busy", f"busy: {self.limits.queue_size} commands already waiting, try again later"
            )
        return status

    @staticmethod
    def _key(cmd: Command) -> Key | None:
        return command_key(cmd.source, cmd.id if cmd.id is not None else cmd.dedup)

    def _waiting_count(self) -> int:
        return sum(len(v) for v in self._waiting.values())

    def _forget(self, cmd: Command) -> list[Command]:
        """A command answered "shutting down" was not executed: a resend must run. Returns the
        copies that waited for it (they get the same answer)."""
        key = self._key(cmd)
        if key is None:
            return []
        with self._lock:
            entry = self._window.get(key)
            if entry is not None and entry.state == QUEUED:
                self._window.forget(key)
            return self._waiting.pop(key, [])

    def window_size(self) -> int:
        """How many command ids the de-duplication window holds now."""
        return len(self._window)

    # --- worker ---------------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=0.5)
            except queue.Empty:
                self.last_progress = time.monotonic()
                continue
            if item is _STOP:
                return
            with self._work_lock:
                self.in_flight_since = time.monotonic()
                try:
                    reply = self.process(item)
                except Exception as exc:  # the worker survives anything one command does
                    log.exception("command failed")
                    reply = make_reply(
                        item.id,
                        item.text,
                        error_envelope("internal_error", f"internal error: {exc}"),
                    )
            waiting = self._finish(item, reply)
            item.answer(reply)
            for copy in waiting:
                copy.answer(_as_replay(reply))
            self.counts["served"] += 1
            self.in_flight_since = None
            self.last_progress = time.monotonic()
            for fn in list(self._listeners):
                try:
                    fn(item, reply)
                except Exception:
                    log.exception("listener failed")

    def _finish(self, cmd: Command, reply: JsonDict) -> list[Command]:
        """Record the reply before it is sent: a crash between the two replays it on a resend."""
        key = self._key(cmd)
        if key is None:
            return []
        with self._lock:
            try:
                self._window.done(key, reply)
            except Exception:  # the worker and the waiting copies outlive a recording bug
                log.exception("recording the reply of %r failed", key)
            return self._waiting.pop(key, [])

    def process(self, cmd: Command) -> JsonDict:
        """Run one command through the completer and the handlers; returns the reply payload."""
        with self._swap_lock:
            registry, completer = self.registry, self.completer
            limits, security = self.limits, self.security
        if cmd.deadline is not None and time.monotonic() > cmd.deadline:
            waited = time.monotonic() - cmd.received
            return make_reply(
                cmd.id,
                cmd.text,
                error_envelope("expired", f"not run: it waited {waited:.1f} s, past its deadline"),
            )
        allowed = security.allowed_tools(cmd.source, registry.names())
        if not allowed:
            return make_reply(
                cmd.id,
                cmd.text,
                error_envelope("not_allowed", f"source {cmd.source!r} may not invoke any tool"),
            )
        try:
            # decided over every tool: a grammar narrowed to the allowed ones would force a call
            # of one of them ("turn on the kitchen light" as set_fan), so the ACL is applied to
            # what the model decided, below
            envelope = completer.complete(cmd.text)
        except Exception as exc:
            log.exception("completer failed")
            envelope = error_envelope("completer_failed", f"{type(exc).__name__}: {exc}")
        envelope = _normalise(envelope)
        if envelope["type"] != "call":
            return make_reply(cmd.id, cmd.text, envelope)
        calls = envelope["function_calls"]
        refusal = self._refusal(cmd, calls, allowed, registry)
        if refusal is None and calls:
            refusal = _unsure(envelope, limits.min_confidence)
        if refusal is not None:
            index, code, message = refusal
            log.info("command from %s refused (%s): %s", cmd.source, code, message)
            other = ("not_executed", "not executed: another call of this command was refused")
            results = [
                _refused(
                    c.get("name") if isinstance(c, dict) else None,
                    c.get("arguments", {}) if isinstance(c, dict) else {},
                    *((code, message) if index is None or i == index else other),
                )
                for i, c in enumerate(calls)
            ]
            extra = {k: envelope[k] for k in ("timings", "confidence") if k in envelope}
            return make_reply(cmd.id, cmd.text, error_envelope(code, message, **extra), results)
        results: list[JsonDict] = []
        if cmd.execute and calls:
            key = self._key(cmd)
            if key is not None:
                # durably, before any handler runs: after a crash from here on, a resend is
                # answered "outcome unknown" instead of switching the device a second time
                self._window.started(key)
            for i, call in enumerate(calls):
                name, args = call["name"], call.get("arguments", {})
                if i >= limits.max_calls:
                    results.append(_refused(name, args, "too_many_calls", "call limit reached"))
                else:
                    results.append(
                        registry.dispatch(name, args, timeout=limits.handler_timeout).to_dict()
                    )
        return make_reply(cmd.id, cmd.text, envelope, results)

    @staticmethod
    def _refusal(
        cmd: Command, calls: list[Any], allowed: set[str], registry: Registry
    ) -> tuple[int | None, str, str] | None:
        """(index of the refused call, None for all of them; error code, message) when the
        command must not run at all."""
        for i, call in enumerate(calls):
            if not isinstance(call, dict) or not isinstance(call.get("name"), str):
                return i, "bad_envelope", "a call without a tool name"
        for i, call in enumerate(calls):
            if call["name"] not in allowed:
                return (
                    i,
                    "not_allowed",
                    f"source {cmd.source!r} may not call {call['name']!r}: refused, nothing "
                    "was done",
                )
        for i, call in enumerate(calls):
            if cmd.tools is not None and call["name"] not in cmd.tools:
                return i, "filtered", f"{call['name']!r} is outside the intent filter"
        tools = {t["name"]: t for t in registry.tools()}
        remapped = find_remapped(cmd.text, calls, tools)
        if remapped is not None:
            return remapped.index, "out_of_range", remapped.message()
        return None


def _unsure(envelope: Mapping[str, Any], threshold: float) -> tuple[int | None, str, str] | None:
    """The low-confidence refusal of a command, when the model's head says so: a doubt about
    the command covers every call of it (index None)."""
    confidence = envelope.get("confidence")
    if not below_confidence(confidence, threshold):
        return None
    why = ""
    unnamed = envelope.get("unnamed")
    if isinstance(unnamed, list) and unnamed:
        said = ", ".join(
            f"{u.get('name')}.{u.get('argument')}={u.get('value')!r}"
            for u in unnamed
            if isinstance(u, Mapping)
        )
        why = f" (the request names none of the model's choice: {said})"
    return (
        None,
        "low_confidence",
        f"not run: confidence {confidence:.2f} is below limits.min_confidence {threshold:g}{why}",
    )


def _refused(name: Any, args: Any, code: str, message: str) -> JsonDict:
    return {
        "name": name,
        "arguments": args,
        "ok": False,
        "result": None,
        "error": message,
        "error_code": code,
        "elapsed_ms": 0.0,
    }


def _outcome_unknown() -> JsonDict:
    return error_envelope(
        "outcome_unknown",
        "a command with this id was being run when needled stopped, and its outcome is "
        "unknown; it was not run again: check the device state, and send it with a new id to "
        "run it",
    )


def _as_replay(reply: JsonDict) -> JsonDict:
    return {**reply, "replay": True}


def _normalise(envelope: Any) -> JsonDict:
    # A completer bug must surface as an error reply, not as a crash in a transport's encoder.
    if not isinstance(envelope, dict):
        return error_envelope("bad_envelope", f"completer returned {type(envelope).__name__}")
    out = {k: envelope.get(k) for k in ENVELOPE_KEYS}
    out.update({k: v for k, v in envelope.items() if k not in out})
    if out["type"] not in ("call", "respond", "error"):
        return error_envelope("bad_envelope", f"unknown envelope type {out['type']!r}")
    calls = out["function_calls"]
    if calls is None:
        out["function_calls"] = []
    elif not isinstance(calls, list):
        return error_envelope("bad_envelope", "function_calls is not a list")
    return out
