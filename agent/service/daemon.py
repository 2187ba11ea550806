"""Daemon wiring: config -> devices -> completer -> pipeline -> transports, under systemd.

``run_daemon(config, completer_factory)`` is the whole service: it sends ``READY=1`` only after the
completer factory has returned (the factory must hand back a warm completer), pings the watchdog
only while the worker makes progress, reloads on SIGHUP and shuts down gracefully on SIGTERM.
"""

from __future__ import annotations

import ctypes
import gc
import logging
import os
import select
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from agent.model.errors import CactError
from agent.service.config import EX_CONFIG, Config, ConfigError, load_config
from agent.service.logsetup import setup_logging
from agent.service.pipeline import CompleterFactory, Pipeline

log = logging.getLogger("needled")


# --- sd_notify ----------------------------------------------------------------------------------


def _builtin_notify(state: str) -> bool:
    """The sd_notify datagram protocol, for when systemd-python is not installed."""
    addr = os.environ.get("NOTIFY_SOCKET")
    if not addr:
        return False
    if addr.startswith("@"):
        addr = "\0" + addr[1:]  # abstract namespace socket
    elif not addr.startswith("/"):
        return False  # vsock and other transports are not used on a Pi
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as s:
            s.connect(addr)
            s.sendall(state.encode("utf-8"))
        return True
    except OSError as exc:
        log.debug("sd_notify to %r failed: %s", addr, exc)
        return False


def _systemd_notify() -> Callable[[str], bool] | None:
    try:
        from systemd import daemon as sd_daemon
    except ImportError:
        return None
    return lambda state: bool(sd_daemon.notify(state))


class Notifier:
    """``notify("READY=1")``: through systemd-python when importable, else the built-in sender.

    Does nothing (returns False) when ``NOTIFY_SOCKET`` is unset, e.g. when run by hand.
    """

    def __init__(self, *, prefer_systemd: bool = True) -> None:
        impl = _systemd_notify() if prefer_systemd else None
        self.backend = "systemd-python" if impl is not None else "builtin"
        self._impl = impl or _builtin_notify

    def __call__(self, *states: str) -> bool:
        if not os.environ.get("NOTIFY_SOCKET"):
            return False
        return self._impl("\n".join(states))

    @staticmethod
    def watchdog_interval() -> float | None:
        """Seconds between ``WATCHDOG=1`` pings (half of WatchdogSec), or None if not asked."""
        usec = os.environ.get("WATCHDOG_USEC")
        pid = os.environ.get("WATCHDOG_PID")
        if not usec or not usec.isdigit() or int(usec) == 0:
            return None
        if pid and pid.isdigit() and int(pid) != os.getpid():
            return None
        return int(usec) / 2e6


def rss_mb(pid: int | str = "self") -> float | None:
    """A process's resident set size in MB (VmRSS; this process by default); None when it
    cannot be read (the process is gone, or /proc is not there)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def _has_confidence(completer: Any) -> bool:
    # completers that do not say (test doubles, other backends) get no Confidence sensor
    return bool(getattr(completer, "has_confidence", False))


# --- the daemon ---------------------------------------------------------------------------------


class Wakeup:
    """Wakes the main loop; safe to poke from a signal handler and from any thread.

    ``threading.Event`` is not: ``set()`` takes the event's lock, and a Python signal handler
    runs in the main thread, which may hold that very lock inside ``wait()``. The handler then
    waits for itself, and the process ignores every later SIGTERM (systemd ends it with SIGKILL
    after TimeoutStopSec, and the command in flight is lost). Here ``poke()`` takes no lock: it
    sends a byte on a socket pair, and ``sleep()`` waits in ``select()`` on the other end. The
    requests themselves are plain attributes of the daemon, set before the poke.
    """

    def __init__(self) -> None:
        self._r, self._w = socket.socketpair()
        self._r.setblocking(False)
        self._w.setblocking(False)

    def poke(self) -> None:
        try:
            self._w.send(b"\0")
        except OSError:
            pass  # the pair is full (a wake-up is already pending) or closed (shut down)

    def sleep(self, timeout: float) -> None:
        """Return after ``timeout`` seconds, or at once when poked since the last sleep."""
        try:
            select.select([self._r], [], [], timeout)
            while self._r.recv(4096):
                pass
        except (BlockingIOError, InterruptedError):
            pass
        except (OSError, ValueError):
            time.sleep(timeout)  # closed: a shut-down daemon's loop has already ended

    def close(self) -> None:
        self._r.close()
        self._w.close()


class Daemon:
    """One running service. ``start()``, then ``serve()`` until a stop is requested."""

    def __init__(
        self,
        config: Config,
        completer_factory: CompleterFactory,
        *,
        config_path: str | None = None,
        notifier: Notifier | None = None,
        console_io: tuple[Any, Any] | None = None,
    ) -> None:
        self.config = config
        self.completer_factory = completer_factory
        self.config_path = config_path
        self.notify = notifier or Notifier()
        self.console_io = console_io
        self.registry: Any = None
        self.completer: Any = None
        self.pipeline: Pipeline | None = None
        self.mqtt: Any = None
        self.serial: Any = None
        self.console: Any = None
        self.voice: Any = None
        # set by signal handlers and other threads: plain flags and a Wakeup, never a lock
        self._stop_requested = False
        self._reload_requested = False
        self._wakeup = Wakeup()
        self.thread_died: str | None = None  # a service thread that ended with an exception
        self.ready = threading.Event()
        self._queue_size = config.limits.queue_size  # the pipeline's, fixed until a restart
        self._intake_idle_since: float | None = None
        self.intake_stalled = False

    # --- building blocks ------------------------------------------------------------------------

    def _make_mqtt(self, cfg: Config) -> Any:
        if not cfg.mqtt.enabled:
            return None
        from agent.service.transports.mqtt import MqttTransport

        return MqttTransport(
            cfg.mqtt, line_length=cfg.limits.line_length, receive_maximum=self._queue_size
        )

    def _make_registry(self, cfg: Config, mqtt: Any) -> Any:
        from devices import build_registry

        registry = build_registry(cfg.devices, timeout=cfg.limits.handler_timeout, mqtt=mqtt)
        registry.open()
        return registry

    def _make_serial(self, cfg: Config) -> Any:
        if not cfg.serial.enabled:
            return None
        from agent.service.transports.serial import SerialTransport

        return SerialTransport(cfg.serial, cfg.limits)

    def _make_voice(self, cfg: Config, mqtt: Any) -> Any:
        # pocketsphinx (tens of MB) is loaded only when voice is on
        if not cfg.voice.enabled:
            return None
        from agent.service.voice.runtime import VoiceRuntime

        assert self.pipeline is not None
        return VoiceRuntime(cfg, self.registry.tools(), self.pipeline.submit, mqtt)

    def start(self) -> None:
        cfg = self.config
        self.notify("STATUS=starting: building devices")
        self.mqtt = self._make_mqtt(cfg)
        self.registry = self._make_registry(cfg, self.mqtt)
        self.notify("STATUS=starting: loading model and warming the tools prefix")
        t0 = time.monotonic()
        self.completer = self.completer_factory(cfg, self.registry.tools())
        log.info("completer ready in %.2f s", time.monotonic() - t0)
        trim_heap()
        self.pipeline = Pipeline(
            self.registry,
            self.completer,
            cfg.limits,
            cfg.security,
            dedup_path=dedup_path(),
        )
        self.pipeline.start()
        self.voice = self._make_voice(cfg, self.mqtt)
        if self.mqtt is not None:
            self.mqtt.attach(self.pipeline.submit)
            self.mqtt.set_confidence_head(_has_confidence(self.completer))
            self.pipeline.add_listener(self.mqtt.on_reply)
            self.mqtt.start()
        self.serial = self._make_serial(cfg)
        if self.serial is not None:
            self.serial.attach(self.pipeline.submit)
            self.serial.start()
        from agent.service.transports.console import ConsoleTransport

        stdin, stdout = self.console_io or (None, None)
        if ConsoleTransport.wanted(cfg.console.enabled, stdin):
            self.console = ConsoleTransport(self.registry.states, stdin=stdin, stdout=stdout)
            self.console.attach(self.pipeline.submit)
            self.console.start()
        self.ready.set()
        self.notify("READY=1", f"STATUS={self.status_line()}", f"MAINPID={os.getpid()}")
        log.info("needled ready: tools %s", ", ".join(self.registry.names()))

    def status_line(self) -> str:
        p = self.pipeline
        if p is None:
            return "starting"
        mqtt = ""
        if self.mqtt is not None:
            mqtt = ", mqtt " + ("connected" if self.mqtt.connected.is_set() else "reconnecting")
            if self.intake_stalled:
                mqtt += " (intake stalled)"
        return (
            f"ready: {p.counts['served']} served, {p.counts['busy']} busy, "
            f"queue {p.pending()}/{p.limits.queue_size}{mqtt}, rss {rss_mb() or 0.0:.1f} MB"
        )

    # --- control --------------------------------------------------------------------------------

    def request_stop(self) -> None:
        """Ask ``serve()`` to shut down; safe from a signal handler (takes no lock)."""
        self._stop_requested = True
        self._wakeup.poke()

    def on_thread_exception(self, args: threading.ExceptHookArgs) -> None:
        """A service thread died (``threading.excepthook``): stop, and exit non-zero.

        A dead transport thread would leave the daemon deaf while it still looks alive (paho's
        network thread, say). Exiting with status 1 lets ``Restart=on-failure`` bring up a fresh
        process; commands not yet acknowledged wait in the broker's persistent session, and
        queued ones get a "shutting down" reply, so nothing is lost silently.
        """
        name = args.thread.name if args.thread is not None else "?"
        log.critical(
            "thread %s died: %s: %s; stopping for a restart",
            name,
            args.exc_type.__name__,
            args.exc_value,
            exc_info=(args.exc_type, args.exc_value, args.exc_traceback),  # type: ignore[arg-type]
        )
        self.thread_died = name
        self.notify(f"STATUS=thread {name} died; stopping for a restart")
        self.request_stop()

    def request_reload(self) -> None:
        """Ask ``serve()`` to re-read the config; safe from a signal handler."""
        self._reload_requested = True
        self._wakeup.poke()

    def serve(self) -> int:
        """Run until stopped: watchdog pings while healthy, STATUS updates, SIGHUP reloads."""
        interval = Notifier.watchdog_interval()
        tick = min(interval, 1.0) if interval else 1.0
        last_status = ""
        while True:
            self._wakeup.sleep(tick)
            if self._stop_requested:
                break
            if self._reload_requested:
                self._reload_requested = False
                self.reload()
            intake_ok = self._intake_flowing()
            if interval is not None and self.pipeline is not None and self.pipeline.healthy():
                # a stuck worker or stalled intake stops the pings, so systemd restarts us
                # (Restart=on-failure)
                if intake_ok:
                    self.notify("WATCHDOG=1")
            line = self.status_line()
            if line != last_status:
                self.notify(f"STATUS={line}")
                last_status = line
        return self.shutdown()

    def _intake_flowing(self) -> bool:
        """False once MQTT messages have stayed unacknowledged for ``limits.stall_timeout``
        while the worker had nothing to do.

        Every command is acknowledged with its reply, so unacknowledged messages with an idle
        worker are acknowledgements that will never come. The broker counts them against its
        in-flight window and stops sending at the limit: the daemon would look healthy and be
        deaf, so it stops its watchdog pings instead and systemd restarts it.
        """
        m, p = self.mqtt, self.pipeline
        waiting = (
            m is not None
            and p is not None
            and m.unacked() > 0
            and p.pending() == 0
            and p.in_flight_since is None
            and m.held() == 0
        )
        now = time.monotonic()
        if not waiting:
            self._intake_idle_since = None
            self.intake_stalled = False
            return True
        if self._intake_idle_since is None:
            self._intake_idle_since = now
        if now - self._intake_idle_since < self.config.limits.stall_timeout:
            return True
        if not self.intake_stalled:
            self.intake_stalled = True
            log.error(
                "MQTT intake stalled: %d messages unacknowledged for %.0f s with nothing to "
                "do; stopping watchdog pings so systemd restarts needled",
                m.unacked() if m is not None else 0,
                now - self._intake_idle_since,
            )
        return False

    def shutdown(self, timeout: float = 30.0) -> int:
        self.notify("STOPPING=1", "STATUS=shutting down: finishing the command in flight")
        log.info("shutting down")
        if self.mqtt is not None:
            self.mqtt.pause_intake()
        if self.voice is not None:
            self.voice.stop()
        if self.pipeline is not None:
            self.pipeline.shutdown(timeout)
        if self.serial is not None:
            self.serial.stop()
        if self.mqtt is not None:
            self.mqtt.stop()
        if self.registry is not None:
            self.registry.close()
        closer = getattr(self.completer, "close", None)
        if callable(closer):
            closer()
        self._wakeup.close()
        log.info("stopped")
        return 1 if self.thread_died else 0

    def reload(self) -> bool:
        """Re-read the config file; on any error keep running with the old config."""
        if self.config_path is None:
            log.info("SIGHUP: running the bundled config, nothing to reload")
            return False
        mono = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
        self.notify("RELOADING=1", f"MONOTONIC_USEC={mono}", "STATUS=reloading config")
        try:
            new = load_config(self.config_path)
        except ConfigError as exc:
            log.error("reload failed, keeping the old config: %s", exc)
            self.notify("READY=1", f"STATUS=reload failed ({exc}); {self.status_line()}")
            return False
        old = self.config
        if new.mqtt.enabled and new.mqtt.tls and openssl_kept_out():
            msg = "mqtt.tls was turned on: restart needled to load TLS support"
            log.error("reload refused, keeping the old config: %s", msg)
            self.notify("READY=1", f"STATUS=reload refused ({msg}); {self.status_line()}")
            return False
        assert self.pipeline is not None
        try:
            with self.pipeline.exclusive():
                old_mqtt, new_mqtt = self.mqtt, self.mqtt
                if new_mqtt is not None:
                    new_mqtt.clear_subscriptions()
                if new.mqtt != old.mqtt:
                    if old_mqtt is not None and new.mqtt.enabled:
                        # the same transport, reconnected: commands still queued keep the
                        # transport their replies go out through (and are acknowledged on)
                        old_mqtt.reconfigure(new.mqtt)
                    else:
                        new_mqtt = self._make_mqtt(new)
                self.registry.close()
                registry = self._make_registry(new, new_mqtt)
                completer = self.completer
                if new.model != old.model or registry.tools() != self.registry.tools():
                    completer = self.completer_factory(new, registry.tools())
                self.pipeline.replace(
                    registry=registry, completer=completer, limits=new.limits, security=new.security
                )
                tools_changed = registry.tools() != self.registry.tools()
                self.registry, self.completer, self.config = registry, completer, new
                if new_mqtt is not None:
                    new_mqtt.set_confidence_head(_has_confidence(completer))
                voice_changed = (new.voice, new.wyoming) != (old.voice, old.wyoming)
                if self.voice is not None and (voice_changed or new_mqtt is not old_mqtt):
                    self.voice.stop()
                    self.voice = None
                if self.voice is None:
                    self.voice = self._make_voice(new, new_mqtt)
                else:
                    if tools_changed:
                        self.voice.set_tools(registry.tools())  # the grammar follows the devices
                    self.voice.resubscribe()
                if new_mqtt is not old_mqtt:
                    if old_mqtt is not None:
                        old_mqtt.stop()
                    if new_mqtt is not None:
                        new_mqtt.attach(self.pipeline.submit)
                        self.pipeline.add_listener(new_mqtt.on_reply)
                        new_mqtt.start()
                    self.mqtt = new_mqtt
                if new.serial != old.serial:
                    if self.serial is not None:
                        self.serial.stop()
                    self.serial = self._make_serial(new)
                    if self.serial is not None:
                        self.serial.attach(self.pipeline.submit)
                        self.serial.start()
        except Exception as exc:
            log.exception("reload failed")
            self.notify("READY=1", f"STATUS=reload failed ({exc})")
            return False
        log.info("config reloaded from %s", self.config_path)
        self.notify("READY=1", f"STATUS={self.status_line()}")
        return True


def dedup_path() -> str | None:
    """Where the window of command ids is kept: ``$NEEDLED_STATE_DIR/dedup.jsonl``.

    The systemd unit sets NEEDLED_STATE_DIR to its StateDirectory=. Without it (a daemon started
    by hand) the window lives in memory, and a restart forgets which commands already ran.
    """
    state = os.environ.get("NEEDLED_STATE_DIR")
    if not state:
        log.info("NEEDLED_STATE_DIR is not set: command ids are not kept across restarts")
        return None
    return os.path.join(state, "dedup.jsonl")


def trim_heap() -> bool:
    """Collect start-up garbage and hand the allocator's free pages back to the system.

    Loading parses the model directory and the tokenizer and compiles the call grammar, which
    leaves megabytes of freed memory inside glibc's heap; a long-running service on a small
    board should not keep that resident. False where the C library has no malloc_trim.
    """
    gc.collect()
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim(0)
    return True


# OpenSSL's modules, kept out of a daemon whose config needs no TLS
_OPENSSL_MODULES = ("ssl", "_hashlib")


def keep_openssl_out(config: Config) -> bool:
    """Do not load OpenSSL when the config asks for no TLS; True when it is kept out.

    paho imports ``ssl`` (and ``urllib.request``, which imports it again) whether or not TLS is
    used, and ``hashlib`` loads OpenSSL's libcrypto for digests the interpreter also has built
    in. Together that is about 4.5 MB resident of a 64 MB budget on a board that never speaks
    TLS to a broker on localhost. A ``None`` entry in ``sys.modules`` is Python's documented way
    to make an import fail: paho and urllib then run without TLS support, and ``hashlib`` falls
    back to its built-in SHA-256. Only for a fresh process: when OpenSSL is already imported
    there is nothing to save, so this changes nothing. A reload that turns TLS on then needs a
    restart (see ``Daemon.reload``).
    """
    if config.mqtt.enabled and config.mqtt.tls:
        return False
    if any(name in sys.modules for name in _OPENSSL_MODULES):
        return False
    for name in _OPENSSL_MODULES:
        sys.modules[name] = None  # type: ignore[assignment]
    return True


def openssl_kept_out() -> bool:
    """Whether this process started without OpenSSL (see :func:`keep_openssl_out`)."""
    return sys.modules.get("ssl", False) is None


def run_daemon(
    config: Config,
    completer_factory: CompleterFactory,
    *,
    config_path: str | None = None,
) -> int:
    """Run the service until SIGTERM/SIGINT; returns the process exit status.

    ``completer_factory(config, tool_schemas)`` must return a warm completer (see
    :class:`agent.service.pipeline.Completer`). ``config_path`` is re-read on SIGHUP.
    """
    setup_logging()
    if keep_openssl_out(config):
        log.debug("no TLS configured: OpenSSL not loaded")
    daemon = Daemon(config, completer_factory, config_path=config_path)
    # The hook belongs to this daemon's lifetime: left installed, it would keep the stopped
    # daemon (engine, transports) alive into interpreter teardown, whose finalizers then fail
    # noisily ("Error in sys.excepthook" on every clean exit).
    previous_hook = threading.excepthook
    threading.excepthook = daemon.on_thread_exception
    try:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, lambda *_: daemon.request_stop())
            signal.signal(signal.SIGINT, lambda *_: daemon.request_stop())
            signal.signal(signal.SIGHUP, lambda *_: daemon.request_reload())
        try:
            daemon.start()
        except Exception as exc:
            bad_config = isinstance(exc, ConfigError | CactError)
            what = f"model.path: {exc}" if isinstance(exc, CactError) else str(exc)
            log.error("startup failed: %s", what, exc_info=not bad_config)
            daemon.notify(f"STATUS=startup failed: {what}")
            try:
                daemon.shutdown(timeout=5)
            except Exception:
                log.exception("cleanup after failed startup")
            # a restart cannot mend a config or a model file: EX_CONFIG says so
            return EX_CONFIG if bad_config else 1
        return daemon.serve()
    finally:
        threading.excepthook = previous_hook
