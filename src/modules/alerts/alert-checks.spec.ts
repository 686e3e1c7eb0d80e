import { checkDrawdown, checkPrice, checkWatchlist } from './alert-checks';
import { AlertRule } from './alert-rule';

const rule = (overrides: Partial<AlertRule>): AlertRule => ({
  id: 1,
  userId: 1,
  kind: 'price_above',
  symbol: 'AAPL',
  thresholds: {},
  status: 'active',
  rearm: 'never',
  rearmMinutes: null,
  arming: 1,
  armedAt: new Date('2026-11-18T15:00:00Z'),
  peak: null,
  baseline: null,
  triggeredAt: null,
  createdAt: new Date('2026-11-18T15:00:00Z'),
  updatedAt: null,
  ...overrides,
});
const quote = (price: number, changePercent = 0) => ({ symbol: 'AAPL', price, changePercent, asOf: 'now' });

describe('alert checks', () => {
  it('price_above fires at and above the threshold, price_below at and below', () => {
    const above = rule({ kind: 'price_above', thresholds: { price: 100 } });
    expect(checkPrice(above, quote(99.99))).toBeNull();
    expect(checkPrice(above, quote(100))?.title).toBe('AAPL rose above 100');
    const below = rule({ kind: 'price_below', thresholds: { price: 100 } });
    expect(checkPrice(below, quote(100.01))).toBeNull();
    expect(checkPrice(below, quote(100))?.title).toBe('AAPL fell below 100');
  });

  it('drawdown measures the fall from the running peak', () => {
    const drawdown = rule({ kind: 'drawdown', thresholds: { percent: 10 } });
    expect(checkDrawdown(drawdown, { label: 'AAPL', value: 91, peak: 100, asOf: 'now' })).toBeNull();
    expect(checkDrawdown(drawdown, { label: 'AAPL', value: 90, peak: 100, asOf: 'now' })?.data).toMatchObject(
      {
        drawdown_percent: 10,
        peak: 100,
        value: 90,
      },
    );
  });

  it('watchlist_move lists every mover of at least the threshold, either way', () => {
    const watchlist = rule({ kind: 'watchlist_move', symbol: null, thresholds: { percent: 2 } });
    const fired = checkWatchlist(watchlist, [
      { ...quote(10, 2.5), symbol: 'A' },
      { ...quote(10, -3), symbol: 'B' },
      { ...quote(10, 1.99), symbol: 'C' },
    ]);
    expect(fired?.title).toBe('Watchlist: A +2.5%, B -3%');
    expect(checkWatchlist(watchlist, [{ ...quote(10, 1), symbol: 'C' }])).toBeNull();
  });
});
