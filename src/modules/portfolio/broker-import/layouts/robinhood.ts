// Robinhood "Account activity" CSV: every field quoted, descriptions over several lines inside
// quotes, amounts like `($1,500.36)`, a disclaimer after the rows (stop at the first row without an
// Activity Date). Trans Code is the action.
import { CsvRow, ExportBuilder } from '../broker-export';
import { brokerDate, Columns, findHeader, money, requiredMoney, tickerOf } from '../cells';
import { BrokerLayout, eachRow } from './broker-layout';
import { derivedFees } from './derived-fees';

const HEADER = ['Activity Date', 'Process Date', 'Settle Date', 'Instrument', 'Trans Code', 'Amount'];
const OPTION_CODES = new Set(['BTO', 'STO', 'BTC', 'STC', 'OEXP', 'OASGN', 'OEXCS', 'OCA']);

export const robinhoodLayout: BrokerLayout = {
  format: 'robinhood',
  label: 'Robinhood',
  signatures: [{ layout: 'Account activity', columns: HEADER }],
  parse(rows) {
    const headerIndex = findHeader(rows, HEADER);
    const columns = new Columns(rows[headerIndex].cells);
    const builder = new ExportBuilder('robinhood', 'Account activity');
    for (const row of rows.slice(headerIndex + 1)) {
      if (columns.get(row, 'Activity Date') === '') break;
      eachRow(builder, row, () => readRow(builder, columns, row));
    }
    return builder.finish();
  },
};

function readRow(builder: ExportBuilder, columns: Columns, row: CsvRow): void {
  const code = columns.get(row, 'Trans Code').toUpperCase();
  const description = columns.get(row, 'Description');
  const context = description.split(/\r?\n/).slice(2).join(' ').trim();
  const at = {
    line: row.line,
    date: brokerDate(columns.get(row, 'Activity Date')),
    action: context ? `${code} (${context})` : code,
  };
  const rawSymbol = columns.get(row, 'Instrument');
  const symbol = tickerOf(rawSymbol);
  const amount = () => requiredMoney(columns.get(row, 'Amount'), 'Amount');
  if (OPTION_CODES.has(code)) return builder.skip(at, 'an option: the ledger holds shares only');
  if (code === 'BUY' || code === 'SELL') {
    if (!symbol) return builder.skip(at, `"${rawSymbol}" is not a ticker`);
    const quantity = requiredMoney(columns.get(row, 'Quantity'), 'Quantity');
    const price = requiredMoney(columns.get(row, 'Price'), 'Price');
    const side = code === 'SELL' ? 'sell' : 'buy';
    const fees = derivedFees(side, Math.abs(quantity), price, money(columns.get(row, 'Amount'), 'Amount'));
    return builder.trade(at, side, symbol, quantity, price, fees);
  }
  if (code === 'CDIV' || code === 'MDIV' || code === 'DIV')
    return builder.cash(at, 'dividend', amount(), symbol);
  if (code === 'INT' || code === 'SLIP') return builder.cash(at, 'interest', amount());
  if (code === 'GOLD' || code === 'MINT' || code === 'DFEE' || code === 'AFEE')
    return builder.cash(at, 'fee', amount());
  if (code === 'NRAT' || code === 'DTAX') return builder.withholding(at, amount(), symbol);
  if (code === 'RTP' && /fee/i.test(description)) return builder.cash(at, 'fee', amount());
  if (code === 'ACH' || code === 'RTP' || code === 'WIRE' || code === 'XENT')
    return builder.transfer(at, amount());
  if (code === 'FXBUY' || code === 'FXSELL' || code === 'UKGBP')
    return builder.skip(
      at,
      'a currency conversion or a deposit in another currency: the ledger is in USD only',
    );
  if (code === 'ACATI' || code === 'ACATO') {
    if (!symbol) return builder.skip(at, `"${rawSymbol}" is not a ticker`);
    const quantity = requiredMoney(columns.get(row, 'Quantity'), 'Quantity');
    return builder.shareTransfer(at, code === 'ACATO' ? 'out' : 'in', symbol, quantity);
  }
  if (code === 'SXCH')
    return builder.skip(at, 'shares moved between brokers: record them with their cost basis as a transfer');
  if (code === 'SPL' || code === 'SPR' || code === 'MRGS' || code === 'SOFF' || code === 'CIL')
    return builder.skip(
      at,
      'a corporate action Robinhood writes without a ratio: the ledger cannot represent it yet',
    );
  builder.skip(at, `unknown Trans Code "${code}": not guessed`);
}
