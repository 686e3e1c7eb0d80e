import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = join(__dirname, '..', '..');

/** The environment of a fresh checkout: nothing configured but what a test sets. */
function freshEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { PATH, HOME } = process.env;
  return { PATH, HOME, NODE_ENV: 'development', ...env };
}

interface LogRecord {
  level: number;
  msg: string;
  context?: string;
  req?: { method: string; url: string };
}

/** Runs the built service (`npm start` without the build check) exactly as a user would. */
describe('the built service on its first run', () => {
  let dataDir: string;

  beforeAll(() => {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-if-stale.js')], { stdio: 'pipe' });
    dataDir = mkdtempSync(join(tmpdir(), 'first-run-'));
  }, 120_000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stops on bad configuration with one line per bad variable, no stack, exit code 1', () => {
    const run = spawnSync(process.execPath, ['dist/main.js'], {
      cwd: ROOT,
      env: freshEnv({
        DATA_DIR: dataDir,
        PORT: 'eighty',
        CORS_ORIGINS: 'http://localhost:5173/app',
        JWT_ALGORITHM: 'RS256',
        MARKET_DATA_PROVIDER: 'bloomberg',
      }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      'Invalid environment configuration:',
      expect.stringMatching(/^ {2}- PORT="eighty": .*PORT must be an integer$/),
      '  - CORS_ORIGINS="http://localhost:5173/app": CORS_ORIGINS must be `*` or comma-separated origins: ' +
        '"http://localhost:5173/app" has a path: give http://localhost:5173',
      '  - JWT_ALGORITHM="RS256": JWT_ALGORITHM must be one of HS256, HS384, HS512',
      expect.stringMatching(/^ {2}- MARKET_DATA_PROVIDER="bloomberg": MARKET_DATA_PROVIDER must be one of /),
    ]);
  });

  it('judges the values of a .env file in the working directory the same way', () => {
    const workdir = mkdtempSync(join(tmpdir(), 'first-run-env-'));
    try {
      writeFileSync(join(workdir, '.env'), 'LOG_LEVEL=loud\nCORS_ORIGINS=https://app.example.com\n');
      const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'main.js')], {
        cwd: workdir,
        env: freshEnv({ DATA_DIR: dataDir }),
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect({ status: run.status, stderr: run.stderr.trimEnd().split('\n') }).toEqual({
        status: 1,
        stderr: [
          'Invalid environment configuration:',
          '  - LOG_LEVEL="loud": LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
        ],
      });
    } finally {
      rmSync(workdir, { recursive: true, force: true });
    }
  });

  it('boots on embedded defaults without a warning and says where the API and its docs are', async () => {
    const service = spawn(process.execPath, ['dist/main.js'], {
      cwd: ROOT,
      env: freshEnv({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const records = await recordsUntilListening(service);
      expect(records.filter((record) => record.level >= 40)).toEqual([]);
      const line = records[records.length - 1];
      const [, origin] =
        /^API at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1, docs at \1\/docs, web app at \1\/$/.exec(line.msg) ??
        [];
      expect({ context: line.context, origin }).toEqual({ context: 'Bootstrap', origin: expect.any(String) });
      const health = await fetch(`${origin}/api/v1/system/health?probe=1`);
      expect(health.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(records.map((record) => record.req).filter(Boolean)).toContainEqual({
        id: expect.any(String),
        method: 'GET',
        url: '/api/v1/system/health?probe=1',
      });
      expect((await fetch(`${origin}/docs`)).status).toBe(200);
      const app = await fetch(`${origin}/`);
      expect({ status: app.status, type: app.headers.get('content-type') }).toEqual({
        status: 200,
        type: 'text/html; charset=utf-8',
      });
    } finally {
      service.kill('SIGTERM');
      await new Promise((resolve) => service.once('exit', resolve));
    }
  }, 120_000);
});

/** JSON log lines (stdout is not a TTY) up to the one that names the URL. */
function recordsUntilListening(service: ChildProcess): Promise<LogRecord[]> {
  const records: LogRecord[] = [];
  let stderr = '';
  service.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    service.once('exit', (code) => reject(new Error(`the service exited (${code}): ${stderr}`)));
    createInterface({ input: service.stdout! }).on('line', (line) => {
      const record = JSON.parse(line) as LogRecord;
      records.push(record);
      if (record.context === 'Bootstrap') resolve(records);
    });
  });
}
