"""The replay's event type codes (engine/replay.py ``EV_*``) are the places of their types in
``EVENT_TYPES``: ``_step`` dispatches on the codes, so the two declarations must not drift apart."""

from mahjong_audit.engine import replay


def test_each_event_code_is_the_place_of_its_type_in_event_types():
    codes = {name: value for name, value in vars(replay).items() if name.startswith("EV_")}
    assert sorted(codes.values()) == list(range(len(replay.EVENT_TYPES)))
    for name, code in codes.items():
        assert replay.EVENT_TYPES[code] == name.removeprefix("EV_").lower()
