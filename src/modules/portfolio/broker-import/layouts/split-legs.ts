import { ImportedEntry } from '../broker-export';

/** One row of a split written as a pair: the new shares (+) and the old ones (−, often by CUSIP). */
export interface SplitLeg {
  line: number;
  date: string;
  action: string;
  symbol: string | null;
  quantity: number;
}

type Outcome =
  { entry: Omit<ImportedEntry, 'brokerId'>; partner: SplitLeg } | { legs: SplitLeg[]; reason: string };

/**
 * Pairs the legs of each date into a split of the ticker leg: `new shares : old shares`, reduced.
 * A leg without its partner, or a pair that does not change the share count, is skipped.
 */
export function ratioOfLegs(legs: readonly SplitLeg[]): Outcome[] {
  const byDate = new Map<string, SplitLeg[]>();
  for (const leg of legs) byDate.set(leg.date, [...(byDate.get(leg.date) ?? []), leg]);
  const outcomes: Outcome[] = [];
  for (const group of byDate.values()) {
    const added = group.filter((leg) => leg.quantity > 0);
    const removed = group.filter((leg) => leg.quantity < 0);
    if (added.length !== 1 || removed.length !== 1 || !added[0].symbol) {
      outcomes.push({ legs: group, reason: 'a split whose two legs (new and old shares) cannot be paired' });
      continue;
    }
    const to = added[0].quantity;
    const from = -removed[0].quantity;
    if (!Number.isInteger(to) || !Number.isInteger(from)) {
      outcomes.push({ legs: group, reason: 'a split with fractional legs: its ratio cannot be known' });
      continue;
    }
    if (to === from) {
      outcomes.push({ legs: group, reason: 'both legs hold the same number of shares: nothing changes' });
      continue;
    }
    const divisor = gcd(to, from);
    const [first, second] = [added[0], removed[0]].sort((a, b) => a.line - b.line);
    outcomes.push({
      entry: {
        line: first.line,
        date: first.date,
        action: `${first.action} (with line ${second.line})`,
        side: 'split',
        symbol: added[0].symbol,
        quantity: 0,
        price: 0,
        fees: 0,
        amount: null,
        withholdingTax: null,
        split: { to: to / divisor, from: from / divisor },
      },
      partner: second,
    });
  }
  return outcomes;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
