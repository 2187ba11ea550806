"""Training data from tool schemas and a sentences file, without any network model.

The sentences file is in the spirit of Rhasspy's `sentences.ini`. Sections::

    [set_light]                     ; a tool name: one template per line
    turn on{on:true} [the] {room} light[s]
    (switch | turn) (off){on:false} the {room} light[s]
    (dim | set) the {room} light[s] to (0..100){brightness} [percent]
    it's too dark in the {room} {on:true}
    turn on{on:true} the light      ; leaves required `room` unset: a "missing value" refusal

    [slot room]                     ; spoken forms of a slot's values (`[slot set_light.room]`
    living room = living room | lounge | front room      ; limits it to one tool)
    _unknown = garage | hallway     ; values the tools do not have: "unsupported" refusals

    [negation]                      ; how requests are negated ({request} = a positive request)
    don't {request}

    [join]                          ; how two requests become one (two calls)
    {first} and {second}

    [offtopic]                      ; requests no tool serves (answer [])
    what's the weather like [today]

Template syntax:

- words are literal; `(a | b | c)` picks one alternative; `[a | b]` is optional (or one of);
- `{name}` (after a space) is a slot reference: a value of the tool parameter `name`, drawn from
  its schema (`enum` values with their spoken forms from `[slot name]`; integers and numbers
  inside `minimum`/`maximum`, spoken as digits or as words; booleans as on/off unless a
  `[slot]` section says otherwise);
- `(lo..hi)` is a number range, spoken as digits or words; `(lo..hi,step)` with a step;
- a tag written right after an item, `item{name}` or `item{name:value}`, binds the parameter:
  `(on | up){on:true}`; `(0..100){brightness}` binds the number; `(lounge){room:living room}`;
  `{name:value}` alone binds without words (`it's too dark in the {room} {on:true}`);
  values are JSON literals (`true`, `21.5`, `"x"`) or bare strings;
- `#` or `;` starts a comment.

Every template line of a tool yields calls of that tool with exactly the parameters it binds (in
the schema's declared order, as the grammar emits them). A line that leaves a required parameter
unbound, or binds nothing for a tool that has parameters, yields the refusal `[]` (category
`missing`): the contract refuses rather than invents a value. Generated categories: `positive`
(one call), `two_actions` (two requests joined, two calls;
with `actions`, three or more too), `negated` (`[]`), `off_topic`
(`[]`), `unsupported` (a value the tools do not have, `[]`), `missing` (`[]`). Tools without a
section get examples built from their schema alone (name words, parameter names, values).
Augmentation: politeness, casing, punctuation, small typos, numbers in words.

Output rows are the vendor's JSONL format: `query`, `tools` (schema list), `answers` (call
list), optional `reasoning` and `system`, plus our `category`.
"""

from __future__ import annotations

import argparse
import json
import random
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
    TemplateError,
    Word,
    number_words,
    parse_sentences,
    parse_template,
    tool_params,
    walk_template,
)

JsonDict = dict[str, Any]

DEFAULT_MIX = {
    "positive": 0.44,
    "two_actions": 0.20,
    "negated": 0.12,
    "off_topic": 0.10,
    "unsupported": 0.06,
    "missing": 0.08,
}
REFUSAL_CATEGORIES = ("negated", "off_topic", "unsupported", "invalid", "missing")

DEFAULT_NEGATION = [
    "don't {request}",
    "do not {request}",
    "please don't {request}",
    "please do not {request}",
    "never {request}",
    "I don't want you to {request}",
    "no need to {request}",
    "you don't have to {request}",
    "don't bother to {request}",
    "{request}. actually, never mind",
    "{request}... no wait, cancel that",
    "{request}, no, forget it",
    "I said don't {request}",
    "stop, don't {request}",
    "dont {request}",
    "do NOT {request}",
    "DON'T {request}",
    "please dont {request}",
    "better not {request}",
    "no, don't {request}",
    "let's not {request}",
]
DEFAULT_JOIN = [
    "{first} and {second}",
    "{first}, and {second}",
    "{first} then {second}",
    "{first}, then {second}",
    "{first} and also {second}",
    "{first}. also {second}",
    "{first} and after that {second}",
    "{first}; {second}",
    "{first}, {second}",
]


def _commas_and(parts: Sequence[str], rng: random.Random) -> str:
    last = rng.choice([" and ", ", and ", ", then ", " and then ", ", and then "])
    return ", ".join(parts[:-1]) + last + parts[-1]


def _ands(parts: Sequence[str], rng: random.Random) -> str:
    return " and ".join(parts)


def _sentences(parts: Sequence[str], rng: random.Random) -> str:
    sep = rng.choice([". ", "; ", ", ", ". also "])
    return sep.join(parts)


def _thens(parts: Sequence[str], rng: random.Random) -> str:
    seps = [", then ", " then ", ", after that "]
    return parts[0] + "".join(rng.choice(seps) + p for p in parts[1:])


# Remarks people add to a command that ask for nothing: they name no device and no value.
_REMARKS = [
    "I'm off to bed",
    "we're heading out",
    "I've just got in",
    "the baby's finally asleep",
    "my hands are full",
    "it's been a long day",
    "guests are coming over",
    "I'm making dinner",
    "morning",
    "right then",
    "ok so",
    "done for the day",
    "locking up now",
    "time for bed",
    "it's a bit stuffy",
    "the kids are home",
    "the dog's asleep",
    "I'm working late tonight",
    "we're watching a film",
    "back in five minutes",
    "my feet are like ice",
    "looks like rain",
    "he's coming down now",
    "doctor's orders",
    "I'll be a while",
    "sorry to bother you",
    "no rush",
    "while I think of it",
    "before I forget",
    "quick one",
    "I'm back",
    "that's better",
    "we've got people round at eight",
    "the forecast says rain",
    "I can hardly see a thing",
    "it's roasting",
    "it's freezing",
    "long night ahead",
    "just for an hour or so",
    "I'm on a call in a minute",
]

# How lists of three or more requests are said.
_LIST_JOIN = [_commas_and, _commas_and, _commas_and, _ands, _sentences, _thens]

DEFAULT_OFFTOPIC = [
    "what's the weather (like | going to be) [today | tomorrow]",
    "tell me a joke",
    "what time is it",
    "who (are you | made you)",
    "how are you [today]",
    "what is (two plus two | the capital of France | the meaning of life)",
    "(play | put on) some (music | jazz | rock)",
    "set (a | an) (timer | alarm) for (ten minutes | seven am)",
    "remind me to (call mom | buy milk) [tomorrow]",
    "(order | buy) (a pizza | more coffee)",
    "how tall is mount everest",
    "translate hello into spanish",
    "(thanks | thank you) [so much]",
    "(good morning | good night | hello | hi there)",
    "what's on my calendar",
    "send a message to (john | my sister)",
    "(call | phone) (mom | the office)",
    "how many days until christmas",
    "what's (the news | new) today",
    "spell (necessary | restaurant)",
    "(can you | do you) hear me",
    "I'm (bored | tired | hungry)",
    "recommend a (movie | book)",
    "what's twelve times eight",
    "(turn | switch) (on | off) the (TV | PC | xbox)",
    "how (old | tall) are you",
    "who (won | is winning) the (game | match) [yesterday | tonight]",
    "how do I (make pancakes | fix a flat tire | boil an egg)",
]
_POLITE_PRE = [
    "please ",
    "could you ",
    "can you ",
    "would you ",
    "hey, ",
    "ok, ",
    "I'd like you to ",
    "kindly ",
    "would you please ",
    "hey needle, ",
]
_POLITE_POST = [" please", " thanks", " thank you", " now", " right now", " for me", " pls"]


def _fmt_number(v: float, integer: bool) -> int | float:
    return int(round(v)) if integer or v == int(v) else round(v, 2)


# ----------------------------------------------------------------------------------------------
# generation


@dataclass
class Sample:
    text: str
    args: dict[str, Any]
    spans: dict[str, str]


class Generator:
    """Draws examples for a tool list from a parsed sentences file; deterministic per seed."""

    def __init__(
        self,
        tools: Sequence[Mapping[str, Any]],
        sentences: SentencesFile | None = None,
        seed: int = 0,
        mix: Mapping[str, float] | None = None,
        reasoning: bool = False,
        system: str | None = None,
        actions: Mapping[int, float] | None = None,
        shared: Sequence[str] = (),
        shared_share: float = 0.0,
        remark_share: float = 0.0,
    ) -> None:
        self.tools = [dict(t) for t in tools]
        self.by_name = {t["name"]: t for t in self.tools}
        self.sf = sentences or SentencesFile()
        unknown = set(self.sf.tools) - set(self.by_name)
        if unknown:
            raise TemplateError(f"sentences name tools that are not declared: {sorted(unknown)}")
        self.rng = random.Random(seed)
        self.mix = dict(mix or DEFAULT_MIX)
        self.reasoning = reasoning
        self.system = system
        # how many calls a `two_actions` example holds, with weights; None keeps two, drawing
        # nothing from the generator's stream, so earlier data versions reproduce exactly
        self.actions = dict(actions) if actions else None
        # `shared`: parameters that name a thing ("room", "device"); with `shared_share`, that
        # share of lists says one request over several names ("lights off in the den and the
        # hall"). `remark_share`: that share of commands carries a remark that asks nothing.
        self.shared = tuple(shared)
        self.shared_share = shared_share
        self.remark_share = remark_share
        # The file's sections add to the built-in lists.
        self.negation = DEFAULT_NEGATION + list(self.sf.negation)
        self.join = DEFAULT_JOIN + list(self.sf.join)
        self.offtopic = [parse_template(t) for t in DEFAULT_OFFTOPIC] + list(self.sf.offtopic)
        self._check_templates()

    def _check_templates(self) -> None:
        for name, lines in self.sf.tools.items():
            props, _ = tool_params(self.by_name[name])
            for tree, where in lines:
                for node in walk_template(tree):
                    ref = node.name if isinstance(node, Slot | Tag) else None
                    if ref is not None and ref not in props:
                        raise TemplateError(f"{where}: tool {name} has no parameter {ref!r}")

    # -- slot values ---------------------------------------------------------------------------
    def _forms(self, tool: str, param: str) -> dict[Any, list[str]]:
        return self.sf.slots.get(f"{tool}.{param}") or self.sf.slots.get(param) or {}

    def _unknown_forms(self, tool: str, param: str) -> list[str]:
        forms = self.sf.unknown.get(f"{tool}.{param}") or self.sf.unknown.get(param) or []
        # A sentences file is reused across homes: a name it lists as unknown may be one this
        # home has ("study" is unsupported in the demo home, a room in the next), and training
        # it as a refusal would teach the model to refuse a valid request.
        schema = self.by_name[tool]["parameters"].get("properties", {}).get(param, {})
        valid = {str(v).strip().lower() for v in schema.get("enum", [])}
        for value, spoken in self._forms(tool, param).items():
            if str(value).strip().lower() in valid:
                valid |= {f.strip().lower() for f in spoken}
        return [f for f in forms if f.strip().lower() not in valid]

    def _speak_number(self, v: float) -> str:
        r = self.rng.random()
        if r < 0.55:
            return f"{v:g}"
        return number_words(v, hyphen=self.rng.random() < 0.3)

    def _number_in(self, lo: float, hi: float, integer: bool, step: float = 1.0) -> float:
        r = self.rng.random()
        if integer or r < 0.7:
            lo_i, hi_i = int(-(-lo // 1)), int(hi // 1)
            if self.rng.random() < 0.4:  # round values are the common request
                cands = [v for v in range(lo_i, hi_i + 1) if v % 5 == 0] or [lo_i]
                v: float = self.rng.choice(cands)
            else:
                v = self.rng.randint(lo_i, hi_i)
            if step != 1 and integer:
                v = lo + round((v - lo) / step) * step
                v = min(hi, max(lo, v))
            return v
        v = self.rng.randint(int(lo * 2), int(hi * 2)) / 2
        return min(hi, max(lo, v))

    def _number_outside(self, schema: Mapping[str, Any]) -> float:
        """A number a user might say that the schema's range excludes (above its maximum or
        below its minimum), so the request must be refused rather than clamped."""
        lo, hi = schema.get("minimum"), schema.get("maximum")
        sides = [s for s, b in (("above", hi), ("below", lo)) if b is not None]
        side = self.rng.choice(sides)
        if side == "above":
            span = max(1.0, float(hi) - float(lo if lo is not None else 0))
            cands = [hi + d for d in (1, 2, 5, 10, 20, 50) if d <= span * 2]
            cands += [round(hi * k) for k in (1.5, 2, 3, 10) if round(hi * k) > hi]
            return float(self.rng.choice(cands or [hi + 1]))
        cands = [lo - d for d in (1, 2, 5, 10, 20, 30)]
        return float(self.rng.choice(cands))

    def slot_value(self, tool: str, param: str) -> tuple[str, Any]:
        """(spoken text, JSON value) for a slot reference."""
        schema = self.by_name[tool]["parameters"]["properties"][param]
        forms = self._forms(tool, param)
        if "enum" in schema:
            value = self.rng.choice(schema["enum"])
            spoken = forms.get(value) or [str(value)]
            return self.rng.choice(spoken), value
        t = schema.get("type")
        if t == "boolean":
            value = self.rng.random() < 0.5
            spoken = forms.get(value) or (["on"] if value else ["off"])
            return self.rng.choice(spoken), value
        if t in ("integer", "number"):
            lo = float(schema.get("minimum", 0))
            hi = float(schema.get("maximum", lo + 100))
            v = self._number_in(lo, hi, t == "integer")
            return self._speak_number(v), _fmt_number(v, t == "integer")
        if forms:
            value = self.rng.choice(list(forms))
            return self.rng.choice(forms[value]), value
        word = self.rng.choice(["alpha", "kitchen", "note", "hello world", "blue", "report"])
        return word, word

    # -- template sampling ---------------------------------------------------------------------
    def sample(
        self,
        tree: Any,
        tool: str | None,
        unknown_slot: str | None = None,
        invalid_slot: str | None = None,
    ) -> Sample:
        """One random expansion of a template. `unknown_slot`: put a foreign value there;
        `invalid_slot`: a number outside that parameter's range."""
        out: list[str] = []
        args: dict[str, Any] = {}
        spans: dict[str, str] = {}

        def go(node: Any) -> str:
            if isinstance(node, Word):
                return node.text
            if isinstance(node, Seq):
                text = ""
                for i, item in enumerate(node.items):
                    part = go(item)
                    if part:
                        glued = i < len(node.glue) and node.glue[i]
                        text += part if glued or not text else " " + part
                return text
            if isinstance(node, Alt):
                if node.optional and self.rng.random() < 0.5:
                    return ""
                return go(self.rng.choice(node.options))
            if isinstance(node, Range):
                v = self._number_in(node.lo, node.hi, node.integer, node.step)
                return self._speak_number(v)
            if isinstance(node, Slot):
                owner = tool if tool is not None else self._owner(node.name)
                if node.name == unknown_slot:
                    return self.rng.choice(self._unknown_forms(owner, node.name))
                if node.name == invalid_slot:
                    schema = self.by_name[owner]["parameters"]["properties"][node.name]
                    return self._speak_number(self._number_outside(schema))
                spoken, value = self.slot_value(owner, node.name)
                args[node.name] = value
                spans[node.name] = spoken
                return spoken
            if isinstance(node, Tag):
                text = ""
                if node.item is not None:
                    if isinstance(node.item, Range):
                        v = self._number_in(
                            node.item.lo, node.item.hi, node.item.integer, node.item.step
                        )
                        text = self._speak_number(v)
                        value: Any = _fmt_number(v, node.item.integer)
                    else:
                        text = go(node.item)
                        value = text
                    if node.has_value:
                        value = node.value
                    elif tool is not None and not isinstance(node.item, Range):
                        value = self._reverse(tool, node.name, text)
                else:
                    value = node.value
                args[node.name] = value
                if text:
                    spans[node.name] = text
                return text
            raise TypeError(node)

        out.append(go(tree))
        return Sample(_tidy(" ".join(out)), args, spans)

    def _owner(self, param: str) -> str:
        """The first tool with a parameter `param` (slots in off-topic lines borrow its values)."""
        for t in self.tools:
            if param in tool_params(t)[0]:
                return t["name"]
        raise TemplateError(f"slot {{{param}}} names no parameter of any tool")

    def _reverse(self, tool: str, param: str, text: str) -> Any:
        for value, forms in self._forms(tool, param).items():
            if text in forms:
                return value
        schema = self.by_name[tool]["parameters"]["properties"][param]
        if schema.get("type") == "integer":
            try:
                return int(text)
            except ValueError:
                pass
        return text

    # -- calls and contract --------------------------------------------------------------------
    def call(self, tool: str, args: Mapping[str, Any]) -> JsonDict | None:
        """The call for bound arguments, or None where the contract refuses (missing value)."""
        props, required = tool_params(self.by_name[tool])
        if any(r not in args for r in required) or (props and not args):
            return None
        ordered = {k: args[k] for k in props if k in args}  # the grammar's key order
        return {"name": tool, "arguments": ordered}

    def _schema_only(self, tool: str, with_all_required: bool = True) -> Sample:
        """A request built from the schema alone (for tools without templates)."""
        t = self.by_name[tool]
        props, required = tool_params(t)
        words = t["name"].replace("_", " ").replace("-", " ")
        chosen = [p for p in props if p in required] if with_all_required else []
        optional = [p for p in props if p not in required]
        self.rng.shuffle(optional)
        k = self.rng.randint(0 if chosen else 1, len(optional)) if optional else 0
        chosen += optional[:k]
        parts, args, spans = [], {}, {}
        for p in [p for p in props if p in chosen]:
            spoken, value = self.slot_value(tool, p)
            args[p] = value
            spans[p] = spoken
            pw = p.replace("_", " ")
            parts.append(self.rng.choice([f"{pw} {spoken}", f"{pw} to {spoken}", f"{spoken} {pw}"]))
        join = self.rng.choice([" and ", ", ", " with "])
        text = words + (
            " " + self.rng.choice(["", "with ", "set "]) + join.join(parts) if parts else ""
        )
        return Sample(_tidy(text), args, spans)

    def positive(self, tool: str | None = None) -> tuple[Sample, JsonDict]:
        """A single-call request (retries templates until the contract yields a call)."""
        for _ in range(200):
            name = tool or self.rng.choice(list(self.by_name))
            lines = self.sf.tools.get(name)
            s = self.sample(self.rng.choice(lines)[0], name) if lines else self._schema_only(name)
            c = self.call(name, s.args)
            if c is not None:
                return s, c
        raise TemplateError(f"no template of {tool or 'any tool'} yields a complete call")

    def missing(self) -> Sample | None:
        """A request that leaves a required value out (answer [])."""
        cands = []
        for name, lines in self.sf.tools.items():
            for tree, _ in lines:
                cands.append((name, tree))
        self.rng.shuffle(cands)
        for name, tree in cands[:60]:
            s = self.sample(tree, name)
            if self.call(name, s.args) is None:
                return s
        # Schema-only: a tool with required parameters, named without them.
        req = [
            t["name"] for t in self.tools if tool_params(t)[1] and t["name"] not in self.sf.tools
        ]
        if req:
            return self._schema_only(self.rng.choice(req), with_all_required=False)
        return None

    def unsupported(self) -> Sample | None:
        """A request naming a value the tools do not offer (answer [])."""
        cands = []
        for name, lines in self.sf.tools.items():
            props, _ = tool_params(self.by_name[name])
            for tree, _w in lines:
                for node in walk_template(tree):
                    if isinstance(node, Slot) and self._unknown_forms(name, node.name):
                        cands.append((name, tree, node.name))
        if not cands:
            return None
        name, tree, slot = self.rng.choice(cands)
        return self.sample(tree, name, unknown_slot=slot)

    def invalid(self) -> Sample | None:
        """A request with a number outside its parameter's range (answer []: the grammar
        would otherwise squeeze it into range, e.g. 150 into 15)."""
        cands = []
        for name, lines in self.sf.tools.items():
            props, _ = tool_params(self.by_name[name])
            for tree, _w in lines:
                for node in walk_template(tree):
                    if not isinstance(node, Slot) or node.name not in props:
                        continue
                    sch = props[node.name]
                    if sch.get("type") in ("integer", "number") and (
                        "minimum" in sch or "maximum" in sch
                    ):
                        cands.append((name, tree, node.name))
        if not cands:
            return None
        name, tree, slot = self.rng.choice(cands)
        return self.sample(tree, name, invalid_slot=slot)

    def example(self, category: str) -> JsonDict | None:
        rng = self.rng
        if category == "positive":
            s, c = self.positive()
            return self._row(self._remark(self.augment(s.text)), [c], category, [s])
        if category == "two_actions":
            if self.shared_share and rng.random() < self.shared_share:
                row = self._shared_example()
                if row is not None:
                    return row
            return self._list_example()
        if category == "negated":
            s, _ = self.positive()
            pattern = rng.choice(self.negation)
            return self._row(
                self.augment(pattern.format(request=_lower_first(s.text))), [], category, []
            )
        if category == "off_topic":
            s = self.sample(rng.choice(self.offtopic), None)
            return self._row(self.augment(s.text), [], category, [])
        if category == "unsupported":
            s = self.unsupported()
            return None if s is None else self._row(self.augment(s.text), [], category, [])
        if category == "invalid":
            s = self.invalid()
            return None if s is None else self._row(self.augment(s.text), [], category, [])
        if category == "missing":
            s = self.missing()
            return None if s is None else self._row(self.augment(s.text), [], category, [])
        raise ValueError(f"unknown category {category!r}")

    def _list_example(self) -> JsonDict | None:
        """Two or more requests said in one breath, each its own call. A model taught lists of
        two only learns to stop after the second call, so `actions` asks for longer ones."""
        rng = self.rng
        n = 2
        if self.actions:
            n = rng.choices(list(self.actions), weights=list(self.actions.values()))[0]
        samples, calls = [], []
        for _ in range(n):
            for _ in range(20):
                s, c = self.positive()
                if all(
                    c["name"] != d["name"]
                    or (c["arguments"] != d["arguments"] and _key_args(c) != _key_args(d))
                    for d in calls
                ):
                    samples.append(s)
                    calls.append(c)
                    break
            else:
                break
        if len(calls) < 2:
            return None
        texts = [samples[0].text] + [_lower_first(s.text) for s in samples[1:]]
        if len(texts) == 2:
            text = rng.choice(self.join).format(first=texts[0], second=texts[1])
        else:
            text = rng.choice(_LIST_JOIN)(texts, rng)
        return self._row(self._remark(self.augment(text)), calls, "two_actions", samples)

    def _shared_example(self) -> JsonDict | None:
        """One request said over two or three names of the same parameter: "turn off the den
        and hall lights" is two calls that differ only in the room."""
        rng = self.rng
        for _ in range(10):
            s, c = self.positive()
            keys = [
                k
                for k in self.shared
                if isinstance(c["arguments"].get(k), str)
                and s.spans.get(k)
                and len(re.findall(rf"\b{re.escape(s.spans[k])}\b", s.text)) == 1
            ]
            if keys:
                break
        else:
            return None
        key = rng.choice(keys)
        n = rng.choice([2, 2, 2, 3])
        spoken, calls = [s.spans[key]], [c]
        for _ in range(20):
            if len(calls) == n:
                break
            said, value = self.slot_value(c["name"], key)
            if all(value != d["arguments"][key] for d in calls) and said not in spoken:
                spoken.append(said)
                calls.append({"name": c["name"], "arguments": {**c["arguments"], key: value}})
        if len(calls) < 2:
            return None
        if len(spoken) == 2:
            names = rng.choice(["{} and {}", "{} and the {}", "{} and also {}", "{}, and {}"])
            said = names.format(*spoken)
        else:
            last = rng.choice([" and ", ", and ", " and the "])
            said = ", ".join(spoken[:-1]) + last + spoken[-1]
        span = re.compile(rf"\b{re.escape(s.spans[key])}\b")
        text = span.sub(lambda _m: said, s.text, count=1)
        return self._row(self._remark(self.augment(text)), calls, "two_actions", [s] * len(calls))

    def _remark(self, text: str) -> str:
        """Sometimes a remark before or after the request that asks for nothing."""
        rng = self.rng
        if not self.remark_share or rng.random() >= self.remark_share:
            return text
        remark = rng.choice(_REMARKS)
        if text.isupper():
            remark = remark.upper()
        if rng.random() < 0.5:
            first = text if text.isupper() else _lower_first(text)
            return remark + rng.choice([", ", ". ", " - ", ": "]) + first
        body = text.rstrip(".!?")
        return body + rng.choice([", ", ". ", " - "]) + remark + text[len(body) :]

    def _row(
        self, query: str, answers: list[JsonDict], category: str, samples: list[Sample]
    ) -> JsonDict:
        row: JsonDict = {"query": query, "tools": self.tools, "answers": answers}
        if self.reasoning:
            parts = []
            for s, c in zip(samples, answers, strict=False):
                for k, v in c["arguments"].items():
                    src = s.spans.get(k)
                    val = json.dumps(v, ensure_ascii=False)
                    parts.append(f"{k}={val} from '{src}'" if src else f"{k}={val}")
            row["reasoning"] = "; ".join(parts) if parts else "no tool applies"
        if self.system:
            row["system"] = self.system
        row["category"] = category
        return row

    def augment(self, text: str) -> str:
        rng = self.rng
        if rng.random() < 0.08:
            text = _typo(text, rng)
        if rng.random() < 0.3:
            text = rng.choice(_POLITE_PRE) + text
        if rng.random() < 0.15:
            text = text + rng.choice(_POLITE_POST)
        r = rng.random()
        if r < 0.35:
            text = text[:1].upper() + text[1:]
        elif r < 0.38:
            text = text.upper()
        if rng.random() < 0.35:
            text += rng.choice([".", "!", "?", "."])
        return text

    def generate(self, n: int) -> list[JsonDict]:
        """`n` examples in the category mix, deduplicated (query, answers)."""
        cats = list(self.mix)
        weights = [self.mix[c] for c in cats]
        seen: set[tuple[str, str]] = set()
        out: list[JsonDict] = []
        attempts = 0
        while len(out) < n and attempts < n * 20:
            attempts += 1
            cat = self.rng.choices(cats, weights)[0]
            row = self.example(cat)
            if row is None:
                continue
            key = (row["query"].lower(), json.dumps(row["answers"], sort_keys=True))
            if key in seen:
                continue
            seen.add(key)
            out.append(row)
        return out


def _key_args(call: Mapping[str, Any]) -> Any:
    """What identifies the device a call acts on (its string/enum arguments)."""
    return {k: v for k, v in call["arguments"].items() if isinstance(v, str)}


def _lower_first(s: str) -> str:
    return s[:1].lower() + s[1:] if s[:2] != "I " and s[:2] != "I'" else s


def _tidy(s: str) -> str:
    s = re.sub(r"\s+", " ", s).strip()
    return re.sub(r"\s+([,.!?;])", r"\1", s)


# Typos never hit the words that carry a negation: the answer hinges on them.
_NO_TYPO = frozenset("never need mind cancel forget bother want wait actually dont better".split())


def _typo(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    idx = [
        i for i, w in enumerate(words) if len(w) >= 4 and w.isalpha() and w.lower() not in _NO_TYPO
    ]
    if not idx:
        return text
    i = rng.choice(idx)
    w = words[i]
    j = rng.randrange(1, len(w) - 1)
    op = rng.randrange(3)
    if op == 0:
        w = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
    elif op == 1:
        w = w[:j] + w[j + 1 :]
    else:
        w = w[:j] + w[j] + w[j:]
    words[i] = w
    return " ".join(words)


# ----------------------------------------------------------------------------------------------
# files and CLI


def load_tools_json(path: str | Path) -> list[JsonDict]:
    """A tools file: a JSON list of schemas (or `{"tools": [...]}`)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, dict) and "tools" in data:
        data = data["tools"]
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a JSON list of tool schemas")
    return data


def tools_from_config(path: str | Path | None = None) -> list[JsonDict]:
    """Tool schemas generated by the `[devices]` of a needled TOML config (default: the bundled
    demo home)."""
    import tomllib

    from devices import build_registry

    path = path or DATA_DIR / "default.toml"
    with open(path, "rb") as f:
        cfg = tomllib.load(f)
    return build_registry(cfg.get("devices", {})).tools()


def tools_from_args(args: Any, *, default: bool = True) -> list[JsonDict] | None:
    """Tool schemas for a command line: `--tools T.json`, else the devices of `--config`; with
    neither, the bundled demo home's (`default`) or None (the data rows carry their own)."""
    if getattr(args, "tools", None):
        return load_tools_json(args.tools)
    config = getattr(args, "config", None)
    return tools_from_config(config) if config or default else None


def synthesize(
    tools: Sequence[Mapping[str, Any]],
    sentences: str | Path | None,
    n: int,
    seed: int = 0,
    mix: Mapping[str, float] | None = None,
    reasoning: bool = False,
    system: str | None = None,
) -> list[JsonDict]:
    """Examples for `tools` from a sentences file path (or None: schemas alone)."""
    sf = None
    if sentences is not None:
        p = Path(sentences)
        sf = parse_sentences(p.read_text(encoding="utf-8"), str(p))
    return Generator(tools, sf, seed, mix, reasoning, system).generate(n)


def write_jsonl(rows: Sequence[Mapping[str, Any]], path: str | Path) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def read_jsonl(path: str | Path) -> list[JsonDict]:
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("//"):
                rows.append(json.loads(line))
    return rows


def add_arguments(p: argparse.ArgumentParser) -> None:
    """`needled synth --tools T.json [--sentences S.ini] -n N --out data.jsonl`."""
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--tools", help="tool schemas (JSON list)")
    src.add_argument("--config", help="needled TOML config whose [devices] give the tools")
    p.add_argument("--sentences", help="sentences file (templates); omitted: schemas alone")
    p.add_argument("-n", "--num", type=int, default=2000, help="examples to generate")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--reasoning", action="store_true", help="add a reasoning line per example")
    p.add_argument("--system", help="system facts to attach to every example")
    p.add_argument("--out", required=True, help="output JSONL")


def synth_main(args: argparse.Namespace) -> int:
    tools = tools_from_args(args)
    rows = synthesize(
        tools,
        args.sentences,
        args.num,
        args.seed,
        reasoning=args.reasoning,
        system=args.system,
    )
    write_jsonl(rows, args.out)
    return 0
