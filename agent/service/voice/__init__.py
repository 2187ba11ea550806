"""Voice commands: audio in, a transcript out, then the same command pipeline as text.

Dependencies point one way. :mod:`.audio` (WAV decoding and conversion), :mod:`.grammar` (the
recognition grammar from the configured tools), :mod:`.g2p` (pronunciations) and :mod:`.asr`
(the recognizer interface) know nothing of the daemon; :mod:`.sphinx` (the pocketsphinx engine)
builds on them and nothing else; :mod:`.service` ties any recognizer to the command pipeline;
the audio transports (:mod:`.hermes_audio`, :mod:`.wyoming_server`, and the MQTT audio topic via
:mod:`.runtime`) build on the service; :mod:`.runtime` assembles it all for the daemon
(`agent.offline.voice_bench` measures it). pocketsphinx is imported only when a recognizer
is built, so a daemon without ``[voice]`` never loads it.
"""
