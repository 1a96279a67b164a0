"""龙港: the chips of a whole game (牌局), per player, for four or five players (seed 000,
五、(三)–(四)). Values are data; :class:`ChipLedger` is the game's running state.

* 底金 100 子 a player, 头钱 5 子 each (四人头钱20子，五人头钱25子): everyone starts at 95.
* A hand is paid pair by pair (:class:`Payment`: each loser to the winner, the 陪家 差价 between
  each two losers, the dealer's side doubled; ``Settlement.payments``), 10 胡 = 1 子.
* A payer short of chips pays what it has ("不够者付给胡牌者优先，再按逆时针顺序,以断筹为限"): its
  debts are paid in its order — the winner first, then the others in turn order counted from the
  payer (option ``short_order: "winner"``: counted from the winner), the players standing out
  last — each payer limited to what it holds plus what it receives in the same hand, worked out
  to a fixed point (:func:`settle`). What it cannot pay is lost ("筹码不够的部分不需下圈加筹补齐").
* 诈胡 payments wait for the end of the game ("诈胡者在牌局结束后出钱给各家") and are then paid by
  the same rule, capped by what the false winner holds ("(加筹后)牌局结束时筹码不够数，…以断筹为限，
  少不补"); option ``false_win_short: "full"``: paid in full, below zero if need be.
* 断子: a player who owed something in the hand and is at 0 or below after it ("当盘筹子断或刚好为零").
  The first re-buys once (加筹: 100 子 at five, 50 at four; 头钱 unchanged) and from the next hand
  跟胡数 takes the bracketed values; a second 断子, or two in one hand, ends the game ("其后如有一家再
  断子，牌局结束；如一局中有两人断子时,不要加筹,牌局结束"). Option ``broke_rebuy: false``: the first
  断子 ends the game ("也有断子不加筹立即结束的").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

from mahjong_audit.engine.pickling import by_fields

CHIPS = MappingProxyType({"stake": 100, "table_fee": 5})
#: 加筹 by the number of players: "五人来法此人加筹一局子（100子），四人来法此人加筹半局子（50子）"
REBUY = MappingProxyType({4: 50, 5: 100})
#: the other side of a payment no player makes or receives: what a log's deltas leave over
#: when they do not add up (a hand already reported ``payout_mismatch``); never short of chips
BANK = -1
#: ``short_order``: whose next seat the turn order after the winner starts from
SHORT_ORDERS = ("payer", "winner")
#: ``false_win_short``: a deferred 诈胡 the false winner cannot cover at the end of the game
FALSE_WIN_SHORT = ("capped", "full")


class Payment(NamedTuple):
    """``payer`` owes (or paid) ``payee`` ``amount`` 子 (player indexes, or :data:`BANK`)."""

    payer: int
    payee: int
    amount: int


@dataclass(frozen=True, slots=True)
class HandChips:
    """What one hand did to the chips: the balances after it (players order), the payments as
    made (``paid``, one per debt, short ones below what was owed), who went broke, who
    re-bought, and whether the game ended with it."""

    hand_no: int
    balances: tuple[int, ...]
    broke: tuple[int, ...]
    rebuy: int | None
    ended: bool
    paid: tuple[Payment, ...] = ()


def start_balance() -> int:
    return CHIPS["stake"] - CHIPS["table_fee"]


def priority(payer: int, seating: Sequence[int], winner: int | None, standing: Sequence[int] = (),
             counted_from: str = "payer") -> tuple[int, ...]:
    """The players ``payer`` pays, in the order it pays them when short: the winner, then the
    seated players in turn order (逆时针: seat after seat) from the payer's seat — or from the
    winner's with ``counted_from="winner"`` — then the players standing out. A payer standing
    out (a 诈胡 at the end of the game) counts from seat 0."""
    seat_of = {p: s for s, p in enumerate(seating)}
    start = seat_of.get(winner if counted_from == "winner" and winner is not None else payer, -1)
    turn = tuple(seating[(start + k) % 4] for k in range(1, 5))
    head = (winner,) if winner is not None and winner != payer else ()
    rest = tuple(p for p in turn if p != payer and p != winner)
    return head + rest + tuple(p for p in standing if p != payer)


def settle(balances: Sequence[int], debts: Iterable[Payment], order_of: Mapping[int, Sequence[int]]
           ) -> tuple[tuple[int, ...], tuple[Payment, ...]]:
    """Balances after paying ``debts`` and the payments made, each payer paying its debts in
    ``order_of[payer]`` (payees it does not list after, by index) as far as what it holds plus
    what it receives in the same hand allows. Starts from every debt paid in full and lowers
    what a payer cannot cover until nothing changes (the greatest such settlement; amounts only
    fall, so it ends). Debts to or from :data:`BANK` move chips without a counterpart."""
    debts = [d for d in debts if d.amount > 0]

    def rank(d: Payment) -> tuple[int, int]:
        order = list(order_of.get(d.payer, ()))
        return (order.index(d.payee), 0) if d.payee in order else (len(order), d.payee)

    by_payer: dict[int, list[int]] = {}
    for i, d in enumerate(debts):
        by_payer.setdefault(d.payer, []).append(i)
    for ids in by_payer.values():
        ids.sort(key=lambda i: rank(debts[i]))
    paid = {i: d.amount for i, d in enumerate(debts)}
    while True:
        received = [0] * len(balances)
        for i, x in paid.items():
            if debts[i].payee != BANK:
                received[debts[i].payee] += x
        new: dict[int, int] = {}
        for payer, ids in by_payer.items():
            left = None if payer == BANK else max(0, balances[payer] + received[payer])
            for i in ids:
                x = debts[i].amount if left is None else min(debts[i].amount, left)
                if left is not None:
                    left -= x
                new[i] = x
        if new == paid:
            break
        paid = new
    after = list(balances)
    made = []
    for i, d in enumerate(debts):
        x = paid[i]
        if d.payer != BANK:
            after[d.payer] -= x
        if d.payee != BANK:
            after[d.payee] += x
        made.append(Payment(d.payer, d.payee, x))
    return tuple(after), tuple(made)


def from_net(net: Sequence[int], order_of: Mapping[int, Sequence[int]]) -> tuple[Payment, ...]:
    """Debts that give the changes ``net`` (players order) when a log's deltas are not the
    recomputed ones, so the pairs behind them are unknown: each player that loses pays those that
    gain, in its order (``order_of``, the others after by index), as far as they gain; what is left
    over goes to or comes from :data:`BANK`."""
    need = [max(0, x) for x in net]
    out: list[Payment] = []
    for p, x in enumerate(net):
        owe = -x
        if owe <= 0:
            continue
        order = list(order_of.get(p, ()))
        for r in order + [q for q in range(len(net)) if q not in order and q != p]:
            take = min(owe, need[r])
            if take:
                out.append(Payment(p, r, take))
                need[r] -= take
                owe -= take
        if owe:
            out.append(Payment(p, BANK, owe))
    out.extend(Payment(BANK, r, x) for r, x in enumerate(need) if x)
    return tuple(out)


def net_change(payments: Iterable[Payment], n: int) -> tuple[int, ...]:
    """Each player's net change of ``payments`` (the bank left out)."""
    out = [0] * n
    for d in payments:
        if d.payer != BANK:
            out[d.payer] -= d.amount
        if d.payee != BANK:
            out[d.payee] += d.amount
    return tuple(out)


class ChipLedger:
    """The running balances of one 牌局 (the only mutable state of the chips)."""

    def __init__(self, n_players: int, rebought: bool, broke_rebuy: bool, short_order: str = "payer",
                 false_win_short: str = "capped"):
        self.n = n_players
        self.balances = [start_balance()] * n_players
        self.rebought = rebought  # 跟胡数 in brackets (already so by option, or after a 加筹)
        self.broke_rebuy = broke_rebuy
        self.short_order = short_order
        self.false_win_short = false_win_short
        self.rebuy_done = False
        self.ended_at: int | None = None
        self.false_wins: dict[tuple[int, int], int] = {}  # 诈胡 debts (payer, payee), paid when the game ends
        self.seating: tuple[int, ...] = tuple(range(min(4, n_players)))  # the last hand's

    def orders(self, payers: Iterable[int], winner: int | None, seating: Sequence[int] | None = None
               ) -> dict[int, tuple[int, ...]]:
        """Each payer's :func:`priority` at ``seating`` (default: the last hand's)."""
        seated = tuple(self.seating if seating is None else seating)
        standing = tuple(p for p in range(self.n) if p not in seated)
        return {p: priority(p, seated, winner, standing, self.short_order) for p in payers}

    def hand(self, hand_no: int, seating: Sequence[int], winner: int | None, payments: Iterable[Payment],
             false_wins: Iterable[Payment] = ()) -> HandChips:
        """Apply one hand: ``payments`` (players indexes, in 子) are settled now, ``false_wins``
        (its 诈胡 debts) kept for the end of the game; ``winner``: the winning player or None."""
        self.seating = tuple(seating)
        for d in false_wins:
            if d.amount > 0:
                self.false_wins[(d.payer, d.payee)] = self.false_wins.get((d.payer, d.payee), 0) + d.amount
        debts = tuple(d for d in payments if d.amount > 0)
        payers = {d.payer for d in debts if d.payer != BANK}
        after_t, paid = settle(self.balances, debts, self.orders(payers, winner))
        after = list(after_t)
        broke = tuple(p for p in sorted(payers) if after[p] <= 0)
        rebuy = None
        if len(broke) >= 2 or (broke and (self.rebuy_done or not self.broke_rebuy)):
            self.ended_at = hand_no
        elif broke:
            rebuy = broke[0]
            after[rebuy] += REBUY[self.n]
            self.rebuy_done = True
            self.rebought = True
        self.balances = after
        return HandChips(hand_no, tuple(after), broke, rebuy, self.ended_at == hand_no, paid)

    def settle_false_wins(self) -> tuple[int, ...]:
        """The balances once the game's 诈胡 debts are paid (at its end): capped by what each false
        winner holds (plus what it receives from other false winners), in its turn order from
        the last hand's seating; with ``false_win_short="full"`` in full."""
        debts = tuple(Payment(a, b, x) for (a, b), x in sorted(self.false_wins.items()))
        self.false_wins = {}
        if self.false_win_short == "full":
            net = net_change(debts, self.n)
            self.balances = [b + c for b, c in zip(self.balances, net, strict=True)]
        else:
            after, _ = settle(self.balances, debts, self.orders({d.payer for d in debts}, None))
            self.balances = list(after)
        return tuple(self.balances)

    def resync(self, recorded: Sequence[int]) -> None:
        """Go on from the recorded balances (after a finding, so one error is reported once)."""
        self.balances = list(recorded)

by_fields(HandChips)
