"""The command pipeline: order, busy, exactly one reply, ACL, dedup, shutdown."""

from __future__ import annotations

import threading
import time
from collections import Counter

from daemon_fixtures import PhraseCompleter, make_config

from agent.service.pipeline import Command, Pipeline, Submit
from devices import build_registry


def make_pipeline(delay: float = 0.0, **sections):
    cfg = make_config(**sections)
    reg = build_registry(cfg.devices, timeout=cfg.limits.handler_timeout)
    comp = PhraseCompleter(reg.tools(), delay)
    p = Pipeline(reg, comp, cfg.limits, cfg.security)
    p.start()
    return p, reg, comp


class Inbox:
    def __init__(self) -> None:
        self.replies: list[dict] = []
        self.lock = threading.Lock()
        self.done = threading.Condition(self.lock)

    def __call__(self, payload: dict) -> None:
        with self.lock:
            self.replies.append(payload)
            self.done.notify_all()

    def wait(self, n: int, timeout: float = 10) -> list[dict]:
        with self.lock:
            self.done.wait_for(lambda: len(self.replies) >= n, timeout)
            return list(self.replies)


def test_text_to_call_to_state_to_reply() -> None:
    p, reg, _ = make_pipeline()
    inbox = Inbox()
    assert p.submit(Command("Turn on the kitchen light", "mqtt", inbox, id="a1")) is Submit.ACCEPTED
    (reply,) = inbox.wait(1)
    assert reply["id"] == "a1" and reply["text"] == "Turn on the kitchen light"
    env = reply["envelope"]
    assert env["type"] == "call" and env["function_calls"][0]["name"] == "set_light"
    assert set(env) >= {"success", "error", "error_code", "confidence", "peak_ram_mb"}
    assert reply["results"][0]["ok"] and reply["results"][0]["result"]["on"] is True
    assert reg.states()["set_light"]["kitchen"]["on"] is True
    p.shutdown()


def test_one_result_per_executed_call_and_handler_errors() -> None:
    p, reg, _ = make_pipeline()
    inbox = Inbox()
    p.submit(Command("lights on in kitchen and bathroom", "serial", inbox))
    p.submit(Command("set the heating to 99", "serial", inbox))  # schema violation by "model"
    p.submit(Command("explode", "serial", inbox))
    p.submit(Command("something unrelated", "serial", inbox))
    r = inbox.wait(4)
    assert [x["ok"] for x in r[0]["results"]] == [True, True]
    assert r[1]["results"][0]["error_code"] == "invalid_arguments"
    assert r[2]["envelope"]["error_code"] == "completer_failed" and r[2]["results"] == []
    assert r[3]["envelope"]["type"] == "respond" and r[3]["results"] == []
    p.shutdown()


def test_arrival_order_and_busy_never_dropped() -> None:
    p, _, comp = make_pipeline(delay=0.002, limits={"queue_size": 64})
    inbox = Inbox()
    statuses = Counter()
    n = 1000
    for i in range(n):
        statuses[p.submit(Command(f"cmd {i}", "mqtt", inbox, id=i))] += 1
    replies = inbox.wait(n, 30)
    assert len(replies) == n
    ids = Counter(r["id"] for r in replies)
    assert set(ids) == set(range(n)) and max(ids.values()) == 1  # exactly one reply each
    busy = [r for r in replies if r["envelope"]["error_code"] == "busy"]
    assert len(busy) == statuses[Submit.BUSY] > 0
    assert "busy" in busy[0]["envelope"]["error"]
    served = [r["id"] for r in replies if r["envelope"]["error_code"] != "busy"]
    assert served == sorted(served)  # FIFO
    assert comp.seen == [f"cmd {i}" for i in served]
    p.shutdown()


def test_duplicate_ids_run_once_per_source_and_every_copy_is_answered() -> None:
    p, _, comp = make_pipeline(delay=0.05)
    inbox = Inbox()
    assert p.submit(Command("fan on high", "mqtt", inbox, id="x")) is Submit.ACCEPTED
    # a resend while the first copy is still running waits for its reply
    assert p.submit(Command("fan on high", "mqtt", inbox, id="x")) is Submit.DUPLICATE
    first, second = inbox.wait(2)
    assert "replay" not in first and second["replay"] is True
    assert second["results"] == first["results"] and second["id"] == "x"
    # a resend after the reply gets it again at once
    assert p.submit(Command("fan on high", "mqtt", inbox, id="x")) is Submit.DUPLICATE
    assert inbox.replies[2] == {**first, "replay": True}
    # the same id from another source is another command
    assert p.submit(Command("fan on high", "serial", inbox, id="x")) is Submit.ACCEPTED
    fourth = inbox.wait(4)[3]
    assert "replay" not in fourth
    time.sleep(0.2)
    assert len(inbox.replies) == 4 and comp.seen.count("fan on high") == 2
    p.shutdown()


def test_id_types_are_distinct_keys() -> None:
    """``7``, ``"7"``, ``true``/``1`` and Correlation Data bytes are different commands."""
    p, _, comp = make_pipeline()
    inbox = Inbox()
    for ident in (7, "7", 1, True, b"7", "c:37"):
        assert p.submit(Command("fan on high", "mqtt", inbox, id=ident)) is Submit.ACCEPTED
    replies = inbox.wait(6)
    assert [r["id"] for r in replies] == [7, "7", 1, True, b"7", "c:37"]
    assert not any(r.get("replay") for r in replies) and len(comp.seen) == 6
    # correlation data (no JSON id) de-duplicates as its own type too
    assert p.submit(Command("fan on high", "mqtt", inbox, dedup=b"7")) is Submit.DUPLICATE
    assert p.submit(Command("fan on high", "mqtt", inbox, dedup=b"8")) is Submit.ACCEPTED
    assert len(inbox.wait(8)) == 8 and len(comp.seen) == 7
    p.shutdown()


def test_dedup_memory_is_bounded() -> None:
    p, _, _ = make_pipeline(limits={"dedup_size": 10})
    inbox = Inbox()
    for i in range(50):
        p.submit(Command("x", "mqtt", inbox, id=i))
    inbox.wait(50)
    assert p.window_size() <= 10
    assert p.submit(Command("x", "mqtt", inbox, id=0)) is Submit.ACCEPTED  # long forgotten
    p.shutdown()


def test_duplicates_of_a_queued_command_share_its_shutdown_answer() -> None:
    p, _, comp = make_pipeline()
    inbox = Inbox()
    p.submit(Command("sleep 0.3", "mqtt", inbox, id="slow"))
    time.sleep(0.05)
    p.submit(Command("fan on high", "mqtt", inbox, id="q"))
    assert p.submit(Command("fan on high", "mqtt", inbox, id="q")) is Submit.DUPLICATE
    p.shutdown()
    codes = sorted(r["envelope"]["error_code"] or "ok" for r in inbox.replies)
    assert codes == ["ok", "shutting_down", "shutting_down"]
    assert comp.seen == ["sleep 0.3"]


def test_acl_limits_tools_per_source() -> None:
    p, reg, _ = make_pipeline(
        security={"acl": {"serial": ["set_fan"], "mqtt:kid": [], "default": ["*"]}}
    )
    inbox = Inbox()
    p.submit(Command("turn on the kitchen light", "serial", inbox))
    p.submit(Command("fan on high", "serial", inbox))
    p.submit(Command("fan on high", "mqtt:kid", inbox))
    p.submit(Command("turn on the kitchen light", "console", inbox))
    r = inbox.wait(4)
    # refused, not coerced into the one allowed tool
    assert r[0]["envelope"]["error_code"] == "not_allowed"
    assert "'serial'" in r[0]["envelope"]["error"] and "'set_light'" in r[0]["envelope"]["error"]
    assert r[0]["results"][0]["error_code"] == "not_allowed"
    assert reg.states()["set_light"]["kitchen"]["on"] is True  # the console's command ran
    assert r[1]["results"][0]["ok"]
    assert r[2]["envelope"]["error_code"] == "not_allowed"
    p.shutdown()


def test_acl_enforced_even_if_the_completer_ignores_it() -> None:
    p, reg, comp = make_pipeline(security={"acl": {"serial": ["set_fan"]}})
    comp.complete = lambda text, allowed_tools=None: {  # a misbehaving model side
        "type": "call",
        "success": True,
        "function_calls": [{"name": "set_light", "arguments": {"room": "kitchen", "on": True}}],
    }
    inbox = Inbox()
    p.submit(Command("anything", "serial", inbox))
    (r,) = inbox.wait(1)
    assert r["results"][0]["error_code"] == "not_allowed"
    assert reg.states()["set_light"]["kitchen"]["on"] is False
    p.shutdown()


def test_one_forbidden_call_refuses_the_whole_command() -> None:
    p, reg, _ = make_pipeline(security={"acl": {"serial": ["set_fan", "set_thermostat"]}})
    inbox = Inbox()
    p.submit(Command("lights on in kitchen and bathroom", "serial", inbox))
    (r,) = inbox.wait(1)
    assert r["envelope"]["type"] == "error" and r["envelope"]["error_code"] == "not_allowed"
    assert [x["error_code"] for x in r["results"]] == ["not_allowed", "not_executed"]
    assert not any(s["on"] for s in reg.states()["set_light"].values())
    p.shutdown()


def test_a_remapped_number_refuses_the_command() -> None:
    """A call whose number was fitted to the range (the grammar's 99 -> 9) runs nothing."""
    p, reg, comp = make_pipeline()
    comp.complete = lambda text, allowed_tools=None: {
        "type": "call",
        "success": True,
        "function_calls": [
            {"name": "set_light", "arguments": {"room": "kitchen", "on": True}},
            {"name": "set_thermostat", "arguments": {"temperature": 9, "mode": "cool"}},
        ],
    }
    inbox = Inbox()
    p.submit(Command("kitchen light on and the thermostat to 99 degrees", "mqtt", inbox))
    (r,) = inbox.wait(1)
    env = r["envelope"]
    assert env["error_code"] == "out_of_range" and env["function_calls"] == []
    assert "temperature" in env["error"] and "99" in env["error"] and "5 to 30" in env["error"]
    assert [x["error_code"] for x in r["results"]] == ["not_executed", "out_of_range"]
    assert reg.states()["set_light"]["kitchen"]["on"] is False
    assert reg.states()["set_thermostat"]["target"] == 20
    p.shutdown()


def test_calls_below_min_confidence_are_refused_and_named() -> None:
    p, reg, comp = make_pipeline(limits={"min_confidence": 0.4})
    calls = [
        {"name": "set_light", "arguments": {"room": "kitchen", "on": True}},
        {"name": "set_fan", "arguments": {"on": True}},
    ]
    seen = {"confidence": 0.25}
    comp.complete = lambda text, allowed_tools=None: {
        "type": "call",
        "success": True,
        "function_calls": calls,
        "confidence": seen["confidence"],
    }
    inbox = Inbox()
    p.submit(Command("kitchen light and fan on", "mqtt", inbox))
    (r,) = inbox.wait(1)
    env = r["envelope"]
    assert env["error_code"] == "low_confidence" and env["confidence"] == 0.25
    assert "0.25" in env["error"] and "min_confidence 0.4" in env["error"]
    # every proposed call is named in the reply, none ran
    assert [(x["name"], x["error_code"]) for x in r["results"]] == [
        ("set_light", "low_confidence"),
        ("set_fan", "low_confidence"),
    ]
    assert reg.states()["set_light"]["kitchen"]["on"] is False
    # at or above the threshold, and without a head (None), the calls run
    for conf, light in ((0.4, True), (None, True)):
        reg.dispatch("set_light", {"room": "kitchen", "on": False})
        seen["confidence"] = conf
        p.submit(Command("kitchen light and fan on", "mqtt", inbox))
        r = inbox.wait(len(inbox.replies) + 1)[-1]
        assert r["envelope"]["type"] == "call", r
        assert reg.states()["set_light"]["kitchen"]["on"] is light
    p.shutdown()


def test_a_refusal_for_an_unnamed_room_says_which_name_was_never_said() -> None:
    p, reg, comp = make_pipeline()  # the default min_confidence
    comp.complete = lambda text, allowed_tools=None: {
        "type": "call",
        "success": True,
        "function_calls": [{"name": "set_light", "arguments": {"room": "kitchen", "on": True}}],
        "confidence": 0.1,
        "unnamed": [{"name": "set_light", "argument": "room", "value": "kitchen"}],
    }
    inbox = Inbox()
    p.submit(Command("turn on the light in Leo's room", "mqtt", inbox))
    (r,) = inbox.wait(1)
    env = r["envelope"]
    assert env["error_code"] == "low_confidence"
    assert "names none of" in env["error"] and "set_light.room='kitchen'" in env["error"]
    assert reg.states()["set_light"]["kitchen"]["on"] is False
    p.shutdown()


def test_below_confidence_is_the_one_rule_for_daemon_and_eval() -> None:
    from agent.calling.envelope import below_confidence

    assert below_confidence(0.39, 0.4) and not below_confidence(0.4, 0.4)
    assert not below_confidence(0.0, 0.0)  # 0: refuse nothing
    assert not below_confidence(None, 0.9)  # no head: nothing to judge by
    assert not below_confidence("0.1", 0.9)


def test_min_confidence_zero_runs_every_call() -> None:
    p, reg, comp = make_pipeline(limits={"min_confidence": 0})
    comp.complete = lambda text, allowed_tools=None: {
        "type": "call",
        "success": True,
        "function_calls": [{"name": "set_light", "arguments": {"room": "kitchen", "on": True}}],
        "confidence": 0.01,
    }
    inbox = Inbox()
    p.submit(Command("kitchen light on", "mqtt", inbox))
    (r,) = inbox.wait(1)
    assert r["envelope"]["type"] == "call"
    assert reg.states()["set_light"]["kitchen"]["on"] is True
    p.shutdown()


def test_rejects_empty_and_long_commands_at_once() -> None:
    p, _, _ = make_pipeline(limits={"line_length": 20})
    inbox = Inbox()
    assert p.submit(Command("   ", "mqtt", inbox)) is Submit.REJECTED
    assert p.submit(Command("x" * 21, "mqtt", inbox)) is Submit.REJECTED
    assert [r["envelope"]["error_code"] for r in inbox.replies] == ["empty_command", "too_long"]
    p.shutdown()


def test_shutdown_finishes_in_flight_and_answers_queued() -> None:
    p, _, comp = make_pipeline()
    inbox = Inbox()
    p.submit(Command("sleep 0.3", "mqtt", inbox, id="slow"))
    time.sleep(0.05)
    for i in range(5):
        p.submit(Command("fan on high", "mqtt", inbox, id=f"q{i}"))
    p.shutdown()
    replies = inbox.replies
    assert len(replies) == 6
    first = next(r for r in replies if r["id"] == "slow")
    assert first["envelope"]["error_code"] is None  # finished, not cut short
    queued = [r for r in replies if r["id"] != "slow"]
    assert all(r["envelope"]["error_code"] == "shutting_down" for r in queued)
    assert comp.seen == ["sleep 0.3"]
    assert p.submit(Command("fan on high", "mqtt", inbox)) is Submit.CLOSED
    assert inbox.replies[-1]["envelope"]["error_code"] == "shutting_down"


def test_health_tracks_a_stuck_worker() -> None:
    p, _, _ = make_pipeline(limits={"stall_timeout": 1})
    inbox = Inbox()
    assert p.healthy()
    p.submit(Command("sleep 1.5", "mqtt", inbox))
    time.sleep(1.2)
    assert not p.healthy()
    inbox.wait(1)
    assert p.healthy()
    p.shutdown()


def test_a_broken_reply_callback_does_not_kill_the_worker() -> None:
    p, _, _ = make_pipeline()
    inbox = Inbox()

    def broken(_payload: dict) -> None:
        raise OSError("socket gone")

    p.submit(Command("fan on high", "mqtt", broken))
    p.submit(Command("fan on high", "mqtt", inbox))
    assert len(inbox.wait(1)) == 1
    p.shutdown()


def test_console_prints_call_result_and_state() -> None:
    import io

    from daemon_fixtures import RunningDaemon, wait_for

    out = io.StringIO()
    stdin = io.StringIO("turn on the kitchen light\nwhat is the weather\n")
    cfg = make_config(console={"enabled": "on"})
    with RunningDaemon(cfg, console_io=(stdin, out)):
        assert wait_for(lambda: "no call" in out.getvalue(), 5)
    text = out.getvalue()
    assert 'call   set_light({"room": "kitchen", "on": true})' in text
    assert "result" in text and 'state  set_light: {"kitchen": {"on": true' in text


def test_reload_applies_new_config_and_survives_a_bad_one(tmp_path) -> None:
    from daemon_fixtures import RunningDaemon, config_dict, to_toml

    path = tmp_path / "needled.toml"
    path.write_text(to_toml(config_dict()))
    cfg = make_config()
    with RunningDaemon(cfg) as d:
        d.daemon.config_path = str(path)
        rooms = ["kitchen", "garage"]
        path.write_text(
            to_toml(
                config_dict(
                    devices={"lights": {"kind": "simulated_lights", "rooms": rooms}},
                    security={"acl": {"serial": []}},
                )
            )
        )
        assert d.daemon.reload()
        assert d.daemon.registry.names() == ["set_light"]
        assert d.completer.tools()[0]["parameters"]["properties"]["room"]["enum"] == rooms
        inbox = Inbox()
        d.daemon.pipeline.submit(Command("fan on high", "serial", inbox))
        assert inbox.wait(1)[0]["envelope"]["error_code"] == "not_allowed"
        path.write_text("[limits]\nqueue_size = -1\n")
        assert not d.daemon.reload()  # old config stays
        assert d.daemon.registry.names() == ["set_light"]


def test_a_dead_service_thread_stops_the_daemon_for_a_restart() -> None:
    """A transport thread that dies would leave the daemon deaf but alive: the daemon's
    ``threading.excepthook`` stops it with exit status 1 so ``Restart=on-failure`` replaces it."""
    from daemon_fixtures import RunningDaemon

    previous = threading.excepthook
    with RunningDaemon(make_config()) as d:
        threading.excepthook = d.daemon.on_thread_exception
        try:

            def crash() -> None:
                raise AttributeError("'NoneType' object has no attribute 'SSLWantReadError'")

            t = threading.Thread(target=crash, name="paho-mqtt-client-test")
            t.start()
            t.join()
            assert d.thread is not None
            d.thread.join(10)
            assert not d.thread.is_alive()
        finally:
            threading.excepthook = previous
        assert d.exit_code == 1
        assert d.daemon.thread_died == "paho-mqtt-client-test"


def test_a_call_without_a_tool_name_runs_nothing() -> None:
    p, reg, comp = make_pipeline()
    comp.complete = lambda text, allowed_tools=None: {
        "type": "call",
        "success": True,
        "function_calls": [{"name": "set_fan", "arguments": {"on": True}}, "junk"],
    }
    inbox = Inbox()
    p.submit(Command("fan on", "mqtt", inbox))
    (r,) = inbox.wait(1)
    assert r["envelope"]["error_code"] == "bad_envelope"
    assert [x["error_code"] for x in r["results"]] == ["not_executed", "bad_envelope"]
    assert reg.states()["set_fan"]["on"] is False
    p.shutdown()
