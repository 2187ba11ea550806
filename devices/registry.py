"""Tool registry: handlers declare a JSON tool schema; calls are validated and time-limited.

A small JSON-schema validator lives here instead of importing ``jsonschema``: that library costs
about 6.5 MB of RSS on import (measured with VmRSS: 13.5 MB bare Python, 20.0 MB after
``import jsonschema``), which is a tenth of the daemon's 64 MB budget. Tool schemas only use a
small, well-defined subset (the one the grammar compiler also enforces), so the subset is checked
here and anything else in a schema is rejected when the handler is registered.
"""

from __future__ import annotations

import contextlib
import contextvars
import inspect
import logging
import math
import re
import threading
import time
import unicodedata
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from agent.service import wirejson

log = logging.getLogger("needled.devices")

JsonDict = dict[str, Any]


class DeviceConfigError(ValueError):
    """A device table in the config is wrong; ``key`` is the dotted config key at fault."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


class SchemaError(ValueError):
    """A tool schema uses something the validator cannot check."""


class DeviceUnavailable(RuntimeError):
    """The device is known to be offline (its LWT or availability says so): the call fails at
    once with error code ``device_offline`` instead of waiting for a device that cannot answer."""


@runtime_checkable
class Handler(Protocol):
    """A device handler.

    ``call`` may be a plain function or a coroutine function; the registry runs either off the
    caller's thread with a timeout. ``state`` reports what the device currently looks like (for
    the console and for tests) and may return ``None`` when there is nothing to show.
    """

    @property
    def schema(self) -> JsonDict: ...

    def call(self, arguments: JsonDict) -> Any | Awaitable[Any]: ...

    def state(self) -> JsonDict | None: ...


class BaseHandler:
    """Convenience base: subclasses set ``schema`` and implement ``call``; open/close are no-ops."""

    schema: JsonDict

    def call(self, arguments: JsonDict) -> Any | Awaitable[Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def state(self) -> JsonDict | None:
        return None

    def open(self) -> None:
        """Acquire hardware; kept out of ``__init__`` so config checks never touch devices."""

    def close(self) -> None:
        """Release hardware."""


# --- validation ---------------------------------------------------------------------------------

_TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
}

# Keywords that only annotate; everything else that is not understood is refused at registration,
# so no constraint is silently ignored.
_ANNOTATIONS = {"description", "title", "default", "examples", "$comment", "format"}
_SUPPORTED = _ANNOTATIONS | {
    "type",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "anyOf",
}


def check_schema(schema: Any, where: str = "parameters") -> None:
    """Raise SchemaError if ``schema`` uses keywords or types the validator does not support."""
    if not isinstance(schema, dict):
        raise SchemaError(f"{where}: schema must be an object")
    unknown = set(schema) - _SUPPORTED
    if unknown:
        raise SchemaError(f"{where}: unsupported keyword(s) {sorted(unknown)}")
    types = schema.get("type")
    for t in [types] if isinstance(types, str) else types or []:
        if t not in _TYPE_CHECKS:
            raise SchemaError(f"{where}: unknown type {t!r}")
    if "pattern" in schema:
        try:
            re.compile(schema["pattern"])
        except re.error as exc:
            raise SchemaError(f"{where}: bad pattern: {exc}") from None
    for name, sub in (schema.get("properties") or {}).items():
        check_schema(sub, f"{where}.{name}")
    if isinstance(schema.get("additionalProperties"), dict):
        check_schema(schema["additionalProperties"], f"{where}.additionalProperties")
    if "items" in schema:
        check_schema(schema["items"], f"{where}[]")
    for i, sub in enumerate(schema.get("anyOf") or []):
        check_schema(sub, f"{where}.anyOf[{i}]")


def validate(value: Any, schema: Mapping[str, Any], path: str = "arguments") -> list[str]:
    """Return the list of violations of ``schema`` by ``value``; empty means valid."""
    errors: list[str] = []
    _validate(value, schema, path, errors)
    return errors


def _validate(value: Any, schema: Mapping[str, Any], path: str, errors: list[str]) -> None:
    if "anyOf" in schema:
        if not any(not validate(value, sub, path) for sub in schema["anyOf"]):
            errors.append(f"{path}: matches none of the allowed alternatives")
            return
    types = schema.get("type")
    if types is not None:
        names = [types] if isinstance(types, str) else list(types)
        if not any(_TYPE_CHECKS[t](value) for t in names):
            errors.append(f"{path}: expected {' or '.join(names)}, got {_json_type(value)}")
            return
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: must be {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} is not one of {schema['enum']}")
    if isinstance(value, int | float) and not isinstance(value, bool):
        if isinstance(value, float) and not math.isfinite(value):
            errors.append(f"{path}: must be a finite number")
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: {value} is below the minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: {value} is above the maximum {schema['maximum']}")
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            errors.append(f"{path}: {value} must be above {schema['exclusiveMinimum']}")
        if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
            errors.append(f"{path}: {value} must be below {schema['exclusiveMaximum']}")
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            errors.append(f"{path}: shorter than {schema['minLength']} characters")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            errors.append(f"{path}: longer than {schema['maxLength']} characters")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append(f"{path}: does not match pattern {schema['pattern']!r}")
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            errors.append(f"{path}: more than {schema['maxItems']} items")
        if isinstance(schema.get("items"), dict):
            for i, item in enumerate(value):
                _validate(item, schema["items"], f"{path}[{i}]", errors)
    if isinstance(value, dict):
        props = schema.get("properties") or {}
        for name in schema.get("required") or []:
            if name not in value:
                errors.append(f"{path}: missing required property {name!r}")
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            if name in props:
                _validate(item, props[name], f"{path}.{name}", errors)
            elif extra is False:
                errors.append(f"{path}: unexpected property {name!r}")
            elif isinstance(extra, dict):
                _validate(item, extra, f"{path}.{name}", errors)


def _json_type(value: Any) -> str:
    for name in ("boolean", "null", "integer", "number", "string", "array", "object"):
        if _TYPE_CHECKS[name](value):
            return name
    return type(value).__name__


# --- registry -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CallResult:
    name: str
    arguments: JsonDict
    ok: bool
    result: Any = None
    error: str | None = None
    error_code: str | None = None
    elapsed_ms: float = 0.0

    def to_dict(self) -> JsonDict:
        return {
            "name": self.name,
            "arguments": self.arguments,
            "ok": self.ok,
            "result": self.result,
            "error": self.error,
            "error_code": self.error_code,
            "elapsed_ms": round(self.elapsed_ms, 3),
        }


class Registry:
    """Tool name -> handler, with validation before and a timeout around every call."""

    def __init__(self, handlers: Iterable[Handler] = (), *, timeout: float = 5.0) -> None:
        self.timeout = timeout
        self._handlers: dict[str, Handler] = {}
        for h in handlers:
            self.add(h)

    def add(self, handler: Handler) -> None:
        schema = handler.schema
        name = schema.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}", name):
            raise SchemaError(f"tool name {name!r} is not a valid identifier")
        if name in self._handlers:
            raise SchemaError(f"tool {name!r} is declared twice")
        params = schema.get("parameters")
        check_schema(params, f"{name}.parameters")
        if params.get("type") != "object":
            raise SchemaError(f"{name}.parameters: must have type 'object'")
        self._handlers[name] = handler

    def names(self) -> list[str]:
        return list(self._handlers)

    def handler(self, name: str) -> Handler | None:
        return self._handlers.get(name)

    def tools(self) -> list[JsonDict]:
        """The tool schemas in declaration order, as the completer renders them."""
        return [h.schema for h in self._handlers.values()]

    def states(self) -> dict[str, JsonDict]:
        out: dict[str, JsonDict] = {}
        for name, h in self._handlers.items():
            try:
                st = h.state()
            except Exception as exc:  # a broken state() must not hide the others
                st = {"error": str(exc)}
            if st is not None:
                out[name] = st
        return out

    def open(self) -> None:
        for h in self._handlers.values():
            opener = getattr(h, "open", None)
            if opener is not None:
                opener()

    def close(self) -> None:
        for h in self._handlers.values():
            closer = getattr(h, "close", None)
            if closer is None:
                continue
            try:
                closer()
            except Exception:
                log.exception("closing handler %s failed", h.schema.get("name"))

    def dispatch(self, name: str, arguments: Any, *, timeout: float | None = None) -> CallResult:
        """Validate and run one call; never raises, every failure becomes an error result."""
        start = time.monotonic()
        args = arguments if isinstance(arguments, dict) else {}
        handler = self._handlers.get(name)
        if handler is None:
            return _failed(name, args, f"unknown tool {name!r}", "unknown_tool")
        if not isinstance(arguments, dict):
            return _failed(name, args, "arguments must be an object", "invalid_arguments")
        problems = validate(arguments, handler.schema["parameters"])
        if problems:
            return _failed(name, args, "; ".join(problems), "invalid_arguments")
        limit = self.timeout if timeout is None else timeout
        ok, value = _run_with_timeout(handler.call, dict(arguments), limit)
        elapsed = (time.monotonic() - start) * 1000
        if ok:
            return CallResult(name, args, True, result=value, elapsed_ms=elapsed)
        code, message = value
        log.warning("tool %s failed: %s", name, message)
        return CallResult(name, args, False, error=message, error_code=code, elapsed_ms=elapsed)


def _failed(name: str, args: JsonDict, error: str, code: str) -> CallResult:
    return CallResult(name, args, False, error=error, error_code=code)


def _run_with_timeout(
    fn: Callable[[JsonDict], Any], args: JsonDict, timeout: float
) -> tuple[bool, Any]:
    # One short-lived thread per call: a handler that hangs forever keeps only its own thread,
    # never a shared pool slot, so the next call is unaffected.
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            result = fn(args)
            if inspect.isawaitable(result):
                import asyncio  # only async handlers pay for asyncio's import

                result = asyncio.run(_await_with_timeout(result, timeout))
            box["value"] = result
        except TimeoutError:
            box["error"] = ("timeout", f"handler timed out after {timeout:g} s")
        except DeviceUnavailable as exc:
            box["error"] = ("device_offline", str(exc))
        except BaseException as exc:  # noqa: BLE001 - handler faults are reported, never raised
            box["error"] = ("handler_error", f"{type(exc).__name__}: {exc}")

    t = threading.Thread(target=target, name="needled-handler", daemon=True)
    t.start()
    t.join(timeout)
    if t.is_alive():
        return False, ("timeout", f"handler timed out after {timeout:g} s")
    if "error" in box:
        return False, box["error"]
    return True, box.get("value")


async def _await_with_timeout(aw: Awaitable[Any], timeout: float) -> Any:
    import asyncio

    return await asyncio.wait_for(aw, timeout)


# --- shared plumbing for device kinds ---------------------------------------------------------


class MqttLink(Protocol):
    """What MQTT-backed handlers need from the daemon's MQTT connection."""

    def publish(
        self, topic: str, payload: bytes | str, *, qos: int = 1, retain: bool = False
    ) -> None: ...

    def subscribe(self, topic: str, callback: Callable[[str, bytes], None]) -> None: ...


_collector: contextvars.ContextVar[list[DeviceConfigError] | None] = contextvars.ContextVar(
    "needled_device_problems", default=None
)


@contextlib.contextmanager
def collect_problems() -> Iterator[list[DeviceConfigError]]:
    """While active, :class:`Options` records each bad key of a device table (and goes on with a
    stand-in value) instead of raising at the first, so a config check can name them all."""
    found: list[DeviceConfigError] = []
    token = _collector.set(found)
    try:
        yield found
    finally:
        _collector.reset(token)


def _recorded(fallback: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Run a reader; while problems are collected, record its error and return a stand-in."""

    def deco(read: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(self: Options, *args: Any, **kw: Any) -> Any:
            try:
                return read(self, *args, **kw)
            except DeviceConfigError as exc:
                found = _collector.get()
                if found is None:
                    raise
                found.append(exc)
                return fallback(*args, **kw)

        wrapper.__name__ = read.__name__
        wrapper.__doc__ = read.__doc__
        return wrapper

    return deco


def _default_or(value: Any) -> Callable[..., Any]:
    def pick(_name: str, default: Any = None, *_a: Any) -> Any:
        return value if default is None else default

    return pick


class Options:
    """Typed reads from one device table; every error names the full config key."""

    def __init__(self, key: str, table: Mapping[str, Any], known: Iterable[str]) -> None:
        self.key = key
        self.table = table
        unknown = set(table) - set(known) - {"kind", "tool", "description"}
        found = _collector.get()
        for name in sorted(unknown):
            if found is None:
                raise DeviceConfigError(f"{key}.{name}", "unknown key")
            found.append(DeviceConfigError(f"{key}.{name}", "unknown key"))

    def _get(self, name: str, default: Any) -> Any:
        if name not in self.table:
            if default is _REQUIRED:
                raise DeviceConfigError(f"{self.key}.{name}", "is required")
            return default
        return self.table[name]

    @_recorded(_default_or("x"))
    def string(self, name: str, default: Any = None) -> Any:
        v = self._get(name, _REQUIRED if default is None else default)
        if not isinstance(v, str) or not v:
            raise DeviceConfigError(f"{self.key}.{name}", "must be a non-empty string")
        _check_text(f"{self.key}.{name}", v)
        return v

    @_recorded(_default_or(["x"]))
    def strings(self, name: str, default: Any = None) -> list[str]:
        v = self._get(name, _REQUIRED if default is None else default)
        if not isinstance(v, list) or not v or not all(isinstance(x, str) and x for x in v):
            raise DeviceConfigError(f"{self.key}.{name}", "must be a non-empty list of strings")
        if len(set(v)) != len(v):
            raise DeviceConfigError(f"{self.key}.{name}", "has duplicate entries")
        for i, x in enumerate(v):
            _check_text(f"{self.key}.{name}[{i}]", x)
        return list(v)

    @_recorded(_default_or(1))
    def number(self, name: str, default: Any = None) -> float:
        v = self._get(name, _REQUIRED if default is None else default)
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise DeviceConfigError(f"{self.key}.{name}", "must be a finite number")
        return v

    @_recorded(_default_or(False))
    def boolean(self, name: str, default: Any = None) -> bool:
        v = self._get(name, _REQUIRED if default is None else default)
        if not isinstance(v, bool):
            raise DeviceConfigError(f"{self.key}.{name}", "must be true or false")
        return v

    @_recorded(lambda *_a, **_k: {"x": "x"})
    def mapping(self, name: str, value_type: type | tuple[type, ...] = str) -> dict[str, Any]:
        v = self._get(name, _REQUIRED)
        if not isinstance(v, dict) or not v:
            raise DeviceConfigError(f"{self.key}.{name}", "must be a non-empty table")
        for k, item in v.items():
            if isinstance(item, bool) or not isinstance(item, value_type) or item == "":
                raise DeviceConfigError(f"{self.key}.{name}.{k}", "has the wrong type")
            _check_text(f"{self.key}.{name}", k)
            if isinstance(item, str):
                _check_text(f"{self.key}.{name}.{k}", item)
        return dict(v)

    @_recorded(lambda default: default)
    def tool(self, default: str) -> str:
        name = self.table.get("tool", default)
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,63}", name):
            raise DeviceConfigError(f"{self.key}.tool", "must be an identifier")
        return name

    @_recorded(lambda default: default)
    def description(self, default: str) -> str:
        d = self.table.get("description", default)
        if not isinstance(d, str):
            raise DeviceConfigError(f"{self.key}.description", "must be a string")
        return d


_REQUIRED = object()


def _check_text(key: str, text: str) -> None:
    # Names end up in tool schemas, prompts and MQTT topics: a control character (a NUL above
    # all) is never meant, and in a topic it gets the connection closed by the broker.
    if any(unicodedata.category(c) == "Cc" for c in text):
        raise DeviceConfigError(key, f"{text!r} must not contain control characters")


def tool_schema(name: str, description: str, properties: JsonDict, required: list[str]) -> JsonDict:
    params: JsonDict = {"type": "object", "properties": properties}
    if required:
        params["required"] = required
    return {"name": name, "description": description, "parameters": params}


class TopicState:
    """Latest payload seen on one state topic, with a way to wait for the next one."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._version = 0
        self.payload: Any = None

    def update(self, payload: Any) -> None:
        with self._cond:
            self.payload = payload
            self._version += 1
            self._cond.notify_all()

    def version(self) -> int:
        with self._cond:
            return self._version

    def wait_newer(
        self, version: int, timeout: float, expect: Callable[[Any], bool] | None = None
    ) -> bool:
        """True once a report newer than `version` arrives (one that satisfies `expect`, if
        given) within `timeout` seconds."""

        def done() -> bool:
            return self._version > version and (expect is None or bool(expect(self.payload)))

        with self._cond:
            return self._cond.wait_for(done, timeout)


class MqttStateHandler(BaseHandler):
    """A handler for devices driven over MQTT that report their state on a topic per device.

    Subclasses set `key`, `mqtt`, `confirm_timeout`, `what` (for the error when MQTT is off),
    `state_topics` (label -> state topic) and `_states` (label -> TopicState), and say which
    part of a state message to keep (`state_value`).
    """

    what = "these devices"
    key: str
    mqtt: MqttLink | None
    confirm_timeout: float
    state_topics: dict[str, str]
    _states: dict[str, TopicState]

    def state_value(self, data: Any) -> Any | None:
        """What to store from a decoded state message; None ignores the message."""
        return data if isinstance(data, dict) else None

    def open(self) -> None:
        if self.mqtt is None:
            raise DeviceConfigError(self.key, f"{self.what} need the MQTT transport enabled")
        for label, topic in self.state_topics.items():
            self.mqtt.subscribe(topic, self._on_state(label))

    def _on_state(self, label: str) -> Any:
        def handle(_topic: str, payload: bytes) -> None:
            try:
                data = wirejson.loads(payload)
            except ValueError:
                return
            value = self.state_value(data)
            if value is not None:
                self._states[label].update(value)

        return handle

    def send(
        self, label: str, topic: str, payload: str, expect: Callable[[Any], bool] | None = None
    ) -> tuple[TopicState, bool]:
        """Publish a command (never retained) and wait for the device's next state report.

        Confirmed means a report after the publish that shows the commanded state (`expect`),
        not merely any report: a stale echo or a device that refused does not count.
        """
        if self.mqtt is None:
            raise RuntimeError("MQTT is not available")
        st = self._states[label]
        before = st.version()
        self.mqtt.publish(topic, payload, qos=1, retain=False)
        return st, st.wait_newer(before, self.confirm_timeout, expect)
