"""The recognition grammar: a JSGF grammar and its vocabulary, built from the configured tools.

Recognition is constrained to what the home can do. The phrasings are the templates of the
sentences file that also makes the model's training data (``agent/data/demo_sentences.ini`` by
default); slot values come from the *configured* tool schemas, so a room that is not in the
config cannot be heard and a renamed room can: enum values with their spoken forms from the
file's ``[slot]`` sections (a value without one is spoken as written), numbers inside each
schema's ``minimum``/``maximum``. Tools the file has no section for get phrasings built from
their schema alone. One or two requests per utterance, with optional politeness around them.

Template lines that bind nothing or leave a required parameter unset (the training data's
"missing value" refusals) are left out: they are not commands, and a grammar that accepts them
also accepts more non-commands.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent import DATA_DIR
from agent.calling.sentences import (
    Alt,
    Range,
    SentencesFile,
    Seq,
    Slot,
    Tag,
    Word,
    number_words,
    parse_sentences,
    parse_template,
    tool_params,
    walk_template,
)

log = logging.getLogger("needled.voice.grammar")

JsonDict = dict[str, Any]

DEFAULT_SENTENCES = DATA_DIR / "demo_sentences.ini"

# Said around a request; kept short because every optional word widens what the grammar accepts.
POLITE_BEFORE = (
    "please",
    "could you [please]",
    "can you [please]",
    "would you [please]",
    "hey",
    "ok",
)
POLITE_AFTER = ("please", "thanks", "thank you", "now", "for me")
JOINS = ("and", "and then", "then", "and also")

# Verbs a tool name starts with that are not part of what the device is called.
_NAME_VERBS = {"set", "get", "turn", "toggle", "switch", "control", "change"}

_TOKEN = re.compile(r"[a-z0-9']+")


def normalize_words(text: str) -> list[str]:
    """Text as the recognizer's words: lower case, ``%`` as ``percent``, hyphens as spaces,
    punctuation other than apostrophes dropped."""
    text = text.lower().replace("%", " percent ").replace("-", " ")
    return [t.strip("'") for t in _TOKEN.findall(text) if t.strip("'")]


@dataclass(frozen=True)
class VoiceGrammar:
    """A JSGF grammar (top rule ``<command>``) and every word it can produce."""

    jsgf: str
    words: frozenset[str]
    tools: tuple[str, ...]


def load_sentences(path: str | Path | None = None) -> SentencesFile:
    """Parse the sentences file (``None``: the bundled demo phrasings)."""
    p = Path(path) if path else DEFAULT_SENTENCES
    return parse_sentences(p.read_text(encoding="utf-8"), str(p))


def build_grammar(
    tools: Sequence[Mapping[str, Any]],
    sentences: SentencesFile | None = None,
    *,
    two_requests: bool = False,
) -> VoiceGrammar:
    """The grammar for these tool schemas, phrased by ``sentences`` (default: the bundled file).

    ``two_requests`` also accepts "<request> and <request>"; it doubles the search network (the
    decoder inlines every rule reference), so decoding takes about twice as long.
    """
    sf = sentences if sentences is not None else load_sentences()
    return _Builder(tools, sf, two_requests).build()


class _Builder:
    def __init__(
        self, tools: Sequence[Mapping[str, Any]], sf: SentencesFile, two_requests: bool
    ) -> None:
        self.two_requests = two_requests
        self.tools = {str(t["name"]): t for t in tools}
        self.sf = sf
        self.rules: dict[str, str] = {}
        self.words: set[str] = set()

    # --- output ---------------------------------------------------------------------------------

    def build(self) -> VoiceGrammar:
        requests = []
        for name, tool in self.tools.items():
            alts = self.tool_alternatives(name, tool)
            if not alts:
                log.warning("voice: no phrasing for tool %s; it cannot be spoken", name)
                continue
            rule = self.rule_name("tool", name)
            self.rules[rule] = " | ".join(alts)
            requests.append(f"<{rule}>")
        if not requests:
            raise ValueError("no tool can be spoken: the grammar would be empty")
        self.rules["request"] = " | ".join(requests)
        before = " | ".join(self.phrase(p) for p in POLITE_BEFORE)
        after = " | ".join(self.phrase(p) for p in POLITE_AFTER)
        second = ""
        if self.two_requests:
            second = " [(" + " | ".join(self.phrase(j) for j in JOINS) + ") <request>]"
        body = [
            "#JSGF V1.0;",
            "grammar needled;",
            f"public <command> = [{before}] <request>{second} [{after}];",
        ]
        body += [f"<{name}> = {expr};" for name, expr in self.rules.items()]
        return VoiceGrammar("\n".join(body) + "\n", frozenset(self.words), tuple(self.tools))

    @staticmethod
    def rule_name(*parts: str) -> str:
        return "_".join(re.sub(r"[^A-Za-z0-9]+", "_", p) for p in parts)

    def phrase(self, text: str) -> str:
        """A template-syntax phrase (no slots) as a JSGF expression."""
        return self.expr(parse_template(text), None)

    def tokens(self, text: str) -> str:
        words = normalize_words(text)
        self.words.update(words)
        return " ".join(words)

    # --- tools ----------------------------------------------------------------------------------

    def tool_alternatives(self, name: str, tool: Mapping[str, Any]) -> list[str]:
        props, required = tool_params(tool)
        lines = self.sf.tools.get(name)
        if lines is None:
            lines = [(parse_template(t), f"<schema of {name}>") for t in _schema_templates(tool)]
        alts = []
        for tree, where in lines:
            bound = _bound(tree)
            if not bound or not set(required) <= bound:
                continue  # a refusal line of the training data, not a command
            if any(p not in props for p in _referenced(tree)):
                log.warning("voice: %s names a parameter %s has not; line skipped", where, name)
                continue
            if any(not self.speakable(name, p, props[p]) for p in _slots(tree)):
                log.info("voice: %s has a free-text slot; line skipped", where)
                continue
            expr = self.expr(tree, name)
            if expr:
                alts.append(expr)
        return alts

    def speakable(self, tool: str, param: str, schema: Mapping[str, Any]) -> bool:
        return (
            "enum" in schema
            or schema.get("type") in ("boolean", "integer", "number")
            or bool(self.forms(tool, param))
        )

    def forms(self, tool: str, param: str) -> Mapping[Any, list[str]]:
        return self.sf.slots.get(f"{tool}.{param}") or self.sf.slots.get(param) or {}

    def slot_rule(self, tool: str, param: str) -> str:
        rule = self.rule_name("slot", tool, param)
        if rule in self.rules:
            return rule
        schema = tool_params(self.tools[tool])[0][param]
        forms = self.forms(tool, param)
        spoken: list[str] = []
        if "enum" in schema:
            for value in schema["enum"]:
                spoken += forms.get(value) or [str(value)]
        elif schema.get("type") == "boolean":
            spoken = (forms.get(True) or ["on"]) + (forms.get(False) or ["off"])
        elif schema.get("type") in ("integer", "number"):
            lo = float(schema.get("minimum", 0))
            hi = float(schema.get("maximum", lo + 100))
            half = schema.get("type") == "number" and hi - lo <= 100
            return self.number_rule(lo, hi, 0.5 if half else 1.0)
        else:
            spoken = [s for values in forms.values() for s in values]
        self.rules[rule] = " | ".join(dict.fromkeys(self.tokens(s) for s in spoken if s.strip()))
        return rule

    def number_rule(self, lo: float, hi: float, step: float) -> str:
        rule = self.rule_name("n", f"{lo:g}", f"{hi:g}", f"{step:g}").replace("-", "m")
        if rule not in self.rules:
            n = int(round((hi - lo) / step))
            if n > 2000:
                raise ValueError(f"number range {lo:g}..{hi:g} is too wide to speak")
            values = [lo + i * step for i in range(n + 1)]
            self.rules[rule] = " | ".join(
                dict.fromkeys(self.tokens(number_words(v)) for v in values)
            )
        return rule

    # --- template syntax tree -> JSGF -----------------------------------------------------------

    def expr(self, node: Any, tool: str | None) -> str:
        if isinstance(node, Word):
            return self.tokens(node.text)
        if isinstance(node, Tag):
            return self.expr(node.item, tool) if node.item is not None else ""
        if isinstance(node, Slot):
            if tool is None:
                raise ValueError(f"slot {{{node.name}}} outside a tool's template")
            return f"<{self.slot_rule(tool, node.name)}>"
        if isinstance(node, Range):
            return f"<{self.number_rule(node.lo, node.hi, node.step)}>"
        if isinstance(node, Alt):
            opts = [self.expr(o, tool) for o in node.options]
            nonempty = list(dict.fromkeys(o for o in opts if o))
            if not nonempty:
                return ""
            inner = " | ".join(nonempty)
            if node.optional or len(nonempty) < len(opts):
                return f"[{inner}]"
            return f"({inner})"
        if isinstance(node, Seq):
            parts = []
            for run in _glued_runs(node):
                if len(run) == 1:
                    parts.append(self.expr(run[0], tool))
                else:
                    words = [self.tokens(s) for s in _glued_strings(run)]
                    parts.append("(" + " | ".join(dict.fromkeys(w for w in words if w)) + ")")
            return " ".join(p for p in parts if p)
        raise TypeError(f"unexpected template node {node!r}")


# --- template helpers ---------------------------------------------------------------------------


def _slots(tree: Any) -> set[str]:
    return {n.name for n in walk_template(tree) if isinstance(n, Slot)}


def _referenced(tree: Any) -> set[str]:
    return {n.name for n in walk_template(tree) if isinstance(n, Slot | Tag)}


def _bound(tree: Any) -> set[str]:
    # A tag binds its parameter in every expansion only outside alternatives; inside one it binds
    # in some. Either way the line is a command template, which is all the grammar needs.
    return _referenced(tree)


def _glued_runs(seq: Seq) -> list[list[Any]]:
    runs: list[list[Any]] = []
    for i, item in enumerate(seq.items):
        if i and i < len(seq.glue) and seq.glue[i] and runs:
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs


def _strings(node: Any) -> list[str]:
    """Every text a slot-free node can produce (for words written in pieces, ``light[s]``)."""
    if isinstance(node, Word):
        return [node.text]
    if isinstance(node, Tag):
        return _strings(node.item) if node.item is not None else [""]
    if isinstance(node, Alt):
        out = [s for o in node.options for s in _strings(o)]
        return out + [""] if node.optional else out
    if isinstance(node, Seq):
        out = [""]
        for run in _glued_runs(node):
            texts = _glued_strings(run)
            out = [f"{a} {b}".strip() for a in out for b in texts]
        return out
    raise ValueError(f"cannot spell out {node!r} inside a word")


def _glued_strings(run: list[Any]) -> list[str]:
    pieces = [_strings(item) for item in run]
    return ["".join(combo) for combo in itertools.product(*pieces)]


def _schema_templates(tool: Mapping[str, Any]) -> list[str]:
    """Phrasings for a tool the sentences file does not cover, from its name and parameters."""
    props, required = tool_params(tool)
    words = [w for w in str(tool["name"]).lower().split("_") if w and w not in _NAME_VERBS]
    noun = " ".join(words) or str(tool["name"]).replace("_", " ")
    # a required enum (which room, which device) is said before the device's name
    prefix = " ".join(f"{{{p}}}" for p in required if "enum" in props.get(p, {}) and p not in noun)
    what = f"[the] {prefix} {noun}".replace("  ", " ")
    out = []
    for p, schema in props.items():
        if p in required and "enum" in schema:
            continue
        kind = schema.get("type")
        if kind == "boolean":
            out.append(f"(turn | switch) on{{{p}:true}} {what}")
            out.append(f"(turn | switch) off{{{p}:false}} {what}")
            out.append(f"(turn | switch) {what} on{{{p}:true}}")
            out.append(f"(turn | switch) {what} off{{{p}:false}}")
        elif "enum" in schema or kind in ("integer", "number"):
            unit = " [percent | degrees]" if kind in ("integer", "number") else ""
            pname = p.replace("_", " ")
            out.append(f"(set | change | put) {what} [{pname}] to {{{p}}}{unit}")
    if not props:
        out.append(f"(activate | run | start | trigger) {what}")
    return out
