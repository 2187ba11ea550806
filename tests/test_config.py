"""Config loading and validation: every error names the key at fault."""

from __future__ import annotations

from pathlib import Path

import pytest
from daemon_fixtures import config_dict, to_toml

from agent.config import ConfigError, load_config, parse_config, with_overrides


def test_bundled_default_is_the_demo_home() -> None:
    cfg = load_config()
    kinds = {t["kind"] for t in cfg.devices.values()}
    assert kinds == {
        "simulated_lights",
        "simulated_thermostat",
        "simulated_blinds",
        "simulated_fan",
    }
    assert len(cfg.devices["lights"]["rooms"]) == 4
    assert cfg.limits.queue_size == 64
    assert cfg.console.enabled == "auto"
    assert cfg.mqtt.effective_client_id == "needled-needled"


def test_round_trip_through_a_file(tmp_path: Path) -> None:
    data = config_dict(mqtt={"enabled": True, "port": 1884, "node_id": "hall"})
    p = tmp_path / "needled.toml"
    p.write_text(to_toml(data))
    cfg = load_config(p)
    assert (cfg.mqtt.port, cfg.mqtt.node_id, cfg.source) == (1884, "hall", str(p))


@pytest.mark.parametrize(
    ("sections", "key"),
    [
        ({"limits": {"queue_size": 0}}, "limits.queue_size"),
        ({"limits": {"queue_size": "64"}}, "limits.queue_size"),
        ({"limits": {"queue_sizes": 8}}, "limits.queue_sizes"),
        ({"mqtt": {"port": 70000}}, "mqtt.port"),
        ({"mqtt": {"node_id": "a/b"}}, "mqtt.node_id"),
        ({"mqtt": {"tls": "yes"}}, "mqtt.tls"),
        ({"mqtt": {"ca_file": "/x.pem"}}, "mqtt.tls"),
        ({"mqtt": {"password": "s3cret"}}, "mqtt.username"),
        ({"serial": {"enabled": True}}, "serial.port"),
        ({"console": {"enabled": "maybe"}}, "console.enabled"),
        ({"security": {"acl": {"serial": ["launch"]}}}, "security.acl.serial"),
        ({"security": {"acl": {"telnet": ["*"]}}}, "security.acl.telnet"),
        ({"devices": {"x": {"kind": "simulated_lights"}}}, "devices.x.rooms"),
        ({"devices": {"x": {"kind": "tasmota", "switches": {"a": "b"}}}}, "devices.x.kind"),
        ({"model": {"threads": 0}}, "model.threads"),
    ],
)
def test_errors_name_the_key(sections: dict, key: str) -> None:
    with pytest.raises(ConfigError) as e:
        parse_config(config_dict(**sections), source="t.toml")
    assert e.value.key == key
    assert str(e.value).startswith(f"t.toml: {key}:")


def test_unknown_section_and_bad_toml(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown section"):
        parse_config({"modle": {}})
    p = tmp_path / "bad.toml"
    p.write_text("[mqtt\nport = 1")
    with pytest.raises(ConfigError, match="invalid TOML"):
        load_config(p)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_acl_resolution() -> None:
    cfg = parse_config(
        config_dict(
            security={
                "acl": {
                    "mqtt": ["set_light"],
                    "mqtt:admin": ["*"],
                    "serial": ["set_fan"],
                    "default": [],
                }
            }
        )
    )
    tools = ["set_light", "set_thermostat", "set_blinds", "set_fan"]
    acl = cfg.security
    assert acl.allowed_tools("mqtt", tools) == {"set_light"}
    assert acl.allowed_tools("mqtt:admin", tools) == set(tools)
    assert acl.allowed_tools("mqtt:guest", tools) == {"set_light"}  # falls back to mqtt
    assert acl.allowed_tools("serial", tools) == {"set_fan"}
    assert acl.allowed_tools("console", tools) == set()


def test_cli_overrides() -> None:
    cfg = with_overrides(load_config(), mqtt="10.0.0.2:8883", node_id="den", model="/m.cact")
    assert (cfg.mqtt.host, cfg.mqtt.port, cfg.mqtt.node_id) == ("10.0.0.2", 8883, "den")
    assert cfg.model.path == "/m.cact"
    with pytest.raises(ConfigError, match="--mqtt"):
        with_overrides(cfg, mqtt="host:notaport")
    with pytest.raises(ConfigError, match="--node-id"):
        with_overrides(cfg, node_id="a+b")


def test_console_accepts_booleans() -> None:
    assert parse_config(config_dict(console={"enabled": True})).console.enabled == "on"
