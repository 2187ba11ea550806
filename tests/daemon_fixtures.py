"""Fixtures and helpers for the daemon tests: a phrase-table test completer, a real mosquitto
broker, an in-process daemon, and MQTT test clients.

The completer here is a deterministic test double (exact phrase -> calls); it is never shipped.
Run as a script (``python tests/daemon_fixtures.py CONFIG``) it is a daemon child process for the
SIGTERM, sd_notify and RSS tests; that path does not import pytest, to keep the RSS honest.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from agent.service.config import Config, default_config_text, parse_config  # noqa: E402
from agent.service.pipeline import error_envelope  # noqa: E402

MOSQUITTO = os.environ.get("MOSQUITTO", "/usr/sbin/mosquitto")
MOSQUITTO_PASSWD = os.environ.get("MOSQUITTO_PASSWD", "/usr/bin/mosquitto_passwd")

# exact (lower-cased) phrase -> calls
PHRASES: dict[str, list[dict[str, Any]]] = {
    "turn on the kitchen light": [
        {"name": "set_light", "arguments": {"room": "kitchen", "on": True}}
    ],
    "turn off the kitchen light": [
        {"name": "set_light", "arguments": {"room": "kitchen", "on": False}}
    ],
    "dim the bedroom to 30": [
        {"name": "set_light", "arguments": {"room": "bedroom", "brightness": 30}}
    ],
    "make the living room blue": [
        {"name": "set_light", "arguments": {"room": "living room", "color": "blue"}}
    ],
    "set the heating to 21": [{"name": "set_thermostat", "arguments": {"temperature": 21}}],
    "open the bedroom blinds": [
        {"name": "set_blinds", "arguments": {"room": "bedroom", "position": 100}}
    ],
    "fan on high": [{"name": "set_fan", "arguments": {"on": True, "speed": "high"}}],
    "lights on in kitchen and bathroom": [
        {"name": "set_light", "arguments": {"room": "kitchen", "on": True}},
        {"name": "set_light", "arguments": {"room": "bathroom", "on": True}},
    ],
    "set the heating to 99": [{"name": "set_thermostat", "arguments": {"temperature": 99}}],
    # a Tasmota plug (configs with a set_switch tool): its cmnd/ publishes count the executions
    "switch the plug on": [{"name": "set_switch", "arguments": {"device": "plug", "action": "ON"}}],
}


def envelope(calls: list[dict[str, Any]], confidence: float | None = 0.9) -> dict[str, Any]:
    return {
        "type": "call" if calls else "respond",
        "success": True,
        "error": None,
        "error_code": None,
        "function_calls": calls,
        "reasoning": None,
        "confidence": confidence if calls else None,
        "prefill_tps": 1000.0,
        "decode_tps": 100.0,
        "peak_ram_mb": 1.0,
    }


class PhraseCompleter:
    """Test double for ``Session``: a fixed phrase table, plus a few control phrases.

    Unknown phrases get no call; ``"sleep S"`` takes S seconds; ``"explode"`` raises;
    ``"error X"`` returns an error envelope.
    """

    has_confidence = True  # its envelopes carry a confidence, as a model with the head does

    def __init__(self, tools: list[dict[str, Any]], delay: float = 0.0) -> None:
        self._tools = tools
        self.delay = delay
        self.seen: list[str] = []
        self._lock = threading.Lock()

    def tools(self) -> list[dict[str, Any]]:
        return self._tools

    def complete(self, text: str, *, allowed_tools: set[str] | None = None) -> dict[str, Any]:
        with self._lock:
            self.seen.append(text)
        if self.delay:
            time.sleep(self.delay)
        key = text.strip().lower()
        if key == "explode":
            raise RuntimeError("model exploded")
        if key.startswith("sleep "):
            time.sleep(float(key.split()[1]))
            return envelope([])
        if key.startswith("error "):
            return error_envelope("model_error", key)
        calls = [dict(c) for c in PHRASES.get(key, [])]
        names = {t["name"] for t in self._tools}
        calls = [c for c in calls if c["name"] in names]
        if allowed_tools is not None:
            # like the grammar: tools outside the caller's ACL cannot be produced
            calls = [c for c in calls if c["name"] in allowed_tools]
        return envelope(calls)


def phrase_factory(delay: float = 0.0, holder: list[Any] | None = None, warmup: float = 0.0) -> Any:
    def factory(config: Config, tools: list[dict[str, Any]]) -> PhraseCompleter:
        time.sleep(warmup)  # stands in for mapping the model and prefilling the tools prefix
        c = PhraseCompleter(tools, delay)
        if holder is not None:
            holder.append(c)
        return c

    return factory


def config_dict(**sections: dict[str, Any]) -> dict[str, Any]:
    """The bundled demo config with sections overridden (MQTT and console off by default)."""
    data = tomllib.loads(default_config_text())
    data["mqtt"]["enabled"] = False
    data["console"]["enabled"] = "off"
    for name, values in sections.items():
        if name == "devices":
            data["devices"] = values
        else:
            data.setdefault(name, {}).update(values)
    return data


def make_config(**sections: dict[str, Any]) -> Config:
    return parse_config(config_dict(**sections), source="<test>")


def to_toml(data: dict[str, Any]) -> str:
    """Tiny TOML writer for the test configs (tables of scalars and lists, nested tables)."""

    def val(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int | float):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(k)} = {val(x)}" for k, x in v.items()) + "}"
        raise TypeError(v)

    out: list[str] = []

    def table(prefix: str, d: dict[str, Any]) -> None:
        scalars = {k: v for k, v in d.items() if not isinstance(v, dict) or k == "switches"}
        subs = {k: v for k, v in d.items() if k not in scalars}
        if prefix and (scalars or not subs):
            out.append(f"[{prefix}]")
        for k, v in scalars.items():
            out.append(f"{json.dumps(k)} = {val(v)}")
        for k, v in subs.items():
            table(f"{prefix}.{json.dumps(k)}" if prefix else json.dumps(k), v)

    table("", data)
    return "\n".join(out) + "\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(pred: Any, timeout: float = 10.0, interval: float = 0.02) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(interval)
    return bool(pred())


class Broker:
    """A real mosquitto on 127.0.0.1, with persistence so a restart keeps sessions.

    Started as root, mosquitto drops to the ``mosquitto`` user unless ``user`` says otherwise,
    and that user cannot write into pytest's private tmp dir: persistence then fails silently
    and a restart forgets every session and queued message. So ``user`` is the current user
    (ignored by mosquitto when not started as root), and start() checks that it could write.
    """

    def __init__(
        self,
        workdir: Path,
        *,
        cafile: Path | None = None,
        certfile: Path | None = None,
        keyfile: Path | None = None,
        passwords: dict[str, str] | None = None,
    ) -> None:
        """``certfile``/``keyfile`` (and ``cafile``, the CA of client certificates) add a TLS
        listener on ``tls_port``; clients need no certificate of their own. ``passwords``
        (username -> password) writes a password file and turns anonymous access off, on every
        listener. The plain listener on ``port`` is always there."""
        self.dir = workdir
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.tls_port: int | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self.conf = self.dir / "mosquitto.conf"
        self.log = self.dir / "mosquitto.log"
        self.db = self.dir / "mosquitto.db"
        auth = "allow_anonymous true\n"
        if passwords is not None:
            passwd = self.dir / "passwd"
            for i, (user, password) in enumerate(passwords.items()):
                create = ["-c"] if i == 0 else []
                subprocess.run(
                    [MOSQUITTO_PASSWD, "-b", *create, str(passwd), user, password],
                    check=True,
                    capture_output=True,
                )
            auth = f"allow_anonymous false\npassword_file {passwd}\n"
        tls = ""
        if certfile is not None or keyfile is not None:
            assert certfile is not None and keyfile is not None, "certfile and keyfile go together"
            self.tls_port = free_port()
            # listener options: they must follow their `listener` line
            tls = (
                f"listener {self.tls_port} 127.0.0.1\n"
                f"certfile {certfile}\n"
                f"keyfile {keyfile}\n"
                + (f"cafile {cafile}\n" if cafile is not None else "")
                + "require_certificate false\n"
            )
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\n"
            f"{auth}"
            f"user {pwd.getpwuid(os.geteuid()).pw_name}\n"
            "persistence true\n"
            f"persistence_location {self.dir}/\n"
            "autosave_interval 1\n"
            # the defaults (1000 queued per client) would drop part of a 1,000-command burst
            "max_queued_messages 0\n"
            "max_inflight_messages 20\n"
            f"log_dest file {self.log}\n"
            # every packet with its flags (clean start, session present): the place to look when
            # a delivery test fails
            "log_type all\n"
            f"{tls}"
        )

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        ports = [p for p in (self.port, self.tls_port) if p is not None]
        end = time.monotonic() + 10
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                break  # a bad config or unreadable key: no use waiting
            with contextlib.suppress(OSError), contextlib.ExitStack() as stack:
                for port in ports:
                    stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=0.2))
                self._check_writable()
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"mosquitto did not start (see {self.log})")

    def _check_writable(self) -> None:
        # mosquitto opens its log after dropping privileges; no log means it cannot write the
        # persistence file either, and it would run on regardless
        if not self.log.exists():
            self.stop()
            raise RuntimeError(
                f"mosquitto cannot write to {self.dir} (check the user it runs as); "
                "without it persistence silently fails"
            )

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(10)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()


class MqttClient:
    """A test-side paho client that records every message per topic."""

    def __init__(self, port: int, *, client_id: str | None = None, v5: bool = True) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.mqtt = mqtt
        self.messages: queue.Queue[Any] = queue.Queue()
        self.by_topic: dict[str, list[Any]] = {}
        self._lock = threading.Lock()
        self._subs: list[tuple[str, int]] = []
        self.connected = threading.Event()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id or f"test-{uuid.uuid4().hex[:8]}",
            protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311,
        )
        self.client.max_queued_messages_set(0)
        self.client.reconnect_delay_set(1, 2)
        self.client.on_message = self._on_message
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *a: self.connected.clear()
        self.v5 = v5
        if v5:
            from paho.mqtt.packettypes import PacketTypes
            from paho.mqtt.properties import Properties

            props = Properties(PacketTypes.CONNECT)
            props.SessionExpiryInterval = 3600
            self.client.connect("127.0.0.1", port, clean_start=False, properties=props)
        else:
            self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self.connected.wait(5)

    def _on_connect(self, client: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        for topic, qos in self._subs:
            client.subscribe(topic, qos)
        self.connected.set()

    def _on_message(self, _c: Any, _u: Any, msg: Any) -> None:
        with self._lock:
            self.by_topic.setdefault(msg.topic, []).append(msg)
        self.messages.put(msg)

    def subscribe(self, topic: str, qos: int = 1) -> None:
        self._subs.append((topic, qos))
        result, mid = self.client.subscribe(topic, qos)
        time.sleep(0.1)  # let the SUBACK through before anything is published

    def publish(self, topic: str, payload: Any, *, qos: int = 1, **kw: Any) -> Any:
        if isinstance(payload, dict):
            payload = json.dumps(payload)
        return self.client.publish(topic, payload, qos=qos, **kw)

    def on(self, topic: str) -> list[Any]:
        with self._lock:
            return list(self.by_topic.get(topic, []))

    def json_on(self, topic: str) -> list[Any]:
        return [json.loads(m.payload) for m in self.on(topic)]

    def wait_json(self, topic: str, count: int = 1, timeout: float = 10.0) -> list[Any]:
        wait_for(lambda: len(self.on(topic)) >= count, timeout)
        return self.json_on(topic)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class RunningDaemon:
    """An in-process :class:`agent.service.daemon.Daemon` serving on a background thread."""

    def __init__(
        self, config: Config, *, delay: float = 0.0, console_io: Any = None, factory: Any = None
    ) -> None:
        """``factory``: another completer factory (e.g. the real model session's) instead of
        the phrase table."""
        from agent.service.daemon import Daemon, Notifier

        self.completers: list[PhraseCompleter] = []
        self.daemon = Daemon(
            config,
            factory or phrase_factory(delay, self.completers),
            notifier=Notifier(prefer_systemd=False),
            console_io=console_io,
        )
        self.thread: threading.Thread | None = None
        self.exit_code: int | None = None

    def __enter__(self) -> RunningDaemon:
        self.daemon.start()

        def serve() -> None:
            self.exit_code = self.daemon.serve()

        self.thread = threading.Thread(target=serve, daemon=True)
        self.thread.start()
        return self

    @property
    def completer(self) -> PhraseCompleter:
        return self.completers[-1]

    def stop(self) -> int | None:
        if self.thread is not None:
            self.daemon.request_stop()
            self.thread.join(40)
            self.thread = None
        return self.exit_code

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def child_main(argv: list[str]) -> int:
    """Daemon child for subprocess tests: ``daemon_fixtures.py CONFIG [DELAY [WARMUP]]``."""
    from agent.service.config import load_config
    from agent.service.daemon import run_daemon

    delay = float(argv[1]) if len(argv) > 1 else 0.0
    warmup = float(argv[2]) if len(argv) > 2 else 0.0
    return run_daemon(
        load_config(argv[0]), phrase_factory(delay, warmup=warmup), config_path=argv[0]
    )


if __name__ == "__main__":
    sys.exit(child_main(sys.argv[1:]))
else:
    import pytest

    # name= so a test module can import these without its parameters shadowing the import
    @pytest.fixture(name="broker")
    def broker_fixture(tmp_path: Path) -> Iterator[Broker]:
        if not os.path.exists(MOSQUITTO):
            pytest.skip(f"mosquitto not installed at {MOSQUITTO}")
        b = Broker(tmp_path / "broker")
        b.start()
        try:
            yield b
        finally:
            b.stop()

    @pytest.fixture(name="mqtt_config")
    def mqtt_config_fixture(broker: Broker) -> Any:
        """Factory: the demo config pointed at the test broker, with a unique node id."""

        def make(**sections: dict[str, Any]) -> Config:
            mqtt = {"enabled": True, "host": "127.0.0.1", "port": broker.port}
            mqtt.update({"node_id": f"t{uuid.uuid4().hex[:8]}", "reconnect_max": 2})
            mqtt.update(sections.pop("mqtt", {}))
            return make_config(mqtt=mqtt, **sections)

        return make
