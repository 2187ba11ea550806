"""Tokenizer: RAW blob parsing/validation, golden encodings, blob writer, training."""

from __future__ import annotations

import json
import os
import re
import struct
from functools import cache
from pathlib import Path

import pytest
import sentencepiece as spm
from sentencepiece import sentencepiece_model_pb2 as sp_pb2

from agent.errors import CactError
from agent.tokenizer import (
    BOS_ID,
    CHAT_MARKERS,
    EOS_ID,
    PAD_ID,
    UNK_ID,
    PieceType,
    Tokenizer,
    TokenizerSpec,
    parse_tokenizer_blob,
    synthetic_corpus,
    tokenizer_blob_from_sentencepiece,
    train_tokenizer,
)

GOLDEN = Path(
    os.environ.get("NEEDLED_GOLDEN", Path(__file__).resolve().parents[2] / "shared" / "golden")
)
# (cact/json stem, SentencePiece model embedded in it)
GOLDEN_FILES = [("tiny", "tok1024"), ("release", "tok8192")]

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
    return bytes(_cact_tokenizer_blob(GOLDEN / f"{stem}.cact"))


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
    tok = Tokenizer(_cact_tokenizer_blob(GOLDEN / f"{stem}.cact"))  # memoryview accepted
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
