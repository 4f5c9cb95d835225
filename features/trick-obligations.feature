Feature: Trick obligations
  Which cards a hand may play to a trick (source 000, "The Play"; 002 "Trick Taking"). Pre-1945
  rules (the default): follow suit and crawl, that is beat the winning card when you can; void in
  the suit led, trump and over-trump when you can; void in both, play anything. Post-1945 rules:
  beating is required only when trumps were led.

  Background:
    Given spades are trump

  @double-deck @PLAY-LEAD
  Scenario: Any card may lead a trick
    Given seat 1 holds "Ah Ks Qd Jc"
    When seat 1 is to lead
    Then the legal plays are "Ah Ks Qd Jc"

  @double-deck
  Scenario Outline: Pre-1945 obligations: <situation>
    Given seat 2 holds "<hand>"
    When the trick so far is "<trick>"
    Then the legal plays are "<legal>"

    @PLAY-CRAWL
    Examples:
      | situation                                    | hand           | trick | legal   |
      | crawl: beat the king of hearts               | Ah Th Qh Jh Ks | Kh    | Ah Th   |
      | crawl over a partner's card too              | Ah Th Jh As    | Kh Qh | Ah Th   |
      | an identical ten does not beat the ten       | Th Ah Qh       | Th    | Ah      |

    @PLAY-FOLLOW
    Examples:
      | situation                                    | hand           | trick | legal   |
      | cannot crawl: follow with any heart          | Th Qh Ks       | Ah    | Th Qh   |

    @PLAY-TRUMPED-TRICK
    Examples:
      | situation                                    | hand           | trick | legal   |
      | trumped already: any heart                   | Ah Qh Ts       | Kh Js | Ah Qh   |

    @PLAY-TRUMP-VOID
    Examples:
      | situation                                    | hand           | trick | legal   |
      | void in hearts: trump                        | Js Ts Ac       | Kh    | Js Ts   |

    @PLAY-OVERTRUMP
    Examples:
      | situation                                    | hand           | trick | legal   |
      | void in hearts: over-trump                   | As Js Ac       | Kh Ts | As      |

    @PLAY-TRUMP-VOID
    Examples:
      | situation                                    | hand           | trick | legal   |
      | cannot over-trump: still trump               | Ts Js Ac       | Kh As | Ts Js   |

    @PLAY-DISCARD
    Examples:
      | situation                                    | hand           | trick | legal   |
      | void in hearts and trumps: anything          | Ac Qd          | Kh    | Ac Qd   |

    @PLAY-CRAWL
    Examples:
      | situation                                    | hand           | trick | legal   |
      | trumps led: follow and beat                  | As Js Ah       | Ks    | As      |

  @double-deck @PLAY-FOLLOW @uses:PLAY-CRAWL @negative
  Scenario: A player who can follow suit may not trump or discard
    Given seat 3 holds "Jh As Ac"
    When the trick so far is "Kh"
    Then the legal plays are "Jh"

  @double-deck @PLAY-TRUMP-VOID @negative
  Scenario: A player void in the suit led may not discard while holding a trump
    Given seat 3 holds "Js Ac Ad"
    When the trick so far is "Kh Qh"
    Then the legal plays are "Js"

  @double-deck @PLAY-POST-1945 @option:trick_rules=post-1945
  Scenario Outline: Post-1945 obligations: <situation>
    Given the option trick_rules is post-1945
    And seat 2 holds "<hand>"
    When the trick so far is "<trick>"
    Then the legal plays are "<legal>"

    Examples:
      | situation                                  | hand        | trick | legal    |
      | plain suit led: no need to beat            | Ah Qh Ks    | Kh    | Ah Qh    |
      | trumps led: follow and beat                | As Js Ah    | Ks    | As       |
      | void in hearts: any trump, no over-trump   | As Js Ac    | Kh Ts | As Js    |

  @single-deck @PLAY-CRAWL @uses:PLAY-FOLLOW @uses:PLAY-TRUMP-VOID
  Scenario Outline: Single-deck crawl with nines: <situation>
    Given seat 1 holds "<hand>"
    When the trick so far is "<trick>"
    Then the legal plays are "<legal>"

    Examples:
      | situation                       | hand        | trick | legal    |
      | beat the nine                   | Jh 9h Kc    | 9h    | Jh       |
      | void: the nine of trumps        | 9s Ac       | Kh    | 9s       |

  @online @PLAY-OVERTRUMP @uses:PLAY-TRUMP-VOID @negative
  Scenario: Online must-win play: void in the suit led, trump even when it cannot win
    Given seat 1 holds "9s Ks Ac"
    When the trick so far is "Ah Ts"
    Then the legal plays are "Ks 9s"
