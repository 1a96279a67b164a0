"""``mahjong-audit serve`` (issue 30) tested as a platform would use it: the real server in a
subprocess on a free loopback port, spoken to over HTTP (the standard library's http.client)."""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import duckdb
import pytest

from mahjong_audit.pipeline.tables import column_names
from mahjong_audit.schemas.results import TABLES
from tests import fuzzing
from tests.browser import CHROMIUM, FLAGS
from tests.serve_harness import ROOT, Server, wait_for

# one worker runs them all (make test's --dist loadgroup), so they share one server
pytestmark = [pytest.mark.xdist_group("serve"), pytest.mark.slow]  # a live service in a subprocess
SAMPLES = ROOT / "sample_logs"
FAULTY = [SAMPLES / f"{r}-faulty.jsonl" for r in ("mcr", "guangdong", "longgang")]
REAL = {"botzone-json": ROOT / "tests/fixtures/real/botzone-json/6a2065c358ebe27b197de009_lite.json",
        "pmn": ROOT / "tests/fixtures/real/pmn/example_2.pmn"}  # platform files, posted with ?from=
LIMIT = 2 << 20  # --max-record-bytes of the shared server: the fuzz corpus's big cases are over it
GAME_TABLES = {"games": "game", "hands": "hands", "hand_scores": "scores", "payouts": "payouts",
               "findings": "findings"}
# what differs between two audits of the same record: where it was read from, and the run
PLACE = {"run_id", "source_file", "source_line"}


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mahjong_audit.pipeline.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("serve") / "live.duckdb"
    with Server(db, "--max-record-bytes", str(LIMIT), "--publish-seconds", "1") as s:
        yield s


def first_game(path: Path = FAULTY[0]) -> dict:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


def renamed(game: dict, game_id: str) -> bytes:
    return json.dumps({**game, "game_id": game_id}).encode()


def _comparable(table: str, row: dict) -> str:
    row = {k: v for k, v in row.items() if k not in PLACE}
    if table == "findings" and row["code"] == "duplicate_game/game_id":
        row.pop("message"), row.pop("recorded")  # they name the first copy's place
    return json.dumps(row, sort_keys=True)


def _response_rows(verdicts: list[dict]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {t: [] for t in GAME_TABLES}
    for v in verdicts:
        for table, key in GAME_TABLES.items():
            got = v[key] if key != "game" else ([v["game"]] if v["game"] else [])
            out[table] += [_comparable(table, r) for r in got]
    return {t: sorted(rows) for t, rows in out.items()}


def _db_rows(db: Path, where: str = "true") -> dict[str, list[str]]:
    out = {}
    with duckdb.connect(str(db), read_only=True) as con:
        con.execute("SET TimeZone = 'UTC'")
        for table in GAME_TABLES:
            model = TABLES[table]
            names = column_names(model)
            rows = con.execute(f"SELECT {', '.join(names)} FROM {table} WHERE {where}").fetchall()
            out[table] = sorted(_comparable(table, model(**dict(zip(names, r, strict=True))).model_dump(mode="json"))
                                for r in rows)
    return out


# --------------------------------------------------------------------------- verdicts


@pytest.mark.slow
def test_verdicts_equal_a_batch_audit_of_the_same_games_finding_for_finding(server, tmp_path):
    verdicts = []
    for path in FAULTY:
        reply = server.post(path.read_bytes())
        assert reply.status == 200, reply.body[:300]
        batch = reply.json()
        assert batch["records"] == batch["games"] + batch["duplicates"] + batch["rejected"] == len(
            [line for line in path.read_text().splitlines() if line.strip()])
        verdicts += batch["verdicts"]
    for fmt, path in REAL.items():
        reply = server.post(path.read_bytes(), "text/plain", query=f"?from={fmt}&name={path.name}")
        assert reply.status == 200 and reply.json()["games"] >= 1, reply.body[:300]
        verdicts += reply.json()["verdicts"]
    done = cli("audit", *map(str, FAULTY), *map(str, REAL.values()), "--db", str(tmp_path / "batch.duckdb"),
               "--in-memory")  # the importers' formats recognised per file
    assert done.returncode == 0, done.stderr
    served, batch_rows = _response_rows(verdicts), _db_rows(tmp_path / "batch.duckdb")
    assert sum(map(len, served.values())) > 100
    for table in GAME_TABLES:
        assert served[table] == batch_rows[table], table
    # the stored verdict is the one answered
    audited = [v for v in verdicts if v["status"] == "audited"]
    for v in audited[:3]:
        stored = server.get(f"/v1/games/{v['game_id']}").json()
        assert _response_rows([stored]) == _response_rows([v])
    # rejected records: the same rows as the batch's, with validate's message
    rejected = [v for v in verdicts if v["status"] == "rejected"]
    with duckdb.connect(str(tmp_path / "batch.duckdb"), read_only=True) as con:
        batch_rejected = sorted(con.execute("SELECT game_id, code, message FROM rejected").fetchall())
    assert sorted((v["rejected"]["game_id"], v["rejected"]["code"], v["rejected"]["message"])
                  for v in rejected) == batch_rejected


def test_a_rejected_record_is_400_with_the_message_validate_gives_and_lands_in_rejected(server, tmp_path, capsys):
    from mahjong_audit.pipeline.cli import main

    bad = renamed(first_game(), "serve-bad-tile").replace(b'"1p"', b'"8z"', 1)
    reply = server.post(bad, "application/json")
    assert reply.status == 400
    verdict = reply.json()
    assert verdict["status"] == "rejected" and verdict["game_id"] == "serve-bad-tile"
    (tmp_path / "bad.json").write_bytes(bad)
    assert main(["validate", str(tmp_path / "bad.json")]) == 1
    printed = capsys.readouterr().out.strip()
    assert printed.startswith(f"{tmp_path / 'bad.json'}:1: invalid_log/schema [serve-bad-tile]: ")
    assert verdict["error"] == f"{verdict['source_file']}:1:" + printed.split(":1:", 1)[1]
    assert verdict["rejected"]["code"] == "invalid_log/schema"
    stored = server.get("/v1/games/serve-bad-tile").json()
    assert stored["status"] == "rejected" and stored["error"] == verdict["error"]
    page = server.get("/v1/findings?kind=invalid_log&limit=1000").json()
    assert any(f["game_id"] == "serve-bad-tile" for f in page["findings"])


def test_posting_a_game_again_replaces_its_rows(server):
    game = first_game()
    first = server.post(renamed(game, "serve-repost"), "application/json").json()
    again = server.post(renamed(game, "serve-repost"), "application/json").json()
    assert first["status"] == again["status"] == "audited" and first["source_file"] != again["source_file"]
    stored = server.get("/v1/games/serve-repost").json()
    assert stored["source_file"] == again["source_file"]
    assert len(stored["hands"]) == len(game["hands"]) and len(stored["findings"]) == len(first["findings"])
    mine = [f for f in server.get("/v1/findings?limit=1000").json()["findings"] if f["game_id"] == "serve-repost"]
    assert len(mine) == len(first["findings"]) and {f["source_file"] for f in mine} == {again["source_file"]}


def test_several_posts_of_one_game_at_once_leave_one_copy(server):
    game = first_game(FAULTY[1])
    body = renamed(game, "serve-racing")
    replies: list[int] = []
    threads = [threading.Thread(target=lambda: replies.append(server.post(body, "application/json").status))
               for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert replies == [200] * 6
    stored = server.get("/v1/games/serve-racing").json()
    assert len(stored["hands"]) == len(game["hands"])
    assert len({f["source_file"] for f in stored["findings"]} | {stored["source_file"]}) == 1


def test_a_second_copy_in_one_body_is_a_duplicate_as_in_a_batch_file(server):
    game = first_game()
    body = renamed(game, "serve-dup") + b"\n" + renamed(game, "serve-dup") + b"\n"
    batch = server.post(body).json()
    assert (batch["games"], batch["duplicates"], batch["rejected"]) == (1, 1, 0)
    dup = batch["verdicts"][1]
    assert [f["code"] for f in dup["findings"]] == ["duplicate_game/game_id"]


def test_platform_formats_through_from(server):
    pmn = sorted((ROOT / "tests/fixtures/real/pmn").glob("*.pmn"))[0]
    batch = server.post(pmn.read_bytes(), "text/plain", query="?from=pmn").json()
    assert batch["games"] >= 1 and batch["rejected"] == 0
    assert server.post(b"x", "text/plain", query="?from=nope").status == 400


# --------------------------------------------------------------------------- reading


def test_findings_newest_first_paged_and_filtered(server):
    server.post(FAULTY[2].read_bytes())
    newest = server.post(FAULTY[0].read_bytes()).json()
    first = server.get("/v1/findings?limit=5").json()
    assert first["findings"][0]["source_file"] == newest["verdicts"][0]["source_file"]
    seen, page, pages = [], first, 1
    while page["next"] and pages < 500:
        seen += page["findings"]
        page = server.get(f"/v1/findings?limit=5&before={page['next']}").json()
        pages += 1
    seen += page["findings"]
    every = server.get("/v1/findings?limit=1000").json()["findings"]
    assert pages > 1 and seen == every
    keys = [(f["source_file"], f["source_line"] or 0) for f in seen]
    assert keys == sorted(keys, reverse=True)
    kinds = server.get("/v1/findings?kind=payout_mismatch&ruleset=mcr&limit=1000").json()["findings"]
    assert kinds and {(f["kind"], f["ruleset"]) for f in kinds} == {("payout_mismatch", "mcr")}
    assert server.get("/v1/findings?since=2999-01-01T00:00:00Z").json() == {"findings": [], "next": None}
    assert server.get("/v1/findings?before=garbage").status == 400


def test_healthz_metrics_summary_and_openapi(server):
    server.post(FAULTY[0].read_bytes())
    assert server.get("/healthz").json() == {"status": "ok", "detail": ""}
    text = server.get("/metrics").body.decode()
    for name in ("games_total", "hands_total", "rejected_total", 'findings_total{kind="payout_mismatch"}',
                 "queue_depth", 'request_seconds_bucket{route="/v1/games",le="+Inf"}', "commits_total"):
        assert f"mahjong_audit_serve_{name}" in text, name
    games = int(next(line.split()[1] for line in text.splitlines()
                     if line.startswith("mahjong_audit_serve_games_total ")))
    summary = server.get("/v1/summary").json()
    assert summary["games"] >= games >= 12
    spec = server.get("/openapi.json").json()
    body = spec["paths"]["/v1/games"]["post"]["requestBody"]["content"]
    assert {"application/json", "application/x-ndjson"} <= set(body)
    assert "Verdict" in spec["components"]["schemas"] and "HandRow" in spec["components"]["schemas"]
    assert "hands" in body["application/json"]["schema"]["properties"]  # mahjong-log/1


# --------------------------------------------------------------------------- hostile input


def test_a_body_over_the_limit_is_413_without_being_read(server):
    conn = server.connection()
    conn.putrequest("POST", "/v1/games")
    conn.putheader("Content-Type", "application/x-ndjson")
    conn.putheader("Content-Length", str(LIMIT + 1))
    conn.endheaders()  # the body is never sent: the answer cannot wait for it
    reply = conn.getresponse()
    assert reply.status == 413 and b"--max-record-bytes" in reply.read()
    conn.close()
    conn = server.connection()  # no Content-Length: chunks, cut off once over the limit
    conn.putrequest("POST", "/v1/games")
    conn.putheader("Content-Type", "application/x-ndjson")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    chunk = b"x" * (256 << 10)
    status = None
    try:
        for _ in range(4 * LIMIT // len(chunk)):
            conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server stopped reading
    status = conn.getresponse().status
    assert status == 413
    conn.close()
    assert server.get("/healthz").status == 200


@pytest.mark.parametrize("body", [
    b"[" * 100_000 + b"]" * 100_000,
    b'{"a":' * 20_000 + b"1" + b"}" * 20_000,
    b'{"format": "mahjong-log/1", "game_id": "\xff\xfe", "hands": []}',
    b"\x00\x00\x00",
    b"not json at all",
    b"{" * 10,
], ids=["nesting-bomb", "deep-object", "bad-utf8", "nul", "text", "cut"])
def test_hostile_bodies_are_400_never_a_crash(server, body):
    assert server.post(body, "application/json").status == 400
    assert server.get("/healthz").status == 200


def test_huge_numbers_are_400(server):
    game = first_game()
    game["hands"][0]["outcome"]["deltas"] = [10**30, 0, 0, -(10**30)]
    reply = server.post(renamed(game, "serve-huge"), "application/json")
    assert reply.status == 400 and "too large to store" in reply.json()["error"]


def test_refused_requests(server):
    assert server.post(b"{}", "text/plain").status == 415
    assert server.post(b"", "application/json").status == 400
    assert server.post(b"\n\n", "application/x-ndjson").status == 400


@pytest.mark.slow
def test_the_fuzz_corpus_gives_verdicts_or_4xx_and_the_service_stays_up(server, tmp_path):
    corpus = fuzzing.build_corpus(tmp_path / "corpus", seed=15, rounds=1)
    statuses, problems = fuzzing.post_and_check(corpus, server)
    assert problems == []
    assert len(statuses) == len(set(corpus.inputs))
    assert statuses["fixed/big-record.jsonl"] == 413 and statuses["fixed/nesting-bomb.jsonl"] == 200
    assert 400 in statuses.values()


# --------------------------------------------------------------------------- access


def test_a_token_guards_everything_but_healthz(tmp_path):
    (tmp_path / "token").write_text("s3cret-token\n")
    with Server(tmp_path / "t.duckdb", "--token-file", str(tmp_path / "token"), "--publish-seconds", "0") as s:
        assert s.get("/healthz").status == 200
        for path in ("/", "/metrics", "/v1/summary", "/openapi.json", "/v1/findings", "/v1/games/x"):
            assert s.get(path).status == 401, path
            assert s.get(path, token="wrong").status == 401, path
        assert s.post(renamed(first_game(), "t1"), "application/json").status == 401
        s.token = "s3cret-token"
        assert s.post(renamed(first_game(), "t1"), "application/json").status == 200
        assert s.get("/v1/games/t1").status == 200 and s.get("/metrics").status == 200


def test_without_a_token_only_loopback_is_bound(tmp_path):
    done = cli("serve", "--db", str(tmp_path / "x.duckdb"), "--host", "0.0.0.0", "--port", "0", timeout=60)
    assert done.returncode == 1 and "refusing to bind 0.0.0.0 without --token-file" in done.stderr
    assert not (tmp_path / "x.duckdb").exists()


def test_rules_audits_under_the_house_rules_profile(tmp_path):
    from mahjong_audit.engine.house_rules import Profile
    from mahjong_audit.engine.rechecks import audit_with_rechecks
    from mahjong_audit.pipeline import parse

    (tmp_path / "house.toml").write_text("[longgang]\nround_wind_triplet_tai = true\n")  # changes 4 games
    profile = Profile.load(tmp_path / "house.toml")
    path = FAULTY[2]
    with Server(tmp_path / "r.duckdb", "--rules", str(tmp_path / "house.toml"), "--publish-seconds", "0") as s:
        verdicts = s.post(path.read_bytes()).json()["verdicts"]
    got = {v["game_id"]: sorted((f["code"], f["hand_no"], f["seq"], f["seat"], f["message"]) for f in v["findings"])
           for v in verdicts if v["status"] == "audited"}
    expected = {}
    for parsed in parse.parse_file(str(path)):
        if isinstance(parsed, parse.ParsedGame) and parsed.game.game_id not in expected:
            audit = audit_with_rechecks(parsed.game, profile)
            expected[audit.game_id] = sorted((f.code, f.hand_no, f.seq, f.seat, f.message) for f in audit.findings)
    assert got == {gid: expected[gid] for gid in got} and len(got) >= 10
    plain = {gid: sorted((f.code, f.hand_no, f.seq, f.seat, f.message) for f in audit_with_rechecks(g).findings)
             for gid, g in ((p.game.game_id, p.game) for p in parse.parse_file(str(path))
                            if isinstance(p, parse.ParsedGame))}
    assert sum(got[gid] != plain[gid] for gid in got) >= 1  # the profile made a difference
    bad = tmp_path / "bad.toml"
    bad.write_text("[nosuch]\n")
    done = cli("serve", "--db", str(tmp_path / "x.duckdb"), "--rules", str(bad), timeout=120)
    assert done.returncode == 1 and "--rules" in done.stderr and "unknown ruleset" in done.stderr
    assert not (tmp_path / "x.duckdb").exists()


# --------------------------------------------------------------------------- durability and readers


@pytest.mark.slow
def test_kill_9_under_load_then_restart_every_acknowledged_game_is_stored_once(tmp_path):
    db = tmp_path / "k.duckdb"
    games = [json.loads(line) for path in FAULTY for line in path.read_text().splitlines()[:10]]
    acked: dict[str, int] = {}  # game_id -> hands
    stop = threading.Event()
    s = Server(db, "--publish-seconds", "0").start()

    def client(k: int) -> None:
        n = 0
        while not stop.is_set():
            game = games[(k + n) % len(games)]
            gid = f"k{k}-{n}"
            n += 1
            try:
                reply = s.post(renamed(game, gid), "application/json", timeout=30)
            except (OSError, http.client.HTTPException):
                return  # the server is gone
            if reply.status in (200, 400) and reply.json()["status"] == "audited":
                acked[gid] = len(game["hands"])

    threads = [threading.Thread(target=client, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    wait_for(lambda: len(acked) >= 40, seconds=60)
    s.stop(signal.SIGKILL)
    stop.set()
    for t in threads:
        t.join()
    assert len(acked) >= 40
    with duckdb.connect(str(db)) as con:  # recovers the write-ahead log, as a restart does
        games_of = dict(con.execute("SELECT game_id, count(*) FROM games GROUP BY game_id").fetchall())
        hands_of = dict(con.execute("SELECT game_id, count(*) FROM hands GROUP BY game_id").fetchall())
    assert all(n == 1 for n in games_of.values())
    for gid, hands in acked.items():
        assert games_of.get(gid) == 1 and hands_of.get(gid) == hands, gid
    again = Server(db, "--publish-seconds", "1").start()
    stored = again.get(f"/v1/games/{next(iter(acked))}").json()
    assert stored["status"] == "audited"
    assert again.post(renamed(games[0], "after-restart"), "application/json").status == 200
    assert wait_for(lambda: Path(f"{db}.read-copy.json").exists())
    assert again.stop(signal.SIGTERM) == 0  # a clean stop: what was queued is in, the copy withdrawn
    assert not Path(f"{db}.read-copy").exists() and not Path(f"{db}.read-copy.json").exists()
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM games WHERE game_id = 'after-restart'").fetchone() == (1,)


@pytest.mark.slow
def test_while_serving_stats_and_report_read_the_copy_and_audit_is_locked_out(server, tmp_path):
    server.post(FAULTY[0].read_bytes())
    time.sleep(1.5)  # one publish interval
    stats = cli("stats", "--db", str(server.db), "--view", "finding_summary")
    assert stats.returncode == 0 and "read copy" in stats.stderr and "payout_mismatch" in stats.stdout
    report = cli("report", "--db", str(server.db), "-o", str(tmp_path / "r.html"))
    assert report.returncode == 0 and "read copy" in report.stderr
    # a batch audit gets what it gets from any other process holding the database
    held = tmp_path / "held.duckdb"
    duckdb.connect(str(held)).close()
    holder = subprocess.Popen([sys.executable, "-c", f"import duckdb, sys; c = duckdb.connect({str(held)!r}); "
                               "print('held', flush=True); sys.stdin.read()"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        locked = cli("audit", str(FAULTY[0]), "--db", str(held), "--in-memory")
    finally:
        holder.communicate("")
    assert locked.returncode not in (0, 1) and "locked" in locked.stderr
    audit = cli("audit", str(FAULTY[0]), "--db", str(server.db), "--in-memory")
    assert (audit.returncode, "locked" in audit.stderr) == (locked.returncode, True)
    assert server.get("/healthz").status == 200


# --------------------------------------------------------------------------- the live page


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium (apt-get install chromium)")
def test_the_live_page_fills_itself_in_chromium(server, tmp_path):
    server.post(FAULTY[0].read_bytes())
    assert b"<tbody></tbody>" in server.get("/").body  # the page comes empty: its script fetches
    profile = tmp_path / "profile"
    profile.mkdir()
    dom = subprocess.run([str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=6000",
                          "--dump-dom", server.url + "/"], capture_output=True, text=True, timeout=120,
                         check=True).stdout
    assert 'data-state="live"' in dom
    polls = int(dom.split('data-polls="', 1)[1].split('"', 1)[0])
    assert polls >= 2  # it polled again by itself
    assert dom.count('<tr class="error"') >= 10 and 'data-kind="payout_mismatch"' in dom
    games = int(dom.split('id="c-games">', 1)[1].split("<", 1)[0])
    assert games >= 12
