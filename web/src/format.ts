const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 2 });
const signedPercent = new Intl.NumberFormat('en-US', {
  style: 'percent',
  maximumFractionDigits: 2,
  signDisplay: 'exceptZero',
});

export const formatMoney = (value: number | null | undefined) => (value == null ? '—' : money.format(value));
/** `value` is already in percent: 5 is 5 %. */
export const formatPercent = (value: number | null | undefined) =>
  value == null ? '—' : signedPercent.format(value / 100);
/** `value` in percent, unsigned: a weight. */
export const formatWeight = (value: number | null | undefined) =>
  value == null ? '—' : percent.format(value / 100);
export const tone = (value: number | null | undefined) =>
  value == null || value === 0 ? '' : value > 0 ? 'up' : 'down';
