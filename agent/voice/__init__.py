"""Voice commands: audio in, a transcript out, then the same command pipeline as text.

Dependencies point one way: :mod:`.audio` (WAV decoding and conversion), :mod:`.grammar` (the
recognition grammar built from the configured tools) and :mod:`.asr` (the recognizer interface)
know nothing of the daemon; :mod:`.sphinx` (the pocketsphinx engine) builds on those three;
:mod:`.service` ties a recognizer to the pipeline; the transports (:mod:`.hermes_audio`,
:mod:`.wyoming_server`, the MQTT audio topic) build on the service. pocketsphinx is imported
only when a recognizer is built, so a daemon without ``[voice]`` never loads it.
"""
