"""A request as it would be written, from the way it was spoken or texted.

A speech recogniser writes what was said: "okay so switch off the lights in priyas room",
"set the heating to twenty no twenty two", "turn on the uh porch light". A phone writes
"kill snack nook lights n turn on the fan 😴". `as_written` mends what the model (trained on
tidy commands) stumbles on, and nothing else:

- emoji and other pictographs go;
- hesitations ("um", "uh", "erm") go, with a little word they made the speaker say twice
  ("the uh the"), and so do interjections that open the request ("okay so ...") unless they
  start a name;
- "n", "+", "&" and "plus" between words are "and", and an arrow ("->") is "to";
- a name with a possessive said without its apostrophe or its "'s", or a name of two words
  written as one, is written as the name writes it ("priyas room", "Priya room" -> "Priya's
  room"; "livingroom" -> "living room");
- "open" and "close" said of a light, a fan or the heating are on and off ("open the light in
  the kitchen", "barn light close"), as many languages say them;
- "light the ..." leading a clause is "turn on the ...";
- a letter swapped, doubled or left out in a word of an order or a device is mended ("trun
  off the lihgts", "toggel", "the heatre"), never a letter changed ("oven" is no "open"),
  nor a typo of a name's word into another word ("halway" stays for the hallway);
- a verb of everyday speech followed by on, off, up or down is "turn" ("stick the immersion
  on", "whack the heating up to 22");
- a number or an on/off corrected at once keeps only the correction ("twenty no twenty two"
  -> "twenty two", "on no sorry off" -> "off"), without the order said again after it
  ("off no wait on switch it on" -> "on"), and so does a thing or a setting ("krystyna's
  light no sorry i mean the ramp lobby light", "red no wait pink");
- a verb's -ing said with its "g" dropped is written in full ("tank's gettin low"), and a
  name with a hyphen said with a space as the name ("open plan room").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from agent.calling.grammar.reading import (
    COVER_WORDS,
    LIGHT_WORDS,
    spelled_near,
    words,
)
from agent.calling.rangecheck import NUMBER_WORDS

_HESITATIONS = re.compile(r"(?<![\w'])(?:u+h+|u+m+|e+r+m+|e+r+|h+m+)(?![\w'])[,.]?\s*", re.I)
_OPENERS = frozenset("okay ok so well right righto alright oh kia ora".split())  # not "hey needle"
_AND = re.compile(r"(?<=[\w%])\s+(?:n|\+|&|[Pp]lus|PLUS)\s+(?=\w)")
# An arrow typed for "to" ("spray cabin light -> moon white").
_ARROW = re.compile(r"\s*(?:-+>|=>|\u2192)\s*")
# Words that take back what was just said ("twenty no twenty two", "forty, no, thirty",
# "Ben's study, actually no, the utility nook").
_TAKE_BACK = re.compile(
    r"[,.]?\s+(?:(?:no\s+wait|no\s+sorry|sorry\s+no|no|wait|sorry|actually|i\s+mean|or\s+rather)"
    r"[,.]?\s+)+",
    re.IGNORECASE,
)
# A little word said twice over a hesitation ("turn on the uh the porch light").
_TWICE = re.compile(r"\b(the|a|an|to|my|in)\s+\1\b", re.IGNORECASE)
# A comma left after a little word where a hesitation was ("light to, hmm, forty").
_LEFT_COMMA = re.compile(r"\b(the|a|an|to|my|in|at)\s*,\s+", re.IGNORECASE)
_NUMBERISH = NUMBER_WORDS | {"point", "and", "a"}
# A verb's -ing said with its "g" dropped ("tank's gettin low", "it's freezin'").
_DROPPED_G = re.compile(
    r"\b(gett|go|runn|com|do|freez|boil|say|look|work|start|talk|sitt|wait|leav|mak|hav|tak|"
    r"putt|turn|switch|sleep|try|play|watch|cook|stay|rock|pump|head|arriv|dry|heat|warm|"
    r"cool|shiver|drop)in'?(?![\w'])",
    re.IGNORECASE,
)
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
    # ("twenty-one" starts with a number word)
    return bool(ws) and (ws[0].split("-")[0] in NUMBER_WORDS or _digits(ws[0]))


def _name_at(ws: list[str], names: Sequence[str], end: bool) -> int:
    """How many words at the end (or start) of `ws` say one of `names`, after a "the" at the
    start; 0 when none does."""
    low = [w.lower().strip(",.") for w in ws]
    best = 0
    for name in names:
        n = name.lower().split()
        if not n:
            continue
        if end and low[-len(n) :] == n:
            best = max(best, len(n))
        lead = 1 if low[:1] == ["the"] else 0
        if not end and low[lead : lead + len(n)] == n:
            best = max(best, lead + len(n))
    return best


# A number said again after "make it" takes the one before back ("say thirty percent, oh, let's
# make it forty actually"; "heating to 20, no, make it 21").
_MAKE_IT = re.compile(
    r"[,.]?\s+(?:(?:oh|no|actually|sorry|wait|hmm|or)[,.]?\s+)*(?:let's\s+|let\s+us\s+|just\s+)?"
    r"make\s+(?:it|that)\s+",
    re.IGNORECASE,
)
_UNIT_AFTER = frozenset("percent % per cent degrees degree c".split())


def _made_again(text: str) -> str:
    """`text` with a number followed by "make it" and another number left out, its unit kept
    for the new one."""
    for m in _MAKE_IT.finditer(text):
        before, after = text[: m.start()].split(), text[m.end() :].split()
        low_b = [w.lower().strip(",.") for w in before]
        unit = 0
        while unit < min(2, len(low_b)) and low_b[-1 - unit] in _UNIT_AFTER:
            unit += 1
        n = _number_run_before(low_b[: len(low_b) - unit])
        if not n or not _starts_number([w.lower() for w in after]):
            continue
        low_a = [w.lower().strip(",.!?") for w in after]
        run = _number_run_before(low_a[:1]) or 1
        while run < len(low_a) and (low_a[run] in _NUMBERISH or _digits(low_a[run])):
            run += 1
        units = before[len(before) - unit :] if unit else []
        if run < len(low_a) and low_a[run] in _UNIT_AFTER:
            units = []
        kept = before[: len(before) - unit - n]
        # (an "actually" after the new number takes nothing more back)
        rest = [w for w in after[run:] if w.lower().strip(",.!?") != "actually"]
        return " ".join(kept + after[:run] + units + rest)
    return text


# The kinds of thing a name taken back may be said with, and the words an order keeps before
# the thing ("turn on", "switch off the").
_KINDS = LIGHT_WORDS | COVER_WORDS | frozenset("lights blinds fan heater plug socket".split())
_KEPT_BEFORE_THING = frozenset("turn switch put set make dim open close on off the".split())


def _corrected(text: str, names: Sequence[str] = (), settings: Sequence[str] = ()) -> str:
    """`text` with each number, on/off, thing's name or setting taken back at once left out
    ("twenty no twenty two" -> "twenty two"; "Ben's study, actually no, the utility nook" ->
    "the utility nook"; "red no wait pink" -> "pink")."""
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
                # "off no wait on switch it on": the order said again after the correction
                # repeats it
                again = low_a[1:4]
                if len(again) == 3 and again[1] in ("it", "them") and again[2] == low_a[0]:
                    after = after[:1] + after[4:]
                text = " ".join(before[:-1] + after)
                break
            if len(low_b) >= 2 and low_b[-2] == "to" and low_a[:1] == ["to"] and len(low_a) > 1:
                # "the fan up to medium, no, sorry, to high": the setting said again
                text = " ".join(before[:-2] + after)
                break
            said, meant = _name_at(before, names, True), _name_at(after, names, False)
            if said and meant:
                # the "the" before the name taken back goes with it
                said += 1 if len(before) > said and low_b[-said - 1] == "the" else 0
                text = " ".join(before[:-said] + after)
                break
            kind = low_a[meant : meant + 1]
            if meant and kind and kind[0].strip(",.") in _KINDS and low_b[-1:] == kind:
                # "turn on krystyna's light no sorry i mean the ramp lobby light": the thing
                # of that kind taken back, whatever it was called, up to the order's words
                cut = len(before) - 1
                while cut and low_b[cut - 1] not in _KEPT_BEFORE_THING:
                    cut -= 1
                if cut:
                    text = " ".join(before[:cut] + after)
                    break
            said, meant = _name_at(before, settings, True), _name_at(after, settings, False)
            if said and meant and low_a[:1] != ["the"] and low_b[-said - 1 : -said] != ["the"]:
                # "make niall's light red no wait pink": a setting said again
                text = " ".join(before[:-said] + after)
                break
        else:
            return text


def _apostrophes(text: str, names: Iterable[str]) -> str:
    """`text` with each name's possessive said without its apostrophe ("priyas room") or its
    "'s" ("Grandma room") written as the name writes it."""
    for name in names:
        for m in re.finditer(r"\b(\w+)'s\b(\s+\w+)?", name):
            owner, after = m.group(1), m.group(2) or ""
            word = name[m.start(1) : m.end(1) + 2]  # "Grandma's", as the name writes it
            safe = word.replace("\\", r"\\")
            text = re.sub(rf"\b{re.escape(owner)}s\b", safe, text, flags=re.I)
            if after:
                bare = rf"\b{re.escape(owner)}(?=\s+{re.escape(after.strip())}\b)"
                text = re.sub(bare, safe, text, flags=re.I)
    return text


# Things that switch, not open: "open the light" is a literal "turn on the light" in many
# languages, and "close the fan" is "turn off the fan".
_SWITCHED = LIGHT_WORDS | frozenset("fan heater heating tv telly radio".split())
_CHUNK = re.compile(r"[,;.!?]+|\s+(?:and|then)\s+", re.IGNORECASE)
_OPEN_CLOSE = re.compile(r"\b(open|close)\b", re.IGNORECASE)
_LEAD = frozenset("please pls to can could would you kindly and then also after now just".split())


# Verbs of everyday speech that mean "turn" when a switching word follows in the clause
# ("stick the immersion on", "bung the fan on", "whack the heating up to 22"); "flip the
# printer off" is off, not a toggle.
_COLLOQUIAL = re.compile(
    # (not a name's word: "pop's den light down to 30")
    r"\b(?:stick|bung|pop|flick|flip|whack|chuck|bang|knock|crank|bump)\b(?!')"
    r"(?=[^,;.!?]*\b(?:on|off|up|down)\b)",
    re.IGNORECASE,
)


# "light the gate LED" as an order: "turn on the gate LED" (at the start of a clause, or after
# "could you" or "please", only; elsewhere "light" is a noun).
_LIGHT_THE = re.compile(
    r"(^|[,;.!?]\s*|\b(?:and|then|you|please|pls)\s+)(light)\s+(?=the\b)", re.IGNORECASE
)


# The words of orders and of devices a typo in which the model cannot read past ("trun off the
# lihgts", "toggel", "opne the blinds", "the heatre"). Only a letter swapped, doubled or left
# out is mended, never one changed: "oven" stays an oven, not "open".
_ORDER_WORDS = frozenset(
    "turn switch toggle open close blink flash start stop raise lower brighten lights lamps "
    "light lamp blind blinds shade shades curtain curtains heating heater thermostat kettle "
    "percent degrees seconds minutes brightness temperature colour color halfway".split()
)
_SHORT_ORDER_WORDS = frozenset("fan led dim set".split())  # mended only when swapped


def _swapped(a: str, b: str) -> bool:
    d = [i for i in range(len(a)) if a[i] != b[i]] if len(a) == len(b) else []
    return len(d) == 2 and d[1] == d[0] + 1 and a[d[0]] == b[d[1]] and a[d[1]] == b[d[0]]


def _order_word(word: str) -> str | None:
    """The word of an order `word` is a typo of, if exactly one."""
    w = word.lower()
    if w in _ORDER_WORDS or w in _SHORT_ORDER_WORDS or not w.isalpha() or len(w) < 3:
        return None
    # one typo (`spelled_near`), but not a letter changed: the same letters, or one more or fewer
    hits = {
        t
        for t in _ORDER_WORDS
        if len(w) >= 4 and spelled_near(w, t) and (len(w) != len(t) or sorted(w) == sorted(t))
    }
    hits |= {t for t in _SHORT_ORDER_WORDS if _swapped(w, t)}
    return hits.pop() if len(hits) == 1 else None


def _orders_mended(text: str, names: Iterable[str]) -> str:
    """`text` with a typo in a word of an order or a device mended (see `_ORDER_WORDS`); a word
    of a name, or a typo of one, is left alone."""
    protected = {w.lower() for n in names for w in re.findall(r"[\w']+", n)}
    own = {w for w in protected if w.isalpha() and len(w) >= 4}

    def sub(m: re.Match[str]) -> str:
        word = m.group()
        if word.lower() in protected:
            return word
        if len(word) >= 4 and any(w.startswith(word.lower()) for w in own):
            return word  # "star night-light" says the "starry night-light", no "start"
        right = _order_word(word)
        if right not in protected and any(spelled_near(word.lower(), w) for w in own):
            return word  # "halway" is the hallway's, not "halfway": names mend elsewhere
        return word if right is None else right.upper() if word.isupper() else right

    return re.sub(r"[A-Za-z]+", sub, text)


def open_in_names(names: Iterable[str]) -> list[re.Pattern[str]]:
    """Patterns for an "open" or "close" said with its neighbour in one of `names`, whole or in
    part ("the open sign" for "we're open sign"); a hyphen in a name is said as a space ("open
    plan room" for the "open-plan room")."""
    inside = []
    for n in names:
        ws = re.split(r"[\s-]+", n)
        for i, w in enumerate(ws):
            if _OPEN_CLOSE.fullmatch(w):
                for piece in (ws[max(i - 1, 0) : i + 1], ws[i : i + 2]):
                    if len(piece) == 2:
                        pattern = r"[\s-]+".join(map(re.escape, piece))
                        inside.append(re.compile(rf"(?<![\w']){pattern}(?![\w'])", re.I))
    return inside


def _switched_open(text: str, names: Iterable[str]) -> str:
    """`text` with "open"/"close" said of a light, a fan or the heating read as on/off: "turn
    on"/"turn off" where it leads its clause, "on"/"off" after the thing ("barn light close")."""
    if not _OPEN_CLOSE.search(text):
        return text
    inside = set()
    for name in names:
        # (a hyphen said as a space: "open plan room" for the "open-plan room")
        pattern = r"[\s-]+".join(map(re.escape, re.split(r"[\s-]+", name)))
        for m in re.finditer(rf"\b{pattern}\b", text, re.IGNORECASE):
            inside.update(range(m.start(), m.end()))
    # and an "open" said with its neighbour in a name ("the open plan one")
    for p in open_in_names(names):
        for m in p.finditer(text):
            inside.update(range(m.start(), m.end()))
    out, at = [], 0
    bounds = [m.end() for m in _CHUNK.finditer(text)] + [len(text)]
    for end in bounds:
        chunk = text[at:end]
        ws = set(words(chunk))
        if ws & _SWITCHED and not ws & COVER_WORDS:

            def sub(m: re.Match[str], start: int = at, chunk: str = chunk) -> str:
                if start + m.start() in inside:
                    return m.group()  # "open plan kitchen"
                before = [w.lower() for w in re.findall(r"[\w']+", chunk[: m.start()])]
                sense = "on" if m.group(1).lower() == "open" else "off"
                return f"turn {sense}" if all(w in _LEAD for w in before) else sense

            chunk = _OPEN_CLOSE.sub(sub, chunk)
        out.append(chunk)
        at = end
    return "".join(out)


def as_written(
    text: str, names: Iterable[str] = (), keep: Iterable[str] = (), settings: Iterable[str] = ()
) -> str:
    """`text` with the noise of speech and texting mended (see the module's text); `names`
    are the tools' names of things (rooms, devices), which no rule here may break, `keep`
    other words of the tools (settings such as "heather purple") no typo rule may change, and
    `settings` the tools' setting values, one of which may be taken back for another."""
    names = list(names)
    out = "".join(ch for ch in text if not _pictograph(ch))
    out = _HESITATIONS.sub("", out).strip()
    named = {w.lower() for n in names for w in re.findall(r"[\w']+", n)}
    out = _DROPPED_G.sub(
        lambda m: m.group() if m.group().lower().rstrip("'") in named else m.group(1) + "ing", out
    )
    out = _LEFT_COMMA.sub(r"\1 ", out)
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
    out = _ARROW.sub(" to ", out)
    out = _apostrophes(out, names)
    for name in names:  # "livingroom" is the living room
        joined = re.sub(r"[\s']", "", name)
        if " " in name and len(joined) >= 6:
            out = re.sub(rf"\b{re.escape(joined)}\b", name.replace("\\", r"\\"), out, flags=re.I)
        if "-" in name:  # and "open plan room" the open-plan room
            spaced = r"\s+".join(map(re.escape, re.split(r"[\s-]+", name)))
            out = re.sub(rf"\b{spaced}\b", name.replace("\\", r"\\"), out, flags=re.I)
    out = _orders_mended(out, [*names, *keep])
    out = _switched_open(out, names)
    out = _COLLOQUIAL.sub(lambda m: "Turn" if m.group()[0].isupper() else "turn", out)
    out = _LIGHT_THE.sub(
        lambda m: m.group(1) + ("Turn on " if m.group(2)[0].isupper() else "turn on "), out
    )
    out = _made_again(_corrected(out, names, [s for s in settings if s not in _SENSES]))
    return out if out.strip() else text
