// Replays a user's trade ledger in execution order with average-cost accounting.
//
// Average cost: a buy adds quantity × price + fees to the cost basis; a sell removes the
// average cost (cost basis / quantity) of the shares sold, and its realized P&L is
// quantity × price − fees − that removed cost.

import { unreachable } from '../../../common/types/unreachable';

/**
 * What a ledger entry records (its `side` on the wire). Every reader of the ledger switches over
 * these exhaustively, so a kind added here does not compile until each says what it does.
 */
export const TRANSACTION_KINDS = ['buy', 'sell'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

export interface LedgerEntry {
  id: number;
  symbol: string;
  side: TransactionKind;
  quantity: number;
  price: number;
  fees: number;
  executedAt: Date;
}

export interface HeldPosition {
  symbol: string;
  quantity: number;
  costBasis: number;
  realizedPnl: number;
}

export interface LedgerReplay {
  /** Open positions only (quantity above zero), keyed by symbol. */
  positions: Map<string, HeldPosition>;
  /** Realized P&L of every sell, keyed by entry id. */
  realizedPnlBySell: Map<number, number>;
  /** Realized P&L summed over every sell, including symbols no longer held. */
  totalRealizedPnl: number;
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

/** Execution order: by time, then by id so that entries at the same instant keep their insertion order. */
export function compareLedgerEntries(a: LedgerEntry, b: LedgerEntry): number {
  return a.executedAt.getTime() - b.executedAt.getTime() || a.id - b.id;
}

/** Throws OversellError at the first sell that exceeds the quantity held at its time. */
export function replayLedger(entries: readonly LedgerEntry[]): LedgerReplay {
  const book = new Map<string, HeldPosition>();
  const realizedPnlBySell = new Map<number, number>();
  let totalRealizedPnl = 0;

  for (const entry of [...entries].sort(compareLedgerEntries)) {
    const position = book.get(entry.symbol) ?? {
      symbol: entry.symbol,
      quantity: 0,
      costBasis: 0,
      realizedPnl: 0,
    };
    book.set(entry.symbol, position);
    switch (entry.side) {
      case 'buy':
        position.quantity += entry.quantity;
        position.costBasis += entry.quantity * entry.price + entry.fees;
        break;
      case 'sell': {
        if (entry.quantity > position.quantity + QUANTITY_EPSILON) {
          throw new OversellError(entry.symbol, entry.id, position.quantity, entry.quantity);
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
      default:
        unreachable(entry.side);
    }
  }

  const positions = new Map([...book].filter(([, position]) => position.quantity > 0));
  return { positions, realizedPnlBySell, totalRealizedPnl };
}

/** The first sell made impossible by the ledger, or null when every sell is covered. */
export function findOversell(entries: readonly LedgerEntry[]): OversellError | null {
  try {
    replayLedger(entries);
    return null;
  } catch (error) {
    if (error instanceof OversellError) return error;
    throw error;
  }
}

/**
 * Every sell that exceeds the quantity held at its time, each judged as if the earlier impossible
 * sells had not happened (so one bad sell does not condemn the ones after it).
 */
export function findOversells(entries: readonly LedgerEntry[]): OversellError[] {
  const violations: OversellError[] = [];
  let remaining = [...entries];
  for (;;) {
    const violation = findOversell(remaining);
    if (!violation) return violations;
    violations.push(violation);
    remaining = remaining.filter((entry) => entry.id !== violation.entryId);
  }
}
