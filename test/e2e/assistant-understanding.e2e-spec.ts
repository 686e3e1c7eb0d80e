import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { seedInvestor } from '../support/investor-ledger';
import { portfolioCalls } from '../support/portfolio-calls';
import { dataOf, typedApi } from '../support/typed-api';

const usd = (value: number) =>
  `$${Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe('the assistant understands the investor (offline engine)', () => {
  let sut: TestApp;
  let user: TestUser;
  const thisYear = Number(new Date().toLocaleString('en-CA', { timeZone: 'America/New_York' }).slice(0, 4));

  beforeAll(async () => {
    sut = await createTestApp({ env: { ASSISTANT_CHAT_TURNS_PER_MINUTE: '1000' } });
    user = await registerUser(sut);
    await seedInvestor(sut, user, thisYear);
  });
  afterAll(() => sut.close());

  const chat = async (message: string, conversationId?: string) => {
    const response = await typedApi(sut, user).POST('/api/v1/assistant/chat', {
      body: { message, ...(conversationId ? { conversation_id: conversationId } : {}) },
    });
    expect(response.response.status).toBe(200);
    return dataOf(response) as {
      conversation_id: string;
      message: { content: string; sources: { type: string; [key: string]: unknown }[] };
    };
  };
  const { read } = portfolioCalls(() => sut);
  const ledgerSize = async () => dataOf(await read.transactions(user, { limit: 100 })).total as number;

  it('answers my position in a company from positions and lots, not with a quote', async () => {
    const positions = dataOf(await read.positions(user)).positions as {
      symbol: string;
      quantity: number;
      cost_basis: number;
      market_value: number;
      unrealized_pnl: number;
    }[];
    const apple = positions.find((p) => p.symbol === 'AAPL')!;
    const body = await chat('how many shares of apple do i own?');
    expect(body.message.content).toContain(`You hold ${apple.quantity} shares of Apple Inc. (AAPL)`);
    expect(body.message.content).toContain(`a cost basis of ${usd(apple.cost_basis)}`);
    expect(body.message.content).toContain(`worth ${usd(apple.market_value)}`);
    expect(body.message.sources.map((s) => s.type)).toEqual(['holding', 'tax_lots']);
    const none = await chat('Do I own any Nvidia?');
    expect(none.message.content).toContain('You hold none of Nvidia Corporation (NVDA).');
    const sold = await chat('am I up on pfizer?');
    expect(sold.message.content).toMatch(
      /You hold none of Pfizer.*\nYou sold it earlier: those sells realized −\$/,
    );
  });

  it('answers cash, dividends this year and realized gains this year and last year from their routes', async () => {
    const withCash = dataOf(await read.positions(user, { include_cash: true }));
    expect((await chat("what's my cash balance?")).message.content).toContain(usd(withCash.cash_balance!));
    const income = dataOf(await read.income(user, { period: 'YTD' }));
    const dividends = await chat('how much did I get in dividends this year?');
    expect(dividends.message.content).toContain(`${usd(income.totals.dividends_gross)} in dividends`);
    expect(dividends.message.sources[0]).toMatchObject({ type: 'income', period: 'YTD' });
    const realizedNow = dataOf(await read.realized(user, { year: thisYear }));
    const realizedLast = dataOf(await read.realized(user, { year: thisYear - 1 }));
    const first = await chat('What gains did I realize this year?');
    expect(first.message.content).toContain(`In ${thisYear} your sells realized`);
    expect(first.message.content).toContain(usd(realizedNow.totals.gain));
    const allTime = await chat('What is my all-time return?');
    expect(allTime.message.content).toMatch(/^Since your first trade your portfolio returned /);
    const follow = await chat('what about last year?', first.conversation_id);
    expect(follow.message.content).toContain(
      `In ${thisYear - 1} your sells realized +${usd(realizedLast.totals.gain)}`,
    );
  });

  it('resolves pronouns, ellipses and "why?" against the stored conversation', async () => {
    const first = await chat('How is Apple doing?');
    expect(first.message.sources[0]).toMatchObject({ type: 'quote', symbol: 'AAPL' });
    const id = first.conversation_id;
    const microsoft = await chat('and Microsoft?', id);
    expect(microsoft.message.sources[0]).toMatchObject({ type: 'quote', symbol: 'MSFT' });
    const shares = await chat('how many shares of it do I have?', id);
    expect(shares.message.content).toContain('shares of Microsoft Corp. (MSFT)');
    const why = await chat('why?', id);
    expect(why.message.content).toContain('Why: your cost basis is what you paid');
    const biggest = await chat("what's my biggest position?");
    const top = (dataOf(await read.positions(user)).positions as { symbol: string; quantity: number }[])[0];
    const followUp = await chat('how many shares of it do I have?', biggest.conversation_id);
    expect(followUp.message.content).toContain(`You hold ${top.quantity} shares`);
    expect(followUp.message.content).toContain(`(${top.symbol})`);
  });

  it('declines orders, recommendations, predictions, tax advice and insider tips as policy, trading nothing', async () => {
    const before = await ledgerSize();
    const order = await chat('Sell all my AAPL now');
    expect(order.message.content).toMatch(/^I never trade: .*POST \/api\/v1\/portfolio\/transactions\./);
    expect(order.message.sources).toEqual([]);
    expect((await chat('Should I buy more Microsoft?')).message.content).toMatch(
      /^I cannot tell you whether to buy, sell or hold/,
    );
    expect((await chat('Will Apple go up next week?')).message.content).toMatch(
      /^Nobody can guarantee or predict/,
    );
    expect((await chat('How can I avoid paying taxes on my Apple gains?')).message.content).toMatch(
      /^I cannot give tax or legal advice/,
    );
    expect(
      (await chat('My friend at Apple says earnings will be huge before it is announced, should I buy?'))
        .message.content,
    ).toMatch(/^I cannot help with trading on material non-public information/);
    expect(await ledgerSize()).toBe(before);
  });

  it("explains a term in the user's style, linked to their own figure, and ignores everyday words", async () => {
    const beta = await chat('What is beta?');
    const risk = dataOf(await read.riskMetrics(user));
    expect(beta.message.content).toMatch(/^Bottom line: Beta is how strongly/);
    expect(beta.message.content).toContain(`For you: your portfolio's beta is ${risk.beta!.toFixed(2)}.`);
    expect(beta.message.sources[0]).toEqual({ type: 'glossary', term: 'Beta' });
    const sorry = await chat('sorry in advance, what is my portfolio worth?');
    expect(sorry.message.sources.some((s) => s.type === 'quote')).toBe(false);
    expect(sorry.message.content).toContain('Your portfolio is worth');
    const unsure = await chat('How is Mikrasaft doing?');
    expect(unsure.message.content).toMatch(
      /^I could not find a company or ticker called "Mikrasaft" in the market data, so I have no quote for it\. Did you mean Microsoft Corp\. \(MSFT\)\?/,
    );
    const typo = await chat('how is micrsoft doing today?');
    const holdingsNews = await chat('Any news on my holdings?');
    const heaviest = (dataOf(await read.positions(user)).positions as { symbol: string }[])[0].symbol;
    expect(holdingsNews.message.content).toMatch(
      new RegExp(
        `^News on your 5 largest holdings: \\d+ positive, \\d+ negative, \\d+ neutral articles\\.\\n- ${heaviest}: `,
      ),
    );
    expect(typo.message.sources[0]).toMatchObject({ type: 'quote', symbol: 'MSFT' });
  });
});
