import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';

export interface TestDatabase {
  /** Environment that points the app at this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A fresh, isolated database per test app: an embedded cluster of its own or a new database on a real server. */
export function createTestDatabase(): Promise<TestDatabase> {
  return process.env.TEST_DATABASE_KIND === 'postgres' ? createPostgresDatabase() : createEmbedded();
}

const EMBEDDED_TEMPLATE = join(tmpdir(), 'ia-test-embedded-template-v1');

/** initdb takes about a second; a template cluster made once and copied takes milliseconds. */
async function embeddedTemplate(): Promise<string> {
  if (existsSync(EMBEDDED_TEMPLATE)) return EMBEDDED_TEMPLATE;
  const building = mkdtempSync(join(tmpdir(), 'ia-test-embedded-building-'));
  await (await startEmbeddedPostgres(building)).stop();
  try {
    renameSync(building, EMBEDDED_TEMPLATE);
  } catch {
    rmSync(building, { recursive: true, force: true });
  }
  return EMBEDDED_TEMPLATE;
}

async function createEmbedded(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ia-test-data-'));
  cpSync(await embeddedTemplate(), dataDir, { recursive: true });
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
