// Webull "Orders Records": an order log, not a transaction history. Filled orders become trades at
// their average price; cancelled ones with a partial fill keep what filled. It has no cash rows, so
// the user is told the cash balance cannot be rebuilt from it.
import { CsvRow, ExportBuilder } from '../broker-export';
import { brokerDate, Columns, findHeader, money, requiredMoney, tickerOf } from '../cells';
import { BrokerLayout, eachRow } from './broker-layout';

const HEADER = ['Name', 'Symbol', 'Side', 'Status', 'Filled', 'Avg Price', 'Filled Time'];
const OPTION_SYMBOL = /^[A-Z]{1,6}\d{6}[CP]\d{8}$/;

export const webullLayout: BrokerLayout = {
  format: 'webull',
  label: 'Webull',
  signatures: [{ layout: 'Orders Records', columns: HEADER }],
  parse(rows) {
    const headerIndex = findHeader(rows, HEADER);
    const columns = new Columns(rows[headerIndex].cells);
    const builder = new ExportBuilder('webull', 'Orders Records');
    builder.notices.push(
      'Webull exports orders only: no deposits, dividends, interest or fees, so the cash balance cannot be rebuilt from this file.',
    );
    for (const row of rows.slice(headerIndex + 1)) {
      if (row.cells.every((cell) => cell.trim() === '')) continue;
      eachRow(builder, row, () => readRow(builder, columns, row));
    }
    return builder.finish();
  },
};

function readRow(builder: ExportBuilder, columns: Columns, row: CsvRow): void {
  const side = columns.get(row, 'Side');
  const status = columns.get(row, 'Status');
  const rawSymbol = columns.get(row, 'Symbol');
  const action = `${side} ${status}`.trim();
  const filled = money(columns.get(row, 'Filled'), 'Filled') ?? 0;
  const filledTime = columns.get(row, 'Filled Time');
  if (rawSymbol === '')
    return builder.skip(
      { line: row.line, action },
      'a multi-leg option order (its legs follow): the ledger holds shares only',
    );
  if (OPTION_SYMBOL.test(rawSymbol.toUpperCase()))
    return builder.skip({ line: row.line, action }, 'an option: the ledger holds shares only');
  if (filled <= 0)
    return builder.skip({ line: row.line, action }, `${status || 'an order'} with nothing filled`);
  const at = {
    line: row.line,
    date: brokerDate(filledTime || columns.get(row, 'Placed Time'), 'Filled Time'),
    action,
  };
  const symbol = tickerOf(rawSymbol);
  if (!symbol) return builder.skip(at, `"${rawSymbol}" is not a ticker`);
  const price = requiredMoney(columns.get(row, 'Avg Price'), 'Avg Price');
  builder.trade(at, side.toLowerCase().startsWith('sell') ? 'sell' : 'buy', symbol, filled, price, 0);
}
