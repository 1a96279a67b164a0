"""``mahjong_audit.pipeline``: the Beam pipeline, the DuckDB sink, the importers and the command line.

One import name: this package is ``mahjong_audit.pipeline`` (the repository keeps it at the top
level, and ``mahjong_audit/pipeline`` links to it). Imported as plain ``pipeline`` (from the
repository root, where the folder is also visible) it would be a second copy of every module,
with classes that are not the installed ones, so that name is refused.
"""

if __name__ != "mahjong_audit.pipeline":
    raise ImportError(
        f"import mahjong_audit.pipeline, not {__name__}: the project has one import name "
        "(see mahjong_audit/__init__.py)"
    )
