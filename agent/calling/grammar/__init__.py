"""Grammar-constrained tool calling: JSON Schema -> byte automaton -> token masks -> decoding.

Public API:

- :func:`compile_calls` (tools -> :class:`Automaton` for the call list) and
  :func:`compile_value` (one schema -> automaton for one JSON value);
- :func:`validate_schema` and :class:`SchemaError` (load-time rejection of what the grammar
  cannot enforce);
- :class:`Automaton`: ``start``, ``advance(state, byte)``, ``is_accepting(state)``,
  ``distance(state)``, ``shortest_completion(state)``, ``matches(data)``; :data:`DEAD`;
- :class:`TokenMasker`: ``allowed(state)``, ``forced(state)``, ``advance_token(state, id)``;
  :data:`END`; :func:`vocab_from_sentencepiece`;
- :func:`decode_call` and :class:`DecodeResult`.

See the module docstrings of :mod:`.schema` (number formatting, any-value depth),
:mod:`.regex` (the ``pattern`` subset and enforced formats) and :mod:`.decode` (budget rules).
"""

from agent.calling.grammar.decode import DecodeResult, decode_call
from agent.calling.grammar.masker import END, TokenMasker, VocabTrie, vocab_from_sentencepiece
from agent.calling.grammar.nfa import DEAD, Automaton
from agent.calling.grammar.regex import RegexError
from agent.calling.grammar.schema import (
    ANNOTATIONS,
    ENFORCED_FORMATS,
    SUPPORTED,
    SchemaError,
    compile_calls,
    compile_value,
    validate_schema,
)

__all__ = [
    "ANNOTATIONS",
    "DEAD",
    "END",
    "ENFORCED_FORMATS",
    "SUPPORTED",
    "Automaton",
    "DecodeResult",
    "RegexError",
    "SchemaError",
    "TokenMasker",
    "VocabTrie",
    "compile_calls",
    "compile_value",
    "decode_call",
    "validate_schema",
    "vocab_from_sentencepiece",
]
