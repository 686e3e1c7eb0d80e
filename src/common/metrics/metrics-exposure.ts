import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { createHash, timingSafeEqual } from 'node:crypto';
import { appConfig } from '../../config/app.config';
import { NotFoundError, UnauthenticatedError } from '../errors/domain-errors';
import { ErrorDetail } from '../errors/error-details';
import { Metrics } from './metrics';

/** Where a scrape arrived: the application's port, or the listener of METRICS_PORT. */
export type MetricsListener = 'application' | 'metrics-port';

/**
 * Who may read /metrics (it shows the runtime and the traffic): on the application port only when
 * METRICS_PORT is unset and either METRICS_TOKEN is set or the service is not in production; with
 * METRICS_TOKEN, only a bearer of that token, wherever it is served.
 */
@Injectable()
export class MetricsExposure {
  private readonly tokenDigest: Buffer | null;

  constructor(
    private readonly metrics: Metrics,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {
    this.tokenDigest = config.metrics.token === null ? null : digest(config.metrics.token);
  }

  async scrape(listener: MetricsListener, authorization: string | undefined): Promise<string> {
    if (listener === 'application' && !this.config.metrics.onAppPort)
      throw new NotFoundError(ErrorDetail.notFound);
    if (this.tokenDigest && !this.bearsToken(authorization)) {
      throw new UnauthenticatedError(ErrorDetail.couldNotValidateCredentials);
    }
    return this.metrics.registry.metrics();
  }

  /** Compares digests, so the time taken says nothing about the token. */
  private bearsToken(authorization: string | undefined): boolean {
    const match = /^Bearer (.+)$/i.exec(authorization ?? '');
    return match !== null && timingSafeEqual(digest(match[1]), this.tokenDigest!);
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
