"""Cases re-based to the house: where an option the engine plays changes the course of a deal,
the derived case is the same deal played the house's way, so that it still reaches the point
where its rule decides (spec/protocol.md, "House rules").

The re-basing rules, each applied only where the engine plays a value other than the case's:

- ``first_bidder``: the dealer moves one seat (to the right under ``left-of-dealer``, to the
  left under ``dealer``), so the same seats make the same calls in the same order;
- ``target``: every score before the hand (or the game) moves by the difference of the targets,
  so each side keeps its margin to the target;
- ``pass_cards``: each ``give`` keeps its first cards when the house passes fewer; when it
  passes more, the giver adds its lowest plain-suit cards (lowest trumps last), first in hand
  order among equals;
- ``throw_in=none``: a ``play-on`` (a decision the house does not have) is left out; when the
  house has a throw-in decision the case does not, ``play-on`` is made where it is due;
- then the hand is replayed by the reference engine under the house's options: a play it refuses
  before the point the case tests (a card the seat no longer holds, or one the house's
  obligations forbid) is replaced by the legal card nearest to it: the card the seat holds in
  its place after a different pass, else a card of the same suit, nearest in rank, that the seat
  is not due to play later; a give it refuses keeps the cards the giver still holds.

Nothing here knows the rules: every question goes to the reference engine (``Ask``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pinochle_adapters.client import EngineError
from specdata import RANKS, load_variant, option_defaults

from . import methods
from .methods import WHOLE_HANDS as WHOLE_HANDS
from .methods import Shape

Ask = Callable[[str, dict[str, Any]], dict[str, Any]]

TARGET_METHODS = tuple(r.name for r in methods.RECORDS if r.rebase is not None and r.rebase.target)
"""The methods whose cases can decide the game at the target (their records' ``rebase``)."""
MAX_REPAIRS = 24
"""At most this many refused actions are replaced in one hand: past it the deal has left the
case's course and the case is left as re-based so far."""


@dataclass(frozen=True)
class Rebased:
    """A case's request played the house's way."""

    params: dict[str, Any]
    """The request (variant and the options sent included)."""
    changes: tuple[str, ...]
    """What was changed, in words (``dealer 0 -> 3``, ``give 3 of 4 cards``...)."""
    index_map: tuple[dict[int, int], ...] = ()
    """Per hand: the case's action index -> the re-based request's (where they differ)."""


def full_options(variant: str, options: Mapping[str, Any]) -> dict[str, str]:
    """Every option of the variant: ``options`` over the defaults."""
    return {**option_defaults(variant), **{k: str(v) for k, v in options.items()}}


def _game(variant: str, options: Mapping[str, str]) -> tuple[int | None, int | None]:
    """The target and the bid-to-win threshold under ``options``."""
    try:
        game = load_variant(variant).rules_under(options).get("game", {})
    except KeyError:
        return None, None
    target, threshold = game.get("target"), game.get("bid_to_win")
    return (
        target if isinstance(target, int) else None,
        threshold if isinstance(threshold, int) else None,
    )


def moved_scores(
    scores: Sequence[int], delta: int, own_threshold: int | None, house_threshold: int | None
) -> list[int]:
    """Scores moved by the difference of targets, each kept on its side of the bid-to-win
    threshold (a score under it stays under, at the threshold less one; one at or over it stays
    at or over it), so bid-to-win is in force in the same hands."""
    moved = []
    for score in scores:
        new = score + delta
        if own_threshold is not None and house_threshold is not None:
            if score < own_threshold:
                new = min(new, house_threshold - 1)
            else:
                new = max(new, house_threshold)
        moved.append(new)
    return moved


def _pass_count(variant: str, options: Mapping[str, str]) -> int | None:
    try:
        count = load_variant(variant).rules_under(options).get("passing", {}).get("cards")
    except KeyError:
        return None
    return count if isinstance(count, int) else None


def _seat_shift(own: Mapping[str, str], house: Mapping[str, str]) -> int:
    mine, theirs = own.get("first_bidder"), house.get("first_bidder")
    if mine == theirs or mine is None or theirs is None:
        return 0
    return -1 if theirs == "left-of-dealer" else 1


def rebase(
    ask: Ask,
    method: str,
    variant: str,
    own: Mapping[str, str],
    house: Mapping[str, str],
    request: Mapping[str, Any],
    own_answer: Mapping[str, Any] | None,
) -> Rebased | None:
    """``request`` (the case's input under the options sent) played the house's way; None when
    no option the engine plays changes this case's course. ``own`` and ``house`` are every
    option's value (the case's, the engine's); ``own_answer`` the reference engine's answer to
    the case as written (where the case stops)."""
    plan = methods.method(method).rebase
    if plan is None:
        return None
    params = {k: v for k, v in request.items()}
    changes: list[str] = []
    shift = _seat_shift(own, house)
    if shift and "dealer" in params and plan.dealer:
        dealer = int(params["dealer"])
        params["dealer"] = (dealer + shift) % 4
        changes.append(
            f"dealer {dealer} -> {params['dealer']} (first_bidder={house['first_bidder']})"
        )
    (own_target, own_threshold), (house_target, threshold) = (
        _game(variant, own),
        _game(variant, house),
    )
    if (
        own_target is not None
        and house_target is not None
        and own_target != house_target
        and plan.target
        and house.get("rounds", "off") == "off"
    ):
        delta = house_target - own_target
        before = list(params.get("scores") or [0, 0])
        params["scores"] = moved_scores(before, delta, own_threshold, threshold)
        changes.append(
            f"scores {before} -> {params['scores']} (target {own_target} -> {house_target})"
        )
    rounds = house.get("rounds", "off")
    numbered = plan.numbered and "hand" not in params
    if rounds != "off" and own.get("rounds", "off") == "off" and numbered:
        params["hand"] = 1
        changes.append(f"hand 1 of the house's {rounds} rounds")
    if plan.replay == "hand":
        hand, index_map, more = _rebase_hand(ask, variant, own, house, params, own_answer)
        params.update(hand)
        changes += more
        return Rebased(params, tuple(changes), (index_map,)) if changes else None
    if plan.replay == "game":
        return _rebase_game(ask, variant, own, house, params, own_answer, changes)
    return Rebased(params, tuple(changes)) if changes else None


# --- whole hands ------------------------------------------------------------------------------


def _split(action: str) -> tuple[str, str]:
    """``(prefix, action)``: a claimed seat's ``seat N: `` prefix kept apart."""
    if action.startswith("seat ") and ": " in action:
        head, _, rest = action.partition(": ")
        return head + ": ", rest
    return "", action


def _resize_give(cards: list[str], want: int, held: Counter[str], trump: str | None) -> list[str]:
    """The first ``want`` cards of a give that the giver holds; when it passes more, its lowest
    plain-suit cards added (lowest trumps last)."""
    kept: list[str] = []
    pool = Counter(held)
    for card in cards:
        if len(kept) < want and pool[card] > 0:
            kept.append(card)
            pool[card] -= 1
    # RANKS runs high to low: the highest index is the lowest card.
    spare = sorted(pool.elements(), key=lambda c: (c[1] == trump, -RANKS.index(c[0])))
    return kept + spare[: max(want - len(kept), 0)]


def _hand_state(
    hands: Sequence[Sequence[str]], actions: Sequence[str], answer: Mapping[str, Any]
) -> tuple[list[Counter[str]], list[str], int | None]:
    """What each seat holds, the cards of the trick in progress and the seat to play, after
    ``actions`` (all accepted), read from the reference engine's answer to them."""
    held = [Counter(h) for h in hands]
    bidder = answer.get("bidder")
    gives = [a for a in (_split(x)[1] for x in actions) if a.startswith("give ")]
    if bidder is not None:
        for n, give in enumerate(gives[:2]):
            giver = (bidder + 2) % 4 if n == 0 else bidder
            taker = bidder if n == 0 else (bidder + 2) % 4
            for card in give.split()[1:]:
                held[giver][card] -= 1
                held[taker][card] += 1
    tricks = answer.get("tricks") or []
    for trick in tricks:
        for j, card in enumerate(trick["cards"]):
            held[(trick["leader"] + j) % 4][card] -= 1
    plays = [a.split()[1] for a in (_split(x)[1] for x in actions) if a.startswith("play ")]
    current = plays[4 * len(tricks) :]
    leader = tricks[-1]["winner"] if tricks else bidder
    if leader is None:
        return held, current, None
    for j, card in enumerate(current):
        held[(leader + j) % 4][card] -= 1
    return [+h for h in held], current, (leader + len(current)) % 4


def _nearest(card: str, choices: Sequence[str], spare: Counter[str]) -> str:
    """The legal card nearest ``card``: one the seat is not due to play later first, then the
    same suit, then the nearest rank."""

    def distance(c: str) -> tuple[int, int, int]:
        rank = abs(RANKS.index(c[0]) - RANKS.index(card[0])) if c[0] in RANKS else 9
        return (0 if spare[c] > 0 else 1, 0 if c[1] == card[1] else 1, rank)

    return min(choices, key=distance)


def _stop_of(answer: Mapping[str, Any] | None) -> tuple[int | None, str | None]:
    illegal = (answer or {}).get("first_illegal")
    if isinstance(illegal, Mapping):
        return illegal.get("index"), illegal.get("rule")
    return None, None


def _rebase_hand(
    ask: Ask,
    variant: str,
    own: Mapping[str, str],
    house: Mapping[str, str],
    params: dict[str, Any],
    own_answer: Mapping[str, Any] | None,
) -> tuple[dict[str, Any], dict[int, int], list[str]]:
    """The actions of one hand played the house's way (``rebase``); also the index map and the
    changes in words."""
    changes: list[str] = []
    hands = [list(h) for h in params["hands"]]
    actions = list(params["actions"])
    index_map = {i: i for i in range(len(actions))}
    own_count, house_count = _pass_count(variant, own), _pass_count(variant, house)
    own_stop, _ = _stop_of(own_answer)
    if own_count is not None and house_count is not None and own_count != house_count:
        resized = 0
        for i, action in enumerate(actions):
            prefix, bare = _split(action)
            if bare.startswith("give ") and (own_stop is None or i < own_stop):
                cards = bare.split()[1:]
                if len(cards) == own_count and house_count:
                    resized += 1
                    actions[i] = prefix + "give " + " ".join(cards[:house_count])
        if resized:
            changes.append(f"give {house_count} of the case's {own_count} cards")
    if house.get("throw_in") == "none" and own.get("throw_in", "none") != "none":
        kept: list[str] = []
        new_map: dict[int, int] = {}
        dropped = 0
        for i, action in enumerate(actions):
            if _split(action)[1] == "play-on":
                dropped += 1
                continue
            new_map[i] = len(kept)
            kept.append(action)
        if dropped:
            actions, index_map = kept, new_map
            changes.append("play-on left out (throw_in=none)")
    request = {**params, "actions": actions}
    # Replay under the house's options, mending what it refuses before the case's own stop.
    target = index_map.get(own_stop) if own_stop is not None else None
    mended: dict[str, int] = {}
    for _ in range(MAX_REPAIRS):
        try:
            answer = ask("play_hand", request)
        except EngineError:  # a request the reference refuses is left as it is
            break
        index, rule = _stop_of(answer)
        if index is None or rule is None or (target is not None and index >= target):
            break
        edit = _mend(ask, variant, hands, actions, index, rule, request, house_count)
        if edit is None:
            break
        how, action = edit
        if how == "replace":
            actions[index] = action
        elif how == "insert":
            actions.insert(index, action)
            index_map = {k: (v + 1 if v >= index else v) for k, v in index_map.items()}
        else:
            del actions[index]
            index_map = {k: (v - 1 if v > index else v) for k, v in index_map.items() if v != index}
        target = index_map.get(own_stop) if own_stop is not None else None
        mended[MENDED[how]] = mended.get(MENDED[how], 0) + 1
        request = {**request, "actions": actions}
    changes += [f"{n} {what}" for what, n in mended.items()]
    moved = {k: v for k, v in index_map.items() if k != v}
    return {"actions": actions}, moved, changes


MENDED = {
    "replace": "refused action(s) replaced by the nearest legal one",
    "insert": "action(s) the house's course needs made where due (a pass, a give, play-on)",
    "drop": "action(s) the house's course has no place for left out",
}
"""How the mended actions are counted in a re-based case's changes."""


def _mend(
    ask: Ask,
    variant: str,
    hands: Sequence[Sequence[str]],
    actions: Sequence[str],
    index: int,
    rule: str,
    request: Mapping[str, Any],
    pass_count: int | None,
) -> tuple[str, str] | None:
    """How to mend ``actions[index]``, which the house refuses under ``rule``: ``("replace",
    action)``, ``("insert", action)`` before it, or ``("drop", "")``; None when nothing fits.

    A play refused because the house's throw-in decision is due gets ``play-on`` first; a call
    refused because the house's auction is already over is left out, and a trump call refused
    because it is not (``auction_end=four-passes``) gets the high bidder's pass first; a give
    the house has no place for is left out, and a play refused because the house's passing is
    due gets the give first (the giver's lowest plain cards)."""
    prefix, bare = _split(actions[index])
    if rule == "SCORE-THROW-IN" and bare.startswith("play "):
        return ("insert", "play-on")
    if rule == "AUCTION-END" and (bare == "pass" or bare.startswith("bid ")):
        return ("drop", "")
    before = list(actions[:index])
    try:
        state = ask("play_hand", {**request, "actions": before})
    except EngineError:
        return None
    if rule == "TRUMP-CALL" and bare.startswith("trump ") and state.get("bidder") is None:
        return ("insert", "pass")
    held, trick, seat = _hand_state(hands, before, state)
    giver = _giver(before, state)
    passing = state.get("trump") is not None and state.get("tricks") is None and pass_count
    gives = sum(1 for a in before if _split(a)[1].startswith("give "))
    if bare.startswith("give ") and (not pass_count or gives >= 2):
        return ("drop", "")
    if passing and gives < 2 and not bare.startswith("give ") and giver is not None:
        made = _resize_give([], int(pass_count or 0), held[giver], state.get("trump"))
        return ("insert", "give " + " ".join(made))
    if bare.startswith("give "):
        if giver is None or pass_count is None:
            return None
        given = bare.split()[1:]
        cards = _resize_give(given, pass_count, held[giver], state.get("trump"))
        return None if cards == given else ("replace", prefix + "give " + " ".join(cards))
    if not bare.startswith("play ") or seat is None:
        return None
    try:
        legal = ask(
            "legal_plays",
            {
                "variant": variant,
                "options": request.get("options", {}),
                "hand": sorted(held[seat].elements()),
                "trick": trick,
                "trump": state.get("trump"),
            },
        )["cards"]
    except EngineError:
        return None
    if not legal:
        return None
    later = Counter(
        a.split()[1] for a in (_split(x)[1] for x in actions[index + 1 :]) if a.startswith("play ")
    )
    choice = _nearest(bare.split()[1], legal, held[seat] - later)
    return None if choice == bare.split()[1] else ("replace", prefix + "play " + choice)


def _giver(actions: Sequence[str], answer: Mapping[str, Any]) -> int | None:
    """Who gives next: the bidder's partner first, then the bidder."""
    bidder = answer.get("bidder")
    if bidder is None:
        return None
    gives = sum(1 for a in actions if _split(a)[1].startswith("give "))
    return (int(bidder) + 2) % 4 if gives == 0 else int(bidder)


def _rebase_game(
    ask: Ask,
    variant: str,
    own: Mapping[str, str],
    house: Mapping[str, str],
    params: dict[str, Any],
    own_answer: Mapping[str, Any] | None,
    changes: list[str],
) -> Rebased | None:
    """Each hand of a game re-based in turn, from the scores the previous one left."""
    illegal = (own_answer or {}).get("first_illegal")
    stop_hand = illegal.get("hand") if isinstance(illegal, Mapping) else None
    stop_index = illegal.get("index") if isinstance(illegal, Mapping) else None
    scores = list(params.get("scores") or [0, 0])
    dealer = int(params["dealer"])
    all_actions: list[list[str]] = []
    maps: list[dict[int, int]] = []
    for k, (deal, actions) in enumerate(zip(params["hands"], params["actions"], strict=False)):
        first = {"index": stop_index, "rule": None} if k == stop_hand else None
        hand_params = {
            "variant": variant,
            "options": params.get("options", {}),
            "dealer": (dealer + k) % 4,
            "scores": scores,
            "hands": deal,
            "actions": list(actions),
            "hand": k + 1,
        }
        if house.get("rounds", "off") == "off":
            hand_params.pop("hand")
        done, index_map, more = _rebase_hand(
            ask, variant, own, house, hand_params, {"first_illegal": first} if first else None
        )
        all_actions.append(done["actions"])
        maps.append(index_map)
        changes += [f"hand {k}: {c}" for c in more]
        try:
            answer = ask("play_hand", {**hand_params, "actions": done["actions"]})
        except EngineError:
            answer = {}
        if not answer.get("complete"):
            all_actions += [list(a) for a in params["actions"][k + 1 :]]
            maps += [{} for _ in params["actions"][k + 1 :]]
            break
        scores = list(answer.get("scores") or scores)
    if not changes:
        return None
    return Rebased({**params, "actions": all_actions}, tuple(changes), tuple(maps))


def settled(
    variant: str,
    own: Mapping[str, str],
    house: Mapping[str, str],
    own_answer: Mapping[str, Any],
    rebased: Rebased,
    answer: Mapping[str, Any],
) -> Rebased | None:
    """A re-based whole hand (or game) whose scores before it are moved once more so that the
    scores after it keep the case's margins to the target: played the house's way a hand scores
    differently, and a game-end case is about where the scores end. None when either did not
    play to its end."""
    if not (own_answer.get("scores") and answer.get("scores")):
        return None
    (own_target, _), (house_target, _) = _game(variant, own), _game(variant, house)
    if own_target is None or house_target is None:
        return None
    before = list(rebased.params.get("scores") or [0, 0])
    gained = [a - b for a, b in zip(answer["scores"], before, strict=True)]
    want = [s + house_target - own_target for s in own_answer["scores"]]
    scores = [w - g for w, g in zip(want, gained, strict=True)]
    if scores == before:
        return None
    change = f"scores before {before} -> {scores} (the same scores after the hand, to the target)"
    return Rebased(
        {**rebased.params, "scores": scores}, (*rebased.changes, change), rebased.index_map
    )


# --- reach ------------------------------------------------------------------------------------


def stop_point(
    method: str,
    answer: Mapping[str, Any] | None,
    index_map: Sequence[dict[int, int]] = (),
    rule: str = "",
) -> tuple[Any, ...]:
    """Where an answer says the question stopped and what it decided there: two answers with the
    same stop point reached the same point of the case (the refusal it tests, the end of the
    hand, the game's decision for a GAME-* case). ``index_map`` maps a case's action indexes to
    the re-based request's (so the case's own answer is read in the re-based indexes)."""
    a = answer or {}
    game = a.get("game_winner") if rule.startswith("GAME-") else None
    return STOPS[methods.method(method).shape](method, a, _Mapped(index_map), game)


class _Mapped:
    """A case's action index read in the re-based request's indexes (hand by hand)."""

    def __init__(self, index_map: Sequence[dict[int, int]]) -> None:
        self.index_map = index_map

    def __call__(self, hand: int, index: Any) -> Any:
        if isinstance(index, int) and hand < len(self.index_map):
            return self.index_map[hand].get(index, index)
        return index


Stop = Callable[[str, Mapping[str, Any], _Mapped, Any], tuple[Any, ...]]
"""Where an answer of one shape stops: from the method, the answer, the index map and, for a
GAME-* case, the game's winner."""


def _asked(method: str, a: Mapping[str, Any], mapped: _Mapped, game: Any) -> tuple[Any, ...]:
    """A question answered at one point stops where it is asked."""
    return (method,)


def _auction_stop(method: str, a: Mapping[str, Any], mapped: _Mapped, game: Any) -> tuple[Any, ...]:
    violation = a.get("violation")
    refused = violation.get("rule") if isinstance(violation, Mapping) else None
    return ("auction", a.get("legal"), refused, a.get("complete"))


def _score_stop(method: str, a: Mapping[str, Any], mapped: _Mapped, game: Any) -> tuple[Any, ...]:
    return ("score", a.get("made"), game)


def _tricks_stop(method: str, a: Mapping[str, Any], mapped: _Mapped, game: Any) -> tuple[Any, ...]:
    index, refused = _stop_of(a)
    return ("tricks", refused, index)


def _hand_stop(method: str, a: Mapping[str, Any], mapped: _Mapped, game: Any) -> tuple[Any, ...]:
    index, refused = _stop_of(a)
    return ("hand", refused, mapped(0, index), a.get("complete"), a.get("outcome"), game)


def _game_stop(method: str, a: Mapping[str, Any], mapped: _Mapped, game: Any) -> tuple[Any, ...]:
    illegal = a.get("first_illegal")
    stop = None
    if isinstance(illegal, Mapping):
        hand = illegal.get("hand") or 0
        stop = (hand, illegal.get("rule"), mapped(hand, illegal.get("index")))
    return ("game", stop, len(a.get("hands") or []), game)


STOPS: dict[Shape, Stop] = {
    "one": _asked,
    "meld": _asked,
    "legal_plays": _asked,
    "winner": _asked,
    "points": _asked,
    "auction": _auction_stop,
    "score": _score_stop,
    "tricks": _tricks_stop,
    "hand": _hand_stop,
    "game": _game_stop,
}
"""Where an answer of each shape (``methods.Shape``) says its question stopped."""
