"""Home Assistant MQTT discovery against a real mosquitto: what HA is told, and what it is told
to forget."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import daemon_fixtures
import jsonschema
import pytest
from daemon_fixtures import (
    Broker,
    MqttClient,
    RunningDaemon,
    make_config,
    wait_for,
)

from agent.service.config import ConfigError

pytestmark = pytest.mark.mqtt

WAIT = 5.0

# Home Assistant device-based discovery, as documented for MQTT discovery: "dev" with identifiers,
# "o" (origin) with a name and an http(s) support "url", "cmps" whose members each carry "p"
# (platform) and "unique_id", or only "p" (which removes that component); a text entity needs
# command_topic; sensors need state_topic; an enum sensor lists its options.
HA_DEVICE_DISCOVERY_SCHEMA = {
    "type": "object",
    "required": ["dev", "o", "cmps"],
    "properties": {
        "dev": {
            "type": "object",
            "required": ["ids", "name"],
            "properties": {"ids": {"type": "array", "minItems": 1, "items": {"type": "string"}}},
        },
        "o": {
            "type": "object",
            "required": ["name"],
            "properties": {"url": {"type": "string", "pattern": "^https?://"}},
        },
        "availability_topic": {"type": "string"},
        "qos": {"enum": [0, 1, 2]},
        "cmps": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "type": "object",
                "required": ["p"],
                "properties": {"p": {"enum": ["text", "sensor"]}},
                "anyOf": [
                    {"maxProperties": 1},  # removal
                    {"required": ["unique_id"]},
                ],
                "allOf": [
                    {
                        "if": {"properties": {"p": {"const": "text"}}},
                        "then": {
                            "required": ["command_topic"],
                            "properties": {"max": {"maximum": 255}},
                        },
                    },
                    {
                        "if": {"properties": {"p": {"const": "sensor"}}, "minProperties": 2},
                        "then": {"required": ["state_topic", "value_template"]},
                    },
                    {
                        "if": {
                            "required": ["device_class"],
                            "properties": {"device_class": {"const": "enum"}},
                        },
                        "then": {"required": ["options"]},
                    },
                ],
            },
        },
    },
}


def retained(port: int, *patterns: str) -> dict[str, bytes]:
    """What the broker holds retained under ``patterns`` (topic -> payload).

    Retained messages are sent on subscribe, ahead of anything published later; so once a marker
    published after the SUBACK has come back, every retained message has been delivered."""
    client = MqttClient(port)
    marker = f"probe/{uuid.uuid4().hex[:8]}"
    try:
        for p in (*patterns, marker):
            client.subscribe(p)
        client.publish(marker, "done", qos=1)
        assert wait_for(lambda: client.on(marker), WAIT)
        return {
            t: msgs[-1].payload
            for t, msgs in list(client.by_topic.items())
            if t != marker and msgs[-1].retain
        }
    finally:
        client.close()


def discovery(port: int, node: str, prefix: str = "homeassistant") -> dict[str, Any] | None:
    held = retained(port, f"{prefix}/device/+/config").get(f"{prefix}/device/needled_{node}/config")
    return json.loads(held) if held else None


def test_home_assistant_discovery(broker: Broker, mqtt_config: Any) -> None:
    url = "https://support.example.com/needled"
    cfg = mqtt_config(mqtt={"discovery_url": url})
    node = cfg.mqtt.node_id
    base = f"needled/{node}"
    disc = f"homeassistant/device/needled_{node}/config"
    with RunningDaemon(cfg) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        client = MqttClient(broker.port)
        client.subscribe(disc)
        client.subscribe(f"{base}/state")
        client.subscribe(f"{base}/envelope")
        assert wait_for(lambda: client.on(disc))
        msg = client.on(disc)[0]
        assert msg.retain
        payload = json.loads(msg.payload)
        jsonschema.validate(payload, HA_DEVICE_DISCOVERY_SCHEMA)
        assert payload["o"] == {"name": "needled", "sw": "0.1.0", "url": url}
        cmps = payload["cmps"]
        text = [c for c in cmps.values() if c["p"] == "text"]
        assert len(text) == 1 and text[0]["command_topic"] == f"{base}/command"
        sensors = {c["name"]: c for c in cmps.values() if c["p"] == "sensor"}
        # the test completer reports confidences, as a model with a confidence head does
        assert set(sensors) == {"Last command", "Last call", "Outcome", "Confidence"}
        assert all(s["json_attributes_topic"] == f"{base}/envelope" for s in sensors.values())
        assert sensors["Outcome"]["device_class"] == "enum"
        assert sensors["Outcome"]["options"] == ["call", "respond", "refused", "error"]
        assert payload["availability_topic"] == f"{base}/status"
        assert len({c["unique_id"] for c in cmps.values()}) == len(cmps)

        # the text entity publishes raw text to command_topic
        client.publish(f"{base}/command", "make the living room blue")
        assert wait_for(lambda: client.on(f"{base}/state") and client.on(f"{base}/envelope"))
        state = json.loads(client.on(f"{base}/state")[-1].payload)
        assert state["last_command"] == "make the living room blue"
        assert state["last_call"].startswith("set_light(") and state["confidence"] == 90.0
        assert state["outcome"] == "call"
        envelope = json.loads(client.on(f"{base}/envelope")[-1].payload)
        assert envelope["type"] == "call" and envelope["confidence"] == 0.9
        assert envelope["function_calls"][0]["arguments"]["color"] == "blue"
        assert client.on(f"{base}/envelope")[-1].retain is False  # live delivery

        # HA restarts: birth message -> discovery again
        client.publish("homeassistant/status", "online", qos=0)
        assert wait_for(lambda: len(client.on(disc)) >= 2)
        client.close()
    # state and attributes stay retained for an HA that starts later
    held = retained(broker.port, f"{base}/state", f"{base}/envelope")
    assert json.loads(held[f"{base}/envelope"])["type"] == "call"


def test_outcome_entity_says_call_respond_refused_or_error(
    broker: Broker, mqtt_config: Any
) -> None:
    cfg = mqtt_config(limits={"max_calls": 1})
    base = f"needled/{cfg.mqtt.node_id}"
    with RunningDaemon(cfg) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        client = MqttClient(broker.port)
        client.subscribe(f"{base}/state")
        expected = [
            ("turn on the kitchen light", "call"),
            ("what is love", "respond"),
            ("lights on in kitchen and bathroom", "refused"),  # the second call is over the limit
            ("error model broke", "error"),
            ("explode", "error"),
        ]
        for i, (text, _) in enumerate(expected, 1):
            client.publish(f"{base}/command", text)
            assert wait_for(lambda i=i: len(client.on(f"{base}/state")) >= i, WAIT), text
        states = client.json_on(f"{base}/state")
        assert [(s["last_command"], s["outcome"]) for s in states] == expected
        client.close()


def test_confidence_sensor_only_for_a_model_with_a_confidence_head(
    broker: Broker, mqtt_config: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = mqtt_config()
    node = cfg.mqtt.node_id
    with RunningDaemon(cfg) as d:  # a model with the head first: the sensor is there
        assert d.daemon.mqtt.connected.wait(WAIT)
        assert wait_for(lambda: discovery(broker.port, node) is not None, WAIT)
        conf = discovery(broker.port, node)["cmps"][f"needled_{node}_confidence"]  # type: ignore[index]
        assert conf["name"] == "Confidence"
    monkeypatch.setattr(daemon_fixtures.PhraseCompleter, "has_confidence", False)
    with RunningDaemon(cfg) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)

        def removed() -> bool:
            held = discovery(broker.port, node)
            return held is not None and held["cmps"][f"needled_{node}_confidence"] == {
                "p": "sensor"
            }

        # HA drops a component sent with its platform only
        assert wait_for(removed, WAIT)
        payload = discovery(broker.port, node)
        jsonschema.validate(payload, HA_DEVICE_DISCOVERY_SCHEMA)
        names = {c.get("name") for c in payload["cmps"].values()}  # type: ignore[index]
        assert "Confidence" not in names and "Outcome" in names


def test_the_real_session_says_whether_it_has_a_confidence_head() -> None:
    from agent.cli import session_factory

    cfg = make_config()
    tools = [
        {
            "name": "set_fan",
            "description": "Fan on or off.",
            "parameters": {"type": "object", "properties": {"on": {"type": "boolean"}}},
        }
    ]
    completer: Any = session_factory()(cfg, tools)
    try:
        has_head = "confidence_head.probes" in completer.session.cf.by_name
        assert completer.has_confidence is has_head
        env = completer.complete("turn the fan on")
        # with the head every call carries a confidence; without it, never
        if env["type"] == "call":
            assert (env["confidence"] is not None) is has_head
    finally:
        closer = getattr(completer, "close", None) or getattr(completer.session, "close", None)
        if closer is not None:
            closer()


@pytest.mark.slow
def test_discovery_is_removed_when_the_node_id_changes_or_discovery_is_turned_off(
    broker: Broker, mqtt_config: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a renamed node left its old device in HA forever (retained config), and turning
    discovery off left the device there too."""
    state = tmp_path / "state"
    state.mkdir()
    monkeypatch.setenv("NEEDLED_STATE_DIR", str(state))
    old = mqtt_config()
    a = old.mqtt.node_id
    with RunningDaemon(old) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        client = MqttClient(broker.port)
        client.publish(f"needled/{a}/command", "turn on the kitchen light")
        client.close()
        assert wait_for(lambda: f"needled/{a}/envelope" in retained(broker.port, "needled/#"))
        assert discovery(broker.port, a) is not None

    new = mqtt_config()  # same installation (state dir), new node id
    b = new.mqtt.node_id
    with RunningDaemon(new) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        assert wait_for(lambda: discovery(broker.port, b) is not None, WAIT)
        assert wait_for(lambda: discovery(broker.port, a) is None, WAIT)
        held = retained(broker.port, "needled/#")
        assert f"needled/{a}/state" not in held and f"needled/{a}/envelope" not in held

    off = make_config(mqtt={**_mqtt_table(new), "discovery": False})
    with RunningDaemon(off) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        assert wait_for(lambda: discovery(broker.port, b) is None, WAIT)
    assert json.loads((state / "ha_discovery.json").read_text()) == {"retained": []}

    # a discovery prefix change moves the device too
    moved = make_config(mqtt={**_mqtt_table(new), "discovery_prefix": "ha2"})
    with RunningDaemon(moved) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        assert wait_for(lambda: discovery(broker.port, b, "ha2") is not None, WAIT)
    back = make_config(mqtt=_mqtt_table(new))
    with RunningDaemon(back) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        assert wait_for(lambda: discovery(broker.port, b) is not None, WAIT)
        assert wait_for(lambda: discovery(broker.port, b, "ha2") is None, WAIT)


def test_turning_discovery_off_removes_the_device_even_without_a_state_directory(
    broker: Broker, mqtt_config: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NEEDLED_STATE_DIR", raising=False)
    cfg = mqtt_config()
    node = cfg.mqtt.node_id
    with RunningDaemon(cfg) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        assert wait_for(lambda: discovery(broker.port, node) is not None, WAIT)
    off = make_config(mqtt={**_mqtt_table(cfg), "discovery": False})
    with RunningDaemon(off) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        assert wait_for(lambda: discovery(broker.port, node) is None, WAIT)


def test_discovery_url_must_be_http() -> None:
    with pytest.raises(ConfigError, match="mqtt.discovery_url"):
        make_config(mqtt={"discovery_url": "file:///opt/needled/README.md"})
    assert make_config(mqtt={"discovery_url": ""}).mqtt.discovery_url == ""
    cfg = make_config(mqtt={"discovery_url": "https://support.example.com/needled"})
    assert cfg.mqtt.discovery_url == "https://support.example.com/needled"


def _mqtt_table(cfg: Any) -> dict[str, Any]:
    m = cfg.mqtt
    return {"enabled": True, "host": m.host, "port": m.port, "node_id": m.node_id}


def test_a_damaged_record_never_clears_topics_needled_does_not_own(
    broker: Broker, mqtt_config: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NEEDLED_STATE_DIR", str(tmp_path))
    owner = MqttClient(broker.port)
    for topic in ("zigbee2mqtt/bridge/info", "homeassistant/device/needled_old/config"):
        owner.publish(topic, '{"keep": true}', retain=True).wait_for_publish(WAIT)
    owner.close()
    record = ["zigbee2mqtt/bridge/info", "needled/#", "homeassistant/device/needled_old/config"]
    (tmp_path / "ha_discovery.json").write_text(json.dumps({"retained": record}))
    cfg = mqtt_config()
    with RunningDaemon(cfg) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        assert wait_for(lambda: discovery(broker.port, cfg.mqtt.node_id) is not None, WAIT)
        assert wait_for(lambda: discovery(broker.port, "old") is None, WAIT)
        assert "zigbee2mqtt/bridge/info" in retained(broker.port, "zigbee2mqtt/#")


def test_a_command_refused_for_low_confidence_is_refused_not_an_error() -> None:
    from agent.calling.envelope import error_envelope
    from agent.service.transports.homeassistant import outcome

    env = error_envelope("low_confidence", "not run: confidence 0.21 is below 0.5")
    assert outcome({"envelope": env, "results": []}) == "refused"
    assert outcome({"envelope": error_envelope("completer_failed", "x"), "results": []}) == "error"
