"""The agent: tool schemas, the prompt, the grammar, and the session that turns a request into
grammar-checked tool calls and an envelope.

It builds on `agent.model` only; the daemon that feeds it requests lives in `agent.service`.
"""
