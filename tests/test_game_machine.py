"""Random legal games of every variant (game.Game over hand.HandState), with invariants checked
after every action."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from reference_engine import actions, auction, bots, scoring, text
from reference_engine.cards import NUM_KINDS, RANKS, SUITS
from reference_engine.errors import IllegalAction
from reference_engine.game import Game
from reference_engine.hand import Phase
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
        self.state: Game | None = None
        self.rules: Rules | None = None

    @initialize(
        rules=st.sampled_from(RULESETS), seed=st.integers(0, 10**6), dealer=st.integers(0, 3)
    )
    def start(self, rules: Rules, seed: int, dealer: int) -> None:
        self.rules = rules
        self.state = Game(rules, seed=seed, dealer=dealer)
        self.scores = (0, 0)
        self.finished = 0

    def _step(self, action: actions.Action) -> None:
        assert self.state is not None and self.rules is not None
        self.state.apply(action)
        self._check_hand_end()

    def _check_hand_end(self) -> None:
        """Scores change only when a hand ends, exactly as scoring.score_hand says."""
        state, rules = self.state, self.rules
        assert state is not None and rules is not None
        if len(state.history) == self.finished:
            assert state.scores == self.scores
            return
        assert len(state.history) == self.finished + 1
        record = state.history[-1]
        assert record.is_terminal() and record.score is not None and record.outcome is not None
        assert record.scores_before == self.scores
        assert record.bidder is not None and record.contract is not None
        if record.outcome == "played":
            # POINTS-TOTAL: every hand's card points add up to the variant's total.
            assert sum(record.card_points) == rules.total_card_points
            assert sum(record.tricks_won) == rules.hand_size
            assert len(record.tricks) == rules.hand_size
        else:
            assert record.card_points == [0, 0] and not record.tricks
        expected = scoring.score_hand(
            rules,
            record.bidder % 2,
            record.contract,
            record.outcome,
            record.team_meld or (0, 0),
            tuple(record.card_points),
            tuple(record.tricks_won),
            record.scores_before,
            hand=record.number,
        )
        assert record.score == expected
        assert state.scores == expected.scores
        assert record.returns() == (*expected.delta, *expected.delta)
        if expected.game_winner is None:
            assert state.hand.phase is Phase.AUCTION
            assert state.hand.dealer == (record.dealer + 1) % 4  # DEAL-ROTATION
            assert state.hand.number == record.number + 1
        else:
            assert state.is_terminal() and state.winner == expected.game_winner
            assert state.hand is record
        self.scores = expected.scores
        self.finished += 1

    @rule(seed=st.integers(0, 2**32), count=st.integers(1, 40))
    def play_legal_actions(self, seed: int, count: int) -> None:
        rng = random.Random(seed)
        for _ in range(count):
            assert self.state is not None
            if self.state.is_terminal():
                return
            self._step(rng.choice(self.state.legal_actions()))

    @rule(seed=st.integers(0, 2**32))
    def bot_plays_a_hand(self, seed: int) -> None:
        rng = random.Random(seed)
        assert self.state is not None
        hands = len(self.state.history)
        while not self.state.is_terminal() and len(self.state.history) == hands:
            self._step(bots.simple(self.state.hand, rng))

    @rule(seed=st.integers(0, 2**32))
    def try_any_action(self, seed: int) -> None:
        """An illegal action raises IllegalAction and leaves the state exactly as it was; an
        accepted one was in ``legal_actions`` (or a legal bid above the listed ceiling)."""
        state, rules = self.state, self.rules
        assert state is not None and rules is not None
        action = actions.parse(random_action(random.Random(seed)))
        snapshot, view = state.hand.clone(), text.view(state.hand)
        legal = state.legal_actions()
        bid_state = state.hand.auction
        try:
            self._step(action)
        except IllegalAction as err:
            assert err.rule and err.rule in str(err)
            assert action not in legal
            assert state.hand == snapshot and text.view(state.hand) == view
            assert state.legal_actions() == legal
            return
        if action in legal:
            return
        assert actions.kind(action) == actions.BID and actions.argument(action) > rules.bid_ceiling
        assert auction.bid_violation(bid_state, rules, actions.argument(action)) is None

    def teardown(self) -> None:
        if self.state is not None:
            event(f"hands finished: {min(self.finished, 5)}{'+' if self.finished >= 5 else ''}")
            event(f"phase at the end: {self.state.hand.phase.value}")

    @invariant()
    def cards_are_conserved(self) -> None:
        state, rules = self.state, self.rules
        if state is None or rules is None:
            return
        hand = state.hand
        held = [0] * NUM_KINDS
        for hand_counts in hand.held:
            assert all(n >= 0 for n in hand_counts)
            for kind, n in enumerate(hand_counts):
                held[kind] += n
        for card in hand.trick:
            held[card] += 1
        for trick in hand.tricks:
            for card in trick.cards:
                held[card] += 1
        assert tuple(held) == rules.deck_counts
        if hand.phase in (Phase.AUCTION, Phase.TRUMP):
            assert all(sum(h) == rules.hand_size for h in hand.held)

    @invariant()
    def legal_actions_until_the_end(self) -> None:
        state = self.state
        if state is None:
            return
        legal = state.legal_actions()
        if state.is_terminal():
            assert legal == [] and state.current_seat() is None
        else:
            assert legal, f"no legal action in phase {state.hand.phase}"
            assert state.current_seat() in range(4)
            assert legal == sorted(set(legal))  # distinct, in canonical order


GameMachine.TestCase.settings = settings(
    max_examples=120,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestGameMachine = GameMachine.TestCase
