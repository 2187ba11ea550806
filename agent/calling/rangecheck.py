"""Refuse a call whose numbers were changed to fit the schema: compare what the user said with
what the call holds.

The call grammar keeps every call valid, so a request outside a parameter's range cannot come
out as that request: "set the thermostat to 99 degrees" decodes as 9 (the digits that fit), "250
percent" as 25, "-20" as the minimum. Running such a call does something the user did not ask
for. :func:`find_remapped` reads the numbers in the request (digits and English number words),
and reports a numeric argument that matches none of them while the request holds a number
outside that parameter's range which no argument of the command accounts for.

Numbers that are not quantities are left out: those inside an enum value or a string argument
("bedroom 2", "plug 3"), clock times ("7:30", "7 am"), numbers glued to a word ("zone2"), and
relative amounts ("up by 2"), which the tools cannot express and the model can only guess.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

_ONES = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen".split()
    )
}
_TENS = {
    w: 10 * i
    for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split())
    if w != "_"
}
_SCALES = {"hundred": 100, "thousand": 1000}


# Every word that says (part of) a number, for code that must leave them as they are.
NUMBER_WORDS = frozenset([*_ONES, *_TENS, *_SCALES, "half", "halfway", "quarter", "quarters"])


def spelled(n: int) -> list[str]:
    """The ways a whole number below 100 is said in words ("21": "twenty one", "twenty-one")."""
    ones = {i: w for w, i in _ONES.items()}
    if n < 20:
        return [ones[n]]
    tens = {i: w for w, i in _TENS.items()}
    if n % 10 == 0:
        return [tens[n]]
    return [f"{tens[n - n % 10]} {ones[n % 10]}", f"{tens[n - n % 10]}-{ones[n % 10]}"]


# "half" alone is 50 percent, but not "half past", "half an hour", "half of them"
_HALF = {"half", "halfway"}
_NOT_HALF_AFTER = {"past", "an", "a", "of", "the"}
_QUARTERS = {"a": 25.0, "one": 25.0, "three": 75.0}
_NEGATIVE = {"minus", "negative"}
# "the one in the kitchen", "this one": a pronoun, not the number 1
_ONE_PRONOUN_BEFORE = {"the", "this", "that", "which", "any", "each", "every", "no", "another"}
# "last one out", "the bright one hurts my eyes", "the laundry one": after a word that says
# which, behind a determiner or owner, "one" stands for a thing too
_WHICH_ONE = {"last", "first", "next", "same", "only", "little", "big", "small", "old"}
_OWNERS = {"the", "this", "that", "my", "our", "your", "his", "her", "their", "its"}
# words after which "one" is a setting's number ("level one", "speed one")
# ("the other one" keeps its number: the mention prior's clause rules read that clause as
# asking for a thing of its own, and send "switch the other one on" to another thing than
# the one just switched)
_ONE_IS_NUMBER_AFTER = {
    "level",
    "speed",
    "setting",
    "number",
    "mode",
    "zone",
    "channel",
    "to",
    "other",
}

_TIME = re.compile(
    r"\b\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\b\.?)?"
    r"|\b\d{1,2}\s*(?:[ap]\.?m\b\.?|o'?clock\b)"
    r"|\b[a-z]+\s+o'?clock\b"
    r"|\b(?:half|(?:a\s+)?quarter)\s+(?:past|to)\s+(?:\d{1,2}|[a-z]+)\b"
)
_TOKEN = re.compile(r"\d+(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|[a-z]+|%|[-\u2212]")


@dataclass(frozen=True)
class Said:
    """One number in the request; ``percent`` when followed by "%" or "percent"."""

    value: float
    percent: bool = False

    def matches(self, v: float, schema: Mapping[str, Any] | None = None) -> bool:
        """Whether argument value ``v`` (of a parameter with ``schema``) is this number."""
        if math.isclose(self.value, v, rel_tol=1e-9, abs_tol=1e-9):
            return True
        # "50 percent" fills a 0..1 parameter as 0.5, and only such a parameter: "200 %" is
        # not a blind's position of 2
        return (
            self.percent
            and is_fraction_param(schema)
            and math.isclose(self.value / 100, v, rel_tol=1e-9, abs_tol=1e-9)
        )

    def text(self) -> str:
        return fmt_number(self.value) + ("%" if self.percent else "")


@dataclass(frozen=True)
class Remapped:
    """A numeric argument that does not hold the number the user asked for."""

    index: int  # which call of the command
    tool: str
    param: str  # dotted path inside the arguments
    said: Said
    value: float  # what the call holds
    low: float | None
    high: float | None

    def range_text(self) -> str:
        if self.low is not None and self.high is not None:
            return f"{fmt_number(self.low)} to {fmt_number(self.high)}"
        if self.low is not None:
            return f"at least {fmt_number(self.low)}"
        return f"at most {fmt_number(self.high)}"  # type: ignore[arg-type]

    def message(self) -> str:
        return (
            f"{self.param} of {self.tool} must be {self.range_text()}, but the request asks "
            f"for {self.said.text()}: refused, nothing was done"
        )


def fmt_number(v: float) -> str:
    """A number as the request would say it in digits (21, not 21.0; 7.5)."""
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def said_numbers(text: str, protected: Iterable[str] = ()) -> list[Said]:
    """The numbers in ``text`` (digits and number words, signed), in order of appearance.

    ``protected`` strings (enum values, string arguments) are blanked first, so the digits of a
    name like "bedroom 2" do not count as a quantity.
    """
    low = text.lower()
    names = {p.lower() for p in protected if _has_number(p.lower())}
    for p in sorted(names, key=len, reverse=True):
        # whole words only: a fan speed "2" is no part of "20" or of "20.2"
        low = re.sub(
            r"(?<![0-9a-z.,])" + re.escape(p) + r"(?![0-9a-z]|[.,][0-9])",
            lambda m: " " * len(m.group()),
            low,
        )
    low = _TIME.sub(lambda m: " " * len(m.group()), low)
    low = re.sub(r"(?<=[a-z])-(?=[a-z])", " ", low)  # "twenty-one"
    toks = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(low)]
    out: list[Said] = []
    i = 0
    while i < len(toks):
        tok, start, end = toks[i]
        first = i
        if tok in _QUARTERS and _peek(toks, i + 1) in ("quarter", "quarters"):
            # "a quarter open", "three quarters of the way": of a percentage; "a quarter of an
            # hour", "by a quarter" are none
            after = [_peek(toks, i + 2), _peek(toks, i + 3)]
            timed = after[0] in ("past", "to", "hour") or after in (["of", "an"], ["of", "a"])
            if not timed and _peek(toks, i - 1) != "by":
                out.append(Said(_QUARTERS[tok], True))
            i += 2
            continue
        if tok[0].isdigit():
            i += 1
            if _glued(low, start, end):
                continue
            value = float(tok.replace(",", ""))
            prev = _peek(toks, first - 1)
            if prev in ("-", "\u2212") and toks[first - 1][2] == start:
                sign_at = toks[first - 1][1]
                if sign_at == 0 or not low[sign_at - 1].isalnum():  # "-20", not "20-25"
                    value = -value
                    first -= 1
            elif prev in _NEGATIVE:
                value = -value
                first -= 1
        elif tok in _ONES or tok in _TENS or (tok == "a" and _peek(toks, i + 1) in _SCALES):
            prev = _peek(toks, i - 1)
            if tok == "one" and (
                prev in _ONE_PRONOUN_BEFORE
                or prev in _WHICH_ONE
                or _peek(toks, i + 1) == "of"
                or (
                    _peek(toks, i - 2) in _OWNERS
                    and prev.isalpha()
                    and prev not in {*_ONES, *_TENS, *_ONE_IS_NUMBER_AFTER}
                )
            ):
                i += 1
                continue
            value, i = _words(toks, i)
            if prev in _NEGATIVE:
                value = -value
                first -= 1
        elif tok in _HALF and _peek(toks, i + 1) not in _NOT_HALF_AFTER:
            # "open the blinds half way", "at half brightness": half of a percentage; not "by
            # half" (relative) nor "an hour and a half" (of whatever came before)
            relative = _peek(toks, i - 1) == "by"
            after_noun = [_peek(toks, i - 2), _peek(toks, i - 1)] == ["and", "a"]
            i += 1 + (tok == "half" and _peek(toks, i + 1) == "way")
            if not relative and not after_noun:
                out.append(Said(50.0, True))
            continue
        else:
            i += 1
            continue
        if [_peek(toks, i + k) for k in range(3)] == ["and", "a", "half"]:
            value += math.copysign(0.5, value) if value else 0.5  # "nineteen and a half"
            i += 3
        pct, i = _percent(toks, i)
        if _peek(toks, first - 1) == "by":  # a relative amount ("up by 2")
            continue
        out.append(Said(value, pct))
    return out


def _has_number(s: str) -> bool:
    # "half ahead" (a fan speed) holds a number word as much as "speed two" does
    return any(c.isdigit() for c in s) or any(w in NUMBER_WORDS for w in re.findall(r"[a-z]+", s))


def _glued(low: str, start: int, end: int) -> bool:
    """Digits that are part of a word: "zone2", "mp3", "2nd"; "21c" and "30s" stay numbers."""
    if start > 0 and (low[start - 1].isalpha() or low[start - 1] == "_"):
        return True
    word = re.match(r"[a-z]+", low[end:])
    return word is not None and word.group() in ("st", "nd", "rd", "th", "x")


def _peek(toks: list[tuple[str, int, int]], i: int) -> str:
    return toks[i][0] if 0 <= i < len(toks) else ""


def _percent(toks: list[tuple[str, int, int]], i: int) -> tuple[bool, int]:
    nxt = _peek(toks, i)
    if nxt in ("%", "percent"):
        return True, i + 1
    if nxt == "per" and _peek(toks, i + 1) == "cent":
        return True, i + 2
    return False, i


def _words(toks: list[tuple[str, int, int]], i: int) -> tuple[float, int]:
    """Read one number written in words from ``toks[i]``; returns (value, next index).

    A ones word after a ones word starts a new number ("one two" is 1 and 2); "and" joins only
    after a scale ("one hundred and five").
    """
    thousands = hundreds = group = 0  # "two thousand three hundred forty five"
    last = ""  # the previous word: ones, teens, tens, scale
    while i < len(toks):
        w = toks[i][0]
        nxt = _peek(toks, i + 1)
        if w == "a" and nxt in _SCALES and last == "":
            group, last = 1, "ones"
        elif w in _ONES and _ONES[w] < 10 and last in ("", "tens", "scale"):
            group, last = group + _ONES[w], "ones"
        elif w in _ONES and _ONES[w] >= 10 and last in ("", "scale"):
            group, last = group + _ONES[w], "teens"
        elif w in _TENS and last in ("", "scale"):
            group, last = group + _TENS[w], "tens"
        elif w == "hundred" and last in ("ones", "teens") and not hundreds:
            hundreds, group, last = group * 100, 0, "scale"
        elif w == "thousand" and last != "" and not thousands:
            thousands, hundreds, group, last = (hundreds + group) * 1000, 0, 0, "scale"
        elif w == "and" and last == "scale" and (nxt in _ONES or nxt in _TENS):
            pass
        elif w == "point" and last and nxt in _ONES and _ONES[nxt] < 10:
            digits = ""
            j = i + 1
            while _peek(toks, j) in _ONES and _ONES[toks[j][0]] < 10:
                digits += str(_ONES[toks[j][0]])
                j += 1
            return float(thousands + hundreds + group) + float("0." + digits), j
        else:
            break
        i += 1
    return float(thousands + hundreds + group), i


def _numeric_args(
    args: Any, schema: Mapping[str, Any], path: str
) -> Iterable[tuple[str, float, Mapping[str, Any]]]:
    """(path, value, schema) for every number in ``args``, following the schema's properties."""
    if isinstance(args, bool):
        return
    if isinstance(args, int | float):
        if math.isfinite(args):
            yield path, float(args), schema
        return
    if isinstance(args, dict):
        props = schema.get("properties") or {}
        for k, v in args.items():
            sub = props.get(k)
            if isinstance(sub, Mapping):
                yield from _numeric_args(v, sub, f"{path}.{k}" if path else k)
    elif isinstance(args, list) and isinstance(schema.get("items"), Mapping):
        for n, v in enumerate(args):
            yield from _numeric_args(v, schema["items"], f"{path}[{n}]")


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _bounds(schema: Mapping[str, Any]) -> tuple[float | None, float | None, bool, bool]:
    low, high = schema.get("minimum"), schema.get("maximum")
    xlow, xhigh = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    low_x = high_x = False
    if isinstance(xlow, int | float) and not isinstance(xlow, bool):
        if low is None or xlow >= low:
            low, low_x = xlow, True
    if isinstance(xhigh, int | float) and not isinstance(xhigh, bool):
        if high is None or xhigh <= high:
            high, high_x = xhigh, True
    return low, high, low_x, high_x


def is_fraction_param(schema: Mapping[str, Any] | None) -> bool:
    """A parameter whose values are fractions (maximum 1 or below): a percentage fills it."""
    if schema is None:
        return False
    high = _bounds(schema)[1]
    return high is not None and high <= 1


def fits(said: Said, schema: Mapping[str, Any]) -> bool:
    """Whether a said number lies in a parameter's range; a percentage fills a 0..1 parameter
    as a fraction ("50 percent" is 0.5 there)."""
    fraction = said.percent and is_fraction_param(schema)
    return not _outside(said.value / 100 if fraction else said.value, schema)


def _outside(v: float, schema: Mapping[str, Any]) -> bool:
    low, high, low_x, high_x = _bounds(schema)
    if low is not None and (v < low or (low_x and v == low)):
        return True
    return high is not None and (v > high or (high_x and v == high))


def find_remapped(
    text: str, calls: list[Any], tools: Mapping[str, Mapping[str, Any]]
) -> Remapped | None:
    """The first numeric argument of ``calls`` that stands in for an out-of-range request.

    ``tools`` maps a tool name to its schema (``parameters``). An argument is reported when it
    equals no number of the request, and the request holds a number outside the argument's
    range that no argument of the command holds (so "kitchen to 50 and the heating warmer" does
    not blame the heating for the 50 that belongs to the light).
    """
    protected: list[str] = []
    for schema in tools.values():
        protected.extend(_enum_strings(schema.get("parameters") or {}))
    numeric: list[tuple[int, str, str, float, Mapping[str, Any]]] = []
    for index, call in enumerate(calls):
        if not isinstance(call, dict):
            continue
        name, args = call.get("name"), call.get("arguments")
        schema = tools.get(name) if isinstance(name, str) else None
        protected.extend(_strings(args))
        if schema is None:
            continue
        for path, value, sub in _numeric_args(args, schema.get("parameters") or {}, ""):
            numeric.append((index, name, path, value, sub))  # type: ignore[arg-type]
    if not numeric:
        return None
    said = said_numbers(text, protected)
    if not said:
        return None
    unaccounted = [s for s in said if not any(s.matches(n[3], n[4]) for n in numeric)]
    for index, name, path, value, sub in numeric:
        if any(s.matches(value, sub) for s in said):
            continue
        # a number said straight after the parameter's own name is that parameter's, though
        # another argument took it ("booth 2 brightness 110" -> brightness 11, a fade of 110)
        for s in _said_after_name(text, path.rsplit(".", 1)[-1], protected):
            if not fits(s, sub):
                low, high, _, _ = _bounds(sub)
                return Remapped(index, name, path, s, value, low, high)
        for s in unaccounted:
            if not fits(s, sub):
                low, high, _, _ = _bounds(sub)
                return Remapped(index, name, path, s, value, low, high)
    return None


def _said_after_name(text: str, key: str, protected: Iterable[str]) -> list[Said]:
    """The numbers said right after a parameter's name ("brightness 110", "temperature of
    40"), the name as the key spells it with spaces for underscores."""
    name = key.replace("_", " ").strip().lower()
    if len(name) < 4:
        return []
    out: list[Said] = []
    pattern = rf"\b{re.escape(name)}\s+(?:(?:to|at|of)\s+)?([0-9][0-9.,]*\s*(?:%|percent)?)"
    for m in re.finditer(pattern, text.lower()):
        out += said_numbers(m.group(1), protected)
    return out


def _enum_strings(schema: Mapping[str, Any]) -> Iterable[str]:
    for v in schema.get("enum") or []:
        if isinstance(v, str):
            yield v
    for sub in (schema.get("properties") or {}).values():
        if isinstance(sub, Mapping):
            yield from _enum_strings(sub)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), Mapping):
            yield from _enum_strings(schema[key])
    for sub in schema.get("anyOf") or []:
        if isinstance(sub, Mapping):
            yield from _enum_strings(sub)
