"""Shared test fixtures: where the golden vectors live, and small models made on the fly."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
# The golden vectors ship with the repository (tests/data/golden/README.md says what each file
# is); NEEDLED_GOLDEN points the tests at another copy of the same files.
GOLDEN = Path(os.environ.get("NEEDLED_GOLDEN", ROOT / "tests" / "data" / "golden"))
# The release geometry's vectors, cut to the first three layers (the file is the vendor's
# release.cact sliced, byte for byte, with `needled slice`; the hidden states are its first rows).
RELEASE = "release_3layers"


def pytest_sessionstart(session: pytest.Session) -> None:
    # The golden vectors decide whether the numerics are right; a run without them proves
    # nothing, so refuse to start rather than skip.
    if not (GOLDEN / "tiny.cact").exists() or not (GOLDEN / f"{RELEASE}.cact").exists():
        raise pytest.UsageError(
            f"golden vectors not found at {GOLDEN} (tiny.cact, {RELEASE}.cact); unset "
            "NEEDLED_GOLDEN to use the copy in tests/data/golden"
        )


@pytest.fixture(scope="session")
def golden_dir() -> Path:
    return GOLDEN


def golden_npz(name: str) -> dict[str, np.ndarray]:
    with np.load(GOLDEN / f"{name}.npz") as z:
        return {k: z[k] for k in z.files}


def golden_json(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text())


@pytest.fixture(scope="session")
def tiny_cact():
    from agent.model.cact import read_cact

    return read_cact(GOLDEN / "tiny.cact")


@pytest.fixture(scope="session")
def release_cact():
    from agent.model.cact import read_cact

    return read_cact(GOLDEN / f"{RELEASE}.cact")


@pytest.fixture(scope="session")
def release_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random-weight release-geometry model written by `make-model` (about 3 s)."""
    from agent.model.cact import write_file
    from agent.model.makemodel import make_model

    path = tmp_path_factory.mktemp("models") / "release_seed7.cact"
    write_file(path, make_model("release", seed=7))
    drop_page_cache(path)
    return path


def drop_page_cache(path: Path) -> None:
    """Evict a file just written from the page cache, so it is read back as from disk.

    The kernel keeps a freshly written file in large folios, which a mapping then counts 2 MB
    at a time (FilePmdMapped): the release model measured about 2.5 MB more RSS that way than
    when read back from disk, as an installed model is. RSS tests must not depend on that.
    """
    with open(path, "rb") as f:
        os.fsync(f.fileno())
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)


# The real-broker fixtures ("broker", "mqtt_config") for every test module that asks for them.
from daemon_fixtures import broker_fixture, mqtt_config_fixture  # noqa: E402, F401
