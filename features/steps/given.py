"""Given steps: the options, trump, seats, scores and hands a scenario starts from.

The variant is not a step: it is the scenario's variant tag (``@double-deck``, ``@single-deck``,
``@online``), or the ``variant`` column of an Outline's row when the scenario has several.

Grammar (one line per step; words in <> are parameters):

    Given the option <name> is <value>
    Given <spades|hearts|diamonds|clubs> are trump
    Given the dealer is seat <0-3>
    Given the scores are <team 0> to <team 1>            (before the hand)
    Given this is hand <n> of the game                   (for the rounds option)
    Given team <0|1> holds the contract at <n>
    Given the teams melded <team 0> and <team 1>         (raw team meld totals)
    Given the teams took <p0> and <p1> card points in <n0> and <n1> tricks
    Given seat <0-3> holds "<cards>"                     (also a When step)
    Given the seats hold                                 (a table: a row per seat, below
      | seat | cards   |                                   a header row)
      | <0-3> | <cards> |
"""

from __future__ import annotations

from pytest_bdd import parsers

from pinochle_judge import notation, wording
from pytest_pinochle.driver import Situation

from .phrasebook import Phrasebook
from .when import when

given = Phrasebook("given")

INT = r"-?\d+"


@given(parsers.re(r"the option (?P<name>[a-z_]+) is (?P<value>\S+)"))
def option_is(situation: Situation, name: str, value: str) -> None:
    """``the option trick_rules is post-1945``: a named option (values are strings)."""
    situation.options[name] = value


@given(parsers.re(r"(?P<suit>spades|hearts|diamonds|clubs) are trumps?"))
def trump_is(situation: Situation, suit: str) -> None:
    """``hearts are trump``: the trump suit of meld and trick questions."""
    situation.trump = notation.SUIT_BY_NAME[suit]


@given(parsers.re(r"the dealer is seat (?P<seat>\d)"))
def dealer_is(situation: Situation, seat: str) -> None:
    """``the dealer is seat 0``: who deals (the auction and the deal start from the left)."""
    situation.dealer = notation.seat_of(seat)


@given(parsers.re(rf"the scores are (?P<team0>{INT}) to (?P<team1>{INT})"))
def scores_are(situation: Situation, team0: str, team1: str) -> None:
    """``the scores are 450 to 420``: team 0's and team 1's game scores before the hand."""
    situation.scores = [int(team0), int(team1)]


@given(parsers.re(r"this is hand (?P<number>\d+) of the game"))
def hand_number(situation: Situation, number: str) -> None:
    """``this is hand 3 of the game``: the 1-based hand number (used by the rounds option)."""
    situation.hand_number = int(number)


@given(parsers.re(r"team (?P<team>[01]) holds the contract at (?P<contract>\d+)"))
def contract_is(situation: Situation, team: str, contract: str) -> None:
    """``team 0 holds the contract at 60``: the bidding team and its bid."""
    situation.bidder_team = int(team)
    situation.contract = int(contract)


@given(parsers.re(rf"the teams melded (?P<team0>{INT}) and (?P<team1>{INT})"))
def teams_melded(situation: Situation, team0: str, team1: str) -> None:
    """``the teams melded 30 and 12``: raw team meld totals (before the minimum applies)."""
    situation.meld = [int(team0), int(team1)]


@given(
    parsers.re(
        r"the teams took (?P<points0>\d+) and (?P<points1>\d+) card points "
        r"in (?P<won0>\d+) and (?P<won1>\d+) tricks"
    )
)
def teams_took(situation: Situation, points0: str, points1: str, won0: str, won1: str) -> None:
    """``the teams took 31 and 19 card points in 12 and 8 tricks`` (points incl. last trick)."""
    situation.tricks = [int(points0), int(points1)]
    situation.tricks_won = [int(won0), int(won1)]


@given(parsers.re(r'seat (?P<seat>\d) holds "(?P<cards>[^"]*)"'))
@when(parsers.re(r'seat (?P<seat>\d) holds "(?P<cards>[^"]*)"'))
def seat_holds(situation: Situation, seat: str, cards: str) -> None:
    """``seat 1 holds "Ah Th Kh"``: a hand (spaces, commas or run together: ``AhThKh``)."""
    situation.hold(notation.seat_of(seat), notation.parse_cards(cards))


@given("the seats hold")
def seats_hold(situation: Situation, datatable: list[list[str]]) -> None:
    """``the seats hold`` and a table with a ``seat`` and a ``cards`` column: a hand per row, as
    ``seat N holds "..."`` says it (whole hands: every seat's cards at once)."""
    header, *rows = datatable
    if [cell.strip() for cell in header] != ["seat", "cards"] or not rows:
        raise AssertionError(wording.SEATS_TABLE)
    for seat, cards in rows:
        situation.hold(notation.seat_of(seat.strip()), notation.parse_cards(cards))
