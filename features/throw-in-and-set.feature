Feature: Throw-in and set
  A set bidding side loses its contract (source 000). Double deck and online: the bidders may throw
  in after meld, losing the contract while the opponents score their meld; online forces a throw-in
  when the contract is out of reach. Double deck: bidders short of 20 in meld lose at once.

  Background:
    Given the scores are 100 to 100

  @double-deck @SCORE-SET
  Scenario: Set: the bidders lose their bid; the opponents keep meld and card points
    Given team 1 holds the contract at 65
    And the teams melded 24 and 40
    And the teams took 26 and 24 card points in 10 and 10 tricks
    When the hand is scored
    Then the bidders are set
    And the teams score 50 and -65
    And the scores become 150 to 35

  @double-deck @SCORE-SET @negative
  Scenario: Reaching the contract exactly is not a set
    Given team 1 holds the contract at 65
    And the teams melded 24 and 40
    And the teams took 25 and 25 card points in 10 and 10 tricks
    When the hand is scored
    Then the bidders make their contract
    And the teams score 49 and 65

  @double-deck @SCORE-THROW-IN
  Scenario: A throw-in: bidders lose the contract, opponents score their meld
    Given team 0 holds the contract at 70
    And the teams melded 40 and 30
    When the hand is scored as thrown_in
    Then the bidders are set
    And the teams score -70 and 30
    And the scores become 30 to 130

  @double-deck @SCORE-THROW-IN @uses:MELD-MINIMUM @negative
  Scenario: After a throw-in, opponents' meld under 20 still scores nothing
    Given team 0 holds the contract at 70
    And the teams melded 40 and 18
    When the hand is scored as thrown_in
    Then the teams score -70 and 0

  @online @SCORE-THROW-IN
  Scenario: Online throw-in
    Given team 1 holds the contract at 350
    And the teams melded 120 and 100
    When the hand is scored as thrown_in
    Then the bidders are set
    And the teams score 120 and -350

  @online @SCORE-FORCED-THROW-IN @negative
  Scenario: Online, a contract out of reach must be thrown in: play-on is refused
    Given the dealer is seat 0
    And the seats hold
      | seat | cards                               |
      | 0    | Ac Ac Tc Tc Kc Qc Jc Jc 9c 9s 9h Jd |
      | 1    | As As Ts Ts Ks Ks Qs Js 9s Kh 9d Qc |
      | 2    | Ah Ah Th Th Kh Qh Jh Jh 9h Js Kd 9c |
      | 3    | Ad Ad Td Td Kd Qd Qd Jd 9d Qs Qh Kc |
    When the hand is played with the actions "bid 250, bid 300, pass, bid 350, pass, bid 400, bid 450, bid 500, pass, trump s, give Qs Ad Ad Kc, give Kh Ad Ad 9d, play-on"
    Then the hand is refused at action 12 under SCORE-FORCED-THROW-IN
    And the team meld is 50 and 220

  @online @SCORE-FORCED-THROW-IN @uses:SCORE-THROW-IN
  Scenario: Online forced throw-in: the bidders lose the contract, the opponents score their meld
    Given the dealer is seat 0
    And the seats hold
      | seat | cards                               |
      | 0    | Ac Ac Tc Tc Kc Qc Jc Jc 9c 9s 9h Jd |
      | 1    | As As Ts Ts Ks Ks Qs Js 9s Kh 9d Qc |
      | 2    | Ah Ah Th Th Kh Qh Jh Jh 9h Js Kd 9c |
      | 3    | Ad Ad Td Td Kd Qd Qd Jd 9d Qs Qh Kc |
    When the hand is played with the actions "bid 250, bid 300, pass, bid 350, pass, bid 400, bid 450, bid 500, pass, trump s, give Qs Ad Ad Kc, give Kh Ad Ad 9d, throw-in"
    Then the hand ends with outcome thrown_in
    And the team meld is 50 and 220
    And the teams score 50 and -500
    And the scores become 150 to -400

  @double-deck @MELD-SHORT-BIDDER
  Scenario Outline: Bidders short of 20 in meld lose at once; opponents keep meld from 20 (<meld 1>)
    Given team 0 holds the contract at 55
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
    Given team 1 holds the contract at 50
    And the teams melded 40 and 0
    When the hand is scored as no_marriage
    Then the bidders are set
    And the teams score 0 and -50
