"""The pocketsphinx recognizer: the acoustic model bundled in its wheel, a grammar from the tools.

Each utterance is decoded twice: under the tools' JSGF grammar, and under a free phone loop (the
bundled phone bigram), which fits any speech about as well as the acoustic model can. For each
word the grammar path chose, the phone loop's score over the same frames is the yardstick: a
command's words fit nearly as well as the free phones do, while speech the grammar cannot
produce is forced through the nearest command and its words fit much worse. The mean gap per
frame is the out-of-grammar test and the basis of the confidence. A hypothesis that does not
reach the end of the grammar (an incomplete command) or is empty is rejected outright.

Only the grammar's words are loaded from the bundled dictionary (all of it is 135,000 words);
words it lacks get a pronunciation from :mod:`agent.service.voice.g2p`, and are logged.
"""

from __future__ import annotations

import logging
import math
import os
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agent.service.voice.asr import Transcript
from agent.service.voice.audio import RATE
from agent.service.voice.g2p import Lexicon
from agent.service.voice.grammar import SentencesFile, VoiceGrammar, build_grammar, normalize_words

log = logging.getLogger("needled.voice.sphinx")

FRAMES_PER_SECOND = 100  # the acoustic model's 10 ms frame shift

# Confidence = 1 / (1 + exp(SLOPE * (gap - MID))), gap = mean per-frame log-likelihood gap of
# the grammar's words against the phone loop (natural log). Commands of the espeak-ng test set
# lie around 2.5 to 4, forced non-commands from about 3.5 upwards; MID sits where the two meet
# (see tests/test_voice_accuracy.py for the measured rates).
GAP_MID = 4.0
GAP_SLOPE = 3.0
DEFAULT_THRESHOLD = 0.5

# Search beams: narrower than pocketsphinx's defaults (1e-48), which decode a tools grammar two
# to three times slower on a Pi-class core for no accuracy gain on the test set.
BEAMS = {"beam": 1e-30, "pbeam": 1e-30, "wbeam": 1e-20}
# Dither: synthesised or gated audio has stretches of exact digital silence, whose log energy
# throws off the features; a least-significant-bit of noise keeps them finite. On the test set
# it turned a fifth of the clean commands from "no command heard" into correct transcripts.
DITHER = True
DITHER_SEED = 1  # a fixed seed: the same audio gives the same transcript, run after run

_NOT_WORDS = ("<s>", "</s>", "<sil>")
_LN_FLOOR = -745.0  # ln of the smallest double: a score that underflowed to 0


def model_path() -> Path:
    """The US-English acoustic model and dictionary shipped inside the pocketsphinx wheel."""
    import pocketsphinx

    return Path(pocketsphinx.get_model_path()) / "en-us"


def _ln(p: float) -> float:
    # the bindings hand segment scores back as probabilities (exp of the log score)
    return math.log(p) if p > 0 else _LN_FLOOR


class SphinxRecognizer:
    """`agent.service.voice.asr.Recognizer` on pocketsphinx; :meth:`set_tools` rebuilds it."""

    def __init__(
        self,
        tools: Sequence[Mapping[str, Any]],
        sentences: SentencesFile | None = None,
        *,
        threshold: float = DEFAULT_THRESHOLD,
        two_requests: bool = False,
    ) -> None:
        import pocketsphinx

        self._ps = pocketsphinx
        self.threshold = threshold
        self.sentences = sentences
        self.two_requests = two_requests
        base = model_path()
        self.lexicon = Lexicon(base / "cmudict-en-us.dict")
        self._phone_lm = str(base / "en-us-phone.lm.bin")
        self._hmm = str(base / "en-us")
        self.grammar: VoiceGrammar | None = None
        self.guessed: dict[str, str] = {}
        self._decoder: Any = None
        self._fsg: Any = None
        self.set_tools(tools)

    # --- grammar --------------------------------------------------------------------------------

    def set_tools(self, tools: Sequence[Mapping[str, Any]]) -> None:
        """Regenerate the grammar and dictionary for these tools (config load and reload)."""
        t0 = time.perf_counter()
        grammar = build_grammar(tools, self.sentences, two_requests=self.two_requests)
        prons, guessed = self.lexicon.pronounce(sorted(grammar.words))
        for word in sorted(guessed):
            log.warning(
                "voice: %r is not in the bundled dictionary; guessed pronunciation %s",
                word,
                prons[word][0],
            )
        decoder = self._make_decoder(prons)
        fsg = decoder.parse_jsgf(grammar.jsgf)
        decoder.add_fsg("command", fsg)
        decoder.add_allphone_file("phones", self._phone_lm)
        self.grammar, self._decoder, self._fsg = grammar, decoder, fsg
        self.guessed = {w: prons[w][0] for w in guessed}
        log.info(
            "voice grammar: %d tools, %d words (%d guessed), built in %.0f ms",
            len(grammar.tools),
            len(grammar.words),
            len(guessed),
            (time.perf_counter() - t0) * 1000,
        )

    def _make_decoder(self, prons: Mapping[str, list[str]]) -> Any:
        lines = [
            f"{w}{'' if i == 0 else f'({i + 1})'} {p}"
            for w, variants in prons.items()
            for i, p in enumerate(variants)
        ]
        # The decoder reads its dictionary from a file, needed only while it loads.
        fd, path = tempfile.mkstemp(prefix="needled-voice-", suffix=".dict")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
            return self._ps.Decoder(
                hmm=self._hmm,
                dict=path,
                lm=None,
                loglevel="FATAL",
                samprate=RATE,
                dither=DITHER,
                seed=DITHER_SEED,
                **BEAMS,
            )
        finally:
            os.unlink(path)

    def in_grammar(self, text: str) -> bool:
        """Whether the grammar can produce ``text`` (words as :func:`normalize_words` gives)."""
        return bool(self._fsg.accept(" ".join(normalize_words(text))))

    # --- decoding -------------------------------------------------------------------------------

    def _decode(self, search: str, pcm: bytes) -> tuple[str, list[tuple[str, float, int, int]]]:
        d = self._decoder
        d.activate_search(search)
        d.start_utt()
        d.process_raw(pcm, full_utt=True)
        d.end_utt()
        hyp = d.hyp()
        if hyp is None:
            return "", []
        segs = [(s.word, _ln(s.ascore), s.start_frame, s.end_frame) for s in d.seg() or ()]
        return hyp.hypstr.strip(), segs

    def transcribe(self, pcm: bytes) -> Transcript:
        """One utterance of 16 kHz mono int16 PCM -> what was said, or a rejection."""
        t0 = time.perf_counter()
        if len(pcm) < RATE // 5:  # 0.1 s
            return Transcript("", 0.0, True, "audio shorter than 0.1 s")
        text, words = self._decode("command", pcm)
        t1 = time.perf_counter()
        timings = {"grammar_ms": round((t1 - t0) * 1000, 2)}
        if not text:
            return Transcript("", 0.0, True, "no command heard", timings)
        if not self._fsg.accept(text):
            return Transcript(text, 0.0, True, "incomplete command", timings)
        _, phones = self._decode("phones", pcm)
        timings["phone_loop_ms"] = round((time.perf_counter() - t1) * 1000, 2)
        gap = _mean_gap(words, phones)
        confidence = 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, GAP_SLOPE * (gap - GAP_MID)))))
        confidence = round(confidence, 4)
        if confidence < self.threshold:
            return Transcript(text, confidence, True, "does not sound like a command", timings)
        return Transcript(text, confidence, False, "", timings)


def _mean_gap(
    words: Sequence[tuple[str, float, int, int]], phones: Sequence[tuple[str, float, int, int]]
) -> float:
    """Mean per-frame score gap of the grammar's words against the phone loop, same frames."""
    if not phones:
        return float("inf")
    n = max(end for *_, end in phones) + 1
    # the phone loop's score spread evenly over each phone's frames, summed cumulatively
    per_frame = [0.0] * n
    for _, score, start, end in phones:
        share = score / (end - start + 1)
        for f in range(start, min(end, n - 1) + 1):
            per_frame[f] = share
    cum = [0.0]
    for v in per_frame:
        cum.append(cum[-1] + v)
    gap, frames = 0.0, 0
    for word, score, start, end in words:
        if word in _NOT_WORDS or word.startswith("["):
            continue
        lo, hi = min(start, n), min(end + 1, n)
        gap += (cum[hi] - cum[lo]) - score
        frames += end - start + 1
    return gap / frames if frames else float("inf")


class SphinxEndpointer:
    """Cuts a live 16 kHz stream into utterances with pocketsphinx's ``Endpointer`` (VAD)."""

    def __init__(self, window: float = 0.3, ratio: float = 0.9) -> None:
        import pocketsphinx

        self._ep = pocketsphinx.Endpointer(window=window, ratio=ratio, sample_rate=RATE)
        self._frame = self._ep.frame_bytes
        self._pending = b""
        self._speech: list[bytes] = []

    @property
    def in_speech(self) -> bool:
        return bool(self._ep.in_speech)

    def feed(self, pcm: bytes) -> list[bytes]:
        """Add audio; returns the utterances that ended within it (PCM, speech only)."""
        done: list[bytes] = []
        data = self._pending + pcm
        usable = len(data) - len(data) % self._frame
        self._pending = data[usable:]
        for i in range(0, usable, self._frame):
            was = self._ep.in_speech
            out = self._ep.process(data[i : i + self._frame])
            if out is not None:
                self._speech.append(bytes(out))
            if was and not self._ep.in_speech:
                done.append(b"".join(self._speech))
                self._speech = []
        return done

    def flush(self) -> bytes:
        """End of stream: the speech heard since the last utterance ended (maybe empty)."""
        if self._ep.in_speech:
            tail = self._ep.end_stream(self._pending)
            if tail is not None:
                self._speech.append(bytes(tail))
        self._pending = b""
        out = b"".join(self._speech)
        self._speech = []
        return out
