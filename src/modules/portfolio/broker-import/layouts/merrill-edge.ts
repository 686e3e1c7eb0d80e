// Merrill Edge "Activities" CSV: fully quoted, `Description 1 ` (trailing space) is the action,
// `Symbol/CUSIP #` the security, `(10,000.00)` a negative. Pending rows come back later as settled,
// so only settled ones are imported. Several accounts can share one file.
import { CsvRow, ExportBuilder } from '../broker-export';
import { brokerDate, Columns, findHeader, isDate, money, requiredMoney, tickerOf } from '../cells';
import { BrokerLayout, eachRow } from './broker-layout';
import { derivedFees } from './derived-fees';

const HEADER = ['Trade Date', 'Pending/Settled', 'Description 1', 'Symbol/CUSIP #', 'Quantity', 'Amount ($)'];

export const merrillEdgeLayout: BrokerLayout = {
  format: 'merrill_edge',
  label: 'Merrill Edge',
  signatures: [{ layout: 'Activities', columns: HEADER }],
  parse(rows) {
    const headerIndex = findHeader(rows, HEADER);
    const columns = new Columns(rows[headerIndex].cells);
    const builder = new ExportBuilder('merrill_edge', 'Activities');
    for (const row of rows.slice(headerIndex + 1)) {
      if (!isDate(columns.get(row, 'Trade Date'))) continue;
      eachRow(builder, row, () => readRow(builder, columns, row));
    }
    return builder.finish();
  },
};

function readRow(builder: ExportBuilder, columns: Columns, row: CsvRow): void {
  const action = columns.get(row, 'Description 1');
  const key = action.toLowerCase();
  const details = columns.get(row, 'Description 2');
  const at = { line: row.line, date: brokerDate(columns.get(row, 'Trade Date')), action };
  if (columns.get(row, 'Pending/Settled').toLowerCase() === 'pending')
    return builder.skip(at, 'pending: it is imported once the download shows it settled');
  const rawSymbol = columns.get(row, 'Symbol/CUSIP #');
  const symbol = tickerOf(rawSymbol);
  const amount = () => requiredMoney(columns.get(row, 'Amount ($)'), 'Amount ($)');
  const quantity = () => Math.abs(money(columns.get(row, 'Quantity'), 'Quantity') ?? 0);
  if (key.startsWith('option') || rawSymbol.includes('#'))
    return builder.skip(at, 'an option: the ledger holds shares only');
  if (key === 'sale' || key === 'sell' || key === 'purchase' || key === 'buy') {
    if (!symbol)
      return builder.skip(at, `"${rawSymbol}" is not a ticker (a bond or CD the ledger cannot hold)`);
    const side = key === 'purchase' || key === 'buy' ? 'buy' : 'sell';
    const price = requiredMoney(columns.get(row, 'Price ($)'), 'Price ($)');
    const fees = derivedFees(side, quantity(), price, money(columns.get(row, 'Amount ($)'), 'Amount ($)'));
    return builder.trade(at, side, symbol, quantity(), price, fees);
  }
  if (
    /reinvest/i.test(`${key} ${details}`) &&
    (money(columns.get(row, 'Amount ($)'), 'Amount ($)') ?? 0) === 0
  )
    return builder.skip(
      at,
      'a money-market reinvestment with no cash amount, which the ledger counts as cash',
    );
  if (key.includes('dividend')) return builder.cash(at, 'dividend', amount(), symbol);
  if (key.includes('interest')) return builder.cash(at, 'interest', amount());
  if (key.includes('tax')) return builder.withholding(at, amount(), symbol);
  if (key.includes('fee')) return builder.cash(at, 'fee', amount(), symbol);
  if (
    key.includes('withdrawal') ||
    key.includes('deposit') ||
    key.includes('transfer') ||
    key.includes('funds')
  ) {
    if (quantity() === 0) return builder.transfer(at, amount());
    if (!symbol)
      return builder.skip(at, `"${rawSymbol}" is not a ticker (a bond or CD the ledger cannot hold)`);
    return builder.shareTransfer(at, 'unknown', symbol, quantity());
  }
  builder.skip(at, `unknown activity "${action}": not guessed`);
}
