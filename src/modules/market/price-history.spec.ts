import { aggregateBars, oneYearBefore } from './price-history';

const day = (date: string, open: number, high: number, low: number, close: number, volume: number) => ({
  date,
  open,
  high,
  low,
  close,
  volume,
});

describe('aggregateBars', () => {
  const bars = [
    day('2026-01-29', 10, 12, 9, 11, 100),
    day('2026-01-30', 11, 13, 10, 12, 200),
    day('2026-02-02', 12, 12.5, 8, 9, 300),
    day('2026-02-03', 9, 10, 8.5, 9.5, 400),
    day('2026-02-09', 9.5, 11, 9, 10.5, 500),
  ];

  it('returns the daily bars unchanged for 1d', () => {
    expect(aggregateBars(bars, '1d')).toEqual(bars);
  });

  it('rolls up Monday-to-Friday weeks dated by their first trading day', () => {
    expect(aggregateBars(bars, '1wk')).toEqual([
      day('2026-01-29', 10, 13, 9, 12, 300),
      day('2026-02-02', 12, 12.5, 8, 9.5, 700),
      day('2026-02-09', 9.5, 11, 9, 10.5, 500),
    ]);
  });

  it('rolls up calendar months', () => {
    expect(aggregateBars(bars, '1mo')).toEqual([
      day('2026-01-29', 10, 13, 9, 12, 300),
      day('2026-02-02', 12, 12.5, 8, 10.5, 1200),
    ]);
  });

  it('does not modify its input', () => {
    const copy = structuredClone(bars);
    aggregateBars(bars, '1mo');
    expect(bars).toEqual(copy);
  });
});

describe('oneYearBefore', () => {
  it('keeps the calendar day', () => {
    expect(oneYearBefore('2026-11-22')).toBe('2025-11-22');
  });

  it('moves 29 February to the 28th', () => {
    expect(oneYearBefore('2028-02-29')).toBe('2027-02-28');
  });
});
