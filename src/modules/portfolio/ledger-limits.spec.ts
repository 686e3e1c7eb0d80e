import { isStorableAmount, withinTradeLimits } from './ledger-limits';

describe('ledger limits', () => {
  it('accepts trades from the smallest storable amount up to each maximum', () => {
    expect(withinTradeLimits({ quantity: 1e-8, price: 1e-8, fees: 0 })).toBe(true);
    expect(withinTradeLimits({ quantity: 1e9, price: 1e6, fees: 1e9 })).toBe(true);
  });

  it.each([
    { quantity: 5e-9, price: 1, fees: 0 },
    { quantity: 1, price: 0, fees: 0 },
    { quantity: 1e9 + 1, price: 1, fees: 0 },
    { quantity: 1, price: 1e6 + 1, fees: 0 },
    { quantity: 1, price: 1, fees: -1 },
    { quantity: Number.NaN, price: 1, fees: 0 },
  ])('refuses %j', (trade) => {
    expect(withinTradeLimits(trade)).toBe(false);
  });

  it('stores magnitudes below 10^16 only', () => {
    expect(isStorableAmount(9_999_999_999_999_998)).toBe(true);
    expect(isStorableAmount(-9_999_999_999_999_998)).toBe(true);
    expect(isStorableAmount(1e16)).toBe(false);
    expect(isStorableAmount(Number.POSITIVE_INFINITY)).toBe(false);
  });
});
