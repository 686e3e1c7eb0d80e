const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export const money = (value: number) => usd.format(value);
export const signedMoney = (value: number) => `${value >= 0 ? '+' : '−'}${usd.format(Math.abs(value))}`;
export const pct = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)} %`;
export const plainPct = (value: number) => `${value.toFixed(2)} %`;
export const sectorName = (sector: string) => sector.replace(/_/g, ' ');

export const PERIOD_NAMES: Record<string, string> = {
  '1D': 'today',
  '1W': 'this week',
  '1M': 'the last month',
  '3M': 'the last 3 months',
  '6M': 'the last 6 months',
  YTD: 'this year so far',
  '1Y': 'the last year',
  ALL: 'since your first trade',
};

/** The start of a sentence about a period: "Over the last month", "This year so far", "Since your first trade". */
export function periodLead(period: string): string {
  if (period === 'ALL') return 'Since your first trade';
  if (period === 'YTD') return 'This year so far';
  if (period === '1D') return 'Today';
  return `Over ${PERIOD_NAMES[period] ?? period}`;
}
