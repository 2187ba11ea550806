"""MQTT over TLS and with username/password from the config (issue 5), against a real mosquitto.

A throwaway PKI is made with the ``openssl`` CLI: a CA, a server certificate for 127.0.0.1 and
localhost, a second unrelated CA, and a certificate from the right CA for the wrong host name.
The brokers are real (``daemon_fixtures.Broker`` with a TLS listener and/or a password file);
the daemon is the in-process one the other transport tests use, and one test runs it as its own
process, the way ``needled run`` does.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from daemon_fixtures import (
    MOSQUITTO,
    MOSQUITTO_PASSWD,
    ROOT,
    Broker,
    RunningDaemon,
    config_dict,
    make_config,
    to_toml,
    wait_for,
)
from paho.mqtt.enums import CallbackAPIVersion

from agent.service.config import Config
from agent.service.pipeline import Command

pytestmark = pytest.mark.mqtt

OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"
KITCHEN_ON = [{"name": "set_light", "arguments": {"room": "kitchen", "on": True}}]
# what mosquitto logs when the client rejects its certificate (the client's TLS alert)
UNKNOWN_CA = "alert unknown ca"
HOST_MISMATCH = "alert bad certificate"
NOT_AUTHORISED = "not authorised"
DAEMON_USER, DAEMON_PASSWORD = "needled", "s3cret daemon pw"
CLIENT_USER, CLIENT_PASSWORD = "tester", "tester-pw"

# --- a throwaway PKI --------------------------------------------------------------------------

OPENSSL_CNF = """\
[req]
distinguished_name = dn
prompt = no
[dn]
CN = unused
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
subjectAltName = ${ENV::NEEDLED_TEST_SAN}
"""


@dataclass(frozen=True)
class Pki:
    ca: Path  # signs server.crt and wrong_name.crt
    other_ca: Path  # unrelated: trusts nothing the brokers present
    server_cert: Path  # IP:127.0.0.1, DNS:localhost
    server_key: Path
    wrong_name_cert: Path  # from the right CA, for a host that is not this one
    wrong_name_key: Path


def _openssl(workdir: Path, *args: str, san: str = "DNS:unused") -> None:
    env = dict(os.environ, NEEDLED_TEST_SAN=san)
    env.pop("OPENSSL_CONF", None)
    proc = subprocess.run(
        [OPENSSL, *args], cwd=workdir, env=env, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, f"openssl {' '.join(args)} failed:\n{proc.stderr}"


def _new_key_args(key: Path) -> list[str]:
    # P-256 keys: a fraction of the time of RSA, and every TLS stack speaks them
    return [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        str(key),
    ]


def make_ca(workdir: Path, name: str) -> tuple[Path, Path]:
    cert, key = workdir / f"{name}.crt", workdir / f"{name}.key"
    cnf = workdir / "openssl.cnf"
    _openssl(
        workdir,
        *["req", "-x509", "-new", *_new_key_args(key), "-out", str(cert)],
        *["-days", "2", "-subj", f"/CN=needled test {name}", "-config", str(cnf)],
        *["-extensions", "ca"],
    )
    return cert, key


def make_server_cert(
    workdir: Path, name: str, ca: tuple[Path, Path], san: str
) -> tuple[Path, Path]:
    cert, key, csr = workdir / f"{name}.crt", workdir / f"{name}.key", workdir / f"{name}.csr"
    cnf = workdir / "openssl.cnf"
    _openssl(
        workdir,
        *["req", "-new", *_new_key_args(key), "-out", str(csr)],
        *["-subj", f"/CN={name}", "-config", str(cnf)],
    )
    _openssl(
        workdir,
        *["x509", "-req", "-in", str(csr), "-CA", str(ca[0]), "-CAkey", str(ca[1])],
        *["-set_serial", f"0x{uuid.uuid4().hex[:16]}", "-days", "2", "-out", str(cert)],
        *["-extfile", str(cnf), "-extensions", "server"],
        san=san,
    )
    # the broker drops to Broker's `user` (this user) before it reads the key
    key.chmod(0o600)
    return cert, key


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    if not os.path.exists(OPENSSL):
        pytest.skip("the openssl command-line tool is not installed")
    d = tmp_path_factory.mktemp("pki")
    (d / "openssl.cnf").write_text(OPENSSL_CNF)
    ca = make_ca(d, "ca")
    other_ca, _ = make_ca(d, "other_ca")
    server = make_server_cert(d, "server", ca, "IP:127.0.0.1, DNS:localhost")
    wrong = make_server_cert(d, "wrong_name", ca, "DNS:broker.elsewhere.invalid")
    return Pki(ca[0], other_ca, *server, *wrong)


def _start_broker(workdir: Path, **options: Any) -> Iterator[Broker]:
    if not os.path.exists(MOSQUITTO):
        pytest.skip(f"mosquitto not installed at {MOSQUITTO}")
    if "passwords" in options and not os.path.exists(MOSQUITTO_PASSWD):
        pytest.skip(f"mosquitto_passwd not installed at {MOSQUITTO_PASSWD}")
    b = Broker(workdir, **options)
    b.start()
    try:
        yield b
    finally:
        b.stop()


@pytest.fixture
def tls_broker(tmp_path: Path, pki: Pki) -> Iterator[Broker]:
    """Anonymous access; a plain listener on ``port`` and a TLS one on ``tls_port``."""
    yield from _start_broker(
        tmp_path / "broker", cafile=pki.ca, certfile=pki.server_cert, keyfile=pki.server_key
    )


@pytest.fixture
def wrong_name_broker(tmp_path: Path, pki: Pki) -> Iterator[Broker]:
    """TLS with a certificate from the right CA, issued for another host name."""
    yield from _start_broker(
        tmp_path / "broker", cafile=pki.ca, certfile=pki.wrong_name_cert, keyfile=pki.wrong_name_key
    )


@pytest.fixture
def auth_broker(tmp_path: Path, pki: Pki) -> Iterator[Broker]:
    """``allow_anonymous false`` with a password file, on both the plain and the TLS listener."""
    yield from _start_broker(
        tmp_path / "broker",
        cafile=pki.ca,
        certfile=pki.server_cert,
        keyfile=pki.server_key,
        passwords={DAEMON_USER: DAEMON_PASSWORD, CLIENT_USER: CLIENT_PASSWORD},
    )


# --- helpers ----------------------------------------------------------------------------------


class Client:
    """The test's own MQTT 5 client, with TLS and credentials when given."""

    def __init__(
        self,
        port: int,
        *,
        ca: Path | None = None,
        username: str | None = None,
        password: str | None = None,
    ) -> None:
        self.messages: dict[str, list[Any]] = {}
        self._lock = threading.Lock()
        self.reasons: queue.Queue[Any] = queue.Queue()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"sec-{uuid.uuid4().hex[:8]}",
            protocol=mqtt.MQTTv5,
        )
        if ca is not None:
            self.client.tls_set(ca_certs=str(ca))
        if username is not None:
            self.client.username_pw_set(username, password)
        self.client.on_connect = lambda _c, _u, _f, reason, _p: self.reasons.put(reason)
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)  # the TLS handshake happens here
        self.client.loop_start()

    def connack(self, timeout: float = 5.0) -> Any:
        return self.reasons.get(timeout=timeout)

    def _on_message(self, _c: Any, _u: Any, msg: Any) -> None:
        with self._lock:
            self.messages.setdefault(msg.topic, []).append(msg)

    def subscribe(self, topic: str) -> None:
        self.client.subscribe(topic, qos=1)
        time.sleep(0.1)  # let the SUBACK through before anything is published

    def publish(self, topic: str, payload: str) -> None:
        self.client.publish(topic, payload, qos=1).wait_for_publish(5)

    def json_on(self, topic: str) -> list[Any]:
        with self._lock:
            return [json.loads(m.payload) for m in self.messages.get(topic, [])]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def connected_client(port: int, **kw: Any) -> Client:
    c = Client(port, **kw)
    reason = c.connack()
    assert not reason.is_failure, reason
    return c


def daemon_config(port: int, **mqtt_options: Any) -> Config:
    m = {
        "enabled": True,
        "host": "127.0.0.1",
        "port": port,
        "node_id": f"s{uuid.uuid4().hex[:8]}",
        "discovery": False,
        # retry every second, so a refused daemon is seen retrying within the test
        "reconnect_min": 1,
        "reconnect_max": 1,
    }
    m.update(mqtt_options)
    return make_config(mqtt=m)


def topics(cfg: Config) -> tuple[str, str]:
    base = f"needled/{cfg.mqtt.node_id}"
    return f"{base}/command", f"{base}/result"


def broker_log_count(broker: Broker, needle: str) -> int:
    return broker.log.read_text(errors="replace").count(needle) if broker.log.exists() else 0


def raw_connack(port: int) -> bytes:
    """A plaintext MQTT 3.1.1 CONNECT (anonymous, client id "raw"); the first bytes back."""
    connect = bytes([0x10, 15, 0, 4]) + b"MQTT" + bytes([4, 0x02, 0, 60, 0, 3]) + b"raw"
    with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
        s.sendall(connect)
        try:
            return s.recv(4)
        except (ConnectionResetError, TimeoutError):
            return b""


def assert_serves_one_command(daemon: RunningDaemon, client: Client, cfg: Config) -> None:
    """A text command gets exactly one successful reply on the result topic."""
    command, result = topics(cfg)
    client.subscribe(result)
    client.publish(command, "turn on the kitchen light")
    assert wait_for(lambda: client.json_on(result), 5), "no reply on the result topic"
    time.sleep(0.3)  # a duplicate would follow right behind
    replies = client.json_on(result)
    assert len(replies) == 1, replies
    (reply,) = replies
    env = reply["envelope"]
    assert env["success"] is True and env["error"] is None, env
    assert env["function_calls"] == KITCHEN_ON
    assert reply["results"][0]["ok"] and reply["results"][0]["result"]["on"] is True
    assert daemon.completer.seen == ["turn on the kitchen light"]


def assert_refused_but_alive(daemon: RunningDaemon) -> None:
    """Not connected, yet the daemon runs on and still serves commands from other transports."""
    assert not daemon.daemon.mqtt.connected.is_set()
    assert daemon.daemon.mqtt.connect_count == 0
    assert daemon.thread is not None and daemon.thread.is_alive() and daemon.exit_code is None
    assert "mqtt reconnecting" in daemon.daemon.status_line()
    got: queue.Queue[Any] = queue.Queue()
    daemon.daemon.pipeline.submit(Command(text="fan on high", source="console", reply=got.put))
    env = got.get(timeout=5)["envelope"]
    assert env["success"] is True and env["function_calls"][0]["name"] == "set_fan", env


def stop_quickly(daemon: RunningDaemon) -> None:
    """A daemon whose broker refuses it must still stop promptly and cleanly."""
    t0 = time.monotonic()
    assert daemon.stop() == 0
    assert time.monotonic() - t0 < 5


def mqtt_records(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name.startswith("needled.mqtt") and r.levelno == level
    ]


# --- TLS --------------------------------------------------------------------------------------


def test_tls_listener_is_really_tls(tls_broker: Broker) -> None:
    """Guards the fixture: the TLS port does not speak plaintext MQTT, the plain port does."""
    assert raw_connack(tls_broker.port) == b"\x20\x02\x00\x00"
    assert not raw_connack(tls_broker.tls_port).startswith(b"\x20")


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_daemon_serves_over_tls_verified_against_ca_file(
    pki: Pki, tls_broker: Broker, host: str
) -> None:
    cfg = daemon_config(tls_broker.tls_port, host=host, tls=True, ca_file=str(pki.ca))
    client = connected_client(tls_broker.tls_port, ca=pki.ca)
    try:
        with RunningDaemon(cfg) as d:
            assert d.daemon.mqtt.connected.wait(5)
            sock = d.daemon.mqtt.client.socket()
            assert isinstance(sock, ssl.SSLSocket) and sock.version() in ("TLSv1.2", "TLSv1.3")
            assert_serves_one_command(d, client, cfg)
    finally:
        client.close()


def test_daemon_with_wrong_ca_does_not_connect_and_keeps_running(
    pki: Pki, tls_broker: Broker, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="needled.mqtt")
    cfg = daemon_config(tls_broker.tls_port, tls=True, ca_file=str(pki.other_ca))
    with RunningDaemon(cfg) as d:
        # the daemon's TLS client rejects the broker's certificate, and keeps retrying
        assert wait_for(lambda: broker_log_count(tls_broker, UNKNOWN_CA) >= 2, 5)
        assert_refused_but_alive(d)
        warnings = mqtt_records(caplog, logging.WARNING)
        assert len(warnings) == 1, warnings  # reported once, not once per retry
        assert f"127.0.0.1:{tls_broker.tls_port}" in warnings[0]
        # the cause, not a generic "unreachable": an operator looks at certificates, not cables
        assert "TLS handshake failed" in warnings[0] and "unreachable" not in warnings[0]
        assert "certificate" in warnings[0].lower(), warnings[0]
        assert mqtt_records(caplog, logging.ERROR) == []
        stop_quickly(d)


def test_hostname_is_verified_unless_tls_insecure(pki: Pki, wrong_name_broker: Broker) -> None:
    port = wrong_name_broker.tls_port
    with RunningDaemon(daemon_config(port, tls=True, ca_file=str(pki.ca))) as d:
        assert wait_for(lambda: broker_log_count(wrong_name_broker, HOST_MISMATCH) >= 1, 5)
        assert_refused_but_alive(d)
        stop_quickly(d)
    # tls_insecure skips the host name check only: the chain must still lead to ca_file
    insecure = daemon_config(port, tls=True, ca_file=str(pki.ca), tls_insecure=True)
    with RunningDaemon(insecure) as d:
        assert d.daemon.mqtt.connected.wait(5)
    untrusted = daemon_config(port, tls=True, ca_file=str(pki.other_ca), tls_insecure=True)
    with RunningDaemon(untrusted) as d:
        assert wait_for(lambda: broker_log_count(wrong_name_broker, UNKNOWN_CA) >= 1, 5)
        assert not d.daemon.mqtt.connected.is_set() and d.thread.is_alive()


# --- username and password --------------------------------------------------------------------


def test_broker_refuses_anonymous_clients(auth_broker: Broker) -> None:
    """Guards the fixture: without credentials the broker says no (CONNACK code 5)."""
    assert raw_connack(auth_broker.port) == b"\x20\x02\x00\x05"
    client = Client(auth_broker.port, username=CLIENT_USER, password="not it")
    try:
        assert client.connack().is_failure
    finally:
        client.close()


@pytest.mark.parametrize(
    ("listener", "via"),
    [("plain", "password"), ("plain", "password_file"), ("tls", "password")],
)
def test_daemon_with_credentials_serves(
    pki: Pki, auth_broker: Broker, tmp_path: Path, listener: str, via: str
) -> None:
    secret: dict[str, Any] = {"username": DAEMON_USER}
    if via == "password_file":
        pw = tmp_path / "mqtt-password"
        pw.write_text(DAEMON_PASSWORD + "\n")  # as systemd credentials and editors leave it
        secret["password_file"] = str(pw)
    else:
        secret["password"] = DAEMON_PASSWORD
    tls: dict[str, Any] = {}
    port = auth_broker.port
    if listener == "tls":
        tls = {"tls": True, "ca_file": str(pki.ca)}
        port = auth_broker.tls_port
    cfg = daemon_config(port, **secret, **tls)
    client = connected_client(
        port, username=CLIENT_USER, password=CLIENT_PASSWORD, ca=pki.ca if tls else None
    )
    try:
        with RunningDaemon(cfg) as d:
            assert d.daemon.mqtt.connected.wait(5)
            assert_serves_one_command(d, client, cfg)
    finally:
        client.close()


@pytest.mark.parametrize("listener", ["plain", "tls"])
def test_daemon_with_wrong_password_is_refused_and_keeps_running(
    pki: Pki, auth_broker: Broker, caplog: pytest.LogCaptureFixture, listener: str
) -> None:
    caplog.set_level(logging.DEBUG, logger="needled.mqtt")
    tls: dict[str, Any] = {}
    port = auth_broker.port
    if listener == "tls":
        tls = {"tls": True, "ca_file": str(pki.ca)}
        port = auth_broker.tls_port
    cfg = daemon_config(port, username=DAEMON_USER, password="wrong", **tls)
    with RunningDaemon(cfg) as d:
        assert wait_for(lambda: broker_log_count(auth_broker, NOT_AUTHORISED) >= 2, 5)
        assert_refused_but_alive(d)
        warnings = mqtt_records(caplog, logging.WARNING)
        assert any("refused" in w and "Not authorized" in w for w in warnings), warnings
        assert mqtt_records(caplog, logging.ERROR) == []
        stop_quickly(d)


def test_refused_credentials_logged_once_per_outage(
    auth_broker: Broker, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="needled.mqtt")
    cfg = daemon_config(auth_broker.port, username=DAEMON_USER, password="wrong")
    with RunningDaemon(cfg) as d:
        assert wait_for(lambda: broker_log_count(auth_broker, NOT_AUTHORISED) >= 3, 5)
        d.stop()
    warnings = mqtt_records(caplog, logging.WARNING)
    assert len(warnings) == 1, warnings


# --- the daemon as its own process ------------------------------------------------------------


def daemon_process(
    tmp_path: Path, data: dict[str, Any], notify: str | None = None
) -> subprocess.Popen[bytes]:
    """The phrase-table daemon in a fresh process through ``run_daemon``, as ``needled run``
    runs it (so OpenSSL is loaded only if the config asks for TLS); config in
    ``tmp_path / "needled.toml"``."""
    cfg_path = tmp_path / "needled.toml"
    cfg_path.write_text(to_toml(data))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("NOTIFY_SOCKET", None)
    env.pop("JOURNAL_STREAM", None)
    if notify is not None:
        env["NOTIFY_SOCKET"] = notify
    return subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "daemon_fixtures.py"), str(cfg_path)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def test_daemon_process_serves_over_tls_with_credentials(
    pki: Pki, auth_broker: Broker, tmp_path: Path
) -> None:
    """``run_daemon`` keeps OpenSSL out of a process whose config needs no TLS; one that asks
    for TLS must get it. Run the daemon the way ``needled run`` does, in a fresh process."""
    node = f"p{uuid.uuid4().hex[:6]}"
    data = config_dict(
        mqtt={
            "enabled": True,
            "host": "localhost",
            "port": auth_broker.tls_port,
            "node_id": node,
            "discovery": False,
            "tls": True,
            "ca_file": str(pki.ca),
            "username": DAEMON_USER,
            "password": DAEMON_PASSWORD,
        }
    )
    proc = daemon_process(tmp_path, data)
    client = connected_client(
        auth_broker.tls_port, ca=pki.ca, username=CLIENT_USER, password=CLIENT_PASSWORD
    )
    try:
        status, result = f"needled/{node}/status", f"needled/{node}/result"
        client.subscribe(status)
        client.subscribe(result)
        online = [b"online"]
        assert wait_for(
            lambda: [m.payload for m in client.messages.get(status, [])][-1:] == online, 15
        ), proc.stderr.read().decode() if proc.poll() is not None else "not online"
        client.publish(f"needled/{node}/command", json.dumps({"id": "p1", "text": "fan on high"}))
        assert wait_for(lambda: client.json_on(result), 5)
        (reply,) = client.json_on(result)
        assert reply["id"] == "p1" and reply["envelope"]["success"] is True
        assert reply["results"][0]["result"] == {"on": True, "speed": "high"}
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
        client.close()


def test_reload_that_turns_tls_on_is_refused_until_restart(
    pki: Pki, tls_broker: Broker, tmp_path: Path
) -> None:
    """A daemon started without TLS has no OpenSSL: a SIGHUP that turns TLS on keeps the old
    config, says so in the log and in STATUS=, and the daemon keeps serving."""
    from test_sdnotify import NotifySocket

    node = f"r{uuid.uuid4().hex[:6]}"
    plain = {"enabled": True, "port": tls_broker.port, "node_id": node, "discovery": False}
    ns = NotifySocket(str(tmp_path / "notify"))
    proc = daemon_process(tmp_path, config_dict(mqtt=plain), notify=ns.address)
    cfg_path = tmp_path / "needled.toml"
    client = connected_client(tls_broker.port)
    try:
        ns.wait_for("READY=1", 30)
        maps = Path(f"/proc/{proc.pid}/maps").read_text()
        assert "libssl" not in maps and "libcrypto" not in maps
        tls = dict(plain, port=tls_broker.tls_port, tls=True, ca_file=str(pki.ca))
        cfg_path.write_text(to_toml(config_dict(mqtt=tls)))
        proc.send_signal(signal.SIGHUP)
        ns.wait_for("RELOADING=1", 10)
        assert wait_for(lambda: any("reload refused" in m for _, m in ns.messages), 10)
        result = f"needled/{node}/result"
        client.subscribe(result)
        client.publish(f"needled/{node}/command", json.dumps({"id": "r1", "text": "fan on"}))
        assert wait_for(lambda: client.json_on(result), 10)  # still served, old config
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
        assert b"restart needled to load TLS support" in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
        client.close()
        ns.close()
