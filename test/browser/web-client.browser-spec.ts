import { Browser, BrowserContext, Page } from 'playwright-core';
import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import type { CookieFlowResult, FlowResult } from './page/web-app';
import { launchChromium, servePages } from './browser';

declare function flow(apiBase: string, email: string, password: string): Promise<FlowResult>;
declare function cookieFlow(apiBase: string, email: string, password: string): Promise<CookieFlowResult>;
declare const localStorage: { getItem(key: string): string | null };
declare function tryLogin(apiBase: string, email: string, password: string): Promise<string>;

// A browser on a CI machine busy with the other test projects: generous, still bounded.
jest.setTimeout(90_000);

/** Real Chromium against a listening service, by host names other than localhost, over plain HTTP. */
describe('the service in a real browser', () => {
  let sut: TestApp;
  let pages: Awaited<ReturnType<typeof servePages>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: string;
  let user: TestUser;

  beforeAll(async () => {
    pages = await servePages();
    sut = await createTestApp({ env: { CORS_ORIGINS: `http://app.example.test:${pages.port}` } });
    const port = new URL(await sut.listen()).port;
    api = `http://api.example.test:${port}`;
    user = await registerUser(sut);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await sut?.close();
    await pages?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext();
    page = await context.newPage();
  });
  afterEach(() => context.close());

  it('renders Swagger UI by a host name over http, every asset loaded from where it was asked', async () => {
    const failed: string[] = [];
    const requested: string[] = [];
    page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${api}/docs`);
    await page.locator('.swagger-ui .info .title').waitFor({ timeout: 30_000 });
    expect(await page.locator('.swagger-ui .info .title').innerText()).toContain('Investment assistant API');
    expect(await page.locator('.opblock').count()).toBeGreaterThan(50);
    expect(failed).toEqual([]);
    expect(requested.filter((url) => !url.startsWith(`${api}/`) && !url.startsWith('data:'))).toEqual([]);
  });

  it('authorizes with the password flow, keeps the lock closed across a reload and stores no password', async () => {
    await page.goto(`${api}/docs`);
    await page.locator('button.authorize').first().click();
    await page.locator('#oauth_username').fill(user.email);
    await page.locator('#oauth_password').fill(user.password);
    await page.locator('.auth-container button.authorize').first().click();
    await page
      .locator('.auth-container button[aria-label="Remove authorization"]')
      .waitFor({ timeout: 30_000 });
    await page.locator('button.btn-done').first().click();

    const stored = await page.evaluate(() => localStorage.getItem('authorized'));
    expect(stored).not.toBeNull();
    expect(stored).not.toContain(user.password);
    expect(stored).not.toContain(user.email);
    expect(Object.keys(JSON.parse(stored!))).toEqual(['OAuth2PasswordBearer']);
    const token = JSON.parse(stored!).OAuth2PasswordBearer.token;
    expect(Object.keys(token).sort()).toEqual(['access_token', 'token_type']);
    const me = await fetch(`${api.replace('api.example.test', '127.0.0.1')}/api/v1/auth/me`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(((await me.json()) as { email: string }).email).toBe(user.email);

    await page.reload();
    await page.locator('.swagger-ui .info .title').waitFor({ timeout: 30_000 });
    expect(await page.locator('.auth-wrapper button.authorize').getAttribute('class')).toContain('locked');
    const afterReload = await page.evaluate(() => localStorage.getItem('authorized'));
    expect(afterReload).not.toContain(user.password);
  });

  it('lets a page on an allowed origin log in, write, delete and read a chat stream through the typed client', async () => {
    await page.goto(`http://app.example.test:${pages.port}/`);
    const result = await page.evaluate(
      ([base, email, password]) => flow(base, email, password),
      [api, user.email, user.password],
    );
    expect(result).toMatchObject({
      loginStatus: 200,
      createdStatus: 201,
      deletedStatus: 204,
      remaining: 0,
      requestIdReadable: true,
    });
    expect(result.chatEvents.at(-1)).toBe('done');
    expect(result.chatEvents.at(-2)).toBe('sources');
    expect(result.chatEvents.filter((name) => name === 'delta').length).toBeGreaterThan(1);
    expect(result.streamedText).toBe(result.doneContent);
  });

  it('refuses the answer to a page on another origin', async () => {
    await page.goto(`http://evil.example.test:${pages.port}/`);
    const outcome = await page.evaluate(
      ([base, email, password]) => tryLogin(base, email, password),
      [api, user.email, user.password],
    );
    expect(outcome).toBe('blocked: TypeError');
  });
});

describe('the refresh-token cookie in a real browser (AUTH_REFRESH_COOKIE=true)', () => {
  let sut: TestApp;
  let pages: Awaited<ReturnType<typeof servePages>>;
  let browser: Browser;

  beforeAll(async () => {
    pages = await servePages();
    sut = await createTestApp({
      env: { AUTH_REFRESH_COOKIE: 'true', CORS_ORIGINS: `http://localhost:${pages.port}` },
    });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await sut?.close();
    await pages?.close();
  });

  it('refreshes a page on the same site from the HttpOnly cookie, which its scripts never see', async () => {
    // Secure cookies are kept from http://localhost; the page and the API differ only by port.
    const api = `http://localhost:${new URL(await sut.listen()).port}`;
    const user = await registerUser(sut);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`http://localhost:${pages.port}/`);
      const result = await page.evaluate(
        ([base, email, password]) => cookieFlow(base, email, password),
        [api, user.email, user.password],
      );
      expect(result).toEqual({
        refreshStatus: 200,
        email: user.email,
        scriptSeesRefreshCookie: false,
        refreshAfterLogoutStatus: 422,
      });
      // Logout cleared it.
      expect(await context.cookies(api)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
