"""A whole game: seeded deals, the deal passing clockwise, scores carried from hand to hand.

``Game`` holds the hand in play (a ``hand.HandState``) and every finished hand; its
``legal_actions``/``apply`` pass through to the hand and deal the next one when a hand ends.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .actions import Action
from .cards import Counts, check_deal, deal, parse_hands, shuffled, to_counts
from .errors import PinochleError
from .hand import HandState
from .variants import Rules


def deal_hands(rules: Rules, seed: int | str, number: int, dealer: int) -> tuple[Counts, ...]:
    """The hands of hand ``number`` of a seeded game: the deck shuffled by ``seed`` and the hand
    number, dealt clockwise from the dealer's left in the variant's packets (DEAL-PACKETS)."""
    order = shuffled(rules.deck_cards, f"{seed}/{number}")
    return tuple(to_counts(h) for h in deal(order, dealer, rules.deal_packets))


def check_hands(rules: Rules, hands: Sequence[str | Sequence[str]]) -> tuple[Counts, ...]:
    """Hands given as card codes, parsed and checked against the variant's deck (DEAL-HANDS);
    raises CardError naming the seat or what the deal lacks."""
    parsed = parse_hands(hands)
    check_deal(parsed, rules.deck_cards, rules.hand_size)
    return tuple(to_counts(h) for h in parsed)


class Game:
    """A game at one moment: the hand in play, the finished hands and the scores.

    ``apply`` changes it in place; when a hand ends and nobody has won, the next dealer
    (clockwise, DEAL-ROTATION) deals the next hand from the seed and its number. Once a team
    has won, the last hand stays in play, terminal.
    """

    def __init__(
        self,
        rules: Rules,
        seed: int | str | None = None,
        dealer: int = 0,
        hands: Sequence[Counts] | None = None,
    ) -> None:
        """A new game: scores 0-0, ``dealer`` deals the first hand.

        The first hand is ``hands`` if given (count vectors already checked: ``check_hands``),
        else dealt from ``seed``; every later hand is dealt from ``seed`` and its number.
        Without a seed one is drawn at random and kept, so the game can be replayed.
        """
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise PinochleError(f"seed must be an integer or a string, got {seed!r}")
        self.rules = rules
        self.seed = seed
        first = deal_hands(rules, seed, 1, dealer) if hands is None else hands
        self.hand = HandState(rules, dealer, first)
        self.history: list[HandState] = []

    @property
    def scores(self) -> tuple[int, int]:
        """The current game scores of teams 0 and 1."""
        return self.hand.scores

    @property
    def winner(self) -> int | None:
        """The team that won the game, once it is over."""
        score = self.hand.score
        return score.game_winner if score is not None else None

    def current_seat(self) -> int | None:
        """The seat whose action is awaited, or ``None`` once the game is over."""
        return self.hand.current_seat()

    def legal_actions(self) -> list[Action]:
        """The legal actions of the hand in play (``HandState.legal_actions``)."""
        return self.hand.legal_actions()

    def is_terminal(self) -> bool:
        """Whether a team has won the game."""
        return self.hand.is_terminal()

    def returns(self) -> tuple[int, int, int, int]:
        """Each seat's game score (its team's score), seats 0-3."""
        s = self.scores
        return (s[0], s[1], s[0], s[1])

    def apply(self, action: Action, seat: int | None = None) -> None:
        """The seat to act takes ``action`` in the hand in play (``HandState.apply``)."""
        hand = self.hand
        hand.apply(action, seat)
        if not hand.is_terminal():
            return
        self.history.append(hand)
        assert hand.score is not None
        if hand.score.game_winner is None:
            dealer = (hand.dealer + 1) % 4
            number = hand.number + 1
            hands = deal_hands(self.rules, self.seed, number, dealer)
            self.hand = HandState(self.rules, dealer, hands, hand.score.scores, number)
