"""The daemon's single TOML config file, validated up front with errors that name the key."""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import re
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent import DATA_DIR
from agent.service.logsetup import LEVELS as LOG_LEVELS
from agent.service.topics import string_problem, topic_problem

DEFAULT_CONFIG_NAME = "default.toml"
# the project's home page (Home Assistant links it as the device's support URL by default)


# sysexits.h EX_CONFIG: `needled run` and `needled check-config` exit with it for a config error,
# which a restart cannot fix, so a service manager can tell it apart (RestartPreventExitStatus=).
EX_CONFIG = 78


class ConfigError(ValueError):
    """A config problem; ``key`` is the dotted key at fault (``""`` for the file as a whole).

    ``problems`` lists every problem found, this one first (one line each in ``str()``): a
    file is checked whole, so one run of ``needled check-config`` shows everything to fix.
    """

    def __init__(self, key: str, message: str, source: str = "") -> None:
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{key}: {message}" if key else f"{where}{message}")
        self.key = key
        self.message = message
        self.source = source
        self.problems: list[ConfigError] = [self]

    @classmethod
    def of(cls, problems: list[ConfigError]) -> ConfigError:
        """One error standing for ``problems`` (non-empty): the first, carrying them all."""
        first = problems[0]
        if len(problems) == 1:
            return first
        err = cls(first.key, first.message, first.source)
        err.problems = list(problems)
        err.args = ("\n".join(str(p) for p in problems),)
        return err


class _Problems:
    """Collects config problems so that validation goes on past the first."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.items: list[ConfigError] = []

    def add(self, key: str, message: str) -> None:
        self.items.append(ConfigError(key, message, self.source))

    def extend(self, err: ConfigError) -> None:
        self.items.extend(err.problems)

    def raise_any(self) -> None:
        if self.items:
            raise ConfigError.of(self.items)


@dataclass(frozen=True)
class ModelConfig:
    path: str = ""  # empty: the model bundled with the package
    threads: int = 2
    system: str = ""  # system facts ("key: value; ..."), never instructions
    max_new_tokens: int = 64
    # Logit bonus for the room or device name the request says, among those the grammar
    # allows (agent/calling/grammar/mention.py); 0 leaves every choice to the model.
    mention_prior: float = 5.0
    # After a refusal, decode once more with a call required and keep that call only when the
    # request says every part of it (agent/calling/grammar/grounding.py); false: refusals stand.
    second_look: bool = True


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
    # shown by Home Assistant as the support link of the discovered device (origin "url"); no
    # default: a link nobody checked would send users to whoever owns that address
    discovery_url: str = ""
    hermes: bool = False
    hermes_execute: bool = False  # Rhasspy handles intents itself; only recognise by default
    hermes_site_ids: tuple[str, ...] = ()  # serve queries from these sites only; empty: all
    hermes_max_age: float = 10.0  # seconds a voice query may wait before it is dropped
    # replies may go only under this topic (or to the result topic): empty: needled/<node_id>/reply
    reply_prefix: str = ""

    @property
    def effective_client_id(self) -> str:
        return self.client_id or f"needled-{self.node_id}"

    @property
    def node_base(self) -> str:
        """Root of this node's topics: command, result, status, audio, envelope, reply."""
        return f"needled/{self.node_id}"

    @property
    def effective_reply_prefix(self) -> str:
        return self.reply_prefix.rstrip("/") or f"{self.node_base}/reply"

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
    # Calls whose confidence (the model's calibrated head) is below this are refused with
    # `low_confidence` and not run; 0 runs every call. A model without a head refuses nothing.
    # 0.5: run only what the model is more likely right than wrong about (on homes it never
    # saw, the bundled general model's wrong calls drop from 26.5% of requests to 4.9%).
    min_confidence: float = 0.5


@dataclass(frozen=True)
class VoiceConfig:
    enabled: bool = False  # load the recognizer (pocketsphinx) and serve the audio paths
    sentences: str = ""  # phrasings for the grammar; empty: the bundled demo_sentences.ini
    threshold: float = 0.5  # lowest transcript confidence taken as a command
    two_requests: bool = False  # also hear "<request> and <request>" (decodes ~2x slower)
    audio_topic: bool = True  # MQTT: a WAV on needled/<node_id>/audio is one utterance
    hermes_audio: bool = False  # MQTT: Hermes audioServer frames with asr start/stopListening


@dataclass(frozen=True)
class WyomingConfig:
    port: int = 0  # 0: no Wyoming service; else serve it on host:port (needs voice.enabled)
    host: str = "127.0.0.1"


@dataclass(frozen=True)
class SecurityConfig:
    # source ("mqtt", "mqtt:<username>", "serial", "console", "hermes", "wyoming") -> tools;
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
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    wyoming: WyomingConfig = field(default_factory=WyomingConfig)
    devices: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    source: str = ""


# --- parsing -------------------------------------------------------------------------------------

_SECTIONS = {
    "model": ModelConfig,
    "mqtt": MqttConfig,
    "serial": SerialConfig,
    "console": ConsoleConfig,
    "limits": LimitsConfig,
    "voice": VoiceConfig,
    "wyoming": WyomingConfig,
    "log": LogConfig,
}

# (minimum, maximum) for numeric keys; a bad value is refused at start, not at first use.
_RANGES: dict[str, tuple[float, float]] = {
    "model.threads": (1, 64),
    "model.max_new_tokens": (1, 4096),
    "model.mention_prior": (0, 100),
    "mqtt.port": (1, 65535),
    "mqtt.keepalive": (5, 65535),
    "mqtt.session_expiry": (0, 0xFFFFFFFF),
    "mqtt.reconnect_min": (1, 3600),
    "mqtt.reconnect_max": (1, 3600),
    "mqtt.hermes_max_age": (0.1, 86400),
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
    "limits.min_confidence": (0, 1),
    "voice.threshold": (0, 1),
    "wyoming.port": (0, 65535),
}

_TOPIC_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_HOST_LABEL = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?")


def _section(name: str, cls: type, raw: Any, problems: _Problems) -> Any:
    if not isinstance(raw, Mapping):
        problems.add(name, "must be a table")
        return cls()
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        full = f"{name}.{key}"
        if key not in fields:
            problems.add(full, f"unknown key (known: {', '.join(sorted(fields))})")
            continue
        default = fields[key].default
        if isinstance(default, bool):
            if not isinstance(value, bool):
                problems.add(full, "must be true or false")
                continue
        elif isinstance(default, int | float):
            if isinstance(value, bool) or not isinstance(value, int | float):
                problems.add(full, "must be a number")
                continue
            if isinstance(default, int) and not isinstance(value, int):
                problems.add(full, "must be an integer")
                continue
            lo, hi = _RANGES.get(full, (float("-inf"), float("inf")))
            if not math.isfinite(value) or not lo <= value <= hi:
                problems.add(full, f"must be between {lo:g} and {hi:g}, got {value}")
                continue
        elif isinstance(default, tuple):
            if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
                problems.add(full, "must be a list of non-empty strings")
                continue
            value = tuple(value)
        elif isinstance(default, str):
            if name == "console" and key == "enabled" and isinstance(value, bool):
                value = "on" if value else "off"
            elif not isinstance(value, str):
                problems.add(full, "must be a string")
                continue
            elif "\x00" in value:
                # C APIs (file names, MQTT strings) end a string at a NUL: refuse it here
                problems.add(full, "must not contain a NUL character")
                continue
        values[key] = value
    return cls(**values)


def parse_config(data: Mapping[str, Any], *, source: str = "") -> Config:
    """Build a :class:`Config` from parsed TOML; raise :class:`ConfigError` naming the key.

    Every problem is collected before raising (see ``ConfigError.problems``).
    """
    problems = _Problems(source)
    known = set(_SECTIONS) | {"security", "devices"}
    for key in data:
        if key not in known:
            problems.add(key, f"unknown section (known: {', '.join(sorted(known))})")
    parts = {n: _section(n, cls, data.get(n, {}), problems) for n, cls in _SECTIONS.items()}

    mqtt: MqttConfig = parts["mqtt"]
    _check_mqtt(mqtt, problems)
    serial: SerialConfig = parts["serial"]
    if serial.enabled and not serial.port:
        problems.add("serial.port", "is required when serial is enabled")
    if serial.reopen_min > serial.reopen_max:
        problems.add("serial.reopen_min", "must not exceed serial.reopen_max")
    console: ConsoleConfig = parts["console"]
    if console.enabled not in ("auto", "on", "off"):
        problems.add("console.enabled", "must be true, false or 'auto'")

    voice: VoiceConfig = parts["voice"]
    wyoming: WyomingConfig = parts["wyoming"]
    if wyoming.port and not voice.enabled:
        raise ConfigError("wyoming.port", "needs voice.enabled = true", source)
    if voice.sentences and not Path(voice.sentences).is_file():
        raise ConfigError("voice.sentences", f"no such file: {voice.sentences}", source)
    if voice.hermes_audio and not (voice.enabled and mqtt.enabled):
        raise ConfigError(
            "voice.hermes_audio", "needs voice.enabled = true and mqtt.enabled = true", source
        )

    log_cfg: LogConfig = parts["log"]
    if log_cfg.level.lower() not in LOG_LEVELS:
        raise ConfigError("log.level", f"must be one of {', '.join(LOG_LEVELS)}", source)

    devices = data.get("devices", {})
    tool_names: list[str] | None = None
    if not isinstance(devices, Mapping):
        problems.add("devices", "must be a table of device tables")
        devices = {}
    else:
        tool_names = _check_devices(devices, mqtt.enabled, problems)
    security = _security(data.get("security", {}), tool_names, problems)
    problems.raise_any()
    return Config(
        model=parts["model"],
        mqtt=mqtt,
        serial=serial,
        console=console,
        limits=parts["limits"],
        log=log_cfg,
        security=security,
        voice=voice,
        wyoming=wyoming,
        devices={k: dict(v) for k, v in devices.items()},
        source=source,
    )


def _check_mqtt(mqtt: MqttConfig, problems: _Problems) -> None:
    if not mqtt.node_id or not set(mqtt.node_id) <= _TOPIC_SAFE:
        problems.add("mqtt.node_id", "must use only letters, digits, '_' and '-'")
    if mqtt.reconnect_min > mqtt.reconnect_max:
        problems.add("mqtt.reconnect_min", "must not exceed mqtt.reconnect_max")
    if mqtt.enabled and not mqtt.host:
        problems.add("mqtt.host", "is required when MQTT is enabled")
    elif mqtt.host and (why := host_problem(mqtt.host)):
        problems.add("mqtt.host", why)
    for key in ("client_id", "username"):
        if why := string_problem(getattr(mqtt, key)):
            problems.add(f"mqtt.{key}", why)
    if why := topic_problem(mqtt.discovery_prefix):
        problems.add("mqtt.discovery_prefix", why)
    if (mqtt.cert_file or mqtt.key_file or mqtt.ca_file) and not mqtt.tls:
        problems.add("mqtt.tls", "must be true when certificate files are given")
    if mqtt.password and mqtt.password_file:
        problems.add("mqtt.password_file", "give either password or password_file")
    if (mqtt.password or mqtt.password_file) and not mqtt.username:
        problems.add("mqtt.username", "is required when a password is given")
    if bool(mqtt.cert_file) != bool(mqtt.key_file):
        problems.add("mqtt.key_file", "cert_file and key_file go together")
    if mqtt.discovery_url and not mqtt.discovery_url.startswith(("https://", "http://")):
        # Home Assistant refuses any other scheme, and with it the whole discovered device
        problems.add("mqtt.discovery_url", "must be an http:// or https:// URL")
    if why := reply_prefix_problem(mqtt.reply_prefix, mqtt.discovery_prefix):
        problems.add("mqtt.reply_prefix", why)


def reply_prefix_problem(prefix: str, discovery_prefix: str = "homeassistant") -> str | None:
    """Why ``prefix`` cannot be the reply prefix, or None.

    The daemon publishes replies with its own broker rights to topics the sender names, so the
    prefix must not cover any needled command topic (``needled/<node>/command...``), the topics
    Home Assistant and Rhasspy act on, or the broker's own topics.
    """
    if prefix == "":
        return None
    p = prefix.rstrip("/")
    if not p or set(p) & {"+", "#", "\0"}:
        return "must be a topic without wildcards or NUL (empty: needled/<node_id>/reply)"
    if p.startswith("$"):
        return "must not be a broker ($) topic"
    levels = p.split("/")
    if levels[0] == "needled" and (len(levels) < 3 or levels[2] == "command"):
        return "must not cover needled command topics (needled/<node>/command)"
    for taken in (discovery_prefix, "hermes"):
        if p == taken or p.startswith(taken + "/"):
            return f"must not be under {taken}/, whose topics are acted on"
    return None


def host_problem(host: str) -> str | None:
    """Why ``host`` is not a host name or IP address a client can connect to (None: it is)."""
    try:
        ipaddress.ip_address(host[1:-1] if host.startswith("[") else host)
        return None
    except ValueError:
        pass
    what = "must be a host name or an IP address"
    if any(not c.isprintable() or c.isspace() for c in host):
        return f"{what}: it holds spaces or control characters"
    if len(host) > 253:
        return f"{what} of at most 253 characters, got {len(host)}"
    try:
        name = host.encode("idna").decode("ascii")
    except UnicodeError:
        return f"{what}: a label is empty or longer than 63 characters"
    if len(name) > 253 or not all(_HOST_LABEL.fullmatch(x) for x in name.rstrip(".").split(".")):
        return f"{what}: labels are letters, digits, '-' and '_', 1 to 63 characters each"
    return None


def _check_devices(
    devices: Mapping[str, Any], mqtt_enabled: bool, problems: _Problems
) -> list[str] | None:
    """Tool names of the devices; None when some device is wrong (its problems are added)."""
    # Building the handlers is the validation: each kind parses its own table, and nothing
    # touches hardware until Registry.open(). Each device is built on its own, so that every
    # wrong device is reported, each with all its bad keys.
    from devices import MQTT_KINDS, DeviceConfigError, SchemaError, build_registry
    from devices.registry import collect_problems

    ok = True
    for name, table in devices.items():
        # Values no device kind accepts are found in every key at once; the kind's own reads
        # then record every other bad key of the device (collect_problems).
        seen = _scan_values(f"devices.{name}", table, problems)
        ok = ok and not seen
        with collect_problems() as found:
            try:
                build_registry({name: table})
                raised: Exception | None = None
            except (DeviceConfigError, SchemaError, TypeError, ValueError) as exc:
                raised = exc
        for p in found:
            if p.key not in seen:
                problems.add(p.key, p.message)
        if found:
            # a check across keys that failed after a stand-in value is no news of its own
            ok = False
        elif isinstance(raised, DeviceConfigError):
            if raised.key not in seen:
                problems.add(raised.key, raised.message)
            ok = False
        elif isinstance(raised, SchemaError):
            problems.add(f"devices.{name}", str(raised))
            ok = False
        elif raised is not None:
            raise raised
        else:
            if table.get("kind") in MQTT_KINDS and not mqtt_enabled:
                problems.add(f"devices.{name}.kind", "needs mqtt.enabled = true")
    if not ok:
        return None
    try:  # what only the devices together can get wrong: two declaring one tool name
        return build_registry(devices).names()
    except DeviceConfigError as exc:
        problems.add(exc.key, exc.message)
    except SchemaError as exc:
        problems.add("devices", str(exc))
    return None


def _scan_values(key: str, value: Any, problems: _Problems) -> set[str]:
    """Add a problem for every non-finite number and every string with a control character
    (other than the tab and line breaks of a multi-line description) under ``key``; returns
    the keys reported."""
    found: set[str] = set()
    if isinstance(value, float) and not math.isfinite(value):
        problems.add(key, "must be a finite number")
        found.add(key)
    elif isinstance(value, str) and any(
        unicodedata.category(c) == "Cc" and c not in "\t\n\r" for c in value
    ):
        problems.add(key, f"{value!r} must not contain control characters")
        found.add(key)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            found |= _scan_values(f"{key}.{k}", v, problems)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found |= _scan_values(f"{key}[{i}]", v, problems)
    return found


def _security(raw: Any, tools: list[str] | None, problems: _Problems) -> SecurityConfig:
    """The ACL; ``tools`` None means the devices are wrong, so tool names are not checked."""
    if not isinstance(raw, Mapping):
        problems.add("security", "must be a table")
        return SecurityConfig()
    for key in raw:
        if key != "acl":
            problems.add(f"security.{key}", "unknown key (known: acl)")
    acl_raw = raw.get("acl", {})
    if not isinstance(acl_raw, Mapping):
        problems.add("security.acl", "must be a table")
        return SecurityConfig()
    acl: dict[str, tuple[str, ...]] = {}
    for who, names in acl_raw.items():
        key = f"security.acl.{who}"
        base, colon, user = who.partition(":")
        if base not in ("mqtt", "serial", "console", "hermes", "wyoming", "default") or (
            colon and (base != "mqtt" or not user or not set(user) <= _TOPIC_SAFE)
        ):
            problems.add(
                key,
                "must be mqtt, mqtt:<username> (letters, digits, '_', '-'), serial, console, "
                "hermes, wyoming or default",
            )
            continue
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            problems.add(key, 'must be a list of tool names (or ["*"])')
            continue
        unknown = [n for n in names if n != "*" and tools is not None and n not in tools]
        if unknown:
            declared = ", ".join(tools or [])
            problems.add(key, f"unknown tool {unknown[0]!r} (declared: {declared})")
            continue
        acl[who] = tuple(names)
    return SecurityConfig(acl=acl)


def default_config_text() -> str:
    return (DATA_DIR / DEFAULT_CONFIG_NAME).read_text(encoding="utf-8")


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
    problems = _Problems("")
    m = config.mqtt
    if mqtt:
        host, sep, port = mqtt.rpartition(":")
        if not sep:
            host, port = mqtt, str(m.port)
        host = host.strip("[]")
        if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
            problems.add("--mqtt", f"expected HOST:PORT, got {mqtt!r}")
        elif why := host_problem(host):
            problems.add("--mqtt", why)
        else:
            m = dataclasses.replace(m, host=host, port=int(port), enabled=True)
    if node_id is not None:
        if not node_id or not set(node_id) <= _TOPIC_SAFE:
            problems.add("--node-id", "must use only letters, digits, '_' and '-'")
        else:
            m = dataclasses.replace(m, node_id=node_id)
    problems.raise_any()
    cfg = dataclasses.replace(config, mqtt=m)
    if model is not None:
        cfg = dataclasses.replace(cfg, model=dataclasses.replace(cfg.model, path=model))
    if log_level is not None:
        if log_level.lower() not in LOG_LEVELS:
            raise ConfigError("--log-level", f"must be one of {', '.join(LOG_LEVELS)}")
        cfg = dataclasses.replace(cfg, log=LogConfig(level=log_level.lower()))
    return cfg


def run_model(config: Config) -> Path:
    """The model file ``needled run`` loads for ``config``: ``model.path``, else the bundled
    model for its devices' tools (:func:`agent.model.bundled.bundled_model`)."""
    if config.model.path:
        return Path(config.model.path)
    from agent.model.bundled import bundled_model
    from devices import build_registry

    return bundled_model(build_registry(config.devices).tools())


def model_problem(config: Config) -> str | None:
    """Why the model ``config`` names cannot be loaded (None: it reads as a valid ``.cact``).

    Reading validates the header, the tensor directory and the tokenizer (a memory map: cheap),
    which is everything but the weights' values.
    """
    from agent.model.cact import read_cact
    from agent.model.errors import CactError

    try:
        with read_cact(run_model(config)):
            return None
    except CactError as exc:
        return str(exc)


def load_run_config(
    path: str | Path | None = None,
    *,
    mqtt: str | None = None,
    node_id: str | None = None,
    model: str | None = None,
    log_level: str | None = None,
    check_model: bool = True,
) -> Config:
    """Everything ``needled run`` relies on, checked at once: the file (:func:`load_config`),
    the command-line overrides, and the model it names. ``needled check-config`` runs the same.
    Raises :class:`ConfigError` with every problem found.

    ``check_model=False`` leaves the model to whoever loads it next: the daemon does, with the
    same reader, and parsing it twice in the serving process leaves its heap about 5 MB larger
    (measured on the release geometry, 66 against 61.5 MB after 1,000 commands).
    """
    problems = _Problems("")
    config: Config | None = None
    try:
        config = load_config(path)
    except ConfigError as exc:
        problems.extend(exc)
    try:
        config = with_overrides(
            config or Config(), mqtt=mqtt, node_id=node_id, model=model, log_level=log_level
        )
    except ConfigError as exc:
        problems.extend(exc)
    if check_model and config is not None and not problems.items and (why := model_problem(config)):
        problems.add("model.path", why)
    problems.raise_any()
    assert config is not None
    return config
