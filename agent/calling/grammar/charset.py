"""Sets of Unicode code points and their JSON-string encodings as byte sequences.

A charset is a tuple of sorted, disjoint, non-adjacent inclusive ranges ``(lo, hi)`` of code
points. Surrogates (U+D800..U+DFFF) are never members: a JSON string in UTF-8 cannot carry them
literally and the grammar never emits ``\\uD8xx`` escapes.

The encoding is the canonical one Python's ``json.dumps(..., ensure_ascii=False)`` produces
(which is also what the model saw in training): characters are written as UTF-8, except ``"``
and ``\\`` (escaped with a backslash), the control characters with a short escape (``\\b \\f
\\n \\r \\t``) and the other control characters below U+0020 (``\\u00xx``, lowercase hex).
"""

from __future__ import annotations

from functools import lru_cache

Charset = tuple[tuple[int, int], ...]
# One position of a byte sequence: a tuple of inclusive byte ranges.
ByteSet = tuple[tuple[int, int], ...]

MAX_CP = 0x10FFFF
SURROGATES = (0xD800, 0xDFFF)

_SHORT_ESCAPES = {0x22: b'\\"', 0x5C: b"\\\\", 0x08: b"\\b", 0x0C: b"\\f", 0x0A: b"\\n"}
_SHORT_ESCAPES.update({0x0D: b"\\r", 0x09: b"\\t"})


def normalize(ranges: list[tuple[int, int]] | Charset) -> Charset:
    """Sort, merge and drop surrogates."""
    cut: list[tuple[int, int]] = []
    for lo, hi in ranges:
        lo, hi = max(lo, 0), min(hi, MAX_CP)
        if lo > hi:
            continue
        # Split around the surrogate block so no member is a surrogate.
        if lo <= SURROGATES[1] and hi >= SURROGATES[0]:
            if lo < SURROGATES[0]:
                cut.append((lo, min(hi, SURROGATES[0] - 1)))
            if hi > SURROGATES[1]:
                cut.append((max(lo, SURROGATES[1] + 1), hi))
        else:
            cut.append((lo, hi))
    cut.sort()
    out: list[tuple[int, int]] = []
    for lo, hi in cut:
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


def of_chars(chars: str) -> Charset:
    return normalize([(ord(c), ord(c)) for c in chars])


def union(*sets: Charset) -> Charset:
    return normalize([r for s in sets for r in s])


def complement(cs: Charset, universe: Charset | None = None) -> Charset:
    """Complement within ``universe`` (default: every non-surrogate code point)."""
    out: list[tuple[int, int]] = []
    nxt = 0
    for lo, hi in cs:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= MAX_CP:
        out.append((nxt, MAX_CP))
    res = normalize(out)
    return intersect(res, universe) if universe is not None else res


def intersect(a: Charset, b: Charset) -> Charset:
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        lo = max(a[i][0], b[j][0])
        hi = min(a[i][1], b[j][1])
        if lo <= hi:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return tuple(out)


def contains(cs: Charset, cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in cs)


ANY: Charset = normalize([(0, MAX_CP)])
ASCII: Charset = ((0, 0x7F),)
DIGIT: Charset = of_chars("0123456789")
WORD: Charset = normalize([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
SPACE: Charset = of_chars(" \t\n\r\f\v")
# ECMA-262 `.`: anything but a line terminator.
DOT: Charset = complement(of_chars("\n\r\u2028\u2029"))


def _enc_len(cp: int) -> int:
    return 1 if cp < 0x80 else 2 if cp < 0x800 else 3 if cp < 0x10000 else 4


def _utf8_seqs(lo: int, hi: int) -> list[list[tuple[int, int]]]:
    """Byte-range sequences whose products are exactly the UTF-8 encodings of lo..hi."""
    out: list[list[tuple[int, int]]] = []
    stack = [(lo, hi)]
    while stack:
        lo, hi = stack.pop()
        split = None
        for bound in (0x7F, 0x7FF, 0xFFFF):
            if lo <= bound < hi:
                split = bound
                break
        if split is None:
            n = _enc_len(lo)
            for i in range(1, n):
                m = (1 << (6 * i)) - 1
                if lo & ~m != hi & ~m:
                    # Cut so each piece is a full product of byte ranges: trailing bits of lo
                    # must be all zero and of hi all one.
                    if lo & m:
                        split = lo | m
                    elif hi & m != m:
                        split = (hi & ~m) - 1
                    if split is not None:
                        break
        if split is not None:
            stack.append((split + 1, hi))
            stack.append((lo, split))
            continue
        a = chr(lo).encode("utf-8")
        b = chr(hi).encode("utf-8")
        out.append([(x, y) for x, y in zip(a, b, strict=True)])
    return out


_HEX_LO = b"0123456789abcdef"


@lru_cache(maxsize=128)
def json_sequences(cs: Charset) -> tuple[tuple[ByteSet, ...], ...]:
    """Byte-set sequences matching the canonical JSON-string encoding of any member of cs."""
    seqs: list[tuple[ByteSet, ...]] = []
    literal = intersect(cs, ((0x20, 0x21), (0x23, 0x5B), (0x5D, MAX_CP)))
    for lo, hi in literal:
        for seq in _utf8_seqs(lo, hi):
            seqs.append(tuple(((x, y),) for x, y in seq))
    by_high: dict[int, list[int]] = {}
    for lo, hi in intersect(cs, ((0, 0x1F), (0x22, 0x22), (0x5C, 0x5C))):
        for cp in range(lo, hi + 1):
            if cp in _SHORT_ESCAPES:
                seqs.append(tuple(((b, b),) for b in _SHORT_ESCAPES[cp]))
            else:
                by_high.setdefault(cp >> 4, []).append(cp & 0xF)
    for high, lows in sorted(by_high.items()):
        hx = _HEX_LO[high]
        low_set = tuple((_HEX_LO[x], _HEX_LO[x]) for x in sorted(lows))
        head = tuple(((b, b),) for b in b"\\u00")
        seqs.append(head + (((hx, hx),), _merge_bytes(low_set)))
    return tuple(seqs)


def _merge_bytes(ranges: ByteSet) -> ByteSet:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(hi, out[-1][1]))
        else:
            out.append((lo, hi))
    return tuple(out)


def encode_json_char(cp: int) -> bytes:
    """The canonical encoding of one code point inside a JSON string."""
    if cp in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[cp]
    if cp < 0x20:
        return b"\\u%04x" % cp
    return chr(cp).encode("utf-8")
