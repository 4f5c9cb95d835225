"""Differential fuzzing: random questions asked of an engine and of the reference, compared.

The one place besides the reference server that sees both the rules (to generate positions) and
the protocol client (to ask the engine under test); ``pinochle fuzz`` is ``cli.main``.
"""
