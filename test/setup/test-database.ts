import { PGlite } from '@electric-sql/pglite';
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

export interface TestDatabase {
  /** Environment that points the app at this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A fresh, isolated database per test app: a PGlite copy or a new database on a real server. */
export function createTestDatabase(): Promise<TestDatabase> {
  return process.env.TEST_DATABASE_KIND === 'postgres' ? createPostgresDatabase() : createPglite();
}

const PGLITE_TEMPLATE = join(tmpdir(), 'ia-test-pglite-template-v1');

/** initdb takes seconds; a template data directory made once and copied takes milliseconds. */
async function pgliteTemplate(): Promise<string> {
  if (existsSync(PGLITE_TEMPLATE)) return PGLITE_TEMPLATE;
  const building = mkdtempSync(join(tmpdir(), 'ia-test-pglite-building-'));
  const db = await PGlite.create({ dataDir: join(building, 'pgdata') });
  await db.close();
  try {
    renameSync(building, PGLITE_TEMPLATE);
  } catch {
    rmSync(building, { recursive: true, force: true });
  }
  return PGLITE_TEMPLATE;
}

async function createPglite(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ia-test-data-'));
  cpSync(await pgliteTemplate(), dataDir, { recursive: true });
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: '' },
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function createPostgresDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL must be set for the e2e-postgres project');
  const name = `ia_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'ia-test-data-'));
  return {
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir },
    async drop() {
      await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function withClient<T>(url: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
