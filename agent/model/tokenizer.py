"""Needle 2 tokenizer: the RAW tokenizer blob of a `.cact` file and the SentencePiece model it is.

The `.cact` file does not carry a SentencePiece `.model`; it carries a compact piece table (spec
section 4). The model was trained on SentencePiece's own encoding, so rather than re-implement BPE
we rebuild a `ModelProto` from that table and let the `sentencepiece` library do the encoding:
that is what reproduces the golden `tokenizer_cases` id for id. The `ModelProto` is written (and,
for the blob writer, read) by the small wire-format code below, not by protobuf: the daemon does
not load the protobuf runtime at all.

Also here: the inverse (`.model` -> blob, for the writer), and training a compatible tokenizer
from sentences (for tests and small-model experiments without the vendor's tokenizer).
"""

from __future__ import annotations

import io
import math
import random
import struct
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

import sentencepiece as spm

from agent.model.errors import CactError

__all__ = [
    "BOS_ID",
    "CHAT_MARKERS",
    "EOS_ID",
    "PAD_ID",
    "UNK_ID",
    "PieceType",
    "Tokenizer",
    "TokenizerSpec",
    "parse_tokenizer_blob",
    "synthetic_corpus",
    "tokenizer_blob_from_sentencepiece",
    "train_tokenizer",
]

PAD_ID = 0
EOS_ID = 1
BOS_ID = 2
UNK_ID = 3

IM_START = "<|im_start|>"
IM_END = "<|im_end|>"
THINK_START = "<think>"
THINK_END = "</think>"
TOOLS_START = "<tools>"
TOOLS_END = "</tools>"
TOOL_CALL_START = "<tool_call>"
TOOL_CALL_END = "</tool_call>"
TOOL_RESULT_START = "<tool_result>"
TOOL_RESULT_END = "</tool_result>"

# Order matters: marker k has id FIRST_MARKER_ID + k in every Needle 2 tokenizer.
CHAT_MARKERS: tuple[str, ...] = (
    IM_START,
    IM_END,
    THINK_START,
    THINK_END,
    TOOLS_START,
    TOOLS_END,
    TOOL_CALL_START,
    TOOL_CALL_END,
    TOOL_RESULT_START,
    TOOL_RESULT_END,
)
FIRST_MARKER_ID = 4
(
    IM_START_ID,
    IM_END_ID,
    THINK_START_ID,
    THINK_END_ID,
    TOOLS_START_ID,
    TOOLS_END_ID,
    TOOL_CALL_START_ID,
    TOOL_CALL_END_ID,
    TOOL_RESULT_START_ID,
    TOOL_RESULT_END_ID,
) = range(FIRST_MARKER_ID, FIRST_MARKER_ID + len(CHAT_MARKERS))

# SentencePiece's whitespace stand-in (U+2581); it decodes to a plain space.
SPACE_SYMBOL = "\u2581"

_HEADER = struct.Struct("<IIIIIBBH")
_RECORD = struct.Struct("<fBH")
HEADER_SIZE = _HEADER.size  # 24
RECORD_SIZE = _RECORD.size  # 7

# First ids that are not fixed by the format: 4 specials + 10 chat markers.
_NUM_FIXED = FIRST_MARKER_ID + len(CHAT_MARKERS)


class PieceType(IntEnum):
    """Piece types as the RAW blob stores them (not SentencePiece's own enum values)."""

    NORMAL = 0
    UNKNOWN = 1
    CONTROL = 2
    USER_DEFINED = 3
    BYTE = 4


@dataclass(frozen=True)
class TokenizerSpec:
    """The decoded RAW tokenizer blob; `pieces[i]` is `(text, score, type)` of id `i`."""

    pieces: list[tuple[str, float, PieceType]]
    pad_id: int
    eos_id: int
    bos_id: int
    unk_id: int
    add_dummy_prefix: bool
    byte_fallback: bool

    @property
    def vocab_size(self) -> int:
        return len(self.pieces)


def _byte_piece(b: int) -> str:
    # SentencePiece spells byte pieces with upper-case hex; anything else would not be found
    # when the library looks up a fallback byte.
    return f"<0x{b:02X}>"


_BYTE_PIECES = {_byte_piece(b): b for b in range(256)}


def parse_tokenizer_blob(
    blob: bytes | bytearray | memoryview, *, vocab_size: int | None = None
) -> TokenizerSpec:
    """Decode and validate a RAW tokenizer blob (spec section 4).

    `vocab_size`, when given (the `.cact` header's vocab), must equal the blob's piece count.
    Raises `CactError` naming the piece index and byte offset of the first problem.
    """
    data = memoryview(blob).cast("B")
    size = len(data)
    if size < HEADER_SIZE:
        raise CactError(
            f"tokenizer blob: {size} bytes is shorter than its {HEADER_SIZE}-byte header"
        )
    n, pad_id, eos_id, bos_id, unk_id, dummy, byte_fb, reserved = _HEADER.unpack_from(data, 0)
    if dummy not in (0, 1) or byte_fb not in (0, 1):
        raise CactError(
            f"tokenizer blob: header flags add_dummy_prefix={dummy} byte_fallback={byte_fb} "
            "at byte offset 20 must be 0 or 1"
        )
    if reserved != 0:
        raise CactError(f"tokenizer blob: reserved header field at byte offset 22 is {reserved}")
    fixed = {"pad": (pad_id, PAD_ID), "eos": (eos_id, EOS_ID), "bos": (bos_id, BOS_ID)}
    fixed["unk"] = (unk_id, UNK_ID)
    for name, (got, want) in fixed.items():
        if got != want:
            raise CactError(
                f"tokenizer blob: header {name}_id is {got}, Needle 2 fixes it at {want}"
            )
    if n < _NUM_FIXED:
        raise CactError(
            f"tokenizer blob: n_pieces {n} is below the {_NUM_FIXED} fixed special/marker pieces"
        )
    if vocab_size is not None and n != vocab_size:
        raise CactError(f"tokenizer blob: n_pieces {n} != model vocab {vocab_size}")
    # Each record needs at least RECORD_SIZE bytes: a cheap bound before looping over a huge n.
    if HEADER_SIZE + n * RECORD_SIZE > size:
        raise CactError(
            f"tokenizer blob: n_pieces {n} needs at least {HEADER_SIZE + n * RECORD_SIZE} bytes, "
            f"blob has {size}"
        )

    pieces: list[tuple[str, float, PieceType]] = []
    seen: dict[str, int] = {}
    off = HEADER_SIZE
    for i in range(n):
        if off + RECORD_SIZE > size:
            raise CactError(
                f"tokenizer blob: piece {i} record at byte offset {off} runs past the end "
                f"({size} bytes; header says {n} pieces)"
            )
        score, ptype, length = _RECORD.unpack_from(data, off)
        text_off = off + RECORD_SIZE
        if text_off + length > size:
            raise CactError(
                f"tokenizer blob: piece {i} text ({length} bytes at byte offset {text_off}) runs "
                f"past the end ({size} bytes)"
            )
        raw = bytes(data[text_off : text_off + length])
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise CactError(
                f"tokenizer blob: piece {i} at byte offset {text_off} is not valid UTF-8 "
                f"({e.reason} at byte offset {text_off + e.start})"
            ) from None
        where = f"piece {i} (record at byte offset {off})"
        try:
            kind = PieceType(ptype)
        except ValueError:
            raise CactError(
                f"tokenizer blob: {where} has unknown piece type {ptype} (valid 0-4)"
            ) from None
        if not text:
            raise CactError(f"tokenizer blob: {where} has an empty text")
        if "\x00" in text:
            raise CactError(f"tokenizer blob: {where} {text!r} holds a NUL character")
        if not math.isfinite(score):
            raise CactError(f"tokenizer blob: {where} has a non-finite score {score}")
        if text in seen:
            raise CactError(f"tokenizer blob: {where} {text!r} duplicates piece {seen[text]}")
        if kind is PieceType.BYTE and text not in _BYTE_PIECES:
            raise CactError(f"tokenizer blob: {where} is typed byte but reads {text!r}")
        if kind is PieceType.BYTE and not byte_fb:
            raise CactError(f"tokenizer blob: {where} is a byte piece, but byte_fallback is 0")
        _check_fixed_piece(i, off, text, kind, unk_id)
        seen[text] = i
        pieces.append((text, score, kind))
        off = text_off + length
    if off != size:
        raise CactError(
            f"tokenizer blob: {size - off} trailing bytes after piece {n - 1} at byte offset {off}"
        )
    if byte_fb:
        have = {text for text, _score, kind in pieces if kind is PieceType.BYTE}
        missing = [b for p, b in _BYTE_PIECES.items() if p not in have]
        if missing:
            raise CactError(
                f"tokenizer blob: byte_fallback is set but {len(missing)} byte pieces are "
                f"missing (first {_byte_piece(missing[0])})"
            )
    return TokenizerSpec(
        pieces=pieces,
        pad_id=pad_id,
        eos_id=eos_id,
        bos_id=bos_id,
        unk_id=unk_id,
        add_dummy_prefix=bool(dummy),
        byte_fallback=bool(byte_fb),
    )


def _check_fixed_piece(i: int, off: int, text: str, kind: PieceType, unk_id: int) -> None:
    """Ids 0-13 have fixed meanings the engine and the chat template rely on."""
    where = f"piece {i} (record at byte offset {off})"
    if i == unk_id:
        if kind is not PieceType.UNKNOWN:
            raise CactError(f"tokenizer blob: {where} is the unk id but has type {kind.name}")
    elif kind is PieceType.UNKNOWN:
        raise CactError(f"tokenizer blob: {where} has type UNKNOWN but unk_id is {unk_id}")
    if i < FIRST_MARKER_ID:
        if i != unk_id and kind is not PieceType.CONTROL:
            raise CactError(
                f"tokenizer blob: {where} {text!r} must be a control piece, has {kind.name}"
            )
    elif i < _NUM_FIXED:
        want = CHAT_MARKERS[i - FIRST_MARKER_ID]
        if text != want or kind is not PieceType.USER_DEFINED:
            raise CactError(
                f"tokenizer blob: {where} must be chat marker {want!r} (user-defined), "
                f"has {text!r} ({kind.name})"
            )
    elif kind is PieceType.CONTROL:
        # Control ids decode to nothing; one past the fixed range would silently eat output.
        raise CactError(f"tokenizer blob: {where} {text!r} is a control piece past id 3")


# --- SentencePiece's ModelProto, by hand ----------------------------------------------------
# A SentencePiece `.model` is a protobuf message (sentencepiece_model.proto, proto2). This module
# writes one fixed shape of it and reads a handful of fields back, so a few lines of wire format
# stand in for the generated `sentencepiece_model_pb2` and the protobuf runtime it would load
# (about 2 MB resident in the daemon). Field numbers and enum values are the .proto's.

_VARINT, _I64, _LEN, _SGROUP, _EGROUP, _I32 = 0, 1, 2, 3, 4, 5  # wire types
_U64 = (1 << 64) - 1
_F32 = struct.Struct("<f")

# ModelProto
_MP_PIECES, _MP_TRAINER_SPEC, _MP_NORMALIZER_SPEC, _MP_DENORMALIZER_SPEC = 1, 2, 3, 5
# ModelProto.SentencePiece
_SP_PIECE, _SP_SCORE, _SP_TYPE = 1, 2, 3
# TrainerSpec
_TS_MODEL_TYPE, _TS_VOCAB_SIZE, _TS_BYTE_FALLBACK = 3, 4, 35
_TS_UNK_ID, _TS_BOS_ID, _TS_EOS_ID, _TS_PAD_ID = 40, 41, 42, 43
_TS_UNK_PIECE, _TS_BOS_PIECE, _TS_EOS_PIECE, _TS_PAD_PIECE = 45, 46, 47, 48
# NormalizerSpec
_NS_NAME, _NS_PRECOMPILED_CHARSMAP, _NS_ADD_DUMMY_PREFIX = 1, 2, 3
_NS_REMOVE_EXTRA_WHITESPACES, _NS_ESCAPE_WHITESPACES = 4, 5

# ModelProto.SentencePiece.Type (UNUSED = 5 has no blob counterpart).
_PROTO_NORMAL, _PROTO_UNKNOWN, _PROTO_CONTROL, _PROTO_USER_DEFINED, _PROTO_BYTE = 1, 2, 3, 4, 6
_PROTO_PIECE_TYPES = frozenset((1, 2, 3, 4, 5, 6))
_BLOB_TO_PROTO = {
    PieceType.NORMAL: _PROTO_NORMAL,
    PieceType.UNKNOWN: _PROTO_UNKNOWN,
    PieceType.CONTROL: _PROTO_CONTROL,
    PieceType.USER_DEFINED: _PROTO_USER_DEFINED,
    PieceType.BYTE: _PROTO_BYTE,
}
# TrainerSpec.ModelType
_MODEL_TYPE_NAMES = {1: "UNIGRAM", 2: "BPE", 3: "WORD", 4: "CHAR"}
_BPE = 2


_ONE_BYTE_VARINTS = [bytes((v,)) for v in range(0x80)]


def _varint(value: int) -> bytes:
    if 0 <= value < 0x80:
        return _ONE_BYTE_VARINTS[value]
    # Negative int32 values go out as their 64-bit two's complement (10 bytes), as protobuf does.
    value &= _U64
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _int_field(number: int, value: int) -> bytes:
    return _varint(number << 3 | _VARINT) + _varint(value)


def _len_field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | _LEN) + _varint(len(payload)) + payload


def _str_field(number: int, text: str) -> bytes:
    return _len_field(number, text.encode("utf-8"))


def _float_field(number: int, value: float) -> bytes:
    try:
        packed = _F32.pack(value)
    except OverflowError:  # beyond float32: protobuf stores the infinity C's conversion gives
        packed = _F32.pack(math.copysign(math.inf, value))
    return _varint(number << 3 | _I32) + packed


def _model_proto_bytes(spec: TokenizerSpec, *, add_dummy_prefix: bool) -> bytes:
    """The serialized `ModelProto` of `spec` (BPE, identity normalizer, default whitespace rules).

    Fields go out in field-number order, as protobuf itself writes them, so the bytes equal
    what `sentencepiece_model_pb2` would serialize for the same settings.
    """
    out = bytearray()
    piece_key, text_key = _varint(_MP_PIECES << 3 | _LEN), _varint(_SP_PIECE << 3 | _LEN)
    type_fields = {kind: _int_field(_SP_TYPE, value) for kind, value in _BLOB_TO_PROTO.items()}
    for text, score, kind in spec.pieces:  # the hot loop, hence spelled out
        raw = text.encode("utf-8")
        body = text_key + _varint(len(raw)) + raw + _float_field(_SP_SCORE, score)
        body += type_fields[kind]
        out += piece_key
        out += _varint(len(body))
        out += body
    # The processor answers bos_id()/eos_id()... by looking the *_piece texts up, so they must be
    # the blob's own spellings.
    trainer = (
        _int_field(_TS_MODEL_TYPE, _BPE)
        + _int_field(_TS_VOCAB_SIZE, spec.vocab_size)
        + _int_field(_TS_BYTE_FALLBACK, spec.byte_fallback)
        + _int_field(_TS_UNK_ID, spec.unk_id)
        + _int_field(_TS_BOS_ID, spec.bos_id)
        + _int_field(_TS_EOS_ID, spec.eos_id)
        + _int_field(_TS_PAD_ID, spec.pad_id)
        + _str_field(_TS_UNK_PIECE, spec.pieces[spec.unk_id][0])
        + _str_field(_TS_BOS_PIECE, spec.pieces[spec.bos_id][0])
        + _str_field(_TS_EOS_PIECE, spec.pieces[spec.eos_id][0])
        + _str_field(_TS_PAD_PIECE, spec.pieces[spec.pad_id][0])
    )
    out += _len_field(_MP_TRAINER_SPEC, trainer)
    # remove_extra_whitespaces / escape_whitespaces are the proto defaults, written explicitly
    # because the model was trained with them: leading/trailing spaces dropped and runs
    # collapsed before encoding.
    normalizer = (
        _str_field(_NS_NAME, "identity")
        + _len_field(_NS_PRECOMPILED_CHARSMAP, b"")
        + _int_field(_NS_ADD_DUMMY_PREFIX, add_dummy_prefix)
        + _int_field(_NS_REMOVE_EXTRA_WHITESPACES, True)
        + _int_field(_NS_ESCAPE_WHITESPACES, True)
    )
    out += _len_field(_MP_NORMALIZER_SPEC, normalizer)
    return bytes(out)


@dataclass
class _ModelFields:
    """The `ModelProto` fields the blob writer reads; absent fields keep the proto defaults."""

    pieces: list[tuple[str, float, int]] = field(default_factory=list)  # (piece, score, type)
    model_type: int = 1  # UNIGRAM
    byte_fallback: bool = False
    unk_id: int = 0
    bos_id: int = 1
    eos_id: int = 2
    pad_id: int = -1
    add_dummy_prefix: bool = True


def _malformed(what: str, offset: int) -> CactError:
    return CactError(f"not a SentencePiece model: {what} at byte offset {offset}")


def _read_varint(data: bytes, pos: int, end: int) -> tuple[int, int]:
    if pos < end and data[pos] < 0x80:  # the common one-byte case
        return data[pos], pos + 1
    start, value, shift = pos, 0, 0
    while shift < 70:
        if pos >= end:
            raise _malformed("truncated varint", start)
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value & _U64, pos  # bits past 64 are dropped, as protobuf does
        shift += 7
    raise _malformed("varint longer than 10 bytes", start)


def _read_key(data: bytes, pos: int, end: int) -> tuple[int, int, int]:
    key, after = _read_varint(data, pos, end)
    number = key >> 3
    if number == 0 or key > 0xFFFFFFFF:
        raise _malformed(f"invalid field number {number}", pos)
    return number, key & 7, after


def _value_span(data: bytes, pos: int, end: int, number: int, wire: int) -> tuple[int, int]:
    """Where the value of a non-group field starts and ends (for a varint: the varint itself)."""
    if wire == _VARINT:
        return pos, _read_varint(data, pos, end)[1]
    if wire == _LEN:
        length, start = _read_varint(data, pos, end)
    elif wire in (_I32, _I64):
        start, length = pos, 4 if wire == _I32 else 8
    else:
        raise _malformed(f"field {number} has invalid wire type {wire}", pos)
    if length > end - start:
        raise _malformed(f"field {number} ({length} bytes) runs past the end", start)
    return start, start + length


def _skip_group(data: bytes, pos: int, end: int, number: int) -> int:
    """Skip a (deprecated, always unknown here) group field; returns the offset after it."""
    open_groups = [number]  # a stack, not recursion: nesting depth is up to the input
    while open_groups:
        if pos >= end:
            raise _malformed(f"group of field {open_groups[-1]} is not closed", pos)
        key_at = pos
        n, wire, pos = _read_key(data, pos, end)
        if wire == _SGROUP:
            open_groups.append(n)
        elif wire == _EGROUP:
            if n != open_groups.pop():
                raise _malformed(f"end of group {n} does not match its start", key_at)
        else:
            pos = _value_span(data, pos, end, n, wire)[1]
    return pos


def _fields(data: bytes, pos: int, end: int) -> Iterator[tuple[int, int, int, int]]:
    """The fields of the message in `data[pos:end]` as `(number, wire type, start, stop)`."""
    while pos < end:
        number, wire, pos = _read_key(data, pos, end)
        if wire == _SGROUP:
            pos = _skip_group(data, pos, end, number)
            continue
        start, pos = _value_span(data, pos, end, number, wire)
        yield number, wire, start, pos


def _int32(data: bytes, start: int, end: int) -> int:
    value = _read_varint(data, start, end)[0] & 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def _parse_piece(data: bytes, pos: int, end: int, index: int) -> tuple[str, float, int]:
    raw, score, kind = b"", 0.0, _PROTO_NORMAL
    for number, wire, start, stop in _fields(data, pos, end):
        if number == _SP_PIECE and wire == _LEN:
            raw = data[start:stop]
        elif number == _SP_SCORE and wire == _I32:
            score = _F32.unpack_from(data, start)[0]
        elif number == _SP_TYPE and wire == _VARINT:
            value = _int32(data, start, stop)
            # A closed proto2 enum: protobuf keeps an unknown value aside, the field unchanged.
            if value in _PROTO_PIECE_TYPES:
                kind = value
        # Any other field (or a known one with another wire type) is unknown: skipped.
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _malformed(f"piece {index} is not valid UTF-8", pos) from None
    return text, score, kind


def _parse_trainer_spec(data: bytes, pos: int, end: int, out: _ModelFields) -> None:
    for number, wire, start, stop in _fields(data, pos, end):
        if wire != _VARINT:
            continue
        if number == _TS_MODEL_TYPE:
            value = _int32(data, start, stop)
            if value in _MODEL_TYPE_NAMES:
                out.model_type = value
        elif number == _TS_BYTE_FALLBACK:
            out.byte_fallback = _read_varint(data, start, stop)[0] != 0
        elif number == _TS_UNK_ID:
            out.unk_id = _int32(data, start, stop)
        elif number == _TS_BOS_ID:
            out.bos_id = _int32(data, start, stop)
        elif number == _TS_EOS_ID:
            out.eos_id = _int32(data, start, stop)
        elif number == _TS_PAD_ID:
            out.pad_id = _int32(data, start, stop)


def _parse_normalizer_spec(data: bytes, pos: int, end: int, out: _ModelFields | None) -> None:
    for number, wire, start, stop in _fields(data, pos, end):
        if number == _NS_ADD_DUMMY_PREFIX and wire == _VARINT and out is not None:
            out.add_dummy_prefix = _read_varint(data, start, stop)[0] != 0


def _parse_model_proto(data: bytes) -> _ModelFields:
    """Read a serialized `ModelProto` as protobuf would, keeping only the `_ModelFields`.

    Unknown fields (any wire type, groups included) are skipped; a sub-message given more than
    once is merged field by field, a scalar given more than once keeps its last value. Bytes
    protobuf would refuse, and piece texts that are not UTF-8, raise `CactError`.
    """
    out = _ModelFields()
    for number, wire, start, stop in _fields(data, 0, len(data)):
        if wire != _LEN:
            continue
        if number == _MP_PIECES:
            out.pieces.append(_parse_piece(data, start, stop, len(out.pieces)))
        elif number == _MP_TRAINER_SPEC:
            _parse_trainer_spec(data, start, stop, out)
        elif number == _MP_NORMALIZER_SPEC:
            _parse_normalizer_spec(data, start, stop, out)
        elif number == _MP_DENORMALIZER_SPEC:
            # Not used, but protobuf parses it (a NormalizerSpec) and refuses it if malformed.
            _parse_normalizer_spec(data, start, stop, None)
    return out


class Tokenizer:
    """Encoder/decoder for a Needle 2 tokenizer, backed by the `sentencepiece` library."""

    PAD_ID = PAD_ID
    EOS_ID = EOS_ID
    BOS_ID = BOS_ID
    UNK_ID = UNK_ID
    IM_START_ID = IM_START_ID
    IM_END_ID = IM_END_ID
    THINK_START_ID = THINK_START_ID
    THINK_END_ID = THINK_END_ID
    TOOLS_START_ID = TOOLS_START_ID
    TOOLS_END_ID = TOOLS_END_ID
    TOOL_CALL_START_ID = TOOL_CALL_START_ID
    TOOL_CALL_END_ID = TOOL_CALL_END_ID
    TOOL_RESULT_START_ID = TOOL_RESULT_START_ID
    TOOL_RESULT_END_ID = TOOL_RESULT_END_ID

    def __init__(self, source: bytes | bytearray | memoryview | TokenizerSpec) -> None:
        """Build from a RAW tokenizer blob (or an already parsed `TokenizerSpec`)."""
        spec = source if isinstance(source, TokenizerSpec) else parse_tokenizer_blob(source)
        # A daemon keeps one tokenizer for its lifetime: it holds the processor, the piece
        # types and the output bytes, not the parsed spec (8,192 Python tuples, about 1.2 MB),
        # which `spec` re-parses from the blob when something asks for it.
        self._blob = None if isinstance(source, TokenizerSpec) else bytes(source)
        self._spec: TokenizerSpec | None = spec if self._blob is None else None
        self._vocab_size = spec.vocab_size
        self._add_dummy_prefix = spec.add_dummy_prefix
        self._types = bytes(int(kind) for _text, _score, kind in spec.pieces)
        # One processor (about 1.7 MB each) serves both `encode` and `encode_continuation`: it
        # is built without the dummy prefix and `encode` supplies the prefix itself. Decoding is
        # unaffected: the library drops a leading "▁" when either add_dummy_prefix or
        # remove_extra_whitespaces is set, and the latter always is.
        self._sp = self._processor(spec, add_dummy_prefix=False)
        self._sp_prefixed: spm.SentencePieceProcessor | None = None
        if spec.add_dummy_prefix and any(
            kind is PieceType.USER_DEFINED and (" " in text or text.startswith(SPACE_SYMBOL))
            for text, _score, kind in spec.pieces
        ):
            # Such user-defined pieces would take part in the normalizer's whitespace handling
            # where `encode` adds its "▁"; leave the prefix to the library then. Never the case
            # for a Needle 2 tokenizer, whose only user-defined pieces are the chat markers.
            self._sp_prefixed = self._processor(spec, add_dummy_prefix=True)
        self._token_bytes: list[bytes] = self._make_token_bytes(spec)

    @property
    def spec(self) -> TokenizerSpec:
        """The parsed blob (pieces with scores and types, fixed ids, flags)."""
        if self._spec is not None:
            return self._spec
        assert self._blob is not None
        return parse_tokenizer_blob(self._blob)

    @staticmethod
    def _processor(spec: TokenizerSpec, *, add_dummy_prefix: bool) -> spm.SentencePieceProcessor:
        proto = _model_proto_bytes(spec, add_dummy_prefix=add_dummy_prefix)
        try:
            sp = spm.SentencePieceProcessor(model_proto=proto)
        except RuntimeError as e:
            # the blob checks above mirror the library's; anything it still refuses is the
            # model file's fault all the same
            raise CactError(f"tokenizer: sentencepiece refuses the pieces: {e}") from None
        if sp.get_piece_size() != spec.vocab_size:
            raise CactError(
                f"tokenizer: sentencepiece loaded {sp.get_piece_size()} pieces, "
                f"blob has {spec.vocab_size}"
            )
        return sp

    @classmethod
    def from_sentencepiece(cls, model_bytes: bytes) -> Tokenizer:
        """Build from a SentencePiece `.model`, through the same blob a `.cact` would carry."""
        return cls(tokenizer_blob_from_sentencepiece(model_bytes))

    @property
    def vocab_size(self) -> int:
        return self._vocab_size

    @property
    def add_dummy_prefix(self) -> bool:
        return self._add_dummy_prefix

    def encode(self, text: str) -> list[int]:
        """Token ids of `text`, without BOS/EOS; chat markers come out as their single ids.

        `text` starts a sequence: when the blob sets add_dummy_prefix (every Needle 2 tokenizer
        does) its first word gets SentencePiece's "▁" prefix. For text appended mid-sequence
        use `encode_continuation`.
        """
        if not self._add_dummy_prefix:
            return self.encode_continuation(text)
        if self._sp_prefixed is not None:
            return list(self._sp_prefixed.encode(text, out_type=int))
        # What SentencePiece's normalizer does with add_dummy_prefix: drop the leading spaces
        # and, if anything is left, put one "▁" in front before the rest is normalized. Handed
        # the same "▁" literally (not a space to the leading-space rule), the prefix-free
        # processor builds the same normalized text, and the ids depend on nothing else.
        # Collapsing space runs, dropping trailing spaces (and "▁"s) happen in there as usual.
        body = text.lstrip(" ")
        if not body:  # only spaces: the library gives no ids either
            return []
        return list(self._sp.encode(SPACE_SYMBOL + body, out_type=int))

    def encode_continuation(self, text: str) -> list[int]:
        """Token ids of `text` appended mid-sequence: as `encode`, never with the dummy prefix.

        The same ids a tokenizer whose blob has add_dummy_prefix=0 gives from `encode`:
        SentencePiece's whitespace handling still applies (leading and trailing spaces dropped,
        runs of spaces collapsed), only no "▁" is put in front of the first word.
        """
        return list(self._sp.encode(text, out_type=int))

    def decode(self, ids: Sequence[int]) -> str:
        """Text of `ids` as SentencePiece renders it (control ids vanish, dummy prefix dropped)."""
        ids = [int(i) for i in ids]
        for i in ids:
            if not 0 <= i < self.vocab_size:
                raise ValueError(f"token id {i} out of range [0, {self.vocab_size})")
        return self._sp.decode(ids)

    def piece(self, token_id: int) -> str:
        """The piece text of `token_id` as stored in the blob (spaces as U+2581)."""
        if not 0 <= token_id < self.vocab_size:
            raise ValueError(f"token id {token_id} out of range [0, {self.vocab_size})")
        return self._sp.id_to_piece(token_id)

    def piece_type(self, token_id: int) -> PieceType:
        if not 0 <= token_id < self.vocab_size:
            raise ValueError(f"token id {token_id} out of range [0, {self.vocab_size})")
        return PieceType(self._types[token_id])

    def token_bytes(self) -> list[bytes]:
        """Raw output bytes each id contributes, for incremental (streaming) decoding.

        Joining them gives the UTF-8 of `decode` except that `decode` drops the one leading
        space the dummy prefix adds, and replaces invalid UTF-8 (split multi-byte characters
        from byte pieces) that a streaming decoder must buffer instead.
        """
        return list(self._token_bytes)

    def _make_token_bytes(self, spec: TokenizerSpec) -> list[bytes]:
        out: list[bytes] = []
        for i, (text, _score, kind) in enumerate(spec.pieces):
            if kind is PieceType.CONTROL:
                out.append(b"")
            elif kind is PieceType.BYTE:
                out.append(bytes([_BYTE_PIECES[text]]))
            elif kind is PieceType.UNKNOWN:
                # What the library prints for an unknown id (its unk_surface).
                out.append(self._sp.decode([i]).encode("utf-8"))
            elif kind is PieceType.USER_DEFINED:
                out.append(text.encode("utf-8"))
            else:
                out.append(text.replace(SPACE_SYMBOL, " ").encode("utf-8"))
        return out

    def model_proto_bytes(self) -> bytes:
        """The rebuilt SentencePiece `ModelProto`, serialized (loadable as a `.model` file)."""
        spec = self.spec
        return _model_proto_bytes(spec, add_dummy_prefix=spec.add_dummy_prefix)


def tokenizer_blob_from_sentencepiece(model_bytes: bytes) -> bytes:
    """Serialize a SentencePiece `.model` into the RAW tokenizer blob of a `.cact` file.

    The result is validated by `parse_tokenizer_blob`, so a model that breaks the Needle 2
    fixed ids raises `CactError` here rather than producing an unloadable file.
    """
    mp = _parse_model_proto(bytes(model_bytes))
    if mp.model_type != _BPE:
        raise CactError(
            f"SentencePiece model is not BPE (model_type {_MODEL_TYPE_NAMES[mp.model_type]})"
        )
    ids = {"pad": (mp.pad_id, PAD_ID), "eos": (mp.eos_id, EOS_ID), "bos": (mp.bos_id, BOS_ID)}
    ids["unk"] = (mp.unk_id, UNK_ID)
    for name, (got, want) in ids.items():
        if got < 0:  # -1 = "no such piece", which the blob header cannot even store
            raise CactError(f"SentencePiece model has {name}_id {got}, Needle 2 fixes it at {want}")
    markers = set(CHAT_MARKERS)
    out = bytearray(
        _HEADER.pack(
            len(mp.pieces),
            mp.pad_id,
            mp.eos_id,
            mp.bos_id,
            mp.unk_id,
            int(mp.add_dummy_prefix),
            int(mp.byte_fallback),
            0,
        )
    )
    for i, (piece, score, ptype) in enumerate(mp.pieces):
        if ptype == _PROTO_CONTROL:
            kind = PieceType.CONTROL
        elif ptype == _PROTO_UNKNOWN:
            kind = PieceType.UNKNOWN
        elif ptype == _PROTO_BYTE:
            kind = PieceType.BYTE
        elif ptype == _PROTO_USER_DEFINED and piece in markers:
            kind = PieceType.USER_DEFINED
        else:
            # The format has no room for other user-defined symbols; like the vendor's writer,
            # keep them as ordinary pieces.
            kind = PieceType.NORMAL
        raw = piece.encode("utf-8")
        if len(raw) > 0xFFFF:
            raise CactError(f"piece {i} is {len(raw)} bytes, over the 65535-byte limit")
        out += _RECORD.pack(score, kind, len(raw)) + raw
    blob = bytes(out)
    parse_tokenizer_blob(blob)
    return blob


def train_tokenizer(sentences: Iterable[str], vocab_size: int, seed: int = 0) -> bytes:
    """Train a Needle 2 compatible SentencePiece BPE model in memory; returns `.model` bytes.

    Same layout as the release tokenizer: pad 0 / eos 1 / bos 2 / unk 3, the chat markers as
    user-defined symbols at ids 4-13, identity normalization, byte fallback. Single-threaded
    with all sentences used (no sampling), so equal input gives byte-identical output; `seed`
    seeds SentencePiece's generator, which only matters if the library samples.
    Raises `ValueError` when the corpus cannot support `vocab_size` (SentencePiece refuses a
    vocab its merges cannot fill); `synthetic_corpus(seed, 2000)` supports 8192 and trains in
    well under a second.
    """
    # 14 fixed ids + 256 byte pieces + at least one learned piece.
    if vocab_size < _NUM_FIXED + 256 + 1:
        raise ValueError(f"vocab_size {vocab_size} is below the minimum {_NUM_FIXED + 257}")
    spm.set_random_generator_seed(seed)
    writer = io.BytesIO()
    try:
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(sentences),
            model_writer=writer,
            model_type="bpe",
            vocab_size=vocab_size,
            normalization_rule_name="identity",
            byte_fallback=True,
            pad_id=PAD_ID,
            eos_id=EOS_ID,
            bos_id=BOS_ID,
            unk_id=UNK_ID,
            user_defined_symbols=list(CHAT_MARKERS),
            num_threads=1,
            # 0 = use every sentence: no sampling, no shuffle, hence deterministic.
            input_sentence_size=0,
            shuffle_input_sentence=False,
            minloglevel=2,
        )
    except RuntimeError as e:
        raise ValueError(f"sentencepiece training failed: {e}") from None
    return writer.getvalue()


# --- synthetic training text ----------------------------------------------------------------
# A corpus with the shape of the tool-calling traffic (commands, schemas, calls, results) but
# generated, so tests and toy models need no downloaded data. Made-up words from syllables give
# BPE enough distinct material to reach an 8192 vocab.

# Lists kept as "|"-joined strings so the formatter leaves them compact.
_ROOMS = tuple(
    "kitchen|living room|bedroom|bathroom|garage|hallway|office|study|basement|attic|porch|"
    "garden|nursery|laundry room|dining room|patio".split("|")
)
_DEVICES = tuple(
    "light|lamp|thermostat|fan|heater|blinds|curtains|speaker|tv|door lock|camera|sprinkler|"
    "kettle|oven|dishwasher|washer|dryer|air purifier|humidifier|doorbell|garage door|vacuum|"
    "plug|sensor".split("|")
)
_VERBS = tuple(
    "turn on|turn off|switch on|switch off|dim|brighten|open|close|lock|unlock|start|stop|"
    "pause|resume|set|raise|lower|check|toggle|schedule|mute|unmute".split("|")
)
_POLITE = ("", "please ", "could you ", "can you ", "hey, ", "kindly ", "I'd like you to ")
_TAILS = ("", " please", " now", " right away", " thanks", " in 5 minutes", " for an hour")
_UNITS = ("°C", "°F", "%", " minutes", " seconds", " kWh", " lux", " dB", " hPa", " ms")
_NON_ASCII = tuple(
    "café|Müller|naïve|façade|über|señor|Zürich|smörgåsbord|日本語|温度|客厅|灯|Привет|свет|"
    "κουζίνα|שלום|مرحبا|🙂|🔥|💡|✓|→|…|½|µs|Ω|±|€|£|¥".split("|")
)
_TYPES = ("string", "number", "integer", "boolean", "array", "object")
_ONSETS = tuple(
    "b c d f g h j k l m n p r s t v w z br cl dr fl gr kr pl pr sh sk sl sp st str th tr ch qu "
    "x y gl sn sw tw ph wh".split()
)
_NUCLEI = tuple("a e i o u ai ea ee io oa ou ie au y oo".split())
# Empty codas repeated on purpose: open syllables should be the most common.
_CODAS = ("", "", "", *"n r s t l m nd rt ck ng st x ll".split())


def _word(rng: random.Random) -> str:
    return "".join(
        rng.choice(_ONSETS) + rng.choice(_NUCLEI) + rng.choice(_CODAS)
        for _ in range(rng.randint(1, 3))
    )


def _ident(rng: random.Random) -> str:
    parts = [_word(rng) for _ in range(rng.randint(1, 3))]
    style = rng.randrange(3)
    if style == 0:
        return "_".join(parts)
    if style == 1:
        return parts[0] + "".join(p.capitalize() for p in parts[1:])
    return "-".join(parts)


def _number(rng: random.Random) -> str:
    k = rng.randrange(6)
    if k == 0:
        return str(rng.randint(0, 100))
    if k == 1:
        return f"{rng.uniform(-40, 120):.1f}"
    if k == 2:
        return str(rng.randint(100, 99999))
    if k == 3:
        return f"{rng.uniform(0, 1):.3f}"
    if k == 4:
        return f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"
    return f"0x{rng.getrandbits(rng.choice((8, 16, 32))):x}"


def _value(rng: random.Random) -> str:
    k = rng.randrange(5)
    if k == 0:
        num = _number(rng)
        # Clock times and hex are not JSON numbers; keep the generated JSON valid.
        return f'"{num}"' if ":" in num or "x" in num else num
    if k == 1:
        return rng.choice(("true", "false", "null"))
    if k == 2:
        return '"' + rng.choice(_ROOMS) + '"'
    if k == 3:
        return '"' + _ident(rng) + '"'
    return '"' + rng.choice(_NON_ASCII) + " " + _word(rng) + '"'


def _json_args(rng: random.Random) -> str:
    items = [f'"{_ident(rng)}":{_value(rng)}' for _ in range(rng.randint(0, 4))]
    return "{" + ",".join(items) + "}"


def _schema(rng: random.Random) -> str:
    name = rng.choice(_VERBS).replace(" ", "_") + "_" + _ident(rng)
    props = ",".join(
        f'"{_ident(rng)}":{{"type":"{rng.choice(_TYPES)}","description":"the '
        f'{rng.choice(_DEVICES)} {_word(rng)}"}}'
        for _ in range(rng.randint(1, 3))
    )
    return (
        f'{{"name":"{name}","description":"{rng.choice(_VERBS).capitalize()} the '
        f'{rng.choice(_DEVICES)} in the {rng.choice(_ROOMS)}.","parameters":{{"type":"object",'
        f'"properties":{{{props}}}}}}}'
    )


def _cap(s: str) -> str:
    # str.capitalize would also lower-case the rest ("I'd" -> "i'd").
    return s[:1].upper() + s[1:]


def _sentence(rng: random.Random) -> str:
    k = rng.randrange(8)
    if k == 0:
        return _cap(
            f"{rng.choice(_POLITE)}{rng.choice(_VERBS)} the {rng.choice(_ROOMS)} "
            f"{rng.choice(_DEVICES)}{rng.choice(_TAILS)}"
        ) + rng.choice((".", "!", "?", ""))
    if k == 1:
        return (
            f"Set the {rng.choice(_DEVICES)} to {_number(rng)}{rng.choice(_UNITS)} in the "
            f"{rng.choice(_ROOMS)}, {_word(rng)} mode."
        )
    if k == 2:
        schemas = ",".join(_schema(rng) for _ in range(rng.randint(1, 2)))
        return f"{TOOLS_START}[{schemas}]{TOOLS_END}"
    if k == 3:
        calls = ",".join(
            f'{{"name":"{_ident(rng)}","arguments":{_json_args(rng)}}}'
            for _ in range(rng.randint(1, 2))
        )
        return f"{TOOL_CALL_START}[{calls}]{TOOL_CALL_END}{IM_END}"
    if k == 4:
        ok = rng.choice(("true", "false"))
        result = f'{{"ok":{ok},"result":{_json_args(rng)}}}'
        return f"{TOOL_RESULT_START}{result}{TOOL_RESULT_END}"
    if k == 5:
        return (
            f"{IM_START}user\n{rng.choice(_POLITE)}{rng.choice(_VERBS)} {_word(rng)} "
            f"{rng.choice(_NON_ASCII)}{IM_END}\n{IM_START}assistant\n"
        )
    if k == 6:
        first = rng.choice((_word, _word, lambda r: r.choice(_NON_ASCII), _number))(rng)
        words = [first] + [_word(rng) for _ in range(rng.randint(3, 12))]
        return _cap(" ".join(words)) + rng.choice((".", "?", "!", ";", ":", " …"))
    return (
        f"{THINK_START}The {rng.choice(_DEVICES)} {_ident(rng)} reports {_number(rng)}"
        f"{rng.choice(_UNITS)} (was {_number(rng)}); {_word(rng)} → {_word(rng)}.{THINK_END}"
    )


def synthetic_corpus(seed: int, n_sentences: int) -> list[str]:
    """`n_sentences` generated smart-home / tool-calling lines, deterministic in `seed`.

    Some lines hold newlines (chat turns) and chat markers, like real prompts do; 2000 lines
    (about 280 kB) are enough for `train_tokenizer(..., 8192)`.
    """
    rng = random.Random(seed)
    return [_sentence(rng) for _ in range(n_sentences)]
