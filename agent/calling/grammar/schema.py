"""JSON Schema -> byte NFA for compact JSON, and the tool-call list grammar.

Output shape: compact JSON (no whitespace), strings in the canonical encoding of
``json.dumps(..., ensure_ascii=False)``, object keys in declared order, optional keys omitted or
present, required keys always present.

Numbers. ``integer``: ``-?(0|[1-9][0-9]*)`` (no ``-0``), bounds enforced digit by digit.
``number``: plain decimal notation, no exponent: ``-?(0|[1-9][0-9]*)(\\.[0-9]+)?``. With a bound,
the value is compared digit by digit as an exact decimal against the bound's shortest decimal
form (``repr`` of a float), and the total number of digits is kept at 15 or fewer whenever a
fraction is written, so the parsed float is ordered against the bound exactly as the decimal is
(15 digits round-trip through a double). Integers with more than 15 digits are still allowed (they
parse to exact ints). An unbounded number has no digit cap.

Objects without ``properties`` and values with no type constraint (``{}``, ``true``, ``items``
absent) admit any JSON value, nested at most ``any_depth`` (default 2) levels of arrays/objects.
"""

from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from agent.calling.grammar.nfa import NFA, Automaton
from agent.calling.grammar.regex import (
    FORMATS,
    CharNFA,
    RegexError,
    any_string,
    compile_pattern,
    intersect_with_length,
)

ANNOTATIONS = frozenset(
    {
        "description",
        "title",
        "default",
        "examples",
        "$schema",
        "$comment",
        "$id",
        "deprecated",
        "readOnly",
        "writeOnly",
    }
)
SUPPORTED = frozenset(
    {
        "type",
        "enum",
        "const",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "items",
        "minItems",
        "maxItems",
        "properties",
        "required",
        "additionalProperties",
        "anyOf",
        "allOf",
        "$ref",
        "$defs",
        "definitions",
    }
)
ENFORCED_FORMATS = frozenset(FORMATS)
TYPES = ("null", "boolean", "object", "array", "number", "integer", "string")
# With no bound, numbers are not digit-capped; with one, fractions keep the total at 15 digits.
SIG_DIGITS = 15


class SchemaError(ValueError):
    """A schema uses something the grammar cannot enforce, or admits no value at all."""

    def __init__(self, tool: str, message: str, keyword: str | None = None, path: str = "") -> None:
        self.tool = tool
        self.keyword = keyword
        self.path = path
        where = f" at {path}" if path else ""
        kw = f" (keyword {keyword!r}{where})" if keyword else where
        super().__init__(f"tool {tool!r}: {message}{kw}")


class _Unsat(Exception):
    """Raised inside compilation when a (sub)schema admits nothing."""


def _is_num(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def _is_count(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def validate_schema(schema: Any, tool: str, path: str = "parameters") -> None:
    """Reject every keyword the grammar cannot enforce; raise :class:`SchemaError`."""
    _validate(schema, path, tool)


def _validate(s: Any, p: str, tool: str) -> None:
    # A module function: as a closure recursing into itself it made a reference cycle per call.
    if isinstance(s, bool):
        return
    if not isinstance(s, Mapping):
        raise SchemaError(tool, "a schema must be an object or a boolean", None, p)
    for k, v in s.items():
        if not isinstance(k, str):
            raise SchemaError(tool, "non-string keyword", None, p)
        if k in ANNOTATIONS or k.startswith("x-"):
            continue
        if k not in SUPPORTED:
            raise SchemaError(tool, "unsupported keyword", k, p)
        kp = f"{p}/{k}"
        if k == "type":
            names = [v] if isinstance(v, str) else v
            if not isinstance(names, list) or not names:
                raise SchemaError(tool, "type must be a name or a list of names", k, p)
            for t in names:
                if t not in TYPES:
                    raise SchemaError(tool, f"unknown type {t!r}", k, p)
        elif k == "enum":
            if not isinstance(v, list) or not v:
                raise SchemaError(tool, "enum must be a non-empty list", k, p)
        elif k in ("minimum", "maximum"):
            if not _is_num(v):
                raise SchemaError(tool, "must be a finite number", k, p)
        elif k in ("exclusiveMinimum", "exclusiveMaximum"):
            if not (_is_num(v) or isinstance(v, bool)):
                raise SchemaError(tool, "must be a number (or a draft-4 boolean)", k, p)
        elif k in ("minLength", "maxLength", "minItems", "maxItems"):
            if not _is_count(v):
                raise SchemaError(tool, "must be a non-negative integer", k, p)
        elif k == "pattern":
            if not isinstance(v, str):
                raise SchemaError(tool, "must be a string", k, p)
            try:
                compile_pattern(v)
            except RegexError as e:
                raise SchemaError(tool, f"unsupported pattern: {e}", k, p) from None
        elif k == "format":
            if not isinstance(v, str):
                raise SchemaError(tool, "must be a string", k, p)
        elif k == "items":
            if isinstance(v, list):
                raise SchemaError(tool, "tuple-form items are not supported", k, p)
            _validate(v, kp, tool)
        elif k == "properties":
            if not isinstance(v, Mapping):
                raise SchemaError(tool, "must be an object", k, p)
            for name, sub in v.items():
                _validate(sub, f"{kp}/{name}", tool)
        elif k == "required":
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise SchemaError(tool, "must be a list of names", k, p)
            props = s.get("properties", {})
            missing = [x for x in v if x not in props]
            if missing:
                raise SchemaError(tool, f"required names undeclared properties {missing}", k, p)
        elif k == "additionalProperties":
            _validate(v, kp, tool)
        elif k in ("anyOf", "allOf"):
            if not isinstance(v, list) or not v:
                raise SchemaError(tool, "must be a non-empty list", k, p)
            for i, sub in enumerate(v):
                _validate(sub, f"{kp}/{i}", tool)
        elif k in ("$defs", "definitions"):
            if not isinstance(v, Mapping):
                raise SchemaError(tool, "must be an object", k, p)
            for name, sub in v.items():
                _validate(sub, f"{kp}/{name}", tool)
        elif k == "$ref":
            if not isinstance(v, str) or not v.startswith("#"):
                raise SchemaError(tool, "only local references (#/...) are supported", k, p)


def _dumps(v: Any) -> bytes:
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def _dec(x: int | float) -> Decimal:
    return Decimal(x) if isinstance(x, int) else Decimal(repr(float(x)))


def _split(d: Decimal) -> tuple[int, str]:
    """Non-negative decimal -> (integer part, fraction digits without trailing zeros)."""
    ip = int(d)
    frac = format(d - ip, "f")
    digits = frac.split(".")[1] if "." in frac else ""
    return ip, digits.rstrip("0")


def _with_integer(types: set[str]) -> set[str]:
    return types | {"integer"} if "number" in types else set(types)


def _uint_pieces(a: int, b: int | None, explicit: int) -> tuple[list[tuple[str, str]], int | None]:
    """Canonical non-negative integers in [a, b] as same-length digit ranges, plus (when b is
    None) the length from which every longer number is allowed."""
    pieces: list[tuple[str, str]] = []
    la = len(str(a))
    if b is not None:
        if b < a:
            return [], None
        lb = len(str(b))
        for n in range(la, lb + 1):
            lo = a if n == la else 10 ** (n - 1)
            hi = b if n == lb else 10**n - 1
            pieces.append((str(lo), str(hi)))
        return pieces, None
    top = max(la, explicit)
    for n in range(la, top + 1):
        lo = a if n == la else 10 ** (n - 1)
        pieces.append((str(lo), "9" * n))
    return pieces, top + 1


_DIGITS = (0x30, 0x39)


class _FracDigits:
    """The digit-wise DP of :meth:`_Compiler._bounded_frac`: one state per (digits written,
    still equal to lo's prefix, still equal to hi's prefix). A class rather than nested
    closures: mutually recursive closures form a reference cycle that kept the whole builder
    NFA alive until the cyclic garbage collector ran."""

    __slots__ = ("nfa", "lo", "lo_strict", "hi", "hi_strict", "cap", "end", "memo")

    def __init__(
        self,
        nfa: NFA,
        lo: str | None,
        lo_strict: bool,
        hi: str | None,
        hi_strict: bool,
        cap: int,
        end: int,
    ) -> None:
        self.nfa = nfa
        self.lo, self.lo_strict, self.hi, self.hi_strict = lo, lo_strict, hi, hi_strict
        self.cap = cap
        self.end = end
        self.memo: dict[tuple[int, bool, bool], int] = {}

    def ok(self, i: int, tl: bool, th: bool) -> bool:
        if tl and (self.lo[i:] or self.lo_strict):  # type: ignore[index]
            return False
        return not (th and not self.hi[i:] and self.hi_strict)  # type: ignore[index]

    def trans(self, src: int, i: int, tl: bool, th: bool) -> None:
        lo, hi = self.lo, self.hi
        groups: dict[tuple[int, bool, bool], list[int]] = {}
        for d in range(10):
            ntl, nth = tl, th
            if tl:
                ld = int(lo[i]) if i < len(lo) else 0  # type: ignore[arg-type,index]
                if d < ld:
                    continue
                ntl = d == ld
            if th:
                hd = int(hi[i]) if i < len(hi) else 0  # type: ignore[arg-type,index]
                if d > hd:
                    continue
                nth = d == hd
            groups.setdefault((i + 1, ntl, nth), []).append(d)
        nfa = self.nfa
        for key, ds in groups.items():
            tgt = self.state(*key)
            for d in ds:
                nfa.byte(src, 0x30 + d, 0x30 + d, tgt)

    def state(self, i: int, tl: bool, th: bool) -> int:
        key = (i, tl, th)
        st = self.memo.get(key)
        if st is not None:
            return st
        st = self.nfa.new()
        self.memo[key] = st
        if self.ok(i, tl, th):
            self.nfa.epsilon(st, self.end)
        if i < self.cap:
            self.trans(st, i, tl, th)
        return st


class _Compiler:
    def __init__(self, nfa: NFA, tool: str, root: Any, any_depth: int = 2) -> None:
        self.nfa = nfa
        self.tool = tool
        self.root = root
        self.any_depth = any_depth
        self.active: list[str] = []

    def err(self, msg: str, kw: str | None = None, path: str = "") -> SchemaError:
        return SchemaError(self.tool, msg, kw, path)

    # -- schema plumbing ----------------------------------------------------------------------
    def resolve(self, schema: Any, path: str, pushed: list[str]) -> Any:
        """Inline $ref and allOf into one schema (bool or dict).

        References being expanded stay on ``self.active`` until the value that inlined them is
        fully compiled, so a reference reached again inside its own expansion is recursion.
        """
        if isinstance(schema, bool):
            return schema
        schema = dict(schema)
        if "$ref" in schema:
            ref = schema.pop("$ref")
            if ref in self.active:
                raise self.err("recursive $ref is not supported", "$ref", path)
            self.active.append(ref)
            pushed.append(ref)
            target = self.resolve(self.lookup(ref, path), path, pushed)
            schema = self.merge(target, schema, path)
            if isinstance(schema, dict) and ("$ref" in schema or "allOf" in schema):
                schema = self.resolve(schema, path, pushed)
        if isinstance(schema, dict) and "allOf" in schema:
            parts = schema.pop("allOf")
            for i, sub in enumerate(parts):
                sub = self.resolve(sub, f"{path}/allOf/{i}", pushed)
                schema = self.merge(schema, sub, path)
                if isinstance(schema, bool):
                    break
        return schema

    def lookup(self, ref: str, path: str) -> Any:
        node = self.root
        for part in ref.lstrip("#").split("/"):
            if not part:
                continue
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, Mapping) or part not in node:
                raise self.err(f"unresolvable reference {ref!r}", "$ref", path)
            node = node[part]
        return node

    def merge(self, a: Any, b: Any, path: str) -> Any:
        """Conjunction of two schemas, for the keyword combinations that stay enforceable."""
        if a is False or b is False:
            return False
        if a is True:
            return b
        if b is True:
            return a
        out = dict(a)
        for k, v in b.items():
            if k not in out or out[k] == v or k in ANNOTATIONS:
                out.setdefault(k, v)
                continue
            if k == "type":
                ta = {out[k]} if isinstance(out[k], str) else set(out[k])
                tb = {v} if isinstance(v, str) else set(v)
                both = _with_integer(ta) & _with_integer(tb)
                if "number" in both:
                    both.discard("integer")
                out[k] = sorted(both)
            elif k == "required":
                out[k] = list(dict.fromkeys(list(out[k]) + list(v)))
            elif k in ("minimum", "exclusiveMinimum", "minLength", "minItems"):
                out[k] = max(out[k], v)
            elif k in ("maximum", "exclusiveMaximum", "maxLength", "maxItems"):
                out[k] = min(out[k], v)
            elif k == "anyOf":
                out[k] = [self.merge(x, y, path) for x in out[k] for y in v]
            elif k == "properties" and isinstance(v, Mapping):
                props = dict(out[k])
                for name, sub in v.items():
                    props[name] = self.merge(props[name], sub, path) if name in props else sub
                out[k] = props
            else:
                raise self.err("conflicting values in a combination", k, path)
        return out

    # -- values -------------------------------------------------------------------------------
    def value(self, s: int, schema: Any, path: str, depth: int | None = None) -> int:
        pushed: list[str] = []
        try:
            return self._value(s, self.resolve(schema, path, pushed), path, depth)
        finally:
            for _ in pushed:
                self.active.pop()

    def _value(self, s: int, schema: Any, path: str, depth: int | None) -> int:
        if schema is True:
            return self.any_value(s, self.any_depth if depth is None else depth)
        if schema is False:
            raise _Unsat(path)
        if "anyOf" in schema:
            rest = {k: v for k, v in schema.items() if k != "anyOf"}
            end = self.nfa.new()
            built = 0
            for i, br in enumerate(schema["anyOf"]):
                merged = self.merge(rest, br, path)
                a = self.nfa.new()
                try:
                    e = self.value(a, merged, f"{path}/anyOf/{i}", depth)
                except _Unsat:
                    continue
                self.nfa.epsilon(s, a)
                self.nfa.epsilon(e, end)
                built += 1
            if not built:
                raise _Unsat(path)
            return end
        if "enum" in schema or "const" in schema:
            return self.enum(s, schema, path)
        t = schema.get("type")
        if t is None:
            types = ["null", "boolean", "object", "array", "number", "string"]
        else:
            types = [t] if isinstance(t, str) else list(dict.fromkeys(t))
        if "integer" in types and "number" in types:
            types.remove("integer")
        if not types:
            raise _Unsat(path)
        if len(types) == 1:
            return self.typed(s, types[0], schema, path, depth)
        end = self.nfa.new()
        built = 0
        for ty in types:
            a = self.nfa.new()
            try:
                e = self.typed(a, ty, schema, path, depth)
            except _Unsat:
                continue
            self.nfa.epsilon(s, a)
            self.nfa.epsilon(e, end)
            built += 1
        if not built:
            raise _Unsat(path)
        return end

    def typed(self, s: int, ty: str, schema: dict, path: str, depth: int | None) -> int:
        nfa = self.nfa
        if ty == "null":
            return nfa.literal(s, b"null")
        if ty == "boolean":
            end = nfa.new()
            nfa.literal(s, b"true", end)
            nfa.literal(s, b"false", end)
            return end
        if ty == "string":
            return self.string(s, schema, path)
        if ty == "integer":
            return self.integer(s, schema, path)
        if ty == "number":
            return self.number(s, schema, path)
        if ty == "array":
            return self.array(s, schema, path, depth)
        return self.object(s, schema, path, depth)

    def enum(self, s: int, schema: dict, path: str) -> int:
        values = list(schema["enum"]) if "enum" in schema else None
        if "const" in schema:
            c = _dumps(schema["const"])
            values = [schema["const"]] if values is None else [v for v in values if _dumps(v) == c]
        rest = {k: v for k, v in schema.items() if k not in ("enum", "const")}
        encoded = list(dict.fromkeys(_dumps(v) for v in values))
        if any(k not in ANNOTATIONS for k in rest):
            check = compile_value(rest, tool=self.tool, path=path, root=self.root)
            encoded = [e for e in encoded if check.matches(e)]
        if not encoded:
            raise self.err("no enum/const value satisfies the rest of the schema", "enum", path)
        end = self.nfa.new()
        for e in encoded:
            self.nfa.literal(s, e, end)
        return end

    def string(self, s: int, schema: dict, path: str) -> int:
        fmt = schema.get("format")
        cnfa = _string_nfa(
            schema.get("pattern"),
            fmt if fmt in ENFORCED_FORMATS else None,
            schema.get("minLength", 0),
            schema.get("maxLength"),
        )
        if not cnfa.accepting:
            raise _Unsat(path)
        nfa = self.nfa
        first = nfa.literal(s, b'"')
        states = [first] + [nfa.new() for _ in range(len(cnfa.edges) - 1)]
        end = nfa.new()
        for q, out in enumerate(cnfa.edges):
            for cs, tg in out:
                nfa.json_char(states[q], cs, states[tg])
        for q in cnfa.accepting:
            nfa.byte(states[q], 0x22, 0x22, end)
        return end

    # -- numbers ------------------------------------------------------------------------------
    def _bounds(self, schema: dict) -> tuple[Decimal | None, bool, Decimal | None, bool]:
        lo: Decimal | None = None
        lo_strict = False
        hi: Decimal | None = None
        hi_strict = False
        emin, emax = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
        if "minimum" in schema:
            lo, lo_strict = _dec(schema["minimum"]), emin is True
        if "maximum" in schema:
            hi, hi_strict = _dec(schema["maximum"]), emax is True
        if _is_num(emin):
            d = _dec(emin)
            if lo is None or d >= lo:
                lo, lo_strict = d, True
        if _is_num(emax):
            d = _dec(emax)
            if hi is None or d <= hi:
                hi, hi_strict = d, True
        return lo, lo_strict, hi, hi_strict

    def integer(self, s: int, schema: dict, path: str) -> int:
        lo_d, lo_strict, hi_d, hi_strict = self._bounds(schema)
        lo = hi = None
        if lo_d is not None:
            lo = math.floor(lo_d) + 1 if lo_strict else math.ceil(lo_d)
        if hi_d is not None:
            hi = math.ceil(hi_d) - 1 if hi_strict else math.floor(hi_d)
        if lo is not None and hi is not None and lo > hi:
            raise _Unsat(path)
        nfa = self.nfa
        end = nfa.new()
        if lo is None and hi is None:
            nfa.epsilon(self._unbounded_int(s), end)
            return end
        if hi is None or hi >= 0:
            self._uint(s, max(lo, 0) if lo is not None else 0, hi, end, explicit=0)
        if lo is None or lo < 0:
            a = max(1, -hi) if hi is not None and hi < 0 else 1
            b = -lo if lo is not None else None
            self._uint(nfa.literal(s, b"-"), a, b, end, explicit=0)
        return end

    def _unbounded_int(self, s: int) -> int:
        nfa = self.nfa
        end = nfa.new()
        loop = nfa.new()
        nfa.byte(s, 0x30, 0x30, end)
        nfa.byte(s, 0x31, 0x39, loop)
        # No "-0": not canonical.
        nfa.byte(nfa.literal(s, b"-"), 0x31, 0x39, loop)
        nfa.byte(loop, *_DIGITS, loop)
        nfa.epsilon(loop, end)
        return end

    def _digits(self, s: int, lo: str, hi: str, end: int | None = None) -> int:
        """Same-length digit strings between lo and hi inclusive."""
        nfa = self.nfa
        if not lo:
            if end is not None:
                nfa.epsilon(s, end)
                return end
            return s
        if lo[1:] == "0" * (len(lo) - 1) and hi[1:] == "9" * (len(hi) - 1):
            cur = nfa.byte(s, ord(lo[0]), ord(hi[0]), end if len(lo) == 1 else None)
            for i in range(1, len(lo)):
                cur = nfa.byte(cur, *_DIGITS, end if i == len(lo) - 1 else None)
            return cur
        if lo[0] == hi[0]:
            nxt = nfa.byte(s, ord(lo[0]), ord(lo[0]))
            return self._digits(nxt, lo[1:], hi[1:], end)
        if end is None:
            end = nfa.new()
        n = len(lo) - 1
        self._digits(nfa.byte(s, ord(lo[0]), ord(lo[0])), lo[1:], "9" * n, end)
        if ord(lo[0]) + 1 <= ord(hi[0]) - 1:
            self._digits(nfa.byte(s, ord(lo[0]) + 1, ord(hi[0]) - 1), "0" * n, "9" * n, end)
        self._digits(nfa.byte(s, ord(hi[0]), ord(hi[0])), "0" * n, hi[1:], end)
        return end

    def _uint(
        self,
        s: int,
        a: int,
        b: int | None,
        end: int,
        explicit: int,
        frac: int | None = None,
    ) -> None:
        """Canonical integers in [a, b] (b None: unbounded); with frac set, each piece of
        length n may carry a free fraction of up to frac - n digits."""
        pieces, tail = _uint_pieces(a, b, explicit)
        nfa = self.nfa
        for lo, hi in pieces:
            e = self._digits(s, lo, hi)
            if frac is not None:
                self._free_frac(e, frac - len(lo), end)
            else:
                nfa.epsilon(e, end)
        if tail is not None:
            cur = nfa.byte(s, 0x31, 0x39)
            for _ in range(tail - 1):
                cur = nfa.byte(cur, *_DIGITS)
            nfa.byte(cur, *_DIGITS, cur)
            nfa.epsilon(cur, end)

    def _free_frac(self, s: int, cap: int, end: int) -> None:
        nfa = self.nfa
        nfa.epsilon(s, end)
        if cap <= 0:
            return
        cur = nfa.literal(s, b".")
        for _ in range(cap):
            cur = nfa.byte(cur, *_DIGITS)
            nfa.epsilon(cur, end)

    def _bounded_frac(
        self,
        s: int,
        lo: str | None,
        lo_strict: bool,
        hi: str | None,
        hi_strict: bool,
        cap: int,
        end: int,
    ) -> None:
        """Optional fraction whose value 0.d1d2... lies within [0.lo, 0.hi] (digit-wise DP)."""
        nfa = self.nfa
        dp = _FracDigits(nfa, lo, lo_strict, hi, hi_strict, cap, end)
        tl0, th0 = lo is not None, hi is not None
        if dp.ok(0, tl0, th0):
            nfa.epsilon(s, end)
        if cap >= 1:
            dp.trans(nfa.literal(s, b"."), 0, tl0, th0)

    def _unum(
        self,
        s: int,
        low: Decimal,
        low_strict: bool,
        high: Decimal | None,
        high_strict: bool,
        end: int,
    ) -> None:
        """Non-negative decimal magnitudes within the bounds (low is always given)."""
        nfa = self.nfa
        la, lf = _split(low)
        if high is None:
            self._uint(s, la + 1, None, end, explicit=SIG_DIGITS, frac=SIG_DIGITS)
            x = nfa.literal(s, str(la).encode())
            self._bounded_frac(x, lf, low_strict, None, False, SIG_DIGITS - len(str(la)), end)
            return
        ha, hf = _split(high)
        if la < ha:
            if la + 1 <= ha - 1:
                self._uint(s, la + 1, ha - 1, end, explicit=SIG_DIGITS, frac=SIG_DIGITS)
            x = nfa.literal(s, str(la).encode())
            self._bounded_frac(x, lf, low_strict, None, False, SIG_DIGITS - len(str(la)), end)
            y = nfa.literal(s, str(ha).encode())
            self._bounded_frac(y, None, False, hf, high_strict, SIG_DIGITS - len(str(ha)), end)
        elif la == ha:
            x = nfa.literal(s, str(la).encode())
            cap = SIG_DIGITS - len(str(la))
            self._bounded_frac(x, lf, low_strict, hf, high_strict, cap, end)

    def number(self, s: int, schema: dict, path: str) -> int:
        lo, lo_strict, hi, hi_strict = self._bounds(schema)
        nfa = self.nfa
        end = nfa.new()
        if lo is None and hi is None:
            e = self._unbounded_int(s)
            # "-0" only as the start of "-0.xxx".
            neg_zero = nfa.literal(s, b"-0")
            dot = nfa.literal(e, b".")
            nfa.literal(neg_zero, b".", dot)
            digits = nfa.byte(dot, *_DIGITS)
            nfa.byte(digits, *_DIGITS, digits)
            nfa.epsilon(e, end)
            nfa.epsilon(digits, end)
            return end
        if lo is not None and hi is not None:
            if lo > hi or (lo == hi and (lo_strict or hi_strict)):
                raise _Unsat(path)
        zero = Decimal(0)
        # Non-negative side.
        if hi is None or hi > zero or (hi == zero and not hi_strict):
            if lo is not None and lo >= zero:
                self._unum(s, lo, lo_strict, hi, hi_strict, end)
            else:
                self._unum(s, zero, False, hi, hi_strict, end)
        # Negative side: "-" then a magnitude > 0.
        if lo is None or lo < zero:
            neg = nfa.literal(s, b"-")
            if hi is not None and hi < zero:
                low, low_strict = -hi, hi_strict
            else:
                low, low_strict = zero, True
            self._unum(neg, low, low_strict, -lo if lo is not None else None, lo_strict, end)
        return end

    # -- containers ---------------------------------------------------------------------------
    def array(self, s: int, schema: dict, path: str, depth: int | None) -> int:
        nfa = self.nfa
        items = schema.get("items", True)
        mn = schema.get("minItems", 0)
        mx = schema.get("maxItems")
        if items is False:
            mx = 0
        if mx is not None and mx < mn:
            raise _Unsat(path)
        sub_depth = None if depth is None else depth - 1
        if items is True and sub_depth is None:
            sub_depth = self.any_depth - 1
        ipath = f"{path}/items"
        open_ = nfa.literal(s, b"[")
        end = nfa.new()
        if mn == 0:
            nfa.literal(open_, b"]", end)
        if mx == 0:
            return end
        cur = self.value(open_, items, ipath, sub_depth)
        count = 1
        while count < mn:
            cur = self.value(nfa.literal(cur, b","), items, ipath, sub_depth)
            count += 1
        if mx is None:
            loop_end = self.value(nfa.literal(cur, b","), items, ipath, sub_depth)
            nfa.epsilon(loop_end, cur)
            nfa.literal(cur, b"]", end)
            return end
        nfa.literal(cur, b"]", end)
        while count < mx:
            cur = self.value(nfa.literal(cur, b","), items, ipath, sub_depth)
            nfa.literal(cur, b"]", end)
            count += 1
        return end

    def object(self, s: int, schema: dict, path: str, depth: int | None) -> int:
        nfa = self.nfa
        props = schema.get("properties")
        if props is None:
            return self.free_object(s, schema.get("additionalProperties", True), path, depth)
        required = set(schema.get("required", ()))
        none_yet: int | None = nfa.literal(s, b"{")
        some: int | None = None
        sub_depth = None if depth is None else depth - 1
        for name, sub in props.items():
            ppath = f"{path}/properties/{name}"
            key = _dumps(name) + b":"
            start = nfa.new()
            try:
                v_end = self.value(start, sub, ppath, sub_depth)
            except _Unsat:
                # Even an optional property that can never be written is a schema mistake.
                raise self.err("the property schema admits no value", None, ppath) from None
            if none_yet is not None:
                nfa.literal(none_yet, key, start)
            if some is not None:
                nfa.literal(some, b"," + key, start)
            if name in required:
                none_yet, some = None, v_end
            else:
                merged = nfa.new()
                nfa.epsilon(v_end, merged)
                if some is not None:
                    nfa.epsilon(some, merged)
                some = merged
        end = nfa.new()
        for st in (none_yet, some):
            if st is not None:
                nfa.literal(st, b"}", end)
        return end

    def free_object(self, s: int, values: Any, path: str, depth: int | None) -> int:
        nfa = self.nfa
        open_ = nfa.literal(s, b"{")
        end = nfa.new()
        nfa.literal(open_, b"}", end)
        if values is False:
            return end
        d = self.any_depth if depth is None else depth
        if values is True and d <= 0:
            return end
        key_start = nfa.new()
        nfa.epsilon(open_, key_start)
        colon = nfa.literal(self.string(key_start, {}, path), b":")
        v_end = self.value(colon, values, f"{path}/additionalProperties", d - 1)
        nfa.literal(v_end, b",", key_start)
        nfa.literal(v_end, b"}", end)
        return end

    def any_value(self, s: int, depth: int) -> int:
        nfa = self.nfa
        end = nfa.new()
        for lit in (b"null", b"true", b"false"):
            nfa.literal(s, lit, end)
        nfa.epsilon(self.number(s, {}, ""), end)
        nfa.epsilon(self.string(s, {}, ""), end)
        if depth > 0:
            nfa.epsilon(self.array(s, {}, "", depth), end)
            nfa.epsilon(self.free_object(s, True, "", depth), end)
        return end


# Character NFAs of string constraints, shared across tools and compiles (a session compiles
# the call grammar of each tool subset). Bounded in entries, and large ones (a long pattern
# under a long maxLength runs to 10^5 states) are not kept at all.
_STRING_CACHE_ENTRIES = 64
_STRING_CACHE_MAX_STATES = 2048
_string_cache: OrderedDict[tuple[str | None, str | None, int, int | None], CharNFA] = OrderedDict()
_string_cache_lock = threading.Lock()


def _string_nfa(pattern: str | None, fmt: str | None, mn: int, mx: int | None) -> CharNFA:
    key = (pattern, fmt, mn, mx)
    with _string_cache_lock:
        hit = _string_cache.get(key)
        if hit is not None:
            _string_cache.move_to_end(key)
            return hit
    parts = []
    if pattern is not None:
        parts.append(compile_pattern(pattern))
    if fmt is not None:
        parts.append(compile_pattern(FORMATS[fmt]))
    if not parts:
        parts.append(any_string())
    cnfa = intersect_with_length(parts, mn, mx)
    if len(cnfa.edges) <= _STRING_CACHE_MAX_STATES:
        with _string_cache_lock:
            _string_cache[key] = cnfa
            while len(_string_cache) > _STRING_CACHE_ENTRIES:
                _string_cache.popitem(last=False)
    return cnfa


def _tool_fields(tool: Any) -> tuple[str, Any]:
    if isinstance(tool, Mapping):
        return tool["name"], tool.get("parameters", {"type": "object", "properties": {}})
    return tool.name, tool.parameters


def compile_value(
    schema: Any,
    tool: str = "<schema>",
    path: str = "",
    root: Any = None,
    any_depth: int = 2,
) -> Automaton:
    """Automaton for one JSON value conforming to schema (validated first)."""
    validate_schema(schema, tool, path or "schema")
    nfa = NFA()
    start = nfa.new()
    comp = _Compiler(nfa, tool, schema if root is None else root, any_depth)
    try:
        end = comp.value(start, schema, path)
    except _Unsat:
        raise SchemaError(tool, "the schema admits no value", None, path) from None
    return Automaton(nfa, start, end)


def compile_calls(
    tools: Sequence[Any],
    require_call: bool = False,
    max_calls: int | None = None,
    any_depth: int = 2,
) -> Automaton:
    """Automaton for the call list ``[{"name":..,"arguments":{..}}, ...]``.

    ``tools`` are :class:`agent.calling.tools.Tool` objects or ``{"name", "parameters"}`` dicts. The
    empty list ``[]`` is admitted unless ``require_call``; ``max_calls`` bounds the list length.
    """
    nfa = NFA()
    start = nfa.new()
    open_ = nfa.literal(start, b"[")
    end = nfa.new()
    if not require_call:
        nfa.literal(open_, b"]", end)
    if not tools or max_calls == 0:
        if require_call:
            raise SchemaError("<tools>", "require_call with no tools admits nothing")
        return Automaton(nfa, start, end)
    names = [_tool_fields(t)[0] for t in tools]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SchemaError(sorted(dup)[0], "duplicate tool name")
    call_start = nfa.new()
    nfa.epsilon(open_, call_start)
    call_end = _build_call(nfa, tools, call_start, any_depth)
    if max_calls is None:
        nfa.literal(call_end, b",", call_start)
        nfa.literal(call_end, b"]", end)
    else:
        # Unrolled so the count stays bounded: a copy of the call body per position. The
        # copies are virtual (NFA.repeat): their state numbers are those of building each one
        # after a "," from the previous call's end, but only the first is stored.
        nfa.literal(call_end, b"]", end)
        if max_calls > 1:
            nfa.repeat(call_start, max_calls, call_end, 0x2C, 0x2C)
    return Automaton(nfa, start, end)


def _build_call(nfa: NFA, tools: Sequence[Any], s: int, any_depth: int) -> int:
    head = nfa.literal(s, b'{"name":')
    call_end = nfa.new()
    for tool in tools:
        name, params = _tool_fields(tool)
        validate_schema(params, name)
        comp = _Compiler(nfa, name, params, any_depth)
        args = nfa.literal(head, _dumps(name) + b',"arguments":')
        try:
            a_end = comp.value(args, params, "parameters")
        except _Unsat:
            raise SchemaError(name, "the parameters schema admits no value") from None
        nfa.literal(a_end, b"}", call_end)
    return call_end
