import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { assistantConfig } from '../../config/assistant.config';

export type AiServiceStatus = 'ready' | 'degraded' | 'unavailable';

/** Failed model turns in a row after which the model is reported unavailable rather than degraded. */
export const UNAVAILABLE_AFTER_FAILURES = 3;

/**
 * What health reports as `ai_service`. The offline engine is always ready. With a model
 * configured: ready while it answers, degraded after a failed turn (answers come from the offline
 * fallback), unavailable after several failures in a row; one good answer makes it ready again.
 */
@Injectable()
export class AiStatus {
  private failuresInARow = 0;

  constructor(@Inject(assistantConfig.KEY) private readonly config: ConfigType<typeof assistantConfig>) {}

  recordSuccess(): void {
    this.failuresInARow = 0;
  }

  recordFailure(): void {
    this.failuresInARow += 1;
  }

  status(): AiServiceStatus {
    if (this.config.provider === 'offline' || this.failuresInARow === 0) return 'ready';
    return this.failuresInARow >= UNAVAILABLE_AFTER_FAILURES ? 'unavailable' : 'degraded';
  }
}
