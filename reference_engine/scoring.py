"""Hand scoring and game end: what each team scores for a hand, and who has won (SCORE-*, GAME-*).

Pure functions over plain numbers: raw team meld, card points won (last-trick bonus included),
tricks won and the scores before the hand. Every threshold comes from the variant's ``Rules``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from .variants import Rules

Outcome = Literal["played", "thrown_in", "no_marriage", "meld_short"]
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)
"""How a hand ended: played out, thrown in, no marriage for trump, or the bidders short of meld."""


@dataclass(frozen=True)
class HandScore:
    """The result of one hand: whether the bidders made it, each team's change and new score,
    and the game winner (``None`` while the game goes on)."""

    made: bool
    delta: tuple[int, int]
    scores: tuple[int, int]
    game_winner: int | None


def counted_meld(rules: Rules, raw: int) -> int:
    """The meld a team scores (MELD-MINIMUM): its raw meld if it reaches the variant's minimum
    (double-deck 20), otherwise nothing."""
    return raw if raw >= rules.meld_minimum else 0


def game_winner(
    rules: Rules,
    bidder_team: int,
    before: Sequence[int],
    after: Sequence[int],
    hand: int | None = None,
    made: bool = True,
) -> int | None:
    """The team that has won the game after a hand, or ``None`` if play goes on.

    GAME-ROUNDS (online option): after the last of ``rounds`` hands the higher score wins; equal
    scores play another hand; the target is not used. GAME-BID-TO-WIN (double-deck): when both
    scores before the hand are at or over the threshold (400), only the bidding team can win,
    by reaching the target having made its contract (``made``; option bid_out=score: reaching
    the target is enough, even when set). GAME-TARGET: a team reaching the target wins;
    GAME-BOTH-REACH: if both do, the bidding team (single-deck option tie_break=higher-score: the
    higher score, equal scores the bidding team). Single-deck option negative_loss: when nobody
    reaches the target, a side at or below the limit (-1000) loses (ERRATA-HOUSE-NEGATIVE-LOSS).
    """
    if rules.rounds is not None:
        assert hand is not None, "the rounds option needs the hand number (checked at entry)"
        if hand < rules.rounds:
            return None
        if after[0] == after[1]:
            return None
        return 0 if after[0] > after[1] else 1
    threshold = rules.bid_to_win
    if threshold is not None and before[0] >= threshold and before[1] >= threshold:
        bid_out = made or rules.bid_out == "score"
        return bidder_team if bid_out and after[bidder_team] >= rules.target else None
    reached = [team for team in (0, 1) if after[team] >= rules.target]
    if not reached:
        # Single-deck option negative_loss: a side at or below the limit loses, the bidders
        # first (only bidders lose points in a hand, so in play only they can fall).
        if rules.negative_loss is not None:
            for team in (bidder_team, 1 - bidder_team):
                if after[team] <= rules.negative_loss:
                    return 1 - team
        return None
    if len(reached) == 1:
        return reached[0]
    if rules.tie == "higher-score" and after[0] != after[1]:
        return 0 if after[0] > after[1] else 1
    return bidder_team


def score_hand(
    rules: Rules,
    bidder_team: int,
    contract: int,
    outcome: Outcome,
    meld: Sequence[int],
    tricks: Sequence[int],
    tricks_won: Sequence[int],
    scores: Sequence[int],
    hand: int | None = None,
) -> HandScore:
    """Score one hand and decide the game.

    ``meld`` is each team's raw meld, ``tricks`` each team's card points (last trick included),
    ``tricks_won`` the number of tricks each team took, ``scores`` the scores before the hand.

    played: the bidders' total is counted meld (MELD-MINIMUM) plus tricks; they make the
    contract (SCORE-MADE) if the total reaches it and score the total, else are set
    (SCORE-SET) and lose the contract. Double-deck (SCORE-TRICK-MINIMUM): bidders with fewer
    than 20 in tricks are set whatever their meld, and opponents under 20 in tricks score
    nothing. Single-deck (SCORE-OPPONENTS-TRICK): opponents who took no trick score nothing.
    thrown_in (SCORE-THROW-IN, SCORE-FORCED-THROW-IN) and meld_short (MELD-SHORT-BIDDER): the
    bidders lose the contract, the opponents score their counted meld. no_marriage
    (TRUMP-NO-MARRIAGE): the bidders lose the contract and nobody scores anything else.

    The figures are trusted (the protocol server checks that they add up: ``check_figures``
    in pinochle_adapters/reference.py).
    """
    bidders, opponents = bidder_team, 1 - bidder_team
    delta = [0, 0]
    made = False
    if outcome == "played":
        bidder_total = counted_meld(rules, meld[bidders]) + tricks[bidders]
        short_of_tricks = rules.trick_minimum > 0 and tricks[bidders] < rules.trick_minimum
        made = not short_of_tricks and bidder_total >= contract
        delta[bidders] = bidder_total if made else -contract
        opponents_score = rules.trick_minimum == 0 or tricks[opponents] >= rules.trick_minimum
        if rules.opponents_need_trick and tricks_won[opponents] == 0:
            opponents_score = False
        if opponents_score:
            delta[opponents] = counted_meld(rules, meld[opponents]) + tricks[opponents]
    elif outcome in ("thrown_in", "meld_short"):
        delta[bidders] = -contract
        delta[opponents] = counted_meld(rules, meld[opponents])
    else:  # no_marriage
        delta[bidders] = -contract
    after = (scores[0] + delta[0], scores[1] + delta[1])
    return HandScore(
        made=made,
        delta=(delta[0], delta[1]),
        scores=after,
        game_winner=game_winner(rules, bidders, scores, after, hand, made),
    )
