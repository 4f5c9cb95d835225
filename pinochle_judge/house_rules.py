"""Which cases an engine's declared house rules leave standing: every case whose hand-worked
answer is unchanged under the options the engine plays runs and is judged as hand-worked.

An engine declaring a single value for an option (its house rule) cannot be asked the default.
A case is not skipped for that alone: it is asked under the engine's own values, and the
reference engine (which plays every option) decides, once per question, whether the hand-worked
answer still holds there. Where it does not, the case is judged against the reference engine's
answer under the engine's options, labelled *derived* and counted apart, or skipped with the
reason when derived expectations are turned off (spec/protocol.md, "House rules").
The suite's skip policy lives here too: which cases an engine's declarations rule out
(``skip_reason``) and which options a request leaves out (``declared_only``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pinochle_adapters.client import EngineError
from specdata import option_defaults, option_methods, option_text
from specdata.house import refusable

from . import wording
from .compare import compare
from .rebase import TARGET_METHODS, WHOLE_HANDS, full_options, rebase, settled, stop_point

Kind = Literal["hand-worked", "derived", "skip"]
HAND_WORKED: Kind = "hand-worked"
DERIVED: Kind = "derived"
SKIP: Kind = "skip"

UNDECLARED = wording.UNDECLARED
"""How the skip reasons of cases of a method or variant the engine does not declare begin."""
HOUSE_SKIP = wording.HOUSE_SKIP
"""How the skip reason of a case whose answer the engine's options change begins."""


def is_undeclared(reason: str) -> bool:
    """Whether a skip reason says the engine does not declare the case's method or variant."""
    return reason.startswith(UNDECLARED)


Ask = Callable[[str, dict[str, Any]], dict[str, Any]]
"""Ask the reference engine one question (method, params) and get its answer."""


@dataclass(frozen=True)
class Plan:
    """How one case is put to the engine: what is sent, what it is judged against, and why."""

    kind: Kind
    params: dict[str, Any]
    """The request's params as sent: the engine's own option values in place of the case's."""
    expect: dict[str, Any] | None = None
    """What the answer is judged against (the hand-worked answer, or the derived one)."""
    reason: str = ""
    """Why a case is skipped; for a derived case, which house rules changed the answer."""
    house: dict[str, str] = field(default_factory=dict)
    """The options the engine plays in place of the case's values (name -> engine's value),
    of those that can change the method's answers (the variant file's ``methods``)."""
    needed: dict[str, str] = field(default_factory=dict)
    """The case's values of those options (name -> value)."""
    reached: bool = True
    """Whether the question, as sent, reaches the point where the case's hand-worked version
    stops (the refusal it tests, the end of the hand, the game's decision): a derived case
    that stops earlier does not judge its rule (``rebase.stop_point``)."""
    rebased: tuple[str, ...] = ()
    """How the request was re-based to the house's course of the deal, in words (``rebase``)."""

    @property
    def house_text(self) -> str:
        """``name=value, ...`` of the options played in place of the case's."""
        return ", ".join(f"{k}={v}" for k, v in sorted(self.house.items()))

    @property
    def needed_text(self) -> str:
        """``name=value, ...`` of the case's values of the options played otherwise."""
        return ", ".join(f"{k}={v}" for k, v in sorted(self.needed.items()))


def declared_options(info: Mapping[str, Any] | None, variant: str) -> dict[str, list[str]] | None:
    """Option name -> values the engine declared for ``variant``; None if it does not play it."""
    for v in (info or {}).get("variants", []):
        if isinstance(v, Mapping) and v.get("id") == variant:
            return {k: [str(x) for x in vals] for k, vals in (v.get("options") or {}).items()}
    return None


def played_options(
    declared: Mapping[str, list[str]], variant: str, wanted: Mapping[str, Any]
) -> tuple[dict[str, str], dict[str, str], dict[str, str], list[str]]:
    """What the engine plays when a case wants ``wanted`` (the case's options, the rest at the
    variant's defaults): the options to send, the house values played in place of the case's,
    and the options the case needs that the engine neither declares nor plays.

    An option the engine does not declare is played at the default and left out of the request;
    one it declares is played at the wanted value when listed, else at its first declared value
    (its house rule). Also returns the case's values of the options played otherwise."""
    defaults = option_defaults(variant)
    sent: dict[str, str] = {}
    house: dict[str, str] = {}
    needed: dict[str, str] = {}
    unplayable: list[str] = []
    names = list(defaults) + [n for n in wanted if n not in defaults]
    for name in names:
        want = str(wanted.get(name, defaults.get(name, "")))
        values = declared.get(name)
        if values is None:
            if name in defaults and want != defaults[name]:
                house[name], needed[name] = defaults[name], want  # it plays the default
            elif name not in defaults:
                unplayable.append(f"{name}={want}")
            continue
        if want in values:
            played = want
        else:
            played = values[0]
            house[name], needed[name] = played, want
        if name in wanted or played != defaults.get(name):
            sent[name] = played
    return sent, house, needed, unplayable


def declared_only(info: Mapping[str, Any] | None, params: dict[str, Any]) -> dict[str, Any]:
    """``params`` without the options the engine did not declare but plays by default.

    An omitted option means the variant's default (spec/protocol.md, "Capabilities"), so a
    case that spells a default out runs on an engine that declares no such option.
    """
    options = params.get("options")
    if not info or not isinstance(options, dict) or not options:
        return params
    declared = declared_options(info, str(params.get("variant")))
    if declared is None:
        return params
    kept = {k: v for k, v in options.items() if k in declared}
    return params if len(kept) == len(options) else {**params, "options": kept}


def skip_reason(
    info: Mapping[str, Any] | None, method: str, variant: str, options: Mapping[str, Any]
) -> str | None:
    """Why a case must be skipped: a method, variant or option value the engine does not play.

    An option the engine does not declare is played at the variant's default; an option it
    declares plays only the values it lists (one value: its house rule, so a case needing the
    default is skipped as ``engine plays name=value``), where the option can change the
    method's answers (the variant file's ``methods``). None when the engine plays it all, and
    also when the engine could not be initialised (``info`` None: then the call raises
    EngineError and the case is errored, not skipped).
    """
    if not info:
        return None
    if method not in info.get("methods", []):
        return wording.no_method(method)
    declared = declared_options(info, variant)
    if declared is None:
        return wording.no_variant(variant)
    defaults = option_defaults(variant)
    # A house rule needs the default's cases skipped only where it can change the answer.
    affects = option_methods(variant)
    wanted = {
        name: defaults[name]
        for name in declared
        if name in defaults and method in affects.get(name, (method,))
    }
    wanted.update({k: option_text(v) for k, v in options.items()})
    for name, value in wanted.items():
        values = declared.get(name)
        if values is None:
            if value == defaults.get(name, value):
                continue  # omitted option = the variant's default
            return wording.option_undeclared([f"{name}={value}"])
        if value not in values:
            if len(values) == 1:
                return wording.house_played(f"{name}={values[0]}", f"{name}={value}")
            return wording.option_undeclared([f"{name}={value}"])
    return None


UNCOMPARED = ("message",)
"""Fields of an object the reference engine gives that a derived expectation leaves out unless
the hand-worked one names them: free text."""
UNCOMPARED_IN = {"melds": ("message", "cards")}
"""The same, per answer field: the cards of a meld entry are compared only where the hand-worked
entries give them."""


def derived_expectation(expect: Mapping[str, Any], answer: Mapping[str, Any]) -> dict[str, Any]:
    """The reference engine's answer cut to the fields (and, in objects and lists of objects, the
    keys) the hand-worked expectation names: what a derived case is judged on."""

    def cut(left_out: tuple[str, ...], want: Any, got: Any) -> Any:
        if isinstance(got, Mapping):
            if isinstance(want, Mapping):
                return {k: cut(left_out, want[k], got[k]) for k in want if k in got}
            return {k: v for k, v in got.items() if k not in left_out}
        if isinstance(want, list) and isinstance(got, list):
            keys = {k for w in want if isinstance(w, Mapping) for k in w}
            if all(isinstance(g, Mapping) for g in got):
                return [
                    {k: v for k, v in g.items() if (k in keys if keys else k not in left_out)}
                    for g in got
                ]
        return got

    return {
        k: cut(UNCOMPARED_IN.get(k, UNCOMPARED), v, answer[k])
        for k, v in expect.items()
        if k in answer
    }


class HouseRules:
    """The decisions for one run and one engine, each question asked of the reference at most
    once (the cache is keyed by the exact request)."""

    def __init__(self, info: Mapping[str, Any] | None, reference: Ask, derived: bool) -> None:
        self.info = info
        self.reference = reference
        self.derived = derived
        self._answers: dict[str, dict[str, Any] | EngineError] = {}
        self._plays: dict[
            tuple[object, ...],
            tuple[dict[str, str], dict[str, str], dict[str, str], list[str]] | None,
        ] = {}

    def _ask_reference(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        key = json.dumps([method, params], sort_keys=True)
        if key not in self._answers:
            try:
                self._answers[key] = self.reference(method, params)
            except EngineError as e:
                self._answers[key] = e
        found = self._answers[key]
        return None if isinstance(found, EngineError) else found

    def _prepare(
        self,
        method: str,
        variant: str,
        options: Mapping[str, Any],
        params: Mapping[str, Any],
        expect: dict[str, Any] | None = None,
    ) -> Plan:
        """The request under the engine's options, judged against ``expect``; a skip plan when
        nothing can be sent."""
        info = self.info or {}
        if method not in info.get("methods", []):
            return Plan(SKIP, dict(params), expect, wording.no_method(method))
        played = self._played(variant, options)
        if played is None:
            return Plan(SKIP, dict(params), expect, wording.no_variant(variant))
        sent, house, needed, unplayable = played
        request = {"variant": variant, "options": sent, **params}
        if unplayable:
            return Plan(SKIP, request, expect, wording.option_undeclared(unplayable))
        if house:  # only the options that can change this method's answers concern the case
            scope = option_methods(variant)
            house = {k: v for k, v in house.items() if method in scope.get(k, (method,))}
            needed = {k: v for k, v in needed.items() if k in house}
        return Plan(HAND_WORKED, request, expect, house=house, needed=needed)

    def _played(
        self, variant: str, options: Mapping[str, Any]
    ) -> tuple[dict[str, str], dict[str, str], dict[str, str], list[str]] | None:
        """``played_options`` for the engine's declaration of ``variant`` (None: it does not
        play it), worked out once per variant and options and handed out as fresh copies."""
        key: tuple[object, ...] = (variant, *options.items())
        try:
            found = self._plays[key]
        except (KeyError, TypeError):  # not worked out yet, or an unhashable option value
            declared = declared_options(self.info, variant)
            found = None if declared is None else played_options(declared, variant, options)
            with contextlib.suppress(TypeError):
                self._plays[key] = found
        if found is None:
            return None
        sent, house, needed, unplayable = found
        return dict(sent), dict(house), dict(needed), list(unplayable)

    def plan_case(
        self,
        method: str,
        variant: str,
        options: Mapping[str, Any],
        params: Mapping[str, Any],
        expect: dict[str, Any],
        rule: str = "",
    ) -> Plan:
        """How a table case with a hand-worked ``expect`` is judged on this engine (``rule``: the
        rule it tests, which says what its stop point decides: ``rebase.stop_point``)."""
        plan = self._prepare(method, variant, options, params, expect)
        if plan.kind == SKIP or not plan.house:
            return plan
        answer = self._ask_reference(method, plan.params)
        if answer is None and not self.derived:
            return self._unjudged(plan, wording.REFERENCE_REFUSES)
        refused = self._refusable(method, variant, plan.params)
        at_target = self._at_target(method, variant, options, params, plan, rule)
        holds = answer is not None and not compare(method, expect, answer)
        if holds and refused is None and not at_target:
            return Plan(HAND_WORKED, plan.params, expect, house=plan.house, needed=plan.needed)
        if not self.derived:
            return self._unjudged(
                plan, wording.refusable(refused) if refused else wording.ANSWER_CHANGED
            )
        # A question the reference refuses as sent (a hand number the house's rounds need) may
        # still be asked re-based.
        sent, found, reached, changes = self._course(
            method, variant, options, params, plan, answer, rule, at_target or answer is None
        )
        if found is None:
            return self._unjudged(plan, wording.REFERENCE_REFUSES)
        answer = found
        refused = self._refusable(method, variant, sent)
        if refused is not None:
            return self._unjudged(plan, wording.refusable(refused))
        why = wording.derived_reason(plan.house_text, plan.needed_text, changes)
        derived = derived_expectation(expect, answer)
        return Plan(DERIVED, sent, derived, why, plan.house, plan.needed, reached, changes)

    def _at_target(
        self,
        method: str,
        variant: str,
        options: Mapping[str, Any],
        params: Mapping[str, Any],
        plan: Plan,
        rule: str,
    ) -> bool:
        """Whether a case decides the game at a target the engine plays otherwise: its scores
        must move to the house's target (``rebase``) even where the answer happens to hold, or
        the case no longer tests where the target lies."""
        if "target" not in plan.house or method not in TARGET_METHODS:
            return False
        if rule.startswith("GAME-"):
            return True
        own = self._ask_reference(method, {"variant": variant, "options": dict(options), **params})
        return own is not None and own.get("game_winner") is not None

    @staticmethod
    def _refusable(method: str, variant: str, params: Mapping[str, Any]) -> str | None:
        """The item of ERRATA-SCORE-HAND-INPUTS under which the engine may refuse these
        ``score_hand`` figures under the options sent, or None (the suite never sends them)."""
        if method != "score_hand":
            return None
        return refusable(variant, params.get("options") or {}, params)

    def _course(
        self,
        method: str,
        variant: str,
        options: Mapping[str, Any],
        params: Mapping[str, Any],
        plan: Plan,
        answer: dict[str, Any] | None,
        rule: str,
        rebased: bool = False,
    ) -> tuple[dict[str, Any], dict[str, Any] | None, bool, tuple[str, ...]]:
        """The request a derived case sends, the reference's answer to it, whether it reaches
        the case's own stop point, and how it was re-based: as sent under the house's options
        when that reaches it (with figures the engine may not refuse), else the case re-based
        to the house (``rebase``) when that does."""
        own = self._ask_reference(method, {"variant": variant, "options": dict(options), **params})
        if own is None:
            return plan.params, answer, False, ()

        own_rules = self._deciding(method, {"variant": variant, "options": dict(options), **params})

        def reaches(sent: Mapping[str, Any], got: Mapping[str, Any], stop: tuple[Any, ...]) -> bool:
            if stop != stop_point(method, got, rule=rule) or self._refusable(method, variant, sent):
                return False
            # Where the trace shows the rule deciding in the case's own version, it must decide
            # in the question sent too.
            if own_rules is None or rule not in own_rules:
                return True
            found = self._deciding(method, dict(sent))
            return found is None or rule in found

        if (
            not rebased
            and answer is not None
            and reaches(plan.params, answer, stop_point(method, own, rule=rule))
        ):
            return plan.params, answer, True, ()
        house = full_options(variant, plan.params.get("options") or {})
        mine = full_options(variant, options)
        try:
            moved = rebase(self._ask_quiet, method, variant, mine, house, plan.params, own)
        except (KeyError, IndexError, TypeError, ValueError):
            # A request of a shape re-basing does not know (a table of the user's own): it is
            # judged as sent, never errored for the suite's own arithmetic.
            moved = None
        if moved is None:
            return plan.params, answer, False, ()
        again = self._ask_reference(method, moved.params)
        if again is None:
            return plan.params, answer, False, ()
        stop = stop_point(method, own, moved.index_map, rule)
        if reaches(moved.params, again, stop):
            return moved.params, again, True, moved.changes
        home = settled(variant, mine, house, own, moved, again) if method in WHOLE_HANDS else None
        last = self._ask_reference(method, home.params) if home is not None else None
        if home is not None and last is not None and reaches(home.params, last, stop):
            return home.params, last, True, home.changes
        if self._refusable(method, variant, plan.params) and not self._refusable(
            method, variant, moved.params
        ):
            return moved.params, again, False, moved.changes
        return plan.params, answer, False, ()

    def _deciding(self, method: str, params: dict[str, Any]) -> set[str] | None:
        """The rules the reference's trace shows deciding some point of its answer to
        ``params`` (``engines.Reference.trace``); None when the reference gives no trace."""
        trace = getattr(self.reference, "trace", None)
        if trace is None:
            return None
        try:
            found = trace(method, params)
        except Exception:  # a question the trace cannot replay: no evidence either way
            return None
        return {str(d.get("rule")) for d in found if isinstance(d, Mapping)} or None

    def _ask_quiet(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """The reference's answer (cached); EngineError when it refuses the question."""
        found = self._ask_reference(method, params)
        if found is None:
            raise EngineError(f"the reference engine refuses {method}")
        return found

    def plan_question(
        self,
        method: str,
        variant: str,
        options: Mapping[str, Any],
        params: Mapping[str, Any],
    ) -> Plan:
        """How a scenario's question is put to this engine. Its expectation is spelled out by the
        Then steps afterwards, so the question runs under the engine's options only when the
        reference engine answers it exactly as under the scenario's own."""
        plan = self._prepare(method, variant, options, params)
        if plan.kind == SKIP or not plan.house:
            return plan
        own = self._ask_reference(method, {"variant": variant, "options": options, **params})
        house = self._ask_reference(method, plan.params)
        if own is None or house is None:
            return self._unjudged(plan, wording.REFERENCE_REFUSES)
        if compare(method, own, house):
            return self._unjudged(plan, wording.ANSWER_CHANGED)
        refused = self._refusable(method, variant, plan.params)
        if refused is not None:
            return self._unjudged(plan, wording.refusable(refused))
        return plan

    @staticmethod
    def _unjudged(plan: Plan, why: str) -> Plan:
        return Plan(
            SKIP,
            plan.params,
            reason=wording.house_skip(plan.house_text, plan.needed_text, why),
            house=plan.house,
            needed=plan.needed,
        )
