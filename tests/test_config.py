"""Config loading and validation: every error names the key at fault."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from daemon_fixtures import config_dict, to_toml

from agent.service.config import (
    EX_CONFIG,
    ConfigError,
    default_config_text,
    host_problem,
    load_config,
    parse_config,
    with_overrides,
)


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


# --- `needled check-config` and `needled run` on configs that `run` could not serve ------------

BAD_CASES: dict[str, tuple[dict, str]] = {
    # zigbee2mqtt would subscribe to "z2m/#/Kitchen" and publish to a wildcard topic
    "devices.z.base_topic": (
        {},
        """
        [devices.z]
        kind = "zigbee2mqtt_lights"
        base_topic = "z2m/#"
        devices = { kitchen = "Kitchen" }
        """,
    ),
    # a NUL in a topic: the broker drops the connection, the client reconnects, forever
    "devices.z.devices.hall": (
        {},
        """
        [devices.z]
        kind = "zigbee2mqtt_lights"
        devices = { hall = "Hall\\u0000Light" }
        """,
    ),
    "devices.heat.min_temperature": (
        {},
        """
        [devices.heat]
        kind = "simulated_thermostat"
        tool = "set_heat"
        min_temperature = nan
        """,
    ),
    "devices.heat.max_temperature": (
        {},
        """
        [devices.heat]
        kind = "simulated_thermostat"
        tool = "set_heat"
        max_temperature = inf
        """,
    ),
    "devices.odd.kind": (
        {},
        """
        [devices.odd]
        kind = ["a"]
        """,
    ),
    "devices.plug.switches.lamp": (
        {},
        """
        [devices.plug]
        kind = "tasmota"
        switches = { lamp = "lamp\\tplug" }
        """,
    ),
    "mqtt.host": ({"mqtt": {"host": "h" * 5000}}, ""),
    "mqtt.discovery_prefix": ({"mqtt": {"discovery_prefix": "homeassistant/+"}}, ""),
    "security.acl.mqtt:": ({"security": {"acl": {"mqtt:": ["*"]}}}, ""),
}


def _write(tmp_path: Path, toml: str = "", model: str = "", **sections: dict) -> Path:
    """The bundled config (MQTT on), sections updated, with the TOML tables ``toml`` added."""
    import textwrap

    base = tomllib.loads(default_config_text())
    base["mqtt"]["enabled"] = True
    base["model"]["path"] = model
    for name, values in sections.items():
        for k, v in values.items():
            if isinstance(v, dict) and isinstance(base[name].get(k), dict):
                base[name][k].update(v)
            else:
                base[name][k] = v
    p = tmp_path / "needled.toml"
    p.write_text(to_toml(base) + "\n" + textwrap.dedent(toml))
    return p


def needled(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "agent.cli", *args], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("key", list(BAD_CASES))
def test_check_config_refuses_what_run_cannot_serve(tmp_path: Path, key: str) -> None:
    sections, toml = BAD_CASES[key]
    r = needled("check-config", str(_write(tmp_path, toml, **sections)))
    assert r.returncode == EX_CONFIG == 78, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert f": {key}: " in r.stderr, r.stderr


def test_check_config_reports_every_error_each_naming_its_key(tmp_path: Path) -> None:
    # one file with every case (the two zigbee2mqtt and thermostat tables merged)
    p = _write(
        tmp_path,
        """
        [devices.z]
        kind = "zigbee2mqtt_lights"
        base_topic = "z2m/#"
        devices = { kitchen = "Kitchen" }
        [devices.z2]
        kind = "zigbee2mqtt_lights"
        tool = "set_light2"
        devices = { hall = "Hall\\u0000Light" }
        [devices.heat]
        kind = "simulated_thermostat"
        tool = "set_heat"
        min_temperature = nan
        max_temperature = inf
        [devices.odd]
        kind = ["a"]
        """,
        mqtt={"host": "h" * 5000, "discovery_prefix": "ha/#"},
        limits={"queue_size": 0},
    )
    r = needled("check-config", str(p))
    assert r.returncode == 78 and "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.strip().splitlines()
    assert all(ln.startswith(f"config error: {p}: ") for ln in lines), lines
    keys = [ln.split(": ")[2] for ln in lines]
    assert sorted(keys) == sorted(
        [
            "limits.queue_size",
            "mqtt.host",
            "mqtt.discovery_prefix",
            "devices.z.base_topic",
            "devices.z2.devices.hall",
            "devices.heat.min_temperature",
            "devices.heat.max_temperature",
            "devices.odd.kind",
        ]
    )


def test_errors_are_collected_in_the_exception_too() -> None:
    data = config_dict(limits={"queue_size": 0, "max_calls": "8"}, mqtt={"port": 0})
    with pytest.raises(ConfigError) as e:
        parse_config(data, source="t.toml")
    keys = [p.key for p in e.value.problems]
    assert keys == ["mqtt.port", "limits.queue_size", "limits.max_calls"]
    assert str(e.value).splitlines() == [str(p) for p in e.value.problems]


def test_run_exits_78_on_a_config_error_before_loading_anything(tmp_path: Path) -> None:
    r = needled("run", "--config", str(_write(tmp_path, BAD_CASES["devices.z.base_topic"][1])))
    assert r.returncode == 78 and "devices.z.base_topic" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    good = _write(tmp_path)
    r = needled("run", "--config", str(good), "--mqtt", "h" * 300 + ":1883")
    assert r.returncode == 78 and "--mqtt: must be a host name" in r.stderr, r.stderr


def test_a_model_that_does_not_load_is_a_config_error(tmp_path: Path) -> None:
    bad = tmp_path / "m.cact"
    bad.write_bytes(b"not a model")
    p = _write(tmp_path, model=str(bad))
    r = needled("check-config", str(p))
    assert r.returncode == 78 and "model.path" in r.stderr and "format tag" in r.stderr, r.stderr
    r = needled("run", "--config", str(_write(tmp_path)), "--model", str(tmp_path / "none.cact"))
    assert r.returncode == 78 and "model.path" in r.stderr and "cannot open" in r.stderr


def test_host_names() -> None:
    for ok in ("localhost", "127.0.0.1", "::1", "[::1]", "broker.lan", "mqtt_1.home.arpa"):
        assert host_problem(ok) is None, ok
    for bad in ("h" * 254, "a..b", "bad host", "x" * 64 + ".lan", "-a.lan", "a\x00b", "a/b"):
        assert host_problem(bad), bad


def test_multi_line_descriptions_stay_allowed() -> None:
    cfg = parse_config(
        config_dict(
            devices={
                "fan": {"kind": "simulated_fan", "description": "The fan.\n\tIn the hall."},
            }
        )
    )
    assert cfg.devices["fan"]["description"].startswith("The fan.")
    with pytest.raises(ConfigError) as e:
        parse_config(config_dict(devices={"fan": {"kind": "simulated_fan", "tool": "f\x00"}}))
    assert e.value.key == "devices.fan.tool"


def test_every_bad_key_of_one_device_table_is_reported(tmp_path: Path) -> None:
    """Within one device table too, check-config names every bad key, not only the first."""
    p = _write(
        tmp_path,
        """
        [devices.lamps]
        kind = "simulated_lights"
        tool = "set_lamp"
        rooms = "kitchen"
        colors = [1, 2]
        bogus = 1
        [devices.heat]
        kind = "simulated_thermostat"
        tool = "set_heat"
        min_temperature = "cold"
        max_temperature = "hot"
        """,
    )
    r = needled("check-config", str(p))
    assert r.returncode == 78 and "Traceback" not in r.stderr, r.stderr
    for key in (
        "devices.lamps.rooms",
        "devices.lamps.colors",
        "devices.lamps.bogus",
        "devices.heat.min_temperature",
        "devices.heat.max_temperature",
    ):
        assert f"{key}:" in r.stderr, (key, r.stderr)
    # the cross-key check (min below max) is not reported on top of the values it could not read
    assert "must be below" not in r.stderr
