// Fidelity "Activity/History" CSV, in each of its header orders (2017's 17 columns, 2023's and
// 2025's ` ($)` names, 2026's Price before Quantity, Dec 2025's 18 columns): columns by name only.
// Blank or comma-only lines before the header, a quoted disclaimer and "Date downloaded" after the
// rows: a row counts only when its first cell is a date.
import { CsvRow, ExportBuilder } from '../broker-export';
import { brokerDate, Columns, findHeader, isDate, money, requiredMoney, tickerOf } from '../cells';
import { BrokerLayout, eachRow } from './broker-layout';

const CORE_FUNDS = new Set(['SPAXX', 'FDRXX', 'FCASH', 'FZFXX', 'SPRXX', 'FZDXX', 'CORE']);
const CASH_MOVES = [
  'ELECTRONIC FUNDS TRANSFER',
  'DIRECT DEPOSIT',
  'DIRECT DEBIT',
  'CHECK RECEIVED',
  'CHECK PAID',
  'CONTRIBUTION',
  'PARTIC CONTR',
  'PARTIAL DISTRIBUTION',
  'NORMAL DISTRIBUTION',
  'JOURNALED',
  'WIRE TRANSFER',
  'TRANSFERRED FROM',
  'TRANSFERRED TO',
  'BILL PAYMENT',
  'DEPOSIT',
  'WITHDRAWAL',
];

export const fidelityLayout: BrokerLayout = {
  format: 'fidelity',
  label: 'Fidelity',
  signatures: [
    {
      layout: 'Account history (plain column names)',
      columns: ['Run Date', 'Action', 'Symbol', 'Quantity', 'Price', 'Amount'],
    },
    {
      layout: 'Account history (column names with ($))',
      columns: ['Run Date', 'Action', 'Symbol', 'Quantity', 'Price ($)', 'Amount ($)'],
    },
  ],
  parse(rows) {
    const headerIndex = Math.max(findHeader(rows, ['Run Date', 'Action', 'Symbol', 'Quantity']), 0);
    const header = rows[headerIndex].cells;
    const columns = new Columns(header);
    const builder = new ExportBuilder(
      'fidelity',
      columns.has('Price ($)')
        ? 'Account history (column names with ($))'
        : 'Account history (plain column names)',
    );
    const width = header.length;
    for (const row of rows.slice(headerIndex + 1)) {
      if (!isDate(columns.get(row, 'Run Date'))) continue;
      if (row.cells.length !== width) {
        builder.reject(
          row.line,
          `the row has ${row.cells.length} fields but the header has ${width} (a workplace-plan row that does not fit the header)`,
        );
        continue;
      }
      eachRow(builder, row, () => readRow(builder, columns, row));
    }
    return builder.finish();
  },
};

function readRow(builder: ExportBuilder, columns: Columns, row: CsvRow): void {
  const action = columns.get(row, 'Action').replace(/\s+/g, ' ');
  const upper = action.toUpperCase();
  const at = { line: row.line, date: brokerDate(columns.get(row, 'Run Date')), action };
  const rawSymbol = columns.get(row, 'Symbol');
  const symbol = tickerOf(rawSymbol);
  const currency = columns.get(row, 'Currency').toUpperCase();
  if (currency !== '' && currency !== 'USD')
    return builder.skip(at, `an amount in ${currency}: the ledger is in USD`);
  const amount = () => requiredMoney(columns.get(row, 'Amount ($)', 'Amount'), 'Amount');
  const quantity = () => money(columns.get(row, 'Quantity'), 'Quantity') ?? 0;
  const core =
    CORE_FUNDS.has(rawSymbol.toUpperCase()) ||
    /^\d+$/.test(rawSymbol) ||
    (columns.get(row, 'Security Type', 'Type') === 'Cash' && rawSymbol === '');
  const option =
    rawSymbol.startsWith('-') || /OPENING TRANSACTION|CLOSING TRANSACTION|\b(CALL|PUT)\b/.test(upper);
  const starts = (prefix: string) => upper.startsWith(prefix);

  if (option && (starts('YOU BOUGHT') || starts('YOU SOLD') || starts('EXPIRED') || starts('ASSIGNED')))
    return builder.skip(at, 'an option trade: the ledger holds shares only');
  if (starts('PURCHASE INTO CORE ACCOUNT') || starts('REDEMPTION FROM CORE ACCOUNT'))
    return builder.skip(
      at,
      'a sweep into or out of the core money-market position, which the ledger counts as cash',
    );
  if (starts('YOU BOUGHT') || starts('YOU SOLD') || starts('REINVESTMENT')) {
    if (core)
      return builder.skip(
        at,
        'reinvested into the core money-market position, which the ledger counts as cash',
      );
    if (!symbol)
      return builder.skip(at, `"${rawSymbol}" is not a ticker (a bond, T-bill or CD the ledger cannot hold)`);
    const price = requiredMoney(columns.get(row, 'Price ($)', 'Price'), 'Price');
    const fees =
      (money(columns.get(row, 'Commission ($)', 'Commission'), 'Commission') ?? 0) +
      (money(columns.get(row, 'Fees ($)', 'Fees'), 'Fees') ?? 0);
    return builder.trade(at, starts('YOU SOLD') ? 'sell' : 'buy', symbol, quantity(), price, fees);
  }
  if (
    starts('DIVIDEND RECEIVED') ||
    starts('LONG-TERM CAP GAIN') ||
    starts('SHORT-TERM CAP GAIN') ||
    starts('RETURN OF CAPITAL')
  )
    return core ? builder.cash(at, 'interest', amount()) : builder.cash(at, 'dividend', amount(), symbol);
  if (starts('INTEREST EARNED') || starts('MUNI EXEMPT INT') || starts('INTEREST'))
    return builder.cash(at, 'interest', amount());
  if (
    starts('FOREIGN TAX PAID') ||
    starts('FED TAX W/H') ||
    starts('STATE TAX W/H') ||
    starts('NON-RESIDENT TAX')
  )
    return builder.withholding(at, amount(), core ? null : symbol);
  if (starts('FEE CHARGED') || starts('ADVISORY FEE') || starts('MARGIN INTEREST'))
    return builder.cash(at, 'fee', amount(), symbol);
  if (starts('REDEMPTION PAYOUT'))
    return builder.skip(at, 'a bond or T-bill redemption: the ledger cannot hold bonds');
  if (
    starts('MERGER') ||
    starts('SPIN-OFF') ||
    starts('DISTRIBUTION') ||
    starts('STOCK SPLIT') ||
    starts('REVERSE SPLIT')
  )
    return builder.skip(
      at,
      'a corporate action Fidelity writes without a ratio: the ledger cannot represent it yet',
    );
  if (starts('EXCHANGE IN') || starts('EXCHANGE OUT'))
    return builder.skip(at, 'a workplace-plan exchange between funds: the ledger cannot represent it yet');
  if (CASH_MOVES.some(starts)) {
    if (quantity() === 0 || core) return builder.transfer(at, amount());
    if (!symbol)
      return builder.skip(at, `"${rawSymbol}" is not a ticker (a bond, T-bill or CD the ledger cannot hold)`);
    return builder.shareTransfer(at, quantity() < 0 ? 'out' : 'in', symbol, quantity());
  }
  builder.skip(at, `unknown action "${action}": not guessed`);
}
