"""Why the reference engine answered as it did: every answer traced to the rule that decided it.

Tracing is asked for, never paid for: the rule functions of ``auction``, ``tricks``, ``meld``,
``scoring`` and ``hand`` are untouched, and each function here replays a step with them and says
which rule decided its outcome. A ``Decision`` is a small value: the rule, the point of the
answer it decided (``call``, ``play``, ``trick winner``, ``meld item``, ``delta`` ...), where
(index, seat, team, hand) and the value decided. The judging side compares an engine's answer
with these, point by point, and charges a disagreement to the rule of the first point that
differs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from specdata.vocabulary import MELD_RULES

from . import auction, meld, scoring, tricks
from .actions import BID, KIND_BITS, KIND_MASK, PASS, PLAY, TRUMP, Action, parse
from .auction import AuctionState, Call
from .cards import ACE, JACK, KING, NUM_RANKS, QUEEN, TEN, Card
from .errors import IllegalAction, PinochleError
from .game import check_hands
from .hand import HandState, Phase, Trick
from .variants import Rules


@dataclass(frozen=True)
class Decision:
    """One point of an answer and the rule that decided it.

    ``point`` names the kind of answer (``call``, ``turn``, ``min_bid``, ``legal_plays``,
    ``play``, ``trick winner``, ``card_points``, ``meld item``, ``made``, ``delta``,
    ``game_winner`` ...); ``value`` what was decided (a JSON value); ``index`` the call, action
    or trick it belongs to; ``seat``/``team``/``hand`` where it applies; ``also`` rules that
    share the decision, likeliest first.
    """

    rule: str
    point: str
    value: object = None
    index: int | None = None
    seat: int | None = None
    team: int | None = None
    hand: int | None = None
    also: tuple[str, ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        """The deciding rule, then the rules sharing the decision."""
        return (self.rule, *self.also)


# --- the auction ------------------------------------------------------------------------------


def turn(state: AuctionState, rules: Rules) -> Decision:
    """Who calls next and which rule says so: the first call AUCTION-FIRST-BIDDER, a forced
    fourth AUCTION-DEALER-FORCED, the end AUCTION-END, otherwise AUCTION-TURN."""
    if state.complete:
        forced = bool(state.calls) and len(state.passed) == 3 and state.high_bid is not None
        duty = _ended_by_forced(state, rules) if forced else None
        return Decision("AUCTION-END", "turn", None, len(state.calls), also=(duty,) if duty else ())
    if not state.calls:
        return Decision("AUCTION-FIRST-BIDDER", "turn", state.next_seat, 0)
    last, nxt = state.calls[-1][0], state.next_seat or 0
    skipped = any((last + k) % 4 in state.passed for k in range(1, (nxt - last) % 4 or 4))
    also = ("AUCTION-PASS-FINAL",) if skipped else ()
    return Decision("AUCTION-TURN", "turn", state.next_seat, len(state.calls), also=also)


def _ended_by_forced(state: AuctionState, rules: Rules) -> str | None:
    """The duty behind the last call when that forced call ended the auction, else None."""
    before = auction.start(rules, state.dealer)
    for seat, made in state.calls[:-1]:
        before = auction.apply_call(before, rules, seat, made)
    forced = auction.forced_bid(before, rules)
    return forced[0] if forced is not None else None


def call(state: AuctionState, rules: Rules, seat: int, made: Call, index: int) -> Decision:
    """The verdict on one call, ``value`` True for accepted, False for refused: a refusal's own
    rule; an accepted forced bid the duty; an opening bid AUCTION-OPENING-MIN, a raise
    AUCTION-HIGHER with AUCTION-STEP; an accepted pass AUCTION-PASS-FINAL's seat left out."""
    try:
        auction.apply_call(state, rules, seat, made)
    except IllegalAction as err:
        return Decision(err.rule, "call", False, index, seat)
    forced = auction.forced_bid(state, rules)
    if forced is not None:
        return Decision(forced[0], "call", True, index, seat)
    if made is None:
        return Decision("AUCTION-PASS-FINAL", "call", True, index, seat)
    if state.high_bid is None:
        return Decision("AUCTION-OPENING-MIN", "call", True, index, seat, also=("AUCTION-STEP",))
    return Decision("AUCTION-HIGHER", "call", True, index, seat, also=("AUCTION-STEP",))


def least_bid(state: AuctionState, rules: Rules) -> Decision:
    """The next seat's least bid and the rule that sets it: a forced amount its duty, the
    opening AUCTION-OPENING-MIN, a raise AUCTION-HIGHER with AUCTION-STEP."""
    value = auction.min_bid(state, rules)
    forced = auction.forced_bid(state, rules)
    at = len(state.calls)
    if forced is not None:
        return Decision(forced[0], "min_bid", value, at)
    if state.high_bid is None:
        return Decision("AUCTION-OPENING-MIN", "min_bid", value, at, also=("AUCTION-STEP",))
    return Decision("AUCTION-HIGHER", "min_bid", value, at, also=("AUCTION-STEP",))


def auction_trace(
    rules: Rules, dealer: int, calls: Sequence[tuple[int, Call]]
) -> tuple[list[Decision], AuctionState]:
    """Every decision of an auction replayed from ``(seat, call)`` pairs: each call's turn and
    verdict in order, stopping at the first refused call; then the state's own answers (whose
    turn, the least bid, whether a pass is open, the contract)."""
    state = auction.start(rules, dealer)
    found: list[Decision] = []
    for i, (seat, made) in enumerate(calls):
        found.append(turn(state, rules))
        verdict = call(state, rules, seat, made, i)
        found.append(verdict)
        if not verdict.value:
            break  # the answer describes the auction before the refused call
        state = auction.apply_call(state, rules, seat, made)
    found.append(turn(state, rules))
    if not state.complete:
        found.append(least_bid(state, rules))
        forced = auction.forced_bid(state, rules)
        rule = forced[0] if forced else "AUCTION-PASS-FINAL"
        found.append(Decision(rule, "can_pass", forced is None, len(state.calls)))
    else:
        # A forced bid that ends the auction decides the contract; otherwise the passes do.
        forced_rule = _ended_by_forced(state, rules)
        rules_of = (forced_rule, "AUCTION-END") if forced_rule else ("AUCTION-END",)
        contract = Decision(rules_of[0], "contract", state.high_bid, len(state.calls))
        found.append(replace(contract, also=rules_of[1:]))
    return found, state


# --- trick play -------------------------------------------------------------------------------


def legal_plays(hand: Sequence[int], trick: Sequence[Card], trump: int, rules: Rules) -> Decision:
    """The legal plays and the obligation that decided them.

    PLAY-LEAD (an empty trick). Holding the suit led: PLAY-TRUMPED-TRICK once a plain-suit trick
    is trumped; where the duty to beat binds (pre-1945, or trumps led), PLAY-CRAWL when a card
    beats or an identical card cannot (TRICK-IDENTICAL), else PLAY-FOLLOW; where the post-1945
    rules lift a duty that would have bound, PLAY-POST-1945. Void in it, holding trumps:
    PLAY-OVERTRUMP when the trick is trumped and the duty binds, PLAY-POST-1945 where it is
    lifted, else PLAY-TRUMP-VOID. Void in both: PLAY-DISCARD.
    """
    plays = tricks.legal_plays(hand, trick, trump, rules)
    if not trick:
        return Decision("PLAY-LEAD", "legal_plays", plays)
    led = trick[0] // NUM_RANKS
    winning = trick[tricks.trick_winner(trick, trump)]
    crawl = rules.obligations == "pre-1945"
    follow = [c for c in range(led * NUM_RANKS, led * NUM_RANKS + NUM_RANKS) if hand[c]]
    if follow:
        if winning // NUM_RANKS == trump and led != trump:
            return Decision("PLAY-TRUMPED-TRICK", "legal_plays", plays, also=("PLAY-FOLLOW",))
        higher = [c for c in follow if c < winning]
        if not crawl and led != trump:
            if higher and len(higher) < len(follow):
                return Decision("PLAY-POST-1945", "legal_plays", plays, also=("PLAY-FOLLOW",))
            return Decision("PLAY-FOLLOW", "legal_plays", plays)
        if higher:
            return Decision("PLAY-CRAWL", "legal_plays", plays, also=("PLAY-FOLLOW",))
        if winning in follow:
            return Decision("PLAY-CRAWL", "legal_plays", plays, also=("TRICK-IDENTICAL",))
        return Decision("PLAY-FOLLOW", "legal_plays", plays, also=("PLAY-CRAWL",))
    trumps = [c for c in range(trump * NUM_RANKS, trump * NUM_RANKS + NUM_RANKS) if hand[c]]
    if trumps:
        if winning // NUM_RANKS == trump:
            rule = "PLAY-OVERTRUMP" if crawl else "PLAY-POST-1945"
            return Decision(rule, "legal_plays", plays, also=("PLAY-TRUMP-VOID",))
        return Decision("PLAY-TRUMP-VOID", "legal_plays", plays)
    return Decision("PLAY-DISCARD", "legal_plays", plays)


def play(
    hand: Sequence[int], trick: Sequence[Card], trump: int, rules: Rules, card: Card
) -> Decision:
    """The verdict on playing ``card`` (``value`` True when legal): a card not held PLAY-TURN,
    otherwise the obligation ``legal_plays`` applied (its refusal's rule when refused)."""
    if not hand[card]:
        return Decision("PLAY-TURN", "play", False)
    why = legal_plays(hand, trick, trump, rules)
    assert isinstance(why.value, list)
    if card in why.value:
        return replace(why, point="play", value=True)
    from .hand import play_violation  # the refusal's rule, as the hand names it

    refused = play_violation(hand, trick, trump, rules, card)
    also = tuple(r for r in why.rules if r != refused)
    return Decision(refused, "play", False, also=also)


def trick_winner(trick: Sequence[Card], trump: int) -> Decision:
    """The winning card's index: TRICK-IDENTICAL when an identical copy of it was played after
    it, else TRICK-WINNER."""
    best = tricks.trick_winner(trick, trump)
    if trick[best] in trick[best + 1 :]:
        return Decision("TRICK-IDENTICAL", "trick winner", best, also=("TRICK-WINNER",))
    return Decision("TRICK-WINNER", "trick winner", best)


def card_points(cards: Sequence[Card], rules: Rules, last_trick: bool = False) -> list[Decision]:
    """The card points of ``cards``: POINTS-COUNTERS for the cards' values, POINTS-LAST-TRICK
    for the bonus when the cards include the last trick."""
    found = [Decision("POINTS-COUNTERS", "card_points", tricks.card_points(cards, rules))]
    if last_trick:
        found.append(Decision("POINTS-LAST-TRICK", "last trick", rules.last_trick))
    return found


# --- meld -------------------------------------------------------------------------------------


def meld_items(
    hand: Sequence[int], trump: int, rules: Rules, seat: int | None = None
) -> list[Decision]:
    """Each meld item of one hand with its rule (``value``: ``{id, count, points}``), then the
    meld the rules keep from counting (``value``: ``{id, points}``, what one would be worth): a
    run's own king and queen (MELD-TYPES), a K-Q of trumps as a plain marriage (MELD-MARRIAGE),
    the near misses an engine may count (three suits of an around, four cards of a run), tens
    around (MELD-TENS-AROUND)."""
    result = meld.meld(tuple(hand), trump, rules)
    found = [
        Decision(
            MELD_RULES[item.id],
            "meld item",
            {"id": item.id, "count": item.count, "points": item.points},
            seat=seat,
            also=("MELD-TYPES",) if item.id in ("royal_marriage", "run") else (),
        )
        for item in result.items
    ]
    runs = result.count("run")

    def kept(rule: str, meld_id: str, *also: str) -> None:
        """A meld the rules keep from counting here, with what it would be worth."""
        worth = rules.meld_value(meld_id, 1) if meld_id in rules.meld_table else 0
        value = {"id": meld_id, "points": worth}
        found.append(Decision(rule, "meld kept", value, seat=seat, also=also))

    if runs and rules.run_royal != "both":
        # A run's own K-Q is no royal marriage (MELD-ROYAL-MARRIAGE's run_royal, MELD-TYPES).
        kept("MELD-ROYAL-MARRIAGE", "royal_marriage", "MELD-TYPES", "MELD-RUN")
    if min(hand[trump * NUM_RANKS + KING], hand[trump * NUM_RANKS + QUEEN]):
        # A K-Q of trumps is a royal marriage (or inside a run), never also a plain marriage.
        kept("MELD-MARRIAGE", "marriage", "MELD-ROYAL-MARRIAGE")
    arounds = {
        ACE: "aces_around",
        KING: "kings_around",
        QUEEN: "queens_around",
        JACK: "jacks_around",
    }
    for rank, around in arounds.items():
        if not result.count(around) and sum(hand[s * NUM_RANKS + rank] > 0 for s in range(4)) == 3:
            kept("MELD-AROUNDS", around)  # three suits of four: no around
    held = [hand[trump * NUM_RANKS + r] > 0 for r in (ACE, TEN, KING, QUEEN, JACK)]
    if not runs and sum(held) == 4:
        kept("MELD-RUN", "run")  # four cards of five: no run
    if min(hand[s * NUM_RANKS + TEN] for s in range(4)):
        kept("MELD-TENS-AROUND", "tens_around")
    return found


_AROUND_IDS = {
    ACE: "aces_around",
    KING: "kings_around",
    QUEEN: "queens_around",
    JACK: "jacks_around",
}


# --- scoring and the game ---------------------------------------------------------------------


def score_hand(
    rules: Rules,
    bidder_team: int,
    contract: int,
    outcome: scoring.Outcome,
    meld_figures: Sequence[int],
    tricks_figures: Sequence[int],
    tricks_won: Sequence[int],
    scores: Sequence[int],
    hand: int | None = None,
) -> list[Decision]:
    """Every step of scoring one hand, in the order it is scored: made or set, each team's
    delta (the bidders' first), the new scores, the game's winner; each with its rule."""
    result = scoring.score_hand(
        rules, bidder_team, contract, outcome, meld_figures, tricks_figures, tricks_won, scores,
        hand,
    )  # fmt: skip
    bidders, opponents = bidder_team, 1 - bidder_team
    found: list[Decision] = []
    counted = [scoring.counted_meld(rules, m) for m in meld_figures]
    dropped = [counted[t] != meld_figures[t] for t in (0, 1)]
    if outcome == "played":
        short = rules.trick_minimum > 0 and tricks_figures[bidders] < rules.trick_minimum
        if short:
            made_rule: tuple[str, ...] = ("SCORE-TRICK-MINIMUM", "SCORE-SET")
        elif result.made:
            made_rule = ("SCORE-MADE",)
        else:
            made_rule = ("SCORE-SET",)
        if dropped[bidders]:
            made_rule = (*made_rule, "MELD-MINIMUM")
        made_rule = _at_the_edge(rules, tricks_figures[bidders], meld_figures[bidders], made_rule)
        found.append(Decision(made_rule[0], "made", result.made, team=bidders,
                              also=made_rule[1:]))  # fmt: skip
        found.append(Decision(made_rule[0], "delta", result.delta[bidders], team=bidders,
                              also=made_rule[1:]))  # fmt: skip
        opp: tuple[str, ...]
        if rules.trick_minimum and tricks_figures[opponents] < rules.trick_minimum:
            opp = ("SCORE-TRICK-MINIMUM",)
        elif rules.opponents_need_trick and tricks_won[opponents] == 0:
            opp = ("SCORE-OPPONENTS-TRICK",)
        elif dropped[opponents]:
            opp = ("MELD-MINIMUM", "SCORE-MADE")
        else:
            opp = ("SCORE-MADE",)
        opp = _at_the_edge(rules, tricks_figures[opponents], meld_figures[opponents], opp)
        found.append(Decision(opp[0], "delta", result.delta[opponents], team=opponents,
                              also=opp[1:]))  # fmt: skip
    else:
        rule = {
            "thrown_in": "SCORE-THROW-IN",
            "meld_short": "MELD-SHORT-BIDDER",
            "no_marriage": "TRUMP-NO-MARRIAGE",
        }[outcome]
        found.append(Decision(rule, "made", False, team=bidders))
        found.append(Decision(rule, "delta", result.delta[bidders], team=bidders))
        kept = dropped[opponents] and rule != "TRUMP-NO-MARRIAGE"
        opp_rule = ("MELD-MINIMUM", rule) if kept else (rule,)
        found.append(Decision(opp_rule[0], "delta", result.delta[opponents], team=opponents,
                              also=opp_rule[1:]))  # fmt: skip
    found.append(Decision("SCORE-MADE", "scores", list(result.scores), also=("SCORE-SET",)))
    found.append(_game_end(rules, bidders, scores, result, hand))
    return found


def _at_the_edge(
    rules: Rules, tricks: int, melded: int, decided: tuple[str, ...]
) -> tuple[str, ...]:
    """A team exactly at the trick minimum or the meld minimum: that threshold decided its
    score as much as the plain rule (an engine reading it as "more than" differs there)."""
    edges = [
        rule
        for rule, at_edge in (
            ("SCORE-TRICK-MINIMUM", rules.trick_minimum > 0 and tricks == rules.trick_minimum),
            ("MELD-MINIMUM", rules.meld_minimum > 0 and melded == rules.meld_minimum),
        )
        if at_edge
    ]
    return tuple(dict.fromkeys((*edges, *decided)))


def _game_end(
    rules: Rules, bidders: int, before: Sequence[int], result: scoring.HandScore, hand: int | None
) -> Decision:
    """The rule deciding the game's winner after a hand (``scoring.game_winner``'s branches)."""
    winner, after = result.game_winner, result.scores
    if rules.rounds is not None:
        return Decision("GAME-ROUNDS", "game_winner", winner)
    threshold = rules.bid_to_win
    if threshold is not None and before[0] >= threshold and before[1] >= threshold:
        return Decision("GAME-BID-TO-WIN", "game_winner", winner, also=("GAME-TARGET",))
    reached = [t for t in (0, 1) if after[t] >= rules.target]
    if len(reached) == 2:
        return Decision("GAME-BOTH-REACH", "game_winner", winner, also=("GAME-TARGET",))
    return Decision("GAME-TARGET", "game_winner", winner)


# --- whole hands and games --------------------------------------------------------------------


def _action(action: Action | str) -> Action:
    return parse(action) if isinstance(action, str) else action


def hand_trace(
    state: HandState,
    actions: Sequence[Action | str],
    seats: Sequence[int | None] | None = None,
    hand_number: int | None = None,
) -> list[Decision]:
    """Every decision of a hand replayed from ``state`` (changed in place): each action's
    verdict (``index`` the action's), each trick's winner and card points (``index`` the
    trick's), each seat's meld items once shown, the outcome and every scoring step. Stops at
    the first refused action, whose decision is the last."""
    found: list[Decision] = []

    def add(d: Decision) -> None:
        found.append(replace(d, hand=hand_number) if hand_number is not None else d)

    for i, raw in enumerate(actions):
        try:
            action = _action(raw)
        except PinochleError:
            return found
        seat = seats[i] if seats is not None and i < len(seats) else None
        before = state.clone()
        phase = state.phase
        kind = action & KIND_MASK
        if phase is Phase.AUCTION and kind in (PASS, BID):
            add(turn(before.auction, before.rules))  # whose call it is, and why
        try:
            state.apply(action, seat)
        except IllegalAction as err:
            add(_refused(before, action, err, i))
            return found
        actor = before.current_seat()
        if phase is Phase.AUCTION and kind in (PASS, BID):
            call_made = None if kind == PASS else action >> KIND_BITS
            add(replace(call(before.auction, before.rules, actor or 0, call_made, i), index=i))
            if state.auction.complete:
                add(Decision("AUCTION-END", "contract", state.contract, i))
        elif phase is Phase.PLAY and kind == PLAY:
            card = action >> KIND_BITS
            assert before.trump is not None and actor is not None
            d = play(before.held[actor], before.trick, before.trump, before.rules, card)
            add(replace(d, index=i, seat=actor))
            if len(before.trick) == 3:
                _trick_decisions(state, before, add)
        else:
            add(Decision(_PHASE_RULE.get(phase, "PLAY-TURN"), phase.value, True, i, actor))
        if state.meld is not None and before.meld is None:
            assert state.trump is not None
            # Meld is shown before the first lead: what each seat holds now is its meld hand.
            for s in range(4):
                for d in meld_items(state.held[s], state.trump, state.rules, s):
                    add(d)
            if state.aces_around:
                add(Decision("MELD-ACES-DECLARED", "aces_around", list(state.aces_around)))
        if state.score is not None and before.score is None:
            _score_decisions(state, add)
    return found


_PHASE_RULE = {
    Phase.TRUMP: "TRUMP-CALL",
    Phase.PASSING: "PASS-CARDS",
    Phase.DECISION: "SCORE-THROW-IN",
}


def _trick_decisions(state: HandState, before: HandState, add: object) -> None:
    assert callable(add)
    done: Trick = state.tricks[-1]
    k = len(state.tricks) - 1
    assert before.trump is not None
    w = trick_winner(done.cards, before.trump)
    add(replace(w, value=done.winner, index=k, seat=done.winner))
    last = len(state.tricks) == before.hand_tricks
    for d in card_points(done.cards, before.rules, last):
        add(replace(d, index=k, team=done.winner % 2))


def _score_decisions(state: HandState, add: object) -> None:
    assert callable(add)
    outcome, bidder, contract = state.outcome, state.bidder, state.contract
    assert outcome is not None and bidder is not None and contract is not None
    if outcome == "no_marriage":
        # No suit may be trump without a marriage in it (TRUMP-MARRIAGE): the hand ends there.
        add(Decision("TRUMP-MARRIAGE", "outcome", outcome, also=("TRUMP-NO-MARRIAGE",)))
    elif outcome == "meld_short":
        add(Decision("MELD-SHORT-BIDDER", "outcome", outcome))
    elif outcome == "thrown_in":
        forced = state.rules.forced_throw_in and state.forced_throw_in()
        add(Decision("SCORE-FORCED-THROW-IN" if forced else "SCORE-THROW-IN", "outcome", outcome))
    else:  # played out: the bidder played on where a throw-in was open
        voluntary = state.rules.throw_in == "voluntary"
        add(Decision("SCORE-THROW-IN" if voluntary else "PLAY-TURN", "outcome", outcome))
    for d in score_hand(
        state.rules,
        bidder % 2,
        contract,
        outcome,
        state.team_meld or (0, 0),
        state.card_points,
        state.tricks_won,
        state.scores_before,
        state.number,
    ):
        add(d)


def _refused(before: HandState, action: Action, err: IllegalAction, index: int) -> Decision:
    """The refusal of an action, with the obligation behind a refused card where there is one."""
    if before.phase is Phase.PLAY and action & KIND_MASK == PLAY and before.trump is not None:
        seat = before.current_seat()
        assert seat is not None
        d = play(before.held[seat], before.trick, before.trump, before.rules, action >> KIND_BITS)
        if d.rule == err.rule:
            return replace(d, index=index, seat=seat)
    if err.rule == "TRUMP-NO-MARRIAGE" and action & KIND_MASK == TRUMP:
        # Trump named by a bidder holding no marriage: no suit may be trump (TRUMP-MARRIAGE),
        # which is why the hand ended.
        return Decision("TRUMP-MARRIAGE", "refused", False, index, also=("TRUMP-NO-MARRIAGE",))
    return Decision(err.rule, "refused", False, index, before.current_seat())


def tricks_trace(
    rules: Rules, trump: int, leader: int, hands: Sequence[Sequence[int]], plays: Sequence[Card]
) -> list[Decision]:
    """The decisions of the tricks that end a hand (the protocol's ``play_tricks``)."""
    state = HandState.at_trick_play(rules, trump, leader, hands)
    return hand_trace(state, [c << KIND_BITS | PLAY for c in plays])


def game_trace(
    rules: Rules,
    dealer: int,
    deals: Sequence[Sequence[str | Sequence[str]]],
    actions: Sequence[Sequence[Action | str]],
    scores: tuple[int, int] = (0, 0),
    seats: Sequence[Sequence[int | None]] | None = None,
) -> list[Decision]:
    """The decisions of a game replayed hand after hand (``game.replay_game``): each hand's
    dealer (DEAL-ROTATION), the hand's own decisions (``hand`` its 0-based number), and a hand
    dealt after the game is won (GAME-TARGET or GAME-ROUNDS, refused)."""
    found: list[Decision] = []
    prior: HandState | None = None
    for k, (cards, steps) in enumerate(zip(deals, actions, strict=False)):
        if prior is not None:
            if prior.score is None:
                return found
            if prior.score.game_winner is not None:
                rule = "GAME-ROUNDS" if rules.rounds is not None else "GAME-TARGET"
                found.append(Decision(rule, "refused", False, None, hand=k))
                return found
            scores = prior.score.scores
        found.append(Decision("DEAL-ROTATION", "dealer", (dealer + k) % 4, hand=k))
        try:
            hands = check_hands(rules, cards)
        except PinochleError:
            found.append(Decision("DEAL-HANDS", "refused", False, None, hand=k))
            return found
        prior = HandState(rules, (dealer + k) % 4, hands, scores, k + 1)
        claimed = seats[k] if seats is not None and k < len(seats) else None
        decided = hand_trace(prior, steps, claimed, hand_number=k)
        found.extend(decided)
        if decided and decided[-1].value is False:
            return found
    return found
