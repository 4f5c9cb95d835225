Feature: Throw-in and set
  A set bidding side loses its contract (source 000). Double deck and online: the bidders may throw
  in after meld, losing the contract while the opponents score their meld; online forces a throw-in
  when the contract is out of reach. Double deck: bidders short of 20 in meld lose at once.

  Background:
    Given the scores are 100 to 100

  @double-deck @SCORE-SET
  Scenario: Set: the bidders lose their bid; the opponents keep meld and card points
    Given the double-deck rules
    And team 1 holds the contract at 65
    And the teams melded 24 and 40
    And the teams took 26 and 24 card points in 10 and 10 tricks
    When the hand is scored
    Then the bidders are set
    And the teams score 50 and -65
    And the scores become 150 to 35

  @double-deck @SCORE-SET @negative
  Scenario: Reaching the contract exactly is not a set
    Given the double-deck rules
    And team 1 holds the contract at 65
    And the teams melded 24 and 40
    And the teams took 25 and 25 card points in 10 and 10 tricks
    When the hand is scored
    Then the bidders make their contract
    And the teams score 49 and 65

  @double-deck @SCORE-THROW-IN
  Scenario: A throw-in: bidders lose the contract, opponents score their meld
    Given the double-deck rules
    And team 0 holds the contract at 70
    And the teams melded 40 and 30
    When the hand is scored as thrown_in
    Then the bidders are set
    And the teams score -70 and 30
    And the scores become 30 to 130

  @double-deck @SCORE-THROW-IN @MELD-MINIMUM @negative
  Scenario: After a throw-in, opponents' meld under 20 still scores nothing
    Given the double-deck rules
    And team 0 holds the contract at 70
    And the teams melded 40 and 18
    When the hand is scored as thrown_in
    Then the teams score -70 and 0

  @online @SCORE-THROW-IN
  Scenario: Online throw-in
    Given the online rules
    And team 1 holds the contract at 350
    And the teams melded 120 and 90
    When the hand is scored as thrown_in
    Then the teams score 120 and -350

  @double-deck @MELD-SHORT-BIDDER
  Scenario Outline: Bidders short of 20 in meld lose at once; opponents keep meld from 20 (<meld 1>)
    Given the double-deck rules
    And team 0 holds the contract at 55
    And the teams melded 16 and <meld 1>
    When the hand is scored as meld_short
    Then the bidders are set
    And the teams score -55 and <delta 1>

    Examples:
      | meld 1 | delta 1 |
      | 30     | 30      |
      | 18     | 0       |

  @double-deck @TRUMP-NO-MARRIAGE
  Scenario: A bidder without a marriage loses the bid and nobody scores meld
    Given the double-deck rules
    And team 1 holds the contract at 50
    And the teams melded 40 and 0
    When the hand is scored as no_marriage
    Then the bidders are set
    And the teams score 0 and -50
