"""Adapters: the JSON-RPC protocol between the conformance suite and any Pinochle engine."""
