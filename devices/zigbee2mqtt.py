"""Zigbee lights through zigbee2mqtt: JSON to ``<base>/<friendly_name>/set``, state read from
``<base>/<friendly_name>``.

Availability comes from zigbee2mqtt itself: ``<base>/bridge/state`` (the bridge) and
``<base>/<friendly_name>/availability`` (each device, when availability is enabled there), either
as ``online``/``offline`` or as ``{"state": ...}``. A light that is known to be offline, or behind
an offline bridge, fails its calls at once (``device_offline``) instead of after the confirmation
timeout.
"""

from __future__ import annotations

import json
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

# zigbee2mqtt takes colour as {"hex": "#RRGGBB"}; named colours keep the tool schema small.
COLORS = {
    "red": "#FF0000",
    "orange": "#FF8000",
    "yellow": "#FFFF00",
    "green": "#00FF00",
    "blue": "#0000FF",
    "purple": "#8000FF",
    "pink": "#FF60C0",
}
# Whites go out as a colour temperature (mireds = 1e6 / kelvin): white-spectrum bulbs ignore
# {"hex"} entirely, and colour bulbs switch to their white channel for color_temp.
WHITES = {
    "white": 250,  # 4000 K
    "warm white": 370,  # 2700 K
}
COLOR_NAMES = ["white", "warm white", *COLORS]


class Zigbee2MqttLights(MqttStateHandler):
    what = "zigbee2mqtt devices"

    def __init__(self, key: str, table: Mapping[str, Any], mqtt: MqttLink | None = None) -> None:
        o = Options(key, table, {"devices", "base_topic", "confirm_timeout"})
        self.key = key
        self.devices: dict[str, str] = o.mapping("devices")
        self.base = o.string("base_topic", "zigbee2mqtt").rstrip("/")
        if why := topic_problem(self.base):
            raise DeviceConfigError(f"{key}.base_topic", why)
        for label, name in self.devices.items():
            why = topic_problem(f"{self.base}/{name}/set")
            if why or name.endswith("/set"):
                detail = f" ({why})" if why else ""
                raise DeviceConfigError(
                    f"{key}.devices.{label}", f"is not a valid friendly name{detail}"
                )
        self.confirm_timeout = float(o.number("confirm_timeout", 2.0))
        self.mqtt = mqtt
        self.schema = tool_schema(
            o.tool("set_light"),
            o.description("Switch a room's light on or off, and set its brightness or colour."),
            {
                "room": {"type": "string", "enum": list(self.devices)},
                "on": {"type": "boolean"},
                "brightness": {"type": "integer", "minimum": 0, "maximum": 100},
                "color": {"type": "string", "enum": COLOR_NAMES},
                "transition": {"type": "number", "minimum": 0, "maximum": 600},
            },
            ["room"],
        )
        self.state_topics = {label: f"{self.base}/{n}" for label, n in self.devices.items()}
        self._states = {label: TopicState() for label in self.devices}
        self._online: dict[str, bool | None] = {"bridge": None, **dict.fromkeys(self.devices)}
        self._avail_lock = threading.Lock()

    def open(self) -> None:
        super().open()
        assert self.mqtt is not None
        self.mqtt.subscribe(f"{self.base}/bridge/state", self._on_availability("bridge"))
        for label, name in self.devices.items():
            self.mqtt.subscribe(f"{self.base}/{name}/availability", self._on_availability(label))

    def _on_availability(self, who: str) -> Callable[[str, bytes], None]:
        def handle(_topic: str, payload: bytes) -> None:
            try:
                data = wirejson.loads(payload)
            except ValueError:
                data = payload.decode("utf-8", "replace").strip()
            if isinstance(data, dict):
                data = data.get("state")
            if data in ("online", "offline"):
                with self._avail_lock:
                    self._online[who] = data == "online"

        return handle

    def _check_online(self, label: str) -> None:
        with self._avail_lock:
            bridge, device = self._online["bridge"], self._online[label]
        if bridge is False:
            raise DeviceUnavailable(
                f"{label!r} is unreachable: zigbee2mqtt reports its bridge offline "
                f"on {self.base}/bridge/state"
            )
        if device is False:
            name = self.devices[label]
            raise DeviceUnavailable(
                f"{label!r} is offline: zigbee2mqtt reports {name!r} offline "
                f"on {self.base}/{name}/availability"
            )

    @staticmethod
    def payload(arguments: JsonDict) -> JsonDict:
        """The zigbee2mqtt ``/set`` message for one call."""
        out: JsonDict = {}
        if "brightness" in arguments:
            # zigbee2mqtt brightness is 0..254
            out["brightness"] = round(arguments["brightness"] * 254 / 100)
            out["state"] = "ON" if arguments["brightness"] > 0 else "OFF"
        if "color" in arguments:
            name = arguments["color"]
            if name in WHITES:
                out["color_temp"] = WHITES[name]
            else:
                out["color"] = {"hex": COLORS[name]}
            out.setdefault("state", "ON")
        if "on" in arguments:
            out["state"] = "ON" if arguments["on"] else "OFF"
        if not out:
            out["state"] = "TOGGLE"
        if "transition" in arguments:
            # seconds over which the bulb fades to the new state (zigbee2mqtt's own unit)
            out["transition"] = arguments["transition"]
        return out

    def call(self, arguments: JsonDict) -> JsonDict:
        label = arguments["room"]
        self._check_online(label)
        message = self.payload(arguments)
        topic = f"{self.base}/{self.devices[label]}/set"
        want = message["state"]

        def shows_it(state: Any) -> bool:
            return isinstance(state, dict) and state.get("state") == want

        # a toggle's outcome depends on the state before it: any report confirms it
        expect = None if want == "TOGGLE" else shows_it
        st, confirmed = self.send(label, topic, json.dumps(message), expect)
        return {"room": label, "sent": message, "state": st.payload, "confirmed": confirmed}

    def state(self) -> JsonDict:
        return {label: st.payload for label, st in self._states.items()}
