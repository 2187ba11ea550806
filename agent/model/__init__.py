"""The model runtime: the `.cact` file, its tokenizer, and the engines that run it (native and
NumPy reference), plus which bundled model serves a set of tools.

It imports nothing else from `agent`: a program that only runs the model needs no grammar,
no config and no transports.
"""
