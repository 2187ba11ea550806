"""The sentences-file template language: a template line's syntax tree, the sentences file's
sections, and the walks over them that training and the voice grammar share.

The syntax is documented in `agent.offline.train.synth`, which generates training data from it;
the voice recognizer builds its grammar from the same files (`agent.service.voice.grammar`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split()
)
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: float, hyphen: bool = False) -> str:
    """`21` -> `twenty one` (`twenty-one` with `hyphen`), `21.5` -> `twenty one point five`,
    `-3` -> `minus three`; digits beyond 999."""
    if n < 0:
        return "minus " + number_words(-n, hyphen)
    if n != int(n):
        whole, frac = f"{n:.10g}".split(".")
        tail = " ".join(_ONES[int(c)] for c in frac)
        return number_words(int(whole), hyphen) + " point " + tail
    n = int(n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        t, o = divmod(n, 10)
        return _TENS[t] + (("-" if hyphen else " ") + _ONES[o] if o else "")
    if n < 1000:
        h, r = divmod(n, 100)
        if not r:
            return _ONES[h] + " hundred"
        return _ONES[h] + " hundred " + ("and " if r < 10 else "") + number_words(r, hyphen)
    return str(n)


def tool_params(tool: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A tool schema's (properties, required names)."""
    p = tool.get("parameters") or {}
    return dict(p.get("properties") or {}), list(p.get("required") or [])


# ----------------------------------------------------------------------------------------------
# template AST


@dataclass
class Word:
    text: str


@dataclass
class Seq:
    items: list[Any]
    glue: list[bool] = field(default_factory=list)  # item i follows i-1 with no space


@dataclass
class Alt:
    options: list[Seq]
    optional: bool = False


@dataclass
class Slot:
    name: str


@dataclass
class Range:
    lo: float
    hi: float
    step: float
    integer: bool


@dataclass
class Tag:
    item: Any | None
    name: str
    value: Any = None
    has_value: bool = False


class TemplateError(ValueError):
    pass


_RANGE = re.compile(
    r"^\s*(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)\s*(?:,\s*(\d+(?:\.\d+)?))?\s*$"
)


def _literal(raw: str) -> Any:
    raw = raw.strip()
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


class _Parser:
    def __init__(self, src: str, where: str) -> None:
        self.s = src
        self.i = 0
        self.where = where

    def error(self, msg: str) -> TemplateError:
        return TemplateError(f"{self.where}: {msg} at column {self.i + 1}: {self.s!r}")

    def parse(self) -> Seq:
        alt = self.alternatives(end=None)
        if self.i < len(self.s):
            raise self.error(f"unexpected {self.s[self.i]!r}")
        return alt.options[0] if len(alt.options) == 1 else Seq([alt])

    def alternatives(self, end: str | None) -> Alt:
        options = [self.sequence(end)]
        while self.i < len(self.s) and self.s[self.i] == "|":
            self.i += 1
            options.append(self.sequence(end))
        return Alt(options)

    def sequence(self, end: str | None) -> Seq:
        items: list[Any] = []
        glue: list[bool] = []
        spaced = True
        while self.i < len(self.s):
            c = self.s[self.i]
            if c == "|" or (end is not None and c == end):
                break
            if c in ")]" and c != end:
                raise self.error(f"unbalanced {c!r}")
            if c.isspace():
                self.i += 1
                spaced = True
                continue
            glue.append(bool(items) and not spaced)
            spaced = False
            if c == "{":
                items.append(self.brace(None))
                continue
            if c in "([":
                close = ")" if c == "(" else "]"
                start = self.i + 1
                depth = 1
                j = start
                while j < len(self.s) and depth:
                    depth += {c: 1, close: -1}.get(self.s[j], 0)
                    j += 1
                if depth:
                    raise self.error(f"unclosed {c!r}")
                m = _RANGE.match(self.s[start : j - 1]) if c == "(" else None
                if m:
                    lo, hi, step = m.group(1), m.group(2), m.group(3)
                    integer = "." not in lo + hi + (step or "")
                    item: Any = Range(float(lo), float(hi), float(step or 1), integer)
                    self.i = j
                else:
                    self.i += 1
                    item = self.alternatives(close)
                    if self.i >= len(self.s) or self.s[self.i] != close:
                        raise self.error(f"expected {close!r}")
                    self.i += 1
                    item.optional = c == "["
            else:
                j = self.i
                while j < len(self.s) and not self.s[j].isspace() and self.s[j] not in "()[]{}|":
                    j += 1
                item = Word(self.s[self.i : j])
                self.i = j
            if self.i < len(self.s) and self.s[self.i] == "{":
                item = self.brace(item)
            items.append(item)
        return Seq(items, glue)

    def brace(self, item: Any | None) -> Any:
        j = self.s.find("}", self.i)
        if j < 0:
            raise self.error("unclosed '{'")
        body = self.s[self.i + 1 : j].strip()
        self.i = j + 1
        if not body:
            raise self.error("empty '{}'")
        name, sep, value = body.partition(":")
        name = name.strip()
        if item is None and not sep:
            return Slot(name)
        return Tag(item, name, _literal(value) if sep else None, bool(sep))


def parse_template(src: str, where: str = "template") -> Seq:
    """Parse one template line into its syntax tree (raises `TemplateError`)."""
    return _Parser(src, where).parse()


# ----------------------------------------------------------------------------------------------
# sentences file


@dataclass
class SentencesFile:
    tools: dict[str, list[tuple[Seq, str]]] = field(default_factory=dict)
    slots: dict[str, dict[Any, list[str]]] = field(default_factory=dict)  # "room"/"tool.room"
    unknown: dict[str, list[str]] = field(default_factory=dict)
    negation: list[Seq] = field(default_factory=list)
    join: list[str] = field(default_factory=list)
    offtopic: list[Seq] = field(default_factory=list)


def parse_sentences(text: str, path: str = "<sentences>") -> SentencesFile:
    """Parse a sentences file (see the module docstring)."""
    sf = SentencesFile()
    section: str | None = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = re.split(r"(?:^|\s)[#;]", raw, maxsplit=1)[0].strip()
        if not line:
            continue
        where = f"{path}:{lineno}"
        if line.startswith("[") and line.endswith("]") and "|" not in line:
            section = line[1:-1].strip()
            if section.startswith("slot "):
                sf.slots.setdefault(section[5:].strip(), {})
            elif section not in ("negation", "join", "offtopic"):
                sf.tools.setdefault(section, [])
            continue
        if section is None:
            raise TemplateError(f"{where}: a line before any [section]")
        if section.startswith("slot "):
            key = section[5:].strip()
            value, sep, forms = line.partition("=")
            if not sep:
                raise TemplateError(f"{where}: slot lines are `value = form | form`")
            spoken = [f.strip() for f in forms.split("|") if f.strip()]
            if value.strip() == "_unknown":
                sf.unknown.setdefault(key, []).extend(spoken)
            else:
                sf.slots[key].setdefault(_literal(value), []).extend(spoken)
        elif section == "negation":
            if "{request}" not in line:
                raise TemplateError(f"{where}: a negation pattern needs {{request}}")
            sf.negation.append(line)  # type: ignore[arg-type]
        elif section == "join":
            if "{first}" not in line or "{second}" not in line:
                raise TemplateError(f"{where}: a join pattern needs {{first}} and {{second}}")
            sf.join.append(line)
        elif section == "offtopic":
            sf.offtopic.append(parse_template(line, where))
        else:
            sf.tools[section].append((parse_template(line, where), where))
    return sf


def walk_template(node: Any) -> Iterator[Any]:
    """Every node of a parsed template, depth first (the node itself first)."""
    yield node
    if isinstance(node, Seq):
        for i in node.items:
            yield from walk_template(i)
    elif isinstance(node, Alt):
        for o in node.options:
            yield from walk_template(o)
    elif isinstance(node, Tag) and node.item is not None:
        yield from walk_template(node.item)
