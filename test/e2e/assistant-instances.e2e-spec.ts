import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { registerUser, TestUser } from '../factories/users.factory';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { createTestApp, TestApp } from '../setup/test-app';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { seedInvestor } from '../support/investor-ledger';

interface Answer {
  conversation_id: string;
  message: { content: string; sources: { type: string; symbol?: string; quantity?: number }[] };
}

const ENV = { ASSISTANT_CHAT_TURNS_PER_MINUTE: '1000' };

/**
 * A conversation's state lives in its stored messages only: a follow-up asked on a second instance,
 * or after a restart, resolves exactly as on the instance that heard the first turn.
 */
describe('assistant follow-ups across instances and a restart', () => {
  let database: TestDatabase;
  let first: TestApp;
  let firstUrl: string;
  let child: ServiceProcess;
  let childDataDir: string;
  let user: TestUser;
  const thisYear = Number(new Date().toLocaleString('en-CA', { timeZone: 'America/New_York' }).slice(0, 4));

  beforeAll(async () => {
    database = await createTestDatabase();
    first = await createTestApp({ database, env: ENV });
    firstUrl = await first.listen();
    user = await registerUser(first);
    await seedInvestor(first, user, thisYear);
    childDataDir = mkdtempSync(join(tmpdir(), 'ia-test-assistant-instance-'));
    child = await startServiceProcess({
      DATA_DIR: childDataDir,
      DATABASE_URL: database.env.DATABASE_URL || embeddedServerUrl(first),
      REDIS_URL: '',
      ...ENV,
    });
  }, 120_000);
  afterAll(async () => {
    await child?.stop();
    await first?.close();
    await database?.drop();
    rmSync(childDataDir, { recursive: true, force: true });
  });

  const chatOn = async (base: string, message: string, conversationId?: string): Promise<Answer> => {
    const response = await fetch(`${base}/api/v1/assistant/chat`, {
      method: 'POST',
      headers: { ...user.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ message, ...(conversationId ? { conversation_id: conversationId } : {}) }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Answer;
  };
  const holdingOf = (answer: Answer) => answer.message.sources.find((source) => source.type === 'holding');
  /**
   * The answer with its money and percentages masked: while the replay's session is open, prices
   * move between one instance's answer and the next's.
   */
  const wordingOf = (answer: Answer) =>
    answer.message.content.replace(/[+-]?\$[\d,]+(\.\d+)?|[+-]?\d[\d,]*(\.\d+)? ?%/g, '#');

  it('resolves "and Microsoft?", "why?" and a refused order on another instance and after a restart', async () => {
    // Three conversations with the same opening, each continued somewhere else.
    const openings: Answer[] = [];
    for (let n = 0; n < 3; n += 1)
      openings.push(await chatOn(firstUrl, 'How many shares of Apple do I own?'));
    expect(holdingOf(openings[0])).toMatchObject({ symbol: 'AAPL', quantity: 21 });

    const followUps = ['and Microsoft?', 'why?', 'sell it for me'];
    const ask = async (base: string, conversationId: string) => {
      const answers: Answer[] = [];
      for (const message of followUps) answers.push(await chatOn(base, message, conversationId));
      return answers;
    };
    const onSameInstance = await ask(firstUrl, openings[0].conversation_id);
    const onOtherInstance = await ask(child.url, openings[1].conversation_id);
    // The restart comes last: on the embedded database the first instance owns the server.
    await first.close();
    first = await createTestApp({ database, env: ENV });
    const afterRestart = await ask(await first.listen(), openings[2].conversation_id);

    for (const [microsoft, why, order] of [onSameInstance, onOtherInstance, afterRestart]) {
      expect(holdingOf(microsoft)).toMatchObject({ symbol: 'MSFT', quantity: 8 });
      expect(microsoft.message.content).toContain('Microsoft Corp. (MSFT)');
      expect(why.message.content).toContain('Why: your cost basis is what you paid');
      expect(wordingOf(why)).toBe(wordingOf(onSameInstance[1]));
      expect(order.message.content).toMatch(/^I never trade: /);
      expect(wordingOf(order)).toBe(wordingOf(onSameInstance[2]));
    }
  }, 120_000);
});

function embeddedServerUrl(app: TestApp): string {
  const { host, port, username, database } = app.app.get(DataSource).options as PostgresDataSourceOptions;
  return `postgresql://${username}@localhost:${port}/${database}?host=${encodeURIComponent(host!)}`;
}
