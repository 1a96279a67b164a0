"""The replay's event type codes (engine/replay.py ``EV_*``) are the places of their types in
``EVENT_TYPES``: ``_step`` dispatches on the codes, so the two declarations must not drift apart."""

from mahjong_audit.engine import replay


def test_each_event_code_is_the_place_of_its_type_in_event_types():
    codes = {name: value for name, value in vars(replay).items() if name.startswith("EV_")}
    assert sorted(codes.values()) == list(range(len(replay.EVENT_TYPES)))
    for name, code in codes.items():
        assert replay.EVENT_TYPES[code] == name.removeprefix("EV_").lower()


def test_the_fast_paths_draws_and_discards_are_read_as_rows():
    """The fast path's Draw and Discard Structs have the layout ``_step`` reads as a row (their other
    events and the models are read field by field); ``event_code`` still gives the plain code."""
    from mahjong_audit.schemas import log as L
    from mahjong_audit.schemas import log_fast as F

    assert F.Draw.__struct_fields__ == replay._ROW_FIELDS[replay.EV_DRAW]
    assert F.Discard.__struct_fields__ == replay._ROW_FIELDS[replay.EV_DISCARD]
    events = [F.Draw(seq=0, seat=1, tile="5p", from_="back"), F.Discard(seq=1, seat=1, tile="5p", claims=None),
              F.Pon(seq=2, seat=2, tile="5p", from_=1), L.Draw.model_validate({"seq": 3, "seat": 2, "type": "draw", "tile": "1m"})]
    assert [replay.event_code(ev) for ev in events] == [replay.EV_DRAW, replay.EV_DISCARD, replay.EV_PON, replay.EV_DRAW]
    assert [replay._CLASS_CODES.get(type(ev)) for ev in events] == \
        [replay.EV_DRAW + replay.ROWED, replay.EV_DISCARD + replay.ROWED, replay.EV_PON, None]
