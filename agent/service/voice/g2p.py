"""Pronunciations for the grammar's words: the bundled dictionary, else spelling rules.

A word the dictionary lacks (a room called "snug", a device called "zigbee lamp") is first tried
as a compound of dictionary words ("playroom" = "play" + "room"), then spelled out by letter
rules to ARPAbet. The rules are rough, but the grammar constrains the search so strongly that a
rough pronunciation still wins against the other paths; every guessed word is logged so a user
can add a proper one.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

# Longest graphemes first; each maps to ARPAbet phones of the bundled acoustic model.
_GRAPHEMES: list[tuple[str, str]] = sorted(
    {
        "tch": "CH",
        "sch": "S K",
        "igh": "AY",
        "ough": "AO",
        "tion": "SH AH N",
        "sion": "ZH AH N",
        "sh": "SH",
        "ch": "CH",
        "th": "TH",
        "ph": "F",
        "ck": "K",
        "ng": "NG",
        "qu": "K W",
        "wh": "W",
        "kn": "N",
        "ee": "IY",
        "ea": "IY",
        "ie": "IY",
        "oo": "UW",
        "ou": "AW",
        "ow": "OW",
        "ai": "EY",
        "ay": "EY",
        "ey": "EY",
        "oi": "OY",
        "oy": "OY",
        "au": "AO",
        "aw": "AO",
        "er": "ER",
        "ir": "ER",
        "ur": "ER",
        "ar": "AA R",
        "or": "AO R",
        "a": "AE",
        "b": "B",
        "c": "K",
        "d": "D",
        "e": "EH",
        "f": "F",
        "g": "G",
        "h": "HH",
        "i": "IH",
        "j": "JH",
        "k": "K",
        "l": "L",
        "m": "M",
        "n": "N",
        "o": "AA",
        "p": "P",
        "q": "K",
        "r": "R",
        "s": "S",
        "t": "T",
        "u": "AH",
        "v": "V",
        "w": "W",
        "x": "K S",
        "y": "IY",
        "z": "Z",
        "0": "Z IY R OW",
        "1": "W AH N",
        "2": "T UW",
        "3": "TH R IY",
        "4": "F AO R",
        "5": "F AY V",
        "6": "S IH K S",
        "7": "S EH V AH N",
        "8": "EY T",
        "9": "N AY N",
    }.items(),
    key=lambda kv: -len(kv[0]),
)
_VOWELS = set("aeiou")


def spell(word: str) -> str:
    """Letter rules: ``"snug"`` -> ``"S N AH G"``. Always returns at least one phone."""
    w = "".join(c for c in word.lower() if c.isalnum())
    phones: list[str] = []
    i = 0
    while i < len(w):
        rest = w[i:]
        if rest == "e" and i > 1:  # a final silent e
            break
        if i == 0 and rest[0] == "y" and len(w) > 1:
            phones.append("Y")
            i += 1
            continue
        if rest[0] == "c" and len(rest) > 1 and rest[1] in "eiy":
            phones.append("S")
            i += 1
            continue
        if i and rest[0] == w[i - 1] and rest[0] not in _VOWELS:
            i += 1  # doubled consonants are one sound
            continue
        for g, p in _GRAPHEMES:
            if rest.startswith(g):
                phones.extend(p.split())
                i += len(g)
                break
        else:
            i += 1
    return " ".join(phones) or "AH"


class Lexicon:
    """Pronunciations from a CMU-format dictionary, read once for only the words asked for."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def _lookup(self, words: set[str]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        with self.path.open(encoding="utf-8", errors="replace") as f:
            for line in f:
                head, _, phones = line.partition(" ")
                word = head.split("(", 1)[0]
                if word in words:
                    found.setdefault(word, []).append(phones.strip())
        return found

    def pronounce(self, words: Iterable[str]) -> tuple[dict[str, list[str]], set[str]]:
        """(word -> its pronunciations, the words not in the dictionary): dictionary variants,
        else a compound of dictionary words, else spelled out by rule."""
        wanted = {w.lower() for w in words}
        pieces = {w[:i] for w in wanted for i in range(2, len(w) - 1)}
        pieces |= {w[i:] for w in wanted for i in range(2, len(w) - 1)}
        found = self._lookup(wanted | pieces)
        out: dict[str, list[str]] = {}
        guessed: set[str] = set()
        for w in sorted(wanted):
            if w in found:
                out[w] = found[w]
                continue
            guessed.add(w)
            out[w] = [_compound(w, found) or spell(w)]
        return out, guessed


def _compound(word: str, found: dict[str, list[str]]) -> str | None:
    # the split with the longest first part that leaves a known word: "bathroom" -> bath + room
    for i in range(len(word) - 2, 1, -1):
        a, b = word[:i], word[i:]
        if a in found and b in found:
            return f"{found[a][0]} {found[b][0]}"
    return None
