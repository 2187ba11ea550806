"""The daemon's single TOML config file, validated up front with errors that name the key."""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.logsetup import LEVELS as LOG_LEVELS

DEFAULT_CONFIG_NAME = "default.toml"


class ConfigError(ValueError):
    """A config problem; ``key`` is the dotted key at fault (``""`` for the file as a whole)."""

    def __init__(self, key: str, message: str, source: str = "") -> None:
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{key}: {message}" if key else f"{where}{message}")
        self.key = key
        self.message = message
        self.source = source


@dataclass(frozen=True)
class ModelConfig:
    path: str = ""  # empty: the model bundled with the package
    threads: int = 2
    system: str = ""  # system facts ("key: value; ..."), never instructions
    max_new_tokens: int = 64


@dataclass(frozen=True)
class MqttConfig:
    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 1883
    node_id: str = "needled"
    client_id: str = ""  # empty: "needled-<node_id>"; must stay fixed for the persistent session
    keepalive: int = 60
    tls: bool = False
    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""
    tls_insecure: bool = False
    username: str = ""
    password: str = ""
    password_file: str = ""
    session_expiry: int = 7 * 24 * 3600
    reconnect_min: int = 1
    reconnect_max: int = 60
    discovery: bool = True
    discovery_prefix: str = "homeassistant"
    hermes: bool = False
    hermes_execute: bool = False  # Rhasspy handles intents itself; only recognise by default

    @property
    def effective_client_id(self) -> str:
        return self.client_id or f"needled-{self.node_id}"

    def read_password(self) -> str | None:
        if self.password_file:
            return Path(self.password_file).read_text(encoding="utf-8").strip()
        return self.password or None


@dataclass(frozen=True)
class SerialConfig:
    enabled: bool = False
    port: str = ""
    baud: int = 115200
    exclusive: bool = True
    reopen_min: float = 0.5
    reopen_max: float = 30.0


@dataclass(frozen=True)
class ConsoleConfig:
    enabled: str = "auto"  # "auto": only when stdin is a terminal; "on"; "off"


@dataclass(frozen=True)
class LogConfig:
    level: str = "info"  # debug, info, warning, error or critical


@dataclass(frozen=True)
class LimitsConfig:
    queue_size: int = 64
    handler_timeout: float = 5.0
    line_length: int = 1024
    max_calls: int = 8
    dedup_size: int = 1024
    partial_line_timeout: float = 2.0
    stall_timeout: float = 30.0


@dataclass(frozen=True)
class SecurityConfig:
    # source ("mqtt", "mqtt:<username>", "serial", "console", "hermes") -> allowed tools;
    # "*" allows every tool; sources not listed get acl["default"] or, without it, everything.
    acl: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def allowed_tools(self, source: str, all_tools: list[str]) -> set[str]:
        if source in self.acl:
            names = self.acl[source]
        elif ":" in source and source.split(":", 1)[0] in self.acl:
            names = self.acl[source.split(":", 1)[0]]
        elif "default" in self.acl:
            names = self.acl["default"]
        else:
            names = ("*",)
        return set(all_tools) if "*" in names else set(names) & set(all_tools)


@dataclass(frozen=True)
class Config:
    model: ModelConfig = field(default_factory=ModelConfig)
    mqtt: MqttConfig = field(default_factory=MqttConfig)
    serial: SerialConfig = field(default_factory=SerialConfig)
    console: ConsoleConfig = field(default_factory=ConsoleConfig)
    limits: LimitsConfig = field(default_factory=LimitsConfig)
    log: LogConfig = field(default_factory=LogConfig)
    security: SecurityConfig = field(default_factory=SecurityConfig)
    devices: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    source: str = ""


# --- parsing -------------------------------------------------------------------------------------

_SECTIONS = {
    "model": ModelConfig,
    "mqtt": MqttConfig,
    "serial": SerialConfig,
    "console": ConsoleConfig,
    "limits": LimitsConfig,
    "log": LogConfig,
}

# (minimum, maximum) for numeric keys; a bad value is refused at start, not at first use.
_RANGES: dict[str, tuple[float, float]] = {
    "model.threads": (1, 64),
    "model.max_new_tokens": (1, 4096),
    "mqtt.port": (1, 65535),
    "mqtt.keepalive": (5, 65535),
    "mqtt.session_expiry": (0, 0xFFFFFFFF),
    "mqtt.reconnect_min": (1, 3600),
    "mqtt.reconnect_max": (1, 3600),
    "serial.baud": (50, 4_000_000),
    "serial.reopen_min": (0.01, 3600),
    "serial.reopen_max": (0.01, 3600),
    "limits.queue_size": (1, 100_000),
    "limits.handler_timeout": (0.01, 600),
    "limits.line_length": (16, 1_000_000),
    "limits.max_calls": (1, 64),
    "limits.dedup_size": (0, 1_000_000),
    "limits.partial_line_timeout": (0.05, 600),
    "limits.stall_timeout": (1, 3600),
}

_TOPIC_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def _section(name: str, cls: type, raw: Any, source: str) -> Any:
    if not isinstance(raw, Mapping):
        raise ConfigError(name, "must be a table", source)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        full = f"{name}.{key}"
        if key not in fields:
            raise ConfigError(full, f"unknown key (known: {', '.join(sorted(fields))})", source)
        default = fields[key].default
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise ConfigError(full, "must be true or false", source)
        elif isinstance(default, int | float):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ConfigError(full, "must be a number", source)
            if isinstance(default, int) and not isinstance(value, int):
                raise ConfigError(full, "must be an integer", source)
            lo, hi = _RANGES.get(full, (float("-inf"), float("inf")))
            if not lo <= value <= hi:
                raise ConfigError(full, f"must be between {lo:g} and {hi:g}, got {value}", source)
        elif isinstance(default, str) and not isinstance(value, str):
            if name == "console" and key == "enabled" and isinstance(value, bool):
                value = "on" if value else "off"
            else:
                raise ConfigError(full, "must be a string", source)
        values[key] = value
    return cls(**values)


def parse_config(data: Mapping[str, Any], *, source: str = "") -> Config:
    """Build a :class:`Config` from parsed TOML; raise :class:`ConfigError` naming the key."""
    known = set(_SECTIONS) | {"security", "devices"}
    for key in data:
        if key not in known:
            raise ConfigError(key, f"unknown section (known: {', '.join(sorted(known))})", source)
    parts = {n: _section(n, cls, data.get(n, {}), source) for n, cls in _SECTIONS.items()}

    mqtt: MqttConfig = parts["mqtt"]
    if not mqtt.node_id or not set(mqtt.node_id) <= _TOPIC_SAFE:
        raise ConfigError("mqtt.node_id", "must use only letters, digits, '_' and '-'", source)
    if mqtt.reconnect_min > mqtt.reconnect_max:
        raise ConfigError("mqtt.reconnect_min", "must not exceed mqtt.reconnect_max", source)
    if mqtt.enabled and not mqtt.host:
        raise ConfigError("mqtt.host", "is required when MQTT is enabled", source)
    if (mqtt.cert_file or mqtt.key_file or mqtt.ca_file) and not mqtt.tls:
        raise ConfigError("mqtt.tls", "must be true when certificate files are given", source)
    if mqtt.password and mqtt.password_file:
        raise ConfigError("mqtt.password_file", "give either password or password_file", source)
    if (mqtt.password or mqtt.password_file) and not mqtt.username:
        raise ConfigError("mqtt.username", "is required when a password is given", source)
    if bool(mqtt.cert_file) != bool(mqtt.key_file):
        raise ConfigError("mqtt.key_file", "cert_file and key_file go together", source)
    serial: SerialConfig = parts["serial"]
    if serial.enabled and not serial.port:
        raise ConfigError("serial.port", "is required when serial is enabled", source)
    console: ConsoleConfig = parts["console"]
    if console.enabled not in ("auto", "on", "off"):
        raise ConfigError("console.enabled", "must be true, false or 'auto'", source)

    log_cfg: LogConfig = parts["log"]
    if log_cfg.level.lower() not in LOG_LEVELS:
        raise ConfigError("log.level", f"must be one of {', '.join(LOG_LEVELS)}", source)

    devices = data.get("devices", {})
    if not isinstance(devices, Mapping):
        raise ConfigError("devices", "must be a table of device tables", source)
    tool_names = _check_devices(devices, mqtt.enabled, source)
    security = _security(data.get("security", {}), tool_names, source)
    return Config(
        model=parts["model"],
        mqtt=mqtt,
        serial=serial,
        console=console,
        limits=parts["limits"],
        log=log_cfg,
        security=security,
        devices={k: dict(v) for k, v in devices.items()},
        source=source,
    )


def _check_devices(devices: Mapping[str, Any], mqtt_enabled: bool, source: str) -> list[str]:
    # Building the handlers is the validation: each kind parses its own table, and nothing
    # touches hardware until Registry.open().
    from devices import MQTT_KINDS, DeviceConfigError, SchemaError, build_registry

    try:
        registry = build_registry(devices)
    except DeviceConfigError as exc:
        raise ConfigError(exc.key, exc.message, source) from None
    except SchemaError as exc:
        raise ConfigError("devices", str(exc), source) from None
    for name, table in devices.items():
        if table.get("kind") in MQTT_KINDS and not mqtt_enabled:
            raise ConfigError(f"devices.{name}.kind", "needs mqtt.enabled = true", source)
    return registry.names()


def _security(raw: Any, tools: list[str], source: str) -> SecurityConfig:
    if not isinstance(raw, Mapping):
        raise ConfigError("security", "must be a table", source)
    for key in raw:
        if key != "acl":
            raise ConfigError(f"security.{key}", "unknown key (known: acl)", source)
    acl_raw = raw.get("acl", {})
    if not isinstance(acl_raw, Mapping):
        raise ConfigError("security.acl", "must be a table", source)
    acl: dict[str, tuple[str, ...]] = {}
    for who, names in acl_raw.items():
        key = f"security.acl.{who}"
        base = who.split(":", 1)[0]
        if base not in ("mqtt", "serial", "console", "hermes", "default") or (
            ":" in who and base != "mqtt"
        ):
            raise ConfigError(
                key, "must be mqtt, mqtt:<username>, serial, console, hermes or default", source
            )
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ConfigError(key, 'must be a list of tool names (or ["*"])', source)
        for n in names:
            if n != "*" and n not in tools:
                raise ConfigError(key, f"unknown tool {n!r} (declared: {', '.join(tools)})", source)
        acl[who] = tuple(names)
    return SecurityConfig(acl=acl)


def default_config_text() -> str:
    return (Path(__file__).parent / "data" / DEFAULT_CONFIG_NAME).read_text(encoding="utf-8")


def load_config(path: str | Path | None = None) -> Config:
    """Load and validate ``path``; ``None`` loads the bundled demo home."""
    if path is None:
        text, source = default_config_text(), f"<bundled {DEFAULT_CONFIG_NAME}>"
    else:
        source = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError("", f"cannot read config: {exc.strerror}", source) from None
        except UnicodeDecodeError:
            raise ConfigError("", "config is not valid UTF-8", source) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("", f"invalid TOML: {exc}", source) from None
    return parse_config(data, source=source)


def with_overrides(
    config: Config,
    *,
    mqtt: str | None = None,
    node_id: str | None = None,
    model: str | None = None,
    log_level: str | None = None,
) -> Config:
    """Apply ``needled run`` flags (``--mqtt HOST:PORT``, ``--node-id``, ``--model``,
    ``--log-level``)."""
    m = config.mqtt
    if mqtt:
        host, sep, port = mqtt.rpartition(":")
        if not sep:
            host, port = mqtt, str(m.port)
        if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
            raise ConfigError("--mqtt", f"expected HOST:PORT, got {mqtt!r}")
        m = dataclasses.replace(m, host=host.strip("[]"), port=int(port), enabled=True)
    if node_id is not None:
        if not node_id or not set(node_id) <= _TOPIC_SAFE:
            raise ConfigError("--node-id", "must use only letters, digits, '_' and '-'")
        m = dataclasses.replace(m, node_id=node_id)
    cfg = dataclasses.replace(config, mqtt=m)
    if model is not None:
        cfg = dataclasses.replace(cfg, model=dataclasses.replace(cfg.model, path=model))
    if log_level is not None:
        if log_level.lower() not in LOG_LEVELS:
            raise ConfigError("--log-level", f"must be one of {', '.join(LOG_LEVELS)}")
        cfg = dataclasses.replace(cfg, log=LogConfig(level=log_level.lower()))
    return cfg
