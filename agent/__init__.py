"""needled: the Needle 2 tool-calling agent daemon and its model tools."""

# The one place the version lives: pyproject.toml reads it from here, so an installed package and
# a checkout run from source (PYTHONPATH) report the same thing.
__version__ = "0.1.0"
