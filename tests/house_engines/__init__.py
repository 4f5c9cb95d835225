"""Engines that declare their house rules honestly, as real ones do: the reference engine playing
one variant with a single value for some options, optionally carrying one planted bug (a mutant
of ``tests.mutants``). ``python -m tests.house_engines NAME [MUTANT] [--whole-hands]
[--strict]`` serves one over stdio.

The declarations are the house rules real engines were seen to play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pinochle_adapters import sdk
from pinochle_adapters.reference import ReferenceEngine
from specdata.house import refusable
from tests import mutants


@dataclass(frozen=True)
class House:
    """One engine's declaration: its one variant and the single value it plays per option."""

    name: str
    variant: str
    options: dict[str, str]
    bug: str
    """A mutant whose rule the suite still judges under these house rules (first suspect)."""
    more_bugs: tuple[str, ...] = ()
    """Other such mutants (a trick-play and a scoring bug each, for the whole-hand houses)."""
    whole_hands: bool = False
    """The engine exposes ``play_hand`` and ``play_game`` only."""


HOUSES = {
    h.name: h
    for h in (
        House(
            "dd-no-bid-to-win",
            "double-deck",
            {"bid_to_win": "off", "pinochle_scale": "comments"},
            "arounds-missing-suit",
        ),
        House(
            "sd-left-opens",
            "single-deck",
            {"first_bidder": "left-of-dealer", "pass_cards": "3", "double_run": "1500"},
            "dix-ignored",
        ),
        House(
            "online-1000",
            "online",
            {"target": "1000", "extra_trump_kq": "on"},
            "online-raise-unlimited",
        ),
        House(
            "dd-post-1945",
            "double-deck",
            {"run": "15", "trick_rules": "post-1945", "target": "1000"},
            "no-last-trick",
        ),
        # One house rule that changes the course of a deal each, then the three together.
        House(
            "sd-pass-3",
            "single-deck",
            {"pass_cards": "3"},
            "partner-crawl",
            ("sd-opponents-without-trick",),
            whole_hands=True,
        ),
        House(
            "sd-left",
            "single-deck",
            {"first_bidder": "left-of-dealer"},
            "partner-crawl",
            ("no-last-trick",),
            whole_hands=True,
        ),
        House(
            "ol-target-1000",
            "online",
            {"target": "1000"},
            "target-exclusive",
            ("partner-crawl",),
            whole_hands=True,
        ),
        House(
            "sd-left-pass-3-1000",
            "single-deck",
            {"first_bidder": "left-of-dealer", "pass_cards": "3", "target": "1000"},
            "partner-crawl",
            ("sd-opponents-without-trick",),
            whole_hands=True,
        ),
    )
}

WHOLE_HANDS = ("play_hand", "play_game")
"""The methods of an engine that exposes whole hands only (``--whole-hands``)."""


HOUSE_BUGS = {
    m.name: m
    for m in (
        mutants.Mutant(
            name="sd-opening-250",
            misreading=(
                "a single-deck bid must reach 250 (more than 24 tens), so every lower bid, "
                "one off the tens included, is refused as below the opening minimum"
            ),
            caught_by="AUCTION-OPENING-MIN",
            variants=("single-deck",),
            rules=mutants.replace_auction(minimum=250),
        ),
    )
}
"""Bugs seen on real engines under their house rules only: not mutants of their own (the
mutation run asks each of those of the whole suite)."""


def planted(name: str) -> mutants.Mutant:
    """A planted bug by name: a house bug or a mutant, ``+`` joining several."""
    parts = [HOUSE_BUGS.get(part) or mutants.get(part) for part in name.split(mutants.PAIR)]
    return parts[0] if len(parts) == 1 else mutants.combined(*parts)


class HouseEngine(ReferenceEngine):
    """The reference engine declaring one variant and the house's single option values;
    ``whole_hands``: exposing ``play_hand`` and ``play_game`` only; ``strict``: refusing
    (-32602) exactly the ``score_hand`` figures ERRATA-SCORE-HAND-INPUTS lets it refuse."""

    def __init__(
        self, house: House, bug: str | None = None, whole_hands: bool = False, strict: bool = False
    ) -> None:
        super().__init__()
        self.house = house
        self.strict = strict
        self.name = f"house-{house.name}" + (f"-{bug}" if bug else "")
        if whole_hands or house.whole_hands:
            self.methods = [m for m in self.methods if m in WHOLE_HANDS]

    def score_hand(self, params: dict[str, Any]) -> Any:
        """The reference's score; under ``strict`` a refusal of the figures the errata list."""
        if self.strict:
            why = refusable(params["variant"], params.get("options") or {}, params)
            if why is not None:
                raise sdk.InvalidParams(f"figures no hand can produce (item {why})")
        return super().score_hand(params)

    @property
    def variants(self) -> list[dict[str, Any]]:
        """The house's variant with one value for each of its options."""
        return [
            {"id": self.house.variant, "options": {k: [v] for k, v in self.house.options.items()}}
        ]


def serve(
    name: str, bug: str | None = None, whole_hands: bool = False, strict: bool = False
) -> int:
    """Serve house ``name`` (with mutant ``bug`` installed, if given) until shutdown."""
    engine = HouseEngine(HOUSES[name], bug, whole_hands, strict)
    if bug is None:
        return sdk.serve(engine)
    with planted(bug).installed():
        return sdk.serve(engine)
