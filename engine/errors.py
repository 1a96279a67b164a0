"""The one base of the engine's errors: a value that is not what the rules allow.

Every error the engine, the log schemas and the importers raise about the data they are
given derives from :class:`InvalidData` (a ``ValueError``): a tile that is no tile
(``mahjong_audit.engine.tiles.TileError``), a hand that is not a win
(``mahjong_audit.engine.hand.NotAWin``), options that do not go together
(``mahjong_audit.engine.ruleset.OptionError``), a ``score`` situation that does not hold
(``mahjong_audit.engine.situation_check.InvalidSituation``), a house-rules profile that
cannot be used (``mahjong_audit.engine.house_rules.ProfileError``), a time that is no
instant (``mahjong_audit.schemas.instants.InstantError``), a record an importer cannot
convert and a row no column can hold (``mahjong_audit.pipeline.importers.ImportFailure``,
``mahjong_audit.pipeline.rows.UnstorableRow``). In an audit such an error becomes a
finding or a rejection of the record; a command given such a value stops with exit status
1. The errors of the run itself (files, the database, the workers) are
``mahjong_audit.pipeline.errors``.
"""

from __future__ import annotations


class InvalidData(ValueError):
    """A value that the rules, the log format or a column does not allow; the message says why."""
