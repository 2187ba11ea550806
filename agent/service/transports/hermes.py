"""Rhasspy / Hermes NLU over the daemon's MQTT connection: ``hermes/nlu/query`` in, intents out.

The MQTT connection (sessions, acks, publishing) stays in :mod:`agent.service.transports.mqtt`; this
module only speaks the Hermes protocol. Each topic it serves maps to one handler method in
:attr:`HermesService.handlers` (with its subscription options in :attr:`HermesService.options`),
so further Hermes services (audio, ASR) add a topic and a method.

Answers to one ``hermes/nlu/query``:

- every recognised call: ``hermes/nlu/intentParsed`` (what Rhasspy's dialogue manager listens
  to) and ``hermes/intent/<tool>`` (what intent handlers listen to), one pair per call;
- nothing recognised, or every call refused: ``hermes/nlu/intentNotRecognized``;
- an error or a refused call: ``hermes/error/nlu`` naming it (plus ``intentNotRecognized`` when
  nothing was recognised, so a dialogue session ends at once instead of timing out).

Stale queries are never acted on. Hermes queries carry no timestamp, so age is bounded where it
can be known: the query topic is subscribed at QoS 0 with no retained delivery, so a standard
broker does not hold queries for needled while it is away (a retained query is ignored too);
a broker that holds QoS 0 messages for offline sessions anyway (mosquitto's
``queue_qos0_messages``, EMQX by default) delivers them right after the reconnect, ahead of a
fence message needled publishes to itself once connected, and queries before the fence are
dropped (a live query in the milliseconds before the fence returns is dropped too: the price of
never replaying old ones); and a query that waited in needled's own queue longer than
``hermes_max_age`` seconds is answered ``expired`` without running.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any, Protocol

import paho.mqtt.client as mqtt
from paho.mqtt.subscribeoptions import SubscribeOptions

from agent.service import wirejson
from agent.service.config import MqttConfig
from agent.service.pipeline import Command, JsonDict

log = logging.getLogger("needled.hermes")

QUERY = "hermes/nlu/query"
INTENT_PARSED = "hermes/nlu/intentParsed"
NOT_RECOGNIZED = "hermes/nlu/intentNotRecognized"
NLU_ERROR = "hermes/error/nlu"


class HermesLink(Protocol):
    """What the Hermes service needs from the MQTT transport."""

    def publish(
        self, topic: str, payload: bytes | str, *, qos: int = 1, retain: bool = False
    ) -> None: ...

    def acker(self, msg: mqtt.MQTTMessage) -> Callable[[], None]:
        """A callable that acknowledges ``msg`` on the connection it arrived on."""
        ...

    def submit_command(self, cmd: Command) -> bool:
        """Hand ``cmd`` to the pipeline through the transport's admission (it holds a queue
        slot until answered); False while the daemon has no pipeline yet."""
        ...


# live only: QoS 0 is not held for an offline session, retained queries are never sent
_LIVE = SubscribeOptions(qos=0, retainHandling=SubscribeOptions.RETAIN_DO_NOT_SEND)


class HermesService:
    """The Hermes NLU service: recognise (and, with ``hermes_execute``, run) voice queries."""

    def __init__(self, cfg: MqttConfig, link: HermesLink, *, node_base: str) -> None:
        self.cfg = cfg
        self.link = link
        self.fence_topic = f"{node_base}/hermes/fence"
        self.handlers: dict[str, Callable[[mqtt.MQTTMessage], None]] = {
            QUERY: self.on_query,
            self.fence_topic: self.on_fence,
        }
        self.options: dict[str, SubscribeOptions] = {QUERY: _LIVE, self.fence_topic: _LIVE}
        self._lock = threading.Lock()
        self._fence: str | None = None  # nonce still awaited: queries before it are stale
        self._fence_sent = 0.0
        self.dropped = 0  # stale, retained or other-site queries ignored (for tests and status)

    def subscriptions(self) -> list[tuple[str, SubscribeOptions]]:
        return [(t, self.options[t]) for t in self.handlers]

    def handler(self, topic: str) -> Callable[[mqtt.MQTTMessage], None] | None:
        for pattern, fn in self.handlers.items():
            if mqtt.topic_matches_sub(pattern, topic):
                return fn
        return None

    def on_connect(self, session_present: bool) -> None:
        """Call after subscribing on a new connection. With a resumed session the broker may
        deliver queries it held while needled was away: they all arrive before this fence."""
        with self._lock:
            if not session_present:
                self._fence = None
                return
            self._fence = uuid.uuid4().hex
            self._fence_sent = time.monotonic()
            nonce = self._fence
        self.link.publish(self.fence_topic, nonce, qos=0)

    def on_fence(self, msg: mqtt.MQTTMessage) -> None:
        with self._lock:
            if self._fence is not None and msg.payload.decode("ascii", "replace") == self._fence:
                self._fence = None

    def _stale(self) -> bool:
        with self._lock:
            if self._fence is None:
                return False
            # a fence that never comes back (a broker ACL on it) must not leave Hermes deaf:
            # anything the broker held arrives at once, so after max_age the flood is over
            if time.monotonic() - self._fence_sent > self.cfg.hermes_max_age:
                log.warning("Hermes fence %s did not come back; taking queries again", self._fence)
                self._fence = None
                return False
            return True

    # --- hermes/nlu/query -----------------------------------------------------------------------

    def on_query(self, msg: mqtt.MQTTMessage) -> None:
        ack = self.link.acker(msg)
        try:
            self._on_query(msg)
        finally:
            ack()  # QoS 0 needs none; kept so a QoS 1 delivery is never left unacknowledged

    def _on_query(self, msg: mqtt.MQTTMessage) -> None:
        try:
            query = wirejson.loads(msg.payload)
        except ValueError as exc:
            self._error(f"malformed {QUERY}: {exc}", {})
            return
        if not isinstance(query, dict):
            self._error(f"malformed {QUERY}: not a JSON object", {})
            return
        site = query.get("siteId") or "default"
        if self.cfg.hermes_site_ids and site not in self.cfg.hermes_site_ids:
            self.dropped += 1  # another NLU serves that site
            return
        if msg.retain or self._stale():
            self.dropped += 1
            log.info("dropped a Hermes query the broker held for needled: %r", query.get("input"))
            return
        if not isinstance(query.get("input"), str):
            self._error(f"malformed {QUERY}: 'input' must be a string", query)
            return
        problem = _filter_problem(query.get("intentFilter"))
        if problem:
            self._error(f"malformed {QUERY}: {problem}", query)
            return
        flt = query.get("intentFilter")
        cmd = Command(
            text=query["input"],
            source="hermes",
            reply=lambda payload: self._answer(query, payload),
            id=query.get("id"),
            execute=self.cfg.hermes_execute,
            tools=frozenset(flt) if flt else None,
            deadline=time.monotonic() + self.cfg.hermes_max_age,
        )
        if not self.link.submit_command(cmd):
            cmd.answer_error("not_ready", "daemon is starting")

    def _answer(self, query: JsonDict, payload: JsonDict) -> None:
        if payload.get("replay"):
            # the first copy's intents are out already: announcing them again would make an
            # intent handler downstream act twice
            return
        env = payload.get("envelope") or {}
        calls = [c for c in env.get("function_calls") or [] if isinstance(c, dict)]
        if env.get("type") == "error":
            self._error(f"{env.get('error_code')}: {env.get('error')}", query)
            self._not_recognized(query)
            return
        results = payload.get("results") or []
        failed = [r for r in results if isinstance(r, dict) and not r.get("ok")]
        recognised = []
        for call in calls:
            # a call the pipeline refused (ACL, intent filter, limits) or whose handler failed
            # is never announced as an intent: an intent handler downstream would act on it
            match = next((r for r in failed if _same_call(r, call)), None)
            if match is None:
                recognised.append(call)
            else:
                failed.remove(match)
                self._error(f"{match.get('error_code')}: {match.get('error')}", query)
        if not recognised:
            self._not_recognized(query)
            return
        conf = env.get("confidence")
        # no confidence head: the score is unknown, and says so (null), never a made-up 1.0
        score = float(conf) if isinstance(conf, int | float) else None
        for call in recognised:
            intent = {"intentName": call.get("name"), "confidenceScore": score}
            slots = [
                {
                    "entity": k,
                    "slotName": k,
                    "rawValue": v if isinstance(v, str) else json.dumps(v),
                    "value": {"kind": "Unknown", "value": v},
                    "confidence": score,
                    "range": None,
                }
                for k, v in (call.get("arguments") or {}).items()
            ]
            common = {
                "input": query["input"],
                "id": query.get("id"),
                "siteId": query.get("siteId") or "default",
                "sessionId": query.get("sessionId"),
                "intent": intent,
                "slots": slots,
            }
            self.link.publish(INTENT_PARSED, json.dumps(common))
            full = {
                **common,
                "customData": query.get("customData"),
                "rawInput": query["input"],
                "asrTokens": [],
                "asrConfidence": query.get("asrConfidence"),
                "wakewordId": query.get("wakewordId"),
                "lang": query.get("lang"),
            }
            self.link.publish(f"hermes/intent/{call.get('name')}", json.dumps(full))

    def _not_recognized(self, query: JsonDict) -> None:
        self.link.publish(
            NOT_RECOGNIZED,
            json.dumps(
                {
                    "input": query.get("input"),
                    "id": query.get("id"),
                    "siteId": query.get("siteId") or "default",
                    "sessionId": query.get("sessionId"),
                    "customData": query.get("customData"),
                }
            ),
        )

    def _error(self, message: str, query: JsonDict) -> None:
        log.warning("Hermes NLU error: %s", message)
        self.link.publish(
            NLU_ERROR,
            json.dumps(
                {
                    "error": message,
                    "context": query.get("input") if isinstance(query.get("input"), str) else None,
                    "siteId": query.get("siteId") or "default",
                    "sessionId": query.get("sessionId"),
                }
            ),
        )


def _filter_problem(flt: Any) -> str | None:
    if flt is None or (isinstance(flt, list) and all(isinstance(n, str) for n in flt)):
        return None
    return "'intentFilter' must be a list of intent names"


def _same_call(result: JsonDict, call: JsonDict) -> bool:
    return result.get("name") == call.get("name") and result.get("arguments") == call.get(
        "arguments"
    )
