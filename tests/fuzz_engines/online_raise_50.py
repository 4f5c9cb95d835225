"""Planted bug (AUCTION-STEP): online, a seat's raise of exactly 50 (the largest raise) is refused
when the same seat raised by exactly 50 before and its partner passed between the two raises."""

from __future__ import annotations

from typing import Any

from pinochle_adapters import sdk
from pinochle_adapters.reference import AuctionAnswer

from . import PlantedEngine, serve


class OnlineRaise50(PlantedEngine):
    def auction(self, params: dict[str, Any]) -> AuctionAnswer:
        answer = super().auction(params)
        if params["variant"] != "online":
            return answer
        calls = params["calls"]
        high: int | None = None
        raised_at: dict[int, int] = {}  # seat -> index of its last raise of exactly 50
        for i, call in enumerate(calls):
            if "bid" not in call:
                continue
            seat = call["seat"]
            if high is not None and call["bid"] - high == 50:
                earlier = raised_at.get(seat)
                if earlier is not None and any(
                    "pass" in c and c["seat"] == (seat + 2) % 4 for c in calls[earlier:i]
                ):
                    before = super().auction({**params, "calls": calls[:i]})
                    if not before["legal"]:
                        return answer
                    # The reference's own refusal of a call here gives the violation's shape.
                    wrong = {"seat": seat, "bid": 1}
                    refused = super().auction({**params, "calls": [*calls[:i], wrong]})
                    violation = refused["violation"]
                    if violation is None:
                        return answer
                    violation["rule"] = "AUCTION-STEP"
                    violation["message"] = f"seat {seat} cannot raise by 50 again: partner passed"
                    before["legal"] = False
                    before["violation"] = violation
                    return before
                raised_at[seat] = i
            high = call["bid"] if high is None else max(high, call["bid"])
        return answer


def server() -> sdk.Server:
    return sdk.Server(OnlineRaise50())


if __name__ == "__main__":
    serve(OnlineRaise50())
