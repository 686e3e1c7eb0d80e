import { TestUser } from '../factories/users.factory';
import { TestApp } from '../setup/test-app';
import { portfolioCalls } from './portfolio-calls';
import { typedApi } from './typed-api';

/**
 * A realistic ledger for the assistant's tests and evaluation: a deposit, 13 buys across 7
 * sectors, sells last year and this year, dividends, and preferences. Dates are relative to the
 * current New York year so that "this year" and "last year" always hold sells.
 */
export async function seedInvestor(sut: TestApp, user: TestUser, thisYear: number): Promise<void> {
  const last = thisYear - 1;
  const calls = portfolioCalls(() => sut);
  const day = (year: number, monthDay: string) => `${year}-${monthDay}T15:00:00Z`;
  await calls.record(user, { side: 'deposit', amount: 60000, executed_at: day(last, '01-02') });
  const buys: [string, number, number, string][] = [
    ['AAPL', 20, 150, '01-06'],
    ['MSFT', 8, 410, '01-07'],
    ['JNJ', 12, 140, '01-08'],
    ['PFE', 40, 28, '01-09'],
    ['XOM', 15, 105.5, '01-10'],
    ['CVX', 10, 150, '01-13'],
    ['JPM', 10, 200, '01-14'],
    ['KO', 30, 62, '01-15'],
    ['PG', 10, 160, '01-16'],
    ['HD', 5, 380, '01-17'],
    ['NEE', 20, 70, '01-21'],
    ['BA', 6, 180, '01-22'],
    ['AAPL', 5, 190, '06-02'],
  ];
  for (const [symbol, quantity, price, monthDay] of buys) {
    await calls.record(user, {
      symbol,
      side: 'buy',
      quantity,
      price,
      fees: 1,
      executed_at: day(last, monthDay),
    });
  }
  await calls.record(user, {
    symbol: 'XOM',
    side: 'sell',
    quantity: 5,
    price: 118,
    fees: 1,
    executed_at: day(last, '09-15'),
  });
  await calls.record(user, {
    symbol: 'AAPL',
    side: 'sell',
    quantity: 4,
    price: 210,
    fees: 1,
    executed_at: day(thisYear, '03-10'),
  });
  await calls.record(user, {
    symbol: 'PFE',
    side: 'sell',
    quantity: 40,
    price: 26,
    fees: 1,
    executed_at: day(thisYear, '06-01'),
  });
  await calls.record(user, {
    symbol: 'KO',
    side: 'dividend',
    amount: 14.55,
    executed_at: day(thisYear, '04-01'),
  });
  await calls.record(user, {
    symbol: 'JNJ',
    side: 'dividend',
    amount: 14.88,
    withholding_tax: 1.5,
    executed_at: day(thisYear, '06-10'),
  });
  await calls.record(user, { symbol: 'KO', side: 'dividend', amount: 13.2, executed_at: day(last, '10-01') });
  const preferences = await typedApi(sut, user).POST('/api/v1/preferences', {
    body: {
      experience_level: 'beginner',
      explanation_style: 'bottom-line-first',
      analysis_depth: 'detailed',
      watchlist: ['NVDA', 'AMZN', 'KO'],
      market_sectors: ['technology', 'healthcare'],
    },
  });
  if (preferences.error) throw new Error(`preferences: ${JSON.stringify(preferences.error)}`);
}
