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


# --- Tasmota variants: relays, SetOption26, SetOption4, FullTopic, dimmers, LWT ---------------


class TasmotaDevice:
    """One Tasmota device as its firmware behaves on MQTT.

    ``relays``: number of relays (``POWER<n>``); ``so26``: SetOption26 (a single relay reports as
    ``POWER1``); ``so4``: SetOption4 (the JSON result goes to ``stat/<t>/<COMMAND>`` instead of
    ``stat/<t>/RESULT``); ``full_topic``: FullTopic; ``dimmer``: a dimmer (``Dimmer`` 0-100).
    Besides the JSON result Tasmota always publishes the bare power state on
    ``stat/<t>/POWER[<n>]``. Its LWT (``tele/<t>/LWT``) is retained ``Online`` while connected.
    """

    def __init__(
        self,
        port: int,
        topic: str,
        *,
        relays: int = 1,
        so26: bool = False,
        so4: bool = False,
        full_topic: str = "%prefix%/%topic%/",
        dimmer: bool = False,
    ) -> None:
        self.name, self.relays, self.so26, self.so4 = topic, relays, so26, so4
        self.full_topic = full_topic
        self.power = dict.fromkeys(range(1, relays + 1), "OFF")
        self.dimmer = 100 if dimmer else None
        self.device = SimDevice(port, [self.t("cmnd", "#")], self.answer)
        self.device.publish(self.t("tele", "LWT"), "Online", retain=True)

    def t(self, prefix: str, command: str) -> str:
        base = self.full_topic.replace("%prefix%", prefix).replace("%topic%", self.name)
        return base.rstrip("/") + "/" + command

    def key(self, n: int) -> str:
        return "POWER" if self.relays == 1 and not self.so26 else f"POWER{n}"

    def result(self, command: str, data: dict[str, Any]) -> tuple[str, bytes | str, bool]:
        return (self.t("stat", command.upper() if self.so4 else "RESULT"), json.dumps(data), False)

    def answer(self, topic: str, payload: bytes) -> Answer:
        command = topic.rsplit("/", 1)[-1]
        value = payload.decode().strip().upper()
        if command.upper().startswith("POWER"):
            n = int(command[5:] or 1)
            if n not in self.power:
                return []
            if value == "TOGGLE":
                value = "OFF" if self.power[n] == "ON" else "ON"
            if value in ("ON", "OFF"):
                self.power[n] = value
            key = self.key(n)
            data: dict[str, Any] = {key: self.power[n]}
            if self.dimmer is not None:
                data["Dimmer"] = self.dimmer
            return [self.result(command, data), (self.t("stat", key), self.power[n], False)]
        if command.upper() == "DIMMER" and self.dimmer is not None:
            self.dimmer = int(value)
            self.power[1] = "ON" if self.dimmer > 0 else "OFF"
            data = {self.key(1): self.power[1], "Dimmer": self.dimmer}
            return [self.result(command, data)]
        return []

    def commands(self) -> list[Received]:
        return [m for m in self.device.received if m.topic.startswith(self.t("cmnd", ""))]

    def lwt(self, word: str) -> None:
        self.device.publish(self.t("tele", "LWT"), word, retain=True)


def test_tasmota_multi_relay_with_setoption4_and_a_custom_full_topic(
    broker: Any, mqtt_config: Any, sims: Callable[..., Any], phrases: Any
) -> None:
    """Before: the config could not name a relay, every command went to POWER (relay 1), and a
    SetOption4 device's answers (on stat/<t>/POWER<n>, not RESULT) never confirmed anything."""
    phrases("left on", _switch("left", "ON"))
    phrases("right on", _switch("right", "ON"))
    phrases("toggle left", _switch("left", "TOGGLE"))
    strip = sims(TasmotaDevice, "strip", relays=2, so4=True, full_topic="tasmota/%topic%/%prefix%/")
    switches = {"left": {"topic": "strip", "relay": 1}, "right": {"topic": "strip", "relay": 2}}
    table = {"kind": "tasmota", "switches": switches, "full_topic": "tasmota/%topic%/%prefix%/"}
    with RunningDaemon(mqtt_config(devices={"t": table})) as d:
        cmd = start(d, sims)
        r = single_result(cmd.ask("right on"))
        assert r["result"] == {"device": "right", "sent": "ON", "power": "ON", "confirmed": True}
        assert strip.power == {1: "OFF", 2: "ON"}
        r = single_result(cmd.ask("left on"))
        assert r["result"]["confirmed"] is True and strip.power == {1: "ON", 2: "ON"}
        r = single_result(cmd.ask("toggle left"))
        assert r["result"]["power"] == "OFF" and r["result"]["confirmed"] is True
        sent = [(m.topic, m.payload) for m in strip.commands()]
        assert sent == [
            ("tasmota/strip/cmnd/POWER2", b"ON"),
            ("tasmota/strip/cmnd/POWER1", b"ON"),
            ("tasmota/strip/cmnd/POWER1", b"TOGGLE"),
        ]
        assert not any(m.retain for m in strip.commands())
        assert d.daemon.registry.states()["set_switch"] == {
            "left": {"power": "OFF"},
            "right": {"power": "ON"},
        }


@pytest.mark.parametrize(
    "options", [{"so26": True}, {"so4": True}, {"so26": True, "so4": True}], ids=str
)
def test_tasmota_single_relay_setoption26_and_setoption4_confirm(
    broker: Any, mqtt_config: Any, sims: Callable[..., Any], phrases: Any, options: Any
) -> None:
    """Before: a plug answering POWER1 (SetOption26) or on stat/<t>/POWER (SetOption4) was
    reported unconfirmed after the full timeout, every time."""
    phrases("coffee on", _switch("coffee", "ON"))
    plug = sims(TasmotaDevice, "plug_1", **options)
    table = {"kind": "tasmota", "switches": {"coffee": "plug_1"}, "confirm_timeout": 1.5}
    with RunningDaemon(mqtt_config(devices={"t": table})) as d:
        cmd = start(d, sims)
        r = single_result(cmd.ask("coffee on"))
        assert r["result"] == {"device": "coffee", "sent": "ON", "power": "ON", "confirmed": True}
        assert r["elapsed_ms"] < 1000
        assert [m.topic for m in plug.commands()] == ["cmnd/plug_1/POWER"]


def test_tasmota_dimmer_kind(
    broker: Any, mqtt_config: Any, sims: Callable[..., Any], phrases: Any
) -> None:
    def dim(**args: Any) -> list[dict[str, Any]]:
        return [{"name": "set_dimmer", "arguments": {"device": "hall", **args}}]

    phrases("hall to 30", dim(brightness=30))
    phrases("hall off", dim(on=False))
    phrases("hall on", dim(on=True))
    phrases("hall to 140", dim(brightness=140))
    hall = sims(TasmotaDevice, "hall_dimmer", dimmer=True)
    table = {"kind": "tasmota_dimmer", "dimmers": {"hall": "hall_dimmer"}}
    with RunningDaemon(mqtt_config(devices={"d": table})) as d:
        cmd = start(d, sims)
        schema = {t["name"]: t for t in d.daemon.registry.tools()}["set_dimmer"]
        assert schema["parameters"]["properties"]["brightness"] == {
            "type": "integer",
            "minimum": 0,
            "maximum": 100,
        }
        r = single_result(cmd.ask("hall to 30"))
        assert r["result"] == {
            "device": "hall",
            "sent": {"Dimmer": "30"},
            "power": "ON",
            "brightness": 30,
            "confirmed": True,
        }
        assert hall.dimmer == 30 and hall.power[1] == "ON"
        r = single_result(cmd.ask("hall off"))
        assert r["result"]["sent"] == {"POWER": "OFF"} and r["result"]["confirmed"] is True
        assert r["result"]["power"] == "OFF" and r["result"]["brightness"] == 30
        r = single_result(cmd.ask("hall on"))
        assert r["result"]["power"] == "ON" and r["result"]["confirmed"] is True
        r = single_result(cmd.ask("hall to 140"))
        assert not r["ok"] and r["error_code"] == "invalid_arguments"
        sent = [(m.topic, m.payload) for m in hall.commands()]
        assert sent == [
            ("cmnd/hall_dimmer/Dimmer", b"30"),
            ("cmnd/hall_dimmer/POWER", b"OFF"),
            ("cmnd/hall_dimmer/POWER", b"ON"),
        ]
        assert d.daemon.registry.states()["set_dimmer"] == {"hall": {"power": "ON", "dimmer": 30}}


def test_tasmota_offline_lwt_fails_at_once_and_online_serves_again(
    broker: Any, mqtt_config: Any, sims: Callable[..., Any], phrases: Any
) -> None:
    """Before: a plug whose LWT said Offline was sent the command anyway and reported
    'unconfirmed' after the whole confirm_timeout, indistinguishable from a slow plug."""
    phrases("coffee on", _switch("coffee", "ON"))
    plug = sims(TasmotaDevice, "plug_1")
    plug.lwt("Offline")  # retained, as the broker keeps the plug's last will
    table = {"kind": "tasmota", "switches": {"coffee": "plug_1"}, "confirm_timeout": 3.0}
    with RunningDaemon(mqtt_config(devices={"t": table})) as d:
        cmd = start(d, sims)
        r = single_result(cmd.ask("coffee on"))
        assert not r["ok"] and r["error_code"] == "device_offline"
        assert "offline" in r["error"] and "tele/plug_1/LWT" in r["error"]
        assert r["elapsed_ms"] < 1000  # at once, not after confirm_timeout
        assert plug.commands() == []  # nothing was sent to a device that cannot hear it
        plug.lwt("Online")
        assert wait_for(lambda: single_result(cmd.ask("coffee on"))["ok"], WAIT)
        assert plug.power[1] == "ON"


def test_tasmota_config_errors_name_the_key() -> None:
    from devices import DeviceConfigError, build_registry

    bad = [
        ({"switches": {"a": {"topic": "x", "relay": 0}}}, "switches.a.relay"),
        ({"switches": {"a": {"topic": "x", "relay": True}}}, "switches.a.relay"),
        ({"switches": {"a": {"topic": "x", "bulb": 1}}}, "switches.a.bulb"),
        ({"switches": {"a": {"relay": 2}}}, "switches.a"),
        ({"switches": {"a": "x"}, "full_topic": "%topic%/%prefix%/+"}, "full_topic"),
        ({"switches": {"a": "x"}, "full_topic": "tasmota/%topic%/"}, "full_topic"),
    ]
    for table, key in bad:
        with pytest.raises(DeviceConfigError) as err:
            build_registry({"t": {"kind": "tasmota", **table}})
        assert err.value.key == f"devices.t.{key}", table


# --- zigbee2mqtt availability, whites and transitions ----------------------------------------


def test_zigbee2mqtt_offline_device_or_bridge_fails_at_once(
    broker: Any, mqtt_config: Any, sims: Callable[..., Any]
) -> None:
    """Before: an offline light (or bridge) was reported as an unconfirmed command after the
    2 s confirm_timeout; zigbee2mqtt had already said it was offline."""
    bridge = sims(Zigbee2Mqtt, ["kitchen_ceiling", "bedroom_lamp", "lr_strip"])
    # zigbee2mqtt's retained availability: the legacy plain form and the JSON form
    bridge.device.publish("zigbee2mqtt/kitchen_ceiling/availability", "offline", retain=True)
    bridge.device.publish(
        "zigbee2mqtt/bedroom_lamp/availability", json.dumps({"state": "online"}), retain=True
    )
    bridge.device.publish("zigbee2mqtt/bridge/state", json.dumps({"state": "online"}), retain=True)
    with RunningDaemon(z2m_config(mqtt_config, confirm_timeout=3.0)) as d:
        cmd = start(d, sims)
        r = single_result(cmd.ask("turn on the kitchen light"))
        assert not r["ok"] and r["error_code"] == "device_offline", r
        assert "kitchen_ceiling" in r["error"] and r["elapsed_ms"] < 1000
        assert bridge.sets("kitchen_ceiling") == []
        assert single_result(cmd.ask("dim the bedroom to 30"))["result"]["confirmed"] is True

        bridge.device.publish("zigbee2mqtt/bridge/state", json.dumps({"state": "offline"}))
        assert wait_for(
            lambda: (
                single_result(cmd.ask("dim the bedroom to 30"))["error_code"] == "device_offline"
            ),
            WAIT,
        )
        r = single_result(cmd.ask("dim the bedroom to 30"))
        assert "bridge" in r["error"] and r["elapsed_ms"] < 1000

        bridge.device.publish("zigbee2mqtt/bridge/state", "online")
        bridge.device.publish("zigbee2mqtt/kitchen_ceiling/availability", "online", retain=True)
        assert wait_for(lambda: single_result(cmd.ask("turn on the kitchen light"))["ok"], WAIT)
        assert bridge.lights["kitchen_ceiling"]["state"] == "ON"


class WhiteSpectrumBridge(Zigbee2Mqtt):
    """zigbee2mqtt with white-spectrum bulbs: they take brightness and color_temp (mireds) and
    ignore colour, as such bulbs do."""

    def answer(self, topic: str, payload: bytes) -> Answer:
        command = json.loads(payload)
        name = topic[len(self.base) + 1 : -len("/set")]
        light = self.lights[name]
        light.pop("color", None)
        if "color_temp" in command:
            light["color_temp"] = command["color_temp"]
            light["color_mode"] = "color_temp"
        if "transition" in command:
            light["last_transition"] = command["transition"]
        command.pop("color", None)
        return super().answer(topic, json.dumps(command).encode())


def test_zigbee2mqtt_whites_go_out_as_color_temp_with_transition(
    broker: Any, mqtt_config: Any, sims: Callable[..., Any], phrases: Any
) -> None:
    """Before: "warm white" went out as {"hex": "#FFD8A8"}, which white-spectrum bulbs ignore."""
    phrases(
        "kitchen warm white slowly",
        [
            {
                "name": "set_light",
                "arguments": {"room": "kitchen", "color": "warm white", "transition": 2.5},
            }
        ],
    )
    phrases(
        "kitchen white", [{"name": "set_light", "arguments": {"room": "kitchen", "color": "white"}}]
    )
    bridge = sims(WhiteSpectrumBridge, ["kitchen_ceiling", "bedroom_lamp", "lr_strip"])
    with RunningDaemon(z2m_config(mqtt_config)) as d:
        cmd = start(d, sims)
        props = {t["name"]: t for t in d.daemon.registry.tools()}["set_light"]["parameters"]
        assert props["properties"]["transition"] == {"type": "number", "minimum": 0, "maximum": 600}
        assert props["properties"]["color"]["enum"][:2] == ["white", "warm white"]
        r = single_result(cmd.ask("kitchen warm white slowly"))
        (sent,) = bridge.sets("kitchen_ceiling")
        assert json.loads(sent.payload) == {"color_temp": 370, "state": "ON", "transition": 2.5}
        assert r["result"]["confirmed"] is True
        light = bridge.lights["kitchen_ceiling"]
        assert light["color_temp"] == 370 and light["color_mode"] == "color_temp"
        assert light["last_transition"] == 2.5
        single_result(cmd.ask("kitchen white"))
        assert json.loads(bridge.sets("kitchen_ceiling")[-1].payload) == {
            "color_temp": 250,
            "state": "ON",
        }
        assert bridge.lights["kitchen_ceiling"]["color_temp"] == 250
