"""Command transports: MQTT, serial and console. Each has attach(submit), start() and stop()."""
