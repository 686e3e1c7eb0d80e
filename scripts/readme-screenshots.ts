// The two screenshots the README shows (issue 26): the dashboard on a laptop (1280×800) and a
// holding's page on a phone (390×844), of a small demo portfolio, taken in Debian's Chromium from
// the built service on a fresh embedded database. Writes docs/images/*.png.
//
//     npm run build && npx tsx scripts/readme-screenshots.ts
//
// SCREENSHOTS_PORT (default 7790) is the service's port on 127.0.0.1.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { embeddedMode } from '../bench/http/modes';
import { call, Session, signUp } from '../bench/http/seed';
import { ROOT, startService } from '../bench/http/service';

const OUT = join(ROOT, 'docs', 'images');
const PORT = Number(process.env.SCREENSHOTS_PORT ?? 7790);

/** A date `days` before today, at 15:00 UTC (within New York's session). */
const daysAgo = (days: number) =>
  new Date(
    Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - days, 15),
  ).toISOString();

/** A year of a small, plausible ledger: cash in, six holdings over four sectors, a sell, dividends. */
const LEDGER = [
  { side: 'deposit', amount: 60000, executed_at: daysAgo(400) },
  { side: 'buy', symbol: 'AAPL', quantity: 60, price: 0, executed_at: daysAgo(390) },
  { side: 'buy', symbol: 'MSFT', quantity: 40, price: 0, executed_at: daysAgo(380) },
  { side: 'buy', symbol: 'JPM', quantity: 50, price: 0, executed_at: daysAgo(300) },
  { side: 'buy', symbol: 'XOM', quantity: 60, price: 0, executed_at: daysAgo(250) },
  { side: 'buy', symbol: 'JNJ', quantity: 30, price: 0, executed_at: daysAgo(200) },
  { side: 'buy', symbol: 'KO', quantity: 80, price: 0, executed_at: daysAgo(150) },
  { side: 'sell', symbol: 'AAPL', quantity: 20, price: 0, executed_at: daysAgo(90) },
  { side: 'dividend', symbol: 'AAPL', amount: 31.2, withholding_tax: 4.68, executed_at: daysAgo(120) },
  { side: 'dividend', symbol: 'AAPL', amount: 20.8, withholding_tax: 3.12, executed_at: daysAgo(30) },
];

/** The close of `symbol` on the trade's date, so the demo trades at the prices of the day. */
async function closeOn(session: Session, symbol: string, date: string): Promise<number> {
  const reply = await call(
    session.baseUrl,
    'GET',
    `/api/v1/market/stock/${symbol}/history?from=${daysAgo(420).slice(0, 10)}`,
    {
      token: session.accessToken,
    },
  );
  const { bars } = JSON.parse(reply.body) as { bars: { date: string; close: number }[] };
  const day = date.slice(0, 10);
  return [...bars].reverse().find((bar) => bar.date.slice(0, 10) <= day)?.close ?? bars[0].close;
}

async function seed(session: Session): Promise<void> {
  for (const entry of LEDGER) {
    const body = { ...entry };
    if ('price' in body && body.symbol) body.price = await closeOn(session, body.symbol, body.executed_at);
    const reply = await call(session.baseUrl, 'POST', '/api/v1/portfolio/transactions', {
      token: session.accessToken,
      body: JSON.stringify(body),
      contentType: 'application/json',
    });
    if (reply.status !== 201) throw new Error(`${JSON.stringify(body)}: ${reply.status} ${reply.body}`);
  }
  await call(session.baseUrl, 'GET', '/api/v1/preferences/or-create/intermediate', {
    token: session.accessToken,
  });
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const mode = embeddedMode(PORT);
  const service = await startService(mode.port, {
    ...mode.env,
    SECRET_KEY: 'readme-screenshots-secret-key-long-enough-0123456789',
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const session = await signUp(service.baseUrl);
    await seed(session);
    const shots = [
      { path: '/dashboard', file: 'web-dashboard-1280x800.png', viewport: { width: 1280, height: 800 } },
      { path: '/holdings/AAPL', file: 'web-holding-390x844.png', viewport: { width: 390, height: 844 } },
    ];
    for (const shot of shots) {
      const context = await browser.newContext({ viewport: shot.viewport });
      const page = await context.newPage();
      await page.goto(`${service.baseUrl}/login`);
      await page.getByLabel('Email').fill(session.email);
      await page.getByLabel('Password').fill(session.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      if (shot.path !== '/dashboard') await page.goto(`${service.baseUrl}${shot.path}`);
      await page.waitForLoadState('networkidle');
      await page.locator('.chart canvas').first().waitFor();
      await page.mouse.move(0, 0); // no crosshair left on the chart by the login click
      await page.screenshot({ path: join(OUT, shot.file) });
      await context.close();
      console.log(`docs/images/${shot.file}`);
    }
  } finally {
    await browser.close();
    await service.stop();
    await mode.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
