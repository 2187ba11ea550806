"""Device handlers: each declares a tool schema and is dispatched through a :class:`Registry`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from devices.registry import (
    BaseHandler,
    CallResult,
    DeviceConfigError,
    Handler,
    MqttLink,
    Registry,
    SchemaError,
    validate,
)

__all__ = [
    "BaseHandler",
    "CallResult",
    "DeviceConfigError",
    "Handler",
    "KINDS",
    "MQTT_KINDS",
    "MqttLink",
    "Registry",
    "SchemaError",
    "build_handlers",
    "build_registry",
    "validate",
]


def _kinds() -> dict[str, Callable[..., Handler]]:
    from devices.gpio import GpioLeds, GpioRelays
    from devices.log import LogHandler
    from devices.simulated import (
        SimulatedBlinds,
        SimulatedFan,
        SimulatedLights,
        SimulatedThermostat,
    )
    from devices.tasmota import TasmotaDimmers, TasmotaSwitches
    from devices.zigbee2mqtt import Zigbee2MqttLights

    return {
        "simulated_lights": SimulatedLights,
        "simulated_thermostat": SimulatedThermostat,
        "simulated_blinds": SimulatedBlinds,
        "simulated_fan": SimulatedFan,
        "zigbee2mqtt_lights": Zigbee2MqttLights,
        "tasmota": TasmotaSwitches,
        "tasmota_dimmer": TasmotaDimmers,
        "gpio_relays": GpioRelays,
        "gpio_leds": GpioLeds,
        "log": LogHandler,
    }


KINDS = tuple(sorted(_kinds()))
MQTT_KINDS = frozenset({"zigbee2mqtt_lights", "tasmota", "tasmota_dimmer"})


def build_handlers(
    devices: Mapping[str, Mapping[str, Any]],
    *,
    mqtt: MqttLink | None = None,
    prefix: str = "devices",
) -> list[Handler]:
    """Construct (but do not open) one handler per device table; errors name the config key."""
    kinds = _kinds()
    out: list[Handler] = []
    for name, table in devices.items():
        key = f"{prefix}.{name}"
        if not isinstance(table, Mapping):
            raise DeviceConfigError(key, "must be a table")
        kind = table.get("kind")
        if not isinstance(kind, str) or kind not in kinds:
            raise DeviceConfigError(f"{key}.kind", f"must be one of {sorted(kinds)}, got {kind!r}")
        factory = kinds[kind]
        out.append(factory(key, table, mqtt) if kind in MQTT_KINDS else factory(key, table))
    return out


def build_registry(
    devices: Mapping[str, Mapping[str, Any]],
    *,
    timeout: float = 5.0,
    mqtt: MqttLink | None = None,
) -> Registry:
    """Registry for a ``[devices]`` config table; call ``open()`` on it before dispatching."""
    registry = Registry(timeout=timeout)
    for handler, name in zip(build_handlers(devices, mqtt=mqtt), devices, strict=True):
        try:
            registry.add(handler)
        except SchemaError as exc:
            raise DeviceConfigError(f"devices.{name}", str(exc)) from None
    return registry
