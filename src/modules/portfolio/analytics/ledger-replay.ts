// Replays a user's ledger in execution order with average-cost accounting.
//
// Average cost: a buy adds quantity × price + fees to the cost basis; a sell removes the
// average cost (cost basis / quantity) of the shares sold, and its realized P&L is
// quantity × price − fees − that removed cost. A split multiplies the quantity by its ratio and
// leaves the cost basis (so the cost per share is divided by it). Dividends, deposits,
// withdrawals, fees and interest move only the cash balance (see cashFlow).

import { unreachable } from '../../../common/types/unreachable';
import { MIN_AMOUNT } from '../ledger-limits';

/**
 * What a ledger entry records (its `side` on the wire). Every reader of the ledger switches over
 * these exhaustively, so a kind added here does not compile until each says what it does.
 */
export const TRANSACTION_KINDS = [
  'buy',
  'sell',
  'dividend',
  'split',
  'deposit',
  'withdrawal',
  'fee',
  'interest',
] as const;

/**
 * Cash or shares moved into or out of an account: from or to another broker, or, as a linked
 * pair, between two of the user's accounts. Not in TRANSACTION_KINDS: the CSV import does not take them.
 */
export const TRANSFER_KINDS = ['transfer_in', 'transfer_out'] as const;

/** Every kind an entry may be. */
export const ENTRY_KINDS = [...TRANSACTION_KINDS, ...TRANSFER_KINDS] as const;
export type TransactionKind = (typeof ENTRY_KINDS)[number];

/** The kinds that trade shares: they carry quantity, price and fees. */
export const TRADE_KINDS: readonly TransactionKind[] = ['buy', 'sell'];

/**
 * One ledger entry. Trades (buy, sell) use quantity, price and fees; the other kinds store 0 there
 * and use `amount` (dividend, deposit, withdrawal, fee, interest), `withholdingTax` (dividend)
 * or `splitTo`:`splitFrom` (split: `splitTo` shares for every `splitFrom` held).
 */
export interface LedgerEntry {
  id: number;
  /**
   * The account it belongs to: positions, lots, cost basis and cash are kept per account, so a sell
   * closes only what its own account holds. Undefined (entries built outside the ledger) is one account.
   */
  accountId?: number;
  /** Null for deposits, withdrawals, interest and fees not charged on a position. */
  symbol: string | null;
  side: TransactionKind;
  quantity: number;
  price: number;
  fees: number;
  executedAt: Date;
  /**
   * The exchange (New York) date the entry belongs to, YYYY-MM-DD, fixed when it was recorded: the
   * date itself when `executed_at` was a date only, else the New York date of the instant.
   */
  tradeDate: string;
  /** USD: the gross dividend, or the deposit, withdrawal, fee or interest. */
  amount?: number | null;
  /** USD withheld from a dividend (part of `amount`). */
  withholdingTax?: number | null;
  splitTo?: number | null;
  splitFrom?: number | null;
  /** A share transfer in: the date its shares were first acquired (their lot's date); else null. */
  acquiredOn?: string | null;
  /** The receiving leg of a transfer between two accounts: the id of its sending leg. */
  transferOf?: number | null;
}

export interface HeldPosition {
  symbol: string;
  quantity: number;
  costBasis: number;
  realizedPnl: number;
}

export interface LedgerReplay {
  /** Open positions only (quantity above zero), keyed by symbol: each account's summed. */
  positions: Map<string, HeldPosition>;
  /** Realized P&L of every sell, keyed by entry id. */
  realizedPnlBySell: Map<number, number>;
  /** Realized P&L summed over every sell, including symbols no longer held. */
  totalRealizedPnl: number;
  /** Σ cashFlow of every entry: may be negative, buys draw on cash that was never deposited. */
  cashBalance: number;
}

/** An entry about a position: every trade, dividend and split, and a fee charged on a position. */
export type HoldingEntry = LedgerEntry & { symbol: string };

/**
 * Whether an entry is about a position rather than the cash account alone (deposits, withdrawals,
 * interest and fees not charged on a position).
 */
export function isHoldingEntry<T extends LedgerEntry>(entry: T): entry is T & { symbol: string } {
  switch (entry.side) {
    case 'buy':
    case 'sell':
    case 'dividend':
    case 'split':
      return true;
    case 'fee':
    case 'transfer_in':
    case 'transfer_out':
      return entry.symbol !== null;
    case 'deposit':
    case 'withdrawal':
    case 'interest':
      return false;
    default:
      return unreachable(entry.side);
  }
}

/** Quantities closer than this are equal: fractional shares accumulate binary rounding error. */
export const QUANTITY_EPSILON = 1e-9;

export class OversellError extends Error {
  constructor(
    readonly symbol: string,
    readonly entryId: number,
    readonly held: number,
    readonly requested: number,
  ) {
    super(`sell of ${requested} ${symbol} (entry ${entryId}) exceeds the ${held} held at that time`);
  }
}

/** The kinds of entry that need a position: a dividend, a split, a fee charged on a position. */
export type PositionEventKind = 'dividend' | 'split' | 'fee';

/**
 * A dividend or a fee on a symbol never held before it, or a split of a symbol not held at its
 * time.
 */
export class UnheldPositionError extends Error {
  constructor(
    readonly symbol: string,
    readonly entryId: number,
    readonly kind: PositionEventKind,
  ) {
    super(`${kind} of ${symbol} (entry ${entryId}) without a position`);
  }
}

/**
 * A split that would leave a position smaller than the ledger's smallest quantity: its shares
 * could never be sold again (a sell is at least MIN_AMOUNT), so it is refused.
 */
export class SplitBelowMinimumError extends Error {
  constructor(
    readonly symbol: string,
    readonly entryId: number,
  ) {
    super(`split of ${symbol} (entry ${entryId}) would leave less than ${MIN_AMOUNT} shares`);
  }
}

/** What makes a ledger impossible. */
export type LedgerViolation = OversellError | UnheldPositionError | SplitBelowMinimumError;

/** Execution order: by time, then by id so that entries at the same instant keep their insertion order. */
export function compareLedgerEntries(a: LedgerEntry, b: LedgerEntry): number {
  return a.executedAt.getTime() - b.executedAt.getTime() || a.id - b.id;
}

/** The entries in execution order: the same array when they already are (as stored ledgers are). */
export function inExecutionOrder<T extends LedgerEntry>(entries: readonly T[]): readonly T[] {
  for (let index = 1; index < entries.length; index += 1) {
    if (compareLedgerEntries(entries[index - 1], entries[index]) > 0)
      return [...entries].sort(compareLedgerEntries);
  }
  return entries;
}

/** Everything a replay has seen, closed positions included. */
interface ReplayState {
  /** Every account's positions, by account and then symbol. */
  books: Map<number | undefined, Map<string, HeldPosition>>;
  realizedPnlBySell: Map<number, number>;
  totalRealizedPnl: number;
  cashBalance: number;
  /** The last entry replayed, in execution order. */
  last: LedgerEntry | undefined;
  replay: LedgerReplay;
}

/**
 * The replay of a ledger with its full state: what a replay of the same ledger with entries
 * appended carries on from. Not kept here: its owner is whoever holds the ledger it replayed (the
 * ledger cache's entry of one user's version, the ledger of one locked change), so it lives and is
 * bounded with that ledger, and nothing is found again by an array's identity.
 */
export interface ReplayCheckpoint extends Readonly<ReplayState> {
  /** The entries replayed, as given. */
  readonly entries: readonly LedgerEntry[];
}

/**
 * Throws OversellError at the first sell that exceeds the quantity held at its time, and
 * UnheldPositionError at the first dividend or position fee on a symbol never held before it or
 * split of a symbol not held at its time (a dividend or a fee may come after the position was sold:
 * it belongs to the time it was held).
 *
 * With `from`, the checkpoint of a ledger `entries` begins with (the same entry objects): when the
 * entries after it all come later in execution order, its replay is carried on over them only.
 * Anything else is replayed in full, so a wrong `from` costs time, never correctness.
 */
export function replayLedger(entries: readonly LedgerEntry[], from?: ReplayCheckpoint): LedgerReplay {
  return replayCheckpoint(entries, from).replay;
}

/** replayLedger's replay of `entries` with its state, for a later replay to carry on from. */
export function replayCheckpoint(entries: readonly LedgerEntry[], from?: ReplayCheckpoint): ReplayCheckpoint {
  if (from?.entries === entries) return from;
  const appended = from && appendedEntries(entries, from.entries, from.last);
  const state = appended
    ? continueReplay(from, appended)
    : continueReplay(emptyState(), inExecutionOrder(entries));
  return { ...state, entries };
}

/**
 * The checkpoint of `entries`, which replay exactly as `checkpoint`'s do (they hold the same trades,
 * differing only in bookkeeping such as stored realized P&L), so their replay is not computed again.
 */
export function sameReplay(checkpoint: ReplayCheckpoint, entries: readonly LedgerEntry[]): ReplayCheckpoint {
  return { ...checkpoint, entries };
}

/**
 * The entries after `base` when `entries` begins with base (the same entry objects) and they all
 * come after base's entries in execution order (`baseLast`, base's latest, when the caller knows
 * it); otherwise null.
 */
export function appendedEntries<T extends LedgerEntry>(
  entries: readonly T[],
  base: readonly LedgerEntry[],
  baseLast?: LedgerEntry,
): readonly T[] | null {
  if (entries.length < base.length) return null;
  for (let index = 0; index < base.length; index += 1) {
    if (entries[index] !== base[index]) return null;
  }
  let previous = base.length > 0 ? (baseLast ?? latestEntry(base)) : undefined;
  const appended = entries.slice(base.length);
  for (const entry of appended) {
    if (previous && compareLedgerEntries(previous, entry) >= 0) return null;
    previous = entry;
  }
  return appended;
}

/** The last of a non-empty ledger's entries in execution order. */
export function latestEntry<T extends LedgerEntry>(entries: readonly T[]): T {
  return entries.reduce((latest, entry) => (compareLedgerEntries(latest, entry) < 0 ? entry : latest));
}

function emptyState(): ReplayState {
  return {
    books: new Map(),
    realizedPnlBySell: new Map(),
    totalRealizedPnl: 0,
    cashBalance: 0,
    last: undefined,
    replay: { positions: new Map(), realizedPnlBySell: new Map(), totalRealizedPnl: 0, cashBalance: 0 },
  };
}

/** A new state: `from` (left untouched: its positions are copied) moved on by `ordered`, in execution order. */
function continueReplay(from: Readonly<ReplayState>, ordered: readonly LedgerEntry[]): ReplayState {
  const books = new Map(
    [...from.books].map(([accountId, book]) => [
      accountId,
      new Map([...book].map(([symbol, position]) => [symbol, { ...position }])),
    ]),
  );
  const realizedPnlBySell = new Map(from.realizedPnlBySell);
  let totalRealizedPnl = from.totalRealizedPnl;
  let cashBalance = from.cashBalance;
  const bookOf = (accountId: number | undefined) => {
    let book = books.get(accountId);
    if (!book) {
      book = new Map();
      books.set(accountId, book);
    }
    return book;
  };
  const positionOf = (entry: LedgerEntry) => {
    const book = bookOf(entry.accountId);
    const symbol = entry.symbol!;
    const position = book.get(symbol) ?? { symbol, quantity: 0, costBasis: 0, realizedPnl: 0 };
    book.set(symbol, position);
    return position;
  };

  for (const entry of ordered) {
    cashBalance += cashFlow(entry);
    switch (entry.side) {
      case 'buy': {
        const position = positionOf(entry);
        position.quantity += entry.quantity;
        position.costBasis += entry.quantity * entry.price + entry.fees;
        break;
      }
      case 'sell': {
        const position = positionOf(entry);
        if (entry.quantity > position.quantity + QUANTITY_EPSILON) {
          throw new OversellError(entry.symbol!, entry.id, position.quantity, entry.quantity);
        }
        const removedCost = (position.costBasis * entry.quantity) / position.quantity;
        const realized = entry.quantity * entry.price - entry.fees - removedCost;
        realizedPnlBySell.set(entry.id, realized);
        position.realizedPnl += realized;
        totalRealizedPnl += realized;
        position.quantity -= entry.quantity;
        position.costBasis -= removedCost;
        if (position.quantity <= QUANTITY_EPSILON) {
          position.quantity = 0;
          position.costBasis = 0;
        }
        break;
      }
      case 'split': {
        const position = books.get(entry.accountId)?.get(entry.symbol!);
        if (!position || position.quantity === 0)
          throw new UnheldPositionError(entry.symbol!, entry.id, 'split');
        position.quantity *= splitFactor(entry);
        // Relative slack: 0.005 × 1/500 is MIN_AMOUNT, give or take binary rounding.
        if (position.quantity < MIN_AMOUNT * (1 - 1e-9))
          throw new SplitBelowMinimumError(entry.symbol!, entry.id);
        break;
      }
      case 'dividend':
        if (!books.get(entry.accountId)?.has(entry.symbol!))
          throw new UnheldPositionError(entry.symbol!, entry.id, 'dividend');
        break;
      case 'fee':
        if (entry.symbol !== null && !books.get(entry.accountId)?.has(entry.symbol))
          throw new UnheldPositionError(entry.symbol, entry.id, 'fee');
        break;
      case 'transfer_in': {
        if (entry.symbol === null) break;
        // Shares arrive with the cost basis they had where they came from (in `amount`).
        const position = positionOf(entry);
        position.quantity += entry.quantity;
        position.costBasis += entry.amount ?? 0;
        break;
      }
      case 'transfer_out': {
        if (entry.symbol === null) break;
        // Shares leave with their share of the cost basis, and realize nothing.
        const position = positionOf(entry);
        if (entry.quantity > position.quantity + QUANTITY_EPSILON)
          throw new OversellError(entry.symbol, entry.id, position.quantity, entry.quantity);
        position.costBasis -= (position.costBasis * entry.quantity) / position.quantity;
        position.quantity -= entry.quantity;
        if (position.quantity <= QUANTITY_EPSILON) {
          position.quantity = 0;
          position.costBasis = 0;
        }
        break;
      }
      case 'deposit':
      case 'withdrawal':
      case 'interest':
        break;
      default:
        unreachable(entry.side);
    }
  }

  const positions = openPositions(books);
  return {
    books,
    realizedPnlBySell,
    totalRealizedPnl,
    cashBalance,
    last: ordered.at(-1) ?? from.last,
    replay: { positions, realizedPnlBySell, totalRealizedPnl, cashBalance },
  };
}

/** The open positions of every account, summed by symbol (one account's are its own). */
function openPositions(books: ReadonlyMap<number | undefined, ReadonlyMap<string, HeldPosition>>) {
  const positions = new Map<string, HeldPosition>();
  for (const book of books.values()) {
    for (const [symbol, position] of book) {
      if (position.quantity <= 0) continue;
      const summed = positions.get(symbol);
      if (!summed) positions.set(symbol, books.size === 1 ? position : { ...position });
      else {
        summed.quantity += position.quantity;
        summed.costBasis += position.costBasis;
        summed.realizedPnl += position.realizedPnl;
      }
    }
  }
  if (books.size === 1) return positions;
  // A position's realized P&L includes the sells of accounts that no longer hold the symbol.
  for (const book of books.values()) {
    for (const [symbol, position] of book) {
      const summed = position.quantity <= 0 ? positions.get(symbol) : undefined;
      if (summed) summed.realizedPnl += position.realizedPnl;
    }
  }
  return positions;
}

/** New shares per share held: 4 for a 4:1 split, 0.1 for 1:10. */
export function splitFactor(entry: LedgerEntry): number {
  return entry.splitTo! / entry.splitFrom!;
}

/**
 * What an entry adds to (or, negative, takes from) the cash balance: a sell's proceeds net of
 * fees, a dividend net of withholding tax, deposits and interest in; buys (with their fees),
 * withdrawals and fees out; a split nothing.
 */
export function cashFlow(entry: LedgerEntry): number {
  switch (entry.side) {
    case 'buy':
      return -(entry.quantity * entry.price + entry.fees);
    case 'sell':
      return entry.quantity * entry.price - entry.fees;
    case 'dividend':
      return entry.amount! - (entry.withholdingTax ?? 0);
    case 'deposit':
    case 'interest':
      return entry.amount!;
    case 'withdrawal':
    case 'fee':
      return -entry.amount!;
    case 'split':
      return 0;
    case 'transfer_in':
      return entry.symbol === null ? entry.amount! : 0;
    case 'transfer_out':
      return entry.symbol === null ? -entry.amount! : 0;
    default:
      return unreachable(entry.side);
  }
}

/** Cash below this is still zero: amounts are kept to 8 decimals. */
const CASH_EPSILON = 5e-9;

/**
 * The first entry of `entries` (in execution order) after which the cash balance is below zero and
 * below what it was at the same point of `before` (the ledger as it stood before a change; empty
 * by default). A change is judged by the shortfall it makes: a ledger whose cash already went
 * negative can still take what its cash covers. When only entries `before` held leave the balance
 * lower (a deleted deposit at the end), the first of them is returned. Null when none.
 */
export function findCashShortfall(
  entries: readonly LedgerEntry[],
  before: readonly LedgerEntry[] = [],
): LedgerEntry | null {
  const earlier = inExecutionOrder(before);
  // Each account's cash is its own: a balance is judged against the same account's before.
  const balances = new Map<number | undefined, number>();
  const balancesBefore = new Map<number | undefined, number>();
  let cursor = 0;
  const short = (accountId: number | undefined) => {
    const balance = balances.get(accountId) ?? 0;
    return balance < -CASH_EPSILON && balance < (balancesBefore.get(accountId) ?? 0) - CASH_EPSILON;
  };
  const passBefore = (entry: LedgerEntry) =>
    balancesBefore.set(entry.accountId, (balancesBefore.get(entry.accountId) ?? 0) + cashFlow(entry));
  for (const entry of inExecutionOrder(entries)) {
    while (cursor < earlier.length && compareLedgerEntries(earlier[cursor], entry) <= 0) {
      passBefore(earlier[cursor]);
      cursor += 1;
    }
    balances.set(entry.accountId, (balances.get(entry.accountId) ?? 0) + cashFlow(entry));
    if (short(entry.accountId)) return entry;
  }
  for (; cursor < earlier.length; cursor += 1) {
    passBefore(earlier[cursor]);
    if (short(earlier[cursor].accountId)) return earlier[cursor];
  }
  return null;
}

/**
 * The first entry made impossible by the ledger (an oversell, or a dividend, split or position fee
 * without a position), or null when the ledger is possible (`from` as in replayLedger).
 */
export function findOversell(
  entries: readonly LedgerEntry[],
  from?: ReplayCheckpoint,
): LedgerViolation | null {
  const replayed = checkedReplay(entries, from);
  return 'replay' in replayed ? null : replayed;
}

/** replayCheckpoint's replay, or the first entry that makes the ledger impossible (see findOversell). */
export function checkedReplay(
  entries: readonly LedgerEntry[],
  from?: ReplayCheckpoint,
): ReplayCheckpoint | LedgerViolation {
  try {
    return replayCheckpoint(entries, from);
  } catch (error) {
    if (
      error instanceof OversellError ||
      error instanceof UnheldPositionError ||
      error instanceof SplitBelowMinimumError
    )
      return error;
    throw error;
  }
}

/**
 * Every impossible entry (see findOversell), each judged as if the earlier impossible entries had
 * not happened (so one bad sell does not condemn the ones after it).
 */
export function findOversells(entries: readonly LedgerEntry[]): LedgerViolation[] {
  const violations: LedgerViolation[] = [];
  let remaining = [...entries];
  for (;;) {
    const violation = findOversell(remaining);
    if (!violation) return violations;
    violations.push(violation);
    remaining = remaining.filter((entry) => entry.id !== violation.entryId);
  }
}
