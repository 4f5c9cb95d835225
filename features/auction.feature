Feature: Auction
  Players bid for the right to name trump (source 000 "The Bidding"; 002 "The Auction"; 001 "The
  Bid"). Double deck: the dealer's left opens, at least 50, by ones to 60 and then in fives; three
  passes force the dealer to bid 50. Single deck: the dealer opens at 150. Online: the dealer
  starts, at least 250, raises of 10 to 50.

  Background:
    Given the dealer is seat 0

  @double-deck @AUCTION-FIRST-BIDDER @uses:AUCTION-TURN @uses:AUCTION-OPENING-MIN
  Scenario: The player left of the dealer opens
    When the calls are "seat 1 bids 50"
    Then the calls are accepted
    And seat 2 is next to call, with 51 the lowest bid

  @double-deck @AUCTION-FIRST-BIDDER @uses:AUCTION-TURN @negative
  Scenario: The dealer may not call first
    When the calls are "seat 0 bids 50"
    Then the last call is refused under AUCTION-TURN

  @double-deck @AUCTION-TURN @negative
  Scenario: A seat may not call out of turn
    When the calls are "seat 1 bids 50, seat 3 bids 51"
    Then the last call is refused under AUCTION-TURN

  @double-deck
  Scenario Outline: Double-deck bids after <calls>: seat <seat> bids <bid>
    When the calls are "<calls>, seat <seat> bids <bid>"
    Then <verdict>

    @AUCTION-OPENING-MIN @negative
    Examples:
      | calls                          | seat | bid | verdict                                     |
      | seat 1 passes                  | 2    | 49  | the last call is refused under AUCTION-OPENING-MIN |

    @AUCTION-OPENING-MIN
    Examples:
      | calls                          | seat | bid | verdict                                     |
      | seat 1 passes                  | 2    | 58  | the calls are accepted                      |

    @AUCTION-HIGHER @negative
    Examples:
      | calls                          | seat | bid | verdict                                     |
      | seat 1 bids 55                 | 2    | 55  | the last call is refused under AUCTION-HIGHER |
      | seat 1 bids 55                 | 2    | 54  | the last call is refused under AUCTION-HIGHER |

    @AUCTION-HIGHER
    Examples:
      | calls                          | seat | bid | verdict                                     |
      | seat 1 bids 55                 | 2    | 60  | the calls are accepted                      |

    @AUCTION-STEP @negative
    Examples:
      | calls                          | seat | bid | verdict                                     |
      | seat 1 bids 60                 | 2    | 61  | the last call is refused under AUCTION-STEP |
      | seat 1 bids 60                 | 2    | 64  | the last call is refused under AUCTION-STEP |

    @AUCTION-STEP
    Examples:
      | calls                          | seat | bid | verdict                                     |
      | seat 1 bids 60                 | 2    | 65  | the calls are accepted                      |
      | seat 1 bids 60                 | 2    | 80  | the calls are accepted                      |

  @double-deck @AUCTION-STEP
  Scenario: Above 60 the lowest bid is the next multiple of five
    When the calls are "seat 1 bids 60"
    Then seat 2 is next to call, with 65 the lowest bid

  @double-deck @AUCTION-DEALER-FORCED
  Scenario: Three passes force the dealer to bid 50
    When the calls are "seat 1 passes, seat 2 passes, seat 3 passes"
    Then seat 0 may not pass
    And seat 0 is next to call, with 50 the lowest bid

  @double-deck @AUCTION-DEALER-FORCED @negative
  Scenario Outline: The forced dealer may not <call>
    When the calls are "seat 1 passes, seat 2 passes, seat 3 passes, seat 0 <call>"
    Then the last call is refused under AUCTION-DEALER-FORCED

    Examples:
      | call     |
      | passes   |
      | bids 55  |

  @double-deck @AUCTION-DEALER-FORCED @uses:AUCTION-END
  Scenario: The forced dealer's bid of 50 ends the auction
    When the calls are "seat 1 passes, seat 2 passes, seat 3 passes, seat 0 bids 50"
    Then the auction is complete with seat 0 winning at 50

  @double-deck @AUCTION-PASS-FINAL @negative
  Scenario: A player who passed may not come back in
    When the calls are "seat 1 bids 50, seat 2 passes, seat 3 bids 51, seat 0 passes, seat 1 bids 52, seat 2 bids 53"
    Then the last call is refused under AUCTION-PASS-FINAL

  @double-deck @AUCTION-PASS-FINAL @uses:AUCTION-TURN
  Scenario: Passed players are skipped
    When the calls are "seat 1 bids 50, seat 2 passes, seat 3 bids 51, seat 0 passes, seat 1 bids 52"
    Then seat 3 is next to call, with 53 the lowest bid

  @double-deck @AUCTION-END
  Scenario: Three passes after a bid end the auction
    When the calls are "seat 1 bids 50, seat 2 passes, seat 3 passes, seat 0 passes"
    Then the auction is complete with seat 1 winning at 50

  @double-deck @AUCTION-END @negative
  Scenario: No call after the auction is over
    When the calls are "seat 1 bids 50, seat 2 passes, seat 3 passes, seat 0 passes, seat 1 bids 55"
    Then the last call is refused under AUCTION-END

  @double-deck @AUCTION-END @negative
  Scenario: Two passes do not end the auction
    When the calls are "seat 1 bids 50, seat 2 passes, seat 3 passes"
    Then the auction is not complete
    And seat 0 is next to call, with 51 the lowest bid

  @single-deck @AUCTION-FIRST-BIDDER @uses:AUCTION-DEALER-OPENS
  Scenario: Single deck: the dealer must open with 150
    When the calls are ""
    Then seat 0 may not pass
    And seat 0 is next to call, with 150 the lowest bid

  @single-deck @AUCTION-DEALER-OPENS @negative
  Scenario Outline: Single deck: the dealer may not open with "<call>"
    When the calls are "seat 0 <call>"
    Then the last call is refused under AUCTION-DEALER-OPENS

    Examples:
      | call     |
      | passes   |
      | bids 160 |

  @single-deck
  Scenario Outline: Single deck: after the dealer's 150, seat 1 bids <bid>
    When the calls are "seat 0 bids 150, seat 1 bids <bid>"
    Then <verdict>

    @AUCTION-STEP
    Examples:
      | bid | verdict                                      |
      | 160 | the calls are accepted                       |
      | 200 | the calls are accepted                       |

    @AUCTION-STEP @negative
    Examples:
      | bid | verdict                                      |
      | 155 | the last call is refused under AUCTION-STEP  |

    @AUCTION-HIGHER @negative
    Examples:
      | bid | verdict                                      |
      | 150 | the last call is refused under AUCTION-HIGHER |

  @single-deck @AUCTION-END
  Scenario: Single deck: three passes give the dealer the contract at 150
    When the calls are "seat 0 bids 150, seat 1 passes, seat 2 passes, seat 3 passes"
    Then the auction is complete with seat 0 winning at 150

  @single-deck @AUCTION-END @option:auction_end=four-passes
  Scenario: Single deck, four passes: the high bidder gets a last call
    Given the option auction_end is four-passes
    When the calls are "seat 0 bids 150, seat 1 passes, seat 2 passes, seat 3 passes"
    Then the auction is not complete
    And seat 0 is next to call, with 160 the lowest bid

  @online
  Scenario Outline: Online bids: <calls>
    When the calls are "<calls>"
    Then <verdict>

    @AUCTION-OPENING-MIN
    Examples:
      | calls                            | verdict                                            |
      | seat 0 bids 250                  | the calls are accepted                             |
      | seat 0 bids 300                  | the calls are accepted                             |

    @AUCTION-OPENING-MIN @negative
    Examples:
      | calls                            | verdict                                            |
      | seat 0 bids 240                  | the last call is refused under AUCTION-OPENING-MIN |

    @AUCTION-STEP @negative
    Examples:
      | calls                            | verdict                                            |
      | seat 0 bids 255                  | the last call is refused under AUCTION-STEP        |

    @AUCTION-FIRST-BIDDER @negative
    Examples:
      | calls                            | verdict                                            |
      | seat 1 bids 250                  | the last call is refused under AUCTION-TURN        |

    @AUCTION-STEP
    Examples:
      | calls                            | verdict                                            |
      | seat 0 bids 250, seat 1 bids 300 | the calls are accepted                             |

    @AUCTION-STEP @negative
    Examples:
      | calls                            | verdict                                            |
      | seat 0 bids 250, seat 1 bids 310 | the last call is refused under AUCTION-STEP        |

  @online @AUCTION-DEALER-FORCED
  Scenario: Online: three passes force the player on the dealer's right to bid 250
    When the calls are "seat 0 passes, seat 1 passes, seat 2 passes"
    Then seat 3 may not pass
    And seat 3 is next to call, with 250 the lowest bid
