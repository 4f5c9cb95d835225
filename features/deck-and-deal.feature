Feature: Deck and deal
  Double deck: 80 cards, A 10 K Q J four times in each suit, 20 to each player, dealt clockwise in
  packets (source 000), starting at the dealer's left (ERRATA-DD-DEAL-START). Single deck and online: 48 cards with nines, 12 each.
  The deal passes to the left.

  @double-deck @DECK-COMPOSITION @uses:DEAL-HANDS @uses:DEAL-PACKETS @uses:DEAL-ROTATION
  Scenario: Five at a time from the dealer's left
    Given the dealer is seat 0
    When the deck in suit order is dealt
    Then every seat is dealt 20 cards
    And seat 1 is dealt "As As As As Ts Ah Ah Ah Ah Th Ad Ad Ad Ad Td Ac Ac Ac Ac Tc"
    And seat 0 is dealt "Qs Js Js Js Js Qh Jh Jh Jh Jh Qd Jd Jd Jd Jd Qc Jc Jc Jc Jc"
    And the next dealer is seat 1

  @double-deck @DEAL-PACKETS @uses:DEAL-ROTATION
  Scenario: The deal wraps round to the dealer
    Given the dealer is seat 3
    When the deck in suit order is dealt
    Then seat 0 is dealt "As As As As Ts Ah Ah Ah Ah Th Ad Ad Ad Ad Td Ac Ac Ac Ac Tc"
    And seat 3 is dealt "Qs Js Js Js Js Qh Jh Jh Jh Jh Qd Jd Jd Jd Jd Qc Jc Jc Jc Jc"
    And the next dealer is seat 0

  @double-deck @DEAL-PACKETS @option:deal_packets=4 @option:deal_packets=2-then-3
  Scenario Outline: Other packet sizes: <packets>
    Given the option deal_packets is <packets>
    And the dealer is seat 0
    When the deck in suit order is dealt
    Then every seat is dealt 20 cards
    And seat 1 is dealt "<seat 1>"

    Examples:
      | packets  | seat 1                                                          |
      | 4        | As As As As Js Js Js Js Qh Qh Qh Qh Kd Kd Kd Kd Tc Tc Tc Tc     |
      | 2-then-3 | As As Ks Ks Ks Ah Ah Ah Qh Qh Qh Td Td Td Jd Jd Jd Kc Kc Kc     |

  @single-deck @online @DECK-COMPOSITION @uses:DEAL-HANDS @uses:DEAL-PACKETS @uses:DEAL-ROTATION
  Scenario Outline: The 48-card deck, three at a time (<variant>)
    Given the dealer is seat <dealer>
    When the deck in suit order is dealt
    Then every seat is dealt 12 cards
    And seat <left> is dealt "As As Ts Ah Ah Th Ad Ad Td Ac Ac Tc"
    And seat <dealer> is dealt "Js 9s 9s Jh 9h 9h Jd 9d 9d Jc 9c 9c"
    And the next dealer is seat <left>

    Examples:
      | variant     | dealer | left |
      | single-deck | 0      | 1    |
      | online      | 2      | 3    |

  @double-deck @single-deck @DECK-COMPOSITION @negative
  Scenario Outline: A deck that is not the variant's is refused (<variant>: <put> for <take>)
    When the deck in suit order with "<put>" in place of "<take>" is dealt
    Then the deal is refused under DECK-COMPOSITION

    Examples:
      | variant     | put | take |
      | double-deck | 9s  | As   |
      | double-deck | Ah  | As   |
      | single-deck | As  | 9s   |
