Feature: Whole hands
  A deal played from the auction to the score (play_hand): actions in turn, meld per seat and per
  team (partners sit opposite: seats 0 and 2 against 1 and 3), tricks, card points and the score.

  Background:
    Given the dealer is seat 3

  @double-deck @MELD-ONE-HAND @uses:PLAY-LEAD @uses:PLAY-DISCARD @uses:SEAT-PARTNERS @uses:MELD-MINIMUM @uses:SCORE-MADE @uses:POINTS-TOTAL
  Scenario: Each player holds one suit; the bidder takes every trick
    Given the seats hold
      | seat | cards                                        |
      | 0    | AsAsAsAs TsTsTsTs KsKsKsKs QsQsQsQs JsJsJsJs |
      | 1    | AhAhAhAh ThThThTh KhKhKhKh QhQhQhQh JhJhJhJh |
      | 2    | AdAdAdAd TdTdTdTd KdKdKdKd QdQdQdQd JdJdJdJd |
      | 3    | AcAcAcAc TcTcTcTc KcKcKcKc QcQcQcQc JcJcJcJc |
    When the hand is played with the actions "bid 50, pass, pass, pass, trump s, play-on" and the tricks
      """
      As Ah Ad Ac
      As Ah Ad Ac
      As Ah Ad Ac
      As Ah Ad Ac
      Ts Th Td Tc
      Ts Th Td Tc
      Ts Th Td Tc
      Ts Th Td Tc
      Ks Kh Kd Kc
      Ks Kh Kd Kc
      Ks Kh Kd Kc
      Ks Kh Kd Kc
      Qs Qh Qd Qc
      Qs Qh Qd Qc
      Qs Qh Qd Qc
      Qs Qh Qd Qc
      Js Jh Jd Jc
      Js Jh Jd Jc
      Js Jh Jd Jc
      Js Jh Jd Jc
      """
    Then the hand ends with outcome played
    And the bidder is seat 0 with 50 in spades
    And seat 0 melds 300
    And seat 2 melds 8
    And the team meld is 308 and 16
    And the card points are 50 and 0
    And the tricks won are 20 and 0
    And the teams score 358 and 0
    And the scores become 358 to 0
    And nobody has won the game yet

  @double-deck @PLAY-TURN @negative
  Scenario Outline: A card the player does not hold is refused: <actions>
    Given the seats hold
      | seat | cards                                        |
      | 0    | AsAsAsAs TsTsTsTs KsKsKsKs QsQsQsQs JsJsJsJs |
      | 1    | AhAhAhAh ThThThTh KhKhKhKh QhQhQhQh JhJhJhJh |
      | 2    | AdAdAdAd TdTdTdTd KdKdKdKd QdQdQdQd JdJdJdJd |
      | 3    | AcAcAcAc TcTcTcTc KcKcKcKc QcQcQcQc JcJcJcJc |
    When the hand is played with the actions "bid 50, pass, pass, pass, trump s, play-on, <actions>"
    Then the hand is refused at action <index> under PLAY-TURN

    Examples:
      | actions          | index |
      | play Ah          | 6     |
      | play As, play As | 7     |

  @double-deck @PLAY-LEAD @uses:PLAY-TURN
  Scenario: The bidder leads the first trick and the others follow in turn
    Given the seats hold
      | seat | cards                                        |
      | 0    | AsAsAsAs TsTsTsTs KsKsKsKs QsQsQsQs JsJsJsJs |
      | 1    | AhAhAhAh ThThThTh KhKhKhKh QhQhQhQh JhJhJhJh |
      | 2    | AdAdAdAd TdTdTdTd KdKdKdKd QdQdQdQd JdJdJdJd |
      | 3    | AcAcAcAc TcTcTcTc KcKcKcKc QcQcQcQc JcJcJcJc |
    When the hand is played with the actions "bid 50, pass, pass, pass, trump s, play-on, play Js, play Jh, play Jd, play Jc, play As"
    Then the actions are accepted

  @double-deck @MELD-ACES-DECLARED @uses:SCORE-THROW-IN @uses:SEAT-PARTNERS
  Scenario: Aces around are declared; the bidders throw in
    Given the seats hold
      | seat | cards                                           |
      | 0    | AsAsAs TsTsTsTs KsKsKsKs QsQsQsQs JsJsJsJs Jh   |
      | 1    | AhAhAhAh ThThThTh KhKhKhKh QhQhQhQh Jh As Ad Ac |
      | 2    | AdAdAd TdTdTdTd KdKdKdKd QdQdQdQd JdJdJdJd Jh   |
      | 3    | AcAcAc TcTcTcTc KcKcKcKc QcQcQcQc JcJcJcJc Jh   |
    When the hand is played with the actions "bid 50, pass, pass, pass, trump s, throw-in"
    Then the hand ends with outcome thrown_in
    And aces around are declared by seat 1
    And seat 0 melds 229
    And seat 1 melds 18
    And the team meld is 237 and 26
    And the teams score -50 and 26

  @single-deck @online @MELD-ONE-HAND @uses:PLAY-LEAD @uses:PLAY-TURN @uses:SEAT-PARTNERS @uses:PASS-CARDS
  Scenario Outline: 48 cards, <variant>: pass, meld, and the bidder leads
    Given the seats hold
      | seat | cards                    |
      | 0    | AsAsTsTsKsKsQsQsJsJs9s9s |
      | 1    | AhAhThThKhKhQhQhJhJh9h9h |
      | 2    | AdAdTdTdKdKdQdQdJdJd9d9d |
      | 3    | AcAcTcTcKcKcQcQcJcJc9c9c |
    When the hand is played with the actions "bid <bid>, pass, pass, pass, trump c, give Ah Ah Th Th, give Ah Ah Th Th, <decision>play Ac"
    Then the actions are accepted
    And seat 3 melds 320
    And seat 0 melds 40
    And the team meld is 80 and 360

    Examples:
      | variant     | bid | decision |
      | single-deck | 150 |          |
      | online      | 250 | play-on, |

  @single-deck @online @PLAY-TURN @uses:PASS-CARDS
  Scenario Outline: 48 cards, <variant>: the bidder leads a card it holds
    Given the seats hold
      | seat | cards                    |
      | 0    | AsAsTsTsKsKsQsQsJsJs9s9s |
      | 1    | AhAhThThKhKhQhQhJhJh9h9h |
      | 2    | AdAdTdTdKdKdQdQdJdJd9d9d |
      | 3    | AcAcTcTcKcKcQcQcJcJc9c9c |
    When the hand is played with the actions "bid <bid>, pass, pass, pass, trump c, give Ah Ah Th Th, give Ah Ah Th Th, <decision>play Kc"
    Then the actions are accepted

    Examples:
      | variant     | bid | decision |
      | single-deck | 150 |          |
      | online      | 250 | play-on, |

  @single-deck @online @PLAY-TURN @negative
  Scenario Outline: 48 cards, <variant>: the bidder cannot lead a card it does not hold
    Given the seats hold
      | seat | cards                    |
      | 0    | AsAsTsTsKsKsQsQsJsJs9s9s |
      | 1    | AhAhThThKhKhQhQhJhJh9h9h |
      | 2    | AdAdTdTdKdKdQdQdJdJd9d9d |
      | 3    | AcAcTcTcKcKcQcQcJcJc9c9c |
    When the hand is played with the actions "bid <bid>, pass, pass, pass, trump c, give Ah Ah Th Th, give Ah Ah Th Th, <decision>play As"
    Then the hand is refused at action <index> under PLAY-TURN

    Examples:
      | variant     | bid | decision | index |
      | single-deck | 150 |          | 7     |
      | online      | 250 | play-on, | 8     |
