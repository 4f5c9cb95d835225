"""Engines that expose whole hands only: the reference engine declaring just ``play_hand`` and
``play_game``, clean or with one planted play or scoring bug, as a game engine's API would.

``python -m tests.whole_hand_engines NAME`` serves one (``clean`` or a bug below);
``tests/test_whole_hand_reach.py`` proves the whole-hand cases catch each bug at its rule.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from pinochle_adapters import sdk
from pinochle_adapters.reference import ReferenceEngine
from reference_engine import scoring, tricks
from reference_engine.cards import RANKS, Card, rank_of, suit_of
from reference_engine.scoring import HandScore, Outcome
from reference_engine.variants import Rules
from tests.mutants import CONTROL, Mutant, get

WHOLE_HAND_METHODS = ["play_hand", "play_game"]
"""All the engine declares: no rule function (legal_plays, meld, card_points, score_hand ...)."""
ALL_VARIANTS = ("double-deck", "single-deck", "online")


class WholeHandEngine(ReferenceEngine):
    """The reference engine answering whole hands and games only."""

    methods = WHOLE_HAND_METHODS


_legal_plays = tricks.legal_plays
_score_hand = scoring.score_hand
_game_winner = scoring.game_winner


def partner_no_crawl(
    hand: Sequence[int], trick: Sequence[Card], trump: int, rules: Rules
) -> list[Card]:
    """As ``tricks.legal_plays``, but with the partner winning any card of the suit led may
    follow: the house misreading "no need to beat your partner" (spec says the duty holds)."""
    plays = _legal_plays(hand, trick, trump, rules)
    if len(trick) >= 2 and tricks.trick_winner(trick, trump) == len(trick) - 2:
        follow = [c for c in range(len(hand)) if hand[c] and suit_of(c) == suit_of(trick[0])]
        if follow:
            return follow
    return plays


def trump_instead_of_follow(
    hand: Sequence[int], trick: Sequence[Card], trump: int, rules: Rules
) -> list[Card]:
    """As ``tricks.legal_plays``, but a player holding the suit led may trump instead."""
    plays = _legal_plays(hand, trick, trump, rules)
    if not trick or suit_of(trick[0]) == trump or suit_of(plays[0]) != suit_of(trick[0]):
        return plays  # a lead, a trump lead, or void in the suit led: the rules as they are
    trumps = [c for c in range(len(hand)) if hand[c] and suit_of(c) == trump]
    return sorted({*plays, *trumps})


def set_costs_nothing(
    rules: Rules, bidder_team: int, contract: int, outcome: Outcome, *figures: Any, **kw: Any
) -> HandScore:
    """As ``scoring.score_hand``, but a set bidding team loses nothing (not -contract).

    ``figures`` are score_hand's meld, tricks, tricks_won and scores (before the hand).
    """
    score = _score_hand(rules, bidder_team, contract, outcome, *figures, **kw)
    if outcome != "played" or score.made:
        return score
    before = figures[3]
    after = [before[0], before[1]]  # the bidders' score stays; the opponents' as scored
    after[1 - bidder_team] = score.scores[1 - bidder_team]
    hand = kw.get("hand", figures[4] if len(figures) > 4 else None)
    return dataclasses.replace(
        score,
        delta=(after[0] - before[0], after[1] - before[1]),
        scores=(after[0], after[1]),
        game_winner=scoring.game_winner(rules, bidder_team, before, after, hand, made=False),
    )


def target_must_be_passed(
    rules: Rules,
    bidder_team: int,
    before: Sequence[int],
    after: Sequence[int],
    *rest: Any,
    **kw: Any,
) -> int | None:
    """As ``scoring.game_winner``, but a team must pass the target, landing on it is not enough."""
    lowered = [score - 1 if score == rules.target else score for score in after]
    return _game_winner(rules, bidder_team, before, lowered, *rest, **kw)


def tens_count_nothing(rules: Rules) -> Rules:
    """The rules with tens worth no card points (002's literal list read as the default)."""
    ten = RANKS.index("T")
    points = tuple(0 if rank_of(k) == ten else p for k, p in enumerate(rules.points_by_kind))
    return dataclasses.replace(rules, points_by_kind=points)


def _planted(
    name: str, caught_by: str, misreading: str, target: str, replacement: Callable[..., object]
) -> Mutant:
    """A bug planted by replacing ``target`` (``module.attr``) in every variant."""
    return Mutant(name, misreading, caught_by, ALL_VARIANTS, patches={target: replacement})


def _reused(name: str, variants: Sequence[str] = ALL_VARIANTS) -> Mutant:
    """A mutant of tests/mutants, shown in ``variants`` (its own list names one variant)."""
    return dataclasses.replace(get(name), variants=tuple(variants))


BUGS: dict[str, Mutant] = {
    bug.name: bug
    for bug in (
        _planted(
            "partner-no-crawl",
            "PLAY-CRAWL",
            "with the partner winning, any card of the suit led may follow",
            "reference_engine.tricks.legal_plays",
            partner_no_crawl,
        ),
        _reused("post-1945"),
        _planted(
            "trump-instead-of-follow",
            "PLAY-FOLLOW",
            "a player holding the suit led may trump instead of following",
            "reference_engine.tricks.legal_plays",
            trump_instead_of_follow,
        ),
        _reused("trump-void-discard"),
        _reused("no-overtrump"),
        _reused("trumped-trick-crawl"),
        _reused("last-identical-wins"),
        Mutant(
            "tens-count-nothing",
            "tens are worth no card points",
            "POINTS-COUNTERS",
            # 48 cards: the suit's hands give every ten to one team, so only that team's points
            # change, which the diagnosis reads as the last-trick bonus (POINTS-LAST-TRICK).
            ("double-deck",),
            rules=tens_count_nothing,
        ),
        _reused("no-last-trick"),
        _reused("meld-minimum-ignored", ["double-deck"]),
        _reused("throw-in-free", ["double-deck", "online"]),
        _planted(
            "set-costs-nothing",
            "SCORE-SET",
            "a set bidding team loses nothing",
            "reference_engine.scoring.score_hand",
            set_costs_nothing,
        ),
        _planted(
            "target-must-be-passed",
            "GAME-TARGET",
            "a team landing exactly on the target has not won",
            "reference_engine.scoring.game_winner",
            target_must_be_passed,
        ),
    )
}
"""Each planted bug by name: the misreading and the rule whose cases must catch it."""


def engine_names() -> list[str]:
    """``clean`` then every planted bug."""
    return ["clean", *BUGS]


def server(name: str) -> sdk.Server:
    """The whole-hand-only server of engine ``name`` (call inside ``bug(name).installed()``)."""
    engine = WholeHandEngine()
    engine.name = f"whole-hand-{name}"
    return sdk.Server(engine)


def bug(name: str) -> Mutant:
    """The change behind engine ``name`` (``clean``: none); KeyError naming the choices."""
    if name == "clean":
        return CONTROL
    if name in BUGS:
        return BUGS[name]
    try:  # any mutant of tests/mutants (or a pair, ``A+B``), whole hands only
        return get(name)
    except (KeyError, ValueError):
        raise KeyError(f"no engine {name!r}: choose one of {', '.join(engine_names())}") from None
