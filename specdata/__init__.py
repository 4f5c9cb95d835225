"""The only code that knows where the spec's data lives, and the vocabulary every layer shares.

One module per concern, every name importable from here: ``paths`` (``spec/`` and
``features/``), ``rules`` (rule IDs, the rule catalogue, the auction's precedence), ``cards``
(the one card grammar), ``yaml_files`` (the strict YAML loader, file:line errors), ``schemas``
(the one schema checker), ``variants`` (the one checked ``Variant``), ``text`` (shortening), and
``vocabulary`` (method names and meld ids).
"""

from __future__ import annotations

from .cards import (
    CARD_HELP,
    CARD_TOKEN,
    RANK_SYMBOLS,
    RANKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    card_code,
    card_codes,
    is_card,
)
from .paths import (
    CI_DIR,
    DISTRIBUTION,
    FEATURES_DIR,
    RULES_DIR,
    SCHEMA_DIR,
    SPEC_DIR,
    VARIANTS_DIR,
    suite_version,
)
from .rules import AUCTION_PRECEDENCE, RULE_ID, rule_ids
from .schemas import Checker, checker, load_schema
from .text import escaped, shorten, shown
from .variants import (
    VARIANT_SCHEMA,
    Option,
    Variant,
    check_variants,
    load_variant,
    load_variant_file,
    option_choices,
    option_defaults,
    option_methods,
    option_text,
    variant_ids,
    variant_path,
)
from .yaml_files import (
    MAX_DATA_DEPTH,
    MAX_DATA_FILE_BYTES,
    DataFileError,
    check,
    load_yaml,
    load_yaml_node,
)

__all__ = [
    "AUCTION_PRECEDENCE",
    "CARD_HELP",
    "CARD_TOKEN",
    "CI_DIR",
    "DISTRIBUTION",
    "FEATURES_DIR",
    "MAX_DATA_DEPTH",
    "MAX_DATA_FILE_BYTES",
    "RANKS",
    "RANK_SYMBOLS",
    "RULES_DIR",
    "RULE_ID",
    "SCHEMA_DIR",
    "SPEC_DIR",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "VARIANTS_DIR",
    "VARIANT_SCHEMA",
    "Checker",
    "DataFileError",
    "Option",
    "Variant",
    "card_code",
    "card_codes",
    "check",
    "check_variants",
    "checker",
    "escaped",
    "is_card",
    "load_schema",
    "load_variant",
    "load_variant_file",
    "load_yaml",
    "load_yaml_node",
    "option_choices",
    "option_defaults",
    "option_methods",
    "option_text",
    "rule_ids",
    "shorten",
    "shown",
    "suite_version",
    "variant_ids",
    "variant_path",
]
