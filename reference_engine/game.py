"""A whole game: seeded deals, the deal passing clockwise, scores carried from hand to hand.

``Game`` holds the hand in play (a ``hand.HandState``) and every finished hand; its
``legal_actions``/``apply`` pass through to the hand and deal the next one when a hand ends.
``replay_game`` plays given deals and actions hand after hand (the protocol's ``play_game``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Action
from .cards import Counts, check_deal, deal, parse_hands, shuffled, to_counts
from .errors import CardError, PinochleError
from .hand import HandState, replay
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


@dataclass(frozen=True)
class GameIllegal:
    """The first illegal step of a replayed game: the hand (0-based in the list), the action's
    index in it (None when the hand itself is refused), the rule broken and the message."""

    hand: int
    index: int | None
    rule: str
    message: str


def replay_game(
    rules: Rules,
    dealer: int,
    deals: Sequence[Sequence[str | Sequence[str]]],
    actions: Sequence[Sequence[Action]],
    seats: Sequence[Sequence[int | None]] | None = None,
    scores: tuple[int, int] = (0, 0),
) -> tuple[list[HandState], GameIllegal | None]:
    """Play hands in a row from given deals and actions: the hands played, and the first illegal
    step.

    ``dealer`` deals the first hand and the deal passes one seat clockwise after each hand
    (DEAL-ROTATION); scores carry over from ``scores``; hand ``k`` (0-based) is hand number
    ``k + 1`` of the game (GAME-ROUNDS). A deal that is not the variant's is refused under
    DEAL-HANDS, and a hand dealt after the game is won under GAME-TARGET (GAME-ROUNDS with the
    ``rounds`` option), before any action; an action after the game is won is refused by the
    hand (``HandState.apply``). The replay stops at the first illegal step. Raises
    PinochleError when the lists differ in length or a hand other than the last is unfinished
    when its actions run out (malformed input, not a rule question).
    """
    if len(deals) != len(actions) or (seats is not None and len(seats) != len(actions)):
        raise PinochleError(
            f"a game lists one deal and one list of actions per hand: got {len(deals)} deals "
            f"and {len(actions)} lists of actions"
        )
    played: list[HandState] = []
    for k, (cards, steps) in enumerate(zip(deals, actions, strict=True)):
        if played:
            last = played[-1]
            if not last.is_terminal():
                raise PinochleError(
                    f"hand {k - 1} is not over when its actions run out, yet hand {k} follows"
                )
            assert last.score is not None
            if last.score.game_winner is not None:
                rule = "GAME-ROUNDS" if rules.rounds is not None else "GAME-TARGET"
                why = f"the game is over (team {last.score.game_winner} won)"
                return played, GameIllegal(k, None, rule, f"hand {k} is not dealt: {why}")
            scores = last.score.scores
        try:
            hands = check_hands(rules, cards)
        except CardError as err:
            return played, GameIllegal(k, None, "DEAL-HANDS", f"hand {k}: {err} (DEAL-HANDS)")
        state = HandState(rules, (dealer + k) % 4, hands, scores, k + 1)
        played.append(state)
        state, illegal = replay(state, steps, None if seats is None else seats[k])
        if illegal is not None:
            return played, GameIllegal(k, illegal.index, illegal.rule, illegal.message)
    return played, None
