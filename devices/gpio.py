"""GPIO relays and LEDs through gpiozero.

gpiozero is imported only when a GPIO device is opened (it costs about 6 MB of RSS), so configs
without GPIO never pay for it. Relay boards for the Pi are usually active-low (the coil is
energised when the pin is driven low), hence ``active_high = false`` by default for relays.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from devices.registry import BaseHandler, DeviceConfigError, JsonDict, Options, tool_schema

# Tests (and boards without real GPIO) set this to gpiozero.pins.mock.MockFactory(); None means
# gpiozero's own default pin factory (lgpio on a Pi 5).
pin_factory: Any = None


def _pins(key: str, o: Options, name: str) -> dict[str, int | str]:
    pins = o.mapping(name, (int, str))
    seen: set[Any] = set()
    for label, pin in pins.items():
        if pin in seen:
            raise DeviceConfigError(f"{key}.{name}.{label}", f"pin {pin} is used twice")
        seen.add(pin)
    return pins


class _GpioOutputs(BaseHandler):
    _kind_key = ""

    def __init__(self, key: str, pins: dict[str, int | str]) -> None:
        self.key = key
        self.pins = pins
        self._devices: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _make(self, pin: int | str) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def open(self) -> None:
        for label, pin in self.pins.items():
            if label not in self._devices:
                self._devices[label] = self._make(pin)

    def close(self) -> None:
        for dev in self._devices.values():
            dev.close()
        self._devices.clear()

    def _device(self, label: str) -> Any:
        if label not in self._devices:
            self.open()
        return self._devices[label]

    def state(self) -> JsonDict:
        with self._lock:
            return {label: {"on": bool(dev.value)} for label, dev in self._devices.items()}


class GpioRelays(_GpioOutputs):
    def __init__(self, key: str, table: Mapping[str, Any]) -> None:
        o = Options(key, table, {"relays", "active_high"})
        super().__init__(key, _pins(key, o, "relays"))
        self.active_high = o.boolean("active_high", False)
        self.schema = tool_schema(
            o.tool("set_relay"),
            o.description("Switch a relay-controlled device on or off."),
            {"relay": {"type": "string", "enum": list(self.pins)}, "on": {"type": "boolean"}},
            ["relay", "on"],
        )

    def _make(self, pin: int | str) -> Any:
        from gpiozero import OutputDevice

        return OutputDevice(
            pin, active_high=self.active_high, initial_value=False, pin_factory=pin_factory
        )

    def call(self, arguments: JsonDict) -> JsonDict:
        with self._lock:
            dev = self._device(arguments["relay"])
            dev.on() if arguments["on"] else dev.off()
            return {"relay": arguments["relay"], "on": bool(dev.value)}


class GpioLeds(_GpioOutputs):
    def __init__(self, key: str, table: Mapping[str, Any]) -> None:
        o = Options(key, table, {"leds"})
        super().__init__(key, _pins(key, o, "leds"))
        self.schema = tool_schema(
            o.tool("set_led"),
            o.description("Switch an indicator LED on, off, or make it blink."),
            {
                "led": {"type": "string", "enum": list(self.pins)},
                "mode": {"type": "string", "enum": ["on", "off", "blink"]},
            },
            ["led", "mode"],
        )

    def _make(self, pin: int | str) -> Any:
        from gpiozero import LED

        return LED(pin, pin_factory=pin_factory)

    def call(self, arguments: JsonDict) -> JsonDict:
        with self._lock:
            dev = self._device(arguments["led"])
            mode = arguments["mode"]
            if mode == "blink":
                dev.blink(on_time=0.5, off_time=0.5, background=True)
            elif mode == "on":
                dev.on()
            else:
                dev.off()
            return {"led": arguments["led"], "mode": mode}
