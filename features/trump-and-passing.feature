Feature: Trump and passing
  The auction's winner names trump (source 000 "Calling Trump and Melding"): in double deck only a
  suit in which the bidder holds a marriage, and a bidder with no marriage loses the hand at once.
  In the 48-card games the partner then passes cards to the bidder, who passes as many back.

  @double-deck @TRUMP-CALL @uses:TRUMP-MARRIAGE
  Scenario: The bidder names a suit in which they hold a marriage
    Given the dealer is seat 3
    And the seats hold
      | seat | cards                                        |
      | 0    | AsAsAsAs TsTsTsTs KsKsKsKs QsQsQsQs JsJsJsJs |
      | 1    | AhAhAhAh ThThThTh KhKhKhKh QhQhQhQh JhJhJhJh |
      | 2    | AdAdAdAd TdTdTdTd KdKdKdKd QdQdQdQd JdJdJdJd |
      | 3    | AcAcAcAc TcTcTcTc KcKcKcKc QcQcQcQc JcJcJcJc |
    When the hand is played with the actions "bid 50, pass, pass, pass, trump s"
    Then the actions are accepted
    And the bidder is seat 0 with 50 in spades

  @double-deck @TRUMP-MARRIAGE @negative
  Scenario: The bidder may not name a suit without a marriage in it
    Given the dealer is seat 3
    And the seats hold
      | seat | cards                                        |
      | 0    | AsAsAsAs TsTsTsTs KsKsKsKs QsQsQsQs JsJsJsJs |
      | 1    | AhAhAhAh ThThThTh KhKhKhKh QhQhQhQh JhJhJhJh |
      | 2    | AdAdAdAd TdTdTdTd KdKdKdKd QdQdQdQd JdJdJdJd |
      | 3    | AcAcAcAc TcTcTcTc KcKcKcKc QcQcQcQc JcJcJcJc |
    When the hand is played with the actions "bid 50, pass, pass, pass, trump h"
    Then the hand is refused at action 4 under TRUMP-MARRIAGE

  @double-deck @TRUMP-NO-MARRIAGE @negative
  Scenario: A bidder with no marriage at all loses the bid at once
    Given the dealer is seat 3
    And the scores are 120 to 80
    And the seats hold
      | seat | cards                                        |
      | 0    | AsAsAsAs AhAhAhAh AdAdAdAd AcAcAcAc JsJsJsJs |
      | 1    | TsTsTsTs ThThThTh TdTdTdTd TcTcTcTc JhJhJhJh |
      | 2    | KsKsKsKs KhKhKhKh KdKdKdKd KcKcKcKc JdJdJdJd |
      | 3    | QsQsQsQs QhQhQhQh QdQdQdQd QcQcQcQc JcJcJcJc |
    When the hand is played with the actions "bid 50, pass, pass, pass"
    Then the hand ends with outcome no_marriage
    And the teams score -50 and 0
    And the scores become 70 to 80

  @online @TRUMP-CALL
  Scenario: Online, the bidder may name any suit
    Given the dealer is seat 3
    And the seats hold
      | seat | cards                    |
      | 0    | AsAsTsTsKsKsQsQsJsJs9s9s |
      | 1    | AhAhThThKhKhQhQhJhJh9h9h |
      | 2    | AdAdTdTdKdKdQdQdJdJd9d9d |
      | 3    | AcAcTcTcKcKcQcQcJcJc9c9c |
    When the hand is played with the actions "bid 250, pass, pass, pass, trump h"
    Then the actions are accepted
    And the bidder is seat 3 with 250 in hearts

  @single-deck @TRUMP-CALL
  Scenario: Single deck, the bidder may name a suit without a marriage in it
    Given the dealer is seat 3
    And the seats hold
      | seat | cards                    |
      | 0    | AsAsTsTsKsKsQsQsJsJs9s9s |
      | 1    | AhAhThThKhKhQhQhJhJh9h9h |
      | 2    | AdAdTdTdKdKdQdQdJdJd9d9d |
      | 3    | AcAcTcTcKcKcQcQcJcJc9c9c |
    When the hand is played with the actions "bid 150, pass, pass, pass, trump h"
    Then the actions are accepted
    And the bidder is seat 3 with 150 in hearts

  @single-deck @PASS-CARDS
  Scenario Outline: The partner passes <n> cards and the bidder returns <n>
    Given the option pass_cards is <n>
    And the dealer is seat 3
    And the seats hold
      | seat | cards                    |
      | 0    | AsAsTsTsKsKsQsQsJsJs9s9s |
      | 1    | AhAhThThKhKhQhQhJhJh9h9h |
      | 2    | AdAdTdTdKdKdQdQdJdJd9d9d |
      | 3    | AcAcTcTcKcKcQcQcJcJc9c9c |
    When the hand is played with the actions "bid 150, pass, pass, pass, trump c, give <given>, give <returned>"
    Then the actions are accepted
    And the bidder is seat 3 with 150 in clubs

    Examples:
      | n | given       | returned    |
      | 4 | Ah Ah Th Th | Ac Ac Tc Tc |
      | 4 | Ah Ah Th Th | Ah Ah Th Th |
      | 3 | Ah Ah Th    | 9c 9c Jc    |

  @single-deck @PASS-CARDS @negative
  Scenario Outline: A pass of the wrong size or of cards not held is refused: give <given>
    Given the dealer is seat 3
    And the seats hold
      | seat | cards                    |
      | 0    | AsAsTsTsKsKsQsQsJsJs9s9s |
      | 1    | AhAhThThKhKhQhQhJhJh9h9h |
      | 2    | AdAdTdTdKdKdQdQdJdJd9d9d |
      | 3    | AcAcTcTcKcKcQcQcJcJc9c9c |
    When the hand is played with the actions "bid 150, pass, pass, pass, trump c, give <given>"
    Then the hand is refused at action 5 under PASS-CARDS

    Examples:
      | given          |
      | Ah Ah Th       |
      | Ah Ah Th Th Kh |
      | As As Ts Ts    |
      | Ah Ah Ah Th    |

  @double-deck @TRUMP-NO-MARRIAGE @negative
  Scenario: Kings and queens of different suits are no marriage
    Given the dealer is seat 3
    And the scores are 100 to 100
    And the seats hold
      | seat | cards                                        |
      | 0    | KsKsKsKs KhKhKhKh QdQdQdQd QcQcQcQc AsAsAsAs |
      | 1    | QsQsQsQs QhQhQhQh KdKdKdKd KcKcKcKc AhAhAhAh |
      | 2    | TsTsTsTs ThThThTh TdTdTdTd TcTcTcTc AdAdAdAd |
      | 3    | JsJsJsJs JhJhJhJh JdJdJdJd JcJcJcJc AcAcAcAc |
    When the hand is played with the actions "bid 55, pass, pass, pass"
    Then the hand ends with outcome no_marriage
    And the teams score -55 and 0
    And the scores become 45 to 100

  @single-deck @PASS-CARDS @negative @option:pass_cards=0
  Scenario: With passing switched off, a give is refused
    Given the option pass_cards is 0
    And the dealer is seat 3
    And the seats hold
      | seat | cards                    |
      | 0    | AsAsTsTsKsKsQsQsJsJs9s9s |
      | 1    | AhAhThThKhKhQhQhJhJh9h9h |
      | 2    | AdAdTdTdKdKdQdQdJdJd9d9d |
      | 3    | AcAcTcTcKcKcQcQcJcJc9c9c |
    When the hand is played with the actions "bid 150, pass, pass, pass, trump c, give Ah Ah Th Th"
    Then the hand is refused at action 5 under PASS-CARDS
