"""Start-up warnings for tools whose shape the model's training did not cover (the record is the
`trained_on` entry of `<model>.report.json`)."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest

from agent.model.coverage import coverage_warnings, read_trained_on
from agent.service.config import load_config, parse_config
from devices import build_registry

ROOT = Path(__file__).resolve().parents[1]
DEMO_MODEL = ROOT / "agent" / "models" / "demo.cact"
FIX = "needled train --config /etc/needled/needled.toml"

DEMO_KINDS = ["simulated_lights", "simulated_thermostat", "simulated_blinds", "simulated_fan"]
COVERED = {
    "kinds": DEMO_KINDS,
    "max_tools": 8,
    "max_enum_values": 10,
    "param_types": ["enum", "integer", "number", "boolean"],
    "general_schemas": False,
}


def model_with_report(tmp_path: Path, trained_on: dict | None, **extra: object) -> Path:
    """A model path whose report holds `trained_on` (no report at all for None); the warnings
    read only the report, so the model file itself need not exist."""
    model = tmp_path / "m.cact"
    if trained_on is not None or extra:
        report = {"model": str(model), **extra}
        if trained_on is not None:
            report["trained_on"] = trained_on
        Path(f"{model}.report.json").write_text(json.dumps(report))
    return model


def warnings_for(model: Path, devices: dict) -> list[str]:
    cfg = parse_config({"mqtt": {"enabled": False}, "devices": devices})
    tools = build_registry(cfg.devices).tools()
    return coverage_warnings(model, cfg.devices, tools, config_path="/etc/needled/needled.toml")


def demo_devices() -> dict:
    return {k: dict(v) for k, v in load_config(None).devices.items()}


def test_demo_home_within_coverage_gives_no_warning(tmp_path: Path) -> None:
    assert warnings_for(model_with_report(tmp_path, COVERED), demo_devices()) == []


@pytest.mark.parametrize(
    "report, why",
    [
        (None, "no training report m.cact.report.json"),
        ("no-key", 'has no "trained_on" record'),
        ({"kinds": "simulated_lights"}, "kinds must be a list of strings"),
        ({"max_tools": -1}, "max_tools must be a non-negative integer"),
    ],
)
def test_unknown_coverage_is_one_warning_with_the_fix(tmp_path: Path, report, why: str) -> None:
    if report == "no-key":
        model = model_with_report(tmp_path, None, examples=10)
    else:
        model = model_with_report(tmp_path, report)
    out = warnings_for(model, demo_devices())
    assert len(out) == 1
    assert "training coverage of model m.cact is unknown" in out[0]
    assert why in out[0] and FIX in out[0]


def test_unreadable_report_is_unknown_coverage(tmp_path: Path) -> None:
    model = tmp_path / "m.cact"
    Path(f"{model}.report.json").write_text("{not json")
    (w,) = warnings_for(model, demo_devices())
    assert "cannot be read" in w and FIX in w


def test_kind_not_in_training(tmp_path: Path) -> None:
    devices = demo_devices()
    devices["relays"] = {"kind": "gpio_relays", "relays": {"pump": 17}}
    out = warnings_for(model_with_report(tmp_path, COVERED), devices)
    assert len(out) == 1
    assert "device kind gpio_relays (devices.relays) was not in the model's training" in out[0]
    assert FIX in out[0]
    # A model that also learned to read random schemas knows this shape (an enum and a boolean)
    general = dict(COVERED, general_schemas=True)
    assert warnings_for(model_with_report(tmp_path, general), devices) == []


def test_more_tools_than_trained(tmp_path: Path) -> None:
    out = warnings_for(model_with_report(tmp_path, dict(COVERED, max_tools=3)), demo_devices())
    assert len(out) == 1
    assert "4 tools are configured; the model was trained on at most 3 at once" in out[0]
    assert FIX in out[0]


def test_enum_with_more_values_than_trained(tmp_path: Path) -> None:
    devices = demo_devices()
    devices["lights"] = {
        "kind": "simulated_lights",
        "rooms": [f"room {i}" for i in range(11)],
    }
    out = warnings_for(model_with_report(tmp_path, COVERED), devices)
    assert len(out) == 1
    assert "set_light (devices.lights) parameter 'room' has 11 values" in out[0]
    assert "trained on at most 10" in out[0] and FIX in out[0]


def test_parameter_types_not_trained(tmp_path: Path) -> None:
    # the log kind's `message` is free text (a string without an enum)
    devices = demo_devices()
    devices["notes"] = {"kind": "log"}
    general = dict(COVERED, general_schemas=True)
    out = warnings_for(model_with_report(tmp_path, general), devices)
    assert len(out) == 2, out
    assert "log_message (devices.notes) has a parameter 'message' free text" in out[0]
    assert "trained only on boolean, enum, integer, number parameters" in out[0]
    # a shape outside the training also means the kind is not covered by general schemas
    assert "device kind log (devices.notes) was not in the model's training" in out[1]
    # trained on free text as well: only the kind is new, and general schemas cover it
    wider = dict(general, param_types=["enum", "integer", "number", "boolean", "string"])
    assert warnings_for(model_with_report(tmp_path, wider), devices) == []


def test_record_round_trip(tmp_path: Path) -> None:
    trained, why = read_trained_on(model_with_report(tmp_path, COVERED))
    assert why == "" and trained is not None
    assert trained.kinds == frozenset(DEMO_KINDS) and trained.max_enum_values == 10


def test_daemon_factory_logs_each_warning_at_start(tmp_path: Path, caplog) -> None:
    # The daemon's completer factory (what `needled run` uses) checks before loading the model.
    from agent.cli import session_factory

    model = tmp_path / "demo.cact"
    shutil.copyfile(DEMO_MODEL, model)
    Path(f"{model}.report.json").write_text(json.dumps({"trained_on": dict(COVERED, max_tools=2)}))
    cfg = parse_config(
        {"mqtt": {"enabled": False}, "model": {"path": str(model)}, "devices": demo_devices()}
    )
    tools = build_registry(cfg.devices).tools()
    with caplog.at_level(logging.WARNING, logger="needled"):
        completer = session_factory(config_path="/etc/needled/needled.toml")(cfg, tools)
    try:
        msgs = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(msgs) == 1, [r.getMessage() for r in msgs]
        assert "4 tools are configured" in msgs[0].getMessage()
        assert FIX in msgs[0].getMessage()
    finally:
        getattr(completer, "close", lambda: None)()


def test_single_home_model_warns_for_any_other_tool(tmp_path: Path) -> None:
    """The bundled demo model knows the demo home's exact tools: those pass, a renamed room
    is outside its training (it would be refused), and the warning says so with the fix."""
    from agent.model.coverage import ConfiguredTool, coverage_problems
    from agent.offline.train.synth import tools_from_config

    demo = ROOT / "agent" / "models" / "demo.cact"
    trained, why = read_trained_on(demo)
    assert trained is not None and trained.only_tools is not None, why
    tools = tools_from_config(None)
    same = [ConfiguredTool(f"d{i}", "k", t) for i, t in enumerate(tools)]
    assert coverage_problems(trained, same) == []
    other = json.loads(json.dumps(tools[0]))
    other["parameters"]["properties"]["room"]["enum"] = ["office"]
    out = coverage_problems(trained, [ConfiguredTool("lights", "simulated_lights", other)])
    assert len(out) == 1 and "trained for one home's exact tools" in out[0]


def test_tools_not_one_per_device_table_are_still_checked() -> None:
    """A caller may serve its own tool list rather than the config's devices: the check must
    not fail (it runs in the daemon's completer factory); shapes are still checked."""
    cfg = load_config(None)
    free_text = {
        "name": "note",
        "parameters": {"type": "object", "properties": {"text": {"type": "string"}}},
    }
    out = coverage_warnings(
        ROOT / "agent" / "models" / "demo.cact", cfg.devices, [free_text], config_path=None
    )
    assert len(out) == 1 and "note" in out[0]
