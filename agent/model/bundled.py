"""Which bundled model serves a set of tools (``model.path = ""``).

Two models ship in ``agent/models/``: ``demo.cact``, trained on the demo home alone (its training
report lists exactly those tools), and ``general.cact``, trained on generated homes to read the
tools in its prompt. A home-specific model is the better of the two on its own home and nearly
useless on any other, so the demo home gets the demo model and every other set of tools gets the
general one. Without the general model (an older checkout) the demo model serves everything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agent import MODELS_DIR

MODELS = MODELS_DIR
DEMO = MODELS / "demo.cact"
GENERAL = MODELS / "general.cact"


def trained_for(model: Path, tools: Sequence[Mapping[str, Any]]) -> bool:
    """Whether `model` was trained on exactly these tools' home (each tool among its own)."""
    from agent.model.coverage import canonical_tool, read_trained_on

    trained, _ = read_trained_on(model)
    if trained is None or trained.only_tools is None or not tools:
        return False
    return all(canonical_tool(t) in trained.only_tools for t in tools)


def bundled_model(tools: Sequence[Mapping[str, Any]] | None = None) -> Path:
    """The bundled model for `tools`: the demo model on the demo home's tools, else the general
    model (also when no tools are given), else the demo model when it is the only one."""
    if not GENERAL.exists():
        return DEMO
    if tools is not None and DEMO.exists() and trained_for(DEMO, tools):
        return DEMO
    return GENERAL
