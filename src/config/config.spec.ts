import { appConfig } from './app.config';
import { authConfig } from './auth.config';
import { cacheConfig } from './cache.config';
import { configurationProblems } from './configuration-problems';
import { databaseConfig } from './database.config';
import { rateLimitConfig } from './rate-limit.config';

describe('configuration namespaces', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  function withEnv(env: Record<string, string | undefined>) {
    for (const key of [
      'PORT',
      'HOST',
      'DATA_DIR',
      'LOG_LEVEL',
      'NODE_ENV',
      'JWT_ALGORITHM',
      'ACCESS_TOKEN_EXPIRE_MINUTES',
      'REFRESH_TOKEN_EXPIRE_DAYS',
      'FIRST_SUPERUSER_EMAIL',
      'FIRST_SUPERUSER_PASSWORD',
      'DATABASE_URL',
      'REDIS_URL',
      'CORS_ORIGINS',
      'SECRET_KEY',
      'TRUST_PROXY',
      'DOCS_ENABLED',
      'AUTH_SESSION_MAX_DAYS',
      'AUTH_RATE_WINDOW_SECONDS',
      'AUTH_RATE_LIMIT_PER_IP',
      'AUTH_RATE_LIMIT_GLOBAL',
      'AUTH_REFRESH_RATE_LIMIT_PER_IP',
      'METRICS_TOKEN',
      'METRICS_PORT',
    ]) {
      delete process.env[key];
    }
    Object.assign(process.env, env);
  }

  it('applies the documented defaults', () => {
    withEnv({});
    expect(appConfig()).toMatchObject({
      port: 8000,
      host: '0.0.0.0',
      logLevel: 'info',
      nodeEnv: 'development',
      corsOrigins: false,
      docsEnabled: true,
    });
    expect(appConfig().dataDir).toMatch(/\.data$/);
    expect(authConfig()).toMatchObject({
      algorithm: 'HS256',
      accessTokenTtlSeconds: 1800,
      refreshTokenTtlSeconds: 604800,
      sessionMaxAgeSeconds: 30 * 86_400,
      firstSuperuser: null,
    });
    expect(rateLimitConfig()).toEqual({
      windowSeconds: 60,
      buckets: {
        login: { perIp: 30, global: 600 },
        register: { perIp: 30, global: 600 },
        refresh: { perIp: 60, global: null },
      },
    });
    expect(databaseConfig()).toEqual({
      url: null,
      pool: {
        size: 10,
        connectTimeoutMs: 2_000,
        acquireTimeoutMs: 2_000,
        maxWaiting: 100,
        statementTimeoutMs: 5_000,
      },
    });
    expect(cacheConfig()).toMatchObject({ redisUrl: null });
  });

  it('treats blank numeric variables as unset, not as 0', () => {
    withEnv({ PORT: '', ACCESS_TOKEN_EXPIRE_MINUTES: ' ', REFRESH_TOKEN_EXPIRE_DAYS: '' });
    expect(appConfig().port).toBe(8000);
    expect(authConfig()).toMatchObject({ accessTokenTtlSeconds: 1800, refreshTokenTtlSeconds: 604800 });
  });

  it('serves /metrics on the application port outside production, or with a token, unless METRICS_PORT is set', () => {
    withEnv({});
    expect(appConfig().metrics).toEqual({ token: null, port: null, onAppPort: true });
    withEnv({ NODE_ENV: 'production' });
    expect(appConfig().metrics.onAppPort).toBe(false);
    withEnv({ NODE_ENV: 'production', METRICS_TOKEN: 'a-scraper-token-16' });
    expect(appConfig().metrics).toEqual({ token: 'a-scraper-token-16', port: null, onAppPort: true });
    withEnv({ METRICS_PORT: '9464' });
    expect(appConfig().metrics).toEqual({ token: null, port: 9464, onAppPort: false });
  });

  it('refuses a METRICS_TOKEN under 16 characters without quoting it, and METRICS_PORT equal to PORT', () => {
    withEnv({ METRICS_TOKEN: 'short-secret' });
    expect(() => appConfig()).toThrow('METRICS_TOKEN must be at least 16 characters');
    expect(() => appConfig()).not.toThrow(/short-secret/);
    withEnv({ PORT: '9000', METRICS_PORT: '9000' });
    expect(() => appConfig()).toThrow('METRICS_PORT must differ from PORT');
  });

  it('turns the API docs off with DOCS_ENABLED=false', () => {
    withEnv({ DOCS_ENABLED: 'false' });
    expect(appConfig().docsEnabled).toBe(false);
  });

  it('refuses TRUST_PROXY=true, which would believe a client-chosen X-Forwarded-For', () => {
    withEnv({ TRUST_PROXY: 'true' });
    expect(() => appConfig()).toThrow(/TRUST_PROXY="true": TRUST_PROXY=true would trust a client-chosen/);
  });

  it.each([
    ['false', false],
    ['2', 2],
    ['10.0.0.0/8, 127.0.0.1', '10.0.0.0/8, 127.0.0.1'],
  ])('reads TRUST_PROXY=%p', (value, expected) => {
    withEnv({ TRUST_PROXY: value });
    expect(appConfig().trustProxy).toEqual(expected);
  });

  it('parses the values it is given', () => {
    withEnv({
      PORT: '9000',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      JWT_ALGORITHM: 'HS512',
      ACCESS_TOKEN_EXPIRE_MINUTES: '5',
      FIRST_SUPERUSER_EMAIL: 'Root@Example.com',
      FIRST_SUPERUSER_PASSWORD: 'long enough',
      AUTH_SESSION_MAX_DAYS: '90',
      AUTH_REFRESH_RATE_LIMIT_PER_IP: '12',
    });
    expect(rateLimitConfig().buckets.refresh).toEqual({ perIp: 12, global: null });
    expect(appConfig()).toMatchObject({
      port: 9000,
      corsOrigins: ['https://a.example', 'https://b.example'],
    });
    expect(authConfig()).toMatchObject({
      algorithm: 'HS512',
      accessTokenTtlSeconds: 300,
      firstSuperuser: { email: 'root@example.com', password: 'long enough' },
      sessionMaxAgeSeconds: 90 * 86_400,
    });
  });

  it.each([
    ['http://localhost:5173/', ['http://localhost:5173']],
    [
      'HTTPS://App.Example.com:443/, http://a.example:8080',
      ['https://app.example.com', 'http://a.example:8080'],
    ],
    ['https://a.example, https://a.example/', ['https://a.example']],
  ])('reduces each CORS_ORIGINS entry of %p to the origin a browser sends', (value, expected) => {
    withEnv({ CORS_ORIGINS: value });
    expect(appConfig().corsOrigins).toEqual(expected);
  });

  it.each([
    ['http://localhost:5173/app', '"http://localhost:5173/app" has a path: give http://localhost:5173'],
    ['https://a.example/?x=1', '"https://a.example/?x=1" has a query: give https://a.example'],
    ['https://a.example#top', '"https://a.example#top" has a fragment: give https://a.example'],
    [
      'https://*.example.com',
      '"https://*.example.com" has a wildcard: `*` is allowed only alone, for every origin',
    ],
    ['https://a.example, *', '"*" has a wildcard: `*` is allowed only alone, for every origin'],
    ['localhost:5173', '"localhost:5173" is not an http(s) origin'],
    ['app.example.com', '"app.example.com" is not a URL: give scheme://host[:port]'],
    ['https://user:pw@a.example', '"https://user:pw@a.example" has credentials: give https://a.example'],
  ])('refuses to boot on CORS_ORIGINS=%p, naming the entry in one line', (value, reason) => {
    withEnv({ CORS_ORIGINS: value });
    expect(configurationProblems([appConfig])).toEqual([
      `CORS_ORIGINS=${JSON.stringify(value)}: CORS_ORIGINS must be \`*\` or comma-separated origins: ${reason}`,
    ]);
  });

  it('names every bad CORS_ORIGINS entry in the one line of the variable', () => {
    withEnv({ CORS_ORIGINS: 'https://ok.example, https://a.example/x, https://b.example?y' });
    expect(configurationProblems([appConfig])).toEqual([
      'CORS_ORIGINS="https://ok.example, https://a.example/x, https://b.example?y": CORS_ORIGINS must be `*` or ' +
        'comma-separated origins: "https://a.example/x" has a path: give https://a.example; ' +
        '"https://b.example?y" has a query: give https://b.example',
    ]);
  });

  it.each([
    [appConfig, { PORT: 'eighty' }, /PORT="eighty": .*PORT must be an integer/],
    [appConfig, { LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [appConfig, { DOCS_ENABLED: 'no' }, /DOCS_ENABLED must be one of true, false/],
    [authConfig, { JWT_ALGORITHM: 'RS256' }, /JWT_ALGORITHM must be one of HS256, HS384, HS512/],
    [authConfig, { ACCESS_TOKEN_EXPIRE_MINUTES: '0' }, /ACCESS_TOKEN_EXPIRE_MINUTES/],
    [authConfig, { AUTH_SESSION_MAX_DAYS: '0' }, /AUTH_SESSION_MAX_DAYS/],
    [rateLimitConfig, { AUTH_REFRESH_RATE_LIMIT_PER_IP: 'many' }, /AUTH_REFRESH_RATE_LIMIT_PER_IP/],
    [
      authConfig,
      { FIRST_SUPERUSER_EMAIL: 'root@example.com' },
      /set FIRST_SUPERUSER_EMAIL and FIRST_SUPERUSER_PASSWORD together/,
    ],
    [databaseConfig, { DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a postgres/],
    [cacheConfig, { REDIS_URL: 'localhost:6379' }, /REDIS_URL must be a redis/],
  ])('stops the boot with a clear message for a bad value (%#)', (namespace, env, message) => {
    withEnv(env);
    expect(() => (namespace as () => unknown)()).toThrow(message);
  });
});
