import { CountedLru } from '../../common/metrics/cache-counters';
import { DailyBar } from '../../integrations/vendors';
import { nextTradingDay } from './replay-calendar';

/** The bars of one symbol from trading day `first` on; a hole for a day no answer listed yet (or a holiday). */
interface BarRun {
  first: number;
  bars: (DailyBar | undefined)[];
}

/**
 * The daily bars of closed sessions, made once per symbol and day and shared by every answer that
 * lists them. Each ledger starts on a day of its own and asks for its symbols' closes from there,
 * so without sharing every user's answers held their own copies of the same bars (≈ 180 bytes
 * each: the object and four boxed doubles). A closed session's bar never changes, so sharing it
 * changes no answer; the running session's bar is never kept. Bounded in bars, least recently
 * used symbol first; a lookup is one per answer, a hit when the symbol's bars were held.
 */
export class ClosedSessionBars {
  private readonly runs: CountedLru<string, BarRun>;

  constructor(maxBars: number) {
    this.runs = new CountedLru('replay-daily-bars', {
      maxSize: maxBars,
      sizeCalculation: (run) => Math.max(1, run.bars.length),
    });
  }

  /** The bar of each session from trading day `first` to `last` (closed sessions, `first` one), oldest first. */
  list(symbol: string, first: number, last: number, make: (tradingDay: number) => DailyBar): DailyBar[] {
    const run = this.runFor(symbol, first, last);
    const bars: DailyBar[] = [];
    for (let day = first; day <= last; day = nextTradingDay(day)) {
      const index = day - run.first;
      bars.push((run.bars[index] ??= Object.freeze(make(day))));
    }
    return bars;
  }

  private runFor(symbol: string, first: number, last: number): BarRun {
    const held = this.runs.get(symbol);
    if (held && first >= held.first && last < held.first + held.bars.length) return held;
    const start = Math.min(first, held?.first ?? first);
    const end = Math.max(last + 1, held ? held.first + held.bars.length : last + 1);
    const run: BarRun = { first: start, bars: new Array<DailyBar | undefined>(end - start) };
    held?.bars.forEach((bar, index) => (run.bars[held.first - start + index] = bar));
    this.runs.set(symbol, run);
    return run;
  }
}
