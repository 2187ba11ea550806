"""A lexical prior for constrained decoding: favour the names and numbers a request says.

The grammar already limits every string value with an ``enum`` (and every tool name) to the
schema's choices; which choice wins is the model's call. A small model often has the right
shape but copies the wrong name ("aquarium pump" for "aquarium heater"), or picks the wrong tool
among several it has never seen. When the request *says* one of the allowed names, that is
strong evidence, the same evidence a template intent matcher runs on. This module turns it into
an additive bias on the allowed tokens' logits, like contextual biasing in speech recognition:

- inside an enum string value (or the call's ``name``), each allowed token is scored by the best
  choice it is still a prefix of (or completes): 1 when the request contains that choice as a
  phrase (case, plural ``s`` and punctuation ignored), 0.5 when it shares some but not all
  content words and no choice is said in full, else 0;
- a tool's score is the best score of its own enum values (names of rooms and devices, not
  ``on``/``off`` style words) and 0.7 when a content word of its name occurs in the request;
- the one name of an argument's enum said in full (a colour, a room; no other value of it
  is) scores ``ONLY_NAME``: on the dev sets at 0 and 0.5, unseen names 88.7% -> 89.3% and
  hand-written 94.4% -> 95.6% of all cases (5 commands fixed, none lost); 6 measured the same;
- a tool whose description says a content word the request says scores 0.5 (a renamed tool,
  "warmth", described as "the cafe heating"): on the dev custom home with the general model,
  positive 45.5% -> 59.1% exact; one more two-action command right on the generated dev set;
- call k is about the k-th clause that points at a tool (a word of its name or description,
  a name said in full): a tool or a name pointed at only in a later clause scores 0 there,
  and the one tool the call's clause points at scores at least 1 ("thermostat to 13.5 and
  after that the main monitor off" starts with the thermostat). On the dev sets at 0 and at
  0.5: two actions 85.6% -> 86.6% (generated) and 72.2% -> 75.0% (unseen names), nothing
  lost;
- a tool choice backed by a name said in full counts ``TOOL_BOOST`` times, unless the request
  says a word of another tool's name and none of this one's, or says the name only in a
  clause after the one the call is about (see there);
- a phrase the request says once, already used by an earlier call in the list, scores -0.5,
  and so does a tool already called with nothing said left for it, so a second call moves on
  to the next thing named;
- inside a free-text string (no enum: a note, a message), a token that keeps the text a piece
  of the request starting at a word scores ``COPY_BOOST``, and so does ending it where a
  phrase of the request ends (also when the token that opens the text closes its key too:
  '":":{' starts no copy, '":"' leaves the choice to the next step);
- inside a numeric argument, a digit that keeps the number a prefix of one the request says
  (digits or words, as the range check reads them) scores 1, and so does ending the number on
  one: "805" is not cut to 80, "seventy two" is not written 2; with no number said, "open"
  or "close" (not both) scores a bounded number's maximum or minimum the same way. The first
  digit often comes merged with the key's close ('":1'), so those tokens are judged the same
  way, and a number said once that an earlier argument holds is spent ("cool and ten, then
  9" is not written 19). On the dev sets at min_confidence 0.5: generated 92.2% -> 92.5%,
  unseen names 88.0% -> 88.2%, hand-written unchanged (4 requests right, 1 wrong);
- once a call has one argument, a key the request asks for is pushed by name (the comma and
  the key's letters score ``SWITCH_KEY``), the first such key in the schema's order (the
  grammar writes keys in declared order): a colour or speed said in full in the call's own
  clause ("fan on gale" does not end at ``{"on": true}``; "make Nadia's kitchen ember" is not
  ``{"on": true}``); a switching boolean the call's clause gives a sense for ("turn on the
  library lights" does not end after the room); a numeric key for a number the clause of the
  call's thing says and no call holds, the key whose name or description says the number's
  unit, else the schema's first numeric key if the number fits it. Going on alone used to
  score 1 and leave the key to the model, which then often wrote another ("color"). Dev sets
  at min_confidence 0.5, each step: 89.3 -> 89.5 and 95.6 unchanged (switches, with the two
  rules below), 89.5 -> 90.3 and 95.6 -> 97.8 (numbers), 90.7 -> 91.0 (settings by name);
  the switches dev set (bench/dev_switches.py) 83.3% -> 96.7%;
- of tools that share a name said in full, the one whose own name the request says too
  scores ``NAME_AGREES`` more ("open the blinds in the study"); a word of a tool's name plus
  part of one of its names is full evidence when nothing is said in full ("open Zoe's
  shades"); a rival's name word does not withhold the boost from a tool whose description
  says it; a tool name said twice may point at two calls;
- "open" and "close" switch a thing that opens by switching (``OPENS_BY_SWITCHING``: a valve,
  a gate) on and off;
- in the second look (``settle``: a call the model was made to give, kept only if the
  request says all of it), the first key may be a number's unit key ("make it 22 degrees"),
  and a call with nothing said left for it is ended.
- a key the request gives no value for is held back (``UNBACKED_KEY``): a numeric key while
  no said number is left for the call ("set the heater to auto" is no temperature 6), a log
  level nobody said, a switching boolean when a setting is said and no switching word is;
  every said number the call lacks pushes a key (a transition after a brightness), a said
  number that fits is not cut short ("22" of 22.5), and a bound said by a word ("raise",
  "roll out", "to full") weighs ``BOUND_BOOST`` within its own clause;
- clauses: one of only a number and filler joins the one before it ("..., say 25 percent"),
  one that says only its thing takes the verb before it ("turn off A and B lights"), and a
  "there" that points back is the last thing said (`resolve_there`); a setting's value said
  only inside a name ("the green room") is not said (`without_names`).
  Also: cover words go up and down ("den blinds down"), "power down" is off, "a quarter"
  is 25 percent, a degree sign is "degrees", "as well as" joins, warmth words ("warmer",
  "heating") point at a tool that takes a temperature (``WARMTH_WORDS``), "full"/"max"
  push the first bounded numeric key, the one name said in full in the call's own clause
  counts as ``ONLY_NAME``, and a colour or speed nobody said is held back after a said
  setting other than a switch.
  A percentage said beside another number goes to the key in percent (``_in_percent``).
  Chosen on the everyday dev set (``bench/dev_everyday.py``, 260 requests written in six
  batches, each before the model was run on it) and checked on every other: at
  min_confidence 0.5, the first 80 went from 91.2% to 100%, coordination 87.5% -> 93.8%,
  generated 93.3% -> 93.8% (with the head refitted), unseen names 92.0% -> 92.3%, the rest
  unchanged.

- a switch value (``ON``/``OFF``/``blink`` in an enum) scores 1 when it has the sense of the
  verb that governs the call's thing: the sense word nearest to that name in its clause, else
  the last one before it, so "turn off the fairy lights and the games console" is OFF twice
  (said once, the word is not spent); a switching boolean (``"on"``) whose literal goes against
  that sense is held back by ``SWITCH_PENALTY`` times the weight. Words inside a name said
  ("the door open LED") are no verbs. On the generated and hand-written dev sets nothing moved
  (one command more, one refusal less); on the coordination dev set (bench/dev_coordination.py,
  23 two-thing commands) two actions went from 65.2% to 87.0% exact.

The bias never touches whether to call at all or how many calls to make, so it cannot turn a
refusal into a call; it reorders the allowed names, digits and characters, and steers a call's
keys toward what the request says. The weight is the logit bonus for a full match (0 disables the
prior).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agent.calling.grammar.reading import (
    _UNITS,
    BARE_CLAUSE,
    BOOL_START,
    COVER_WORDS,
    DEFAULTED_SETTINGS,
    DEVICE_NOUNS,
    FAN_WORDS,
    FULL_WORDS,
    GENERIC,
    KIND_NOUNS,
    LIGHT_WORDS,
    NAMED_SETTINGS,
    NEGATIONS,
    NUMBER_AT_END,
    NUMBER_BEGUN,
    OPENS_BY_SWITCHING,
    OPPOSITE,
    SETTING_KEYS,
    SETTING_VALUES,
    SWITCH_KEYS,
    VALUE_SENSE,
    WARMTH_WORDS,
    WRITTEN_NUMBER,
    _props,
    clause_numbers,
    content_words,
    count_of,
    enum_strings,
    find_phrase,
    flag_value,
    is_telling,
    kind_synonyms,
    mended,
    names_a_thing,
    only_a_number,
    only_inside,
    param_words,
    picks_a_thing,
    resolve_there,
    said_spans,
    said_with_units,
    spelling_of,
    starts_at,
    switch_senses,
    takes_temperature,
    telling_words,
    thing_names,
    without_names,
    without_parts,
    words,
    words_of_name,
)
from agent.calling.rangecheck import Said, fits, is_fraction_param, said_numbers
from agent.calling.rangecheck import fmt_number as _fmt

# Score of a name said once and already used by an earlier call of the list, and of a tool
# called already with nothing said left for it: a second call that repeats the first is
# rarely what was asked ("lights on in the hall and in the dining nook").
SPENT = -0.5
# Multiplier on a tool choice backed by a name said in full. The tool is picked at the first
# token of its name, where a small model's preference for a familiar one-piece name ("led")
# over an unfamiliar several-piece one ("t|ool|_power") is strongest, while the evidence (the
# request says "compressor", a value of that tool alone) is as strong as it gets. Chosen on the
# generated dev sets: 3 moved the unseen-names set from 79.0% to 81.0% and the training-names
# set from 83.7% to 82.5%, the same sum as boosting every such choice (81.2%, 83.3%) without
# its cross-kind mistakes ("blinds in Leo's room" as Leo's light, confidence 0.56); following
# the clauses (see _boosted) then took them to 81.5% and 84.0%. Partial evidence (one word of
# a tool's name) keeps its plain weight.
TOOL_BOOST = 3.0
# Score of a name said in full when another value of the same argument, also said in full and
# unused, comes earlier in the request: calls follow the order of the request ("the power
# LED on and the status indicator on" starts with power). On the unseen-names dev set two
# actions went from 69.4% to 71.3%; nothing else moved (0 and 0.5 alike).
LATER_NAME = 0.5
# Score of the one name of an argument's enum that the request says in full (a colour, a
# room): the strongest evidence there is, yet a small model that never saw the word prefers a
# familiar one by more than the plain weight ("set the bar to harbour blue" -> bright white).
# At 3 it lost "Jim's corner" to "greenhouse 2" by 26.5 logits against 15: a rare capital
# is a piece the model hardly writes. 6 changed nothing else on the dev sets once a name
# said only in a later clause waits for its call.
ONLY_NAME = 6.0
# Score of a tool whose description says a content word the request says ("heating" for a
# tool named "warmth").
DESCRIPTION_HIT = 0.5


# Multiplier of the penalty on a switching boolean against the sense the request gives the
# call ("lights off in Mia's room and the sunroom": the sunroom is off too). The general
# model often prefers the other literal by more than the plain weight there.
SWITCH_PENALTY = 3.0
# What a tool's own name said adds to a name of its said in full, for the choice between the
# tools that share that name.
NAME_AGREES = 0.5
# The same when the request says every word of the tool's name outside the names of things
# ("open the vents in greenhouse 2": vents, not the shed's lamps). The general model prefers
# a familiar-looking tool there by up to 11 logits; at 0.5 it kept the lamps.
NAME_SAID = 1.0
# How much more than a plain said value a key pushed by name weighs (a switch the request gives
# a sense for, a number it says) when the call would otherwise end without it; and, in the
# second look, ending a call that has nothing said left.
SWITCH_KEY = 4.0
# Multiplier of the penalty on writing a key the request gives no value for (see
# `_unbacked_key_bias`). At 1, a model adapted to a home with a log still wrote a level
# nobody said ("note that the door sticks" at warning); 2 and 3 measured the same on every
# dev set.
UNBACKED_KEY = 2.0
# Multiplier on a digit of a bound backed by a word alone ("open", "lower", "to full"): with no
# number said, the model's wish for one of its own ("position 4") is otherwise often stronger.
BOUND_BOOST = 3.0
# Multiplier for copying the request into a free-text argument (a note, a message). A note is
# the user's own words; an unsure small model makes up text instead ("the ch ch ch ..."). On
# generated log requests (an adapted model, dev data): exact notes 25.8% without, 31.8% at 1,
# 37.9% at 3 (108 of 109 notes a piece of the request, against 54 without), 38.6% at 5 and 10.
COPY_BOOST = 3.0
# Score of a tool with no place for a number said for its call, while another tool has one.
HOLDS_NONE = -0.5
# Multiplier of the penalty on ending the call list while the request names a thing in full
# that no call has taken ("queue led blink, alarm led off" ended after the queue LED, its
# end a hair more likely than going on). See `_end_bias`. With END_DONE, at 1 each: dev sets
# at min_confidence 0.5 gained 4 cases (hand-written 97.8 -> 98.9, everyday 95.8 -> 96.9) and
# lost 1 (an unsupported fan speed now served at 0.56); 0.5 each gained 3, lost none.
LEFT_UNSAID = 1.0
# Multiplier of the penalty on going on to another call once the list has a call for every
# clause that points at a tool and holds every name and number said: the model often adds a
# call of its own ("queue led blink, alarm led off" and then the fan off).
END_DONE = 1.0
# where a copied note may end: the end of a phrase of the request, not of any word
_PHRASE_END = frozenset([b'"', b"'", b".", b",", b"!", b"?", b";", b":"])
# where a note starts when the request marks it: after a colon, "that" or "saying"
_NOTE_START = re.compile(rb"(?::|\b(?:that|saying))[ \t]+")
# the bytes of a JSON number
_NUMBER_BYTES = frozenset(b"-0123456789.eE+")


@dataclass
class _Frame:
    kind: str  # "list" | "obj"
    key: str | None = None
    expect_key: bool = True
    name: str | None = None  # a call object's tool name, once read


@dataclass
class _Scan:
    """Where a compact JSON prefix stands: the container stack and the open string."""

    stack: list[_Frame] = field(default_factory=list)
    in_string: bool = False
    escape: bool = False
    is_key: bool = False
    buf: bytearray = field(default_factory=bytearray)

    def copy(self) -> _Scan:
        return _Scan(
            [_Frame(f.kind, f.key, f.expect_key, f.name) for f in self.stack],
            self.in_string,
            self.escape,
            self.is_key,
            bytearray(self.buf),
        )

    def feed(self, data: bytes, on_value: Any = None) -> None:
        for b in data:
            if self.in_string:
                if self.escape:
                    self.escape = False
                    self.buf.append(b)
                elif b == 0x5C:  # backslash
                    self.escape = True
                    self.buf.append(b)
                elif b == 0x22:  # closing quote
                    self.in_string = False
                    text = self.buf.decode("utf-8", errors="replace")
                    top = self.stack[-1] if self.stack else None
                    if self.is_key and top is not None:
                        top.key = text
                    else:
                        if on_value is not None:
                            on_value(self, bytes(self.buf), True)
                        if self._is_call(len(self.stack) - 1) and top and top.key == "name":
                            top.name = text
                    self.buf.clear()
                else:
                    self.buf.append(b)
                continue
            if b == 0x22:
                self.in_string = True
                top = self.stack[-1] if self.stack else None
                self.is_key = top is not None and top.kind == "obj" and top.expect_key
                self.buf.clear()
            elif b in b"{[":
                self.stack.append(_Frame("obj" if b == 0x7B else "list"))
            elif b in b"}]":
                if self.stack:
                    self.stack.pop()
            elif b == 0x3A and self.stack:  # colon: a value follows
                self.stack[-1].expect_key = False
            elif b == 0x2C and self.stack and self.stack[-1].kind == "obj":
                self.stack[-1].expect_key = True

    def _is_call(self, depth: int) -> bool:
        # the call list is the outermost array; each call is an object directly inside it
        return depth == 1 and self.stack[0].kind == "list" and self.stack[1].kind == "obj"

    def context(self) -> tuple[str, str | None, str | None] | None:
        """For an open (or just closed) value string: ("tool", None, None) for a call's name,
        ("arg", tool, key) for an argument, else None."""
        if not self.stack:
            return None
        depth = len(self.stack) - 1
        top = self.stack[-1]
        if top.kind == "list" and depth >= 1:
            depth -= 1  # an enum inside an array: the array's key names it
            top = self.stack[depth]
        if top.kind != "obj":
            return None
        if depth == 1 and self._is_call(1) and top.key == "name":
            return ("tool", None, None)
        if depth >= 2 and self._is_call(1) and self.stack[1].key == "arguments":
            return ("arg", self.stack[1].name, top.key)
        return None


class MentionPrior:
    """Bias for the allowed tokens at one decoding step, from what the request names."""

    def __init__(
        self,
        query: str,
        tools: Sequence[Mapping[str, Any]],
        token_bytes: Sequence[bytes],
        weight: float,
        settle: bool = False,
    ) -> None:
        self.weight = float(weight)
        # A call the model is made to give (the second look) is kept only if the request says
        # all of it: there the prior also ends a call once nothing said is left for it.
        self.settle = settle
        self.token_bytes = token_bytes
        self.raw = query.strip().encode()
        self.raw_lower = query.strip().lower().encode()
        # "there" after a thing said is that thing again ("veranda lamp on and close the
        # curtains there"): the request is read as if it said it twice
        picked, settings = thing_names(tools)
        query = mended(query, tools)
        query = resolve_there(query, [v for v in picked | settings if names_a_thing(v)])
        self.query = words(query)
        picked_words = {w for v in picked for w in words(v)}
        # a word of a name said with the rest of it points at no tool ("hot tub" is no heat)
        parts_free = set(without_parts(self.query, picked))
        self.clause = clause_numbers(query, picked)
        self._one_clause = len(set(self.clause)) <= 1
        self.tools: dict[str, Mapping[str, Any]] = {}
        self._desc_hit: dict[str, float] = {}
        self._desc_words: dict[str, set[str]] = {}
        for t in tools:
            self.tools[str(t["name"])] = t.get("parameters") or {}
            # a renamed tool ("warmth") is often found only by its description ("Set the cafe
            # heating: ..."): a content word of it that the request says is weak evidence
            desc = telling_words(str(t.get("description") or ""))
            if takes_temperature(t.get("parameters") or {}):
                desc |= WARMTH_WORDS  # "make it warmer" is the thermostat's
            own = desc | set(words(str(t["name"]).replace("_", " ")))
            for same in (LIGHT_WORDS, COVER_WORDS):
                if own & same:
                    desc |= same  # "lights off in Yara's study" is the lamp's
            # "switch the extractor on" is the fan's, but not beside a relay called "extractor"
            desc |= {w for w in kind_synonyms(own) & FAN_WORDS if w not in picked_words}
            self._desc_hit[str(t["name"])] = DESCRIPTION_HIT if desc & parts_free else 0.0
            self._desc_words[str(t["name"])] = desc
        self._phrase_cache: dict[str, tuple[float, tuple[str, ...]]] = {}
        self._clauses_of: dict[str, set[int]] = {}  # `_value_clauses`, once `clause` is final
        # `_anchor` by call text: a step asks for it up to three times (sense, numbers, digits)
        self._anchors: dict[bytes, int | None] = {}
        self._name_hit: dict[str, float] = {}
        self._name_says: dict[str, int] = {}
        # a word of a tool's name inside a thing's name says nothing of the tool ("Tilly's
        # room" is no call to room_glow)
        outside = without_names(self.query, thing_names(tools)[0])
        thing_words = {w for v in thing_names(tools)[0] for w in words(v)}
        name_words = {name: words(name.replace("_", " ")) for name in self.tools}
        for name in self.tools:
            content = [w for w in name_words[name] if w not in GENERIC]
            said = sum(w in outside for w in content)
            # all of a two-word name ("diesel heater") is as strong as a value said in full,
            # and so is a one-word name no other tool, and no thing's name, has a word for
            # ("turn the stove off" beside a relay board; not "light" with an "alarm light")
            alone = (
                len(content) == 1
                and content[0] not in thing_words
                and content[0] not in LIGHT_WORDS  # an LED is a "light" too
                and not any(
                    content[0] in self._desc_words[other] or content[0] in name_words[other]
                    for other in self.tools
                    if other != name
                )
            )
            full = said == len(content) and (len(content) >= 2 or alone)
            # a name of several words said as written names its tool, a thing's name inside it
            # too: "nursery heater to 20" is set_nursery_heater, not the nursery's light
            as_written = len(content) >= 2 and bool(starts_at(content, self.query))
            if as_written and not full:
                said, full = len(content), True
            self._name_hit[name] = 0.0 if not said else 1.0 if full else 0.7
            # how many calls the name may point at: "fan on, change the fan to auto" says it
            # twice; "cabin light off and anchor light on" once (the relay's "anchor light")
            self._name_says[name] = max((outside.count(w) for w in content), default=0) or int(
                as_written
            )
        # each tool's enum values that name a thing (rooms, devices), and the clause where the
        # request first says one of them in full (None: it says none)
        self._things = {
            name: [v for sch in _props(p) for v in enum_strings(sch) if names_a_thing(v)]
            for name, p in self.tools.items()
        }
        # sense words, less those inside a name the request says ("the door open LED")
        in_names = {
            i + k
            for v in picked  # names of things, not a mode's "blink"
            for i in starts_at(tuple(words(v)), self.query)
            for k in range(len(words(v)))
        }
        self._senses = [(i, s) for i, s in switch_senses(self.query) if i not in in_names]
        # a setting's value said only inside a name ("green room lights at 80%": no colour)
        # is not said; the request is read without the names for it
        self._setting_values = settings - picked
        self._picked = picked
        # a thing said only inside a longer thing's name, of any tool, is not said: "grey tank
        # valve off" names the relay, not the "tank" LED
        self._inside_things = only_inside(sorted(picked), self.query)
        self._unnamed = without_names(self.query, picked)
        # nor inside a tool's name said as one ("put the heat pump on cool": no heat mode)
        spoken_tools = {" ".join(ws) for n in self.tools if len(ws := words_of_name(n)) >= 2}
        self._setting_q = without_names(self._unnamed, spoken_tools)
        # tools whose every name word the request says outside the names of things
        # (or its head noun, the last word, when no other tool's name has it and it is no
        # light word: "open the vents in bay 3" names roof_vents, not the bay's lights)
        self._name_said = {
            name: bool(ws := words_of_name(name))
            and (
                all(w in self._unnamed for w in ws)
                or (
                    ws[-1] in self._unnamed
                    and ws[-1] not in LIGHT_WORDS
                    and not any(ws[-1] in name_words[o] for o in self.tools if o != name)
                )
            )
            for name in self.tools
        }
        self._opens_by_switching = any(w in OPENS_BY_SWITCHING for w in self.query)
        self._any_full = any(self._mention(v)[0] == 1.0 for vs in self._things.values() for v in vs)
        # where the request points at each tool: a word of its name or of its description,
        # one of its names said in full
        points: dict[str, set[int]] = {}
        self._word_points: dict[str, set[int]] = {}  # a word of the tool only, no name
        for name in self.tools:
            own = {w for w in words(name.replace("_", " ")) if w not in GENERIC}
            own |= self._desc_words.get(name, set())
            at = {i for i, w in enumerate(self.query) if w in own}
            # (outside the names of things: "room" of a description is no word in "front room")
            self._word_points[name] = {i for i in at if self._unnamed[i]}
            for v in self._things[name]:
                ws = tuple(words(v))
                at |= {i for s in starts_at(ws, self.query) for i in range(s, s + len(ws))}
            points[name] = at
        # A clause that only adds a number to the one before it goes on that one: "make the
        # chart room a bit dimmer, say 25 percent", "switch the thermostat to cool and 20"
        # are one command each ("then the heating to 20" is not: it says a thing).
        merged, k = [], 0
        for i, c in enumerate(self.clause):
            if i and c != self.clause[i - 1]:
                clause = [w for w, d in zip(self.query, self.clause, strict=True) if d == c]
                k += not only_a_number(clause)
            merged.append(k)
        self.clause = merged
        self._one_clause = len(set(self.clause)) <= 1
        self._first_clause: dict[str, int | None] = {}
        for name, things in self._things.items():
            said = [
                at
                for v in things
                if (at := find_phrase(self._mention(v)[1], self.query)) is not None
            ]
            self._first_clause[name] = self.clause[min(said)] if said else None
        # The clauses where the request points at each tool (a word of its name or of its
        # description, one of its names said in full), and those that point at any: call k
        # is about the k-th of these ("thermostat to 13.5 and after that the main monitor
        # off" starts with the thermostat, although the monitor is the name said in full).
        self._tool_clauses = {n: {self.clause[i] for i in at} for n, at in points.items()}
        self._evidence_clauses = sorted(set().union(*self._tool_clauses.values()))
        # how many of them ask for something (not "but not the wifi led")
        self._asked_clauses = sum(
            not any(w in NEGATIONS for w, c in zip(self.query, self.clause, strict=True) if c == k)
            for k in self._evidence_clauses
        )
        # numbers said (digits or words); names that hold digits ("bedroom 2") are not ones
        names = [v for p in self.tools.values() for sch in _props(p) for v in enum_strings(sch)]
        self.numbers = said_numbers(query, names)
        # the values of the numbers each clause says ("lights to sixty five and the thermostat
        # to 22": 65 is the first call's)
        self._clause_values: dict[int, set[float]] = {}
        if self.numbers and not self._one_clause:
            for k in set(self.clause):
                text = " ".join(w for w, c in zip(self.query, self.clause, strict=True) if c == k)
                self._clause_values[k] = {n.value for n in said_numbers(text, names)}
        self._said_spelled = [_fmt(n.value) for n in self.numbers]  # as a call writes them
        # a clause that says no number, but "open" or "close" ("to full"): a bounded number (a
        # blind's position) in its call is the maximum or the minimum ("open the study blinds
        # half way and then open the hall blinds": the hall's are at 100)
        self._bounds: dict[int, str] = {}
        self._full: set[int] = set()  # clauses that say "full" or "max"
        for k in set(self.clause):
            if self.numbers and (self._one_clause or self._clause_values.get(k)):
                continue
            senses = set().union(*(ss for i, ss in self._senses if self.clause[i] == k))
            full = any(
                w in FULL_WORDS for w, c in zip(self.query, self.clause, strict=True) if c == k
            )
            opens, closes = "open" in senses or full, "close" in senses
            if opens != closes:
                self._bounds[k] = "maximum" if opens else "minimum"
            if full and not closes:
                self._full.add(k)

    # -- scores -------------------------------------------------------------------------------
    def _mention(self, value: str) -> tuple[float, tuple[str, ...]]:
        hit = self._phrase_cache.get(value)
        if hit is None:
            ws = tuple(words(value))
            q = self._setting_q if value in self._setting_values else self.query
            if ws and count_of(ws, q) and value not in self._inside_things:
                hit = (1.0, ws)
            else:
                shared = [w for w in content_words(ws) if w in q]
                hit = (0.5 if shared else 0.0, ws)
            self._phrase_cache[value] = hit
        return hit

    def _value_score(self, value: str, used: Sequence[str]) -> float:
        s, ws = self._mention(value)
        if s == 1.0 and used.count(value) >= count_of(ws, self.query):
            return SPENT  # said once, already used: the next call is about something else
        return s

    @staticmethod
    def _read(call_text: bytes) -> tuple[_Scan, list[str], list[str]]:
        """Where the call list so far stands, and the argument values and tool names it has
        completed (one pass)."""
        values: list[str] = []
        tools: list[str] = []

        def on_value(scan: _Scan, raw: bytes, _closed: bool) -> None:
            ctx = scan.context()
            if ctx is None:
                return
            try:
                text = json.loads(b'"' + raw + b'"')
            except ValueError:
                return
            (values if ctx[0] == "arg" else tools).append(text)

        scan = _Scan()
        scan.feed(call_text, on_value)
        return scan, values, tools

    def _boosted(self, name: str, score: float, rival: set[str], called: Sequence[str]) -> bool:
        """Whether a tool's full evidence gets TOOL_BOOST for the call being started; `rival`
        holds the said name words of tools with less evidence."""
        # A rival's name word withholds the boost, unless this tool's own description says that
        # word too ("shut the blinds in Farah's office": adjust_shutters, "Open or close a
        # room's blinds", over set_blinds, which lacks that room).
        if score < 1.0 or (
            rival and not self._name_hit[name] and not rival & self._desc_words[name]
        ):
            return False
        # Call k is about clause k when the request has several ("nineteen degrees, then
        # Sami's study blinds"): a name said only in a later clause keeps its plain weight, or
        # the first call jumps ahead to it and the second call has nothing left to say.
        # (the k-th clause that points at a tool: "hey needle, kill Emma's fan and ..." has
        # its first such clause second)
        clause = self._first_clause[name]
        here = self._call_clause(len(called))
        return clause is None or clause <= (len(called) if here is None else here)

    def _tool_score(self, name: str, used: Sequence[str], called: Sequence[str]) -> float:
        """1 when a name among the tool's values is said (and not spent) or every content word
        of a two-word tool name is, 0.7 when one word of its name is, 0.5 when part of a value
        is; the name counts only while the tool has been called fewer times in this list than
        the request says it."""
        named = called.count(name) < self._name_says.get(name, 0)
        evidence = self._name_hit.get(name, 0.0) if named else 0.0
        if name not in called:
            evidence = max(evidence, self._desc_hit.get(name, 0.0))
        part = 0.0
        for v in self._things[name]:
            sc = self._value_score(v, used)
            evidence = max(evidence, sc)
            part = max(part, sc if sc < 1.0 else 0.0)
        if part > 0 and self._name_hit.get(name, 0.0) > 0 and name not in called:
            # two pieces that agree, a word of the tool's name and part of one of its names
            # ("open Zoe's shades": set_shades, Zoe's room), are as good as a name in full
            # when the request says no name of any tool in full
            if not self._any_full:
                evidence = max(evidence, 1.0)
        if evidence <= 0 and name in called:
            return SPENT  # called already, and nothing said is left for it
        return evidence

    # -- the bias -----------------------------------------------------------------------------
    def __call__(self, call_text: bytes, candidates: np.ndarray) -> np.ndarray | None:
        """Logit bonus for each candidate token after `call_text`, or None when the step is not
        a choice between names."""
        if self.weight == 0.0 or not self.query:
            return None
        base, used, called = self._read(call_text)
        inner = self._bias(base, used, called, call_text, candidates)
        if base.in_string:
            # a value's closing token also chooses between ending the call and going on
            keyed = self._key_bias(base, call_text, candidates, used, called)
            if keyed is not None:
                inner = keyed if inner is None else inner + keyed
        unbacked = self._unbacked_key_bias(base, call_text, candidates, used, called)
        if unbacked is not None:
            inner = unbacked if inner is None else inner + unbacked
        switching = self._switch_bias(base, call_text, candidates) if self._senses else None
        if switching is not None:
            inner = switching if inner is None else inner + switching
        ending = self._end_bias(base, call_text, candidates)
        if ending is not None:
            inner = ending if inner is None else inner + ending
        entering = None
        if self.numbers or self._bounds:
            entering = self._number_entry(base, call_text, candidates)
        if base.in_string and base.is_key:
            copying = self._copy_entry(base, candidates)
            if copying is not None:
                entering = copying if entering is None else entering + copying
        if entering is None:
            return inner
        return entering if inner is None else inner + entering

    def _bias(
        self,
        base: _Scan,
        used: list[str],
        called: list[str],
        call_text: bytes,
        candidates: np.ndarray,
    ) -> np.ndarray | None:
        if not base.in_string:
            slot = self._number_slot(base, call_text)
            numbered = None
            if slot is not None and (self.numbers or self._bounds):
                numbered = self._number_bias(
                    *slot, candidates, _written_numbers(call_text), call_text
                )
            # In a number, ending it is the number's own choice: the call may go on to a said
            # key only once the digits so far are a number the request says ("805", not "80").
            keyed = None
            if slot is None or slot[0].decode("ascii", "replace") in self._spelled(slot[1]):
                keyed = self._key_bias(base, call_text, candidates, used, called)
            if keyed is not None and numbered is not None:
                return keyed + numbered
            if keyed is not None or numbered is not None:
                return keyed if keyed is not None else numbered
        choices_cache: dict[tuple[str, str | None, str | None], list[tuple[bytes, float]]] = {}
        if base.in_string and not base.is_key and self._free_text(base):
            return self._copy_bias(bytes(base.buf), candidates)
        if base.in_string:
            ctx = base.context() if not base.is_key else None
            if ctx is None:
                return None  # a key, or a string that is not a name
            choices_cache[ctx] = self._choices(ctx, used, called, call_text)
            if not any(sc for _, sc in choices_cache[ctx]):
                return None  # free text, or nothing here is said: no opinion
        out = np.zeros(len(candidates), dtype=np.float64)
        any_bias = False
        for i, tid in enumerate(candidates):
            data = self.token_bytes[int(tid)]
            if not base.in_string and b'"' not in data:
                continue  # cannot reach a string value
            seen: list[tuple[tuple, bytes, bool]] = []

            def on_value(scan: _Scan, raw: bytes, closed: bool, seen: list = seen) -> None:
                ctx = scan.context()
                if ctx is not None and not seen:
                    seen.append((ctx, raw, closed))

            scan = base.copy()
            scan.feed(data, on_value)
            if not seen and scan.in_string and not scan.is_key:
                ctx = scan.context()  # the token ends inside a value string
                if ctx is not None:
                    seen.append((ctx, bytes(scan.buf), False))
            if not seen:
                continue
            ctx, raw, closed = seen[0]
            choices = choices_cache.get(ctx)
            if choices is None:
                choices = self._choices(ctx, used, called, call_text)
                choices_cache[ctx] = choices
            best = None
            for sp, sc in choices:
                if (sp == raw) if closed else sp.startswith(raw):
                    best = sc if best is None else max(best, sc)
            if best:
                out[i] = self.weight * best
                any_bias = True
        return out if any_bias else None

    def _key_bias(
        self,
        base: _Scan,
        call_text: bytes,
        candidates: np.ndarray,
        used: Sequence[str],
        called: Sequence[str] = (),
    ) -> np.ndarray | None:
        """Inside a call's arguments, between values: the weight for a token that goes on to
        another key while one is unwritten whose value the request says in full and no call
        has used yet ("fan on gale": the speed, not just `on`), so the call does not end
        without it."""
        if len(base.stack) != 3 or base.stack[2].kind != "obj" or not base._is_call(1):
            return None
        if base.stack[1].key != "arguments":
            return None
        if base.stack[2].expect_key and not base.in_string:
            return None  # not between two arguments, nor in a string that may end one
        value_string = base.in_string and not base.is_key
        if value_string and not any(b'"' in self.token_bytes[int(t)] for t in candidates):
            return None  # no token can end the value here: it goes on, its own choice
        if value_string and self._free_text(base):
            return None  # where a note ends is the copy's choice; the push waits for its close
        props = (self.tools.get(base.stack[1].name or "") or {}).get("properties") or {}
        written = set(_written_keys(call_text))
        # A mode word is often a verb ("cool it down to 17"): only named settings (a colour, a
        # speed) and names wait for their key.
        # A mode said as one ("to cool", "in auto mode") waits too.
        wanted = {
            k
            for k, sch in props.items()
            if k not in written
            and (k.lower() in NAMED_SETTINGS or k not in SETTING_KEYS or self._set_as_value(sch))
            and self._said_value(sch, used, self._call_clause(len(called) - 1))
        }
        # Keys pushed by name, where going on alone lets the model pick another key ("color")
        # and the first key stays the model's choice:
        # - a switching boolean the request gives this call a sense for in the call's own
        #   clause ("turn on the library lights"; "lights on in the bathroom, the bedroom to
        #   warm white" sets no switch in the second call);
        # - a numeric key that fits a number the request says and no call holds yet ("front
        #   counter light to 60%"), in a one-clause request, where the number can be for no
        #   other call; keys whose name or description says the number's unit ("percent",
        #   "degrees") first.
        switches: set[bytes] = set()
        pending = self._numbers_pending(call_text, used, called)
        if not written and pending:
            # the model picks a first key at random ("mode" for "make it 22 degrees", made to
            # call; "then the heating to 21" wrote the heat mode): a numeric key whose
            # description names the number's unit, or the tool's only one, goes first
            switches = self._number_keys(props, written, pending, by_unit_only=True)
        if written:
            # at a value's closing token, the value as if closed names the call's thing
            closed = call_text + b'"' if value_string else call_text
            sense = self._call_sense(closed, inherit=False) if self._senses else None
            thing_only = all(picks_a_thing(k, props.get(k)) for k in written)
            if sense is None and self._senses and thing_only and not wanted and not pending:
                # a clause that says nothing but the thing takes the verb before it ("turn
                # off the cellar stairs and cake counter lights")
                sense = self._call_sense(closed, inherit=True)
            if sense:
                switches = {
                    k.encode()
                    for k, sch in props.items()
                    if k not in written
                    and k.lower() in SWITCH_KEYS
                    and isinstance(sch, Mapping)
                    and sch.get("type") == "boolean"
                    and sense & {SWITCH_KEYS[k.lower()], OPPOSITE[SWITCH_KEYS[k.lower()]]}
                }
            if pending:
                switches |= self._number_keys(props, written, pending)
            elif (
                not self.numbers
                and self._full
                and not any(
                    isinstance(props.get(k), Mapping)
                    and props[k].get("type") in ("integer", "number")
                    for k in written
                )
            ):
                # "flour store light at max": the first numeric key that has a maximum (one:
                # "full brightness" is no transition at its longest as well)
                anchor = self._anchor(closed)
                if anchor is not None and self.clause[anchor] in self._full:
                    first = next(
                        (
                            k
                            for k, sch in props.items()
                            if k not in written
                            and isinstance(sch, Mapping)
                            and sch.get("type") in ("integer", "number")
                            and isinstance(sch.get("maximum"), int | float)
                        ),
                        None,
                    )
                    switches |= {first.encode()} if first else set()
            # a setting value said in full ("make Nadia's kitchen ember"): its key, not "on"
            switches |= {k.encode() for k in wanted}
            # a flag named with its value ("eco yes"), or a later pushed key would skip it
            switches |= {
                k.encode()
                for k, sch in props.items()
                if k not in written
                and isinstance(sch, Mapping)
                and sch.get("type") == "boolean"
                and flag_value(self.query, k) is not None
            }
            wanted = set()
            # keys follow the schema's order: the first pushed one, or it would be skipped;
            # none before the last key written, which the grammar no longer allows
            order = list(props)
            last = max((order.index(k) for k in written if k in props), default=-1)
            first = next((k.encode() for k in order[last + 1 :] if k.encode() in switches), None)
            switches = {first} if first is not None else set()
        if not wanted and not switches:
            if self.settle and written and not self._left_to_say(props, written, used):
                return self._close_bias(base, candidates)
            return None
        if base.in_string and not (base.is_key and switches):
            wanted = set()  # a value being written: only its close may go on to a pushed key
            if not switches:
                return None
        out = np.zeros(len(candidates), dtype=np.float64)
        for i, tid in enumerate(candidates):
            scan = base.copy()
            scan.feed(self.token_bytes[int(tid)])
            if len(scan.stack) != 3:
                continue  # the arguments (or the call) end here
            top = scan.stack[2]
            if value_string and scan.in_string and not scan.is_key:
                continue  # the value goes on: its own choice
            if switches:
                if scan.in_string and scan.is_key:
                    # a key begun (or typed on); not one begun after a value this token wrote
                    key = bytes(scan.buf)
                    data = self.token_bytes[int(tid)]
                    hit = b":" not in data and any(k.startswith(key) for k in switches)
                elif top.expect_key:  # a comma: any key may follow
                    hit = not base.stack[2].expect_key
                else:
                    # a key begun and ended in this token (',"on":'), with no digit of its
                    # value; the close of a key typed so far is left to the number's choice
                    data = self.token_bytes[int(tid)]
                    hit = (
                        not base.in_string
                        and top.key != base.stack[2].key
                        and (top.key or "").encode() in switches
                        and not NUMBER_BEGUN.search(data)
                    )
                if hit:
                    out[i] = self.weight * SWITCH_KEY
                if not wanted:
                    continue
            # only the choice between going on and closing: which key comes next stays the
            # model's (boosting the said key skipped the ones before it: "on" in "lights on
            # in pink")
            if top.expect_key or scan.is_key:
                out[i] = self.weight
        return out if out.any() else None

    def _unbacked_key_bias(
        self,
        base: _Scan,
        call_text: bytes,
        candidates: np.ndarray,
        used: Sequence[str],
        called: Sequence[str],
    ) -> np.ndarray | None:
        """A penalty on a token that writes a key the request gives no value for: a numeric
        key while it gives the call no number (none said and left for it, no "open"/"close"/
        "full"), a setting whose absence is its default (a log level) none of whose values
        it says. The model's own value is a guess: "set the heater to auto" as temperature
        6, "bedroom 6" as brightness 6, "note that the door sticks" at level warning. (A
        colour or speed never said is left to `unnamed_arguments`, which doubts the call:
        "make the bar lights green" asks for a colour the lights lack.)"""
        if len(base.stack) < 2 or not base._is_call(1) or base.stack[1].key != "arguments":
            return None
        # inside a value, only a token with a comma can begin another key
        between = base.is_key or (len(base.stack) > 2 and base.stack[2].expect_key)
        if not between and not any(b"," in self.token_bytes[int(t)] for t in candidates):
            return None
        props = (self.tools.get(base.stack[1].name or "") or {}).get("properties") or {}
        numeric = set()
        # a said number no call holds backs every numeric key: its clause is the push's
        # business, and one out of range must still be written for the range check to see
        if not self._bounds and not _unheld(self._numbers_for(used), call_text):
            numeric = {
                k
                for k, sch in props.items()
                if isinstance(sch, Mapping) and sch.get("type") in ("integer", "number")
            }
        setting_said = any(
            self._said_value(sch, used)
            for k, sch in props.items()
            if isinstance(sch, Mapping) and enum_strings(sch) and not picks_a_thing(k, sch)
        )
        if not self._senses and setting_said:
            # the request says a setting and no switching word: "slow the fan down" sets no
            # "on" ("I can't see anything in the garage", saying none, may imply one)
            numeric |= {
                k
                for k, sch in props.items()
                if k.lower() in SWITCH_KEYS
                and isinstance(sch, Mapping)
                and sch.get("type") == "boolean"
                and flag_value(self.query, k) is None
            }
        # a colour or speed nobody said, after a setting the request did say besides a switch
        # ("the counter at full brightness" is no white as well); after none, or only a switch
        # ("fan on medium", a speed the fan lacks), it is left to the unnamed cap
        if any(
            not picks_a_thing(k, props.get(k)) and k.lower() not in SWITCH_KEYS
            for k in _written_keys(call_text)
        ):
            numeric |= {
                k
                for k, sch in props.items()
                if k.lower() in NAMED_SETTINGS
                and enum_strings(sch)
                and not any(self._mention(v)[0] > 0 for v in enum_strings(sch))
            }
        # a mode nobody said, after a number ("the stove to 18" asks for no heat mode too;
        # "to heating and 14 degrees" does)
        if any(
            isinstance(props.get(k), Mapping) and props[k].get("type") in ("integer", "number")
            for k in _written_keys(call_text)
        ):
            numeric |= {
                k
                for k, sch in props.items()
                if enum_strings(sch)
                and not picks_a_thing(k, sch)
                and not any(
                    self._mention(v)[0] > 0 or f"{v.lower()}ing" in self.query
                    for v in enum_strings(sch)
                )
            }
        numeric |= {
            k
            for k, sch in props.items()
            if k.lower() in DEFAULTED_SETTINGS
            and enum_strings(sch)
            and not set(words(k)) & set(self.query)
            and not any(self._mention(v)[0] > 0 for v in enum_strings(sch))
        }
        if not numeric:
            return None
        before = base.stack[2].key if len(base.stack) > 2 else None
        # the keys the grammar still allows: those after the last one written
        order = list(props)
        later = order[order.index(before) + 1 :] if before in props else order
        if base.in_string and base.is_key:
            typed = base.buf.decode("utf-8", errors="replace")
            if all(k in numeric for k in later if k.startswith(typed)):
                return None  # the key is chosen already; this token only finishes it
        out = np.zeros(len(candidates), dtype=np.float64)
        for i, tid in enumerate(candidates):
            scan = base.copy()
            scan.feed(self.token_bytes[int(tid)])
            if len(scan.stack) != 3 or scan.stack[2].kind != "obj":
                continue
            if scan.in_string and scan.is_key:
                typed = scan.buf.decode("utf-8", errors="replace")
                keys = [k for k in later if k.startswith(typed)]
            elif scan.stack[2].key is not None and scan.stack[2].key != before:
                keys = [scan.stack[2].key]  # a key begun and closed in this token
            elif scan.stack[2].expect_key and not (
                len(base.stack) > 2 and base.stack[2].expect_key
            ):
                keys = later  # a comma, often merged with a value's close ('","')
            else:
                continue
            if keys and all(k in numeric for k in keys):
                out[i] = -self.weight * UNBACKED_KEY
        return out if out.any() else None

    def _set_as_value(self, schema: Any) -> bool:
        """Whether the request says a value of this enum as a setting rather than a verb:
        after "to", "on", "in" or "at", or before "mode" ("to cool", "auto mode")."""
        return any(self._set_form(v) for v in enum_strings(schema))

    def _set_form(self, value: str) -> bool:
        """Whether the request says `value` as a setting (see `_set_as_value`)."""
        ws = tuple(words(value))
        for i in starts_at(ws, self.query):
            before = self.query[i - 1] if i else ""
            after = self.query[i + len(ws)] if i + len(ws) < len(self.query) else ""
            if before in ("to", "on", "in", "at") or after == "mode":
                return True
        return False

    def _left_to_say(
        self, props: Mapping[str, Any], written: set[str], used: Sequence[str]
    ) -> bool:
        """Whether the request says in full a value of an unwritten enum key of this tool (a
        mode too: the second look keeps a call only if it leaves nothing said out)."""
        for k, sch in props.items():
            if k in written or not isinstance(sch, Mapping):
                continue
            if enum_strings(sch) and self._said_value(sch, used):
                return True
        return False

    def _close_bias(self, base: _Scan, candidates: np.ndarray) -> np.ndarray | None:
        """The weight for a token that ends the call's arguments (or writes no more of them)."""
        out = np.zeros(len(candidates), dtype=np.float64)
        for i, tid in enumerate(candidates):
            scan = base.copy()
            scan.feed(self.token_bytes[int(tid)])
            if len(scan.stack) < 3:
                out[i] = self.weight * SWITCH_KEY
        return out if out.any() else None

    def _end_bias(self, base: _Scan, call_text: bytes, candidates: np.ndarray) -> np.ndarray | None:
        """A penalty on a token that ends the call list while a thing the request names in full
        (a room, a device) is left for no call, outside a negated clause; and on one that starts
        another call once every clause that points at a tool has its call, nothing named in
        full is left and every number said is held."""
        if not base.stack:
            return None
        out = np.zeros(len(candidates), dtype=np.float64)
        for i, tid in enumerate(candidates):
            data = self.token_bytes[int(tid)]
            cut = _next_call_at(base, data)
            if cut is None and b"]" not in data:
                continue
            done = call_text + (data if cut is None else data[:cut])
            scan = base.copy()
            scan.feed(data)
            if cut is None and scan.stack:
                continue  # neither ends the list nor starts a call
            _, used, called = self._read(done)
            if not called:
                continue
            left = self._left_unsaid(used) or len(called) < self._asked_clauses
            if cut is None and left:
                out[i] = -self.weight * LEFT_UNSAID
            elif (
                cut is not None
                and not left
                and len(called) >= len(self._evidence_clauses)
                and not _unheld(self.numbers, done)
            ):
                out[i] = -self.weight * END_DONE
        return out if out.any() else None

    def _left_unsaid(self, used: Sequence[str]) -> bool:
        """Whether the request says a thing's name in full more often than the calls use it;
        a saying inside a longer name said ("hall" in "hall closet") is the longer one's."""
        for v, own in said_spans(self._picked, self.query).items():
            if len(own) <= used.count(v):
                continue
            clause = self.clause[own[-1][0]] if own[-1][0] < len(self.clause) else None
            said = [w for w, c in zip(self.query, self.clause, strict=True) if c == clause]
            if not any(w in NEGATIONS for w in said):
                return True
        return False

    def _numbers_pending(
        self, call_text: bytes, used: Sequence[str], called: Sequence[str]
    ) -> list[Said]:
        """The said numbers the call being written may still take: in a one-clause request
        those of the request that no call holds; else those its own clause says that the call
        does not hold ("fade the stock room to 30 percent over 5 seconds": the 5 too)."""
        if not self.numbers:
            return []
        if self._one_clause:
            return _unheld(self._numbers_for(used), call_text)
        # the clause of the thing the call names, else the clause the call is about
        anchor = self._anchor(call_text)
        here = self.clause[anchor] if anchor is not None else self._call_clause(len(called) - 1)
        if here is None:
            return []
        values = self._clause_values.get(here, set())
        own = call_text[call_text.rfind(b'{"name"') :]
        return _unheld([n for n in self._numbers_for(used) if n.value in values], own)

    def _numbers_for(self, used: Sequence[str]) -> list[Said]:
        """The said numbers that are not part of a name the calls hold ("guest rom 1")."""
        taken = {w for v in used for w in words(v)}
        return [n for n in self.numbers if _fmt(n.value) not in taken]

    def _number_keys(
        self,
        props: Mapping[str, Any],
        written: set[str],
        numbers: Sequence[Said],
        by_unit_only: bool = False,
    ) -> set[bytes]:
        """The unwritten numeric keys a said number fits: those whose name or description
        says its unit, else the first numeric key in the schema's order (a light's brightness
        before its transition time) if the number fits it ("light at 150" is no transition).
        `by_unit_only` (a call's first key): the unit's key, or the tool's only numeric key."""
        numeric = {
            k: sch
            for k, sch in props.items()
            if k not in written
            and isinstance(sch, Mapping)
            and sch.get("type") in ("integer", "number")
        }
        fit = {k: sch for k, sch in numeric.items() if any(fits(n, sch) for n in numbers)}
        said = said_with_units(self.query, numbers)
        unit = {k for k, sch in fit.items() if said & _unit_words(k, sch)}
        if by_unit_only and not unit and len(numeric) == len(fit) == 1:
            unit = set(fit)  # the tool's one numeric key ("make it warmer? 22 please")
        if unit or by_unit_only:
            return {k.encode() for k in unit}
        first = next(iter(numeric), None)
        return {first.encode()} if first in fit else set()

    def _said_value(self, schema: Any, used: Sequence[str], clause: int | None = None) -> bool:
        """Whether the request says one of an enum's values in full (not a bare on/off word)
        that no call has used yet; with `clause`, in that clause ("fan on, then the fan to
        gale": the first call does not wait for the second's speed)."""
        for v in enum_strings(schema):
            ws = words(v)
            if not ws or set(ws) <= SETTING_VALUES or (len(v) < 3 and not v.isdigit()):
                continue  # a bare on/off word (a speed "4" is a value)
            if self._value_score(v, used) != 1.0:
                continue
            if clause is None or any(
                self.clause[i] == clause for i in starts_at(tuple(ws), self.query)
            ):
                return True
        return False

    def _free_text(self, scan: _Scan) -> bool:
        """Whether the open string is a free-text argument (a message, a note)."""
        sch = self._arg_schema(scan.context())
        return sch is not None and sch.get("type") == "string" and "enum" not in sch

    def _copy_bias(self, written: bytes, candidates: np.ndarray) -> np.ndarray | None:
        """The weight for a token that keeps a free text a piece of the request that starts at
        a word, or ends it where the request's phrase ends: a note is the user's words, not
        what a small model makes up ("the ch ch ch ...")."""
        if b"\\" in written:
            return None  # escapes: the JSON text is no longer the request's bytes
        going_on, ending = self._copy_steps(written)
        out = np.zeros(len(candidates), dtype=np.float64)
        for i, tid in enumerate(candidates):
            data = self.token_bytes[int(tid)]
            quote = data.find(b'"')
            if quote < 0:
                hit = data in going_on
            else:
                hit = bool(written or data[:quote]) and data[:quote] in ending
            if hit:
                out[i] = self.weight * COPY_BOOST
        return out if out.any() else None

    def _copy_entry(self, base: _Scan, candidates: np.ndarray) -> np.ndarray | None:
        """The copy bias for tokens that close a key and open its free text in one piece
        ('":"', '":":{'): the vocabulary merges them, and the text they start is the model's
        alone unless judged here. A token that only opens the string ties with one whose text
        starts a copy; one that starts any other text gets nothing."""
        going_on, ending = self._copy_steps(b"")
        out = np.zeros(len(candidates), dtype=np.float64)
        for i, tid in enumerate(candidates):
            scan = base.copy()
            closed: list[bytes] = []

            def on_value(s: _Scan, raw: bytes, _closed: bool, closed: list = closed) -> None:
                if self._free_text(s):
                    closed.append(raw)

            scan.feed(self.token_bytes[int(tid)], on_value)
            if closed:
                hit = bool(closed[0]) and closed[0] in ending
            elif scan.in_string and not scan.is_key and self._free_text(scan):
                hit = not scan.buf or bytes(scan.buf) in going_on
            else:
                continue
            if hit:
                out[i] = self.weight * COPY_BOOST
        return out if out.any() else None

    def _copy_steps(self, written: bytes) -> tuple[set[bytes], set[bytes]]:
        """What may follow `written` in a copy of the request: the byte strings that keep it a
        piece starting at a word, and those that end it where a phrase ends. Sets, so a step
        looks each of the ~1,000 candidate tokens up once rather than searching the request."""
        going_on: set[bytes] = set()
        ending: set[bytes] = set()
        for q in (self.raw, self.raw_lower):
            # A request that marks where its note begins ("pin a note: out of milk", "note
            # that the door sticks") has it begin there, not at any word: a model that never
            # learned to copy starts at the first word it likes ("a note").
            marks = {m.end() for m in _NOTE_START.finditer(q)}
            for at in range(len(q) + 1 - len(written)):
                if marks and at not in marks:
                    continue
                if (at and q[at - 1 : at].isalnum()) or not q.startswith(written, at):
                    continue
                rest = q[at + len(written) :]
                for k in range(len(rest) + 1):
                    if k:
                        going_on.add(rest[:k])
                    if k == len(rest) or rest[k : k + 1] in _PHRASE_END:
                        ending.add(rest[:k])
        return going_on, ending

    def _number_entry(
        self, base: _Scan, call_text: bytes, candidates: np.ndarray
    ) -> np.ndarray | None:
        """The number bias for tokens that close a key and start its number in one piece: the
        vocabulary merges '":1', '":5', '":100}},"', so most numbers get their first digit
        where the text still stands in the key and `_number_bias` never sees the choice."""
        if not (base.in_string and base.is_key):
            return None  # only a key's close can be merged with a number
        written = _written_numbers(call_text)
        out = np.zeros(len(candidates), dtype=np.float64)
        slots: dict[bytes, tuple[bytes, Mapping[str, Any]] | None] = {}
        for i, tid in enumerate(candidates):
            data = self.token_bytes[int(tid)]
            colon = data.rfind(b":")
            # a token that only closes the key ('"', '":') keeps every number open: it ties
            # with a merged '":1' the request backs, and wins over one it does not
            opening = data in (b'"', b'":')
            if opening:
                head = b'":'
            elif colon < 0 or colon + 1 >= len(data) or data[colon + 1] not in _NUMBER_BYTES:
                continue
            else:
                head = data[: colon + 1]
            if head not in slots:
                scan = base.copy()
                scan.feed(head)
                slots[head] = self._number_slot(scan, call_text + head)
            slot = slots[head]
            if slot is None:
                continue
            if opening:
                out[i] = self.weight
            elif _extends_said(b"", data[colon + 1 :], self._unspent(slot[1], written, call_text)):
                out[i] = self.weight * self._number_weight(call_text)
            else:
                # a merged number the request does not say ('":100' for "say 25 percent"):
                # held back, or the model's favourite wins before any digit is judged
                out[i] = -self.weight
        return out if out.any() else None

    def _number_weight(self, call_text: bytes) -> float:
        """How much a digit backed by the request weighs: a bound backed by a word alone
        ("raise the blinds at the front desk": 100) outweighs the model's own number ("4"),
        and ties no longer with a token that only closes the key."""
        if not self.numbers:
            return BOUND_BOOST
        if (
            self._one_clause
            and len(self.numbers) == 1
            and not any(w[:1].isdigit() for w in self._unnamed)
        ):
            # the one number said only in words ("to a quarter", "forty percent"): the model
            # has no digits to copy, and its own guess ("4") is as strong as a bound's (with
            # several numbers or clauses, which goes where is the model's: "four level ...
            # five cups")
            return BOUND_BOOST
        if self._one_clause:
            return 1.0
        anchor = self._anchor(call_text)
        return BOUND_BOOST if anchor is not None and self.clause[anchor] in self._bounds else 1.0

    def _unspent(
        self, schema: Mapping[str, Any], written: Sequence[str], call_text: bytes = b""
    ) -> set[str]:
        """The numbers the argument may take from the request, less those said once that an
        earlier argument already holds (all of them if none is left); in a request of several
        clauses, those of the clause that names the call's thing when it says any ("lights to
        sixty five and the thermostat to 22": the lights take 65)."""
        spelled = self._spelled(schema)
        kinds = {n.percent for n in self.numbers}
        if len(kinds) == 2:
            # a percentage goes to a key in percent, another number elsewhere ("fade the
            # stairwell to 10% over 3 seconds": brightness 10, transition 3)
            in_percent = _in_percent(schema)
            mine = {_fmt(n.value) for n in self.numbers if n.percent == in_percent}
            mine |= {_fmt(n.value / 100) for n in self.numbers if n.percent and in_percent}
            spelled = (spelled & mine) or spelled
        if call_text and not self._one_clause and (anchor := self._anchor(call_text)) is not None:
            values = self._clause_values.get(self.clause[anchor], set())
            own = {_fmt(v) for v in values} | {_fmt(v / 100) for v in values}
            bound = self._bounds.get(self.clause[anchor])
            if bound and isinstance(schema.get(bound), int | float):
                own.add(_fmt(schema[bound]))
            spelled = (spelled & own) or spelled
        if not written:
            return spelled
        said = self._said_spelled
        left = {sp for sp in spelled if written.count(sp) < max(1, said.count(sp))}
        return left or spelled

    def _number_slot(self, scan: _Scan, call_text: bytes) -> tuple[bytes, Mapping[str, Any]] | None:
        """The digits written so far and the parameter's schema, when the text stands in a
        numeric argument; else None."""
        top = scan.stack[-1] if scan.stack else None
        if top is None or top.kind != "obj" or top.expect_key or top.key is None:
            return None
        sch = self._arg_schema(scan.context())
        if sch is None or sch.get("type") not in ("integer", "number"):
            return None
        tail = call_text[call_text.rfind(b":") + 1 :]
        return (tail, sch) if all(c in _NUMBER_BYTES for c in tail) else None

    def _number_bias(
        self,
        partial: bytes,
        schema: Mapping[str, Any],
        candidates: np.ndarray,
        written: Sequence[str] = (),
        call_text: bytes = b"",
    ) -> np.ndarray | None:
        """The weight for a token that keeps the number a prefix of one the request says, or
        ends it on one: "805" is not cut to 80, "seventy two" is not written 2. A number the
        request says once and an earlier argument already holds is spent, as a name is: the
        second call of "depth 78, then ... fifty four" is after 54, and its "1" is not the
        start of the first call's 10 ("cool and ten, then 9" written 19)."""
        spelled = self._unspent(schema, written, call_text)
        # digits that begin a said number that fits and are none ("22" of 22.5): ending there
        # cuts it (one out of range is cut by the grammar, for the range check to see)
        typed = partial.decode("ascii", "replace")
        cutting = (
            bool(typed)
            and typed not in spelled
            and any(sp.startswith(typed) and fits(Said(float(sp)), schema) for sp in spelled)
        )
        out = np.zeros(len(candidates), dtype=np.float64)
        for i, tid in enumerate(candidates):
            data = self.token_bytes[int(tid)]
            if _extends_said(partial, data, spelled):
                out[i] = self.weight * self._number_weight(call_text)
            elif cutting and (not data or data[0] not in _NUMBER_BYTES):
                out[i] = -self.weight * SWITCH_KEY
        return out if out.any() else None

    def _spelled(self, schema: Mapping[str, Any]) -> set[str]:
        """The numbers a numeric argument may take from the request, as the call writes them."""
        fraction = is_fraction_param(schema)  # "50 percent" is 0.5 there
        spelled = {_fmt(n.value) for n in self.numbers}
        spelled |= {_fmt(n.value / 100) for n in self.numbers if n.percent and fraction}
        for bound in set(self._bounds.values()):
            if isinstance(schema.get(bound), int | float):
                spelled.add(_fmt(schema[bound]))
        return spelled

    def _arg_schema(
        self, ctx: tuple[str, str | None, str | None] | None
    ) -> Mapping[str, Any] | None:
        """The schema of the argument a `_Scan.context()` points at (None: not an argument)."""
        if ctx is None or ctx[0] != "arg" or ctx[2] is None:
            return None
        sch = ((self.tools.get(ctx[1] or "") or {}).get("properties") or {}).get(ctx[2])
        return sch if isinstance(sch, Mapping) else None

    def _choices(
        self,
        ctx: tuple[str, str | None, str | None],
        used: Sequence[str],
        called: Sequence[str],
        call_text: bytes = b"",
    ) -> list[tuple[bytes, float]]:
        if ctx[0] == "tool":
            scores = {n: self._tool_score(n, used, called) for n in self.tools}
            # The evidence must agree: "open the blinds in Leo's room" says a room of the
            # lights and a word of set_blinds' name. Another tool named by a word, and not
            # this one, leaves this tool its plain weight (the call is likely a refusal).
            here = self._call_clause(len(called))
            # (said outside the names of things, in this call's clause when it is known: "kill
            # Emma's fan and stop the fan" names no fan tool for Emma's fan)
            spoken = {
                w
                for w, c in zip(self._unnamed, self.clause, strict=True)
                if here is None or c == here
            }
            rival = {
                w
                for n, sc in scores.items()
                if sc < 1.0 and self._name_hit[n] > 0
                for w in words(n.replace("_", " "))
                if w in spoken and w not in GENERIC
            }
            if here is not None and any(here in c for c in self._tool_clauses.values()):
                # a tool the request points at only in a later clause waits for its call
                scores = {
                    n: 0.0 if sc > 0 and min(self._tool_clauses[n], default=-1) > here else sc
                    for n, sc in scores.items()
                }
                # and the only tool it points at in this call's clause is as good as named
                ours = [n for n, c in self._tool_clauses.items() if here in c]
                if len(ours) == 1 and scores[ours[0]] > 0:
                    scores[ours[0]] = max(scores[ours[0]], 1.0)
            # A number the call's clause says goes to a tool with a place for it: "warm the box
            # up to 20" is not the heater fan's relay, which holds no number.
            # (a tool the request names holds its number in range or not: "set the thermostat
            # to 35" is the thermostat's, out of range, not a light's brightness)
            said, units = self._call_numbers(len(called))
            if said:
                holds = {
                    n: _holds_a_number(p, said, units)
                    or (
                        bool(self._name_hit[n] or self._desc_hit[n])
                        and _holds_a_number(p, [Said(0.0)], set(), in_range=False)
                    )
                    for n, p in self.tools.items()
                }
                if any(holds.values()):
                    scores = {
                        n: sc if holds[n] else min(sc, 0.0) + HOLDS_NONE for n, sc in scores.items()
                    }
            # A warmth word with something a temperature tool holds ("warm the box up to 20",
            # "switch the heating to auto") names that tool as well as its name would.
            scores = {
                n: max(sc, 1.0) if n not in called and self._warmed(n, said, len(called)) else sc
                for n, sc in scores.items()
            }
            # A name said in full that several tools have ("the study": its light and its
            # blinds) is decided by the tool whose own name the request says too ("blinds").
            scores = {
                n: sc + (NAME_SAID if self._name_said[n] else NAME_AGREES)
                if sc >= 1.0 and self._name_hit[n] > 0 and n not in called
                else sc
                for n, sc in scores.items()
            }
            # Of two such tools, the one whose name says more of the request outranks the one
            # whose name says a part of it ("the back stairs strip light": set_strip_light,
            # not set_light, when both have the back stairs)
            said_of = {
                n: set(words_of_name(n)) & spoken
                for n, sc in scores.items()
                if sc >= 1.0 and self._name_said[n] and n not in called
            }
            scores = {
                n: sc + NAME_SAID
                if n in said_of and any(said_of[m] < said_of[n] for m in said_of if m != n)
                else sc
                for n, sc in scores.items()
            }
            # A setting's value said in full that only one of the tools sharing the name has
            # agrees with that tool as its name would ("roundel to deep red": the light's
            # colour, not the blinds in the roundel)
            full = [n for n, sc in scores.items() if sc >= 1.0 and n not in called]
            if len(full) > 1:
                has = {n: self._says_own_setting(n) for n in full}
                if sum(has.values()) == 1:
                    scores = {n: sc + NAME_AGREES if has.get(n) else sc for n, sc in scores.items()}
            # A tool called already for a name another tool has too, named again for it alone,
            # is asked for it once: the name's second saying is the other tool's ("roll in the
            # harbour room awning and switch on the harbour room lights")
            for n in set(called):
                if scores[n] < 1.0 or called.count(n) < self._name_says.get(n, 0):
                    continue
                mine = set(self._values_of(call_text, n))
                shared = {v for m, vs in self._things.items() if m != n for v in vs}
                shared &= mine & self._picked
                if shared and not [
                    v
                    for v in self._things[n]
                    if v not in mine and self._value_score(v, used) == 1.0
                ]:
                    scores[n] = 0.5
            # So does a word of its description said in this call's own clause ("roll in the
            # harbour room awning and switch on the harbour room lights": the cafe's lights),
            # or in a request of one clause ("roll the garden room blind up": the roller).
            if here is not None or self._one_clause:
                clause = {
                    w
                    for w, c in zip(self._unnamed, self.clause, strict=True)
                    if here is None or c == here
                }
                scores = {
                    n: sc + NAME_AGREES
                    if sc >= 1.0
                    and not self._name_hit[n]
                    and n not in called
                    and self._desc_words[n] & clause
                    and any(
                        v in self._picked and self._value_score(v, used) == 1.0
                        for v in self._things[n]
                    )
                    else sc
                    for n, sc in scores.items()
                }
            # A room or device said in full in this call's clause outranks a setting's value
            # that another tool has too ("... and purple in the guest room": the guest room's
            # light, not the porch light that also has purple), unless the other tool's name is
            # said by more than a light word ("open the blinds in the press floor" stays the
            # blinds', to be refused; "the red engaged light" is the LED's)
            named = {n for n in scores if scores[n] >= 1.0 and self._names_here(n, used, here)}
            if named:
                scores = {
                    n: min(sc, 0.5)
                    if sc >= 1.0 and n not in named and not self._named_apart(n)
                    else sc
                    for n, sc in scores.items()
                }
            return [
                (spelling_of(n), sc * TOOL_BOOST if self._boosted(n, sc, rival, called) else sc)
                for n, sc in scores.items()
            ]
        sch = self._arg_schema(ctx)
        if sch is None:
            return []
        values = enum_strings(sch)
        scored = [(spelling_of(v), self._value_score(v, used)) for v in values]
        if any(sc == 1.0 for _, sc in scored):
            # a name said in full outranks every half-said one: "aquarium heater" is no
            # evidence for "aquarium pump"
            scored = [(sp, sc if sc == 1.0 or sc < 0 else 0.0) for sp, sc in scored]
            full = [i for i, (_, sc) in enumerate(scored) if sc == 1.0]
            # a value said only inside a longer one said ("white" in "moon white") is not said
            inside = only_inside([values[i] for i in full], self.query)
            if inside:
                scored = [
                    (sp, 0.0 if values[i] in inside and i in full else sc)
                    for i, (sp, sc) in enumerate(scored)
                ]
                full = [i for i in full if values[i] not in inside]
            if len(full) == 1 and names_a_thing(values[full[0]]):
                # unless it is said only in a clause after this call's ("turn on bedroom
                # eight and the loo": the loo waits for the second call)
                here = self._call_clause(len(called) - 1)
                at = self._value_clauses(values[full[0]])
                later = here is not None and bool(at) and min(at) > here
                scored[full[0]] = (scored[full[0]][0], 0.0 if later else ONLY_NAME)
            if len(full) > 1:
                at = {i: find_phrase(self._mention(values[i])[1], self.query) for i in full}
                first = min(full, key=lambda i: (at[i] is None, at[i] or 0))
                scored = [
                    (sp, LATER_NAME if i in full and i != first else sc)
                    for i, (sp, sc) in enumerate(scored)
                ]
                here = self._call_clause(len(called) - 1)
                clauses = {i: self._value_clauses(values[i]) for i in full}
                if here is not None and any(here in c for c in clauses.values()):
                    # a name said only in a later clause waits for the call about that clause
                    scored = [
                        (sp, 0.0 if i in full and min(clauses[i]) > here else sc)
                        for i, (sp, sc) in enumerate(scored)
                    ]
                    # the one name said in full in the call's own clause is as good as the
                    # request's only one ("queue led blink, alarm led off": the queue first)
                    own = [i for i in full if here in clauses[i]]
                    if len(own) == 1 and scored[own[0]][1] >= 1.0 and names_a_thing(values[own[0]]):
                        scored[own[0]] = (scored[own[0]][0], ONLY_NAME)
        if any(v.lower() in VALUE_SENSE for v in values):
            sense = self._call_sense(call_text)
            if sense is not None:
                # a switch value follows the verb that governs this call's thing, not any word
                # of the request: "turn off the fairy lights and the games console" is OFF
                # twice, although "off" is said once
                # (and one against it is held back as a switch against it is: "power light
                # flashing" is no "off", however familiar)
                scored = [
                    (sp, 1.0 if VALUE_SENSE[v.lower()] in sense else -SWITCH_PENALTY)
                    if v.lower() in VALUE_SENSE
                    else (sp, sc)
                    for v, (sp, sc) in zip(values, scored, strict=True)
                ]
        return scored

    def _warmed(self, name: str, said: Sequence[Said], k: int) -> bool:
        """Whether call `k`'s clause says a warmth word and a number or a setting value the
        temperature tool `name` holds."""
        params = self.tools[name]
        if not takes_temperature(params):
            return False
        here = None if self._one_clause else self._call_clause(k)
        if here is None and not self._one_clause:
            return False
        clause = [w for w, c in zip(self.query, self.clause, strict=True) if here in (None, c)]
        free = [w for w, c in zip(self._unnamed, self.clause, strict=True) if here in (None, c)]
        if not WARMTH_WORDS & set(free):  # "the towel warmer" is a name, not a wish
            return False
        if said and _holds_a_number(params, said, said_with_units(clause, said) & _UNITS):
            return True
        return any(
            count_of(tuple(words(v)), clause) for sch in _props(params) for v in enum_strings(sch)
        )

    def _says_own_setting(self, name: str) -> bool:
        """Whether the request says in full a value of one of the tool's settings (a colour, a
        speed: not a name, not a bare on/off word)."""
        for key, sch in (self.tools[name].get("properties") or {}).items():
            if picks_a_thing(key, sch):
                continue
            for v in enum_strings(sch):
                ws = words(v)
                if ws and not set(ws) <= SETTING_VALUES and self._mention(v)[0] == 1.0:
                    return True
        return False

    def _values_of(self, call_text: bytes, name: str) -> list[str]:
        """The string values of the finished calls to tool `name` in the list so far."""
        end = call_text.rfind(b',{"name"')
        if end < 0:
            end = call_text.rfind(b"}")
            end = end + 1 if end >= 0 else 0
        try:
            done = json.loads(call_text[:end] + b"]") if end else []
        except ValueError:
            return []
        return [
            v
            for c in done
            if isinstance(c, dict) and c.get("name") == name
            for v in (c.get("arguments") or {}).values()
            if isinstance(v, str)
        ]

    def _call_numbers(self, k: int) -> tuple[list[Said], set[str]]:
        """The numbers said for call `k` and the units said with them: the request's when it
        has one clause, else those of the clause the call is about (none when that is
        unknown)."""
        if self._one_clause:
            return list(self.numbers), said_with_units(self.query, self.numbers) & _UNITS
        here = self._call_clause(k)
        if here is None:
            return [], set()
        said = [n for n in self.numbers if n.value in self._clause_values.get(here, set())]
        clause = [w for w, c in zip(self.query, self.clause, strict=True) if c == here]
        return said, said_with_units(clause, said) & _UNITS

    def _value_clauses(self, value: str) -> set[int]:
        """The clauses where the request says `value` in full."""
        hit = self._clauses_of.get(value)
        if hit is None:
            hit = {self.clause[i] for i in starts_at(words(value), self.query)}
            self._clauses_of[value] = hit
        return hit

    def _named_apart(self, tool: str) -> bool:
        """Whether the request says a word of `tool`'s name other than a light word (which
        every lights tool and LED shares)."""
        return any(w in self._unnamed and w not in LIGHT_WORDS for w in words_of_name(tool))

    def _names_here(self, tool: str, used: Sequence[str], here: int | None) -> bool:
        """Whether the request says in full, unspent, a room or device of `tool` (in clause
        `here` when it is known)."""
        for v in self._things[tool]:
            if v not in self._picked or self._value_score(v, used) != 1.0:
                continue
            if here is None or here in self._value_clauses(v):
                return True
        return False

    def _call_clause(self, k: int) -> int | None:
        """The clause call `k` is about: the k-th that points at some tool (None: the request
        has one clause, or fewer of them than calls)."""
        ev = self._evidence_clauses
        return ev[k] if len(ev) > 1 and 0 <= k < len(ev) else None

    def _anchor(self, call_text: bytes) -> int | None:
        """Where the request says the thing the call being written names (a room, a device
        said in full), as an index into its words; None when the call names none yet."""
        if call_text in self._anchors:
            return self._anchors[call_text]
        start = call_text.rfind(b'{"name"')
        if start < 0:
            return None
        _, values, _ = self._read(b"[" + call_text[start:])
        _, every, _ = self._read(call_text)
        found = []
        for v in values:
            at = starts_at(tuple(words(v)), self.query) if names_a_thing(v) else []
            at = at or (self._part_said(v) if names_a_thing(v) else [])
            if at:
                # a name said twice: the second call naming it is about the second saying
                earlier = every.count(v) - values.count(v)
                found.append(at[min(earlier, len(at) - 1)])
        anchor = min(found) if found else None
        if anchor is not None and not self._one_clause:
            anchor = self._own_clause(call_text[start:], anchor, values)
        self._anchors[call_text] = anchor
        return anchor

    def _part_said(self, value: str) -> list[int]:
        """Where the request says a thing by the end of its name alone, once, when no other
        thing's name has those words ("floodlight off and the trough heater on" for the
        stackyard floodlight); none when it does not."""
        ws = words(value)
        others = [words(o) for vs in self._things.values() for o in vs if o != value]
        for n in range(len(ws) - 1, 0, -1):
            tail = ws[-n:]
            if not any(is_telling(w) and w not in KIND_NOUNS for w in tail):
                continue
            if n == 1 and (len(tail[0]) < 6 or tail[0] in DEVICE_NOUNS):
                continue  # "the door LED" says no "front door"
            at = starts_at(tail, self.query)
            if len(at) == 1 and not any(starts_at(tail, o) for o in others):
                return at
        # or by its owner alone ("the twins' room light" for the twins' bedroom)
        for n in range(len(ws) - 1, 0, -1):
            head = ws[:n]
            tokens = value.split()
            if len(tokens) != len(ws) or "'" not in tokens[n - 1]:
                continue  # an owner's word ends the head: "Cyril's", "twins'"
            at = starts_at(head, self.query)
            if len(at) == 1 and not any(o[:n] == head for o in others):
                return at
        return []

    def _own_clause(self, call: bytes, anchor: int, values: Sequence[str] = ()) -> int:
        """`anchor`, or the word that points at the call's tool in another clause when the
        anchor's clause points at another tool but never at this one, and that clause names no
        other thing than the call's (`values`): "close the shades in the sunroom and dim the
        lamp to 10 percent" sets the lamp in the second clause (its 10, not the first's
        "close"), and so does "close the front room shutters and put the front room light
        on"."""
        m = re.match(rb'\{"name"\s*:\s*"([^"]+)"', call)
        tool = m.group(1).decode("utf-8", "replace") if m else ""
        pts = self._word_points.get(tool)
        if not pts or any(self.clause[i] == self.clause[anchor] for i in pts):
            return anchor
        # the anchor's clause must be another tool's ("close the shades in the sunroom")
        if not any(
            self.clause[i] == self.clause[anchor]
            for other, at in self._word_points.items()
            if other != tool
            for i in at
        ):
            return anchor
        others = {self.clause[i] for i in pts}
        if len(others) != 1:
            return anchor
        (k,) = others
        if any(
            k in self._value_clauses(v)
            for vs in self._things.values()
            for v in vs
            if v not in values
        ):
            return anchor
        return min(pts)

    def _call_sense(self, call_text: bytes, inherit: bool = True) -> frozenset[str] | None:
        """The switching sense the request gives the call being written: that of the sense
        word nearest to the thing the call names (a room, a device said in full) within its
        clause, else (`inherit`) of the last one before it ("turn off A and B": B is off too).
        With no thing named yet, the sense of the call's own clause; None when it says none or
        several."""
        if not self._senses:
            return None
        anchor = self._anchor(call_text)
        if anchor is None:
            # call k is about clause k ("fan off and then the heating on"): its own sense word
            k = max(len(self._read(call_text)[2]) - 1, 0)
            kinds = {s for i, s in self._senses if self.clause[i] == k}
            if kinds or not inherit:
                return next(iter(kinds)) if len(kinds) == 1 else None
            # a clause of the tool's word alone shares the sense before it ("turn off the xbox
            # and the fan": the fan is off too)
            start = call_text.rfind(b'{"name"')
            m = re.match(rb'\{"name"\s*:\s*"([^"]+)"', call_text[start:]) if start >= 0 else None
            pts = self._word_points.get(m.group(1).decode("utf-8", "replace")) if m else None
            if not pts or len({self.clause[i] for i in pts}) != 1:
                return None
            c = self.clause[min(pts)]
            rest = {w for i, w in enumerate(self.query) if self.clause[i] == c and i not in pts}
            if rest - BARE_CLAUSE:
                return None  # "and then the fan on", "set the speaker with enabled"
            before = [s for i, s in self._senses if i < min(pts)]
            return before[-1] if before else None
        clause = self.clause[anchor] if anchor < len(self.clause) else None
        near = [
            (abs(i - anchor), i > anchor, s) for i, s in self._senses if self.clause[i] == clause
        ]
        if near:
            return min(near, key=lambda x: (x[0], x[1]))[2]
        if not inherit:
            return None
        before = [(i, s) for i, s in self._senses if i < anchor]
        if before:
            return before[-1][1]
        # nothing before: a clause of the thing alone shares the next clause's sense
        # ("workshop 1 and workshop 2 lights off")
        after = [(i, s) for i, s in self._senses if i > anchor]
        if after and clause is not None and self.clause[after[0][0]] == clause + 1:
            return after[0][1]
        return None

    def _switch_bias(
        self, base: _Scan, call_text: bytes, candidates: np.ndarray
    ) -> np.ndarray | None:
        """A penalty for a token that starts a switching boolean (``"on":true``) against the
        sense the request gives this call (see `_call_sense`)."""
        if len(base.stack) < 3 or not base._is_call(1) or base.stack[1].key != "arguments":
            return None
        props = (self.tools.get(base.stack[1].name or "") or {}).get("properties") or {}
        keys = {
            k: SWITCH_KEYS[k.lower()]
            for k, sch in props.items()
            if k.lower() in SWITCH_KEYS
            and isinstance(sch, Mapping)
            and sch.get("type") == "boolean"
        }
        if not keys:
            return None
        sense = self._call_sense(call_text)
        if sense is None:
            return None
        letter = {}
        for k, true_sense in keys.items():
            if true_sense in sense:
                letter[k.encode()] = b"t"
            elif OPPOSITE[true_sense] in sense:
                letter[k.encode()] = b"f"
            elif true_sense == "on" and sense & {"open", "close"} and self._opens_by_switching:
                # a valve or a gate that only switches: open is on
                letter[k.encode()] = b"t" if "open" in sense else b"f"
        if not letter:
            return None
        opened = b'"arguments":{'
        args = call_text[call_text.rfind(opened) + len(opened) :]
        n = len(args)
        out = np.zeros(len(candidates), dtype=np.float64)
        for i, tid in enumerate(candidates):
            text = args + self.token_bytes[int(tid)]
            for mt in BOOL_START.finditer(text):
                if mt.start(2) >= n and mt.group(1) in letter:
                    # A penalty on the other literal, not a bonus on this one: a token often
                    # writes the key and its value at once (',"on":true}'), and a bonus there
                    # would also choose the key, which stays the model's choice.
                    if mt.group(2) != letter[mt.group(1)]:
                        out[i] = -self.weight * SWITCH_PENALTY
                    break
        return out if out.any() else None


def _extends_said(partial: bytes, data: bytes, spelled: set[str]) -> bool:
    """Whether token `data`, after the digits `partial`, keeps the number a prefix of one in
    `spelled`, or ends it (a byte that is no digit) on one."""
    j = 0
    while j < len(data) and data[j] in _NUMBER_BYTES:
        j += 1
    number = (partial + data[:j]).decode("ascii", errors="replace")
    if j < len(data):  # the token ends the number
        return number in spelled
    return bool(number) and any(sp.startswith(number) for sp in spelled)


def _next_call_at(base: _Scan, data: bytes) -> int | None:
    """Where in `data` the comma that goes on to another call stands (the call list's own
    comma), or None when the token does not go on to one."""
    scan = base.copy()
    for k in range(len(data)):
        if data[k] == 0x2C and len(scan.stack) == 1 and not scan.in_string:
            return k
        scan.feed(data[k : k + 1])
    return None


def _unheld(numbers: Sequence[Said], call_text: bytes) -> list[Said]:
    """`numbers` less those the text holds (written in full, or being written), each holding
    one ("50 percent" is held by 50 or by 0.5)."""
    held = _written_numbers(call_text)
    if m := NUMBER_AT_END.search(call_text):
        held.append(m.group(1).decode("ascii"))
    out = []
    for n in numbers:
        match = next((h for h in held if h in (_fmt(n.value), _fmt(n.value / 100))), None)
        if match is None:
            out.append(n)
        else:
            held.remove(match)
    # a number cut to fit its range ("speed to eleven" written 1) holds what it was cut from:
    # it is not for another key to take
    return [n for n in out if not any(_fmt(n.value).startswith(h) for h in held)]


def _holds_a_number(
    params: Mapping[str, Any], said: Sequence[Said], units: set[str], in_range: bool = True
) -> bool:
    """Whether a tool has a numeric parameter for the said numbers: one that names a unit said
    with them (in range or not: "heating to 30 degrees" is the thermostat's, out of range),
    else one that a said number fits (any one, without `in_range`)."""
    for key, sch in (params.get("properties") or {}).items():
        if not isinstance(sch, Mapping) or sch.get("type") not in ("integer", "number"):
            continue
        if not in_range:
            return True
        if units:
            if _unit_words(key, sch) & units:
                return True
        elif any(fits(n, sch) for n in said):
            return True
    return False


def _unit_words(key: str, schema: Mapping[str, Any]) -> set[str]:
    """A numeric parameter's words (`param_words`), with "percent" when it is a percentage."""
    return param_words(key, schema) | ({"percent"} if _in_percent(schema) else set())


def _in_percent(schema: Mapping[str, Any]) -> bool:
    """Whether a numeric parameter is a percentage: its description says so, or it runs from
    0 to 100 (or 0 to 1)."""
    if "percent" in words(str(schema.get("description") or "")):
        return True
    return schema.get("minimum") == 0 and schema.get("maximum") in (1, 100)


def _written_keys(call_text: bytes) -> list[str]:
    """The keys the call being written has in its arguments so far."""
    opened = b'"arguments":{'
    args = call_text[call_text.rfind(opened) + len(opened) :]
    return [k.decode() for k in re.findall(rb'"([^"\\]+)":', args)]


def _written_numbers(call_text: bytes) -> list[str]:
    """The numbers the call list so far holds as complete argument values, as written."""
    return [m.group(1).decode("ascii") for m in WRITTEN_NUMBER.finditer(call_text)]
