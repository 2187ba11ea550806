"""Needle 2 tokenizer: the RAW tokenizer blob of a `.cact` file and the SentencePiece model it is.

The `.cact` file does not carry a SentencePiece `.model`; it carries a compact piece table (spec
section 4). The model was trained on SentencePiece's own encoding, so rather than re-implement BPE
we rebuild a `ModelProto` from that table and let the `sentencepiece` library do the encoding:
that is what reproduces the golden `tokenizer_cases` id for id.

Also here: the inverse (`.model` -> blob, for the writer), and training a compatible tokenizer
from sentences (for tests and small-model experiments without the vendor's tokenizer).
"""

from __future__ import annotations

import io
import math
import random
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

import sentencepiece as spm
from sentencepiece import sentencepiece_model_pb2 as sp_pb2

from agent.errors import CactError

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


_MP = sp_pb2.ModelProto.SentencePiece
_BLOB_TO_PROTO = {
    PieceType.NORMAL: _MP.NORMAL,
    PieceType.UNKNOWN: _MP.UNKNOWN,
    PieceType.CONTROL: _MP.CONTROL,
    PieceType.USER_DEFINED: _MP.USER_DEFINED,
    PieceType.BYTE: _MP.BYTE,
}


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
        if not math.isfinite(score):
            raise CactError(f"tokenizer blob: {where} has a non-finite score {score}")
        if text in seen:
            raise CactError(f"tokenizer blob: {where} {text!r} duplicates piece {seen[text]}")
        if kind is PieceType.BYTE and text not in _BYTE_PIECES:
            raise CactError(f"tokenizer blob: {where} is typed byte but reads {text!r}")
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


def _model_proto(spec: TokenizerSpec) -> sp_pb2.ModelProto:
    mp = sp_pb2.ModelProto()
    for text, score, kind in spec.pieces:
        p = mp.pieces.add()
        p.piece = text
        p.score = score
        p.type = _BLOB_TO_PROTO[kind]
    ts = mp.trainer_spec
    ts.model_type = sp_pb2.TrainerSpec.BPE
    ts.vocab_size = spec.vocab_size
    ts.byte_fallback = spec.byte_fallback
    ts.pad_id, ts.eos_id, ts.bos_id, ts.unk_id = spec.pad_id, spec.eos_id, spec.bos_id, spec.unk_id
    # The processor answers bos_id()/eos_id()... by looking these texts up, so they must be the
    # blob's own spellings.
    ts.pad_piece = spec.pieces[spec.pad_id][0]
    ts.eos_piece = spec.pieces[spec.eos_id][0]
    ts.bos_piece = spec.pieces[spec.bos_id][0]
    ts.unk_piece = spec.pieces[spec.unk_id][0]
    ns = mp.normalizer_spec
    ns.name = "identity"
    ns.precompiled_charsmap = b""
    ns.add_dummy_prefix = spec.add_dummy_prefix
    # Set explicitly (these are the proto defaults) because the model was trained with them:
    # leading/trailing spaces dropped and runs collapsed before encoding.
    ns.remove_extra_whitespaces = True
    ns.escape_whitespaces = True
    return mp


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
        self.spec = source if isinstance(source, TokenizerSpec) else parse_tokenizer_blob(source)
        self._proto = _model_proto(self.spec)
        self._sp = spm.SentencePieceProcessor(model_proto=self._proto.SerializeToString())
        if self._sp.get_piece_size() != self.spec.vocab_size:
            raise CactError(
                f"tokenizer: sentencepiece loaded {self._sp.get_piece_size()} pieces, "
                f"blob has {self.spec.vocab_size}"
            )
        self._token_bytes: list[bytes] | None = None

    @classmethod
    def from_sentencepiece(cls, model_bytes: bytes) -> Tokenizer:
        """Build from a SentencePiece `.model`, through the same blob a `.cact` would carry."""
        return cls(tokenizer_blob_from_sentencepiece(model_bytes))

    @property
    def vocab_size(self) -> int:
        return self.spec.vocab_size

    @property
    def add_dummy_prefix(self) -> bool:
        return self.spec.add_dummy_prefix

    def encode(self, text: str) -> list[int]:
        """Token ids of `text`, without BOS/EOS; chat markers come out as their single ids."""
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
        return self.spec.pieces[token_id][0]

    def piece_type(self, token_id: int) -> PieceType:
        if not 0 <= token_id < self.vocab_size:
            raise ValueError(f"token id {token_id} out of range [0, {self.vocab_size})")
        return self.spec.pieces[token_id][2]

    def token_bytes(self) -> list[bytes]:
        """Raw output bytes each id contributes, for incremental (streaming) decoding.

        Joining them gives the UTF-8 of `decode` except that `decode` drops the one leading
        space the dummy prefix adds, and replaces invalid UTF-8 (split multi-byte characters
        from byte pieces) that a streaming decoder must buffer instead.
        """
        if self._token_bytes is None:
            out: list[bytes] = []
            for i, (text, _score, kind) in enumerate(self.spec.pieces):
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
            self._token_bytes = out
        return list(self._token_bytes)

    def model_proto_bytes(self) -> bytes:
        """The rebuilt SentencePiece `ModelProto`, serialized (loadable as a `.model` file)."""
        return self._proto.SerializeToString()


def tokenizer_blob_from_sentencepiece(model_bytes: bytes) -> bytes:
    """Serialize a SentencePiece `.model` into the RAW tokenizer blob of a `.cact` file.

    The result is validated by `parse_tokenizer_blob`, so a model that breaks the Needle 2
    fixed ids raises `CactError` here rather than producing an unloadable file.
    """
    mp = sp_pb2.ModelProto()
    try:
        mp.ParseFromString(bytes(model_bytes))
    except Exception as e:  # protobuf raises its own DecodeError type
        raise CactError(f"not a SentencePiece model: {e}") from None
    if mp.trainer_spec.model_type != sp_pb2.TrainerSpec.BPE:
        raise CactError(
            "SentencePiece model is not BPE (model_type "
            f"{sp_pb2.TrainerSpec.ModelType.Name(mp.trainer_spec.model_type)})"
        )
    markers = set(CHAT_MARKERS)
    ts = mp.trainer_spec
    out = bytearray(
        _HEADER.pack(
            len(mp.pieces),
            ts.pad_id,
            ts.eos_id,
            ts.bos_id,
            ts.unk_id,
            int(mp.normalizer_spec.add_dummy_prefix),
            int(ts.byte_fallback),
            0,
        )
    )
    for i, p in enumerate(mp.pieces):
        if p.type == _MP.CONTROL:
            kind = PieceType.CONTROL
        elif p.type == _MP.UNKNOWN:
            kind = PieceType.UNKNOWN
        elif p.type == _MP.BYTE:
            kind = PieceType.BYTE
        elif p.type == _MP.USER_DEFINED and p.piece in markers:
            kind = PieceType.USER_DEFINED
        else:
            # The format has no room for other user-defined symbols; like the vendor's writer,
            # keep them as ordinary pieces.
            kind = PieceType.NORMAL
        raw = p.piece.encode("utf-8")
        if len(raw) > 0xFFFF:
            raise CactError(f"piece {i} is {len(raw)} bytes, over the 65535-byte limit")
        out += _RECORD.pack(p.score, kind, len(raw)) + raw
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
