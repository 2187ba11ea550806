"""What is done to a decoded call list before it is served: repeats and calls that say nothing
dropped, settings nobody said dropped, calls put in the order the request says them, and each
number and setting put with the call the request says it for. Pure functions of the calls, the
tools' schemas and the request as read; `Session` applies them after every decode."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from agent.calling.grammar.grounding import (
    _UNITS,
    _props,
    clause_of,
    of_another_kind,
    order_clauses,
    ordered,
    pointed_at,
    said_bare,
    says_a_setting,
    unsaid_arguments,
    with_settings_shared,
)
from agent.calling.grammar.leftout import tools_left_out
from agent.calling.grammar.nfa import Automaton
from agent.calling.grammar.reading import (
    FULL_WORDS,
    HEATING_WORDS,
    SETTING_NOUNS,
    VALUE_SENSE,
    clause_numbers,
    command_clauses,
    enum_strings,
    fade_length,
    is_telling,
    kind_synonyms,
    mended,
    param_words,
    picks_a_thing,
    said_with_units,
    seconds_key,
    starts_at,
    takes_temperature,
    thing_names,
    unnamed_arguments,
    without_names,
    words,
)
from agent.calling.grammar.schema import SchemaError, compile_value
from agent.calling.rangecheck import Said, fits, is_fraction_param, said_numbers


@lru_cache(maxsize=64)
def _value_grammar(schema_json: str, root_json: str) -> Automaton | None:
    try:
        return compile_value(json.loads(schema_json), root=json.loads(root_json))
    except SchemaError:
        return None


def _conforms(value: Any, schema: Any, root: Any) -> bool:
    """Whether one argument value is a sentence of its parameter's grammar (the one decoding
    enforces), so that a mended value is held to the same contract as a decoded one."""
    try:
        grammar = _value_grammar(
            json.dumps(schema, sort_keys=True), json.dumps(root, sort_keys=True)
        )
        data = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return False
    return grammar is not None and grammar.matches(data.encode())


def conforming(mended: list[Any], before: list[Any], schemas: list[dict[str, Any]]) -> list[Any]:
    """``mended`` when every value a mending step wrote there conforms to its parameter's
    schema and every call keeps its required parameters; else ``before``. The steps work from
    ranges and types, which cannot say everything a schema can ("an integer or one of these
    words"): a said 21.5 must not reach such a parameter, whatever the request says."""
    tools = {str(t.get("name")): t.get("parameters") or {} for t in schemas}
    old = {
        (str(c.get("name")), k, json.dumps(v, sort_keys=True))
        for c in before
        if isinstance(c, dict)
        for k, v in (c.get("arguments") or {}).items()
    }
    for call in mended:
        if not isinstance(call, dict):
            continue
        name, args = str(call.get("name")), call.get("arguments") or {}
        params = tools.get(name)
        if params is None:
            continue
        props = params.get("properties") or {}
        if any(k not in args for k in params.get("required") or ()):
            return before
        for k, v in args.items():
            if (name, k, json.dumps(v, sort_keys=True)) in old:
                continue  # decoded under the grammar, or moved between calls of one tool
            if k not in props or not _conforms(v, props[k], params):
                return before
    return mended


def without_repeats(calls: list[Any]) -> list[Any]:
    """The call list without a call that repeats an earlier one exactly. A small model often
    writes a command twice ("turn the fan off, thank you" -> two identical calls); setting a
    thing to the same state twice is the same request as once, and a device handler should
    not run it twice. A toggle is kept: twice is a different request from once."""
    out: list[Any] = []
    seen: set[str] = set()
    for call in calls:
        key = json.dumps(call, sort_keys=True, ensure_ascii=False)
        toggles = any(
            isinstance(v, str) and v.lower() == "toggle"
            for v in ((call.get("arguments") or {}) if isinstance(call, dict) else {}).values()
        )
        if key in seen and not toggles:
            continue
        seen.add(key)
        out.append(call)
    return out


def without_subsumed(calls: list[Any]) -> list[Any]:
    """The call list without a call whose every argument another call to the same tool also
    sets, to the same value, besides more of its own ("fan on, sleep setting" written as the
    fan on, then the fan on at the sleep setting): the longer call does all the shorter asks.
    A toggle is kept, as in `without_repeats`."""

    def items(call: Any) -> set[tuple[str, str]] | None:
        args = call.get("arguments") if isinstance(call, dict) else None
        if not isinstance(args, Mapping):
            return None
        if any(isinstance(v, str) and v.lower() == "toggle" for v in args.values()):
            return None
        return {(k, json.dumps(v, sort_keys=True)) for k, v in args.items()}

    sets = [items(c) for c in calls]
    return [
        c
        for i, c in enumerate(calls)
        if sets[i] is None
        or not any(
            j != i
            and sets[j] is not None
            and calls[j].get("name") == c.get("name")
            and sets[i] < sets[j]
            for j in range(len(calls))
        )
    ]


def without_unsaid(call: Any, schemas: list[dict[str, Any]], text: str) -> Any:
    """The call without the optional settings the request neither says nor backs, when it says
    another of the call's settings: a small model often adds one it was trained to pair with
    what was said (a heat mode with a temperature, a transition with a brightness)."""
    if not text or not isinstance(call, dict):
        return call
    drop = set(unsaid_arguments(text, schemas, call))
    if not drop:
        return call
    return {**call, "arguments": {k: v for k, v in call["arguments"].items() if k not in drop}}


def _tool_and_args(
    call: Any, schemas: Sequence[Mapping[str, Any]]
) -> tuple[Mapping[str, Any], dict[str, Any]] | None:
    """A call's tool schema and its arguments; None when the call is not a dict with
    arguments or names no tool."""
    if not isinstance(call, dict) or not isinstance(call.get("arguments"), dict):
        return None
    tool = next((t for t in schemas if t.get("name") == call.get("name")), None)
    return None if tool is None else (tool, call["arguments"])


def without_unsaid_choices(call: Any, schemas: Sequence[Mapping[str, Any]], clause: str) -> Any:
    """A left-out thing's call without the optional named choices (a colour, a mode) its clause
    never says: decoded for a thing that only shares the list's sense ("..., reading nook 2 and
    the laundry bay" after "lights off"), a colour it carries is made up."""
    found = _tool_and_args(call, schemas)
    if found is None:
        return call
    tool, args = found
    props = _props(tool)
    required = set((tool.get("parameters") or {}).get("required") or ())
    q = words(clause)
    drop = {
        k
        for k, v in args.items()
        if k not in required
        and isinstance(v, str)
        and enum_strings(props.get(k))
        and not picks_a_thing(k, props.get(k))
        and not starts_at(words(v), q)
    }
    kept = {k: v for k, v in args.items() if k not in drop}
    # (never its only setting: "and the heating on" is the heat mode, in words of its own)
    if not drop or not any(not picks_a_thing(k, props.get(k)) for k in kept):
        return call
    return {**call, "arguments": kept}


def _repeats_a_thing(call: Mapping[str, Any], before: Sequence[Any], things: Sequence[str]) -> bool:
    """Whether an earlier call of the same tool picks the same room or device (`things`, the
    call's arguments that pick one)."""
    args = call.get("arguments") or {}
    return any(
        isinstance(c, dict)
        and c.get("name") == call.get("name")
        and all((c.get("arguments") or {}).get(k) == args.get(k) for k in things)
        for c in before
    )


def _things_of(call: Mapping[str, Any], schemas: Sequence[Mapping[str, Any]]) -> list[str]:
    """The arguments of a call that pick a room or device."""
    tool = next((t for t in schemas if t.get("name") == call.get("name")), None)
    props = ((tool or {}).get("parameters") or {}).get("properties") or {}
    return [k for k in call.get("arguments") or {} if picks_a_thing(k, props.get(k))]


def with_halves_joined(calls: list[Any], schemas: list[dict[str, Any]], text: str) -> list[Any]:
    """The calls with two in a row for one thing said once joined, when they set different
    things: "put the fan on, on lullaby" written as the fan on, then the fan at lullaby, is one
    call, as "turn on the hall light in warm white" is."""
    q = words(text)
    out: list[Any] = []
    for call in calls:
        prev = out[-1] if out else None
        if (
            isinstance(prev, dict)
            and isinstance(call, dict)
            and prev.get("name") == call.get("name")
            and _said_once(call, schemas, q)
        ):
            things = _things_of(call, schemas)
            a, b = prev.get("arguments") or {}, call.get("arguments") or {}
            same = all(a.get(k) == b.get(k) for k in things) and set(things) == set(
                _things_of(prev, schemas)
            )
            if (
                same
                and not (set(_settings_of(prev, things)) & set(_settings_of(call, things)))
                and said_bare(_settings_of(call, things), schemas, text)
            ):
                out[-1] = {**prev, "arguments": {**a, **b}}
                continue
        out.append(call)
    return out


def _said_once(call: Mapping[str, Any], schemas: list[dict[str, Any]], q: list[str]) -> bool:
    """Whether the request says a call's room or device (or, for a tool of none, a word of its
    name or kind) once."""
    args = call.get("arguments") or {}
    things = _things_of(call, schemas)
    if things:
        return all(
            len(starts_at(words(str(args[k])), q)) == 1 for k in things if isinstance(args[k], str)
        )
    own = set(re.findall(r"[a-z]+", str(call.get("name")).lower())) - _VERB_WORDS
    own |= kind_synonyms(own)
    return sum(w in own for w in q) == 1


def without_borrowed_numbers(
    calls: list[Any], schemas: list[dict[str, Any]], text: str
) -> list[Any]:
    """The calls without a number one of them borrows from another's clause: when the list
    has one call per clause, in order, a number said once in one clause belongs to that
    clause's call ("open the twin berth curtains to thirty percent and put the light on in
    there" -> the light is not at 30 too). The borrowed number becomes the one number its own
    clause says and no call uses ("den light at 40 percent, then her blinds to 30" -> the
    blinds at 30, not 40); failing that it goes, when optional and the call keeps another
    setting."""
    names = thing_names(schemas)[0]
    q, clause = words(text), clause_numbers(text, names)
    order = sorted(set(clause))
    if len(calls) < 2 or len(calls) != len(order) or len(q) != len(clause):
        return calls
    protected = [*names, *thing_names(schemas)[1]]  # "bedroom 11" says no 11
    said = [
        said_numbers(" ".join(w for w, c in zip(q, clause, strict=True) if c == k), protected)
        for k in order
    ]
    used = {
        float(v)
        for c in calls
        for v in (c.get("arguments") or {}).values()
        if isinstance(v, int | float) and not isinstance(v, bool)
    }
    tools = {str(t.get("name")): t for t in schemas}
    out = []
    for i, call in enumerate(calls):
        tool = tools.get(str(call.get("name"))) if isinstance(call, dict) else None
        args = dict(call.get("arguments") or {}) if tool else {}
        props = ((tool or {}).get("parameters") or {}).get("properties") or {}
        required = set((tool or {}).get("parameters", {}).get("required") or ())
        for k, v in list(args.items()):
            if isinstance(v, bool) or not isinstance(v, int | float):
                continue
            said_in = {j for j, ns in enumerate(said) if any(n.value == float(v) for n in ns)}
            others = {
                j
                for j, c in enumerate(calls)
                if j != i and v in (c.get("arguments") or {}).values()
            }
            if not said_in or i in said_in or not said_in <= others:
                continue
            free = [n for n in said[i] if n.value not in used]
            sch = props.get(k) if isinstance(props.get(k), Mapping) else {}
            if len(free) == 1 and fits(free[0], sch) and not is_fraction_param(sch):
                n = free[0].value
                # a whole number is written whole, as decoding writes it ("21", never "21.0")
                args[k] = int(n) if n == int(n) else n
            elif k not in required and len(args) - len(_things_of(call, schemas)) > 1:
                del args[k]
        out.append({**call, "arguments": args} if tool else call)
    return out


def without_numbers_left_out(
    calls: list[Any], schemas: list[dict[str, Any]], text: str
) -> list[Any]:
    """The calls without a number said only in the clause of a tool that no call goes to:
    "Yusuf's den light on, bedroom 9 light on and heating to eighteen" written as bedroom 9 at
    18 and no thermostat call. The number goes (where optional, and the call keeps another
    setting), so that the missing look writes the left-out call from its own clause."""
    left = tools_left_out(text, schemas, calls)
    if not left:
        return calls
    names = thing_names(schemas)[0]
    protected = [*names, *thing_names(schemas)[1]]
    read = mended(text, schemas)
    q = words(read)
    theirs = [n for _, clause in left for n in said_numbers(clause, protected)]
    tools = {str(t.get("name")): t for t in schemas}
    out = []
    for call in calls:
        tool = tools.get(str(call.get("name"))) if isinstance(call, dict) else None
        args = dict(call.get("arguments") or {}) if tool else {}
        required = set(((tool or {}).get("parameters") or {}).get("required") or ())
        own = clause_of(read, q, schemas, tool, args) if tool else None
        if own is not None:
            mine = said_numbers(" ".join(q[i] for i in sorted(own)), protected)
            for k, v in list(args.items()):
                if isinstance(v, bool) or not isinstance(v, int | float) or k in required:
                    continue
                if (
                    any(n.matches(float(v)) for n in theirs)
                    and not any(n.matches(float(v)) for n in mine)
                    and len(args) - len(_things_of(call, schemas)) > 1
                ):
                    del args[k]
        out.append({**call, "arguments": args} if tool else call)
    return out


def tidied(calls: list[Any], schemas: list[dict[str, Any]], text: str) -> list[Any]:
    """A call list put in the order said, with each number and setting where the request
    says it (see each step)."""
    calls = _in_request_order(text, calls, schemas)
    calls = conforming(without_numbers_left_out(calls, schemas, text), calls, schemas)
    calls = conforming(without_borrowed_numbers(calls, schemas, text), calls, schemas)
    calls = conforming(with_settings_shared(text, schemas, calls), calls, schemas)
    return conforming(without_number_twice(calls, schemas, text), calls, schemas)


def without_number_twice(calls: list[Any], schemas: list[dict[str, Any]], text: str) -> list[Any]:
    """The calls without a number said once that several of them hold, but in the call the
    request says it for (the nearest thing or tool word before it): "dog shower room light off
    twin room light off underfloor down to 12" is no light at 12. It goes only where optional
    and where the call keeps another setting."""
    q = words(text)
    names = thing_names(schemas)[0]
    protected = [*names, *thing_names(schemas)[1]]
    tools = {str(t.get("name")): t for t in schemas}
    bare = without_names(q, names)
    out = [dict(c) if isinstance(c, dict) else c for c in calls]
    for n in said_numbers(text, protected):
        at = [
            i
            for i, w in enumerate(q)
            if said_numbers(w, protected) and n.matches(said_numbers(w, protected)[0].value)
        ]
        holders = [
            i
            for i, c in enumerate(out)
            if isinstance(c, dict)
            and any(
                not isinstance(v, bool) and isinstance(v, int | float) and n.matches(float(v))
                for v in (c.get("arguments") or {}).values()
            )
        ]
        if len(at) != 1 or len(holders) < 2:
            continue

        def anchor(c: Mapping[str, Any], at: list[int] = at) -> int:
            # where the call's thing (or its tool's word) is said last before the number
            spots = [
                i + len(words(str(v))) - 1
                for k, v in (c.get("arguments") or {}).items()
                if isinstance(v, str) and k in _things_of(c, schemas)
                for i in starts_at(words(str(v)), q)
            ]
            own = set(words(str(c.get("name")).replace("_", " "))) - _VERB_WORDS
            spots += [i for i, w in enumerate(bare) if w in own | kind_synonyms(own)]
            before = [i for i in spots if i < at[0]]
            return max(before) if before else -1

        keep = max(holders, key=lambda i: anchor(out[i]))
        for i in holders:
            if i == keep:
                continue
            c = out[i]
            tool = tools.get(str(c.get("name"))) or {}
            required = set((tool.get("parameters") or {}).get("required") or ())
            args = dict(c.get("arguments") or {})
            for k, v in list(args.items()):
                if isinstance(v, bool) or not isinstance(v, int | float) or k in required:
                    continue
                if n.matches(float(v)) and len(args) - len(_things_of(c, schemas)) > 1:
                    del args[k]
            out[i] = {**c, "arguments": args}
    return out


def _numbers_held(
    calls: Sequence[Any], schemas: Sequence[Mapping[str, Any]]
) -> Iterator[tuple[int, str, int | float, Mapping[str, Any] | None, Mapping[str, Any]]]:
    """Each number a call holds: the call's place, the key, the value, the key's schema (None
    when the tool declares none) and the tool's properties."""
    for i, tool, args in _each_call(calls, schemas):
        props = _props(tool)
        for k, v in args.items():
            if isinstance(v, bool) or not isinstance(v, int | float):
                continue
            sch = props.get(k)
            yield i, k, v, sch if isinstance(sch, Mapping) else None, props


def with_number_said(calls: list[Any], schemas: list[dict[str, Any]], text: str) -> list[Any]:
    """The calls with a number nobody said replaced by the one number the request says that no
    call uses, when it fits: "dim the lamp to 15 for movie night" written as 95. Only where
    exactly one call holds a number nobody said, and exactly one said number is left."""
    protected = [*thing_names(schemas)[0], *thing_names(schemas)[1]]
    said = said_numbers(text, protected)
    if not said:
        return calls
    # a unit said with a number ("over 10 seconds") names its parameter even where the call
    # holds that parameter's least or most: a fade written as 0 seconds is no fade
    units = said_with_units(words(text), said) & _UNITS
    spots = []
    used: set[float] = set()
    for i, k, v, held, _ in _numbers_held(calls, schemas):
        sch = held or {}
        if any(s.matches(float(v), sch) for s in said):
            used.add(float(v))
        elif v not in (sch.get("minimum"), sch.get("maximum")) or param_words(k, sch) & units:
            spots.append((i, k, sch))
    free = [s for s in said if s.value not in used]
    if len(spots) != 1 or len(free) != 1:
        return calls
    i, k, sch = spots[0]
    n = free[0]
    if not fits(n, sch) or is_fraction_param(sch):
        return calls
    value = int(n.value) if n.value == int(n.value) else n.value
    out = list(calls)
    out[i] = {**calls[i], "arguments": {**calls[i]["arguments"], k: value}}
    return conforming(out, calls, schemas)


def without_unit_misfits(calls: list[Any], schemas: list[dict[str, Any]], text: str) -> list[Any]:
    """The calls without one that holds a number said once for another call's setting, as
    its unit says: "office to 20 degrees" is the heating at 20, not the office light at 20
    percent too. Only a call that sets nothing else, beside one whose parameter names a unit
    said in the request."""
    protected = [*thing_names(schemas)[0], *thing_names(schemas)[1]]
    read = mended(text, schemas)
    said = said_numbers(read, protected)
    units = said_with_units(words(read), said) & _UNITS
    if not units:
        return calls
    held = list(_numbers_held(calls, schemas))
    drop: set[int] = set()
    for n in said:
        if sum(s.value == n.value for s in said) != 1:
            continue
        # (each holder: its place, whether its key names a unit said, whether it sets nothing
        # else besides what picks its thing)
        holders = [
            (
                i,
                bool(param_words(k, sch) & units),
                all(x == k or picks_a_thing(x, props.get(x)) for x in calls[i]["arguments"]),
            )
            for i, k, v, sch, props in held
            if sch is not None and n.matches(float(v), sch)
        ]
        if len(holders) < 2 or not any(fit for _, fit, _ in holders):
            continue
        drop |= {i for i, fit, alone in holders if not fit and alone}
    return [c for i, c in enumerate(calls) if i not in drop] if drop else calls


def with_number_added(calls: list[Any], schemas: list[dict[str, Any]], text: str) -> list[Any]:
    """The one number the request says that no call holds, added to the call it was said for:
    "heating on heat mode at 20" written with the mode alone. Only a whole number said in
    digits, in the clause of the one call whose tool lacks one numeric setting (or one whose
    unit is said: "40 percent" is a brightness, not a fade) and the number fits it, where that
    call turns nothing off."""
    protected = [*thing_names(schemas)[0], *thing_names(schemas)[1]]
    read = mended(text, schemas)  # (a name's number in words, "bedroom five", is the name's)
    said = said_numbers(read, protected)
    held = [(sch, v) for _, _, v, sch, _ in _numbers_held(calls, schemas) if sch is not None]
    free = [s for s in said if not any(s.matches(float(v), sch) for sch, v in held)]
    if len(free) != 1 or free[0].value != int(free[0].value):
        return calls
    n = free[0]
    q = words(read)
    at = [i for i, w in enumerate(q) if w == str(int(n.value))]
    clauses = clause_numbers(read, thing_names(schemas)[0])
    if not at or len(clauses) != len(q):
        return calls
    units = said_with_units(q, said) & _UNITS
    spots = []
    for i, tool, args in _not_turning_off(calls, schemas):
        mine = clause_of(read, q, schemas, tool, args)
        if mine is None and len(set(clauses)) > 1:
            continue
        if mine is not None and not all(a in mine for a in at):
            continue
        props = _props(tool)
        keys = _open_numbers(props, args)
        if units:
            keys = [k for k in keys if param_words(k, props[k]) & units]
        # one setting the number can be, and it fits: "lights up to 120" is no 120-second fade,
        # but a brightness out of range, left for the range check to refuse
        if len(keys) == 1 and fits(n, props[keys[0]]):
            spots.append((i, keys[0], int(n.value)))
    return _with_one_added(calls, spots, schemas)


def with_full_said(calls: list[Any], schemas: list[dict[str, Any]], text: str) -> list[Any]:
    """The calls with a setting the request asks for at full by its own name ("lights on in
    the press house, full brightness", "brightness to max") at its maximum, where the model
    left it out: added to the one call (turning nothing off) whose tool has that setting
    empty and bounded."""
    q = words(mended(text, schemas))
    named = set()
    for i, w in enumerate(q):
        if w in FULL_WORDS:
            named.update(q[i + 1 : i + 2])  # "full brightness"
            j = i - 1  # "brightness full", and past a "to": "brightness to max"
            if j >= 1 and q[j] in ("to", "at", "on"):
                j -= 1
            named.update(q[j : j + 1] if j >= 0 else [])
    if not named:
        return calls
    # (a call holding it at full already took what was said: "reading room to soft yellow
    # and guest room 3 to full brightness")
    held = {(k, v) for _, _, args in _each_call(calls, schemas) for k, v in args.items()}
    spots = [
        (i, k, props[k]["maximum"])
        for i, tool, args in _not_turning_off(calls, schemas)
        for props in [_props(tool)]
        for k in _open_numbers(props, args)
        if props[k].get("maximum") is not None
        and named & set(words(k.replace("_", " ")))
        and (k, props[k]["maximum"]) not in held
    ]
    return _with_one_added(calls, spots, schemas)


def _with_one_added(
    calls: list[Any], spots: Sequence[tuple[int, str, Any]], schemas: list[dict[str, Any]]
) -> list[Any]:
    """`calls` with the one (call, key, value) of `spots` set, where there is exactly one
    and the result conforms to the schemas; else `calls` as they are."""
    if len(spots) != 1:
        return calls
    i, k, v = spots[0]
    out = list(calls)
    out[i] = {**calls[i], "arguments": {**calls[i]["arguments"], k: v}}
    return conforming(out, calls, schemas)


def with_fade_said(calls: list[Any], schemas: list[dict[str, Any]], text: str) -> list[Any]:
    """The calls with a fade's length as the request says it ("over ten seconds"): a small
    model given "fade the lights down to 30 over ten seconds" often writes the 30 as the
    fade. Where exactly one call's tool takes a length in seconds and that call holds another
    number there (or none), the said length goes there, and a number it held that the
    request says for something else goes to the call's one other numeric setting left empty
    (the brightness)."""
    fade = fade_length(text)
    if fade is None:
        return calls
    _, seconds, m = fade
    spots = []
    for i, tool, args in _each_call(calls, schemas):
        props = _props(tool)
        keys = [k for k, sch in props.items() if seconds_key(k, sch)]
        if len(keys) == 1:
            spots.append((i, keys[0], props, args))
    if len(spots) != 1:
        return calls
    i, key, props, args = spots[0]
    if not fits(Said(seconds), props[key]):
        return calls
    new = {**args, key: seconds}
    out = list(calls)
    out[i] = {**calls[i], "arguments": new}
    # the one other number said (outside the fade) that no call holds: the fade's setting
    held = {float(v) for _, _, v, _, _ in _numbers_held(out, schemas)}
    protected = [*thing_names(schemas)[0], *thing_names(schemas)[1]]
    left = {s.value for s in said_numbers(text[: m.start()] + text[m.end() :], protected)} - held
    if len(left) == 1:
        n = Said(left.pop())
        others = [k for k in _open_numbers(props, new) if fits(n, props[k])]
        if len(others) == 1 and n.value == int(n.value):
            new[others[0]] = int(n.value)
    if new == args:
        return calls
    return conforming(out, calls, schemas)


def _open_numbers(props: Mapping[str, Any], args: Mapping[str, Any]) -> list[str]:
    """A tool's numeric settings (not a 0..1 fraction) that a call's `args` leave empty."""
    return [
        k
        for k, sch in props.items()
        if k not in args
        and isinstance(sch, Mapping)
        and sch.get("type") in ("integer", "number")
        and not is_fraction_param(sch)
    ]


def with_choice_said(calls: list[Any], schemas: list[dict[str, Any]], text: str) -> list[Any]:
    """The calls with a named choice the request says and no call took (a colour, a mode, a
    speed of the called tool) added where it fits: "Marnie's room to beeswax at 40 percent"
    written with the brightness alone. Only where exactly one such value is said, outside the
    names, in the clause of the one call whose tool has it and lacks it, and that call turns
    nothing off ("going to sleep, fan off" gives the fan no sleep speed). A choice inside a
    longer one said is not said ("warm white" is no white), nor a heating's mode said as what
    it does ("heat to 21")."""
    read = mended(text, schemas)
    q = words(read)
    unnamed = without_names(q, thing_names(schemas)[0])
    if len(unnamed) != len(q):
        return calls
    used = {
        str(v).lower()
        for c in calls
        if isinstance(c, dict)
        for v in (c.get("arguments") or {}).values()
        if isinstance(v, str)
    }
    # where a longer choice is said, a shorter one inside it is not ("warm white" says no white)
    spans = {
        (a, len(words(v)))
        for t in schemas
        for v in _all_choices(t)
        for a in starts_at(words(v), unnamed)
    }
    spots = []
    for i, tool, args in _not_turning_off(calls, schemas):
        props = _props(tool)
        mine = clause_of(read, q, schemas, tool, args)
        for k, sch in props.items():
            if k in args or picks_a_thing(k, sch):
                continue
            for v in enum_strings(sch):
                if v.lower() in used or v.lower() in VALUE_SENSE:
                    continue
                ws = words(v)
                at = [
                    a
                    for a in starts_at(ws, unnamed)
                    if not any(n > len(ws) and b <= a and a + len(ws) <= b + n for b, n in spans)
                ]
                if (
                    at
                    and (mine is None or all(a in mine for a in at))
                    and all(_said_as_a_choice(q, a, len(ws), tool) for a in at)
                ):
                    spots.append((i, k, v))
    return _with_one_added(calls, spots, schemas)


def with_choice_after_on(calls: list[Any], schemas: list[dict[str, Any]], text: str) -> list[Any]:
    """The calls with a choice "on" replaced by the choice said right after it: "put the
    warning light on blink" asks for the blink mode, not for on. Only where the request says
    "on" once, outside the names, and the word after it is another choice of the same setting
    (as said or by its sense: "on flash")."""
    read = mended(text, schemas)
    q = words(read)
    unnamed = without_names(q, thing_names(schemas)[0])
    if len(unnamed) != len(q) or unnamed.count("on") != 1:
        return calls
    after = unnamed.index("on") + 1
    if after >= len(unnamed):
        return calls
    said = VALUE_SENSE.get(unnamed[after], unnamed[after])
    out = list(calls)
    for i, tool, args in _each_call(calls, schemas):
        props = _props(tool)
        for k, v in args.items():
            choices = {c.lower(): c for c in enum_strings(props.get(k))}
            if str(v).lower() == "on" and said != "on" and said in choices:
                out[i] = {**calls[i], "arguments": {**args, k: choices[said]}}
    return conforming(out, calls, schemas) if out != calls else calls


def _not_turning_off(
    calls: Sequence[Any], schemas: Sequence[Mapping[str, Any]]
) -> Iterator[tuple[int, Mapping[str, Any], dict[str, Any]]]:
    """Each call (its place, tool and arguments) that turns nothing off or closes nothing: the
    calls a setting said and left out may be added to ("fan off" takes no speed)."""
    for i, tool, args in _each_call(calls, schemas):
        if not any(v is False or str(v).lower() in ("off", "close") for v in args.values()):
            yield i, tool, args


def _each_call(
    calls: Sequence[Any], schemas: Sequence[Mapping[str, Any]]
) -> Iterator[tuple[int, Mapping[str, Any], dict[str, Any]]]:
    """Each well-formed call's place, tool and arguments."""
    for i, call in enumerate(calls):
        found = _tool_and_args(call, schemas)
        if found is not None:
            yield i, *found


def _all_choices(tool: Mapping[str, Any]) -> list[str]:
    """The enum values of a tool's settings (not of what picks its room or device)."""
    props = _props(tool)
    return [v for k, sch in props.items() if not picks_a_thing(k, sch) for v in enum_strings(sch)]


# words a heating's mode shares with what it does: "heat to 21" asks for a temperature
_WARMING_MODES = frozenset({"heat", "cool", "dry"})


def _said_as_a_choice(q: Sequence[str], at: int, n: int, tool: Mapping[str, Any]) -> bool:
    """Whether a mode word of a temperature tool is said as the mode ("on heat", "to cool",
    "heat mode"), not as what the heating does ("heat to 21", "glasshouse heat to 24")."""
    if not takes_temperature(tool.get("parameters") or {}) or q[at] not in _WARMING_MODES:
        return True
    before = q[at - 1] if at else ""
    after = q[at + n] if at + n < len(q) else ""
    return before in ("on", "to") or after in SETTING_NOUNS


def _settings_of(call: Mapping[str, Any], things: Sequence[str]) -> dict[str, Any]:
    """A call's arguments besides those that pick its room or device."""
    return {k: v for k, v in (call.get("arguments") or {}).items() if k not in things}


def all_unsaid(call: Any, schemas: list[dict[str, Any]], text: str) -> bool:
    """Whether the request says nothing of a call: no room or device it picks (in full or in
    part) and no setting it sets."""
    found = _tool_and_args(call, schemas)
    if found is None:
        return False
    tool, args = found
    props = _props(tool)
    q = words(text)
    things = [k for k in args if picks_a_thing(k, props.get(k))]
    if any(
        not isinstance(args[k], str) or any(w in q for w in words(args[k]) if is_telling(w))
        for k in things
    ):
        return False
    return not says_a_setting(text, tool, args)


def without_no_ops(calls: list[Any], schemas: list[dict[str, Any]], text: str) -> list[Any]:
    """The call list without a call after the first that sets nothing the request says and
    either picks a thing (a room, a device) it never names, of a tool that has settings, or
    repeats an earlier call's tool once every clause has its call (a mode nobody asked for
    after a temperature), or goes to a tool nothing in the request points at: a small model
    often trails a right call with an empty or made-up one ("too bright in the
    den, make it 30 percent" -> the den at 30, then bedroom 7 with nothing set; "counter light
    to orange and 60%" -> then Ivy's room on). A made-up call for a thing the home lacks
    ("the kitchen and the garage on") says its setting, so it stays, and is doubted."""
    if len(calls) < 2 or not text:
        return calls
    unnamed = {
        (u["name"], u["argument"], u["value"]) for u in unnamed_arguments(text, schemas, calls)
    }
    tools = {str(t.get("name")): t for t in schemas}
    props = {n: (t.get("parameters") or {}).get("properties") or {} for n, t in tools.items()}
    # (clauses that ask for something: "..., would you." and "it's getting chilly" ask for
    # no second call)
    clauses = command_clauses(text, thing_names(schemas)[0])
    asked = order_clauses(text, schemas)
    clauses = clauses if asked is None else min(clauses, asked)
    q = words(text)

    def no_op(call: Any, before: list[Any]) -> bool:
        p = props.get(str(call.get("name"))) if isinstance(call, dict) else None
        args = call.get("arguments") if isinstance(call, dict) else None
        if not p or not isinstance(args, dict) or not args:
            return False
        if of_another_kind(text, schemas, calls, call):
            return True  # the stair top's light, where the stair top's blinds were said
        things = [k for k in args if picks_a_thing(k, p.get(k))]
        if (
            things
            and set(args) == set(things)
            and all(isinstance(args[k], str) for k in things)
            and not any(starts_at(words(args[k]), q) for k in things)
        ):
            return True  # a thing nobody said, set to nothing ("the fan off, the wind's up")
        if not things and not pointed_at(text, schemas, call):
            # a call to a tool nothing in the request points at ("close the blinds in the
            # sun lounge, would you?" -> then the cool mode)
            return not says_a_setting(text, tools[str(call.get("name"))], args)
        if (
            not things
            and len(before) >= clauses
            and any(isinstance(c, dict) and c.get("name") == call.get("name") for c in before)
        ):
            # a second call to a tool that sets only what nobody said ("thermostat to twenty
            # one and a half" -> then the cool mode)
            return not says_a_setting(text, tools[str(call.get("name"))], args)
        if things and _repeats_a_thing(call, before, things):
            # the same thing again, set to what nobody said ("quiet room lights to marigold,
            # too harsh in there" -> then the quiet room white), or said only in a statement
            # ("Sami's light back to white, the mauve is giving me a headache")
            return not says_a_setting(ordered(text, schemas), tools[str(call.get("name"))], args)
        settings = any(not picks_a_thing(k, sch) for k, sch in p.items())
        named = any(
            not isinstance(args[k], str) or (call.get("name"), k, args[k]) not in unnamed
            for k in things
        )
        if not things or not settings or named:
            return False
        return not says_a_setting(text, tools[str(call.get("name"))], args)

    # the first call is kept unless another call picks its room for the kind said there
    return [
        c
        for i, c in enumerate(calls)
        if not (no_op(c, calls[:i]) if i else of_another_kind(text, schemas, calls, c))
    ]


# Words of tool names that say what is done, not to what ("set_fan", "adjust_heating").
_VERB_WORDS = frozenset("set switch control adjust turn toggle change run operate".split())


def _in_request_order(text: str, calls: list[Any], schemas: list[dict[str, Any]]) -> list[Any]:
    """Calls sorted by where the request first says the thing each picks (a call that picks
    none keeps its place after the call before it)."""
    props = {
        str(t.get("name")): (t.get("parameters") or {}).get("properties") or {} for t in schemas
    }

    def spoken(v: str) -> str:
        return " ".join(re.findall(r"[a-z0-9']+", v.lower()))

    low = f" {spoken(text)} "

    def said_at(v: str) -> tuple[int, int]:
        # the name in full, else its end alone ("the electric blanket" for the main one)
        ws = spoken(v).split()
        for n in range(len(ws), 0, -1):
            part = " ".join(ws[-n:])
            at = low.find(f" {part} ")
            if at >= 0:
                return at, at + len(part) + 1
        # else its start, if it tells ("cyclone on" for the cyclone extractor)
        for n in range(len(ws) - 1, 0, -1):
            part = " ".join(ws[:n])
            at = low.find(f" {part} ")
            if at >= 0 and all(is_telling(w) for w in ws[:n]):
                return at, at + len(part) + 1
        return -1, -1

    def found(v: str) -> int:
        return said_at(v)[0]

    spans = []  # where the things the calls pick are said
    for call in calls:
        p = props.get(str(call.get("name")), {})
        for k, v in (call.get("arguments") or {}).items():
            if isinstance(v, str) and picks_a_thing(k, p.get(k)) and found(v) >= 0:
                spans.append(said_at(v))
    keys: list[tuple[float, float]] = []
    for call in calls:
        p = props.get(str(call.get("name")), {})
        at = [
            found(v)
            for k, v in (call.get("arguments") or {}).items()
            if isinstance(v, str) and picks_a_thing(k, p.get(k))
        ]
        # where a word of the tool's name is said ("the fan off"): the place of a call that
        # picks no thing, and what orders two calls for one ("night light down to 10, close
        # the blinds in the baby's corner")
        name_words = set(words(str(call.get("name")).replace("_", " ")))  # "house_lights"
        name_words = (name_words | kind_synonyms(name_words)) - _VERB_WORDS
        if takes_temperature({"properties": p}):
            name_words |= HEATING_WORDS  # "heater up to 19, and ..." is the thermostat first
        by_name = [
            m.start()
            for w in name_words
            for m in re.finditer(rf"(?<= ){re.escape(w)}s?(?= )", low)
            if not any(a <= m.start() < b for a, b in spans)  # not "fan" of "the loo fan"
        ]
        at = [a for a in at if a >= 0] or by_name
        second = float(min(by_name)) if by_name else 0.0
        keys.append((float(min(at)), second) if at else (keys[-1][0] + 0.5 if keys else -1.0, 0))
    order = sorted(range(len(calls)), key=lambda i: (keys[i], i))
    return [calls[i] for i in order]


def with_stand_ins_replaced(
    calls: list[Any], added: list[Any], schemas: list[dict[str, Any]], text: str
) -> list[Any]:
    """`calls` without the call each of `added` (calls for things the list left out) stood
    in for: one that picks an earlier call's thing again, setting what the added call sets,
    was the model's try at the left-out thing ("electric blanket on and the kiln off" -> the
    blanket on, then the blanket off); so was one of two calls to a tool of no rooms said
    once ("light off and fan down to murmur" -> the fan off, then the fan at murmur)."""
    kept = list(calls)
    q = words(text)
    for call in added:
        for i, c in enumerate(kept):
            things = _things_of(c, schemas)
            same = _settings_of(c, things) == _settings_of(call, _things_of(call, schemas))
            if (
                things
                and c.get("name") == call.get("name")
                and _repeats_a_thing(c, kept[:i], things)
                and same
            ) or (
                not things
                and same
                and sum(o.get("name") == c.get("name") for o in kept) > 1
                and _said_once(c, schemas, q)
            ):
                del kept[i]
                break
    return kept


def picks_again(
    call: Mapping[str, Any], calls: Sequence[Any], schemas: list[dict[str, Any]]
) -> bool:
    """Whether a call picks a room or device that a call of the same tool in `calls` picks."""
    things = _things_of(call, schemas)
    return bool(things) and _repeats_a_thing(call, calls, things)
