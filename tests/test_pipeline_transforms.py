"""Each composite transform under TestPipeline + assert_that (FnApiRunner, in memory)."""

from __future__ import annotations

import json

import apache_beam as beam
import pytest
from apache_beam.runners.portability.fn_api_runner import FnApiRunner
from apache_beam.testing import test_pipeline
from apache_beam.testing.util import assert_that, equal_to

from mahjong_audit.engine.findings import Finding
from mahjong_audit.engine.result import GameAudit
from mahjong_audit.pipeline import errors, inputs, read, splits, staging
from mahjong_audit.pipeline import transforms as T
from mahjong_audit.pipeline.importers import IMPORTERS
from mahjong_audit.pipeline.parse import ParsedGame
from mahjong_audit.pipeline.read import RawRecord, Rejection
from mahjong_audit.schemas.log import Game
from tests.e2e import make_corpus
from tests.logbuild import draw_game, win_game

pytestmark = pytest.mark.slow  # Beam pipelines (TestPipeline)


def _pipeline() -> test_pipeline.TestPipeline:
    return test_pipeline.TestPipeline(runner=FnApiRunner())


def fake_audit(game: Game) -> GameAudit:
    """A stand-in engine: one finding per game; raises on a game_id containing 'crash'."""
    if "crash" in game.game_id:
        raise ValueError(f"cannot replay {game.game_id}")
    return GameAudit(game.game_id, game.ruleset, game.platform, tuple(game.players or ()), (),
                     (Finding("continuity/hand_no", "fake finding"),))


def _parsed(gid: str, source: str = "f.jsonl", line: int = 1) -> ParsedGame:
    return ParsedGame(source, line, 0, Game.model_validate(win_game(gid)))


def test_shards_of_a_file_together_read_every_record_once(tmp_path, monkeypatch):
    monkeypatch.setattr(inputs, "MIN_SPLIT_BYTES", 1)
    path = tmp_path / "many.jsonl"
    path.write_text("".join(json.dumps(win_game(f"g{i}")) + "\n" for i in range(7)))
    shards = inputs.plan_shards([str(path)], 3, {str(path): path.stat().st_size}, {str(path): None})
    assert len(shards) == 3
    with _pipeline() as p:
        recs = p | beam.Create(shards) | T.ReadRecords()
        parts = recs | beam.Filter(lambda r: isinstance(r, splits.PartRead))
        games = recs | beam.Filter(lambda r: isinstance(r, read.RawRecord))
        assert_that(games | beam.Map(lambda r: json.loads(r.text)["game_id"]),
                    equal_to([f"g{i}" for i in range(7)]), label="every record once")
        assert_that(parts | beam.Map(lambda p: p.lines) | beam.CombineGlobally(sum), equal_to([7]),
                    label="every line owned once")


def test_read_records_spreads_records_of_all_files(tmp_path):
    corpus = make_corpus(tmp_path)
    files = [str(corpus / "a.jsonl"), str(corpus / "b.json"), str(corpus / "sub" / "c.jsonl.gz")]
    with _pipeline() as p:
        recs = p | beam.Create(files) | T.ReadRecords() | beam.Filter(lambda r: isinstance(r, read.RawRecord))
        where = recs | beam.Map(lambda r: (r.source.rsplit("/", 1)[-1], r.line))
        assert_that(where, equal_to([("a.jsonl", 1), ("a.jsonl", 2), ("a.jsonl", 3), ("a.jsonl", 5),
                                     ("a.jsonl", 6), ("b.json", 1), ("c.jsonl.gz", 1), ("c.jsonl.gz", 2)]))


def test_parse_and_validate_routes_bad_records_to_rejected():
    records = [
        RawRecord("f.jsonl", 1, json.dumps(win_game("ok"))),
        RawRecord("f.jsonl", 2, "{not json"),
        RawRecord("f.jsonl", 3, json.dumps({**win_game("bad"), "ruleset": "nope"})),
    ]
    with _pipeline() as p:
        out = p | beam.Create(records) | T.ParseAndValidate()
        assert_that(out.games | beam.Map(lambda g: (g.game.game_id, g.line)), equal_to([("ok", 1)]), label="games")
        assert_that(out[T.REJECTED] | beam.Map(lambda r: (r.line, r.code, r.game_id)),
                    equal_to([(2, "invalid_log/json", None), (3, "invalid_log/schema", "bad")]),
                    label="rejected")
        assert_that(out[T.DUPLICATES], equal_to([]), label="dups")


def test_one_record_with_the_same_game_twice_keeps_the_first(tmp_path, monkeypatch):
    from tests.readbuild import FakeImporter

    class Twice(FakeImporter):
        def convert(self, record):
            return [win_game("same"), win_game("same"), win_game("other")]

    monkeypatch.setitem(IMPORTERS, "fake", Twice())
    rec = RawRecord("f.fake", 4, "x", importer="fake")
    with _pipeline() as p:
        out = p | beam.Create([rec]) | T.ParseAndValidate()
        assert_that(out.games | beam.Map(lambda g: (g.game.game_id, g.index)),
                    equal_to([("same", 0), ("other", 2)]), label="games")
        assert_that(out[T.DUPLICATES] | beam.Map(lambda rows: (rows[0].code, rows[0].recorded)),
                    equal_to([("duplicate_game/game_id", "f.fake:4")]), label="dups")


def test_replay_turns_engine_exceptions_into_dead_letters():
    games = [_parsed("fine"), _parsed("crash-me", line=7)]
    with _pipeline() as p:
        out = p | beam.Create(games) | T.Replay(audit_fn=fake_audit)
        assert_that(out["audited"] | beam.Map(lambda pa: (pa[0].game.game_id, len(pa[1].findings))),
                    equal_to([("fine", 1)]), label="audited")
        assert_that(out[T.REJECTED] | beam.Map(lambda r: (r.game_id, r.line, r.code, "cannot replay" in r.message)),
                    equal_to([("crash-me", 7, "invalid_log/engine_error", True)]), label="failed")


def _staged(stage, table: str) -> list[dict]:
    import pyarrow.parquet as pq

    files = staging.read_manifest(str(stage)).get(table, ())
    return [row for f in files for row in pq.read_table(f).to_pylist()]


def test_write_rows_stages_every_row_with_its_source_and_a_manifest(tmp_path):
    audited = (_parsed("g", "f.jsonl", 6), fake_audit(Game.model_validate(draw_game("g"))))
    rej = Rejection("f.jsonl", 4, "invalid_log/json", "not valid JSON")
    stage = tmp_path / "stage"
    with _pipeline() as p:
        a = p | "A" >> beam.Create([audited])
        r = p | "R" >> beam.Create([rej])
        written = [a | "WA" >> T.WriteRows("run-1", str(stage)), r | "WR" >> T.WriteRows("run-1", str(stage))]
        _ = written | beam.Flatten() | T.WriteManifest(str(stage))
    assert [(d["game_id"], d["run_id"], d["findings"], d["source_line"]) for d in _staged(stage, "games")] == [
        ("g", "run-1", 1, 6)]
    assert [(d["source_line"], d["code"]) for d in _staged(stage, "rejected")] == [(4, "invalid_log/json")]
    assert sorted(d["code"] for d in _staged(stage, "findings")) == ["continuity/hand_no", "invalid_log/json"]
    assert _staged(stage, "hands") == []
    # a file written but not named by the manifest (a retried bundle's) is never loaded
    (stage / "tables" / "games" / "orphan.parquet").write_bytes(b"")
    assert len(staging.read_manifest(str(stage))["games"]) == 1


def test_staged_rows_of_every_table_carry_the_source_position(tmp_path):
    from mahjong_audit.engine.audit import audit_game

    w = staging.TableWriter(str(tmp_path), batch_rows=2)
    audit = audit_game(Game.model_validate(win_game("g")))
    for row in T.item_rows((_parsed("g", "/x.jsonl", 9), audit), "r")[0]:
        w.add(row, "/x.jsonl", 9)
    files = dict(w.close())
    import pyarrow.parquet as pq

    for table in ("games", "hands", "hand_scores", "payouts"):
        got = pq.read_table(files[table]).to_pylist()
        assert got and {(d["source_file"], d["source_line"]) for d in got} == {("/x.jsonl", 9)}, table
    with pytest.raises(ValueError):
        staging.TableWriter(str(tmp_path), batch_rows=0)
    with pytest.raises(errors.ManifestMissing):
        staging.read_manifest(str(tmp_path))


def test_whole_pipeline_metrics(tmp_path):
    corpus = make_corpus(tmp_path)
    files = sorted(str(p) for p in corpus.rglob("*.json*"))
    p = _pipeline()
    _ = p | beam.Create(files) | T.AuditPipeline(run_id="r", staging=str(tmp_path / "stage"), audit_fn=fake_audit)
    result = p.run()
    result.wait_until_finish()
    from apache_beam.metrics.metric import MetricsFilter

    got = {c.key.metric.name: c.committed
           for c in result.metrics().query(MetricsFilter().with_namespace(T.NAMESPACE))["counters"]}
    # both copies of g1 are audited and staged; the load keeps one (tests/test_pipeline_sink.py)
    assert got["games"] == 6 and got["rejected"] == 2 and got["records"] == 8
    assert got["findings_continuity"] == 6 and got["findings_invalid_log"] == 2
    assert got["files"] == 3 and got["shards"] == 3
    # the fake engine makes no hands: only tables that got rows have files
    tables = ["file_parts", "file_records", "findings", "games", "rejected"]
    assert sorted(q.name for q in (tmp_path / "stage" / "tables").iterdir()) == tables
    assert sorted(staging.read_manifest(str(tmp_path / "stage"))) == tables


@pytest.mark.parametrize("bad", ["", "not a dict"])
def test_rejection_codes_are_checked(bad):
    with pytest.raises(ValueError):
        Rejection("f", 1, "score_mismatch/total", bad)


def test_the_game_coder_pickles_games_and_estimates_their_size_without_pickling(monkeypatch):
    coder = T.ParsedGameCoder()
    parsed = _parsed("g", "f.jsonl", 3)
    assert coder.decode(coder.encode(parsed)) == parsed
    assert coder == T.ParsedGameCoder() and not coder.is_deterministic()

    def no_pickling(*args, **kwargs):
        raise AssertionError("estimate_size pickled the game")

    monkeypatch.setattr(T.pickle, "dumps", no_pickling)
    assert coder.estimate_size(parsed) == T.ParsedGameCoder.BYTES_PER_HAND * len(parsed.game.hands)


def test_games_between_parse_and_replay_carry_the_game_coder():
    p = _pipeline()
    out = p | beam.Create([RawRecord("f.jsonl", 1, json.dumps(win_game("g")))]) | T.ParseAndValidate()
    audited = (out.games | T.Replay(audit_fn=fake_audit))["audited"]
    assert isinstance(beam.coders.registry.get_coder(out.games.element_type), T.ParsedGameCoder)
    pair = beam.coders.registry.get_coder(audited.element_type)
    assert isinstance(pair, beam.coders.TupleCoder) and isinstance(pair.coders()[0], T.ParsedGameCoder)


def test_beam_size_sampling_does_not_pickle_the_games(monkeypatch):
    """Regression: Beam samples elements of each PCollection for their byte size, by default
    by encoding them; every game sampled between parse and replay was pickled (~1.5 ms)."""
    pickled = []
    real = ParsedGame.__getstate__
    monkeypatch.setattr(ParsedGame, "__getstate__", lambda self: pickled.append(self) or real(self))
    records = [RawRecord("f.jsonl", i + 1, json.dumps(win_game(f"g{i}"))) for i in range(40)]
    with _pipeline() as p:
        out = p | beam.Create(records) | T.ParseAndValidate()
        audited = (out.games | T.Replay(audit_fn=fake_audit))["audited"]
        assert_that(audited | beam.Map(lambda pa: pa[1].game_id) | beam.combiners.Count.Globally(), equal_to([40]))
    assert pickled == []


def test_batched_parse_gives_the_games_and_rejections_of_one_at_a_time():
    records = [RawRecord("f.jsonl", i, json.dumps(win_game(f"g{i}"))) for i in range(1, 6)]
    records += [RawRecord("f.jsonl", 6, "{not json"), RawRecord("f.jsonl", 7, json.dumps(win_game("g1")))]
    with _pipeline() as p:
        out = p | beam.Create(records) | T.ParseAndValidate(batch=3)
        games = out.games | beam.FlatMap(lambda b: [(g.game.game_id, g.line) for g in b.items])
        assert_that(games, equal_to([(f"g{i}", i) for i in range(1, 6)] + [("g1", 7)]), label="games")
        assert_that(out[T.REJECTED] | beam.Map(lambda r: (r.line, r.code)), equal_to([(6, "invalid_log/json")]),
                    label="rejected")
        assert_that(out[T.COUNTS] | beam.Map(lambda c: (c.source, c.records)), equal_to([("f.jsonl", 7)]),
                    label="counts")


def test_a_batch_replays_each_game_and_dead_letters_only_the_one_that_fails():
    batch = T.Batch((_parsed("fine"), _parsed("crash-me", line=7), _parsed("also-fine", line=9)))
    with _pipeline() as p:
        out = p | beam.Create([batch]) | T.Replay(audit_fn=fake_audit, batched=True)
        assert_that(out["audited"] | beam.FlatMap(lambda b: [(pa[0].game.game_id, len(pa[1].findings))
                                                             for pa in b.items]),
                    equal_to([("fine", 1), ("also-fine", 1)]), label="audited")
        assert_that(out[T.REJECTED] | beam.Map(lambda r: (r.game_id, r.line, r.code, "cannot replay" in r.message)),
                    equal_to([("crash-me", 7, "invalid_log/engine_error", True)]), label="failed")


def test_batches_are_sized_from_their_hands_without_pickling(monkeypatch):
    coder = beam.coders.registry.get_coder(T.Batch)
    batch = T.Batch((_parsed("a"), (_parsed("b"), fake_audit(_parsed("b").game))))
    assert isinstance(coder, T.BatchCoder) and coder.decode(coder.encode(batch)) == batch

    def no_pickling(*args, **kwargs):
        raise AssertionError("estimate_size pickled the batch")

    monkeypatch.setattr(T.pickle, "dumps", no_pickling)
    assert coder.estimate_size(batch) == T.ParsedGameCoder.BYTES_PER_HAND * 2 * len(_parsed("a").game.hands)
