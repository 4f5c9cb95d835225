Feature: Card points
  Counters won in tricks and the last-trick bonus. Double deck: A 10 K one point each, last trick 2,
  50 in all (source 000). Single deck and online: A 10 K ten each, last trick 10, 250 in all.

  @double-deck @POINTS-COUNTERS @uses:POINTS-LAST-TRICK
  Scenario Outline: Double-deck counters: <cards>
    When the cards "<cards>" <counted>
    Then they are worth <points> points

    Examples:
      | cards          | counted                      | points |
      | Ah Th Kh Qh    | are counted                  | 3      |
      | Ah Th Kh Qh    | of the last trick are counted | 5      |
      | As Ad Ac Ah    | are counted                  | 4      |

  @double-deck @POINTS-COUNTERS @negative
  Scenario: Queens and jacks are not counters
    When the cards "Qs Js Qh Jd" are counted
    Then they are worth 0 points

  @double-deck @POINTS-LAST-TRICK @negative
  Scenario: No bonus for cards of a trick that is not the last
    When the cards "As Ts Ks Qs" are counted
    Then they are worth 3 points

  @double-deck @POINTS-TOTAL
  Scenario: The whole double deck with the last trick is worth 50
    When the cards "AsAsAsAs TsTsTsTs KsKsKsKs QsQsQsQs JsJsJsJs AhAhAhAh ThThThTh KhKhKhKh QhQhQhQh JhJhJhJh AdAdAdAd TdTdTdTd KdKdKdKd QdQdQdQd JdJdJdJd AcAcAcAc TcTcTcTc KcKcKcKc QcQcQcQc JcJcJcJc" of the last trick are counted
    Then they are worth 50 points

  @single-deck @online @POINTS-COUNTERS @uses:POINTS-LAST-TRICK
  Scenario Outline: 48-card counters, <variant>: <cards>
    When the cards "<cards>" <counted>
    Then they are worth <points> points

    Examples:
      | variant     | cards        | counted                       | points |
      | single-deck | Ah Th Kh Qh  | are counted                   | 30     |
      | single-deck | Qs Js 9h 9h  | are counted                   | 0      |
      | single-deck | As Ts Ks Qs  | of the last trick are counted | 40     |
      | online      | Ah Qh Jh 9h  | are counted                   | 10     |
      | online      | Qs Js 9h 9h  | of the last trick are counted | 10     |

  @single-deck @POINTS-COUNTERS @option:card_points=literal-002
  Scenario: Source 002 read literally: aces and kings 10, queens and jacks 5, tens nothing
    Given the option card_points is literal-002
    When the cards "Ah Th Kh Qh Jh 9h" are counted
    Then they are worth 30 points

  @online @POINTS-COUNTERS @option:scoring_method=classic
  Scenario: Online classic scoring: A 11, 10 10, K 4, Q 3, J 2
    Given the option scoring_method is classic
    When the cards "Ah Qh Jh 9h" are counted
    Then they are worth 16 points

  @single-deck @online @POINTS-TOTAL @option:card_points=literal-002 @option:scoring_method=classic
  Scenario Outline: The whole 48-card deck with the last trick is worth 250 (<variant>, <option>)
    Given the option <option> is <value>
    When the cards "AsAsTsTsKsKsQsQsJsJs9s9s AhAhThThKhKhQhQhJhJh9h9h AdAdTdTdKdKdQdQdJdJd9d9d AcAcTcTcKcKcQcQcJcJc9c9c" of the last trick are counted
    Then they are worth 250 points

    Examples:
      | variant     | option         | value       |
      | single-deck | card_points    | counters    |
      | single-deck | card_points    | literal-002 |
      | online      | scoring_method | counters    |
      | online      | scoring_method | classic     |

  @single-deck @POINTS-TOTAL @negative
  Scenario: Without the last trick the deck's counters are 240
    When the cards "AsAsTsTsKsKsQsQsJsJs9s9s AhAhThThKhKhQhQhJhJh9h9h AdAdTdTdKdKdQdQdJdJd9d9d AcAcTcTcKcKcQcQcJcJc9c9c" are counted
    Then they are worth 240 points
