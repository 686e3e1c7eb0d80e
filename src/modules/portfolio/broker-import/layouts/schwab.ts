// Charles Schwab "Transactions" CSV: Date,Action,Symbol,Description,Quantity,Price,Fees & Comm,Amount.
// Older downloads open with a quoted title line and end every line with a comma; a
// "Transactions Total" footer closes most files. Quantities are unsigned for buys and sells.
import { CsvRow, ExportBuilder } from '../broker-export';
import { brokerDate, Columns, findHeader, isDate, money, requiredMoney, tickerOf } from '../cells';
import { BrokerLayout, eachRow } from './broker-layout';
import { ratioOfLegs, SplitLeg } from './split-legs';

const HEADER = ['Date', 'Action', 'Symbol', 'Quantity', 'Price', 'Amount'];

const DIVIDENDS = new Set([
  'cash dividend',
  'qualified dividend',
  'non-qualified div',
  'special non qual div',
  'special qual div',
  'reinvest dividend',
  'qual div reinvest',
  'pr yr div reinvest',
  'pr yr cash div',
  'pr yr non-qual div',
  'pr yr special div',
  'long term cap gain',
  'short term cap gain',
  'long term cap gain reinvest',
  'short term cap gain reinvest',
]);
const INTEREST = new Set([
  'credit interest',
  'bank interest',
  'bond interest',
  'margin interest',
  'schwab1 int',
]);
const FEES = new Set(['advisor fee', 'service fee', 'adr mgmt fee', 'wire fee', 'margin fee', 'misc fee']);
const TAXES = new Set([
  'foreign tax paid',
  'nra tax adj',
  'pr yr nra tax',
  'nra withholding',
  'backup withholding',
]);
const CASH_MOVES = new Set([
  'moneylink transfer',
  'moneylink deposit',
  'moneylink adj',
  'wire funds',
  'wire sent',
  'wire funds received',
  'wire received',
  'funds received',
  'journal',
  'internal transfer',
  'misc cash entry',
  'atm withdrawal',
  'schwab atm rebate',
  'visa purchase',
  'check paid',
]);
const SHARE_TRANSFERS = new Set(['journaled shares', 'security transfer', 'stock plan activity']);
const CORPORATE_ACTIONS = new Map([
  ['stock merger', 'a merger'],
  ['cash merger', 'a cash merger'],
  ['cash merger adj', 'a cash merger adjustment'],
  ['name change', 'a name change'],
  ['conversion', 'a conversion of one security into another'],
  ['spin-off', 'a spin-off'],
  ['stock div dist', 'a stock dividend (shares distributed)'],
  ['full redemption', 'a redemption'],
  ['full redemption adj', 'a redemption adjustment'],
  ['cash in lieu', 'cash paid for a fractional share of a corporate action'],
]);
const OPTIONS = new Set([
  'buy to open',
  'sell to open',
  'buy to close',
  'sell to close',
  'expired',
  'assigned',
  'exchange or exercise',
]);

export const schwabLayout: BrokerLayout = {
  format: 'schwab',
  label: 'Charles Schwab',
  signatures: [{ layout: 'Transactions', columns: [...HEADER, 'Fees & Comm'] }],
  parse(rows) {
    const headerIndex = findHeader(rows, HEADER);
    const builder = new ExportBuilder(
      'schwab',
      headerIndex > 0 ? 'Transactions (with title line)' : 'Transactions',
    );
    const columns = new Columns(rows[headerIndex].cells);
    const legs: SplitLeg[] = [];
    for (const row of rows.slice(headerIndex + 1)) {
      const dateCell = columns.get(row, 'Date');
      if (!isDate(dateCell.split(/\s+as of\s+/i)[0])) continue;
      eachRow(builder, row, () => readRow(builder, columns, row, legs));
    }
    for (const outcome of ratioOfLegs(legs)) {
      if ('reason' in outcome) for (const leg of outcome.legs) builder.skip(leg, outcome.reason);
      else {
        builder.add({ ...outcome.entry, brokerId: null });
        builder.combined.push({
          line: outcome.partner.line,
          action: outcome.partner.action,
          into: outcome.entry.line,
        });
      }
    }
    return builder.finish();
  },
};

function readRow(builder: ExportBuilder, columns: Columns, row: CsvRow, legs: SplitLeg[]): void {
  const action = columns.get(row, 'Action');
  const key = action.toLowerCase();
  const at = { line: row.line, date: brokerDate(columns.get(row, 'Date')), action };
  const rawSymbol = columns.get(row, 'Symbol');
  const symbol = tickerOf(rawSymbol);
  const amount = () => requiredMoney(columns.get(row, 'Amount'), 'Amount');
  if (OPTIONS.has(key)) return builder.skip(at, 'an option trade: the ledger holds shares only');
  if (key === 'buy' || key === 'sell' || key === 'reinvest shares') {
    if (!symbol)
      return builder.skip(at, `"${rawSymbol}" is not a ticker (a bond, CD or option the ledger cannot hold)`);
    const quantity = requiredMoney(columns.get(row, 'Quantity'), 'Quantity');
    const price = requiredMoney(columns.get(row, 'Price'), 'Price');
    const fees = money(columns.get(row, 'Fees & Comm', 'Fees & Commissions'), 'Fees & Comm') ?? 0;
    return builder.trade(at, key === 'sell' ? 'sell' : 'buy', symbol, quantity, price, fees);
  }
  if (key === 'sell short' || key === 'buy to cover')
    return builder.skip(at, 'a short sale: the ledger holds long positions only');
  if (DIVIDENDS.has(key)) return builder.cash(at, 'dividend', amount(), symbol);
  if (INTEREST.has(key)) return builder.cash(at, 'interest', amount());
  if (FEES.has(key)) return builder.cash(at, 'fee', amount(), symbol);
  if (TAXES.has(key)) return builder.withholding(at, amount(), symbol);
  if (CASH_MOVES.has(key)) return builder.transfer(at, amount());
  if (SHARE_TRANSFERS.has(key)) {
    if (!symbol)
      return builder.skip(at, `"${rawSymbol}" is not a ticker (a bond, CD or option the ledger cannot hold)`);
    const quantity = requiredMoney(columns.get(row, 'Quantity'), 'Quantity');
    return builder.shareTransfer(at, quantity < 0 ? 'out' : 'in', symbol, quantity);
  }
  if (key === 'stock split') {
    if (!symbol) return builder.skip(at, `"${rawSymbol}" is not a ticker`);
    const added = requiredMoney(columns.get(row, 'Quantity'), 'Quantity');
    if (added <= 0) return builder.skip(at, 'a split row that adds no shares');
    return builder.add({ ...at, brokerId: null, side: 'split', symbol, split: { addedShares: added } });
  }
  if (key === 'reverse split') {
    legs.push({ ...at, symbol, quantity: requiredMoney(columns.get(row, 'Quantity'), 'Quantity') });
    return;
  }
  const corporate = CORPORATE_ACTIONS.get(key);
  if (corporate) return builder.skip(at, `${corporate}: the ledger cannot represent it yet`);
  builder.skip(at, `unknown action "${action}": not guessed`);
}
