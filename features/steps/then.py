"""Then steps: check the engine's last answer, with a message in the game's language.

Grammar:

    Then the meld total is <n>
    Then the meld includes <count> <meld id>[ in <suit>] worth <points>
    Then the meld has nothing else
    Then the legal plays are "<cards>"                       (as a set)
    Then the <first|second|third|fourth> card wins the trick
    Then they are worth <n> points
    Then seat <n> is dealt "<cards>"                         (as a multiset)
    Then every seat is dealt <n> cards
    Then the next dealer is seat <n>
    Then the deal is refused under <RULE-ID>
    Then the calls are accepted | Then the actions are accepted
    Then the last call is refused under <RULE-ID>
    Then seat <n> is next to call, with <m> the lowest bid
    Then seat <n> may not pass
    Then the auction is not complete
    Then the auction is complete with seat <n> winning at <m>
    Then the bidders make their contract | Then the bidders are set
    Then the teams score <d0> and <d1>                       (this hand's change)
    Then the scores become <s0> to <s1>
    Then team <n> wins the game | Then nobody has won the game yet
    Then the hand is refused at action <i> under <RULE-ID>   (play_hand; i counts from 0)
    Then the hand ends with outcome <outcome>
    Then seat <n> melds <m>
    Then the team meld is <m0> and <m1>
    Then the card points are <c0> and <c1>
    Then the tricks won are <n0> and <n1>
    Then aces around are declared by seat <n>
    Then the bidder is seat <n> with <contract> in <suit>
"""

from __future__ import annotations

from pytest_bdd import parsers

from pinochle_judge import notation, wording
from pytest_pinochle.driver import Situation, card_list, items
from specdata import RULE_ID

from .phrasebook import Phrasebook

then = Phrasebook("then")

INT = r"-?\d+"
RULE = rf"(?P<rule>{RULE_ID.pattern})"


# --- meld -------------------------------------------------------------------------------------


@then(parsers.re(r"the meld total is (?P<total>\d+)"))
def meld_total(situation: Situation, total: str) -> None:
    """The meld answer's total."""
    got = situation.field("total")
    situation.expect({"total": int(total)}, wording.meld_total(total, got))


@then(
    parsers.re(
        r"the meld includes (?P<count>\d+) (?P<meld>[a-z_]+)"
        r"(?: in (?P<suit>spades|hearts|diamonds|clubs))? worth (?P<points>\d+)"
    )
)
def meld_includes(
    situation: Situation, count: str, meld: str, suit: str | None, points: str
) -> None:
    """One meld entry: id, multiplicity and points (and its suit when named)."""
    want: dict[str, object] = {"id": meld, "count": int(count), "points": int(points)}
    if suit:
        want["suit"] = notation.SUIT_BY_NAME[suit]
    situation.expect_meld(want, wording.meld_includes(want))


@then("the meld has nothing else")
def meld_nothing_else(situation: Situation) -> None:
    """Every meld the engine reports was named by a ``the meld includes`` step."""
    extra = situation.unexpected_melds()
    situation.check(not extra, wording.melds_unexpected(extra))


# --- tricks -----------------------------------------------------------------------------------


@then(parsers.re(r'the legal plays are "(?P<cards>[^"]*)"'))
def legal_plays_are(situation: Situation, cards: str) -> None:
    """The set of cards the hand may play."""
    want = notation.parse_cards(cards)
    got = card_list(situation.field("cards"))
    situation.expect({"cards": want}, wording.legal_plays(situation.hand(), want, got))


@then(parsers.re(r"the (?P<which>first|second|third|fourth) card wins the trick"))
def card_wins(situation: Situation, which: str) -> None:
    """The trick winner as a position in play order."""
    got = situation.field("winner")
    trick = card_list(situation.params["trick"])
    want = notation.ordinal(which)
    situation.expect({"winner": want}, wording.trick_winner(trick, which, want, got))


@then(parsers.re(r"they are worth (?P<points>\d+) points"))
def worth(situation: Situation, points: str) -> None:
    """Card points of the cards counted."""
    got = situation.field("points")
    situation.expect({"points": int(points)}, wording.card_points(points, got))


# --- deal -------------------------------------------------------------------------------------


@then(parsers.re(r'seat (?P<seat>\d) is dealt "(?P<cards>[^"]*)"'))
def seat_dealt(situation: Situation, seat: str, cards: str) -> None:
    """One seat's hand after the deal (compared as the deal's hands are: a multiset)."""
    n = notation.seat_of(seat)
    hands = situation.field("hands")
    want = notation.parse_cards(cards)
    got = hands[n] if isinstance(hands, list) and len(hands) > n else None
    situation.expect_at("hands[]", want, got, wording.seat_dealt(n, want, got))


@then(parsers.re(r"every seat is dealt (?P<size>\d+) cards"))
def every_seat_dealt(situation: Situation, size: str) -> None:
    """All four hands have the hand size."""
    sizes = [len(card_list(h)) for h in items(situation.field("hands"))]
    situation.check(sizes == [int(size)] * 4, wording.hand_sizes(size, sizes))


@then(parsers.re(r"the next dealer is seat (?P<seat>\d)"))
def next_dealer(situation: Situation, seat: str) -> None:
    """Who deals the next hand."""
    got = situation.field("next_dealer")
    situation.expect({"next_dealer": int(seat)}, wording.next_dealer(seat, got))


def _refused(situation: Situation, key: str, found: dict[str, object], what: str) -> None:
    legal = situation.answer.get("legal")
    said = situation.answer.get(key) or None
    situation.expect(
        {"legal": False, key: found}, wording.refused(what, found["rule"], legal, key, said)
    )


@then(parsers.re(rf"the deal is refused under {RULE}"))
def deal_refused(situation: Situation, rule: str) -> None:
    """The deal answer is ``legal: false`` with this rule."""
    _refused(situation, "violation", {"rule": rule}, wording.THIS_DECK)


# --- auction ----------------------------------------------------------------------------------


@then(parsers.re(r"the (?:calls|actions) are accepted"))
def calls_accepted(situation: Situation) -> None:
    """Every call (auction) or action (play_hand) was legal."""
    refused = situation.answer.get("violation") or situation.answer.get("first_illegal")
    situation.expect({"legal": True}, wording.all_accepted(refused))


@then(parsers.re(rf"the last call is refused under {RULE}"))
def call_refused(situation: Situation, rule: str) -> None:
    """The auction answer is ``legal: false`` with this rule."""
    _refused(situation, "violation", {"rule": rule}, wording.LAST_CALL)


@then(parsers.re(r"seat (?P<seat>\d) is next to call, with (?P<bid>\d+) the lowest bid"))
def next_to_call(situation: Situation, seat: str, bid: str) -> None:
    """Whose call it is and the smallest bid they may make."""
    got = (situation.field("next_seat"), situation.field("min_bid"))
    situation.expect(
        {"next_seat": int(seat), "min_bid": int(bid)},
        wording.next_to_call(seat, bid, got[0], got[1]),
    )


@then(parsers.re(r"seat (?P<seat>\d) may not pass"))
def may_not_pass(situation: Situation, seat: str) -> None:
    """The next seat is forced to bid."""
    got = (situation.field("next_seat"), situation.field("can_pass"))
    situation.expect(
        {"next_seat": int(seat), "can_pass": False}, wording.must_bid(seat, got[0], got[1])
    )


@then("the auction is not complete")
def auction_open(situation: Situation) -> None:
    """More calls are due."""
    situation.field("complete")
    situation.expect({"complete": False}, wording.AUCTION_GOES_ON)


@then(parsers.re(r"the auction is complete with seat (?P<seat>\d) winning at (?P<bid>\d+)"))
def auction_won(situation: Situation, seat: str, bid: str) -> None:
    """Complete, with the winner and the contract."""
    got = (situation.field("complete"), situation.field("winner"), situation.field("contract"))
    situation.expect(
        {"complete": True, "winner": int(seat), "contract": int(bid)},
        wording.auction_won(seat, bid, *got),
    )


# --- scoring and game end ---------------------------------------------------------------------


@then(parsers.re(r"the bidders (?P<verdict>make their contract|are set)"))
def made_or_set(situation: Situation, verdict: str) -> None:
    """Whether the bidding team made its contract."""
    got = situation.field("made")
    situation.expect({"made": verdict == "make their contract"}, wording.made_or_set(verdict, got))


@then(parsers.re(rf"the teams score (?P<d0>{INT}) and (?P<d1>{INT})"))
def teams_score(situation: Situation, d0: str, d1: str) -> None:
    """This hand's change of each team's score."""
    got = situation.field("delta")
    situation.expect({"delta": [int(d0), int(d1)]}, wording.hand_scores(d0, d1, got))


@then(parsers.re(rf"the scores become (?P<s0>{INT}) to (?P<s1>{INT})"))
def scores_become(situation: Situation, s0: str, s1: str) -> None:
    """Both game scores after the hand."""
    got = situation.field("scores")
    situation.expect({"scores": [int(s0), int(s1)]}, wording.scores_become(s0, s1, got))


@then(parsers.re(r"(?:team (?P<team>[01]) wins the game|nobody has won the game yet)"))
def game_winner(situation: Situation, team: str | None) -> None:
    """The game's winner after the hand, or none yet."""
    want = int(team) if team is not None else None
    got = situation.field("game_winner")
    situation.expect({"game_winner": want}, wording.game_winner(want, got))


# --- whole hands ------------------------------------------------------------------------------


@then(parsers.re(rf"the hand is refused at action (?P<index>\d+) under {RULE}"))
def hand_refused(situation: Situation, index: str, rule: str) -> None:
    """play_hand stops at the first illegal action, with this index and rule."""
    found = {"rule": rule, "index": int(index)}
    _refused(situation, "first_illegal", found, wording.action(int(index)))


@then(
    parsers.re(r"the hand ends with outcome (?P<outcome>played|thrown_in|no_marriage|meld_short)")
)
def hand_outcome(situation: Situation, outcome: str) -> None:
    """The hand is complete with this outcome."""
    got = (situation.field("complete"), situation.field("outcome"))
    situation.expect({"complete": True, "outcome": outcome}, wording.hand_outcome(outcome, *got))


@then(parsers.re(r"the bidder is seat (?P<seat>\d) with (?P<contract>\d+) in (?P<suit>\w+)"))
def bidder_is(situation: Situation, seat: str, contract: str, suit: str) -> None:
    """Bidder, contract and trump of a played hand."""
    got = (situation.field("bidder"), situation.field("contract"), situation.field("trump"))
    situation.expect(
        {"bidder": int(seat), "contract": int(contract), "trump": notation.SUIT_BY_NAME[suit]},
        wording.bidder(seat, contract, suit, got),
    )


@then(parsers.re(r"seat (?P<seat>\d) melds (?P<points>\d+)"))
def seat_melds(situation: Situation, seat: str, points: str) -> None:
    """One seat's raw meld in a whole hand."""
    melds = situation.field("meld")
    got = melds[int(seat)] if isinstance(melds, list) else melds
    situation.expect_at("meld[]", int(points), got, wording.seat_melds(seat, points, got))


def _pair(situation: Situation, key: str, a: str, b: str) -> None:
    got = situation.field(key)
    situation.expect({key: [int(a), int(b)]}, wording.pair(key, a, b, got))


@then(parsers.re(r"the team meld is (?P<a>\d+) and (?P<b>\d+)"))
def team_meld(situation: Situation, a: str, b: str) -> None:
    """Raw team meld totals of a whole hand."""
    _pair(situation, "team_meld", a, b)


@then(parsers.re(r"the card points are (?P<a>\d+) and (?P<b>\d+)"))
def card_points_are(situation: Situation, a: str, b: str) -> None:
    """Card points taken by each team, last trick included."""
    _pair(situation, "card_points", a, b)


@then(parsers.re(r"the tricks won are (?P<a>\d+) and (?P<b>\d+)"))
def tricks_won_are(situation: Situation, a: str, b: str) -> None:
    """Tricks taken by each team."""
    _pair(situation, "tricks_won", a, b)


@then(parsers.re(r"aces around are declared by (?P<seats>seats? [\d, and]+|nobody)"))
def aces_declared(situation: Situation, seats: str) -> None:
    """Seats that must declare aces around (MELD-ACES-DECLARED)."""
    want = sorted(int(s) for s in seats if s.isdigit())
    got = situation.field("aces_around")
    situation.expect({"aces_around": want}, wording.aces_around(want, got))
