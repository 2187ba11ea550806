"""Device registry, validation, timeouts and the built-in handlers."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest

from devices import DeviceConfigError, Registry, build_registry, validate
from devices.registry import BaseHandler, SchemaError, check_schema, tool_schema

DEMO = {
    "lights": {"kind": "simulated_lights", "rooms": ["kitchen", "bedroom"]},
    "thermostat": {"kind": "simulated_thermostat", "min_temperature": 10, "max_temperature": 28},
    "blinds": {"kind": "simulated_blinds", "rooms": ["bedroom"]},
    "fan": {"kind": "simulated_fan"},
    "notes": {"kind": "log"},
}


def test_config_generates_schemas_with_room_enums() -> None:
    reg = build_registry(DEMO)
    tools = {t["name"]: t for t in reg.tools()}
    assert set(tools) == {"set_light", "set_thermostat", "set_blinds", "set_fan", "log_message"}
    room = tools["set_light"]["parameters"]["properties"]["room"]
    assert room["enum"] == ["kitchen", "bedroom"]
    temp = tools["set_thermostat"]["parameters"]["properties"]["temperature"]
    assert (temp["minimum"], temp["maximum"]) == (10, 28)
    # the schemas are what the model renders: plain JSON
    json.dumps(reg.tools())


def test_simulated_state_changes_and_is_reported() -> None:
    reg = build_registry(DEMO)
    r = reg.dispatch("set_light", {"room": "kitchen", "brightness": 40})
    assert r.ok and r.result == {"room": "kitchen", "on": True, "brightness": 40, "color": "white"}
    assert reg.states()["set_light"]["kitchen"]["on"] is True
    assert reg.states()["set_light"]["bedroom"]["on"] is False
    assert reg.dispatch("set_thermostat", {"temperature": 21.5, "mode": "heat"}).ok
    assert reg.states()["set_thermostat"] == {"target": 21.5, "mode": "heat"}
    assert reg.dispatch("set_blinds", {"room": "bedroom", "position": 55}).result["position"] == 55
    assert reg.dispatch("set_fan", {"speed": "high"}).result == {"on": True, "speed": "high"}
    assert reg.dispatch("log_message", {"message": "hello"}).ok
    assert reg.states()["log_message"]["recent"][0]["message"] == "hello"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ({"room": "garage"}, "not one of"),
        ({"on": True}, "missing required property 'room'"),
        ({"room": "kitchen", "brightness": 101}, "above the maximum"),
        ({"room": "kitchen", "brightness": "50"}, "expected integer"),
        ({"room": "kitchen", "on": 1}, "expected boolean"),
    ],
)
def test_invalid_arguments_never_reach_the_handler(args: dict, fragment: str) -> None:
    reg = build_registry(DEMO)
    before = reg.states()
    r = reg.dispatch("set_light", args)
    assert not r.ok and r.error_code == "invalid_arguments" and fragment in r.error
    assert reg.states() == before


def test_unknown_tool_and_non_object_arguments() -> None:
    reg = build_registry(DEMO)
    assert reg.dispatch("launch_rocket", {}).error_code == "unknown_tool"
    assert reg.dispatch("set_fan", ["on"]).error_code == "invalid_arguments"


class _Bad(BaseHandler):
    def __init__(self, name: str, behaviour: str) -> None:
        self.schema = tool_schema(name, "test", {"x": {"type": "integer"}}, [])
        self.behaviour = behaviour

    def call(self, arguments: dict):
        if self.behaviour == "raise":
            raise OSError("relay board on fire")
        if self.behaviour == "hang":
            threading.Event().wait(30)
        if self.behaviour == "async":

            async def go() -> dict:
                await asyncio.sleep(0.01)
                return {"async": True}

            return go()
        if self.behaviour == "async_hang":
            return asyncio.sleep(30)
        return {"x": arguments.get("x")}


def test_raising_and_hanging_handlers_are_isolated() -> None:
    reg = Registry(
        [
            _Bad("boom", "raise"),
            _Bad("hang", "hang"),
            _Bad("fine", "ok"),
            _Bad("ahang", "async_hang"),
        ],
        timeout=0.2,
    )
    r = reg.dispatch("boom", {})
    assert not r.ok and r.error_code == "handler_error" and "on fire" in r.error
    t0 = time.monotonic()
    r = reg.dispatch("hang", {})
    assert not r.ok and r.error_code == "timeout"
    assert time.monotonic() - t0 < 1.0
    r = reg.dispatch("ahang", {})
    assert r.error_code == "timeout"
    # the hung handler holds only its own thread: the next call runs normally
    assert reg.dispatch("fine", {"x": 3}).result == {"x": 3}


def test_async_handler() -> None:
    reg = Registry([_Bad("a", "async")])
    assert reg.dispatch("a", {}).result == {"async": True}


def test_schema_checks() -> None:
    with pytest.raises(SchemaError, match="unsupported keyword"):
        check_schema({"type": "object", "properties": {"a": {"type": "string", "if": {}}}})
    with pytest.raises(SchemaError, match="declared twice"):
        Registry([_Bad("x", "ok"), _Bad("x", "ok")])


def test_validator_subset() -> None:
    schema = {
        "type": "object",
        "properties": {
            "s": {"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^[a-z]+$"},
            "n": {"type": ["number", "null"], "exclusiveMinimum": 0},
            "a": {"type": "array", "items": {"type": "integer"}, "maxItems": 2},
            "u": {"anyOf": [{"type": "integer"}, {"const": "auto"}]},
        },
        "additionalProperties": False,
    }
    assert validate({"s": "ab", "n": None, "a": [1, 2], "u": "auto"}, schema) == []
    errs = validate({"s": "A", "n": 0, "a": [1, "x", 3], "u": "x", "z": 1}, schema)
    text = "\n".join(errs)
    for frag in ("shorter", "pattern", "must be above", "a[1]", "more than 2", "none of", "'z'"):
        assert frag in text, frag
    assert validate(True, {"type": "integer"})  # booleans are not integers


def test_device_config_errors_name_the_key() -> None:
    with pytest.raises(DeviceConfigError) as e:
        build_registry({"l": {"kind": "simulated_lights", "rooms": []}})
    assert e.value.key == "devices.l.rooms"
    with pytest.raises(DeviceConfigError) as e:
        build_registry({"l": {"kind": "toaster"}})
    assert e.value.key == "devices.l.kind"
    with pytest.raises(DeviceConfigError) as e:
        build_registry({"l": {"kind": "simulated_fan", "colour": "red"}})
    assert e.value.key == "devices.l.colour"
    with pytest.raises(DeviceConfigError) as e:
        build_registry({"r": {"kind": "gpio_relays", "relays": {"a": 17, "b": 17}}})
    assert e.value.key == "devices.r.relays.b"


# --- GPIO through gpiozero's MockFactory ------------------------------------------------------


@pytest.fixture
def mock_pins():
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    import devices.gpio as gpio

    factory = MockFactory()
    gpio.pin_factory = factory
    yield factory
    gpio.pin_factory = None
    factory.reset()
    Device.pin_factory = None


def test_gpio_relays_are_active_low(mock_pins) -> None:
    reg = build_registry({"r": {"kind": "gpio_relays", "relays": {"pump": 17, "heater": 27}}})
    reg.open()
    try:
        # active-low: off at start means the pin is held high
        assert mock_pins.pin(17).state is True
        r = reg.dispatch("set_relay", {"relay": "pump", "on": True})
        assert r.ok and r.result == {"relay": "pump", "on": True}
        assert mock_pins.pin(17).state is False  # energised = pin low
        assert mock_pins.pin(27).state is True
        reg.dispatch("set_relay", {"relay": "pump", "on": False})
        assert mock_pins.pin(17).state is True
        assert reg.states()["set_relay"]["pump"] == {"on": False}
    finally:
        reg.close()


def test_gpio_active_high_relays_and_leds(mock_pins) -> None:
    reg = build_registry(
        {
            "r": {"kind": "gpio_relays", "relays": {"lamp": 5}, "active_high": True},
            "l": {"kind": "gpio_leds", "leds": {"status": 6}},
        }
    )
    reg.open()
    try:
        reg.dispatch("set_relay", {"relay": "lamp", "on": True})
        assert mock_pins.pin(5).state is True
        assert reg.dispatch("set_led", {"led": "status", "mode": "on"}).ok
        assert mock_pins.pin(6).state is True
        assert reg.dispatch("set_led", {"led": "status", "mode": "blink"}).ok
        assert reg.dispatch("set_led", {"led": "status", "mode": "off"}).ok
        assert mock_pins.pin(6).state is False
    finally:
        reg.close()


# --- zigbee2mqtt and Tasmota against a recording link ------------------------------------------


class FakeLink:
    """Records publishes; optionally answers like the device would."""

    def __init__(self) -> None:
        self.published: list[tuple[str, str, int, bool]] = []
        self.subs: dict[str, object] = {}
        self.echo: dict[str, object] = {}

    def publish(self, topic, payload, *, qos=1, retain=False) -> None:
        self.published.append((topic, payload, qos, retain))
        for prefix, fn in self.echo.items():
            if topic.startswith(prefix):
                threading.Timer(0.01, fn, args=(topic, payload)).start()

    def subscribe(self, topic, callback) -> None:
        self.subs[topic] = callback


def test_zigbee2mqtt_publishes_set_and_reads_state() -> None:
    link = FakeLink()
    reg = build_registry(
        {"z": {"kind": "zigbee2mqtt_lights", "devices": {"kitchen": "kitchen_ceiling"}}},
        mqtt=link,
    )
    reg.open()
    assert "zigbee2mqtt/kitchen_ceiling" in link.subs

    def device(topic, payload):
        state = {"state": json.loads(payload)["state"], "brightness": 127}
        link.subs["zigbee2mqtt/kitchen_ceiling"](
            "zigbee2mqtt/kitchen_ceiling", json.dumps(state).encode()
        )

    link.echo["zigbee2mqtt/"] = device
    r = reg.dispatch("set_light", {"room": "kitchen", "brightness": 50, "color": "red"})
    assert r.ok, r.error
    topic, payload, qos, retain = link.published[0]
    assert topic == "zigbee2mqtt/kitchen_ceiling/set" and not retain and qos == 1
    assert json.loads(payload) == {"brightness": 127, "state": "ON", "color": {"hex": "#FF0000"}}
    assert r.result["confirmed"] and r.result["state"]["state"] == "ON"
    assert reg.states()["set_light"]["kitchen"]["brightness"] == 127


def test_tasmota_power_never_retained_and_confirmed() -> None:
    link = FakeLink()
    reg = build_registry(
        {"t": {"kind": "tasmota", "switches": {"coffee": "plug_1"}, "confirm_timeout": 0.3}},
        mqtt=link,
    )
    reg.open()
    assert "stat/plug_1/RESULT" in link.subs
    link.echo["cmnd/"] = lambda t, p: link.subs["stat/plug_1/RESULT"](
        "stat/plug_1/RESULT", json.dumps({"POWER": "ON" if p != "OFF" else "OFF"}).encode()
    )
    r = reg.dispatch("set_switch", {"device": "coffee", "action": "ON"})
    assert link.published == [("cmnd/plug_1/POWER", "ON", 1, False)]
    assert r.result == {"device": "coffee", "sent": "ON", "power": "ON", "confirmed": True}
    # no answer from the plug: still a result, marked unconfirmed
    link.echo.clear()
    r = reg.dispatch("set_switch", {"device": "coffee", "action": "TOGGLE"})
    assert r.ok and r.result["confirmed"] is False
    assert all(not retain for *_, retain in link.published)
    assert reg.dispatch("set_switch", {"device": "coffee", "action": "on"}).error_code == (
        "invalid_arguments"
    )


def test_mqtt_devices_without_mqtt_fail_on_open() -> None:
    reg = build_registry({"t": {"kind": "tasmota", "switches": {"a": "b"}}})
    with pytest.raises(DeviceConfigError):
        reg.open()


def test_no_handler_runs_shell_commands() -> None:
    import pathlib

    for path in pathlib.Path(__file__).resolve().parents[1].joinpath("devices").glob("*.py"):
        src = path.read_text()
        for banned in ("subprocess", "os.system", "os.popen", "shell=True"):
            assert banned not in src, (path.name, banned)
