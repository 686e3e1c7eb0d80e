// Tax lots of the ledger, identified first in, first out: each buy opens a lot at its cost per
// share (price + fees / quantity); each sell closes the oldest open lots of its symbol first, its
// net proceeds shared pro rata over the portions it closes. The positions' cost basis and realized
// P&L stay average cost; the lots show what a FIFO identification leaves open and has realized. A
// split multiplies each open lot's quantity by its ratio and divides its cost per share by it.
import { unreachable } from '../../../common/types/unreachable';
import {
  compareLedgerEntries,
  isHoldingEntry,
  LedgerEntry,
  QUANTITY_EPSILON,
  splitFactor,
} from './ledger-replay';
import { periodStart, tradeDay } from './time-weighted-returns';

export interface TaxLot {
  symbol: string;
  /** Exchange (New York) date of the buy that opened it. */
  acquiredOn: string;
  quantity: number;
  /** (quantity × price + fees) / quantity of the opening buy. */
  costPerShare: number;
}

export type HoldingTerm = 'short' | 'long';

/** The part of one lot that one sell closed. */
export interface ClosedLotPortion {
  symbol: string;
  sellId: number;
  acquiredOn: string;
  disposedOn: string;
  quantity: number;
  /** This portion's share of the sell's net proceeds (quantity × price − fees, pro rata). */
  proceeds: number;
  /** quantity × the lot's cost per share. */
  cost: number;
  gain: number;
  term: HoldingTerm;
}

export interface FifoLots {
  /** Open lots, by symbol and then oldest first. */
  open: TaxLot[];
  /** Closed portions in disposal order. */
  closed: ClosedLotPortion[];
}

/** Every buy opens a lot; every sell closes the oldest open lots of its symbol first. */
export function matchLotsFifo(entries: readonly LedgerEntry[]): FifoLots {
  const lotsBySymbol = new Map<string, TaxLot[]>();
  const closed: ClosedLotPortion[] = [];
  for (const entry of [...entries].filter(isHoldingEntry).sort(compareLedgerEntries)) {
    const lots = lotsBySymbol.get(entry.symbol) ?? [];
    lotsBySymbol.set(entry.symbol, lots);
    switch (entry.side) {
      case 'buy':
        lots.push({
          symbol: entry.symbol,
          acquiredOn: tradeDay(entry.executedAt),
          quantity: entry.quantity,
          costPerShare: (entry.quantity * entry.price + entry.fees) / entry.quantity,
        });
        break;
      case 'sell':
        closed.push(...closeLotsFifo(lots, entry));
        break;
      case 'split':
        for (const lot of lots) {
          lot.quantity *= splitFactor(entry);
          lot.costPerShare /= splitFactor(entry);
        }
        break;
      case 'dividend':
      case 'fee':
      case 'deposit':
      case 'withdrawal':
      case 'interest':
        break;
      default:
        unreachable(entry.side);
    }
  }
  const open = [...lotsBySymbol.keys()].sort().flatMap((symbol) => lotsBySymbol.get(symbol)!);
  return { open, closed };
}

/** Closes the oldest open lots first, as far as the sell reaches; the lots are shortened in place. */
function closeLotsFifo(lots: TaxLot[], sell: LedgerEntry): ClosedLotPortion[] {
  const closed: ClosedLotPortion[] = [];
  const disposedOn = tradeDay(sell.executedAt);
  const netProceedsPerShare = (sell.quantity * sell.price - sell.fees) / sell.quantity;
  let remaining = sell.quantity;
  while (remaining > QUANTITY_EPSILON && lots.length > 0) {
    const lot = lots[0];
    const quantity = Math.min(remaining, lot.quantity);
    const proceeds = quantity * netProceedsPerShare;
    const cost = quantity * lot.costPerShare;
    closed.push({
      symbol: lot.symbol,
      sellId: sell.id,
      acquiredOn: lot.acquiredOn,
      disposedOn,
      quantity,
      proceeds,
      cost,
      gain: proceeds - cost,
      term: holdingTerm(lot.acquiredOn, disposedOn),
    });
    lot.quantity -= quantity;
    remaining -= quantity;
    if (lot.quantity <= QUANTITY_EPSILON) lots.shift();
  }
  return closed;
}

/** Long-term when held more than one year: acquired before the same date a year ago (29 Feb → 28 Feb). */
export function holdingTerm(acquiredOn: string, today: string): HoldingTerm {
  return acquiredOn < periodStart('1Y', today, acquiredOn) ? 'long' : 'short';
}

export function holdingDays(acquiredOn: string, today: string): number {
  return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${acquiredOn}T00:00:00Z`)) / 86_400_000);
}
