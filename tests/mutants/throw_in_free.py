"""Mutant: throwing in costs the bidders nothing (the -contract is forgotten)."""

from dataclasses import replace
from typing import Any

from reference_engine import scoring
from reference_engine.scoring import HandScore, Outcome

from . import Mutant

_score_hand = scoring.score_hand


def score_hand(
    rules: Any, bidder_team: int, contract: int, outcome: Outcome, *args: Any, **kwargs: Any
) -> HandScore:
    """As ``scoring.score_hand``, but a thrown-in hand leaves the bidders' score alone."""
    score = _score_hand(rules, bidder_team, contract, outcome, *args, **kwargs)
    if outcome != "thrown_in":
        return score
    delta = list(score.delta)
    delta[bidder_team] = 0
    before = [s - d for s, d in zip(score.scores, score.delta, strict=True)]
    after = (before[0] + delta[0], before[1] + delta[1])
    winner = scoring.game_winner(rules, bidder_team, before, after, kwargs.get("hand"), made=False)
    return replace(score, delta=(delta[0], delta[1]), scores=after, game_winner=winner)


MUTANT = Mutant(
    name="throw-in-free",
    misreading="a thrown-in hand costs the bidders nothing",
    caught_by="SCORE-THROW-IN",
    variants=("double-deck",),
    patches={"reference_engine.scoring.score_hand": score_hand},
)
