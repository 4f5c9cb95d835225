Feature: Meld
  After trump is named every player shows the combinations in one hand (source 000, "Calling
  Trump and Melding"). A card may serve melds of different types but never two melds of the same
  type; multiplicity k of a meld scores the table's k-th value.

  Background:
    Given hearts are trump

  @MELD-RUN @uses:MELD-ROYAL-MARRIAGE @uses:MELD-MARRIAGE @uses:MELD-PINOCHLE @uses:MELD-AROUNDS @uses:MELD-TYPES @double-deck
  Scenario: The 88-point example hand of the rules
    Given seat 1 holds "AhThKhKhKhQhQhJh QdQdJd QcQc AsKsKsQsQsJsJs"
    When the meld is counted
    Then the meld total is 88
    And the meld includes 1 run in hearts worth 16
    And the meld includes 1 royal_marriage in hearts worth 4
    And the meld includes 2 marriage in spades worth 4
    And the meld includes 1 pinochle worth 4
    And the meld includes 2 queens_around worth 60
    And the meld has nothing else

  @double-deck
  Scenario Outline: One meld alone scores its value from the table
    Given seat 1 holds "<hand>"
    When the meld is counted
    Then the meld total is <points>
    And the meld includes <count> <meld> worth <points>
    And the meld has nothing else

    @MELD-RUN
    Examples:
      | hand                                        | meld           | count | points |
      | Ah Th Kh Qh Jh                              | run            | 1     | 16     |
      | Ah Th Kh Qh Jh Ah Th Kh Qh Jh               | run            | 2     | 150    |

    @MELD-ROYAL-MARRIAGE
    Examples:
      | hand                                        | meld           | count | points |
      | Kh Qh                                       | royal_marriage | 1     | 4      |

    @MELD-MARRIAGE
    Examples:
      | hand                                        | meld           | count | points |
      | Ks Qs                                       | marriage       | 1     | 2      |
      | Kc Kc Kc Qc Qc Qc                           | marriage       | 3     | 6      |

    @MELD-PINOCHLE
    Examples:
      | hand                                        | meld           | count | points |
      | Qs Jd                                       | pinochle       | 1     | 4      |
      | Qs Qs Jd Jd                                 | pinochle       | 2     | 30     |

    @MELD-AROUNDS
    Examples:
      | hand                                        | meld           | count | points |
      | As Ah Ad Ac                                 | aces_around    | 1     | 10     |
      | As As As As Ah Ah Ah Ah Ad Ad Ad Ad Ac Ac Ac Ac | aces_around | 4     | 200    |
      | Ks Kh Kd Kc                                 | kings_around   | 1     | 8      |
      | Qs Qh Qd Qc                                 | queens_around  | 1     | 6      |
      | Js Jh Jd Jc                                 | jacks_around   | 1     | 4      |

  @MELD-RUN @negative @double-deck
  Scenario: A run outside trumps is worth only its marriage
    Given spades are trump
    And seat 1 holds "Ah Th Kh Qh Jh"
    When the meld is counted
    Then the meld total is 2
    And the meld includes 1 marriage in hearts worth 2
    And the meld has nothing else

  @MELD-TENS-AROUND @negative @double-deck
  Scenario: Tens around score nothing
    Given seat 1 holds "Ts Th Td Tc Ts Th Td Tc"
    When the meld is counted
    Then the meld total is 0
    And the meld has nothing else

  @MELD-TYPES @uses:MELD-MARRIAGE @negative @double-deck
  Scenario: A king with two queens is one marriage, not two
    Given seat 1 holds "Ks Qs Qs"
    When the meld is counted
    Then the meld total is 2
    And the meld includes 1 marriage in spades worth 2
    And the meld has nothing else

  @MELD-TYPES @double-deck
  Scenario: One queen of spades serves a marriage, a pinochle and queens around at once
    Given seat 1 holds "Ks Qs Jd Qh Qd Qc"
    When the meld is counted
    Then the meld total is 12
    And the meld includes 1 marriage in spades worth 2
    And the meld includes 1 pinochle worth 4
    And the meld includes 1 queens_around worth 6
    And the meld has nothing else

  @MELD-ROUNDHOUSE @uses:MELD-ROYAL-MARRIAGE @double-deck
  Scenario Outline: Glossary totals: <name>
    Given seat 1 holds "<hand>"
    When the meld is counted
    Then the meld total is <total>

    Examples:
      | name                  | hand                                | total |
      | roundhouse            | Ks Qs Kh Qh Kd Qd Kc Qc             | 24    |
      | run and a roundhouse  | Ah Th Kh Qh Jh Ks Qs Kd Qd Kc Qc    | 36    |
      | twenty-pounder        | Ah Th Kh Kh Qh Qh Jh                | 20    |

  @MELD-RUN @uses:MELD-AROUNDS @option:run=15 @option:queens_around=8 @double-deck
  Scenario Outline: House values of the run and of queens around
    Given the option <option> is <value>
    And seat 1 holds "<hand>"
    When the meld is counted
    Then the meld total is <total>

    Examples:
      | option        | value | hand            | total |
      | run           | 15    | Ah Th Kh Qh Jh  | 15    |
      | queens_around | 8     | Qs Qh Qd Qc     | 8     |

  @single-deck @MELD-DIX
  Scenario Outline: Each nine of trumps is a dix
    Given seat 2 holds "<hand>"
    When the meld is counted
    Then the meld total is <points>
    And the meld includes <count> dix in hearts worth <points>
    And the meld has nothing else

    Examples:
      | hand        | count | points |
      | 9h          | 1     | 10     |
      | 9h 9h 9s 9c | 2     | 20     |

  @single-deck @MELD-DIX @negative
  Scenario: A nine of a plain suit is no dix
    Given seat 2 holds "9s 9d 9c"
    When the meld is counted
    Then the meld total is 0
    And the meld has nothing else

  @single-deck @MELD-RUN @uses:MELD-PINOCHLE @uses:MELD-ROYAL-MARRIAGE @option:double_run=1500
  Scenario Outline: The 48-card table: <what>
    Given the option double_run is <double_run>
    And seat 0 holds "<hand>"
    When the meld is counted
    Then the meld total is <total>

    Examples:
      | what                     | double_run | hand                          | total |
      | a run                    | 300        | Ah Th Kh Qh Jh                | 150   |
      | a double run, default    | 300        | Ah Ah Th Th Kh Kh Qh Qh Jh Jh | 300   |
      | a double run, house rule | 1500       | Ah Ah Th Th Kh Kh Qh Qh Jh Jh | 1500  |
      | a double pinochle        | 300        | Qs Qs Jd Jd                   | 300   |
      | a royal marriage         | 300        | Kh Qh                         | 40    |

  @online @MELD-ROYAL-MARRIAGE @negative
  Scenario: Online, a king and queen of trumps beyond the run score nothing by default
    Given seat 3 holds "Ah Th Kh Kh Qh Qh Jh"
    When the meld is counted
    Then the meld total is 150
    And the meld includes 1 run in hearts worth 150
    And the meld has nothing else

  @online @MELD-ROYAL-MARRIAGE @option:extra_trump_kq=on
  Scenario: Online with the extra trump KQ option, they score a royal marriage
    Given the option extra_trump_kq is on
    And seat 3 holds "Ah Th Kh Kh Qh Qh Jh"
    When the meld is counted
    Then the meld total is 190
    And the meld includes 1 run in hearts worth 150
    And the meld includes 1 royal_marriage in hearts worth 40
    And the meld has nothing else
