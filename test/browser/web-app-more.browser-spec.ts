import { AlertEvaluatorService } from '../../src/modules/alerts/alert-evaluator.service';
import { login, registerUser, TestUser } from '../factories/users.factory';
import { useWebAppJourney } from './app-journey';

// A browser on a CI machine busy with the other test projects: generous, still bounded.
jest.setTimeout(90_000);

/**
 * The web app's alerts, inbox, briefing, conversations, settings and watchlist, served by the
 * service and driven in Debian's Chromium against the real API on the embedded database.
 */
describe('the web app in a real browser: alerts, briefing, conversations, settings, watchlist', () => {
  const journey = useWebAppJourney();

  const stored = async <T>(user: TestUser, url: string): Promise<T> =>
    (await journey.sut.inject({ url, headers: user.headers })).json() as T;

  it('creates, edits, pauses, re-arms and deletes alert rules, and a fired rule reaches the inbox and the live badge', async () => {
    const { page, origin } = journey;
    const user = await journey.seededUser();
    const stream = page.waitForResponse(`${origin}/api/v1/notifications/stream`);
    await journey.logIn(user);
    expect((await stream).status()).toBe(200);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Alerts' }).click();
    await journey.check('alerts', () => page.getByText('No rules yet.').waitFor());

    const form = page.getByRole('region', { name: 'New rule' });
    await form.getByLabel('Kind').selectOption('price_above');
    await form.getByLabel('Symbol').fill('ZZZZZ');
    await form.getByLabel('Price (USD)').fill('1');
    await form.getByRole('button', { name: 'Create alert' }).click();
    await form.locator('input[name="symbol"][aria-invalid="true"]').waitFor();
    expect(await form.getByRole('alert').innerText()).toContain('unknown symbol ZZZZZ');
    expect(await form.getByLabel('Price (USD)').inputValue()).toBe('1');
    await form.getByLabel('Symbol').fill('aapl');
    await form.getByRole('button', { name: 'Create alert' }).click();
    await page.getByRole('rowheader', { name: 'AAPL at or above $1.00' }).waitFor();
    expect(await form.getByLabel('Symbol').inputValue()).toBe('');

    await page.getByRole('button', { name: 'Edit: AAPL at or above $1.00' }).click();
    const editor = page.getByRole('form', { name: 'Edit AAPL at or above $1.00' });
    expect(await editor.getByLabel('Symbol').isDisabled()).toBe(true);
    await editor.getByLabel('Price (USD)').fill('2');
    await editor.getByLabel('Re-arm').selectOption('after_minutes');
    await editor.getByLabel('Minutes').fill('30');
    await editor.getByRole('button', { name: 'Save' }).click();
    const rule = page.getByRole('row').filter({ hasText: 'AAPL at or above $2.00' });
    await rule.getByText('After some minutes (30 min)').waitFor();
    const [saved] = await stored<{ id: number; price: number; rearm: string; status: string }[]>(
      user,
      '/api/v1/alerts',
    );
    expect(saved).toMatchObject({ price: 2, rearm: 'after_minutes', status: 'active' });

    // The rule fires on the next evaluation: the badge counts it without a reload.
    const inboxLink = nav.getByRole('link', { name: /^Inbox/ });
    expect(await inboxLink.innerText()).toBe('Inbox');
    await journey.sut.app.get(AlertEvaluatorService).evaluate();
    await nav.getByRole('link', { name: 'Inbox (1 unread)' }).waitFor();
    expect(await page.getByTestId('notification-announcement').innerText()).toMatch(
      /^New notification: AAPL rose above 2/,
    );
    await rule.getByText('triggered').waitFor();

    await inboxLink.click();
    await journey.check('inbox', () => page.getByRole('list', { name: 'Notifications' }).waitFor());
    const notification = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first();
    expect(await notification.getByRole('heading').innerText()).toMatch(/^Unread:\s+AAPL rose above 2/);
    await notification.getByRole('button', { name: /^Mark read: AAPL/ }).click();
    await nav.getByRole('link', { name: 'Inbox', exact: true }).waitFor();
    await notification.getByRole('button', { name: /^Mark read/ }).waitFor({ state: 'detached' });
    const inbox = await stored<{ unread_count: number; items: { read_at: string | null }[] }>(
      user,
      '/api/v1/notifications',
    );
    expect(inbox.unread_count).toBe(0);
    expect(inbox.items[0].read_at).not.toBeNull();

    await nav.getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('button', { name: 'Re-arm: AAPL at or above $2.00' }).click();
    await rule.getByText('active', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Pause: AAPL at or above $2.00' }).click();
    await rule.getByText('paused', { exact: true }).waitFor();
    expect((await stored<{ status: string; arming: number }[]>(user, '/api/v1/alerts'))[0]).toMatchObject({
      status: 'paused',
      arming: 2,
    });
    await page.getByRole('button', { name: 'Delete: AAPL at or above $2.00' }).click();
    await page.getByText('No rules yet.').waitFor();
    expect(await stored<unknown[]>(user, '/api/v1/alerts')).toEqual([]);
  });

  it('shows the briefing headline on the dashboard and the whole briefing on its page', async () => {
    const { page, origin } = journey;
    await journey.logIn(await journey.seededUser());
    const headline = await page.getByTestId('dashboard-briefing').innerText();
    expect(headline.length).toBeGreaterThan(10);
    await page.getByRole('link', { name: 'Read the briefing' }).click();
    await journey.check('briefing', () => page.getByTestId('briefing-headline').waitFor());
    expect(page.url()).toBe(`${origin}/briefing`);
    expect(await page.getByTestId('briefing-headline').innerText()).toBe(headline);
    expect(await page.locator('section.card h2').count()).toBeGreaterThan(1);
    await page.getByText('not investment advice').waitFor();
  });

  it('asks the onboarding wizard’s several-valued preferences with checkboxes and source priorities', async () => {
    const { page, origin } = journey;
    const user = await registerUser(journey.sut);
    await journey.logIn(user);
    await page.goto(`${origin}/onboarding`);
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByRole('heading', { name: 'Step 2 of 5: Portfolio' }).waitFor();
    const types = page.getByRole('group', { name: 'Investment types' });
    await types.getByRole('checkbox', { name: 'etfs' }).check();
    await types.getByRole('checkbox', { name: 'bonds' }).check();
    await page.getByLabel('Brokerage').selectOption('fidelity');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await journey.check('onboarding-information', () =>
      page.getByRole('heading', { name: 'Step 3 of 5: Information' }).waitFor(),
    );
    const sectors = page.getByRole('group', { name: 'Market sectors' });
    await sectors.getByRole('checkbox', { name: 'healthcare' }).uncheck();
    await sectors.getByRole('checkbox', { name: 'technology' }).check();
    await sectors.getByRole('checkbox', { name: 'real estate' }).check();
    const sources = page.getByRole('group', { name: 'Information sources' });
    for (const type of ['earnings', 'news', 'analyst', 'social', 'technical', 'economic'])
      await sources.getByLabel(`Priority of ${type}`).selectOption('');
    await sources.getByLabel('Priority of news').selectOption('1');
    await sources.getByLabel('Priority of earnings').selectOption('1');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    // Two sources at one priority: refused at the field, the choices kept.
    await sources.getByRole('alert').waitFor();
    expect(await sources.getByLabel('Priority of earnings').inputValue()).toBe('1');
    await sources.getByLabel('Priority of earnings').selectOption('2');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByRole('heading', { name: 'Step 4 of 5: Communication' }).waitFor();

    const preferences = await stored<Record<string, unknown>>(user, '/api/v1/preferences');
    expect(preferences).toMatchObject({
      brokerage_platform: 'fidelity',
      information_sources: [
        { type: 'news', priority: 1 },
        { type: 'earnings', priority: 2 },
      ],
    });
    expect(preferences.investment_types).toEqual(expect.arrayContaining(['etfs', 'bonds']));
    expect(preferences.market_sectors).toEqual(expect.arrayContaining(['technology', 'real_estate']));
    expect(preferences.market_sectors).not.toContain('healthcare');
  });

  it('keeps conversations: lists them, opens an earlier one, deletes one', async () => {
    const { page } = journey;
    const user = await journey.seededUser();
    await journey.logIn(user);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Assistant' }).click();
    await page.getByText('None yet.').waitFor();
    const ask = async (question: string, nth: number) => {
      await page.getByLabel('Message').fill(question);
      await page.getByLabel('Message').press('Enter');
      await page.locator('.turns > li.assistant').nth(nth).getByRole('list', { name: 'Sources' }).waitFor();
    };
    await ask('How is my portfolio doing?', 0);
    const list = page.getByRole('list', { name: 'Earlier conversations' });
    await list.getByRole('button', { name: /^How is my portfolio/ }).waitFor();
    await page.getByRole('button', { name: 'New conversation' }).click();
    expect(await page.locator('.turns > li').count()).toBe(0);
    await ask('What is the news on AAPL?', 0);
    await list.getByRole('button', { name: /^What is the news/ }).waitFor();
    await journey.check('assistant-conversations', () => list.getByRole('listitem').nth(1).waitFor());

    await list.getByRole('button', { name: /^How is my portfolio/ }).click();
    await page.locator('.turns > li.user').getByText('How is my portfolio doing?').waitFor();
    expect(await page.locator('.turns > li').count()).toBe(2);
    await page.locator('.turns > li.assistant').getByRole('list', { name: 'Sources' }).waitFor();
    await ask('And my cash?', 1);

    await list.getByRole('button', { name: /^Delete conversation: How is my portfolio/ }).click();
    await list.getByRole('button', { name: /^How is my portfolio/ }).waitFor({ state: 'detached' });
    expect(await page.locator('.turns > li').count()).toBe(0);
    const kept = await stored<{ conversations: { title: string }[] }>(
      user,
      '/api/v1/assistant/conversations',
    );
    expect(kept.conversations.map((conversation) => conversation.title)).toEqual([
      expect.stringMatching(/^What is the news/),
    ]);
  });

  it('edits every preference, the notification settings, ends another session and changes the password', async () => {
    const { page, origin } = journey;
    const user = await registerUser(journey.sut);
    await journey.logIn(user);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await journey.check('settings', () => page.getByRole('cell', { name: 'This session' }).waitFor());

    const preferences = page.getByRole('region', { name: 'Preferences' });
    await preferences.getByLabel('Risk tolerance').selectOption('conservative');
    // From the keyboard: the checkbox takes Space.
    const crypto = preferences
      .getByRole('group', { name: 'Investment types' })
      .getByRole('checkbox', { name: 'crypto' });
    await crypto.focus();
    await page.keyboard.press('Space');
    expect(await crypto.isChecked()).toBe(true);
    await preferences.getByLabel('Importance of ESG').selectOption('very');
    await preferences.getByRole('button', { name: 'Save preferences' }).click();
    await preferences.getByRole('status').getByText('Saved.').waitFor();
    const saved = await stored<Record<string, unknown>>(user, '/api/v1/preferences');
    expect(saved).toMatchObject({ risk_tolerance: 'conservative', esg_importance: 'very' });
    expect(saved.investment_types).toContain('crypto');

    const notifications = page.getByRole('region', { name: 'Notifications' });
    await notifications.getByLabel('Alerts').selectOption('daily');
    await notifications.getByLabel('Daily summary').selectOption('evening');
    await notifications.getByLabel('Webhook URL').fill('http://hooks.example.com/alerts');
    await notifications.getByLabel('Time zone of digests and the briefing').selectOption('Europe/Berlin');
    await notifications.getByRole('button', { name: 'Save notification settings' }).click();
    await notifications.locator('input[name="webhook_url"][aria-invalid="true"]').waitFor();
    expect(await notifications.getByLabel('Alerts').inputValue()).toBe('daily');
    await notifications.getByLabel('Webhook URL').fill('');
    await notifications.getByRole('button', { name: 'Save notification settings' }).click();
    await notifications.getByRole('status').getByText('Saved.').waitFor();
    expect(await stored<Record<string, unknown>>(user, '/api/v1/preferences')).toMatchObject({
      alert_frequency: 'daily',
      daily_summary_time: 'evening',
    });
    expect(await stored<Record<string, unknown>>(user, '/api/v1/notifications/settings')).toMatchObject({
      webhook_url: null,
      time_zone: 'Europe/Berlin',
    });

    // A second session (another device) shows up and can be ended from here.
    const other = await login(journey.sut, user.email, user.password);
    await page.reload();
    const sessions = page.getByRole('region', { name: 'Sessions' });
    // The sign-up's session and that one: ended one by one until only this one is left.
    const endButtons = sessions.getByRole('button', { name: /^End the session/ });
    for (let ended = 0; ended < 2; ended += 1) {
      await endButtons.first().waitFor();
      const remaining = await endButtons.count();
      await endButtons.first().click();
      await endButtons.nth(remaining - 1).waitFor({ state: 'detached' });
    }
    expect(await endButtons.count()).toBe(0);
    expect((await journey.sut.inject({ url: '/api/v1/auth/me', headers: other.headers })).statusCode).toBe(
      401,
    );
    expect((await journey.sut.inject({ url: '/api/v1/auth/me', headers: user.headers })).statusCode).toBe(
      401,
    );
    expect(await sessions.getByRole('row').count()).toBe(2); // the header and this session

    const password = page.getByRole('region', { name: 'Change password' });
    await password.getByLabel('Current password').fill('not my password');
    await password.getByLabel('New password').fill('plaid giraffe harbour seventeen');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByRole('alert').getByText('Incorrect password').waitFor();
    await password.getByLabel('Current password').fill(user.password);
    await password.getByLabel('New password').fill('short');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.locator('input[name="new_password"][aria-invalid="true"]').waitFor();
    await password.getByLabel('New password').fill('plaid giraffe harbour seventeen');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByRole('status').getByText('Password changed.').waitFor();
    await login(journey.sut, user.email, 'plaid giraffe harbour seventeen');
    await page.goto(`${origin}/settings`);
    await page.getByRole('cell', { name: 'This session' }).waitFor();
  });

  it('edits the watchlist inline and finds symbols with their quotes', async () => {
    const { page } = journey;
    const user = await journey.seededUser();
    await journey.logIn(user);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Markets & news' })
      .click();
    const watchlist = page.getByRole('region', { name: 'Watchlist' });
    await watchlist.getByText('Nothing watched yet').waitFor();

    const search = page.getByRole('region', { name: 'Find a symbol' });
    await search.getByLabel('Company or ticker').fill('apple');
    await search.getByLabel('Company or ticker').press('Enter');
    const found = search
      .getByRole('table', { name: 'Matching symbols' })
      .getByRole('row')
      .filter({ hasText: 'AAPL' });
    await found.getByText('$').waitFor();
    await journey.check('markets-search', () => found.waitFor());
    await found.getByRole('button', { name: 'Watch AAPL' }).click();
    await found.getByText('Watched').waitFor();
    const watched = watchlist.getByRole('table', { name: 'Watched symbols' });
    await watched.getByRole('row').filter({ hasText: 'AAPL' }).getByText('$').waitFor();

    await watchlist.getByLabel('Add a symbol').fill('msft');
    await watchlist.getByLabel('Add a symbol').press('Enter');
    await watched.getByRole('rowheader', { name: 'MSFT' }).waitFor();
    expect(await watchlist.getByLabel('Add a symbol').inputValue()).toBe('');
    await watchlist.getByLabel('Add a symbol').fill('aapl');
    await watchlist.getByRole('button', { name: 'Add' }).click();
    await watchlist
      .getByRole('alert')
      .getByText(/Duplicate ticker symbols/)
      .waitFor();
    expect(await watchlist.getByLabel('Add a symbol').inputValue()).toBe('aapl');

    await watched.getByRole('button', { name: 'Remove AAPL from the watchlist' }).click();
    await watched.getByRole('rowheader', { name: 'AAPL' }).waitFor({ state: 'detached' });
    expect((await stored<{ watchlist: string[] }>(user, '/api/v1/preferences')).watchlist).toEqual(['MSFT']);
  });
});
