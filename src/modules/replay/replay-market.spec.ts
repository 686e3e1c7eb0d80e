import { dateOfTradingDay, isTradingDate, tradingDayOnOrBefore } from './replay-calendar';
import { encodeReplayPrices } from './replay-data.codec';
import { loadReplayDataset } from './replay-data.loader';
import { HistoricalBar, ReplayDataset } from './replay-dataset';
import { ReplayMarket } from './replay-market';

const bar = (open: number, close: number, volume = 100): HistoricalBar => ({
  open,
  high: Math.max(open, close) + 1,
  low: Math.min(open, close) - 1,
  close,
  volume,
});

/** Four historical days: a stock that gains 10 % a day and an index that halves, then recovers. */
function syntheticMarket(): ReplayMarket {
  const universe = {
    dates: ['2013-02-08', '2013-02-11', '2013-02-12', '2013-02-13'],
    stocks: [
      {
        symbol: 'AAA',
        name: 'Triple A Inc',
        gicsSector: 'Energy',
        sector: 'energy',
        firstDate: '2013-02-08',
      },
    ],
    indices: [{ symbol: '^IDX', name: 'Index' }],
  };
  const stock = [bar(9, 10), bar(10.5, 11), bar(11, 12.1), bar(12, 13.31, 400)];
  const index = [bar(100, 100, 0), bar(60, 50, 0), bar(50, 80, 0), bar(80, 100, 0)];
  return new ReplayMarket(new ReplayDataset(universe, encodeReplayPrices([stock, index])));
}

describe('ReplayMarket', () => {
  describe('on a synthetic history', () => {
    const sut = syntheticMarket();

    it('replays historical days 1..3 from the epoch and scales each later cycle by the growth', () => {
      expect([0, 1, 2, 3, 4, 5].map((day) => sut.closeOn('AAA', day))).toEqual([
        11,
        12.1,
        13.31,
        11 * 1.331,
        12.1 * 1.331,
        13.31 * 1.331,
      ]);
      expect(sut.closeOn('AAA', -1)).toBeCloseTo(13.31 / 1.331);
    });

    it('keeps every day-to-day return real across the cycle boundary', () => {
      const returns = [1, 2, 3, 4, 5, 6].map((day) => sut.closeOn('AAA', day) / sut.closeOn('AAA', day - 1));
      for (const value of returns) expect(value).toBeCloseTo(1.1, 12);
      expect(sut.closeOn('^IDX', 3) / sut.closeOn('^IDX', 2)).toBeCloseTo(0.5, 12);
    });

    it('quotes the open at 09:30, the close from 16:00, with the previous close of the day before', () => {
      const monday = dateOfTradingDay(3);
      const atOpen = sut.quote('AAA', new Date(`${monday}T14:30:00Z`));
      const atClose = sut.quote('AAA', new Date(`${monday}T21:00:00Z`));
      expect(atOpen).toMatchObject({ symbol: 'AAA', name: 'Triple A Inc', price: 10.5 * 1.331, volume: 0 });
      expect(atClose).toMatchObject({ price: 11 * 1.331, previousClose: 13.31, volume: 100 });
      expect(atClose.high).toBeCloseTo(12 * 1.331);
      expect(atClose.low).toBeCloseTo(9.5 * 1.331);
    });

    it('gives the same answer for the same instant, whoever builds it', () => {
      const instant = new Date('2024-01-03T16:12:34.567Z');
      expect(syntheticMarket().quote('AAA', instant)).toEqual(sut.quote('AAA', instant));
    });

    it('dates daily bars on the replay calendar, skips weekends and holidays and stops at the running session', () => {
      const bars = sut.dailyBars('AAA', '2023-12-29', '2030-01-01', new Date('2024-01-08T17:45:00Z'));
      // 2024-01-01, New Year's Day, has no session: its historical day is never traded
      expect(bars.map((b) => b.date)).toEqual([
        '2023-12-29',
        '2024-01-02',
        '2024-01-03',
        '2024-01-04',
        '2024-01-05',
        '2024-01-08',
      ]);
      expect(bars[1]).toEqual({ date: '2024-01-02', ...bar(11, 12.1) });
      expect(Object.keys(bars[5])).toEqual(['date', 'open', 'high', 'low', 'close', 'volume']);
      expect(bars[5].volume).toBe(200);
      expect(bars[5].close).toBeCloseTo(sut.quote('AAA', new Date('2024-01-08T17:45:00Z')).price);
      // the first session after the holiday is quoted against the last one before it
      expect(sut.quote('AAA', new Date('2024-01-02T21:00:00Z')).previousClose).toBeCloseTo(bars[0].close);
    });

    it('shares the bars of closed sessions between answers, never the running session', () => {
      const sut = syntheticMarket();
      const morning = sut.dailyBars('AAA', '2023-12-29', '2024-01-08', new Date('2024-01-08T15:00:00Z'));
      const afternoon = sut.dailyBars('AAA', '2024-01-03', '2030-01-01', new Date('2024-01-08T19:00:00Z'));
      expect(afternoon.map((b) => b.date)).toEqual(['2024-01-03', '2024-01-04', '2024-01-05', '2024-01-08']);
      for (const [index, shared] of afternoon.slice(0, 3).entries()) expect(shared).toBe(morning[index + 2]);
      expect(Object.isFrozen(afternoon[0])).toBe(true);
      expect(afternoon[3]).not.toBe(morning[5]);
      expect(afternoon[3].volume).toBeGreaterThan(morning[5].volume);
      // each answer as a market that never answered before gives it
      expect(afternoon).toEqual(
        syntheticMarket().dailyBars('AAA', '2024-01-03', '2030-01-01', new Date('2024-01-08T19:00:00Z')),
      );
      const evening = new Date('2024-01-08T22:00:00Z');
      expect(sut.dailyBars('AAA', '2023-12-29', '2024-01-08', evening)).toEqual(
        syntheticMarket().dailyBars('AAA', '2023-12-29', '2024-01-08', evening),
      );
    });

    it('reports a session move with change, averages and 52-week extremes', () => {
      const moves = sut.sessionMoves('2024-01-06');
      expect(moves.date).toBe('2024-01-05');
      expect(moves.stocks).toHaveLength(1);
      const [move] = moves.stocks;
      expect(move).toMatchObject({ symbol: 'AAA', name: 'Triple A Inc', sector: 'energy' });
      expect(move.change).toBeCloseTo(12.1 * 1.331 - 11 * 1.331);
      expect(move.changePercent).toBeCloseTo(10);
      expect(move.high52Week).toBeCloseTo(13.1 * 1.331);
      // days -16..3 replay historical day 3 (volume 400) every third day: 7 of the 20
      expect(move.averageVolume).toBe((13 * 100 + 7 * 400) / 20);
      expect(moves.indices[0]).toMatchObject({ symbol: '^IDX', sector: null });
    });
  });

  describe('on the shipped data', () => {
    let sut: ReplayMarket;
    beforeAll(async () => {
      sut = new ReplayMarket(await loadReplayDataset());
    });

    it('shows the real historical levels in the cycle that holds the epoch', () => {
      // 2018-02-07, the last historical day, is historical day N - 1 = trading day N - 2.
      const lastDay = sut.dataset.days - 2;
      expect(sut.closeOn('^GSPC', lastDay)).toBeCloseTo(2681.66, 6);
      expect(sut.closeOn('^DJI', lastDay)).toBeCloseTo(24893.35, 6);
      expect(sut.closeOn('^IXIC', lastDay)).toBeCloseTo(7051.98, 6);
      expect(sut.closeOn('^GSPC', 0)).toBeCloseTo(1517.01, 6);
    });

    it('holds the 505 constituents with names and sectors', () => {
      expect(sut.dataset.stocks).toHaveLength(505);
      expect(sut.has('BRK.B')).toBe(true);
      expect(sut.nameOf('AAPL')).toBe('Apple Inc.');
    });

    it('has no gap the cleaning should have removed', () => {
      const dates = sut.dataset.universe.dates;
      const day = (date: string): number => dates.indexOf(date);
      // LNT's halved close, DISCA's share dividend and EBAY's spin-off no longer look like crashes.
      const dayReturn = (symbol: string, date: string): number =>
        sut.dataset.closeOf(symbol, day(date)) / sut.dataset.closeOf(symbol, day(date) - 1) - 1;
      expect(Math.abs(dayReturn('LNT', '2016-05-19'))).toBeLessThan(0.05);
      expect(Math.abs(dayReturn('LNT', '2016-05-20'))).toBeLessThan(0.05);
      expect(Math.abs(dayReturn('DISCA', '2014-08-07'))).toBeLessThan(0.1);
      expect(Math.abs(dayReturn('EBAY', '2015-07-20'))).toBeLessThan(0.1);
      expect(Math.abs(dayReturn('NI', '2015-07-02'))).toBeLessThan(0.1);
      for (const { symbol } of sut.dataset.stocks) {
        for (let d = 0; d < sut.dataset.days; d += 1) {
          const { open, high, low, close } = sut.dataset.bar(symbol, d);
          if (!(low <= Math.min(open, close) && high >= Math.max(open, close) && low > 0)) {
            throw new Error(`${symbol} ${dates[d]} is inconsistent`);
          }
        }
      }
    });

    it('places the three historical splits where each cycle replays them', () => {
      expect(sut.splits('AAPL', '2024-01-01', '2026-11-20')).toEqual([
        { date: '2025-04-10', to: 7, from: 1 },
      ]);
      expect(sut.splits('V', '2024-01-01', '2026-11-20')).toEqual([{ date: '2026-01-09', to: 4, from: 1 }]);
      expect(sut.splits('NFLX', '2024-01-01', '2026-11-20')).toEqual([
        { date: '2026-05-04', to: 7, from: 1 },
      ]);
      expect(sut.splits('MSFT', '2000-01-01', '2030-12-31')).toEqual([]);
      expect(sut.splits('AAPL', '2025-04-11', '2026-11-20')).toEqual([]);
      expect(sut.splits('AAPL', '2025-04-10', '2025-04-10')).toHaveLength(1);
      // The split day is 2014-06-09 replayed: 92.2242 before, 93.70 on it (adjusted, no 7× drop).
      const splitDay = tradingDayOnOrBefore('2025-04-10');
      expect(sut.closeOn('AAPL', splitDay - 1)).toBe(92.2242);
      expect(sut.closeOn('AAPL', splitDay)).toBe(93.7);
    });

    it('repeats each split every 1,258 trading days, on a session, before and after the epoch', () => {
      const splits = sut.splits('AAPL', '2000-01-01', '2050-12-31');
      expect(splits.map((split) => split.date)).toEqual([
        '2001-03-01',
        '2005-12-27',
        '2010-10-22',
        '2015-08-19',
        '2020-06-15',
        '2025-04-10',
        '2030-02-05',
        '2034-12-01',
        '2039-09-28',
        '2044-07-25',
        '2049-05-20',
      ]);
      for (const { date } of splits) expect(isTradingDate(date)).toBe(true);
    });

    it('moves a split whose replayed day is an NYSE holiday to the next session', () => {
      // V's 2015-03-19 falls on Labor Day 2035, NFLX's 2015-07-15 on Christmas 2035
      expect(sut.splits('V', '2035-01-01', '2035-12-31')).toEqual([{ date: '2035-09-04', to: 4, from: 1 }]);
      expect(sut.splits('NFLX', '2035-01-01', '2035-12-31')).toEqual([
        { date: '2035-12-26', to: 7, from: 1 },
      ]);
    });

    it('moves within a session and stands still after the close', () => {
      const day = dateOfTradingDay(tradingDayOnOrBefore('2026-11-20'));
      const morning = sut.quote('AAPL', new Date(`${day}T15:00:00Z`));
      const noon = sut.quote('AAPL', new Date(`${day}T17:00:00Z`));
      const evening = sut.quote('AAPL', new Date(`${day}T22:00:00Z`));
      const night = sut.quote('AAPL', new Date(`${day}T23:59:00Z`));
      expect(noon.price).not.toBe(morning.price);
      expect(night.price).toBe(evening.price);
    });
  });
});
