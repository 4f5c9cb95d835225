"""Planted bug (MELD-ROYAL-MARRIAGE): a double-deck hand with one run, all four kings and four
queens of trumps and a marriage in another suit is given two royal marriages beside the run, not
three."""

from __future__ import annotations

from typing import Any

from pinochle_adapters import sdk
from pinochle_adapters.reference import MeldAnswer
from reference_engine.variants import load_rules

from . import PlantedEngine, serve


class RunRoyalQuad(PlantedEngine):
    def meld(self, params: dict[str, Any]) -> MeldAnswer:
        answer = super().meld(params)
        hand, trump = params["hand"], params["trump"]
        quad = hand.count("K" + trump) == 4 and hand.count("Q" + trump) == 4
        has_run = any(m["id"] == "run" and m["count"] == 1 for m in answer["melds"])
        plain = any(m["id"] == "marriage" for m in answer["melds"])
        if params["variant"] != "double-deck" or not (quad and has_run and plain):
            return answer
        rules = load_rules(params["variant"], params.get("options") or {})
        for entry in answer["melds"]:
            if entry["id"] == "royal_marriage" and entry["count"] > 1:
                lower = rules.meld_value("royal_marriage", entry["count"] - 1)
                answer["total"] -= entry["points"] - lower
                entry["count"] -= 1
                entry["points"] = lower
                entry["cards"] = entry["cards"][:-2]
        return answer


def server() -> sdk.Server:
    return sdk.Server(RunRoyalQuad())


if __name__ == "__main__":
    serve(RunRoyalQuad())
