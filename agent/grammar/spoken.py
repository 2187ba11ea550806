"""A request as it would be written, from the way it was spoken or texted.

A speech recogniser writes what was said: "okay so switch off the lights in priyas room",
"set the heating to twenty no twenty two", "turn on the uh porch light". A phone writes
"kill snack nook lights n turn on the fan 😴". `as_written` mends what the model (trained on
tidy commands) stumbles on, and nothing else:

- emoji and other pictographs go;
- hesitations ("um", "uh", "erm") go, with a little word they made the speaker say twice
  ("the uh the"), and so do interjections that open the request ("okay so ...") unless they
  start a name;
- "n", "+" and "&" between words are "and";
- a name with a possessive said without its apostrophe is written as the name writes it
  ("priyas room" -> "Priya's room");
- a number or an on/off corrected at once keeps only the correction ("twenty no twenty two"
  -> "twenty two", "on no sorry off" -> "off").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from agent.rangecheck import NUMBER_WORDS

_HESITATIONS = re.compile(r"(?<![\w'])(?:u+h+|u+m+|e+r+m+|e+r+|h+m+)(?![\w'])[,.]?\s*", re.I)
_OPENERS = frozenset("okay ok so well right alright oh".split())  # not "hey needle"
_AND = re.compile(r"(?<=\w)\s+(?:n|\+|&)\s+(?=\w)")
# Words that take back what was just said ("twenty no twenty two").
_TAKE_BACK = re.compile(
    r"\s+(?:no\s+wait|no\s+sorry|sorry\s+no|no|wait|sorry|actually|i\s+mean|or\s+rather)"
    r"[,.]?\s+",
    re.IGNORECASE,
)
# A little word said twice over a hesitation ("turn on the uh the porch light").
_TWICE = re.compile(r"\b(the|a|an|to|my|in)\s+\1\b", re.IGNORECASE)
_NUMBERISH = NUMBER_WORDS | {"point", "and", "a"}
_SENSES = frozenset("on off".split())


def _pictograph(ch: str) -> bool:
    if ch in "\u00b0\u2103\u2109":  # degree signs are units
        return False
    cat = unicodedata.category(ch)
    return cat == "So" or ch in "\ufe0f\u200d" or 0x1F3FB <= ord(ch) <= 0x1F3FF


def _number_run_before(ws: list[str]) -> int:
    """How many of the last words of `ws` say one number ("twenty three", "19.5")."""
    n = 0
    while n < len(ws) and (ws[-1 - n] in _NUMBERISH or _digits(ws[-1 - n])):
        n += 1
    while n and ws[-n] in ("and", "a", "point"):  # a run starts with a number
        n -= 1
    return n


def _digits(w: str) -> bool:
    return bool(re.fullmatch(r"\d+(?:\.\d+)?%?", w))


def _starts_number(ws: list[str]) -> bool:
    return bool(ws) and (ws[0] in NUMBER_WORDS or _digits(ws[0]))


def _corrected(text: str) -> str:
    """`text` with each number or on/off taken back at once left out ("twenty no twenty
    two" -> "twenty two")."""
    while True:
        for m in _TAKE_BACK.finditer(text):
            before, after = text[: m.start()].split(), text[m.end() :].split()
            low_b = [w.lower() for w in before]
            low_a = [w.lower() for w in after]
            n = _number_run_before(low_b)
            if n and _starts_number(low_a):
                text = " ".join(before[:-n] + after)
                break
            if low_b and low_b[-1] in _SENSES and low_a and low_a[0] in _SENSES:
                text = " ".join(before[:-1] + after)
                break
        else:
            return text


def _apostrophes(text: str, names: Iterable[str]) -> str:
    """`text` with each name's possessive said without its apostrophe written with it."""
    for name in names:
        for word in re.findall(r"\b\w+'s\b", name):
            bare = word.replace("'", "")
            text = re.sub(rf"\b{re.escape(bare)}\b", word.replace("\\", r"\\"), text, flags=re.I)
    return text


def as_written(text: str, names: Iterable[str] = ()) -> str:
    """`text` with the noise of speech and texting mended (see the module's text); `names`
    are the tools' names of things (rooms, devices), which no rule here may break."""
    names = list(names)
    out = "".join(ch for ch in text if not _pictograph(ch))
    out = _HESITATIONS.sub("", out).strip()
    out = _TWICE.sub(r"\1", out)
    name_starts = {n.split()[0].lower() for n in names if n.split()}
    ws = out.split()
    lead = 0
    while lead < len(ws) - 1 and ws[lead].lower().strip(",.!") in _OPENERS:
        if ws[lead].lower().strip(",.!") in name_starts:
            break
        lead += 1
    if lead:
        out = " ".join(ws[lead:])
    out = _AND.sub(" and ", out)
    out = _apostrophes(out, names)
    out = _corrected(out)
    return out if out.strip() else text
