import { liveCacheCounters } from '../../common/metrics/cache-counters';
import { DailyBar } from '../../integrations/vendors';
import { ClosedSessionBars } from './closed-session-bars';
import { dateOfTradingDay } from './replay-calendar';

const CAPACITY = 9;

describe('ClosedSessionBars', () => {
  const made: string[] = [];
  const maker =
    (symbol: string) =>
    (day: number): DailyBar => {
      made.push(`${symbol}${day}`);
      return { date: dateOfTradingDay(day), open: day, high: day, low: day, close: day, volume: day };
    };
  const counters = () => liveCacheCounters().find((each) => each.capacity === CAPACITY)!;

  it('makes each bar once, grows a symbol both ways and keeps its bound by letting the least used symbol go', () => {
    const sut = new ClosedSessionBars(CAPACITY);
    // trading days 1..4 are 2 to 5 January 2024, 0 New Year's Day (no session)
    const first = sut.list('A', 2, 3, maker('A'));
    expect(sut.list('A', 1, 4, maker('A')).map((bar) => bar.close)).toEqual([1, 2, 3, 4]);
    expect(sut.list('A', 2, 2, maker('A'))[0]).toBe(first[0]);
    expect(made).toEqual(['A2', 'A3', 'A1', 'A4']);
    expect(counters()).toMatchObject({ hits: 2, misses: 1, evictions: 0 });
    expect(counters().size()).toBe(4);

    sut.list('B', 1, 8, maker('B'));
    expect(counters()).toMatchObject({ evictions: 1 });
    expect(counters().size()).toBe(8);
    made.length = 0;
    sut.list('A', 2, 2, maker('A'));
    expect(made).toEqual(['A2']);
  });
});
