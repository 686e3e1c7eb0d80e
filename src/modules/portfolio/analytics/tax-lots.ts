// Tax lots of the ledger: each buy opens a lot (identified by the buy's id) at its cost per share
// (price + fees / quantity); each sell closes the lots it names (specific identification), then the
// oldest open lots of its symbol, its net proceeds shared pro rata over the portions it closes. A
// split multiplies each open lot's quantity by its ratio and divides its cost per share by it.
import { unreachable } from '../../../common/types/unreachable';
import {
  HoldingEntry,
  inExecutionOrder,
  isHoldingEntry,
  LedgerEntry,
  QUANTITY_EPSILON,
  splitFactor,
} from './ledger-replay';
import { periodStart } from './time-weighted-returns';

export interface TaxLot {
  /** Id of the buy that opened it. */
  lotId: number;
  /** The account holding it (see LedgerEntry). */
  accountId?: number;
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

/** A sell's choice to close `quantity` shares of the lot opened by the buy `lotId`. */
export interface LotSelection {
  sellId: number;
  lotId: number;
  quantity: number;
}

/** A selection the ledger cannot honour at its sell's time. */
export interface LotSelectionProblem {
  sellId: number;
  lotId: number;
  symbol: string;
  /** `closed`: no open lot of the sell's symbol has that id then; `short`: fewer shares are open. */
  reason: 'closed' | 'short';
  /** Shares of the lot open at the sell's time (0 when closed). */
  open: number;
}

export interface MatchedLots extends FifoLots {
  /** Selections that could not be honoured (their sells fell back to FIFO for the rest). */
  problems: LotSelectionProblem[];
}

const NO_SELECTIONS: ReadonlyMap<number, readonly LotSelection[]> = new Map();

/** Every buy opens a lot; every sell closes the oldest open lots of its symbol first. */
export function matchLotsFifo(entries: readonly LedgerEntry[]): FifoLots {
  const { open, closed } = matchLots(entries, NO_SELECTIONS);
  return { open, closed };
}

/**
 * Every buy opens a lot; a sell closes the lots its selections name, as far as each is open, then
 * the oldest open lots of its symbol for the rest (all of it when it names none).
 */
export function matchLots(
  entries: readonly LedgerEntry[],
  selectionsBySell: ReadonlyMap<number, readonly LotSelection[]>,
): MatchedLots {
  const lotsBySymbol = new Map<string, TaxLot[]>();
  const closed: ClosedLotPortion[] = [];
  const problems: LotSelectionProblem[] = [];
  for (const entry of inExecutionOrder(entries)) {
    if (!isHoldingEntry(entry)) continue;
    // Each account's lots are its own: a sell closes only lots of its account.
    const key = entry.accountId === undefined ? entry.symbol : `${entry.symbol}\u0000${entry.accountId}`;
    const lots = lotsBySymbol.get(key) ?? [];
    lotsBySymbol.set(key, lots);
    switch (entry.side) {
      case 'buy':
        lots.push({
          lotId: entry.id,
          accountId: entry.accountId,
          symbol: entry.symbol,
          acquiredOn: entry.tradeDate,
          quantity: entry.quantity,
          costPerShare: (entry.quantity * entry.price + entry.fees) / entry.quantity,
        });
        break;
      case 'sell': {
        const selected = closeSelectedLots(lots, entry, selectionsBySell.get(entry.id) ?? []);
        problems.push(...selected.problems);
        closed.push(...selected.closed, ...closeLotsFifo(lots, entry, entry.quantity - selected.quantity));
        break;
      }
      case 'split':
        for (const lot of lots) {
          lot.quantity *= splitFactor(entry);
          lot.costPerShare /= splitFactor(entry);
        }
        break;
      case 'transfer_in':
        // A transferred position keeps its acquisition date: its holding period goes on.
        lots.push({
          lotId: entry.id,
          accountId: entry.accountId,
          symbol: entry.symbol,
          acquiredOn: entry.acquiredOn ?? entry.tradeDate,
          quantity: entry.quantity,
          costPerShare: (entry.amount ?? 0) / entry.quantity,
        });
        break;
      case 'transfer_out':
        // The oldest lots leave first, realizing nothing (the pair's receiving leg re-opens them).
        closeLotsFifo(lots, entry, entry.quantity);
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
  const open = [...lotsBySymbol.keys()].sort(compareLotKeys).flatMap((key) => lotsBySymbol.get(key)!);
  return { open, closed, problems };
}

/** By symbol, then by account id (as numbers). */
function compareLotKeys(a: string, b: string): number {
  const [symbolA, accountA = ''] = a.split('\u0000');
  const [symbolB, accountB = ''] = b.split('\u0000');
  return symbolA < symbolB ? -1 : symbolA > symbolB ? 1 : Number(accountA) - Number(accountB);
}

/** Closes what each selection names, as far as its lot is open; the lots are shortened in place. */
function closeSelectedLots(
  lots: TaxLot[],
  sell: HoldingEntry,
  selections: readonly LotSelection[],
): { closed: ClosedLotPortion[]; quantity: number; problems: LotSelectionProblem[] } {
  const closed: ClosedLotPortion[] = [];
  const problems: LotSelectionProblem[] = [];
  let quantity = 0;
  for (const selection of selections) {
    const index = lots.findIndex((lot) => lot.lotId === selection.lotId);
    const open = index < 0 ? 0 : lots[index].quantity;
    if (selection.quantity > open + QUANTITY_EPSILON) {
      const reason = index < 0 ? 'closed' : 'short';
      problems.push({ sellId: sell.id, lotId: selection.lotId, symbol: sell.symbol, reason, open });
    }
    if (index < 0) continue;
    const portion = closePortion(lots, index, sell, Math.min(selection.quantity, open));
    closed.push(portion);
    quantity += portion.quantity;
  }
  return { closed, quantity, problems };
}

/** Closes the oldest open lots first, as far as `remaining` reaches; the lots are shortened in place. */
function closeLotsFifo(lots: TaxLot[], sell: HoldingEntry, remaining: number): ClosedLotPortion[] {
  const closed: ClosedLotPortion[] = [];
  while (remaining > QUANTITY_EPSILON && lots.length > 0) {
    const portion = closePortion(lots, 0, sell, Math.min(remaining, lots[0].quantity));
    closed.push(portion);
    remaining -= portion.quantity;
  }
  return closed;
}

/** Closes `quantity` shares of `lots[index]` by `sell`, dropping the lot once it is used up. */
function closePortion(lots: TaxLot[], index: number, sell: HoldingEntry, quantity: number): ClosedLotPortion {
  const lot = lots[index];
  const disposedOn = sell.tradeDate;
  const netProceedsPerShare = (sell.quantity * sell.price - sell.fees) / sell.quantity;
  const proceeds = quantity * netProceedsPerShare;
  const cost = quantity * lot.costPerShare;
  lot.quantity -= quantity;
  if (lot.quantity <= QUANTITY_EPSILON) lots.splice(index, 1);
  return {
    symbol: sell.symbol,
    sellId: sell.id,
    acquiredOn: lot.acquiredOn,
    disposedOn,
    quantity,
    proceeds,
    cost,
    gain: proceeds - cost,
    term: holdingTerm(lot.acquiredOn, disposedOn),
  };
}

/** Long-term when held more than one year: acquired before the same date a year ago (29 Feb → 28 Feb). */
export function holdingTerm(acquiredOn: string, today: string): HoldingTerm {
  return acquiredOn < periodStart('1Y', today, acquiredOn) ? 'long' : 'short';
}

export function holdingDays(acquiredOn: string, today: string): number {
  return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${acquiredOn}T00:00:00Z`)) / 86_400_000);
}
