"""``mahjong_audit.engine``: tiles, decomposition, the replay and the rulesets (pure Python).

One import name: this package is ``mahjong_audit.engine`` (the repository keeps it at the top
level, and ``mahjong_audit/engine`` links to it). Imported as plain ``engine`` (from the
repository root, where the folder is also visible) it would be a second copy of every module,
with classes that are not the installed ones, so that name is refused.
"""

if __name__ != "mahjong_audit.engine":
    raise ImportError(
        f"import mahjong_audit.engine, not {__name__}: the project has one import name "
        "(see mahjong_audit/__init__.py)"
    )
