"""What an engine's declared options allow it, read from the variant files: the ``score_hand``
figures it may refuse (ERRATA-SCORE-HAND-INPUTS, one closed list for the suite and the fuzzer)
and the rules its options switch off (no case of theirs can reach where they decide).

Plain data in, plain answers out: the rules are read as ``Variant.rules_under`` gives them
(``rules_read``: read-only, made once per variant and options), so
the runner (which never imports the rules) and the fuzzer share one list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .variants import option_defaults, rules_read

RULES_OFF: dict[tuple[str, str], tuple[str, ...]] = {
    ("first_bidder", "left-of-dealer"): ("AUCTION-DEALER-OPENS",),
    ("first_bidder", "dealer"): ("AUCTION-DEALER-FORCED",),
    ("trick_rules", "pre-1945"): ("PLAY-POST-1945",),
    ("trick_rules", "post-1945"): ("PLAY-OVERTRUMP",),
    ("trumped_trick", "beat-led"): ("PLAY-TRUMPED-TRICK",),
    ("throw_in", "none"): ("SCORE-THROW-IN",),
    ("bid_to_win", "off"): ("GAME-BID-TO-WIN",),
    ("rounds", "off"): ("GAME-ROUNDS",),
    ("rounds", "3"): ("GAME-TARGET", "GAME-BOTH-REACH"),
    ("rounds", "5"): ("GAME-TARGET", "GAME-BOTH-REACH"),
    ("rounds", "10"): ("GAME-TARGET", "GAME-BOTH-REACH"),
    ("pass_cards", "0"): ("PASS-CARDS",),
}
"""(option, value) -> the rules that value switches off (spec/rules, each rule's Options
bullet): an engine playing it never decides by them, so no case of theirs reaches them."""


def rules_off(variant: str, options: Mapping[str, Any]) -> set[str]:
    """The rules the options (the others at their defaults) switch off in ``variant``."""
    chosen = {**option_defaults(variant), **{k: str(v) for k, v in options.items()}}
    return {rule for pair in chosen.items() for rule in RULES_OFF.get(pair, ())}


def _step_ok(contract: int, auction: Mapping[str, Any], target: int) -> bool:
    """Whether a contract keeps to the bid steps and under any ceiling (AUCTION-STEP)."""
    maximum = target if auction.get("maximum") == "target" else auction.get("maximum")
    if contract % auction["unit"] or (maximum is not None and contract > maximum):
        return False
    above = auction.get("unit_above")
    return not (above and contract > above["threshold"] and contract % above["unit"])


def score_outcomes(variant: str, options: Mapping[str, Any] | None = None) -> list[str]:
    """The outcomes a hand can have (ERRATA-SCORE-HAND-INPUTS, item 2): ``no_marriage`` and
    ``meld_short`` in double-deck only, ``thrown_in`` where a throw-in is played (not
    single-deck, not double-deck ``throw_in=none``)."""
    rules = rules_read(variant, {k: str(v) for k, v in (options or {}).items()})
    found = ["played"]
    if rules["scoring"]["throw_in"] != "none" and variant != "single-deck":
        found.append("thrown_in")
    if variant == "double-deck":
        found += ["meld_short", "no_marriage"]
    return found


def total_card_points(rules: Mapping[str, Any]) -> int:
    """The card points of a whole hand, last-trick bonus included (POINTS-TOTAL)."""
    deck = rules["deck"]
    per_suit = sum(int(rules["card_points"].get(rank, 0)) for rank in deck["ranks"])
    return 4 * int(deck["copies"]) * per_suit + int(rules["last_trick"])


def refusable(variant: str, options: Mapping[str, Any], figures: Mapping[str, Any]) -> str | None:
    """Which item of the closed list of ERRATA-SCORE-HAND-INPUTS these ``score_hand`` figures
    fall under under ``options`` (an engine may refuse them or score them, so neither the suite
    nor the fuzzer asks them), or None."""
    chosen = {k: str(v) for k, v in options.items()}
    rules = rules_read(variant, chosen)
    game, auction = rules["game"], rules["auction"]
    contract, outcome = figures["contract"], figures["outcome"]
    bid_meld = figures["meld"][figures["bidder_team"]]
    if contract < auction["minimum"] or not _step_ok(contract, auction, game["target"]):
        return "1: a contract the auction cannot produce"
    if outcome not in score_outcomes(variant, chosen):
        return "2: an outcome the variant does not have"
    minimum = rules["meld"]["minimum"]
    if variant == "double-deck":
        short = bid_meld < minimum
        if (outcome in ("played", "thrown_in") and short) or (
            outcome == "meld_short" and not short
        ):
            return "3: an outcome the bidders' meld rules out"
    total = total_card_points(rules)
    if rules["scoring"]["forced_throw_in"] and outcome == "played" and contract - bid_meld > total:
        return "3: a played hand that must have been thrown in"
    tricks, won = figures["tricks"], figures["tricks_won"]
    if outcome == "played":
        if sum(tricks) != total or sum(won) != rules["hand_size"]:
            return "4: trick figures that do not add up"
        if any(w == 0 and t for t, w in zip(tricks, won, strict=True)):
            return "4: card points without a trick"
    elif any(tricks) or any(won):
        return "4: trick figures in a hand not played"
    scores = figures["scores"]
    if past_target_refusable(variant, rules) and max(scores) >= game["target"]:
        return "5: a team already at the target before the hand"
    limit = game.get("negative_loss")
    if variant == "single-deck" and limit is not None and min(scores) <= limit:
        return "5: a team already at or below the losing limit before the hand"
    if game.get("rounds") and "hand" not in figures:
        return "6: no hand number"
    return None


def past_target_refusable(variant: str, rules: Mapping[str, Any]) -> bool:
    """Whether a side standing at or past the target before a hand is a state the game cannot
    reach (ERRATA-SCORE-HAND-INPUTS, item 5): single-deck; online without ``rounds``; double-deck
    where bid-to-win cannot hold a side back (``bid_to_win=off``, or a target at or below the
    bid-to-win threshold: both sides over the threshold would already have ended the game)."""
    game = rules["game"]
    if variant == "double-deck":
        threshold = game.get("bid_to_win")
        return threshold is None or game["target"] <= threshold
    return not game.get("rounds")
