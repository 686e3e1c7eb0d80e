import { ApiProperty } from '@nestjs/swagger';
import { HISTORY_PERIODS, HistoryPeriod } from '../analytics/time-weighted-returns';
import { IncomeAmounts } from '../analytics/income';
import { PortfolioIncome } from '../portfolio-income.service';
import { money, nullable, percent } from '../portfolio-rounding';

export class IncomeAmountsResponse {
  @ApiProperty({ example: 10, description: 'Dividends before withholding tax, USD' })
  dividends_gross: number;

  @ApiProperty({ example: 1.5, description: 'Tax withheld from them, USD' })
  withholding_tax: number;

  @ApiProperty({ example: 8.5, description: 'dividends_gross − withholding_tax, USD' })
  dividends_net: number;

  @ApiProperty({ example: 1.25, description: 'Interest on cash, USD (no tax withheld)' })
  interest: number;
}

export class MonthIncomeResponse extends IncomeAmountsResponse {
  @ApiProperty({ example: '2025-02', description: 'New York month, YYYY-MM' })
  month: string;
}

export class SymbolIncomeResponse {
  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ example: 10, description: 'USD' })
  gross: number;

  @ApiProperty({ example: 1.5, description: 'USD' })
  withholding_tax: number;

  @ApiProperty({ example: 8.5, description: 'USD' })
  net: number;
}

export class TrailingYieldResponse {
  @ApiProperty({
    example: 10,
    description: 'Gross dividends of the symbols held today, paid after the same date a year ago, USD',
  })
  dividends_gross: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.6662,
    description:
      'dividends_gross / the cost basis of today’s positions by the user’s cost-basis method (as ' +
      '`GET /portfolio/positions` shows it), percent; null without positions',
  })
  yield_on_cost: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.5,
    description: 'dividends_gross / the market value of today’s positions, percent; null without positions',
  })
  yield_on_value: number | null;
}

export class IncomeResponse {
  @ApiProperty({ enum: HISTORY_PERIODS, example: '1Y' })
  period: HistoryPeriod;

  @ApiProperty({ type: IncomeAmountsResponse, description: 'Income recorded after the period’s start' })
  totals: IncomeAmountsResponse;

  @ApiProperty({ type: [MonthIncomeResponse], description: 'Months with income, oldest first' })
  by_month: MonthIncomeResponse[];

  @ApiProperty({
    type: [SymbolIncomeResponse],
    description: 'Dividends per symbol, largest gross first (interest belongs to no symbol)',
  })
  by_symbol: SymbolIncomeResponse[];

  @ApiProperty({
    type: TrailingYieldResponse,
    description: 'Trailing twelve months up to today, whatever the period',
  })
  trailing_12_months: TrailingYieldResponse;

  @ApiProperty({ type: String, format: 'date-time' })
  as_of: string;

  /** Money in cents, yields in percent to 4 decimals. */
  static from(income: PortfolioIncome): IncomeResponse {
    const amounts = (value: IncomeAmounts): IncomeAmountsResponse => ({
      dividends_gross: money(value.dividendsGross),
      withholding_tax: money(value.withholdingTax),
      dividends_net: money(value.dividendsNet),
      interest: money(value.interest),
    });
    return {
      period: income.period,
      totals: amounts(income.totals),
      by_month: income.byMonth.map((month) => ({ month: month.month, ...amounts(month) })),
      by_symbol: income.bySymbol.map((symbol) => ({
        symbol: symbol.symbol,
        gross: money(symbol.gross),
        withholding_tax: money(symbol.withholdingTax),
        net: money(symbol.net),
      })),
      trailing_12_months: {
        dividends_gross: money(income.trailing12Months.dividendsGross),
        yield_on_cost: nullable(income.trailing12Months.yieldOnCost, percent),
        yield_on_value: nullable(income.trailing12Months.yieldOnValue, percent),
      },
      as_of: income.asOf.toISOString(),
    };
  }
}
