import { TestUser } from '../factories/users.factory';
import { useWebAppJourney } from './app-journey';

declare const document: {
  querySelectorAll(selector: string): Iterable<{
    closest(selector: string): { getAttribute(name: string): string | null } | null;
  }>;
  querySelector(selector: string): unknown;
  documentElement: { scrollWidth: number };
};

// A browser on a CI machine busy with the other test projects: generous, still bounded.
jest.setTimeout(90_000);

/** The service's error shape, as the browser sees it when the service is overloaded or failing. */
const failure = (status: number, detail: string, retryAfter: string) => ({
  status,
  headers: { 'retry-after': retryAfter },
  json: { detail },
});

describe('the web app in a real browser: news filters, answer sources, failures, chart text', () => {
  const journey = useWebAppJourney();

  async function newsTitles(user: TestUser, query: Record<string, string>): Promise<string[]> {
    const response = await journey.sut.inject({
      url: '/api/v1/news',
      query: { limit: '20', ...query },
      headers: user.headers,
    });
    expect(response.statusCode).toBe(200);
    return (response.json() as { title: string }[]).map((item) => item.title);
  }

  it('filters the news by symbol and keywords, a refused symbol shown at its field with the input kept', async () => {
    const { page } = journey;
    const user = await journey.seededUser();
    await journey.logIn(user);
    await page.getByRole('link', { name: 'Markets & news' }).click();
    const titles = page.locator('.news li a');
    await titles.first().waitFor();

    const filters = page.getByRole('form', { name: 'News filters' });
    await filters.getByLabel('Symbol').fill('AAPL');
    await filters.getByLabel('Symbol').press('Enter');
    const aboutApple = await newsTitles(user, { symbol: 'AAPL' });
    expect(aboutApple.length).toBeGreaterThan(0);
    await page.waitForFunction(
      (expected) => [...document.querySelectorAll('.news li a')].length === expected,
      aboutApple.length,
    );
    expect(await titles.allInnerTexts()).toEqual(aboutApple);

    await filters.getByLabel('Keywords').fill('earnings');
    await filters.getByRole('button', { name: 'Filter' }).click();
    const expected = await newsTitles(user, { symbol: 'AAPL', keywords: 'earnings' });
    await page.waitForFunction(
      (count) => [...document.querySelectorAll('.news li a')].length === count,
      expected.length,
    );
    if (expected.length > 0) expect(await titles.allInnerTexts()).toEqual(expected);
    await journey.check('markets-news-filtered', () =>
      page.getByRole('heading', { name: 'News', exact: true }).waitFor(),
    );

    await filters.getByLabel('Symbol').fill('not a symbol!');
    await filters.getByLabel('Symbol').press('Enter');
    const symbol = filters.getByLabel('Symbol');
    await page.waitForFunction(() => [...document.querySelectorAll('[aria-invalid="true"]')].length > 0);
    expect(await symbol.getAttribute('aria-invalid')).toBe('true');
    const message = page.locator('#' + (await symbol.getAttribute('aria-describedby'))!.split(' ').pop()!);
    expect(await message.innerText()).not.toBe('');
    expect(await symbol.inputValue()).toBe('not a symbol!');
  });

  it('links an answer’s source chips to the pages that show those figures', async () => {
    const { page, origin } = journey;
    await journey.logIn(await journey.seededUser());
    await page.getByRole('link', { name: 'Assistant' }).click();
    await page.getByLabel('Message').fill('How is my portfolio doing?');
    await page.getByLabel('Message').press('Enter');
    const sources = page.locator('.turns > li.assistant').getByRole('list', { name: 'Sources' });
    await sources.waitFor();
    const chip = sources.getByRole('link').first();
    const target = (await chip.getAttribute('href'))!;
    expect(target).toMatch(/^\/(dashboard|holdings|risk|transactions|markets|rebalance|settings)/);
    await journey.check('assistant-sources', () => sources.waitFor());

    await chip.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${origin}${target}`);
    await page.locator('h1').first().waitFor();

    await page.getByRole('link', { name: 'Assistant' }).click();
    await page
      .getByRole('list', { name: 'Earlier conversations' })
      .getByRole('button', { name: /^How is my portfolio/ })
      .click();
    expect(await sources.getByRole('link').first().getAttribute('href')).toBe(target);
  });

  it('keeps a chat message that could not be sent, says why with the Retry-After, and sends it later', async () => {
    const { page } = journey;
    await journey.logIn(await journey.seededUser());
    await page.getByRole('link', { name: 'Assistant' }).click();
    await page.route('**/api/v1/assistant/chat', (route) =>
      route.fulfill(failure(429, 'Too many requests', '17')),
    );
    const input = page.getByLabel('Message');
    await input.focus();
    await page.keyboard.type('What moved my portfolio today?');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Too many requests (retry in 17 s)' }).waitFor();
    expect(await input.inputValue()).toBe('What moved my portfolio today?');
    expect(await page.locator('.turns > li').count()).toBe(0);

    await page.unroute('**/api/v1/assistant/chat');
    await input.focus();
    await page.keyboard.press('Enter');
    await page.locator('.turns > li.assistant').getByRole('list', { name: 'Sources' }).waitFor();
    expect(await input.inputValue()).toBe('');
  });

  it('shows a 503 as a banner with Retry, a 429 with its Retry-After, and recovers', async () => {
    const { page } = journey;
    await journey.logIn(await journey.seededUser());
    await page.route('**/api/v1/market/summary', (route) =>
      route.fulfill(failure(503, 'Service Unavailable', '5')),
    );
    await page.getByRole('link', { name: 'Markets & news' }).click();
    const banner = page.getByRole('alert').filter({ hasText: 'The service is unavailable right now' });
    await banner.waitFor({ timeout: 20_000 });
    await page.unroute('**/api/v1/market/summary');
    await banner.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('region', { name: 'Indices' }).waitFor();

    await page.route('**/api/v1/news?*', (route) => route.fulfill(failure(429, 'Rate limit exceeded', '42')));
    await page.getByLabel('Sentiment').selectOption('positive');
    await page.getByRole('alert').filter({ hasText: 'Rate limit exceeded (retry in 42 s)' }).waitFor();
    // The refused answers are on the console by design; nothing else may be.
    journey.errors = journey.errors.filter((message) => !message.includes('status of 503'));
  });

  it('gives every chart a text alternative: the picture named by a sentence, the bars written as a list', async () => {
    const { page } = journey;
    await journey.logIn(await journey.seededUser());
    for (const [path, summary] of [
      ['/dashboard', 'history-summary'],
      ['/holdings/AAPL', 'price-summary'],
    ]) {
      await page.goto(`${journey.origin}${path}`);
      const sentence = page.getByTestId(summary);
      await sentence.waitFor();
      await page.locator('canvas').first().waitFor();
      const names = await page.evaluate(() =>
        [...document.querySelectorAll('canvas')].map(
          (canvas) => canvas.closest('[role="img"]')?.getAttribute('aria-label') ?? null,
        ),
      );
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(name).toBe(await sentence.innerText());
      expect((await sentence.innerText()).length).toBeGreaterThan(20);
    }
    await page.goto(`${journey.origin}/dashboard`);
    for (const bars of await page.locator('ul.bars').all()) {
      expect(await bars.getAttribute('aria-label')).toBeTruthy();
      for (const row of await bars.locator('li').allInnerTexts()) expect(row).toMatch(/\S.*\d%$/s);
    }
  });

  it('fits a phone’s width: no page scrolls sideways, a wide table scrolls inside its card', async () => {
    const { page, origin } = journey;
    await journey.logIn(await journey.seededUser());
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of [
      '/dashboard',
      '/holdings',
      '/holdings/AAPL',
      '/transactions',
      '/risk',
      '/rebalance',
      '/onboarding',
      '/markets',
      '/briefing',
      '/alerts',
      '/inbox',
      '/settings',
      '/assistant',
    ]) {
      await page.goto(`${origin}${path}`);
      await page.locator('main h1').first().waitFor();
      await page.waitForFunction(() => document.querySelector('.loading') === null);
      expect([path, await page.evaluate(() => document.documentElement.scrollWidth)]).toEqual([path, 390]);
    }
  });

  it('keeps what was typed when a save fails because the service is unreachable, and saves it once it is back', async () => {
    const { page } = journey;
    const user = await journey.seededUser();
    await journey.logIn(user);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
    await page.getByText('No rules yet.').waitFor();
    const form = page.getByRole('region', { name: 'New rule' });
    await form.getByLabel('Kind').selectOption('price_below');
    await form.getByLabel('Symbol').fill('MSFT');
    await form.getByLabel('Price (USD)').fill('123.45');

    await page.route('**/api/v1/alerts', (route) =>
      route.request().method() === 'POST' ? route.abort('connectionrefused') : route.continue(),
    );
    await form.getByRole('button', { name: 'Create alert' }).click();
    await form.getByRole('alert').filter({ hasText: 'The service cannot be reached' }).waitFor();
    expect(await form.getByLabel('Kind').inputValue()).toBe('price_below');
    expect(await form.getByLabel('Symbol').inputValue()).toBe('MSFT');
    expect(await form.getByLabel('Price (USD)').inputValue()).toBe('123.45');

    await page.unroute('**/api/v1/alerts');
    await form.getByRole('button', { name: 'Create alert' }).click();
    await page.getByRole('rowheader', { name: 'MSFT at or below $123.45' }).waitFor();
    const stored = await journey.sut.inject({ url: '/api/v1/alerts', headers: user.headers });
    expect(stored.body.match(/"MSFT"/g)).toHaveLength(1);
    // The refused connections are on the console by design; nothing else may be.
    journey.errors = journey.errors.filter((message) => !message.includes('net::ERR_CONNECTION_REFUSED'));
  });
});
