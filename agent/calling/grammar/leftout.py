"""What a served call list leaves out: the things and tools a request names that no call picks,
and the narrowed grammar that decodes a call for one of them (`Session._missing_look`). A small
model writing three calls often drops one ("lights off in playroom 2, Milo's room and the boot
porch" answered for the last two); these find which, and in what clause it was asked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agent.calling.grammar.grounding import (
    _all_enums,
    _described,
    _kind_words,
    _no_order,
    _partly_named,
    _props,
    _stated,
    _thing_words,
    _without_other_names,
    asks_something,
    clause_of,
    is_command,
)
from agent.calling.grammar.reading import (
    GENERIC,
    HEATING_WORDS,
    KIND_NOUNS,
    LIGHT_WORDS,
    ORDER_VERBS,
    SWITCH_VERBS,
    clause_numbers,
    enum_strings,
    is_telling,
    kind_synonyms,
    mended,
    only_inside,
    picks_a_thing,
    starts_at,
    switch_senses,
    takes_temperature,
    thing_names,
    without_names,
    words,
)
from agent.calling.rangecheck import said_numbers

# words that name what a temperature tool runs, not how the room feels ("it's cold" orders
# nothing); "thermostat" is left to the tool's own name, as a word of it
_HEATING_WORDS = (HEATING_WORDS - {"thermostat"}) | {"aircon"}


def left_out(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> list[tuple[str, str]]:
    """The things (rooms, devices) the request names in full, not only inside a longer name,
    that no call picks, each with the words of its clause: "oven ready light off, spiral mixer
    off and the bread slicer on" answered for the LED and the mixer leaves ("bread slicer",
    "the bread slicer on"). A name said twice, or in a clause that is no command, is left
    alone."""
    read = mended(query, tools)
    q = words(read)
    names = thing_names(tools)[0]
    picked = {
        str(v).lower() for c in calls for v in (c.get("arguments") or {}).values() if v is not None
    }
    inside = only_inside(sorted(names), q)
    clause = clause_numbers(read, names)
    # a name that is also a parameter's ("urgent", "eco") or an order's word ("power the
    # amplifier on" beside an LED called "power") may not be said as a name
    params = {str(k).lower() for t in tools for k in _props(t)}
    orders = SWITCH_VERBS | ORDER_VERBS
    # nor a name inside a tool's name said as written ("nursery heater to 20": the nursery's
    # light is not left out)
    in_tool_names = {
        i + k
        for t in tools
        if len(tw := [w for w in words(str(t.get("name")).replace("_", " ")) if w not in GENERIC])
        >= 2
        for i in starts_at(tw, q)
        for k in range(len(tw))
    }
    out: list[tuple[str, str]] = []
    for name in sorted(names):
        ws = words(name)
        at = starts_at(ws, q) or _part_at(name, ws, q, read, tools)
        if len(at) != 1 or name.lower() in picked or name in inside or at[0] in in_tool_names:
            continue
        if " ".join(ws) in params or (len(ws) == 1 and ws[0] in orders):
            continue
        k = clause[at[0]]
        text = " ".join(w for w, c in zip(q, clause, strict=True) if c == k)
        first = k
        # (a name's number orders nothing: "..., reading nook 2 and the laundry bay")
        bare = without_names(q, names)
        while first > min(clause) and _no_order(
            [w for w, c in zip(bare, clause, strict=True) if c == first]
        ):
            # a clause that is only a name ("..., and the wellie room") shares the sense of
            # the clauses before it, back to one that orders ("turn off lamp, oil heater and
            # samovar")
            first -= 1
        if first != k:
            text = " ".join(w for w, c in zip(q, clause, strict=True) if first <= c <= k)
        if is_command(text, tools):
            out.append((name, text))
    return out


def kinds_left_out(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> list[tuple[str, str, str]]:
    """The rooms the request names with a kind of device (a light, a cover) in a clause of
    their own that no call of that kind's tool picks, each with the words of its clause and
    the tool: "white noise on, blind down in the nursery and nursery light off" answered for
    the noise and the blind leaves ("twins' nursery", "and nursery light off", "set_light").
    `left_out` misses these when the room is said twice or one call already picks it. A
    clause naming two things, or no kind, or one that is no command, is left alone."""
    read = mended(query, tools)
    q = words(read)
    names = thing_names(tools)[0]
    clause = clause_numbers(read, names)
    unnamed = without_names(q, names)
    if len(clause) != len(q) or len(unnamed) != len(q) or len(set(clause)) < 2:
        return []
    done = {
        (str(c.get("name")), str(v).lower())
        for c in calls
        for v in (c.get("arguments") or {}).values()
        if isinstance(v, str)
    }
    out: list[tuple[str, str, str]] = []
    for k in sorted(set(clause)):
        ws = [w for w, c in zip(q, clause, strict=True) if c == k]
        bare = {w for w, c in zip(unnamed, clause, strict=True) if c == k and w}
        said = [n for n in sorted(names) if _said_in(words(n), ws)]
        if len(said) != 1:
            continue
        name = said[0]
        holders = [
            t
            for t in tools
            if any(
                picks_a_thing(p, sch) and name in enum_strings(sch) for p, sch in _props(t).items()
            )
        ]
        kinds = [t for t in holders if _kind_words(t) & bare]
        if len(kinds) != 1 or (str(kinds[0].get("name")), name.lower()) in done:
            continue
        text = " ".join(ws)
        if is_command(text, tools):
            out.append((name, text, str(kinds[0].get("name"))))
    return out


def _said_in(ws: Sequence[str], clause: Sequence[str]) -> bool:
    """Whether a clause says a name in full, or by a telling end of it that is no kind's noun
    ("nursery" for the twins' nursery)."""
    if starts_at(list(ws), clause):
        return True
    return any(
        starts_at(list(ws[-n:]), clause)
        and all(is_telling(w) and w not in KIND_NOUNS for w in ws[-n:])
        for n in range(len(ws) - 1, 0, -1)
    )


def _part_at(
    name: str, ws: Sequence[str], q: Sequence[str], read: str, tools: Sequence[Mapping[str, Any]]
) -> list[int]:
    """Where the request names a thing by the end of its name alone, once, as `grounded`
    accepts it ("the electric blanket" for the main electric blanket, "the floodlight" for
    the yard floodlight); none when it does not."""
    schema = next(
        (
            sch
            for t in tools
            for k, sch in _props(t).items()
            if picks_a_thing(k, sch) and name in enum_strings(sch)
        ),
        None,
    )
    unnamed = without_names(q, thing_names(tools)[0])
    said = said_numbers(read, [v for t in tools for v in _all_enums(t)])
    # (a word said inside another thing's name said in full is that thing's: "Men's changing
    # lights on" names no part of the women's changing room)
    free = _without_other_names(q, name, tools)
    for n in range(len(ws) - 1, 0, -1):
        at = starts_at(list(ws[-n:]), free)
        if not any(is_telling(w) and w not in KIND_NOUNS for w in ws[-n:]):
            continue  # "Tilly's room lights" says no "Tilly's night light"; "in" no "check-in"
        if len(at) == 1 and _partly_named(name, schema, q, said, unnamed, tools):
            return at
    # an owner said alone for the one thing of theirs ("Men's changing lights on. Women's
    # too." for the women's changing room)
    if len(ws) > 1 and ws[0].endswith("'s"):
        at = starts_at([ws[0]], free)
        owners = [n for n in thing_names(tools)[0] if ws[0] in words(n)]
        if len(at) == 1 and owners == [name] and (q[at[0] + 1 : at[0] + 2] or ["too"])[0] in _ALONE:
            return at
    return []


# Words after an owner said alone ("Women's too", "and Ruth's as well").
_ALONE = frozenset("too as also please then and".split())


def tools_left_out(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> list[tuple[str, str]]:
    """The tools without rooms or devices that the request names by their own word, once, in
    a command clause, that no call goes to, each with the words of its clause: "Gwen's room
    light off, Morwenna's too, and the fan on steady" answered for the two lights leaves
    ("set_fan", "and the fan on steady"). A word two tools' names share says neither."""
    read = mended(query, tools)
    q = words(read)
    names = thing_names(tools)[0]
    unnamed = without_names(q, names)
    clause = clause_numbers(read, names)
    called = {str(c.get("name")) for c in calls}
    # a name's word that is also an order or a direction ("jot_down": "turn the boathouse
    # down") names no tool
    plain = SWITCH_VERBS | ORDER_VERBS | {"up", "down", "in", "out", "over", "back"}
    own = {
        str(t.get("name")): [
            w
            for w in words(str(t.get("name")).replace("_", " "))
            if w not in GENERIC
            and w not in LIGHT_WORDS
            and w not in plain
            and not switch_senses([w])
        ]
        for t in tools
    }
    for ws in own.values():  # "the extractor to half ahead" names the fan
        ws += sorted(kind_synonyms(ws) - set(ws) - LIGHT_WORDS - _thing_words(tools))
    # "..., bedroom 9 light on and heating to eighteen" names the thermostat
    for t in tools:
        if takes_temperature(t.get("parameters") or {}):
            own[str(t.get("name"))] += sorted(_HEATING_WORDS - _thing_words(tools))
    # a light of one room is named by a light's word that no other tool's text has ("light
    # off and fan down to murmur" to a bedsit's one light)
    for t in tools:
        if _one_thing(t) and _described(t) & LIGHT_WORDS:
            others = set().union(*(_described(o) for o in tools if o is not t))
            own[str(t.get("name"))] += sorted(LIGHT_WORDS - others)
    # words of the called tools' descriptions: "the underfloor heating to 23" is the called
    # set_underfloor's, not set_upstairs_heating's
    described = {w for t in tools if str(t.get("name")) in called for w in _described(t)}
    out: list[tuple[str, str]] = []
    for t in tools:
        name = str(t.get("name"))
        things = [k for k, sch in _props(t).items() if picks_a_thing(k, sch)]
        if name in called or (things and not _one_thing(t)):
            continue
        for w in own[name]:
            if (
                unnamed.count(w) != 1
                or w in described
                or any(w in ws for o, ws in own.items() if o != name)
            ):
                continue
            k = clause[unnamed.index(w)]
            text = " ".join(x for x, c in zip(q, clause, strict=True) if c == k)
            if is_command(text, tools):
                out.append((name, text))
            break
    return out


def _one_thing(tool: Mapping[str, Any]) -> bool:
    """Whether a tool picks a room or device and has only one of each to pick."""
    props = _props(tool)
    picks = [sch for k, sch in props.items() if picks_a_thing(k, sch)]
    return bool(picks) and all(len(enum_strings(sch)) == 1 for sch in picks)


def only_thing(tools: Sequence[Mapping[str, Any]], name: str) -> list[dict[str, Any]]:
    """The tools that have the thing `name`, with it as the only value of the argument that
    picks it (or the tool called `name`): the grammar of a call for a thing a call list left
    out."""
    named = [dict(t) for t in tools if str(t.get("name")) == name]
    if named:
        return named
    out = []
    for t in tools:
        params = t.get("parameters") or {}
        props = dict(_props(t))
        keys = [
            k for k, sch in props.items() if picks_a_thing(k, sch) and name in enum_strings(sch)
        ]
        if not keys:
            continue
        props[keys[0]] = {**props[keys[0]], "enum": [name]}
        out.append({**t, "parameters": {**params, "properties": props}})
    return out


def clause_left_out(
    query: str, tools: Sequence[Mapping[str, Any]], calls: Sequence[Mapping[str, Any]]
) -> str | None:
    """The words of the one clause that asks for something and that no call answers, when the
    calls are fewer than such clauses and each call's clause is known: "compressor off, warning
    light off and put the e-bike charging rack on" answered for the last two leaves
    "compressor off". None when there is no such clause, or more than one."""
    if not calls or not is_command(query, tools):
        return None
    read = mended(query, tools)
    q = words(read)
    names = thing_names(tools)[0]
    clause = clause_numbers(read, names)
    if len(clause) != len(q):
        return None
    told = asks_something(read, tools)
    stated = _stated(clause, without_names(q, names))
    asking = [k for k in sorted(set(clause)) if k not in stated and told(k)]
    if len(calls) >= len(asking):
        return None
    by_tool = {str(t.get("name")): t for t in tools}
    answered: set[int] = set()
    for call in calls:
        tool = by_tool.get(str(call.get("name")))
        args = call.get("arguments")
        if tool is None or not isinstance(args, Mapping):
            return None
        at = clause_of(read, q, tools, tool, args)
        if not at:
            return None  # a call whose clause is not known may be the one for any clause
        answered |= {clause[i] for i in at}
    left = [k for k in asking if k not in answered]
    if len(left) != 1:
        return None
    ws = [w for w, c in zip(q, clause, strict=True) if c == left[0]]
    # the clause names what it acts on, a word of a thing or of a tool's name: "..., on lullaby" or
    # "... and 22 degrees" only adds a setting to the call before
    things = {w for v in names for w in words(v)}
    things |= {w for t in tools for w in words(str(t.get("name")).replace("_", " "))}
    things |= kind_synonyms(things)
    if _no_order(ws) or not any(is_telling(w) and w in things for w in ws):
        return None
    return " ".join(ws)
