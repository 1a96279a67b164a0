"""``mahjong-audit serve --db FILE``: the live audit, an HTTP service on the batch audit's
engine and tables.

POST a finished game (``/v1/games``: one ``mahjong-log/1`` game as application/json, many
as application/x-ndjson, a platform's file with ``?from=``) and get its verdict once its
rows are committed to the database; ``GET /`` is a live page of the latest findings;
``/openapi.json`` describes every route. While it runs, ``stats`` and ``report`` read the
copy it publishes (``--publish-seconds``) and a batch ``audit`` of the same database gets
the "locked" status. Stop it with Ctrl-C or SIGTERM: what is queued is committed first.
"""

from __future__ import annotations

import argparse
import functools
import ipaddress
import os
import signal
import socket
from datetime import UTC, datetime

from mahjong_audit.pipeline import exits
from mahjong_audit.pipeline.cli import byte_size

EPILOG = """\
Without --token-file the service binds only a loopback address. Exit status: 0 stopped,
1 usage error (a profile that cannot be used, a token file that cannot be read, an address it may not or
cannot bind, a database that cannot be opened), 2 database locked by another process."""


def register(subparsers) -> None:
    p = subparsers.add_parser("serve", help="the live audit: an HTTP service auditing games as they are posted",
                              description=__doc__.split("\n\n")[0], epilog=EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--db", required=True, metavar="FILE", help="DuckDB database (created if missing), as for audit")
    p.add_argument("--rules", metavar="PROFILE", help="house-rules profile (TOML, engine/house_rules.py) to "
                   "audit under: a game's own options over it, its readings over the defaults")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1; another than "
                                                       "loopback needs --token-file)")
    p.add_argument("--port", type=int, default=8080, help="port (default 8080; 0: any free port, printed)")
    p.add_argument("--token-file", metavar="F", help="file holding the bearer token every request but "
                                                     "/healthz must carry")
    p.add_argument("--max-record-bytes", type=byte_size, default=None, metavar="N",
                   help="refuse a request body over N bytes with 413, unread (default: 64M, as audit)")
    p.add_argument("--publish-seconds", type=float, default=10.0, metavar="S",
                   help="publish the read copy for stats and report at most every S seconds (default 10; "
                        "0: never)")
    p.set_defaults(func=run)


def _err(msg: str) -> None:
    exits.error("serve", msg)


def loopback(host: str) -> bool:
    """True if every address ``host`` names is a loopback address."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(str(i[4][0]).split("%")[0]).is_loopback for i in infos)


def read_token(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        token = f.read().strip()
    if not token or any(c.isspace() for c in token):
        raise ValueError(f"{path}: the token must be one word (no spaces), not empty")
    return token


def audit_function(profile_path: str | None):
    """The batch audit's per-game step (``mahjong_audit.engine.rechecks.audit_with_rechecks``, as
    ``mahjong_audit.pipeline.transforms`` runs it), under the house-rules profile ``profile_path`` if given
    (``ProfileError``: one that cannot be used, said before serving)."""
    from mahjong_audit.pipeline.transforms import _engine_audit_game

    audit = _engine_audit_game()
    if profile_path is None:
        return audit
    from mahjong_audit.engine.house_rules import Profile
    from mahjong_audit.engine.rechecks import audit_with_rechecks  # what _engine_audit_game gives

    return functools.partial(audit_with_rechecks, profile=Profile.load(profile_path))


def request_ids():
    """Request ids as run ids are made (``audit.new_run_id``: the time to the microsecond, then
    8 hex digits), the digits a random start counted up: unique, sorting in arrival order."""
    import itertools
    import secrets

    counter = itertools.count(secrets.randbits(32))
    return lambda: f"{datetime.now(UTC):%Y%m%dT%H%M%S.%fZ}-{next(counter) & 0xFFFFFFFF:08x}"


def run(args: argparse.Namespace) -> int:
    from mahjong_audit.engine.house_rules import ProfileError

    token = None
    if args.token_file is not None:
        try:
            token = read_token(args.token_file)
        except (OSError, ValueError) as e:
            _err(f"--token-file: {e}")
            return exits.FAILED
    elif not loopback(args.host):
        _err(f"refusing to bind {args.host} without --token-file: anyone who reaches it could post and read "
             "verdicts (bind 127.0.0.1, or give a token)")
        return exits.FAILED
    if not 0 <= args.port <= 65535:
        _err(f"--port {args.port}: not a port")
        return exits.FAILED
    import uvicorn  # the slow imports once the arguments are known to be right

    from mahjong_audit import __version__
    from mahjong_audit.pipeline.commands.audit import new_run_id
    from mahjong_audit.pipeline.lines import MAX_RECORD_BYTES
    from mahjong_audit.pipeline.runner import quiet_import

    with quiet_import():  # Beam's import-time warnings stay off the terminal
        from apache_beam.io.filesystems import FileSystems  # noqa: F401  (the staging writer's)

        from mahjong_audit.pipeline import transforms  # noqa: F401  (Beam, for the audit function)
        from mahjong_audit.pipeline.serve.app import Settings, create_app, open_store
    from mahjong_audit.pipeline.serve.store import RunInfo

    try:
        audit_fn = audit_function(args.rules)
    except ProfileError as e:
        _err(f"--rules: {e}")
        return exits.FAILED
    try:
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host.strip("[]"), args.port))
        sock.listen(1024)
    except OSError as e:
        _err(f"cannot bind {args.host}:{args.port}: {e.strerror or e}")
        return exits.FAILED
    host, port = sock.getsockname()[:2]
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    now = datetime.now(UTC)
    run_info = RunInfo(run_id=new_run_id(now), started_at=now.replace(tzinfo=None), version=__version__,
                       inputs=(url,))
    settings = Settings(db=os.path.abspath(args.db), run=run_info, audit_fn=audit_fn,
                        new_request_id=request_ids(),
                        max_record_bytes=args.max_record_bytes or MAX_RECORD_BYTES, token=token,
                        publish_seconds=args.publish_seconds, url=url)
    # the database is opened before serving: a locked or unreadable one is refused at once
    # (errors.DatabaseLocked, errors.DatabaseError: reported by the command line, as for audit)
    store = open_store(settings)
    config = uvicorn.Config(create_app(settings, store), log_level="warning", access_log=False,
                            lifespan="on", timeout_graceful_shutdown=10)
    server = uvicorn.Server(config)
    print(f"serving {url} (database {settings.db}; stop with Ctrl-C)", flush=True)
    for sig in (signal.SIGINT, signal.SIGTERM):
        # uvicorn stops gracefully on these, then raises the signal again under the handler it
        # found: this one, so that a stop asked for ends with status 0
        signal.signal(sig, lambda *_: None)
    server.run(sockets=[sock])
    return 0 if server.started else 1
