"""``python -m mahjong_audit``: the same as the ``mahjong-audit`` command."""

from mahjong_audit.pipeline.cli import command

if __name__ == "__main__":
    raise SystemExit(command())
