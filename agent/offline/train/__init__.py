"""Training toolkit (optional extra `.[train]`, needs PyTorch): model, QAT, data, train, eval.

Nothing here is imported by the daemon at start. The modules:

- :mod:`.torch_model`: Needle 2 in PyTorch for any geometry; load from / export to `.cact`.
- :mod:`.qat`: CQ weight fake-quant with a straight-through estimator, A8 activation fake-quant.
- :mod:`.synth`: template-driven data synthesis (a `sentences.ini`-like syntax) to vendor JSONL.
- :mod:`.trainer`: from-scratch training of a small geometry (own tokenizer), QAT, export.
- :mod:`.finetune`: LoRA on the attention projections of an existing `.cact`, merge, export.
- :mod:`.slice`: the first N layers of a model as a smaller `.cact`.
- :mod:`.evaluate`: exact-match / refusal metrics over a JSONL case file.

`synth`, `slice` and `evaluate` work without PyTorch (evaluation then decodes with the NumPy
reference or the native engine).

CLI hooks (for `agent/cli.py`): each module exposes `add_arguments(parser)` and `main(args)`
(`train_main`, `finetune_main`, `slice_main`, `eval_main`, `synth_main`).
"""
