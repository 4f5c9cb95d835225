"""Adapters: the JSON-RPC protocol between the conformance suite and any Pinochle engine.

``protocol`` (messages, schemas, limits), ``client`` (drives an engine), ``sdk`` (serves one) never
import an engine; ``reference`` is the reference engine's server, the one module seeing both sides.
"""
