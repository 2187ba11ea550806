"""zigbee2mqtt and Tasmota handlers end to end over a real mosquitto broker.

The path under test is the whole one: a command published on ``needled/<node>/command`` goes
through the daemon's MQTT transport, the pipeline and the registry to a device handler, which
publishes on the broker through the daemon's own MQTT connection. The device on the other side is
a separate paho client on the same broker that behaves like zigbee2mqtt or a Tasmota plug; only
the radio and the relay are simulated. The reply is read back on ``needled/<node>/result``.

The simulated devices subscribe with MQTT 5 "retain as published" and QoS 2, so the retain flag
and QoS they see are the ones the daemon published with (a plain subscription would clear the
retain flag on live delivery and cap the QoS at the subscription's, hiding both).
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import daemon_fixtures
import paho.mqtt.client as mqtt
import pytest
from daemon_fixtures import (
    MqttClient,
    RunningDaemon,
    broker_fixture,  # noqa: F401 - fixture "broker"
    mqtt_config_fixture,  # noqa: F401 - fixture "mqtt_config"
    wait_for,
)
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.subscribeoptions import SubscribeOptions

pytestmark = pytest.mark.mqtt

# how long any single wait may take; every test stays well under 5 s when things work
WAIT = 4.0


# --- simulated devices ------------------------------------------------------------------------


@dataclass(frozen=True)
class Received:
    topic: str
    payload: bytes
    qos: int
    retain: bool


# (topic, payload, retain) messages a device publishes in answer to one command
Answer = list[tuple[str, bytes | str, bool]]
Responder = Callable[[str, bytes], Answer]


class SimDevice:
    """A device (or bridge) as its own paho client on the broker.

    Every message on ``topics`` is recorded with the QoS and retain flag it arrived with, then
    ``respond(topic, payload)`` (swappable at any time; ``None`` is a silent device) says what
    to publish back.
    """

    def __init__(self, port: int, topics: list[str], respond: Responder | None = None) -> None:
        self.respond = respond
        self.received: list[Received] = []
        self._lock = threading.Lock()
        self._connected = threading.Event()
        self._subscribed = threading.Event()
        self._granted: list[Any] = []
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"sim-{uuid.uuid4().hex[:8]}",
            protocol=mqtt.MQTTv5,
        )
        self.client.on_connect = lambda *_a: self._connected.set()
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        try:
            assert self._connected.wait(WAIT), "simulated device could not connect"
            opts = SubscribeOptions(qos=2, retainAsPublished=True)
            self.client.subscribe([(t, opts) for t in topics])
            # the SUBACK is back: nothing the daemon publishes from now on can be missed
            assert self._subscribed.wait(WAIT), "simulated device got no SUBACK"
            assert all(not rc.is_failure for rc in self._granted), self._granted
        except BaseException:
            self.close()
            raise

    def _on_subscribe(self, _c: Any, _u: Any, _mid: int, codes: list[Any], _p: Any) -> None:
        self._granted = list(codes)
        self._subscribed.set()

    def _on_message(self, client: mqtt.Client, _u: Any, msg: mqtt.MQTTMessage) -> None:
        with self._lock:
            self.received.append(Received(msg.topic, msg.payload, msg.qos, bool(msg.retain)))
        respond = self.respond
        if respond is None:
            return
        for topic, payload, retain in respond(msg.topic, msg.payload):
            client.publish(topic, payload, qos=1, retain=retain)

    def publish(self, topic: str, payload: bytes | str, *, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(WAIT)

    def on(self, topic: str) -> list[Received]:
        with self._lock:
            return [m for m in self.received if m.topic == topic]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _srgb_to_xy(hex_colour: str) -> dict[str, float]:
    """CIE xy of an sRGB colour: what a zigbee bulb in xy colour mode reports back."""
    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = linear(r), linear(g), linear(b)
    x = 0.4124 * r + 0.3576 * g + 0.1805 * b
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = 0.0193 * r + 0.1192 * g + 0.9505 * b
    total = x + y + z
    return {"x": round(x / total, 4), "y": round(y / total, 4)}


class Zigbee2Mqtt:
    """The zigbee2mqtt side: ``<base>/<name>/set`` changes a light, and the bridge then publishes
    the light's whole state on ``<base>/<name>`` (not just the changed keys), as zigbee2mqtt does.
    """

    def __init__(self, port: int, names: list[str], base: str = "zigbee2mqtt") -> None:
        self.base = base
        self.lights: dict[str, dict[str, Any]] = {
            name: {
                "state": "OFF",
                "brightness": 254,
                "color_mode": "xy",
                "color": _srgb_to_xy("#FFFFFF"),
                "linkquality": 87,
            }
            for name in names
        }
        self.device = SimDevice(port, [f"{base}/{n}/set" for n in names], self.answer)

    def answer(self, topic: str, payload: bytes) -> Answer:
        name = topic[len(self.base) + 1 : -len("/set")]
        light = self.lights[name]
        command = json.loads(payload)
        if "brightness" in command:
            light["brightness"] = command["brightness"]
        if "color" in command:
            light["color"] = _srgb_to_xy(command["color"]["hex"])
            light["color_mode"] = "xy"
        state = command.get("state")
        if state == "TOGGLE":
            light["state"] = "OFF" if light["state"] == "ON" else "ON"
        elif state in ("ON", "OFF"):
            light["state"] = state
        return [(f"{self.base}/{name}", json.dumps(light), False)]

    def sets(self, name: str) -> list[Received]:
        return self.device.on(f"{self.base}/{name}/set")


class Tasmota:
    """Tasmota plugs: ``cmnd/<topic>/POWER`` with ON/OFF/TOGGLE (any case, or 1/0/2), answered
    with ``{"POWER": ...}`` on ``stat/<topic>/RESULT`` and the bare value on ``stat/<topic>/POWER``.
    """

    WORDS = {"on": "ON", "1": "ON", "off": "OFF", "0": "OFF", "toggle": "TOGGLE", "2": "TOGGLE"}

    def __init__(self, port: int, topics: list[str]) -> None:
        self.power = dict.fromkeys(topics, "OFF")
        self.device = SimDevice(port, [f"cmnd/{t}/POWER" for t in topics], self.answer)

    def answer(self, topic: str, payload: bytes) -> Answer:
        plug = topic.split("/")[1]
        word = self.WORDS.get(payload.decode().strip().lower())
        if word is None:  # Tasmota answers an unknown value with the current state
            pass
        elif word == "TOGGLE":
            self.power[plug] = "OFF" if self.power[plug] == "ON" else "ON"
        else:
            self.power[plug] = word
        value = self.power[plug]
        return [
            (f"stat/{plug}/RESULT", json.dumps({"POWER": value}), False),
            (f"stat/{plug}/POWER", value, False),
        ]

    def commands(self, plug: str) -> list[Received]:
        return self.device.on(f"cmnd/{plug}/POWER")


# --- fixtures and helpers ---------------------------------------------------------------------


@pytest.fixture(name="sims")
def sims_fixture(broker: Any) -> Iterator[Callable[..., Any]]:
    """Factory for simulated devices and test clients on the broker; all closed at teardown
    (before the broker stops, which depends on nothing here)."""
    made: list[Any] = []

    def make(kind: type, *args: Any, **kw: Any) -> Any:
        obj = kind(broker.port, *args, **kw)
        made.append(obj)
        return obj

    yield make
    for obj in reversed(made):
        (obj.device if hasattr(obj, "device") else obj).close()


@pytest.fixture(name="phrases")
def phrases_fixture(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, list[Any]], None]:
    """Add phrases to the test completer's table for this test only."""

    def add(text: str, calls: list[dict[str, Any]]) -> None:
        monkeypatch.setitem(daemon_fixtures.PHRASES, text, calls)

    return add


class Commander:
    """Sends commands to the daemon over MQTT and waits for each one's reply by id."""

    def __init__(self, client: MqttClient, node_id: str) -> None:
        self.client = client
        self.command_topic = f"needled/{node_id}/command"
        self.result_topic = f"needled/{node_id}/result"
        client.subscribe(self.result_topic)
        self._n = 0

    def raw_reply(self, text: str) -> Any:
        """The reply message itself (the payload as bytes, for strict parsing)."""
        self._n += 1
        cid = f"c{self._n}"
        self.client.publish(self.command_topic, {"id": cid, "text": text})

        def mine() -> list[Any]:
            return [
                m for m in self.client.on(self.result_topic) if f'"{cid}"' in m.payload.decode()
            ]

        assert wait_for(lambda: mine(), WAIT), f"no reply to {text!r}"
        (msg,) = mine()
        return msg

    def ask(self, text: str) -> dict[str, Any]:
        reply = json.loads(self.raw_reply(text).payload)
        assert reply["text"] == text
        return reply


def single_result(reply: dict[str, Any]) -> dict[str, Any]:
    assert reply["envelope"]["error_code"] is None, reply["envelope"]
    (result,) = reply["results"]
    return result


def z2m_config(mqtt_config: Any, **extra: Any) -> Any:
    devices = {"kitchen": "kitchen_ceiling", "bedroom": "bedroom_lamp", "living room": "lr_strip"}
    return mqtt_config(devices={"z": {"kind": "zigbee2mqtt_lights", "devices": devices, **extra}})


def start(d: RunningDaemon, sims: Callable[..., Any]) -> Commander:
    assert d.daemon.mqtt.connected.wait(WAIT), "daemon did not connect to the broker"
    return Commander(sims(MqttClient), d.daemon.config.mqtt.node_id)


def retained_under(sims: Callable[..., Any], pattern: str) -> list[Received]:
    """Whatever the broker holds retained under ``pattern``.

    Retained messages are sent on subscribe, ahead of anything published later; so once a marker
    published after the SUBACK has come back, every retained message has been delivered too.
    """
    marker = f"probe/{uuid.uuid4().hex[:8]}"
    probe = sims(SimDevice, [pattern, marker])
    probe.publish(marker, b"done")
    assert wait_for(lambda: probe.on(marker), WAIT)
    return [m for m in probe.received if m.topic != marker]


def needled_errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [
        r for r in caplog.records if r.name.startswith("needled") and r.levelno >= logging.ERROR
    ]


# --- zigbee2mqtt ------------------------------------------------------------------------------


def test_zigbee2mqtt_set_over_real_broker_confirmed_by_bridge_state(
    broker: Any, mqtt_config: Any, sims: Callable[..., Any]
) -> None:
    bridge = sims(Zigbee2Mqtt, ["kitchen_ceiling", "bedroom_lamp", "lr_strip"])
    # zigbee2mqtt with `retain: true` for this light: its last state waits on the broker
    initial = dict(bridge.lights["kitchen_ceiling"], state="ON", brightness=200)
    bridge.lights["kitchen_ceiling"] = dict(initial)
    bridge.device.publish("zigbee2mqtt/kitchen_ceiling", json.dumps(initial), retain=True)
    with RunningDaemon(z2m_config(mqtt_config)) as d:
        cmd = start(d, sims)
        # the handler's state subscription picked the retained state up on connect
        assert wait_for(lambda: d.daemon.registry.states()["set_light"]["kitchen"] == initial, WAIT)

        r = single_result(cmd.ask("turn off the kitchen light"))
        (sent,) = bridge.sets("kitchen_ceiling")
        assert sent.topic == "zigbee2mqtt/kitchen_ceiling/set"
        assert json.loads(sent.payload) == {"state": "OFF"}
        assert (sent.qos, sent.retain) == (1, False)
        assert r["ok"], r
        want = dict(initial, state="OFF")
        assert r["result"] == {
            "room": "kitchen",
            "sent": {"state": "OFF"},
            "state": want,
            "confirmed": True,
        }

        # brightness 30 % -> zigbee2mqtt's 0..254 scale, and the light switches on
        r = single_result(cmd.ask("dim the bedroom to 30"))
        (sent,) = bridge.sets("bedroom_lamp")
        assert json.loads(sent.payload) == {"brightness": 76, "state": "ON"}
        assert (sent.qos, sent.retain) == (1, False)
        assert r["ok"] and r["result"]["confirmed"] is True
        assert r["result"]["state"]["state"] == "ON" and r["result"]["state"]["brightness"] == 76

        # a named colour goes out as {"hex"}; the bulb reports it back in xy
        r = single_result(cmd.ask("make the living room blue"))
        (sent,) = bridge.sets("lr_strip")
        assert json.loads(sent.payload) == {"color": {"hex": "#0000FF"}, "state": "ON"}
        assert r["result"]["confirmed"] is True
        assert r["result"]["state"]["color"] == {"x": 0.15, "y": 0.06}

        # the registry holds what each bridge reported, light by light
        states = d.daemon.registry.states()["set_light"]
        assert states["kitchen"] == bridge.lights["kitchen_ceiling"] == want
        assert states["bedroom"] == bridge.lights["bedroom_lamp"]
        assert states["living room"] == bridge.lights["lr_strip"]
        # one /set per command, each to its own light, none of them left retained
        assert len(bridge.device.received) == 3
        assert retained_under(sims, "zigbee2mqtt/+/set") == []


def test_zigbee2mqtt_silent_bridge_reports_unconfirmed_and_serving_continues(
    broker: Any, mqtt_config: Any, sims: Callable[..., Any]
) -> None:
    # the handler's design: no state report within confirm_timeout is still a result (the
    # command was sent), marked unconfirmed; not a timeout error
    bridge = sims(Zigbee2Mqtt, ["kitchen_ceiling", "bedroom_lamp", "lr_strip"])
    bridge.device.respond = None  # the bridge takes the command and says nothing
    with RunningDaemon(z2m_config(mqtt_config, confirm_timeout=0.4)) as d:
        cmd = start(d, sims)
        r = single_result(cmd.ask("turn on the kitchen light"))
        (sent,) = bridge.sets("kitchen_ceiling")
        assert json.loads(sent.payload) == {"state": "ON"} and not sent.retain
        assert r["ok"] and r["error_code"] is None, r
        assert r["result"] == {
            "room": "kitchen",
            "sent": {"state": "ON"},
            "state": None,  # nothing was ever reported for this light
            "confirmed": False,
        }
        assert r["elapsed_ms"] >= 350  # it did wait for the bridge
        assert d.daemon.registry.states()["set_light"]["kitchen"] is None

        # the bridge comes back: the next command is served and confirmed as usual
        bridge.device.respond = bridge.answer
        r = single_result(cmd.ask("turn off the kitchen light"))
        assert r["result"]["confirmed"] is True
        assert r["result"]["state"] == bridge.lights["kitchen_ceiling"]
        assert r["result"]["state"]["state"] == "OFF"
        assert len(bridge.sets("kitchen_ceiling")) == 2
        assert d.daemon.pipeline.healthy()


def test_a_report_that_contradicts_the_command_does_not_confirm_it(
    broker: Any, mqtt_config: Any, sims: Callable[..., Any]
) -> None:
    """A light that stays off (a dead bulb, a bridge that refused) still sends a state report:
    the reply must not call the command confirmed just because some report arrived."""
    bridge = sims(Zigbee2Mqtt, ["kitchen_ceiling", "bedroom_lamp", "lr_strip"])

    def stuck_off(topic: str, payload: bytes) -> Answer:
        name = topic[len(bridge.base) + 1 : -len("/set")]
        return [(f"{bridge.base}/{name}", json.dumps(bridge.lights[name]), False)]

    bridge.device.respond = stuck_off
    with RunningDaemon(z2m_config(mqtt_config, confirm_timeout=0.4)) as d:
        cmd = start(d, sims)
        r = single_result(cmd.ask("turn on the kitchen light"))
        assert r["ok"], r
        assert r["result"]["confirmed"] is False
        assert r["result"]["state"]["state"] == "OFF"  # what the bridge really reported
        bridge.device.respond = bridge.answer
        r = single_result(cmd.ask("turn on the kitchen light"))
        assert r["result"]["confirmed"] is True and r["result"]["state"]["state"] == "ON"


def test_zigbee2mqtt_malformed_state_is_ignored_and_serving_continues(
    broker: Any, mqtt_config: Any, sims: Callable[..., Any], caplog: pytest.LogCaptureFixture
) -> None:
    # the handler's design: a state message that is not a JSON object is dropped, so it neither
    # replaces the last good state nor counts as the confirmation of a command
    caplog.set_level(logging.WARNING)
    bridge = sims(Zigbee2Mqtt, ["kitchen_ceiling", "bedroom_lamp", "lr_strip"])
    garbage: list[bytes] = [
        b"{not json",
        b'{"state": "ON"',
        b"[1, 2, 3]",
        b'"ON"',
        b"null",
        b"42",
        b"\xff\xfe\x00garbage",
        b"",
    ]
    with RunningDaemon(z2m_config(mqtt_config, confirm_timeout=0.4)) as d:
        cmd = start(d, sims)
        good = single_result(cmd.ask("turn on the kitchen light"))
        assert good["result"]["confirmed"] is True
        last_good = good["result"]["state"]

        bridge.device.respond = lambda _t, _p: [
            ("zigbee2mqtt/kitchen_ceiling", g, False) for g in garbage
        ]
        r = single_result(cmd.ask("turn off the kitchen light"))
        assert r["ok"], r
        assert r["result"]["confirmed"] is False
        assert r["result"]["state"] == last_good  # still the last well-formed report
        assert d.daemon.registry.states()["set_light"]["kitchen"] == last_good

        # a well-formed report after the garbage is taken as usual
        bridge.device.respond = bridge.answer
        r = single_result(cmd.ask("dim the bedroom to 30"))
        assert r["result"]["confirmed"] is True and r["result"]["state"]["brightness"] == 76
        assert d.daemon.pipeline.healthy() and d.thread is not None and d.thread.is_alive()
    assert needled_errors(caplog) == []


def test_deeply_nested_state_is_dropped_like_other_malformed_state(
    broker: Any, mqtt_config: Any, sims: Callable[..., Any], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    bridge = sims(Zigbee2Mqtt, ["kitchen_ceiling", "bedroom_lamp", "lr_strip"])
    with RunningDaemon(z2m_config(mqtt_config, confirm_timeout=0.4)) as d:
        cmd = start(d, sims)
        bridge.device.respond = lambda _t, _p: [
            ("zigbee2mqtt/kitchen_ceiling", b"[" * 50_000 + b"]" * 50_000, False)
        ]
        r = single_result(cmd.ask("turn on the kitchen light"))
        assert r["ok"] and r["result"]["confirmed"] is False
        # the daemon survives either way; what fails is the quiet drop
        bridge.device.respond = bridge.answer
        assert single_result(cmd.ask("turn off the kitchen light"))["result"]["confirmed"]
    assert needled_errors(caplog) == []


def _strict_json(payload: bytes) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(payload, parse_constant=refuse)


def test_non_standard_number_in_state_never_makes_the_reply_invalid_json(
    broker: Any, mqtt_config: Any, sims: Callable[..., Any]
) -> None:
    bridge = sims(Zigbee2Mqtt, ["kitchen_ceiling", "bedroom_lamp", "lr_strip"])
    bridge.device.respond = lambda _t, _p: [
        ("zigbee2mqtt/kitchen_ceiling", b'{"state": "ON", "brightness": NaN}', False)
    ]
    with RunningDaemon(z2m_config(mqtt_config, confirm_timeout=0.4)) as d:
        cmd = start(d, sims)
        msg = cmd.raw_reply("turn on the kitchen light")
        reply = _strict_json(msg.payload)  # what a non-Python consumer (HA, Node-RED) parses
        assert single_result(reply)["ok"]


# --- Tasmota ----------------------------------------------------------------------------------


def _switch(device: str, action: str) -> list[dict[str, Any]]:
    return [{"name": "set_switch", "arguments": {"device": device, "action": action}}]


def test_tasmota_on_off_toggle_over_real_broker(
    broker: Any, mqtt_config: Any, sims: Callable[..., Any], phrases: Any
) -> None:
    phrases("coffee on", _switch("coffee", "ON"))
    phrases("coffee off", _switch("coffee", "OFF"))
    phrases("toggle coffee", _switch("coffee", "TOGGLE"))
    phrases("coffee lower case", _switch("coffee", "on"))  # not in the schema's enum
    plugs = sims(Tasmota, ["plug_1", "plug_2"])
    switches = {"coffee": "plug_1", "lamp": "plug_2"}
    cfg = mqtt_config(devices={"t": {"kind": "tasmota", "switches": switches}})
    with RunningDaemon(cfg) as d:
        cmd = start(d, sims)
        assert d.daemon.registry.states()["set_switch"] == {
            "coffee": {"power": None},
            "lamp": {"power": None},
        }
        expected = [
            ("coffee on", "ON", "ON"),
            ("coffee on", "ON", "ON"),  # ON is idempotent
            ("toggle coffee", "TOGGLE", "OFF"),
            ("toggle coffee", "TOGGLE", "ON"),
            ("coffee off", "OFF", "OFF"),
            ("toggle coffee", "TOGGLE", "ON"),
        ]
        for i, (text, action, power) in enumerate(expected):
            r = single_result(cmd.ask(text))
            assert r["ok"], r
            assert r["result"] == {
                "device": "coffee",
                "sent": action,
                "power": power,
                "confirmed": True,
            }, (i, text)
            assert plugs.power["plug_1"] == power
            assert d.daemon.registry.states()["set_switch"]["coffee"] == {"power": power}

        sent = plugs.commands("plug_1")
        assert [m.payload for m in sent] == [a.encode() for _, a, _ in expected]
        assert all(m.qos == 1 for m in sent)
        assert not any(m.retain for m in sent)  # a retained POWER would re-fire on reconnect
        assert retained_under(sims, "cmnd/#") == []

        # an action outside the schema is refused before anything reaches the broker
        r = single_result(cmd.ask("coffee lower case"))
        assert not r["ok"] and r["error_code"] == "invalid_arguments"
        assert len(plugs.commands("plug_1")) == len(expected)
        assert plugs.commands("plug_2") == []  # the other plug never heard a thing
        assert d.daemon.registry.states()["set_switch"]["lamp"] == {"power": None}


def test_tasmota_silent_or_malformed_plug_reports_unconfirmed(
    broker: Any,
    mqtt_config: Any,
    sims: Callable[..., Any],
    phrases: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    phrases("coffee on", _switch("coffee", "ON"))
    phrases("coffee off", _switch("coffee", "OFF"))
    plugs = sims(Tasmota, ["plug_1"])
    cfg = mqtt_config(
        devices={"t": {"kind": "tasmota", "switches": {"coffee": "plug_1"}, "confirm_timeout": 0.4}}
    )
    with RunningDaemon(cfg) as d:
        cmd = start(d, sims)
        r = single_result(cmd.ask("coffee on"))
        assert r["result"] == {"device": "coffee", "sent": "ON", "power": "ON", "confirmed": True}

        # RESULT messages that carry no POWER (another command's result), or are not JSON
        plugs.device.respond = lambda _t, _p: [
            ("stat/plug_1/RESULT", b'{"Dimmer": 40}', False),
            ("stat/plug_1/RESULT", b"OFF", False),
            ("stat/plug_1/RESULT", b'["POWER", "OFF"]', False),
            ("stat/plug_1/RESULT", b"{", False),
        ]
        r = single_result(cmd.ask("coffee off"))
        assert r["ok"], r
        assert r["result"] == {"device": "coffee", "sent": "OFF", "power": "ON", "confirmed": False}

        plugs.device.respond = None  # silent
        r = single_result(cmd.ask("coffee off"))
        assert r["ok"] and r["result"]["confirmed"] is False
        assert r["elapsed_ms"] >= 350
        assert d.daemon.registry.states()["set_switch"]["coffee"] == {"power": "ON"}

        plugs.device.respond = plugs.answer
        r = single_result(cmd.ask("coffee off"))
        assert r["result"] == {"device": "coffee", "sent": "OFF", "power": "OFF", "confirmed": True}
        assert [m.payload for m in plugs.commands("plug_1")] == [b"ON", b"OFF", b"OFF", b"OFF"]
        assert not any(m.retain for m in plugs.commands("plug_1"))
    assert needled_errors(caplog) == []
