"""The committed per-hand listing of verdicts (bench/verdicts/) is what the code gives now.

A change of any finding or score moves a line of ``bench/verdicts/<corpus>.txt``; one that was
meant is committed with its listing (``python -m bench.verdict_digest --write``), one that was
not fails here, naming the hands that moved."""

from __future__ import annotations

import shutil

import pytest

from bench import verdict_digest as vd


def _current(corpus: vd.Corpus) -> str:
    audits = [vd.audit_listing(p, str(p.relative_to(corpus.root))) for p in corpus.files]
    return vd.listing_text(corpus, audits, vd.DEFAULT_HANDS)


def _assert_as_listed(corpus: vd.Corpus) -> None:
    committed = (vd.LISTINGS / f"{corpus.name}.txt").read_text(encoding="utf-8")
    moved = vd.compare(corpus.name, committed, _current(corpus))
    assert not moved, "verdicts moved (python -m bench.verdict_digest --write if meant):\n" + "\n".join(moved)


@pytest.mark.parametrize("name", ["samples", "fixtures"])
def test_every_hand_of_the_samples_and_fixtures_is_as_listed(name, tmp_path):
    (corpus,) = vd.corpora(tmp_path, vd.DEFAULT_HANDS, [name])
    assert corpus.files
    _assert_as_listed(corpus)


@pytest.mark.slow
def test_every_hand_of_the_real_logs_and_simulated_corpora_is_as_listed(tmp_path):
    names = [n for n in ("real-logs", *(vd.sim_name(r, f) for r in vd.RULESETS for f in vd.FAULTS))
             if n != "real-logs" or vd.SHARED.is_dir()]
    for corpus in vd.corpora(tmp_path, vd.DEFAULT_HANDS, names, jobs=1):
        _assert_as_listed(corpus)


def test_the_listing_names_files_relative_to_their_corpus(tmp_path):
    """Rejections carry their file's path; the listing and the digest do not, so they are the same in every clone."""
    src = vd.FIXED["samples"] / "mcr-faulty.jsonl"
    copy = tmp_path / "elsewhere" / "mcr-faulty.jsonl"
    copy.parent.mkdir()
    shutil.copy(src, copy)
    here, there = vd.audit_listing(src, "mcr-faulty.jsonl"), vd.audit_listing(copy, "mcr-faulty.jsonl")
    assert here.lines == there.lines
    assert any("  rejected  " in line for line in here.lines)
    assert not any(str(vd.ROOT) in line or str(tmp_path) in line for line in here.lines)
    assert here.digest == there.digest and here[:4] == vd.audit_file(copy)  # the one digest too


def test_each_hand_has_a_line_with_its_outcome_winners_total_and_codes():
    lines = vd.audit_listing(vd.FIXED["samples"] / "guangdong-faulty.json").lines
    assert lines[0].split("  ")[2] == "game"
    hand = lines[3].split("  ")
    assert hand[:3] == ["guangdong-faulty.json:1", "gd-sample-faulty", "h2"] and len(hand[3]) == vd.DIGEST_CHARS
    assert hand[4:8] == ["unfinished", "w=1,1", "total=-,-", "false=1,1"]
    assert "false_win/incomplete" in hand[8].split(",") and "payout_mismatch/delta*4" in hand[8].split(",")


def test_check_prints_the_hands_that_moved_and_exits_1(tmp_path, capsys):
    assert vd.main(["--write", "--corpus", "samples", "--listings", str(tmp_path)]) == 0
    listed = tmp_path / "samples.txt"
    assert listed.read_text(encoding="utf-8") == (vd.LISTINGS / "samples.txt").read_text(encoding="utf-8")
    lines = listed.read_text(encoding="utf-8").splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("mcr-faulty.jsonl:2  ") and "  h1  " in line)
    fields = lines[i].split("  ")
    lines[i] = "  ".join([*fields[:3], "0" * vd.DIGEST_CHARS, *fields[4:]])
    listed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert vd.main(["--check", "--corpus", "samples", "--listings", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "samples: 1 lines gone, 1 new, in 1 records" in out
    assert f"-{lines[i]}" in out and "\n+mcr-faulty.jsonl:2  " in out


@pytest.mark.parametrize("argv", [["--check", "--hands", "100"], ["--corpus", "nowhere"], ["--jobs", "0"]])
def test_an_operator_slip_is_refused_before_any_work(argv, capsys):
    with pytest.raises(SystemExit) as e:
        vd.main(argv)
    assert e.value.code == 2 and capsys.readouterr().err.strip()


def test_check_without_a_listing_folder_is_refused(tmp_path):
    with pytest.raises(SystemExit) as e:
        vd.main(["--check", "--listings", str(tmp_path / "none")])
    assert e.value.code == 2
