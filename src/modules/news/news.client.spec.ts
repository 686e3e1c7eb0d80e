import { createCache } from 'cache-manager';
import { ConfigType } from '@nestjs/config';
import { newsConfig } from '../../config/news.config';
import { NewsFilter, NewsProvider, ProviderArticle, ProviderCallGateway } from '../../integrations/vendors';
import { FakeClock } from '../../../test/fakes/clock';
import { NewsClient } from './news.client';

/** A vendor that counts its requests and dates its answers on the fake timeline. */
class CountingProvider extends NewsProvider {
  readonly name = 'vendor';
  readonly configurationVariable = 'VENDOR_KEY';
  readonly requests: string[] = [];

  constructor(
    private readonly time: FakeClock,
    readonly local = false,
  ) {
    super();
  }

  latest(filter: NewsFilter): Promise<ProviderArticle[]> {
    this.requests.push(`latest ${filter.symbol ?? ''} @${this.time.elapsedMs()}`);
    return Promise.resolve([this.article()]);
  }

  search(query: string): Promise<ProviderArticle[]> {
    this.requests.push(`search ${query} @${this.time.elapsedMs()}`);
    return Promise.resolve([this.article()]);
  }

  private article(): ProviderArticle {
    const publishedAt = this.time.now().toISOString();
    return {
      title: 't',
      description: '',
      url: `https://example.com/${publishedAt}`,
      source: 's',
      publishedAt,
    };
  }
}

describe('NewsClient', () => {
  const config = { newsTtlMs: 60_000, searchTtlMs: 300_000, minIntervalMs: 1_000 } as ConfigType<
    typeof newsConfig
  >;
  let time: FakeClock;
  let provider: CountingProvider;
  let sut: NewsClient;

  beforeEach(() => {
    time = new FakeClock('2026-11-20T15:00:00Z');
    provider = new CountingProvider(time);
    const gateway = new ProviderCallGateway(createCache(), time, time, {
      maxRateLimitWaitMs: 2_000,
      maxRateLimitRetries: 1,
    });
    sut = new NewsClient(provider, gateway, config);
  });

  it('reuses latest news for 60 s', async () => {
    await sut.latest({ symbol: 'AAPL' }, 50);
    time.advance(59_999);
    await sut.latest({ symbol: 'AAPL' }, 50);
    time.advance(1);
    await sut.latest({ symbol: 'AAPL' }, 50);
    expect(provider.requests).toEqual(['latest AAPL @0', 'latest AAPL @60000']);
  });

  it('reuses a search for 5 minutes, whatever the case of the query', async () => {
    await sut.search('Apple', 50);
    time.advance(299_999);
    await sut.search('apple', 50);
    time.advance(1);
    await sut.search('apple', 50);
    expect(provider.requests).toEqual(['search Apple @0', 'search apple @300000']);
  });

  it('paces different requests to the vendor', async () => {
    const calls = Promise.all([
      sut.latest({}, 50),
      sut.latest({ symbol: 'MSFT' }, 50),
      sut.search('oil', 50),
    ]);
    await time.runTimers();
    await calls;
    expect(provider.requests).toEqual(['latest  @0', 'latest MSFT @1000', 'search oil @2000']);
  });

  it('asks a local provider directly, every time', async () => {
    const local = new CountingProvider(time, true);
    const direct = new NewsClient(
      local,
      new ProviderCallGateway(createCache(), time, time, { maxRateLimitWaitMs: 0, maxRateLimitRetries: 0 }),
      config,
    );
    await direct.latest({}, 50);
    await direct.latest({}, 50);
    expect(local.requests).toEqual(['latest  @0', 'latest  @0']);
  });
});
