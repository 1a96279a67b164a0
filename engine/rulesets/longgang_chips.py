"""龙港: the chips of a whole game (牌局), per player, for four or five players (seed 000,
五、(三)–(四)). Values are data; :class:`ChipLedger` is the game's running state.

* 底金 100 子 a player, 头钱 5 子 each (四人头钱20子，五人头钱25子): everyone starts at 95.
* A hand's chip changes (10 胡 = 1, the hand's deltas) go to the balances; 诈胡 payments
  wait for the end of the game ("诈胡者在牌局结束后出钱给各家").
* A payer short of chips pays what it has ("以断筹为限"): the winner is paid first, then the
  others in turn order from the payer ("付给胡牌者优先，再按逆时针顺序"); what it cannot pay
  is lost by the last in that order first ("筹码不够的部分不需下圈加筹补齐").
* 断子: a payer at 0 or below after the hand ("当盘筹子断或刚好为零"). The first re-buys once
  (加筹: 100 子 at five, 50 at four; 头钱 unchanged) and from the next hand 跟胡数 takes
  the bracketed values; a second 断子, or two in one hand, ends the game ("其后如有一家再断子，
  牌局结束；如一局中有两人断子时,不要加筹,牌局结束"). Option ``broke_rebuy: false``: the first
  断子 ends the game ("也有断子不加筹立即结束的").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType

CHIPS = MappingProxyType({"stake": 100, "table_fee": 5})
#: 加筹 by the number of players: "五人来法此人加筹一局子（100子），四人来法此人加筹半局子（50子）"
REBUY = MappingProxyType({4: 50, 5: 100})


@dataclass(frozen=True, slots=True)
class HandChips:
    """What one hand did to the chips: the balances after it (players order), who went broke,
    who re-bought, and whether the game ended with it."""

    hand_no: int
    balances: tuple[int, ...]
    broke: tuple[int, ...]
    rebuy: int | None
    ended: bool


def start_balance() -> int:
    return CHIPS["stake"] - CHIPS["table_fee"]


def pay_short(balances: Sequence[int], play: Sequence[int], order_of: dict[int, tuple[int, ...]]) -> list[int]:
    """Balances after the hand's ``play`` changes (players order), each payer paying at most
    what it has. ``order_of[p]``: the players payer ``p`` pays in priority order (the winner,
    then turn order from ``p``); the shortfall is taken from the end of that order."""
    after = [b + c for b, c in zip(balances, play, strict=True)]
    gains = [max(0, c) for c in play]
    for p, left in enumerate(after):
        if play[p] >= 0 or left >= 0:
            continue
        short = -left
        after[p] = 0
        for r in reversed(order_of.get(p, ())):
            cut = min(short, gains[r])
            after[r] -= cut
            gains[r] -= cut
            short -= cut
            if not short:
                break
    return after


class ChipLedger:
    """The running balances of one 牌局 (the only mutable state of the chips)."""

    def __init__(self, n_players: int, rebought: bool, broke_rebuy: bool):
        self.n = n_players
        self.balances = [start_balance()] * n_players
        self.rebought = rebought  # 跟胡数 in brackets (already so by option, or after a 加筹)
        self.broke_rebuy = broke_rebuy
        self.rebuy_done = False
        self.ended_at: int | None = None
        self.false_wins = [0] * n_players  # 诈胡 payments, settled when the game ends

    def hand(self, hand_no: int, seating: Sequence[int], winner: int | None, changes: Sequence[int],
             penalties: Sequence[int]) -> HandChips:
        """Apply one hand. ``changes``: each player's change (players order), ``penalties`` its
        诈胡 part; ``winner``: the winning player or None."""
        play = [c - p for c, p in zip(changes, penalties, strict=True)]
        self.false_wins = [a + b for a, b in zip(self.false_wins, penalties, strict=True)]
        seat_of = {p: s for s, p in enumerate(seating)}
        order_of = {}
        for p in range(self.n):
            if play[p] < 0 and p in seat_of:
                turn = tuple(seating[(seat_of[p] + k) % 4] for k in (1, 2, 3))
                order_of[p] = ((winner,) if winner is not None else ()) + tuple(x for x in turn if x != winner)
        after = pay_short(self.balances, play, order_of)
        broke = tuple(p for p in range(self.n) if play[p] < 0 and after[p] <= 0)
        rebuy = None
        if len(broke) >= 2 or (broke and (self.rebuy_done or not self.broke_rebuy)):
            self.ended_at = hand_no
        elif broke:
            rebuy = broke[0]
            after[rebuy] += REBUY[self.n]
            self.rebuy_done = True
            self.rebought = True
        self.balances = after
        return HandChips(hand_no, tuple(after), broke, rebuy, self.ended_at == hand_no)

    def settle_false_wins(self) -> tuple[int, ...]:
        """The balances once the game's 诈胡 payments are made (at its end)."""
        self.balances = [b + f for b, f in zip(self.balances, self.false_wins, strict=True)]
        self.false_wins = [0] * self.n
        return tuple(self.balances)

    def resync(self, recorded: Sequence[int]) -> None:
        """Go on from the recorded balances (after a finding, so one error is reported once)."""
        self.balances = list(recorded)
