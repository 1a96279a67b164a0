"""Each composite transform under TestPipeline + assert_that (FnApiRunner, in memory)."""

from __future__ import annotations

import json

import apache_beam as beam
import pytest
from apache_beam.runners.portability.fn_api_runner import FnApiRunner
from apache_beam.testing import test_pipeline
from apache_beam.testing.util import assert_that, equal_to

from engine.findings import Finding
from engine.result import GameAudit
from pipeline import transforms as T
from pipeline.read import ParsedGame, RawRecord, Rejection
from schemas.log import Game
from tests.test_pipeline_e2e import draw_game, make_corpus, win_game


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


def test_read_records_spreads_records_of_all_files(tmp_path):
    corpus = make_corpus(tmp_path)
    files = [str(corpus / "a.jsonl"), str(corpus / "b.json"), str(corpus / "sub" / "c.jsonl.gz")]
    with _pipeline() as p:
        recs = p | beam.Create(files) | T.ReadRecords()
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
        assert_that(out.games | beam.Map(lambda kv: (kv[0], kv[1].line)), equal_to([("ok", 1)]), label="games")
        assert_that(out[T.REJECTED] | beam.Map(lambda r: (r.line, r.code, r.game_id)),
                    equal_to([(2, "invalid_log/json", None), (3, "invalid_log/schema", "bad")]),
                    label="rejected")


def test_dedupe_keeps_first_by_file_and_line_deterministically():
    copies = [_parsed("x", "b.jsonl", 1), _parsed("x", "a.jsonl", 9), _parsed("x", "a.jsonl", 2),
              _parsed("y", "a.jsonl", 3)]
    with _pipeline() as p:
        out = p | beam.Create(copies) | beam.Map(lambda g: (g.game.game_id, g)) | T.Dedupe()
        assert_that(out.unique | beam.Map(lambda g: g.position),
                    equal_to([("a.jsonl", 2, 0), ("a.jsonl", 3, 0)]), label="unique")
        assert_that(out[T.DUPLICATES] | beam.Map(lambda rows: (rows[0].source_file, rows[0].source_line,
                                                              rows[0].code)),
                    equal_to([("a.jsonl", 9, "duplicate_game/game_id"), ("b.jsonl", 1, "duplicate_game/game_id")]),
                    label="dups")


def test_replay_turns_engine_exceptions_into_dead_letters():
    games = [_parsed("fine"), _parsed("crash-me", line=7)]
    with _pipeline() as p:
        out = p | beam.Create(games) | T.Replay(audit_fn=fake_audit)
        assert_that(out["audited"] | beam.Map(lambda pa: (pa[0].game.game_id, len(pa[1].findings))),
                    equal_to([("fine", 1)]), label="audited")
        assert_that(out[T.REJECTED] | beam.Map(lambda r: (r.game_id, r.line, r.code, "cannot replay" in r.message)),
                    equal_to([("crash-me", 7, "invalid_log/engine_error", True)]), label="failed")


def test_to_rows_tags_every_row_with_its_table():
    audited = (_parsed("g"), fake_audit(Game.model_validate(draw_game("g"))))
    rej = Rejection("f.jsonl", 4, "invalid_log/json", "not valid JSON")
    with _pipeline() as p:
        a = p | "A" >> beam.Create([audited])
        r = p | "R" >> beam.Create([rej])
        tables = (a, r) | T.ToRows("run-1")
        assert_that(tables["games"] | beam.Map(lambda d: (d["game_id"], d["run_id"], d["findings"])),
                    equal_to([("g", "run-1", 1)]), label="games")
        assert_that(tables["rejected"] | beam.Map(lambda d: (d["source_line"], d["code"])),
                    equal_to([(4, "invalid_log/json")]), label="rejected")
        assert_that(tables["findings"] | beam.Map(lambda d: d["code"]),
                    equal_to(["continuity/hand_no", "invalid_log/json"]), label="findings")
        assert_that(tables["hands"], equal_to([]), label="hands")


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
    assert got["games"] == 5 and got["rejected"] == 2 and got["duplicates"] == 1
    assert got["findings_continuity"] == 5 and got["findings_invalid_log"] == 2
    assert got["findings_duplicate_game"] == 1 and got["records"] == 8
    assert sorted(q.name for q in (tmp_path / "stage" / "tables").iterdir()) == sorted(
        ["games", "hands", "hand_scores", "payouts", "findings", "rejected"])


@pytest.mark.parametrize("bad", ["", "not a dict"])
def test_rejection_codes_are_checked(bad):
    with pytest.raises(ValueError):
        Rejection("f", 1, "score_mismatch/total", bad)
