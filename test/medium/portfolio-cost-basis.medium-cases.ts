import { DataSource } from 'typeorm';
import { newLedger, newUser } from './builders';
import { fieldProblem, invalidFields, refusal } from './domain-outcomes';
import { MediumModule } from './medium-module';
import { PortfolioTier, portfolioOf, TransactionCommand } from './portfolio-module';

const twelveSold = {
  symbol: 'AAPL',
  side: 'sell',
  quantity: 12,
  price: 150,
  fees: 1,
  executed_at: '2025-02-03',
};

/** The cost-basis settings, the figures each method gives, and the rules of naming lots. */
export function costBasisRules(tier: PortfolioTier): void {
  describe('Cost-basis methods: settings, specific lots and every cost figure by the method (medium)', () => {
    const { clock } = tier;
    let medium: MediumModule;

    beforeAll(() => {
      medium = tier.medium();
      clock.set('2025-03-12T22:00:00Z');
    });

    const portfolio = () => portfolioOf(medium);
    const user = () => newUser(medium);

    /** Lot 1: 10 AAPL at 100 (2024-01-05); lot 2: 5 AAPL at 200 + 5 fees = 201 a share (2025-01-06). */
    async function twoLots(owner: { id: number }): Promise<{ first: number; second: number }> {
      const [first, second] = await newLedger(medium, owner, [
        { symbol: 'AAPL', side: 'buy', quantity: 10, price: 100, executed_at: '2024-01-05' },
        { symbol: 'AAPL', side: 'buy', quantity: 5, price: 200, fees: 5, executed_at: '2025-01-06' },
      ]);
      return { first: first.id, second: second.id };
    }

    it('keeps per-user settings: defaults first, any subset changed', async () => {
      const [owner, other] = [await user(), await user()];
      expect(await portfolio().settings(owner)).toEqual({ costBasisMethod: 'average', strictCash: false });
      expect(await portfolio().updateSettings(owner, { strictCash: true })).toEqual({
        costBasisMethod: 'average',
        strictCash: true,
      });
      expect(await portfolio().updateSettings(owner, { costBasisMethod: 'fifo' })).toEqual({
        costBasisMethod: 'fifo',
        strictCash: true,
      });
      expect(await portfolio().settings(owner)).toEqual({ costBasisMethod: 'fifo', strictCash: true });
      expect(await portfolio().updateSettings(owner, {})).toEqual({
        costBasisMethod: 'fifo',
        strictCash: true,
      });
      // another user's settings are their own
      expect(await portfolio().settings(other)).toEqual({ costBasisMethod: 'average', strictCash: false });
    });

    it('computes positions, summary, lots, realized gains and realized P&L by the method', async () => {
      const owner = await user();
      const { first, second } = await twoLots(owner);
      // the sell names all of lot 2 and 7 of lot 1; under average and fifo the names are kept, not used
      const { id: sell } = await portfolio().record(owner, {
        ...twelveSold,
        lots: [
          { lot_id: second, quantity: 5 },
          { lot_id: first, quantity: 7 },
        ],
      });
      const aapl = async () => {
        const [position] = await portfolio().positions(owner);
        const summary = await portfolio().summary(owner);
        const { transactions } = await portfolio().list(owner);
        return {
          quantity: position.quantity,
          price: position.currentPrice,
          costBasis: position.costBasis,
          unrealized: position.unrealizedPnl,
          totalCost: summary.totalCost,
          realized: summary.realizedPnl,
          sellRealized: transactions.find((transaction) => transaction.id === sell)!.realizedPnl,
        };
      };
      const figures = (expected: Record<string, number>) =>
        Object.fromEntries(Object.entries(expected).map(([key, value]) => [key, expect.closeTo(value, 2)]));

      // average: 3 × (1,000 + 1,005) / 15 = 401 left; 1,799 − 12 × 2,005 / 15 = 195 realized
      const average = await aapl();
      expect(average).toMatchObject(
        figures({ quantity: 3, costBasis: 401, totalCost: 401, realized: 195, sellRealized: 195 }),
      );
      expect(average.unrealized).toBeCloseTo(3 * average.price - 401, 2);

      // fifo: the 10 of lot 1 and 2 of lot 2 are sold (1,402); 3 of lot 2 left = 603; 1,799 − 1,402 = 397
      await portfolio().updateSettings(owner, { costBasisMethod: 'fifo' });
      const fifo = await aapl();
      expect(fifo).toMatchObject(
        figures({ quantity: 3, costBasis: 603, totalCost: 603, realized: 397, sellRealized: 397 }),
      );
      expect(fifo.unrealized).toBeCloseTo(3 * fifo.price - 603, 2);
      const fifoLots = await portfolio().lots(owner);
      expect(fifoLots.method).toBe('fifo');
      expect(fifoLots.lots).toMatchObject([
        {
          lotId: second,
          quantity: 3,
          costPerShare: expect.closeTo(201, 2),
          costBasis: expect.closeTo(603, 2),
        },
      ]);

      // specific: 5 × 201 + 7 × 100 = 1,705 sold; 3 of lot 1 left = 300; 1,799 − 1,705 = 94
      await portfolio().updateSettings(owner, { costBasisMethod: 'specific' });
      const specific = await aapl();
      expect(specific).toMatchObject(
        figures({ quantity: 3, costBasis: 300, totalCost: 300, realized: 94, sellRealized: 94 }),
      );
      expect(specific.unrealized).toBeCloseTo(3 * specific.price - 300, 2);
      expect(await portfolio().lots(owner)).toMatchObject({
        method: 'specific',
        lots: [
          {
            lotId: first,
            symbol: 'AAPL',
            acquiredOn: '2024-01-05',
            quantity: 3,
            costPerShare: 100,
            costBasis: 300,
            // 362 days from 2024-01-05 to 2025-01-01, then 31 + 28 + 11
            holdingDays: 432,
            term: 'long',
          },
        ],
      });
      // net proceeds 1,799 = 149.91667 a share: 7 → 1,049.42, 5 → 749.58 (one sell's portions in lot order)
      expect(await portfolio().realized(owner, 2025)).toEqual({
        year: 2025,
        method: 'specific',
        portions: [
          {
            symbol: 'AAPL',
            sellId: sell,
            acquiredOn: '2024-01-05',
            disposedOn: '2025-02-03',
            quantity: 7,
            proceeds: expect.closeTo(1049.42, 2),
            cost: 700,
            gain: expect.closeTo(349.42, 2),
            term: 'long',
          },
          {
            symbol: 'AAPL',
            sellId: sell,
            acquiredOn: '2025-01-06',
            disposedOn: '2025-02-03',
            quantity: 5,
            proceeds: expect.closeTo(749.58, 2),
            cost: expect.closeTo(1005, 2),
            gain: expect.closeTo(-255.42, 2),
            term: 'short',
          },
        ],
        totals: {
          proceeds: expect.closeTo(1799, 2),
          cost: expect.closeTo(1705, 2),
          gain: expect.closeTo(94, 2),
          shortTermGain: expect.closeTo(-255.42, 2),
          longTermGain: expect.closeTo(349.42, 2),
        },
        asOf: clock.now(),
      });

      // a sell naming no lot closes the oldest under specific: 1 more of lot 1 at 150, cost 100
      const plain = await portfolio().record(owner, {
        symbol: 'AAPL',
        side: 'sell',
        quantity: 1,
        price: 150,
        executed_at: '2025-03-03',
      });
      expect(plain.realizedPnl).toBeCloseTo(50, 2);
      expect((await portfolio().lots(owner)).lots).toMatchObject([{ lotId: first, quantity: 2 }]);

      // back to average: the old figures, from the same ledger (2 × 2,005 / 15 = 267.33 left)
      await portfolio().updateSettings(owner, { costBasisMethod: 'average' });
      const back = await aapl();
      expect(back).toMatchObject(figures({ quantity: 2, costBasis: 267.33, sellRealized: 195 }));
      // 195 + (150 − 133.67) = 211.33
      expect(back.realized).toBeCloseTo(211.33, 2);
    });

    it('refuses lots that are not the sell’s to name, and stores nothing', async () => {
      const [owner, stranger] = [await user(), await user()];
      const { first, second } = await twoLots(owner);
      const [msft] = await newLedger(medium, owner, [
        { symbol: 'MSFT', side: 'buy', quantity: 20, price: 300, executed_at: '2024-06-03' },
      ]);
      const [theirs] = await newLedger(medium, stranger, [
        { symbol: 'AAPL', side: 'buy', quantity: 20, price: 100, executed_at: '2024-01-05' },
      ]);
      const refused = (command: TransactionCommand, path: (string | number)[], message: string) =>
        expect(portfolio().record(owner, command)).rejects.toEqual(
          invalidFields(fieldProblem(path, message)),
        );
      const notOpen = (lot: number) => `Lot ${lot} is not an open AAPL lot at the time of the sell`;

      await refused(
        {
          symbol: 'AAPL',
          side: 'buy',
          quantity: 1,
          price: 1,
          executed_at: '2025-02-03',
          lots: [{ lot_id: first, quantity: 1 }],
        },
        ['lots'],
        'Only a sell can name the lots it closes',
      );
      await refused(
        { ...twelveSold, lots: [{ lot_id: first, quantity: 5 }] },
        ['lots'],
        "The lots' quantities must add up to the 12 shares sold",
      );
      await refused(
        {
          ...twelveSold,
          lots: [
            { lot_id: first, quantity: 6 },
            { lot_id: first, quantity: 6 },
          ],
        },
        ['lots', 1, 'lot_id'],
        `Lot ${first} is named more than once`,
      );
      for (const lot of [msft.id, theirs.id, 999_999_999])
        await refused(
          { ...twelveSold, lots: [{ lot_id: lot, quantity: 12 }] },
          ['lots', 0, 'lot_id'],
          notOpen(lot),
        );
      await refused(
        {
          ...twelveSold,
          lots: [
            { lot_id: second, quantity: 6 },
            { lot_id: first, quantity: 6 },
          ],
        },
        ['lots', 0, 'quantity'],
        `Lot ${second} has only 5 AAPL open at the time of the sell`,
      );
      // lot 2 is bought after a sell of 2024-06-03
      await refused(
        { ...twelveSold, quantity: 5, executed_at: '2024-06-03', lots: [{ lot_id: second, quantity: 5 }] },
        ['lots', 0, 'lot_id'],
        notOpen(second),
      );
      expect((await portfolio().list(owner)).total).toBe(3);
    });

    it('refuses to delete or back-date around a named lot, and frees it with its sell', async () => {
      const owner = await user();
      const { first, second } = await twoLots(owner);
      // lot 3: 10 AAPL at 150 on 2025-01-10
      const [{ id: third }, { id: sell }] = await newLedger(medium, owner, [
        { symbol: 'AAPL', side: 'buy', quantity: 10, price: 150, executed_at: '2025-01-10' },
        {
          ...twelveSold,
          lots: [
            { lot_id: second, quantity: 5 },
            { lot_id: first, quantity: 7 },
          ],
        },
      ]);

      await expect(portfolio().remove(owner, second)).rejects.toEqual(
        refusal(
          'conflict',
          `Cannot delete this transaction: the sell ${sell} names lot ${second}, which would not stay open for it`,
        ),
      );
      // a sell of 4 before it, naming nothing, would close 4 of lot 1 first (FIFO), leaving 6 of the 7 named
      const fourSold = { symbol: 'AAPL', side: 'sell', quantity: 4, price: 120, executed_at: '2025-01-20' };
      await expect(portfolio().record(owner, fourSold)).rejects.toEqual(
        refusal(
          'conflict',
          `Cannot record this transaction: the sell ${sell} names lot ${first}, which would not stay open for it`,
        ),
      );
      // naming lot 3 instead leaves lot 1 alone
      await portfolio().record(owner, { ...fourSold, lots: [{ lot_id: third, quantity: 4 }] });
      expect((await portfolio().list(owner)).total).toBe(5);

      await portfolio().remove(owner, sell);
      await portfolio().remove(owner, second);
      expect((await portfolio().list(owner)).total).toBe(3);
    });

    it('lets only one of two concurrent sells name the same shares', async () => {
      const owner = await user();
      const { second } = await twoLots(owner);
      // each sells 5 of the 15 held, naming all 5 of lot 2: the ledger lock lets one in first
      const sells = await Promise.allSettled(
        [1, 2].map(() =>
          portfolio().record(owner, {
            symbol: 'AAPL',
            side: 'sell',
            quantity: 5,
            price: 150,
            executed_at: '2025-02-03',
            lots: [{ lot_id: second, quantity: 5 }],
          }),
        ),
      );
      expect(sells.map(({ status }) => status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = sells.find((settled) => settled.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toEqual(
        invalidFields(
          fieldProblem(
            ['lots', 0, 'lot_id'],
            `Lot ${second} is not an open AAPL lot at the time of the sell`,
          ),
        ),
      );
      const count = await medium
        .get(DataSource)
        .query('SELECT count(*)::int AS count FROM portfolio_transactions WHERE user_id = $1', [owner.id]);
      expect(count[0].count).toBe(3);
    });
  });
}
