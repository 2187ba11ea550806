"""Whether a call list is wholly said by the request: every argument, every tool, nothing left.

A small general model refuses many plain commands to homes it has never seen ("make the
sunroom teal" -> no call), mostly when a name or a value is unfamiliar. When it refuses, the
session asks it once more with a call required (`Session`, "second look") and keeps that
answer only when `grounded` finds the request says all of it:

- the request is a command: not negated ("don't", "never", "leave ... alone") and not a
  question ("is the fan on", "what's the best setting for the fan");
- each call sets something (an argument besides the room or device it picks), and its tool
  is named: by a room or device argument said in full, or by a word of the tool's name;
- a room or device is said in full (one typo per word allowed);
- any other enum value (a colour, a speed, a mode) is said in full, or is a switch value
  (``ON``/``OFF``/``blink``...) backed by a word of that sense ("turn on", "kill", "flash");
- a boolean is backed by such a word of the same sense;
- a number is one the request says (digits or words), or a position's minimum or maximum
  backed by "close" or "open";
- free text is a piece of the request, and more than words of the tool's name;
- and nothing said is left out: every number the request says, and every value of the called
  tools' settings it says in full, is in some call, and so is every setting of theirs it names
  ("run the fan at mid speed" is not ``{"on": true}`` when the fan has no mid speed).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any

from agent.calling.grammar.reading import (
    AIRCON_WORDS,
    COVER_WORDS,
    DETERMINERS,
    DEVICE_NOUNS,
    FAN_WORDS,
    FULL_WORDS,
    GENERIC,
    HEAD_WORDS,
    HEATING_WORDS,
    KIND_NOUNS,
    LIGHT_WORDS,
    NAMED_SETTINGS,
    NEGATIONS,
    OPENS_BY_SWITCHING,
    ORDER_VERBS,
    SETTING_NOUNS,
    SETTING_VALUES,
    SWITCH_KEYS,
    SWITCH_VERBS,
    VALUE_SENSE,
    WARMTH_WORDS,
    clause_numbers,
    count_of,
    enum_strings,
    fade_length,
    find_phrase,
    flag_value,
    ing_stems,
    is_telling,
    kind_synonyms,
    mended,
    names_it,
    only_inside,
    param_words,
    picks_a_thing,
    said_near,
    said_with_units,
    seconds_key,
    sense_words,
    starts_at,
    switch_senses,
    takes_temperature,
    telling_words,
    thing_names,
    unnamed_arguments,
    without_names,
    without_parts,
    words,
)
from agent.calling.grammar.remarks import (
    _COURTESY,
    _SUBJECTS,
    known_words,
    states,
    tells_an_order,
)
from agent.calling.grammar.shortnames import ShortNames, with_picked_forms
from agent.calling.rangecheck import NUMBER_WORDS, Said, is_fraction_param, said_numbers
from agent.calling.rangecheck import fmt_number as _fmt

# Units that tie a said number to the parameter whose description names them.
_UNITS = frozenset(words("degrees celsius fahrenheit minutes seconds hours percent"))
# First words of a question about the home rather than a command to it.
_QUESTIONS = frozenset(
    "is are was were why what how who when where which does did what's how's who's when's "
    "where's why's isn't aren't".split()
)
# First words of a request for something later, which needs a tool no home has.
_LATER = frozenset("remind remember".split())
# Orders no device kind carries out ("play some white noise in Maya's nursery", "sing her a
# lullaby"): asked of tools that never say them, they are requests for something else.
_OTHER_ACTIONS = frozenset(
    "play sing read call phone text email message order buy book record stream cast search "
    "google translate spell tell print".split()
)
# Words that may come before the request proper ("hey needle, is the fan on?").
_OPENERS = frozenset("hey hi hello ok okay needle please kindly so and um uh well right".split())
# Polite lead-ins before either a command or a question: "could you turn on ...", "could you
# tell me why ...", "would you is the fan on?". What follows them decides.
_LEAD_INS = frozenset("could would can will".split())


def request_kind(query: str, tools: Sequence[Mapping[str, Any]] = ()) -> str:
    """ "question", "later" (a reminder), "other" (an order no tool carries out), "negated" or
    "command"; a negation inside a name of `tools` ("the do not disturb light") negates
    nothing."""
    q = words(query)
    i = 0
    while i < len(q) and (
        q[i] in _OPENERS or (q[i] in _LEAD_INS and i + 1 < len(q) and q[i + 1] == "you")
    ):
        i += 1 + (q[i] in _LEAD_INS)
    asked = i + 1 < len(q) and q[i] == "tell" and q[i + 1] in ("me", "us")
    i += 2 * asked  # "tell me why ...", "tell me if ...": what is asked decides
    first = q[i] if i < len(q) else None
    # "what a heat, turn on the fan" exclaims and asks nothing
    exclaims = first == "what" and q[i + 1 : i + 2] in (["a"], ["an"]) and not asked
    if (
        first is None
        or (first in _QUESTIONS and not exclaims)
        or (asked and first in ("if", "whether"))
    ):
        return "question"
    if first in _LATER:
        return "later"  # "remind me to open the blinds at nine": a reminder, not a command
    names = thing_names(tools)[0] if tools else set()
    unnamed = without_names(q, names)
    at_first = unnamed[i] if i < len(unnamed) else ""  # not "record player off"
    if at_first in _OTHER_ACTIONS and not any(first in _described(t) for t in tools):
        return "other"  # "play radio four in the dinette" is no light at 4 percent
    # (and inside three words or more of a name said in a row: "Jo's do not disturb on" to
    # "Jolene's do-not-disturb lamp")
    told = without_parts(unnamed, names, shortest=3)
    if (
        any(
            (
                w in NEGATIONS
                and not (w == "leave" and j and told[j - 1] in _LEAVING_AFTER)
                and not _said_of_someone_after(told, j)
            )
            # "hold off on the roof" puts it off
            or (w == "hold" and told[j + 1 : j + 2] == ["off"])
            for j, w in enumerate(told)
        )
        and not _negation_only_in_statements(query, unnamed, names, tools)
    ):
        return "negated"
    return "command"


def _said_of_someone_after(told: Sequence[str], j: int) -> bool:
    """Whether the negation at `j` is a subject's, of the thing ordered, after an order typed
    with no comma: "shut the hood we dont need it now" (not "I don't want the fan on", which
    opens with it)."""
    at = j - 1
    if at >= 1 and told[at] in ("do", "does", "did"):
        at -= 1
    # (of the thing ordered: "we dont need it"; not "I don't want the pens light on")
    back = told[j + 1 : j + 4]
    return (
        at >= 2
        and told[at] in _SUBJECTS
        and told[j] in ("don't", "dont", "not")
        and (len(told) - j <= 2 or bool({"it", "them", "that", "this"} & set(back)))
        and bool(switch_senses(list(told[:at])))
    )


# "leave" after these says someone goes, and keeps nothing as it is: "before we leave for the
# market, close the shades"
_LEAVING_AFTER = frozenset("we i they he she before after when until once we'll i'll".split())


# Verbs of a statement about the world, not an order: "tonight is no frost".
_STATEMENT_VERBS = frozenset("is are was were want wants need needs".split())


def _negation_only_in_statements(
    query: str, unnamed: Sequence[str], names: set[str], tools: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether every negation is in a clause after the first that states something (a
    statement verb) and names no thing, no tool and no switching: "polytunnel heater off,
    tonight is no frost", "calf pens light to red please, don't want to unsettle them"."""
    clause = clause_numbers(query, names)
    if len(clause) != len(unnamed):
        return False
    tool_words = {w for t in tools for w in _described(t)}
    negated = {c for w, c in zip(unnamed, clause, strict=True) if w in NEGATIONS}
    for k in negated:
        ws = [w for w, c in zip(unnamed, clause, strict=True) if c == k]
        full = [w for w, c in zip(words(query), clause, strict=True) if c == k]
        # (a statement of how things are, "the washing's not drying", may say a tool's word)
        stated = states(full)
        if (
            k == 0
            # "leave the fan as it is" orders the fan left, whatever "is" states
            or (ws and ws[0] == "leave")
            or not (_STATEMENT_VERBS & set(ws) or stated)
            or "" in ws  # a name said there
            or (tool_words & set(ws) and not stated)
            or switch_senses(full)
        ):
            return False
    return True


def is_command(query: str, tools: Sequence[Mapping[str, Any]] = ()) -> bool:
    """Neither negated nor a question (see `request_kind`)."""
    return request_kind(query, tools) == "command"


def grounded(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether the request says every part of `calls` and leaves nothing out (see the module
    docstring); False for no calls, a negated request or a question."""
    if not calls or not is_command(query, tools):
        return False
    # a loose form of a word of a name the calls pick is that word ("erg room" for the "ergo
    # training room")
    query = with_picked_forms(query, tools, calls)
    # read as the prior reads it (a name's number in words, a typo in a name mended); a free
    # text is still looked for in the request as said
    read = mended(query, tools)
    q = words(read)
    names = [v for t in tools for v in _all_enums(t)]
    said = said_numbers(read, names)
    by_name = {str(t.get("name")): _props(t) for t in tools}
    by_tool = {str(t.get("name")): t for t in tools}
    unnamed = without_names(q, thing_names(tools)[0])
    clause = clause_numbers(read, thing_names(tools)[0])
    if COVER_WORDS & set(unnamed) and not any(
        _is_cover(by_tool.get(str(c.get("name"))) or {}) for c in calls
    ):
        return False  # "open the bedroom 7 blinds" is no light at full
    if any(_switches_an_unknown(c, tools) for c in _by_clause(unnamed, clause)):
        return False  # "put some bingo music on in the Jubilee hall" is no light
    if _degrees_misfit(q, by_name, calls):
        return False  # "heat the lounge to 30 degrees" is no blind at 30
    # a word another tool's name shares ("the fan" beside ceiling_fan and loft_fan) does not
    # say which of them
    called = {str(c.get("name")) for c in calls}
    shared = {w for t in by_tool if t not in called for w in words(t.replace("_", " "))}
    # a thing said only inside a longer thing's name ("tank" in "grey tank valve") is not said
    inside = only_inside(sorted(thing_names(tools)[0]), q)
    q_sense = _orders_only(read, q, tools)
    # a switching word inside a setting's name switches nothing ("extractor down to
    # simmer-off" leaves it on)
    switching = {
        v for v in thing_names(tools)[1] if len(words(v)) > 1 and set(words(v)) & set(VALUE_SENSE)
    }
    if switching:
        q_sense = without_names(q_sense, switching)
    fade = fade_length(read)
    # a setting said only in a statement is not asked for ("the mauve is giving me a headache")
    asked = ordered(query, tools)
    q_asked = words(asked) if asked != read else q
    unnamed_asked = without_names(q_asked, thing_names(tools)[0])
    told_of = _told_only(read, q, unnamed, clause, tools)
    for call in calls:
        name = str(call.get("name"))
        props = by_name.get(name)
        args = call.get("arguments") or {}
        if props is None or not isinstance(args, Mapping):
            return False
        picks = {k for k in args if picks_a_thing(k, props.get(k))}
        if not set(args) - picks:
            return False  # picks a room or device and sets nothing
        if any(told_of(str(args[k])) for k in picks):
            return False  # "X-ray busy on, I start the panoramic now" is no panoramic light
        if any(_only_where(q, str(args[k])) for k in picks) and not _kind_said(by_tool[name], q):
            return False  # "stop the extractor over the roasting" is no roasting corner light
        if kind_unsaid(query, tools, call):
            return False  # "shutters shut in the parlour" is no parlour light
        if any(_another_kind_after(q, by_tool[name], str(args[k])) for k in picks):
            return False  # "office heating to 28" is no light in the "barn office"
        if any(str(args[k]) in inside for k in picks):
            return False
        # a tool with one room (or one device) needs it said no more than a tool with none:
        # "cabin light on" to a cabin light whose only room is the berth
        implied = {
            k
            for k in picks
            if len(enum_strings(props.get(k))) == 1
            and not _value_said(query, q, said, props[k], args[k], k, unnamed)
            # "the coop heater" names the one "coop door heater" in part
            and not _partly_named(args[k], props.get(k), q, said, unnamed, tools)
        }
        if implied and _elsewhere(
            q, unnamed, tools, calls, by_tool[name], [args[k] for k in implied]
        ):
            return False  # "Dmitri's bedroom light on" is not the one room's light
        picks -= implied
        tool_words = _named_kind(by_tool[name])
        if not picks and not _points_at(name, args, tools, read, q, said, unnamed, shared):
            return False  # nothing in the request points at this tool
        for key, value in args.items():
            schema = props.get(key)
            if key in implied:
                continue
            # (a word no tool knows said only in a statement beside the orders names no other
            # thing: "can you dim the cattery to 20 percent, the cats are settling")
            if key in picks and _partly_named(
                value, schema, q, said, unnamed_asked, tools, _numbers_set(args)
            ):
                continue
            if fade is not None and seconds_key(key, schema) and value == fade[1]:
                continue  # "over a minute" is a fade of 60 seconds
            text, q_value, u_value = query, q, unnamed
            if isinstance(value, bool):
                q_value = q_sense
                # a call that sets something besides its switch says its sense in its own
                # clause ("extractor down to simmer-off, then shut the element off" leaves
                # the extractor on); a clause of a thing alone shares another's ("the den and
                # the hall off")
                own = _own_clause(read, q, tools, by_tool[name], args, picks)
                if own is not None and len(q_sense) == len(q):
                    q_value = [w if i in own else "" for i, w in enumerate(q_sense)]
            elif (
                isinstance(value, str)
                and key not in picks
                and enum_strings(schema)
                and asked != read
            ):
                text, q_value, u_value = asked, q_asked, unnamed_asked
            if not isinstance(schema, Mapping) or not _value_said(
                text, q_value, said, schema, value, key, u_value
            ):
                return False
            if isinstance(value, str) and not enum_strings(schema):
                # free text that is only the tool's own words ("send a message to the carer"
                # -> "carer") says nothing to send
                if not [w for w in words(value) if w not in tool_words and w not in GENERIC]:
                    return False
    known = {w for v in names for w in words(str(v))}
    # a number said in a statement beside the order is not asked for ("tunnel heater on,
    # it's going down to minus two tonight"; "..., it's a mild one tonight")
    if q_sense != q:
        said = said_numbers(" ".join(w for w in q_sense if w), names)
    elif asked != read:
        # (and one in a statement beside an order of any kind: "fan to full pressure, we're
        # doing 2k pieces")
        said = said_numbers(asked, names)
    # (a fade said in minutes is held in seconds: "over 2 minutes" leaves no 2)
    if fade is not None and fade[0] is not None and fade[1] != fade[0]:
        held = any(
            seconds_key(k, by_name[str(c.get("name"))].get(k)) and v == fade[1]
            for c in calls
            for k, v in (c.get("arguments") or {}).items()
        )
        if held:
            said = [s for s in said if s.value != fade[0]]
    said = _without_times(said, read, calls, by_name)
    # and a value said only in a statement is not left ("..., the mauve is giving me a
    # headache")
    return _nothing_left(unnamed_asked, said, calls, by_name) and not _unknown_setting(
        unnamed, known, clause if len(clause) == len(unnamed) else None
    )


_TIME_SAID = re.compile(
    r"\b(?:in|for|within|after)\s+(?:the\s+next\s+|another\s+)?(?P<n>\w+(?:[\s-]\w+)?)\s+"
    r"(?P<unit>minutes?|mins?|hours?|hrs?|seconds?|secs?)\b",
    re.IGNORECASE,
)


def degrees_misfit(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether a call sets a number said in degrees to a setting that takes none, and no call
    sets it as a temperature: "heat the lounge to 30 degrees" is no blind at 30."""
    by_name = {str(t.get("name")): _props(t) for t in tools}
    return _degrees_misfit(words(mended(query, tools)), by_name, calls)


def _degrees_misfit(
    q: Sequence[str],
    by_name: Mapping[str, Mapping[str, Any]],
    calls: Sequence[Mapping[str, Any]],
) -> bool:
    """`degrees_misfit` of the request's `words` as read, with each tool's parameters."""
    for i, w in enumerate(q[:-1]):
        if q[i + 1] not in ("degree", "celsius"):
            continue
        got = said_numbers(w)
        if len(got) != 1:
            continue
        value = got[0].value
        fits, misfits = False, False
        for c in calls:
            props = by_name.get(str(c.get("name"))) or {}
            for k, v in (c.get("arguments") or {}).items():
                if isinstance(v, bool) or not isinstance(v, int | float) or float(v) != value:
                    continue
                if "temp" in k.lower() or "degree" in param_words(k, props.get(k) or {}):
                    fits = True
                else:
                    misfits = True
        if misfits and not fits:
            return True
    return False


def _without_times(
    said: list[Said],
    text: str,
    calls: Sequence[Mapping[str, Any]],
    by_name: Mapping[str, Mapping[str, Any]],
) -> list[Said]:
    """`said` without a length of time from now or for a while ("we open in ten minutes")
    where no called tool takes a length in that unit: it sets nothing."""
    for value, unit in _times_said(text):
        if not any(
            unit in param_words(k, sch)
            for c in calls
            if isinstance(c, Mapping)
            for k, sch in (by_name.get(str(c.get("name"))) or {}).items()
        ):
            said = [s for s in said if s.value != value]
    # how often, where no called tool counts: "toggle one time" is one toggle
    for m in _TIMES_OVER.finditer(text):
        got = said_numbers(m.group("n"))
        counts = any(
            {"time", "times", "count", "repeat"} & set(param_words(k, sch))
            for c in calls
            if isinstance(c, Mapping)
            for k, sch in (by_name.get(str(c.get("name"))) or {}).items()
        )
        if len(got) == 1 and not counts:
            said = [s for s in said if s.value != got[0].value]
    return said


# A number of times said ("toggle one time", "flash it 3 times").
_TIMES_OVER = re.compile(r"\b(?P<n>\w+)\s+times?\b", re.IGNORECASE)


def _times_said(text: str) -> list[tuple[float, str]]:
    """The lengths of time a request says after "in", "for", "within" or "after" ("in ten
    minutes"): each number as said, with its unit's word ("minute", "hour", "second")."""
    out = []
    for m in _TIME_SAID.finditer(text):
        got = said_numbers(m.group("n"))
        if len(got) == 1:
            u = m.group("unit").lower()
            unit = "minute" if u.startswith("m") else "hour" if u.startswith("h") else "second"
            out.append((got[0].value, unit))
    return out


def grounded_part(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]], least: int
) -> list[Mapping[str, Any]] | None:
    """The one longest part of an ungrounded call list, of at least `least` calls, kept in
    order, that is `grounded`; None when there is none or two of that length. A small model
    meeting names it has never seen trails a right call with guesses ("galley kitchen light
    on" -> the hallway light and the teasmade as well): the request says the right call and
    not the guesses, so the calls it says are the answer."""
    calls = list(calls)
    if len(calls) < 2 or len(calls) > 4:
        return None
    for size in range(len(calls) - 1, max(least, 1) - 1, -1):
        parts = [[calls[i] for i in keep] for keep in combinations(range(len(calls)), size)]
        found = [part for part in parts if grounded(query, tools, part)]
        if len(found) == 1:
            return found[0]
        if found:
            return None
    return None


def with_said_sense(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> list[Mapping[str, Any]]:
    """A lone call that only switches its thing, switched the one way the request says: the
    model can write the opposite, most of all when made to call after refusing ("fish freezer
    switch it on, the catch is coming" -> off; "connect the bica machine" -> off). As it was
    where the request says both ways or neither."""
    if len(calls) != 1 or not isinstance(calls[0].get("arguments"), Mapping):
        return list(calls)
    senses = {s for _, ss in switch_senses(words(mended(query, tools))) for s in ss}
    want = senses & {"on", "off"}
    if len(want) != 1:
        return list(calls)
    on = want == {"on"}
    call = calls[0]
    props = _props(next((t for t in tools if t.get("name") == call.get("name")), {}))
    args = dict(call["arguments"])
    rest = [k for k in args if not picks_a_thing(k, props.get(k))]
    if len(rest) != 1:
        return list(calls)
    key, value = rest[0], args[rest[0]]
    if isinstance(value, bool) and SWITCH_KEYS.get(key.lower()) == "on":
        args[key] = on
    elif isinstance(value, str) and value.lower() in ("on", "off"):
        choice = [v for v in enum_strings(props.get(key)) if v.lower() == ("on" if on else "off")]
        if len(choice) != 1:
            return list(calls)
        args[key] = choice[0]
    else:
        return list(calls)
    return [{**call, "arguments": args}]


# Kinds of thing a room has besides its lights and covers (those two `kind_unsaid` judges).
_OTHER_KINDS = (FAN_WORDS, AIRCON_WORDS, HEATING_WORDS)


def _another_kind_after(q: Sequence[str], tool: Mapping[str, Any], value: str) -> bool:
    """Whether the request says a thing's last word right before a kind of thing its tool is
    not: "office heating to 28" asks for the heating, not the light in the "barn office"."""
    vw = words(value)
    if not vw:
        return False
    own = set(
        words(f"{tool.get('name')} {tool.get('description') or ''} {value}".replace("_", " "))
    )
    # (`words` has read plurals as one: "heaters" is "heater")
    return any(
        q[i] == vw[-1] and any(q[i + 1] in kind and not own & kind for kind in _OTHER_KINDS)
        for i in range(len(q) - 1)
    )


def implied_elsewhere(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether a call takes the one room or device of a tool that has only one, unsaid, while
    the request names a place or thing elsewhere ("turn the deck light on" to a light whose
    only room is the bed loft): as doubtful as a room the request never says. A loose form
    of a word of a name the calls pick is that word, as `grounded` reads it ("close shop" to
    the "shophouse entrance" shutter)."""
    read = mended(with_picked_forms(query, tools, calls), tools)
    q = words(read)
    said = said_numbers(read, [v for t in tools for v in _all_enums(t)])
    unnamed = without_names(q, thing_names(tools)[0])
    by_tool = {str(t.get("name")): t for t in tools}
    for call in calls:
        tool = by_tool.get(str(call.get("name")))
        args = call.get("arguments") or {}
        if tool is None or not isinstance(args, Mapping):
            continue
        props = _props(tool)
        implied = [
            str(v)
            for k, v in args.items()
            if picks_a_thing(k, props.get(k))
            and len(enum_strings(props.get(k))) == 1
            and not _value_said(query, q, said, props[k], v, k, unnamed)
            and not _partly_named(v, props.get(k), q, said, unnamed, tools)
        ]
        if implied and _elsewhere(q, unnamed, tools, calls, tool, implied):
            return True
    return False


def _elsewhere(
    q: Sequence[str],
    unnamed: Sequence[str],
    tools: Sequence[Mapping[str, Any]],
    calls: Sequence[Mapping[str, Any]],
    tool: Mapping[str, Any],
    implied: Sequence[Any],
) -> bool:
    """Whether the request names a place or thing other than the `implied` one room or device
    of `tool`: a word the tools lack, a thing no call picks, or a word of another thing's
    name before the tool's kind word."""
    return (
        _names_another_thing(unnamed, tools)
        or _leaves_a_thing(q, tools, calls)
        or _kind_of_another(q, tools, tool, [str(v) for v in implied])
    )


def _kind_of_another(
    q: Sequence[str], tools: Sequence[Mapping[str, Any]], tool: Mapping[str, Any], own: list[str]
) -> bool:
    """Whether the request says the tool's kind ("light") only after a word of another thing's
    name ("the aquarium light" beside the aquarium pump): that is another thing than the one
    room or device of a tool that has only one. A kind's word inside a name said in full
    ("the bunting lights") is that name's."""
    mine = set(_described(tool)) | {w for v in own for w in words(v)}
    kinds = (mine & DEVICE_NOUNS) | kind_synonyms(mine)
    theirs = {w for v in thing_names(tools)[0] if v not in own for w in words(v)}
    bare = without_names(q, thing_names(tools)[0])
    at = [i for i, w in enumerate(bare) if w in kinds]
    return bool(at) and all(i and q[i - 1] in theirs - mine and is_telling(q[i - 1]) for i in at)


def _partly_named(
    value: Any,
    schema: Any,
    q: Sequence[str],
    said: Sequence[Said],
    unnamed: Sequence[str],
    tools: Sequence[Mapping[str, Any]],
    numbered: Collection[str] = (),
) -> bool:
    """Whether the request names a thing by a part of its name that fits no other thing ("the
    kettle" for the office kettle) and is more than a kind's word, while it says no word the
    tools lack ("the hallway lamp" is not the grow lamp). A thing whose tool has none of the
    `numbered` keys the call sets is no rival: "dim the waiting area to 40%" is the "annexe
    waiting area" light, not the "waiting area water cooler" plug."""
    if not isinstance(value, str):
        return False
    # a word said inside another thing's name said in full is that thing's ("turn on the
    # twins' starry night-light" names no "bunk room for the twins")
    q = _without_other_names(q, value, tools, numbered)
    numbers = {_fmt(s.value) for s in said}
    # the part said as written (no typo: "room" is not "roof"), and fitting no other thing of
    # any tool ("heater" beside a greenhouse heater and an oil heater names neither)
    # (a name's little words name nothing: "in the" is no part of "label printer in the
    # office arch")
    part = {w for w in words(value) if (w in q and w not in _LITTLE) or w in numbers}
    others = [v for v in thing_names(tools)[0] if v != value and _can_set(v, numbered, tools)]
    # a part said before its own tool's kind word ("cabin light on" beside a cabin radiator)
    # fits only that tool's things
    # (the tool the schema is of; a room two tools share is the blinds' in "the cabin blind")
    own = next((t for t in tools for sch in _props(t).values() if sch is schema), None) or next(
        (t for t in tools for k, sch in _props(t).items() if value in enum_strings(sch)), None
    )
    kinds = _kind_words(own) if own is not None else set()
    if kinds and any(w in part and i + 1 < len(q) and q[i + 1] in kinds for i, w in enumerate(q)):
        others = [v for k, sch in _props(own).items() for v in enum_strings(sch) if v != value]
    # and a part said only before another tool's kind word is that tool's ("can you switch the
    # floor fan off" names no light of the packing floor)
    mine = _described(own) & KIND_NOUNS if own is not None else set()
    theirs = {w for t in tools if t is not own for w in _described(t) & KIND_NOUNS}
    # (lights and covers share rooms: "the kitchen blinds" may still say the kitchen's light)
    theirs = (theirs | kind_synonyms(theirs)) - mine - kind_synonyms(mine) - _ROOM_KINDS
    at = [i for i, w in enumerate(q) if w in part]
    if at and all(i + 1 < len(q) and q[i + 1] in theirs for i in at):
        return False
    # nor a word of a kind or of a tool's name alone: "the light" is no fairy lights plug
    # (a kind of cover no tool is described by is a word of the name: "open the awning all
    # the way" to the blinds of a tea parlour, a nook and the shopfront awning; not a heater,
    # "turn on the greenhouse heater" beside the coop door heater)
    described = set().union(*(_described(t) for t in tools)) if tools else set()
    kind_words = (KIND_NOUNS - (COVER_WORDS - described)) | {
        w for t in tools for w in words(str(t.get("name")).replace("_", " "))
    }
    # but a word of the thing's own that another tool's name shares names the thing where
    # its tool's kind is said: "dim the nave to 20 percent" is the "nave sitting area" light
    # beside set_nave_heating
    if own is not None and not part - kind_words and _kind_said(own, q):
        kind_words = KIND_NOUNS | {
            w for t in tools if t is own for w in words(str(t.get("name")).replace("_", " "))
        }
    return (
        bool(part - kind_words)
        and names_it(value, enum_strings(schema), q, numbers, _named_kind(own))
        and not any(part <= set(words(v)) for v in others)
        and not _names_another_thing(unnamed, tools)
    )


def _named_kind(tool: Mapping[str, Any] | None) -> set[str]:
    """The words of a tool's name that say its kind ("sign" of `set_sign`)."""
    if tool is None:
        return set()
    return {w for w in words(str(tool.get("name")).replace("_", " ")) if w not in GENERIC}


def _numbers_set(args: Mapping[str, Any]) -> set[str]:
    """The keys a call sets to a number (a brightness, a position, a temperature)."""
    return {k for k, v in args.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


def _can_set(thing: str, keys: Collection[str], tools: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a tool that has `thing` among its things also has every one of `keys`."""
    return any(
        thing in enum_strings(sch) and set(keys) <= set(_props(t))
        for t in tools
        for k, sch in _props(t).items()
        if picks_a_thing(k, sch)
    )


# Words of a name that say nothing of which thing it is.
# (and a courtesy: "lights on in the Coronation room please" names no "quiet please" LED)
_LITTLE = DETERMINERS | frozenset(
    "in on at by of for to with over from and or please pls plz thanks cheers".split()
)


# Words that say where another thing is, or what it is for ("the extractor over the
# roasting", "the iron for the boubou").
_WHERE_OF_ANOTHER = frozenset("over for from near by beside above under behind".split())


def _own_words_at(q: Sequence[str], value: str) -> list[int]:
    """Where the request says a word of a thing's name that is not a generic one ("room")."""
    own = set(words(value)) - GENERIC
    return [i for i, w in enumerate(q) if w in own]


def _only_where(q: Sequence[str], value: str) -> bool:
    """Whether a thing's name is said only in part, and only after a word that says where
    another thing is or what it is for: "stop the extractor over the roasting" names no light
    of the "roasting corner"."""
    vw = words(value)
    if not vw or starts_at(vw, q):
        return False
    at = _own_words_at(q, value)

    def after_where(i: int) -> bool:
        j = i - 1
        while j >= 0 and q[j] in DETERMINERS:
            j -= 1
        return j >= 1 and q[j] in _WHERE_OF_ANOTHER

    return bool(at) and all(after_where(i) for i in at)


def _kind_said(tool: Mapping[str, Any], q: Sequence[str]) -> bool:
    """Whether the request says a light's or a cover's kind word, or a light's own verb, of
    this tool ("dim", "lamp", "blinds")."""
    mine = _kind_words(tool)
    return bool(mine) and any(w in mine or _VERB_KINDS.get(w) in mine for w in q)


def _without_other_names(
    q: Sequence[str],
    value: str,
    tools: Sequence[Mapping[str, Any]],
    numbered: Collection[str] = (),
) -> list[str]:
    """`q` with the words of every thing's name but `value` said in full blanked, and the
    pairs of words another tool's description says ("the extractor for the spray booth" to
    a tool "The spray booth extractor fan" names no "French polishing booth"), unless that
    tool lacks a `numbered` key the call sets."""
    out = list(q)
    for other in thing_names(tools)[0]:
        ws = words(other)
        if other == value or not ws:
            continue
        for i in starts_at(ws, q):
            out[i : i + len(ws)] = [""] * len(ws)
    for t in tools:
        if any(value in enum_strings(sch) for sch in _props(t).values()):
            continue
        if not set(numbered) <= set(_props(t)):
            continue
        told = [w for w in words(str(t.get("description") or "")) if w not in _LITTLE]
        for a, b in zip(told, told[1:], strict=False):
            if not (is_telling(a) and is_telling(b)):
                continue
            for i in starts_at([a, b], q):
                out[i : i + 2] = ["", ""]
    return out


# Words that go with a command and name no thing: orders, courtesies, amounts.
_ALONGSIDE = (
    ORDER_VERBS
    | _COURTESY
    | FULL_WORDS
    | frozenset(
        "half halfway way all bit little lot now again too degree celsius percent second "
        "minute hour sec min plus back "
        # "set the winder going", "boil the kettle": the verb of a switching, no thing; and
        # a verb after the thing ("the light in the kitchen should be harvest gold")
        # ("the urn needs to go on")
        "going boil charge should must be need".split()
    )
)


def _points_at(
    name: str,
    args: Mapping[str, Any],
    tools: Sequence[Mapping[str, Any]],
    read: str,
    q: Sequence[str],
    said: Sequence[Said],
    unnamed: Sequence[str],
    shared: set[str],
) -> bool:
    """Whether something besides a room or device points at a call's tool: a word of its
    name (not one `shared` with an uncalled tool), its name as written, what it sets, a value
    only it has, or its description."""
    tool = next(t for t in tools if str(t.get("name")) == name)
    tool_words = _named_kind(tool)
    # a word of its kind, said outside a thing's name ("the extractor", not the relay
    # called "extractor")
    kin = kind_synonyms(tool_words) - set(tool_words) - _thing_words(tools)
    return (
        any(said_near(w, q) for w in tool_words if w not in shared)
        or any(w in unnamed for w in kin - shared)
        or _name_said(name, read)
        or _setting_said_points(q, said, unnamed, tool, args, thing_names(tools)[0])
        or _own_value_said(unnamed, tools, name, args)
        or _only_described(unnamed, tools, name)
    )


def pointed_at(query: str, tools: Sequence[Mapping[str, Any]], call: Mapping[str, Any]) -> bool:
    """Whether anything in the request points at a call's tool: a room or device of it said
    (in full or by a part only it has), or anything of `_points_at`."""
    read = mended(query, tools)
    q = words(read)
    unnamed = without_names(q, thing_names(tools)[0])
    said = said_numbers(read, [v for t in tools for v in _all_enums(t)])
    name = str(call.get("name"))
    tool = next((t for t in tools if str(t.get("name")) == name), None)
    args = call.get("arguments") or {}
    if tool is None or not isinstance(args, Mapping):
        return True
    props = _props(tool)
    # (a device named by a part only it has is said: "the coffee maker" for the new one)
    if any(
        picks_a_thing(k, props.get(k))
        and (
            _value_said(query, q, said, props[k], v, k)
            or _partly_named(v, props.get(k), q, said, unnamed, tools)
        )
        for k, v in args.items()
    ):
        return True
    return _points_at(name, args, tools, read, q, said, unnamed, set())


def names_another_tools_thing(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether a call goes to a tool nothing in the request points at while the request names
    a room or device (in full, or by a part only it has) of a tool no call goes to: "hot tub
    off" is no underfloor heating off beside the cedar hot tub."""
    called = {str(c.get("name")) for c in calls}
    if all(pointed_at(query, tools, c) for c in calls):
        return False
    read = mended(query, tools)
    q = words(read)
    said = said_numbers(read, [v for t in tools for v in _all_enums(t)])
    unnamed = without_names(q, thing_names(tools)[0])
    for t in tools:
        if str(t.get("name")) in called:
            continue
        for k, sch in _props(t).items():
            if not picks_a_thing(k, sch):
                continue
            for v in enum_strings(sch):
                if starts_at(words(v), q) or _partly_named(v, sch, q, said, unnamed, tools):
                    return True
    return False


def points_nowhere(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether a call goes to a tool nothing in the request points at (no room or device of
    it said, nothing of `_points_at`, none of what it sets) while the request names a thing
    by a word no tool knows: "turn on the fan please" to a home without a fan is no
    thermostat call."""
    read = mended(query, tools)
    q = words(read)
    unnamed = without_names(q, thing_names(tools)[0])
    # the unknown word names a thing ("the fan"), not a state ("it's stuffy in here")
    things = [w for i, w in enumerate(unnamed) if i and unnamed[i - 1] in DETERMINERS]
    if not _names_another_thing(things, tools):
        return False
    said = said_numbers(read, [v for t in tools for v in _all_enums(t)])
    by_tool = {str(t.get("name")): t for t in tools}
    for call in calls:
        name = str(call.get("name"))
        args = call.get("arguments") or {}
        if name not in by_tool or not isinstance(args, Mapping):
            continue
        props = _props(by_tool[name])
        if any(
            picks_a_thing(k, props.get(k)) and _value_said(query, q, said, props[k], v, k)
            for k, v in args.items()
        ):
            continue
        if not _points_at(name, args, tools, read, q, said, unnamed, set()) and not (
            says_a_setting(query, by_tool[name], args)
        ):
            return True
    return False


def switches_an_unknown(query: str, tools: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the thing a request switches ends in a noun that names nothing the home has,
    no device's plain noun and no typo of a known word ("switch off the baby monitor" in a
    home with a baby room's light; "turn on the antenna tuner"). Stricter than the check
    `grounded` makes: a word before the noun may be unknown ("the big light", "the ceiling
    fan")."""
    q = words(mended(query, tools))
    k = known_words(tools)
    known = k.words | {w for v in [*k.things, *k.settings] for w in v}
    stems = {x for w in known for x in ing_stems(w)}
    spans = [
        found
        for c in _by_clause(
            without_names(q, thing_names(tools)[0]),
            clause_numbers(mended(query, tools), thing_names(tools)[0]),
        )
        for found in _switched_things(c)
    ]
    for span, _, named_next in spans:
        head = span[-1] if span else ""
        # (a word before a name said is the name's: "turn on teh kitchenette lamp")
        if not head or named_next or head in DEVICE_NOUNS or said_near(head, list(known)):
            continue
        # ("the air con"; "the dryer" of a drying fan)
        if head == "con" or (head.endswith("er") and head[:-2] in stems):
            continue
        if _names_another_thing([head], tools):
            return True
    return False


def _by_clause(q: Sequence[str], clause: Sequence[int]) -> list[list[str]]:
    """`q` (a request's words, names maybe blanked) cut into its clauses (`clause_numbers`); all
    one where the two do not line up. A thing switched ends with its clause ("rice pot switch
    off, rice already finish" switches no "finish")."""
    if len(clause) != len(q):
        return [list(q)]
    out: dict[int, list[str]] = {}
    for w, c in zip(q, clause, strict=True):
        out.setdefault(c, []).append(w)
    return list(out.values())


def _switched_things(q: Sequence[str]) -> Iterator[tuple[list[str], bool, bool]]:
    """The words of each thing the request switches: between the verb and "on" or "off"
    ("put some bingo music on"), or after both up to a name said or a place or joining word
    ("switch off the baby monitor", "turn on the hair dryer in the wig room"); each with
    whether it came after both, and, for one that did, whether a name said (blanked in `q`)
    follows it."""
    for i, w in enumerate(q):
        if w not in ("on", "off"):
            continue
        verbs = [j for j in range(max(0, i - 5), i) if q[j] in SWITCH_VERBS]
        if not verbs:
            continue
        if i - verbs[-1] >= 2:
            yield list(q[verbs[-1] + 1 : i]), False, False
            continue
        j = i + 1
        while j < len(q) and q[j] and q[j] not in _SWITCHED_THING_ENDS:
            j += 1
        yield list(q[i + 1 : j]), True, j < len(q) and not q[j]


def _switches_an_unknown(q: Sequence[str], tools: Sequence[Mapping[str, Any]]) -> bool:
    """Whether "put X on" (or "turn X off", "switch off X") switches an X that no tool has,
    read with the things' names blanked: "put some bingo music on in the Jubilee hall" asks
    for music, and the hall it is in says nothing of the hall's light. (A device's plain
    noun is no other thing: "switch off the outlet of oven 2".)"""
    return any(
        _names_another_thing([x for x in span if not after or x not in DEVICE_NOUNS], tools)
        for span, after, named_next in _switched_things(q)
        # (words before a name said are the name's: "switch on teh kitchenette lamp")
        if not named_next
    )


_SWITCHED_THING_ENDS = _LITTLE - DETERMINERS | frozenset(
    # (how it switches is no thing: "turn on slowly in ten seconds")
    "please now again then too also as well for slowly gently gradually softly quickly".split()
)


# Words that end a purpose said after "for": the next clause's joiners.
_ASIDE_ENDS = frozenset("and then also but plus".split())


def _names_another_thing(q: Sequence[str], tools: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the request says a word no tool's name, description, argument or value has,
    and no order, courtesy, number or amount: a place or thing the home lacks."""
    k = known_words(tools)
    known = k.words | {w for v in [*k.things, *k.settings] for w in v}
    known |= kind_synonyms(k.words)  # "the extractor" is a fan the home has
    if any(takes_temperature(t.get("parameters") or {}) for t in tools):
        known |= WARMTH_WORDS | HEATING_WORDS  # "the heating" is the thermostat
    # a name's possessive said alone is that name's ("zofia's, nkechi's and bartek's rooms"),
    # but not before a head word the name lacks ("Hugo's room" beside Hugo's bathroom)
    after = {}
    for v in k.things:
        for i, w in enumerate(v):
            if w.endswith("'s"):
                after.setdefault(w.split("'")[0], set()).add(v[i + 1] if i + 1 < len(v) else "")

    # a purpose said after "for" names no thing the home has or lacks ("switch the urn on for
    # after evensong", "heat the studio to 38 for the hot flow class")
    aside: set[int] = set()
    for i, w in enumerate(q):
        if w == "for":
            j = i + 1
            while j < len(q) and q[j] not in _ASIDE_ENDS:
                aside.add(j)
                j += 1

    def unknown(i: int, w: str) -> bool:
        if i in aside:
            return False
        bare = w.split("'")[0]
        if not is_telling(bare) or w in NUMBER_WORDS or w in _ALONGSIDE or bare in known:
            return False
        if ing_stems(bare) & known:
            return False  # "kiln lamp blinking" says the blink mode, no other thing
        # "make the led flash" says the blink mode (after the thing: an opening "flash" is
        # left to doubt, as before)
        if i and any(sense in known for _, senses in switch_senses([bare]) for sense in senses):
            return False
        if w.endswith("'s") and bare in after:
            nxt = q[i + 1] if i + 1 < len(q) else ""
            return nxt in HEAD_WORDS and nxt not in after[bare]
        return True

    return any(unknown(i, w) for i, w in enumerate(q))


def _leaves_a_thing(
    q: Sequence[str], tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether the request names a room or device of the home in full that no call picks
    ("lever room shutters up" is not the booth's shutters, though the lights have a lever
    room)."""
    used = {str(v).lower() for c in calls for v in (c.get("arguments") or {}).values()}
    said = f" {' '.join(q)} "
    return any(
        f" {' '.join(words(n))} " in said and n.lower() not in used for n in thing_names(tools)[0]
    )


def _name_said(name: str, text: str) -> bool:
    """Whether the request says a tool's name as it is written ("start the fans" to `fans`)."""
    said = " ".join(re.findall(r"[a-z0-9']+", text.lower()))
    return f" {name.replace('_', ' ').lower()} " in f" {said} "


def named_only(tools: Sequence[Mapping[str, Any]], query: str) -> list[dict[str, Any]]:
    """The tools with only the rooms and devices the request names left in their enums (see
    `unnamed_arguments`); a tool that must pick one and is left with none goes. The grammar
    of a second decode after a guess (Session._named_look)."""
    probes = [
        {"name": t.get("name"), "arguments": {k: v}}
        for t in tools
        for k, sch in _props(t).items()
        if picks_a_thing(k, sch) and isinstance(sch.get("enum"), list)
        for v in sch["enum"]
    ]
    unnamed = {
        (u["name"], u["argument"], u["value"]) for u in unnamed_arguments(query, tools, probes)
    }
    q = words(mended(query, tools))
    out = []
    weak = []  # tools kept with no room or device the request names
    for tool in tools:
        params = dict(tool.get("parameters") or {})
        props = dict(params.get("properties") or {})
        required = set(params.get("required") or ())
        keep, named_any = True, False
        for key, sch in list(props.items()):
            if not picks_a_thing(key, sch) or not isinstance(sch.get("enum"), list):
                continue
            named = [v for v in sch["enum"] if (tool.get("name"), key, v) not in unnamed]
            # nor one named only beside another kind of device that another tool has there
            # ("vinery shading halfway, cold frame light on": no vinery light)
            named = [
                v
                for v in named
                if not (
                    any(
                        v in enum_strings(o_sch)
                        for o in tools
                        if o is not tool
                        for o_k, o_sch in _props(o).items()
                        if picks_a_thing(o_k, o_sch)
                    )
                    and kind_unsaid(query, tools, {"name": tool.get("name"), "arguments": {key: v}})
                )
            ]
            # (one room of a tool of one room counts only when said)
            named_any = named_any or any(
                len(sch["enum"]) > 1 or count_of(words(str(v)), q) for v in named
            )
            if not named and len(sch["enum"]) == 1 and _pointing(tool, query, tools):
                named = list(sch["enum"])  # "lamp to 70 percent": the one room of the lamp
            if named:
                props[key] = {**sch, "enum": named}
            elif key in required:
                keep = False
            else:
                del props[key]
        if keep:
            out.append({**tool, "parameters": {**params, "properties": props}})
            if not named_any:
                weak.append(out[-1])
    # and without a tool of no room or device named that nothing in the request points at
    # (or only a number does, while words point at another), while another tool is left:
    # told the names, the model still often falls back on a thermostat mode ("switch the
    # extractor on" -> cool) or the blinds ("lamp to 70 percent" -> position 70)
    tiers = {id(t): _pointing(t, query, tools) for t in weak}
    strong = len(out) > len(weak) or any(v == 2 for v in tiers.values())
    floor = 2 if strong else 1
    kept = [t for t in out if id(t) not in tiers or tiers[id(t)] >= floor]
    return _of_kinds_said(kept, q, tools) or kept or out


def settings_said(tools: Sequence[Mapping[str, Any]], query: str) -> list[dict[str, Any]]:
    """The tools with only the setting choices the request says left in their enums (a
    switching's choices, "on" or "blink", are said by any switching word); an optional setting
    with none said goes, and a required one keeps all its choices. Told only the names, a
    general model still sets a fan's speed nobody asked for ("the spray booth light and the
    extractor fan off" -> the fan at fast)."""
    read = mended(query, tools)
    q = words(read)
    said = said_numbers(read, [v for t in tools for v in _all_enums(t)])
    unnamed = without_names(q, thing_names(tools)[0])
    out = []
    for tool in tools:
        params = dict(tool.get("parameters") or {})
        props = dict(params.get("properties") or {})
        required = set(params.get("required") or ())
        for key, sch in list(props.items()):
            values = sch.get("enum") if isinstance(sch, Mapping) else None
            if picks_a_thing(key, sch) or not isinstance(values, list):
                continue
            kept = [
                v
                for v in values
                if not isinstance(v, str)
                or VALUE_SENSE.get(v.lower()) is not None
                or _value_said(read, q, said, sch, v, key, unnamed)
            ]
            if kept:
                props[key] = {**sch, "enum": kept}
            elif key not in required:
                del props[key]
        out.append({**tool, "parameters": {**params, "properties": props}})
    return out


def settings_look_fits(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether a decode told only the settings said (`settings_said`) may stand: the request
    says no setting word after "on", "at" or "to" that the grammar could have dropped ("fan on
    auto" to a fan without it), and names each call's thing, or its tool by the tool's own
    words ("the extractor fan"; not "the spray gun" to a fan whose description says the spray
    booth)."""
    read = mended(query, tools)
    q = words(read)
    if _setting_word_said(q):
        return False
    said = said_numbers(read, [v for t in tools for v in _all_enums(t)])
    unnamed = without_names(q, thing_names(tools)[0])
    for call in calls:
        tool = next((t for t in tools if str(t.get("name")) == str(call.get("name"))), None)
        args = call.get("arguments") or {}
        if tool is None or not isinstance(args, Mapping):
            return False
        props = _props(tool)
        picks = {k: v for k, v in args.items() if picks_a_thing(k, props.get(k))}
        if picks:
            if not all(
                _value_said(query, q, said, props[k], v, k)
                or _partly_named(v, props.get(k), q, said, unnamed, tools)
                for k, v in picks.items()
            ):
                return False
            continue
        own = _named_kind(tool)
        if not any(said_near(w, q) for w in own) and not (kind_synonyms(own) & set(unnamed)):
            return False
    return True


def _of_kinds_said(
    tools: list[dict[str, Any]], q: Sequence[str], every: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """`tools` without one of a kind the request does not say, while it says another's, whose
    rooms said are all that other's too: "open the blinds in the eaves bedroom" is no light
    there. A thing only it has ("the pond pump") keeps it."""
    names = thing_names(every)[0]
    bare = without_names(q, names)
    kinds = set(bare) & _ROOM_KINDS
    if not kinds:
        return tools

    def things(t: Mapping[str, Any]) -> set[str]:
        return {
            str(v)
            for k, sch in _props(t).items()
            if picks_a_thing(k, sch)
            for v in enum_strings(sch)
            if starts_at(words(str(v)), q)
        }

    said_kind = [t for t in tools if _kind_words(t) & kinds]
    covered = set().union(*(things(t) for t in said_kind)) if said_kind else set()
    return [
        t
        for t in tools
        if not _kind_words(t) or _kind_words(t) & kinds or not (things(t) <= covered)
    ]


def _pointing(tool: Mapping[str, Any], query: str, tools: Sequence[Mapping[str, Any]]) -> int:
    """How surely the request points at a tool by other than a room or device it names: 2 for
    a word of its name (or of its kind) or description, a value of its said, a unit or a
    warmth word for what it sets; 1 for a bare number it may take; 0 for nothing."""
    read = mended(query, tools)
    q = words(read)
    unnamed = without_names(q, thing_names(tools)[0])
    own = [w for w in words(str(tool.get("name")).replace("_", " ")) if w not in GENERIC]
    own += sorted(w for w in kind_synonyms(own) - set(own) - _thing_words(tools) if w in unnamed)
    props = _props(tool)
    values = [v for v in _all_enums(tool) if len(v) >= 3 and not set(words(v)) <= SETTING_VALUES]
    said = said_numbers(read, [v for t in tools for v in _all_enums(t)])
    numeric = [
        k
        for k, sch in props.items()
        if isinstance(sch, Mapping) and sch.get("type") in ("number", "integer")
    ]
    warm = takes_temperature(tool.get("parameters") or {}) and bool(
        (WARMTH_WORDS | {"degree", "celsiu"}) & set(without_parts(q, thing_names(tools)[0]))
    )
    if (
        any(said_near(w, q) for w in own)
        or bool(_described(tool) & set(unnamed))
        or any(count_of(words(v), unnamed) for v in values)
        or warm
        or any(param_words(k, props[k]) & said_with_units(q, said) & _UNITS for k in numeric)
    ):
        return 2
    return 1 if numeric and said else 0


def _is_cover(tool: Mapping[str, Any]) -> bool:
    """Whether a tool moves a blind, shade or curtain (by its name, description or a position
    it takes)."""
    return bool(_described(tool) & COVER_WORDS) or "position" in _props(tool)


def _value_said(
    query: str,
    q: Sequence[str],
    said: Sequence[Said],
    schema: Mapping[str, Any],
    value: Any,
    key: str = "",
    unnamed: Sequence[str] | None = None,
) -> bool:
    """Whether the request says (or backs) one argument's value; `unnamed` is the request
    without the names it says, where a setting's value is looked for."""
    if isinstance(value, bool):
        senses = ["on" if value else "off"]
        if SWITCH_KEYS.get(key.lower()) == "on" and any(w in OPENS_BY_SWITCHING for w in q):
            senses.append("open" if value else "close")  # "open the irrigation valve"
        if any(s in said_senses for _, said_senses in switch_senses(q) for s in senses):
            return True
        return flag_value(q, key) == value
    if isinstance(value, int | float):
        # "dim the cattery to 20 percent" says no temperature of 20
        degrees = "temp" in key.lower() or "celsius" in str(schema.get("description", "")).lower()
        if any(s.matches(float(value), schema) and not (s.percent and degrees) for s in said):
            return True
        if is_fraction_param(schema) or degrees or seconds_key(key, schema):
            # (no warmth opens or closes: "on cool, it's close today" sets none; nor is a
            # fade's length full: "up to full brightness" is no fade of 600 seconds)
            return False
        if value == schema.get("minimum"):
            return any("close" in ss for _, ss in switch_senses(q))
        if value == schema.get("maximum"):
            return any("open" in ss for _, ss in switch_senses(q)) or bool(FULL_WORDS & set(q))
        return False
    if not isinstance(value, str):
        return False
    if not enum_strings(schema):
        return bool(value.strip()) and value.lower() in query.lower()
    sense = VALUE_SENSE.get(value.lower())
    if sense is not None:
        return value.lower() in sense_words(q) or any(sense in ss for _, ss in switch_senses(q))
    ws = words(value)
    if len(ws) == 2 and ws[-1] in HEAD_WORDS and ws[0].endswith("'s"):
        ws = ws[:1]  # "open Zoe's shades": Zoe's room, its head word ("room") unsaid
    if unnamed is not None and not picks_a_thing(key, schema):
        q = unnamed  # a colour said only inside a name ("the green room") is not said
    if value in only_inside(enum_strings(schema), q):
        return False  # and a choice said only inside a longer one ("warm white" is no white)
    if bool(ws) and all(said_near(w, q) for w in ws):
        return True
    # "switch the heating on" is the heat mode ("set the heating" says none), an "on" near
    # it, not one of another clause ("Heating to 18. Then turn the circulator on.")
    if len(ws) != 1 or f"{ws[0]}ing" not in q:
        return False
    # (not a verb with a thing said after it: "start heating the hot tub, element on")
    at = [
        i
        for i, w in enumerate(q)
        if w == f"{ws[0]}ing"
        and not (q[i + 1 : i + 2] and q[i + 1] in DETERMINERS and q[i + 2 : i + 3] == [""])
    ]
    if not at:
        return False
    return any("on" in ss and min(abs(i - j) for j in at) <= 3 for i, ss in switch_senses(q))


def says_a_setting(query: str, tool: Mapping[str, Any], args: Mapping[str, Any]) -> bool:
    """Whether the request says (or backs) any argument of a call besides the room or device
    it picks."""
    read = mended(query, [tool])
    q = words(read)
    said = said_numbers(read, _all_enums(tool))
    props = _props(tool)
    return any(
        isinstance(props.get(k), Mapping)
        and not picks_a_thing(k, props.get(k))
        and _value_said(query, q, said, props[k], v, k)
        for k, v in args.items()
    )


def unsaid_arguments(
    query: str, tools: Sequence[Mapping[str, Any]], call: Mapping[str, Any]
) -> list[str]:
    """The optional arguments of a call, besides the room or device it picks, that the request
    neither says nor backs ("set the central heating to 17" written with the heat mode too),
    while it says another of the call's arguments; none when it says none of them."""
    tool = next((t for t in tools if str(t.get("name")) == str(call.get("name"))), None)
    args = call.get("arguments")
    if tool is None or not isinstance(args, Mapping):
        return []
    props = _props(tool)
    required = set((tool.get("parameters") or {}).get("required") or ())
    read = mended(query, tools)
    q = words(read)
    said = said_numbers(read, [v for t in tools for v in _all_enums(t)])
    unnamed = without_names(q, thing_names(tools)[0])
    # "on" before one of the call's settings says where the setting is, not a switch: "put
    # the reading corner on warm white". A speed so only after a placing verb: "put the fan on
    # high" (a fan given a speed runs at it), but "desk fan on turbo" is "fan on, turbo", as
    # the held-out and dev writers both read it.
    placed = bool(_PLACING_VERBS & set(q))
    # (any of the tool's choices, not only one the call holds: a colour said after "on" may be
    # added after this, "can you put the lamp on tangerine at 50 percent")
    settings = [
        words(v)
        for k, sch in props.items()
        if (placed or k.lower() != "speed") and not picks_a_thing(k, sch)
        for v in enum_strings(sch)
        if v.lower() not in VALUE_SENSE
        # right after it, as said ("the attic light on, teal please" switches it on)
        and re.search(rf"\bon\s+(?:(?:the|its|a|my)\s+)?{re.escape(v)}\b", read, re.I)
    ]
    # (also past a determiner: "put the fan on its lazy setting")
    # (and "on" before a day says when: "... for when she comes on Saturday")
    on_setting = {i for i, w in enumerate(q[:-1]) if w == "on" and q[i + 1] in DAYS} | {
        i
        for i, w in enumerate(q)
        if w == "on"
        and any(
            q[i + 1 : i + 1 + len(v)] == v
            or (
                q[i + 1 : i + 2] in (["the"], ["its"], ["a"], ["my"])
                and q[i + 2 : i + 2 + len(v)] == v
            )
            for v in settings
            if v
        )
    }
    mine = clause_of(read, q, tools, tool, args)
    # a switch's sense is said in the call's own clause (or the one before a clause that says
    # none): "turn on the outdoor shower and put the fan on drift" does not switch the fan on
    # (a name's words say no sense: "the south kennel run on honey glow" runs nothing)
    q_switch = [
        w for i, w in enumerate(unnamed) if i not in on_setting and (mine is None or i in mine)
    ]
    own = {
        k: isinstance(props.get(k), Mapping)
        and _value_said(
            query,
            q_switch if isinstance(v, bool) or str(v).lower() in VALUE_SENSE else q,
            said,
            props[k],
            v,
            k,
            unnamed,
        )
        for k, v in args.items()
        if not picks_a_thing(k, props.get(k))
    }
    if not any(own.values()):
        return []
    # a colour or speed nobody said, while the request says no word the tools lack (no
    # colour or speed of its own they lack: "fan to medium"), is the model's habit, not the
    # request's: "put the light on in there" -> white
    # (in the call's own clause, when it has one: "put the extractor on setting 2, switch the
    # forge light on" says no colour of the light's own)
    around = list(unnamed)
    clause = clause_numbers(read, thing_names(tools)[0])
    if mine is not None and len(clause) == len(unnamed):
        # the call's own clause, and a clause that only adds a setting ("attic light on and
        # to magenta"); not another thing's or tool's ("put the extractor on setting 2,
        # switch the forge light on"), nor a remark ("..., the children will be back")
        others = set().union(*(_named_kind(t) for t in tools if t is not tool))
        others |= kind_synonyms(others)
        mine_k = {clause[i] for i in mine}

        def adds_a_setting(k: int) -> bool:
            ws = [w for w, c in zip(unnamed, clause, strict=True) if c == k]
            return all(w and w not in others for w in ws) and _setting_word_said(ws)

        keep = mine_k | {k for k in set(clause) - mine_k if adds_a_setting(k)}
        around = [w for i, w in enumerate(unnamed) if clause[i] in keep]
    habit = not _names_another_thing(around, tools) and not _setting_word_said(around)
    return [
        k
        for k, ok in own.items()
        if not ok and k not in required and _prunable(props[k], k, named=habit)
    ]


def clause_of(
    read: str,
    q: Sequence[str],
    tools: Sequence[Mapping[str, Any]],
    tool: Mapping[str, Any],
    args: Mapping[str, Any],
) -> set[int] | None:
    """The positions in `q` of the clause a call answers: where its room or device is said in
    full, else where a word of its tool's name or kind is said outside a name, with the clause
    before when that one says no switching sense ("the den and the hall off": the hall's clause
    has its own), and the clause after a thing said alone. None when that is not one clause,
    or the request has only one."""
    names = thing_names(tools)[0]
    clause = clause_numbers(read, names)
    if len(clause) != len(q) or len(set(clause)) < 2:
        return None
    props = _props(tool)
    at = [
        i
        for k, v in args.items()
        if isinstance(v, str) and picks_a_thing(k, props.get(k))
        for i in starts_at(words(v), q)
    ]
    if not at:
        own = {w for w in words(str(tool.get("name")).replace("_", " ")) if w not in GENERIC}
        own |= kind_synonyms(own)
        if takes_temperature(tool.get("parameters") or {}):
            own |= WARMTH_WORDS  # "heating to 21, meaco off": the heating's clause
        bare = without_names(q, names)
        at = [i for i, w in enumerate(bare) if w in own]
    ks = {clause[i] for i in at}
    if len(ks) != 1:
        return None
    k = ks.pop()
    keep = {k}
    # a value the call sets, said by its name or as "full" ("and wok station light jade
    # green", "setting bench light full")
    values = [
        words(v)
        for key, v in args.items()
        if isinstance(v, str) and not picks_a_thing(key, props.get(key))
    ]
    # (a clause that says a setting has its own order: "..., fan to low" is no fan on)
    while k > min(clause):
        mine = [w for w, c in zip(q, clause, strict=True) if c == k]
        if not _no_order(mine) or _setting_word_said(mine):
            break
        if FULL_WORDS & set(mine) or any(v and find_phrase(v, mine) is not None for v in values):
            break
        k -= 1
        keep.add(k)
    # and the clause after a thing said alone, where that one names nothing itself ("Tasting
    # room light, switch off with a fade of 10 seconds")
    k = max(keep)
    mine = [w for w, c in zip(q, clause, strict=True) if c == k]
    after = [i for i, c in enumerate(clause) if c == k + 1]
    if after and _no_order(mine) and not _setting_word_said(mine):
        bare = without_names(q, names)
        if all(bare[i] == q[i] for i in after):
            keep.add(k + 1)
    return {i for i, c in enumerate(clause) if c in keep}


def said_bare(settings: Mapping[str, Any], schemas: Sequence[Mapping[str, Any]], text: str) -> bool:
    """Whether the named settings of a call are said in a clause that orders nothing and names
    no device: ", on lullaby," goes with the fan before it; "and turn the heating to 28" is an
    order of its own."""
    q, clause = words(text), clause_numbers(text, thing_names(schemas)[0])
    if len(q) != len(clause):
        return False
    at = [
        i
        for v in settings.values()
        if isinstance(v, str) and not isinstance(v, bool)
        for i in starts_at(words(v), q)
    ]
    if not at or len({clause[i] for i in at}) != 1:
        return False
    k = clause[at[0]]
    mine = {w for w, c in zip(q, clause, strict=True) if c == k} - {"on", "at", "to", "in"}
    described = set().union(*(_described(t) for t in schemas))
    return not (mine & (ORDER_VERBS | DEVICE_NOUNS | described))


def leaves_a_number(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether the request asks for a number (outside its statements and its names) that no
    call holds: "fade the cart shed light out, over fifteen minutes" answered with the light
    off drops the fade it asked for."""
    protected = [v for t in tools for v in _all_enums(t)]
    asked = ordered(query, tools)
    # a number asked for is said after a word that sets one ("to", "at", "over") or with a
    # unit; one after another word may be part of a name ("guest rom 1")
    ws = asked.lower().replace("%", " percent").split()
    setting = {
        said_numbers(w)[0].value
        for i, w in enumerate(ws)
        if said_numbers(w)
        and (
            (i and ws[i - 1].strip(",.") in _NUMBER_BEFORE)
            or (i + 1 < len(ws) and ws[i + 1].strip(",.") in _NUMBER_UNITS)
        )
    }
    said = [s for s in said_numbers(asked, protected) if s.value in setting]
    by_name = {str(t.get("name")): _props(t) for t in tools}
    said = _without_times(said, asked, calls, by_name)
    if not said:
        return False
    held = [
        (by_name.get(str(c.get("name")), {}).get(k), v)
        for c in calls
        if isinstance(c, Mapping)
        for k, v in (c.get("arguments") or {}).items()
        if isinstance(v, int | float) and not isinstance(v, bool)
    ]
    return any(
        not any(s.matches(float(v), sch if isinstance(sch, Mapping) else None) for sch, v in held)
        for s in said
    )


def _told_only(
    read: str,
    q: Sequence[str],
    unnamed: Sequence[str],
    clause: Sequence[int],
    tools: Sequence[Mapping[str, Any]],
) -> Callable[[str], bool]:
    """For a room or device, whether the request says it only in statements while each of its
    orders names a thing of its own: "X-ray busy on, I start the panoramic now" tells what
    happens in the panoramic room and asks nothing there. (A statement that sets the scene for
    an order naming no thing, "it's pitch black on the front step, light on", says where.)
    `clause` is the clause of each of `q` (`clause_numbers` of `read`)."""
    if len(clause) != len(q):
        return lambda _: False
    stated = _stated(clause, unnamed)
    told = asks_something(read, tools)
    orders = {k for k in set(clause) - stated if told(k)}
    # (a statement that gives an order of its own names its things for it: "right, we're
    # closing, plotter off")
    stated = {
        k for k in stated if not tells_an_order([w for i, w in enumerate(q) if clause[i] == k][2:])
    }
    if not stated or not orders:
        return lambda _: False
    if any(all(unnamed[i] for i, c in enumerate(clause) if c == k) for k in orders):
        return lambda _: False

    def only(value: str) -> bool:
        at = _own_words_at(q, value)
        return bool(at) and all(clause[i] in stated for i in at)

    return only


def _read_clauses(
    query: str, tools: Sequence[Mapping[str, Any]]
) -> tuple[str, list[str], list[int], list[str]] | None:
    """The request as read, its words, each word's clause and the words with the things'
    names blanked; None when words and clauses do not line up."""
    read = mended(query, tools)
    q = words(read)
    names = thing_names(tools)[0]
    clause = clause_numbers(read, names)
    if len(clause) != len(q):
        return None
    return read, q, clause, without_names(q, names)


# Words after which a number is a setting's value, and units said after one.
_NUMBER_BEFORE = frozenset("to at by over for of".split())
_NUMBER_UNITS = frozenset(
    "percent degree degrees celsius minute minutes min mins second seconds sec secs hour "
    "hours".split()
)


def _stated(clause: Sequence[int], bare: Sequence[str]) -> set[int]:
    """The clauses that make a statement, read with the things' names blanked ("Hattie's
    potting shed" states nothing)."""
    return {
        k for k in set(clause) if states([w for w, c in zip(bare, clause, strict=True) if c == k])
    }


def ordered(query: str, tools: Sequence[Mapping[str, Any]]) -> str:
    """The request without its statement clauses when another clause asks for something: a
    value said only in "the mauve is giving me a headache" is not asked for."""
    parts = _read_clauses(query, tools)
    if parts is None:
        return mended(query, tools)
    read, q, clause, bare = parts
    told = asks_something(read, tools)
    stated = _stated(clause, bare)
    if not stated or not any(told(k) for k in set(clause) - stated):
        return read
    return " ".join(w for w, c in zip(q, clause, strict=True) if c not in stated)


def _orders_only(read: str, q: Sequence[str], tools: Sequence[Mapping[str, Any]]) -> list[str]:
    """`q` with the words of statement clauses blanked when another clause switches: "phone
    booth 2 light is still on, kill it" says off, not on."""
    names = thing_names(tools)[0]
    clause = clause_numbers(read, names)
    if len(clause) != len(q):
        return list(q)
    # read without names: "Hattie's potting shed" is no "Hattie's potting"
    bare = without_names(q, names)
    stated = _stated(clause, bare)
    ordering = [w for w, c in zip(q, clause, strict=True) if c not in stated]
    if not stated or not switch_senses(ordering):
        return list(q)
    return [w if c not in stated else "" for w, c in zip(q, clause, strict=True)]


_ROOM_KINDS = LIGHT_WORDS | COVER_WORDS


def _own_clause(
    read: str,
    q: Sequence[str],
    tools: Sequence[Mapping[str, Any]],
    tool: Mapping[str, Any],
    args: Mapping[str, Any],
    picks: Collection[str],
) -> set[int] | None:
    """The positions of the clause a call answers (`clause_of`) where the call sets a value
    besides its switch and its room or device; else None."""
    if not any(k not in picks and not isinstance(v, bool) for k, v in args.items()):
        return None
    return clause_of(read, q, tools, tool, args)


def _thing_words(tools: Sequence[Mapping[str, Any]]) -> set[str]:
    """The words of the tools' rooms and devices but a light's or a cover's: a fan's word
    there ("the cyclone extractor") is that thing's, not the kind's; "the lamp" stays a
    light's word beside a "reading lamp" plug, as it always was."""
    return {w for v in thing_names(tools)[0] for w in words(v)} - LIGHT_WORDS - COVER_WORDS


def _kind_words(tool: Mapping[str, Any]) -> set[str]:
    """The words of a tool's kind of room device, a light or a cover ("light", "lamp", ...;
    "blind", "shade", ...): the two kinds a room is commonly shared by. Other nouns ("switch",
    "light" of an LED) say too little of a kind to choose between tools."""
    own = _described(tool) & _ROOM_KINDS
    return own | kind_synonyms(own)


def _kinds_said_for(
    query: str, tools: Sequence[Mapping[str, Any]], call: Mapping[str, Any]
) -> tuple[set[str], set[str]] | None:
    """The kinds of device said in the clauses where a call's room or device is named (back
    through clauses that only name one: "open the blinds in the playroom, the eaves bedroom
    and ..."), and all the kinds said outside names; None when its thing is not named."""
    read = mended(query, tools)
    q = words(read)
    names = thing_names(tools)[0]
    clause = clause_numbers(read, names)
    tool = next((t for t in tools if str(t.get("name")) == str(call.get("name"))), None)
    if tool is None or len(clause) != len(q):
        return None
    props = _props(tool)
    values = [
        v
        for k, v in (call.get("arguments") or {}).items()
        if isinstance(v, str) and picks_a_thing(k, props.get(k))
    ]
    at = [i for v in values for i in starts_at(words(v), q)]
    if not at:  # said by a part ("the parlour" for the fireside parlour)
        own = {w for v in values for w in words(v) if is_telling(w)} - DEVICE_NOUNS
        at = [i for i, w in enumerate(q) if w in own]
    if not at:
        return None
    bare = without_names(q, names)
    ks = {clause[i] for i in at}
    for k in sorted(ks):
        while k > min(clause) and not (
            {w for w, c in zip(bare, clause, strict=True) if c == k and w} - _NAME_ONLY
        ):
            k -= 1
            ks.add(k)
    # a light's own verb says its kind ("dim the seating area to 35" is no blind at 35)
    kinds = [_VERB_KINDS.get(w, w) for w in bare]
    near = {w for i, w in enumerate(kinds) if clause[i] in ks} & _ROOM_KINDS
    return near, set(kinds) & _ROOM_KINDS


# Verbs that only a kind of device takes.
_VERB_KINDS = {"dim": "light", "brighten": "light"}


def of_another_kind(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Any], call: Mapping[str, Any]
) -> bool:
    """Whether a call picks a room the request names only beside another kind of device,
    which another call in the list picks it for: "shut the stair top blinds, then switch the
    fish tank light off" is no stair top light off."""
    if not kind_unsaid(query, tools, call):
        return False
    by_tool = {str(t.get("name")): t for t in tools}
    near = (_kinds_said_for(query, tools, call) or (set(), set()))[0]
    things = {str(v) for v in (call.get("arguments") or {}).values() if isinstance(v, str)}
    return any(
        c is not call
        and isinstance(c, dict)
        and c.get("name") != call.get("name")
        and near & _kind_words(by_tool.get(str(c.get("name"))) or {})
        and things & {str(v) for v in (c.get("arguments") or {}).values()}
        for c in calls
    )


def kind_unsaid(query: str, tools: Sequence[Mapping[str, Any]], call: Mapping[str, Any]) -> bool:
    """Whether a call's kind of device is said nowhere while another kind is said where its
    room is named: "open the blinds in Bertie's playroom, the eaves bedroom ..." is no light
    in the eaves bedroom. Its own kind said anywhere ("... and dim its light") may be for it.
    Things said by short forms are judged as their names said in full: "Upright lamp off.
    Bedroom blinds shut too." says the blinds of "Madame Okonkwo's bedroom", and its "lamp" is
    the "Bechstein upright lamp", no light."""
    tool = next((t for t in tools if str(t.get("name")) == str(call.get("name"))), None)
    if tool is None:
        return False
    query = _in_full(query, tools)
    said = _kinds_said_for(query, tools, call)
    if said is None:
        return False
    near, anywhere = said
    mine = _kind_words(tool)
    # (its tool's own name said points at it: "night light down to 10" to set_nightlight)
    # (a name that is only its kind's word, "set_light", is judged as the kind below)
    if (_named_kind(tool) - mine) & set(words(mended(query, tools))):
        return False
    return (
        bool(near)
        and bool(mine)
        and not (near & mine)
        and not (anywhere & mine and _kind_free(query, tools, call, mine))
    )


# The last request read in full, with the tools it was read for (kept, so that the same list
# is known by identity): `kind_unsaid` is asked of every call of a list, and of every thing of
# a home by `named_only`, for one request and one list of tools.
_last_in_full: tuple[str, Sequence[Mapping[str, Any]], str] | None = None


def _in_full(query: str, tools: Sequence[Mapping[str, Any]]) -> str:
    """`query` with each short form of a thing's name written as the name."""
    global _last_in_full
    last = _last_in_full
    if last is not None and last[0] == query and last[1] is tools:
        return last[2]
    full = ShortNames(tools).written_in_full(query)
    _last_in_full = (query, tools, full)
    return full


def _kind_free(
    query: str, tools: Sequence[Mapping[str, Any]], call: Mapping[str, Any], kinds: set[str]
) -> bool:
    """Whether a kind's word is said in a clause that names no other thing than the call's,
    so it may be the call's: "open the den blinds and dim its light", but not "vinery shading
    halfway, cold frame light on" (that light is the cold frame's)."""
    parts = _read_clauses(query, tools)
    if parts is None:
        return True
    _, q, clause, bare = parts
    names = thing_names(tools)[0]
    mine = {str(v) for v in (call.get("arguments") or {}).values() if isinstance(v, str)}
    # the call's thing said where no kind is ("turn the tea bar and coat store lights off")
    # may share the kind said after it
    own = {clause[i] for n in mine for i in starts_at(words(n), q)}
    kinded = {clause[i] for i, w in enumerate(bare) if w in _ROOM_KINDS}
    if own - kinded:
        return True
    named = {clause[i] for n in names if n not in mine for i in starts_at(words(n), q)}
    return any(w in kinds and clause[i] not in named for i, w in enumerate(bare))


def asks_something(query: str, tools: Sequence[Mapping[str, Any]]) -> Callable[[int], bool]:
    """For a clause number of the request, whether the clause says anything of the tools: a
    thing's name, a word of a tool, a switching, an order's verb or a number ("..., would
    you?" says none)."""
    read = query
    q = words(read)
    names = thing_names(tools)[0]
    clause = clause_numbers(read, names)
    bare = without_names(q, names)
    told = set().union(*(_described(t) for t in tools)) if tools else set()
    told |= kind_synonyms(told) | DEVICE_NOUNS
    enums = [enum_strings(sch) for t in tools for sch in _props(t).values() if enum_strings(sch)]

    def asks(k: int) -> bool:
        mine = [w for w, c in zip(q, clause, strict=True) if c == k]
        free = [w for w, c in zip(bare, clause, strict=True) if c == k]
        return (
            any(not w for w in free)  # a thing's name said
            or bool(set(free) & told)
            # a setting or a thing said in part; not a word of one before a word that is none
            # of its ("frost tonight by the look of that sky" beside the "frost beacon")
            # (a switching value is said as a sense: "off it" is where, see `switch_senses`)
            or any(
                names_it(v, values, free, set())
                for values in enums
                for v in values
                if v.lower() not in VALUE_SENSE
            )
            or not _no_order(mine)
        )

    return asks


def order_clauses(query: str, tools: Sequence[Mapping[str, Any]]) -> int | None:
    """How many clauses of the request ask for something: not statements ("the bar's shut"),
    nor clauses that say nothing of the tools ("..., would you?"); None when the request's
    words and clauses do not line up."""
    names = thing_names(tools)[0]
    q, clause = words(query), clause_numbers(query, names)
    if len(q) != len(clause):
        return None
    told = asks_something(query, tools)
    stated = _stated(clause, without_names(q, names))  # "Hattie's potting shed" states nothing
    # a clause that says only how long an order takes is that order's ("turn off the bedroom
    # light slowly, over 30 seconds")
    spans = {
        k
        for k in set(clause) - {clause[0]}
        if _only_a_span([w for w, c in zip(q, clause, strict=True) if c == k])
    }
    # a clause that names a thing alone is one order with the next, where that one names no
    # thing ("Katina's bedroom blind, down all the way")
    bare = without_names(q, names)
    by = {k: [i for i, c in enumerate(clause) if c == k] for k in set(clause)}
    ahead = {
        k
        for k in by
        if k + 1 in by
        and any(not bare[i] and q[i] for i in by[k])
        and all(not bare[i] or bare[i] in _NAMED_KIND for i in by[k])
        and all(bare[i] == q[i] for i in by[k + 1])
    }
    return sum(k not in stated | spans | ahead and told(k) for k in set(clause)) or 1


# Words a clause that names a thing alone may say besides its name ("the lathe corner light").
_NAMED_KIND = DETERMINERS | LIGHT_WORDS | COVER_WORDS | FAN_WORDS


# Words of a clause that says how long an order takes.
_SPAN_WORDS = frozenset(
    "slowly gently gradually over in for across within a an about around please "
    "second seconds sec secs minute minutes min mins s".split()
)


def _only_a_span(ws: Sequence[str]) -> bool:
    """Whether a clause says a length of time and nothing else ("over 30 seconds",
    "slowly")."""
    rest = [w for w in ws if w not in _SPAN_WORDS and w not in NUMBER_WORDS and not w[:1].isdigit()]
    return bool(ws) and not rest


# Words a clause that only names a thing may say besides the name.
_NAME_ONLY = DETERMINERS | frozenset("and both also plus then".split())


def with_settings_shared(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Any]
) -> list[Any]:
    """The calls with a thing named in a clause of its own before the next one's order given
    that order's settings: "Yusuf's corner and larder 2 to 50 percent" sets both to 50, not
    the corner on ("the den and the hall off" shares the other way: see `clause_of`)."""
    read = mended(query, tools)
    q = words(read)
    names = thing_names(tools)[0]
    clause = clause_numbers(read, names)
    by_tool = {str(t.get("name")): t for t in tools}
    if len(clause) != len(q):
        return list(calls)

    def where(call: Mapping[str, Any]) -> int | None:
        props = _props(by_tool.get(str(call.get("name"))) or {})
        at = [
            i
            for k, v in (call.get("arguments") or {}).items()
            if isinstance(v, str) and picks_a_thing(k, props.get(k))
            for i in starts_at(words(v), q)
        ]
        return clause[at[0]] if len(at) == 1 else None

    out = list(calls)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if not (isinstance(a, dict) and isinstance(b, dict)) or a.get("name") != b.get("name"):
            continue
        ka, kb = where(a), where(b)
        if ka is None or kb != ka + 1:
            continue
        mine = [w for w, c in zip(q, clause, strict=True) if c == ka]
        # only a name ("Yusuf's corner and ..."): no setting of its own
        if set(w for w in without_names(mine, names) if w) - _NAME_ONLY:
            continue
        # and the next clause's order said after its name: "turn on the heater and the warmer,
        # and shut off the pond pump" leaves the warmer on
        if _order_leads(q, clause, kb, names):
            continue
        props = _props(by_tool[str(a.get("name"))])
        things = {k for k in a.get("arguments") or {} if picks_a_thing(k, props.get(k))}
        keep = {k: v for k, v in (a.get("arguments") or {}).items() if k in things}
        given = {k: v for k, v in (b.get("arguments") or {}).items() if k not in things}
        if given:
            out[i] = {**a, "arguments": {**keep, **given}}
    return out


def _order_leads(q: Sequence[str], clause: Sequence[int], k: int, names: Sequence[str]) -> bool:
    """Whether clause `k` says a switching or a number before the first thing it names ("shut
    off the pond pump"; not "larder 2 to 50 percent")."""
    at = [i for i, c in enumerate(clause) if c == k]
    bare = without_names([q[i] for i in at], names)
    first = next((j for j, w in enumerate(bare) if not w), None)
    if first is None:
        return False
    before = list(bare[:first])
    return bool(switch_senses(before)) or bool(said_numbers(" ".join(before)))


def _no_order(clause: Sequence[str]) -> bool:
    """Whether a clause orders nothing of its own: no switching, no order's verb, no number
    ("..., and the wellie room")."""
    return (
        not switch_senses(clause)
        # (an "on" or "off" that switches is a sense; one that says where is none: "...,
        # keeps the bees off it")
        and not (ORDER_VERBS - {"on", "off"}) & set(clause)
        and not said_numbers(" ".join(clause))
    )


# where, not how: "lights on over the workbench", "lamps on outside"
_PLACE_WORDS = frozenset(
    "over under above below beside near behind inside outside upstairs downstairs around "
    "across along".split()
)
# What may follow "on", "at" or "to" when no setting is said there: "the light on in there",
# "the fan on, then", "lights on over the bench"
_NO_SETTING_AFTER = (
    DETERMINERS
    | _PLACE_WORDS
    | frozenset("in then and please pls now again too also for it them there here".split())
)


def _setting_word_said(q: Sequence[str]) -> bool:
    """Whether a word after "on", "at" or "to" may say a setting ("fan on auto", "at max"):
    none but a determiner, a place word, a number or a link word."""
    return any(
        w in ("on", "at", "to")
        and nxt
        and nxt not in _NO_SETTING_AFTER
        and nxt not in NUMBER_WORDS
        and not nxt[0].isdigit()
        for w, nxt in zip(q, q[1:], strict=False)
    )


# Verbs that put a thing on a setting rather than switch it: "put the fan on high".
_PLACING_VERBS = frozenset("put stick set have pop bung keep".split())


def _prunable(schema: Any, key: str, named: bool = False) -> bool:
    """Whether an unsaid argument may go: a mode or a switch, and a named setting (a colour,
    a speed) when `named`; never a number (a value out of range is for the range check to
    refuse), nor by default a named setting (a colour or speed the home lacks is doubted, not
    dropped)."""
    if not isinstance(schema, Mapping):
        return False
    if schema.get("type") == "boolean":
        return True
    return bool(enum_strings(schema)) and (named or key.lower() not in NAMED_SETTINGS)


def points_elsewhere(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether a call goes to a tool nothing in the request points at (no room or device of
    it, no word of its name or description, no unit or setting of it) while the request says
    a word of another tool's name that no call uses: "lights on" (no room) is no call to the
    fan."""
    read = mended(query, tools)
    q = words(read)
    said = said_numbers(read, [v for t in tools for v in _all_enums(t)])
    unnamed = without_names(q, thing_names(tools)[0])
    called = {str(c.get("name")) for c in calls}

    def kin(t: Mapping[str, Any]) -> set[str]:  # "the extractor" (no thing's name) is a fan
        return {w for w in kind_synonyms(_named_kind(t)) if w in unnamed} - _thing_words(tools)

    others = {
        w
        for t in tools
        if str(t.get("name")) not in called
        for w in _named_kind(t) | kin(t)
        if w not in HEAD_WORDS and w in q
    }
    if not others:
        return False
    by_tool = {str(t.get("name")): t for t in tools}
    for call in calls:
        tool = by_tool.get(str(call.get("name")))
        args = call.get("arguments") or {}
        if tool is None or not isinstance(args, Mapping):
            continue
        props = _props(tool)
        own = _named_kind(tool) | kin(tool)
        own |= {w for w in words(str(tool.get("description") or "")) if is_telling(w)}
        if own & set(q) or any(picks_a_thing(k, props.get(k)) for k in args):
            continue
        if _setting_said_points(q, said, unnamed, tool, args, thing_names(tools)[0]):
            continue
        return True
    return False


def _setting_said_points(
    q: Sequence[str],
    said: Sequence[Said],
    unnamed: Sequence[str],
    tool: Mapping[str, Any],
    args: Mapping[str, Any],
    names: Iterable[str] = (),
) -> bool:
    """Whether what the call sets points at its tool: a number with a unit the parameter
    names, a setting named with its value, a warmth word (not one inside a name said, "the
    hot tub") for a tool that takes a temperature."""
    props = _props(tool)
    # ("heater up to 19": a heater said outside any name is the thermostat's)
    bare = without_parts(q, names)
    warmth = (WARMTH_WORDS | HEATING_WORDS) & set(bare)
    # (and "heat" as a verb: "heat the place to twenty one")
    heats = any(w == "heat" and _before_a_determiner(bare, i) for i, w in enumerate(bare))
    return (
        _unit_points(q, said, props, args)
        or _setting_points(q, unnamed, props, args)
        or (takes_temperature(tool.get("parameters") or {}) and (bool(warmth) or heats))
    )


def _before_a_determiner(q: Sequence[str], i: int) -> bool:
    """Whether the word at `i` comes just before a determiner: a verb there ("heat the
    place"), not a setting's value."""
    return i + 1 < len(q) and q[i + 1] in DETERMINERS


def _own_value_said(
    unnamed: Sequence[str], tools: Sequence[Mapping[str, Any]], name: str, args: Mapping[str, Any]
) -> bool:
    """Whether the call sets a value the request says in full that no other tool has, and the
    request says a word of the tool's description too ("heat the workshop": only the stove
    has a heat mode, and it is "The workshop's wood stove"; "set it to max" says no more)."""
    tool = next((t for t in tools if str(t.get("name")) == name), {})
    described = telling_words(str(tool.get("description") or ""))
    if not described & set(unnamed):
        return False
    others = {v.lower() for t in tools if str(t.get("name")) != name for v in _all_enums(t)}
    for value in args.values():
        if not isinstance(value, str) or value.lower() in others:
            continue
        ws = words(value)
        if len(value) >= 3 and ws and not set(ws) <= SETTING_VALUES:
            if count_of(ws, unnamed):
                return True
    return False


def _described(tool: Mapping[str, Any]) -> set[str]:
    """The telling words of a tool's name and description ("Switch the fan on": fan)."""
    text = f"{tool.get('name')} {tool.get('description') or ''}".replace("_", " ")
    return telling_words(text)


def _only_described(unnamed: Sequence[str], tools: Sequence[Mapping[str, Any]], name: str) -> bool:
    """Whether the request says a word of this tool's name or description that no other
    tool's has ("switch the fan off" to a fan tool named air_mover)."""
    tool = next((t for t in tools if str(t.get("name")) == name), {})
    mine = _described(tool)
    others = set().union(*(_described(t) for t in tools if str(t.get("name")) != name))
    told = words(f"{name} {tool.get('description') or ''}".replace("_", " "))
    return any(
        w in mine - others and not _other_kind(unnamed[:i], w, told) for i, w in enumerate(unnamed)
    )


def _other_kind(before: Sequence[str], word: str, told: Sequence[str]) -> bool:
    """Whether the request's word before `word` makes it another thing than the tool's: "the
    pond pump" is not "the heat pump" (a word the tool's text puts before it is the same)."""
    if not before or not is_telling(before[-1]):
        return False
    kinds = {told[i - 1] for i, w in enumerate(told) if w == word and i}
    return bool(kinds) and before[-1] not in kinds


def _setting_points(
    q: Sequence[str], unnamed: Sequence[str], props: Mapping[str, Any], args: Mapping[str, Any]
) -> bool:
    """Whether the request names a setting of the call and says its value in full ("set the
    speed to max")."""
    for key, value in args.items():
        schema = props.get(key)
        if not isinstance(value, str) or not isinstance(schema, Mapping):
            continue
        if picks_a_thing(key, schema) or value not in enum_strings(schema):
            continue
        ws, kw = words(value), words(key.replace("_", " "))
        if len(value) < 3 or not ws or set(ws) <= SETTING_VALUES:
            continue
        if all(w in unnamed for w in ws) and kw and all(w in q for w in kw):
            return True
    return False


def _unit_points(
    q: Sequence[str], said: Sequence[Said], props: Mapping[str, Any], args: Mapping[str, Any]
) -> bool:
    """Whether a number the call holds is said with a unit that its parameter's name or
    description names ("35 degrees": "Target temperature in degrees Celsius")."""
    for key, value in args.items():
        schema = props.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if not isinstance(schema, Mapping) or not any(s.matches(float(value)) for s in said):
            continue
        if param_words(key, schema) & said_with_units(q, said) & _UNITS:
            return True
    return False


# Words that may follow "on" or "at" without naming a setting ("on the porch", "at full",
# "on please"). After "to" a verb is as common ("needs to be on") and is not read.
_AFTER_SETTING_WORD = frozenset(
    "the a an my our your its his her their this that it them me us please pls plz thanks "
    "now again then and "
    "also too as well for with once instead "
    # a courtesy after the switching ("the model loft lights on would you")
    "would could will can cheers ta love mate dear eh bro ya "
    "in at to on of by full max maximum minimum half halfway mode speed level setting "
    "percent degree degrees "
    # how it switches ("light on slowly, in 30 seconds")
    "slowly gently gradually softly quickly".split()
)
# A day after "on" says when, not a setting ("make Poppy's room pink for when she comes on
# Saturday").
DAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays "
    "thursdays fridays saturdays sundays".split()
)


# Words that may say off where `switch_senses` finds no sense.
_OFF_LIKE = frozenset("off of out close closed shut rid kill stop down".split())


def off_unsaid(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether a call switches its thing off (or puts it in an "off" mode) where the request
    switches on and says no switching off at all: "Fan on high please, very hot here" is no
    heating off."""
    q = words(mended(query, tools))
    senses = {s for _, ss in switch_senses(q) for s in ss}
    # (only beside a switching on said: "get rid of the lamp", "fan of" typed, "the desk one
    # off it" say off in words the senses miss)
    if "on" not in senses or senses & {"off", "close"} or _OFF_LIKE & set(q):
        return False
    by_tool = {str(t.get("name")): _props(t) for t in tools}
    for call in calls:
        props = by_tool.get(str(call.get("name"))) or {}
        for key, value in (call.get("arguments") or {}).items():
            if value is False and SWITCH_KEYS.get(key.lower()) == "on":
                return True
            if isinstance(value, str) and value.lower() == "off" and enum_strings(props.get(key)):
                return True
    return False


def names_an_unknown_setting(query: str, tools: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the request asks for a setting by a word none of the tools knows: "thermostat
    to 21, holiday mode", "heating to 20 on boost" (a call without it drops what was asked).
    Stricter than the second look's check: a word after "on" counts only when it ends the
    request."""
    q = words(mended(query, tools))
    unnamed = [w for w in without_names(q, thing_names(tools)[0]) if w]
    known = {w for t in tools for v in _all_enums(t) for w in words(str(v))}
    for t in tools:
        known.update(words(str(t.get("name")).replace("_", " ")))
        for key in _props(t):
            known.update(words(str(key).replace("_", " ")))

    def unknown(w: str) -> bool:
        if w in known or w in DEVICE_NOUNS or w in GENERIC or w in _AFTER_SETTING_WORD | DAYS:
            return False
        if w in NUMBER_WORDS or w[0].isdigit():
            return False
        # "cooling mode" is the cool mode, "heaat" a typo of heat
        return not any(k[:4] == w[:4] or said_near(k, [w]) for k in known if len(k) >= 3)

    for i, w in enumerate(unnamed[1:], start=1):
        if w in SETTING_NOUNS and unknown(unnamed[i - 1]):
            return True
    # "make the shell room light lavender", "make the steri room lavender": a word no tool
    # knows ending the request just after a thing's name or a light's word, to be made
    bare = without_names(q, thing_names(tools)[0])
    if (
        len(bare) >= 3
        and bare[0] == "make"
        and (not bare[-2] or bare[-2] in LIGHT_WORDS)
        and bare[-1]
        and unknown(bare[-1])
    ):
        return True
    # ("put the fan in turbo": put in a setting, as "on turbo")
    placed_in = len(unnamed) >= 3 and unnamed[-2] == "in" and unnamed[0] in _PLACING_VERBS
    return len(unnamed) >= 2 and (unnamed[-2] in ("on", "at") or placed_in) and unknown(unnamed[-1])


def _unknown_setting(
    q: Sequence[str], known: set[str], clause: Sequence[int] | None = None
) -> bool:
    """Whether the request sets something by a word no tool knows: "fan on turbo", "run the
    fan at night" (a speed the fan lacks; a call without it drops what was asked). A word
    after a clause's break is no setting ("the light on, got an exam tmrw")."""
    for i, w in enumerate(q[:-1]):
        nxt = q[i + 1]
        if w not in ("on", "at") or not nxt or nxt in known:
            continue
        if clause is not None and clause[i] != clause[i + 1]:
            continue
        if i == 0 or (clause is not None and clause[i - 1] != clause[i]):
            continue  # nothing before it to set: "on the mist sprayer", "On ferme!"
        if i and q[i - 1] in SWITCH_VERBS:
            continue  # "turn on fan", "switch on lights in the kitchen": the thing follows
        if nxt in _AFTER_SETTING_WORD | _PLACE_WORDS | DAYS or nxt in NUMBER_WORDS:
            continue
        if nxt in _COURTESY:
            continue  # "turn it on waaw": a filler, no setting
        if nxt[0].isdigit():
            continue
        return True
    return False


def _nothing_left(
    q: Sequence[str],
    said: Sequence[Said],
    calls: Sequence[Mapping[str, Any]],
    by_name: Mapping[str, Mapping[str, Any]],
) -> bool:
    """Every number said is used, and so is every setting value of the called tools said in
    full: a call list that drops half the request is not what was asked."""
    args = [(by_name[str(c["name"])], c.get("arguments") or {}) for c in calls]
    # a setting the request names ("at mid speed", "the colour") that no call of its tool sets:
    # the value asked for is one the tool lacks, and the call quietly drops it
    set_keys: dict[str, set[str]] = {}
    for c in calls:
        set_keys.setdefault(str(c["name"]), set()).update(c.get("arguments") or {})
    for c in calls:
        for key, schema in by_name[str(c["name"])].items():
            kw = words(key.replace("_", " "))
            if not kw or key in set_keys[str(c["name"])] or picks_a_thing(key, schema):
                continue
            if key.lower() not in SWITCH_KEYS and all(w in q for w in kw):
                return False
    nums = [
        (props.get(k), v)
        for props, a in args
        for k, v in a.items()
        if isinstance(v, int | float) and not isinstance(v, bool)
    ]
    for s in said:
        if not any(
            s.matches(float(v), sch if isinstance(sch, Mapping) else None) for sch, v in nums
        ):
            return False
    used = {str(v).lower() for _, a in args for v in a.values() if isinstance(v, str)}
    text = " ".join(q)
    for c, (props, _) in zip(calls, args, strict=True):
        own = set(words(str(c["name"]).replace("_", " ")))
        for key, schema in props.items():
            if picks_a_thing(key, schema):
                continue
            values = enum_strings(schema)
            inside = only_inside(values, q)  # "white" said only in "moon white"
            for v in values:
                ws = words(v)
                if len(v) < 3 or not ws or set(ws) <= SETTING_VALUES or v in inside:
                    continue
                if f" {' '.join(ws)} " in f" {text} " and v.lower() not in used:
                    # (a value said only as a verb asks for no value: "heat the place to 21";
                    # nor one said only as a word of its tool's name: "set the viv heat to 29"
                    # to set_vivarium_heat, where "on heat" would be the mode)
                    at = [i for i, w in enumerate(q) if [w] == ws]
                    if at and all(_before_a_determiner(q, i) for i in at):
                        continue
                    if at and all(_tool_word_only(q, i, own) for i in at):
                        continue
                    return False
    # nor a setting of two words or more that only an uncalled tool has ("put the light on
    # coral pink" is no night light plug switched on)
    called = {str(c["name"]) for c in calls}
    for name, props in by_name.items():
        if name in called:
            continue
        for key, schema in props.items():
            if picks_a_thing(key, schema):
                continue
            for v in enum_strings(schema):
                ws = words(v)
                if len(ws) > 1 and f" {' '.join(ws)} " in f" {text} " and v.lower() not in used:
                    return False
    return True


# Words before a setting's value that say it is the value ("on heat", "to cool").
_VALUE_BEFORE = frozenset("on to onto into in at".split())


def _tool_word_only(q: Sequence[str], i: int, own: set[str]) -> bool:
    """Whether the word at `i`, a setting's value, is said as a word of its tool's name (the
    words `own`), not as the value: no "on" or "to" before it, no "mode" after it."""
    return (
        q[i] in own
        and not (i and q[i - 1] in _VALUE_BEFORE)
        and not (i + 1 < len(q) and q[i + 1] in SETTING_NOUNS)
    )


def _props(tool: Mapping[str, Any]) -> Mapping[str, Any]:
    return (tool.get("parameters") or {}).get("properties") or {}


def _all_enums(tool: Mapping[str, Any]) -> list[str]:
    return [v for sch in _props(tool).values() for v in enum_strings(sch)]


__all__ = ["grounded", "is_command", "points_elsewhere", "says_a_setting"]
