"""``mahjong_audit.schemas``: the pydantic models of the log format and of the result rows.

One import name: this package is ``mahjong_audit.schemas`` (the repository keeps it at the top
level, and ``mahjong_audit/schemas`` links to it). Imported as plain ``schemas`` (from the
repository root, where the folder is also visible) it would be a second copy of every module,
with classes that are not the installed ones, so that name is refused.
"""

if __name__ != "mahjong_audit.schemas":
    raise ImportError(
        f"import mahjong_audit.schemas, not {__name__}: the project has one import name "
        "(see mahjong_audit/__init__.py)"
    )
