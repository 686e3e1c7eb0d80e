// Which imported entries the ledger can take, decided before anything is written: the rules a
// request is held to (amounts within the ledger's limits, dates not in the future), and the
// replay's (no sell or share transfer out beyond the shares held at its time, no dividend or
// position fee on a symbol never held, no split of a position not held). A broker's "added shares"
// split becomes a ratio from the holding at its date. Every entry the ledger cannot take is rejected with its line.
import { LedgerEntry, QUANTITY_EPSILON, TransactionKind } from '../analytics/ledger-replay';
import {
  EARLIEST_TRADE_DATE,
  MAX_CASH,
  MAX_FEES,
  MAX_PRICE,
  MAX_QUANTITY,
  MAX_SPLIT_TERM,
  MIN_AMOUNT,
} from '../ledger-limits';
import { ImportedEntry, RejectedRow } from './broker-export';

/** An entry the ledger can take, with its instant and its split ratio resolved. */
export interface FittingEntry extends ImportedEntry {
  executedAt: Date;
  splitTo: number | null;
  splitFrom: number | null;
}

export interface LedgerFit {
  /** In the order they are to be recorded: by date, and within a day money in and buys first. */
  accepted: FittingEntry[];
  rejected: RejectedRow[];
}

/** Within a day: cash and shares in, and buys, before what may need them (sells, dividends, fees, cash out). */
const DAY_RANK: Record<TransactionKind, number> = {
  deposit: 0,
  interest: 0,
  transfer_in: 0,
  buy: 1,
  split: 2,
  sell: 3,
  dividend: 4,
  fee: 4,
  withdrawal: 5,
  transfer_out: 5,
};

/** The entries in the order the ledger should record them (files list newest first as often as not). */
export function inRecordingOrder(entries: readonly ImportedEntry[]): ImportedEntry[] {
  const times = new Map(entries.map((entry) => [entry, instantOf(entry).getTime()]));
  return [...entries].sort(
    (a, b) => times.get(a)! - times.get(b)! || DAY_RANK[a.side] - DAY_RANK[b.side] || a.line - b.line,
  );
}

export function instantOf(entry: ImportedEntry): Date {
  return entry.executedAt ?? new Date(`${entry.date}T00:00:00Z`);
}

/**
 * Fits `entries` (in recording order) after the `existing` ledger (in execution order): each one the
 * ledger would refuse is rejected, and the rest are replayed as if it were not there.
 */
export function fitToLedger(
  existing: readonly LedgerEntry[],
  entries: readonly ImportedEntry[],
  now: Date,
): LedgerFit {
  const held = new Map<string, number>();
  const everHeld = new Set<string>();
  const accepted: FittingEntry[] = [];
  const rejected: RejectedRow[] = [];
  const apply = (entry: {
    side: TransactionKind;
    symbol: string | null;
    quantity: number;
    splitTo?: number | null;
    splitFrom?: number | null;
  }) => {
    const symbol = entry.symbol!;
    if (entry.side === 'buy' || (entry.side === 'transfer_in' && entry.symbol !== null)) {
      held.set(symbol, (held.get(symbol) ?? 0) + entry.quantity);
      everHeld.add(symbol);
    } else if (entry.side === 'sell' || (entry.side === 'transfer_out' && entry.symbol !== null)) {
      held.set(symbol, Math.max(0, (held.get(symbol) ?? 0) - entry.quantity));
    } else if (entry.side === 'split') {
      held.set(symbol, (held.get(symbol) ?? 0) * (entry.splitTo! / entry.splitFrom!));
    }
  };
  // Reinvested dividends waiting for the buy they paid for (by the buy's line): see below.
  const waiting = new Map<number, ImportedEntry>();
  const queue = [...entries];
  let next = 0;
  for (let index = 0; index < queue.length; index += 1) {
    const entry = queue[index];
    const executedAt = instantOf(entry);
    while (next < existing.length && existing[next].executedAt.getTime() <= executedAt.getTime()) {
      const stored = existing[next];
      if (stored.side === 'split') apply({ ...stored, splitTo: stored.splitTo, splitFrom: stored.splitFrom });
      else apply(stored);
      next += 1;
    }
    const problem = limitProblem(entry, executedAt, now);
    if (problem) {
      rejected.push({ line: entry.line, reason: problem });
      continue;
    }
    const symbol = entry.symbol;
    const quantityHeld = symbol === null ? 0 : (held.get(symbol) ?? 0);
    let splitTo: number | null = null;
    let splitFrom: number | null = null;
    const leaving = entry.side === 'sell' || (entry.side === 'transfer_out' && symbol !== null);
    if (leaving && entry.quantity > quantityHeld + QUANTITY_EPSILON) {
      rejected.push({
        line: entry.line,
        reason: `${entry.side === 'sell' ? 'sells' : 'transfers out'} ${entry.quantity} ${symbol} but ${round(quantityHeld)} are held at that date (shares bought before the export began need an opening entry)`,
      });
      continue;
    }
    if ((entry.side === 'dividend' || (entry.side === 'fee' && symbol !== null)) && !everHeld.has(symbol!)) {
      // A dividend the broker booked a day before the first shares it reinvests into is recorded
      // with that buy, on its date, rather than refused: the pair is one event.
      const buy =
        entry.side === 'dividend' && entry.pairedWith !== undefined
          ? queue.slice(index + 1).find((later) => later.line === entry.pairedWith)
          : undefined;
      if (buy) {
        waiting.set(buy.line, {
          ...entry,
          date: buy.date,
          executedAt: instantOf(buy),
          action: `${entry.action} (dated with its reinvestment on line ${buy.line})`,
        });
        continue;
      }
      rejected.push({
        line: entry.line,
        reason: `no position in ${symbol} was held before this ${entry.side} (shares bought before the export began need an opening entry)`,
      });
      continue;
    }
    if (entry.side === 'split') {
      if (quantityHeld <= QUANTITY_EPSILON) {
        rejected.push({
          line: entry.line,
          reason: `no position in ${symbol} is held at the time of this split`,
        });
        continue;
      }
      const ratio =
        entry.split && 'addedShares' in entry.split
          ? ratioOfAddedShares(quantityHeld, entry.split.addedShares)
          : entry.split;
      if (!ratio) {
        rejected.push({
          line: entry.line,
          reason: `the split adds ${'addedShares' in entry.split! ? entry.split.addedShares : 0} shares to the ${round(quantityHeld)} held: not a whole-number ratio`,
        });
        continue;
      }
      splitTo = ratio.to;
      splitFrom = ratio.from;
      if (quantityHeld * (splitTo / splitFrom) < MIN_AMOUNT) {
        rejected.push({
          line: entry.line,
          reason: `the split would leave less than ${MIN_AMOUNT} shares of ${symbol}`,
        });
        continue;
      }
    }
    const fitting: FittingEntry = { ...entry, executedAt, splitTo, splitFrom };
    apply(fitting);
    accepted.push(fitting);
    const dividend = waiting.get(entry.line);
    if (dividend) queue.splice(index + 1, 0, dividend);
  }
  return { accepted, rejected };
}

/** What breaks the ledger's own limits on one entry, or null. */
function limitProblem(entry: ImportedEntry, executedAt: Date, now: Date): string | null {
  if (executedAt.getTime() > now.getTime()) return 'the date is in the future';
  if (entry.date < EARLIEST_TRADE_DATE) return `the date is before ${EARLIEST_TRADE_DATE}`;
  const outside = (name: string, value: number, min: number, max: number) =>
    value < min || value > max ? `${name} ${value} is outside ${min}..${max}` : null;
  if (isTransfer(entry.side) && entry.symbol !== null)
    return (
      outside('quantity', entry.quantity, MIN_AMOUNT, MAX_QUANTITY) ??
      (entry.side === 'transfer_in' ? outside('amount', entry.amount ?? 0, MIN_AMOUNT, MAX_CASH) : null)
    );
  if (entry.side === 'buy' || entry.side === 'sell')
    return (
      outside('quantity', entry.quantity, MIN_AMOUNT, MAX_QUANTITY) ??
      outside('price', entry.price, MIN_AMOUNT, MAX_PRICE) ??
      outside('fees', entry.fees, 0, MAX_FEES)
    );
  if (entry.side === 'split') return null;
  const amountProblem = outside('amount', entry.amount ?? 0, MIN_AMOUNT, MAX_CASH);
  if (amountProblem) return amountProblem;
  if ((entry.withholdingTax ?? 0) > entry.amount!) return 'the withholding tax exceeds the dividend';
  return null;
}

/**
 * The ratio `to:from` (whole terms, smallest `from`) that turns `held` shares into `held + added`,
 * within a broker's rounding of the added shares (a thousandth of a share); null when there is none.
 */
export function ratioOfAddedShares(held: number, added: number): { to: number; from: number } | null {
  const factor = (held + added) / held;
  for (let from = 1; from <= 100; from += 1) {
    const to = Math.round(factor * from);
    if (to > MAX_SPLIT_TERM || to === from) continue;
    if (Math.abs(held * (to / from) - (held + added)) <= 0.001 + 1e-9 * held) return { to, from };
  }
  return null;
}

function isTransfer(side: TransactionKind): boolean {
  return side === 'transfer_in' || side === 'transfer_out';
}

function round(value: number): number {
  return Math.round(value * 1e8) / 1e8;
}
