/**
 * The fees a broker that has no fee column took from a trade: the gap between the shares' worth and
 * the cash that moved (a sell's regulatory fees, a buy's commission), to the cent; 0 when the cash
 * is the worth (or more: a rounded price).
 */
export function derivedFees(
  side: 'buy' | 'sell',
  quantity: number,
  price: number,
  amount: number | null,
): number {
  if (amount === null) return 0;
  const worth = quantity * price;
  const gap = side === 'sell' ? worth - Math.abs(amount) : Math.abs(amount) - worth;
  const cents = Math.round(gap * 100) / 100;
  return cents >= 0.01 ? cents : 0;
}
