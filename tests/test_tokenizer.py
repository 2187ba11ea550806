"""Tokenizer: RAW blob parsing/validation, golden encodings, blob writer, training.

Also the hand-written `ModelProto` wire format (checked against protobuf's own generated module,
which only the tests load) and the one-processor continuation encoding (checked against the two
processors the session used to keep).
"""

from __future__ import annotations

import dataclasses
import json
import re
import struct
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
import sentencepiece as spm
from google.protobuf.message import DecodeError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sentencepiece import sentencepiece_model_pb2 as sp_pb2

from agent.model.errors import CactError
from agent.model.tokenizer import (
    BOS_ID,
    CHAT_MARKERS,
    EOS_ID,
    PAD_ID,
    UNK_ID,
    PieceType,
    Tokenizer,
    TokenizerSpec,
    _model_proto_bytes,
    _ModelFields,
    _parse_model_proto,
    parse_tokenizer_blob,
    synthetic_corpus,
    tokenizer_blob_from_sentencepiece,
    train_tokenizer,
)
from tests.conftest import GOLDEN, RELEASE

ROOT = Path(__file__).resolve().parents[1]

# (json stem, SentencePiece model embedded in its .cact)
GOLDEN_FILES = [("tiny", "tok1024"), ("release", "tok8192")]
# the release tokenizer's blob is read from the release file's three-layer slice, which keeps
# the vendor's tokenizer blob byte for byte
CACT_FILES = {"tiny": "tiny.cact", "release": f"{RELEASE}.cact"}

needs_golden = pytest.mark.skipif(
    not (GOLDEN / "tiny.cact").exists(), reason=f"golden vectors not found at {GOLDEN}"
)

SAMPLE_TEXTS = [
    "turn on the kitchen light",
    "Set the thermostat to 21.5°C, please!",
    "  spaces   everywhere  ",
    "🙂 starts with an emoji",
    "日本語のテキスト and Ελληνικά",
    "°F first",
    "tabs\tand\nnewlines\n\nend\n",
    '<|im_start|>system\n<tools>[{"name":"set_light","parameters":{}}]</tools><|im_end|>\n'
    "<|im_start|>user\nDim the hallway lamp to 30%<|im_end|>\n<|im_start|>assistant\n"
    '<think>ok</think><tool_call>[{"name":"set_light","arguments":{"level":30}}]</tool_call>'
    "<|im_end|>",
    '<tool_result>{"ok":true}</tool_result>',
    "x",
    "",
]


def _cact_tokenizer_blob(path: Path) -> memoryview:
    """The RAW tokenizer blob of a `.cact`: the last directory record (spec section 4)."""
    data = path.read_bytes()
    header = struct.unpack_from("<29If", data, 0)
    num_tensors, codebook_len = header[1], header[2]
    rec = struct.Struct("<BBHIIIIQQII")
    directory = 120 + 4 * codebook_len
    dtype, *_, offset, nbytes, _group, _bits = rec.unpack_from(
        data, directory + rec.size * (num_tensors - 1)
    )
    assert dtype == 4, "last tensor of a .cact must be the RAW tokenizer"
    return memoryview(data)[offset : offset + nbytes]


@cache
def _golden_blob(stem: str) -> bytes:
    return bytes(_cact_tokenizer_blob(GOLDEN / CACT_FILES[stem]))


@cache
def _golden_tokenizer(stem: str) -> Tokenizer:
    return Tokenizer(_golden_blob(stem))


def _normalized(text: str) -> str:
    # What SentencePiece's default whitespace handling makes of the text before encoding.
    return re.sub(" +", " ", text).strip(" ")


# --- golden ---------------------------------------------------------------------------------


@needs_golden
@pytest.mark.parametrize("stem", [s for s, _ in GOLDEN_FILES])
def test_golden_tokenizer_cases(stem: str) -> None:
    tok = Tokenizer(_cact_tokenizer_blob(GOLDEN / CACT_FILES[stem]))  # memoryview accepted
    cases = json.loads((GOLDEN / f"{stem}.json").read_text())["tokenizer_cases"]
    assert cases
    for case in cases:
        assert tok.encode(case["text"]) == case["ids"], case["text"]
        assert tok.decode(case["ids"]) == _normalized(case["text"])


@needs_golden
@pytest.mark.parametrize("stem,model", GOLDEN_FILES)
def test_blob_from_sentencepiece_is_byte_identical(stem: str, model: str) -> None:
    model_bytes = (GOLDEN / f"{model}.model").read_bytes()
    assert tokenizer_blob_from_sentencepiece(model_bytes) == _golden_blob(stem)


@needs_golden
@pytest.mark.parametrize("stem,model", GOLDEN_FILES)
def test_golden_spec_and_library_agree(stem: str, model: str) -> None:
    tok = _golden_tokenizer(stem)
    spec = tok.spec
    ref = spm.SentencePieceProcessor(model_file=str(GOLDEN / f"{model}.model"))
    assert tok.vocab_size == ref.get_piece_size() == spec.vocab_size
    assert (spec.pad_id, spec.eos_id, spec.bos_id, spec.unk_id) == (0, 1, 2, 3)
    assert spec.add_dummy_prefix and spec.byte_fallback
    assert [tok.piece(i) for i in range(tok.vocab_size)] == [
        ref.id_to_piece(i) for i in range(tok.vocab_size)
    ]
    for text in SAMPLE_TEXTS + synthetic_corpus(7, 50):
        assert tok.encode(text) == ref.encode(text), text


@needs_golden
@pytest.mark.parametrize("stem", [s for s, _ in GOLDEN_FILES])
def test_round_trip_and_token_bytes(stem: str) -> None:
    tok = _golden_tokenizer(stem)
    table = tok.token_bytes()
    assert len(table) == tok.vocab_size
    assert table[PAD_ID] == table[EOS_ID] == table[BOS_ID] == b""
    assert table[14 + 0x41] == b"A"  # byte pieces follow the 14 fixed ids
    for text in SAMPLE_TEXTS + synthetic_corpus(3, 100):
        ids = tok.encode(text)
        decoded = tok.decode(ids)
        assert decoded == _normalized(text), text
        joined = b"".join(table[i] for i in ids)
        # The dummy prefix shows up as one leading space that decode drops.
        if tok.add_dummy_prefix and ids:
            assert joined.startswith(b" ")
            joined = joined[1:]
        assert joined == decoded.encode("utf-8"), text
        # Control ids contribute nothing, to decode and to the byte table alike.
        assert tok.decode([BOS_ID, *ids, EOS_ID]) == decoded


@needs_golden
@pytest.mark.parametrize("stem", [s for s, _ in GOLDEN_FILES])
def test_chat_markers_are_single_tokens(stem: str) -> None:
    tok = _golden_tokenizer(stem)
    table = tok.token_bytes()
    for k, marker in enumerate(CHAT_MARKERS):
        mid = 4 + k
        assert tok.piece(mid) == marker
        assert tok.piece_type(mid) is PieceType.USER_DEFINED
        assert table[mid] == marker.encode()
        ids = tok.encode(f"a{marker}b")
        assert mid in ids and ids.count(mid) == 1
        assert tok.decode(ids) == f"a{marker}b"
    assert Tokenizer.IM_START_ID == 4 and Tokenizer.TOOL_RESULT_END_ID == 13
    assert tok.encode("<|im_start|><|im_end|>")[-2:] == [4, 5]


@needs_golden
def test_decode_rejects_out_of_range() -> None:
    tok = _golden_tokenizer("tiny")
    with pytest.raises(ValueError, match="out of range"):
        tok.decode([1024])
    with pytest.raises(ValueError, match="out of range"):
        tok.piece(-1)


# --- malformed blobs ------------------------------------------------------------------------

_HDR = struct.Struct("<IIIIIBBH")
_REC = struct.Struct("<fBH")


def _split(blob: bytes) -> tuple[list[int], list[list]]:
    header = list(_HDR.unpack_from(blob, 0))
    records, off = [], _HDR.size
    for _ in range(header[0]):
        score, kind, length = _REC.unpack_from(blob, off)
        off += _REC.size
        records.append([score, kind, blob[off : off + length]])
        off += length
    assert off == len(blob)
    return header, records


def _join(header: list[int], records: list[list]) -> bytes:
    out = bytearray(_HDR.pack(*header))
    for score, kind, raw in records:
        out += _REC.pack(score, kind, len(raw)) + raw
    return bytes(out)


def _record_offset(records: list[list], index: int) -> int:
    return _HDR.size + sum(_REC.size + len(r[2]) for r in records[:index])


@pytest.fixture(scope="module")
def small_blob() -> bytes:
    """A valid blob to corrupt (trained here, so these tests need no golden files)."""
    model = train_tokenizer(synthetic_corpus(11, 300), 400)
    return tokenizer_blob_from_sentencepiece(model)


def test_small_blob_is_valid(small_blob: bytes) -> None:
    spec = parse_tokenizer_blob(small_blob, vocab_size=400)
    assert isinstance(spec, TokenizerSpec) and spec.vocab_size == 400
    assert spec.pieces[UNK_ID][2] is PieceType.UNKNOWN
    assert Tokenizer(memoryview(small_blob)).vocab_size == 400


def test_short_header(small_blob: bytes) -> None:
    with pytest.raises(CactError, match="shorter than its 24-byte header"):
        parse_tokenizer_blob(small_blob[:10])


def test_truncated_piece_text(small_blob: bytes) -> None:
    header, records = _split(small_blob)
    i = next(i for i in range(300, 400) if len(records[i][2]) > 1)
    off = _record_offset(records, i)
    cut = small_blob[: off + _REC.size + 1]  # the record of piece i and part of its text
    with pytest.raises(CactError, match=rf"piece {i} text .* at byte offset {off + _REC.size}"):
        parse_tokenizer_blob(cut)


def test_truncated_piece_record(small_blob: bytes) -> None:
    header, records = _split(small_blob)
    off = _record_offset(records, 399)
    with pytest.raises(CactError, match=rf"piece 399 record at byte offset {off} runs past"):
        parse_tokenizer_blob(small_blob[: off + 3])


def test_n_pieces_too_large(small_blob: bytes) -> None:
    header, records = _split(small_blob)
    header[0] = 401
    blob = _join(header, records)
    with pytest.raises(CactError, match=rf"piece 400 record at byte offset {len(blob)} runs"):
        parse_tokenizer_blob(blob)
    header[0] = 10**9
    with pytest.raises(CactError, match="n_pieces 1000000000 needs at least"):
        parse_tokenizer_blob(_join(header, records))


def test_n_pieces_too_small_leaves_trailing_bytes(small_blob: bytes) -> None:
    header, records = _split(small_blob)
    header[0] = 399
    off = _record_offset(records, 399)
    with pytest.raises(CactError, match=rf"trailing bytes after piece 398 at byte offset {off}"):
        parse_tokenizer_blob(_join(header, records))


def test_trailing_garbage(small_blob: bytes) -> None:
    with pytest.raises(CactError, match=rf"3 trailing bytes .* offset {len(small_blob)}"):
        parse_tokenizer_blob(small_blob + b"abc")


def test_vocab_mismatch(small_blob: bytes) -> None:
    with pytest.raises(CactError, match="n_pieces 400 != model vocab 512"):
        parse_tokenizer_blob(small_blob, vocab_size=512)


def test_invalid_utf8(small_blob: bytes) -> None:
    header, records = _split(small_blob)
    records[350][2] = b"a\xff"
    off = _record_offset(records, 350) + _REC.size
    with pytest.raises(CactError, match=rf"piece 350 at byte offset {off} is not valid UTF-8"):
        parse_tokenizer_blob(_join(header, records))


def test_unknown_piece_type(small_blob: bytes) -> None:
    header, records = _split(small_blob)
    records[320][1] = 9
    off = _record_offset(records, 320)
    with pytest.raises(
        CactError, match=rf"piece 320 \(record at byte offset {off}\) has unknown piece type 9"
    ):
        parse_tokenizer_blob(_join(header, records))


@pytest.mark.parametrize("field,value", [(1, 5), (2, 0), (3, 7), (4, 0)])
def test_wrong_fixed_header_ids(small_blob: bytes, field: int, value: int) -> None:
    header, records = _split(small_blob)
    header[field] = value
    name = ["pad", "eos", "bos", "unk"][field - 1]
    with pytest.raises(CactError, match=rf"header {name}_id is {value}"):
        parse_tokenizer_blob(_join(header, records))


def test_bad_header_flags(small_blob: bytes) -> None:
    header, records = _split(small_blob)
    header[5] = 2
    with pytest.raises(CactError, match="add_dummy_prefix=2"):
        parse_tokenizer_blob(_join(header, records))


def test_swapped_chat_markers(small_blob: bytes) -> None:
    header, records = _split(small_blob)
    records[4], records[5] = records[5], records[4]
    with pytest.raises(CactError, match=r"piece 4 .* must be chat marker '<\|im_start\|>'"):
        parse_tokenizer_blob(_join(header, records))


def test_marker_with_wrong_type(small_blob: bytes) -> None:
    header, records = _split(small_blob)
    records[13][1] = PieceType.NORMAL
    with pytest.raises(CactError, match=r"piece 13 .* '</tool_result>' \(user-defined\)"):
        parse_tokenizer_blob(_join(header, records))


def test_special_piece_types(small_blob: bytes) -> None:
    header, records = _split(small_blob)
    bad = [list(r) for r in records]
    bad[UNK_ID][1] = PieceType.CONTROL
    with pytest.raises(CactError, match="piece 3 .* is the unk id but has type CONTROL"):
        parse_tokenizer_blob(_join(header, bad))
    bad = [list(r) for r in records]
    bad[BOS_ID][1] = PieceType.NORMAL
    with pytest.raises(CactError, match="piece 2 .* must be a control piece"):
        parse_tokenizer_blob(_join(header, bad))
    bad = [list(r) for r in records]
    bad[300][1] = PieceType.UNKNOWN
    with pytest.raises(CactError, match="piece 300 .* has type UNKNOWN but unk_id is 3"):
        parse_tokenizer_blob(_join(header, bad))
    bad = [list(r) for r in records]
    bad[300][1] = PieceType.CONTROL
    with pytest.raises(CactError, match="piece 300 .* control piece past id 3"):
        parse_tokenizer_blob(_join(header, bad))


def test_duplicate_empty_and_byte_pieces(small_blob: bytes) -> None:
    header, records = _split(small_blob)
    bad = [list(r) for r in records]
    bad[380][2] = bad[379][2]
    with pytest.raises(CactError, match="piece 380 .* duplicates piece 379"):
        parse_tokenizer_blob(_join(header, bad))
    bad = [list(r) for r in records]
    bad[380][2] = b""
    with pytest.raises(CactError, match="piece 380 .* empty text"):
        parse_tokenizer_blob(_join(header, bad))
    bad = [list(r) for r in records]
    bad[20][2] = b"<0xzz>"
    with pytest.raises(CactError, match="piece 20 .* typed byte but reads '<0xzz>'"):
        parse_tokenizer_blob(_join(header, bad))
    bad = [list(r) for r in records]
    bad[20][1] = PieceType.NORMAL  # <0x06> is then an ordinary piece, so no byte for 0x06
    with pytest.raises(CactError, match="byte_fallback is set but 1 byte pieces are missing"):
        parse_tokenizer_blob(_join(header, bad))
    bad = [list(r) for r in records]
    bad[380][0] = float("nan")
    with pytest.raises(CactError, match="piece 380 .* non-finite score"):
        parse_tokenizer_blob(_join(header, bad))


def test_writer_rejects_incompatible_models(small_blob: bytes) -> None:
    model = train_tokenizer(synthetic_corpus(11, 300), 400)
    mp = sp_pb2.ModelProto()
    mp.ParseFromString(model)
    mp.pieces[4].piece, mp.pieces[5].piece = mp.pieces[5].piece, mp.pieces[4].piece
    with pytest.raises(CactError, match="must be chat marker"):
        tokenizer_blob_from_sentencepiece(mp.SerializeToString())
    mp.ParseFromString(model)
    mp.trainer_spec.model_type = sp_pb2.TrainerSpec.UNIGRAM
    with pytest.raises(CactError, match="not BPE"):
        tokenizer_blob_from_sentencepiece(mp.SerializeToString())
    with pytest.raises(CactError, match="not a SentencePiece model"):
        tokenizer_blob_from_sentencepiece(b"\xff\xff\xff")


def test_dummy_prefix_flag_is_honoured(small_blob: bytes) -> None:
    header, records = _split(small_blob)
    header[5] = 0
    tok = Tokenizer(_join(header, records))
    assert not tok.add_dummy_prefix
    ids = tok.encode("turn on")
    assert b"".join(tok.token_bytes()[i] for i in ids) == b"turn on"
    assert tok.decode(ids) == "turn on"
    # Without the prefix, a start of sequence and a continuation encode alike.
    for text in SAMPLE_TEXTS:
        assert tok.encode(text) == tok.encode_continuation(text), text
    assert sp_pb2.ModelProto.FromString(tok.model_proto_bytes()).normalizer_spec.HasField(
        "add_dummy_prefix"
    )
    assert not sp_pb2.ModelProto.FromString(
        tok.model_proto_bytes()
    ).normalizer_spec.add_dummy_prefix


# --- training -------------------------------------------------------------------------------


def test_synthetic_corpus_is_deterministic_and_varied() -> None:
    a = synthetic_corpus(5, 400)
    assert a == synthetic_corpus(5, 400)
    assert a != synthetic_corpus(6, 400)
    text = "\n".join(a)
    assert any(ord(c) > 127 for c in text)
    for marker in ("<tools>", "<tool_call>", "<tool_result>", "<|im_start|>", "<think>"):
        assert marker in text
    assert re.search(r"\d+\.\d", text)


@pytest.mark.parametrize("vocab", [1024, 8192])
def test_train_tokenizer(vocab: int) -> None:
    corpus = synthetic_corpus(0, 2000)
    model = train_tokenizer(corpus, vocab)
    assert model == train_tokenizer(list(corpus), vocab)  # deterministic
    assert model != train_tokenizer(synthetic_corpus(1, 2000), vocab)

    ref = spm.SentencePieceProcessor(model_proto=model)
    assert ref.get_piece_size() == vocab
    assert (ref.pad_id(), ref.eos_id(), ref.bos_id(), ref.unk_id()) == (0, 1, 2, 3)
    for k, marker in enumerate(CHAT_MARKERS):
        assert ref.piece_to_id(marker) == 4 + k

    blob = tokenizer_blob_from_sentencepiece(model)
    spec = parse_tokenizer_blob(blob, vocab_size=vocab)
    assert spec.add_dummy_prefix and spec.byte_fallback
    tok = Tokenizer(blob)
    for text in SAMPLE_TEXTS + synthetic_corpus(9, 50):
        ids = tok.encode(text)
        assert ids == ref.encode(text), text
        assert tok.decode(ids) == _normalized(text)
    assert tok.encode("<|im_start|>")[-1] == 4


def test_train_tokenizer_vocab_too_large() -> None:
    with pytest.raises(ValueError, match="Vocabulary size too high"):
        train_tokenizer(["turn on the light", "turn off the light"], 1024)
    with pytest.raises(ValueError, match="below the minimum"):
        train_tokenizer(["x"], 100)


# --- the hand-written ModelProto wire format ------------------------------------------------

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_PROTO_TYPE = {
    PieceType.NORMAL: sp_pb2.ModelProto.SentencePiece.NORMAL,
    PieceType.UNKNOWN: sp_pb2.ModelProto.SentencePiece.UNKNOWN,
    PieceType.CONTROL: sp_pb2.ModelProto.SentencePiece.CONTROL,
    PieceType.USER_DEFINED: sp_pb2.ModelProto.SentencePiece.USER_DEFINED,
    PieceType.BYTE: sp_pb2.ModelProto.SentencePiece.BYTE,
}


def _reference_proto(spec: TokenizerSpec, add_dummy_prefix: bool) -> sp_pb2.ModelProto:
    """The `ModelProto` the tokenizer used to build with protobuf: the hand encoder's oracle."""
    mp = sp_pb2.ModelProto()
    for text, score, kind in spec.pieces:
        p = mp.pieces.add()
        p.piece = text
        p.score = score
        p.type = _PROTO_TYPE[kind]
    ts = mp.trainer_spec
    ts.model_type = sp_pb2.TrainerSpec.BPE
    ts.vocab_size = spec.vocab_size
    ts.byte_fallback = spec.byte_fallback
    ts.pad_id, ts.eos_id, ts.bos_id, ts.unk_id = spec.pad_id, spec.eos_id, spec.bos_id, spec.unk_id
    ts.pad_piece = spec.pieces[spec.pad_id][0]
    ts.eos_piece = spec.pieces[spec.eos_id][0]
    ts.bos_piece = spec.pieces[spec.bos_id][0]
    ts.unk_piece = spec.pieces[spec.unk_id][0]
    ns = mp.normalizer_spec
    ns.name = "identity"
    ns.precompiled_charsmap = b""
    ns.add_dummy_prefix = add_dummy_prefix
    ns.remove_extra_whitespaces = True
    ns.escape_whitespaces = True
    return mp


def _assert_encoder_matches(spec: TokenizerSpec, add_dummy_prefix: bool) -> None:
    data = _model_proto_bytes(spec, add_dummy_prefix=add_dummy_prefix)
    ref = _reference_proto(spec, add_dummy_prefix)
    parsed = sp_pb2.ModelProto.FromString(data)
    assert parsed == ref
    assert parsed.ListFields() == ref.ListFields()  # the same fields present, not just equal
    assert data == ref.SerializeToString()  # protobuf's own field order, byte for byte


@needs_golden
@pytest.mark.parametrize("stem", [s for s, _ in GOLDEN_FILES])
def test_hand_encoder_matches_protobuf_on_golden(stem: str) -> None:
    tok = _golden_tokenizer(stem)
    for dummy in (True, False):
        _assert_encoder_matches(tok.spec, dummy)
    assert tok.model_proto_bytes() == _reference_proto(tok.spec, True).SerializeToString()
    # The library, loading the hand-made bytes directly, reproduces every golden case.
    sp = spm.SentencePieceProcessor(model_proto=tok.model_proto_bytes())
    for case in json.loads((GOLDEN / f"{stem}.json").read_text())["tokenizer_cases"]:
        assert sp.encode(case["text"]) == case["ids"], case["text"]


def test_hand_encoder_matches_protobuf_on_trained(small_blob: bytes) -> None:
    spec = parse_tokenizer_blob(small_blob)
    for dummy in (True, False):
        _assert_encoder_matches(spec, dummy)


@st.composite
def _random_specs(draw: st.DrawFn) -> TokenizerSpec:
    score = st.one_of(st.floats(width=32, allow_nan=False), st.floats(allow_nan=False))
    piece = st.tuples(st.text(max_size=6), score, st.sampled_from(PieceType))
    pieces = draw(st.lists(piece, min_size=1, max_size=12))
    some_id = st.integers(0, len(pieces) - 1)
    return TokenizerSpec(
        pieces=pieces,
        pad_id=draw(some_id),
        eos_id=draw(some_id),
        bos_id=draw(some_id),
        unk_id=draw(some_id),
        add_dummy_prefix=draw(st.booleans()),
        byte_fallback=draw(st.booleans()),
    )


@FUZZ
@given(spec=_random_specs(), dummy=st.booleans())
def test_hand_encoder_matches_protobuf_on_random_specs(spec: TokenizerSpec, dummy: bool) -> None:
    # Scores beyond float32 included: protobuf stores them as infinities, so must we.
    _assert_encoder_matches(spec, dummy)


def _f32(x: float) -> bytes:
    # Scores compared by their float32 bits: NaN from fuzzed bytes is then equal to itself.
    return struct.pack("<f", x)


def _comparable(m: _ModelFields) -> _ModelFields:
    return dataclasses.replace(m, pieces=[(t, _f32(s), k) for t, s, k in m.pieces])


def _fields_of(mp: sp_pb2.ModelProto) -> _ModelFields:
    ts, ns = mp.trainer_spec, mp.normalizer_spec
    return _ModelFields(
        pieces=[(p.piece, p.score, p.type) for p in mp.pieces],
        model_type=ts.model_type,
        byte_fallback=ts.byte_fallback,
        unk_id=ts.unk_id,
        bos_id=ts.bos_id,
        eos_id=ts.eos_id,
        pad_id=ts.pad_id,
        add_dummy_prefix=ns.add_dummy_prefix,
    )


def _assert_decoder_agrees(data: bytes) -> None:
    """The hand decoder reads `data` as protobuf does, and refuses it where protobuf does."""
    try:
        ref = sp_pb2.ModelProto.FromString(data)
    except DecodeError:
        with pytest.raises(CactError, match="^not a SentencePiece model: .* at byte offset"):
            _parse_model_proto(data)
        return
    if any(isinstance(p.piece, bytes) for p in ref.pieces):
        # proto2 does not check UTF-8, and protobuf hands such a piece back as bytes (which the
        # old writer then crashed on); the blob cannot hold it, so the decoder refuses it.
        with pytest.raises(CactError, match=r"^not a SentencePiece model: piece \d+ is not valid"):
            _parse_model_proto(data)
        return
    assert _comparable(_parse_model_proto(data)) == _comparable(_fields_of(ref))


def _tv(value: int) -> bytes:
    """A varint, written independently of the module's encoder."""
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _len_delimited(number: int, payload: bytes) -> bytes:
    return _tv(number << 3 | 2) + _tv(len(payload)) + payload


_INT32 = st.integers(-(2**31), 2**31 - 1)


@st.composite
def _piece_messages(draw: st.DrawFn) -> sp_pb2.ModelProto.SentencePiece:
    p = sp_pb2.ModelProto.SentencePiece()
    if draw(st.booleans()):
        p.piece = draw(st.text(max_size=6))
    if draw(st.booleans()):
        p.score = draw(st.floats(width=32, allow_nan=False))
    if draw(st.booleans()):
        p.type = draw(st.sampled_from([1, 2, 3, 4, 5, 6]))
    return p


@st.composite
def _trainer_messages(draw: st.DrawFn) -> sp_pb2.TrainerSpec:
    ts = sp_pb2.TrainerSpec()
    for name in ("unk_id", "bos_id", "eos_id", "pad_id", "vocab_size", "num_threads"):
        if draw(st.booleans()):
            setattr(ts, name, draw(_INT32))
    if draw(st.booleans()):
        ts.model_type = draw(st.sampled_from([1, 2, 3, 4]))
    if draw(st.booleans()):
        ts.byte_fallback = draw(st.booleans())
    # Fields the decoder does not read: it must step over every kind of them.
    if draw(st.booleans()):
        ts.input.extend(draw(st.lists(st.text(max_size=4), max_size=3)))
        ts.user_defined_symbols.extend(draw(st.lists(st.text(max_size=4), max_size=3)))
    if draw(st.booleans()):
        ts.character_coverage = draw(st.floats(width=32, allow_nan=False))
        ts.input_sentence_size = draw(st.integers(0, 2**64 - 1))
    if draw(st.booleans()):
        ts.unk_surface = draw(st.text(max_size=4))
        ts.split_digits = draw(st.booleans())
    return ts


@st.composite
def _normalizer_messages(draw: st.DrawFn) -> sp_pb2.NormalizerSpec:
    ns = sp_pb2.NormalizerSpec()
    if draw(st.booleans()):
        ns.add_dummy_prefix = draw(st.booleans())
    if draw(st.booleans()):
        ns.name = draw(st.text(max_size=6))
        ns.precompiled_charsmap = draw(st.binary(max_size=8))
    if draw(st.booleans()):
        ns.remove_extra_whitespaces = draw(st.booleans())
    return ns


@st.composite
def _model_messages(draw: st.DrawFn) -> sp_pb2.ModelProto:
    mp = sp_pb2.ModelProto()
    for p in draw(st.lists(_piece_messages(), max_size=5)):
        mp.pieces.append(p)
    if draw(st.booleans()):
        mp.trainer_spec.CopyFrom(draw(_trainer_messages()))
    if draw(st.booleans()):
        mp.normalizer_spec.CopyFrom(draw(_normalizer_messages()))
    if draw(st.booleans()):
        mp.denormalizer_spec.CopyFrom(draw(_normalizer_messages()))
    return mp


@st.composite
def _stray_fields(draw: st.DrawFn, numbers: st.SearchStrategy[int], depth: int = 0) -> bytes:
    """Fields of any wire type under `numbers`, groups (nested) included."""
    out = b""
    for _ in range(draw(st.integers(0, 3))):
        number = draw(numbers)
        wire = draw(st.sampled_from([0, 1, 2, 3, 5] if depth < 2 else [0, 1, 2, 5]))
        key = _tv(number << 3 | wire)
        if wire == 0:
            out += key + _tv(draw(st.integers(0, 2**64 - 1)))
        elif wire in (1, 5):
            out += key + draw(
                st.binary(min_size=8 if wire == 1 else 4, max_size=8 if wire == 1 else 4)
            )
        elif wire == 2:
            out += _len_delimited(number, draw(st.binary(max_size=6)))
        else:
            body = draw(_stray_fields(numbers, depth + 1))
            out += key + body + _tv(number << 3 | 4)
    return out


# Per message: field numbers it does not have (extensions from 200 up are unknown too, as nothing
# registers any), plus its own, which a stray field then uses with some other wire type.
_STRAY_TOP = st.sampled_from([1, 2, 3, 4, 5, 6, 200, 12345, 2**29 - 1])
_STRAY_PIECE = st.sampled_from([1, 2, 3, 4, 7, 200, 99999])
_STRAY_TRAINER = st.sampled_from([3, 4, 8, 9, 35, 40, 41, 42, 43, 45, 56, 200, 5000])
_STRAY_NORMALIZER = st.sampled_from([1, 2, 3, 4, 7, 200])


@st.composite
def _model_bytes(draw: st.DrawFn) -> bytes:
    """A serialized model with stray fields inside and between its messages.

    Sub-messages are also given more than once (protobuf then merges them), in any order.
    """
    parts = [draw(_model_messages()).SerializeToString(), draw(_stray_fields(_STRAY_TOP))]
    subs = {
        1: (_piece_messages(), _STRAY_PIECE),
        2: (_trainer_messages(), _STRAY_TRAINER),
        3: (_normalizer_messages(), _STRAY_NORMALIZER),
        5: (_normalizer_messages(), _STRAY_NORMALIZER),
    }
    for _ in range(draw(st.integers(0, 4))):
        number = draw(st.sampled_from(sorted(subs)))
        message, numbers = subs[number]
        body = [draw(message).SerializeToString(), draw(_stray_fields(numbers))]
        parts.append(_len_delimited(number, b"".join(draw(st.permutations(body)))))
    return b"".join(draw(st.permutations(parts)))


@FUZZ
@given(data=_model_bytes())
def test_hand_decoder_reads_what_protobuf_reads(data: bytes) -> None:
    _assert_decoder_agrees(data)


@FUZZ
@given(data=_model_bytes(), edits=st.data())
def test_hand_decoder_refuses_what_protobuf_refuses(data: bytes, edits: st.DataObject) -> None:
    """Truncated, overwritten, spliced and random bytes: same reading or a `CactError`."""
    kind = edits.draw(st.sampled_from(["cut", "byte", "insert", "random"]))
    at = edits.draw(st.integers(0, len(data)))
    if kind == "cut":
        data = data[:at]
    elif kind == "byte" and data:
        at = min(at, len(data) - 1)
        data = data[:at] + bytes([edits.draw(st.integers(0, 255))]) + data[at + 1 :]
    elif kind == "insert":
        data = data[:at] + edits.draw(st.binary(min_size=1, max_size=4)) + data[at:]
    else:
        data = edits.draw(st.binary(max_size=40))
    _assert_decoder_agrees(data)


@needs_golden
@pytest.mark.parametrize("model", [m for _, m in GOLDEN_FILES])
def test_hand_decoder_reads_vendor_models(model: str) -> None:
    data = (GOLDEN / f"{model}.model").read_bytes()
    _assert_decoder_agrees(data)
    # Every cut of a real model is handled too (protobuf accepts some, at field boundaries).
    for cut in range(0, len(data), max(1, len(data) // 97)):
        _assert_decoder_agrees(data[:cut])


def test_hand_decoder_reads_trained_and_rebuilt_models(small_blob: bytes) -> None:
    _assert_decoder_agrees(train_tokenizer(synthetic_corpus(11, 300), 400))
    spec = parse_tokenizer_blob(small_blob)
    for dummy in (True, False):
        data = _model_proto_bytes(spec, add_dummy_prefix=dummy)
        _assert_decoder_agrees(data)
        got = _parse_model_proto(data)
        assert [(t, k) for t, _s, k in got.pieces] == [
            (t, _PROTO_TYPE[k]) for t, _s, k in spec.pieces
        ]
        assert [s for _t, s, _k in got.pieces] == [s for _t, s, _k in spec.pieces]
        assert (got.model_type, got.add_dummy_prefix, got.byte_fallback) == (2, dummy, True)
        assert (got.pad_id, got.eos_id, got.bos_id, got.unk_id) == (0, 1, 2, 3)


@pytest.mark.parametrize(
    "data,reading",
    [
        # Group (wire type 3) under a field number the message uses for a sub-message.
        (b"\x0b\x08\x01\x0c", {}),
        # Nested groups with every scalar wire type inside.
        (b"\xa3\x0c\x08\x05\x0b\x11" + bytes(8) + b"\x0c\x1d" + bytes(4) + b"\xa4\x0c", {}),
        # trainer_spec twice: merged; pad_id twice: the last wins; negative int32 (10 bytes).
        (
            _len_delimited(2, b"\x18\x02\xd8\x02\x05")
            + _len_delimited(2, b"\xd8\x02" + b"\xff" * 9 + b"\x01"),
            {"model_type": 2, "pad_id": -1},
        ),
        # An enum value the .proto does not know leaves the field as it was.
        (_len_delimited(2, b"\x18\x02\x18\x09"), {"model_type": 2}),
        (_len_delimited(1, b"\x18\x03\x18\x07"), {"pieces": [("", 0.0, 3)]}),
        # A known field number with the wrong wire type is an unknown field.
        (_len_delimited(2, b"\x1d\x02\x00\x00\x00") + _len_delimited(3, b"\x1a\x00"), {}),
        (
            _len_delimited(1, b"\x1d\x03\x00\x00\x00\x1a\x01\x03\x10\x04"),
            {"pieces": [("", 0.0, 1)]},
        ),
        # Bits past 64 in a 10-byte varint are dropped; any non-zero varint is true.
        (_len_delimited(3, b"\x18" + b"\x80" * 9 + b"\x7e"), {"add_dummy_prefix": False}),
        (_len_delimited(2, b"\x98\x02\x80\x80\x04"), {"byte_fallback": True}),
    ],
)
def test_hand_decoder_cases(data: bytes, reading: dict) -> None:
    assert _parse_model_proto(data) == dataclasses.replace(_ModelFields(), **reading)
    _assert_decoder_agrees(data)


@pytest.mark.parametrize(
    "data,message",
    [
        (b"\xff\xff\xff", "truncated varint at byte offset 0"),
        (b"\x08" + b"\xff" * 10 + b"\x01", "varint longer than 10 bytes at byte offset 1"),
        (b"\x00\x01", "invalid field number 0 at byte offset 0"),
        (b"\x80\x80\x80\x80\x10\x00", "invalid field number 536870912 at byte offset 0"),
        (b"\x0a\x05abc", r"field 1 \(5 bytes\) runs past the end at byte offset 2"),
        (b"\x15\x00\x00", r"field 2 \(4 bytes\) runs past the end at byte offset 1"),
        (b"\x0c", "field 1 has invalid wire type 4 at byte offset 1"),
        (b"\x0e", "field 1 has invalid wire type 6 at byte offset 1"),
        (b"\x0b\x08\x01", "group of field 1 is not closed at byte offset 3"),
        (b"\x0b\x14", "end of group 2 does not match its start at byte offset 1"),
        (_len_delimited(1, b"\x0a\x02\xc3\x28"), "piece 0 is not valid UTF-8 at byte offset 2"),
        (_len_delimited(5, b"\x08"), "truncated varint at byte offset 3"),
    ],
)
def test_hand_decoder_refuses_malformed(data: bytes, message: str) -> None:
    with pytest.raises(CactError, match=f"^not a SentencePiece model: {message}$"):
        tokenizer_blob_from_sentencepiece(data)
    _assert_decoder_agrees(data)


def test_writer_refuses_negative_ids() -> None:
    model = train_tokenizer(synthetic_corpus(11, 300), 400)
    mp = sp_pb2.ModelProto.FromString(model)
    mp.trainer_spec.pad_id = -1  # SentencePiece's "no pad piece"
    with pytest.raises(CactError, match="pad_id -1, Needle 2 fixes it at 0"):
        tokenizer_blob_from_sentencepiece(mp.SerializeToString())
    # However a model is cut, the writer answers with its own error type.
    with pytest.raises(CactError):
        tokenizer_blob_from_sentencepiece(model[: len(model) // 2])


def test_no_protobuf_at_run_time(tmp_path: Path, small_blob: bytes) -> None:
    # The check from the task, verbatim, then everything the module does in one process.
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import agent.model.tokenizer, sys; print('google.protobuf' in sys.modules)",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "False"
    (tmp_path / "tok.blob").write_bytes(small_blob)
    code = (
        "import sys\n"
        "import numpy, sentencepiece\n"
        "import agent.model.tokenizer as t\n"
        "tok = t.Tokenizer(open(sys.argv[1], 'rb').read())\n"
        "tok.decode(tok.encode(' turn on') + tok.encode_continuation('\\nthe light'))\n"
        "tok.token_bytes()\n"
        "t.tokenizer_blob_from_sentencepiece(tok.model_proto_bytes())\n"
        "t.tokenizer_blob_from_sentencepiece(t.train_tokenizer(t.synthetic_corpus(1, 300), 400))\n"
        "print(sorted(m for m in sys.modules if m == 'google' or m.startswith('google.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "tok.blob")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "[]"


# --- one processor for both encodings -------------------------------------------------------


@cache
def _two_processors(blob: bytes) -> tuple[spm.SentencePieceProcessor, spm.SentencePieceProcessor]:
    """What the session used to keep: a processor with the dummy prefix and one without.

    Built from protobuf's own serialization, so the hand encoder is not part of the reference.
    """
    spec = parse_tokenizer_blob(blob)
    pre, cont = (
        spm.SentencePieceProcessor(model_proto=_reference_proto(spec, d).SerializeToString())
        for d in (True, False)
    )
    return pre, cont


def _assert_one_like_two(tok: Tokenizer, blob: bytes, text: str) -> None:
    pre, cont = _two_processors(blob)
    ids = tok.encode(text)
    assert ids == pre.encode(text), text
    cont_ids = tok.encode_continuation(text)
    assert cont_ids == cont.encode(text), text
    assert tok.decode(ids) == pre.decode(ids), text
    assert tok.decode(cont_ids) == cont.decode(cont_ids) == pre.decode(cont_ids), text


def _variants(text: str) -> list[str]:
    """`text` with the whitespace SentencePiece's normalizer treats specially around it."""
    return [
        text,
        " " + text,
        "   " + text + "  ",
        "\n" + text,
        text + "\n",
        "\t " + text,
        "\u2581" + text,
        " \u2581 " + text,
        text.replace(" ", "   "),
        f"\n{CHAT_MARKERS[0]}user\n{text}{CHAT_MARKERS[1]}\n{CHAT_MARKERS[0]}assistant\n",
    ]


@needs_golden
@pytest.mark.parametrize("stem", [s for s, _ in GOLDEN_FILES])
def test_one_processor_matches_two_on_corpus(stem: str) -> None:
    tok = _golden_tokenizer(stem)
    blob = _golden_blob(stem)
    assert tok._sp_prefixed is None  # the prefix is emulated: one processor only
    cases = json.loads((GOLDEN / f"{stem}.json").read_text())["tokenizer_cases"]
    texts = [c["text"] for c in cases] + SAMPLE_TEXTS + synthetic_corpus(13, 150)
    texts += ["", " ", "   ", "\u2581", " \u2581 ", "\u2581\u2581x", "\n", " \n ", "\u3000x"]
    for text in texts:
        for variant in _variants(text):
            _assert_one_like_two(tok, blob, variant)


_ATOMS = [
    " ",
    "  ",
    "\n",
    "\n\n",
    "\t",
    "\r\n",
    "\u2581",
    "\u3000",
    "\u00a0",
    *CHAT_MARKERS,
    "<tool",
    "call>",
    "turn on",
    "the kitchen light",
    '{"name":"set_light","arguments":{"level":30}}',
    "21.5°C",
    "日本語",
    "🙂",
    "e\u0301",
    "Ω",
]
_TEXTS = st.one_of(
    st.text(max_size=30),
    st.lists(st.one_of(st.sampled_from(_ATOMS), st.text(max_size=3)), max_size=10).map("".join),
)


@needs_golden
@pytest.mark.parametrize("stem", [s for s, _ in GOLDEN_FILES])
@FUZZ
@given(text=_TEXTS)
def test_one_processor_matches_two_on_random_text(stem: str, text: str) -> None:
    _assert_one_like_two(_golden_tokenizer(stem), _golden_blob(stem), text)


@needs_golden
@FUZZ
@given(ids=st.lists(st.integers(0, 8191), max_size=12))
def test_one_processor_decodes_like_two(ids: list[int]) -> None:
    pre, _cont = _two_processors(_golden_blob("release"))
    assert _golden_tokenizer("release").decode(ids) == pre.decode(ids)


@cache
def _exotic_blob() -> bytes:
    """A blob with user-defined pieces that take part in the normalizer's space handling."""
    header, records = _split(tokenizer_blob_from_sentencepiece(_small_model()))
    for j, text in enumerate(["\u2581zq", " x", "a  b", "q ", "\u2581 k", "  "]):
        records[399 - j][1:] = [PieceType.USER_DEFINED, text.encode()]
    return _join(header, records)


@cache
def _exotic_tokenizer() -> Tokenizer:
    return Tokenizer(_exotic_blob())


@cache
def _small_model() -> bytes:
    return train_tokenizer(synthetic_corpus(11, 300), 400)


def test_exotic_user_defined_pieces_keep_the_library_prefix() -> None:
    blob = _exotic_blob()
    tok = _exotic_tokenizer()
    assert tok._sp_prefixed is not None
    pre, cont = _two_processors(blob)
    # Here an emulated prefix would differ: a literal "▁" in front lets the normalizer match
    # "▁zq" as one unit, then "  " as another, where with its own prefix it matched "q " and
    # " x" and collapsed the spaces.
    assert cont.encode("\u2581zq  x") != pre.encode("zq  x")
    for text in ["zq  x", " zq  x", " x  a  b q  ", "q  zq"] + SAMPLE_TEXTS:
        for variant in _variants(text):
            _assert_one_like_two(tok, blob, variant)


@FUZZ
@given(
    text=st.lists(st.sampled_from(["zq", " x", "a  b", "q ", " k", " ", "a", "\u2581"])).map(
        "".join
    )
)
def test_exotic_user_defined_pieces_random(text: str) -> None:
    _assert_one_like_two(_exotic_tokenizer(), _exotic_blob(), text)


@pytest.mark.parametrize("name", ["tok1024.model", "tok8192.model"])
def test_tokenizer_keeps_no_parsed_spec_but_answers_the_same(name: str) -> None:
    # The tokenizer drops its parsed spec after building the processor (memory); pieces, types
    # and output bytes still come out exactly as the blob has them.
    from conftest import GOLDEN as _G

    blob = tokenizer_blob_from_sentencepiece((_G / name).read_bytes())
    tok = Tokenizer(blob)
    assert tok._spec is None
    spec = parse_tokenizer_blob(blob)
    assert [tok.piece(i) for i in range(tok.vocab_size)] == [p[0] for p in spec.pieces]
    assert [tok.piece_type(i) for i in range(tok.vocab_size)] == [p[2] for p in spec.pieces]
    assert tok.spec == spec and tok.add_dummy_prefix == spec.add_dummy_prefix
    assert tok.token_bytes() == Tokenizer(spec).token_bytes()
