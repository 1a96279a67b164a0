"""Tiles and the one compact notation used everywhere.

A tile is an ``int``:

* ``0..8``   characters 1m..9m (万)
* ``9..17``  dots 1p..9p (筒)
* ``18..26`` bamboo 1s..9s (索)
* ``27..33`` honours 1z..7z: East, South, West, North, White (白), Green (发), Red (中)
* ``34..41`` flowers 1f..8f: 春夏秋冬 then 梅兰竹菊

The compact notation groups ranks before their suit letter:

>>> parse("123m11z5f")
(0, 1, 2, 27, 27, 38)
>>> fmt(parse("11z123m"))
'123m11z'
>>> name(33)
'7z'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from mahjong_audit.engine.errors import InvalidData

try:  # mypyc compiles i64 as a native 64-bit int; a plain install need not have mypy_extensions
    from mypy_extensions import i64
except ImportError:
    i64 = int  # type: ignore[misc]
#: ``i64``: an int the compiled engine keeps unboxed (an attribute, a local, a parameter), its
#: arithmetic, shifts and masks plain C where an ``int``'s ``>>``, ``&``, ``|`` are calls with
#: tag and overflow checks; converted to and from ``int`` where they meet (checked: a value
#: beyond 64 bits raises). Run as Python it is ``int``. One caution: mypyc 2.4 computes a shift
#: whose left operand is a literal (``1 << t``) in C's 32-bit ``int``, so a bit above 30 is
#: made from a variable (``x >> t & 1``, a running ``one <<= 5``), never ``1 << t``.

SUITS: Final = "mpsz"
N_KINDS: Final = 34  # playing tile kinds (no flowers)
N_TILES: Final = 42  # with the eight flowers
FLOWER0: Final = 34

EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WIND_TILES: Final = (EAST, SOUTH, WEST, NORTH)
DRAGON_TILES: Final = (WHITE, GREEN, RED)
WIND_LETTERS: Final = "ESWN"

TERMINALS_AND_HONOURS: Final = (0, 8, 9, 17, 18, 26, *range(27, 34))

# Final: compiled, each is a C static rather than a lookup in the module's dict on every use
_NAMES: Final[tuple[str, ...]] = tuple(
    [f"{r}{s}" for s in "mps" for r in range(1, 10)]
    + [f"{r}z" for r in range(1, 8)]
    + [f"{r}f" for r in range(1, 9)]
)
_INDEX: Final[dict[str, int]] = {n: i for i, n in enumerate(_NAMES)}

# Aliases accepted by human-facing commands (never written to logs).
_ALIASES: Final[dict[str, str]] = {
    "E": "1z", "S": "2z", "W": "3z", "N": "4z", "P": "5z", "F": "6z", "C": "7z",
    "东": "1z", "南": "2z", "西": "3z", "北": "4z", "白": "5z", "发": "6z", "中": "7z",
    "春": "1f", "夏": "2f", "秋": "3f", "冬": "4f", "梅": "5f", "兰": "6f", "竹": "7f", "菊": "8f",
}


class TileError(InvalidData):
    """A string that is not a tile or not a valid tile list."""


def tile(text: str, *, aliases: bool = False) -> int:
    """Parse one canonical tile such as ``'5p'`` (``aliases`` also takes ``'中'``, ``'E'``).

    A canonical name is a rank digit and a suit letter: the tile is worked out from the two
    characters (compiled, ``ord(text[i])`` reads the character natively: about half the cost of a
    look-up in the dict of names, and the replay turns ~200 names a hand into tiles), the same
    answer as a look-up in the names for every string (tests/test_speed_paths.py compares them)."""
    if isinstance(text, str) and len(text) == 2:  # (anything but a string is no tile either)
        rank = ord(text[0]) - 49  # '1' → 0
        suit = ord(text[1])  # its first tile and its number of ranks:
        first, ranks = (0, 9) if suit == 109 else (9, 9) if suit == 112 else (18, 9) if suit == 115 \
            else (27, 7) if suit == 122 else (34, 8) if suit == 102 else (0, 0)  # m p s z f, else none
        if 0 <= rank < ranks:
            return first + rank
    elif aliases and text in _ALIASES:  # (an alias is one character)
        return _INDEX[_ALIASES[text]]
    raise TileError(f"{text!r} is not a tile")


def name(t: int) -> str:
    """Canonical name of a tile index."""
    return _NAMES[t]


def parse(text: str) -> tuple[int, ...]:
    """Parse compact notation (``'123m456p11z'``) into tile indices, in written order."""
    out: list[int] = []
    pending: list[str] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            pending.append(ch)
        elif ch in "mpszf":
            if not pending:
                raise TileError(f"{text!r}: suit letter {ch!r} without ranks")
            for r in pending:
                out.append(tile(f"{r}{ch}"))
            pending = []
        else:
            raise TileError(f"{text!r}: unexpected character {ch!r}")
    if pending:
        raise TileError(f"{text!r}: ranks {''.join(pending)!r} without a suit letter")
    return tuple(out)


def fmt(tiles: Iterable[int], *, sort: bool = True) -> str:
    """Format tiles in compact notation (sorted by default)."""
    seq = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    cur_suit = ""
    ranks = ""
    for t in seq:
        r, s = _NAMES[t][0], _NAMES[t][1]
        if s != cur_suit and ranks:
            out.append(ranks + cur_suit)
            ranks = ""
        cur_suit = s
        ranks += r
    if ranks:
        out.append(ranks + cur_suit)
    return "".join(out)


def names(tiles: Iterable[int]) -> list[str]:
    return [_NAMES[t] for t in tiles]


def from_names(items: Iterable[str]) -> tuple[int, ...]:
    return tuple(tile(x) for x in items)


def is_flower(t: int) -> bool:
    return t >= FLOWER0


def is_suited(t: int) -> bool:
    return t < 27


def is_honour(t: int) -> bool:
    return 27 <= t < 34


def is_wind(t: int) -> bool:
    return 27 <= t <= 30


def is_dragon(t: int) -> bool:
    return 31 <= t <= 33


def suit(t: int) -> int:
    """0 m, 1 p, 2 s, 3 z, 4 f."""
    return 4 if t >= FLOWER0 else t // 9


def rank(t: int) -> int:
    """1..9 for suited tiles, 1..7 honours, 1..8 flowers."""
    if t >= FLOWER0:
        return t - FLOWER0 + 1
    return t % 9 + 1 if t < 27 else t - 26


def is_terminal(t: int) -> bool:
    return t < 27 and t % 9 in (0, 8)


def is_terminal_or_honour(t: int) -> bool:
    return t >= 27 and t < 34 or t < 27 and t % 9 in (0, 8)


def wind_tile(wind: int) -> int:
    """Tile of wind 0..3 (E S W N)."""
    return EAST + wind


def wind_index(letter: str) -> int:
    return WIND_LETTERS.index(letter)


def counts(tiles: Iterable[int], size: int = N_TILES) -> list[int]:
    """The count of each tile (``size`` kinds: all 42 tiles, or the 34 kinds) among ``tiles``."""
    c = [0] * size
    if isinstance(tiles, tuple):
        # a tuple (the hands the replay and the rulesets pass) is read by index: compiled, an
        # iterable goes through a generic iterator call per tile
        held: tuple[int, ...] = tiles
        for t in held:
            c[t] = c[t] + 1  # (``+=`` on a list item is a generic call when compiled)
        return c
    for t in tiles:
        c[t] = c[t] + 1
    return c
