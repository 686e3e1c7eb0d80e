import type { Schemas } from '../../client';
import { DataSource } from 'typeorm';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { TcpProxy } from '../support/tcp-proxy';
import { typedApi } from '../support/typed-api';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function graphHealth(sut: TestApp): Promise<string> {
  const health = await typedApi(sut).GET('/api/v1/system/health');
  // A 503 answers the same body as a 200.
  return (health.data ?? (health.error as Schemas['HealthResponse'])).services.graph_database;
}

/** Polls health until the graph reports `state`, bounded in time; answers the last state seen. */
async function eventually(sut: TestApp, state: string, withinMs = 20_000): Promise<string> {
  const deadline = Date.now() + withinMs;
  let seen = await graphHealth(sut);
  while (seen !== state && Date.now() < deadline) {
    await sleep(100);
    seen = await graphHealth(sut);
  }
  return seen;
}

describe("health's graph_database", () => {
  const clock = new FakeClock();
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  }, 60_000);
  afterAll(() => sut.close());

  it('is connected once the graph is built, degraded when its correlations are two sessions old, connected again after the refresh', async () => {
    expect(await eventually(sut, 'connected')).toBe('connected');
    // A week later, several sessions have closed since the correlations were measured.
    clock.advance(7 * 86_400_000);
    expect(await graphHealth(sut)).toBe('degraded');
    // The health check itself starts the refresh; nothing else is needed.
    expect(await eventually(sut, 'connected')).toBe('connected');
  });
});

describe('the first build', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp();
  }, 60_000);
  afterAll(() => sut.close());

  const built = async () =>
    (
      (await sut.app.get(DataSource).query('SELECT count(*)::int AS count FROM graph_state')) as {
        count: number;
      }[]
    )[0].count === 1;

  it('waits while the application only serves through inject, and starts by itself once the server listens', async () => {
    await sleep(1_000);
    expect(await built()).toBe(false);
    await sut.listen();
    const deadline = Date.now() + 20_000;
    while (!(await built()) && Date.now() < deadline) await sleep(100);
    expect(await built()).toBe(true);
  });
});

/** The store down, through a TCP proxy in front of a real PostgreSQL server (the e2e-postgres project only). */
const describeOnPostgres = process.env.TEST_DATABASE_KIND === 'postgres' ? describe : describe.skip;

describeOnPostgres("health's graph_database with its store down", () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let sut: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    const proxied = await TcpProxy.inFrontOf(database.env.DATABASE_URL);
    proxy = proxied.proxy;
    sut = await createTestApp({
      database,
      env: {
        DATABASE_URL: proxied.url,
        DB_CONNECT_TIMEOUT_MS: '1000',
        DB_ACQUIRE_TIMEOUT_MS: '1000',
      },
    });
  }, 60_000);
  afterAll(async () => {
    proxy.mode = 'forward';
    await sut.close();
    await proxy.close();
    await database.drop();
  });

  it('is disconnected while the connections are reset, and connected again once they pass', async () => {
    expect(await eventually(sut, 'connected')).toBe('connected');
    proxy.mode = 'reset';
    const down = await typedApi(sut).GET('/api/v1/system/health');
    expect(down.response.status).toBe(503);
    expect(down.error).toMatchObject({
      services: { database: 'disconnected', graph_database: 'disconnected' },
    });
    proxy.mode = 'forward';
    expect(await eventually(sut, 'connected')).toBe('connected');
  });

  it('is disconnected when the store stops answering (a partition), within the health timeout', async () => {
    proxy.mode = 'blackhole';
    const started = Date.now();
    expect(await graphHealth(sut)).toBe('disconnected');
    expect(Date.now() - started).toBeLessThan(3_000);
    proxy.mode = 'forward';
    expect(await eventually(sut, 'connected')).toBe('connected');
  });
});
