// Vanguard "OfxDownload.csv": a holdings table, blank lines, then the transactions table, every line
// ending in a comma. Only the transactions are read (the ledger replays holdings from them).
import { CsvRow, ExportBuilder } from '../broker-export';
import { brokerDate, Columns, findHeader, isDate, money, requiredMoney, tickerOf } from '../cells';
import { BrokerLayout, eachRow } from './broker-layout';

const HEADER = ['Trade Date', 'Transaction Type', 'Symbol', 'Shares', 'Share Price', 'Net Amount'];
const SETTLEMENT_FUNDS = new Set(['VMFXX', 'VMMXX', 'VUSXX']);

export const vanguardLayout: BrokerLayout = {
  format: 'vanguard',
  label: 'Vanguard',
  signatures: [{ layout: 'OfxDownload transactions', columns: HEADER }],
  parse(rows) {
    const headerIndex = findHeader(rows, HEADER);
    const columns = new Columns(rows[headerIndex].cells);
    const builder = new ExportBuilder('vanguard', 'OfxDownload transactions');
    if (headerIndex > 0)
      builder.notices.push(
        'The holdings table before the transactions is not imported: positions are replayed from the transactions.',
      );
    for (const row of rows.slice(headerIndex + 1)) {
      if (!isDate(columns.get(row, 'Trade Date'))) continue;
      eachRow(builder, row, () => readRow(builder, columns, row));
    }
    return builder.finish();
  },
};

function readRow(builder: ExportBuilder, columns: Columns, row: CsvRow): void {
  const type = columns.get(row, 'Transaction Type');
  const key = type.toLowerCase();
  const at = { line: row.line, date: brokerDate(columns.get(row, 'Trade Date')), action: type };
  const rawSymbol = columns.get(row, 'Symbol');
  const name = columns.get(row, 'Investment Name');
  const settlementFund = SETTLEMENT_FUNDS.has(rawSymbol.toUpperCase()) || /money market/i.test(name);
  const symbol = tickerOf(rawSymbol);
  const amount = () => requiredMoney(columns.get(row, 'Net Amount'), 'Net Amount');
  if (key === 'buy' || key === 'sell' || key === 'reinvestment') {
    if (settlementFund)
      return builder.skip(at, 'the money-market settlement fund, which the ledger counts as cash');
    if (!symbol)
      return builder.skip(at, `"${name}" has no ticker (a T-bill, bond or CD the ledger cannot hold)`);
    const quantity = requiredMoney(columns.get(row, 'Shares'), 'Shares');
    const price = requiredMoney(columns.get(row, 'Share Price'), 'Share Price');
    const fees = money(columns.get(row, 'Commissions and Fees', 'Commission Fees'), 'Commission Fees') ?? 0;
    return builder.trade(at, key === 'sell' ? 'sell' : 'buy', symbol, quantity, price, fees);
  }
  if (key === 'dividend' || key.startsWith('capital gain'))
    return settlementFund || !symbol
      ? builder.cash(at, 'interest', amount())
      : builder.cash(at, 'dividend', amount(), symbol);
  if (key === 'interest') return builder.cash(at, 'interest', amount());
  if (key === 'fee') return builder.cash(at, 'fee', amount(), symbol);
  if (key === 'funds received' || key === 'withdrawal' || key === 'wire' || key === 'deposit')
    return builder.transfer(at, amount());
  if (key.startsWith('sweep'))
    return builder.skip(at, 'a sweep into or out of the settlement fund, which the ledger counts as cash');
  if (key.startsWith('transfer')) {
    const shares = money(columns.get(row, 'Shares'), 'Shares') ?? 0;
    if (shares === 0) return builder.transfer(at, amount());
    if (settlementFund)
      return builder.skip(
        at,
        'a transfer of the money-market settlement fund, which the ledger counts as cash: record the cash it moved as a deposit or withdrawal',
      );
    if (!symbol)
      return builder.skip(at, `"${name}" has no ticker (a T-bill, bond or CD the ledger cannot hold)`);
    return builder.shareTransfer(at, shares < 0 ? 'out' : 'in', symbol, shares);
  }
  if (key.startsWith('corp action'))
    return builder.skip(
      at,
      `a corporate action (${columns.get(row, 'Transaction Description')}): the ledger cannot represent it yet`,
    );
  builder.skip(at, `unknown transaction type "${type}": not guessed`);
}
