import { randomUUID } from 'node:crypto';
import { ConsistentCache } from '../../src/common/cache/consistent-cache';
import { MemoryConsistentCache } from '../../src/common/cache/memory-consistent-cache';
import { RedisConsistentCache } from '../../src/common/cache/redis-consistent-cache';
import { TcpProxy } from '../support/tcp-proxy';

/** A load that returns `value` only when the test opens the gate: the window a writer races into. */
function gatedLoad<T>(value: T) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { load: () => opened.then(() => value), open };
}

const redisUrl = process.env.TEST_REDIS_URL;
const kinds: [string, () => Promise<ConsistentCache>][] = [
  ['in process', async () => new MemoryConsistentCache(1_000)],
  ...(redisUrl
    ? ([
        [
          'in Redis',
          async () => {
            const cache = new RedisConsistentCache(redisUrl, `test-${randomUUID()}`);
            await cache.connect();
            return cache;
          },
        ],
      ] as [string, () => Promise<ConsistentCache>][])
    : []),
];

describe.each(kinds)('ConsistentCache %s', (_kind, create) => {
  let sut: ConsistentCache;

  beforeEach(async () => {
    sut = await create();
  });
  afterEach(() => sut.close());

  it('serves a filled value without loading again', async () => {
    await sut.read('k', async () => 'first', 60_000);
    expect(await sut.read('k', async () => 'second', 60_000)).toBe('first');
  });

  it('a final value written while a read is loading wins over that read', async () => {
    const racing = gatedLoad('active');
    const reading = sut.read('session', racing.load, 60_000);
    await sut.putFinal('session', 'revoked', 60_000);
    racing.open();
    expect(await reading).toBe('active');
    expect(await sut.read('session', async () => 'active', 60_000)).toBe('revoked');
  });

  it('a stale mark written while a read is loading keeps that read out, and later reads go to the source', async () => {
    const racing = gatedLoad({ isSuperuser: true });
    const reading = sut.read('user', racing.load, 60_000);
    await sut.markStale('user');
    racing.open();
    await reading;
    expect(await sut.read('user', async () => ({ isSuperuser: false }), 60_000)).toEqual({
      isSuperuser: false,
    });
    expect(await sut.read('user', async () => ({ isSuperuser: 'reloaded' }), 60_000)).toEqual({
      isSuperuser: 'reloaded',
    });
  });

  it('caches null (an unknown user) as a value', async () => {
    await sut.read('missing', async () => null, 60_000);
    expect(await sut.read('missing', async () => 'found', 60_000)).toBeNull();
  });
});

describe('RedisConsistentCache when Redis is unreachable', () => {
  it('reads the source and answers within its command timeout', async () => {
    const sut = new RedisConsistentCache('redis://127.0.0.1:1', `test-${randomUUID()}`);
    await sut.connect();
    const started = Date.now();
    expect(await sut.read('k', async () => 'from the database', 60_000)).toBe('from the database');
    await sut.putFinal('k', 'revoked', 60_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    await sut.close();
  });
});

const describeWithRedis = redisUrl ? describe : describe.skip;
describeWithRedis('RedisConsistentCache when its connection stalls without closing', () => {
  let proxy: TcpProxy;
  let stalling: RedisConsistentCache;
  let direct: RedisConsistentCache;

  beforeEach(async () => {
    const { hostname, port } = new URL(redisUrl!);
    proxy = await TcpProxy.start({ host: hostname, port: Number(port || 6379) });
    const namespace = `test-${randomUUID()}`;
    stalling = new RedisConsistentCache(`redis://127.0.0.1:${proxy.port}`, namespace);
    direct = new RedisConsistentCache(redisUrl!, namespace);
    await Promise.all([stalling.connect(), direct.connect()]);
  });
  afterEach(async () => {
    await Promise.all([stalling.close(), direct.close()]);
    await proxy.close();
  });

  it('uses Redis again once the connection answers, so it sees the revocations of other instances', async () => {
    const held = proxy.hold();
    expect(await stalling.read('warm-up', async () => 'from the database', 60_000)).toBe('from the database');
    held.release();
    await direct.putFinal('session', 'revoked', 60_000);
    let seen: string | undefined;
    for (const deadline = Date.now() + 5_000; Date.now() < deadline;) {
      seen = await stalling.read('session', async () => 'active', 60_000);
      if (seen === 'revoked') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen).toBe('revoked');
  });
});
