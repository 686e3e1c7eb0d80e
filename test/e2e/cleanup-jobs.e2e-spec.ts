import { DataSource } from 'typeorm';
import { JobRunner } from '../../src/common/jobs/job-runner';
import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { typedApi } from '../support/typed-api';

const CLEANUPS = ['chat-turns', 'expired-sessions', 'login-attempts', 'rate-limit-windows'];

/** One sample of `/metrics`, by its exact label set as the registry writes it. */
async function metric(sut: TestApp, name: string, labels: string): Promise<number | undefined> {
  const text = (await sut.inject({ url: '/metrics' })).body;
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

/** Polls `probe` until it holds, for at most `timeoutMs`; its last value either way. */
async function eventually<T>(probe: () => Promise<T>, holds: (value: T) => boolean, timeoutMs = 45_000) {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!holds(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await probe();
  }
  return value;
}

/**
 * The periodic clean-ups as jobs on pg-boss: expired rows are written while the job runner is off,
 * then a replica with the runner on boots and its schedule deletes them (and nothing live).
 */
describe('the clean-up jobs', () => {
  let database: TestDatabase;
  let sut: TestApp;
  let expired: TestUser;
  let live: TestUser;
  const rows = (sql: string, values: unknown[] = []) => sut.app.get(DataSource).query(sql, values);
  const count = async (sql: string, values: unknown[] = []) => Number((await rows(sql, values))[0].count);

  beforeAll(async () => {
    database = await createTestDatabase();
    const writer = await createTestApp({ database });
    [expired, live] = await Promise.all([registerUser(writer), registerUser(writer)]);
    const write = (sql: string, values: unknown[] = []) => writer.app.get(DataSource).query(sql, values);
    const old = new Date(Date.now() - 2 * 3_600_000);
    const now = new Date();
    await write(
      `INSERT INTO rate_limit_windows (bucket, hits, window_started_at)
       VALUES ('login:ip:192.0.2.1', 3, $1), ('login:ip:192.0.2.2', 3, $2)`,
      [old, now],
    );
    await write(
      `INSERT INTO login_attempts (email, client_ip, failures, window_started_at)
       VALUES ('old@example.com', '192.0.2.1', 2, $1), ('new@example.com', '192.0.2.2', 2, $2)`,
      [old, now],
    );
    await write(
      `INSERT INTO assistant_chat_turns (user_id, turns, window_started_at) VALUES ($1, 4, $2), ($3, 4, $4)`,
      [expired.id, old, live.id, now],
    );
    await write(`UPDATE refresh_tokens SET expires_at = now() - interval '1 day' WHERE user_id = $1`, [
      expired.id,
    ]);
    await write(`UPDATE sessions SET created_at = now() - interval '8 days' WHERE user_id = $1`, [
      expired.id,
    ]);
    await writer.close();
    sut = await createTestApp({ database, env: { JOBS_ENABLED: 'true' } });
  }, 60_000);
  afterAll(async () => {
    await sut?.close();
    await database?.drop();
  });

  it('runs each clean-up as a named job, scheduled by the runner rather than by the cron of pg-boss', async () => {
    const queues: { name: string }[] = await rows(
      `SELECT name FROM pgboss.queue WHERE name LIKE 'cleanup-%' ORDER BY name`,
    );
    expect(queues.map(({ name }) => name)).toEqual(CLEANUPS.map((name) => `cleanup-${name}`));
    expect(await rows(`SELECT name FROM pgboss.schedule`)).toEqual([]);
  });

  it('deletes the ended windows on schedule, keeps the current ones, and counts the runs', async () => {
    const leftOver = () =>
      Promise.all([
        count(`SELECT count(*) FROM rate_limit_windows WHERE bucket = 'login:ip:192.0.2.1'`),
        count(`SELECT count(*) FROM login_attempts WHERE email = 'old@example.com'`),
        count(`SELECT count(*) FROM assistant_chat_turns WHERE user_id = $1`, [expired.id]),
      ]);
    expect(await eventually(leftOver, (counts) => counts.every((left) => left === 0))).toEqual([0, 0, 0]);

    expect(await count(`SELECT count(*) FROM rate_limit_windows WHERE bucket = 'login:ip:192.0.2.2'`)).toBe(
      1,
    );
    expect(await count(`SELECT count(*) FROM login_attempts WHERE email = 'new@example.com'`)).toBe(1);
    expect(await count(`SELECT count(*) FROM assistant_chat_turns WHERE user_id = $1`, [live.id])).toBe(1);
    for (const job of ['rate-limit-windows', 'login-attempts', 'chat-turns']) {
      const runs = () => metric(sut, 'cleanup_runs_total', `job="${job}",outcome="ok"`);
      expect(await eventually(runs, (value) => (value ?? 0) >= 1)).toBeGreaterThanOrEqual(1);
      expect(await metric(sut, 'cleanup_rows_removed_total', `job="${job}"`)).toBe(1);
      expect(await metric(sut, 'cleanup_runs_total', `job="${job}",outcome="error"`)).toBe(0);
    }
  }, 60_000);

  // Hourly: a test cannot wait for the hour, so it asks the job's queue for a run as the cron does.
  it('purges expired sessions through their job, and nothing live', async () => {
    await sut.app.get(JobRunner).request('cleanup-expired-sessions');
    const sessionsLeft = () => count(`SELECT count(*) FROM sessions WHERE user_id = $1`, [expired.id]);
    expect(await eventually(sessionsLeft, (left) => left === 0)).toBe(0);
    expect(await count(`SELECT count(*) FROM refresh_tokens WHERE user_id = $1`, [live.id])).toBe(1);
    const removed = () => metric(sut, 'cleanup_rows_removed_total', `job="expired-sessions"`);
    expect(await eventually(removed, (value) => value === 2)).toBe(2);
    expect((await typedApi(sut, live).GET('/api/v1/auth/me')).response.status).toBe(200);
  }, 60_000);

  it('counts a failing run by job and outcome in /metrics, and the next run succeeds', async () => {
    await rows(`ALTER TABLE assistant_chat_turns RENAME TO assistant_chat_turns_elsewhere`);
    try {
      await sut.app.get(JobRunner).request('cleanup-chat-turns');
      const failures = () => metric(sut, 'cleanup_runs_total', `job="chat-turns",outcome="error"`);
      expect(await eventually(failures, (value) => (value ?? 0) >= 1)).toBeGreaterThanOrEqual(1);
    } finally {
      await rows(`ALTER TABLE assistant_chat_turns_elsewhere RENAME TO assistant_chat_turns`);
    }
    const okBefore = (await metric(sut, 'cleanup_runs_total', `job="chat-turns",outcome="ok"`)) ?? 0;
    await sut.app.get(JobRunner).request('cleanup-chat-turns');
    const runs = () => metric(sut, 'cleanup_runs_total', `job="chat-turns",outcome="ok"`);
    expect(await eventually(runs, (value) => (value ?? 0) > okBefore)).toBeGreaterThan(okBefore);
  }, 60_000);
});
