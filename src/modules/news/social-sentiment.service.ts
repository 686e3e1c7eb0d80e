import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../../common/time/clock';
import { NotConfiguredError, ProviderUnavailableError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { newsConfig } from '../../config/news.config';
import { ProviderCallGateway, SocialSentiment, SocialSentimentProvider } from '../../integrations/vendors';
import { normalizeSymbol } from '../market';
import { newYorkTime } from '../../common/time/new-york-time';

/** The social-sentiment role, present only when FINNHUB_API_KEY is configured. */
export const SOCIAL_SENTIMENT_PROVIDER = Symbol('SOCIAL_SENTIMENT_PROVIDER');
const WINDOW_DAYS = 7;

@Injectable()
export class SocialSentimentService {
  constructor(
    @Inject(SOCIAL_SENTIMENT_PROVIDER) private readonly provider: SocialSentimentProvider | null,
    private readonly gateway: ProviderCallGateway,
    private readonly clock: Clock,
    @Inject(newsConfig.KEY) private readonly config: ConfigType<typeof newsConfig>,
  ) {}

  /** Mentions and mean score of the last 7 days. 503 without a key, 500 when the vendor fails. */
  async forSymbol(rawSymbol: string): Promise<SocialSentiment> {
    const provider = this.provider;
    if (!provider) throw new NotConfiguredError(ErrorDetail.socialSentimentNotConfigured);
    const symbol = normalizeSymbol(rawSymbol);
    const now = this.clock.now();
    const from = newYorkTime(new Date(now.getTime() - WINDOW_DAYS * 86_400_000)).date;
    const to = newYorkTime(now).date;
    try {
      return await this.gateway.call({
        provider: provider.name,
        kind: 'social-sentiment',
        key: `${symbol}:${from}:${to}`,
        ttlMs: this.config.newsTtlMs,
        minIntervalMs: this.config.minIntervalMs,
        fetch: () => provider.socialSentiment(symbol, from, to),
      });
    } catch (error) {
      throw new ProviderUnavailableError(ErrorDetail.socialSentimentRetrievalFailed, { cause: error });
    }
  }
}
