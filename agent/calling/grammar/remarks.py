"""The command a request gives, without the courtesies and remarks said around it.

People wrap a command in words that ask for nothing: "please, the ceiling fan, set it to full
blast, thank you", "switch the heating off, it is warm enough now", "I am cold. Would you set
the heat to nineteen?". The model was trained on commands with at most a "please" at either end;
a trailing remark makes it go on writing calls for it ("... thank you." became a second call
that switched the heating off) or doubt the one it wrote. `plain_command`, after the noise of
speech is mended (`spoken.as_written`), cuts the request into clauses at punctuation, at
"because"/"since" or at a purpose ("so there's hot water"), and

- drops a courtesy or an interjection alone ("please", "thank you", "if you would", "ok");
- drops a remark: a statement ("it is ...", "guests are arriving") that says nothing the tools
  know (no name, value, number or word of a tool), also run on after the order with no pause
  ("bike nook light on i gotta fix a flat": a subject and a verb, any number a time or a
  count);
- drops a clause that only sets the scene of an order said in another clause, carrying a place
  it names into that order ("I'm locking up the tack room, switch its light off");
- moves a thing named ahead into the clause that points back at it ("the fan, set it to full
  blast"), or asked about in a question before it ("did I leave the iron on?? turn it off"),
  and joins a clause that only adds a number or a setting to the one before;
- reads a thing's everyday name its tool's description gives ("'tv' is the telly"), "in
  there" and "his light" as the place said before, "the heat" with a number as the
  heating, and a setting said in its "-ing" form ("on cooling") as the setting;

only while another clause is left to be the command. A request that may be dictating a free
text (a tool takes one, and the request names that tool or quotes something) is left as said:
there every word may be the note.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agent.calling.grammar.reading import (
    AIRCON_WORDS,
    COMMON_WORDS,
    COVER_WORDS,
    DETERMINERS,
    DEVICE_NOUNS,
    FAN_WORDS,
    GENERIC,
    HEATING_WORDS,
    JOINERS,
    LIGHT_WORDS,
    OPENS_BY_SWITCHING,
    ORDER_VERBS,
    PLAIN,
    SETTING_NOUNS,
    VALUE_SENSE,
    WARMTH_WORDS,
    enum_strings,
    find_phrase,
    gets_going,
    ing_stems,
    is_telling,
    picks_a_thing,
    resolve_there,
    spelled_near,
    switch_senses,
    takes_temperature,
    thing_names,
    with_typos_mended,
    words,
    words_of_name,
)
from agent.calling.grammar.shortnames import ShortNames
from agent.calling.grammar.spoken import as_written, open_in_names
from agent.calling.rangecheck import NUMBER_WORDS, said_numbers, spelled

# Words a clause of courtesy or an interjection is made of, each alone or together ("thank you
# very much", "if you don't mind", "ok so").
# Please, thanks and fillers said in the speaker's own language inside English ("yalla open
# the light", "open radio krap", "brodeuse turn it on waaw"): no thing, no setting. Never a
# yes or a no, which can take an order back.
_FOREIGN_POLITE = frozenset(
    "favor favore por bitte danke merci grazie gracias obrigado obrigada prego lütfen lutfen "
    "lotfan lutfan shukran yalla habibi habibti inshallah khalas lah leh lor aiya aiyo aiyoh "
    "wei bhai yaar acha achha biko abeg oya asante tafadhali sawa waaw krap khrap krub kha "
    "paki salamat tolong kiitos takk tack prosze dziekuje spasibo pozhaluysta arigato "
    "xiexie eshi kargi".split()
)
_COURTESY = (
    frozenset(
        "please pls plz kindly thank thanks you very much so lot a ta cheers dear love mate my "
        "if would could can don't do not mind possible for me ok okay hey hi hello right "
        "alright uh um er erm oh ugh well sorry great lovely eh bro ya yeah".split()
    )
    | _FOREIGN_POLITE
)
# Of those, the words that make a clause a courtesy rather than a fragment of a command
# ("for me" alone is one; "do" alone is not).
_POLITE = (
    frozenset(
        "please pls plz kindly thank thanks ta cheers dear love mate ok okay hey hi hello "
        "alright uh um er erm oh ugh sorry lovely eh bro ya yeah".split()
    )
    | _FOREIGN_POLITE
    | {"for me", "if you would", "if you could", "if you can", "if possible", "mind"}
)
# How a remark opens: a statement about the world or the speaker, not an order.
_REMARK = re.compile(
    r"^(?:(?:oh|ugh|well|so|and|but|because|cause|since|as|while|whilst)\s+)*"
    r"(?:it\s+is|it's|its|it\s+was|it\s+has|it\s+gets|it\s+will|i\s+am|i'm|im|i\s+was|"
    r"i\s+have|i've|i\s+will|i'll|i\s+do\s+not|i\s+don't|we\s+are|we're|we\s+do\s+not|"
    r"we\s+don't|we\s+have|we've|we\s+will|we'll|we\s+were|they\s+are|they're|that\s+is|"
    r"that's|there\s+is|there's|he\s+is|he's|she\s+is|she's|you\s+know|nobody|no\s+one|"
    r"someone|somebody|i\s+go|we\s+go|we\s+need|i\s+need|"
    # (as speech-to-text writes them, without apostrophes)
    r"weve|ive|theyre|theres|hes|shes|they've|they\s+have|"
    # (a manner said after the order it qualifies: "..., not too bright")
    r"(?:but\s+)?not\s+too\s+\w+$|no\s+(?:sense|point|need|use)\s+\w+ing)\b",
    re.IGNORECASE,
)
# Words a command often ends on ("... on", "... to 20 percent").
_ORDER_END = r"on|off|up|down|now|percent|degrees|\d+%?"
# A remark run on after a command without a pause ("fan on pls im dying", "turn the heating on
# its freezing"): cut where a statement starts right after a command's last word.
_REMARK_AFTER = re.compile(
    # (not after "hang on", "hold on": a taking back, whose reason stays with it)
    r"(?<!\bhang\s)(?<!\bhold\s)"
    r"\b((?:" + _ORDER_END + r"|lights?|lamps?|fan|blinds|heating|heater)"
    r"(?:\s+(?:pls|please))?)\s+"
    r"(?:and\s+(?:then\s+)?)?"
    # ("on its lazy setting" is the fan's own setting, not "it's")
    r"(?=(?:we're|we\s+are|i'm|im|it's|"
    r"its(?!\s+(?:\w+\s+)?(?:setting|speed|mode|level|colou?r|brightness)\b)|"
    r"it\s+is|i\s+am|that's|thats|that\s+is|"
    # (spoken with no apostrophes: "lights on were starting at six", "on weve got two lambs")
    r"we've|weve|we\s+have|were|i've|ive|they're|theyre|they've|they\s+are|there's|"
    r"theres|he's|hes|she's|shes|"
    r"the\s+\w+\s+(?:is|are|want|wants|need|needs|won't|wont|can't|cant))\b)",
    re.IGNORECASE,
)
# "it's so muggy", run on after any last word of a command ("put the ac on cool its so muggy
# today"): how things are, never a setting
_SO_REMARK = re.compile(
    r"(?<=\w)\s+(?=(?:(?:it's|its|it\s+is)\s+(?:so|too|really|very|way|bloody|super|just|only)"
    # ("stop the smoke strobe it was just the toast", "the rhodes the neighbors are complaining")
    r"|it\s+was|the\s+\w+\s+(?:are|is|were|was)\s+\w+ing)\s)",
    re.IGNORECASE,
)
# What an order opens with, said after a scene or a leaving ("... so switch off the den
# light", "... blind down").
_ORDER_AHEAD = (
    r"(?:switch|turn|put|set|close|open|shut|make|dim|kill|lights?|blinds?|fan|heating|can|"
    r"could|please)\b"
)
# A scene said ahead of its order with "so" and no comma ("i'm going to bed so switch off the
# den light"): two clauses.
_SCENE_SO = re.compile(
    r"^((?:i'm|im|i\s+am|we're|we\s+are|were|it's|its|end\s+of|(?:the\s+)?\w+'s\s+\w+ing)\b"
    r"[^,.;]{1,60}?)\s+so\s+(?=" + _ORDER_AHEAD + ")",
    re.IGNORECASE,
)
# The speaker leaving, said ahead of the orders with no comma ("right i'm off to sleep blind
# down noise machine on"): a clause of its own.
_LEAVING_AHEAD = re.compile(
    r"^((?:i'm|im|i\s+am|we're|were|we\s+are)\s+(?:off|going|heading)\s+(?:to\s+(?:bed|sleep|"
    r"work)|out|off))\s+(?=" + _ORDER_AHEAD + ")",
    re.IGNORECASE,
)
# Words that open a remark run on after an order with no pause ("bike nook light on i gotta
# fix a flat", "study light to 60% he has an appt at 2", "fridge back on my brother's bringing
# worms"), as speech-to-text writes them.
_TAIL_SUBJECTS = frozenset(
    "i i'm im i've ive i'll i'd we we're were weve we've we'll he he's hes she she's shes they "
    "they're theyre they've it's its there's theres nobody nobody's nobodys everyone everybody "
    "somebody someone my me our".split()
)
# Words that make a clause say something: a verb, or a contraction of one.
_TAIL_VERBS = frozenset(
    "got gotta have has had forgot forget need needs want wants like likes reckon reckons think "
    "know see came come comes go goes went is are was were be been do did does can't cant "
    "couldn't gonna wanna just".split()
)
# Words that take an order back or negate it: never part of a remark dropped unread.
_TAIL_KEEP = frozenset(
    "no nah not don't dont never wait actually cancel leave forget nevermind hold hang instead "
    "please".split()
)


# Words after an "its" that make it "it's" ("its been on heat since feb", "its so muggy").
_ITS_IS = frozenset(
    "so too really very been gone getting a the only just not like all already still".split()
)
_JOINING = frozenset(
    "so and but because cause 'cause then if when as or while until till before after that "
    "unless once".split()
)


def _run_on_remark(ws: Sequence[str], known: _Known) -> bool:
    """Whether words, run on after an order, make a remark: a subject and a verb, nothing the
    tools know, no switching of their own, no taking back, and any number a time or a count."""
    low = [w.strip("?!.,").lower() for w in ws]
    text = " ".join(low)
    if len(low) < 3 or low[0] not in _TAIL_SUBJECTS or "?" in " ".join(ws):
        return False
    if low[0] == "its" and low[1] not in _ITS_IS:
        return False  # "on its lazy setting" is the thing's own setting
    if not any(
        w in _TAIL_VERBS or w in _STATING or w.endswith(("'s", "n't", "ing", "ed")) for w in low[1:]
    ) and not low[0].endswith(("'s", "'m", "'re", "'ve")):
        return False
    if known.points(text) or known.owns(words(text)) or _TAIL_KEEP & set(low):
        return False
    if any(w in ORDER_VERBS - _PHRASAL - {"start", "run", "drop"} for w in low):
        return False
    # "on my hip" places; an "on" or "off" said alone may switch
    if any(
        w in ("on", "off") and not (i + 1 < len(low) and low[i + 1] in DETERMINERS | _PRONOUNS)
        for i, w in enumerate(low)
    ):
        return False
    if said_numbers(text) and not _counts_only(text):
        return _times_only(low, [i for i, w in enumerate(low) if said_numbers(w)])
    return True


def _without_run_on_remark(text: str, known: _Known) -> str:
    """`text` without a remark run on after its order with no pause (see `_run_on_remark`)."""
    ws = text.split()
    ordered = False  # (once a head says something of an order, every longer one does)
    for k in range(2, len(ws) - 2):
        head = " ".join(ws[:k])
        # (not after a taking back: "put the dryer on oh nah hang on theres nothing in it";
        # it stays in every longer head too)
        if _TAIL_KEEP & set(words(head)):
            return text
        ordered = ordered or known.points(head) or bool(set(words(head)) & (ORDER_VERBS | _PHRASAL))
        if not ordered or re.search(r"[,;.!?]$", head):
            continue
        # (nor after a word that joins the remark to the order: "fan on so it's cooler")
        if ws[k - 1].lower() in _JOINING:
            continue
        if _run_on_remark(ws[k:], known):
            return head
    return text


# "put the bike battery on charge": switched on
_ON_CHARGE = re.compile(r"\bon\s+charge\b", re.IGNORECASE)
# A filler run on after a command's last word ("front deck lights on eh the first group's
# here", "stereo on bro the kids want tunes", "light on at 60 percent ta"): its own clause,
# a courtesy, so what follows it is read apart from the order.
_FILLER_AFTER = re.compile(
    r"\b(" + _ORDER_END + r")\s+(eh|bro|mate|ta|cheers|would\s+ya|yeah)"
    r"\b[,.!]?(?=\s|$)",
    re.IGNORECASE,
)
# A courtesy that says "no" and negates nothing ("if it's no trouble, ...", "no rush").
_NO_TROUBLE = re.compile(
    r"\b(?:if\s+(?:it's|it\s+is|that's|that\s+is|it's\s+not|it\s+isn't)\s+(?:no|not|not\s+too\s+much|"
    r"too\s+much)\s+(?:of\s+a\s+)?(?:trouble|bother)|no\s+(?:rush|hurry))\b\s*,?",
    re.IGNORECASE,
)
# "put the beacon on flashing": the "on" before a blinking word is no switch of its own
_ON_BLINKING = re.compile(r"\bon\s+(?=(?:flash|blink)(?:ing)?\b)", re.IGNORECASE)
# "open half way": the blinds' "halfway"
_HALF_WAY = re.compile(r"\bhalf[\s-]+way\b", re.IGNORECASE)
# "heating on 22 degrees", "dim the lathe corner on 35 percent": "on" before an amount is "to"
_NUMBER = r"(?:\d+(?:\.\d+)?|[a-z]+(?:[\s-][a-z]+)?)"
_ON_AMOUNT = re.compile(
    rf"\b(?:on|until|till)\s+(?=(?P<n>{_NUMBER})\s*(?:%|percent\b|degrees?\b|°))", re.IGNORECASE
)
# Asking by "would you mind ...ing" or "I wonder if you'd ...": "could you" and the plain verb
# ("would you mind switching on the loch pump", "I wonder if you'd dim the light").
_MIND = re.compile(r"\b(?:would|do)\s+you\s+mind\b", re.IGNORECASE)
_WONDER = re.compile(
    r"\bI\s+(?:wonder|was\s+wondering)\s+if\s+you(?:'d|\s+would|\s+could|\s+can)\b",
    re.IGNORECASE,
)
_ING = re.compile(r"\b[A-Za-z]+ing\b")


def _order_ing(m: re.Match[str]) -> str:
    """An order verb's -ing form as the verb ("switching", "putting", "closing")."""
    word = m.group()
    for verb in ing_stems(word.lower()) & ORDER_VERBS:
        # (written as said: "Switching" -> "Switch")
        return word[: len(verb)] if word.lower().startswith(verb) else word[: len(verb) - 1] + "e"
    return word


def _asked_plainly(text: str) -> str:
    """`text` with "would you mind ...ing" and "I wonder if you'd" asked as "could you"."""
    text = _WONDER.sub("could you", text)
    if not _MIND.search(text):
        return text
    return _ING.sub(_order_ing, _MIND.sub("could you", text))


# A hedge before an amount ("light on at about 60 percent", "heating to around 20 degrees"):
# the amount is asked for all the same.
_HEDGED = re.compile(
    rf"\b(on|at|to|till|until)\s+(?:about|around|roughly|approximately|approx\.?|maybe)\s+"
    rf"(?=(?P<n>{_NUMBER})\s*(?:%|percent\b|degrees?\b|°))",
    re.IGNORECASE,
)
# A fade said as "slowly, in 10 seconds" or "with fade of 10 seconds": "over 10 seconds"
_SLOWLY = re.compile(r"\b(?:slowly|slow|fade|fading|gently|gradually)\b", re.IGNORECASE)
_IN_SECONDS = re.compile(
    rf"(?:\b(?:like\s+)?(?:in|of|within|for)\s+)?(?=(?:the\s+next\s+)?(?P<n>{_NUMBER})\s*"
    r"(?:seconds?|secs?|minutes?|mins?)\b)",
    re.IGNORECASE,
)
# Switching verbs of other languages said inside English, as bilingual households do ("apaga
# the light of salita", "prende the tinto machine", "liga the sandwich maker"): Spanish and
# Portuguese, whose words are none of English's.
_FOREIGN_SWITCH = {
    **dict.fromkeys(
        "prende prender enciende encender liga ligar acende acender".split(), "turn on"
    ),
    **dict.fromkeys("apaga apagar desliga desligar".split(), "turn off"),
}
_FOREIGN_VERB = re.compile(r"\b(" + "|".join(_FOREIGN_SWITCH) + r")\b", re.IGNORECASE)
# Hindi and Urdu speakers switch with "karo" (do) after the sense, Bengali speakers with
# "koro": "geyser on kar do", "AC band karo" (off), "chalu karo" (on).
_KARO = re.compile(
    r"\b(?P<sense>on|off|band|bandh|chalu|chaalu)\s+"
    r"(?:kar\s*do|karo|kardo|kar\s+dijiye|kijiye|kariye|karna|koro|kore\s+dao)\b",
    re.IGNORECASE,
)
_KARO_SENSE = {"on": "on", "chalu": "on", "chaalu": "on"}
# "switch down the glue warmer": down is off, as said in German or Hungarian English
_SWITCH_DOWN = re.compile(r"\bswitch\s+down\b", re.IGNORECASE)
# A request put as a question of what is possible is asked as one ("is it possible to switch
# on the bed warmer?" -> "could you switch on the bed warmer?").
_POSSIBLE = re.compile(
    r"\b(?:is\s+it\s+possible\s+to|would\s+it\s+be\s+possible\s+to|is\s+there\s+any\s+way\s+"
    r"(?:to|you\s+could))",
    re.IGNORECASE,
)
# A second verb for the same thing that only adds its setting ("turn on the study nook light and
# make it warm white"): one call, said as one.
_AND_IT = re.compile(
    r"(?:(?<=\bon)\s*,\s*(?:and\s+)?|\s+and\s+)(?:then\s+)?"
    r"(?:make|set|dim|turn|put|change|bring|brighten)\s+(?:it|them)\s+"
    r"(?:(?:up|down)\s+)?(?:to\s+)?(?P<rest>[^,;.!?]+)",
    re.IGNORECASE,
)
# The speaker leaving ("I'm off to bed soon", "we're off out").
_LEAVING = re.compile(r"^(?:i'm|im|i\s+am|we're|we\s+are)\s+off\b", re.IGNORECASE)
# How a purpose opens ("so the plants get some sun", "so I can see"): a clause of its own,
# dropped when it orders nothing.
_SO = r"so\s+(?:that|there|there's|it|it's|i|i'm|we|they|he|she|the|my|our)\b"
_PURPOSE = re.compile("^" + _SO, re.IGNORECASE)
# A statement begun after an order with no comma, as speech-to-text types it ("the light up
# to full there's folk coming in"): not "that's", which may name what is meant.
_STATED = r"(?:there's|there\s+is|it's|we're|they're|i'm|i've|we've)\b"
# Where a clause ends: punctuation, a dash, a reason given ("... because it is late"), or a
# statement begun.
_CUT = re.compile(
    r"(?:[,;:!?]|\.(?!\d))+|\s+-+\s+|\s+(?=because\b|since\b|'cause\b|while\b|whilst\b"
    r"|" + _SO + ")"
    # (not a statement that is what is asked about: "make sure it's off", "tell me if it's on")
    r"|(?<!\bsure)(?<!\bif)(?<!\bwhen)(?<!\bknow)(?<!\bcheck)(?<!\bwhether)(?<!\bthat)"
    r"(?<!\bunless)(?<!\buntil)(?<!\bonce)\s+(?=" + _STATED + ")",
    re.IGNORECASE,
)


@dataclass
class _Known:
    """What the tools can be pointed at with."""

    words: set[str] = field(default_factory=set)  # of tool names, descriptions, argument names
    names: list[str] = field(default_factory=list)  # names of things (rooms, devices)
    things: list[list[str]] = field(default_factory=list)  # the same, as words
    settings: list[list[str]] = field(default_factory=list)  # other enum values, as words

    def says(self, ws: Sequence[str], phrases: Sequence[Sequence[str]]) -> bool:
        return any(v and find_phrase(v, ws) is not None for v in phrases)

    def owns(self, ws: Sequence[str]) -> bool:
        """Whether words say the owner of a thing ("Cian's" of "Cian's cot")."""
        return any(w.endswith("'s") and any(w in v for v in self.things) for w in ws)

    def points(self, clause: str) -> bool:
        """Whether a clause says a word of a tool or a whole enum value ("warm white", not
        "warm")."""
        ws = words(clause)
        if any(w.split("'")[0] in self.words for w in ws):
            return True
        # a switch's "on" or "off" is said by statements too ("the sun's on the telly")
        settings = [v for v in self.settings if not set(v) <= _PHRASAL]
        return self.says(ws, self.things) or self.says(ws, settings)


# Words of a kind of thing a typo is mended to ("shuters", "ligth").
_TYPED_KINDS = frozenset(
    "light lights lamps blind blinds shade shades shutter shutters curtain curtains".split()
)
# Words that point at whoever was said before, never at a tool ("she's on her way up").
_PRONOUNS = frozenset("she her hers him his they them their theirs its our ours you your".split())


def known_words(tools: Sequence[Mapping[str, Any]]) -> _Known:
    """The words, names and setting values the tools can be pointed at with."""
    k = _Known()
    keys: set[str] = set()
    for t in tools:
        text = f"{t.get('name')} {t.get('description') or ''}".replace("_", " ")
        k.words |= {w.split("'")[0] for w in words(text)}
        for key, sch in ((t.get("parameters") or {}).get("properties") or {}).items():
            keys.update(words(str(key).replace("_", " ")))
            for v in enum_strings(sch):
                if picks_a_thing(key, sch):
                    k.names.append(v)
                    k.things.append(words(v))
                else:
                    k.settings.append(words(v))
    k.words = {
        w
        for w in k.words | keys
        if len(w) >= 3 and w not in GENERIC and w not in PLAIN and w not in _PRONOUNS
    }
    return k


# "'tv' is the telly and the sound bar": a description that names a thing's everyday words.
_ALIAS = re.compile(
    r"['\"\u2018\u201c]([^'\"\u2019\u201d]+)['\"\u2019\u201d]\s+(?:is|are|means)\s+"
    r"([^.;:()'\"\u2018\u201c]+)",
    re.IGNORECASE,
)


# Where an everyday name ends and a place or purpose begins ("the strip light over the bench").
_WHERE = re.compile(
    r"\s+(?:in|on|for|of|at|by|with|over|along|through|outside|inside|that|which|to|from)\s+",
    re.IGNORECASE,
)


def _aliases(tools: Sequence[Mapping[str, Any]], names: Sequence[str]) -> dict[str, str]:
    """The everyday words a tool's description gives a thing ("'tv' is the telly and the
    sound bar": telly -> tv, sound bar -> tv); a word two things share, or that is itself a
    name, stands for none."""
    lower = {n.lower(): n for n in names}
    found: dict[str, set[str]] = {}
    for t in tools:
        for m in _ALIAS.finditer(str(t.get("description") or "")):
            name = lower.get(m.group(1).strip().lower())
            if name is None:
                continue
            for part in re.split(r",|\band\b|\bor\b", m.group(2)):
                part = re.sub(r"^\s*(?:the|a|an|my|our|your)\s+", "", part.strip(), flags=re.I)
                part = re.split(_WHERE, part)[0].strip()
                if set(words(part)) <= DEVICE_NOUNS | GENERIC:
                    continue  # "the bulb" could be any light
                if 3 <= len(part) <= 30 and part.lower() not in lower:
                    found.setdefault(part.lower(), set()).add(name)
    return {a: next(iter(n)) for a, n in found.items() if len(n) == 1}


# Words for one kind of thing, one as good as another in a request.
_EVERYDAY = (
    frozenset({"television", "tv", "telly"}),
    frozenset({"fridge", "refrigerator"}),
)


_ONES = re.compile(r"\b(ones?)\b", re.IGNORECASE)


# Verbs that set a thing otherwise than by "on" ("make the light on the desk warm white").
_SETTING_VERB = re.compile(r"\b(?:make|put|set|dim|change|brighten|lower|raise)\b", re.I)


def _on_a_thing(text: str, names: Sequence[str]) -> str:
    """`text` with an "on" that says where a thing is read as part of its name, where the
    request switches or sets it by another word: "switch off the light on slava table" ->
    "switch off the slava table light", "the radio on counter put it off" -> "the counter
    radio put it off". ("turn the light on kitchen" keeps its "on": no other word switches.)"""
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        esc = re.escape(name)
        ws = name.split()
        found = re.search(
            rf"\b(?P<kind>lights?|lamps?)\s+on\s+(?:the\s+)?{esc}(?![\w'])", text, re.I
        )
        new = f"{name} {found.group('kind')}" if found else ""
        if found is None and len(ws) >= 2:
            head, mod = re.escape(ws[-1]), r"\s+".join(re.escape(w) for w in ws[:-1])
            found = re.search(rf"\b{head}\s+on\s+(?:the\s+)?{mod}(?![\w'])", text, re.I)
            new = name
        if found is None:
            continue
        rest = text[: found.start()] + " " + text[found.end() :]
        if switch_senses(words(rest)) or _SETTING_VERB.search(rest):
            text = text[: found.start()] + new + text[found.end() :]
    return text


def _ones_named(text: str, names: Sequence[str]) -> str:
    """`text` with "one" or "ones" after a thing's name written as the kind of device said
    before it ("the school run light and the bin day one on" -> "the bin day light on"; "the
    study blinds to 30, also the stair top ones to seventy" -> "stair top blinds")."""
    low = text.lower()
    for m in reversed(list(_ONES.finditer(text))):
        before = low[: m.start()].rstrip()
        if not any(before.endswith(n.lower()) for n in names if n):
            continue
        # (a device's noun, not an order's verb: "switch the bin day one on")
        kinds = [
            w
            for w in re.findall(r"[a-z]+", before)
            if words(w)[:1] and words(w)[0] in DEVICE_NOUNS - ORDER_VERBS
        ]
        if not kinds:
            continue
        kind = words(kinds[-1])[0]
        kind = kind + "s" if m.group(1).lower() == "ones" else kind
        text = text[: m.start()] + kind + text[m.end() :]
    return text


def _of_orders(names: Sequence[str]) -> dict[str, str]:
    """A name said head first with "of", as many languages order it ("heater of baptistry",
    "the lamp of the reading corner"): each name of two words or more, so said."""
    out = {}
    for name in names:
        ws = name.split()
        if len(ws) >= 2 and ws[-1].isalpha() and not any("'" in w for w in ws):
            rest = " ".join(ws[:-1])
            out[f"{ws[-1]} of {rest}"] = name
            out[f"{ws[-1]} of the {rest}"] = name
    return out


def _with_names(text: str, aliases: Mapping[str, str]) -> str:
    """`text` with each thing's everyday word written as its name ("turn the telly off" ->
    "turn the tv off"), where the name itself is not said."""
    for alias, name in sorted(aliases.items(), key=lambda a: -len(a[0])):
        if re.search(rf"(?<![\w']){re.escape(name)}(?![\w'])", text, re.I):
            continue
        safe = name.replace("\\", r"\\")
        text = re.sub(rf"(?<![\w']){re.escape(alias)}(?![\w'])", safe, text, flags=re.I)
    return text


def _free_text_words(tools: Sequence[Mapping[str, Any]]) -> set[str] | None:
    """The words of the tools that take a free text (a note to write), or None when none
    does."""
    found: set[str] | None = None
    for t in tools:
        props = (t.get("parameters") or {}).get("properties") or {}
        if not any(
            isinstance(s, Mapping) and s.get("type") == "string" and not s.get("enum")
            for s in props.values()
        ):
            continue
        told = f"{t.get('name')} {t.get('description') or ''}".replace("_", " ")
        own = {w for w in words(told) if len(w) >= 3 and w not in GENERIC and w not in PLAIN}
        found = (found or set()) | own
    return found


def _asks_for_free_text(text: str, free_words: set[str] | None) -> bool:
    """Whether the request may be dictating a free text: a tool takes one (a note to write)
    and the request says a word of that tool's name or description, or quotes or introduces
    something (":")."""
    if free_words is None:
        return False
    return bool(re.search(r"[:\"\u201c]", text)) or bool(free_words & set(words(text)))


def _courtesy(clause: str) -> bool:
    text = " ".join(clause.lower().replace("\u2019", "'").split())
    ws = text.split()
    if not ws or not set(ws) <= _COURTESY:
        return False
    if ("not" in ws or "don't" in ws) and "mind" not in ws:
        return False
    return any(w in _POLITE for w in ws) or any(p in text for p in _POLITE if " " in p)


# "one" as "a", before a span of time: "enough ice chips for one day" says no number.
_ONE_OF = re.compile(r"\bone\s+(?=(?:day|night|week|time|evening|morning|afternoon)\b)", re.I)


# Words after a number that make it no count of things ("it is 14 in here", "20 or so").
_NOT_COUNTED = frozenset(
    "and point or to more of in at on for by from here there now today tonight outside inside "
    "out up down already still".split()
)


def _counts_only(text: str) -> bool:
    """Whether every number said counts things ("I'm down to one bar", "we've got two lambs
    shivering"): each is followed by a word that is no unit, no time and no number."""
    ws = [w.strip("?!.,") for w in text.lower().split()]
    numbers = [i for i, w in enumerate(ws) if said_numbers(w)]
    return bool(numbers) and all(
        i + 1 < len(ws)
        and ws[i + 1].isalpha()
        and ws[i + 1] not in _AMOUNTS | _CLOCK | _SECONDS | NUMBER_WORDS
        and ws[i + 1] not in _NOT_COUNTED
        for i in numbers
    )


def _remark(clause: str, known: _Known) -> bool:
    """Whether a clause is a statement that says nothing the tools know ("it is warm enough
    now", "the twins are finally asleep", "guests are arriving soon")."""
    text = " ".join(clause.replace("\u2019", "'").split())
    if _LEAVING.match(text) and not known.says(words(text), known.things):
        return True  # "I'm off to bed soon": the speaker leaves; nothing is switched
    if known.points(text):
        return False
    if said_numbers(_ONE_OF.sub("a ", text)) and not (_REMARK.match(text) and _counts_only(text)):
        return False
    if known.owns(words(text)):
        return False  # "Orla's cot light off, and Cian's": Cian's cot, said by its owner
    if _REMARK.match(text):
        return True
    ws = [w.strip("?!.") for w in text.lower().split()]
    if _PURPOSE.match(text) and not any(w in ORDER_VERBS for w in ws):
        return True  # why, not what: "open the blinds so the plants get some sun"
    stated = any(
        (w in _STATING and not gets_going(ws, i)) or w.endswith(("'s", "'re"))
        for i, w in enumerate(ws)
    )
    # a clause that opens with what the speaker is doing ("locking up now", "heading out"): a
    # verb in -ing that names nothing of the tools and switches nothing on or off ("washing
    # machine on" and "heating on" in a home without them still ask for something)
    stated = stated or (
        len(ws[0]) > 4
        and ws[0].endswith("ing")
        and ws[0] not in WARMTH_WORDS
        and not {"on", "off"} & set(ws)
    )
    # "on the telly" places something; it switches nothing ("the sun's on the telly")
    placing = {i for i, w in enumerate(ws[:-1]) if w in _PHRASAL and ws[i + 1] in _PLACED}
    # and a verb after "about to" says what is coming ("the film's about to start")
    placing |= {i + 2 for i, w in enumerate(ws[:-2]) if w == "about" and ws[i + 1] == "to"}
    # and a particle after a verb in -ing belongs to it ("the sun's warming the place up"),
    # as one right after a verb in -ed does ("Angus has dropped off in his chair")
    placing |= {
        i + 1
        for i, w in enumerate(ws[:-1])
        if w.endswith("ed") and len(w) > 4 and ws[i + 1] in _PHRASAL
    }
    placing |= {
        j
        for i, w in enumerate(ws)
        if w.endswith("ing") and len(w) > 4
        for j in range(i + 1, min(i + 4, len(ws)))
        if ws[j] in _PHRASAL
    }
    return stated and not any(w in _ORDERING for i, w in enumerate(ws) if i not in placing)


# A time said beside a command ("toddler group at 10", "tea break in 20 mins", "client
# presentation in 5"): a number after a word of time, or before a unit of clock time.
_AT_TIME = frozenset("in at by until till around before after from".split())
_CLOCK = frozenset("min mins minute minutes hour hours hr hrs o'clock oclock am pm".split())
_AMOUNTS = frozenset("percent % degrees degree celsius c f fahrenheit".split())
_SECONDS = frozenset("s sec secs second seconds".split())  # a fade's length, no time of day


def _times_only(ws: Sequence[str], numbers: Sequence[int]) -> bool:
    """Whether each number at `numbers` in words is a time of day: after a word of time and
    before no amount ("at 10", "in 5"), or before a unit of clock time ("2 pm")."""
    after = [ws[i + 1] if i + 1 < len(ws) else "" for i in numbers]
    return all(
        ((i and ws[i - 1] in _AT_TIME) and a not in _AMOUNTS | _SECONDS) or a in _CLOCK
        for i, a in zip(numbers, after, strict=True)
    )


def _timed_aside(clause: str, known: _Known) -> bool:
    """Whether a clause after the command only says when something else happens: every number
    in it is a time, it names nothing of the tools and orders nothing, and it says what
    happens ("client presentation in 5"; not a bare "at 10")."""
    ws = [w.strip("?!.,") for w in clause.lower().replace("\u2019", "'").split()]
    if not said_numbers(clause) or known.points(clause):
        return False
    # ("shearers start at seven": a start said with its time is when others begin)
    if any(
        (w in _ORDERING or w in _OTHER_ORDERS or w in _PHRASAL)
        and not (w == "start" and ws[i + 1 : i + 2] and ws[i + 1] in _AT_TIME and i)
        for i, w in enumerate(ws)
    ):
        return False
    numbers = [i for i, w in enumerate(ws) if said_numbers(w)]
    if any(i and ws[i - 1] == "over" for i in numbers):
        return False  # "over fifteen minutes" is how long a fade takes, not when
    timed = _times_only(ws, numbers)
    what = [
        w
        for i, w in enumerate(w.split("'")[0] for w in ws)  # "dinner's at six"
        if i not in numbers and w.isalpha() and len(w) >= 3 and w not in _AT_TIME | _CLOCK
    ]
    return timed and bool(what)


_PHRASAL = frozenset("on off up down".split())
# The words after "on" that make it a place (the prior's), and "its".
_PLACED = DETERMINERS | {"its"}


# Words that make a clause a statement ("the fumes are strong", "everyone's gone home").
_STATING = frozenset(
    "is are am was were been feel feels felt getting gets gone coming arrive arriving arrived "
    "leaving heading going sleeping asleep finished want wants needs likes says said reckons "
    "has had"
    # ("those boards need to sit overnight": `words` reads "needs" as "need")
    " thinks need".split()
)
# Words of an order to a device: a request with a clause that says one (or on/off or a number)
# gives its command there.
# Words of an order or a question: a clause with one is never taken for a remark.
_ORDERING = ORDER_VERBS | frozenset(
    "can could would will please what why how when where who which whether if not don't never "
    "no".split()
)


# A pronoun that points back at a thing said before it ("the fan, set it to full blast").
_BACK = re.compile(r"\b(?:it|them)\b(?!')", re.IGNORECASE)  # not "it's": a statement
# Words that make a clause an order or a setting of its own, not a thing named ahead of one.
_ACTING = frozenset(
    "turn switch set put make open close shut dim raise lower start stop run kill "
    "on off up down full half blink flash toggle".split()
)


def _blanked(ws: Sequence[str], phrases: Sequence[Sequence[str]]) -> list[str]:
    """`ws` with the first place each phrase stands blanked, longer phrases first ("warm
    white" before "white")."""
    rest = list(ws)
    for v in sorted(phrases, key=len, reverse=True):
        at = find_phrase(v, rest) if v else None
        if at is not None:
            rest[at : at + len(v)] = [""] * len(v)
    return rest


def _named_ahead(clause: str, known: _Known) -> bool:
    """Whether a clause only names a thing ("the flour store light", "bunk room 1")."""
    ws = words(clause)
    rest = _blanked(ws, known.things + known.settings)
    # "the tack room light is too harsh" is no name said ahead; "the sleeping alcove light" is
    if not ws or (_ACTING | _STATING) & set(rest) or _BACK.search(clause):
        return False
    if said_numbers(" ".join(rest)):
        return False
    if rest != _blanked(ws, known.things):
        return False  # a setting said too: "calf pens light to red please" is an order
    return rest != ws or any(w.split("'")[0] in known.words for w in ws)


# Words a clause that only adds a number to the one before it may say besides the number
# ("..., say 25 percent", "..., three quarters open", "..., at thirty").
_WITH_A_NUMBER = frozenset(
    "say to at about around maybe like make it please degree degrees celsius percent per cent "
    "open opened closed shut up down way brightness position temperature".split()
)


def _adds_a_number(clause: str) -> bool:
    """Whether a clause only adds a number to the one before it ("..., at thirty percent")."""
    ws = words(clause)
    if not ws or ws[0] in JOINERS or not said_numbers(clause):
        return False
    return all(w in _WITH_A_NUMBER or w in NUMBER_WORDS or w.replace(".", "").isdigit() for w in ws)


def _bare_setting(clause: str, known: _Known) -> bool:
    """Whether a clause says only a setting or a number for a thing named ahead of it
    ("sitting room, rose", "lights, Maya's room, 40")."""
    ws = words(clause)
    rest = _blanked(ws, known.settings)
    if not ws or (rest == ws and not said_numbers(clause) and not set(ws) & _SENSES):
        return False
    return all(
        not w
        or w in _WITH_A_NUMBER
        or w in _SENSES
        or w in _SETTING_NAMES
        or w in NUMBER_WORDS
        or w.isdigit()
        for w in rest
    )


# Words that name the setting a bare value sets ("..., colour copper", "..., speed two").
_SETTING_NAMES = SETTING_NOUNS | frozenset("colour color speed level".split())


_SENSES = frozenset("on off".split())


def _one_setting(m: re.Match[str], known: _Known) -> str:
    """ "... and make it warm white" as " in warm white", "... and dim it to 20 percent" as
    " at 20 percent"; the match as said when the rest is more than a setting."""
    rest = m.group("rest").strip()
    if not _bare_setting(rest, known):
        return m.group()
    return (" at " if said_numbers(rest) else " in ") + rest


_ASKS_STATE = re.compile(
    r"^\s*(?:\w+\s+)?(?:did|have|has|is|are|was|were)\s+(?:i|we|you|they|he|she|the|my|our)\b",
    re.IGNORECASE,
)


def _asked_ahead(kept: list[tuple[str, str]], known: _Known) -> list[tuple[str, str]]:
    """`kept` without a question about one thing that the next clause orders by pointing
    back at it ("did I leave the hair straighteners on?? turn them off" -> "turn the hair
    straighteners off"): the question's "on" is no order."""
    out: list[tuple[str, str]] = []
    for clause, sep in kept:
        m = _BACK.search(clause)
        if m and out and "?" in out[-1][1] and _ASKS_STATE.search(out[-1][0]):
            ws = words(out[-1][0])
            said = [(n, v) for n, v in zip(known.names, known.things, strict=True) if v]
            said = [(n, v, at) for n, v in said if (at := find_phrase(v, ws)) is not None]
            if len({n for n, _, _ in said}) == 1 and _orders(clause):
                name, v, at = said[0]
                # the device nouns after the name go with it ("the hall light")
                end = at + len(v)
                while end < len(ws) and ws[end] in DEVICE_NOUNS:
                    end += 1
                thing = " ".join([name, *ws[at + len(v) : end]])
                thing = thing if "'" in name else "the " + thing  # not "the Ana's room"
                out[-1] = (clause[: m.start()] + thing + clause[m.end() :], sep)
                continue
        out.append((clause, sep))
    return out


def _stated_then_pointed(said: list[tuple[str, str]], known: _Known) -> list[tuple[str, str]]:
    """`said` with a statement about one thing dropped where the order after it points back
    at that thing, which then takes its name ("The vacuum autoclave's finished, switch it
    off" -> "switch the vacuum autoclave off"): as a remark alone it would leave "it" to
    nothing."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(said):
        clause, sep = said[i]
        nxt, nsep = said[i + 1] if i + 1 < len(said) else ("", "")
        m = _BACK.search(nxt)
        if m and _orders(nxt) and (_remark(clause, known) or _states_a_thing(clause)):
            ws = words(clause)
            bare = [w[:-2] if w.endswith("'s") else w for w in ws]  # "autoclave's finished"
            named = {
                n
                for n, v in zip(known.names, known.things, strict=True)
                if v and (find_phrase(v, ws) is not None or find_phrase(v, bare) is not None)
            }
            if len(named) == 1:
                name = named.pop()
                thing = name if "'" in name else "the " + name
                # and its kind word said after it ("phone booth 2 light is still on")
                v = words(name)
                at = find_phrase(v, ws)
                if at is not None and at + len(v) < len(ws) and ws[at + len(v)] in _KIND_WORDS:
                    thing += " " + ws[at + len(v)]
                out.append((nxt[: m.start()] + thing + nxt[m.end() :], nsep))
                i += 2
                continue
        # or a thing said in a clause that orders nothing, the order after it naming only a
        # kind ("wok station so dark, open light please" -> the wok station's light)
        kind = _KIND_AFTER.search(nxt)
        if (
            kind
            and _orders(nxt)
            and not _orders(clause)
            and not known.says(words(clause), known.settings)  # ("..., light warm white")
            and not known.says(words(nxt), known.things)
            and not _POINT_BACK.search(nxt)  # ("..., could the lamp in there go to 70")
        ):
            ws = words(clause)
            named = {
                n
                for n, v in zip(known.names, known.things, strict=True)
                if v and find_phrase(v, ws) is not None
            }
            if len(named) == 1:
                at = kind.start(1)
                out.append((nxt[:at] + named.pop() + " " + nxt[at:], nsep))
                i += 2
                continue
        out.append((clause, sep))
        i += 1
    return out


# A light's or cover's word in an order, after "the" or alone ("open light please"): the kinds
# a room has.
_KIND_AFTER = re.compile(
    r"(?:\bthe\s+|^\s*|\b(?:on|off|open|close|dim)\s+)("
    + "|".join(sorted(LIGHT_WORDS | COVER_WORDS))
    # (the kind's word ends the thing: not "the roller door")
    + r")s?\b(?=\s*(?:$|[,;.!?]|(?:on|off|up|down|to|at|please|pls|now)\b))",
    re.IGNORECASE,
)


# Words for a kind of thing, said after a room's name ("the porch light").
_KIND_WORDS = LIGHT_WORDS | COVER_WORDS | FAN_WORDS


def _states_a_thing(clause: str) -> bool:
    """Whether a clause says how a thing is, and orders nothing: "phone booth 2 light is
    still on" (its "on" is how the light is)."""
    ws = words(clause)
    at = next((i for i, w in enumerate(ws) if w in ("is", "are")), None)
    orders = (ORDER_VERBS | _OTHER_ORDERS) - _PHRASAL  # ("is on" is how it is)
    # (before "is" is what it is about: "light" there is the thing, no order)
    return at is not None and at > 0 and ws[0] not in orders and not orders & set(ws[at:])


def _pulled_in(kept: list[tuple[str, str]], known: _Known) -> list[tuple[str, str]]:
    """`kept` with things named ahead of the clause that points back at them moved into it
    ("The sawdust collector, please switch it off" -> "please switch the sawdust collector
    off") or that says only their setting ("sitting room, rose" -> "sitting room rose"), and
    a clause that only adds a number joined to the one before it."""
    out: list[tuple[str, str]] = []
    for clause, sep in kept:
        m = _BACK.search(clause)
        ahead = 0
        while ahead < len(out) and _named_ahead(out[-1 - ahead][0], known):
            ahead += 1
        thing = " ".join(a.strip() for a, _ in out[len(out) - ahead :])
        if ahead and m:
            thing = thing[0].lower() + thing[1:] if thing[:4].lower() == "the " else thing
            del out[-ahead:]
            out.append((clause[: m.start()] + thing + clause[m.end() :], sep))
        elif ahead and _bare_setting(clause, known):
            del out[-ahead:]
            out.append((thing + " " + clause.strip(), sep))
        elif out and _adds_a_number(clause):
            out[-1] = (out[-1][0] + " " + clause.strip(), sep)
        else:
            out.append((clause, sep))
    return out


# Verbs of orders to something else than a device: a short clause with one is no scene.
_OTHER_ORDERS = frozenset(
    "play call send order tell remind book text read show find buy add get give ask check "
    "lock unlock cancel pause skip search forget mind wait actually never".split()
)
_POINT_BACK = re.compile(r"\b(?:in\s+there|there|its|it|them)\b", re.IGNORECASE)


def _orders(clause: str) -> bool:
    return bool(ORDER_VERBS & set(words(clause))) or bool(said_numbers(clause))


def _scene(clause: str, known: _Known) -> bool:
    """Whether a clause only sets the scene for a command: a statement with no word of an
    order ("she's reading in the sitting room", "I'm locking up the tack room"), or a few
    words naming nothing the tools know ("late night snack", "movie time")."""
    ws = clause.lower().replace("\u2019", "'").split()
    opened = bool(_REMARK.match(" ".join(ws)))  # "I'm locking up ...": "up" orders nothing
    phrasal = {"up", "down"} if opened else set()
    if not ws or said_numbers(clause) or any(w.strip("?!.") in _ORDERING - phrasal for w in ws):
        return False
    if (ORDER_VERBS - phrasal) & set(words(clause)):
        return False
    if len(ws) <= 3 and known.owns(words(clause)):
        return False  # "Women's too.": the women's changing room, said by its owner
    if opened or states(ws):
        return True
    # (a word of a thing's name names it, short: "..., also the autoclave" for the "annexe
    # autoclave steriliser")
    parts = {w for v in known.things for w in v if len(w) >= 4 and w not in GENERIC | PLAIN}
    return (
        len(ws) <= 3
        and not known.points(clause)
        and not known.owns(words(clause))
        and not (_OTHER_ORDERS | DEVICE_NOUNS | SETTING_NOUNS | {"speed"} | parts)
        & set(words(clause))
    )


# Words after a noun's "'s" that make it "is" or "has" ("the vet's here", "the sun's come
# round"), not a possessive ("Maya's room").
_AFTER_IS = frozenset(
    "here there out back home about not too so very really come been finally still nearly "
    "almost gone asleep awake over done up down on off in cold hot warm dark shut closed "
    "locked empty full quiet busy".split()
)
_CONTRACTED = frozenset(
    "it's that's there's she's he's we're they're you're who's everyone's everybody's "
    "nobody's what's i've we've".split()
)


# Words before a "left" that is no one leaving something: a side ("turn left", "on the left").
_LEFT_NOT_DONE = frozenset("turn on to at far top bottom front back".split())


# A clause that opens with one of these and a verb tells what someone does ("I start the fryer
# now", "we close at six"): an order has no subject but the hearer.
_SUBJECTS = frozenset("i we they he she".split())
# Verbs after a subject that make the clause a wish or a question, said as a request ("I want
# the fan on", "we need the blinds down", "I'd like ...").
_WISHING = frozenset(
    "want wanna need like would will can could should must shall may might have has had "
    "prefer wish".split()
)


def _told_of_someone(ws: Sequence[str]) -> bool:
    """Whether a clause opens with a subject and a verb that is no wish, and orders nothing
    after them ("I start the fryer now"; not "I want the lamp on", "we'd like it warmer", nor
    "we close the shop now turn off the mixer", typed with no comma)."""
    lead = [w.strip("?!.,") for w in ws[:2]]
    return (
        len(lead) == 2
        and lead[0] in _SUBJECTS
        and lead[1].isalpha()
        and lead[1] not in _WISHING
        and lead[1] not in _ORDERING - ORDER_VERBS
        and not tells_an_order(ws[2:])
    )


def tells_an_order(ws: Sequence[str]) -> bool:
    """Whether words hold an order's verb or a switching word ("..., so open the blind")."""
    return bool(ORDER_VERBS & {w.strip("?!.,") for w in ws})


# Verbs of an order that, typed after a statement with no comma, give it ("we are closing
# office put off the light"); not the words a state is said in ("the door is wide open").
_RUN_ON_VERBS = frozenset("turn switch put set make start stop dim kill bring".split())


def _runs_on(ws: Sequence[str]) -> bool:
    """Whether words hold an order's verb said as one, before what it orders ("start the
    genset", "put off light"; not "that's set solid")."""
    ws = [w.strip("?!.,") for w in ws]
    return any(
        w in _RUN_ON_VERBS and ws[k + 1 : k + 2] and ws[k + 1] in _RUN_ON_NEXT
        for k, w in enumerate(ws)
    )


# What follows an order's verb said as one.
_RUN_ON_NEXT = DETERMINERS | frozenset("on off up down it them".split())


# Who says "want" to ask for it.
_WISHERS = frozenset("i we i'd we'd".split())


def states(ws: Sequence[str]) -> bool:
    """Whether words make a statement ("the fumes are strong", "everyone's gone home", "the
    bed's freezing", "I start the fryer now"; not "Maya's room warm white")."""
    if _told_of_someone(ws):
        return True
    if [w.strip("?!.,") for w in ws[:2]] in (["what", "a"], ["what", "an"]) and not (
        tells_an_order(ws[2:])
    ):
        return True  # "what a heat": an exclamation, no question and no order
    for i, w in enumerate(ws):
        if gets_going(ws, i):
            continue  # "get the extractor going" orders it on
        if w == "you're" and list(ws[i + 1 : i + 3]) == ["at", "it"]:
            continue  # "while you're at it, switch the winch on" leads in to an order
        if w == "want" and i and ws[i - 1] in _WISHERS:
            continue  # "I want the fryer on" wishes it on: an order, as "put the fryer on"
        if w in _STATING or w in _CONTRACTED:
            # (an order typed straight after it is said too: "power is gone start the genset")
            return not _runs_on(ws[i + 2 :])
        if w == "left" and 0 < i < len(ws) - 1 and ws[i - 1] not in DETERMINERS | _LEFT_NOT_DONE:
            return True  # "Tamsin left them on again" (not "the left lamp", "turn left")
        if w.endswith(("'s", "'re")) and i + 1 < len(ws):
            after = ws[i + 1].strip("?!.,")
            if after in _STATING or after in _AFTER_IS or after.endswith("ing"):
                return True
            if len(after) > 4 and after.endswith("ed"):
                return True  # "the dew point's dropped right off" (has dropped)
    return False


def _without_scene(kept: list[tuple[str, str]], known: _Known) -> list[tuple[str, str]]:
    """`kept` without the clauses that set the scene of a command said in another clause; a
    place the scene names goes into the next command where that command points back at it
    ("I'm locking up the tack room, switch its light off") or names no place of its own ("it's
    pitch black on the front step, light on")."""
    if not any(_orders(c) for c, _ in kept):
        return kept
    out: list[tuple[str, str]] = []
    place = None
    for at, (clause, sep) in enumerate(kept):
        after = kept[at + 1][0] if at + 1 < len(kept) else ""
        if (_scene(clause, known) or _heading(clause, sep, known)) and not (
            len(clause.split()) <= 3 and _BACK.search(after)
        ):
            ws = words(clause)
            said = [
                n
                for n, v in zip(known.names, known.things, strict=True)
                if find_phrase(v, ws) is not None
            ]
            place = said[0] if len(set(said)) == 1 else None
            if place and out and not known.says(words(out[-1][0]), known.things):
                out[-1] = (
                    f"{out[-1][0].rstrip()} in the {place}",
                    sep,
                )  # "lights on, it's dark in the hall"
                place = None
            continue
        if place and _orders(clause):
            m = _POINT_BACK.search(clause)
            if m:
                back = m.group().lower()
                thing = f"in the {place}" if "there" in back else f"the {place}"
                clause = clause[: m.start()] + thing + clause[m.end() :]
            elif not known.says(words(clause), known.things):
                clause = f"{clause.rstrip()} in the {place}"
            place = None
        out.append((clause, sep))
    return out or kept


def _heading(clause: str, sep: str, known: _Known) -> bool:
    """Whether a clause before a colon only heads what follows ("end of the day: chai urn
    off, ..."): it says no number, no order and nothing the tools know."""
    ws = words(clause)
    return (
        sep.strip().startswith(":")
        and bool(ws)
        and not said_numbers(clause)
        and not known.points(clause)
        and not known.owns(ws)
        and not (_ORDERING | ORDER_VERBS | _OTHER_ORDERS) & set(ws)
    )


# "the heat" followed by a number is the heating, not its heat mode ("set the heat to 15").
_THE_HEAT = re.compile(r"\b((?:the|my|our)\s+)(heat)\b(?:\s+(\w+))?", re.IGNORECASE)


def _heat_as_heating(clause: str, known: _Known) -> str:
    """A clause with a number whose "the heat" names the heating, said so."""
    if not said_numbers(clause):
        return clause

    def sub(m: re.Match[str]) -> str:
        after = (m.group(3) or "").lower()
        if after and (after in known.words or after in ("mode", "setting")):
            return m.group()  # "the heat pump", "the heat mode"
        heating = "HEATING" if m.group(2).isupper() else m.group(2) + "ing"
        return m.group(1) + heating + m.group()[m.end(2) - m.start() :]

    return _THE_HEAT.sub(sub, clause)


# A request that takes itself back: "..., actually leave them as they are", "wait no, keep
# the door LED as it is", "... off... actually no, leave it", "never mind the blinds", "sorry,
# ignore that", "oh wait no, leave it on" (not "I forget it", an iron left on). Its
# calls are none, whatever the clause before it asked; a correction that names another
# thing ("the hall off, actually no, the landing") is not one.
_CANCEL = re.compile(
    r"\b(?:(?:as (?:it|they) (?:is|are|was|were)"
    r"|never ?mind|nvm|(?<![Ii] )forget (?:it|that|about it)|cancel that"
    # ("so I don't bother any stray bees" is a purpose, not a taking back)
    r"|(?<![Ii] )(?<![Ww]e )don'?t bother(?! (?:any|the|them|him|her|us|me)\b)"
    r"|(?:actually|wait|no),? forget\b"
    r"|ignore (?:that|me|what I said)|scratch that"
    # ("hold off on the roof, there's cloud rolling in")
    r"|hold off (?:on|with)"
    # ("..., no actually, leave them open")
    r"|(?:wait|actually),? no,? (?:just )?leave (?:it|them)(?: on| off)?"
    r"|no,? (?:wait|actually),? (?:just )?leave (?:it|them)(?: on| off| open| closed| shut)?)\b"
    r"|leave (?:it|them|that|those)(?: (?:be|alone))?\s*(?:[,.;!?]|$))",
    re.IGNORECASE,
)


# A request broken off by an ellipsis and taken back in any language's filler ("fan make
# low... ah no, keep like that", "put the boat charger off... ei, wait, let it charge").
_TAKEN_BACK = re.compile(
    r"(?:\.\.\.|\u2026)\s*(?:\w+[,!]?\s+){0,2}?"
    r"(?:no|nah|wait|keep|leave|let|forget|cancel|actually)\b",
    re.IGNORECASE,
)


def cancels(text: str) -> bool:
    """Whether the request takes back what it asks (see `_CANCEL`, `_TAKEN_BACK`)."""
    return bool(_CANCEL.search(text) or _TAKEN_BACK.search(text))


class PlainReader:
    """Reads requests to one set of tools as `plain_command` does; what it knows of the tools
    (their words, names, everyday aliases) is worked out once, as a session's tools are fixed."""

    def __init__(self, tools: Sequence[Mapping[str, Any]]) -> None:
        self.free_words = _free_text_words(tools)
        self.known = known_words(tools)
        self.aliases = {**_of_orders(self.known.names), **_aliases(tools, self.known.names)}
        self.short = ShortNames(tools)
        self.setting_names = [" ".join(v) for v in self.known.settings]
        self.keep = [*self.known.words, *self.setting_names]
        self.heat = any(takes_temperature(t.get("parameters") or {}) for t in tools)
        # the words of the tools' names that can point at one ("underfloor" of set_underfloor)
        self.tool_words = {
            w for t in tools for w in words_of_name(str(t.get("name") or "")) if is_telling(w)
        }
        # the names of covers (their rooms) and of devices that are no place, as words
        covers = [
            t for t in tools if "position" in ((t.get("parameters") or {}).get("properties") or {})
        ]
        self.cover_names = [words(v) for v in thing_names(covers)[0]]
        # the rooms and areas things are in, as words
        self.places = [
            words(v)
            for t in tools
            for k, sch in ((t.get("parameters") or {}).get("properties") or {}).items()
            if isinstance(sch, Mapping) and str(k).lower() in _PLACE_KEYS
            for v in enum_strings(sch)
        ]
        self.devices = [v for v in self.known.things if v not in self.places]
        self.list_words = _ListWords.of(self.known, self.places, self.tool_words)
        self.open_in_names = open_in_names([*self.known.names, *self.setting_names])
        # names and settings with accents, which people often type without: the name typed
        # bare is an everyday word for it ("start the petrin" is the pétrin)
        self.unaccented = {
            _folded(v): v for v in [*self.known.names, *self.setting_names] if _folded(v) != v
        }
        self.tool_texts = [
            f"{t.get('name')} {t.get('description') or ''}".replace("_", " ") for t in tools
        ]
        said = [*self.known.names, *self.setting_names, *self.tool_texts]
        self.vocabulary = {w for v in said for w in words(v)} | self.known.words
        # (a one-word setting of six letters or more: "heether" is heather, where "while"
        # would be white)
        self.typed = _TYPED_KINDS | {
            v[0] for v in self.known.settings if len(v) == 1 and len(v[0]) >= 6
        }
        # "put the heat pump on cooling": a setting said as its "-ing" form after "on"/"to"
        plain = {v[0] for v in self.known.settings if len(v) == 1 and v[0].isalpha()}
        verbs = sorted(v for v in plain if len(v) >= 3 and v + "ing" not in plain)
        self.ing = (
            re.compile(rf"\b(on|to|into)\s+({'|'.join(map(re.escape, verbs))})ing\b", re.I)
            if verbs
            else None
        )

        # "speed two" to a fan whose speeds are "1" to "6": a setting numbered by digits,
        # said in words after its name, is written as the digits
        numbered = {
            str(k).lower(): {v for v in sch.get("enum") or () if isinstance(v, str) and v.isdigit()}
            for t in tools
            for k, sch in ((t.get("parameters") or {}).get("properties") or {}).items()
            if isinstance(sch, Mapping)
        }
        self.numbered = [
            (re.compile(rf"\b({re.escape(k)})\s+({'|'.join(map(re.escape, said))})\b", re.I), v)
            for k, vs in numbered.items()
            for v in sorted(vs)
            if int(v) < 100 and (said := spelled(int(v)))
        ]

        # "fan down 2 hush": a typed "2" before a setting's word is "to" (not a switch's "on",
        # nor the end of a name: "bedroom 2 blue")
        words_only = sorted(
            (
                " ".join(v)
                for v in self.known.settings
                if v and v[0].isalpha() and " ".join(v) not in VALUE_SENSE
            ),
            key=len,
        )[::-1]
        self.numbered_names = [n.lower() for n in self.known.names if n.lower().endswith(" 2")]
        self.typed_to = (
            re.compile(rf"\b2\s+({'|'.join(map(re.escape, words_only))})\b", re.I)
            if words_only
            else None
        )

        # "the telly" is the "back television" (or the "tv"): the everyday word for a kind of
        # thing, written as the word a name of the home uses
        name_words = {w for n in self.known.names for w in n.lower().split()}
        self.everyday = [
            (re.compile(rf"(?<![\w']){re.escape(other)}(?![\w'])", re.I), word)
            for group in _EVERYDAY
            for word in sorted(group & name_words)[:1]
            for other in sorted(group - name_words)
        ]

    def _switchable(self, ws: Sequence[str]) -> bool:
        """Whether an order's words name a thing that switches and never opens: a light's,
        fan's or plug's word, or a device that is no place (a relay's pump, an LED's sign), and
        no cover's word or name nor anything that opens by switching ("open the gate")."""
        # (a word of a device's name said is the name's: "the led for gate alarm")
        named = {
            i
            for v in self.devices
            if (at := find_phrase(v, ws)) is not None
            for i in range(at, at + len(v))
        }
        if any(
            w in COVER_WORDS or w in OPENS_BY_SWITCHING for i, w in enumerate(ws) if i not in named
        ):
            return False
        if any(find_phrase(v, ws) is not None for v in self.cover_names):
            return any(w in LIGHT_WORDS for w in ws)
        return any(w in _SWITCHED_KINDS for w in ws) or any(
            find_phrase(v, ws) is not None for v in self.devices
        )

    def _ing_setting(self, m: re.Match[str]) -> str:
        """ "on cooling" as "on cool", unless the "-ing" word begins a setting of its own
        ("set the fan to cooling breeze")."""
        rest = words(m.string[m.start(2) :])
        if any(v and rest[: len(v)] == v for v in self.known.settings):
            return m.group(0)
        return f"{m.group(1)} {m.group(2)}"

    def _typed_to(self, m: re.Match[str]) -> str:
        before = m.string[: m.start()].lower() + "2"
        if any(before.endswith(n) for n in self.numbered_names):
            return m.group(0)
        return f"to {m.group(1)}"

    def read(self, text: str, full_names: bool = False) -> str:
        """`text` as the model and the rules read it (see the module's text): as said when
        the request may be dictating a free text, and with its clauses as said when dropping
        would leave none. `full_names` writes a thing said by a short form of its name as the
        name ("the bilge pump" -> "the port side bilge pump")."""
        return self.readings(text)[full_names]

    def readings(self, text: str) -> tuple[str, str]:
        """`text` read as `read` reads it, and read so with short forms of names written in
        full: both from one pass, as a session asks for both of every request."""
        if _asks_for_free_text(text, self.free_words) or cancels(text):
            # a dictated text, or a taking back that must not be read as a remark
            return text, text
        known = self.known
        text = _with_names(_with_names(text, self.unaccented), self.aliases)
        for pattern, word in self.everyday:
            text = pattern.sub(word, text)
        text = _spoken_breaks(text, known, self.list_words)
        text = _switching_said(text, self._switchable, self.open_in_names)
        text = _on_a_thing(text, known.names)
        text = _ones_named(text, known.names)
        text = _REMARK_AFTER.sub(
            r"\1, ", as_written(text, known.names, self.keep, self.setting_names)
        )
        text = _FILLER_AFTER.sub(r"\1, \2,", text).rstrip(",")
        text = _SCENE_SO.sub(r"\1, ", _SO_REMARK.sub(", ", text))
        text = _without_run_on_remark(_LEAVING_AHEAD.sub(r"\1, ", text), known)
        text = _ON_CHARGE.sub("on", text)
        text = _asked_plainly(_POSSIBLE.sub("could you", text))
        text = _ON_BLINKING.sub("", text)
        text = _HALF_WAY.sub("halfway", text)
        text = _HEDGED.sub(lambda m: m.group(1) + " " if _amount(m.group("n")) else m.group(), text)
        text = _ON_AMOUNT.sub(lambda m: "to " if _amount(m.group("n")) else m.group(), text)
        if _SLOWLY.search(text) and not re.search(r"\bover\b", text, re.IGNORECASE):
            text = _IN_SECONDS.sub(
                lambda m: "over " if _amount(m.group("n")) else m.group(), text, count=1
            )
        text = _FOREIGN_VERB.sub(lambda m: _FOREIGN_SWITCH[m.group(1).lower()], text)
        text = _KARO.sub(lambda m: _KARO_SENSE.get(m.group("sense").lower(), "off"), text)
        text = _SWITCH_DOWN.sub("switch off", text)
        text = _NO_TROUBLE.sub("", text).strip(" ,")
        if self.ing is not None:
            text = self.ing.sub(self._ing_setting, text)
        for pattern, digits in self.numbered:
            text = pattern.sub(lambda m, d=digits: f"{m.group(1)} {d}", text)
        if self.typed_to is not None:
            text = self.typed_to.sub(self._typed_to, text)
        text = _AND_IT.sub(lambda m: _one_setting(m, known), text)
        # "counter light to orange and 60%": the percentage is the same thing's level
        text = _percent_joined(text)
        pieces: list[tuple[str, str]] = []  # (clause, the separator after it)
        at = 0
        for m in _CUT.finditer(text):
            pieces.append((text[at : m.start()], m.group()))
            at = m.end()
        pieces.append((text[at:], ""))
        said = [p for p in pieces if p[0].strip()]
        kept = [
            (clause, sep)
            for i, (clause, sep) in enumerate(_stated_then_pointed(said, known))
            if not _courtesy(clause)
            and not _remark(clause, known)
            # (the first clause too, before another: "guests arriving at 4. porch light on")
            and not ((i or len(said) > 1) and _timed_aside(clause, known))
        ]
        if not kept:
            return text, text
        kept = _pulled_in(_without_scene(_asked_ahead(kept, known), known), known)
        if self.heat:
            kept = [(_heat_as_heating(clause, known), sep) for clause, sep in kept]
        if kept != said:
            out = "".join(clause + sep for clause, sep in kept[:-1]) + kept[-1][0]
            end = kept[-1][1].strip()
            text = out.strip() + (end[:1] if end[:1] in ("?", "!", ".") else _end(text))
        # "the bilge pump" is the "port side bilge pump" (after remarks are dropped: a
        # remark's word of a name is no order for the thing), and "one" after a name so
        # written is its kind ("the back room one too")
        fuller = _ones_named(self.short.written_in_full(self._typos_mended(text)), known.names)
        placed = self._placed(text)
        return placed, placed if fuller == text else self._placed(fuller)

    def _typos_mended(self, text: str) -> str:
        """`text` with a typo in a name mended (as the rules read it: "the sleeping nok" is
        the sleeping nook), and in a word of a light's or a cover's kind ("shuters")."""
        text = with_typos_mended(text, self.known.names, self.setting_names, self.tool_texts)
        out = []
        for m in re.finditer(r"[A-Za-z]+|[^A-Za-z]+", text):
            w = m.group()
            low = w.lower()
            if (
                len(low) >= 5
                and w.isalpha()
                and words(low)[0] not in self.vocabulary  # (as `words` reads a plural)
                and low not in COMMON_WORDS
                and low not in NUMBER_WORDS  # "eight" is no "light"
                and len(near := {k for k in self.typed if spelled_near(low, k)}) == 1
            ):
                w = near.pop()
            out.append(w)
        return "".join(out)

    def _placed(self, text: str) -> str:
        """`text` with "in there" and "his light" read as the place or owner said before."""
        # "flick the light on in there": the place said before it
        text = resolve_there(_IN_THERE.sub("there", text), self.known.names)
        return _owners(text, self.known.names)


def plain_command(text: str, tools: Sequence[Mapping[str, Any]]) -> str:
    """`text` as the model and the rules read it; one request's `PlainReader(tools).read`."""
    return PlainReader(tools).read(text)


# "... to orange and 60%": "and" before a percentage that ends the clause
_AND_PERCENT = re.compile(
    r"\s+and\s+(?=\d+(?:\.\d+)?\s*(?:%|percent\b)\s*(?:please|pls|thanks)?\s*(?:[,;.!?]|$))",
    re.IGNORECASE,
)
_PERCENT = re.compile(r"\d\s*(?:%|percent\b)", re.IGNORECASE)


def _percent_joined(text: str) -> str:
    """`text` with "and" before a percentage read as "at" where the clause before says no
    percentage of its own ("counter light to orange and 60%": one light, two settings)."""

    def sub(m: re.Match[str]) -> str:
        clause = re.split(r"[,;.!?]", text[: m.start()])[-1]
        return m.group() if _PERCENT.search(clause) else " at "

    return _AND_PERCENT.sub(sub, text)


# Keys whose values are places.
_PLACE_KEYS = frozenset("room rooms area zone location place".split())
# A switch word and the space after it, before the next word.
_SWITCH_RUN = re.compile(r"\b(on|off)\s+(?=[A-Za-z])", re.IGNORECASE)
# Words that go on to set the next thing once it is named ("..., lantern on", "heating to 20").
_SETS_NEXT = frozenset("on off to up down at open shut close closed blink flashing".split())


def _folded(text: str) -> str:
    """`text` without its accents ("pétrin" -> "petrin", "ocağı" -> "ocagi")."""
    plain = unicodedata.normalize("NFKD", text.replace("ı", "i").replace("İ", "I"))
    return "".join(c for c in plain if not unicodedata.combining(c))


def _amount(said: str) -> bool:
    """Whether words before a unit are a number ("22", "twenty two"; not "the lathe")."""
    return said[:1].isdigit() or all(w in NUMBER_WORDS for w in re.split(r"[\s-]", said.lower()))


@dataclass(frozen=True)
class _ListWords:
    """What `_spoken_breaks` reads a spoken list by, worked out once per set of tools: the
    telling words of things' names; those and every kind's, heating's and tool name's word;
    the settings' words; and the places (rooms, areas) as words."""

    names: frozenset[str]
    things: frozenset[str]
    settings: frozenset[str]
    places: list[list[str]]

    @classmethod
    def of(cls, known: _Known, places: list[list[str]], tool_words: Collection[str]) -> _ListWords:
        names = frozenset(w for v in known.things for w in v if is_telling(w.split("'")[0]))
        return cls(
            names=names,
            things=names | _KIND_WORDS | HEATING_WORDS | frozenset(tool_words),
            settings=frozenset(w for v in known.settings for w in v),
            places=places,
        )


def _spoken_breaks(text: str, known: _Known, words_of: _ListWords) -> str:
    """`text` with a comma after a thing's "on" or "off" that runs straight into the next
    thing, which is then set in turn, as speech-to-text types a list ("beacon on lantern on
    and the light up" -> "beacon on, lantern on and the light up"; "desk light on heating to
    20"). The word before must be a thing's (so "turn on the lamp" keeps its "on"), the words
    after a thing's and no setting's ("fan on high"), and neither pair a part of a name ("drop
    off zone"). A place after a kind's word is where that thing is: "vents on the seed bench to
    40", "the lamp on the post box"."""
    names, things, settings = words_of.names, words_of.things, words_of.settings
    phrases = known.things + known.settings
    out: list[str] = []
    at = 0
    for m in _SWITCH_RUN.finditer(text):
        before = words(text[: m.start()])
        switch = m.group(1).lower()
        after = words(text[m.end() :])
        if after[:1] == ["the"]:
            after = after[1:]
        run = list(itertools.takewhile(lambda w: w in things and w not in settings, after))
        if not before or not run or before[-1] not in things:
            continue
        nxt = after[len(run)] if len(run) < len(after) else ""
        if not (nxt in _SETS_NEXT or nxt in settings or nxt.isdigit() or nxt in NUMBER_WORDS):
            continue
        if any(
            find_phrase(pair, v) is not None
            for v in phrases
            for pair in ([before[-1], switch], [switch, run[0]])
        ):
            continue
        if before[-1] not in names and any(
            find_phrase(run, v) is not None for v in words_of.places
        ):
            continue
        out.append(text[at : m.end(1)] + ",")
        at = m.end(1)
    return "".join(out) + text[at:]


# Kinds of thing that switch and never open: "open the light" is said for "turn on the light"
# in many languages' English (Chinese, Turkish, Portuguese speakers), "close the fan" for off.
_SWITCHED_KINDS = (
    LIGHT_WORDS | FAN_WORDS | AIRCON_WORDS | frozenset("heater plug socket sign led".split())
)
_OPEN_CLOSE = re.compile(r"(?<![\w'-])(open|close)(?![\w'-])", re.IGNORECASE)
# Where one order ends and the next begins, for the open-close reading (kept, as a group).
_ORDER_SPLIT = re.compile(r"([,;:.!?]|\b(?:and|then|also)\b)", re.IGNORECASE)
# "on" said as the verb at an order's start ("on the booster pump", "help me on the lantern
# sign"). ("off the fan" the model reads as said; "turn off the fan biko" would switch off a
# "fan biko".)
_ON_AS_VERB = re.compile(
    r"^(\s*(?:please\s+|pls\s+|(?:help|let)\s+me\s+|now\s+)?)(on)\s+(?=\S)", re.IGNORECASE
)


def _switching_said(
    text: str, switchable: Callable[[Sequence[str]], bool], inside: Sequence[re.Pattern[str]]
) -> str:
    """`text` with "open" and "close" read as "on" and "off" in an order whose thing switches
    and never opens ("semaver open", "Çay ocağı light close"), and "on" or "off" said as the
    verb read as "turn on" or "turn off" ("on the booster pump", "help me open the lantern
    sign"). `switchable` tells whether an order's words name such a thing; an "open" that
    one of `inside` (`spoken.open_in_names`) finds is a name's ("the open sign off")."""

    def swapped(o: re.Match[str]) -> str:
        if any(a <= o.start() < b for a, b in spans):
            return o.group()
        sense = "on" if o.group(1).lower() == "open" else "off"
        # said before "the", the verb ("yalla open the light" -> "turn on the light"): an
        # "on the" alone says where a thing is
        # (not after a subject: "we close the shop now, ..." tells, and orders nothing)
        before = o.string[: o.start()].split()
        if _BEFORE_THE.match(o.string, o.end()) and not (
            before and before[-1].lower() in _SUBJECTS
        ):
            return f"turn {sense}"
        return sense

    pieces = _ORDER_SPLIT.split(text)
    for i in range(0, len(pieces), 2):
        part = pieces[i]
        if not switchable(words(part)):
            continue
        spans = [m.span() for p in inside for m in p.finditer(part)]
        part = _OPEN_CLOSE.sub(swapped, part)
        pieces[i] = _ON_AS_VERB.sub(lambda o: f"{o.group(1)}turn {o.group(2)} ", part)
    return "".join(pieces)


# A determiner straight after a word.
_BEFORE_THE = re.compile(r"\s+(?:the|my|our|his|her|their|this|that)\b", re.IGNORECASE)
_IN_THERE = re.compile(r"\bin\s+there\b", re.IGNORECASE)
# Nouns for what a room's owner has in it ("Oscar's blinds", "turn his light off").
_HAS = r"(?:lights?|lamps?|bulbs?|blinds?|shades?|curtains?|shutters?|fan|heater|heating)\b"


def _owners(text: str, names: Sequence[str]) -> str:
    """`text` with an owner's things read as in the owner's room: "Oscar's blinds" as
    "Oscar's room blinds" when the home has one room of Oscar's, and "his light" after it as
    "Oscar's room light"."""
    rooms: dict[str, list[str]] = {}
    for name in names:
        m = re.match(r"(\w+)'s\s+\S", name)
        if m:
            rooms.setdefault(m.group(1).lower(), []).append(name)
    for owner, own in rooms.items():
        if len(set(own)) != 1:
            continue
        name = own[0]
        head = name[name.index("'s") + 2 :].strip()
        bare = rf"\b({re.escape(owner)}'s)\s+(?!{re.escape(head)}\b)(?={_HAS})"
        text = re.sub(bare, lambda m, h=head: f"{m.group(1)} {h} ", text, flags=re.IGNORECASE)
    said = [n for n in names if "'s " in n and re.search(rf"\b{re.escape(n)}\b", text, re.I)]
    if len(set(said)) == 1:
        m = re.search(rf"\b{re.escape(said[0])}\b", text, re.I)
        head, tail = text[: m.end()], text[m.end() :]
        tail = re.sub(rf"\b(?:his|her|their)\s+(?={_HAS})", said[0] + " ", tail, flags=re.I)
        text = head + tail
    return text


def _end(text: str) -> str:
    """The request's closing mark ("?" or "!" or "."), kept for the model."""
    m = re.search(r"[.!?]+\s*$", text)
    return m.group().strip()[:1] if m else ""
