"""A directory walk takes files by their content and says what it left out (issue: files a
walk leaves out must not disappear silently); each file's format notes reach the run's log."""

import json
import shutil
from pathlib import Path

from mahjong_audit.pipeline import inputs
from mahjong_audit.pipeline.cli import main

REAL = Path(__file__).parent / "fixtures" / "real"
JUDGE = REAL / "botzone-logs" / "log_2026-6-3_14_25_02-4-ciaestcnn.log"
DISPLAY = REAL / "botzonebench" / "lv0__Qwen3-8B__0-llm.log"
TEXT = REAL / "botzone-txt" / "sample.txt"


def folder(tmp_path: Path) -> Path:
    root = tmp_path / "logs"
    (root / "sub").mkdir(parents=True)
    shutil.copy(JUDGE, root / "judge.log")
    shutil.copy(DISPLAY, root / "sub" / "display.log")
    shutil.copy(TEXT, root / "data.txt")
    (root / "README.txt").write_text("说明：not a log\n", encoding="utf-8")
    (root / "NOTES.md").write_text("# notes\n", encoding="utf-8")
    (root / "run.labels.jsonl").write_text('{"game_id": "x"}\n', encoding="utf-8")
    (root / "native.log").write_text(json.dumps({"format": "mahjong-log/1", "game_id": "n"}) + "\n")
    return root


def test_walk_takes_files_by_content_and_keeps_what_it_skips(tmp_path):
    root = folder(tmp_path)
    walk = inputs.walk_inputs([str(root)])
    assert sorted(Path(f).name for f in walk.files) == ["data.txt", "display.log", "judge.log", "native.log"]
    assert sorted(Path(f).name for f in walk.skipped) == ["NOTES.md", "README.txt", "run.labels.jsonl"]
    assert inputs.describe_skipped(walk.skipped) == (
        "skipped: 2 files of an unknown type (.md 1, .txt 1); name a file to read it anyway (--from NAME for a "
        "platform format); 1 fault label file (.labels.jsonl, written by simulate --labels)")
    assert inputs.expand_inputs([str(root)]) == walk.files


def test_one_skipped_file_is_said_in_the_singular(tmp_path):
    (tmp_path / "a.jsonl").write_text("{}\n")
    (tmp_path / "sample.doc").write_text("x")
    walk = inputs.walk_inputs([str(tmp_path)])
    assert inputs.describe_skipped(walk.skipped).startswith("skipped: 1 file of an unknown type (.doc);")


def test_nothing_skipped_says_nothing(tmp_path):
    (tmp_path / "a.jsonl").write_text("{}\n")
    walk = inputs.walk_inputs([str(tmp_path)])
    assert walk.skipped == () and inputs.describe_skipped(walk.skipped) is None


def test_a_file_named_explicitly_is_never_skipped(tmp_path):
    root = folder(tmp_path)
    walk = inputs.walk_inputs([str(root / "README.txt")])
    assert walk.files == (str(root / "README.txt"),) and walk.skipped == ()


def test_format_notes_name_what_each_shape_cannot_tell(tmp_path):
    root = folder(tmp_path)
    notes = inputs.format_notes(inputs.expand_inputs([str(root)]), None)
    by_file = {}
    for path, note in notes:
        by_file.setdefault(Path(path).name, []).append(note)
    assert sorted(by_file) == ["display.log", "judge.log"]
    assert [n.split(":")[0] for n in by_file["display.log"]] == ["display log", "display log"]
    assert len(by_file["judge.log"]) == 1 and "no wall" in by_file["judge.log"][0]


def test_audit_of_a_folder_reads_every_log_it_recognises_and_says_what_it_skipped(tmp_path, capsys):
    root = folder(tmp_path)
    (root / "native.log").unlink()
    db = tmp_path / "a.duckdb"
    assert main(["audit", str(root), "--db", str(db), "--in-memory", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "audited 18 games" in out  # 16 dataset games, a judge log and a display log
    assert "findings: 0 (none)" in out
    assert "skipped: 2 files of an unknown type (.md 1, .txt 1)" in out
    log = Path(f"{db}.log").read_text(encoding="utf-8")
    assert log.count("judge log: no wall") == 1 and log.count("display log: no player responses") == 1
    assert "skipped (no format recognised): " + str(root / "README.txt") in log


def test_import_and_validate_print_the_notes_and_the_skipped_files(tmp_path, capsys):
    root = folder(tmp_path)
    (root / "native.log").unlink()
    assert main(["import", str(root), "-o", str(tmp_path / "out.jsonl")]) == 0
    err = capsys.readouterr().err
    assert f"note: {root / 'judge.log'}: judge log: no wall" in err
    assert "skipped: 2 files of an unknown type" in err
    assert main(["validate", str(root)]) == 0
    assert "skipped: 2 files of an unknown type" in capsys.readouterr().err
