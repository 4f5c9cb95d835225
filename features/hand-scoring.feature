Feature: Scoring a played hand
  The bidders add meld and card points; made if the total reaches the contract (source 000
  "The Play", 002 "Scoring The Round"). Double deck: a team's meld counts only from 20, and a team
  with under 20 in card points scores nothing. Single deck: opponents who won no trick score nothing.

  Background:
    Given the scores are 0 to 0

  @double-deck @SCORE-MADE @uses:SCORE-TRICK-MINIMUM @uses:MELD-MINIMUM
  Scenario Outline: Double deck: team 0 bids <contract>, melds <meld 0> and <meld 1>, takes <points 0> and <points 1>
    Given team 0 holds the contract at <contract>
    And the teams melded <meld 0> and <meld 1>
    And the teams took <points 0> and <points 1> card points in <won 0> and <won 1> tricks
    When the hand is scored
    Then the bidders <verdict>
    And the teams score <delta 0> and <delta 1>

    Examples:
      | contract | meld 0 | meld 1 | points 0 | points 1 | won 0 | won 1 | verdict            | delta 0 | delta 1 |
      | 60       | 30     | 25     | 31       | 19       | 12    | 8     | make their contract | 61      | 0       |
      | 60       | 40     | 0      | 22       | 28       | 8     | 12    | make their contract | 62      | 28      |
      | 50       | 22     | 0      | 28       | 22       | 12    | 8     | make their contract | 50      | 22      |
      | 60       | 30     | 25     | 25       | 25       | 10    | 10    | are set             | -60     | 50      |

  @double-deck @SCORE-TRICK-MINIMUM @negative
  Scenario: Bidders with under 20 in card points are set whatever their meld
    Given team 0 holds the contract at 50
    And the teams melded 100 and 22
    And the teams took 18 and 32 card points in 7 and 13 tricks
    When the hand is scored
    # 18 < 20: set, -50, although 100 + 18 would pass 50. Opponents 22 + 32 = 54.
    Then the bidders are set
    And the teams score -50 and 54

  @double-deck @MELD-MINIMUM @negative
  Scenario: A team's meld under 20 counts nothing
    Given team 1 holds the contract at 50
    And the teams melded 19 and 60
    And the teams took 22 and 28 card points in 8 and 12 tricks
    When the hand is scored
    # Team 0's 19 counts nothing, its 22 in tricks count: +22. Bidders 60 + 28 = 88 >= 50: +88.
    Then the bidders make their contract
    And the teams score 22 and 88

  @double-deck @MELD-MINIMUM @uses:SCORE-MADE @negative
  Scenario: Opponents whose meld is under 20 keep only their card points
    # Bidders 24 + 28 = 52 >= 50: made. Opponents' 16 meld is under 20 and counts nothing;
    # their 22 card points (at least 20) still count.
    Given team 0 holds the contract at 50
    And the teams melded 24 and 16
    And the teams took 28 and 22 card points in 11 and 9 tricks
    When the hand is scored
    Then the bidders make their contract
    And the teams score 52 and 22

  @single-deck @SCORE-MADE @uses:SCORE-OPPONENTS-TRICK
  Scenario: Single deck: opponents who won a trick keep meld and card points
    Given team 0 holds the contract at 250
    And the teams melded 100 and 80
    And the teams took 200 and 50 card points in 10 and 2 tricks
    When the hand is scored
    Then the bidders make their contract
    And the teams score 300 and 130

  @single-deck @SCORE-OPPONENTS-TRICK @negative
  Scenario: Single deck: opponents who won no trick score nothing
    Given team 0 holds the contract at 250
    And the teams melded 100 and 80
    And the teams took 250 and 0 card points in 12 and 0 tricks
    When the hand is scored
    Then the bidders make their contract
    And the teams score 350 and 0

  @single-deck @SCORE-SET
  Scenario: Single deck: a set bidder loses the contract, opponents with a trick score
    Given team 1 holds the contract at 300
    And the teams melded 60 and 120
    And the teams took 130 and 120 card points in 6 and 6 tricks
    When the hand is scored
    Then the bidders are set
    And the teams score 190 and -300

  @online @SCORE-MADE
  Scenario: Online: opponents score meld even without a trick
    Given team 0 holds the contract at 300
    And the teams melded 150 and 60
    And the teams took 250 and 0 card points in 12 and 0 tricks
    When the hand is scored
    Then the bidders make their contract
    And the teams score 400 and 60
