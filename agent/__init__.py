"""needled: the Needle 2 tool-calling agent daemon and its model tools."""

# The one place the version lives: pyproject.toml reads it from here, so an installed package and
# a checkout run from source (PYTHONPATH) report the same thing.
__version__ = "0.1.0"

from pathlib import Path

# Package data, found from here so that modules can move between the role packages freely.
DATA_DIR = Path(__file__).resolve().parent / "data"  # default config, demo sentences, a test clip
MODELS_DIR = Path(__file__).resolve().parent / "models"  # the bundled .cact models
