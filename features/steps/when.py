"""When steps: each puts one question to the engine (one protocol method) and keeps the answer.

Grammar:

    When the meld is counted                                  (meld: the hand named last, trump)
    When seat <n> is to lead                                  (legal_plays, empty trick)
    When the trick so far is "<cards>"                        (legal_plays for the hand named last)
    When the trick "<cards>" is played                        (trick_winner; cards in play order)
    When the cards "<cards>" are counted                      (card_points, no last trick)
    When the cards "<cards>" of the last trick are counted    (card_points with the bonus)
    When the deck in suit order is dealt                      (deal: A of spades first ... clubs)
    When the deck in suit order with "<card>" in place of "<card>" is dealt
    When the calls are "<seat n bids m | seat n passes>, ..."   (auction, from the dealer given)
    When the hand is scored                                   (score_hand, outcome played)
    When the hand is scored as <thrown_in|no_marriage|meld_short>
    When the hand is played with the actions "<action>, ..."  (play_hand with the seats' hands)
    When the hand is played with the actions "<action>, ..." and the tricks
        \"\"\"
        As Ah Ad Ac          (one trick per line, cards in play order; each becomes "play <card>")
        \"\"\"
"""

from __future__ import annotations

import re

from pytest_bdd import parsers

from pinochle_judge import notation
from pytest_pinochle.driver import Situation

from .phrasebook import Phrasebook

when = Phrasebook("when")

CALL = re.compile(r"seat (?P<seat>\d) (?:bids (?P<bid>\d+)|(?P<pass>passes))")
OUTCOME = r"played|thrown_in|no_marriage|meld_short"


@when("the meld is counted")
def count_meld(situation: Situation) -> None:
    """Ask ``meld`` for the hand named last with the trump given."""
    situation.ask("meld", trump=situation.trump, hand=situation.hand())


@when(parsers.re(r"seat (?P<seat>\d) is to lead"))
def to_lead(situation: Situation, seat: str) -> None:
    """Ask ``legal_plays`` for seat <n>'s hand to an empty trick."""
    situation.holder = notation.seat_of(seat)
    situation.ask("legal_plays", trump=situation.trump, hand=situation.hand(), trick=[])


@when(parsers.re(r'the trick so far is "(?P<cards>[^"]*)"'))
def trick_so_far(situation: Situation, cards: str) -> None:
    """Ask ``legal_plays`` for the hand named last, to a trick with these cards in play order."""
    trick = notation.parse_cards(cards)
    situation.ask("legal_plays", trump=situation.trump, hand=situation.hand(), trick=trick)


@when(parsers.re(r'the trick "(?P<cards>[^"]*)" is played'))
def trick_played(situation: Situation, cards: str) -> None:
    """Ask ``trick_winner`` for these cards in play order."""
    situation.ask("trick_winner", trump=situation.trump, trick=notation.parse_cards(cards))


@when(parsers.re(r'the cards "(?P<cards>[^"]*)" (?P<last>of the last trick )?are counted'))
def cards_counted(situation: Situation, cards: str, last: str | None) -> None:
    """Ask ``card_points`` for cards won, with the last-trick bonus if they include it."""
    situation.ask("card_points", cards=notation.parse_cards(cards), last_trick=bool(last))


@when(
    parsers.re(
        r'the deck in suit order(?: with "(?P<put>\w\w)" in place of "(?P<take>\w\w)")? is dealt'
    )
)
def deal_suit_order(situation: Situation, put: str | None, take: str | None) -> None:
    """Ask ``deal`` with the sorted deck (optionally one card swapped for another)."""
    situation.deal_sorted(put, take)


def parse_calls(text: str) -> list[dict[str, object]]:
    """``seat 1 bids 50, seat 2 passes`` as protocol calls."""
    calls: list[dict[str, object]] = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        m = CALL.fullmatch(part)
        if m is None:
            raise ValueError(
                f"cannot read the call {part!r}: say 'seat 1 bids 50' or 'seat 2 passes'"
            )
        seat = notation.seat_of(m["seat"])
        calls.append(
            {"seat": seat, "pass": True} if m["pass"] else {"seat": seat, "bid": int(m["bid"])}
        )
    return calls


@when(parsers.re(r'the calls are "(?P<calls>[^"]*)"'))
def calls_are(situation: Situation, calls: str) -> None:
    """Ask ``auction`` with the dealer given and these calls in order."""
    situation.ask("auction", dealer=situation.dealer, calls=parse_calls(calls))


@when(parsers.re(rf"the hand is scored(?: as (?P<outcome>{OUTCOME}))?"))
def hand_scored(situation: Situation, outcome: str | None) -> None:
    """Ask ``score_hand`` with the contract, meld, tricks and scores given."""
    situation.score_hand(outcome or "played")


def parse_actions(text: str) -> list[str]:
    """``bid 50, pass, trump s`` as action strings."""
    return [" ".join(a.split()) for a in text.split(",") if a.strip()]


@when(parsers.re(r'the hand is played with the actions "(?P<actions>[^"]*)"'))
def hand_played(situation: Situation, actions: str) -> None:
    """Ask ``play_hand`` with these actions (the hand may stop early)."""
    situation.play_hand(parse_actions(actions))


@when(parsers.re(r'the hand is played with the actions "(?P<actions>[^"]*)" and the tricks'))
def hand_played_with_tricks(situation: Situation, actions: str, docstring: str) -> None:
    """Ask ``play_hand`` with these actions, then one ``play`` per card of each trick line."""
    plays = [f"play {c}" for line in docstring.splitlines() for c in notation.parse_cards(line)]
    situation.play_hand(parse_actions(actions) + plays)
