"""The reference engine: plays every variant of the Pinochle spec exactly as ``spec/`` says."""

__version__ = "0.1.0"
