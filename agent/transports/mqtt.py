"""MQTT transport (paho-mqtt 2.x, MQTT 5).

Topics, for ``node_id`` N:

- ``needled/N/command``: plain text, or JSON ``{"id", "text", "reply_to"?}``; QoS 1.
- ``needled/N/command/<user>``: the same, but ACL'd as ``mqtt:<user>``. The broker must only let
  ``<user>`` write there (mosquitto: ``pattern write needled/+/command/%u``), so the daemon
  knows who sent it without trusting the payload.
- ``needled/N/result``: one reply per command (unless ``reply_to`` or an MQTT 5 Response Topic
  is given; then the reply goes there, with the Correlation Data copied).
- ``needled/N/audio``: a WAV file, one spoken command (when voice is enabled); the reply goes
  where a command's would, with the transcript added.
- ``needled/N/status``: retained ``online``/``offline``, ``offline`` also as the last will.
- ``needled/N/state``: retained JSON for the Home Assistant sensors.

Delivery: the session is persistent (fixed client id, ``clean_start=False``, session expiry), and
a command is acknowledged (PUBACK, manual ack) only after its reply has been handed to paho. A
daemon that dies mid-command therefore gets the command again from the broker on restart; a
broker that redelivers a command already served is answered by the dedup of the pipeline, not by
running the handlers twice.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.subscribeoptions import SubscribeOptions

from agent import wirejson
from agent.config import MqttConfig
from agent.pipeline import Command, JsonDict, Submit, error_envelope, make_reply

log = logging.getLogger("needled.mqtt")


class _WithoutTLS:
    """What paho's socket code needs of ``ssl`` in a process without OpenSSL.

    paho 2.x imports ``ssl`` optionally, yet its socket reads and writes always evaluate
    ``except ssl.SSLWantReadError``: with ``ssl`` None, the first would-block read raises
    AttributeError and kills paho's network thread (it still reports "connected"). These
    exceptions never occur on a plain socket, so classes that are never raised keep the
    handlers inert. Installed only when the daemon kept OpenSSL out (no TLS configured).
    """

    class SSLWantReadError(Exception):
        pass

    class SSLWantWriteError(Exception):
        pass

    class CertificateError(Exception):
        pass


if mqtt.ssl is None:
    mqtt.ssl = _WithoutTLS  # type: ignore[assignment]

paho_log = logging.getLogger("needled.mqtt.paho")

VERSION = "0.1.0"

SubmitFn = Callable[[Command], Submit]
# audio(wav, reply, meta): recognise and run one spoken command, answering through reply
AudioFn = Callable[[bytes, Callable[[JsonDict], None], JsonDict], None]


class _RetryNoiseFilter(logging.Filter):
    """Demote paho's ERRORs for an expected broker outage.

    paho logs the lost connection ("failed to receive on socket: ...") and then, on every failed
    reconnect, "Client is not connected", all at ERROR. A daemon waiting for its broker would fill
    the journal with errors for a condition it handles; the transport reports the outage once, at
    WARNING with the backoff, so the cause stays at INFO and the per-retry line goes to DEBUG.
    """

    DEMOTE = (
        ("Client is not connected", logging.DEBUG),
        ("failed to receive on socket", logging.INFO),
        ("timeout on socket", logging.INFO),
    )

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.ERROR:
            return True
        msg = str(record.msg)
        for prefix, level in self.DEMOTE:
            if msg.startswith(prefix):
                # the logger already admitted the record at ERROR: drop it unless the lower
                # level is wanted, or handlers without a level of their own would still print it
                if not paho_log.isEnabledFor(level):
                    return False
                record.levelno = level
                record.levelname = logging.getLevelName(level)
                break
        return True


_retry_noise_filter = _RetryNoiseFilter()


def _topic_ok(topic: Any) -> bool:
    return isinstance(topic, str) and 0 < len(topic) < 1024 and not set(topic) & {"+", "#", "\0"}


class MqttTransport:
    """The daemon's MQTT connection: command intake, replies, HA discovery, Hermes, and the
    :class:`devices.registry.MqttLink` used by zigbee2mqtt and Tasmota handlers."""

    def __init__(self, cfg: MqttConfig, *, line_length: int = 1024) -> None:
        self.cfg = cfg
        self.line_length = line_length
        n = cfg.node_id
        self.base = f"needled/{n}"
        self.command_topic = f"{self.base}/command"
        self.result_topic = f"{self.base}/result"
        self.status_topic = f"{self.base}/status"
        self.state_topic = f"{self.base}/state"
        self.audio_topic = f"{self.base}/audio"
        self._audio: AudioFn | None = None
        self.discovery_topic = f"{cfg.discovery_prefix}/device/needled_{n}/config"
        self.ha_status_topic = f"{cfg.discovery_prefix}/status"
        self._submit: SubmitFn | None = None
        self._subs: dict[str, Callable[[str, bytes], None]] = {}
        self._lock = threading.Lock()
        self._gen = 0  # connection generation; acks are only valid on the connection they came on
        self._pending: set[int] = set()
        self._pending_cond = threading.Condition()
        self.connected = threading.Event()
        self._paused = False
        self._stopping = False
        self._retry_logged = False  # the current outage has been reported at WARNING
        self._refused = False  # the broker refused our credentials (logged once per outage)
        self.connect_count = 0
        # CONNACK's flag from the latest connection: False after a reconnect means the broker
        # lost our session (no persistence), and with it the commands it was holding for us
        self.session_present: bool | None = None
        self._state: JsonDict = {"last_command": None, "last_call": None, "confidence": None}
        self.client = self._make_client()

    # --- setup ----------------------------------------------------------------------------------

    def _make_client(self) -> mqtt.Client:
        c = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=self.cfg.effective_client_id,
            protocol=mqtt.MQTTv5,
            manual_ack=True,
        )
        # addFilter ignores a filter already present, so reloads do not stack them
        paho_log.addFilter(_retry_noise_filter)
        c.enable_logger(paho_log)
        c.will_set(self.status_topic, "offline", qos=1, retain=True)
        c.reconnect_delay_set(self.cfg.reconnect_min, self.cfg.reconnect_max)
        # 0 = unbounded: replies produced while the broker is away must wait, never be dropped
        c.max_queued_messages_set(0)
        if self.cfg.username:
            c.username_pw_set(self.cfg.username, self.cfg.read_password())
        if self.cfg.tls:
            c.tls_set(
                ca_certs=self.cfg.ca_file or None,
                certfile=self.cfg.cert_file or None,
                keyfile=self.cfg.key_file or None,
            )
            if self.cfg.tls_insecure:
                c.tls_insecure_set(True)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_connect_fail = self._on_connect_fail
        c.on_message = self._on_message
        c.on_publish = self._on_publish
        return c

    def attach(self, submit: SubmitFn) -> None:
        """Route commands to ``submit`` (normally ``Pipeline.submit``); call before start()."""
        self._submit = submit

    def attach_audio(self, audio: AudioFn | None) -> None:
        """Take WAV commands on ``needled/N/audio`` and hand them to ``audio`` (None: stop)."""
        had = self._audio is not None
        self._audio = audio
        # voice turned on or off by a reload: (un)subscribe now, not at the next reconnect
        if self.connected.is_set() and had != (audio is not None):
            if audio is not None:
                self.client.subscribe(self.audio_topic, qos=1)
            else:
                self.client.unsubscribe(self.audio_topic)

    def start(self) -> None:
        """Connect in the background; the daemon runs on even while the broker is unreachable."""
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = self.cfg.session_expiry
        self.client.connect_async(
            self.cfg.host,
            self.cfg.port,
            keepalive=self.cfg.keepalive,
            clean_start=False,
            properties=props,
        )
        self.client.loop_start()

    def stop(self, timeout: float = 5.0) -> None:
        """Flush replies, publish ``offline`` and disconnect (a clean disconnect sends no will)."""
        self._stopping = True
        if self.connected.is_set():
            self.wait_published(timeout)
            info = self.client.publish(self.status_topic, "offline", qos=1, retain=True)
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError):
                pass
        self.client.disconnect()
        self.client.loop_stop()

    def pause_intake(self) -> None:
        """Stop taking commands (shutdown): new ones stay unacknowledged in the persistent
        session, so the broker hands them to the next instance instead of us failing them."""
        self._paused = True

    def clear_subscriptions(self) -> None:
        """Forget device state callbacks (before a reloaded registry subscribes again)."""
        with self._lock:
            self._subs.clear()

    def wait_published(self, timeout: float) -> bool:
        """Wait until every QoS 1 reply handed to paho has been acknowledged by the broker."""
        with self._pending_cond:
            return self._pending_cond.wait_for(lambda: not self._pending, timeout)

    # --- MqttLink for device handlers -----------------------------------------------------------

    def publish(
        self, topic: str, payload: bytes | str, *, qos: int = 1, retain: bool = False
    ) -> None:
        self._publish(topic, payload, qos=qos, retain=retain)

    def subscribe(self, topic: str, callback: Callable[[str, bytes], None]) -> None:
        with self._lock:
            self._subs[topic] = callback
        if self.connected.is_set():
            # device state topics use QoS 0 so they are never held back behind unacked commands
            self.client.subscribe(topic, qos=0)

    # --- paho callbacks -------------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, _ud: Any, flags: Any, reason: Any, _p: Any) -> None:
        if reason.is_failure:
            # a refusal (bad credentials, not authorised) does not heal by retrying: say it once
            # per outage, not at every backoff step
            level = logging.DEBUG if self._refused else logging.WARNING
            self._refused = self._retry_logged = True
            log.log(
                level,
                "MQTT broker %s:%s refused the connection: %s (check mqtt.username and the "
                "password); %s",
                self.cfg.host,
                self.cfg.port,
                reason,
                self._backoff_text(),
            )
            return
        self._refused = False
        with self._lock:
            self._gen += 1
            device_topics = list(self._subs)
        reconnect = self.connect_count > 0
        self.connect_count += 1
        self.session_present = bool(flags.session_present)
        self._retry_logged = False
        log.info(
            "MQTT connected to %s:%s (session present: %s)",
            self.cfg.host,
            self.cfg.port,
            flags.session_present,
        )
        if reconnect and not flags.session_present:
            log.warning(
                "MQTT broker %s:%s did not keep this client's session across the outage; "
                "commands it held for us are lost (is broker persistence on and writable?)",
                self.cfg.host,
                self.cfg.port,
            )
        subs = [
            (self.command_topic, SubscribeOptions(qos=1)),
            (f"{self.command_topic}/+", SubscribeOptions(qos=1)),
        ]
        if self.cfg.discovery:
            subs.append((self.ha_status_topic, SubscribeOptions(qos=0)))
        if self._audio is not None:
            subs.append((self.audio_topic, SubscribeOptions(qos=1)))
        if self.cfg.hermes:
            subs.append(("hermes/nlu/query", SubscribeOptions(qos=1)))
        subs += [(t, SubscribeOptions(qos=0)) for t in device_topics]
        client.subscribe(subs)
        client.publish(self.status_topic, "online", qos=1, retain=True)
        if self.cfg.discovery:
            self.publish_discovery()
        self.connected.set()

    def _on_disconnect(self, _c: Any, _ud: Any, _flags: Any, reason: Any, _p: Any) -> None:
        self.connected.clear()
        if self._stopping:
            log.info("MQTT disconnected (%s)", reason)
            return
        if self._refused:  # the refusal was logged; paho's disconnect after it says nothing new
            return
        self._retry_logged = True
        log.warning(
            "MQTT disconnected from %s:%s (%s); %s",
            self.cfg.host,
            self.cfg.port,
            reason,
            self._backoff_text(),
        )

    def _on_connect_fail(self, _c: Any, _ud: Any) -> None:
        # paho retries on its own; one WARNING per outage, the rest only at DEBUG
        if self._retry_logged or self._stopping:
            log.debug("MQTT connect to %s:%s failed again", self.cfg.host, self.cfg.port)
            return
        self._retry_logged = True
        # paho calls this inside its `except OSError`: the exception says why (refused, no
        # route, or a TLS handshake that failed, e.g. a CA that does not match)
        exc = sys.exc_info()[1]
        if exc is not None and "SSL" in type(exc).__name__:
            why = f"TLS handshake failed ({exc}); check mqtt.ca_file and mqtt.tls_insecure"
        else:
            why = f"unreachable ({exc})" if exc is not None else "unreachable"
        log.warning(
            "MQTT broker %s:%s %s; %s", self.cfg.host, self.cfg.port, why, self._backoff_text()
        )

    def _backoff_text(self) -> str:
        return (
            f"retrying in the background with backoff "
            f"{self.cfg.reconnect_min}-{self.cfg.reconnect_max} s"
        )

    def _on_publish(self, _c: Any, _ud: Any, mid: int, _reason: Any, _p: Any) -> None:
        with self._pending_cond:
            self._pending.discard(mid)
            self._pending_cond.notify_all()

    def _on_message(self, client: mqtt.Client, _ud: Any, msg: mqtt.MQTTMessage) -> None:
        topic = msg.topic
        if self._paused and (
            topic.startswith(self.command_topic) or topic in ("hermes/nlu/query", self.audio_topic)
        ):
            return
        try:
            if topic == self.command_topic:
                self._on_command(msg, "mqtt")
                return
            if topic.startswith(self.command_topic + "/"):
                user = topic[len(self.command_topic) + 1 :]
                self._on_command(msg, f"mqtt:{user}")
                return
            if topic == "hermes/nlu/query" and self.cfg.hermes:
                self._on_hermes(msg)
                return
            if topic == self.audio_topic and self._audio is not None:
                self._on_audio(msg)
                return
            self._ack(msg, self._gen)
            if topic == self.ha_status_topic and self.cfg.discovery:
                if msg.payload.strip() == b"online":
                    # HA restarted and lost its entities: announce again
                    self.publish_discovery()
                    self._publish(self.state_topic, json.dumps(self._state), retain=True)
                return
            with self._lock:
                handlers = [cb for t, cb in self._subs.items() if mqtt.topic_matches_sub(t, topic)]
            for cb in handlers:
                cb(topic, msg.payload)
        except Exception:
            log.exception("handling MQTT message on %s failed", topic)

    # --- commands -------------------------------------------------------------------------------

    def _ack(self, msg: mqtt.MQTTMessage, gen: int) -> None:
        if msg.qos == 0:
            return
        with self._lock:
            current = gen == self._gen
        if current and self.connected.is_set():
            self.client.ack(msg.mid, msg.qos)
        # otherwise the broker redelivers it on the new connection and dedup answers it

    def _on_command(self, msg: mqtt.MQTTMessage, source: str) -> None:
        gen = self._gen
        props = getattr(msg, "properties", None)
        response_topic = getattr(props, "ResponseTopic", None) if props else None
        correlation = getattr(props, "CorrelationData", None) if props else None
        cmd_id: Any = None
        reply_to = response_topic if _topic_ok(response_topic) else self.result_topic
        text = ""
        problem = None
        if len(msg.payload) > self.line_length * 4 + 1024:
            problem = ("too_long", f"payload of {len(msg.payload)} bytes is too long")
        else:
            try:
                raw = msg.payload.decode("utf-8")
            except UnicodeDecodeError:
                problem = ("invalid_utf8", "payload is not valid UTF-8")
                raw = ""
            if problem is None and raw.lstrip().startswith("{"):
                try:
                    data = wirejson.loads(raw)
                except ValueError as exc:
                    problem = ("invalid_json", f"invalid JSON: {exc}")
                else:
                    cmd_id = data.get("id")
                    text = data.get("text")
                    if cmd_id is not None and not isinstance(cmd_id, str | int):
                        problem, cmd_id = ("invalid_json", "'id' must be a string or integer"), None
                    elif not isinstance(text, str):
                        problem, text = ("invalid_json", "'text' must be a string"), ""
                    rt = data.get("reply_to")
                    if rt is not None:
                        if _topic_ok(rt) and not rt.startswith(self.command_topic):
                            reply_to = rt
                        else:
                            problem = problem or ("invalid_json", "'reply_to' is not a valid topic")
            elif problem is None:
                text = raw

        def reply(payload: JsonDict) -> None:
            self._publish(reply_to, json.dumps(payload), qos=1, correlation=correlation)
            self._ack(msg, gen)

        cmd = Command(
            text=text,
            source=source,
            reply=reply,
            id=cmd_id,
            dedup=cmd_id if cmd_id is not None else _corr_key(correlation),
            meta={"topic": msg.topic, "reply_to": reply_to},
        )
        if problem is not None:
            code, message = problem
            cmd.answer(make_reply(cmd_id, text, error_envelope(code, message)))
            return
        if self._submit is None:
            cmd.answer_error("not_ready", "daemon is starting, try again")
            return
        status = self._submit(cmd)
        if status is Submit.DUPLICATE:
            log.info("duplicate command id %r from %s ignored", cmd_id, source)
            self._ack(msg, gen)

    def _on_audio(self, msg: mqtt.MQTTMessage) -> None:
        gen = self._gen
        props = getattr(msg, "properties", None)
        response_topic = getattr(props, "ResponseTopic", None) if props else None
        correlation = getattr(props, "CorrelationData", None) if props else None
        reply_to = response_topic if _topic_ok(response_topic) else self.result_topic

        def reply(payload: JsonDict) -> None:
            self._publish(reply_to, json.dumps(payload), qos=1, correlation=correlation)
            self._ack(msg, gen)

        assert self._audio is not None
        meta = {
            "topic": msg.topic,
            "reply_to": reply_to,
            "dedup": _corr_key(correlation),
            "ack": lambda: self._ack(msg, gen),  # a redelivery already answered
        }
        self._audio(bytes(msg.payload), reply, meta)

    def _publish(
        self,
        topic: str,
        payload: bytes | str,
        *,
        qos: int = 1,
        retain: bool = False,
        correlation: bytes | None = None,
    ) -> None:
        props = None
        if correlation is not None:
            props = Properties(PacketTypes.PUBLISH)
            props.CorrelationData = correlation
        info = self.client.publish(topic, payload, qos=qos, retain=retain, properties=props)
        if qos > 0:
            if info.rc == mqtt.MQTT_ERR_QUEUE_SIZE:
                raise RuntimeError(f"MQTT outgoing queue full; reply on {topic} not queued")
            with self._pending_cond:
                self._pending.add(info.mid)
                # While disconnected (MQTT_ERR_NO_CONN) paho keeps a QoS 1 message queued and
                # sends it after the reconnect, so it is pending, not failed.
                if info.rc == mqtt.MQTT_ERR_SUCCESS and info.is_published():
                    self._pending.discard(info.mid)

    # --- Home Assistant -------------------------------------------------------------------------

    def discovery_payload(self) -> JsonDict:
        """Device-based discovery: one message for the device and all its entities."""
        n = self.cfg.node_id
        uid = f"needled_{n}"
        sensor_common = {"state_topic": self.state_topic, "entity_category": "diagnostic"}
        return {
            "dev": {
                "ids": [uid],
                "name": f"needled {n}",
                "mf": "needled",
                "mdl": "Needle 2 agent daemon",
                "sw": VERSION,
            },
            "o": {"name": "needled", "sw": VERSION},
            "availability_topic": self.status_topic,
            "payload_available": "online",
            "payload_not_available": "offline",
            "qos": 1,
            "cmps": {
                f"{uid}_command": {
                    "p": "text",
                    "name": "Command",
                    "unique_id": f"{uid}_command",
                    "command_topic": self.command_topic,
                    "min": 1,
                    "max": min(255, self.line_length),
                    "mode": "text",
                    "icon": "mdi:console-line",
                },
                f"{uid}_last_command": {
                    "p": "sensor",
                    "name": "Last command",
                    "unique_id": f"{uid}_last_command",
                    "value_template": "{{ value_json.last_command }}",
                    **sensor_common,
                },
                f"{uid}_last_call": {
                    "p": "sensor",
                    "name": "Last call",
                    "unique_id": f"{uid}_last_call",
                    "value_template": "{{ value_json.last_call }}",
                    **sensor_common,
                },
                f"{uid}_confidence": {
                    "p": "sensor",
                    "name": "Confidence",
                    "unique_id": f"{uid}_confidence",
                    "value_template": "{{ value_json.confidence }}",
                    "unit_of_measurement": "%",
                    "state_class": "measurement",
                    **sensor_common,
                },
            },
        }

    def publish_discovery(self) -> None:
        self._publish(self.discovery_topic, json.dumps(self.discovery_payload()), retain=True)

    def on_reply(self, cmd: Command, reply: JsonDict) -> None:
        """Pipeline listener: keep the HA sensor state topic current."""
        env = reply.get("envelope") or {}
        calls = env.get("function_calls") or []
        last_call = (
            ", ".join(
                f"{c.get('name')}({json.dumps(c.get('arguments'), ensure_ascii=False)})"
                for c in calls
            )
            if calls
            else "none"
        )
        conf = env.get("confidence")
        self._state = {
            "last_command": cmd.text[:255],
            "last_call": last_call[:255],
            "confidence": round(conf * 100, 1) if isinstance(conf, int | float) else None,
            "source": cmd.source,
        }
        if self.cfg.discovery:
            self._publish(self.state_topic, json.dumps(self._state), retain=True)

    # --- Rhasspy / Hermes -----------------------------------------------------------------------

    def _on_hermes(self, msg: mqtt.MQTTMessage) -> None:
        gen = self._gen
        try:
            query = wirejson.loads(msg.payload)
            if not isinstance(query, dict) or not isinstance(query.get("input"), str):
                raise ValueError("no 'input'")
        except ValueError:
            log.warning("ignoring malformed hermes/nlu/query")
            self._ack(msg, gen)
            return
        common = {
            "input": query["input"],
            "id": query.get("id"),
            "siteId": query.get("siteId", "default"),
            "sessionId": query.get("sessionId"),
            "customData": None,
        }

        def reply(payload: JsonDict) -> None:
            env = payload.get("envelope") or {}
            calls = env.get("function_calls") or []
            if env.get("type") == "call" and calls:
                call = calls[0]
                conf = env.get("confidence")
                intent = {
                    **common,
                    "intent": {
                        "intentName": call["name"],
                        "confidenceScore": float(conf) if conf is not None else 1.0,
                    },
                    "slots": [
                        {
                            "entity": k,
                            "slotName": k,
                            "rawValue": v if isinstance(v, str) else json.dumps(v),
                            "value": {"kind": "Unknown", "value": v},
                            "confidence": 1.0,
                            "range": None,
                        }
                        for k, v in (call.get("arguments") or {}).items()
                    ],
                    "rawInput": query["input"],
                    "asrTokens": [],
                    "asrConfidence": None,
                    "wakewordId": query.get("wakewordId"),
                    "lang": query.get("lang"),
                }
                self._publish(f"hermes/intent/{call['name']}", json.dumps(intent))
            else:
                self._publish("hermes/nlu/intentNotRecognized", json.dumps(common))
            self._ack(msg, gen)

        cmd = Command(
            text=query["input"],
            source="hermes",
            reply=reply,
            id=query.get("id"),
            execute=self.cfg.hermes_execute,
        )
        if self._submit is None:
            cmd.answer_error("not_ready", "daemon is starting")
        elif self._submit(cmd) is Submit.DUPLICATE:
            self._ack(msg, gen)


def _corr_key(correlation: bytes | None) -> str | None:
    return None if correlation is None else "corr:" + correlation.hex()
