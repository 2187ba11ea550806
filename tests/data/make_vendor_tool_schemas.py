"""Regenerate ``vendor_tool_schemas.json``: the schemas the vendor package's ``@tool`` decorator
writes for the example functions below.

``tests/test_tools.py`` loads that file and checks that our loader accepts every schema and
produces the same tools; the test itself never needs the vendor package. The data is the output
of the vendor decorator (needle v2.0.8, ``needle/agent/tools.py``) run on *our* example
functions; none of the vendor's code is kept here.

Run it by hand where a git snapshot of the vendor repository exists, after changing the example
functions or moving to a new vendor tag, and commit the result::

    python tests/data/make_vendor_tool_schemas.py                   # rewrite the JSON file
    python tests/data/make_vendor_tool_schemas.py --check           # exit 1 if it has drifted
    python tests/data/make_vendor_tool_schemas.py --repo DIR --tag v2.0.8

No ``from __future__ import annotations`` here on purpose: the vendor decorator resolves hints
with ``typing.get_type_hints``, and string annotations would not see the vendor ``Field``.
"""

import argparse
import enum
import json
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Literal, Optional

HERE = Path(__file__).resolve().parent
OUT = HERE / "vendor_tool_schemas.json"
DEFAULT_REPO = Path("/work/.mirror/cactus-compute+needle/repo")
DEFAULT_TAG = "v2.0.8"
VENDOR_PATH = "needle/agent/tools.py"


class Unit(enum.Enum):
    C = "celsius"
    F = "fahrenheit"


def vendor_namespace(repo: Path, tag: str) -> dict:
    """The vendor ``tools`` module, executed from the git snapshot at ``tag``."""
    src = subprocess.run(
        ["git", "-C", str(repo), "show", f"{tag}:{VENDOR_PATH}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ns: dict = {}
    exec(compile(src, f"vendor:{VENDOR_PATH}", "exec"), ns)
    return ns


def example_functions(vf) -> list:
    """The example functions, annotated with the vendor ``Field`` (passed in as ``vf``).

    Keep in step with the call strings matched in ``tests/test_tools.py``.
    """

    def get_weather(
        city: str,
        days: Annotated[int, vf(ge=1, le=14, description="how many days")] = 3,
        unit: Literal["c", "f"] = "c",
        color: Unit = Unit.C,
        opts: dict = None,
        items: list = None,
        ratio: Optional[float] = None,  # noqa: UP045 - the Optional spelling is what we test
        code: str = vf("AB", pattern="^[A-Z]+$", max_length=4, min_length=1),
        when: str = vf(None, format="date"),
        gt: float = vf(1.0, gt=0, lt=10),
    ) -> None:
        """Weather.

        Args:
            city: the city.
        """

    return [get_weather]


def generate(repo: Path, tag: str) -> list[dict]:
    ns = vendor_namespace(repo, tag)
    schemas = []
    for fn in example_functions(ns["Field"]):
        ns["tool"](fn)
        schemas.append(fn._needle_tool)
    return schemas


def render(schemas: list[dict]) -> str:
    return json.dumps(schemas, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", type=Path, default=DEFAULT_REPO, help="vendor git directory")
    ap.add_argument("--tag", default=DEFAULT_TAG, help="vendor release tag")
    ap.add_argument("--out", type=Path, default=OUT, help="JSON file to write or check")
    ap.add_argument("--check", action="store_true", help="compare with --out, write nothing")
    a = ap.parse_args(argv)
    text = render(generate(a.repo, a.tag))
    if a.check:
        current = a.out.read_text(encoding="utf-8") if a.out.exists() else ""
        if current != text:
            print(f"{a.out} differs from the {a.tag} decorator's output", file=sys.stderr)
            return 1
        print(f"{a.out} is up to date with {a.tag}")
        return 0
    a.out.write_text(text, encoding="utf-8")
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
