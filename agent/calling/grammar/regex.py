"""The regex subset accepted in ``pattern``, compiled to a character-level NFA.

Supported syntax (everything else is rejected with :class:`RegexError`):

- literal characters, and ``\\`` escapes of any ASCII punctuation (``\\. \\( \\[ \\\\``);
- ``\\n \\r \\t \\f \\v \\0`` and ``\\uXXXX`` (not a surrogate);
- ``.`` (any character but ``\\n \\r`` U+2028 U+2029, as in ECMA-262);
- ``\\d \\w \\s`` as the ASCII classes ``[0-9]``, ``[A-Za-z0-9_]``, ``[ \\t\\n\\r\\f\\v]``, and
  ``\\D \\W \\S`` as their complements *within ASCII*. Python's ``re`` (which ``jsonschema`` uses)
  gives the shorthands Unicode meaning; the ASCII reading keeps every output valid both ways;
- classes ``[...]`` with ranges, escapes and the shorthands, and negation ``[^...]`` (a negated
  class that contains a shorthand is complemented within ASCII, for the same reason);
- groups ``(...)`` and ``(?:...)``, alternation ``|``;
- quantifiers ``? * + {m} {m,} {m,n}`` (greedy; lazy or possessive forms are rejected;
  bounds at most 1000);
- anchors ``^`` at the start and ``$`` at the end of a top-level alternative only.

JSON Schema patterns are unanchored (``re.search``): an alternative without ``^`` may be
preceded by any text and one without ``$`` followed by any text.

Backreferences, lookaround, ``\\b``, named groups, flags and Unicode property classes are not
supported.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent.calling.grammar import charset as C
from agent.calling.grammar.charset import Charset

MAX_REPEAT = 1000


class RegexError(ValueError):
    pass


# AST: ("set", Charset) | ("cat", list) | ("alt", list) | ("rep", node, min, max|None)
#      | ("bol",) | ("eol",)
Node = tuple


_SIMPLE_ESC = {"n": "\n", "r": "\r", "t": "\t", "f": "\f", "v": "\v", "0": "\0"}
_CLASS_ESC = {
    "d": (C.DIGIT, False),
    "w": (C.WORD, False),
    "s": (C.SPACE, False),
    "D": (C.DIGIT, True),
    "W": (C.WORD, True),
    "S": (C.SPACE, True),
}


class _Parser:
    def __init__(self, src: str) -> None:
        self.src = src
        self.i = 0

    def error(self, msg: str) -> RegexError:
        return RegexError(f"pattern {self.src!r}: {msg} at offset {self.i}")

    def peek(self) -> str | None:
        return self.src[self.i] if self.i < len(self.src) else None

    def take(self) -> str:
        c = self.src[self.i]
        self.i += 1
        return c

    def parse(self) -> Node:
        node = self.alt()
        if self.i != len(self.src):
            raise self.error("unbalanced ')'")
        return node

    def alt(self) -> Node:
        branches = [self.cat()]
        while self.peek() == "|":
            self.take()
            branches.append(self.cat())
        return branches[0] if len(branches) == 1 else ("alt", branches)

    def cat(self) -> Node:
        items: list[Node] = []
        while (c := self.peek()) is not None and c not in "|)":
            items.append(self.quantified())
        return ("cat", items)

    def quantified(self) -> Node:
        atom = self.atom()
        while (c := self.peek()) is not None and c in "?*+{":
            if atom[0] in ("bol", "eol"):
                raise self.error("quantified anchor")
            if c == "{":
                save = self.i
                q = self.braces()
                if q is None:
                    self.i = save
                    break
                lo, hi = q
            else:
                self.take()
                lo, hi = {"?": (0, 1), "*": (0, None), "+": (1, None)}[c]
            if self.peek() in ("?", "+"):
                raise self.error("lazy/possessive quantifiers are not supported")
            atom = ("rep", atom, lo, hi)
        return atom

    def braces(self) -> tuple[int, int | None] | None:
        self.take()
        j = self.src.find("}", self.i)
        if j < 0:
            return None
        body = self.src[self.i : j]
        parts = body.split(",")
        try:
            if len(parts) == 1:
                lo = hi = int(parts[0])
            elif len(parts) == 2:
                lo = int(parts[0])
                hi = int(parts[1]) if parts[1] else None
            else:
                return None
        except ValueError:
            return None
        if lo > MAX_REPEAT or (hi is not None and (hi > MAX_REPEAT or hi < lo)):
            raise self.error("repeat bounds out of range")
        self.i = j + 1
        return lo, hi

    def atom(self) -> Node:
        c = self.take()
        if c == "(":
            if self.peek() == "?":
                if self.src.startswith("?:", self.i):
                    self.i += 2
                else:
                    raise self.error("only (?:...) groups are supported")
            node = self.alt()
            if self.peek() != ")":
                raise self.error("missing ')'")
            self.take()
            return node
        if c == "[":
            return ("set", self.cls())
        if c == ".":
            return ("set", C.DOT)
        if c == "^":
            return ("bol",)
        if c == "$":
            return ("eol",)
        if c == "\\":
            cs, neg = self.escape(in_class=False)
            return ("set", C.complement(cs, C.ASCII) if neg else cs)
        if c in "*+?":
            raise self.error(f"nothing to repeat before {c!r}")
        # Like Python's re, a brace that does not start a quantifier is a literal.
        return ("set", C.of_chars(c))

    def escape(self, in_class: bool) -> tuple[Charset, bool]:
        if self.peek() is None:
            raise self.error("trailing backslash")
        c = self.take()
        if c in _CLASS_ESC:
            return _CLASS_ESC[c]
        if c in _SIMPLE_ESC:
            return C.of_chars(_SIMPLE_ESC[c]), False
        if c == "u":
            h = self.src[self.i : self.i + 4]
            if len(h) != 4 or any(x not in "0123456789abcdefABCDEF" for x in h):
                raise self.error("bad \\u escape")
            self.i += 4
            cp = int(h, 16)
            if 0xD800 <= cp <= 0xDFFF:
                raise self.error("surrogate escape")
            return ((cp, cp),), False
        if c == "b" and in_class:
            return C.of_chars("\b"), False
        if c.isascii() and not c.isalnum():
            return C.of_chars(c), False
        raise self.error(f"unsupported escape \\{c}")

    def cls(self) -> Charset:
        neg = self.peek() == "^"
        if neg:
            self.take()
        members: list[tuple[int, int]] = []
        has_shorthand = False
        first = True
        while True:
            c = self.peek()
            if c is None:
                raise self.error("missing ']'")
            if c == "]" and not first:
                self.take()
                break
            first = False
            lo_cs, was_short = self.class_atom()
            if was_short:
                has_shorthand = True
                members.extend(lo_cs)
                continue
            if self.peek() == "-" and self.src[self.i + 1 : self.i + 2] not in ("]", ""):
                self.take()
                hi_cs, hi_short = self.class_atom()
                if hi_short:
                    raise self.error("class shorthand in a range")
                lo, hi = lo_cs[0][0], hi_cs[0][0]
                if lo > hi:
                    raise self.error("reversed range")
                members.append((lo, hi))
            else:
                members.extend(lo_cs)
        cs = C.normalize(members)
        if neg:
            return C.complement(cs, C.ASCII if has_shorthand else None)
        return cs

    def class_atom(self) -> tuple[Charset, bool]:
        c = self.take()
        if c == "\\":
            k = self.peek()
            cs, neg = self.escape(in_class=True)
            if k in _CLASS_ESC:
                return (C.complement(cs, C.ASCII) if neg else cs), True
            return cs, False
        if c == "[" and self.peek() in (":", "=", "."):
            raise self.error("POSIX classes are not supported")
        return C.of_chars(c), False


def parse(src: str) -> Node:
    return _Parser(src).parse()


@dataclass
class CharNFA:
    """Epsilon-free NFA over characters: ``edges[q]`` is a list of (charset, target)."""

    start: int
    edges: list[list[tuple[Charset, int]]]
    accepting: set[int]


class _Thompson:
    def __init__(self) -> None:
        self.edges: list[list[tuple[Charset, int]]] = []
        self.eps: list[list[int]] = []

    def new(self) -> int:
        self.edges.append([])
        self.eps.append([])
        return len(self.edges) - 1

    def build(self, node: Node, s: int) -> int:
        kind = node[0]
        if kind == "set":
            t = self.new()
            if node[1]:
                self.edges[s].append((node[1], t))
            return t
        if kind == "cat":
            for child in node[1]:
                s = self.build(child, s)
            return s
        if kind == "alt":
            end = self.new()
            for child in node[1]:
                a = self.new()
                self.eps[s].append(a)
                self.eps[self.build(child, a)].append(end)
            return end
        if kind == "rep":
            _, child, lo, hi = node
            for _ in range(lo):
                s = self.build(child, s)
            if hi is None:
                loop = self.new()
                self.eps[s].append(loop)
                self.eps[self.build(child, loop)].append(loop)
                return loop
            end = self.new()
            self.eps[s].append(end)
            for _ in range(hi - lo):
                s = self.build(child, s)
                self.eps[s].append(end)
            return end
        raise RegexError(f"anchor {kind} not at an end of the pattern")


def _strip_anchors(branch: Node) -> tuple[Node, bool, bool]:
    items = list(branch[1]) if branch[0] == "cat" else [branch]
    bol = bool(items) and items[0] == ("bol",)
    if bol:
        items = items[1:]
    eol = bool(items) and items[-1] == ("eol",)
    if eol:
        items = items[:-1]
    return ("cat", items), bol, eol


def compile_pattern(src: str) -> CharNFA:
    """Character NFA for the strings that ``re.search(src, s)`` would match (subset, see
    module docstring)."""
    tree = parse(src)
    branches = tree[1] if tree[0] == "alt" else [tree]
    any_star: Node = ("rep", ("set", C.ANY), 0, None)
    alts = []
    for br in branches:
        body, bol, eol = _strip_anchors(br)
        items = ([] if bol else [any_star]) + [body] + ([] if eol else [any_star])
        alts.append(("cat", items))
    return to_char_nfa(("alt", alts) if len(alts) > 1 else alts[0])


def to_char_nfa(tree: Node) -> CharNFA:
    t = _Thompson()
    start = t.new()
    end = t.build(tree, start)
    # Epsilon removal: each state's edges become those of its closure.
    n = len(t.edges)
    closures: list[set[int]] = []
    for s in range(n):
        seen = {s}
        stack = [s]
        while stack:
            for x in t.eps[stack.pop()]:
                if x not in seen:
                    seen.add(x)
                    stack.append(x)
        closures.append(seen)
    # Keep only states reachable by character edges (plus start) to stay small.
    keep = [start] + sorted({tg for s in range(n) for _, tg in t.edges[s]} - {start})
    index = {s: i for i, s in enumerate(keep)}
    edges: list[list[tuple[Charset, int]]] = []
    accepting: set[int] = set()
    for s in keep:
        out: list[tuple[Charset, int]] = []
        for x in closures[s]:
            out.extend((cs, index[tg]) for cs, tg in t.edges[x])
        edges.append(out)
        if end in closures[s]:
            accepting.add(index[s])
    return CharNFA(0, edges, accepting)


def any_string() -> CharNFA:
    return CharNFA(0, [[(C.ANY, 0)]], {0})


def intersect_with_length(
    parts: list[CharNFA], min_len: int, max_len: int | None, limit: int = 200_000
) -> CharNFA:
    """Product of character NFAs, counting characters to enforce [min_len, max_len]."""
    cap = max_len if max_len is not None else min_len

    def key(states: tuple[int, ...], count: int) -> tuple[tuple[int, ...], int]:
        return states, count

    start = key(tuple(p.start for p in parts), 0)
    index = {start: 0}
    order = [start]
    edges: list[list[tuple[Charset, int]]] = []
    accepting: set[int] = set()
    i = 0
    while i < len(order):
        states, count = order[i]
        if all(q in p.accepting for q, p in zip(states, parts, strict=True)) and count >= min_len:
            accepting.add(i)
        out: list[tuple[Charset, int]] = []
        if max_len is None or count < max_len:
            nc = min(count + 1, cap) if max_len is None else count + 1
            combos: list[tuple[Charset, tuple[int, ...]]] = [(C.ANY, ())]
            for q, p in zip(states, parts, strict=True):
                nxt = []
                for cs, tail in combos:
                    for ecs, tg in p.edges[q]:
                        both = C.intersect(cs, ecs)
                        if both:
                            nxt.append((both, tail + (tg,)))
                combos = nxt
            for cs, tgt in combos:
                k = key(tgt, nc)
                j = index.get(k)
                if j is None:
                    j = len(order)
                    if j >= limit:
                        raise RegexError("string constraints expand to too many states")
                    index[k] = j
                    order.append(k)
                out.append((cs, j))
        edges.append(out)
        i += 1
    return CharNFA(0, edges, accepting)


# ---------------------------------------------------------------------------------------------
# `format` values that are enforced. Each regex is a subset of what jsonschema's format checker
# accepts, so a produced value always validates.
_DAY31 = "(?:0[1-9]|[12][0-9]|3[01])"
_DAY30 = "(?:0[1-9]|[12][0-9]|30)"
_LEAP_YEAR = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)"
_DATE = (
    f"(?:[0-9]{{4}}-(?:(?:0[13578]|1[02])-{_DAY31}|(?:0[469]|11)-{_DAY30}"
    f"|02-(?:0[1-9]|1[0-9]|2[0-8]))|{_LEAP_YEAR}-02-29)"
)
_TIME = (
    "(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,9})?"
    "(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
)
_EMAIL = "[A-Za-z0-9_%+-]+(?:\\.[A-Za-z0-9_%+-]+)*@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)+"

FORMATS = {
    "date": f"^{_DATE}$",
    "time": f"^{_TIME}$",
    "date-time": f"^{_DATE}T{_TIME}$",
    "email": f"^{_EMAIL}$",
}
