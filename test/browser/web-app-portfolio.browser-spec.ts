import { useWebAppJourney } from './app-journey';

// A browser on a CI machine busy with the other test projects: generous, still bounded.
jest.setTimeout(90_000);

const DEPOSIT = { side: 'deposit', amount: 30000, executed_at: '2024-01-02T15:00:00Z' };
const TYPED_HEADER = 'date,type,symbol,quantity,price,fees,amount,withholding_tax,ratio';

/** The portfolio side of the web app: CSV import, lot choice, a holding's P&L, risk, rebalancing. */
describe('the web app portfolio pages in a real browser', () => {
  const app = useWebAppJourney();

  it('asks for all of the dashboard’s data at once after a reload: the refresh, then one round trip', async () => {
    const { page } = app;
    await app.logIn(
      await app.userWith([
        DEPOSIT,
        { side: 'buy', symbol: 'AAPL', quantity: 10, price: 150, executed_at: '2024-01-03T15:00:00Z' },
      ]),
    );
    const paths = [
      '/api/v1/auth/refresh',
      '/api/v1/portfolio',
      '/api/v1/portfolio/positions',
      '/api/v1/portfolio/history',
    ];
    // The first load's requests have all finished, so the ones counted below are the reload's.
    await page.getByTestId('history-summary').waitFor();
    await page
      .getByRole('region', { name: /allocation/i })
      .first()
      .waitFor();
    const finished = paths.map((path) =>
      page.waitForEvent('requestfinished', (request) => new URL(request.url()).pathname === path),
    );
    await page.reload();
    const [refresh, ...data] = (await Promise.all(finished)).map((request) => ({
      path: new URL(request.url()).pathname,
      start: request.timing().startTime,
      end: request.timing().startTime + request.timing().responseEnd,
    }));
    const firstAnswer = Math.min(...data.map((request) => request.end));
    expect(data.filter((request) => request.start < refresh.end).map((request) => request.path)).toEqual([]);
    expect(data.filter((request) => request.start > firstAnswer).map((request) => request.path)).toEqual([]);
  });

  it('previews a CSV import, shows a refused file’s problems by line with nothing recorded, then records the corrected file once', async () => {
    const { page } = app;
    const user = await app.userWith([DEPOSIT]);
    await app.logIn(user);
    await page.getByRole('link', { name: 'Transactions' }).click();
    await page.getByRole('heading', { name: 'Import from CSV' }).waitFor();

    // Line 3 is blank: the lines shown are the file's, not the service's row numbers.
    const refused = [
      TYPED_HEADER,
      '2024-02-01,buy,MSFT,2,310,1,,,',
      '',
      '2024-02-02,buy,AAPL,-3,150,,,,',
      '2024-02-05,dividend,NOSUCH,,,,5,,',
    ].join('\n');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'trades.csv', mimeType: 'text/csv', buffer: Buffer.from(refused) });
    await page.getByRole('button', { name: 'Preview' }).click();
    const rows = page.getByRole('table', { name: 'Rows of the file' });
    await rows.waitFor();
    expect(await rows.locator('tbody th').allInnerTexts()).toEqual(['2', '4', '5']);
    expect(await rows.locator('tbody tr').first().innerText()).toMatch(
      /2024-02-01\s+buy\s+MSFT\s+2\s+310\s+1/,
    );

    await page.getByRole('button', { name: 'Record these 3 transactions' }).click();
    const problems = page.getByRole('alert').filter({ hasText: 'Nothing was recorded' });
    await problems.waitFor();
    const listed = await problems.getByRole('listitem').allInnerTexts();
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Line 4, quantity: /),
        expect.stringMatching(/^Line 5, symbol: /),
      ]),
    );
    expect(listed.some((problem) => problem.startsWith('Line 2'))).toBe(false);
    expect(await rows.locator('tr.invalid th').allInnerTexts()).toEqual(['4', '5']);
    await app.check('transactions-import', () => problems.waitFor());
    expect((await app.ledger(user)).total).toBe(1);

    const corrected = [
      TYPED_HEADER,
      '2024-02-01,buy,MSFT,2,310,1,,,',
      '2024-02-02,buy,AAPL,3,150,,,,',
      '2024-02-15,dividend,AAPL,,,,5,0.75,',
    ].join('\n');
    await page.getByLabel('Or paste the CSV').fill(corrected);
    expect(await problems.count()).toBe(0);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Record these 3 transactions' }).dblclick();
    await page.getByRole('status').filter({ hasText: 'Imported 3 transactions.' }).waitFor();
    const ledger = await app.ledger(user);
    expect(ledger.total).toBe(4);
    expect(ledger.transactions.map((entry) => entry.side).sort()).toEqual([
      'buy',
      'buy',
      'deposit',
      'dividend',
    ]);
    await page
      .getByRole('region', { name: 'Ledger' })
      .getByRole('cell', { name: 'dividend', exact: true })
      .waitFor();
  });

  it('chooses the lots a sell closes under the specific method, with a mismatch shown at the lots', async () => {
    const { page } = app;
    const user = await app.userWith([
      DEPOSIT,
      { side: 'buy', symbol: 'AAPL', quantity: 10, price: 150, executed_at: '2024-01-03T15:00:00Z' },
      { side: 'buy', symbol: 'AAPL', quantity: 10, price: 180, executed_at: '2024-03-01T15:00:00Z' },
    ]);
    await app.logIn(user);
    await page.getByRole('link', { name: 'Transactions' }).click();
    await page.getByLabel('Cost-basis method').selectOption('specific');
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

    await page.getByLabel('Kind').selectOption('sell');
    await page.getByLabel('Date').fill('2024-06-03');
    await page.getByLabel('Symbol', { exact: true }).fill('AAPL');
    await page.getByLabel('Quantity').fill('4');
    await page.getByLabel('Price (USD)').fill('200');
    const lots = page.getByRole('group', { name: 'Lots to sell' });
    const older = lots.getByLabel('Shares from the lot bought 2024-01-03 (10 held at $150.00)');
    const newer = lots.getByLabel('Shares from the lot bought 2024-03-01 (10 held at $180.00)');
    await app.check('transactions-sell-lots', () => newer.waitFor());

    await newer.fill('3');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await lots.getByRole('alert').waitFor();
    expect(await lots.getByRole('alert').innerText()).toMatch(/4/);
    expect(await newer.inputValue()).toBe('3');
    expect((await app.ledger(user)).total).toBe(3);

    await newer.fill('4');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Recorded.' }).waitFor();
    expect(await older.count()).toBe(0);
    const stored = (
      await app.sut.inject({ url: '/api/v1/portfolio/lots', headers: user.headers })
    ).json() as { lots: { acquired_on: string; quantity: number }[] };
    expect(stored.lots.map((lot) => [lot.acquired_on, lot.quantity])).toEqual([
      ['2024-01-03', 10],
      ['2024-03-01', 6],
    ]);
    const sell = (await app.ledger(user)).transactions.find((entry) => entry.side === 'sell');
    expect(sell?.realized_pnl).toBe(80);
  });

  it('edits a recorded buy in place: a refused change is shown at its field, a valid one is saved and audited', async () => {
    const { page } = app;
    const user = await app.userWith([
      DEPOSIT,
      { side: 'buy', symbol: 'AAPL', quantity: 10, price: 150, executed_at: '2024-01-03T15:00:00Z' },
      { side: 'sell', symbol: 'AAPL', quantity: 4, price: 200, executed_at: '2024-06-03T15:00:00Z' },
    ]);
    await app.logIn(user);
    await page.getByRole('link', { name: 'Transactions' }).click();
    await page.getByRole('button', { name: 'Edit the buy of 2024-01-03 (AAPL)' }).click();
    const form = page.getByRole('region', { name: 'Edit the buy of 2024-01-03 (AAPL)' });
    expect(await form.getByLabel('Quantity').inputValue()).toBe('10');
    expect(await form.getByLabel('Price (USD)').inputValue()).toBe('150');

    await form.getByLabel('Quantity').fill('3');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('alert').first().waitFor();
    expect(await form.getByLabel('Quantity').inputValue()).toBe('3');

    await form.getByLabel('Quantity').fill('12');
    await app.check('transactions-edit', () => form.getByRole('button', { name: 'Save' }).waitFor());
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved the buy of 2024-01-03 (AAPL).' }).waitFor();
    const ledger = await app.ledger(user);
    expect(ledger.total).toBe(3);
    const buy = ledger.transactions.find((entry) => entry.side === 'buy')!;
    expect([buy.quantity, buy.price, buy.executed_at]).toEqual([12, 150, '2024-01-03T15:00:00.000Z']);
    expect(buy.updated_at).not.toBeNull();
    const history = (
      await app.sut.inject({ url: `/api/v1/portfolio/transactions/${buy.id}/history`, headers: user.headers })
    ).json();
    expect(JSON.stringify(history)).toContain('"quantity":10');
  });

  it('shows a holding’s realized P&L and its dividend income', async () => {
    const { page } = app;
    const user = await app.userWith([
      DEPOSIT,
      { side: 'buy', symbol: 'AAPL', quantity: 10, price: 150, executed_at: '2024-01-03T15:00:00Z' },
      { side: 'sell', symbol: 'AAPL', quantity: 4, price: 170, fees: 1, executed_at: '2024-02-01T15:00:00Z' },
      {
        side: 'dividend',
        symbol: 'AAPL',
        amount: 5,
        withholding_tax: 0.75,
        executed_at: '2024-02-15T15:00:00Z',
      },
    ]);
    await app.logIn(user);
    await page.goto(`${app.origin}/holdings/AAPL`);
    await app.check('holding-pnl', () => page.getByTestId('income-summary').waitFor());
    expect(await page.getByTestId('realized-summary').innerText()).toMatch(
      /^1 sell of AAPL realized \$79\.00/,
    );
    const realized = page.getByRole('region', { name: 'Realized P&L' });
    expect(await realized.locator('tbody tr').innerText()).toMatch(
      /2024-02-01\s+4\s+\$170\.00\s+\$1\.00\s+\$79\.00/,
    );
    expect(await page.getByTestId('income-summary').innerText()).toBe(
      '1 dividend from AAPL: $5.00 gross, $0.75 withheld, $4.25 net.',
    );
    expect(await page.getByRole('region', { name: 'Open lots' }).getByRole('row').count()).toBe(2);
  });

  it('explains the risk metrics at the depth of the user’s analysis_depth, and at another on request', async () => {
    const { page } = app;
    const user = await app.userWith([
      DEPOSIT,
      { side: 'buy', symbol: 'AAPL', quantity: 10, price: 150, executed_at: '2024-01-03T15:00:00Z' },
      { side: 'buy', symbol: 'MSFT', quantity: 5, price: 300, executed_at: '2024-01-04T15:00:00Z' },
    ]);
    const preferences = await app.sut.inject({
      url: '/api/v1/preferences/or-create/advanced',
      headers: user.headers,
    });
    expect(preferences.json().analysis_depth).toBe('technical');
    await app.logIn(user);
    await page.getByRole('link', { name: 'Risk', exact: true }).click();
    const metrics = page.getByRole('region', { name: 'Metrics' });
    await app.check('risk', () => metrics.waitFor());
    expect(await page.getByLabel('Explanations').inputValue()).toBe('technical');
    const text = await metrics.innerText();
    expect(text).toMatch(/Volatility: \d/);
    expect(text).toContain('In a typical year');
    expect(text).toContain('× √252');
    await page.getByRole('region', { name: 'How the largest holdings move together' }).waitFor();

    await page.getByLabel('Explanations').selectOption('simple');
    await page.locator('[data-depth="simple"]').waitFor();
    const simple = await metrics.innerText();
    expect(simple).toContain('In a typical year');
    expect(simple).not.toContain('√252');
    expect(simple).not.toContain('Below 12 %');
    expect(await page.getByRole('region', { name: 'How the largest holdings move together' }).count()).toBe(
      0,
    );
  });

  it('plans a rebalance by sector targets and records it once however often the button is clicked', async () => {
    const { page } = app;
    const user = await app.userWith([
      DEPOSIT,
      { side: 'buy', symbol: 'AAPL', quantity: 10, price: 150, executed_at: '2024-01-03T15:00:00Z' },
      { side: 'buy', symbol: 'JPM', quantity: 10, price: 150, executed_at: '2024-01-04T15:00:00Z' },
    ]);
    await app.logIn(user);
    await page.getByRole('link', { name: 'Rebalance' }).click();
    await page.getByLabel('Sector', { exact: true }).check();
    await app.check('rebalance-sectors', () => page.getByLabel(/^technology/).waitFor());
    expect(await page.getByLabel(/^AAPL/).count()).toBe(0);
    await page.getByLabel(/^technology/).fill('20');
    await page.getByLabel(/^finance/).fill('80');
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    await page.getByRole('heading', { name: 'Planned trades' }).waitFor();
    const planned = page.getByRole('region', { name: 'Planned trades' }).locator('tbody tr');
    expect(await planned.count()).toBeGreaterThan(0);
    const trades = await planned.allInnerTexts();
    expect(trades.some((trade) => /^JPM\s+buy/.test(trade))).toBe(true);
    expect(trades.some((trade) => /^AAPL\s+sell/.test(trade))).toBe(true);
    expect((await app.ledger(user)).total).toBe(3);

    await page.getByRole('button', { name: 'Record these trades' }).dblclick();
    await page.getByRole('heading', { name: 'Recorded' }).waitFor();
    expect((await app.ledger(user)).total).toBe(3 + trades.length);
  });
});
