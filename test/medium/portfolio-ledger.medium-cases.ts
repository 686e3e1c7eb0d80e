import { DataSource } from 'typeorm';
import { MarketService } from '../../src/modules/market/market.service';
import { newLedger, newUser } from './builders';
import { refusal } from './domain-outcomes';
import { MediumModule } from './medium-module';
import { PortfolioTier, portfolioOf } from './portfolio-module';

/** The ledger's rules (oversells, average cost, realized P&L, deletions) and its valuation. */
export function ledgerRules(tier: PortfolioTier): void {
  describe('portfolio ledger, positions and summary (medium)', () => {
    const { clock } = tier;
    let medium: MediumModule;

    beforeAll(() => {
      medium = tier.medium();
      clock.set(new Date());
    });

    const portfolio = () => portfolioOf(medium);
    const user = () => newUser(medium);
    const quote = (symbol: string) => medium.get(MarketService).getQuote(symbol);
    const insufficient = (symbol: string) =>
      refusal('rule-violation', `Insufficient quantity of ${symbol} to sell`);

    it('values an empty portfolio at zero, with no positions, no performance and an empty ledger', async () => {
      const owner = await user();
      expect(await portfolio().positions(owner)).toEqual([]);
      expect(await portfolio().summary(owner)).toMatchObject({
        totalValue: 0,
        totalCost: 0,
        unrealizedPnl: 0,
        realizedPnl: 0,
        dayChange: 0,
        positionsCount: 0,
        sectorAllocation: [],
        bestPerformer: null,
        worstPerformer: null,
        performance: { '1M': null, '3M': null, YTD: null, '1Y': null, ALL: null },
        moneyWeightedPerformance: { '1M': null, '3M': null, YTD: null, '1Y': null, ALL: null },
        asOf: clock.now(),
      });
      expect(await portfolio().list(owner)).toEqual({ transactions: [], total: 0, skip: 0, limit: 100 });
    });

    it('records a transaction with its symbol upper-cased, in the default account, stamped by the clock', async () => {
      const owner = await user();
      const recorded = await portfolio().record(owner, {
        symbol: 'aapl',
        side: 'buy',
        quantity: 10,
        price: 150.25,
        executed_at: '2025-01-06T15:30:00Z',
        fees: 1,
        note: 'first lot',
      });
      expect(recorded).toMatchObject({
        id: expect.any(Number),
        accountId: expect.any(Number),
        symbol: 'AAPL',
        side: 'buy',
        quantity: 10,
        price: 150.25,
        fees: 1,
        executedAt: new Date('2025-01-06T15:30:00Z'),
        note: 'first lot',
        realizedPnl: null,
        createdAt: clock.now(),
      });
      expect(recorded.updatedAt ?? null).toBeNull();
    });

    it('refuses a sell beyond the quantity held at its date, also when back-dated before a later sell', async () => {
      const owner = await user();
      await newLedger(medium, owner, [
        { symbol: 'MSFT', side: 'buy', quantity: 10, price: 50, executed_at: '2025-02-03' },
        { symbol: 'MSFT', side: 'sell', quantity: 8, price: 60, executed_at: '2025-04-01' },
      ]);
      const sell = (quantity: number, price: number, executed_at: string) =>
        portfolio().record(owner, { symbol: 'MSFT', side: 'sell', quantity, price, executed_at });

      await expect(sell(3, 60, '2025-05-01')).rejects.toEqual(insufficient('MSFT'));
      // 10 held in March; selling 3 then leaves 7 for April's sell of 8
      await expect(sell(3, 55, '2025-03-01')).rejects.toEqual(insufficient('MSFT'));
      await expect(sell(1, 55, '2025-01-02')).rejects.toEqual(insufficient('MSFT'));
      expect((await portfolio().list(owner)).total).toBe(2);
    });

    it('keeps average cost and realized P&L current, and refuses deletes that break a later sell', async () => {
      const owner = await user();
      const [buy1, , sell] = await newLedger(medium, owner, [
        { symbol: 'XOM', side: 'buy', quantity: 10, price: 150, executed_at: '2025-01-06', fees: 1 },
        { symbol: 'XOM', side: 'buy', quantity: 10, price: 170, executed_at: '2025-02-03', fees: 1 },
        { symbol: 'XOM', side: 'sell', quantity: 5, price: 200, executed_at: '2025-03-03', fees: 2 },
      ]);
      // average cost 3202 / 20 = 160.1; selling 5 @ 200 with 2 fees realizes 1000 - 2 - 800.5 = 197.5
      expect(sell.realizedPnl).toBeCloseTo(197.5, 2);
      const realizedOfSell = async () =>
        (await portfolio().list(owner, { symbol: 'xom' })).transactions.find(({ id }) => id === sell.id)!
          .realizedPnl;

      // a back-dated buy of 5 @ 100 lowers the average to 3702 / 25 = 148.08 → 1000 - 2 - 740.4 = 257.6
      const backDated = await portfolio().record(owner, {
        symbol: 'XOM',
        side: 'buy',
        quantity: 5,
        price: 100,
        executed_at: '2025-01-02',
      });
      expect(await realizedOfSell()).toBeCloseTo(257.6, 2);

      await portfolio().remove(owner, backDated.id);
      expect((await portfolio().list(owner)).total).toBe(3);
      expect(await realizedOfSell()).toBeCloseTo(197.5, 2);

      // 15 held after the sell; deleting the first buy would leave 10 for the sell of 5: fine.
      // Deleting the second buy too would leave nothing for the sell.
      await portfolio().remove(owner, buy1.id);
      const second = (await portfolio().list(owner)).transactions.find(({ price }) => price === 170)!;
      await expect(portfolio().remove(owner, second.id)).rejects.toEqual(
        refusal(
          'rule-violation',
          'Cannot delete this transaction: a later sell of XOM would exceed the quantity held',
        ),
      );
    });

    it('values positions at live quotes, heaviest first, and sums them in the summary', async () => {
      const owner = await user();
      await newLedger(medium, owner, [
        { symbol: 'AAPL', side: 'buy', quantity: 10, price: 150, executed_at: '2025-01-06', fees: 1 },
        { symbol: 'AAPL', side: 'buy', quantity: 10, price: 170, executed_at: '2025-02-03', fees: 1 },
        { symbol: 'AAPL', side: 'sell', quantity: 5, price: 200, executed_at: '2025-03-03', fees: 2 },
        { symbol: 'JNJ', side: 'buy', quantity: 4, price: 120, executed_at: '2025-03-03' },
        { symbol: 'XOM', side: 'buy', quantity: 3, price: 90, executed_at: '2025-03-04' },
      ]);
      // Positions are valued at cent prices, as the market routes show them; the replay's quotes
      // carry fractions of a cent while its session is open.
      const cents = (value: number) => Math.round(value * 100) / 100;
      const atCents = async (symbol: string) => {
        const { price, previousClose } = await quote(symbol);
        const change = cents(price) - cents(previousClose);
        return { price: cents(price), change, changePercent: (100 * change) / cents(previousClose) };
      };
      const quotes = { AAPL: await atCents('AAPL'), JNJ: await atCents('JNJ'), XOM: await atCents('XOM') };

      const positions = await portfolio().positions(owner);
      const expected = [
        { symbol: 'AAPL', quantity: 15, costBasis: 2401.5, sector: 'technology' },
        { symbol: 'JNJ', quantity: 4, costBasis: 480, sector: 'healthcare' },
        { symbol: 'XOM', quantity: 3, costBasis: 270, sector: 'energy' },
      ] as const;
      const total = expected.reduce((sum, row) => sum + row.quantity * quotes[row.symbol].price, 0);
      for (const row of expected) {
        const stock = quotes[row.symbol];
        const marketValue = row.quantity * stock.price;
        expect(positions.find((candidate) => candidate.symbol === row.symbol)).toEqual({
          symbol: row.symbol,
          quantity: row.quantity,
          currentPrice: stock.price,
          costBasis: expect.closeTo(row.costBasis, 2),
          marketValue: expect.closeTo(marketValue, 2),
          unrealizedPnl: expect.closeTo(marketValue - row.costBasis, 2),
          unrealizedPnlPercent: expect.closeTo((100 * (marketValue - row.costBasis)) / row.costBasis, 3),
          dayChange: expect.closeTo(row.quantity * stock.change, 1),
          dayChangePercent: expect.closeTo(stock.changePercent, 1),
          weight: expect.closeTo((100 * marketValue) / total, 3),
          sector: row.sector,
          lastUpdated: clock.now(),
        });
      }
      const weights = positions.map(({ weight }) => weight);
      expect(weights.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 2);
      expect([...weights].sort((a, b) => b - a)).toEqual(weights);

      const summary = await portfolio().summary(owner);
      const sum = (field: 'marketValue' | 'dayChange') =>
        positions.reduce((acc, position) => acc + position[field], 0);
      expect(summary.totalValue).toBeCloseTo(sum('marketValue'), 1);
      expect(summary.totalCost).toBeCloseTo(3151.5, 2);
      expect(summary.unrealizedPnl).toBeCloseTo(summary.totalValue - summary.totalCost, 1);
      expect(summary.realizedPnl).toBeCloseTo(197.5, 2);
      expect(summary.dayChange).toBeCloseTo(sum('dayChange'), 1);
      expect(summary.positionsCount).toBe(3);
      expect(summary.sectorAllocation.map(({ sector }) => sector).sort()).toEqual([
        'energy',
        'healthcare',
        'technology',
      ]);
      const byPnl = [...positions].sort((a, b) => b.unrealizedPnlPercent - a.unrealizedPnlPercent);
      expect(summary.bestPerformer).toMatchObject({
        symbol: byPnl[0].symbol,
        unrealizedPnlPercent: expect.closeTo(byPnl[0].unrealizedPnlPercent, 3),
      });
      expect(summary.worstPerformer!.symbol).toBe(byPnl[2].symbol);
    });

    it('lists the ledger newest first with filters and paging, and knows no missing transaction', async () => {
      const owner = await user();
      await newLedger(
        medium,
        owner,
        [
          ['AAPL', '2025-01-06'],
          ['MSFT', '2025-02-03'],
          ['AAPL', '2025-03-03'],
          ['XOM', '2025-04-01'],
        ].map(([symbol, day]) => ({ symbol, side: 'buy', quantity: 1, price: 10, executed_at: day })),
      );
      const days = (await portfolio().list(owner)).transactions.map(({ executedAt }) =>
        executedAt.toISOString().slice(0, 10),
      );
      expect(days).toEqual(['2025-04-01', '2025-03-03', '2025-02-03', '2025-01-06']);
      expect((await portfolio().list(owner, { symbol: 'aapl' })).total).toBe(2);
      const window = await portfolio().list(owner, { from: '2025-02-01', to: '2025-03-03' });
      expect(window.transactions.map(({ symbol }) => symbol)).toEqual(['AAPL', 'MSFT']);
      const page = await portfolio().list(owner, { skip: 1, limit: 2 });
      expect(page).toMatchObject({ total: 4, skip: 1, limit: 2 });
      expect(page.transactions.map(({ symbol }) => symbol)).toEqual(['AAPL', 'MSFT']);

      await expect(portfolio().remove(owner, 999_999)).rejects.toEqual(
        refusal('not-found', 'Transaction not found'),
      );
    });

    it('isolates users: nobody sees, values or deletes another user’s trades', async () => {
      const [owner, other] = [await user(), await user()];
      const trade = await portfolio().record(owner, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 2,
        price: 100,
        executed_at: '2025-01-06',
      });

      expect((await portfolio().list(other)).total).toBe(0);
      expect(await portfolio().positions(other)).toEqual([]);
      expect((await portfolio().summary(other)).positionsCount).toBe(0);
      await expect(
        portfolio().record(other, {
          symbol: 'AAPL',
          side: 'sell',
          quantity: 1,
          price: 100,
          executed_at: '2025-02-03',
        }),
      ).rejects.toEqual(insufficient('AAPL'));
      await expect(portfolio().remove(other, trade.id)).rejects.toEqual(
        refusal('not-found', 'Transaction not found'),
      );
      expect((await portfolio().list(owner)).total).toBe(1);
    });

    it('serialises concurrent sells so that they never exceed the holding', async () => {
      const owner = await user();
      await newLedger(medium, owner, [
        { symbol: 'AAPL', side: 'buy', quantity: 10, price: 100, executed_at: '2025-01-06' },
      ]);
      const sells = await Promise.allSettled(
        Array.from({ length: 6 }, () =>
          portfolio().record(owner, {
            symbol: 'AAPL',
            side: 'sell',
            quantity: 3,
            price: 110,
            executed_at: '2025-02-03',
          }),
        ),
      );
      expect(sells.filter(({ status }) => status === 'fulfilled')).toHaveLength(3);
      for (const sell of sells.filter((settled) => settled.status === 'rejected'))
        expect(sell.reason).toEqual(insufficient('AAPL'));
      const [position] = await portfolio().positions(owner);
      expect(position.quantity).toBe(1);
      const rows = await medium
        .get(DataSource)
        .query('SELECT count(*)::int AS count FROM portfolio_transactions WHERE user_id = $1', [owner.id]);
      expect(rows[0].count).toBe(4);
    });
  });
}
