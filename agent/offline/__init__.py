"""Offline tools: benchmarks, the on-device self-test and the training toolkit.

They may use every other part of `agent`; the daemon never imports them.
"""
