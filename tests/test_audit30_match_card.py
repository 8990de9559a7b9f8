"""Audit 30: the review page's match card of rules whose every match is as long (Trickster's 4
rounds, Kansas City's 3) showed its word, "rare", with no threshold it comes from: the card drops
the capped share of no width, and its thresholds went with it."""

from __future__ import annotations

from simtool.analysis import verdicts
from simtool.reports import review as pages


def _match(rounds, capped) -> dict:
    v = verdicts.match_verdict(rounds, capped, 8192, 200)
    return {"verdict": v.word, "sentence": v.sentence, "thresholds": v.thresholds, "rounds": rounds[0],
            "rounds_ci": list(rounds[1:]), "capped": capped[0], "capped_ci": list(capped[1:]), "play": "safe"}


def _card(match: dict) -> dict:
    seats = verdicts.seat_verdict([(0, 0.25, 0.24, 0.26), (1, 0.25, 0.24, 0.26)], 2, 1000)
    q = {"seats": {"verdict": seats.word, "sentence": seats.sentence, "seats": seats.figures["seats"],
                   "thresholds": seats.thresholds},
         "skill": {"verdict": "not measured", "sentence": "s"}, "luck": {"verdict": "low", "sentence": "l",
                                                                        "figure": None},
         "tension": {"verdict": "low", "sentence": "t", "figure": None}, "hazards": [], "match": match}
    return next(c for c in pages.cards(q) if c["key"] == "match")


def test_a_match_card_of_matches_all_as_long_states_its_thresholds():
    card = _card(_match((4.0, 4.0, 4.0), (0.0, 0.0, 0.0)))
    assert card["verdict"] == "rare" and card["sentence"].startswith("Every match played (8,192) lasted 4 rounds")
    assert card["figure"] == ""  # no share of no width, as before
    # before: ""
    assert card["thresholds"] == ("rare below 1%, occasional from 1%, common from 10% "
                                  "(of matches stopped by the round cap)")
    # a card with its share states the same
    assert _card(_match((6.9, 6.8, 7.0), (0.0, 0.0, 0.001)))["thresholds"] == card["thresholds"]
