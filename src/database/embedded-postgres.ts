import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EmbeddedPostgres {
  /** Connection settings for node-postgres: a unix-socket directory, as for a local server. */
  connection: { host: string; port: number; username: string; database: string };
  stop(): Promise<void>;
}

const SOCKET_PORT = 5432;
const MAX_CONNECTIONS = 8;

/**
 * PGlite (PostgreSQL compiled to WebAssembly) persisted under `dataDir`, served on a private unix
 * socket so TypeORM talks to it through the ordinary `pg` driver, like to any PostgreSQL server.
 * The socket lives in a short temporary directory because socket paths are limited to ~100 bytes.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir: join(dataDir, 'pgdata') });
  const socketDir = mkdtempSync(join(tmpdir(), 'ia-pg-'));
  const server = new PGLiteSocketServer({
    db,
    path: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
    maxConnections: MAX_CONNECTIONS,
  });
  await server.start();
  return {
    connection: { host: socketDir, port: SOCKET_PORT, username: 'postgres', database: 'postgres' },
    async stop() {
      await server.stop();
      await db.close();
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}
