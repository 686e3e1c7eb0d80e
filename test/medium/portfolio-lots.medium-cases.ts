import { newLedger, newUser } from './builders';
import { MediumModule } from './medium-module';
import { PortfolioTier, portfolioOf } from './portfolio-module';

/** FIFO tax lots: which lots a sell closes, their holding periods, and the realized gains of a year. */
export function lotRules(tier: PortfolioTier): void {
  describe('open tax lots and realized gains: FIFO (medium)', () => {
    const { clock } = tier;
    let medium: MediumModule;

    beforeAll(() => {
      medium = tier.medium();
      clock.set('2025-03-12T22:00:00Z');
    });

    const portfolio = () => portfolioOf(medium);

    it('closes the oldest lots first and dates each remaining lot', async () => {
      const owner = await newUser(medium);
      expect(await portfolio().lots(owner)).toEqual({ method: 'fifo', lots: [], asOf: clock.now() });
      const [msftLot, , aaplLot] = await newLedger(medium, owner, [
        { symbol: 'MSFT', side: 'buy', quantity: 1, price: 300, executed_at: '2023-06-01' },
        { symbol: 'AAPL', side: 'buy', quantity: 10, price: 100, executed_at: '2024-01-05' },
        { symbol: 'AAPL', side: 'buy', quantity: 5, price: 200, fees: 5, executed_at: '2025-01-06' },
        // 12 sold: all 10 of January 2024, then 2 of the 5 of January 2025
        { symbol: 'AAPL', side: 'sell', quantity: 12, price: 150, fees: 1, executed_at: '2025-02-03' },
      ]);

      const positions = await portfolio().positions(owner);
      const priceOf = (symbol: string) =>
        positions.find((position) => position.symbol === symbol)!.currentPrice;
      const [aapl, msft] = [priceOf('AAPL'), priceOf('MSFT')];
      expect((await portfolio().lots(owner)).lots).toEqual([
        {
          lotId: aaplLot.id,
          accountId: aaplLot.accountId,
          symbol: 'AAPL',
          acquiredOn: '2025-01-06',
          quantity: 3,
          // (5 × 200 + 5) / 5
          costPerShare: 201,
          costBasis: expect.closeTo(603, 2),
          currentPrice: aapl,
          marketValue: expect.closeTo(3 * aapl, 2),
          unrealizedPnl: expect.closeTo(3 * aapl - 603, 2),
          unrealizedPnlPercent: expect.closeTo((100 * (3 * aapl - 603)) / 603, 3),
          // Jan 6 → Mar 12: 25 + 28 + 12
          holdingDays: 65,
          term: 'short',
        },
        {
          lotId: msftLot.id,
          accountId: msftLot.accountId,
          symbol: 'MSFT',
          acquiredOn: '2023-06-01',
          quantity: 1,
          costPerShare: 300,
          costBasis: 300,
          currentPrice: msft,
          marketValue: expect.closeTo(msft, 2),
          unrealizedPnl: expect.closeTo(msft - 300, 2),
          unrealizedPnlPercent: expect.closeTo((100 * (msft - 300)) / 300, 3),
          // 366 days to 2024-06-01 (29 Feb 2024 between), 273 to 2025-03-01, 11 more
          holdingDays: 650,
          term: 'long',
        },
      ]);
      // the positions keep their average cost: AAPL 3 shares at (1,000 + 1,005) / 15 each
      expect(positions.find((position) => position.symbol === 'AAPL')!.costBasis).toBeCloseTo(
        (3 * 2005) / 15,
        2,
      );
    });

    it('reports the realized gains of a year by closed lot portion, short- and long-term', async () => {
      const owner = await newUser(medium);
      const [, , sell] = await newLedger(medium, owner, [
        { symbol: 'AAPL', side: 'buy', quantity: 10, price: 100, executed_at: '2024-01-05' },
        { symbol: 'AAPL', side: 'buy', quantity: 5, price: 200, fees: 5, executed_at: '2025-01-06' },
        { symbol: 'AAPL', side: 'sell', quantity: 12, price: 150, fees: 1, executed_at: '2025-02-03' },
      ]);

      // net proceeds 12 × 150 − 1 = 1,799, shared 10 : 2
      const expected = {
        year: 2025,
        method: 'fifo',
        portions: [
          {
            symbol: 'AAPL',
            sellId: sell.id,
            acquiredOn: '2024-01-05',
            disposedOn: '2025-02-03',
            quantity: 10,
            proceeds: expect.closeTo(1499.17, 2),
            cost: 1000,
            gain: expect.closeTo(499.17, 2),
            term: 'long',
          },
          {
            symbol: 'AAPL',
            sellId: sell.id,
            acquiredOn: '2025-01-06',
            disposedOn: '2025-02-03',
            quantity: 2,
            proceeds: expect.closeTo(299.83, 2),
            // 2 × 201
            cost: expect.closeTo(402, 2),
            gain: expect.closeTo(-102.17, 2),
            term: 'short',
          },
        ],
        totals: {
          proceeds: expect.closeTo(1799, 2),
          cost: expect.closeTo(1402, 2),
          gain: expect.closeTo(397, 2),
          shortTermGain: expect.closeTo(-102.17, 2),
          longTermGain: expect.closeTo(499.17, 2),
        },
        asOf: clock.now(),
      };
      expect(await portfolio().realized(owner, 2025)).toEqual(expected);
      // the year defaults to New York's current one
      expect(await portfolio().realized(owner)).toEqual(expected);
      expect(await portfolio().realized(owner, 2024)).toMatchObject({
        year: 2024,
        portions: [],
        totals: { proceeds: 0, cost: 0, gain: 0, shortTermGain: 0, longTermGain: 0 },
      });
      // average cost stays the summary's realized P&L: 12 × 149.9167 − 12 × 2,005 / 15
      expect((await portfolio().summary(owner)).realizedPnl).toBeCloseTo(1799 - (12 * 2005) / 15, 2);
    });
  });
}
