// TD Ameritrade "transactions.csv": the action is in DESCRIPTION ("Bought 10 SPY @ 237.9"), every
// row has a TRANSACTION ID, and `***END OF FILE***` closes each download. Downloads joined end to
// end repeat the header, so the columns are read again at each header.
import { CsvRow, ExportBuilder } from '../broker-export';
import { brokerDate, Columns, isDate, money, requiredMoney, tickerOf } from '../cells';
import { BrokerLayout, eachRow } from './broker-layout';

const HEADER = ['DATE', 'TRANSACTION ID', 'DESCRIPTION', 'QUANTITY', 'SYMBOL', 'AMOUNT'];
const FEE_COLUMNS = [
  'COMMISSION',
  'REG FEE',
  'SHORT-TERM RDM FEE',
  'FUND REDEMPTION FEE',
  'DEFERRED SALES CHARGE',
];
const MONEY_MARKET = /^MMDA\d*$/;

export const tdAmeritradeLayout: BrokerLayout = {
  format: 'td_ameritrade',
  label: 'TD Ameritrade',
  signatures: [{ layout: 'Transactions', columns: HEADER }],
  parse(rows) {
    const builder = new ExportBuilder('td_ameritrade', 'Transactions');
    let columns: Columns | null = null;
    let downloads = 0;
    for (const row of rows) {
      const first = (row.cells[0] ?? '').trim().toUpperCase();
      if (first === 'DATE' && row.cells.some((cell) => cell.trim().toUpperCase() === 'TRANSACTION ID')) {
        columns = new Columns(row.cells);
        downloads += 1;
        continue;
      }
      if (!columns || !isDate(row.cells[0])) continue;
      const current = columns;
      eachRow(builder, row, () => readRow(builder, current, row));
    }
    if (downloads > 1) builder.layout = `Transactions (${downloads} downloads joined)`;
    return builder.finish();
  },
};

function readRow(builder: ExportBuilder, columns: Columns, row: CsvRow): void {
  const description = columns.get(row, 'DESCRIPTION');
  const upper = description.toUpperCase();
  const at = {
    line: row.line,
    date: brokerDate(columns.get(row, 'DATE')),
    action: description,
    brokerId: columns.get(row, 'TRANSACTION ID') || null,
  };
  const rawSymbol = columns.get(row, 'SYMBOL');
  const symbol = tickerOf(rawSymbol);
  const moneyMarket = MONEY_MARKET.test(rawSymbol.toUpperCase());
  const amount = () => requiredMoney(columns.get(row, 'AMOUNT'), 'AMOUNT');
  const starts = (prefix: string) => upper.startsWith(prefix);
  if (/\b(CALL|PUT)\b/.test(upper) || rawSymbol.includes(' '))
    return builder.skip(at, 'an option: the ledger holds shares only');
  if (starts('BOUGHT') || starts('SOLD')) {
    if (!symbol)
      return builder.skip(at, `"${rawSymbol}" is not a ticker (a bond or CD the ledger cannot hold)`);
    const quantity = requiredMoney(columns.get(row, 'QUANTITY'), 'QUANTITY');
    const price = requiredMoney(columns.get(row, 'PRICE'), 'PRICE');
    const fees = FEE_COLUMNS.reduce((sum, column) => sum + (money(columns.get(row, column), column) ?? 0), 0);
    return builder.trade(at, starts('SOLD') ? 'sell' : 'buy', symbol, quantity, price, fees);
  }
  if (/DIVIDEND|GAIN DISTRIBUTION|CAPITAL GAIN/.test(upper) && !/WITHHOLDING/.test(upper))
    return moneyMarket
      ? builder.cash(at, 'interest', amount())
      : builder.cash(at, 'dividend', amount(), symbol);
  if (/WITHHOLDING|FOREIGN TAX/.test(upper))
    return builder.withholding(at, amount(), moneyMarket ? null : symbol);
  if (starts('ADR FEE') || /\bFEE\b/.test(upper))
    return builder.cash(at, 'fee', amount(), moneyMarket ? null : symbol);
  if (/INTEREST/.test(upper)) return builder.cash(at, 'interest', amount());
  const transfer = /^TRANSFER OF SECURITY(?: OR OPTION)? (IN|OUT)\b|SHARES? (IN|OUT)\b/.exec(upper);
  if (starts('TRANSFER OF SECURITY') || transfer) {
    if (!symbol)
      return builder.skip(at, `"${rawSymbol}" is not a ticker (a bond or CD the ledger cannot hold)`);
    const direction = transfer ? (transfer[1] ?? transfer[2]) : undefined;
    return builder.shareTransfer(
      at,
      direction === 'IN' ? 'in' : direction === 'OUT' ? 'out' : 'unknown',
      symbol,
      requiredMoney(columns.get(row, 'QUANTITY'), 'QUANTITY'),
    );
  }
  if (starts('STOCK SPLIT')) {
    const added = money(columns.get(row, 'QUANTITY'), 'QUANTITY') ?? 0;
    if (!symbol || added <= 0) return builder.skip(at, 'a split without the shares it added');
    return builder.add({ ...at, side: 'split', symbol, split: { addedShares: added } });
  }
  if (/MERGER|SPIN|EXCHANGE|REORGANIZATION|MANDATORY/.test(upper))
    return builder.skip(at, 'a corporate action: the ledger cannot represent it yet');
  if (/WIRE|DISBURSEMENT|FUNDING|RECEIPT|REBATE|JOURNAL|ACH|CHECK|DEPOSIT/.test(upper))
    return builder.transfer(at, amount());
  builder.skip(at, `unknown description "${description}": not guessed`);
}
