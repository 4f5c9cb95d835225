Feature: Who wins a trick
  The highest trump wins; without trumps the highest card of the suit led. Of identical cards the
  one played first wins (source 000, "The Play"). Ranks run A 10 K Q J (9).

  Background:
    Given spades are trump

  @double-deck @TRICK-WINNER @uses:TRICK-IDENTICAL @uses:DECK-RANK
  Scenario Outline: <situation>
    When the trick "<trick>" is played
    Then the <winner> card wins the trick

    Examples:
      | situation                                   | trick       | winner |
      | the highest card of the suit led            | Kh Ah Th Qh | second |
      | the ten beats the king                      | Kh Th Qh Jh | second |
      | a trump beats the suit led                  | Kh Ah Js Qh | third  |
      | the higher trump wins                       | Kh Js As Qh | third  |
      | identical tens: the first one played wins   | Th Th Kh Qh | first  |
      | identical aces of trumps: the first wins    | Ah As As Qh | second |

  @double-deck @TRICK-WINNER @negative
  Scenario: Aces of other suits do not win a trick
    When the trick "Qh Ad Ac Jh" is played
    Then the first card wins the trick

  @double-deck @DECK-RANK @negative
  Scenario: The king does not beat the ten
    When the trick "Th Kh Qh Jh" is played
    Then the first card wins the trick

  @double-deck @TRICK-IDENTICAL @negative
  Scenario: A later identical card never takes the trick
    When the trick "Js Js Js Js" is played
    Then the first card wins the trick

  @single-deck @TRICK-WINNER @uses:TRICK-IDENTICAL @uses:DECK-RANK
  Scenario Outline: Single deck, with nines: <situation>
    When the trick "<trick>" is played
    Then the <winner> card wins the trick

    Examples:
      | situation                           | trick       | winner |
      | a nine of trumps beats the ace led  | Ah 9s Th Kh | second |
      | the jack beats the nine             | 9h Jh 9h Qc | second |
      | identical nines of trumps           | Jh 9s 9s Qh | second |

  @online @TRICK-WINNER
  Scenario: Online, the higher trump wins
    When the trick "Ac Qs Ts Ks" is played
    Then the third card wins the trick
