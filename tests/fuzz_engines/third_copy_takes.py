"""Planted bug (TRICK-IDENTICAL, in whole hands): in a double-deck ``play_hand``, a trick won by
its first card while the third card played is an identical copy is given to the third seat."""

from __future__ import annotations

from typing import Any

from pinochle_adapters import sdk
from pinochle_adapters.reference import PlayHandAnswer

from . import PlantedEngine, serve


class ThirdCopyTakes(PlantedEngine):
    def play_hand(self, params: dict[str, Any]) -> PlayHandAnswer:
        answer = super().play_hand(params)
        if params["variant"] != "double-deck" or not answer["tricks"]:
            return answer
        for trick in answer["tricks"]:
            cards = trick["cards"]
            if trick["winner"] == trick["leader"] and cards[2] == cards[0]:
                trick["winner"] = (trick["leader"] + 2) % 4
        return answer


def server() -> sdk.Server:
    return sdk.Server(ThirdCopyTakes())


if __name__ == "__main__":
    serve(ThirdCopyTakes())
