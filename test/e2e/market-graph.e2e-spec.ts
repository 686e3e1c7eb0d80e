import { DataSource } from 'typeorm';
import { loadReplayDataset } from '../../src/modules/replay/replay-data.loader';
import { ReplayMarket } from '../../src/modules/replay/replay-market';
import { previousTradingDay, tradingDayOnOrBefore } from '../../src/modules/replay';
import { GraphService } from '../../src/modules/graph';
import { GraphMaintenance } from '../../src/modules/graph/graph-maintenance.service';
import { GraphRepository, GraphWriter } from '../../src/modules/graph/graph.repository';
import { login, registerUser, TestUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { portfolioCalls } from '../support/portfolio-calls';
import { dataOf, issuesOf, QueryOf, typedApi } from '../support/typed-api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Plain Pearson correlation of simple daily returns, written independently of src/modules/graph. */
function pearson(xs: number[], ys: number[]): number {
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i += 1) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** The sectors of the shipped reference data, read here with a split of its own. */
function sectorsFromCsv(): Map<string, string> {
  const lines = readFileSync(join(__dirname, '../../data/graph/companies.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  return new Map(
    lines.map((line) => {
      const cells = line
        .match(/("[^"]*"|[^,]*)(,|$)/g)!
        .map((cell) => cell.replace(/,$/, '').replace(/^"|"$/g, ''));
      return [cells[0], cells[2]];
    }),
  );
}

describe('the market knowledge graph', () => {
  const clock = new FakeClock();
  let sut: TestApp;
  let db: DataSource;
  /** Every stock's 252 daily returns to the graph's session, computed from the shipped closes. */
  let returns: Map<string, number[]>;
  let asOf: string;
  const correlation = (a: string, b: string) => pearson(returns.get(a)!, returns.get(b)!);

  beforeAll(async () => {
    sut = await createTestApp({ clock });
    db = sut.app.get(DataSource);
    await sut.app.get(GraphService).related('AAPL', 'industry', 1, 0);
    const [state] = await db.query(
      `SELECT to_char(correlations_as_of, 'YYYY-MM-DD') AS as_of FROM graph_state`,
    );
    asOf = state.as_of;
    const market = new ReplayMarket(await loadReplayDataset());
    const days = [tradingDayOnOrBefore(asOf)];
    while (days.length < 253) days.unshift(previousTradingDay(days[0]));
    returns = new Map(
      market.dataset.universe.stocks.map(({ symbol }) => {
        const closes = days.map((day) => market.closeOn(symbol, day));
        return [symbol, closes.slice(1).map((close, i) => close / closes[i] - 1)];
      }),
    );
  }, 60_000);
  afterAll(() => sut.close());

  const as = (user: TestUser) => typedApi(sut, user);
  const { read, postTransaction } = portfolioCalls(() => sut);
  const relatedTo = (
    user: TestUser,
    symbol: string,
    query?: QueryOf<'/api/v1/market/stock/{symbol}/related'>,
  ) => as(user).GET('/api/v1/market/stock/{symbol}/related', { params: { path: { symbol }, query } });
  const exposureOf = (user: TestUser, query?: QueryOf<'/api/v1/portfolio/exposure'>) =>
    as(user).GET('/api/v1/portfolio/exposure', { params: { query } });
  const postBuy = (user: TestUser, symbol: string, quantity: number, accountId?: number) =>
    postTransaction(user, {
      symbol,
      side: 'buy',
      quantity,
      price: 100,
      executed_at: clock.daysAgo(30) + 'T15:00:00Z',
      account_id: accountId,
    });
  const buy = async (user: TestUser, symbol: string, quantity: number, accountId?: number) => {
    expect((await postBuy(user, symbol, quantity, accountId)).response.status).toBe(201);
  };

  it('holds every pair whose correlation over the last 252 sessions is at least 0.6, to 4 decimals', async () => {
    const edges: { a: string; b: string; correlation: number; window_days: number; as_of: string }[] =
      await db.query(`
        SELECT a.key AS a, b.key AS b, (e.properties->>'correlation')::float8 AS correlation,
               (e.properties->>'window_days')::int AS window_days, e.properties->>'as_of' AS as_of
          FROM graph_edges e JOIN graph_nodes a ON a.id = e.source_id JOIN graph_nodes b ON b.id = e.target_id
         WHERE e.kind = 'CO_MOVES_WITH' AND a.key < b.key`);
    const symbols = [...returns.keys()].sort();
    const expected = new Map<string, number>();
    for (let i = 0; i < symbols.length; i += 1) {
      for (let j = i + 1; j < symbols.length; j += 1) {
        const value = correlation(symbols[i], symbols[j]);
        if (value >= 0.6) expected.set(`${symbols[i]}|${symbols[j]}`, value);
      }
    }
    expect(edges.length).toBe(expected.size);
    expect(edges.length).toBeGreaterThan(100);
    for (const edge of edges) {
      expect(edge.correlation).toBeCloseTo(expected.get(`${edge.a}|${edge.b}`)!, 4);
      expect(edge).toMatchObject({ window_days: 252, as_of: asOf });
    }
    const [{ count }] = await db.query(
      `SELECT count(*)::int AS count FROM graph_edges WHERE kind = 'CO_MOVES_WITH'`,
    );
    expect(count).toBe(2 * expected.size);
  });

  it('links every company to its sector, sub-industry, headquarters and index from the shipped data', async () => {
    const rows: { kind: string; count: number }[] = await db.query(
      `SELECT kind, count(*)::int AS count FROM graph_edges WHERE kind <> 'CO_MOVES_WITH' AND kind <> 'MENTIONS'
        GROUP BY kind ORDER BY kind`,
    );
    expect(rows).toEqual([
      { kind: 'HEADQUARTERED_IN', count: 394 },
      { kind: 'IN_SECTOR', count: 505 },
      { kind: 'IN_SUB_INDUSTRY', count: 394 },
      { kind: 'MEMBER_OF', count: 505 },
    ]);
  });

  describe('GET /market/stock/{symbol}/related', () => {
    let user: TestUser;
    beforeAll(async () => {
      user = await registerUser(sut);
    });

    it('by industry: the same sub-industry first, with the path and weight 1', async () => {
      const response = await relatedTo(user, 'nvda', { by: 'industry', limit: 50 });
      expect(response.response.status).toBe(200);
      const body = dataOf(response);
      expect(body.symbol).toBe('NVDA');
      expect(body.by).toBe('industry');
      const amd = body.related.find((company: { symbol: string }) => company.symbol === 'AMD');
      expect(amd).toEqual({
        symbol: 'AMD',
        name: 'Advanced Micro Devices Inc',
        weight: 1,
        why: 'same sub-industry: Semiconductors',
        path: ['NVDA', 'Semiconductors', 'AMD'],
      });
      const weights = body.related.map((company: { weight: number }) => company.weight);
      expect(weights).toEqual([...weights].sort((a, b) => b - a));
      expect(
        body.related.some(
          (company: { why: string }) => company.why === 'same sector: Information Technology',
        ),
      ).toBe(true);
      expect(body.related.map((company: { symbol: string }) => company.symbol)).not.toContain('NVDA');
    });

    it('by correlation: the co-moving companies, strongest first, with the correlation as weight', async () => {
      const response = await relatedTo(user, 'XOM', { by: 'correlation', limit: 5 });
      expect(response.response.status).toBe(200);
      const { related } = dataOf(response);
      const expected = [...returns.keys()]
        .filter((symbol) => symbol !== 'XOM')
        .map((symbol) => ({ symbol, value: correlation('XOM', symbol) }))
        .filter(({ value }) => value >= 0.6)
        .sort((a, b) => b.value - a.value)
        .slice(0, 5);
      expect(related.map((company: { symbol: string }) => company.symbol)).toEqual(
        expected.map(({ symbol }) => symbol),
      );
      expect(related[0].weight).toBeCloseTo(expected[0].value, 4);
      expect(related[0].why).toBe(`correlation ${expected[0].value.toFixed(2)} over 252 sessions`);
      expect(related[0].path).toEqual(['XOM', expected[0].symbol]);
      // Asked again, the answer comes from the cache, counted in /metrics.
      expect(dataOf(await relatedTo(user, 'XOM', { by: 'correlation', limit: 5 })).related).toEqual(related);
      // Raw: /metrics is not an operation of the OpenAPI document.
      const metrics = (await sut.inject({ url: '/metrics' })).body;
      expect(metrics).toMatch(/graph_answer_cache_requests_total\{answer="related",result="hit"\} [1-9]/);
    });

    it('by news: companies mentioned in the same items this week', async () => {
      const response = await relatedTo(user, 'AAPL', { by: 'news', limit: 3 });
      expect(response.response.status).toBe(200);
      const { related } = dataOf(response);
      for (const company of related) {
        expect(company.why).toMatch(/^mentioned together in \d+ items? this week$/);
        expect(company.weight).toBeGreaterThan(0);
        expect(company.weight).toBeLessThanOrEqual(1);
      }
    });

    it('answers 404 with the stock-not-found detail for an unknown symbol, 422 for a bad `by`', async () => {
      const unknown = await relatedTo(user, 'zzzz');
      expect(unknown.response.status).toBe(404);
      expect(unknown.error).toEqual({ detail: 'Stock ZZZZ not found' });
      // Raw: a `by` outside its enum.
      const bad = await sut.inject({
        url: '/api/v1/market/stock/AAPL/related?by=colour',
        headers: user.headers,
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().detail[0].loc).toEqual(['query', 'by']);
    });
  });

  describe('GET /portfolio/exposure', () => {
    it('answers 200 with empty lists for an empty ledger', async () => {
      const user = await registerUser(sut);
      const response = await exposureOf(user);
      expect(response.response.status).toBe(200);
      expect(dataOf(response)).toEqual({
        as_of: asOf,
        clusters: [],
        effective_bets: 0,
        largest_cluster_weight: 0,
        largest_single_weight: 0,
        indirect_news: [],
      });
    });

    it('finds three co-moving holdings in three sectors as one cluster, and a fourth apart', async () => {
      const sectors = sectorsFromCsv();
      const symbols = [...returns.keys()].sort();
      // Three stocks in three sectors whose every pair co-moves, and a stock that co-moves with none of them.
      const crossSector = symbols
        .flatMap((a, i) => symbols.slice(i + 1).map((b) => ({ a, b })))
        .filter(({ a, b }) => sectors.get(a) !== sectors.get(b))
        .map(({ a, b }) => ({ a, b, value: correlation(a, b) }))
        .filter(({ value }) => value >= 0.7)
        .sort((x, y) => y.value - x.value);
      let members: string[] = [];
      for (const { a, b } of crossSector) {
        const third = symbols.find(
          (c) =>
            sectors.get(c) !== sectors.get(a) &&
            sectors.get(c) !== sectors.get(b) &&
            correlation(a, c) >= 0.65 &&
            correlation(b, c) >= 0.65,
        );
        if (third) {
          members = [a, b, third];
          break;
        }
      }
      expect(members).toHaveLength(3);
      const loner = symbols.find(
        (symbol) => !members.includes(symbol) && members.every((member) => correlation(member, symbol) < 0.3),
      )!;
      const user = await registerUser(sut);
      for (const symbol of [...members, loner]) await buy(user, symbol, 10);

      const response = await exposureOf(user);
      expect(response.response.status).toBe(200);
      const exposure = dataOf(response);
      expect(exposure.clusters).toHaveLength(2);
      const [cluster, apart] = exposure.clusters;
      expect(cluster.members.map((member: { symbol: string }) => member.symbol).sort()).toEqual(
        [...members].sort(),
      );
      expect(apart.members.map((member: { symbol: string }) => member.symbol)).toEqual([loner]);
      expect(apart.average_correlation).toBeNull();
      const pairMean =
        (correlation(members[0], members[1]) +
          correlation(members[0], members[2]) +
          correlation(members[1], members[2])) /
        3;
      expect(cluster.average_correlation).toBeCloseTo(pairMean, 4);
      const memberWeights = cluster.members.map((member: { weight: number }) => member.weight);
      expect(cluster.combined_weight).toBeCloseTo(
        memberWeights.reduce((a: number, b: number) => a + b, 0),
        3,
      );
      expect(exposure.largest_cluster_weight).toBe(cluster.combined_weight);
      expect(exposure.largest_single_weight).toBe(Math.max(...memberWeights, apart.members[0].weight));
      expect(exposure.largest_cluster_weight).toBeGreaterThan(exposure.largest_single_weight);
      // Four holdings, three of which move as one: fewer than three independent bets, more than one.
      expect(exposure.effective_bets).toBeGreaterThan(1);
      expect(exposure.effective_bets).toBeLessThan(3);
      for (const item of exposure.indirect_news) {
        expect([...members, loner]).toContain(item.holding);
        expect([...members, loner]).not.toContain(item.symbol);
        expect(item.path[0]).toBe(item.holding);
      }

      const risk = await read.riskMetrics(user);
      expect(risk.response.status).toBe(200);
      const concentration = dataOf(risk).concentration!;
      expect(concentration.largest_cluster_weight).toBeCloseTo(exposure.largest_cluster_weight, 4);
      expect(concentration.effective_independent_bets).toBeCloseTo(exposure.effective_bets, 4);
      expect([...concentration.largest_cluster_members].sort()).toEqual([...members].sort());

      const chat = await typedApi(sut, user).POST('/api/v1/assistant/chat', {
        body: { message: 'Am I more concentrated than I think?' },
      });
      expect(chat.response.status).toBe(200);
      const answer = dataOf(chat).message;
      expect(answer.content).toContain(
        `Your 4 holdings behave like about ${exposure.effective_bets.toFixed(1)} independent`,
      );
      expect(answer.content).toContain(
        'So yes: you are more concentrated than the individual weights suggest.',
      );
      expect(answer.sources).toEqual([{ type: 'market_graph', question: 'exposure', as_of: asOf }]);

      const briefing = await as(user).GET('/api/v1/assistant/briefing');
      expect(briefing.response.status).toBe(200);
      const riskSection = dataOf(briefing).sections.find((section) => section.kind === 'risk')!;
      // A section's data is free-form in the document; the risk section's names its largest cluster.
      const { largest_cluster } = riskSection.data as { largest_cluster: { symbols: string[] } };
      expect(largest_cluster.symbols.sort()).toEqual([...members].sort());
      expect(riskSection.text).toContain('move together');
    });

    it('answers "what else is like NVDA?" from the graph', async () => {
      const user = await registerUser(sut);
      const chat = await typedApi(sut, user).POST('/api/v1/assistant/chat', {
        body: { message: 'What else is like NVDA?' },
      });
      expect(chat.response.status).toBe(200);
      const { content, sources } = dataOf(chat).message;
      expect(content).toContain('Companies like NVDA by industry:');
      expect(content).toMatch(/- [A-Z]+ \(.+\): same sub-industry: Semiconductors/);
      expect(sources).toEqual([{ type: 'market_graph', question: 'related', symbol: 'NVDA' }]);
    });

    it("lists indirect news about a holding's sub-industry peers, with the path", async () => {
      const user = await registerUser(sut);
      await buy(user, 'JPM', 5);
      const { indirect_news: news } = dataOf(await exposureOf(user));
      expect(news.length).toBeGreaterThan(0);
      for (const item of news) {
        expect(item.holding).toBe('JPM');
        expect(item.symbol).not.toBe('JPM');
        expect(item.why).toMatch(
          /^[A-Z.]+ (is in the same sub-industry as JPM: .+|moves with JPM \(correlation 0\.\d\d\))$/,
        );
        expect(['positive', 'negative', 'neutral']).toContain(item.sentiment);
      }
    });
    it("answers for one account's holdings with account_id, and 404 for an account that is not the user's", async () => {
      const user = await registerUser(sut);
      const opened = await typedApi(sut, user).POST('/api/v1/portfolio/accounts', {
        body: { name: 'IRA', kind: 'ira' },
      });
      expect(opened.response.status).toBe(201);
      const ira = dataOf(opened).id;
      const taxable = dataOf(await read.accounts(user)).accounts.find((account) => account.is_default)!.id;
      await buy(user, 'NVDA', 3);
      await buy(user, 'XOM', 4);
      await buy(user, 'JPM', 5, ira);
      const held = (exposure: { clusters: { members: { symbol: string }[] }[] }) =>
        exposure.clusters.flatMap((cluster) => cluster.members.map((member) => member.symbol)).sort();

      const combined = dataOf(await exposureOf(user));
      expect(held(combined)).toEqual(['JPM', 'NVDA', 'XOM']);
      const iraExposure = await exposureOf(user, { account_id: ira });
      expect(iraExposure.response.status).toBe(200);
      const taxableExposure = dataOf(await exposureOf(user, { account_id: taxable }));
      expect(held(dataOf(iraExposure))).toEqual(['JPM']);
      expect(held(taxableExposure)).toEqual(['NVDA', 'XOM']);

      // Each account answers as a user holding exactly its positions would be answered.
      const jpmOnly = await registerUser(sut);
      await buy(jpmOnly, 'JPM', 5);
      const twoHoldings = await registerUser(sut);
      await buy(twoHoldings, 'NVDA', 3);
      await buy(twoHoldings, 'XOM', 4);
      expect(dataOf(iraExposure)).toEqual(dataOf(await exposureOf(jpmOnly)));
      expect(taxableExposure).toEqual(dataOf(await exposureOf(twoHoldings)));
      // The risk metrics' cluster view of one account is that account's exposure too.
      const concentration = dataOf(await read.riskMetrics(user, { account_id: taxable })).concentration!;
      expect(concentration.largest_cluster_weight).toBeCloseTo(taxableExposure.largest_cluster_weight, 4);
      expect(concentration.effective_independent_bets).toBeCloseTo(taxableExposure.effective_bets, 4);
      expect(concentration.largest_cluster_members).toEqual(
        taxableExposure.clusters[0].members.map((member: { symbol: string }) => member.symbol),
      );

      const stranger = await registerUser(sut);
      const foreign = await exposureOf(stranger, { account_id: ira });
      expect(foreign.response.status).toBe(404);
      expect(foreign.error).toEqual({ detail: 'Account not found' });
      expect((await read.positions(stranger, { account_id: ira })).error).toEqual(foreign.error);
      const invalid = await exposureOf(user, { account_id: 0 });
      expect(invalid.response.status).toBe(422);
      expect(issuesOf(invalid).map((issue) => issue.loc)).toEqual([['query', 'account_id']]);
    });
  });

  it("keeps one user's holdings out of every other user's traversals", async () => {
    const alice = await registerUser(sut);
    const bob = await registerUser(sut);
    await buy(alice, 'NVDA', 3);
    await buy(bob, 'AMD', 3);
    const bobs = dataOf(await exposureOf(bob));
    expect(
      bobs.clusters.flatMap((c: { members: { symbol: string }[] }) => c.members.map((m) => m.symbol)),
    ).toEqual(['AMD']);
    const alices = dataOf(await exposureOf(alice));
    expect(
      alices.clusters.flatMap((c: { members: { symbol: string }[] }) => c.members.map((m) => m.symbol)),
    ).toEqual(['NVDA']);
    // A walk from NVDA along every edge kind, as Bob, never reaches Alice's user node; as Alice it does.
    const repository = sut.app.get(GraphService)['repository'] as {
      reachableNodes(
        symbols: string[],
        depth: number,
        viewer: number,
      ): Promise<{ kind: string; key: string }[]>;
    };
    const asBob = await repository.reachableNodes(['NVDA'], 3, bob.id);
    expect(asBob.filter((node) => node.kind === 'user')).toEqual([]);
    const asAlice = await repository.reachableNodes(['NVDA'], 3, alice.id);
    expect(asAlice.filter((node) => node.kind === 'user')).toEqual([{ kind: 'user', key: String(alice.id) }]);
  });

  it("writes the watchlist as the user's own WATCHES edges", async () => {
    const user = await registerUser(sut);
    const other = await registerUser(sut);
    const created = await typedApi(sut, user).POST('/api/v1/preferences/wizard', {
      body: { step_data: { portfolio: { watchlist: ['AAPL', 'XOM'] } }, complete: true },
    });
    expect(created.response.status).toBe(200);
    expect((await exposureOf(user)).response.status).toBe(200);
    expect((await exposureOf(other)).response.status).toBe(200);
    const watched = await db.query(
      `SELECT u.key AS user_key, c.key AS symbol, e.owner_user_id FROM graph_edges e
         JOIN graph_nodes u ON u.id = e.source_id JOIN graph_nodes c ON c.id = e.target_id
        WHERE e.kind = 'WATCHES' AND u.key IN ($1, $2) ORDER BY c.key`,
      [String(user.id), String(other.id)],
    );
    expect(watched).toEqual([
      { user_key: String(user.id), symbol: 'AAPL', owner_user_id: user.id },
      { user_key: String(user.id), symbol: 'XOM', owner_user_id: user.id },
    ]);
  });

  it('updates the holding edges incrementally after a trade, without rebuilding the graph', async () => {
    const user = await registerUser(sut);
    const [before] = await db.query(
      `SELECT built_at, (SELECT count(*)::int FROM graph_nodes WHERE kind = 'company') AS companies FROM graph_state`,
    );
    await buy(user, 'MSFT', 4);
    const holds = () =>
      db.query(
        `SELECT c.key AS symbol, e.weight FROM graph_edges e JOIN graph_nodes c ON c.id = e.target_id
          WHERE e.kind = 'HOLDS' AND e.owner_user_id = $1 ORDER BY c.key`,
        [user.id],
      );
    // The write is answered first; its edges follow within moments, with no read asking for them.
    const holdsOnce = async (count: number): Promise<{ symbol: string; weight: number }[]> => {
      for (let tries = 0; tries < 50; tries += 1) {
        const rows: { symbol: string; weight: number }[] = await holds();
        if (rows.length === count) return rows;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return holds();
    };
    expect(await holdsOnce(1)).toEqual([{ symbol: 'MSFT', weight: 1 }]);
    await buy(user, 'KO', 4);
    const both = await holdsOnce(2);
    expect(both.map(({ symbol }) => symbol)).toEqual(['KO', 'MSFT']);
    expect(both[0].weight + both[1].weight).toBeCloseTo(1, 10);
    const [after] = await db.query(
      `SELECT built_at, (SELECT count(*)::int FROM graph_nodes WHERE kind = 'company') AS companies FROM graph_state`,
    );
    expect(after).toEqual(before);
  });

  it('adds the news items published since, and measures the correlations again after a new close', async () => {
    const user = await registerUser(sut);
    const count = async () =>
      (await db.query(`SELECT count(*)::int AS count FROM graph_edges WHERE kind = 'MENTIONS'`))[0]
        .count as number;
    await relatedTo(user, 'AAPL', { by: 'news' });
    const [before] = await db.query(
      `SELECT built_at, news_through, to_char(correlations_as_of, 'YYYY-MM-DD') AS as_of FROM graph_state`,
    );
    const mentionsBefore = await count();
    const graphHealth = async () =>
      dataOf(await typedApi(sut).GET('/api/v1/system/health')).services.graph_database;
    const stale = await graphHealth();
    expect(stale).toBe('connected');

    clock.advance(5 * 86_400_000);
    const again = { ...user, ...(await login(sut, user.email, user.password)) };
    const health = await graphHealth();
    expect(health).toBe('degraded');
    expect((await relatedTo(again, 'AAPL', { by: 'news' })).response.status).toBe(200);
    const [after] = await db.query(
      `SELECT built_at, news_through, to_char(correlations_as_of, 'YYYY-MM-DD') AS as_of FROM graph_state`,
    );
    expect(after.built_at).toEqual(before.built_at);
    expect(after.as_of > before.as_of).toBe(true);
    expect(after.news_through.getTime()).toBeGreaterThan(before.news_through.getTime());
    expect(await count()).toBeGreaterThan(mentionsBefore);
    expect(await graphHealth()).toBe('connected');
  });
  /** The exposure's indirect news as the route lists it: url, holding, symbol, published_at. */
  const indirect = async (who: TestUser) => {
    const response = await exposureOf(who);
    expect(response.response.status).toBe(200);
    return (
      dataOf(response).indirect_news as {
        url: string;
        holding: string;
        symbol: string;
        published_at: string;
      }[]
    ).map((item) => [item.url, item.holding, item.symbol, item.published_at]);
  };
  /** The same from a walk of the graph made now from `held`, as `user` sees it. */
  const walked = async (user: TestUser, held: string[]) =>
    (
      await sut.app
        .get(GraphRepository)
        .indirectNews(user.id, held, new Date(clock.now().getTime() - 7 * 86_400_000), 10)
    ).map((row) => [row.url, row.holding, row.symbol, row.publishedAt.toISOString()]);

  /** The user's ledger version, once the edges written after the last trade (they follow its answer) record it. */
  const recordedLedgerVersion = async (user: TestUser): Promise<number> => {
    const [{ version }]: { version: number }[] = await db.query(
      `SELECT version::int AS version FROM portfolio_ledger_versions WHERE user_id = $1`,
      [user.id],
    );
    const graph = sut.app.get(GraphService);
    for (
      let tries = 0;
      tries < 50 && (await graph.userSources(user.id)).ledgerVersion !== version;
      tries += 1
    )
      await new Promise((resolve) => setTimeout(resolve, 100));
    return version;
  };

  /** The user's HOLDS edges in the graph: the symbol and quantity of each, by symbol. */
  const heldEdges = (user: TestUser): Promise<{ symbol: string; quantity: number }[]> =>
    db.query(
      `SELECT c.key AS symbol, (e.properties->>'quantity')::float8 AS quantity
         FROM graph_edges e JOIN graph_nodes c ON c.id = e.target_id
        WHERE e.kind = 'HOLDS' AND e.owner_user_id = $1 ORDER BY c.key`,
      [user.id],
    );

  it("keeps the exposure's indirect news to the last 7 days as the clock moves, as a walk made then gives it", async () => {
    const user = await registerUser(sut);
    const held = ['JPM', 'XOM', 'NVDA'];
    for (const symbol of held) await buy(user, symbol, 5);
    const first = await indirect(user);
    expect(first.length).toBeGreaterThan(0);
    expect(first).toEqual(await walked(user, held));

    // Just past the moment the oldest listed item turns 7 days old: it leaves the list.
    const oldest = new Date(first.at(-1)![3]).getTime();
    clock.set(new Date(Math.max(clock.now().getTime(), oldest + 7 * 86_400_000 + 1_000)));
    const again = { ...user, ...(await login(sut, user.email, user.password)) };
    const later = await indirect(again);
    expect(later).toEqual(await walked(user, held));
    const since = new Date(clock.now().getTime() - 7 * 86_400_000).toISOString();
    for (const [, , , publishedAt] of later) expect(publishedAt >= since).toBe(true);
    expect(later.map(([url]) => url)).not.toContain(first.at(-1)![0]);
  });

  it('answers for the last trade when the holdings written after an earlier one land late', async () => {
    const user = await registerUser(sut);
    const held = ['JPM', 'XOM', 'NVDA'];
    for (const symbol of held) await buy(user, symbol, 5);
    const graph = sut.app.get(GraphService);
    const repository = sut.app.get(GraphRepository);
    const version = await recordedLedgerVersion(user);
    // The write that followed the second trade, held back (as on a busy machine) until the route
    // has found the edges current, lands just before the route reads them.
    const read = repository.holdings.bind(repository);
    const late = jest.spyOn(repository, 'holdings').mockImplementationOnce(async (userId) => {
      const earlier = held.slice(0, 2).map((symbol) => ({ symbol, quantity: 5 }));
      await graph.recordHoldings(user.id, earlier, version - 1);
      return read(userId);
    });
    try {
      const exposure = dataOf(await exposureOf(user));
      expect(late).toHaveBeenCalled();
      expect(exposure.clusters.flatMap((c) => c.members.map((m) => m.symbol)).sort()).toEqual(
        [...held].sort(),
      );
    } finally {
      late.mockRestore();
    }
    expect(await indirect(user)).toEqual(await walked(user, held));
    expect((await graph.userSources(user.id)).ledgerVersion).toBe(version);
  });

  it('keeps a change of the holdings recorded while every holding is weighed again at a new close', async () => {
    const user = await registerUser(sut);
    await buy(user, 'JPM', 5);
    const graph = sut.app.get(GraphService);
    const maintenance = sut.app.get(GraphMaintenance);
    const ledgerVersion = await recordedLedgerVersion(user);
    const asOf = async () =>
      (await db.query(`SELECT to_char(correlations_as_of, 'YYYY-MM-DD') AS as_of FROM graph_state`))[0].as_of;
    const before = await asOf();
    // Another instance records the user's next trade just after this one has read every user's
    // holdings to weigh them again: it lands, or waits for the reweighing to end.
    const read = GraphWriter.prototype.allHoldings;
    let change: Promise<void> | undefined;
    const reweigh = jest.spyOn(GraphWriter.prototype, 'allHoldings').mockImplementationOnce(async function (
      this: GraphWriter,
    ) {
      const holdings = await read.call(this);
      let settled = false;
      change = maintenance.recordHoldings(
        user.id,
        ['JPM', 'XOM'].map((symbol) => ({ symbol, quantity: 5 })),
        ledgerVersion + 1,
      );
      void change.finally(() => (settled = true));
      const waiting = async () =>
        (
          await db.query(
            `SELECT count(*)::int AS count FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        )[0].count > 0;
      while (!settled && !(await waiting())) await new Promise((resolve) => setTimeout(resolve, 20));
      return holdings;
    });
    try {
      clock.advance(7 * 86_400_000);
      await maintenance.ensureFresh();
      expect(reweigh).toHaveBeenCalled();
      await change;
    } finally {
      reweigh.mockRestore();
    }
    expect(await asOf()).not.toBe(before);
    expect(await heldEdges(user)).toEqual([
      { symbol: 'JPM', quantity: 5 },
      { symbol: 'XOM', quantity: 5 },
    ]);
    expect((await graph.userSources(user.id)).ledgerVersion).toBe(ledgerVersion + 1);
  });

  it("records every user's trades while the graph is weighed again at a close, the edges catching up once it ends", async () => {
    const users = await Promise.all(Array.from({ length: 11 }, () => registerUser(sut)));
    for (const user of users) {
      await buy(user, 'JPM', 1);
      await recordedLedgerVersion(user);
    }
    // The reweighing holds every user's node until it ends, so each write of the holdings after
    // a trade waits for it. Were they to wait one connection each, a burst of trades (here two by
    // each of 11 users) would take the whole pool (10) and the trades would get no connection.
    const tradesEach = 2;
    const statuses = await db.transaction(async (manager) => {
      await manager.query(
        `SELECT count(*) FROM (SELECT 1 FROM graph_nodes WHERE kind = 'user' FOR UPDATE) AS locked`,
      );
      const answered: number[] = [];
      for (let trade = 0; trade < tradesEach; trade += 1) {
        for (const user of users) {
          answered.push((await postBuy(user, 'XOM', 1)).response.status);
        }
      }
      return answered;
    });
    expect(statuses).toEqual(Array<number>(users.length * tradesEach).fill(201));
    for (const user of users) {
      await recordedLedgerVersion(user);
      expect(await heldEdges(user)).toEqual([
        { symbol: 'JPM', quantity: 1 },
        { symbol: 'XOM', quantity: tradesEach },
      ]);
    }
  });
});
