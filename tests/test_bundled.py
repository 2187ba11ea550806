"""Which bundled model serves a home: the demo home's own model on its tools, the general model
on every other home (and the base that `needled train --config` adapts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.cli import default_model
from agent.model import bundled
from agent.offline.train.synth import tools_from_config
from agent.service.config import load_config, run_model, with_overrides

ROOT = Path(__file__).resolve().parents[1]
# bench/train_report.json has the bundled model at 96.4% and 98.1% on the first (studied) set of
# unseen homes, and at 96.4%, 98.1% and 97.6% of refusals with the daemon's min_confidence 0.5
POSITIVE_FLOOR = 0.95
TWO_ACTIONS_FLOOR = 0.96
GUARDED_POSITIVE_FLOOR = 0.95
GUARDED_TWO_ACTIONS_FLOOR = 0.96


def test_both_models_ship_with_their_training_reports() -> None:
    for model in (bundled.DEMO, bundled.GENERAL):
        assert model.exists(), model
        report = json.loads(Path(f"{model}.report.json").read_text())
        assert "trained_on" in report and report["bytes"] == model.stat().st_size
    # the general model's record is of homes, not of one home's tools
    general = json.loads(Path(f"{bundled.GENERAL}.report.json").read_text())["trained_on"]
    assert "only_tools" not in general and general["kinds"]


def test_the_demo_home_gets_its_own_model_and_other_homes_the_general_one() -> None:
    demo = tools_from_config(ROOT / "agent" / "data" / "default.toml")
    assert default_model(None, demo) == str(bundled.DEMO)
    # a subset of the demo home's tools is still the demo home
    assert default_model(None, demo[:2]) == str(bundled.DEMO)
    for config in ("tests/data/voice_home2.toml", "tests/data/homes/ana_flat.toml"):
        assert default_model(None, tools_from_config(ROOT / config)) == str(bundled.GENERAL)
    # one renamed tool is another home
    renamed = [dict(demo[0], name="lamps"), *demo[1:]]
    assert default_model(None, renamed) == str(bundled.GENERAL)
    # no tools: the general model (what `needled train --config` adapts); a path always wins
    assert default_model(None) == str(bundled.GENERAL)
    assert default_model("/x/y.cact", demo) == "/x/y.cact"


def test_check_config_reads_the_model_run_will_load() -> None:
    # the model check of check-config and run looks at the file the daemon then serves
    assert run_model(load_config()) == bundled.DEMO
    assert run_model(load_config(ROOT / "tests/data/homes/ana_flat.toml")) == bundled.GENERAL
    assert run_model(with_overrides(load_config(), model="/x/y.cact")) == Path("/x/y.cact")


def test_the_general_model_keeps_its_recorded_accuracy_on_unseen_homes() -> None:
    """The 385 hand-written cases of 13 homes never seen in training, through the daemon's
    path (prior, range refusal; min_confidence as the daemon's default for the refusals).
    Floors a little under bench/train_report.json, so decoding changes cannot slip by."""
    from agent.offline.train.evaluate import evaluate_file

    cases = ROOT / "tests" / "data" / "heldout_homes.jsonl"
    raw = evaluate_file(bundled.GENERAL, cases)["summary"]
    assert raw["errors"] == 0
    assert raw["positive_exact"] >= POSITIVE_FLOOR, raw
    assert raw["two_actions_exact"] >= TWO_ACTIONS_FLOOR, raw
    guarded = evaluate_file(bundled.GENERAL, cases, min_confidence=0.5)["summary"]
    assert guarded["refusal_correct"] >= 0.95, guarded
    assert guarded["positive_exact"] >= GUARDED_POSITIVE_FLOOR, guarded
    assert guarded["two_actions_exact"] >= GUARDED_TWO_ACTIONS_FLOOR, guarded


@pytest.mark.parametrize(
    ("which", "raw_floor", "guarded_floor"),
    [
        # set 7, the one whose failures nobody has read: bench/general/homes7*.json has
        # commands 97.0% and 95.2%, two actions 90.0% and 90.0%, refusals 97.6% at 0.5 (the
        # guarded commands' floor is the 95% target itself)
        (7, (0.96, 0.88), (0.95, 0.88, 0.96)),
        # set 6, read and studied: 98.2% and 97.0%, 90.0% and 88.3%, refusals 98.8%
        (6, (0.96, 0.88), (0.95, 0.86, 0.97)),
    ],
)
def test_the_general_model_keeps_its_recorded_accuracy_on_later_sets(
    which: int, raw_floor: tuple[float, float], guarded_floor: tuple[float, float, float]
) -> None:
    """Floors a little under the recorded reports, so decoding changes cannot slip by."""
    from agent.offline.train.evaluate import evaluate_file

    cases = ROOT / "tests" / "data" / f"heldout_homes{which}.jsonl"
    raw = evaluate_file(bundled.GENERAL, cases)["summary"]
    assert raw["errors"] == 0
    assert raw["positive_exact"] >= raw_floor[0], raw
    assert raw["two_actions_exact"] >= raw_floor[1], raw
    guarded = evaluate_file(bundled.GENERAL, cases, min_confidence=0.5)["summary"]
    assert guarded["positive_exact"] >= guarded_floor[0], guarded
    assert guarded["two_actions_exact"] >= guarded_floor[1], guarded
    assert guarded["refusal_correct"] >= guarded_floor[2], guarded
