import { TestUser } from '../factories/users.factory';
import { useWebAppJourney } from './app-journey';

declare const document: {
  querySelectorAll(selector: string): Iterable<{
    closest(selector: string): { getAttribute(name: string): string | null } | null;
  }>;
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
});
