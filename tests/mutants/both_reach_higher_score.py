"""Mutant: when both teams reach the target, the higher score wins (not the bidding team)."""

from collections.abc import Sequence

from reference_engine import scoring
from reference_engine.variants import Rules

from . import Mutant

_game_winner = scoring.game_winner


def game_winner(
    rules: Rules,
    bidder_team: int,
    before: Sequence[int],
    after: Sequence[int],
    hand: int | None = None,
    made: bool = True,
) -> int | None:
    """As ``scoring.game_winner``, but two teams over the target are split by their scores."""
    winner = _game_winner(rules, bidder_team, before, after, hand, made)
    both = all(score >= rules.target for score in after)
    if winner is not None and rules.rounds is None and both and after[0] != after[1]:
        return 0 if after[0] > after[1] else 1
    return winner


MUTANT = Mutant(
    name="both-reach-higher-score",
    misreading="when both teams reach the target, the higher score wins the game",
    caught_by="GAME-BOTH-REACH",
    variants=("double-deck", "single-deck"),
    patches={"reference_engine.scoring.game_winner": game_winner},
)
