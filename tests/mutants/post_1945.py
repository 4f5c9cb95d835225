"""Mutant: post-1945 obligations where the variant plays the pre-1945 crawl."""

from . import Mutant, replace_rules

MUTANT = Mutant(
    name="post-1945",
    misreading="beats only when trumps are led (post-1945), though the variant plays the crawl",
    caught_by="PLAY-CRAWL",
    variants=("double-deck",),
    rules=replace_rules(obligations="post-1945"),
)
