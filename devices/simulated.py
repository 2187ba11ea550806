"""Simulated devices that keep and report state: the demo home and the tests run on these."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from devices.registry import BaseHandler, DeviceConfigError, JsonDict, Options, tool_schema

DEFAULT_COLORS = [
    "white",
    "warm white",
    "red",
    "orange",
    "yellow",
    "green",
    "blue",
    "purple",
    "pink",
]


class SimulatedLights(BaseHandler):
    """One tool for the lights of several rooms; the rooms become the enum of ``room``."""

    def __init__(self, key: str, table: Mapping[str, Any]) -> None:
        o = Options(key, table, {"rooms", "colors"})
        self.rooms = o.strings("rooms")
        self.colors = o.strings("colors", DEFAULT_COLORS)
        self.schema = tool_schema(
            o.tool("set_light"),
            o.description("Switch a room's light on or off, and set its brightness or colour."),
            {
                "room": {"type": "string", "enum": self.rooms, "description": "Which room"},
                "on": {"type": "boolean", "description": "true to switch on, false to switch off"},
                "brightness": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 100,
                    "description": "Brightness in percent",
                },
                "color": {"type": "string", "enum": self.colors, "description": "Light colour"},
            },
            ["room"],
        )
        self._lock = threading.Lock()
        self._state = {r: {"on": False, "brightness": 100, "color": "white"} for r in self.rooms}

    def call(self, arguments: JsonDict) -> JsonDict:
        room = arguments["room"]
        with self._lock:
            st = self._state[room]
            if "brightness" in arguments:
                st["brightness"] = int(arguments["brightness"])
                # "dim the kitchen to 30%" means on; "brightness 0" means off
                st["on"] = st["brightness"] > 0
            if "color" in arguments:
                st["color"] = arguments["color"]
                st["on"] = True
            if "on" in arguments:
                st["on"] = arguments["on"]
            return {"room": room, **st}

    def state(self) -> JsonDict:
        with self._lock:
            return {r: dict(s) for r, s in self._state.items()}


class SimulatedThermostat(BaseHandler):
    def __init__(self, key: str, table: Mapping[str, Any]) -> None:
        o = Options(key, table, {"min_temperature", "max_temperature", "initial"})
        self.low = o.number("min_temperature", 5)
        self.high = o.number("max_temperature", 30)
        if self.low >= self.high:
            raise DeviceConfigError(f"{key}.min_temperature", "must be below max_temperature")
        self.schema = tool_schema(
            o.tool("set_thermostat"),
            o.description("Set the thermostat's target temperature (degrees Celsius) or mode."),
            {
                "temperature": {
                    "type": "number",
                    "minimum": self.low,
                    "maximum": self.high,
                    "description": "Target temperature in degrees Celsius",
                },
                "mode": {"type": "string", "enum": ["heat", "cool", "auto", "off"]},
            },
            [],
        )
        self._lock = threading.Lock()
        self._state: JsonDict = {"target": o.number("initial", 20), "mode": "auto"}

    def call(self, arguments: JsonDict) -> JsonDict:
        if not arguments:
            raise ValueError("nothing to set: give a temperature or a mode")
        with self._lock:
            if "temperature" in arguments:
                self._state["target"] = arguments["temperature"]
            if "mode" in arguments:
                self._state["mode"] = arguments["mode"]
            return dict(self._state)

    def state(self) -> JsonDict:
        with self._lock:
            return dict(self._state)


class SimulatedBlinds(BaseHandler):
    def __init__(self, key: str, table: Mapping[str, Any]) -> None:
        o = Options(key, table, {"rooms"})
        self.rooms = o.strings("rooms")
        self.schema = tool_schema(
            o.tool("set_blinds"),
            o.description("Open or close a room's blinds; position 0 is closed, 100 fully open."),
            {
                "room": {"type": "string", "enum": self.rooms},
                "position": {"type": "integer", "minimum": 0, "maximum": 100},
            },
            ["room", "position"],
        )
        self._lock = threading.Lock()
        self._state = {r: 0 for r in self.rooms}

    def call(self, arguments: JsonDict) -> JsonDict:
        with self._lock:
            self._state[arguments["room"]] = int(arguments["position"])
            return {"room": arguments["room"], "position": self._state[arguments["room"]]}

    def state(self) -> JsonDict:
        with self._lock:
            return {r: {"position": p} for r, p in self._state.items()}


class SimulatedFan(BaseHandler):
    def __init__(self, key: str, table: Mapping[str, Any]) -> None:
        o = Options(key, table, {"speeds"})
        self.speeds = o.strings("speeds", ["low", "medium", "high"])
        self.schema = tool_schema(
            o.tool("set_fan"),
            o.description("Switch the fan on or off or change its speed."),
            {"on": {"type": "boolean"}, "speed": {"type": "string", "enum": self.speeds}},
            [],
        )
        self._lock = threading.Lock()
        self._state: JsonDict = {"on": False, "speed": self.speeds[0]}

    def call(self, arguments: JsonDict) -> JsonDict:
        if not arguments:
            raise ValueError("nothing to set: give on or speed")
        with self._lock:
            if "speed" in arguments:
                self._state["speed"] = arguments["speed"]
                self._state["on"] = True
            if "on" in arguments:
                self._state["on"] = arguments["on"]
            return dict(self._state)

    def state(self) -> JsonDict:
        with self._lock:
            return dict(self._state)
