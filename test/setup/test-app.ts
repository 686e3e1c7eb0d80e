import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import { randomUUID } from 'node:crypto';
import { AppModule } from '../../src/app.module';
import { Clock } from '../../src/common/time/clock';
import { configureApp } from '../../src/bootstrap/configure-app';
import { fastifyAdapter } from '../../src/bootstrap/create-app';
import { createTestDatabase, TestDatabase } from './test-database';

export const TEST_SECRET_KEY = 'test-secret-key-that-is-long-enough-for-hs512-0123456789';

export interface InjectOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

export interface InjectResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json<T = any>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface TestApp {
  app: NestFastifyApplication;
  inject(options: InjectOptions): Promise<InjectResponse>;
  /**
   * Serves the app on a real socket (127.0.0.1, a free port) and returns its base URL, for tests
   * where concurrency or connections matter: `inject()` does not exercise those paths.
   */
  listen(): Promise<string>;
  close(): Promise<void>;
  database: TestDatabase;
}

export interface TestAppOptions {
  /** The service's clock, e.g. a FakeClock: what most tests override. */
  clock?: Clock;
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  env?: Record<string, string>;
  /** Reuse a database (e.g. to check data survives a restart); it is then not dropped on close. */
  database?: TestDatabase;
}

/** What every test instance runs with, in this process or as a child process. */
export function testServiceEnv(): Record<string, string> {
  return {
    SECRET_KEY: TEST_SECRET_KEY,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    REDIS_URL: process.env.TEST_REDIS_URL ?? '',
    FIRST_SUPERUSER_EMAIL: '',
    FIRST_SUPERUSER_PASSWORD: '',
    AUTH_REFRESH_COOKIE: '',
    // Every test client is 127.0.0.1: tests of the login/register/refresh rate limits set their own.
    AUTH_RATE_LIMIT_PER_IP: '1000000',
    AUTH_RATE_LIMIT_GLOBAL: '10000000',
    AUTH_REFRESH_RATE_LIMIT_PER_IP: '1000000',
    // The job runner polls the database; the tests of jobs (alerts, clean-ups) turn it on.
    JOBS_ENABLED: 'false',
  };
}

/**
 * Boots the real application on an isolated database (an embedded cluster of its own, or a fresh database on the
 * server in TEST_DATABASE_URL for the e2e-postgres project) and serves it through Fastify inject.
 * With TEST_REDIS_URL set the cache is Redis, under a namespace of its own.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  Object.assign(process.env, {
    ...testServiceEnv(),
    CACHE_NAMESPACE: `test-${randomUUID()}`,
    ...database.env,
    ...options.env,
  });
  let builder = Test.createTestingModule({ imports: [AppModule] });
  if (options.clock) builder = builder.overrideProvider(Clock).useValue(options.clock);
  if (options.override) builder = options.override(builder);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(fastifyAdapter(), { logger: false });
  await configureApp(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();

  return {
    app,
    database,
    async inject({ method = 'GET', url, payload, headers, query }) {
      const response = await app.inject({
        method,
        url,
        query,
        headers,
        ...(payload === undefined ? {} : { payload: payload as string | object }),
      });
      return {
        statusCode: response.statusCode,
        headers: response.headers,
        body: response.body,
        json: () => JSON.parse(response.body),
      };
    },
    async listen() {
      await app.listen(0, '127.0.0.1');
      const address = app.getHttpServer().address();
      if (address === null || typeof address === 'string')
        throw new Error('The test app is not on a TCP port');
      return `http://127.0.0.1:${address.port}`;
    },
    async close() {
      await app.close();
      if (!options.database) await database.drop();
    },
  };
}
