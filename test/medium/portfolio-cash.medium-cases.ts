import { MarketService } from '../../src/modules/market/market.service';
import { newLedger, newUser } from './builders';
import { fieldProblem, invalidFields, refusal } from './domain-outcomes';
import { MediumModule } from './medium-module';
import { PortfolioTier, portfolioOf } from './portfolio-module';

// The hand-computed ledger of docs/portfolio.md ("Dividends, splits and cash"):
//   01-02 deposit 10,000                          cash 10,000
//   01-06 buy 10 AAPL @ 150, fees 1               cash  8,499        cost basis 1,501
//   02-14 dividend AAPL 2.50, 0.38 withheld       cash  8,501.12
//   03-03 split AAPL 4:1                          40 shares, cost basis 1,501
//   03-04 interest 1.25                           cash  8,502.37
//   03-05 fee 3 on AAPL, fee 5 on the account     cash  8,494.37
//   03-06 withdrawal 500                          cash  7,994.37
//   03-07 sell 4 AAPL @ 40                        cash  8,154.37     realized 160 − 1,501 × 4/40 = 9.90
const LEDGER = [
  { side: 'deposit', amount: 10000, executed_at: '2025-01-02' },
  { symbol: 'AAPL', side: 'buy', quantity: 10, price: 150, fees: 1, executed_at: '2025-01-06' },
  { symbol: 'AAPL', side: 'dividend', amount: 2.5, withholding_tax: 0.38, executed_at: '2025-02-14' },
  { symbol: 'AAPL', side: 'split', ratio: '4:1', executed_at: '2025-03-03' },
  { side: 'interest', amount: 1.25, executed_at: '2025-03-04' },
  { symbol: 'AAPL', side: 'fee', amount: 3, executed_at: '2025-03-05', note: 'custody' },
  { side: 'fee', amount: 5, executed_at: '2025-03-05' },
  { side: 'withdrawal', amount: 500, executed_at: '2025-03-06' },
  { symbol: 'AAPL', side: 'sell', quantity: 4, price: 40, executed_at: '2025-03-07' },
];

/** Dividends, splits and cash in the ledger: their fields, figures, position rules and strict cash. */
export function cashRules(tier: PortfolioTier): void {
  describe('Ledger kinds beyond buy and sell: dividends, splits, cash and income (medium)', () => {
    const { clock } = tier;
    let medium: MediumModule;

    beforeAll(() => {
      medium = tier.medium();
      clock.set('2025-03-12T22:00:00Z');
    });

    const portfolio = () => portfolioOf(medium);
    const user = () => newUser(medium);

    it('records every kind with its own fields, and values the ledger they make', async () => {
      const owner = await user();
      const recorded = await newLedger(medium, owner, LEDGER);
      const day = (date: string) => new Date(`${date}T00:00:00.000Z`);
      expect(recorded).toEqual([
        expect.objectContaining({
          symbol: null,
          side: 'deposit',
          amount: 10000,
          executedAt: day('2025-01-02'),
        }),
        expect.objectContaining({
          symbol: 'AAPL',
          side: 'buy',
          quantity: 10,
          price: 150,
          fees: 1,
          realizedPnl: null,
        }),
        expect.objectContaining({ symbol: 'AAPL', side: 'dividend', amount: 2.5, withholdingTax: 0.38 }),
        expect.objectContaining({ symbol: 'AAPL', side: 'split', splitTo: 4, splitFrom: 1 }),
        expect.objectContaining({ symbol: null, side: 'interest', amount: 1.25 }),
        expect.objectContaining({ symbol: 'AAPL', side: 'fee', amount: 3, note: 'custody' }),
        expect.objectContaining({ symbol: null, side: 'fee', amount: 5, note: null }),
        expect.objectContaining({ symbol: null, side: 'withdrawal', amount: 500 }),
        expect.objectContaining({ symbol: 'AAPL', side: 'sell', quantity: 4, price: 40, fees: 0 }),
      ]);
      expect(recorded[8].realizedPnl).toBeCloseTo(9.9, 2);
      expect(recorded.every(({ createdAt }) => createdAt.getTime() === clock.now().getTime())).toBe(true);

      const [position] = await portfolio().positions(owner);
      expect(position).toMatchObject({ symbol: 'AAPL', quantity: 36, costBasis: expect.closeTo(1350.9, 2) });
      expect(position.weight).toBe(100);

      const plain = await portfolio().summary(owner);
      expect(plain.cash).toBeUndefined();
      expect(plain.totalCost).toBeCloseTo(1350.9, 2);
      expect(plain.realizedPnl).toBeCloseTo(9.9, 2);
      const withCash = await portfolio().summary(owner, true);
      expect(withCash.cash!.balance).toBeCloseTo(8154.37, 2);
      expect(withCash.cash!.totalValueWithCash).toBeCloseTo(36 * position.currentPrice + 8154.37, 2);

      const [lot] = (await portfolio().lots(owner)).lots;
      // (10 × 150 + 1) / 10 = 150.1 a share before the split, a quarter of it after
      expect(lot).toMatchObject({
        symbol: 'AAPL',
        acquiredOn: '2025-01-06',
        quantity: 36,
        costBasis: expect.closeTo(1350.9, 2),
      });
      expect(lot.costPerShare).toBeCloseTo(37.525, 4);
    });

    it('reports the income of a period by month and by symbol, and the trailing yields of today’s holdings', async () => {
      const owner = await user();
      await newLedger(medium, owner, LEDGER);
      const price = (await portfolio().positions(owner))[0].currentPrice;
      const income = await portfolio().income(owner, 'YTD');
      const amounts = (gross: number, withheld: number, interest: number) => ({
        dividendsGross: expect.closeTo(gross, 2),
        withholdingTax: expect.closeTo(withheld, 2),
        dividendsNet: expect.closeTo(gross - withheld, 2),
        interest: expect.closeTo(interest, 2),
      });
      expect(income).toMatchObject({
        period: 'YTD',
        totals: amounts(2.5, 0.38, 1.25),
        byMonth: [
          { month: '2025-02', ...amounts(2.5, 0.38, 0) },
          { month: '2025-03', ...amounts(0, 0, 1.25) },
        ],
        bySymbol: [{ symbol: 'AAPL', gross: 2.5, withholdingTax: 0.38, net: expect.closeTo(2.12, 2) }],
        asOf: clock.now(),
      });
      // 2.5 / 1,350.90 = 0.18506…%
      expect(income.trailing12Months.dividendsGross).toBeCloseTo(2.5, 2);
      expect(income.trailing12Months.yieldOnCost).toBeCloseTo(0.1851, 4);
      expect(income.trailing12Months.yieldOnValue).toBeCloseTo((100 * 2.5) / (36 * price), 4);
      // A month back is February 12: the dividend of February 14 is in it, as is the interest
      expect((await portfolio().income(owner, '1M')).totals).toEqual(income.totals);

      const empty = await user();
      expect(await portfolio().income(empty, '1Y')).toMatchObject({
        period: '1Y',
        totals: amounts(0, 0, 0),
        byMonth: [],
        bySymbol: [],
        trailing12Months: { dividendsGross: 0, yieldOnCost: null, yieldOnValue: null },
      });
    });

    it('counts a dividend as income and a position fee as cost in the returns; cash movements not at all', async () => {
      const closeOn = async (date: string) =>
        (await medium.get(MarketService).getHistory('AAPL', { from: date, to: date })).bars[0].close;
      const [c0, c05, c06, c11, c12, cT] = await Promise.all(
        ['2025-01-02', '2025-02-05', '2025-02-06', '2025-02-11', '2025-02-12', '2025-03-12'].map(closeOn),
      );
      const owner = await user();
      await newLedger(medium, owner, [
        { side: 'deposit', amount: 1000, executed_at: '2025-01-02T15:00:00Z' },
        { symbol: 'AAPL', side: 'buy', quantity: 10, price: c0, executed_at: '2025-01-02T21:00:00Z' },
        {
          symbol: 'AAPL',
          side: 'dividend',
          amount: 6,
          withholding_tax: 1,
          executed_at: '2025-02-06T21:00:00Z',
        },
        { symbol: 'AAPL', side: 'fee', amount: 2, executed_at: '2025-02-12T21:00:00Z' },
        { side: 'interest', amount: 3, executed_at: '2025-02-20T21:00:00Z' },
        { side: 'withdrawal', amount: 100, executed_at: '2025-02-21T21:00:00Z' },
      ]);
      // 1 + r_d = (V_d + S_d) / (V_{d−1} + B_d): the dividend's 5 net is S on 02-06, the fee B on 02-12
      const growth =
        (c05 / c0) * ((10 * c06 + 5) / (10 * c05)) * (c11 / c06) * ((10 * c12) / (10 * c11 + 2)) * (cT / c12);
      const { performance } = await portfolio().summary(owner);
      expect(100 * performance.ALL!).toBeCloseTo(100 * (growth - 1), 3);
      // 1M starts after 02-12's close: only prices move in it
      expect(100 * performance['1M']!).toBeCloseTo(100 * (cT / c12 - 1), 3);
      const { points } = await portfolio().history(owner);
      // bought 10 × c0, took out the 5 of the dividend, put in the fee of 2
      expect(points[points.length - 1].netInvested).toBeCloseTo(10 * c0 - 5 + 2, 2);
    });

    it('values a ledger of cash alone: no positions, no returns, the balance', async () => {
      const owner = await user();
      await newLedger(medium, owner, [
        { side: 'deposit', amount: 250, executed_at: '2025-01-02' },
        { side: 'interest', amount: 0.5, executed_at: '2025-02-03' },
      ]);
      expect(await portfolio().summary(owner, true)).toMatchObject({
        totalValue: 0,
        positionsCount: 0,
        cash: { balance: 250.5, totalValueWithCash: 250.5 },
        performance: { '1M': null, '3M': null, YTD: null, '1Y': null, ALL: null },
      });
      const snapshot = await portfolio().snapshot(owner);
      expect(snapshot.positions).toEqual([]);
      expect(snapshot.replay.cashBalance).toBe(250.5);
      expect((await portfolio().history(owner)).points).toEqual([]);
    });

    it('refuses the fields a kind does not take, and values its rules forbid, at the field', async () => {
      const owner = await user();
      const cases: [object, unknown][] = [
        [
          { symbol: 'AAPL', side: 'deposit', amount: 10, executed_at: '2025-01-02' },
          invalidFields(fieldProblem(['symbol'], 'symbol is not accepted for a deposit')),
        ],
        [
          { symbol: 'AAPL', side: 'buy', quantity: 1, price: 10, amount: 10, executed_at: '2025-01-02' },
          invalidFields(fieldProblem(['amount'], 'amount is not accepted for a buy')),
        ],
        [
          { symbol: 'AAPL', side: 'dividend', amount: 1, withholding_tax: 2, executed_at: '2025-01-02' },
          invalidFields(fieldProblem(['withholding_tax'], 'withholding_tax must not exceed amount')),
        ],
        [
          { symbol: 'AAPL', side: 'split', ratio: '4/1', executed_at: '2025-01-02' },
          invalidFields(
            fieldProblem(
              ['ratio'],
              'ratio must be <new shares>:<old shares>, whole numbers from 1 to 1000000 (e.g. 4:1 or 1:10)',
            ),
          ),
        ],
      ];
      for (const [command, expected] of cases)
        await expect(portfolio().record(owner, command as Record<string, unknown>)).rejects.toEqual(expected);
      expect((await portfolio().list(owner)).total).toBe(0);
    });

    it('refuses a dividend or split without a position, and a deletion that would leave one', async () => {
      const owner = await user();
      await expect(
        portfolio().record(owner, { symbol: 'AAPL', side: 'dividend', amount: 1, executed_at: '2025-01-03' }),
      ).rejects.toEqual(refusal('rule-violation', 'No position in AAPL was held before this dividend'));
      await expect(
        portfolio().record(owner, { symbol: 'AAPL', side: 'split', ratio: '2:1', executed_at: '2025-01-03' }),
      ).rejects.toEqual(refusal('rule-violation', 'No position in AAPL is held at the time of this split'));

      const [buy] = await newLedger(medium, owner, [
        { symbol: 'AAPL', side: 'buy', quantity: 1, price: 100, executed_at: '2025-01-02' },
        { symbol: 'AAPL', side: 'dividend', amount: 1, executed_at: '2025-01-03' },
      ]);
      await expect(portfolio().remove(owner, buy.id)).rejects.toEqual(
        refusal(
          'rule-violation',
          'Cannot delete this transaction: a later dividend of AAPL would have no position',
        ),
      );
    });

    it('under the strict-cash setting refuses a buy, an import or a deletion that overdraws cash, storing nothing', async () => {
      const owner = await user();
      const buy = (quantity: number, executedAt: string) =>
        portfolio().record(owner, {
          symbol: 'AAPL',
          side: 'buy',
          quantity,
          price: 100,
          fees: 1,
          executed_at: executedAt,
        });
      const insufficientCash = refusal('rule-violation', 'Insufficient cash for this buy');
      // recorded before the setting: cash goes to −101
      await buy(1, '2025-01-02');
      expect(await portfolio().updateSettings(owner, { strictCash: true })).toEqual({
        costBasisMethod: 'average',
        strictCash: true,
      });

      await expect(buy(1, '2025-01-03')).rejects.toEqual(insufficientCash);
      // a deposit is taken though cash went negative before it; then 2 × 100 + 1 is covered to the cent
      const deposit = await portfolio().record(owner, {
        side: 'deposit',
        amount: 302,
        executed_at: '2025-01-06',
      });
      await buy(2, '2025-01-07');

      await expect(
        portfolio().importCsv(
          owner,
          'type,date,symbol,quantity,price,fees,amount\ndeposit,2025-01-08,,,,,50\nbuy,2025-01-09,AAPL,1,100,0,\n',
        ),
      ).rejects.toEqual(insufficientCash);
      await expect(portfolio().remove(owner, deposit.id)).rejects.toEqual(
        refusal('rule-violation', 'Cannot delete this transaction: the cash balance would fall below zero'),
      );
      expect((await portfolio().list(owner)).total).toBe(3);
      expect((await portfolio().summary(owner, true)).cash!.balance).toBeCloseTo(0, 2);
    });

    it('imports an old-format file as before and a file with a type column of every kind, all or nothing', async () => {
      const owner = await user();
      const [old] = await portfolio().importCsv(
        owner,
        'date,symbol,side,quantity,price,fees\n2025-01-06,aapl,buy,10,150,1\n',
      );
      expect(old).toMatchObject({ symbol: 'AAPL', side: 'buy', quantity: 10, fees: 1 });

      const typed = [
        'date,type,symbol,quantity,price,fees,amount,withholding_tax,ratio',
        '2025-01-02,deposit,,,,,10000,,',
        '2025-02-14,dividend,AAPL,,,,2.5,0.38,',
        '2025-03-03,split,AAPL,,,,,,4:1',
        '2025-03-04,interest,,,,,1.25,,',
        '2025-03-07,sell,AAPL,4,40,,,,',
      ].join('\n');
      const imported = await portfolio().importCsv(owner, typed);
      expect(imported.map(({ side }) => side)).toEqual(['deposit', 'dividend', 'split', 'interest', 'sell']);
      // 10,000 − 1,501 + 2.12 + 1.25 + 160
      expect((await portfolio().summary(owner, true)).cash!.balance).toBeCloseTo(8662.37, 2);

      await expect(
        portfolio().importCsv(
          owner,
          ['date,type,symbol,amount', '2025-03-10,deposit,,50', '2025-03-10,dividend,MSFT,1'].join('\n'),
        ),
      ).rejects.toEqual(
        invalidFields(fieldProblem([1, 'symbol'], 'No position in MSFT was held before this dividend')),
      );
      expect((await portfolio().list(owner)).total).toBe(6);
    });
  });
}
