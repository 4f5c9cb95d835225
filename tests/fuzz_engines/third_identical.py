"""Planted bug (TRICK-IDENTICAL): a trick of exactly three cards, all three identical (a tie in the
third seat), is given to the third card instead of the first."""

from __future__ import annotations

from typing import Any

from pinochle_adapters import sdk
from pinochle_adapters.reference import WinnerAnswer

from . import PlantedEngine, serve


class ThirdIdentical(PlantedEngine):
    def trick_winner(self, params: dict[str, Any]) -> WinnerAnswer:
        answer = super().trick_winner(params)
        trick = params["trick"]
        if len(trick) == 3 and trick[0] == trick[1] == trick[2]:
            return {"winner": 2}
        return answer


def server() -> sdk.Server:
    return sdk.Server(ThirdIdentical())


if __name__ == "__main__":
    serve(ThirdIdentical())
