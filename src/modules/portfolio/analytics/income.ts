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

/** Income of the entries after the period's start up to `asOf` (both New York dates). */
export function incomeReport(
  entries: readonly LedgerEntry[],
  positions: readonly ValuedPosition[],
  period: HistoryPeriod,
  asOf: string,
): IncomeReport {
  const dated = entries.map((entry) => ({ entry, day: entry.tradeDate })).filter(({ day }) => day <= asOf);
  const firstDay = dated.reduce((first, { day }) => (day < first ? day : first), asOf);
  const start = periodStart(period, asOf, firstDay);
  const trailingStart = periodStart('1Y', asOf, firstDay);
  const held = new Set(positions.map((position) => position.symbol));

  const totals = noIncome();
  const byMonth = new Map<string, MonthIncome>();
  const bySymbol = new Map<string, SymbolIncome>();
  let trailingGross = 0;
  for (const { entry, day } of dated) {
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

  const cost = positions.reduce((sum, position) => sum + position.costBasis, 0);
  const value = positions.reduce((sum, position) => sum + position.marketValue, 0);
  return {
    totals,
    byMonth: [...byMonth.values()].sort((a, b) => a.month.localeCompare(b.month)),
    bySymbol: [...bySymbol.values()].sort((a, b) => b.gross - a.gross || a.symbol.localeCompare(b.symbol)),
    trailing12Months: {
      dividendsGross: trailingGross,
      yieldOnCost: cost > 0 ? percentOf(trailingGross, cost) : null,
      yieldOnValue: value > 0 ? percentOf(trailingGross, value) : null,
    },
  };
}
