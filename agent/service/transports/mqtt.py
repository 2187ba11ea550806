"""MQTT transport (paho-mqtt 2.x, MQTT 5).

Topics, for ``node_id`` N:

- ``needled/N/command``: plain text, or JSON ``{"id", "text", "reply_to"?}``; QoS 1.
- ``needled/N/command/<user>``: the same, but ACL'd as ``mqtt:<user>``. The broker must only let
  ``<user>`` write there (mosquitto: ``pattern write needled/+/command/%u``), so the daemon
  knows who sent it without trusting the payload.
- ``needled/N/result``: one reply per command (unless ``reply_to`` or an MQTT 5 Response Topic
  is given; then the reply goes there, with the Correlation Data copied).
- ``needled/N/reply/...`` (``mqtt.reply_prefix``): the only topics besides the result topic a
  reply may be sent to. The daemon publishes replies with its own broker rights, so a reply topic
  chosen by the sender must never reach a command topic (its own, another node's, a device's);
  a command naming any other reply topic is refused, on the result topic, and not run.
- ``needled/N/audio``: a WAV file, one spoken command (when voice is enabled); the reply goes
  where a command's would, with the transcript added.
- ``needled/N/status``: retained ``online``/``offline``, ``offline`` also as the last will. Each
  carries the instance's token as a user property, which reveals a second daemon with the same
  client id (the two would otherwise take the session from each other forever).
- ``needled/N/state``: retained JSON for the Home Assistant sensors.

Delivery: the session is persistent (fixed client id, ``clean_start=False``, session expiry), and
a command is acknowledged (PUBACK, manual ack) once its reply has been handed to paho, whether or
not that reply could be sent. A daemon that dies mid-command therefore gets the command again
from the broker on restart. Receive Maximum is the pipeline's queue size, so a burst waits at the
broker; what a broker sends beyond it is held here, unacknowledged, not answered ``busy``. A
redelivery (DUP flag, same packet id) of a command still being served here is bound to that
command instead of running it again, which keeps a reconnect or a config reload from losing or
repeating replies.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import socket
import sys
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.subscribeoptions import SubscribeOptions

from agent.service import wirejson
from agent.service.config import MqttConfig
from agent.service.pipeline import Command, JsonDict, Submit, error_envelope, make_reply
from agent.service.transports.hermes import HermesService
from agent.service.transports.homeassistant import HomeAssistant

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


def _secure(c: mqtt.Client, cfg: MqttConfig) -> None:
    """Credentials and TLS from the config."""
    if cfg.username:
        c.username_pw_set(cfg.username, cfg.read_password())
    if cfg.tls:
        c.tls_set(
            ca_certs=cfg.ca_file or None,
            certfile=cfg.cert_file or None,
            keyfile=cfg.key_file or None,
        )
        if cfg.tls_insecure:
            c.tls_insecure_set(True)


def end_session(cfg: MqttConfig, timeout: float = 5.0) -> bool:
    """Discard the broker's session for ``cfg``'s client id: connect with clean start and
    session expiry 0, then disconnect. True once the broker accepted the connection (which is
    when it drops the old session)."""
    c = mqtt.Client(
        CallbackAPIVersion.VERSION2, client_id=cfg.effective_client_id, protocol=mqtt.MQTTv5
    )
    c.enable_logger(paho_log)
    _secure(c, cfg)
    accepted = threading.Event()
    answered = threading.Event()
    closed = threading.Event()

    def on_connect(_c: mqtt.Client, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if not reason.is_failure:
            accepted.set()
        answered.set()

    c.on_connect = on_connect
    c.on_disconnect = lambda *_a: closed.set()
    props = Properties(PacketTypes.CONNECT)
    props.SessionExpiryInterval = 0
    try:
        c.connect(
            cfg.host, cfg.port, keepalive=max(5, int(timeout)), clean_start=True, properties=props
        )
    except (OSError, ValueError) as e:
        log.warning("MQTT: cannot reach %s:%s to end a session: %s", cfg.host, cfg.port, e)
        return False
    c.loop_start()
    try:
        answered.wait(timeout)
        if accepted.is_set():
            c.disconnect()
            closed.wait(timeout)
    finally:
        c.loop_stop()
    return accepted.is_set()


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


def _topic_problem(topic: Any) -> str | None:
    """Why ``topic`` cannot be published to, or None."""
    if not isinstance(topic, str) or not topic:
        return "is not a non-empty string"
    if set(topic) & {"+", "#", "\0"}:
        return "contains a wildcard or NUL"
    try:
        size = len(topic.encode("utf-8"))
    except UnicodeEncodeError:
        # a lone surrogate: paho would fail while encoding the reply, after the command ran
        return "is not valid UTF-8"
    if size > 65535:
        return "is longer than MQTT allows"
    return None


def _shown(topic: Any, limit: int = 120) -> str:
    text = ascii(topic)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# The broker drops a client whose client id another client connects with (mosquitto 2.0.11 just
# closes the socket; newer brokers send 0x8E). Two daemons with one node id then take turns
# forever, each reconnecting within a second; after a takeover the loser waits this long instead,
# doubling up to the cap, so one of them serves at a time and the journal is not flooded.
TAKEOVER_BACKOFF_MIN = 30
TAKEOVER_BACKOFF_MAX = 600
SESSION_TAKEN_OVER = 0x8E

# Commands a broker sends beyond our Receive Maximum (mosquitto 2.0.11 does, after the first
# acknowledgement) are held here, unacknowledged, until the queue has room; past this many they
# are answered busy, to keep memory bounded.
HOLD_MAX = 1024


class _Inbound:
    """One QoS 1 message the broker handed us: acknowledged exactly once, after its reply."""

    __slots__ = ("mid", "qos", "gen", "since", "answered", "acked")

    def __init__(self, mid: int, qos: int, gen: int) -> None:
        self.mid = mid
        self.qos = qos
        self.gen = gen  # the connection it arrived on; an ack is only valid there
        self.since = time.monotonic()
        self.answered = False
        self.acked = False


class MqttTransport:
    """The daemon's MQTT connection: command intake, replies, HA discovery, Hermes, and the
    :class:`devices.registry.MqttLink` used by zigbee2mqtt and Tasmota handlers."""

    def __init__(
        self, cfg: MqttConfig, *, line_length: int = 1024, receive_maximum: int = 64
    ) -> None:
        self.line_length = line_length
        self._audio: AudioFn | None = None
        # MQTT 5 Receive Maximum: the broker keeps at most this many commands in flight to us
        # and holds the rest, so a burst waits there instead of being answered busy
        self.receive_maximum = max(1, min(receive_maximum, 65535))
        self._set_topics(cfg)
        self._submit: SubmitFn | None = None
        self._subs: dict[str, Callable[[str, bytes], None]] = {}
        self._lock = threading.RLock()
        # publish/ack and the swap of the paho client on reload: a reply must never be handed
        # to a client that is being stopped
        self._io_lock = threading.RLock()
        self._gen = 0  # connection generation; acks are only valid on the connection they came on
        # packet id -> unacknowledged message, kept across reconnects of the same session so a
        # redelivery of a command still queued here is recognised, not run twice
        self._inbound: dict[int, _Inbound] = {}
        self._outstanding = 0  # commands handed to the pipeline and not yet answered
        self._held: collections.deque[Command] = collections.deque()
        self._pumping = False
        self.token = f"{socket.gethostname()}/{os.getpid()}/{uuid.uuid4().hex[:8]}"
        self._token_armed = False  # our token has been retained on the status topic
        self._takeover_backoff = 0
        self._connected_at = 0.0
        # the client a reload replaced: (client, disconnected, its session is being ended)
        self._retired: tuple[mqtt.Client, threading.Event, bool] | None = None
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
        self.client = self._make_client()

    # --- setup ----------------------------------------------------------------------------------

    def _set_topics(self, cfg: MqttConfig) -> None:
        self.cfg = cfg
        self.base = cfg.node_base
        self.command_topic = f"{self.base}/command"
        self.result_topic = f"{self.base}/result"
        self.status_topic = f"{self.base}/status"
        self.audio_topic = f"{self.base}/audio"
        self.reply_prefix = cfg.effective_reply_prefix
        # rebuilt on a reload, as their topics follow the config; HA keeps what it knew
        previous = getattr(self, "ha", None)
        self.ha = HomeAssistant(cfg, self, line_length=self.line_length)
        if previous is not None:
            self.ha.adopt(previous)
        self.hermes = HermesService(cfg, self, node_base=self.base)
        self.state_topic = self.ha.state_topic
        self.discovery_topic = self.ha.discovery_topic
        self.ha_status_topic = self.ha.ha_status_topic

    def _status_props(self, packet: int = PacketTypes.PUBLISH) -> Properties:
        props = Properties(packet)
        props.UserProperty = ("instance", self.token)
        return props

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
        will = self._status_props(PacketTypes.WILLMESSAGE)
        c.will_set(self.status_topic, "offline", qos=1, retain=True, properties=will)
        c.reconnect_delay_set(self.cfg.reconnect_min, self.cfg.reconnect_max)
        # 0 = unbounded: replies produced while the broker is away must wait, never be dropped
        c.max_queued_messages_set(0)
        _secure(c, self.cfg)
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
        props.ReceiveMaximum = self.receive_maximum
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
        self._disconnect(self.client, timeout)

    def _disconnect(self, client: mqtt.Client, timeout: float) -> None:
        if self.connected.is_set():
            self.wait_published(timeout)
            info = client.publish(
                self.status_topic, "offline", qos=1, retain=True, properties=self._status_props()
            )
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError):
                pass
        client.disconnect()
        client.loop_stop()

    def reconfigure(self, cfg: MqttConfig, timeout: float = 5.0) -> None:
        """Switch to a changed ``[mqtt]`` config (reload) without losing a queued command's reply.

        The transport object stays, so the reply callbacks of commands already queued publish
        through the new connection. With the same broker and client id the session carries
        over: the broker redelivers the commands we had not acknowledged, and each is bound to
        its queued command (see :meth:`_receive`). A new broker or client id leaves the old
        session behind: the commands received on it are acknowledged at the switch (they are
        queued here and will be answered), and the old session is ended, or the broker would
        keep queueing commands for a client id nobody uses and replay them if it came back.
        """
        old = self.cfg
        same_session = (old.host, old.port, old.effective_client_id) == (
            cfg.host,
            cfg.port,
            cfg.effective_client_id,
        )
        self.wait_published(timeout)  # replies already handed to the old client reach the broker
        client, old_status, was_connected = self.client, self.status_topic, self.connected.is_set()
        gone = threading.Event()
        with self._io_lock:
            with self._lock:
                # from here on, nothing that arrives on the old client is tracked for an ack
                # (see _receive): the old connection's packet ids mean nothing on the new one
                live = [i for i in self._inbound.values() if i.gen == self._gen]
                if not same_session:
                    self._inbound.clear()
                self._gen += 1  # acks of the old connection are void on the new one
                self._stopping = True
                self._set_topics(cfg)
                self.client = self._make_client()
                self._retired = (client, gone, not same_session)
            with self._pending_cond:
                self._pending.clear()
                self._pending_cond.notify_all()
            self.connected.clear()
            self.connect_count = 0
            self.session_present = None
            self._retry_logged = self._refused = False
            self._token_armed = False
            self._takeover_backoff = 0
            props = None
            if was_connected:
                if not same_session:
                    for inbound in live:
                        inbound.acked = True
                        client.ack(inbound.mid, inbound.qos)
                    props = Properties(PacketTypes.DISCONNECT)
                    props.SessionExpiryInterval = 0
                    log.info(
                        "MQTT: ending the session of client id %r at %s:%s (%d received commands "
                        "acknowledged; the new connection serves from now on)",
                        old.effective_client_id,
                        old.host,
                        old.port,
                        len(live),
                    )
                if cfg.node_id != old.node_id:
                    client.publish(
                        old_status, "offline", qos=1, retain=True, properties=self._status_props()
                    )
            # written after the acks above; paho reports the disconnect once it is sent, and
            # stopping its thread earlier would drop what is still queued
            client.disconnect(properties=props)
        closed = gone.wait(timeout) if was_connected else True
        client.loop_stop()
        if not same_session and was_connected:
            # The old session must not outlive the switch: it would replay the commands taken
            # here (already queued) when that client id connects again. The DISCONNECT with
            # expiry 0 above is not proof: paho reports it once written, and a close with
            # unread data resets the connection, so the broker may never read it or the acks
            # (or they sat unsent in a stopped client under load). A fresh connection with
            # clean start discards the session whatever happened to the old one. (Not when
            # the old broker was out of reach: the reload would wait on it for nothing.)
            ended = end_session(old, timeout)
            if not closed:
                log.log(
                    logging.INFO if ended else logging.WARNING,
                    "MQTT: the old connection (client id %r) did not close within %.0f s; %s",
                    old.effective_client_id,
                    timeout,
                    "its session was ended from a fresh connection"
                    if ended
                    else "its session may survive and replay its commands when that id connects",
                )
            elif not ended:
                log.warning(
                    "MQTT: could not confirm the end of the old session (client id %r at %s:%s);"
                    " it may replay its commands when that id connects",
                    old.effective_client_id,
                    old.host,
                    old.port,
                )
        self._retired = None  # its thread has ended: no more callbacks from it
        self._stopping = False
        self.start()

    def pause_intake(self) -> None:
        """Stop taking commands (shutdown): new ones stay unacknowledged in the persistent
        session, so the broker hands them to the next instance instead of us failing them."""
        self._paused = True

    def unacked(self) -> int:
        """Messages the broker has sent on the live connection and we have not acknowledged.

        The broker stops sending once this reaches our Receive Maximum (or its own in-flight
        limit), so a count that stays up while nothing is being served means intake has
        stalled; the daemon then stops its watchdog pings.
        """
        if not self.connected.is_set():
            return 0
        with self._lock:
            return sum(1 for i in self._inbound.values() if i.gen == self._gen and not i.acked)

    def held(self) -> int:
        """Commands received beyond the queue's room, waiting here unacknowledged."""
        with self._lock:
            return len(self._held)

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
        if client is not self.client:
            return  # the client replaced by a reload
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
            if not flags.session_present:
                # the broker will not redeliver what we held unacknowledged: nothing to bind
                self._inbound.clear()
        reconnect = self.connect_count > 0
        self.connect_count += 1
        self.session_present = bool(flags.session_present)
        self._connected_at = time.monotonic()
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
            # our own retained status, to see another instance's token (same client id)
            (self.status_topic, SubscribeOptions(qos=0)),
        ]
        if self.cfg.discovery:
            subs.append((self.ha_status_topic, SubscribeOptions(qos=0)))
        if self._audio is not None:
            subs.append((self.audio_topic, SubscribeOptions(qos=1)))
        if self.cfg.hermes:
            subs += self.hermes.subscriptions()
        subs += [(t, SubscribeOptions(qos=0)) for t in device_topics]
        client.subscribe(subs)
        if self.cfg.hermes:
            self.hermes.on_connect(bool(flags.session_present))
        client.publish(
            self.status_topic, "online", qos=1, retain=True, properties=self._status_props()
        )
        self.ha.on_connect()
        self.connected.set()

    def _on_disconnect(self, client: Any, _ud: Any, _flags: Any, reason: Any, _p: Any) -> None:
        if client is not self.client:
            retired = self._retired
            if retired is not None and client is retired[0]:
                retired[1].set()
            return
        self.connected.clear()
        if self._stopping:
            log.info("MQTT disconnected (%s)", reason)
            return
        if self._refused:  # the refusal was logged; paho's disconnect after it says nothing new
            return
        if getattr(reason, "value", None) == SESSION_TAKEN_OVER:
            self._taken_over(client, "the broker says the session was taken over")
            return
        if self._takeover_backoff:
            if time.monotonic() - self._connected_at > 2 * self._takeover_backoff:
                # the other instance has been quiet for long: back to the configured backoff
                self._takeover_backoff = 0
                client.reconnect_delay_set(self.cfg.reconnect_min, self.cfg.reconnect_max)
            else:
                log.warning(
                    "MQTT disconnected from %s:%s (%s), most likely taken over again by the "
                    "other instance with client id %r; retrying in %s s",
                    self.cfg.host,
                    self.cfg.port,
                    reason,
                    self.cfg.effective_client_id,
                    self._takeover_backoff,
                )
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

    def _taken_over(self, client: Any, evidence: str) -> None:
        """Another client uses our client id: say so, and back off so one of us can serve."""
        self._takeover_backoff = min(
            TAKEOVER_BACKOFF_MAX,
            max(TAKEOVER_BACKOFF_MIN, self.cfg.reconnect_max, 2 * self._takeover_backoff),
        )
        # paho waits the minimum delay after a connection that had succeeded
        client.reconnect_delay_set(self._takeover_backoff, self._takeover_backoff)
        log.error(
            "MQTT: another client connected to %s:%s with this daemon's client id %r (%s); the "
            "broker keeps one session per client id, so two daemons with node_id %r take it "
            "from each other and miss commands. Stop the other one or give it its own "
            "mqtt.node_id or mqtt.client_id; reconnecting after a takeover only every %s s",
            self.cfg.host,
            self.cfg.port,
            self.cfg.effective_client_id,
            evidence,
            self.cfg.node_id,
            self._takeover_backoff,
        )

    def _ending(self, client: Any) -> bool:
        """Whether ``client`` is the one a reload replaced and its session is being ended."""
        retired = self._retired
        return retired is not None and client is retired[0] and retired[2]

    def _on_status(self, client: mqtt.Client, msg: mqtt.MQTTMessage) -> None:
        props = getattr(msg, "properties", None)
        user = dict(getattr(props, "UserProperty", None) or []) if props else {}
        other = user.get("instance")
        if other is None:
            return
        if other == self.token:
            self._token_armed = True
            return
        # Before our own token is retained, a foreign one is what an earlier instance left
        # behind (a restart); afterwards only a live second instance can have replaced it.
        if self._token_armed:
            self._taken_over(client, f"instance {other} published on {self.status_topic}")
            self._token_armed = False  # once per takeover, not per retained copy

    def _backoff_text(self) -> str:
        return (
            f"retrying in the background with backoff "
            f"{self.cfg.reconnect_min}-{self.cfg.reconnect_max} s"
        )

    def _on_publish(self, client: Any, _ud: Any, mid: int, _reason: Any, _p: Any) -> None:
        if client is not self.client:
            return
        with self._pending_cond:
            self._pending.discard(mid)
            self._pending_cond.notify_all()

    def _on_message(self, client: mqtt.Client, _ud: Any, msg: mqtt.MQTTMessage) -> None:
        topic = msg.topic
        if client is not self.client and not self._ending(client):
            return  # unacknowledged: the broker hands it to the new connection's session
        hermes = self.hermes.handler(topic) if self.cfg.hermes else None
        if self._paused and (
            topic.startswith(self.command_topic) or hermes is not None or topic == self.audio_topic
        ):
            return
        try:
            if topic == self.command_topic:
                self._on_command(msg, "mqtt", client)
                return
            if topic.startswith(self.command_topic + "/"):
                user = topic[len(self.command_topic) + 1 :]
                self._on_command(msg, f"mqtt:{user}", client)
                return
            if hermes is not None:
                hermes(msg)
                return
            if topic == self.audio_topic and self._audio is not None:
                self._on_audio(msg, client)
                return
            if client is not self.client:
                return
            if topic == self.status_topic:
                self._on_status(client, msg)
                return
            if msg.qos:
                self._settle(self._receive(msg, client)[0])
            if topic == self.ha_status_topic and self.cfg.discovery:
                self.ha.on_ha_status(msg.payload)
                return
            with self._lock:
                handlers = [cb for t, cb in self._subs.items() if mqtt.topic_matches_sub(t, topic)]
            for cb in handlers:
                cb(topic, msg.payload)
        except Exception:
            log.exception("handling MQTT message on %s failed", topic)

    # --- commands -------------------------------------------------------------------------------

    def _receive(
        self, msg: mqtt.MQTTMessage, client: mqtt.Client | None = None
    ) -> tuple[_Inbound | None, bool]:
        """Track an incoming message until it is acknowledged; ``(inbound, fresh)``.

        ``fresh`` is False for a redelivery (DUP, a packet id we have not acknowledged) of a
        message already being served here: it is bound to the new connection, so the one reply
        acknowledges it there (at once if the reply already went out), and is not run again.
        A message that came on a client replaced by a reload meanwhile is not taken either:
        it stays unacknowledged, for the broker to hand to the session it belongs to, unless
        that session is being ended (then it is served here, or it would be lost).
        """
        with self._lock:
            if client is not None and client is not self.client:
                if self._ending(client):
                    # its session is ended with the disconnect, which drops it unacknowledged
                    # or not: serve it, no ack to send
                    return None, True
                return None, False
            if msg.qos == 0:
                return None, True
            known = self._inbound.get(msg.mid)
            if known is not None and msg.dup and not known.acked:
                known.gen = self._gen
                if not known.answered:
                    return known, False
                inbound, fresh = known, False
            else:
                inbound, fresh = _Inbound(msg.mid, msg.qos, self._gen), True
                self._inbound[msg.mid] = inbound
                return inbound, fresh
        self._settle(inbound)
        return inbound, fresh

    def _settle(self, inbound: _Inbound | None) -> None:
        """Acknowledge a message whose reply has been handed over (or that needs none)."""
        if inbound is None:
            return
        with self._io_lock:
            with self._lock:
                inbound.answered = True
                if inbound.acked or self._inbound.get(inbound.mid) is not inbound:
                    return
                if inbound.gen != self._gen or not self.connected.is_set():
                    # the broker redelivers it on the next connection; _receive acks it then
                    return
                inbound.acked = True
                del self._inbound[inbound.mid]
            self.client.ack(inbound.mid, inbound.qos)

    def _reply_topic_problem(self, topic: Any) -> str | None:
        problem = _topic_problem(topic)
        if problem is not None:
            return f"reply topic {_shown(topic)} {problem}"
        prefix = self.reply_prefix
        if topic == self.result_topic or topic == prefix or topic.startswith(prefix + "/"):
            return None
        return (
            f"reply topic {_shown(topic)} is not under {prefix}/ (mqtt.reply_prefix) nor "
            f"{self.result_topic}; command not run"
        )

    def _on_command(
        self, msg: mqtt.MQTTMessage, source: str, client: mqtt.Client | None = None
    ) -> None:
        inbound, fresh = self._receive(msg, client)
        if not fresh:
            if inbound is not None:
                log.info("redelivered command (packet %s) is already being served", msg.mid)
            return
        props = getattr(msg, "properties", None)
        response_topic = getattr(props, "ResponseTopic", None) if props else None
        correlation = getattr(props, "CorrelationData", None) if props else None
        cmd_id: Any = None
        reply_to = self.result_topic
        text = ""
        problem = None
        if response_topic is not None:
            why = self._reply_topic_problem(response_topic)
            if why is None:
                reply_to = response_topic
            else:
                problem = ("reply_topic_refused", f"Response Topic: {why}")
        if problem is not None:
            pass
        elif len(msg.payload) > self.line_length * 4 + 1024:
            problem = ("too_long", f"payload of {len(msg.payload)} bytes is too long")
            cmd_id = wirejson.leading_id(msg.payload)  # so the client can tell which one
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
                        why = self._reply_topic_problem(rt)
                        if why is None:
                            reply_to = rt
                        elif problem is None or problem[0] != "reply_topic_refused":
                            # a refused reply topic outranks a malformed field: it is the
                            # one that must never be published to
                            problem = ("reply_topic_refused", f"'reply_to': {why}")
            elif problem is None:
                text = raw
        if problem is not None and problem[0] == "reply_topic_refused":
            reply_to = self.result_topic
            log.warning("MQTT command on %s refused: %s", msg.topic, problem[1])

        def reply(payload: JsonDict) -> None:
            self._send_reply(reply_to, payload, correlation)

        cmd = Command(
            text=text,
            source=source,
            reply=reply,
            id=cmd_id,
            # without an id, MQTT 5 Correlation Data identifies a resend (a key type of its own)
            dedup=correlation,
            meta={"topic": msg.topic, "reply_to": reply_to},
        )
        self._slotted(cmd, inbound)
        if problem is not None:
            code, message = problem
            cmd.answer(make_reply(cmd_id, text, error_envelope(code, message)))
            return
        if self._submit is None:
            cmd.answer_error("not_ready", "daemon is starting, try again")
            return
        self._admit(cmd, inbound)

    def _slotted(self, cmd: Command, inbound: _Inbound | None) -> Command:
        """Make answering ``cmd`` acknowledge its message and free its queue slot (if it holds
        one, in ``cmd.meta["slot"]``), whatever becomes of the reply itself."""
        counted = [False]  # holds one of our slots in the pipeline queue
        send = cmd.reply

        def reply(payload: JsonDict) -> None:
            try:
                send(payload)
            finally:
                # acknowledged whatever became of the reply: an unacknowledged message keeps
                # its slot in the broker's in-flight window, and a full window is a deaf daemon
                self._settle(inbound)
                if counted[0]:
                    counted[0] = False
                    self._release()

        cmd.reply = reply
        cmd.meta["slot"] = counted
        return cmd

    def _admit(self, cmd: Command, inbound: _Inbound | None) -> None:
        """Hand ``cmd`` to the pipeline if our share of the queue has room, else hold it."""
        full: bool | None
        with self._lock:
            if self._outstanding >= self.receive_maximum or self._held:
                if len(self._held) >= HOLD_MAX:
                    full = True
                else:
                    self._held.append(cmd)
                    cmd.meta["inbound"] = inbound
                    full = None
            else:
                full = False
                self._outstanding += 1
                cmd.meta["slot"][0] = True
        if full is None:
            self._pump()  # in case the room appeared between the check and the append
        elif full:
            cmd.answer_error("busy", f"busy: {HOLD_MAX} commands already waiting, try again later")
        else:
            self._hand_over(cmd, inbound)

    def _hand_over(self, cmd: Command, inbound: _Inbound | None) -> None:
        assert self._submit is not None
        status = self._submit(cmd)
        if status is Submit.DUPLICATE:
            # answered with the first copy's reply (marked replay), now or when that one is
            # served; the answer settles the message and frees the slot, as for any command
            log.info("command id %r from %s seen before: replaying its reply", cmd.id, cmd.source)

    def _release(self) -> None:
        with self._lock:
            self._outstanding -= 1
        self._pump()

    def _pump(self) -> None:
        """Submit held commands while the queue has room (one thread at a time, in order)."""
        while True:
            with self._lock:
                if (
                    self._pumping
                    or self._paused
                    or not self._held
                    or self._outstanding >= self.receive_maximum
                ):
                    return
                cmd = self._held.popleft()
                self._outstanding += 1
                cmd.meta["slot"][0] = True
                self._pumping = True
            try:
                self._hand_over(cmd, cmd.meta.pop("inbound", None))
            finally:
                with self._lock:
                    self._pumping = False

    def _send_reply(self, topic: str, payload: JsonDict, correlation: bytes | None) -> None:
        try:
            self._publish(topic, json.dumps(payload), qos=1, correlation=correlation)
        except Exception as exc:
            if topic == self.result_topic:
                raise
            # the command has run: its outcome must still reach someone
            log.warning("MQTT reply to %s failed (%s); sent to %s", _shown(topic), exc, topic)
            payload = {**payload, "reply_error": f"reply to {_shown(topic)} failed: {exc}"}
            self._publish(self.result_topic, json.dumps(payload), qos=1, correlation=correlation)

    def _on_audio(self, msg: mqtt.MQTTMessage, client: mqtt.Client | None = None) -> None:
        inbound, fresh = self._receive(msg, client)
        if not fresh:
            return
        props = getattr(msg, "properties", None)
        response_topic = getattr(props, "ResponseTopic", None) if props else None
        correlation = getattr(props, "CorrelationData", None) if props else None
        reply_to = self.result_topic
        refused = None
        if response_topic is not None:
            refused = self._reply_topic_problem(response_topic)
            if refused is None:
                reply_to = response_topic

        def reply(payload: JsonDict) -> None:
            try:
                self._send_reply(reply_to, payload, correlation)
            finally:
                # acknowledged whatever became of the reply (see _slotted)
                self._settle(inbound)

        if refused is not None:
            # the same rule as for text commands: a reply never goes where the sender chose
            # outside the reply prefix, and the audio is not run
            log.warning("MQTT audio on %s refused: Response Topic: %s", msg.topic, refused)
            reply(make_reply(None, "", error_envelope("reply_topic_refused", refused)))
            return
        assert self._audio is not None
        # a duplicate is answered by the pipeline's replay, through reply: no extra ack here
        meta = {"topic": msg.topic, "reply_to": reply_to, "dedup": correlation}
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
        with self._io_lock:
            # bookkeeping under the same lock as the client it was handed to: a reload clears
            # the old client's pending ids
            info = self.client.publish(topic, payload, qos=qos, retain=retain, properties=props)
            if qos > 0:
                if info.rc == mqtt.MQTT_ERR_QUEUE_SIZE:
                    raise RuntimeError(f"MQTT outgoing queue full; reply on {topic} not queued")
                with self._pending_cond:
                    self._pending.add(info.mid)
                    # While disconnected (MQTT_ERR_NO_CONN) paho keeps a QoS 1 message queued
                    # and sends it after the reconnect, so it is pending, not failed.
                    if info.rc == mqtt.MQTT_ERR_SUCCESS and info.is_published():
                        self._pending.discard(info.mid)

    # --- Home Assistant and Hermes wiring -------------------------------------------------------

    def on_reply(self, cmd: Command, reply: JsonDict) -> None:
        """Pipeline listener: keep the HA sensor state topic current."""
        self.ha.on_reply(cmd, reply)

    def publish_discovery(self) -> None:
        self.ha.publish_discovery()

    def set_confidence_head(self, present: bool) -> None:
        """Tell HA discovery whether the model has a confidence head (after each model load)."""
        self.ha.set_confidence_head(present, connected=self.connected.is_set())

    def acker(self, msg: mqtt.MQTTMessage) -> Callable[[], None]:
        """For a message a service (Hermes) handles itself: a callable that acknowledges it
        through the same bookkeeping as commands (a no-op for QoS 0)."""
        inbound, _fresh = self._receive(msg)
        return lambda: self._settle(inbound)

    def submit_command(self, cmd: Command) -> bool:
        """Admit a command from a service (Hermes) like one from a command topic: it takes one
        of the Receive Maximum slots until answered, or waits here while all are taken, so the
        pipeline queue always has room for what the broker may send. False while the daemon has
        no pipeline yet."""
        if self._submit is None:
            return False
        self._admit(self._slotted(cmd, None), None)
        return True
