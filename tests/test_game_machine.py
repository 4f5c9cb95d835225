"""Random legal games of every variant, with invariants checked after every action."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from reference_engine import auction, game, scoring
from reference_engine.cards import NUM_KINDS, RANKS, SUITS, to_counts
from reference_engine.errors import IllegalAction
from reference_engine.game import GameState, Phase
from reference_engine.variants import Rules, load_rules

RULESETS = [
    load_rules("double-deck"),
    load_rules("double-deck", {"trick_rules": "post-1945", "bid_to_win": "off"}),
    load_rules("single-deck"),
    load_rules("single-deck", {"auction_end": "four-passes", "card_points": "literal-002"}),
    load_rules("online"),
    load_rules("online", {"pass_cards": "3", "rounds": "3", "scoring_method": "classic"}),
]
CODES = [r + s for s in SUITS for r in RANKS]


def random_action(rng: random.Random) -> str:
    """Any well-formed action, legal or not."""
    kind = rng.randrange(7)
    if kind == 0:
        return f"bid {rng.randrange(0, 700)}"
    if kind == 1:
        return "pass"
    if kind == 2:
        return f"trump {rng.choice(SUITS)}"
    if kind == 3:
        return "give " + " ".join(rng.choice(CODES) for _ in range(rng.randrange(2, 6)))
    if kind == 4:
        return rng.choice(["throw-in", "play-on"])
    return f"play {rng.choice(CODES)}"


class GameMachine(RuleBasedStateMachine):
    """Plays random legal games; checks conservation, phases, points and scoring."""

    def __init__(self) -> None:
        super().__init__()
        self.state: GameState | None = None
        self.rules: Rules | None = None

    @initialize(
        rules=st.sampled_from(RULESETS), seed=st.integers(0, 10**6), dealer=st.integers(0, 3)
    )
    def start(self, rules: Rules, seed: int, dealer: int) -> None:
        self.rules = rules
        self.state = game.new_game(rules, seed=seed, dealer=dealer)
        self.scores = (0, 0)
        self.finished = 0

    def _step(self, action: str) -> None:
        assert self.state is not None and self.rules is not None
        before = self.state
        self.state = game.apply(before, action)
        self._check_hand_end(before)

    def _check_hand_end(self, before: GameState) -> None:
        """Scores change only when a hand ends, exactly as scoring.score_hand says."""
        state, rules = self.state, self.rules
        assert state is not None and rules is not None
        if len(state.history) == self.finished:
            assert state.scores == self.scores
            return
        assert len(state.history) == self.finished + 1
        record = state.history[-1]
        assert record.scores_before == self.scores
        assert record.bidder is not None and record.contract is not None
        if record.outcome == "played":
            # POINTS-TOTAL: every hand's card points add up to the variant's total.
            assert sum(record.card_points) == rules.total_card_points
            assert sum(record.tricks_won) == rules.hand_size
            assert len(record.tricks) == rules.hand_size
        else:
            assert record.card_points == (0, 0) and not record.tricks
        expected = scoring.score_hand(
            rules,
            record.bidder % 2,
            record.contract,
            record.outcome,
            record.team_meld or (0, 0),
            record.card_points,
            record.tricks_won,
            record.scores_before,
            hand=record.number,
        )
        assert record.score == expected
        assert state.scores == expected.scores
        if expected.game_winner is None:
            assert state.phase is Phase.AUCTION
            assert state.dealer == (record.dealer + 1) % 4  # DEAL-ROTATION
            assert state.number == record.number + 1
        else:
            assert state.phase is Phase.GAME_OVER and state.winner == expected.game_winner
        self.scores = expected.scores
        self.finished += 1

    @rule(seed=st.integers(0, 2**32), count=st.integers(1, 40))
    def play_legal_actions(self, seed: int, count: int) -> None:
        rng = random.Random(seed)
        for _ in range(count):
            assert self.state is not None
            if game.is_terminal(self.state):
                return
            self._step(rng.choice(game.legal_actions(self.state)))

    @rule(seed=st.integers(0, 2**32))
    def bot_plays_a_hand(self, seed: int) -> None:
        rng = random.Random(seed)
        assert self.state is not None
        hands = len(self.state.history)
        while not game.is_terminal(self.state) and len(self.state.history) == hands:
            self._step(game.bot_action(self.state, rng))

    @rule(seed=st.integers(0, 2**32))
    def try_any_action(self, seed: int) -> None:
        """An illegal action raises IllegalAction and leaves the state exactly as it was; one
        that is accepted was legal."""
        state, rules = self.state, self.rules
        assert state is not None and rules is not None
        action = random_action(random.Random(seed))
        snapshot = game.view(state)
        legal = game.legal_actions(state)
        try:
            after = game.apply(state, action)
        except IllegalAction as err:
            assert err.rule and err.rule in str(err)
            assert action not in legal
            assert game.view(state) == snapshot
            assert game.legal_actions(state) == legal
            return
        if action.startswith("bid "):
            assert state.phase is Phase.AUCTION
            assert auction.bid_violation(state.auction, rules, int(action.split()[1])) is None
        else:
            canonical = (
                game.give_action(game.parse_action(action)[1])
                if action.startswith("give")
                else action
            )
            assert canonical in legal
        self.state = state
        self._step(action)
        assert self.state == after

    def teardown(self) -> None:
        if self.state is not None:
            event(f"hands finished: {min(self.finished, 5)}{'+' if self.finished >= 5 else ''}")
            event(f"phase at the end: {self.state.phase.value}")

    @invariant()
    def cards_are_conserved(self) -> None:
        state, rules = self.state, self.rules
        if state is None or rules is None:
            return
        held = [0] * NUM_KINDS
        for hand in state.hands:
            assert all(n >= 0 for n in hand)
            for kind, n in enumerate(hand):
                held[kind] += n
        for card in state.trick:
            held[card] += 1
        for trick in state.tricks:
            for card in trick.cards:
                held[card] += 1
        assert tuple(held) == to_counts(rules.deck_cards)
        if state.phase in (Phase.AUCTION, Phase.TRUMP):
            assert all(sum(h) == rules.hand_size for h in state.hands)

    @invariant()
    def legal_actions_until_the_end(self) -> None:
        state = self.state
        if state is None:
            return
        actions = game.legal_actions(state)
        if game.is_terminal(state):
            assert actions == [] and game.current_seat(state) is None
        else:
            assert actions, f"no legal action in phase {state.phase}"
            assert game.current_seat(state) in range(4)
            assert len(set(actions)) == len(actions)


GameMachine.TestCase.settings = settings(
    max_examples=120,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestGameMachine = GameMachine.TestCase
