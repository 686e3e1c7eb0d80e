import { DataSource } from 'typeorm';
import { LedgerService, OversellRejectedError } from '../../src/modules/portfolio/ledger.service';
import { NewLedgerTransaction } from '../../src/modules/portfolio/ledger-transaction';
import { PortfolioTransactionsRepository } from '../../src/modules/portfolio/portfolio-transactions.repository';
import { registerUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';

/** How long a second change is given to get past a lock it should be waiting on. */
const BLOCKED_WINDOW_MS = 300;

function trade(
  userId: number,
  side: 'buy' | 'sell',
  quantity: number,
  price: number,
  day: number,
  symbol = 'AAPL',
): NewLedgerTransaction {
  const executedAt = new Date(Date.UTC(2025, 0, 1) + day * 86_400_000 + 15 * 3_600_000);
  const tradeDate = executedAt.toISOString().slice(0, 10);
  return {
    userId,
    symbol,
    side,
    quantity,
    price,
    fees: 0,
    executedAt,
    tradeDate,
    note: null,
    createdAt: executedAt,
  };
}

/** A promise the test resolves when it chooses: the moment a change holding the lock lets go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the portfolio ledger against a real database', () => {
  let sut: TestApp;
  let ledger: LedgerService;
  let repository: PortfolioTransactionsRepository;
  let dataSource: DataSource;

  beforeAll(async () => {
    sut = await createTestApp();
    ledger = sut.app.get(LedgerService);
    repository = sut.app.get(PortfolioTransactionsRepository);
    dataSource = sut.app.get(DataSource);
  });
  afterAll(() => sut.close());

  const newUser = async () => (await registerUser(sut)).id;
  const version = async (userId: number) => {
    const rows = (await dataSource.query('SELECT version FROM portfolio_ledger_versions WHERE user_id = $1', [
      userId,
    ])) as { version: string }[];
    return Number(rows[0]?.version ?? 0);
  };

  describe('the ledger lock', () => {
    it('runs two changes of one user one after the other, the second seeing what the first wrote', async () => {
      const userId = await newUser();
      const events: string[] = [];
      const release = gate();
      const first = ledger.change(userId, async (change) => {
        await change.append([trade(userId, 'buy', 10, 100, 1)]);
        events.push('first wrote');
        await release.opened;
        events.push('first done');
      });
      while (!events.includes('first wrote')) await sleep(10);
      const second = ledger.change(userId, async (change) => {
        events.push(`second saw ${(await change.entries()).length}`);
        await change.append([trade(userId, 'sell', 10, 110, 2)]);
      });
      await sleep(BLOCKED_WINDOW_MS);
      expect(events).toEqual(['first wrote']);
      release.open();
      await Promise.all([first, second]);
      expect(events).toEqual(['first wrote', 'first done', 'second saw 1']);
      expect((await repository.ledger(userId)).entries.map((entry) => entry.side)).toEqual(['buy', 'sell']);
    });

    it('lets two concurrent sells of the same shares through only once', async () => {
      const userId = await newUser();
      await ledger.change(userId, (change) => change.append([trade(userId, 'buy', 10, 100, 1)]));
      const release = gate();
      let sold = false;
      const first = ledger.change(userId, async (change) => {
        await change.append([trade(userId, 'sell', 10, 110, 2)]);
        sold = true;
        await release.opened;
      });
      while (!sold) await sleep(10);
      const second = ledger.change(userId, (change) => change.append([trade(userId, 'sell', 10, 110, 3)]));
      await sleep(BLOCKED_WINDOW_MS);
      release.open();
      await first;
      await expect(second).rejects.toThrow(OversellRejectedError);
      expect((await repository.ledger(userId)).entries).toHaveLength(2);
    });

    it('does not make one user wait for another', async () => {
      const [holder, other] = [await newUser(), await newUser()];
      const release = gate();
      let holding = false;
      const held = ledger.change(holder, async (change) => {
        await change.append([trade(holder, 'buy', 1, 100, 1)]);
        holding = true;
        await release.opened;
      });
      while (!holding) await sleep(10);
      // Were the lock shared, this would wait for the release below and the test would time out.
      const stored = await ledger.change(other, (change) => change.append([trade(other, 'buy', 1, 100, 1)]));
      expect(stored.map((row) => row.userId)).toEqual([other]);
      release.open();
      await held;
    });

    it('stores nothing of a change that fails, and keeps its version', async () => {
      const userId = await newUser();
      await ledger.change(userId, (change) => change.append([trade(userId, 'buy', 10, 100, 1)]));
      const before = await version(userId);
      await expect(
        ledger.change(userId, async (change) => {
          await change.append([trade(userId, 'buy', 5, 100, 2)]);
          await change.append([trade(userId, 'sell', 100, 100, 3)]);
        }),
      ).rejects.toThrow(OversellRejectedError);
      expect(await version(userId)).toBe(before);
      expect((await repository.ledger(userId)).entries).toHaveLength(1);
    });
  });

  describe('bulk writes', () => {
    it('inserts more rows than one statement takes, in order, under one new version', async () => {
      const userId = await newUser();
      const rows = Array.from({ length: 2_500 }, (_, index) => trade(userId, 'buy', 1, 100 + index, index));
      const stored = await ledger.change(userId, (change) => change.append(rows));
      expect(stored.map((row) => row.price)).toEqual(rows.map((row) => row.price));
      expect(new Set(stored.map((row) => row.id)).size).toBe(2_500);
      expect(await version(userId)).toBe(1);
      const read = await repository.ledger(userId);
      expect(read.version).toBe(1);
      expect(read.entries.map((entry) => entry.id)).toEqual(stored.map((row) => row.id));
    });

    it("re-prices every later sell in one statement when an earlier buy changes the average cost, and no other user's rows", async () => {
      const [userId, other] = [await newUser(), await newUser()];
      const sells = Array.from({ length: 1_200 }, (_, index) => trade(userId, 'sell', 1, 110, 10 + index));
      await ledger.change(userId, (change) => change.append([trade(userId, 'buy', 2_000, 100, 1), ...sells]));
      await ledger.change(other, (change) =>
        change.append([trade(other, 'buy', 1, 100, 1), trade(other, 'sell', 1, 110, 2)]),
      );
      const pnl = async (id: number) =>
        (
          (await dataSource.query(
            `SELECT realized_pnl FROM portfolio_transactions WHERE user_id = $1 AND side = 'sell' ORDER BY executed_at`,
            [id],
          )) as { realized_pnl: string }[]
        ).map((row) => Number(row.realized_pnl));
      expect(new Set(await pnl(userId))).toEqual(new Set([10]));

      // 2,000 at 100 and 2,000 at 80 on the same day: the average cost of every later sell is 90.
      await ledger.change(userId, (change) => change.append([trade(userId, 'buy', 2_000, 80, 1)]));
      const repriced = await pnl(userId);
      expect(repriced).toHaveLength(1_200);
      expect(new Set(repriced)).toEqual(new Set([20]));
      expect(await pnl(other)).toEqual([10]);
      const cached = (await repository.ledger(userId)).entries.filter((entry) => entry.side === 'sell');
      expect(new Set(cached.map((entry) => entry.realizedPnl))).toEqual(new Set([20]));
    });
  });
});
