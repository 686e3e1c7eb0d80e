import { createCache } from 'cache-manager';
import { VendorUnavailableError, UnknownSymbolError } from '../provider-errors';
import { FakeClock } from '../../../../test/fakes/clock';
import { ProviderCall, ProviderCallGateway } from './provider-call-gateway';

describe('ProviderCallGateway', () => {
  let time: FakeClock;
  let sut: ProviderCallGateway;
  let fetchStarts: number[];

  beforeEach(() => {
    time = new FakeClock('2026-11-20T15:00:00Z');
    sut = new ProviderCallGateway(createCache(), time, time, {
      maxRateLimitWaitMs: 5_000,
      maxRateLimitRetries: 1,
    });
    fetchStarts = [];
  });

  const quoteCall = (key: string, fetch?: () => Promise<string>): ProviderCall<string> => ({
    provider: 'vendor',
    kind: 'quote',
    key,
    ttlMs: 60_000,
    minIntervalMs: 300,
    fetch: async () => {
      fetchStarts.push(time.elapsedMs());
      return fetch ? fetch() : `${key}@${time.elapsedMs()}`;
    },
  });

  it('turns ten concurrent cold calls for the same key into one provider request', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => sut.call(quoteCall('AAPL'))));
    expect(fetchStarts).toEqual([0]);
    expect(new Set(answers)).toEqual(new Set(['AAPL@0']));
  });

  it('reuses an answer for its TTL and asks again once it has expired', async () => {
    await sut.call(quoteCall('AAPL'));
    time.advance(59_999);
    expect(await sut.call(quoteCall('AAPL'))).toBe('AAPL@0');
    time.advance(1);
    expect(await sut.call(quoteCall('AAPL'))).toBe('AAPL@60000');
    expect(fetchStarts).toEqual([0, 60_000]);
  });

  it('does not reuse an answer stored later than the clock now reads', async () => {
    const unpaced = { ...quoteCall('AAPL'), minIntervalMs: 0 };
    await sut.call(unpaced);
    time.advance(-1);
    expect(await sut.call(unpaced)).toBe('AAPL@-1');
  });

  it('does not cache when the TTL is 0', async () => {
    await sut.call({ ...quoteCall('AAPL'), ttlMs: 0 });
    time.advance(1_000);
    await sut.call({ ...quoteCall('AAPL'), ttlMs: 0 });
    expect(fetchStarts).toEqual([0, 1_000]);
  });

  it('starts requests to one provider at least 0.3 s apart', async () => {
    const calls = Promise.all(['A', 'B', 'C'].map((symbol) => sut.call(quoteCall(symbol))));
    await time.runTimers();
    expect(await calls).toEqual(['A@0', 'B@300', 'C@600']);
    time.advance(1_000);
    await sut.call(quoteCall('D'));
    expect(fetchStarts).toEqual([0, 300, 600, 1_600]);
  });

  it('never delays an unpaced provider, even when the clock goes back', async () => {
    const unpaced = (key: string) => ({ ...quoteCall(key), minIntervalMs: 0 });
    await sut.call(unpaced('A'));
    time.advance(-3_600_000);
    expect(await sut.call(unpaced('B'))).toBe('B@-3600000');
  });

  it('paces each provider on its own', async () => {
    const other = { ...quoteCall('A'), provider: 'other' };
    await Promise.all([sut.call(quoteCall('A')), sut.call(other)]);
    expect(fetchStarts).toEqual([0, 0]);
  });

  it('waits out a short rate limit and retries once', async () => {
    let attempts = 0;
    const call = sut.call(
      quoteCall('AAPL', async () => {
        attempts += 1;
        if (attempts === 1) throw new VendorUnavailableError('vendor', 'HTTP 429', 2_000);
        return 'fresh';
      }),
    );
    await time.runTimers();
    expect(await call).toBe('fresh');
    expect(fetchStarts).toEqual([0, 2_000]);
  });

  it('fails fast while the provider asked for a long back-off, then recovers', async () => {
    const limited = sut.call(
      quoteCall('AAPL', async () => {
        throw new VendorUnavailableError('vendor', 'rate limited', 60_000);
      }),
    );
    await expect(limited).rejects.toBeInstanceOf(VendorUnavailableError);
    time.advance(30_000);
    await expect(sut.call(quoteCall('MSFT'))).rejects.toMatchObject({ retryAfterMs: 30_000 });
    expect(fetchStarts).toEqual([0]);
    time.advance(30_000);
    expect(await sut.call(quoteCall('MSFT'))).toBe('MSFT@60000');
  });

  it('passes other errors through without caching them', async () => {
    await expect(
      sut.call(
        quoteCall('ZZZZ', async () => {
          throw new UnknownSymbolError('ZZZZ');
        }),
      ),
    ).rejects.toBeInstanceOf(UnknownSymbolError);
    time.advance(300);
    expect(await sut.call(quoteCall('ZZZZ'))).toBe('ZZZZ@300');
  });

  it('serves values stored from a multi-symbol answer', async () => {
    const msft = { provider: 'vendor', kind: 'quote', key: 'MSFT' };
    await sut.store(msft, 'from-batch', 60_000);
    expect(await sut.peek(msft)).toBe('from-batch');
    expect(await sut.call(quoteCall('MSFT'))).toBe('from-batch');
    time.advance(60_000);
    expect(await sut.peek(msft)).toBeUndefined();
  });

  it("keeps a local provider's answers in this process, shared and frozen, out of the shared cache", async () => {
    const cache = createCache();
    sut = new ProviderCallGateway(cache, time, time, { maxRateLimitWaitMs: 5_000, maxRateLimitRetries: 1 });
    const bars = [{ date: '2026-11-19', close: 1 }];
    const local: ProviderCall<typeof bars> = {
      provider: 'replay',
      kind: 'history',
      key: 'MSFT',
      ttlMs: 60_000,
      minIntervalMs: 0,
      local: true,
      fetch: async () => bars,
    };
    expect(sut.peekLocal(local)).toBeUndefined();
    const first = await sut.call(local);
    expect(await sut.call({ ...local, fetch: async () => [] })).toBe(first);
    expect(sut.peekLocal(local)).toBe(first);
    expect(Object.isFrozen(first[0])).toBe(true);
    expect(await cache.get('provider:replay:history:MSFT')).toBeUndefined();
    time.advance(60_000);
    expect(sut.peekLocal(local)).toBeUndefined();
    expect(await sut.call({ ...local, fetch: async () => [] })).toEqual([]);
  });
});
