"""The Pinochle conformance suite runner: an installable pytest plugin (entry point ``pinochle``).

It talks to engines only through ``pinochle_adapters.client``; it never imports the reference
engine.
"""
