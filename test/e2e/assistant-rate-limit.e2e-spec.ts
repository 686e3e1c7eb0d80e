import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { createSuperuser, registerUser, TestUser } from '../factories/users.factory';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { createTestApp, TestApp } from '../setup/test-app';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { dataOf, typedApi } from '../support/typed-api';
import { FakeClock } from '../fakes/clock';

const TURNS_PER_MINUTE = 3;
const tooMany = { detail: `Too many chat messages: at most ${TURNS_PER_MINUTE} per minute, try again later` };

async function chatOver(url: string, user: TestUser, conversationId?: string) {
  const response = await fetch(`${url}/api/v1/assistant/chat`, {
    method: 'POST',
    headers: { ...user.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'help', ...(conversationId && { conversation_id: conversationId }) }),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as { conversation_id?: string; detail?: string },
  };
}

describe('assistant chat-turn limit (a fixed minute per user, counted in PostgreSQL)', () => {
  describe('one instance', () => {
    const clock = new FakeClock();
    let sut: TestApp;
    let url: string;

    beforeAll(async () => {
      sut = await createTestApp({
        clock,
        env: { ASSISTANT_CHAT_TURNS_PER_MINUTE: String(TURNS_PER_MINUTE) },
      });
      url = await sut.listen();
    });
    afterAll(() => sut.close());

    it('refuses with 429 and Retry-After until the window ends; refused turns do not count', async () => {
      const user = await registerUser(sut);
      for (let turn = 0; turn < TURNS_PER_MINUTE; turn += 1)
        expect((await chatOver(url, user)).status).toBe(200);
      clock.advance(20_000);
      expect(await chatOver(url, user)).toEqual({ status: 429, retryAfter: '40', body: tooMany });
      expect((await chatOver(url, user)).retryAfter).toBe('40');
      clock.advance(40_000);
      for (let turn = 0; turn < TURNS_PER_MINUTE; turn += 1)
        expect((await chatOver(url, user)).status).toBe(200);
      expect(await chatOver(url, user)).toEqual({ status: 429, retryAfter: '60', body: tooMany });
      expect((await chatOver(url, await registerUser(sut))).status).toBe(200);
    });

    it('counts the turns that continue a conversation, and refuses beyond the limit before any 404', async () => {
      const user = await registerUser(sut);
      const stranger = await registerUser(sut);
      const strangers = (await chatOver(url, stranger)).body.conversation_id;
      const { conversation_id: conversationId } = (await chatOver(url, user)).body;
      clock.advance(5_000);
      expect((await chatOver(url, user, conversationId)).status).toBe(200);
      expect((await chatOver(url, user, strangers)).status).toBe(404);
      expect(await chatOver(url, user, conversationId)).toEqual({
        status: 429,
        retryAfter: '55',
        body: tooMany,
      });
      expect(await chatOver(url, user, strangers)).toEqual({ status: 429, retryAfter: '55', body: tooMany });
      clock.advance(55_000);
      expect((await chatOver(url, user, strangers)).status).toBe(404);
      const conversation = await typedApi(sut, user).GET('/api/v1/assistant/conversations/{id}', {
        params: { path: { id: conversationId! } },
      });
      expect(dataOf(conversation).messages).toHaveLength(4);
    });

    it('lets exactly the limit through when turns of one conversation arrive at once', async () => {
      const user = await registerUser(sut);
      const { conversation_id: conversationId } = (await chatOver(url, user)).body;
      const statuses = (
        await Promise.all(Array.from({ length: 8 }, () => chatOver(url, user, conversationId)))
      ).map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(TURNS_PER_MINUTE - 1);
      expect(statuses.filter((status) => status === 429)).toHaveLength(8 - TURNS_PER_MINUTE + 1);
    });

    it('lets exactly the limit through when turns arrive at once', async () => {
      const user = await registerUser(sut);
      const statuses = (await Promise.all(Array.from({ length: 8 }, () => chatOver(url, user)))).map(
        (response) => response.status,
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(TURNS_PER_MINUTE);
      expect(statuses.filter((status) => status === 429)).toHaveLength(8 - TURNS_PER_MINUTE);
    });

    it('forgets the count with the user', async () => {
      const user = await registerUser(sut);
      expect((await chatOver(url, user)).status).toBe(200);
      const counted = () =>
        sut.app
          .get(DataSource)
          .query('SELECT count(*)::int AS count FROM assistant_chat_turns WHERE user_id = $1', [user.id]);
      expect((await counted())[0].count).toBe(1);
      const admin = await createSuperuser(sut);
      const deleted = await typedApi(sut, admin).DELETE('/api/v1/admin/users/{user_id}', {
        params: { path: { user_id: user.id } },
      });
      expect(deleted.response.status).toBe(200);
      expect((await counted())[0].count).toBe(0);
    });
  });

  // The second instance is a child process (test/support/service-process.ts says why). On the
  // embedded database it connects to the in-process app's server through its unix socket.
  describe('two instances on one database', () => {
    let database: TestDatabase;
    let inProcess: TestApp;
    let inProcessUrl: string;
    let child: ServiceProcess;
    let childUrl: string;
    let childDataDir: string;

    beforeAll(async () => {
      database = await createTestDatabase();
      const env = { ASSISTANT_CHAT_TURNS_PER_MINUTE: String(TURNS_PER_MINUTE) };
      inProcess = await createTestApp({ database, env });
      inProcessUrl = await inProcess.listen();
      childDataDir = mkdtempSync(join(tmpdir(), 'ia-test-second-instance-'));
      child = await startServiceProcess({
        DATA_DIR: childDataDir,
        DATABASE_URL: database.env.DATABASE_URL || embeddedServerUrl(inProcess),
        REDIS_URL: '',
        ...env,
      });
      childUrl = child.url;
    }, 120_000);
    afterAll(async () => {
      await child?.stop();
      await inProcess?.close();
      await database?.drop();
      rmSync(childDataDir, { recursive: true, force: true });
    });

    it('shares one count: turns on either instance use up the same limit', async () => {
      const user = await registerUser(inProcess);
      const instances = [inProcessUrl, childUrl, inProcessUrl];
      for (const url of instances) expect((await chatOver(url, user)).status).toBe(200);
      for (const url of [childUrl, inProcessUrl]) {
        const refused = await chatOver(url, user);
        expect(refused).toMatchObject({ status: 429, body: tooMany });
        expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
      }
    });

    it('lets exactly the limit through when turns reach both instances at once', async () => {
      const user = await registerUser(inProcess);
      const statuses = (
        await Promise.all(
          Array.from({ length: 8 }, (_, i) => chatOver(i % 2 === 0 ? inProcessUrl : childUrl, user)),
        )
      ).map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(TURNS_PER_MINUTE);
      expect(statuses.filter((status) => status === 429)).toHaveLength(8 - TURNS_PER_MINUTE);
    });
  });
});

/** A URL of the embedded server an in-process app started (its unix socket as the `host` parameter). */
function embeddedServerUrl(app: TestApp): string {
  const { host, port, username, database } = app.app.get(DataSource).options as PostgresDataSourceOptions;
  return `postgresql://${username}@localhost:${port}/${database}?host=${encodeURIComponent(host!)}`;
}
