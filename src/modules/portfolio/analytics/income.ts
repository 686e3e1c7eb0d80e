// Income of the ledger over a period: dividends (gross, withholding tax, net) by month and by
// symbol, and interest, which belongs to no position and so is counted by month only.
//
// Trailing-12-month yields, percent: the gross dividends paid on the symbols held today during the
// twelve months up to today (exchange dates, after the same date a year ago), over
//   - on cost: the cost basis of today's positions (average cost, fees included);
//   - on value: their market value at live quotes.
// Dividends of positions since sold out are left out of both: the yields describe today's holdings.
// Null when there is no such base (no position).
import { unreachable } from '../../../common/types/unreachable';
import { LedgerEntry } from './ledger-replay';
import { percentOf, ValuedPosition } from './position-valuation';
import { HistoryPeriod, periodStart } from './time-weighted-returns';

export interface IncomeAmounts {
  dividendsGross: number;
  withholdingTax: number;
  dividendsNet: number;
  interest: number;
}

export interface MonthIncome extends IncomeAmounts {
  /** YYYY-MM, exchange (New York) month. */
  month: string;
}

export interface SymbolIncome {
  symbol: string;
  gross: number;
  withholdingTax: number;
  net: number;
}

export interface TrailingYield {
  /** Gross dividends of the symbols held today, over the twelve months up to today. */
  dividendsGross: number;
  yieldOnCost: number | null;
  yieldOnValue: number | null;
}

export interface IncomeReport {
  totals: IncomeAmounts;
  /** Months with income, oldest first. */
  byMonth: MonthIncome[];
  /** Symbols with dividends, largest gross first (then by symbol). */
  bySymbol: SymbolIncome[];
  trailing12Months: TrailingYield;
}

const noIncome = (): IncomeAmounts => ({
  dividendsGross: 0,
  withholdingTax: 0,
  dividendsNet: 0,
  interest: 0,
});

/**
 * What the ledger alone decides of an income report: the amounts, and the trailing twelve months'
 * gross dividends of the symbols held today. The same for a ledger version, period and day.
 */
export interface LedgerIncome {
  totals: IncomeAmounts;
  byMonth: MonthIncome[];
  bySymbol: SymbolIncome[];
  trailingGross: number;
}

/** Income of the entries after the period's start up to `asOf` (both New York dates). */
export function incomeReport(
  entries: readonly LedgerEntry[],
  positions: readonly ValuedPosition[],
  period: HistoryPeriod,
  asOf: string,
): IncomeReport {
  const held = new Set(positions.map((position) => position.symbol));
  return withTrailingYields(ledgerIncome(entries, held, period, asOf), positions);
}

/** The ledger's part of `incomeReport`, with `held` the symbols of today's positions. */
export function ledgerIncome(
  entries: readonly LedgerEntry[],
  held: ReadonlySet<string>,
  period: HistoryPeriod,
  asOf: string,
): LedgerIncome {
  let firstDay = asOf;
  for (const entry of entries) if (entry.tradeDate < firstDay) firstDay = entry.tradeDate;
  const start = periodStart(period, asOf, firstDay);
  const trailingStart = periodStart('1Y', asOf, firstDay);

  const totals = noIncome();
  const byMonth = new Map<string, MonthIncome>();
  const bySymbol = new Map<string, SymbolIncome>();
  let trailingGross = 0;
  for (const entry of entries) {
    const day = entry.tradeDate;
    if (day > asOf) continue;
    const inPeriod = day > start;
    const month = () => {
      const key = day.slice(0, 7);
      const existing = byMonth.get(key) ?? { month: key, ...noIncome() };
      byMonth.set(key, existing);
      return existing;
    };
    switch (entry.side) {
      case 'dividend': {
        const gross = entry.amount!;
        const withheld = entry.withholdingTax ?? 0;
        if (day > trailingStart && held.has(entry.symbol!)) trailingGross += gross;
        if (!inPeriod) break;
        for (const amounts of [totals, month()]) {
          amounts.dividendsGross += gross;
          amounts.withholdingTax += withheld;
          amounts.dividendsNet += gross - withheld;
        }
        const symbol = bySymbol.get(entry.symbol!) ?? {
          symbol: entry.symbol!,
          gross: 0,
          withholdingTax: 0,
          net: 0,
        };
        bySymbol.set(entry.symbol!, symbol);
        symbol.gross += gross;
        symbol.withholdingTax += withheld;
        symbol.net += gross - withheld;
        break;
      }
      case 'interest':
        if (!inPeriod) break;
        totals.interest += entry.amount!;
        month().interest += entry.amount!;
        break;
      case 'buy':
      case 'sell':
      case 'split':
      case 'transfer_in':
      case 'transfer_out':
      case 'deposit':
      case 'withdrawal':
      case 'fee':
        break;
      default:
        unreachable(entry.side);
    }
  }

  return {
    totals,
    byMonth: [...byMonth.values()].sort((a, b) => a.month.localeCompare(b.month)),
    bySymbol: [...bySymbol.values()].sort((a, b) => b.gross - a.gross || a.symbol.localeCompare(b.symbol)),
    trailingGross,
  };
}

/** The report of the ledger's income, with the trailing yields on today's positions' cost and value. */
export function withTrailingYields(
  { totals, byMonth, bySymbol, trailingGross }: LedgerIncome,
  positions: readonly ValuedPosition[],
): IncomeReport {
  const cost = positions.reduce((sum, position) => sum + position.costBasis, 0);
  const value = positions.reduce((sum, position) => sum + position.marketValue, 0);
  return {
    totals,
    byMonth,
    bySymbol,
    trailing12Months: {
      dividendsGross: trailingGross,
      yieldOnCost: cost > 0 ? percentOf(trailingGross, cost) : null,
      yieldOnValue: value > 0 ? percentOf(trailingGross, value) : null,
    },
  };
}
