"""Tasmota devices over MQTT: relays (``POWER``/``POWER<n>``) and dimmers (``Dimmer`` 0-100).

Topics follow the device's FullTopic (``full_topic``, Tasmota's default ``%prefix%/%topic%/``):
commands go to ``cmnd``, answers come on ``stat`` (``RESULT``, or the command's own topic with
SetOption4), and availability on ``tele/.../LWT``. A relay
is reported as ``POWER`` on a single-relay device and as ``POWER<n>`` on multi-relay devices or
with SetOption26; both are understood. A device whose LWT says ``Offline`` fails its calls at
once (``device_offline``) instead of waiting for an answer that cannot come.

Commands are never retained: a retained POWER command would switch the plug again every time it
reconnects to the broker.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from agent.service import wirejson
from agent.service.topics import topic_problem
from devices.registry import (
    DeviceConfigError,
    DeviceUnavailable,
    JsonDict,
    MqttLink,
    MqttStateHandler,
    Options,
    TopicState,
    tool_schema,
)

DEFAULT_FULL_TOPIC = "%prefix%/%topic%/"
_ON_OFF = {"ON": "ON", "OFF": "OFF", "1": "ON", "0": "OFF"}


class _Target:
    """One controllable channel: a device topic and, on multi-relay devices, the relay number."""

    def __init__(self, topic: str, relay: int | None) -> None:
        self.topic = topic
        self.relay = relay

    @property
    def power_command(self) -> str:
        return "POWER" if self.relay is None else f"POWER{self.relay}"

    @property
    def power_keys(self) -> tuple[str, ...]:
        # relay 1 is "POWER" on a single-relay device and "POWER1" with SetOption26
        if self.relay is None or self.relay == 1:
            return ("POWER", "POWER1")
        return (f"POWER{self.relay}",)


class _TasmotaBase(MqttStateHandler):
    """FullTopic, the per-device subscriptions (shared by the channels of one device) and LWT."""

    def _setup(self, key: str, o: Options, table_name: str, mqtt: MqttLink | None) -> None:
        self.key = key
        self.mqtt = mqtt
        self.confirm_timeout = float(o.number("confirm_timeout", 2.0))
        self.full_topic = o.string("full_topic", DEFAULT_FULL_TOPIC)
        ft = self.full_topic
        if "%prefix%" not in ft or "%topic%" not in ft or any(c in ft for c in "+#\0"):
            raise DeviceConfigError(
                f"{key}.full_topic", "must contain %prefix% and %topic% and no '+', '#'"
            )
        raw = o.mapping(table_name, (str, dict))
        self.targets: dict[str, _Target] = {}
        for label, value in raw.items():
            where = f"{key}.{table_name}.{label}"
            if isinstance(value, str):
                topic, relay = value, None
            else:
                unknown = set(value) - {"topic", "relay"}
                if unknown:
                    raise DeviceConfigError(f"{where}.{sorted(unknown)[0]}", "unknown key")
                topic, relay = value.get("topic"), value.get("relay")
                if relay is not None and (
                    isinstance(relay, bool) or not isinstance(relay, int) or not 1 <= relay <= 32
                ):
                    raise DeviceConfigError(f"{where}.relay", "must be a relay number 1-32")
            if (
                not isinstance(topic, str)
                or not topic.strip()
                or "/" in topic
                or topic_problem(f"cmnd/{topic}/POWER")
            ):
                raise DeviceConfigError(where, "must be a plain Tasmota topic")
            self.targets[label] = _Target(topic, relay)
        self._states = {label: TopicState() for label in self.targets}
        self.state_topics = {}  # subscriptions are per device topic, see open()
        self._online: dict[str, bool | None] = {t.topic: None for t in self.targets.values()}
        self._avail_lock = threading.Lock()

    def topic(self, prefix: str, device: str, command: str) -> str:
        base = self.full_topic.replace("%prefix%", prefix).replace("%topic%", device)
        return base.rstrip("/") + "/" + command

    def status_commands(self, target: _Target) -> list[str]:
        """The stat/ topics (other than RESULT) that answer this channel with SetOption4."""
        return [target.power_command]

    def open(self) -> None:
        if self.mqtt is None:
            raise DeviceConfigError(self.key, f"{self.what} need the MQTT transport enabled")
        by_device: dict[str, list[str]] = {}
        for label, target in self.targets.items():
            by_device.setdefault(target.topic, []).append(label)
        for device, labels in by_device.items():
            # not tele/STATE: a periodic report landing just after a TOGGLE would "confirm" it
            # with the state from before
            topics = {self.topic("stat", device, "RESULT")}
            for label in labels:
                commands = self.status_commands(self.targets[label])
                topics |= {self.topic("stat", device, c) for c in commands}
            handler = self._on_report(device, labels)
            for t in sorted(topics):
                self.mqtt.subscribe(t, handler)
            self.mqtt.subscribe(self.topic("tele", device, "LWT"), self._on_lwt(device))

    def _on_lwt(self, device: str) -> Callable[[str, bytes], None]:
        def handle(_topic: str, payload: bytes) -> None:
            word = payload.decode("utf-8", "replace").strip().lower()
            if word in ("online", "offline"):
                with self._avail_lock:
                    self._online[device] = word == "online"

        return handle

    def _on_report(self, device: str, labels: list[str]) -> Callable[[str, bytes], None]:
        def handle(topic: str, payload: bytes) -> None:
            try:
                data = wirejson.loads(payload)
            except ValueError:
                data = None
            if not isinstance(data, dict):
                # the bare state on stat/<t>/POWER<n> ("ON"), Tasmota's plain power message
                command = topic.rsplit("/", 1)[-1]
                word = payload.decode("utf-8", "replace").strip().upper()
                if word not in _ON_OFF:
                    return
                data = {command: _ON_OFF[word]}
            for label in labels:
                value = self.report_value(self.targets[label], data, self._states[label].payload)
                if value is not None:
                    self._states[label].update(value)

        return handle

    def report_value(self, target: _Target, data: JsonDict, current: Any) -> Any | None:
        """What to store for this channel from one report; None: the report is not about it."""
        raise NotImplementedError

    def _check_online(self, label: str) -> None:
        device = self.targets[label].topic
        with self._avail_lock:
            online = self._online.get(device)
        if online is False:
            raise DeviceUnavailable(
                f"{label!r} is offline: Tasmota device {device!r} reported Offline on "
                f"{self.topic('tele', device, 'LWT')}"
            )

    def _power(self, target: _Target, data: JsonDict) -> str | None:
        for k in target.power_keys:
            v = data.get(k)
            if isinstance(v, str) and v.upper() in ("ON", "OFF"):
                return v.upper()
        return None


class TasmotaSwitches(_TasmotaBase):
    """Relays: ``set_switch`` with ``device`` and ``action`` ON/OFF/TOGGLE."""

    what = "Tasmota switches"

    def __init__(self, key: str, table: Mapping[str, Any], mqtt: MqttLink | None = None) -> None:
        o = Options(key, table, {"switches", "confirm_timeout", "full_topic"})
        self._setup(key, o, "switches", mqtt)
        self.switches = {label: t.topic for label, t in self.targets.items()}
        self.schema = tool_schema(
            o.tool("set_switch"),
            o.description("Switch a smart plug on or off, or toggle it."),
            {
                "device": {"type": "string", "enum": list(self.targets)},
                "action": {"type": "string", "enum": ["ON", "OFF", "TOGGLE"]},
            },
            ["device", "action"],
        )

    def report_value(self, target: _Target, data: JsonDict, current: Any) -> Any | None:
        return self._power(target, data)

    def call(self, arguments: JsonDict) -> JsonDict:
        label, action = arguments["device"], arguments["action"]
        self._check_online(label)
        target = self.targets[label]
        expect = None if action == "TOGGLE" else (lambda power: power == action)
        topic = self.topic("cmnd", target.topic, target.power_command)
        st, confirmed = self.send(label, topic, action, expect)
        return {"device": label, "sent": action, "power": st.payload, "confirmed": confirmed}

    def state(self) -> JsonDict:
        return {label: {"power": st.payload} for label, st in self._states.items()}


class TasmotaDimmers(_TasmotaBase):
    """Dimmers: ``set_dimmer`` with ``device`` and ``brightness`` (0-100, Tasmota's ``Dimmer``)
    and/or ``on``; with neither, the power toggles."""

    what = "Tasmota dimmers"

    def __init__(self, key: str, table: Mapping[str, Any], mqtt: MqttLink | None = None) -> None:
        o = Options(key, table, {"dimmers", "confirm_timeout", "full_topic"})
        self._setup(key, o, "dimmers", mqtt)
        self.schema = tool_schema(
            o.tool("set_dimmer"),
            o.description("Switch a dimmable light on or off, or set its brightness in percent."),
            {
                "device": {"type": "string", "enum": list(self.targets)},
                "on": {"type": "boolean"},
                "brightness": {"type": "integer", "minimum": 0, "maximum": 100},
            },
            ["device"],
        )

    def status_commands(self, target: _Target) -> list[str]:
        return [target.power_command, "DIMMER"]

    def report_value(self, target: _Target, data: JsonDict, current: Any) -> Any | None:
        power = self._power(target, data)
        dimmer = data.get("Dimmer")
        if not isinstance(dimmer, int) or isinstance(dimmer, bool) or not 0 <= dimmer <= 100:
            dimmer = None
        if power is None and dimmer is None:
            return None
        out = dict(current) if isinstance(current, dict) else {"power": None, "dimmer": None}
        if power is not None:
            out["power"] = power
        if dimmer is not None:
            out["dimmer"] = dimmer
        return out

    def call(self, arguments: JsonDict) -> JsonDict:
        label = arguments["device"]
        self._check_online(label)
        target = self.targets[label]
        on, level = arguments.get("on"), arguments.get("brightness")
        if level is not None and on is not False:
            command, value, key, want = "Dimmer", str(level), "dimmer", level
        else:
            command = target.power_command
            value = "TOGGLE" if on is None else ("ON" if on else "OFF")
            key, want = "power", value

        def shows_it(s: Any) -> bool:
            return isinstance(s, dict) and s.get(key) == want

        # a toggle's outcome depends on the state before it: any report confirms it
        expect = None if value == "TOGGLE" else shows_it
        st, confirmed = self.send(label, self.topic("cmnd", target.topic, command), value, expect)
        now = st.payload if isinstance(st.payload, dict) else {"power": None, "dimmer": None}
        return {
            "device": label,
            "sent": {command: value},
            "power": now["power"],
            "brightness": now["dimmer"],
            "confirmed": confirmed,
        }

    def state(self) -> JsonDict:
        return {
            label: st.payload if isinstance(st.payload, dict) else {"power": None, "dimmer": None}
            for label, st in self._states.items()
        }
