// E*TRADE, in its two downloads: the old "Transaction history" (`For Account:` preamble, a blank line
// after the header, MM/DD/YY dates, TransactionType) and the 2024 "All Transactions" export
// (`Activity/Trade Date`, `--` for empty). Reinvested dividends come as two Dividend rows: the cash
// (quantity 0) and the shares bought with it.
import { CsvRow, ExportBuilder } from '../broker-export';
import { brokerDate, Columns, findHeader, isDate, money, requiredMoney, tickerOf } from '../cells';
import { BrokerLayout, eachRow } from './broker-layout';
import { derivedFees } from './derived-fees';

const OLD_HEADER = ['TransactionDate', 'TransactionType', 'SecurityType', 'Symbol', 'Quantity', 'Amount'];
const NEW_HEADER = ['Activity/Trade Date', 'Activity Type', 'Symbol', 'Quantity #', 'Price $', 'Amount $'];

export const eTradeLayout: BrokerLayout = {
  format: 'e_trade',
  label: 'E*TRADE',
  signatures: [
    { layout: 'Transaction history', columns: OLD_HEADER },
    { layout: 'All Transactions', columns: NEW_HEADER },
  ],
  parse(rows) {
    const old = findHeader(rows, OLD_HEADER) !== -1;
    const headerIndex = findHeader(rows, old ? OLD_HEADER : NEW_HEADER);
    const columns = new Columns(rows[headerIndex].cells);
    const builder = new ExportBuilder('e_trade', old ? 'Transaction history' : 'All Transactions');
    const dateColumn = old ? 'TransactionDate' : 'Activity/Trade Date';
    for (const row of rows.slice(headerIndex + 1)) {
      if (!isDate(columns.get(row, dateColumn))) continue;
      eachRow(builder, row, () => readRow(builder, columns, row, dateColumn));
    }
    return builder.finish();
  },
};

function readRow(builder: ExportBuilder, columns: Columns, row: CsvRow, dateColumn: string): void {
  const type = columns.get(row, 'TransactionType', 'Activity Type');
  const key = type.toLowerCase();
  const at = { line: row.line, date: brokerDate(columns.get(row, dateColumn)), action: type };
  const securityType = columns.get(row, 'SecurityType').toUpperCase();
  const rawSymbol = columns.get(row, 'Symbol');
  const symbol = tickerOf(rawSymbol);
  const sweep = rawSymbol.startsWith('#');
  const quantity = money(columns.get(row, 'Quantity', 'Quantity #'), 'Quantity') ?? 0;
  const amount = () => requiredMoney(columns.get(row, 'Amount', 'Amount $'), 'Amount');
  const price = () => money(columns.get(row, 'Price', 'Price $'), 'Price') ?? 0;
  const fees = () => Math.abs(money(columns.get(row, 'Commission'), 'Commission') ?? 0);
  if (securityType === 'OPTN' || /to open|to close|to cover|option|assigned|exercised/.test(key))
    return builder.skip(at, 'an option: the ledger holds shares only');
  if (securityType === 'BOND') return builder.skip(at, 'a bond: the ledger holds shares only');
  if (key === 'sold short') return builder.skip(at, 'a short sale: the ledger holds long positions only');
  if (key === 'bought' || key === 'sold' || key === 'reinvestment' || key === 'dividend reinvestment') {
    if (!symbol) return builder.skip(at, `"${rawSymbol}" is not a ticker`);
    const side = key === 'sold' ? 'sell' : 'buy';
    const perShare = tradePrice(price(), quantity, amount(), fees());
    // The Commission column leaves out the regulatory fees a sell's amount is net of.
    const allFees = Math.max(fees(), derivedFees(side, Math.abs(quantity), perShare, amount()));
    return builder.trade(at, side, symbol, quantity, perShare, allFees);
  }
  if (key.includes('dividend')) {
    if (sweep) return builder.cash(at, 'interest', amount());
    if (quantity > 0 && amount() < 0) {
      if (!symbol) return builder.skip(at, `"${rawSymbol}" is not a ticker`);
      return builder.trade(
        { ...at, action: `${type} (reinvested)` },
        'buy',
        symbol,
        quantity,
        tradePrice(price(), quantity, amount(), 0),
        0,
      );
    }
    return builder.cash(at, 'dividend', amount(), symbol);
  }
  if (key.includes('interest')) return builder.cash(at, 'interest', amount());
  if (key.includes('withholding') || key.includes('tax')) return builder.withholding(at, amount(), symbol);
  if (key === 'fee' || key.includes('fee')) return builder.cash(at, 'fee', amount(), symbol);
  if (
    key === 'transfer' ||
    key === 'wire' ||
    key.includes('transfer') ||
    key.includes('deposit') ||
    key.includes('withdrawal') ||
    key === 'ach'
  ) {
    if (quantity === 0 || sweep) return builder.transfer(at, amount());
    if (!symbol) return builder.skip(at, `"${rawSymbol}" is not a ticker`);
    return builder.shareTransfer(at, quantity < 0 ? 'out' : 'in', symbol, quantity);
  }
  if (key === 'reorganization' || key.includes('split') || key.includes('merger'))
    return builder.skip(at, 'a corporate action: the ledger cannot represent it yet');
  if (key === 'adjustment' || key === 'other')
    return builder.skip(at, `an "${type}" row E*TRADE does not explain: not guessed`);
  builder.skip(at, `unknown transaction type "${type}": not guessed`);
}

/** The price per share: the file's, or, where it writes 0, the cash paid per share net of fees. */
function tradePrice(price: number, quantity: number, amount: number, fees: number): number {
  if (price > 0) return price;
  return (Math.abs(amount) - fees) / Math.abs(quantity);
}
