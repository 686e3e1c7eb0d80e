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

export interface AppJourney {
  readonly sut: TestApp;
  readonly origin: string;
  readonly page: Page;
  /** A user with a ledger recorded through the API (`entries` as POST /portfolio/transactions bodies). */
  userWith(entries: Record<string, unknown>[]): Promise<TestUser>;
  logIn(user: TestUser): Promise<void>;
  /** No serious or critical accessibility violation, then a screenshot at each size. */
  check(name: string, ready: () => Promise<unknown>): Promise<void>;
  /** The caller's ledger as the API lists it. */
  ledger(user: TestUser): Promise<{ total: number; transactions: Record<string, unknown>[] }>;
}

/**
 * The web app served by the service itself (web/dist, built by the jest global setup) on the
 * embedded database, driven in Debian's Chromium: registers the jest hooks of a describe block.
 * Each test gets a fresh browser context, and fails on a page error, a CSP refusal (both show on
 * the console) or a request to any host but the app's own.
 */
export function appJourney(): AppJourney {
  let sut: TestApp;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let foreign: string[];
  let errors: string[];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    sut = await createTestApp();
    origin = await sut.listen();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await sut?.close();
  });
  beforeEach(async () => {
    foreign = [];
    errors = [];
    context = await browser.newContext({ viewport: VIEWPORTS[0] });
    context.on('request', (request) => {
      if (!request.url().startsWith(`${origin}/`) && !request.url().startsWith('data:'))
        foreign.push(request.url());
    });
    page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) errors.push(message.text());
    });
  });
  afterEach(async () => {
    await context.close();
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
  });

  const journey: AppJourney = {
    get sut() {
      return sut;
    },
    get origin() {
      return origin;
    },
    get page() {
      return page;
    },
    async userWith(entries) {
      const user = await registerUser(sut);
      for (const payload of entries) {
        const response = await sut.inject({
          method: 'POST',
          url: '/api/v1/portfolio/transactions',
          headers: user.headers,
          payload,
        });
        if (response.statusCode !== 201) throw new Error(`${response.statusCode} ${response.body}`);
      }
      return user;
    },
    async logIn(user) {
      await page.goto(`${origin}/login`);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    },
    async check(name, ready) {
      await ready();
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(
        violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map(
            (violation) =>
              `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
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
    },
    async ledger(user) {
      const response = await sut.inject({
        url: '/api/v1/portfolio/transactions',
        query: { limit: '1000' },
        headers: user.headers,
      });
      return response.json();
    },
  };
  return journey;
}
