Feature: End of the game
  Double deck: the first side to 500 wins; if both reach it in one hand the bidders win; when both
  sides have 400 or more only the bidding side can win (source 000). Single deck plays to 1000;
  online to 1500 or a number of hands.

  @double-deck @GAME-TARGET
  Scenario Outline: Double deck from <before 0> to <before 1>: <outcome>
    Given the scores are <before 0> to <before 1>
    And team 0 holds the contract at 50
    And the teams melded 30 and 22
    And the teams took 28 and 22 card points in 12 and 8 tricks
    When the hand is scored
    Then the scores become <after 0> to <after 1>
    And <outcome>

    # Team 0: 30 + 28 = 58 >= 50, made, +58; team 1: 22 + 22 = +44 (meld and tricks kept off 20,
    # which MELD-MINIMUM and SCORE-TRICK-MINIMUM test). Team 1 is under 400: no bid-to-win.
    Examples:
      | before 0 | before 1 | after 0 | after 1 | outcome                   |
      | 450      | 300      | 508     | 344     | team 0 wins the game      |
      | 400      | 100      | 458     | 144     | nobody has won the game yet |

  @double-deck @GAME-BOTH-REACH
  Scenario: Both sides reach 500 in one hand: the bidding side wins
    Given the scores are 380 to 470
    And team 0 holds the contract at 60
    And the teams melded 100 and 22
    And the teams took 28 and 22 card points in 12 and 8 tricks
    When the hand is scored
    # Team 0 (bidders, 380 < 400: no bid-to-win): 100 + 28 = 128, 508; team 1: 22 + 22 = 44, 514.
    Then the scores become 508 to 514
    And team 0 wins the game

  @double-deck @GAME-BID-TO-WIN
  Scenario: Both sides over 400: the bidders win by making their bid
    Given the scores are 450 to 420
    And team 1 holds the contract at 50
    And the teams melded 22 and 60
    And the teams took 22 and 28 card points in 8 and 12 tricks
    When the hand is scored
    # Both at 400+: bid-to-win. Team 1: 60 + 28 = 88 >= 50, made, 508; team 0: 22 + 22 = 44, 494.
    Then the scores become 494 to 508
    And team 1 wins the game

  @double-deck @GAME-BID-TO-WIN @negative
  Scenario: Both sides over 400: the opponents cannot win, even past 500
    Given the scores are 450 to 420
    And team 1 holds the contract at 50
    And the teams melded 60 and 20
    And the teams took 30 and 20 card points in 12 and 8 tricks
    When the hand is scored
    Then the bidders are set
    And the scores become 540 to 370
    And nobody has won the game yet

  @double-deck @GAME-BID-TO-WIN @option:bid_to_win=over-400 @option:bid_to_win=off
  Scenario Outline: When bid-to-win starts: option <value>, scores 400 to 450
    Given the option bid_to_win is <value>
    And the scores are 400 to 450
    And team 1 holds the contract at 50
    And the teams melded 80 and 20
    And the teams took 30 and 20 card points in 12 and 8 tricks
    When the hand is scored
    Then the scores become 510 to 400
    And <outcome>

    Examples:
      | value    | outcome                     |
      | 400      | nobody has won the game yet |
      | over-400 | team 0 wins the game        |
      | off      | team 0 wins the game        |

  @single-deck @GAME-TARGET
  Scenario: Single deck plays to 1000
    Given the scores are 900 to 500
    And team 0 holds the contract at 150
    And the teams melded 60 and 40
    And the teams took 150 and 100 card points in 8 and 4 tricks
    When the hand is scored
    Then the scores become 1110 to 640
    And team 0 wins the game

  @single-deck @GAME-BOTH-REACH @option:tie_break=higher-score
  Scenario Outline: Single deck, both reach 1000, tie break <tie_break>
    Given the option tie_break is <tie_break>
    And the scores are 800 to 980
    And team 0 holds the contract at 150
    And the teams melded 100 and 40
    And the teams took 150 and 100 card points in 8 and 4 tricks
    When the hand is scored
    Then the scores become 1050 to 1120
    And team <winner> wins the game

    Examples:
      | tie_break    | winner |
      | bidder-wins  | 0      |
      | higher-score | 1      |

  @online @GAME-TARGET
  Scenario: Online plays to 1500
    Given the scores are 1400 to 1000
    And team 0 holds the contract at 250
    And the teams melded 100 and 60
    And the teams took 160 and 90 card points in 8 and 4 tricks
    When the hand is scored
    Then the scores become 1660 to 1150
    And team 0 wins the game

  @online @GAME-ROUNDS @option:rounds=3
  Scenario Outline: Online over three hands: after hand <hand>
    Given the option rounds is 3
    And this is hand <hand> of the game
    And the scores are <before 0> to <before 1>
    And team 0 holds the contract at 250
    And the teams melded 100 and 60
    And the teams took 160 and 90 card points in 8 and 4 tricks
    When the hand is scored
    Then the scores become <after 0> to <after 1>
    And <outcome>

    Examples:
      | hand | before 0 | before 1 | after 0 | after 1 | outcome                     |
      | 2    | 600      | 400      | 860     | 550     | nobody has won the game yet |
      | 3    | 600      | 400      | 860     | 550     | team 0 wins the game        |
      | 3    | 290      | 600      | 550     | 750     | team 1 wins the game        |
      | 3    | 500      | 710      | 760     | 860     | team 1 wins the game        |
