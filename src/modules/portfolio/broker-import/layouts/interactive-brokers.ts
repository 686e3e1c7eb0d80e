// Interactive Brokers, in its three CSV products: Flex Query files (trades or cash transactions,
// columns chosen by the user), the sectioned Activity Statement (`<Section>,<RowType>,…`) and the
// Transaction History report (sectioned the same way). Amounts are USD only: a row in another
// currency is skipped. The statement's Account Information section is never read.
import { CsvRow, ExportBuilder, ParsedExport } from '../broker-export';
import { brokerDate, columnKey, Columns, findHeader, isDate, money, requiredMoney, tickerOf } from '../cells';
import { BrokerLayout, eachRow } from './broker-layout';

const FLEX_TRADES = ['Buy/Sell', 'TradeDate', 'Quantity', 'TradePrice'];
const FLEX_CASH = ['Type', 'Description', 'Amount', 'CurrencyPrimary'];
const STATEMENT = ['Statement', 'Header', 'Field Name', 'Field Value'];
const HISTORY = ['Transaction History', 'Header', 'Transaction Type'];

export const interactiveBrokersLayout: BrokerLayout = {
  format: 'interactive_brokers',
  label: 'Interactive Brokers',
  signatures: [
    { layout: 'Flex Query trades', columns: FLEX_TRADES },
    { layout: 'Flex Query cash transactions', columns: FLEX_CASH },
    { layout: 'Activity Statement', columns: STATEMENT },
    { layout: 'Transaction History', columns: HISTORY },
  ],
  parse(rows) {
    if (findHeader(rows, HISTORY, 0, 200) !== -1) return parseHistory(rows);
    if (findHeader(rows, STATEMENT) !== -1) return parseStatement(rows);
    if (findHeader(rows, FLEX_TRADES) !== -1) return parseFlexTrades(rows);
    return parseFlexCash(rows);
  },
};

type At = { line: number; date: string; action: string; brokerId?: string | null };

/** The ticker an IBKR description opens with: `VT(US9220427424) CASH DIVIDEND …`. */
function tickerInDescription(description: string): string | null {
  const match = /^([A-Za-z][A-Za-z0-9.\- ]{0,15}?)\s*\(/.exec(description.trim());
  return match ? tickerOf(match[1].replace(/ /g, '.')) : null;
}

function usdOnly(builder: ExportBuilder, at: At, currency: string): boolean {
  const code = currency.trim().toUpperCase();
  if (code === '' || code === 'USD') return true;
  builder.skip(at, `an amount in ${code}: the ledger is in USD`);
  return false;
}

/** A cash row by IBKR's type words (Flex `Type`, statement section or history `Transaction Type`). */
function cashRow(
  builder: ExportBuilder,
  at: At,
  type: string,
  amount: number,
  symbol: string | null,
  description: string,
): void {
  const key = type.toLowerCase();
  if (key.startsWith('dividend') || key.startsWith('payment in lieu')) {
    if (/return of capital/i.test(description))
      return builder.skip(
        at,
        'a return of capital, which lowers the cost basis: the ledger cannot represent it yet',
      );
    return builder.cash(at, 'dividend', amount, symbol);
  }
  if (key.includes('withholding')) return builder.withholding(at, amount, symbol);
  if (key.includes('interest')) return builder.cash(at, 'interest', amount);
  if (key.includes('fee') || key.includes('commission adj')) return builder.cash(at, 'fee', amount);
  if (key.startsWith('deposit') || key.startsWith('withdrawal') || key.includes('transfer'))
    return builder.transfer(at, amount);
  if (key.includes('forex')) return builder.skip(at, 'a currency conversion: the ledger is in USD only');
  builder.skip(at, `"${type}" is not a kind the ledger knows: not guessed`);
}

function tradeRow(
  builder: ExportBuilder,
  at: At,
  assetCategory: string,
  symbol: string | null,
  rawSymbol: string,
  quantity: number,
  price: number,
  fees: number,
): void {
  const category = assetCategory.toLowerCase();
  if (
    category !== '' &&
    !category.startsWith('stk') &&
    !category.startsWith('stock') &&
    !category.startsWith('etf')
  )
    return builder.skip(at, `a trade in ${assetCategory}: the ledger holds shares only`);
  if (!symbol) return builder.skip(at, `"${rawSymbol}" is not a ticker`);
  if (quantity === 0) return builder.skip(at, 'a trade of 0 shares');
  builder.trade(at, quantity < 0 ? 'sell' : 'buy', symbol, quantity, price, fees);
}

function parseFlexTrades(rows: readonly CsvRow[]): ParsedExport {
  const headerIndex = findHeader(rows, FLEX_TRADES);
  const columns = new Columns(rows[headerIndex].cells);
  const builder = new ExportBuilder('interactive_brokers', 'Flex Query trades');
  const hasSymbol = columns.has('Symbol');
  if (!hasSymbol)
    builder.notices.push(
      'The Flex query has no Symbol column: add Symbol to the query so that trades can be matched to tickers.',
    );
  for (const row of rows.slice(headerIndex + 1)) {
    if (!isDate(columns.get(row, 'TradeDate'))) continue;
    eachRow(builder, row, () => {
      const side = columns.get(row, 'Buy/Sell');
      const at = {
        line: row.line,
        date: brokerDate(columns.get(row, 'TradeDate')),
        action: side,
        brokerId: columns.get(row, 'TradeID', 'TransactionID', 'IBExecID') || null,
      };
      const isin = columns.get(row, 'ISIN');
      const rawSymbol = columns.get(row, 'Symbol');
      const category = columns.get(row, 'AssetClass', 'Asset Category');
      if ((isin === '' && rawSymbol === '') || category.toUpperCase() === 'CASH')
        return builder.skip(at, 'a currency conversion (no security): the ledger is in USD only');
      if (!usdOnly(builder, at, columns.get(row, 'CurrencyPrimary', 'Currency'))) return;
      const commissionCurrency = columns.get(row, 'IBCommissionCurrency').toUpperCase();
      if (commissionCurrency !== '' && commissionCurrency !== 'USD')
        return builder.skip(at, `the commission is in ${commissionCurrency}: the ledger is in USD`);
      if (!hasSymbol)
        return builder.skip(at, `only an ISIN (${isin}) identifies the security: the ledger needs a ticker`);
      const quantity = requiredMoney(columns.get(row, 'Quantity'), 'Quantity');
      const signed = side.toUpperCase().startsWith('SELL') ? -Math.abs(quantity) : Math.abs(quantity);
      const price = requiredMoney(columns.get(row, 'TradePrice'), 'TradePrice');
      const fees = money(columns.get(row, 'IBCommission'), 'IBCommission') ?? 0;
      tradeRow(builder, at, category, tickerOf(rawSymbol), rawSymbol, signed, price, fees);
    });
  }
  return builder.finish();
}

function parseFlexCash(rows: readonly CsvRow[]): ParsedExport {
  const headerIndex = findHeader(rows, FLEX_CASH);
  const columns = new Columns(rows[headerIndex].cells);
  const builder = new ExportBuilder('interactive_brokers', 'Flex Query cash transactions');
  const dateColumn = columns.pick('SettleDate', 'Date/Time', 'ReportDate', 'Date') ?? 'SettleDate';
  for (const row of rows.slice(headerIndex + 1)) {
    if (!isDate(columns.get(row, dateColumn))) continue;
    eachRow(builder, row, () => {
      const type = columns.get(row, 'Type');
      const description = columns.get(row, 'Description');
      const at = {
        line: row.line,
        date: brokerDate(columns.get(row, dateColumn)),
        action: type,
        brokerId: columns.get(row, 'TransactionID') || null,
      };
      if (!usdOnly(builder, at, columns.get(row, 'CurrencyPrimary', 'Currency'))) return;
      const symbol = tickerOf(columns.get(row, 'Symbol')) ?? tickerInDescription(description);
      cashRow(builder, at, type, requiredMoney(columns.get(row, 'Amount'), 'Amount'), symbol, description);
    });
  }
  return builder.finish();
}

/** The Activity Statement: each section has its own header, which may change within the section. */
function parseStatement(rows: readonly CsvRow[]): ParsedExport {
  const builder = new ExportBuilder('interactive_brokers', 'Activity Statement');
  const headers = new Map<string, Columns>();
  const tradeRows: { row: CsvRow; columns: Columns }[] = [];
  for (const row of rows) {
    const section = (row.cells[0] ?? '').trim();
    const rowType = (row.cells[1] ?? '').trim();
    const body = { cells: row.cells.slice(2), line: row.line };
    if (rowType === 'Header') {
      headers.set(section, new Columns(body.cells));
      continue;
    }
    const columns = headers.get(section);
    if (rowType !== 'Data' || !columns) continue;
    switch (section) {
      case 'Trades':
        tradeRows.push({ row: body, columns });
        break;
      case 'Dividends':
      case 'Withholding Tax':
      case 'Interest':
      case 'Fees':
      case 'Deposits & Withdrawals':
        if (!isDate(columns.get(body, 'Date', 'Settle Date'))) break;
        eachRow(builder, body, () => {
          const description = columns.get(body, 'Description');
          const at = {
            line: row.line,
            date: brokerDate(columns.get(body, 'Date', 'Settle Date')),
            action: `${section}: ${description}`,
          };
          if (!usdOnly(builder, at, columns.get(body, 'Currency'))) return;
          const type =
            section === 'Fees' ? 'Other Fees' : section === 'Deposits & Withdrawals' ? 'Deposit' : section;
          cashRow(
            builder,
            at,
            type,
            requiredMoney(columns.get(body, 'Amount'), 'Amount'),
            tickerInDescription(description),
            description,
          );
        });
        break;
      case 'Corporate Actions':
        builder.skip(
          { line: row.line, action: `Corporate Actions: ${columns.get(body, 'Description')}` },
          'a corporate action: the ledger cannot represent it yet',
        );
        break;
      default:
        break;
    }
  }
  // An order and its executions describe the same shares: orders when the statement has them.
  const discriminator = (entry: { row: CsvRow; columns: Columns }) =>
    entry.columns.get(entry.row, 'DataDiscriminator').toLowerCase();
  const hasOrders = tradeRows.some((entry) => discriminator(entry) === 'order');
  for (const { row, columns } of tradeRows) {
    const kind = discriminator({ row, columns });
    if (kind === 'closedlot' || (hasOrders && kind === 'trade')) continue;
    eachRow(builder, row, () => {
      const rawSymbol = columns.get(row, 'Symbol');
      const at = {
        line: row.line,
        date: brokerDate(columns.get(row, 'Date/Time')),
        action: `Trades: ${rawSymbol}`,
      };
      if (!usdOnly(builder, at, columns.get(row, 'Currency'))) return;
      tradeRow(
        builder,
        at,
        columns.get(row, 'Asset Category'),
        tickerOf(rawSymbol),
        rawSymbol,
        requiredMoney(columns.get(row, 'Quantity'), 'Quantity'),
        requiredMoney(columns.get(row, 'T. Price'), 'T. Price'),
        money(columns.get(row, 'Comm/Fee', 'Comm in USD'), 'Comm/Fee') ?? 0,
      );
    });
  }
  return builder.finish();
}

/** The Transaction History report: one `Transaction History` section, USD when the summary says so. */
function parseHistory(rows: readonly CsvRow[]): ParsedExport {
  const builder = new ExportBuilder('interactive_brokers', 'Transaction History');
  const currency = baseCurrencyOf(rows);
  let columns: Columns | null = null;
  for (const row of rows) {
    if ((row.cells[0] ?? '').trim() !== 'Transaction History') continue;
    const rowType = (row.cells[1] ?? '').trim();
    const body = { cells: row.cells.slice(2), line: row.line };
    if (rowType === 'Header') {
      columns = new Columns(body.cells);
      continue;
    }
    if (rowType !== 'Data' || !columns || !isDate(columns.get(body, 'Date'))) continue;
    const current = columns;
    eachRow(builder, body, () => {
      const type = current.get(body, 'Transaction Type');
      const at = { line: row.line, date: brokerDate(current.get(body, 'Date')), action: type };
      if (!usdOnly(builder, at, currency)) return;
      const rawSymbol = current.get(body, 'Symbol');
      const symbol = tickerOf(rawSymbol);
      const key = type.toLowerCase();
      if (key === 'buy' || key === 'sell') {
        const quantity = requiredMoney(current.get(body, 'Quantity'), 'Quantity');
        const signed = key === 'sell' ? -Math.abs(quantity) : Math.abs(quantity);
        const price = requiredMoney(current.get(body, 'Price'), 'Price');
        const fees = money(current.get(body, 'Commission'), 'Commission') ?? 0;
        return tradeRow(builder, at, '', symbol, rawSymbol, signed, price, fees);
      }
      if (key === 'adjustment') return builder.skip(at, 'an adjustment IBKR does not explain: not guessed');
      const amount = requiredMoney(current.get(body, 'Net Amount', 'Gross Amount'), 'Net Amount');
      cashRow(builder, at, type, amount, symbol, current.get(body, 'Description'));
    });
  }
  return builder.finish();
}

/** The statement's base currency (`…,Base Currency,USD` in its Summary), USD when it does not say. */
function baseCurrencyOf(rows: readonly CsvRow[]): string {
  for (const row of rows) {
    const keys = row.cells.map(columnKey);
    const at = keys.indexOf('base currency');
    if (at !== -1 && row.cells[at + 1]?.trim()) return row.cells[at + 1].trim().toUpperCase();
  }
  return 'USD';
}
