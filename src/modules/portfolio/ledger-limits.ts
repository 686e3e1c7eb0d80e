// The ledger stores quantity, price, fees, cash amounts and realized P&L as numeric(24, 8): 8
// decimals and at most 16 digits before the point. The limits keep every value, and the P&L of any
// one trade (quantity × price ≤ 1e15), well inside that; docs/input-limits.md lists them.

/** The smallest positive amount the ledger can store: anything smaller would be stored as 0. */
export const MIN_AMOUNT = 1e-8;
export const MAX_QUANTITY = 1e9;
export const MAX_PRICE = 1e6;
export const MAX_FEES = 1e9;
/** The largest cash amount: a dividend, deposit, withdrawal, fee or interest, or the extra cash a rebalance may plan with. */
export const MAX_CASH = 1e12;
/** A split ratio's terms, e.g. 4:1 or 1:10, are whole numbers up to this. */
export const MAX_SPLIT_TERM = 1_000_000;
/** numeric(24, 8) holds magnitudes below 10^16. */
const STORABLE_MAGNITUDE = 1e16;

export interface TradeAmounts {
  quantity: number;
  price: number;
  fees: number;
}

/** Whether a trade computed by the service (not read from a request) respects the request limits. */
export function withinTradeLimits(trade: TradeAmounts): boolean {
  const within = (value: number, min: number, max: number) => value >= min && value <= max;
  return (
    within(trade.quantity, MIN_AMOUNT, MAX_QUANTITY) &&
    within(trade.price, MIN_AMOUNT, MAX_PRICE) &&
    within(trade.fees, 0, MAX_FEES)
  );
}

export function isStorableAmount(value: number): boolean {
  return Number.isFinite(value) && Math.abs(value) < STORABLE_MAGNITUDE;
}
