"""A thing said by a short form of its name, written as the name; and a setting of more than
one word ("moonglow indigo", "fume purge") said by a part only it has, written whole.

An owner writes a config once, with full names ("Tamsin's attic bedroom", "port side bilge
pump", "hall grandfather clock chimer"); the people of the home say the shortest form that
still picks one thing: "Tamsin's room", "the bilge pump", "the clock chimer". The model, which
was trained on names said whole, then picks another thing or is doubted, since no name is said.

A short form here is a run of the request's words, each of which is a word of one name, in the
name's order, with some of the name's words left out. A word of the request fits a word of the
name when they are the same (an owner's "'s" aside: "Granny's" is "Granny Margit's" owner) or
differ by a plural "s"; when it is at least four letters and begins or ends the name's word
("steri room" is the "sterilisation back room"), or at five letters or more begins as the
name's word does but for its last two letters ("killie room" is the "killifish shelf room",
"the servants' stairs" the "old servants' staircase"); when it is "room" for "bedroom" ("Elin's
room" is "Elin's bedroom over the porch"); and when it is an owner whose name begins as the
home's owner does ("Wilf's" for "Wilfred's"). The run is written as the name only where it is a
short form of exactly one name of the home, says a word that tells (not only "room", "light" or
"the"), is not a name or a tool's own words, lies inside no name the request says in full, and
is not followed by a kind of thing its tool is not ("the office heating" is no office light). A
run of one word must be a whole word of the name, of four letters or more, that no setting uses,
says more than a place or a time, heads the name where several names have it ("compressor" is
the "shop compressor", not the "compressor warning"), and stands after a word of an order or a
determiner ("toggle the mixer"), not after another word of a name or an unknown word ("the
angelfish rack"). A name the request says in two different pieces is left as said. "His",
"her" or "their" after one owner of the home said, and no other, is that owner's ("Cyril's
bed warmer off, dim his bedroom light" is Cyril's bedroom). An owner of two letters is the one
owner beginning so ("Jo's" for "Jolene's"), and a hyphened word of a name may be said with spaces
("do not disturb").

Looser still, a word none of the home's words are may be a clipped word, another ending or an
owner's short name of a word of a name ("erg" for "ergo", "franker" for "franking"): too loose to
name a thing alone, it is read as that word only where the model's own call picks that thing
(`with_picked_forms`, used by `grounding.grounded`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from agent.calling.grammar.reading import (
    AIRCON_WORDS,
    COVER_WORDS,
    DEVICE_NOUNS,
    FAN_WORDS,
    FULL_WORDS,
    GENERIC,
    HEAD_WORDS,
    HEATING_WORDS,
    LIGHT_WORDS,
    ORDER_VERBS,
    PLAIN,
    SETTING_VALUES,
    VALUE_SENSE,
    WARMTH_WORDS,
    enum_strings,
    picks_a_thing,
    telling_words,
    thing_names,
    with_name_digits,
    with_numbers_shared,
)
from agent.calling.rangecheck import NUMBER_WORDS

# A word of a request as this module reads it, with its place (apostrophes kept: "Elin's").
_WORD = re.compile(r"[\w][\w'\u2019-]*")
# Words that end a run: they join clauses or say an order, never a part of a name.
_BREAKS = frozenset(
    "and then also but or please pls on off to at by up down in into from with".split()
)
# Words that alone say where a thing is, or how big or old it is, not which thing it is.
_WHERE_WORDS = frozenset(
    "back front left right top bottom upper lower upstairs downstairs main big small little old "
    "new side inner outer middle north south east west far near rear centre center first second "
    "third spare".split()
)
# Words of time and manner that a name may hold but a request says for themselves ("for the
# night" is no "night bell").
_TIME_WORDS = frozenset(
    "night day morning evening afternoon tonight today tomorrow weekend week time bit way "
    "while minute hour".split()
)
# Words that say what kind of setting a word before them is.
_SETTING_KINDS = frozenset("colour color speed mode setting preset shade".split())
# Words that say a thing is someone's said before ("Ngozi's light off, her throw too").
_PRONOUNS = frozenset("his her their".split())
# Words after a word that make it a verb ("lock the gate" locks; it names no "gate lock").
_DETERMINERS = frozenset("the a an my our your his her their this that these those".split())
# Words for a kind of thing: one said right after a short form names that kind of thing
# ("the office heating" is the heating, not the "barn office" light).
_KINDS = (
    LIGHT_WORDS,
    COVER_WORDS,
    FAN_WORDS,
    AIRCON_WORDS,
    HEATING_WORDS,
)
# Words that may stand inside a name but tell nothing alone.
_FILLERS = frozenset("the a an my our your for of over by".split())
# Words that say an order, a setting or a kind of thing: in a name they tell nothing alone, and
# they are never a looser form of a longer word ("light" is no "skylight").
# ("at full" is the maximum, no "full purge" speed)
_PLAIN = (
    (GENERIC | PLAIN | HEAD_WORDS | DEVICE_NOUNS | _FILLERS | ORDER_VERBS | SETTING_VALUES)
    | frozenset(VALUE_SENSE)
    | FULL_WORDS
    | frozenset("flashing blinking".split())
)


def _plain(s: str) -> bool:
    """Whether a word (as `_stem` gives it) says an order, a setting or a kind, plural or not."""
    return s in _PLAIN or (s.endswith("s") and s[:-1] in _PLAIN)


def _identifier(word: str) -> bool:
    """Whether a word tells one of several alike apart: a number or a capital letter."""
    s = word.lower()
    return s.isdigit() or s in NUMBER_WORDS or (len(word) == 1 and word.isupper())


def _said(run: str) -> str:
    return " ".join(_stem(w) for w in _WORD.findall(run))


def _owner(word: str) -> bool:
    return word.replace("\u2019", "'").lower().endswith("'s")


def _stem(word: str) -> str:
    w = word.lower().replace("\u2019", "'")
    if w.endswith("'s"):
        return w[:-2]
    return w.rstrip("'")


def _fits(said: str, name_word: str) -> bool:
    """Whether a word of the request can be this word of a name."""
    s, n = _stem(said), _stem(name_word)
    if s == n or s == n + "s" or s + "s" == n:
        return True
    if len(n) > 2 and n.endswith("y") and s == n[:-1] + "ies":
        return True  # "the puppies' heat lamp" is the "puppy pen heat lamp"
    if _owner(said) and _owner(name_word) and len(s) >= 3 and s[:3] == n[:3] and len(s) < len(n):
        return True  # an owner said by a short name ("Wilf's" for "Wilfred's")
    if s in HEAD_WORDS:
        return s == "room" and n == "bedroom"  # "Elin's room" is her bedroom, no bathroom
    if not (len(s) >= 4 and s.isalpha() and not _plain(s)):
        return False
    if n.startswith(s) or n.endswith(s):
        return True
    # a looser ending of the same word ("killie" for "killifish", "stairs" for "staircase")
    common = len(os.path.commonprefix([s, n]))
    return len(s) >= 5 and common >= 4 and common >= len(s) - 2


def _ends_with_word(name_word: str, said: str) -> bool:
    """Whether a name's word ends with a word said after its short form: the whole word, a
    piece after a hyphen ("night-light"), or an ending of four letters or more ("moonlight";
    not the "on" of "beacon", which is the switch said after "the beacon")."""
    if not name_word.endswith(said):
        return False
    return name_word == said or name_word.endswith("-" + said) or len(said) >= 4


def _short_form_of(run: Sequence[str], name: Sequence[str]) -> bool:
    """Whether the words of `run` are words of `name`, in its order, and fewer or looser."""
    at = 0
    for w in run:
        while at < len(name) and not _fits(w, name[at]):
            at += 1
        if at == len(name):
            return False
        at += 1
    return True


def _reordered(run: Sequence[str], name: Sequence[str]) -> bool:
    """Whether `run` says every word of a name of two words or more, in another order
    ("the upstairs committee room" for the "committee room upstairs")."""
    return (
        len(run) == len(name) > 1
        and sorted(_stem(w) for w in run) == sorted(_stem(w) for w in name)
        and [_stem(w) for w in run] != [_stem(w) for w in name]
    )


class ShortNames:
    """The things of one set of tools and their settings of more than one word ("moonglow
    indigo", "fume purge"), and the runs of a request that name one of them."""

    def __init__(self, tools: Sequence[Mapping[str, Any]]) -> None:
        names: list[str] = []
        things: set[str] = set()
        settings: set[str] = set()
        # every value said whole, as `_stem` reads it
        self.whole: set[str] = set()
        # each name's tools' words (for the kind of thing it is)
        self.kind_words: dict[str, set[str]] = {}
        for t in tools:
            props = (t.get("parameters") or {}).get("properties") or {}
            told = f"{t.get('name')} {t.get('description') or ''}".replace("_", " ")
            for key, sch in props.items():
                for v in enum_strings(sch):
                    ws = _WORD.findall(v)
                    self.whole.add(_said(v))
                    thing = picks_a_thing(key, sch)
                    if thing:
                        things.add(v)
                    else:
                        settings |= {_stem(w) for w in ws}
                    if thing or len(ws) > 1:
                        if v not in names:
                            names.append(v)
                        own = {_stem(w) for w in _WORD.findall(f"{told} {v}")}
                        self.kind_words.setdefault(v, set()).update(own)
        self.names = names
        self.things = things
        self.name_words = {n: _WORD.findall(n) for n in names}
        self.settings = settings
        self.thing_words = {_stem(w) for n in things for w in self.name_words[n]}
        # the words that point at a tool itself ("the greenhouse heater" is
        # set_greenhouse_heater, not the "greenhouse roof heater" relay)
        # (a description's words that are a name's are that thing's: "the shades in Ilse's
        # parlour" describes the shades tool, and "the parlour" is still Ilse's parlour)
        in_names = {_stem(w) for ws in self.name_words.values() for w in ws}
        in_names |= settings
        self.tool_words = [
            {_stem(w) for w in telling_words(str(t.get("name")).replace("_", " "))}
            | {_stem(w) for w in telling_words(str(t.get("description") or ""))} - in_names
            for t in tools
        ]
        self.full = [re.compile(rf"(?<![\w']){re.escape(n)}(?![\w])", re.IGNORECASE) for n in names]
        # the owners the names say, by stem: "Wilfred's", and "twins'" for "their"
        self.owners = {_stem(w): w for ws in self.name_words.values() for w in ws if _owner(w)}
        # a name's hyphened word, as said with spaces ("do not disturb" for "do-not-disturb")
        self.hyphened = [
            (
                re.compile(
                    r"(?<![\w'-])"
                    + r"\s+".join(re.escape(p) for p in w.split("-"))
                    + r"(?![\w'-])",
                    re.IGNORECASE,
                ),
                w,
            )
            for w in sorted(
                {w for ws in self.name_words.values() for w in ws if "-" in w.strip("-")}
            )
        ]
        self.plural_owners = {
            _stem(w): w for ws in self.name_words.values() for w in ws if w.endswith("'")
        }

    def _tells(self, run: Sequence[str], name: str) -> bool:
        # a thing's name tells by a word no setting has; a setting's by a word no name has
        other = self.settings if name in self.things else self.thing_words
        return any(not _plain(_stem(w)) and _stem(w) not in other for w in run)

    def _one_word(self, word: str, name: Sequence[str], thing: bool = True) -> bool:
        s = _stem(word)
        return (
            "'" not in word.replace("\u2019", "'")  # "the dough's rising" names no mixer
            and len(s) >= 4
            and s.isalpha()
            and not s.endswith("ing")  # "the washing's not drying" names no drying rack
            and s not in WARMTH_WORDS  # "warmer please, 22" is the heating
            and s not in _WHERE_WORDS
            and s not in _TIME_WORDS
            and s not in (self.settings if thing else self.thing_words)
            and not _plain(s)
            # an owner alone is no room of theirs ("for the twins" is no "twins' bedroom")
            and any(_stem(n) == s and "'" not in n for n in name)
            # nor is a place alone one of its numbered or lettered kind ("bathroom 2")
            and not _identifier(name[-1])
        )

    def _known(self, word: str) -> bool:
        """Whether a word after a one-word run can stand there without naming another thing:
        a word of an order, a kind or a name ("the bread slicer" is no bread counter)."""
        s = _stem(word)
        return (
            _plain(s)
            or s in _BREAKS
            or any(_fits(word, w) for ws in self.name_words.values() for w in ws)
        )

    def _owners_named(self, text: str) -> str:
        """`text` with an owner said by a short name written as the home's names write it
        ("Wilf's blinds" -> "Wilfred's blinds"), where one owner of the home begins so and
        none is called that."""
        owners = self.owners

        def sub(m: re.Match[str]) -> str:
            s = _stem(m.group())
            if s in owners or len(s) < 2:
                return m.group()
            # (a name of two letters begins the owner's: "Jo's" for "Jolene's")
            like = {o for o in owners if o.startswith(s[:3]) and len(o) > len(s)}
            if len(like) != 1:
                return m.group()
            return owners[like.pop()]

        return re.sub(r"(?<![\w'])[A-Za-z]+['\u2019]s(?![\w'])", sub, text)

    def _hyphens_joined(self, text: str) -> str:
        """`text` with a hyphened word of a name said with spaces written as the name writes
        it ("Jo's do not disturb on" -> "Jo's do-not-disturb on")."""
        for said, word in self.hyphened:
            text = said.sub(word, text)
        return text

    def _pronouns_owned(self, text: str) -> str:
        """`text` with "his", "her" or "their" written as the owner the request said before
        it, where it said one owner of the home's names and no other ("Cyril's bed warmer
        off, dim his bedroom light" -> "... dim Cyril's bedroom light")."""
        owners = self.owners | self.plural_owners
        said: list[str] = []
        out: list[str] = []
        last = 0
        for m in _WORD.finditer(text):
            w = m.group()
            # (an owner said by name alone counts: "bedtime for Posy: close her blind")
            if (_owner(w) or w.endswith("'") or w[0].isupper()) and _stem(w) in owners:
                if owners[_stem(w)] not in said:
                    said.append(owners[_stem(w)])
            elif w.lower() in _PRONOUNS and len(said) == 1 and m.end() < len(text.rstrip()):
                out.append(text[last : m.start()] + said[0])
                last = m.end()
        return "".join(out) + text[last:]

    def _leads_in(self, word: str) -> bool:
        """Whether a word before a one-word run leaves the run to name a thing alone: a word
        of an order or a determiner ("toggle the mixer"), not a word of a name ("the waiting
        area", which two names share, is not the area of one; "Olga's room window blinds" is
        no window fan) nor a word no tool knows ("the angelfish rack" is no breeding rack)."""
        s = _stem(word)
        if s in _BREAKS or s in _DETERMINERS or s in _FILLERS:
            return True
        if any(_fits(word, w) for ws in self.name_words.values() for w in ws):
            return False
        return _plain(s) and s not in HEAD_WORDS

    def _of_its_kind(self, word: str, name: str) -> bool:
        """Whether a word after a short form leaves it naming `name`: not a kind of thing
        the name's tools are not ("office heating" to a light in the "barn office")."""
        s = _stem(word)
        s = s[:-1] if s.endswith("s") and s[:-1] in _PLAIN else s
        own = self.kind_words.get(name, set())
        own = own | {w[:-1] for w in own if w.endswith("s")}
        return all(s not in kind or bool(own & kind) for kind in _KINDS)

    def _ends_there(self, word: str, name: str) -> bool:
        """Whether a word after a one-word run leaves the run to name the thing: not a word
        of another thing ("the bread slicer" is no "shopfront bread counter") nor a place's
        head word the name lacks ("the proving room" is no "proving cabinet humidifier")."""
        s = _stem(word)
        if s == "one":
            return True  # "the laundry one" stands for the thing ("laundry finished light")
        if s in _DETERMINERS or _identifier(word):
            return False  # a verb ("lock the gate"), or one of several ("dormitory A")
        if s in HEAD_WORDS:
            return any(_fits(word, w) for w in self.name_words[name])
        if name not in self.things and s in _SETTING_KINDS:
            return True  # "the amber colour" is the "lantern amber" colour
        return self._known(word)

    def _named(self, run: Sequence[str]) -> str | None:
        """The one name `run` is a short form of, or None."""
        if _stem(run[0]) in _FILLERS or _stem(run[-1]) in _FILLERS:
            return None
        telling = {_stem(w) for w in run if not _plain(_stem(w))}
        if any(telling <= ws for ws in self.tool_words):
            return None  # the words of a tool's own name or description
        if _said(" ".join(run)) in self.whole:
            return None  # a name or setting of its own, said whole
        found = []
        for name, ws in self.name_words.items():
            if not self._tells(run, name):
                continue
            if len(run) == 1 and not self._one_word(run[0], ws, name in self.things):
                continue
            if _short_form_of(run, ws) or _reordered(run, ws):
                found.append(name)
        if len(run) == 1 and len(found) > 1:
            # one word is the head of one name and a modifier in the others: "compressor on"
            # is the "shop compressor", not the "compressor warning" light
            found = [n for n in found if _stem(self.name_words[n][-1]) == _stem(run[0])]
        return found[0] if len(found) == 1 else None

    def written_in_full(self, text: str) -> str:
        """`text` with each short form of a name written as the name (and a name's number
        said in words written as the name writes it: "arch two" is "arch 2")."""
        if not self.names:
            return text
        text = with_numbers_shared(with_name_digits(text, self.things), self.things)
        text = self._pronouns_owned(self._owners_named(self._hyphens_joined(text)))
        taken = [(m.start(), m.end()) for p in self.full for m in p.finditer(text)]
        tokens = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]
        longest = max(len(ws) for ws in self.name_words.values())
        out: list[tuple[int, int, str]] = []
        i = 0
        while i < len(tokens):
            hit = None
            for n in range(min(longest, len(tokens) - i), 0, -1):
                run = tokens[i : i + n]
                start, end = run[0][0], run[-1][1]
                # within one clause, and outside every name said in full
                if re.search(r"[,;.!?]", text[start:end]):
                    continue
                if any(a < end and start < b for a, b in taken):
                    continue
                if any(_stem(w) in _BREAKS for _, _, w in run):
                    continue
                if n == 1 and i and _stem(tokens[i - 1][2]) in ("a", "an"):
                    continue  # "for a shower" names no one thing
                name = self._named([w for _, _, w in run])
                if name is None:
                    continue
                if n == 1 and i and not self._leads_in(tokens[i - 1][2]):
                    continue
                if n == 1 and i and (_stem(tokens[i - 1][2]), _stem(run[0][2])) == ("as", "well"):
                    continue  # "... to twenty one as well" names no "dipping well pump"
                after = tokens[i + n] if i + n < len(tokens) else None
                if after and re.search(r"[,;.!?]", text[end : after[0]]):
                    after = None  # the clause ends with the run ("the gramophone, would you")
                if after and _identifier(after[2]) and _identifier(self.name_words[name][-1]):
                    continue  # "grooming table 3" is no short form of "grooming table 2"
                if n == 1 and after and not self._ends_there(after[2], name):
                    continue
                if after and not self._of_its_kind(after[2], name):
                    continue
                # the kind word said after the run is the name's own ("Ezra's moon light"
                # for "Ezra's moon night-light"), or "one" stands for it ("the laundry one")
                if after and (
                    _ends_with_word(_stem(self.name_words[name][-1]), _stem(after[2]))
                    or _stem(after[2]) == "one"
                ):
                    if not re.search(r"[,;.!?]", text[end : after[1]]):
                        end, n = after[1], n + 1
                hit = (start, end, name, n)
                break
            if hit is None:
                i += 1
                continue
            start, end, name, n = hit
            out.append((start, end, name))
            i += n
        # a name said twice in the same short form is written twice ("the study blinds and
        # the study light"); said in two different pieces ("floodlight on the foredeck") it is
        # left as said
        forms: dict[str, set[str]] = {}
        for start, end, name in out:
            forms.setdefault(name, set()).add(_said(text[start:end]))
        # and a word that is a piece of another name said is that name's piece ("radiator
        # on in the cabin" is the cabin radiator, not the radiator and the garden cabin)
        # (in the same clause: "taproom lights blue, also the glass chiller off" is the
        # taproom's light and the "taproom glass chiller")
        for start, end, name in out:
            said = text[start:end]
            for other in forms:
                if other != name and " " not in said.strip():
                    if any(_fits(said, w) for w in self.name_words[other]) and any(
                        not re.search(r"[,;.!?]", text[min(end, b) : max(start, a)])
                        for a, b, n in out
                        if n == other
                    ):
                        forms[other].add(said)
                        forms[name].add("")
        for start, end, name in reversed(out):
            if len(forms[name]) == 1:
                text = text[:start] + name + text[end:]
        return text


def _loosely_fits(said: str, name_word: str) -> bool:
    """Whether a word no name of the home has can still be this word of a name, more loosely
    than a short form may: a clipped word ("erg" for "ergo", "nav" for "navigation"), another
    ending of the same word ("franker" for "franking", "mister" for "misting") or an owner's
    short name ("Jo's" for "Jolene's")."""
    s, n = _stem(said), _stem(name_word)
    if s == n or not s.isalpha():
        return False
    if _owner(said):
        return _owner(name_word) and len(s) >= 2 and n.startswith(s)
    if _owner(name_word) or _plain(s):
        return False
    if len(s) >= 3 and n.startswith(s):
        return True
    if len(s) >= 4 and n.endswith(s):
        return True
    common = len(os.path.commonprefix([s, n]))
    return len(s) >= 5 and common >= 4 and common >= len(s) - 2


def with_picked_forms(
    text: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> str:
    """`text` with each word that loosely fits a word of a thing the calls pick written as that
    word ("erg room lights to 80" -> "ergo room lights to 80" where a call picks the "ergo
    training room"). Such a word is too loose to name a thing by itself (a clipped word could
    be many), but the model's own pick tells which: the word must be none of the home's
    words (names, settings, tools' names and descriptions) and fit a word of the picked thing's
    name and of no other word of the home's names and settings."""
    picked: set[str] = set()
    by_name = {
        str(t.get("name")): (t.get("parameters") or {}).get("properties") or {} for t in tools
    }
    for call in calls:
        props = by_name.get(str(call.get("name")), {})
        for key, value in (call.get("arguments") or {}).items():
            if isinstance(value, str) and picks_a_thing(key, props.get(key)):
                picked.add(value)
    if not picked:
        return text
    told = {
        _stem(w)
        for t in tools
        for w in _WORD.findall(f"{t.get('name')} {t.get('description') or ''}".replace("_", " "))
    }
    # every word of every name and setting, as written
    value_words = {w for v in set().union(*thing_names(tools)) for w in _WORD.findall(v)}
    known = told | {_stem(w) for w in value_words}

    def sub(m: re.Match[str]) -> str:
        w = m.group()
        if _stem(w) in known or (_stem(w) + "s") in known:
            return w
        after = re.match(r"\s+([\w']+)", text[m.end() :])
        if after and _stem(after.group(1)) in _DETERMINERS:
            return w  # a verb: "charge the clippers" says no "clippers charger"
        fits = {n for n in value_words if _loosely_fits(w, n)}
        if len({_stem(n) for n in fits}) != 1:
            return w
        word = min(fits)
        return word if any(word in _WORD.findall(v) for v in picked) else w

    return _WORD.sub(sub, text)
