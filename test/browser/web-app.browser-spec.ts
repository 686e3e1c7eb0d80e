import { mkdirSync } from 'node:fs';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { createSuperuser, login, registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { expiredCopy } from '../support/expired-token';
import { checkPage, SCREENSHOTS, VIEWPORTS } from './app-journey';
import { launchChromium } from './browser';

declare const document: {
  querySelector(selector: string): unknown;
  querySelectorAll(selector: string): Iterable<{ textContent: string | null }>;
};

// A browser on a CI machine busy with the other test projects: generous, still bounded.
jest.setTimeout(90_000);

/**
 * The web app, built into web/dist (jest global setup) and served by the service itself at `/`,
 * driven in Debian's Chromium: one journey per page, on the embedded database.
 */
describe('the web app in a real browser', () => {
  let sut: TestApp;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Every request the pages made that did not go to the app's own origin. */
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
    context.on('page', (opened) => watch(opened));
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
  });

  /** Uncaught errors and CSP refusals show up on the console: none are allowed. */
  function watch(opened: Page) {
    opened.on('pageerror', (error) => errors.push(error.message));
    opened.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) errors.push(message.text());
    });
  }

  async function seededUser(): Promise<TestUser> {
    const user = await registerUser(sut);
    for (const payload of [
      { side: 'deposit', amount: 20000, executed_at: '2024-01-02T15:00:00Z' },
      { side: 'buy', symbol: 'AAPL', quantity: 10, price: 150, executed_at: '2024-01-03T15:00:00Z' },
      { side: 'buy', symbol: 'MSFT', quantity: 5, price: 300, executed_at: '2024-01-04T15:00:00Z' },
    ]) {
      const response = await sut.inject({
        method: 'POST',
        url: '/api/v1/portfolio/transactions',
        headers: user.headers,
        payload,
      });
      expect(response.statusCode).toBe(201);
    }
    return user;
  }

  async function logIn(target: Page, user: TestUser) {
    await target.goto(`${origin}/login`);
    await target.getByLabel('Email').fill(user.email);
    await target.getByLabel('Password').fill(user.password);
    await target.getByRole('button', { name: 'Log in' }).click();
    await target.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  }

  function check(name: string, ready: () => Promise<unknown>) {
    return checkPage(page, name, ready);
  }

  /** Presses Tab until the field labelled `label` has the focus (a date field takes several). */
  async function tabTo(label: string) {
    for (let presses = 0; presses < 6; presses += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(
        () =>
          (document as unknown as { activeElement: { labels?: { textContent: string }[] } | null })
            .activeElement?.labels?.[0]?.textContent,
      );
      if (focused === label) return;
    }
    throw new Error(`Tab never reached ${label}`);
  }

  it('signs up with the password rules explained, goes through the onboarding wizard, then logs out', async () => {
    const email = `new-${Date.now()}@example.com`;
    await page.goto(`${origin}/`);
    await page.waitForURL(`${origin}/login`);
    await check('login', () => page.getByRole('heading', { name: 'Log in' }).waitFor());
    await page.getByRole('link', { name: 'Create an account' }).click();
    await check('signup', () => page.getByRole('heading', { name: 'Create an account' }).waitFor());
    expect(await page.getByText('8 to 128 characters').isVisible()).toBe(true);

    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();
    // The error is tied to the field only once the 422 has come back: wait for that state first.
    const password = page.getByLabel('Password');
    await page.locator('input[name="password"][aria-invalid="true"]').waitFor();
    const passwordError = page.locator(
      '#' + (await password.getAttribute('aria-describedby'))!.split(' ')[1],
    );
    expect(await passwordError.innerText()).toContain('at least 8 characters');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);

    await page.getByLabel('Password').fill('plaid giraffe harbour seventeen');
    await page.getByRole('button', { name: 'Sign up' }).click();

    // The onboarding wizard: prefilled with the level's defaults, each step saved or skipped.
    await check('onboarding', () => page.getByRole('heading', { name: 'Step 1 of 5: Essentials' }).waitFor());
    expect(page.url()).toBe(`${origin}/onboarding`);
    expect(await page.getByLabel('Experience').inputValue()).toBe('beginner');
    await page.getByLabel('Risk tolerance').selectOption('aggressive');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByLabel('Watchlist (symbols, comma-separated)').fill('aapl, msft');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByRole('heading', { name: 'Step 3 of 5: Information' }).waitFor();
    await page.reload(); // resumable: the same step, the saved choices
    await page.getByRole('heading', { name: 'Step 3 of 5: Information' }).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    expect(await page.getByLabel('Watchlist (symbols, comma-separated)').inputValue()).toBe('AAPL, MSFT');
    await page.getByRole('button', { name: 'Skip this step' }).click();
    await page.getByRole('button', { name: 'Skip this step' }).click();
    await page.getByRole('button', { name: 'Skip this step' }).click();
    await page.getByRole('heading', { name: 'Step 5 of 5: Advanced' }).waitFor();
    await page.getByRole('button', { name: 'Save and finish' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(page.url()).toBe(`${origin}/dashboard`);
    const token = (await login(sut, email, 'plaid giraffe harbour seventeen')).headers;
    const preferences = (await sut.inject({ url: '/api/v1/preferences', headers: token })).json();
    expect(preferences).toMatchObject({
      experience_level: 'beginner',
      risk_tolerance: 'aggressive',
      watchlist: ['AAPL', 'MSFT'],
      onboarding_completed: true,
    });

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${origin}/login`);
    await page.reload();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    expect(page.url()).toBe(`${origin}/login`);
  });

  it('logs in with the keyboard only, stays logged in across a reload and in a second tab, and logs out of both', async () => {
    const user = await seededUser();
    await page.goto(`${origin}/login`);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type(user.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(user.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(page.url()).toBe(`${origin}/dashboard`);

    const second = await context.newPage();
    await second.goto(`${origin}/holdings`);
    await second.getByRole('heading', { name: 'Holdings' }).waitFor();
    await second.getByRole('rowheader', { name: 'AAPL' }).waitFor();
    expect(second.url()).toBe(`${origin}/holdings`);

    await page.getByRole('button', { name: 'Log out' }).click();
    await second.waitForURL(`${origin}/login`);
    await second.reload();
    await second.getByRole('heading', { name: 'Log in' }).waitFor();
  });

  it('explains the lockout, and after 10 wrong passwords shows the 429 with its Retry-After', async () => {
    const user = await registerUser(sut);
    await page.goto(`${origin}/login`);
    await page.getByText('After 10 wrong passwords').waitFor();
    await page.getByLabel('Email').fill(user.email);
    const alert = page.getByRole('alert');
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      await page.getByLabel('Password').fill(`wrong password ${attempt}`);
      const answered = page.waitForResponse(`${origin}/api/v1/auth/login`);
      await page.getByRole('button', { name: 'Log in' }).click();
      expect((await answered).status()).toBe(401);
    }
    expect(await alert.innerText()).toBe('Incorrect username or password');
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await alert.filter({ hasText: 'Too many failed login attempts' }).waitFor();
    expect(await alert.innerText()).toMatch(
      /^Too many failed login attempts, try again later \(retry in \d+ s\)$/,
    );
    expect(await page.getByLabel('Password').inputValue()).toBe(user.password);
  });

  it('refreshes an expired access token transparently, once', async () => {
    const user = await seededUser();
    let refreshes = 0;
    page.on('request', (request) => {
      // The login page's attempt to restore a session has no refresh token to send (no body).
      if (request.url() === `${origin}/api/v1/auth/refresh` && request.postData()) refreshes += 1;
    });
    // The login answers a token that has already expired, as after 30 minutes with the tab open.
    await page.route(`${origin}/api/v1/auth/login`, async (route) => {
      const response = await route.fetch();
      const tokens = (await response.json()) as { access_token: string };
      await route.fulfill({ response, json: { ...tokens, access_token: expiredCopy(tokens.access_token) } });
    });
    await logIn(page, user);
    await page.getByText('Allocation by holding').waitFor();
    await page.getByRole('listitem').filter({ hasText: 'AAPL' }).first().waitFor();
    expect(page.url()).toBe(`${origin}/dashboard`);
    expect(refreshes).toBe(1);
  });

  it('shows the dashboard: totals, the value history with its text, both returns, allocation, risk', async () => {
    await logIn(page, await seededUser());
    await check('dashboard', () => page.getByTestId('history-summary').waitFor());
    const tiles = await page.getByRole('region', { name: 'Totals' }).innerText();
    for (const label of ['Total value', 'Day change', 'Unrealized P&L', 'Realized P&L', 'Cash'])
      expect(tiles).toContain(label);
    expect(await page.getByTestId('history-summary').innerText()).toMatch(
      /^Portfolio value from \d{4}-\d\d-\d\d to/,
    );
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'ALL' }).click();
    expect(await page.getByRole('button', { name: 'ALL' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('history-summary').waitFor();
    const returns = page.getByRole('table').filter({ hasText: 'Time-weighted' });
    expect(await returns.getByRole('row').count()).toBe(6);
    expect(await page.getByRole('list', { name: 'Weight of each holding' }).innerText()).toMatch(
      /AAPL[\s\S]*%/,
    );
    expect(await page.getByRole('list', { name: 'Weight of each sector' }).innerText()).toContain('%');
    expect(await page.getByTestId('risk-level').innerText()).not.toBe('');
  });

  it('lists the holdings in a table sortable by each column, and opens a holding with its price chart and lots', async () => {
    await logIn(page, await seededUser());
    await page.getByRole('link', { name: 'Holdings' }).click();
    await check('holdings', () => page.getByRole('rowheader', { name: 'MSFT' }).waitFor());
    await page.getByRole('button', { name: 'Symbol' }).click();
    const symbols = async () => page.locator('tbody th').allInnerTexts();
    expect(await symbols()).toEqual(['AAPL', 'MSFT']);
    await page.getByRole('button', { name: 'Symbol' }).click();
    expect(await symbols()).toEqual(['MSFT', 'AAPL']);

    await page.getByRole('link', { name: 'AAPL' }).click();
    await check('holding', () => page.getByTestId('price-summary').waitFor());
    expect(page.url()).toBe(`${origin}/holdings/AAPL`);
    expect(await page.getByTestId('price-summary').innerText()).toMatch(
      /^AAPL closed at \$[\d,.]+ on \d{4}-\d\d-\d\d/,
    );
    expect(await page.getByRole('region', { name: 'Open lots' }).getByRole('row').count()).toBe(2);
    await page.locator('.news li, .news + p, section:has(#holding-news-heading) p').first().waitFor();
    await page.reload();
    await page.getByTestId('price-summary').waitFor();
  });

  it('adds a transaction with the keyboard, shows a refused field at that field keeping the input, and deletes it', async () => {
    await logIn(page, await seededUser());
    await page.getByRole('link', { name: 'Transactions' }).click();
    await check('transactions', () => page.getByRole('cell', { name: 'deposit', exact: true }).waitFor());

    await page.getByLabel('Kind').focus();
    await tabTo('Date');
    await page.keyboard.type('02012024'); // an en-US date field: month, day, year
    await tabTo('Symbol');
    await page.keyboard.type('NVDA');
    await tabTo('Quantity');
    await page.keyboard.type('-3');
    await tabTo('Price (USD)');
    await page.keyboard.type('100');
    await page.keyboard.press('Enter');
    const quantity = page.getByLabel('Quantity');
    await page.waitForFunction(() => document.querySelector('[aria-invalid="true"]') !== null);
    expect(await quantity.getAttribute('aria-invalid')).toBe('true');
    const quantityError = page.locator('#' + (await quantity.getAttribute('aria-describedby'))!);
    expect(await quantityError.innerText()).not.toBe('');
    expect(await page.getByLabel('Symbol', { exact: true }).inputValue()).toBe('NVDA');

    await quantity.fill('3');
    await quantity.press('Enter');
    await page.getByRole('cell', { name: 'NVDA', exact: true }).waitFor();
    await page.getByRole('button', { name: /Delete the buy of 2024-02-01 \(NVDA\)/ }).click();
    await page.getByRole('cell', { name: 'NVDA', exact: true }).waitFor({ state: 'detached' });
  });

  it('shows markets and the news with sentiment badges, filtered by sentiment', async () => {
    await logIn(page, await seededUser());
    await page.getByRole('link', { name: 'Markets & news' }).click();
    await check('markets', () => page.locator('.news li').first().waitFor());
    expect(await page.getByRole('region', { name: 'Indices' }).locator('.tile').count()).toBeGreaterThan(0);
    const badges = await page.locator('.news .badge').allInnerTexts();
    expect(badges.length).toBeGreaterThan(0);
    for (const badge of badges) expect(['positive', 'negative', 'neutral']).toContain(badge);
    await page.getByLabel('Sentiment').selectOption('negative');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.news .badge')].every((badge) => badge.textContent === 'negative'),
    );
  });

  it('streams an assistant answer with its sources, typed and sent with the keyboard', async () => {
    await logIn(page, await seededUser());
    await page.getByRole('link', { name: 'Assistant' }).click();
    await check('assistant', () => page.getByRole('heading', { name: 'Assistant' }).waitFor());
    await page.getByLabel('Message').focus();
    await page.keyboard.type('How is my portfolio doing?');
    await page.keyboard.press('Enter');
    const answer = page.locator('.turns > li.assistant');
    await answer.getByRole('list', { name: 'Sources' }).waitFor();
    expect((await answer.locator('p').innerText()).length).toBeGreaterThan(20);
    expect(await page.getByLabel('Message').inputValue()).toBe('');
    await check('assistant-answer', () => answer.waitFor());

    const suggestion = page.getByRole('list', { name: 'Suggested questions' }).getByRole('button').first();
    const asked = await suggestion.innerText();
    await suggestion.click();
    await page.locator('.turns > li.user').nth(1).getByText(asked).waitFor();
    await page.locator('.turns > li.assistant').nth(1).getByRole('list', { name: 'Sources' }).waitFor();
  });

  it('lets an administrator list, create, deactivate and grant users; others see no Users page', async () => {
    const member = await registerUser(sut);
    const probed = page.waitForResponse((response) =>
      response.url().startsWith(`${origin}/api/v1/admin/users?`),
    );
    await logIn(page, member);
    expect((await probed).status()).toBe(403);
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).count(),
    ).toBe(0);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${origin}/login`);

    await logIn(page, await createSuperuser(sut));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await check('admin-users', () => page.getByRole('rowheader', { name: member.email }).waitFor());

    const email = `created-${Date.now()}@example.com`;
    const form = page.getByRole('region', { name: 'Create a user' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Full name').fill('Created by admin');
    await form.getByLabel('Password').fill('short');
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByText('at least 8 characters').waitFor();
    expect(await form.getByLabel('Email').inputValue()).toBe(email);
    await form.getByLabel('Password').fill('plaid giraffe harbour seventeen');
    await form.getByRole('button', { name: 'Create' }).click();
    const created = page.getByRole('row').filter({ hasText: email });
    await created.waitFor();

    await page.getByRole('button', { name: `Deactivate ${member.email}` }).click();
    await page.getByRole('button', { name: `Activate ${member.email}` }).waitFor();
    await page.getByRole('button', { name: `Make administrator ${email}` }).click();
    await page.getByRole('button', { name: `Revoke administrator from ${email}` }).waitFor();
    const stored = (
      await sut.inject({
        url: '/api/v1/admin/users?limit=100',
        headers: (await createSuperuser(sut)).headers,
      })
    ).json() as {
      email: string;
      is_active: boolean;
      is_superuser: boolean;
    }[];
    expect(stored.find((user) => user.email === member.email)?.is_active).toBe(false);
    expect(stored.find((user) => user.email === email)?.is_superuser).toBe(true);
  });

  it('plans a rebalance as a dry run, then records it once however often the button is clicked', async () => {
    const user = await seededUser();
    await logIn(page, user);
    await page.getByRole('link', { name: 'Rebalance' }).click();
    await check('rebalance', () => page.getByLabel(/^AAPL/).waitFor());
    await page.getByLabel(/^AAPL/).fill('50');
    await page.getByLabel(/^MSFT/).fill('40');
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    await page.getByRole('alert').filter({ hasText: /100/ }).waitFor();
    await page.getByLabel(/^MSFT/).fill('50');
    expect(await page.getByTestId('target-total').innerText()).toContain('100 %');
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    await page.getByRole('heading', { name: 'Planned trades' }).waitFor();
    const ledger = async () =>
      (
        (await sut.inject({ url: '/api/v1/portfolio/transactions', headers: user.headers })).json() as {
          total: number;
        }
      ).total;
    expect(await ledger()).toBe(3);
    const trades = await page.getByRole('region', { name: 'Planned trades' }).locator('tbody tr').count();
    expect(trades).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Record these trades' }).dblclick();
    await page.getByRole('heading', { name: 'Recorded' }).waitFor();
    expect(await ledger()).toBe(3 + trades);
  });

  it('says when the service cannot be reached, and recovers with Retry', async () => {
    await logIn(page, await seededUser());
    await page.route(`${origin}/api/v1/**`, (route) => route.abort('connectionrefused'));
    await page.getByRole('link', { name: 'Markets & news' }).click();
    const banner = page.getByRole('alert').filter({ hasText: 'The service cannot be reached' }).first();
    await banner.waitFor({ timeout: 20_000 });
    await page.unroute(`${origin}/api/v1/**`);
    await banner.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('region', { name: 'Indices' }).waitFor();
    // The refused connections are on the console by design; nothing else may be.
    errors = errors.filter((message) => !message.includes('net::ERR_CONNECTION_REFUSED'));
  });
});
