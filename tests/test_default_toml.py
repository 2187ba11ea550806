"""agent/data/default.toml documents every device kind with every key it accepts, and each
documented table (the demo home's, and the commented-out examples) builds as written."""

from __future__ import annotations

import re
import tomllib

import pytest

import devices as devices_pkg
from agent.service.config import default_config_text, load_config
from devices import registry

TEXT = default_config_text()
HEADER = re.compile(r"^(?:# )?\[devices\.([A-Za-z0-9_-]+)\]\s*$")
KEY = re.compile(r"^(?:# ?)?([a-z_]+) = ")


def device_blocks() -> dict[str, list[str]]:
    """NAME -> the lines of its table, commented-out ones included, up to the next table header
    (commented or not) or the next blank line after a commented-out table's lines."""
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in TEXT.splitlines():
        m = HEADER.match(line)
        if m:
            current = blocks.setdefault(m.group(1), [])
            continue
        if line.startswith("[") or (current is not None and not line.strip()):
            current = None
        if current is not None:
            current.append(line)
    return blocks


def uncommented(lines: list[str]) -> dict:
    """The table with its commented-out `key = value` lines switched on."""
    body = [re.sub(r"^# ?", "", ln) for ln in lines if KEY.match(ln)]
    return tomllib.loads("\n".join(body))


def known_keys(kind: str, table: dict) -> set[str]:
    """The keys the kind's handler reads, as it declares them to `Options`."""
    seen: list[set[str]] = []
    original = registry.Options.__init__

    def recording(self, key, tbl, known):  # noqa: ANN001
        seen.append(set(known))
        original(self, key, tbl, known)

    registry.Options.__init__ = recording
    try:
        devices_pkg.build_handlers({"x": table})
    finally:
        registry.Options.__init__ = original
    assert seen, kind
    return seen[0]


def test_the_demo_home_still_parses() -> None:
    cfg = load_config(None)
    assert [t["kind"] for t in cfg.devices.values()] == [
        "simulated_lights",
        "simulated_thermostat",
        "simulated_blinds",
        "simulated_fan",
    ]


def test_every_kind_is_documented() -> None:
    kinds = {uncommented(lines)["kind"] for lines in device_blocks().values()}
    assert kinds == set(devices_pkg.KINDS)


@pytest.mark.parametrize("name", sorted(device_blocks()))
def test_each_documented_table_builds_with_every_key(name: str) -> None:
    table = uncommented(device_blocks()[name])
    (handler,) = devices_pkg.build_handlers({name: table})
    documented = set(table)
    missing = known_keys(table["kind"], table) - documented
    assert not missing, f"devices.{name} ({table['kind']}) does not document {sorted(missing)}"
    # tool names given in the examples are the ones the handler then declares
    if "tool" in table:
        assert handler.schema["name"] == table["tool"]


def test_the_general_keys_are_documented() -> None:
    assert re.search(r"^#\s+tool = ", TEXT, re.M) and re.search(r"^#\s+description = ", TEXT, re.M)
    assert "needled train --config FILE" in TEXT
