"""Planted bug (the trick's winner), in every variant: a trick of four cards that the last card
played wins is given to its leader instead. One deviation the fuzzer meets in each variant it
asks: one reproducer for it, the smallest."""

from __future__ import annotations

from typing import Any

from pinochle_adapters import sdk
from pinochle_adapters.reference import WinnerAnswer

from . import PlantedEngine, serve

FULL_TRICK = 4


class LastSeatNeverWins(PlantedEngine):
    def trick_winner(self, params: dict[str, Any]) -> WinnerAnswer:
        answer = super().trick_winner(params)
        if len(params["trick"]) == FULL_TRICK and answer["winner"] == FULL_TRICK - 1:
            return {"winner": 0}
        return answer


def server() -> sdk.Server:
    return sdk.Server(LastSeatNeverWins())


if __name__ == "__main__":
    serve(LastSeatNeverWins())
