// The benchmark's user, created through the API as a client would: 5,000 trades over 50 symbols
// spread over five years (imported as one CSV), and preferences with a 20-symbol watchlist.
import { seededRandom } from '../bench-kit';

export const HELD_SYMBOLS = (
  'AAPL MSFT AMZN GOOGL JPM JNJ XOM BAC WFC PG CVX T PFE VZ KO MRK PEP INTC CSCO ORCL DIS HD UNH MCD IBM ' +
  'MMM BA GE C WMT AMGN GILD QCOM CAT MO PM ABT MDT HON UNP UPS NKE SBUX LOW TXN BMY COST NEE DUK SO'
).split(' ');
export const WATCHLIST =
  'ADBE CRM NVDA NFLX ADP AXP GS MS BLK SPGI LMT F DHR TMO ISRG SYK CL KMB GIS EL'.split(' ');
export const TRADES = 5_000;
const YEARS = 5;

export interface Session {
  baseUrl: string;
  email: string;
  password: string;
  accessToken: string;
  userId: number;
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: string; contentType?: string } = {},
): Promise<{ status: number; body: string }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.contentType ? { 'content-type': options.contentType } : {}),
    },
    body: options.body,
  });
  return { status: response.status, body: await response.text() };
}

async function expectStatus(
  what: string,
  expected: number,
  reply: Promise<{ status: number; body: string }>,
): Promise<string> {
  const { status, body } = await reply;
  if (status !== expected) throw new Error(`${what}: ${status} ${body.slice(0, 500)}`);
  return body;
}

/** Registers and logs in a benchmark user (`tag` tells users of one run apart). */
export async function signUp(baseUrl: string, tag = ''): Promise<Session> {
  const email = `bench-${Date.now()}${tag}@example.com`;
  const password = 'bench password that is long enough';
  const registered = await expectStatus(
    'register',
    200,
    call(baseUrl, 'POST', '/api/v1/users/register', {
      body: JSON.stringify({ email, password, full_name: 'Bench User' }),
      contentType: 'application/json',
    }),
  );
  const tokens = await expectStatus(
    'login',
    200,
    call(baseUrl, 'POST', '/api/v1/auth/login', {
      body: `username=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}`,
      contentType: 'application/x-www-form-urlencoded',
    }),
  );
  return {
    baseUrl,
    email,
    password,
    userId: (JSON.parse(registered) as { id: number }).id,
    accessToken: (JSON.parse(tokens) as { access_token: string }).access_token,
  };
}

/** Today's quotes of the held symbols, to trade around realistic prices. */
export async function currentPrices(session: Session): Promise<Map<string, number>> {
  const prices = new Map<string, number>();
  for (let start = 0; start < HELD_SYMBOLS.length; start += 10) {
    const symbols = HELD_SYMBOLS.slice(start, start + 10).join(',');
    const body = await expectStatus(
      'batch quotes',
      200,
      call(session.baseUrl, 'GET', `/api/v1/market/stocks/batch?symbols=${symbols}`, {
        token: session.accessToken,
      }),
    );
    const { data } = JSON.parse(body) as { data: Record<string, { price: number }> };
    for (const [symbol, quote] of Object.entries(data)) prices.set(symbol, quote.price);
  }
  return prices;
}

/**
 * A deterministic ledger: every symbol opens with a buy, then 70 % buys and 30 % sells of at most
 * half the shares held, at prices within ±30 % of today's, on days spread over five years.
 */
export function ledgerCsv(prices: Map<string, number>, now: Date, trades = TRADES, seed = 16): string {
  const random = seededRandom(seed);
  const start = now.getTime() - YEARS * 365 * 86_400_000;
  const span = now.getTime() - 86_400_000 - start;
  const times = Array.from({ length: trades }, () => start + Math.floor(random() * span)).sort(
    (a, b) => a - b,
  );
  const held = new Map<string, number>();
  const rows = ['date,symbol,side,quantity,price,fees'];
  for (const [index, time] of times.entries()) {
    const symbol =
      index < HELD_SYMBOLS.length ? HELD_SYMBOLS[index] : HELD_SYMBOLS[Math.floor(random() * 50)];
    const shares = held.get(symbol) ?? 0;
    const sell = shares >= 2 && random() < 0.3;
    const quantity = sell ? Math.max(1, Math.floor(shares * random() * 0.5)) : 1 + Math.floor(random() * 40);
    held.set(symbol, shares + (sell ? -quantity : quantity));
    const price = (prices.get(symbol)! * (0.7 + random() * 0.6)).toFixed(2);
    const date = new Date(time).toISOString().slice(0, 10);
    rows.push(`${date},${symbol},${sell ? 'sell' : 'buy'},${quantity},${price},1.00`);
  }
  return `${rows.join('\n')}\n`;
}

/**
 * The ledger (no position is ever sold out, so all 50 stay held) and the preferences; `prices`
 * saves asking for today's quotes again when several users are seeded.
 */
export async function seedPortfolio(
  session: Session,
  options: { trades?: number; seed?: number; prices?: Map<string, number> } = {},
): Promise<void> {
  const prices = options.prices ?? (await currentPrices(session));
  const csv = ledgerCsv(prices, new Date(), options.trades, options.seed);
  await expectStatus(
    'CSV import',
    201,
    call(session.baseUrl, 'POST', '/api/v1/portfolio/transactions/import', {
      token: session.accessToken,
      body: csv,
      contentType: 'text/csv',
    }),
  );
  await expectStatus(
    'preferences',
    201,
    call(session.baseUrl, 'POST', '/api/v1/preferences/', {
      token: session.accessToken,
      body: JSON.stringify({
        experience_level: 'intermediate',
        risk_tolerance: 'moderate',
        watchlist: WATCHLIST,
      }),
      contentType: 'application/json',
    }),
  );
}
