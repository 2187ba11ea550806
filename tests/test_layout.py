"""The role packages' imports point one way: model <- calling <- service, offline on top.

Read from the source (every `import`, at any depth, including ones inside functions), so a
lazy import that crosses the line is caught as well as a top-level one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

AGENT = Path(__file__).resolve().parents[1] / "agent"

# what each role may import from `agent` besides itself
ALLOWED = {
    "model": set(),
    "calling": {"model"},
    "service": {"model", "calling"},
    "offline": {"model", "calling", "service", "cli"},
}
# the package root's constants, shared by every role
ROOT_NAMES = {"DATA_DIR", "MODELS_DIR", "__version__"}


def agent_parts(source: str, package: list[str]) -> set[str]:
    """The parts of `agent` (`model`, `cli`, ...) that a module in `package` imports, relative
    imports resolved and `from agent import x` read as importing `x`."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            mod = ".".join([*base, *([node.module] if node.module else [])])
            mods = [f"{mod}.{a.name}" for a in node.names] if mod == "agent" else [mod]
        else:
            continue
        for m in mods:
            parts = m.split(".")
            if parts[0] == "agent" and len(parts) > 1 and parts[1] not in ROOT_NAMES:
                found.add(parts[1])
    return found


@pytest.mark.parametrize("role", sorted(ALLOWED))
def test_role_imports_point_one_way(role: str) -> None:
    crossing = []
    for path in sorted((AGENT / role).rglob("*.py")):
        package = list(path.relative_to(AGENT.parent).parts[:-1])
        for part in agent_parts(path.read_text(encoding="utf-8"), package) - ALLOWED[role]:
            if part != role:
                crossing.append(f"{path.relative_to(AGENT.parent)} imports agent.{part}")
    assert not crossing, "\n".join(crossing)


def test_every_module_belongs_to_a_role() -> None:
    # only the package root's constants and the command line sit outside the role packages
    assert sorted(p.name for p in AGENT.glob("*.py")) == ["__init__.py", "cli.py"]
    roles = sorted(p.name for p in AGENT.iterdir() if (p / "__init__.py").is_file())
    assert roles == sorted(ALLOWED)


@pytest.mark.parametrize(
    "source",
    [
        "def f():\n    from agent.service.config import load_config\n",
        "import agent.service.daemon\n",
        "from agent import service\n",
        "from ..service import pipeline\n",
    ],
)
def test_a_crossing_import_is_seen(source: str) -> None:
    assert "service" in agent_parts(source, ["agent", "model"])


def test_root_constants_and_own_imports_are_no_crossing() -> None:
    src = "from agent import DATA_DIR\nfrom . import cact\nfrom agent.model.engine import Engine\n"
    assert agent_parts(src, ["agent", "model"]) == {"model"}


def test_the_wheel_takes_every_package() -> None:
    # an explicit package list leaves subpackages out of a wheel: `pip install .` on a Pi then
    # fails at the first import of agent.calling.grammar
    import tomllib

    from setuptools import find_packages

    root = AGENT.parent
    cfg = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    include = cfg["tool"]["setuptools"]["packages"]["find"]["include"]
    shipped = set(find_packages(where=str(root), include=include))
    wanted = {
        ".".join(p.parent.relative_to(root).parts)
        for top in ("agent", "devices", "kernels")
        for p in (root / top).rglob("__init__.py")
    }
    assert wanted <= shipped
    assert not {p for p in shipped if p.startswith("tests")}
