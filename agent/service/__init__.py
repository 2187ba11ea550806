"""The daemon: config, the command pipeline, transports (MQTT, serial, console), voice input,
and the lifecycle under systemd.

It builds on `agent.model` and `agent.calling`; nothing below it imports it back.
"""
