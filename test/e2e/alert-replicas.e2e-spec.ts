import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { registerUser, TestUser } from '../factories/users.factory';
import { httpCall } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { openEventStream } from '../support/live-event-stream';
import { ServiceProcess, startServiceProcess } from '../support/service-process';

const REPLICA_ENV = {
  JOBS_ENABLED: 'true',
  ALERTS_EVALUATION_INTERVAL_MS: '200',
  NOTIFICATION_STREAM_HEARTBEAT_MS: '300',
};

/**
 * Two replicas on one PostgreSQL database, each running the job runner and holding streams: this
 * process's app and a service process of its own (test/support/service-process.ts says why). Both
 * run on the real clock; the rules used fire at any price.
 */
describe('alerts across two replicas', () => {
  let database: TestDatabase;
  let first: TestApp;
  let second: ServiceProcess;
  let secondDataDir: string;
  let firstUrl: string;
  let secondUrl: string;
  let user: TestUser;
  const notificationRows = () =>
    first.app
      .get(DataSource)
      .query(`SELECT id, rule_id, arming FROM notifications WHERE user_id = $1 ORDER BY id`, [user.id]);

  beforeAll(async () => {
    database = await createTestDatabase();
    first = await createTestApp({ database, env: REPLICA_ENV });
    firstUrl = await first.listen();
    secondDataDir = mkdtempSync(join(tmpdir(), 'ia-test-second-instance-'));
    second = await startServiceProcess({
      DATA_DIR: secondDataDir,
      DATABASE_URL: database.env.DATABASE_URL || embeddedServerUrl(first),
      REDIS_URL: '',
      ...REPLICA_ENV,
    });
    secondUrl = second.url;
    user = await registerUser(first);
  }, 120_000);
  afterAll(async () => {
    await second?.stop();
    await first?.close();
    await database?.drop();
    rmSync(secondDataDir, { recursive: true, force: true });
  });

  // Each notification is written by one replica and both streams receive all of them: whichever
  // replica wrote one, the stream on the other received it through PostgreSQL.
  it('the job runner fires each rule once and streams on both replicas receive it', async () => {
    const stream = await openEventStream(`${secondUrl}/api/v1/notifications/stream`, user.headers);
    const local = await openEventStream(`${firstUrl}/api/v1/notifications/stream`, user.headers);
    try {
      expect(stream.status).toBe(200);
      expect(stream.contentType).toBe('text/event-stream; charset=utf-8');
      const ruleIds: number[] = [];
      for (const symbol of ['AAPL', 'MSFT', 'JPM']) {
        const created = await httpCall(`${firstUrl}/api/v1/alerts`, {
          method: 'POST',
          headers: user.headers,
          body: { kind: 'price_above', symbol, price: 1 },
        });
        ruleIds.push((created.body as { id: number }).id);
      }
      await stream.until((s) => s.events.length >= 3);
      await local.until((s) => s.events.length >= 3);
      // More passes on both replicas: nothing fires twice.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const rows = await notificationRows();
      expect(rows.map((row: { rule_id: number }) => row.rule_id).sort()).toEqual([...ruleIds].sort());
      expect(stream.events).toHaveLength(3);
      expect(stream.events.map((event) => event.event)).toEqual([
        'notification',
        'notification',
        'notification',
      ]);
      expect(stream.events.map((event) => Number(event.id))).toEqual(
        rows.map((row: { id: string }) => Number(row.id)),
      );
      expect(stream.events[0].data).toMatchObject({
        id: Number(rows[0].id),
        kind: 'price_above',
        read_at: null,
      });
      expect(local.events).toEqual(stream.events);
      expect(stream.text()).toContain(': heartbeat\n\n');

      const jobs = await first.app
        .get(DataSource)
        .query(
          `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'alerts-evaluate' AND state = 'completed'`,
        );
      expect(jobs[0].n).toBeGreaterThan(0);
    } finally {
      stream.close();
      local.close();
    }
  });

  it('a stream resumed with Last-Event-ID gets what it missed, in order', async () => {
    const rows = await notificationRows();
    const resumed = await openEventStream(`${firstUrl}/api/v1/notifications/stream`, {
      ...user.headers,
      'last-event-id': String(rows[0].id),
    });
    try {
      await resumed.until((s) => s.events.length >= rows.length - 1);
      expect(resumed.events.map((event) => Number(event.id))).toEqual(
        rows.slice(1).map((row: { id: string }) => Number(row.id)),
      );
    } finally {
      resumed.close();
    }
  });

  it('refuses a Last-Event-ID that is not an id', async () => {
    const answer = await httpCall(`${firstUrl}/api/v1/notifications/stream`, {
      headers: { ...user.headers, 'last-event-id': 'abc' },
    });
    expect(answer).toMatchObject({
      status: 422,
      body: {
        detail: [
          {
            loc: ['header', 'last-event-id'],
            msg: 'Value error, Last-Event-ID must be a notification id',
            type: 'value_error',
          },
        ],
      },
    });
  });
});

function embeddedServerUrl(app: TestApp): string {
  const { host, port, username, database } = app.app.get(DataSource).options as PostgresDataSourceOptions;
  return `postgresql://${username}@localhost:${port}/${database}?host=${encodeURIComponent(host!)}`;
}
