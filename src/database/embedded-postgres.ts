import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

export interface EmbeddedPostgres {
  /** Connection settings for node-postgres: a unix-socket directory, as for a local server. */
  connection: { host: string; port: number; username: string; database: string };
  stop(): Promise<void>;
}

const SOCKET_PORT = 5432;
const MAX_CONNECTIONS = 8;

interface ServerThreadData {
  pglite: string;
  pgliteSocket: string;
  pgdata: string;
  socketPath: string;
  maxConnections: number;
}

// Plain CommonJS source (not a file) so that the same code runs from dist/ and under ts-jest.
const SERVER_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.pglite);
const { PGLiteSocketServer } = require(workerData.pgliteSocket);
(async () => {
  const db = await PGlite.create({ dataDir: workerData.pgdata });
  const server = new PGLiteSocketServer({ db, path: workerData.socketPath, maxConnections: workerData.maxConnections });
  await server.start();
  parentPort.once('message', async () => {
    await server.stop();
    await db.close();
    parentPort.close();
  });
  parentPort.postMessage('ready');
})();
`;

/**
 * PGlite (PostgreSQL compiled to WebAssembly) persisted under `dataDir`, served on a private unix
 * socket so TypeORM talks to it through the ordinary `pg` driver, like to any PostgreSQL server.
 * It runs on a worker thread of its own: opening it overlaps with loading the application, and its
 * queries do not block the HTTP event loop.
 * The socket lives in a short temporary directory because socket paths are limited to ~100 bytes.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  mkdirSync(dataDir, { recursive: true });
  const socketDir = mkdtempSync(join(tmpdir(), 'ia-pg-'));
  const workerData: ServerThreadData = {
    pglite: require.resolve('@electric-sql/pglite'),
    pgliteSocket: require.resolve('@electric-sql/pglite-socket'),
    pgdata: join(dataDir, 'pgdata'),
    socketPath: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
    maxConnections: MAX_CONNECTIONS,
  };
  const thread = new Worker(SERVER_THREAD, { eval: true, workerData });
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      thread.once('message', () => resolve());
      thread.once('error', reject);
      thread.once('exit', (code) =>
        reject(new Error(`The embedded database stopped while opening (exit code ${code})`)),
      );
    });
  } catch (error) {
    rmSync(socketDir, { recursive: true, force: true });
    throw error;
  }
  return {
    connection: { host: socketDir, port: SOCKET_PORT, username: 'postgres', database: 'postgres' },
    async stop() {
      thread.postMessage('stop');
      await exited;
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

let opening: { dataDir: string; server: Promise<EmbeddedPostgres> } | null = null;

/**
 * Starts opening the embedded database before the application module graph is loaded (main.ts),
 * so both proceed at the same time; `embeddedPostgres` then hands this one to the DatabaseModule.
 */
export function openEmbeddedPostgresEarly(dataDir: string): void {
  const server = startEmbeddedPostgres(dataDir);
  server.catch(() => undefined); // reported when the DatabaseModule awaits it
  opening = { dataDir, server };
}

/** The embedded database opened early for this directory, or a newly started one. */
export function embeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  if (opening?.dataDir === dataDir) {
    const { server } = opening;
    opening = null;
    return server;
  }
  return startEmbeddedPostgres(dataDir);
}
