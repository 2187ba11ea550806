"""Resent command ids: answered again (marked replay), never run twice, across restarts too.

The window of ids lives in the state directory (agent.service.dedup). The process tests kill a real
daemon child with SIGKILL or SIGTERM on a real broker and count executions where they happen:
the Tasmota plug's ``cmnd/`` topic, which the daemon publishes once per execution.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from daemon_fixtures import (
    ROOT,
    MqttClient,
    RunningDaemon,
    config_dict,
    make_config,
    to_toml,
    wait_for,
)
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from test_pipeline import Inbox, make_pipeline
from test_serial import Wire, serial_daemon  # noqa: F401 - fixture "serial_daemon"

from agent.service import wirejson
from agent.service.dedup import DONE, STARTED, DedupWindow, command_key
from agent.service.pipeline import Command, Pipeline, Submit
from devices import build_registry

# --- the window on disk -------------------------------------------------------------------------


def test_command_key_keeps_the_json_type() -> None:
    keys = {command_key("mqtt", i) for i in (7, "7", True, 1, b"7", "c:37", "b:true")}
    assert len(keys) == 7
    assert command_key("mqtt", None) is None and command_key("mqtt", "") is None
    assert command_key("mqtt", 7) != command_key("serial", 7)


def test_window_reads_back_what_it_wrote_and_skips_a_torn_line(tmp_path: Path) -> None:
    path = tmp_path / "state" / "dedup.jsonl"
    w = DedupWindow(8, path)
    w.done(("mqtt", "s:a"), {"id": "a", "results": [{"ok": True}]})
    w.started(("mqtt", "i:7"))
    w.queued(("mqtt", "s:queued"))  # nothing ran: not kept across a restart
    w.close()
    with open(path, "ab") as f:
        f.write(b'{"k": ["mqtt", "s:torn"], "s": "do')  # killed mid-write
    w2 = DedupWindow(8, path)
    a = w2.get(("mqtt", "s:a"))
    assert a is not None and a.state == DONE and not a.live
    assert a.reply_dict() == {"id": "a", "results": [{"ok": True}]}
    seven = w2.get(("mqtt", "i:7"))
    assert seven is not None and seven.state == STARTED and not seven.live
    assert w2.get(("mqtt", "s:queued")) is None and w2.get(("mqtt", "s:torn")) is None
    assert len(w2) == 2
    w2.close()


def test_window_file_stays_bounded(tmp_path: Path) -> None:
    path = tmp_path / "dedup.jsonl"
    w = DedupWindow(10, path)
    for i in range(500):
        w.started(("serial", f"i:{i}"))
        w.done(("serial", f"i:{i}"), {"id": i})
    w.close()
    lines = path.read_bytes().splitlines()
    assert len(lines) <= 2 * 10 + 64 + 1
    w2 = DedupWindow(10, path)
    assert len(w2) == 10 and w2.get(("serial", "i:499")) is not None
    assert w2.get(("serial", "i:489")) is None
    w2.close()


def _pipeline(path: Path, **sections: Any) -> tuple[Pipeline, Any, Any]:
    from daemon_fixtures import PhraseCompleter

    cfg = make_config(**sections)
    reg = build_registry(cfg.devices, timeout=cfg.limits.handler_timeout)
    comp = PhraseCompleter(reg.tools())
    p = Pipeline(reg, comp, cfg.limits, cfg.security, dedup_path=path)
    p.start()
    return p, reg, comp


def test_a_restarted_pipeline_replays_and_never_reruns(tmp_path: Path) -> None:
    path = tmp_path / "dedup.jsonl"
    p1, _, _ = _pipeline(path)
    inbox = Inbox()
    p1.submit(Command("fan on high", "mqtt", inbox, id=7))
    (first,) = inbox.wait(1)
    # a process killed while a handler ran: "started" is on disk, its reply is not
    p1._window.started(("mqtt", "s:cut"))
    p1.shutdown()

    p2, reg2, comp2 = _pipeline(path)
    assert p2.submit(Command("fan on high", "mqtt", inbox, id=7)) is Submit.DUPLICATE
    assert p2.submit(Command("fan on high", "mqtt", inbox, id="cut")) is Submit.DUPLICATE
    assert p2.submit(Command("fan on high", "mqtt", inbox, id="7")) is Submit.ACCEPTED
    replay, unknown, fresh = inbox.wait(4)[1:]
    assert replay == {**first, "replay": True}
    assert unknown["replay"] is True and unknown["id"] == "cut"
    assert unknown["envelope"]["error_code"] == "outcome_unknown"
    assert "not run again" in unknown["envelope"]["error"]
    assert fresh["id"] == "7" and "replay" not in fresh and fresh["results"][0]["ok"]
    assert comp2.seen == ["fan on high"]  # only "7" (the string) ran in the new process
    p2.shutdown()


def test_an_unwritable_state_dir_is_logged_and_serving_goes_on(tmp_path: Path, caplog) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    p, _, _ = _pipeline(blocker / "dedup.jsonl")
    inbox = Inbox()
    p.submit(Command("fan on high", "serial", inbox, id=1))
    p.submit(Command("fan on high", "serial", inbox, id=1))
    r = inbox.wait(2)
    assert r[0]["results"][0]["ok"] and r[1]["replay"] is True
    assert any("de-duplication window" in m for m in caplog.messages)
    p.shutdown()


def test_duplicate_flood_of_a_running_command_is_bounded() -> None:
    p, _, comp = make_pipeline(limits={"queue_size": 4})
    inbox = Inbox()
    p.submit(Command("sleep 0.3", "mqtt", inbox, id="s"))
    statuses = Counter(p.submit(Command("sleep 0.3", "mqtt", inbox, id="s")) for _ in range(10))
    assert statuses == {Submit.DUPLICATE: 4, Submit.BUSY: 6}
    replies = inbox.wait(11)
    assert len(replies) == 11 and comp.seen == ["sleep 0.3"]
    assert sum(bool(r.get("replay")) for r in replies) == 4
    assert sum(r["envelope"]["error_code"] == "busy" for r in replies) == 6
    p.shutdown()


# --- over-size payloads keep their id ------------------------------------------------------------


def test_leading_id_reads_only_the_top_level() -> None:
    big = "x" * 100_000
    assert wirejson.leading_id(json.dumps({"id": 7, "text": big}).encode()) == 7
    assert wirejson.leading_id(json.dumps({"id": "7", "text": big}).encode()) == "7"
    inner = {"text": 'say "id": 5', "meta": {"id": 3}, "id": "outer"}
    assert wirejson.leading_id(json.dumps(inner).encode()) == "outer"
    assert wirejson.leading_id(json.dumps({"text": big, "id": 9}).encode()) is None  # past 64K
    assert wirejson.leading_id(json.dumps({"id": True}).encode()) is None
    assert wirejson.leading_id(b"not json") is None
    assert wirejson.leading_id(b'{"id": "cut') is None
    assert wirejson.leading_id(b'{"id": "\\ud800", "text": "x"}') is None  # not writable back


@pytest.mark.mqtt
def test_oversize_mqtt_payload_reply_keeps_id_and_correlation(broker, mqtt_config) -> None:
    cfg = mqtt_config(limits={"line_length": 100})
    base = f"needled/{cfg.mqtt.node_id}"
    with RunningDaemon(cfg) as d:
        assert d.daemon.mqtt.connected.wait(5)
        client = MqttClient(broker.port)
        client.subscribe(f"{base}/result")
        props = Properties(PacketTypes.PUBLISH)
        props.CorrelationData = b"req-1"
        client.publish(f"{base}/command", {"id": "big-1", "text": "x" * 5000}, properties=props)
        client.publish(f"{base}/command", {"id": 42, "text": "y" * 5000})
        a, b = client.wait_json(f"{base}/result", 2)
        assert a["envelope"]["error_code"] == "too_long" and a["id"] == "big-1"
        assert client.on(f"{base}/result")[0].properties.CorrelationData == b"req-1"
        assert b["envelope"]["error_code"] == "too_long" and b["id"] == 42
        client.close()


def test_oversize_serial_line_reply_keeps_id(serial_daemon) -> None:  # noqa: F811
    _, wire, _ = serial_daemon
    wire.send(json.dumps({"id": "long-1", "text": "x" * 500}) + "\n")
    wire.send("fan on high\n")
    a, b = wire.wait(2)
    assert a["envelope"]["error_code"] == "too_long" and a["id"] == "long-1"
    assert b["results"][0]["ok"]


# --- over MQTT: replays, and a daemon process killed and restarted ------------------------------


@pytest.mark.mqtt
def test_mqtt_resend_gets_the_reply_again_marked_replay(broker, mqtt_config) -> None:
    cfg = mqtt_config()
    cmd, result = f"needled/{cfg.mqtt.node_id}/command", f"needled/{cfg.mqtt.node_id}/result"
    app = f"needled/{cfg.mqtt.node_id}/reply/app"  # replies may only go under the reply prefix
    with RunningDaemon(cfg, delay=0.05) as d:
        assert d.daemon.mqtt.connected.wait(5)
        client = MqttClient(broker.port)
        client.subscribe(result)
        client.subscribe(app)
        for _ in range(3):
            client.publish(cmd, {"id": "same", "text": "fan on high"})
        client.publish(cmd, {"id": "other", "text": "fan on high"})
        # MQTT 5 Correlation Data identifies a resend when there is no JSON id
        props = Properties(PacketTypes.PUBLISH)
        props.ResponseTopic = app
        props.CorrelationData = b"\x01corr"
        for _ in range(2):
            client.publish(cmd, "turn on the kitchen light", properties=props)
        replies = client.wait_json(result, 4)
        assert wait_for(lambda: len(client.on(app)) == 2)
        assert Counter((r["id"], bool(r.get("replay"))) for r in replies) == {
            ("same", False): 1,
            ("same", True): 2,
            ("other", False): 1,
        }
        by_corr = client.on(app)
        assert [m.properties.CorrelationData for m in by_corr] == [b"\x01corr"] * 2
        assert [bool(json.loads(m.payload).get("replay")) for m in by_corr] == [False, True]
        assert d.completer.seen.count("fan on high") == 2
        assert d.completer.seen.count("turn on the kitchen light") == 1
        client.close()


def _plug_config(broker_port: int, node: str, confirm_timeout: float, **limits: Any) -> dict:
    data = config_dict(
        mqtt={"enabled": True, "port": broker_port, "node_id": node, "discovery": False},
        limits=limits,
    )
    data["devices"] = {
        "plugs": {
            "kind": "tasmota",
            "switches": {"plug": "plug1"},
            "confirm_timeout": confirm_timeout,
        }
    }
    return data


class Child:
    """``daemon_fixtures.py`` as a daemon process with a state directory."""

    def __init__(self, tmp_path: Path, data: dict, delay: float = 0.0) -> None:
        self.cfg = tmp_path / "needled.toml"
        self.cfg.write_text(to_toml(data))
        self.state = tmp_path / "state"
        self.delay = delay
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT), NEEDLED_STATE_DIR=str(self.state))
        env.pop("NOTIFY_SOCKET", None)
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "daemon_fixtures.py"), str(self.cfg)]
            + [str(self.delay)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def stop(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)
        self.proc.wait(30)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def _online(client: MqttClient, node: str, count: int) -> bool:
    msgs = client.on(f"needled/{node}/status")
    return sum(m.payload == b"online" for m in msgs) >= count


@pytest.mark.slow
@pytest.mark.mqtt
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_resends_after_a_restart_are_answered_and_not_run_again(broker, tmp_path, sig) -> None:
    node = f"d{uuid.uuid4().hex[:6]}"
    child = Child(tmp_path, _plug_config(broker.port, node, 0.05))
    client = MqttClient(broker.port)
    try:
        client.subscribe(f"needled/{node}/result")
        client.subscribe(f"needled/{node}/status")
        client.subscribe("cmnd/plug1/POWER")
        child.start()
        assert wait_for(lambda: _online(client, node, 1), 20)
        ids = list(range(10))
        for i in ids:
            client.publish(f"needled/{node}/command", {"id": i, "text": "switch the plug on"})
        first = client.wait_json(f"needled/{node}/result", 10, timeout=30)
        assert sorted(r["id"] for r in first) == ids and not any(r.get("replay") for r in first)
        assert len(client.on("cmnd/plug1/POWER")) == 10
        child.stop(sig)

        child.start()
        assert wait_for(lambda: _online(client, node, 2), 20)
        for i in ids:  # the client never saw its replies, say, and sends everything again
            client.publish(f"needled/{node}/command", {"id": i, "text": "switch the plug on"})
        # "3" is not 3: a new command, run once
        client.publish(f"needled/{node}/command", {"id": "3", "text": "switch the plug on"})
        client.wait_json(f"needled/{node}/result", 21, timeout=30)
        time.sleep(0.5)  # anything that ran again would show up now
        # (a reply whose acknowledgement was cut off by the kill is also replayed once more
        # when the broker redelivers the command, so count ids, not messages)
        again = client.json_on(f"needled/{node}/result")[10:]
        replays = {r["id"]: r for r in again if r.get("replay")}
        assert sorted(replays) == ids
        for r in first:
            assert replays[r["id"]] == {**r, "replay": True}
        (fresh,) = [r for r in again if not r.get("replay")]
        assert fresh["id"] == "3" and fresh["results"][0]["ok"]
        assert wait_for(lambda: len(client.on("cmnd/plug1/POWER")) >= 11, 5)
        assert len(client.on("cmnd/plug1/POWER")) == 11  # 10 + the one new command
        child.stop(signal.SIGTERM)
        assert child.proc is not None and child.proc.returncode == 0
    finally:
        child.kill()
        client.close()


@pytest.mark.slow
@pytest.mark.mqtt
def test_sigkill_while_a_handler_runs_answers_outcome_unknown(broker, tmp_path) -> None:
    node = f"u{uuid.uuid4().hex[:6]}"
    # the plug never confirms: the handler waits its 10 s while the daemon is killed
    child = Child(tmp_path, _plug_config(broker.port, node, 10.0))
    client = MqttClient(broker.port)
    try:
        client.subscribe(f"needled/{node}/result")
        client.subscribe(f"needled/{node}/status")
        client.subscribe("cmnd/plug1/POWER")
        child.start()
        assert wait_for(lambda: _online(client, node, 1), 20)
        client.publish(f"needled/{node}/command", {"id": "k1", "text": "switch the plug on"})
        assert wait_for(lambda: client.on("cmnd/plug1/POWER"), 10)  # the handler is running
        child.stop(signal.SIGKILL)
        assert client.on(f"needled/{node}/result") == []

        child.start()
        # the broker redelivers the unacknowledged command; the client also sends it again
        assert wait_for(lambda: _online(client, node, 2), 20)
        client.publish(f"needled/{node}/command", {"id": "k1", "text": "switch the plug on"})
        replies = client.wait_json(f"needled/{node}/result", 2, timeout=20)
        assert len(replies) == 2
        for r in replies:
            assert r["id"] == "k1" and r["replay"] is True
            assert r["envelope"]["error_code"] == "outcome_unknown"
        assert len(client.on("cmnd/plug1/POWER")) == 1  # never switched a second time
    finally:
        child.kill()
        client.close()


@pytest.mark.slow
@pytest.mark.mqtt
def test_queued_commands_run_once_across_a_sigkill(broker, tmp_path) -> None:
    """A burst is queued at the broker and in the daemon; killed midway and restarted, every
    command is answered and none runs twice (the broker redelivers what was not acknowledged)."""
    node = f"q{uuid.uuid4().hex[:6]}"
    child = Child(tmp_path, _plug_config(broker.port, node, 0.01), delay=0.02)
    client = MqttClient(broker.port)
    n = 120
    try:
        client.subscribe(f"needled/{node}/result")
        client.subscribe(f"needled/{node}/status")
        client.subscribe("cmnd/plug1/POWER")
        child.start()
        assert wait_for(lambda: _online(client, node, 1), 20)
        for i in range(n):
            client.publish(f"needled/{node}/command", {"id": f"b{i}", "text": "switch the plug on"})
        assert wait_for(lambda: len(client.on(f"needled/{node}/result")) >= 30, 30)
        child.stop(signal.SIGKILL)

        child.start()

        def answered() -> set[str]:
            return {
                r["id"]
                for r in client.json_on(f"needled/{node}/result")
                if r["envelope"]["error_code"] != "busy"
            }

        for _ in range(10):
            if wait_for(lambda: len(answered()) == n, 5):
                break
            # "busy" asks the client to send again later: do what a client does
            for i in range(n):
                if f"b{i}" not in answered():
                    msg = {"id": f"b{i}", "text": "switch the plug on"}
                    client.publish(f"needled/{node}/command", msg)
        assert len(answered()) == n, sorted(answered())
        time.sleep(0.5)  # anything run twice would show up now
        replies = client.json_on(f"needled/{node}/result")
        codes = {r["envelope"]["error_code"] for r in replies}
        assert codes <= {None, "outcome_unknown", "busy"}, codes
        ran = {r["id"] for r in replies if not r.get("replay") and r["results"]}
        unknown = {r["id"] for r in replies if r["envelope"]["error_code"] == "outcome_unknown"}
        assert len(unknown) <= 1  # at most the one in a handler at the kill
        executions = len(client.on("cmnd/plug1/POWER"))
        assert len(ran) <= executions <= len(ran) + len(unknown)
        # no id got two fresh (non-replay) executions
        fresh = Counter(r["id"] for r in replies if not r.get("replay") and r["results"])
        assert max(fresh.values()) == 1
    finally:
        child.kill()
        client.close()


def test_a_window_turned_on_by_reload_keeps_what_is_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "dedup.jsonl"
    w = DedupWindow(4, path)
    w.done(("mqtt", "s:a"), {"id": "a"})
    w.close()
    off = DedupWindow(0, path)  # dedup_size = 0 at start: nothing read, nothing written
    off.done(("mqtt", "s:b"), {"id": "b"})
    assert off.get(("mqtt", "s:a")) is None and len(off) == 0
    off.resize(4)
    off.done(("mqtt", "s:c"), {"id": "c"})
    off.close()
    back = DedupWindow(4, path)
    assert back.get(("mqtt", "s:a")) is not None and back.get(("mqtt", "s:c")) is not None
    assert back.get(("mqtt", "s:b")) is None
    back.close()


def test_ids_and_texts_with_lone_surrogates_are_recorded(tmp_path: Path) -> None:
    """JSON lets a client send "\\ud800"; such an id must neither stop the worker nor the
    window's file, and a resend is still replayed, after a restart too."""
    path = tmp_path / "dedup.jsonl"
    p, _, comp = _pipeline(path)
    inbox = Inbox()
    p.submit(Command("fan on high", "mqtt", inbox, id="ok\ud800"))
    p.submit(Command("fan on high \udfff", "mqtt", inbox, id=5))
    p.submit(Command("fan on high", "mqtt", inbox, id="ok\ud800"))
    r = inbox.wait(3)
    # the resend waited for the first copy and was answered right after it
    assert r[0]["results"][0]["ok"] and r[1] == {**r[0], "replay": True}
    assert r[2]["id"] == 5 and len(comp.seen) == 2
    p.shutdown()
    p2, _, comp2 = _pipeline(path)
    p2.submit(Command("fan on high", "mqtt", inbox, id="ok\ud800"))
    assert inbox.wait(4)[3] == {**r[0], "replay": True} and comp2.seen == []
    p2.shutdown()
