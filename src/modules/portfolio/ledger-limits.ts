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
/**
 * The earliest `executed_at` the ledger takes: older than any price history a provider serves, so
 * a trade on or after it is valued at its own price until its symbol's first close; a date
 * before it (1900-01-03) is a typing mistake more often than a trade.
 */
export const EARLIEST_TRADE_DATE = '1970-01-01';
const EARLIEST_TRADE_TIME = Date.parse(`${EARLIEST_TRADE_DATE}T00:00:00Z`);

/** Whether an instant is on or after EARLIEST_TRADE_DATE (UTC). */
export function isOnOrAfterEarliestTrade(instant: Date): boolean {
  return instant.getTime() >= EARLIEST_TRADE_TIME;
}

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
