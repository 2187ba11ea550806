"""Exception types shared across the agent package."""

from __future__ import annotations


class CactError(ValueError):
    """A `.cact` model file (or a blob inside it) violates the format.

    Every reader check raises this one type so callers (the daemon, the CLI) can turn any
    malformed model into a clear message instead of a traceback.
    """
