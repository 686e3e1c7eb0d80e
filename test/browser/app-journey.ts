import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { launchChromium } from './browser';

/** Kept out of git (.gitignore): what each page looks like on a laptop and on a phone. */
export const SCREENSHOTS = join(__dirname, 'screenshots');
export const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** What a journey works with; `page`, `sut` and `origin` are set once the hooks have run. */
export interface Journey {
  sut: TestApp;
  origin: string;
  context: BrowserContext;
  page: Page;
  /** Console errors so far; a journey may drop the ones it caused on purpose. */
  errors: string[];
  /** A user with a deposit and two buys. */
  seededUser(): Promise<TestUser>;
  /** A user with a ledger recorded through the API (`entries` as POST /portfolio/transactions bodies). */
  userWith(entries: Record<string, unknown>[]): Promise<TestUser>;
  /** The user's ledger as the API lists it. */
  ledger(user: TestUser): Promise<{ total: number; transactions: Record<string, unknown>[] }>;
  logIn(user: TestUser): Promise<void>;
  /** No serious or critical accessibility violation, then a screenshot at each size. */
  check(name: string, ready: () => Promise<unknown>): Promise<void>;
}

/**
 * Registers the hooks of a browser spec: the service (built web app included) on the embedded
 * database, Debian's Chromium, a fresh context per test that fails the test on a page error, a
 * CSP refusal, a console error or a request to any other host.
 */
export function useWebAppJourney(): Journey {
  let browser: Browser;
  let foreign: string[] = [];
  const journey = { errors: [] } as unknown as Journey;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    journey.sut = await createTestApp();
    journey.origin = await journey.sut.listen();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await journey.sut?.close();
  });
  beforeEach(async () => {
    foreign = [];
    journey.errors = [];
    journey.context = await browser.newContext({ viewport: VIEWPORTS[0] });
    journey.context.on('request', (request) => {
      if (!request.url().startsWith(`${journey.origin}/`) && !request.url().startsWith('data:'))
        foreign.push(request.url());
    });
    journey.context.on('page', (opened) => {
      opened.on('pageerror', (error) => journey.errors.push(error.message));
      opened.on('console', (message) => {
        if (message.type() === 'error' && !/status of 4\d\d/.test(message.text()))
          journey.errors.push(`${message.text()} (${message.location().url})`);
      });
    });
    journey.page = await journey.context.newPage();
  });
  afterEach(async () => {
    await journey.context.close();
    expect(foreign).toEqual([]);
    expect(journey.errors).toEqual([]);
  });

  journey.userWith = async (entries) => {
    const user = await registerUser(journey.sut);
    for (const payload of entries) {
      const response = await journey.sut.inject({
        method: 'POST',
        url: '/api/v1/portfolio/transactions',
        headers: user.headers,
        payload,
      });
      if (response.statusCode !== 201) throw new Error(`${response.statusCode} ${response.body}`);
    }
    return user;
  };

  journey.seededUser = () =>
    journey.userWith([
      { side: 'deposit', amount: 20000, executed_at: '2024-01-02T15:00:00Z' },
      { side: 'buy', symbol: 'AAPL', quantity: 10, price: 150, executed_at: '2024-01-03T15:00:00Z' },
      { side: 'buy', symbol: 'MSFT', quantity: 5, price: 300, executed_at: '2024-01-04T15:00:00Z' },
    ]);

  journey.ledger = async (user) => {
    const response = await journey.sut.inject({
      url: '/api/v1/portfolio/transactions',
      query: { limit: '1000' },
      headers: user.headers,
    });
    return response.json();
  };

  journey.logIn = async (user) => {
    const { page, origin } = journey;
    await page.goto(`${origin}/login`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  };

  journey.check = (name, ready) => checkPage(journey.page, name, ready);

  return journey;
}

/** No serious or critical accessibility violation on the page, then a screenshot at each size. */
export async function checkPage(page: Page, name: string, ready: () => Promise<unknown>): Promise<void> {
  await ready();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      ),
  ).toEqual([]);
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await ready();
    await page.screenshot({
      path: join(SCREENSHOTS, `${name}-${viewport.width}x${viewport.height}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize(VIEWPORTS[0]);
}
