"""Where log lines go: journald (with each record's priority) when systemd captured stderr,
else stderr; and the level names the config and the command line accept."""

from __future__ import annotations

import logging
import os
import sys

LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
}

# no time stamp: the journal (or whatever collects stderr) adds its own
STDERR_FORMAT = "%(levelname)s %(name)s: %(message)s"


def parse_level(name: str) -> int:
    """A level name (``debug`` .. ``critical``, any case) as a ``logging`` level number."""
    try:
        return LEVELS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown log level {name!r} (known: {', '.join(LEVELS)})") from None


def stderr_is_journal() -> bool:
    """Whether stderr is the journal stream systemd set up for this service.

    ``JOURNAL_STREAM`` is ``<device>:<inode>`` of that stream; a child whose stderr was redirected
    (``needled ask ... 2>file`` inside a unit) inherits the variable but not the stream, so the
    variable alone is not enough: the identity of fd 2 must match.
    """
    value = os.environ.get("JOURNAL_STREAM", "")
    dev, sep, ino = value.partition(":")
    if not sep or not dev.isdigit() or not ino.isdigit():
        return False
    try:
        st = os.fstat(2)
    except OSError:
        return False
    return (st.st_dev, st.st_ino) == (int(dev), int(ino))


def journal_handler() -> logging.Handler | None:
    """systemd-python's journal handler (records keep their level as the journal PRIORITY), or
    None when systemd-python is not installed."""
    try:
        from systemd.journal import JournalHandler
    except ImportError:
        return None
    return JournalHandler(SYSLOG_IDENTIFIER="needled")


def setup_logging(level: int = logging.INFO) -> logging.Handler | None:
    """Send the root logger to journald when stderr is the service's journal stream, else to
    stderr, at ``level``; returns the handler installed, or None when the root logger already
    had handlers (an embedding program or a test harness chose where logs go: kept as is).

    Lines written to stderr under systemd all reach the journal at one priority (the unit's
    default, info), so ``journalctl -p warning`` would show nothing: the native journal
    protocol carries each record's own priority. This must therefore run before anything else
    configures logging (``logging.basicConfig`` or a first log call would claim the root).
    """
    root = logging.getLogger()
    if root.handlers:
        return None
    handler = journal_handler() if stderr_is_journal() else None
    if handler is None:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(STDERR_FORMAT))
    root.addHandler(handler)
    root.setLevel(level)
    return handler
