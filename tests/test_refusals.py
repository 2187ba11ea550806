"""Refusals through the daemon with the real model: the bundled demo model decodes under its
call grammar, so what the grammar forces (a call of an allowed tool, a number that fits the
range) is what reaches the pipeline. A real broker carries the commands."""

from __future__ import annotations

from typing import Any

import pytest
from daemon_fixtures import (
    MqttClient,
    RunningDaemon,
)

from agent.cli import session_factory

pytestmark = pytest.mark.mqtt


def ask_all(broker: Any, d: RunningDaemon, texts: list[str]) -> dict[str, dict[str, Any]]:
    node = d.daemon.config.mqtt.node_id
    assert d.daemon.mqtt.connected.wait(5)
    client = MqttClient(broker.port)
    try:
        client.subscribe(f"needled/{node}/result")
        for i, text in enumerate(texts):
            client.publish(f"needled/{node}/command", {"id": i, "text": text})
        replies = client.wait_json(f"needled/{node}/result", len(texts), timeout=60)
    finally:
        client.close()
    assert len(replies) == len(texts)
    return {texts[r["id"]]: r for r in replies}


def test_acl_refuses_what_the_model_decided_instead_of_coercing(broker, mqtt_config) -> None:
    """With only set_fan allowed, a grammar narrowed to set_fan turned every request into a fan
    call. The call is decided over every tool, and a forbidden one is refused."""
    cfg = mqtt_config(security={"acl": {"mqtt": ["set_fan"]}})
    forbidden = [
        "turn on the kitchen light",
        "open the bedroom blinds",
        "set the thermostat to 21 degrees",
    ]
    with RunningDaemon(cfg, factory=session_factory()) as d:
        before = d.daemon.registry.states()
        replies = ask_all(broker, d, [*forbidden, "fan on high"])
        after = d.daemon.registry.states()
    for text in forbidden:
        r = replies[text]
        env = r["envelope"]
        assert env["type"] == "error" and env["error_code"] == "not_allowed", (text, r)
        assert "'mqtt'" in env["error"] and "may not call" in env["error"]
        assert r["results"] and all(not x["ok"] for x in r["results"])
        assert r["results"][0]["name"] != "set_fan"  # the model's own decision, refused
    fan = replies["fan on high"]
    assert fan["results"][0]["name"] == "set_fan" and fan["results"][0]["ok"]
    assert after["set_fan"] == {"on": True, "speed": "high"}  # only the fan command ran
    for tool in ("set_light", "set_blinds", "set_thermostat"):
        assert after[tool] == before[tool]


def test_out_of_range_requests_are_refused_not_remapped(broker, mqtt_config) -> None:
    """The grammar turns "99 degrees" into 9, "250 percent" into 25, "-20" into 5: each is
    refused naming the parameter, the number asked for and the range."""
    cfg = mqtt_config()
    out = {
        "set the thermostat to 99 degrees": ("temperature", "99", "5 to 30"),
        "set the thermostat to -20": ("temperature", "-20", "5 to 30"),
        "set the kitchen light to 250 percent": ("brightness", "250", "0 to 100"),
        "open the bedroom blinds to 150 percent": ("position", "150", "0 to 100"),
    }
    fine = ["set the thermostat to 21 degrees", "turn on the kitchen light"]
    with RunningDaemon(cfg, factory=session_factory()) as d:
        before = d.daemon.registry.states()
        replies = ask_all(broker, d, [*out, *fine])
        after = d.daemon.registry.states()
    for text, words in out.items():
        env = replies[text]["envelope"]
        assert env["error_code"] == "out_of_range", (text, replies[text])
        assert all(w in env["error"] for w in words), env["error"]
    for tool in ("set_blinds",):
        assert after[tool] == before[tool]
    assert after["set_thermostat"]["target"] == 21  # only the in-range request ran
    assert after["set_light"]["kitchen"]["on"] is True
    assert (
        after["set_light"]["kitchen"]["brightness"] == before["set_light"]["kitchen"]["brightness"]
    )
    for text in fine:
        assert replies[text]["results"][0]["ok"], replies[text]
