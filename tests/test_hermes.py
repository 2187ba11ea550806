"""Rhasspy / Hermes NLU end to end over a real mosquitto: the daemon answers ``hermes/nlu/query``
as a Rhasspy NLU service does, and never acts on a query nobody is waiting for any more."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from daemon_fixtures import (
    MOSQUITTO,
    Broker,
    MqttClient,
    RunningDaemon,
    make_config,
    wait_for,
)

pytestmark = pytest.mark.mqtt

WAIT = 5.0


class Rhasspy:
    """The Rhasspy side: publishes queries, records everything under ``hermes/#``."""

    def __init__(self, port: int) -> None:
        self.client = MqttClient(port)
        self.client.subscribe("hermes/#")

    def query(self, text: str, *, qos: int = 0, retain: bool = False, **fields: Any) -> str:
        qid = fields.pop("id", uuid.uuid4().hex[:8])
        payload = {"input": text, "id": qid, "siteId": "default", "sessionId": f"s-{qid}"}
        payload.update(fields)
        self.client.publish("hermes/nlu/query", payload, qos=qos, retain=retain)
        return qid

    def ready(self, site: str = "default") -> None:
        """Wait until the daemon answers queries: its subscription is in place at the broker and,
        after a resumed session, its fence has come back (a query racing ahead of the fence is
        taken for one the broker held, and dropped)."""
        for _ in range(50):
            qid = self.query("what is love", id=f"probe-{uuid.uuid4().hex[:6]}", siteId=site)
            if wait_for(lambda qid=qid: self.out("hermes/nlu/intentNotRecognized", qid), 0.2):
                return
        raise AssertionError("the daemon never answered a Hermes query")

    def out(self, topic: str, qid: str | None = None) -> list[dict[str, Any]]:
        msgs = self.client.json_on(topic)
        return [m for m in msgs if qid is None or m.get("id") == qid or m.get("sessionId") == qid]

    def wait(self, topic: str, qid: str, count: int = 1) -> list[dict[str, Any]]:
        assert wait_for(lambda: len(self.out(topic, qid)) >= count, WAIT), (topic, qid)
        return self.out(topic, qid)

    def everything_for(self, qid: str) -> list[tuple[str, Any]]:
        out = []
        for topic in list(self.client.by_topic):
            if topic == "hermes/nlu/query":
                continue
            out += [(topic, m) for m in self.out(topic, qid) + self.out(topic, f"s-{qid}")]
        return out

    def close(self) -> None:
        self.client.close()


@pytest.fixture(name="rhasspy")
def rhasspy_fixture(broker: Broker) -> Iterator[Rhasspy]:
    r = Rhasspy(broker.port)
    yield r
    r.close()


def hermes_config(mqtt_config: Any, **mqtt: Any) -> Any:
    return mqtt_config(mqtt={"hermes": True, "discovery": False, **mqtt})


def lights(d: RunningDaemon) -> dict[str, Any]:
    return d.daemon.registry.states()["set_light"]


def test_intent_parsed_and_intent_for_every_call_with_custom_data_and_asr_confidence(
    broker: Broker, mqtt_config: Any, rhasspy: Rhasspy
) -> None:
    with RunningDaemon(hermes_config(mqtt_config)) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        rhasspy.ready()
        qid = rhasspy.query(
            "lights on in kitchen and bathroom",
            customData="from-satellite-2",
            asrConfidence=0.83,
            wakewordId="porcupine",
            lang="en",
        )
        intents = rhasspy.wait("hermes/intent/set_light", qid, 2)
        parsed = rhasspy.wait("hermes/nlu/intentParsed", qid, 2)
        rooms = [i["slots"][0]["value"]["value"] for i in intents]
        assert rooms == ["kitchen", "bathroom"]  # both actions, in order
        assert [p["slots"] for p in parsed] == [i["slots"] for i in intents]
        for i in intents:
            assert i["customData"] == "from-satellite-2"
            assert i["asrConfidence"] == 0.83
            assert i["wakewordId"] == "porcupine" and i["lang"] == "en"
            assert i["intent"] == {"intentName": "set_light", "confidenceScore": 0.9}
            assert i["sessionId"] == f"s-{qid}" and i["siteId"] == "default"
        for p in parsed:
            assert p["intent"]["intentName"] == "set_light" and p["sessionId"] == f"s-{qid}"
        assert rhasspy.out("hermes/nlu/intentNotRecognized", qid) == []
        assert rhasspy.out("hermes/error/nlu", f"s-{qid}") == []

        # not recognised keeps customData too
        qid = rhasspy.query("what is love", customData={"step": 2})
        (nr,) = rhasspy.wait("hermes/nlu/intentNotRecognized", qid)
        assert nr["customData"] == {"step": 2} and nr["input"] == "what is love"


def test_missing_confidence_is_reported_as_unknown_never_as_certain(
    broker: Broker, mqtt_config: Any, rhasspy: Rhasspy
) -> None:
    with RunningDaemon(hermes_config(mqtt_config)) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        rhasspy.ready()
        completer = d.completer
        plain = completer.complete

        def no_head(text: str, **kw: Any) -> dict[str, Any]:
            env = plain(text, **kw)
            return {**env, "confidence": None}  # a model without a confidence head

        completer.complete = no_head  # type: ignore[method-assign]
        qid = rhasspy.query("dim the bedroom to 30")
        (intent,) = rhasspy.wait("hermes/intent/set_light", qid)
        assert intent["intent"] == {"intentName": "set_light", "confidenceScore": None}
        assert all(s["confidence"] is None for s in intent["slots"])
        (parsed,) = rhasspy.wait("hermes/nlu/intentParsed", qid)
        assert parsed["intent"]["confidenceScore"] is None


def test_intent_filter_refuses_other_intents_instead_of_coercing(
    broker: Broker, mqtt_config: Any, rhasspy: Rhasspy
) -> None:
    with RunningDaemon(hermes_config(mqtt_config, hermes_execute=True)) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        rhasspy.ready()
        qid = rhasspy.query("turn on the kitchen light", intentFilter=["set_fan"])
        (nr,) = rhasspy.wait("hermes/nlu/intentNotRecognized", qid)
        assert nr["sessionId"] == f"s-{qid}"
        (err,) = rhasspy.wait("hermes/error/nlu", f"s-{qid}")
        assert "filtered" in err["error"] and "set_light" in err["error"]
        assert [t for t, _ in rhasspy.everything_for(qid) if t.startswith("hermes/intent/")] == []
        assert lights(d)["kitchen"]["on"] is False  # never executed either
        assert d.daemon.registry.states()["set_fan"]["on"] is False

        # inside the filter: recognised and, with hermes_execute, run
        qid = rhasspy.query("turn on the kitchen light", intentFilter=["set_fan", "set_light"])
        rhasspy.wait("hermes/intent/set_light", qid)
        assert wait_for(lambda: lights(d)["kitchen"]["on"] is True, WAIT)

        # a filter that is not a list of names is an error, not "no filter"
        qid = rhasspy.query("turn off the kitchen light", intentFilter="set_light")
        (err,) = rhasspy.wait("hermes/error/nlu", f"s-{qid}")
        assert "intentFilter" in err["error"]
        assert lights(d)["kitchen"]["on"] is True


def test_errors_go_to_hermes_error_nlu_and_end_the_session(
    broker: Broker, mqtt_config: Any, rhasspy: Rhasspy
) -> None:
    with RunningDaemon(hermes_config(mqtt_config)) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        rhasspy.ready()
        qid = rhasspy.query("error model broke")
        (err,) = rhasspy.wait("hermes/error/nlu", f"s-{qid}")
        assert err["error"].startswith("model_error") and err["context"] == "error model broke"
        assert err["siteId"] == "default"
        # the dialogue manager waits for intentParsed or intentNotRecognized, not for errors
        rhasspy.wait("hermes/nlu/intentNotRecognized", qid)

        rhasspy.client.publish("hermes/nlu/query", b'{"input": "half a quer', qos=0)
        assert wait_for(
            lambda: any("malformed" in e["error"] for e in rhasspy.out("hermes/error/nlu")), WAIT
        )
        rhasspy.client.publish("hermes/nlu/query", {"input": 5, "sessionId": "bad"}, qos=0)
        (err,) = rhasspy.wait("hermes/error/nlu", "bad")
        assert "'input'" in err["error"]
        # still serving
        qid = rhasspy.query("dim the bedroom to 30")
        rhasspy.wait("hermes/intent/set_light", qid)


def test_site_id_filter_leaves_other_sites_to_their_own_nlu(
    broker: Broker, mqtt_config: Any, rhasspy: Rhasspy
) -> None:
    cfg = hermes_config(mqtt_config, hermes_site_ids=["kitchen", "den"])
    with RunningDaemon(cfg) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        rhasspy.ready(site="den")
        other = rhasspy.query("dim the bedroom to 30", siteId="garage")
        default = rhasspy.query("dim the bedroom to 30")  # no siteId means "default"
        mine = rhasspy.query("dim the bedroom to 30", siteId="den")
        (intent,) = rhasspy.wait("hermes/intent/set_light", mine)
        assert intent["siteId"] == "den"
        assert rhasspy.everything_for(other) == [] and rhasspy.everything_for(default) == []
        assert d.daemon.mqtt.hermes.dropped == 2


def test_query_that_waited_too_long_in_the_queue_is_dropped_not_executed(
    broker: Broker, mqtt_config: Any, rhasspy: Rhasspy
) -> None:
    cfg = hermes_config(mqtt_config, hermes_execute=True, hermes_max_age=0.5)
    with RunningDaemon(cfg) as d:
        assert d.daemon.mqtt.connected.wait(WAIT)
        rhasspy.ready()
        client = MqttClient(broker.port)
        client.publish(f"needled/{cfg.mqtt.node_id}/command", "sleep 1.5")  # the worker is busy
        assert wait_for(lambda: d.completer.seen[-1] == "sleep 1.5", WAIT)
        qid = rhasspy.query("turn on the kitchen light")
        (err,) = rhasspy.wait("hermes/error/nlu", f"s-{qid}")
        assert err["error"].startswith("expired")
        rhasspy.wait("hermes/nlu/intentNotRecognized", qid)
        assert d.completer.seen[-1] == "sleep 1.5"  # the model never even saw it
        assert lights(d)["kitchen"]["on"] is False
        # a query that arrives while the worker is free is served as usual
        qid = rhasspy.query("turn on the kitchen light")
        rhasspy.wait("hermes/intent/set_light", qid)
        assert wait_for(lambda: lights(d)["kitchen"]["on"] is True, WAIT)
        client.close()


def test_queries_take_queue_slots_like_commands_and_give_them_back(
    broker: Broker, mqtt_config: Any, rhasspy: Rhasspy
) -> None:
    """A Hermes query holds one of the Receive Maximum slots until answered, like a command.
    With the queue filled by queries, QoS 1 commands wait (at the broker, or unacknowledged in
    needled) instead of overflowing the queue as ``busy``; each answer frees its slot, so a
    second round behaves like the first."""
    cfg = mqtt_config(limits={"queue_size": 4}, mqtt={"hermes": True, "discovery": False})
    node = cfg.mqtt.node_id
    with RunningDaemon(cfg) as d:
        m, p = d.daemon.mqtt, d.daemon.pipeline
        assert m.connected.wait(WAIT)
        rhasspy.ready()
        client = MqttClient(broker.port)
        client.subscribe(f"needled/{node}/result")
        for rnd in range(2):
            client.publish(f"needled/{node}/command", {"id": f"hold{rnd}", "text": "sleep 1.5"})
            assert wait_for(lambda: d.completer.seen[-1:] == ["sleep 1.5"], WAIT)
            qids = [rhasspy.query("what is love") for _ in range(3)]
            assert wait_for(lambda: p.pending() == 3, WAIT)  # the queries, queued
            infos = [
                client.publish(f"needled/{node}/command", {"id": f"{rnd}-{i}", "text": "fan on"})
                for i in range(6)
            ]
            for info in infos:
                info.wait_for_publish(WAIT)
            time.sleep(0.3)
            assert p.counts["busy"] == 0
            assert p.pending() == 3  # the commands wait for the queries' slots
            for qid in qids:
                rhasspy.wait("hermes/nlu/intentNotRecognized", qid)
            ids = [f"hold{rnd}"] + [f"{rnd}-{i}" for i in range(6)]
            assert wait_for(
                lambda ids=ids: (
                    {r["id"] for r in client.json_on(f"needled/{node}/result")} >= set(ids)
                ),
                10,
            )
            assert wait_for(lambda: m.unacked() == 0 and m.held() == 0, WAIT)
        replies = client.json_on(f"needled/{node}/result")
        assert len(replies) == 14
        assert all(r["envelope"]["error_code"] is None for r in replies), replies
        client.close()


@pytest.mark.slow
@pytest.mark.parametrize("queue_qos0", [False, True], ids=["mosquitto-default", "queue-qos0"])
def test_queries_sent_while_needled_was_away_or_retained_are_never_acted_on(
    tmp_path: Path, queue_qos0: bool
) -> None:
    """Before: a query published while the daemon was down waited in its persistent session and
    ran when it came back (up to session_expiry, 7 days, later). Now neither a broker that holds
    queries for the session (mosquitto's queue_qos0_messages, EMQX's default) nor a retained
    query makes it act."""
    if not Path(MOSQUITTO).exists():
        pytest.skip(f"mosquitto not installed at {MOSQUITTO}")
    broker = Broker(tmp_path / "broker")
    if queue_qos0:
        broker.conf.write_text(broker.conf.read_text() + "queue_qos0_messages true\n")
    broker.start()
    rhasspy = Rhasspy(broker.port)
    try:
        node = f"t{uuid.uuid4().hex[:8]}"
        mqtt = {"enabled": True, "port": broker.port, "node_id": node, "reconnect_max": 2}
        mqtt.update({"hermes": True, "hermes_execute": True, "discovery": False})
        cfg = make_config(mqtt=mqtt)
        with RunningDaemon(cfg) as d:  # the session (and its subscriptions) now exists
            assert d.daemon.mqtt.connected.wait(WAIT)
            rhasspy.ready()
        # needled is away: a query at QoS 1, one at QoS 0, and a retained one
        away = [
            rhasspy.query("turn on the kitchen light", qos=1),
            rhasspy.query("dim the bedroom to 30", qos=0),
            rhasspy.query("make the living room blue", qos=1, retain=True),
        ]
        wait_for(lambda: False, 0.3)
        with RunningDaemon(cfg) as d:
            assert d.daemon.mqtt.connected.wait(WAIT)
            rhasspy.ready()
            assert d.daemon.mqtt.session_present is True
            fresh = rhasspy.query("turn off the kitchen light")
            rhasspy.wait("hermes/intent/set_light", fresh)
            for qid in away:
                assert rhasspy.everything_for(qid) == [], qid
            seen = set(d.completer.seen)
            assert "turn off the kitchen light" in seen
            assert not seen & {
                "turn on the kitchen light",
                "dim the bedroom to 30",
                "make the living room blue",
            }
            states = lights(d)
            assert states["bedroom"]["brightness"] == 100
            assert states["living room"]["color"] != "blue"
    finally:
        rhasspy.close()
        broker.stop()


def test_hermes_max_age_and_site_ids_are_checked_config() -> None:
    from agent.service.config import ConfigError

    with pytest.raises(ConfigError, match="mqtt.hermes_max_age"):
        make_config(mqtt={"hermes_max_age": 0})
    with pytest.raises(ConfigError, match="mqtt.hermes_site_ids"):
        make_config(mqtt={"hermes_site_ids": "kitchen"})
    with pytest.raises(ConfigError, match="mqtt.hermes_site_ids"):
        make_config(mqtt={"hermes_site_ids": ["kitchen", ""]})
    cfg = make_config(mqtt={"hermes_site_ids": ["kitchen"], "hermes_max_age": 3})
    assert cfg.mqtt.hermes_site_ids == ("kitchen",) and cfg.mqtt.hermes_max_age == 3
