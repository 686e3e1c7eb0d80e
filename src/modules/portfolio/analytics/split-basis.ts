// Closes and quantities on one basis. A recorded split multiplies the ledger's quantity at its
// date; a provider's split-adjusted closes divide every close before the split by the same ratio.
// Valuing the one with the other counts the split twice (held × 7 after it against closes that
// were already continuous): a fake jump of +600 % on AAPL's 7:1. So before each split that both
// the ledger records and the provider's adjusted closes know, the closes are put back as traded
// (multiplied by its ratio). A split the ledger does not record leaves the closes adjusted: its
// quantities before it are then on the adjusted basis already (70 shares at 92, not 10 at 645).
// Closes already as traded (not adjusted) are used as they come.
import { LedgerEntry, splitFactor } from './ledger-replay';
import { DailyClose } from './daily-returns';

/** A split effective at the open of `date`: `to` shares for every `from`. */
export interface KnownSplit {
  date: string;
  to: number;
  from: number;
}

/** The basis a provider's closes are on, and the splits it knows for the symbol. */
export interface PriceBasis {
  adjustedCloses: boolean;
  splits: readonly KnownSplit[];
}

/** A recorded split up to this many calendar days from the provider's date is the same split. */
export const SAME_SPLIT_WITHIN_DAYS = 7;
const MS_PER_DAY = 86_400_000;

/**
 * The closes to value the ledger's quantities of the symbol at, oldest first: the same array when
 * no split is to be undone (splitsToUndo), else a new frozen one (asTradedCloses).
 */
export function closesOnLedgerBasis(
  closes: readonly DailyClose[],
  basis: PriceBasis,
  symbol: string,
  ledger: readonly LedgerEntry[],
): readonly DailyClose[] {
  const undone = splitsToUndo(closes, basis, symbol, ledger);
  return undone.length === 0 ? closes : asTradedCloses(closes, undone);
}

/**
 * The splits both recorded in the ledger for the symbol and known to the provider's adjusted
 * closes: those to put back as traded. None when the closes are as traded already.
 */
export function splitsToUndo(
  closes: readonly DailyClose[],
  basis: PriceBasis,
  symbol: string,
  ledger: readonly LedgerEntry[],
): readonly KnownSplit[] {
  if (!basis.adjustedCloses || basis.splits.length === 0 || closes.length === 0) return [];
  const recorded = ledger.filter((entry) => entry.side === 'split' && entry.symbol === symbol);
  return basis.splits.filter((split) => recorded.some((entry) => sameSplit(split, entry)));
}

/** Adjusted closes put back as traded before each of `splits` (a new frozen array). */
export function asTradedCloses(
  closes: readonly DailyClose[],
  splits: readonly KnownSplit[],
): readonly DailyClose[] {
  return Object.freeze(unadjust(closes, splits));
}

function sameSplit(split: KnownSplit, entry: LedgerEntry): boolean {
  const apart = Math.abs(Date.parse(entry.tradeDate) - Date.parse(split.date)) / MS_PER_DAY;
  return apart <= SAME_SPLIT_WITHIN_DAYS && Math.abs(splitFactor(entry) - split.to / split.from) < 1e-9;
}

/** Each close times the ratio of every split dated after it. */
function unadjust(closes: readonly DailyClose[], splits: readonly KnownSplit[]): DailyClose[] {
  const newestFirst = [...splits].sort((a, b) => b.date.localeCompare(a.date));
  const result = new Array<DailyClose>(closes.length);
  let factor = 1;
  let next = 0;
  for (let index = closes.length - 1; index >= 0; index -= 1) {
    const { date, close } = closes[index];
    while (next < newestFirst.length && newestFirst[next].date > date) {
      factor *= newestFirst[next].to / newestFirst[next].from;
      next += 1;
    }
    result[index] = { date, close: close * factor };
  }
  return result;
}
